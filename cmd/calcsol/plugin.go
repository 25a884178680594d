package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/internal/interrupt"
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
			// calcsol's signal handling (main's context) catches SIGINT,
			// SIGTERM and SIGHUP, and the server never looks at the
			// context: die of the signal here, as a plugin without that
			// handling would, so that the host tells a plugin stopped by
			// a signal from one that failed.
			go func() {
				ctx := contextOf(cmd)
				<-ctx.Done()
				var se *interrupt.SignalError
				if errors.As(context.Cause(ctx), &se) {
					if sig, ok := se.Signal.(syscall.Signal); ok {
						signal.Reset(sig)
						syscall.Kill(os.Getpid(), sig)
						time.Sleep(time.Second)
					}
				}
				os.Exit(exitcode.Interrupted)
			}()
			sdk.Serve(s)
			return nil
		},
	}
}
