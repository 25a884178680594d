// Package flagconfig fills a cobra command's flags from a YAML config file
// and the environment, keyed by the command's path, and refuses config keys
// that name no command or flag:
//
//	eval:               # calcsol eval --workers 2
//	  workers: 2
//	shuffle:
//	  apply: {show: deck}
//
// In the environment the key is PREFIX_PATH_FLAG (CALCSOL_EVAL_WORKERS=2).
// A flag given on the command line wins over both; the environment wins
// over the file.
package flagconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/calcsol/calcsol/internal/suggest"
)

// Apply fills every flag of cmd not given on the command line from file
// ("" for none) or the environment variables with prefix envPrefix. Errors
// name the file and the key: a malformed file, a key that names no
// subcommand or flag, a value the flag does not take.
func Apply(cmd *cobra.Command, file, envPrefix string) error {
	v := viper.New()
	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	if file != "" {
		v.SetConfigFile(file)
		if err := v.ReadInConfig(); err != nil {
			return fmt.Errorf("config %s: %w", file, err)
		}
		for _, key := range v.AllKeys() {
			if err := CheckKey(cmd.Root(), key); err != nil {
				return fmt.Errorf("config %s: %s: %w", file, key, err)
			}
		}
	}
	prefix := strings.Join(strings.Fields(cmd.CommandPath())[1:], ".")
	var ferr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		key := strings.TrimPrefix(prefix+"."+f.Name, ".")
		if f.Changed || ferr != nil || f.Name == "help" || !v.IsSet(key) {
			return
		}
		values := []any{v.Get(key)}
		if list, ok := values[0].([]any); ok {
			values = list // a repeatable flag: each element as one --flag
		}
		for _, val := range values {
			if err := cmd.Flags().Set(f.Name, fmt.Sprint(val)); err != nil {
				ferr = fmt.Errorf("config %s: %w", key, err)
			}
		}
	})
	return ferr
}

// CheckKey refuses a config key that names no flag: each part but the last
// must name a subcommand of root, and the last a flag of it
// ("eval.workers"). A typo would otherwise be ignored without a word.
func CheckKey(root *cobra.Command, key string) error {
	parts := strings.Split(key, ".")
	c := root
	for _, p := range parts[:len(parts)-1] {
		sub := subcommand(c, p)
		if sub == nil {
			return fmt.Errorf("unknown key: %q has no subcommand %q%s", c.CommandPath(), p, suggest.Hint(p, commandNames(c), ""))
		}
		c = sub
	}
	name := parts[len(parts)-1]
	if sub := subcommand(c, name); sub != nil {
		return fmt.Errorf("%q is a command: put its flags under it (%s: {flag: value})", sub.CommandPath(), name)
	}
	if c.Flags().Lookup(name) == nil && c.InheritedFlags().Lookup(name) == nil && c.PersistentFlags().Lookup(name) == nil {
		return fmt.Errorf("unknown key: %q has no flag --%s%s", c.CommandPath(), name, suggest.Hint(name, FlagNames(c), ""))
	}
	return nil
}

// FlagNames returns the long names of the flags cmd takes, its own and
// those it inherits, sorted, without help.
func FlagNames(cmd *cobra.Command) []string {
	var names []string
	add := func(f *pflag.Flag) {
		if f.Name != "help" && !f.Hidden && !slices.Contains(names, f.Name) {
			names = append(names, f.Name)
		}
	}
	cmd.Flags().VisitAll(add)
	cmd.PersistentFlags().VisitAll(add)
	cmd.InheritedFlags().VisitAll(add)
	slices.Sort(names)
	return names
}

// commandNames returns the names of c's subcommands that a user may give.
func commandNames(c *cobra.Command) []string {
	var names []string
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	return names
}

func subcommand(c *cobra.Command, name string) *cobra.Command {
	for _, s := range c.Commands() {
		if s.Name() == name {
			return s
		}
	}
	return nil
}

// DefaultFile returns the first of ./NAME and $HOME/.config/DIR/NAME that is
// a regular file, or "". Only that exact name: viper's own search would also
// pick up a file named like the binary, built in the same directory.
func DefaultFile(dir, name string) string {
	candidates := []string{name}
	if home, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, filepath.Join(home, ".config", dir, name))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
			return c
		}
	}
	return ""
}
