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
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/internal/flagconfig"
	"github.com/calcsol/calcsol/internal/interrupt"
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
	// Read before stop, which cancels ctx too.
	signalled, interrupted := ctx.Err() != nil, interrupt.Interrupted(ctx, err)
	stop()
	if err == nil {
		return
	}
	code := exitcode.Status(err)
	switch {
	case code == exitcode.Interrupted:
		// The command kept what it had done and says how to go on.
	case interrupted:
		err = errors.New("interrupted; no output file was written")
		code = exitcode.Interrupted
	case signalled:
		// An error the signal caused (a plugin stopped by the same Ctrl-C),
		// or one that came as it arrived: interrupted all the same.
		err = fmt.Errorf("interrupted: %w", err)
		code = exitcode.Interrupted
	}
	msg := err.Error()
	if code == exitcode.StrategyFailed {
		// A line for each strategy that failed, each a "calcsol:" line.
		msg = strings.ReplaceAll(msg, "\n", "\ncalcsol: ")
	}
	fmt.Fprintln(os.Stderr, "calcsol:", msg)
	os.Exit(code)
}
