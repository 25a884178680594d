package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/internal/progress"
)

func newVerifyBoundCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "verify-bound FILE [--corpus NAME|FILE]",
		Short: "Check the winnable verdicts of a bound file by replaying its winning lines",
		Long: `Check a bound file written by 'calcsol solve --corpus … --out FILE': every deck
it marks winnable must have a winning line in the lines file beside it
(FILE.lines.gz), and that line, expanded into moves and replayed with the
rules alone — no search — must put all 52 cards on the tables. The corpus
is the one the file names (a built-in corpus, or a file beside it or in the
current directory), or --corpus; its checksum must be the file's, and the
verdicts must add up to the counts. Decks marked unwinnable or unknown
carry no certificate: they are counted, not checked.

It prints one line (--format json: the counts, the moves replayed, the bytes
of the lines, and the first deck that failed). Exit status 0 when every
winnable verdict is verified; 1 when one is not (the first such deck and
why), the corpus checksum differs or the counts do not add up; 2 when FILE
cannot be checked: unreadable, its corpus not found, or it carries no
winning lines (written before they were kept). See docs/clairvoyant.md.`,
		Example: `  calcsol corpus generate --deck standard52 --shuffle U --count 20 --seed 5 --out twenty.txt
  calcsol solve --corpus twenty.txt --stacks 4 --preplaced --nodes 20000 --out twenty-s4p.json
  calcsol verify-bound twenty-s4p.json
  calcsol verify-bound twenty-s4p.json --corpus twenty.txt --format json`,
		Args: cobra.ExactArgs(1),
		RunE: runVerifyBound,
	}
	f := cmd.Flags()
	f.String("corpus", "", "the corpus file or built-in corpus (default: the one the bound file names)")
	f.String("format", "text", "output format: text, json")
	return cmd
}

func init() { rootCmd.AddCommand(newVerifyBoundCmd()) }

func runVerifyBound(cmd *cobra.Command, args []string) error {
	f := cmd.Flags()
	format, _ := f.GetString("format")
	if format != "text" && format != "json" {
		return badInput("--format %q: want text or json", format)
	}
	path := args[0]
	b, lf, err := clairvoyant.ReadBound(path)
	if errors.Is(err, clairvoyant.ErrCounts) {
		return fmt.Errorf("verify-bound %v", err)
	}
	if err != nil {
		return badInput("verify-bound %v", err)
	}
	if lf == nil {
		return badInput("verify-bound %s: %v (regenerate it with calcsol solve --corpus … --out)", path, clairvoyant.ErrNoLines)
	}
	arg, _ := f.GetString("corpus")
	c, err := boundCorpus(arg, b.Corpus, filepath.Dir(path))
	if err != nil {
		return badInput("verify-bound %s: %v", path, err)
	}
	decks := c.Decks()
	if err := c.Err(); err != nil {
		return badInput("verify-bound %s: %v", path, err)
	}
	bar := progress.Start(cmd.ErrOrStderr(), "decks", int64(len(decks)))
	chk, err := clairvoyant.VerifyBound(b, lf, c.Checksum, decks, bar.Count(0))
	bar.Stop()
	if err != nil {
		return fmt.Errorf("verify-bound %s: corpus %s: %w", path, c.Source, err)
	}
	w := cmd.OutOrStdout()
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		j := struct {
			File   string `json:"file"`
			Corpus string `json:"corpus"`
			Rules  string `json:"rules"`
			*clairvoyant.BoundCheck
		}{path, b.Corpus, b.Rules().String(), chk}
		if err := enc.Encode(j); err != nil {
			return err
		}
	} else {
		what := "verified"
		if !chk.OK() {
			what = "failed"
		}
		fmt.Fprintf(w, "%s: %d of %d winnable decks won by their lines", what, chk.Verified, chk.Winnable)
		if chk.Unwinnable+chk.Unknown > 0 {
			fmt.Fprintf(w, "; unchecked: %d unwinnable, %d unknown\n", chk.Unwinnable, chk.Unknown)
		} else {
			fmt.Fprintf(w, " (%s)\n", b.Rules())
		}
	}
	if !chk.OK() {
		return exitcode.Error{Code: exitcode.Failure, Err: fmt.Errorf("verify-bound %s: %d of %d decks fail; the first: %v", path, chk.Failed, chk.Decks, chk.First)}
	}
	return nil
}

// boundCorpus opens the corpus of a bound file: arg (--corpus) when given,
// else the corpus the file names, as a built-in corpus or a file (with or
// without ".txt") in the current directory or in dir, the bound file's.
func boundCorpus(arg, name, dir string) (*corpus.Calculation, error) {
	if arg != "" {
		return corpus.OpenCalculation(arg, arg)
	}
	var first error
	for _, p := range []string{name, name + ".txt", filepath.Join(dir, name), filepath.Join(dir, name+".txt")} {
		c, err := corpus.OpenCalculation(name, p)
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, fmt.Errorf("corpus %s not found (give it with --corpus): %w", name, first)
}
