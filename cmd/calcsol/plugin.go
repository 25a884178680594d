package main

import (
	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/plugin/sdk"
	"github.com/calcsol/calcsol/strategies"
)

func newPluginCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugin",
		Short: "Strategy plugins: start a plugin project; serve a built-in strategy over the protocol",
		Long: `A strategy plugin is a program that calcsol starts and asks for moves over
its plugin protocol (docs/plugins.md); a tournament names one with kind plugin.`,
	}
	cmd.AddCommand(newPluginServeCmd(), newPluginInitCmd())
	return cmd
}

func init() { rootCmd.AddCommand(newPluginCmd()) }

func newPluginServeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "serve STRATEGY [KEY=VALUE...]",
		Short: "Serve a built-in strategy as a plugin (calcsol starts it; not for running by hand)",
		Long: `Serve the strategy STRATEGY names (a registry spec, as --strategy takes it:
priority, priority:deadlock_check=exact, greedy, random) over the plugin
protocol, with any further KEY=VALUE parameters added to the spec's first part.
calcsol starts this command itself as a plugin; run by hand it says so and exits.`,
		Example: `  calcsol eval --corpus uniform-1000 --stacks 3 --strategy 'plugin:command=calcsol plugin serve priority'`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			parts, err := strategies.ParseSpec(args[0])
			if err != nil {
				return badInput("%w", err)
			}
			if err := parts[0].Set(args[1:]); err != nil {
				return badInput("%w", err)
			}
			s, err := strategyRegistry().BuildParts(parts)
			if err != nil {
				return badInput("%w", err)
			}
			sdk.Serve(s)
			return nil
		},
	}
}
