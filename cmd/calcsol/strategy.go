package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// strategyNames are the strategies calcsol can build.
var strategyNames = []string{"priority"}

// addStrategyFlags registers --strategy, --table and --option on cmd.
func addStrategyFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("strategy", "priority", "strategy to play: "+strings.Join(strategyNames, ", "))
	f.String("table", "", "priority table: a shipped name ("+strings.Join(configs.PriorityNames(), ", ")+") or a YAML file;\ndefault: the shipped table for the number of stacks")
	f.StringArray("option", nil, "override a table option, key=value (tx_respects_reservation, deadlock_check, on_exhausted); repeatable")
}

// newStrategyFactory builds a factory for the strategy named by cmd's flags,
// for rules r, and a label that names it in reports.
func newStrategyFactory(cmd *cobra.Command, r solver.Rules) (func() solver.Strategy, string, error) {
	name, _ := cmd.Flags().GetString("strategy")
	switch name {
	case "priority":
		t, err := priorityTable(cmd, r)
		if err != nil {
			return nil, "", err
		}
		s, err := strategies.NewPriority(t, r)
		if err != nil {
			return nil, "", badInput("%v", err)
		}
		label := "priority/" + t.Name
		if diff := t.Options.Diff(strategies.DefaultOptions()); diff != "" {
			label += " (" + diff + ")"
		}
		// Priority keeps no state between calls: one value serves every worker.
		return func() solver.Strategy { return s }, label, nil
	}
	return nil, "", badInput("unknown strategy %q (want %s)", name, strings.Join(strategyNames, ", "))
}

// priorityTable loads the table named by --table (or the default for the
// number of stacks) and applies the --option overrides.
func priorityTable(cmd *cobra.Command, r solver.Rules) (*strategies.Table, error) {
	file, _ := cmd.Flags().GetString("table")
	if file == "" {
		file = configs.DefaultPriorityFor(r.Stacks)
		if file == "" {
			return nil, badInput("no shipped priority table for %d stacks: give one with --table, or derive one with\n  calcsol table derive --stacks %d --out table-%d.yaml", r.Stacks, r.Stacks, r.Stacks)
		}
	}
	t, err := configs.LoadPriority(file)
	if err != nil {
		return nil, badInput("%v", err)
	}
	opts, _ := cmd.Flags().GetStringArray("option")
	for _, kv := range opts {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, badInput("--option %q: want key=value", kv)
		}
		if err := t.Options.SetOption(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return nil, badInput("--option: %v", err)
		}
	}
	return t, nil
}

// addRulesFlags registers --stacks and --preplaced on cmd.
func addRulesFlags(cmd *cobra.Command) {
	cmd.Flags().Int("stacks", 3, fmt.Sprintf("number of stacks, 1..%d", solver.MaxStacks))
	cmd.Flags().Bool("preplaced", false, "take the first A, 2, 3, 4 out of the stock to start the tables (PySol's rule);\ndefault: tables start empty (seed 003)")
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
