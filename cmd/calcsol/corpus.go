package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/decks/cards"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/decks/deal"
	"github.com/calcsol/calcsol/decks/shuffle"
)

var corpusCmd = &cobra.Command{
	Use:   "corpus",
	Short: "Make, check and show deck corpora",
	Long: `A corpus is a fixed list of decks made by a named generator with a seed
(SPEC §9, docs/corpora.md): one deck per line, '#' lines for the format,
deck kind, generator, seed, count and a SHA-256 checksum of the deck lines.
The same generator and seed give the same file, byte for byte, everywhere.

Embedded corpora (usable by name): ` + fmt.Sprint(corpora.Names()),
}

var corpusGenerateCmd = &cobra.Command{
	Use:   "generate --shuffle SEQUENCE|--deal SPEC --count N --seed S --out FILE",
	Short: "Generate a corpus from a shuffle sequence or a deal generator",
	Long: `Generate --count decks of kind --deck. Each deck starts fresh (standard52:
AS 2S … KS AH … KC) and is made by the generator; one random generator,
seeded with --seed, is consumed in deck order, so deck j depends on the seed
and on every deck before it.

Generators:
  --shuffle SEQUENCE  a shuffle sequence of SPEC §5 (U, HDHRDHH, D^1R^4, C^30);
                      models from the defaults or from --shuffle-config
  --deal SPEC         a deal generator of SPEC §7 (standard52 only):
                      players=3..5,adjust=-100..100,target=pairs|runs|suits|both|…,
                      gather=hands|interleave (docs/corpora.md)

The file is written to a temporary file and renamed (--out - writes to
standard output).`,
	Example: `  calcsol corpus generate --deck standard52 --shuffle U --count 30000 --seed 20021001 --out decks/corpora/uniform-30000.txt
  calcsol corpus generate --shuffle HDHRDHH --count 1000 --seed 7 --out hdh.txt
  calcsol corpus generate --deal players=4,adjust=50,target=pairs --count 1000 --seed 1 --out pairs50.txt
  calcsol corpus generate --deck tcg60 --shuffle C^30 --count 10 --seed 1 --out -`,
	Args: cobra.NoArgs,
	RunE: runCorpusGenerate,
}

var corpusVerifyCmd = &cobra.Command{
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

var corpusShowCmd = &cobra.Command{
	Use:   "show FILE|NAME",
	Short: "Print a corpus's header and its first decks",
	Long: `Print the header of a corpus file (or of an embedded corpus, by name) and
its first --head decks.`,
	Example: `  calcsol corpus show uniform-30000
  calcsol corpus show my.txt --head 20`,
	Args: cobra.ExactArgs(1),
	RunE: runCorpusShow,
}

func init() {
	f := corpusGenerateCmd.Flags()
	f.String("deck", "standard52", "deck kind: standard52, tcg60 or set64")
	f.String("shuffle", "", "shuffle sequence generator (SPEC §5), e.g. U or HDHRDHH")
	f.String("deal", "", "deal generator spec (SPEC §7), e.g. players=4,adjust=50,target=pairs")
	f.Int("count", 0, "number of decks (required)")
	f.Uint64("seed", 1, "seed of the random generator")
	f.String("out", "", "output file (required; - for standard output)")
	f.String("shuffle-config", "", "YAML file of shuffle model parameters (default: SPEC §5 defaults)")
	f.Bool("rank-only", false, "write standard52 decks as 52 rank characters (603K0443…), suits dropped")
	corpusVerifyCmd.Flags().String("shuffle-config", "", "YAML file of shuffle model parameters the corpus was made with")
	corpusShowCmd.Flags().Int("head", 5, "number of decks to print")
	corpusCmd.AddCommand(corpusGenerateCmd, corpusVerifyCmd, corpusShowCmd)
	rootCmd.AddCommand(corpusCmd)
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
		return badInput("--deck: %v", err)
	}
	if (seqSpec == "") == (dealSpec == "") {
		return badInput("give exactly one of --shuffle SEQUENCE and --deal SPEC")
	}
	if count <= 0 {
		return badInput("--count %d: want a positive number of decks", count)
	}
	if out == "" {
		return badInput("--out FILE is required (- for standard output)")
	}
	if rankOnly && kind != cards.Standard52 {
		return badInput("--rank-only needs --deck standard52")
	}
	if out != "-" {
		// Before generating: a missing or read-only directory is bad input.
		if err := saCheckOutDir("--out", out); err != nil {
			return err
		}
		if st, err := os.Stat(out); err == nil && st.IsDir() {
			return badInput("--out %s is a directory", out)
		}
	}
	var g corpus.Generator
	if seqSpec != "" {
		p, err := loadShuffleParams(cmd)
		if err != nil {
			return err
		}
		seq, err := shuffle.ParseSequence(seqSpec, p)
		if err != nil {
			return badInput("--shuffle: %v", err)
		}
		g = corpus.ShuffleGenerator{Shuffle: seq}
	} else {
		d, err := deal.ParseSpec(dealSpec)
		if err != nil {
			return badInput("--deal: %v", err)
		}
		g = d
	}
	c, err := corpus.Generate(kind, g, seed, count)
	if err != nil {
		return badInput("%v", err)
	}
	c.RankOnly = rankOnly
	if file, _ := f.GetString("shuffle-config"); file != "" && seqSpec != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: the header does not record --shuffle-config; verify this corpus with --shuffle-config %s\n", file)
	}
	if out == "-" {
		return corpus.Write(cmd.OutOrStdout(), c)
	}
	if err := corpus.WriteFile(out, c); err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: %d %s decks, %s, seed %d\n", out, count, kind.Name(), c.Generator, seed)
	return nil
}

