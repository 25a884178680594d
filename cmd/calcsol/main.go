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
	"github.com/spf13/pflag"

	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/internal/flagconfig"
	"github.com/calcsol/calcsol/internal/interrupt"
	"github.com/calcsol/calcsol/internal/suggest"
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
	// One line with the nearest names (unknownCommand, flagError) rather
	// than cobra's own suggestions, which take four lines and come only
	// for the root's subcommands.
	rootCmd.DisableSuggestions = true
	rootCmd.SetFlagErrorFunc(flagError)
}

// flagError is the error for a flag the command does not take, on one
// line with the flags nearest to it ("unknown flag --wrokers (did you mean
// --workers?)"), and for any other mistake in the flags: exit status 2.
func flagError(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	switch {
	case errors.Is(err, pflag.ErrHelp):
		return err
	case !errors.As(err, &ne):
		return badInput("%w", err)
	}
	names := flagconfig.FlagNames(cmd)
	if group := ne.GetSpecifiedShortnames(); group != "" {
		// -wrokers, a long flag with one dash, reads as shorthands.
		return badInput("unknown shorthand flag -%s in -%s%s", ne.GetSpecifiedName(), group, suggest.Hint(group, names, "--"))
	}
	name := ne.GetSpecifiedName()
	hint := suggest.Hint(name, names, "--")
	if hint == "" {
		hint = elsewhere(cmd.Root(), name)
	}
	return badInput("unknown flag --%s%s", name, hint)
}

// elsewhere is " (a flag of calcsol tournament)" for a flag that other
// commands take (up to three named), "" for one that none does.
func elsewhere(root *cobra.Command, name string) string {
	var paths []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.IsAvailableCommand() && c.LocalNonPersistentFlags().Lookup(name) != nil {
			paths = append(paths, c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	switch {
	case len(paths) == 0:
		return ""
	case len(paths) > 3:
		return " (a flag of " + strings.Join(paths[:3], ", ") + " and others)"
	}
	return " (a flag of " + strings.Join(paths, ", ") + ")"
}

// unknownCommand is the error for args that name no command, with the
// nearest commands ("unknown command \"tournamnet\" for \"calcsol\" (did
// you mean tournament?)"), or nil. Cobra itself checks only the root's
// subcommands: given one of a group's that does not exist ("calcsol corpus
// generat"), it prints the group's help and exits 0.
func unknownCommand(root *cobra.Command, args []string) error {
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		return nil
	}
	// Added by Execute, and found as commands.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	c, rest, _ := root.Find(args)
	if c == nil || c.Runnable() || !c.HasSubCommands() {
		return nil
	}
	word, ok := firstArg(c, rest)
	if !ok {
		return nil
	}
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return badInput("unknown command %q for %q%s", word, c.CommandPath(), suggest.Hint(word, names, ""))
}

// firstArg is the first of args that is neither a flag of c nor a flag's
// value.
func firstArg(c *cobra.Command, args []string) (string, bool) {
	takesValue := func(f *pflag.Flag) bool { return f != nil && f.NoOptDefVal == "" }
	lookup := func(name string) *pflag.Flag {
		if f := c.Flags().Lookup(name); f != nil {
			return f
		}
		return c.InheritedFlags().Lookup(name)
	}
	short := func(name string) *pflag.Flag {
		if f := c.Flags().ShorthandLookup(name); f != nil {
			return f
		}
		return c.InheritedFlags().ShorthandLookup(name)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		case strings.HasPrefix(a, "--"):
			if !strings.Contains(a, "=") && takesValue(lookup(a[2:])) {
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if len(a) == 2 && takesValue(short(a[1:])) {
				i++
			}
		default:
			return a, true
		}
	}
	return "", false
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
	err := unknownCommand(rootCmd, os.Args[1:])
	if err == nil {
		err = rootCmd.ExecuteContext(ctx)
	}
	// Every command closes its plugin sessions; this is for a path that
	// did not: no plugin outlives calcsol.
	plugin.KillAll()
	// Read before stop, which cancels ctx too. Received, not ctx.Err: a
	// command's own signal context may have been cancelled, and the
	// command returned, before ctx was.
	msg, code := outcome(err, interrupt.Received(), interrupt.Interrupted(ctx, err))
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
