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

	"github.com/calcsol/calcsol/internal/flagconfig"
	"github.com/calcsol/calcsol/internal/interrupt"
)

// inputError is bad input from the user (a malformed deck, file or flag):
// calcsol prints it on one line and exits with status 2. It keeps the
// errors it was made from, so errors.As still finds a *corpus.ParseError
// or a *shuffle.SequenceError in it.
type inputError struct {
	msg  string
	errs []error
}

func (e inputError) Error() string   { return e.msg }
func (e inputError) Unwrap() []error { return e.errs }

// exitError ends calcsol with a status of its own (regress: 3 for a
// regression, 4 for a stale baseline), after printing its message.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// badInput makes an input error (exit status 2) from a format and its
// arguments, as fmt.Errorf does; every error argument stays in the chain,
// whether the format writes it with %w or %v.
func badInput(format string, args ...any) error {
	var errs []error
	for _, a := range args {
		if e, ok := a.(error); ok {
			errs = append(errs, e)
		}
	}
	return inputError{fmt.Errorf(format, args...).Error(), errs}
}

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
	interrupted := interrupt.Interrupted(ctx, err) // before stop, which cancels ctx too
	stop()
	if interrupted {
		fmt.Fprintln(os.Stderr, "calcsol: interrupted; no output file was written")
		os.Exit(interrupt.ExitCode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "calcsol:", err)
		var ie inputError
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		if errors.As(err, &ie) || isUsageError(err) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// isUsageError recognises cobra's and pflag's own complaints about the command line.
func isUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "invalid argument", "flag needs an argument", "accepts ", "requires at least", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