// readCorpusArg reads a corpus from a file, or from the embedded corpora
// when no such file exists and arg names one. It returns the raw bytes too.
func readCorpusArg(arg string) (*corpus.Corpus, []byte, error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return nil, nil, badInput("%s is a directory, not a corpus file", arg)
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return nil, nil, badInput("%v", err)
		}
		b, eerr := corpora.Bytes(arg)
		if eerr != nil {
			return nil, nil, badInput("%s: no such file, and %v", arg, eerr)
		}
		data = b
	}
	c, err := corpus.Read(bytes.NewReader(data), arg)
	if err != nil {
		return nil, nil, badInput("%v", err)
	}
	return c, data, nil
}

func runCorpusVerify(cmd *cobra.Command, args []string) error {
	c, data, err := readCorpusArg(args[0])
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if c.Generator == "" {
		fmt.Fprintf(w, "ok: %d decks, checksum %s (no generator in the header: format, count and checksum checked)\n", len(c.Decks), c.Checksum)
		return nil
	}
	p, err := loadShuffleParams(cmd)
	if err != nil {
		return err
	}
	if err := corpus.Verify(c, p); err != nil {
		return badInput("%s: %v", args[0], err)
	}
	want, err := corpus.Regenerate(c, p)
	if err != nil {
		return badInput("%s: %v", args[0], err)
	}
	wantBytes, err := want.MarshalText()
	if err != nil {
		return err
	}
	if !bytes.Equal(data, wantBytes) {
		return badInput("%s: the decks match %q seed %d, but the file is not byte-identical to what calcsol writes: %s", args[0], c.Generator, c.Seed, firstDifference(data, wantBytes))
	}
	fmt.Fprintf(w, "ok: %d decks, checksum %s, byte-identical to %q seed %d\n", len(c.Decks), c.Checksum, c.Generator, c.Seed)
	return nil
}

// firstDifference says where file first differs from want (what calcsol
// writes), line by line, and how: "line 3: ends with CRLF …".
func firstDifference(file, want []byte) string {
	fl := bytes.SplitAfter(file, []byte("\n"))
	wl := bytes.SplitAfter(want, []byte("\n"))
	for i := 0; ; i++ {
		switch {
		case i >= len(fl) && i >= len(wl):
			return "no difference found"
		case i >= len(fl) || len(fl[i]) == 0:
			return fmt.Sprintf("line %d: the file ends; calcsol writes %q", i+1, clip(wl[i]))
		case i >= len(wl) || len(wl[i]) == 0:
			return fmt.Sprintf("line %d: calcsol writes no more lines; the file has %q", i+1, clip(fl[i]))
		}
		f, w := fl[i], wl[i]
		if bytes.Equal(f, w) {
			continue
		}
		switch {
		case bytes.HasSuffix(f, []byte("\r\n")) && bytes.Equal(f[:len(f)-2], w[:len(w)-1]):
			return fmt.Sprintf("line %d ends with CRLF (\\r\\n); calcsol writes LF (\\n) line endings", i+1)
		case !bytes.HasSuffix(f, []byte("\n")) && bytes.Equal(f, w[:len(w)-1]):
			return fmt.Sprintf("line %d has no final newline", i+1)
		case len(f) > 0 && f[0] == '#' && (len(w) == 0 || w[0] != '#'):
			return fmt.Sprintf("line %d: extra '#' line %q (comments are ignored when reading, but calcsol writes none)", i+1, clip(f))
		case len(f) > 0 && f[0] == '#' && i+1 < len(fl) && bytes.Equal(fl[i+1], w):
			return fmt.Sprintf("line %d: extra '#' line %q (comments are ignored when reading, but calcsol writes none)", i+1, clip(f))
		}
		return fmt.Sprintf("line %d: the file has %q, calcsol writes %q", i+1, clip(f), clip(w))
	}
}

// clip shortens a line for a message.
func clip(b []byte) string {
	s := strings.TrimRight(string(b), "\r\n")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

func runCorpusShow(cmd *cobra.Command, args []string) error {
	head, _ := cmd.Flags().GetInt("head")
	if head < 0 {
		return badInput("--head %d: want at least 0", head)
	}
	c, _, err := readCorpusArg(args[0])
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	printCorpusHeader(w, args[0], c)
	for j := 0; j < head && j < len(c.Decks); j++ {
		line := c.Kind.FormatDeck(c.Decks[j])
		if c.RankOnly {
			line = rankLine(c.Decks[j])
		}
		fmt.Fprintf(w, "%6d  %s\n", j+1, line)
	}
	if head < len(c.Decks) {
		fmt.Fprintf(w, "        … %d more\n", len(c.Decks)-head)
	}
	return nil
}

func printCorpusHeader(w io.Writer, name string, c *corpus.Corpus) {
	fmt.Fprintf(w, "corpus     %s\n", name)
	fmt.Fprintf(w, "kind       %s (%d cards)\n", c.Kind.Name(), c.Kind.Size())
	if c.Generator != "" {
		fmt.Fprintf(w, "generator  %s\n", c.Generator)
		fmt.Fprintf(w, "seed       %d\n", c.Seed)
	} else {
		fmt.Fprintf(w, "generator  (none)\n")
	}
	fmt.Fprintf(w, "decks      %d\n", len(c.Decks))
	fmt.Fprintf(w, "sha256     %s\n", c.Checksum)
	if c.RankOnly {
		fmt.Fprintf(w, "notation   rank-only\n")
	}
}

func rankLine(deck []int) string {
	b := make([]byte, len(deck))
	for i, id := range deck {
		b[i] = cards.RankOf(id).String()[0]
	}
	return string(b)
}
