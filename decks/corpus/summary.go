package corpus

import (
	"fmt"
	"io"

	"github.com/calcsol/calcsol/internal/textblock"
)

// WriteSummary writes what "calcsol corpus show" prints of c, read as
// name: its header, one field a line, and its first head decks.
func (c *Corpus) WriteSummary(w io.Writer, name string, head int) error {
	fmt.Fprintf(w, "corpus     %s\n", name)
	fmt.Fprintf(w, "kind       %s (%s)\n", c.Kind.Name(), textblock.Plural(c.Kind.Size(), "card"))
	if c.Generator != "" {
		fmt.Fprintf(w, "generator  %s\nseed       %d\n", c.Generator, c.Seed)
	} else {
		fmt.Fprintf(w, "generator  (none)\n")
	}
	fmt.Fprintf(w, "decks      %d\nsha256     %s\n", len(c.Decks), c.Checksum)
	if c.RankOnly {
		fmt.Fprintf(w, "notation   rank-only\n")
	}
	for j := 0; j < head && j < len(c.Decks); j++ {
		fmt.Fprintf(w, "%6d  %s\n", j+1, c.DeckLine(j))
	}
	if head < len(c.Decks) {
		_, err := fmt.Fprintf(w, "        … %d more\n", len(c.Decks)-head)
		return err
	}
	return nil
}
