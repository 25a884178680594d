package main

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// addStrategyFlags registers --strategy, --set, --table and --option on cmd.
func addStrategyFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("strategy", "priority", "strategy to play: a kind ("+strategyKinds()+"),\noptionally with parameters and wrappers: priority:deadlock_check=exact+endgame:k=4")
	f.StringArray("set", nil, "set a parameter of the strategy's KIND layer (or of the first layer that has KEY),\n[KIND.]KEY=VALUE: --set endgame.k=6; repeatable (calcsol strategies lists them)")
	f.String("table", "", "priority table (shorthand for --set priority.table=NAME): a YAML file or a shipped name ("+strings.Join(configs.PriorityNames(), ", ")+");\ndefault: the shipped table for the number of stacks")
	f.StringArray("option", nil, "override a table option (shorthand for --set priority.KEY=VALUE), key=value\n(tx_respects_reservation, deadlock_check, on_exhausted, reassign_tops); repeatable")
}

// strategyKinds lists the kinds of strategy, for the help of the commands
// that play one: made once, as every calcsol process makes the help of
// every command when it starts.
var strategyKinds = sync.OnceValue(func() string { return strings.Join(strategyRegistry().Names(), ", ") })

// newStrategy builds the strategy named by cmd's flags and a label that
// names it in reports under rules r (strategies.Registry.Build).
func newStrategy(cmd *cobra.Command, r solver.Rules) (solver.Strategy, string, error) {
	var c strategies.CommandLine
	c.Spec, _ = cmd.Flags().GetString("strategy")
	c.Set, _ = cmd.Flags().GetStringArray("set")
	c.Table, _ = cmd.Flags().GetString("table")
	c.Options, _ = cmd.Flags().GetStringArray("option")
	s, label, err := strategyRegistry().Build(c, r)
	if err != nil {
		return nil, "", badInput("%w", err)
	}
	return s, label, nil
}

// playOne plays one deck with a session of s and records the trace.
func playOne(ctx context.Context, s solver.Strategy, d *solver.Deck, r solver.Rules) (solver.Result, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	sess, err := s.Start(ctx, r)
	if err != nil {
		return solver.Result{}, badInput("%w", err)
	}
	defer sess.Close()
	return solver.Play(ctx, d, r, sess, true)
}

// addRulesFlags registers --stacks and --preplaced on cmd.
func addRulesFlags(cmd *cobra.Command) {
	cmd.Flags().Int("stacks", 3, fmt.Sprintf("number of stacks, 1..%d", solver.MaxStacks))
	cmd.Flags().Bool("preplaced", false, "take the first A, 2, 3, 4 out of the stock to start the tables (PySol's rule);\ndefault: tables start empty (Nanzaki & Shintani's rules)")
}

// rulesFromFlags reads the rules given by addRulesFlags' flags.
func rulesFromFlags(cmd *cobra.Command) (solver.Rules, error) {
	stacks, _ := cmd.Flags().GetInt("stacks")
	pre, _ := cmd.Flags().GetBool("preplaced")
	r := solver.Rules{Stacks: stacks, Preplaced: pre}
	if err := r.Validate(); err != nil {
		return r, badInput("%v", err)
	}
	return r, nil
}
