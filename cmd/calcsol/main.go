// Command calcsol plays, evaluates and compares strategies for the patience
// game Calculation, and makes and analyses the deck corpora they are scored on.
//
// Every flag can also be set in a config file (--config, or ./calcsol.yaml,
// or $HOME/.config/calcsol/calcsol.yaml) under the command's path, e.g.
//
//	eval:
//	  workers: 2
//
// or in the environment as CALCSOL_<COMMAND>_<FLAG> (CALCSOL_EVAL_WORKERS=2).
// A flag given on the command line wins over both.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/internal/flagconfig"
	"github.com/calcsol/calcsol/internal/interrupt"
	"github.com/calcsol/calcsol/plugin"
	"github.com/calcsol/calcsol/tournament"
)

// badInput makes an input error: exit status 2 (see exitcode.BadInput).
var badInput = exitcode.BadInput

var rootCmd = &cobra.Command{
	Use:   "calcsol",
	Short: "Research framework for the patience game Calculation",
	Long: `calcsol plays Calculation with pluggable strategies, scores them on fixed,
reproducible deck corpora, and measures how well shuffles mix.

Start with:
  calcsol tournament           the shipped strategies × corpora × rules, compared deck by deck
  calcsol eval                 the priority strategy on the shipped 30,000-deck corpus
  calcsol play --deck ...      one game with its trace
  calcsol corpus --help        make and check deck corpora
  calcsol shuffle --help       analyse shuffle models`,
	SilenceUsage:      true,
	SilenceErrors:     true,
	PersistentPreRunE: applyConfig,
}

var configFile string

func init() {
	rootCmd.PersistentFlags().StringVar(&configFile, "config", "", "config file (default ./calcsol.yaml or $HOME/.config/calcsol/calcsol.yaml)")
	// The module version, the VCS revision when built from a checkout, the
	// Go version and the executable's checksum: what a report's manifest
	// records as the program. Computed only when asked for (it reads the
	// executable).
	rootCmd.Version = "calcsol"
	cobra.AddTemplateFunc("programVersion", tournament.ProgramVersion)
	rootCmd.SetVersionTemplate("{{programVersion}}\n")
}

// applyConfig fills every flag of cmd not given on the command line from
// the config file or the environment (package flagconfig).
func applyConfig(cmd *cobra.Command, _ []string) error {
	file := configFile
	if file == "" {
		file = flagconfig.DefaultFile("calcsol", "calcsol.yaml")
	}
	if err := flagconfig.Apply(cmd, file, "CALCSOL"); err != nil {
		return badInput("%w", err)
	}
	return nil
}

func main() {
	ctx, stop := interrupt.Context(context.Background())
	err := rootCmd.ExecuteContext(ctx)
	// Every command closes its plugin sessions; this is for a path that
	// did not: no plugin outlives calcsol.
	plugin.KillAll()
	// Read before stop, which cancels ctx too.
	msg, code := outcome(err, ctx.Err() != nil, interrupt.Interrupted(ctx, err))
	stop()
	if msg != "" {
		fmt.Fprintln(os.Stderr, "calcsol: "+msg)
	}
	if code != 0 {
		os.Exit(code)
	}
}

// outcome is the line calcsol ends with ("" for none, "calcsol: " to go
// before it) and its exit status, for the error a command returned.
// signalled says that Ctrl-C, SIGTERM or SIGHUP came; interrupted, that err
// is the cancellation it caused. Once a signal came the status is 130
// whatever the command did, so that a script does not go on as if nothing
// had been asked.
func outcome(err error, signalled, interrupted bool) (string, int) {
	switch {
	case err == nil && !signalled:
		return "", 0
	case err == nil:
		// The signal came as the command ended, or to one that does not
		// stop for it.
		return "interrupted; the command had finished: its output is complete", exitcode.Interrupted
	case exitcode.Status(err) == exitcode.Interrupted:
		// The command kept what it had done and says how to go on.
		return err.Error(), exitcode.Interrupted
	case interrupted:
		return "interrupted; no output file was written", exitcode.Interrupted
	case signalled:
		// An error the signal caused (a plugin stopped by the same Ctrl-C),
		// or one that came as it arrived.
		return "interrupted: " + err.Error(), exitcode.Interrupted
	}
	code := exitcode.Status(err)
	msg := err.Error()
	if code == exitcode.StrategyFailed {
		// A line for each strategy that failed, each a "calcsol:" line.
		msg = strings.ReplaceAll(msg, "\n", "\ncalcsol: ")
	}
	return msg, code
}
