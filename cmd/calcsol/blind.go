package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/tournament"
)

// Blind play (docs/tournament.md, "Blind play"): the flags of tournament,
// eval and match share these helpers, and verify-blind checks a finished
// blind report.

func newVerifyBlindCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify-blind DIR",
		Short: "Check that a finished blind tournament played the decks its committed seed gives",
		Long: `Check the report directory of a finished blind tournament ('calcsol
tournament --blind --out DIR'): that the seed its manifest reveals is the one
whose SHA-256 the manifest held from before the first game, and that every
corpus drawn from that seed has the checksum and the number of decks the
run played. It prints, for each corpus, the 'calcsol corpus generate' command
that writes its decks, so that the games can be replayed deck by deck (the
records' deck field is the index in that file). Exit status 0 when all
holds, 1 when something does not, 2 when DIR is not a finished blind report.
See docs/tournament.md.`,
		Example: `  calcsol verify-blind blind-report`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := tournament.ReadManifest(args[0])
			if err != nil {
				return badInput("%v", err)
			}
			if m.Blind == nil || m.Blind.Seed == "" {
				_, err := tournament.VerifyBlind(m)
				return badInput("verify-blind %s: %v", args[0], err)
			}
			cmds, err := tournament.VerifyBlind(m)
			if err != nil {
				return fmt.Errorf("verify-blind %s: %w", args[0], err)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "seed   %s\nsha256 %s: as committed\n", m.Blind.Seed, m.Blind.SeedSHA256)
			for i, d := range m.Blind.Corpora {
				fmt.Fprintf(w, "corpus %s: %d decks of %s, the checksum the run played; its decks:\n  %s\n",
					d.Corpus, d.Count, d.Generator, indent(cmds[i]))
			}
			return nil
		},
	}
}

func init() { rootCmd.AddCommand(newVerifyBlindCmd()) }

// commitBlind keeps the secret of a fresh blind run with a report directory
// in dir/blind-seed, and says on stderr, before the first game, what the
// run is committed to.
func commitBlind(cmd *cobra.Command, t *tournament.Tournament, dir string, resumed bool) error {
	b := t.Blind()
	if b == nil {
		return nil
	}
	if dir != "" && !resumed {
		if err := tournament.WriteBlindSeed(dir, b); err != nil {
			return fmt.Errorf("blind: keeping the secret seed: %w", err)
		}
	}
	where := "shown"
	if dir != "" {
		where = "revealed in " + filepath.Join(dir, tournament.ManifestFile)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "blind: every corpus drawn afresh with a secret seed, to be %s at the end\nblind: seed sha256 %s\n", where, b.Commitment())
	return nil
}

// revealBlind ends a blind run: the seed goes into the manifest, which is
// written again, and its file is removed; without a report directory the
// seed is printed on stderr. It returns the manifest the report shows.
func revealBlind(cmd *cobra.Command, t *tournament.Tournament, dir string, m tournament.Manifest) (tournament.Manifest, error) {
	b := t.Blind()
	if b == nil {
		return m, nil
	}
	if err := m.Reveal(b); err != nil {
		return m, err
	}
	w := cmd.ErrOrStderr()
	if dir == "" {
		fmt.Fprintf(w, "blind: seed %s\n", b.Seed())
		for _, d := range m.Blind.Corpora {
			fmt.Fprintf(w, "  corpus %s:\n    %s\n", d.Corpus, indent("  " + b.GenerateCommand(d.Corpus, d.Generator, d.Count))[2:])
		}
		return m, nil
	}
	if err := tournament.WriteManifest(dir, m); err != nil {
		return m, err
	}
	if err := os.Remove(filepath.Join(dir, tournament.BlindSeedFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return m, err
	}
	fmt.Fprintf(w, "blind: seed revealed in %s; check the decks with: calcsol verify-blind %s\n", filepath.Join(dir, tournament.ManifestFile), dir)
	return m, nil
}

// blindCorpus draws afresh, with a new secret, the corpus that arg (a file
// or a shipped corpus) names, for a blind eval or match, and says on w what
// the run is committed to.
func blindCorpus(w io.Writer, arg string) (*tournament.Blind, *corpus.Calculation, error) {
	spec, count, err := configs.BlindSource(arg)
	if err != nil {
		return nil, nil, badInput("--blind: %v", err)
	}
	b, err := tournament.NewBlind()
	if err != nil {
		return nil, nil, err
	}
	c, err := b.Draw(arg, spec, count, arg)
	if err != nil {
		return nil, nil, badInput("--blind: %v", err)
	}
	c.Name = arg + " drawn blind"
	fmt.Fprintf(w, "blind: %d decks of %s drawn afresh with a secret seed\nblind: seed sha256 %s\n", count, spec, b.Commitment())
	return b, c, nil
}

// blindReveal says, once a blind eval or match is over, the seed and the
// command that writes the decks it drew for arg.
func blindReveal(w io.Writer, b *tournament.Blind, arg string) {
	if b == nil {
		return
	}
	spec, count, _ := configs.BlindSource(arg)
	fmt.Fprintf(w, "blind: seed %s; the decks:\n  %s\n", b.Seed(), indent(b.GenerateCommand(arg, spec, count)))
}

// indent indents the lines of s after the first by two spaces.
func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n  ") }
