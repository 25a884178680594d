package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// A mistyped name — a flag, a command, a strategy kind or parameter, a key
// of a tournament config or of calcsol.yaml — is refused on one line that
// names the nearest right ones, with exit status 2. In this process, as
// main runs a command line (inProcess): the names come from the command
// tree, the same in both.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tournament := write("t.yaml", "seed: 1\nstrategies: [{name: p, strategy: priority}]\ncorpra: [uniform-1000]\nrules: [{stacks: 3}]\n")
	flags := write("flags.yaml", "tournament:\n  wrokers: 2\n")
	tests := []struct {
		name string
		args []string
		want string // the whole of stderr, a regular expression
		code int
	}{
		{"flag", []string{"tournament", "--wrokers", "2"}, `calcsol: unknown flag --wrokers \(did you mean --workers\?\)`, 2},
		{"flag with =", []string{"eval", "--stakcs=3"}, `calcsol: unknown flag --stakcs \(did you mean --stacks\?\)`, 2},
		{"inherited flag", []string{"eval", "--confg", "x.yaml"}, `calcsol: unknown flag --confg \(did you mean --config\?\)`, 2},
		{"long flag with one dash", []string{"tournament", "-wrokers", "2"}, `calcsol: unknown shorthand flag -w in -wrokers \(did you mean --workers\?\)`, 2},
		{"flag near none", []string{"tournament", "--zzzzzz"}, `calcsol: unknown flag --zzzzzz`, 2},
		{"another command's flag", []string{"eval", "--resume", "r"}, `calcsol: unknown flag --resume \(a flag of calcsol solve, calcsol tournament, calcsol tune\)`, 2},
		{"a flag's bad value, as before", []string{"eval", "--stacks", "x"}, `calcsol: invalid argument "x" for "--stacks" flag: .*`, 2},
		{"command", []string{"tournamnet"}, `calcsol: unknown command "tournamnet" for "calcsol" \(did you mean tournament\?\)`, 2},
		{"subcommand", []string{"corpus", "generat", "--count", "3"}, `calcsol: unknown command "generat" for "calcsol corpus" \(did you mean generate\?\)`, 2},
		{"subcommand after a flag", []string{"shuffle", "--config", flags, "aply"}, `calcsol: unknown command "aply" for "calcsol shuffle" \(did you mean apply\?\)`, 2},
		{"command near none", []string{"xyzzy"}, `calcsol: unknown command "xyzzy" for "calcsol"`, 2},
		{"strategy kind", []string{"match", "priority", "tuned-33"}, `calcsol: B "tuned-33": unknown strategy kind "tuned-33" \(did you mean tuned-3\? calcsol strategies lists them all\)`, 2},
		{"strategy parameter", []string{"eval", "--strategy", "priority:tabel=tuned-3"}, `calcsol: strategy priority: unknown parameter "tabel" \(did you mean table\? want table, .*\)`, 2},
		{"tournament config key", []string{"tournament", tournament}, regexp.QuoteMeta("calcsol: "+tournament) + `:3: corpra: unknown key \(did you mean corpora\? want .*\)`, 2},
		{"calcsol.yaml key", []string{"--config", flags, "tournament"}, `calcsol: config .*flags.yaml: tournament.wrokers: unknown key: "calcsol tournament" has no flag --wrokers \(did you mean workers\?\)`, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := inProcess(tc.args...)
			if code != tc.code || !regexp.MustCompile(`^`+tc.want+`\n$`).MatchString(stderr) || stdout != "" {
				t.Errorf("calcsol %q: exit %d, stderr %q, stdout %d bytes; want exit %d, stderr matching %q, no stdout",
					tc.args, code, stderr, len(stdout), tc.code, tc.want)
			}
		})
	}
}

// Commands and groups named right, and a group given alone, are unchanged.
func TestNoSuggestion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"corpus"}, {"help", "tournament"}, {"corpus", "generate", "--help"}, {"completion", "bash"}} {
		if _, stderr, code := inProcess(args...); code != 0 || stderr != "" {
			t.Errorf("calcsol %q: exit %d, stderr %q; want exit 0, nothing on stderr", args, code, stderr)
		}
	}
}
