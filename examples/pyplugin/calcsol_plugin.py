"""A small SDK for calcsol strategy plugins in Python.

A plugin is a program that calcsol starts and asks for moves over its plugin
protocol (docs/plugins.md): the hashicorp/go-plugin handshake on stdout, then
gRPC. This module does all of that; a strategy is a class with a ``choose``
method, and the program ends with ``serve(MyStrategy())``:

    class Mine:
        name = "mine"
        def choose(self, pos, game, seed):
            return to_stack(0)

    if __name__ == "__main__":
        serve(Mine())

A strategy may also define ``start(rules)`` (raise NotApplicable when it
cannot play them), ``begin(game)`` and ``end(game)`` to keep state per game,
``stochastic = True`` when its moves depend on the seed, and ``params``, a
list of dicts with name, value and doc.

It needs grpcio and protobuf (Debian: python3-grpcio python3-protobuf);
strategy_pb2*.py beside it are generated from plugin/proto/strategy.proto.
"""

import os
import struct
import sys
import tempfile
import threading
import time
from concurrent import futures

import grpc

import strategy_pb2
import strategy_pb2_grpc

PROTOCOL_VERSION = 1
MAGIC_COOKIE_KEY = "CALCSOL_PLUGIN_MAGIC_COOKIE"
MAGIC_COOKIE_VALUE = "d6a1b1c2-calculation-strategy"

FIRST_DECISION = 1  # flag bit: this is its game's first decision
DELTA = 2  # flag bit: a delta record, the rank drawn since the plugin's last answer

# Move kinds, as in the decision blob.
FAILED, TO_TABLE, TO_STACK, STACK_TO_TABLE, RESIGN = 0, 1, 2, 3, 4

RANKS = 13
TABLES = 4


class NotApplicable(Exception):
    """Raised by start() when the strategy cannot play the rules."""


class Rules:
    def __init__(self, stacks, preplaced, names):
        self.stacks = stacks
        self.preplaced = preplaced
        self.names = names or "ZXCVBNML"


# _NEED[x][k]: the rank table x takes when it holds k cards (0 when full):
# x, 2x, 3x, ... mod 13.
_NEED = [None] + [[((k + 1) * x - 1) % RANKS + 1 for k in range(RANKS)] + [0]
                  for x in range(1, TABLES + 1)]


class Position:
    """What a player sees: never the order of the stock.

    drawn      the drawn card's rank, 1 (A) .. 13 (K); 0 if none
    stock      cards left face down
    placed     placed[x-1]: cards on table x (1..4)
    remaining  remaining[r]: cards of rank r still in the stock (index 1..13)
    stacks     stacks[s]: the cards of stack s, bottom first, each a pair
               (rank, table it is meant for, 0 for none)

    The SDK keeps one Position per game and plays each answered move on it:
    read it in choose, but do not change it, and copy what you keep.
    """

    __slots__ = ("rules", "drawn", "stock", "placed", "remaining", "stacks")

    def need(self, x):
        """The rank table x (1..4) takes next, 0 when it is full: x, 2x, 3x, ... mod 13."""
        return _NEED[x][self.placed[x - 1]]

    def top(self, s):
        """The rank on top of stack s, 0 if it is empty."""
        st = self.stacks[s]
        return st[-1][0] if st else 0

    def advance(self, move, drawn):
        """Plays move, the strategy's last answer, and turns up drawn (0:
        none) if the move placed the drawn card: a delta record."""
        kind, s, x = move[0], move[2], move[3]
        if kind == TO_TABLE:
            self.placed[x - 1] += 1
            self.drawn = 0
        elif kind == TO_STACK:
            self.stacks[s].append((self.drawn, x))
            self.drawn = 0
        elif kind == STACK_TO_TABLE:
            self.stacks[s].pop()
            self.placed[x - 1] += 1
        else:
            raise ValueError("a delta record after a move of kind %d" % kind)
        if self.drawn == 0 and drawn:
            if self.remaining[drawn] == 0:
                raise ValueError("a delta record draws %d, none is left" % drawn)
            self.remaining[drawn] -= 1
            self.stock -= 1
            self.drawn = drawn
        elif self.drawn != drawn:
            raise ValueError("a delta record draws %d, but %d is drawn" % (drawn, self.drawn))


def decode_position(b, off, n):
    """Reads the position of n bytes at b[off:] (Position.MarshalBinary's layout)."""
    end = off + n
    stacks, pre, nlen = b[off], b[off + 1], b[off + 2]
    off += 3
    names = b[off:off + nlen].decode("ascii")
    off += nlen
    p = Position()
    p.rules = Rules(stacks, pre == 1, names)
    p.drawn, p.stock = b[off], b[off + 1]
    off += 2
    p.placed = list(b[off:off + TABLES])
    off += TABLES
    p.remaining = [0] + list(b[off:off + RANKS])
    off += RANKS
    p.stacks = []
    for _ in range(stacks):
        h = b[off]
        p.stacks.append([(c & 0x0F, c >> 4) for c in b[off + 1:off + 1 + h]])
        off += 1 + h
    if off != end:
        raise ValueError("position: %d bytes, read %d" % (n, n - (end - off)))
    return p


_OBS = struct.Struct("<QQBB")
_DEC = struct.Struct("<QBBBBB")


def to_table(x, rank=0):
    """The drawn card to table x."""
    return (TO_TABLE, rank, 0, x, "")


def to_stack(s, x=0, rank=0):
    """The drawn card onto stack s (0-based), meant for table x (0: none)."""
    return (TO_STACK, rank, s, x, "")


