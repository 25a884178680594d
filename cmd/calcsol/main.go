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
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// inputError is bad input from the user (a malformed deck, file or flag):
// calcsol prints it on one line and exits with status 2.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// exitError ends calcsol with a status of its own (regress: 3 for a
// regression, 4 for a stale baseline), after printing its message.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// badInput wraps err as an input error (exit status 2).
func badInput(format string, args ...any) error {
	return inputError{fmt.Errorf(format, args...)}
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

// applyConfig fills every flag of cmd that was not given on the command line
// from the config file or the environment, keyed by the command's path.
func applyConfig(cmd *cobra.Command, _ []string) error {
	v := viper.New()
	v.SetEnvPrefix("CALCSOL")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	if configFile != "" {
		v.SetConfigFile(configFile)
		if err := v.ReadInConfig(); err != nil {
			return badInput("config %s: %v", configFile, err)
		}
	} else if found := defaultConfigFile(); found != "" {
		// Only files named calcsol.yaml: viper's own search would also pick up
		// a file named just "calcsol", such as the binary built in this directory.
		v.SetConfigFile(found)
		if err := v.ReadInConfig(); err != nil {
			return badInput("config %s: %v", found, err)
		}
	}
	path := strings.Fields(cmd.CommandPath())[1:]
	prefix := strings.Join(path, ".")
	var ferr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Changed || ferr != nil || f.Name == "help" || f.Name == "config" {
			return
		}
		key := f.Name
		if prefix != "" {
			key = prefix + "." + f.Name
		}
		if !v.IsSet(key) {
			return
		}
		val := v.Get(key)
		var s string
		switch x := val.(type) {
		case []any:
			parts := make([]string, len(x))
			for i, e := range x {
				parts[i] = fmt.Sprint(e)
			}
			s = strings.Join(parts, ",")
		default:
			s = fmt.Sprint(x)
		}
		if err := cmd.Flags().Set(f.Name, s); err != nil {
			ferr = badInput("config %s: %v", key, err)
		}
	})
	return ferr
}

// defaultConfigFile returns ./calcsol.yaml or $HOME/.config/calcsol/calcsol.yaml,
// the first that exists, or "".
func defaultConfigFile() string {
	candidates := []string{"calcsol.yaml"}
	if home, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, filepath.Join(home, ".config", "calcsol", "calcsol.yaml"))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

func main() {
	if err := rootCmd.Execute(); err != nil {
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
