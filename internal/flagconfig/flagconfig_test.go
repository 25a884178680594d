package flagconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// tree is a root with "eval --workers" and "shuffle apply --show".
func tree() (root, eval, apply *cobra.Command) {
	root = &cobra.Command{Use: "calcsol"}
	root.PersistentFlags().String("config", "", "")
	eval = &cobra.Command{Use: "eval", Run: func(*cobra.Command, []string) {}}
	eval.Flags().Int("workers", 1, "")
	eval.Flags().StringArray("option", nil, "")
	shuffle := &cobra.Command{Use: "shuffle"}
	apply = &cobra.Command{Use: "apply", Run: func(*cobra.Command, []string) {}}
	apply.Flags().String("show", "pi", "")
	shuffle.AddCommand(apply)
	root.AddCommand(eval, shuffle)
	return root, eval, apply
}

func TestApply(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, yaml, env string
		cmd             func(eval, apply *cobra.Command) *cobra.Command
		flag, want, err string
	}{
		{name: "file", yaml: "eval: {workers: 3}", flag: "workers", want: "3"},
		{name: "environment wins", yaml: "eval: {workers: 3}", env: "4", flag: "workers", want: "4"},
		{name: "list", yaml: "eval: {option: [a=1, b=2]}", flag: "option", want: "[a=1,b=2]"},
		{name: "nested", yaml: "shuffle: {apply: {show: deck}}", flag: "show", want: "deck",
			cmd: func(_, apply *cobra.Command) *cobra.Command { return apply }},
		{name: "persistent flag of the root", yaml: "config: x.yaml", flag: "workers", want: "1"},
		{name: "flag typo", yaml: "eval: {workerz: 1}", err: `eval.workerz: unknown key: "calcsol eval" has no flag --workerz (did you mean workers?)`},
		{name: "command typo", yaml: "evall: {workers: 1}", err: `evall.workers: unknown key: "calcsol" has no subcommand "evall" (did you mean eval?)`},
		{name: "nested typo", yaml: "shuffle: {aply: {show: deck}}", err: `shuffle.aply.show: unknown key: "calcsol shuffle" has no subcommand "aply" (did you mean apply?)`},
		{name: "persistent flag typo", yaml: "eval: {confg: x.yaml}", err: `eval.confg: unknown key: "calcsol eval" has no flag --confg (did you mean config?)`},
		{name: "top-level typo", yaml: "workers: 1", err: `workers: unknown key: "calcsol" has no flag --workers`},
		{name: "command as a value", yaml: "shuffle: 3", err: `"calcsol shuffle" is a command`},
		{name: "bad value", yaml: "eval: {workers: many}", err: "config eval.workers: invalid argument"},
		{name: "malformed", yaml: "eval: [", err: "config "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, eval, apply := tree()
			cmd := eval
			if tc.cmd != nil {
				cmd = tc.cmd(eval, apply)
			}
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml")
			os.WriteFile(file, []byte(tc.yaml+"\n"), 0o644)
			if tc.env != "" {
				t.Setenv("TEST_EVAL_WORKERS", tc.env)
			}
			err := Apply(cmd, file, "TEST")
			if tc.err != "" {
				// A hint only where the case expects one.
				if err == nil || !strings.Contains(err.Error(), tc.err) ||
					strings.Contains(err.Error(), "did you mean") != strings.Contains(tc.err, "did you mean") {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := cmd.Flags().Lookup(tc.flag).Value.String(); got != tc.want {
				t.Errorf("--%s = %s, want %s", tc.flag, got, tc.want)
			}
		})
	}
}

// A flag on the command line wins over the file.
func TestCommandLineWins(t *testing.T) {
	root, eval, _ := tree()
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, []byte("eval: {workers: 3}\n"), 0o644)
	root.SetArgs([]string{"eval", "--workers", "5"})
	eval.PreRunE = func(cmd *cobra.Command, _ []string) error { return Apply(cmd, file, "TEST") }
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if got := eval.Flags().Lookup("workers").Value.String(); got != "5" {
		t.Errorf("--workers = %s, want 5", got)
	}
}
