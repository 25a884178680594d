package clairvoyant

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/calcsol/calcsol/clairvoyant/lines"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/solver"
)

// A bound file's winning lines lie beside it, in a file of package lines
// that its "lines" field names: the proof of each winnable verdict, which
// VerifyBound checks with the rules alone.

// LinesPath is the lines file that WriteBound writes beside the bound file
// path: its name without ".json", and ".lines.gz".
func LinesPath(path string) string { return strings.TrimSuffix(path, ".json") + ".lines.gz" }

// EncodeLines encodes the winning trace of each Yes result on its deck. A
// Yes without a trace that wins is an error: a bound file never claims a win
// it cannot show.
func EncodeLines(decks []solver.Deck, checksum string, rules solver.Rules, results []Result) (*lines.File, error) {
	if len(decks) != len(results) {
		return nil, fmt.Errorf("%d results for %d decks", len(results), len(decks))
	}
	f := &lines.File{Checksum: checksum, Rules: solver.Rules{Stacks: rules.Stacks, Preplaced: rules.Preplaced}, Lines: make([][]byte, len(results))}
	for i, r := range results {
		if r.Winnable != Yes {
			continue
		}
		if r.Trace == nil {
			return nil, fmt.Errorf("deck %d: winnable, but no winning line was kept", i)
		}
		l, err := lines.Encode(&decks[i], rules, r.Trace)
		if err != nil {
			return nil, fmt.Errorf("deck %d: winning line: %w", i, err)
		}
		if l == nil {
			l = []byte{} // a line of all first choices: empty, but present
		}
		f.Lines[i] = l
	}
	return f, nil
}

// WriteBound writes b to path and, when lf is not nil, lf beside it
// (LinesPath), naming it in b.Lines: both files or neither.
func WriteBound(path string, b *BoundFile, lf *lines.File) error {
	outs := []atomicfile.Output{{Path: path, Write: b.Write}}
	b.Lines = ""
	if lf != nil {
		lp := LinesPath(path)
		b.Lines = filepath.Base(lp)
		outs = append([]atomicfile.Output{{Path: lp, Write: lf.Write}}, outs...)
	}
	return atomicfile.WriteAll(context.Background(), outs)
}

// ErrNoLines is the error of a bound file that names no lines file: its
// winnable verdicts carry no proof.
var ErrNoLines = errors.New("the bound file carries no winning lines, so its winnable verdicts are not proven")

// ReadBound reads the bound file path and the lines file it names (nil when
// it names none).
func ReadBound(path string) (*BoundFile, *lines.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	b, err := ReadBoundFile(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if b.Lines == "" {
		return b, nil, nil
	}
	if filepath.Base(b.Lines) != b.Lines {
		return nil, nil, fmt.Errorf("%s: lines %q: want a file name beside the bound file", path, b.Lines)
	}
	lp := filepath.Join(filepath.Dir(path), b.Lines)
	fh, err := os.Open(lp)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: its winning lines: %w", path, err)
	}
	defer fh.Close()
	lf, err := lines.Read(fh)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", lp, err)
	}
	if err := b.matches(lf); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", lp, err)
	}
	return b, lf, nil
}

// matches checks that lf is about b's corpus and rules.
func (b *BoundFile) matches(lf *lines.File) error {
	if lf.Checksum != b.Checksum || lf.Rules != b.Rules() || len(lf.Lines) != b.Decks {
		return fmt.Errorf("lines for %d decks of corpus sha256 %.12s…, %s; the bound file is for %d decks of sha256 %.12s…, %s",
			len(lf.Lines), lf.Checksum, lf.Rules, b.Decks, b.Checksum, b.Rules())
	}
	return nil
}

// WithLines gives each Yes of prior (as Settled returns them) the winning
// line lf holds for its deck, replayed on decks. A Yes without a line that
// wins becomes Unknown, to be searched again; n counts them. lf may be nil
// (a bound file without lines: every Yes is searched again).
func WithLines(prior []Result, decks []solver.Deck, rules solver.Rules, lf *lines.File) (n int) {
	for i := range prior {
		if prior[i].Winnable != Yes {
			continue
		}
		var tr []solver.Move
		if lf != nil && i < len(lf.Lines) && lf.Lines[i] != nil {
			tr, _ = ReplayLine(&decks[i], rules, lf.Lines[i])
		}
		if tr == nil {
			prior[i] = Result{}
			n++
			continue
		}
		prior[i].Trace = tr
	}
	return n
}

// ReplayLine decodes an encoded line and replays its moves on d with the
// rules alone (solver.Replay): the moves when they win, else why not.
func ReplayLine(d *solver.Deck, rules solver.Rules, l []byte) ([]solver.Move, error) {
	tr, err := lines.Decode(d, rules, l)
	if err != nil {
		return nil, err
	}
	g, err := solver.Replay(d, rules, tr)
	if err != nil {
		return nil, err
	}
	if !g.Won() {
		return nil, fmt.Errorf("the line ends with %d of %d cards on the tables", g.TotalPlaced(), solver.DeckSize)
	}
	return tr, nil
}
