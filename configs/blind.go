package configs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/tournament"
)

// A blind tournament (`blind: true`, or --blind; docs/tournament.md, "Blind
// play") plays each corpus drawn fresh from the generator it names, with a
// seed derived from a secret no strategy can know: a generator entry's spec
// and count, a shipped corpus's or a corpus file's "# generator" line and
// its number of decks. A file without a generator line cannot be blinded.

// LoadTournamentBlind is LoadTournament with blind play forced on when
// blind is set (the config's own `blind: true` turns it on too), and, for a
// blind run, the secret given (a resumed run's) or, when secret is nil, a
// new one from crypto/rand. The tournament's Blind is the secret used, nil
// for a run on public corpora.
func LoadTournamentBlind(ctx context.Context, data []byte, file string, reg *strategies.Registry, blind bool, secret *tournament.Blind) (*tournament.Tournament, []byte, error) {
	cfg, err := ParseTournament(data, file)
	if err != nil {
		return nil, nil, err
	}
	cfg.Blind = cfg.Blind || blind
	if secret != nil && !cfg.Blind {
		return nil, nil, fmt.Errorf("%s: a blind run's seed given for a config that does not play blind", file)
	}
	plan, err := cfg.plan(reg, secret)
	if err != nil {
		return nil, nil, err
	}
	t, err := tournament.New(ctx, plan, cfg.Seed)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	return t, cfg.Format(), nil
}

// blindSecret is the secret given, or a new one.
func blindSecret(secret *tournament.Blind) (*tournament.Blind, error) {
	if secret != nil {
		return secret, nil
	}
	return tournament.NewBlind()
}

// drawBlind draws the corpus of entry cp afresh with the run's secret.
func drawBlind(secret *tournament.Blind, cp CorpusEntry) (*corpus.Calculation, error) {
	if len(cp.Bounds) > 0 {
		return nil, errors.New("bounds: a bound is for the decks of a corpus known in advance; blind play draws new ones (leave bounds out)")
	}
	spec, count, of := cp.Generator, cp.Count, ""
	switch {
	case cp.Generator != "":
		of = fmt.Sprintf("generator %s seed %d", cp.Generator, cp.Seed)
	case cp.File != "":
		var err error
		if spec, count, err = BlindSource(cp.File); err != nil {
			return nil, err
		}
		of = "file " + cp.File
	default:
		name := strings.TrimSuffix(cp.Shipped, ".txt")
		if !slices.Contains(corpus.Shipped(), name) {
			return nil, fmt.Errorf("no shipped corpus %q (have %s)", cp.Shipped, strings.Join(corpus.Shipped(), ", "))
		}
		var err error
		if spec, count, err = BlindSource(name); err != nil {
			return nil, err
		}
		of = "shipped " + name
	}
	return secret.Draw(cp.Name, spec, count, of)
}

// BlindSource is what a blind run draws in place of the corpus arg names (a
// file, else a shipped corpus): the generator spec of its "# generator"
// line and its number of decks ("# count", else its deck lines counted). A
// corpus without a generator line is a fixed list of decks, which cannot be
// drawn afresh: that is an error saying so.
func BlindSource(arg string) (spec string, count int, err error) {
	var r io.Reader
	if f, ferr := os.Open(arg); ferr == nil {
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return "", 0, fmt.Errorf("corpus %s: a directory, not a corpus file", arg)
		}
		r = f
	} else if b, cerr := corpora.Bytes(arg); cerr == nil {
		r = bytes.NewReader(b)
	} else {
		return "", 0, fmt.Errorf("corpus %s: %w", arg, ferr)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	decks, n := 0, 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		meta, ok := strings.CutPrefix(line, "#")
		if !ok {
			if spec != "" && count > 0 {
				break // the header said all; the reader of the decks checks them
			}
			decks++
			continue
		}
		key, val, _ := strings.Cut(strings.TrimSpace(meta), " ")
		val = strings.TrimSpace(val)
		switch key {
		case "generator":
			spec = val
		case "kind":
			if val != "standard52" {
				return "", 0, fmt.Errorf("corpus %s line %d: deck kind %s: Calculation needs standard52", arg, n, val)
			}
		case "count":
			if count, err = strconv.Atoi(val); err != nil || count < 1 {
				return "", 0, fmt.Errorf("corpus %s line %d: count %q: want a number of decks", arg, n, val)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return "", 0, fmt.Errorf("corpus %s line %d: %w", arg, n+1, err)
	}
	if spec == "" {
		return "", 0, fmt.Errorf("corpus %s: no \"# generator\" line: a fixed list of decks, which blind play cannot draw afresh", arg)
	}
	if count == 0 {
		count = decks
	}
	if count == 0 {
		return "", 0, fmt.Errorf("corpus %s: no deck lines", arg)
	}
	return spec, count, nil
}
