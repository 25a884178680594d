#!/usr/bin/python3
"""An example calcsol strategy plugin in Python: "lowest stack".

It plays a stack top to a table when one fits, then the drawn card to a
table when one takes it, and otherwise puts the drawn card on the lowest
stack. Name it in a tournament config (docs/plugins.md):

    strategies:
      - name: lowest-stack
        kind: plugin
        params: {command: "/usr/bin/python3 examples/pyplugin/plugin.py"}
"""

from calcsol_plugin import TABLES, serve, stack_to_table, to_stack, to_table


class LowestStack:
    name = "lowest-stack"

    def __init__(self):
        # State per game, to show the hooks: the moves each game in play has
        # made. (A KeyError for a game that never began fails that game.)
        self.moves = {}

    def begin(self, game):
        self.moves[game] = 0

    def end(self, game):
        self.moves.pop(game, None)

    def choose(self, pos, game, seed):
        self.moves[game] += 1
        # need[x]: the rank table x takes next (need[0] is a placeholder),
        # asked once per decision rather than once per stack and table.
        need = [-1] + [pos.need(x) for x in range(1, TABLES + 1)]
        for s in range(len(pos.stacks)):
            top = pos.top(s)
            if top and top in need:
                return stack_to_table(s, need.index(top))
        if pos.drawn in need:
            return to_table(need.index(pos.drawn))
        heights = [len(st) for st in pos.stacks]
        return to_stack(heights.index(min(heights)))


if __name__ == "__main__":
    serve(LowestStack())
