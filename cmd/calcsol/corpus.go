package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/decks/deal"
	"github.com/calcsol/calcsol/decks/shuffle"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/internal/progress"
	"github.com/calcsol/calcsol/internal/textblock"
)

func newCorpusCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "corpus",
		Short: "Make, check and show deck corpora",
		Long: `A corpus is a fixed list of decks made by a named generator with a seed
(docs/corpora.md): one deck per line, '#' lines for the format,
deck kind, generator, seed, count and a SHA-256 checksum of the deck lines.
The same generator and seed give the same file, byte for byte, everywhere.

Embedded corpora (usable by name): ` + fmt.Sprint(corpora.Names()),
	}
	cmd.AddCommand(newCorpusGenerateCmd(), newCorpusVerifyCmd(), newCorpusShowCmd())
	return cmd
}

func init() { rootCmd.AddCommand(newCorpusCmd()) }

func newCorpusGenerateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "generate --shuffle SEQUENCE|--deal PARAMS --count N --seed S --out FILE",
		Short: "Generate a corpus from a shuffle sequence or a deal generator",
		Long: `Generate --count decks of kind --deck. Each deck starts fresh (standard52:
AS 2S … KS AH … KC) and is made by the generator; one random generator,
seeded with --seed, is consumed in deck order, so deck j depends on the seed
and on every deck before it.

Generators:
  --shuffle SEQUENCE  a shuffle sequence (docs/shuffles-models.md: U, HDHRDHH, D^1R^4, C^30);
                      models from the defaults or from --shuffle-config
  --deal PARAMS         a deal generator (docs/corpora.md; standard52 only):
                      players=3..5,adjust=-100..100,target=pairs|runs|suits|both|…,
                      gather=hands|interleave (docs/corpora.md)

The file is written to a temporary file beside it (.FILE.tmp-NNN) and
renamed (--out - writes to standard output): Ctrl-C removes it; one left by
a run killed with SIGKILL is never taken for FILE, and the next generate to
FILE removes it.`,
		Example: `  calcsol corpus generate --deck standard52 --shuffle U --count 30000 --seed 20021001 --out decks/corpora/uniform-30000.txt
  calcsol corpus generate --shuffle HDHRDHH --count 1000 --seed 7 --out hdh.txt
  calcsol corpus generate --deal players=4,adjust=50,target=pairs --count 1000 --seed 1 --out pairs50.txt
  calcsol corpus generate --deck tcg60 --shuffle C^30 --count 10 --seed 1 --out -`,
		Args: cobra.NoArgs,
		RunE: runCorpusGenerate,
	}
	f := cmd.Flags()
	f.String("deck", "standard52", "deck kind: standard52, tcg60 or set64")
	f.String("shuffle", "", "shuffle sequence generator, e.g. U or HDHRDHH")
	f.String("deal", "", "deal generator spec, e.g. players=4,adjust=50,target=pairs")
	f.Int("count", 0, "number of decks (required)")
	f.Uint64("seed", 1, "seed of the random generator")
	f.String("out", "", "output file (required; - for standard output)")
	f.String("shuffle-config", "", "YAML file of shuffle model parameters (default: the built-in defaults)")
	f.Bool("rank-only", false, "write standard52 decks as 52 rank characters (603K0443…), suits dropped")
	return cmd
}

func newCorpusVerifyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "verify FILE|NAME",
		Short: "Check a corpus: format, count, checksum, and that its generator remakes it",
		Long: `Read a corpus file (or an embedded corpus by name), refusing malformed input
with the line and the reason (wrong card count, unknown or duplicate card,
count or checksum mismatch, no deck at all). If the header names a generator
and a seed, make the corpus again from them and compare byte for byte: the
reader ignores comment lines, blank lines and CRLF endings, but verify wants
the exact file calcsol writes, and names the first line that differs.

Prints "ok: N decks, checksum …" and exits 0, or prints the reason and exits 2.
A corpus made with --shuffle-config needs the same --shuffle-config here.`,
		Example: `  calcsol corpus verify decks/corpora/uniform-30000.txt
  calcsol corpus verify uniform-1000`,
		Args: cobra.ExactArgs(1),
		RunE: runCorpusVerify,
	}
	cmd.Flags().String("shuffle-config", "", "YAML file of shuffle model parameters the corpus was made with")
	return cmd
}

func newCorpusShowCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show FILE|NAME",
		Short: "Print a corpus's header and its first decks",
		Long: `Print the header of a corpus file (or of an embedded corpus, by name) and
its first --head decks.`,
		Example: `  calcsol corpus show uniform-1000
  calcsol corpus show my.txt --head 20`,
		Args: cobra.ExactArgs(1),
		RunE: runCorpusShow,
	}
	cmd.Flags().Int("head", 5, "number of decks to print")
	return cmd
}

func runCorpusGenerate(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	kindName, _ := f.GetString("deck")
	seqSpec, _ := f.GetString("shuffle")
	dealSpec, _ := f.GetString("deal")
	count, _ := f.GetInt("count")
	seed, _ := f.GetUint64("seed")
	out, _ := f.GetString("out")
	rankOnly, _ := f.GetBool("rank-only")
	kind, err := cards.ParseKind(kindName)
	if err != nil {
		return badInput("--deck: %w", err)
	}
	if (seqSpec == "") == (dealSpec == "") {
		return badInput("give exactly one of --shuffle SEQUENCE and --deal PARAMS")
	}
	if out == "" {
		return badInput("--out FILE is required (- for standard output)")
	}
	if out != "-" {
		// Before generating: a missing or read-only directory is bad input.
		if err := atomicfile.CheckPrefix(out, ""); err != nil {
			return badInput("--out %s: %w", out, err)
		}
		// A run killed with SIGKILL could not remove its temporary file.
		stale, _ := atomicfile.RemoveStale(out)
		for _, name := range stale {
			fmt.Fprintf(cmd.ErrOrStderr(), "removed %s, left by a killed run\n", name)
		}
	}
	spec := corpus.Spec{Kind: kind, Seed: seed, Count: count, RankOnly: rankOnly}
	if seqSpec != "" {
		p, err := loadShuffleParams(cmd)
		if err != nil {
			return err
		}
		seq, err := shuffle.ParseSequence(seqSpec, p)
		if err != nil {
			return badInput("--shuffle: %w", err)
		}
		spec.Generator = corpus.ShuffleGenerator{Shuffle: seq}
	} else if spec.Generator, err = deal.ParseSpec(dealSpec); err != nil {
		return badInput("--deal: %w", err)
	}
	if err := spec.Validate(); err != nil {
		return badInput("%w", err)
	}
	if file, _ := f.GetString("shuffle-config"); file != "" && seqSpec != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: the header does not record --shuffle-config; verify this corpus with --shuffle-config %s\n", file)
	}
	bar := progress.Start(cmd.ErrOrStderr(), "decks", int64(count))
	defer bar.Stop()
	spec.Progress = bar.Add
	write := func(w io.Writer) error { _, err := corpus.WriteGenerated(cmd.Context(), w, spec); return err }
	if out == "-" {
		return write(cmd.OutOrStdout())
	}
	if err := atomicfile.WriteContext(cmd.Context(), out, write); err != nil {
		return err
	}
	bar.Stop()
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: %s, %s, seed %d\n", out, textblock.Plural(count, kind.Name()+" deck"), spec.Generator.Spec(), seed)
	return nil
}

func runCorpusVerify(cmd *cobra.Command, args []string) error {
	p, err := loadShuffleParams(cmd)
	if err != nil {
		return err
	}
	v, err := corpus.VerifyNamed(args[0], p)
	if err != nil {
		return badInput("%w", err)
	}
	c := v.Corpus
	fmt.Fprintf(cmd.OutOrStdout(), "ok: %s, checksum %s (%s)\n", textblock.Plural(v.Decks, "deck"), c.Checksum, v.Checked())
	return nil
}

func runCorpusShow(cmd *cobra.Command, args []string) error {
	head, _ := cmd.Flags().GetInt("head")
	if head < 0 {
		return badInput("--head %d: want at least 0", head)
	}
	c, _, err := corpus.Load(args[0])
	if err != nil {
		return badInput("%w", err)
	}
	return c.WriteSummary(cmd.OutOrStdout(), args[0], head)
}
