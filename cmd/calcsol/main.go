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
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

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
	file := configFile
	if file == "" {
		// Only files named calcsol.yaml: viper's own search would also pick up
		// a file named just "calcsol", such as the binary built in this directory.
		file = defaultConfigFile()
	}
	if file != "" {
		v.SetConfigFile(file)
		if err := v.ReadInConfig(); err != nil {
			return badInput("config %s: %w", file, err)
		}
		for _, key := range v.AllKeys() {
			if err := checkConfigKey(cmd.Root(), key); err != nil {
				return badInput("config %s: %s: %w", file, key, err)
			}
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
			ferr = badInput("config %s: %w", key, err)
		}
	})
	return ferr
}

// checkConfigKey refuses a config key that names no flag: each part but the
// last must name a subcommand, and the last a flag of it ("eval.workers").
// A typo would otherwise be ignored without a word.
func checkConfigKey(root *cobra.Command, key string) error {
	parts := strings.Split(key, ".")
	c := root
	for _, p := range parts[:len(parts)-1] {
		var sub *cobra.Command
		for _, s := range c.Commands() {
			if s.Name() == p {
				sub = s
			}
		}
		if sub == nil {
			return fmt.Errorf("unknown key: %q has no subcommand %q", c.CommandPath(), p)
		}
		c = sub
	}
	name := parts[len(parts)-1]
	for _, s := range c.Commands() {
		if s.Name() == name {
			return fmt.Errorf("%q is a command: put its flags under it (%s: {flag: value})", s.CommandPath(), name)
		}
	}
	if c.Flags().Lookup(name) == nil && c.InheritedFlags().Lookup(name) == nil && c.PersistentFlags().Lookup(name) == nil {
		return fmt.Errorf("unknown key: %q has no flag --%s", c.CommandPath(), name)
	}
	return nil
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
	ctx, stop := interrupt.Context(context.Background())
	err := rootCmd.ExecuteContext(ctx)
	stop()
	if interrupt.Interrupted(ctx, err) {
		fmt.Fprintln(os.Stderr, "calcsol: interrupted; no output file was written")
		os.Exit(interrupt.ExitCode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "calcsol:", err)
		var ie inputError
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