def stack_to_table(s, x, rank=0):
    """The top card of stack s to table x."""
    return (STACK_TO_TABLE, rank, s, x, "")


def resign(reason=""):
    return (RESIGN, 0, 0, 0, reason)


def failed(reason):
    return (FAILED, 0, 0, 0, reason)


def encode_decision(game, move):
    kind, rank, stack, table, reason = move
    r = reason.encode("utf-8")[:255]
    return _DEC.pack(game, kind, rank, stack, table, len(r)) + r


class _Servicer(strategy_pb2_grpc.StrategyServicer):
    def __init__(self, strategy):
        self.s = strategy
        self.lock = threading.Lock()
        # game -> [position, the move answered for it, or None]: the SDK
        # asks for delta records and plays the answered moves itself.
        self.games = {}

    def Info(self, request, context):
        params = [strategy_pb2.Param(name=p["name"], value=str(p.get("value", "")), doc=p.get("doc", ""))
                  for p in getattr(self.s, "params", [])]
        return strategy_pb2.InfoResponse(name=getattr(self.s, "name", "python"),
                                         stochastic=getattr(self.s, "stochastic", False), params=params)

    def Start(self, request, context):
        r = request.rules
        start = getattr(self.s, "start", None)
        try:
            if start:
                start(Rules(r.stacks, r.preplaced, r.names))
        except NotApplicable as e:
            return strategy_pb2.StartResponse(not_applicable=True, error=str(e) or "not applicable")
        except Exception as e:  # the session fails to start, with the reason
            return strategy_pb2.StartResponse(error="%s: %s" % (type(e).__name__, e))
        return strategy_pb2.StartResponse(deltas=True)

    def _end(self, games):
        end = getattr(self.s, "end", None)
        kept = self.games
        for g in games:
            kept.pop(g, None)
            if end:
                end(g)

    def Decide(self, request, context):
        with self.lock:
            self._end(request.ended)
            begin = getattr(self.s, "begin", None)
            choose = self.s.choose
            kept = self.games
            blob, count = request.observations, request.count
            unpack, size, pack = _OBS.unpack_from, _OBS.size, _DEC.pack
            out = []
            off = 0
            for _ in range(count):
                game, seed, flags, n = unpack(blob, off)
                off += size
                if flags & DELTA:
                    # The game went on from our last answer: play it here,
                    # and turn up the card drawn since.
                    g = kept.get(game)
                    if g is None or g[1] is None or n != 1:
                        context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                                      "a delta record for game %d, which has no position and answered move" % game)
                    pos = g[0]
                    try:
                        pos.advance(g[1], blob[off])
                    except ValueError as e:
                        context.abort(grpc.StatusCode.INVALID_ARGUMENT, "game %d: %s" % (game, e))
                else:
                    pos = decode_position(blob, off, n)
                    g = kept[game] = [pos, None]
                off += n
                if begin and flags & FIRST_DECISION:
                    begin(game)
                try:
                    move = choose(pos, game, seed)
                except Exception as e:  # this game fails, the others go on
                    move = failed("%s: %s" % (type(e).__name__, e))
                kind = move[0]
                g[1] = move if TO_TABLE <= kind <= STACK_TO_TABLE else None
                if move[4]:
                    out.append(encode_decision(game, move))
                else:
                    out.append(pack(game, kind, move[1], move[2], move[3], 0))
            if off != len(blob):
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, "%d bytes after %d records" % (len(blob) - off, count))
            return strategy_pb2.DecideResponse(count=count, decisions=b"".join(out))

    def End(self, request, context):
        with self.lock:
            self._end(request.games)
        return strategy_pb2.EndResponse()

    def Close(self, request, context):
        close = getattr(self.s, "close", None)
        if close:
            close()
        return strategy_pb2.CloseResponse()


def _health_check(request, context):
    # grpc.health.v1.HealthCheckResponse{status: SERVING}, written by hand:
    # field 1, varint 1. go-plugin asks for the service "plugin".
    return b"\x08\x01"


def _watch_parent(ppid):
    # calcsol killed without a chance to stop us: our parent changes.
    while True:
        time.sleep(0.2)
        if os.getppid() != ppid:
            os._exit(3)


def serve(strategy):
    """Serves strategy as a calcsol plugin; does not return."""
    if os.environ.get(MAGIC_COOKIE_KEY) != MAGIC_COOKIE_VALUE:
        sys.stderr.write("This program is a calcsol strategy plugin: name it in a tournament config "
                         "(kind: plugin) rather than running it by hand.\n")
        sys.exit(1)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    strategy_pb2_grpc.add_StrategyServicer_to_server(_Servicer(strategy), server)
    health = grpc.method_handlers_generic_handler("grpc.health.v1.Health", {
        "Check": grpc.unary_unary_rpc_method_handler(
            _health_check, request_deserializer=lambda b: b, response_serializer=lambda b: b),
    })
    server.add_generic_rpc_handlers((health,))
    # calcsol names a directory for the socket and removes it after us.
    sock_dir = os.environ.get("PLUGIN_UNIX_SOCKET_DIR") or tempfile.mkdtemp(prefix="calcsol-plugin-")
    sock = os.path.join(sock_dir, "plugin.sock")
    server.add_insecure_port("unix:" + sock)
    server.start()
    # The handshake: core protocol | app protocol | network | address | protocol.
    sys.stdout.write("1|%d|unix|%s|grpc\n" % (PROTOCOL_VERSION, sock))
    sys.stdout.flush()
    server.wait_for_termination()
