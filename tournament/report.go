package tournament

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/calcsol/calcsol/tournament/stats"
)

// Alpha is the family-wise significance level of a report's pairwise
// comparisons, held by Holm's procedure.
const Alpha = 0.05

// Row is one strategy × corpus × rules of a report.
type Row struct {
	Strategy   string  `json:"strategy"`
	Corpus     string  `json:"corpus"`
	CorpusSHA  string  `json:"corpus_sha256"`
	Rules      string  `json:"rules"`
	Applicable bool    `json:"applicable"`
	NotApp     string  `json:"not_applicable,omitempty"`
	Wins       int     `json:"wins"`
	Games      int     `json:"games"`
	Failures   int     `json:"failures"`
	Rate       float64 `json:"rate"`
	CILow      float64 `json:"ci_low"`
	CIHigh     float64 `json:"ci_high"`
	MeanPlaced float64 `json:"mean_placed"`
	MsPerGame  float64 `json:"ms_per_game"` // timing: differs between runs
}

// Pair is the deck-by-deck comparison of two strategies on one corpus under
// one set of rules, over the decks both played.
type Pair struct {
	Corpus  string `json:"corpus"`
	Rules   string `json:"rules"`
	A       string `json:"a"`
	B       string `json:"b"`
	Games   int    `json:"games"`
	Both    int    `json:"both"`
	OnlyA   int    `json:"only_a"`
	OnlyB   int    `json:"only_b"`
	Neither int    `json:"neither"`
	// Diff is rate(A) − rate(B) on these decks, with its 95 % interval.
	Diff   float64 `json:"diff"`
	DiffLo float64 `json:"diff_low"`
	DiffHi float64 `json:"diff_high"`
	// P is the exact McNemar p-value; PHolm the Holm-adjusted one over all
	// the report's pairs. Winner names the better strategy when PHolm < Alpha.
	P      float64 `json:"p"`
	PHolm  float64 `json:"p_holm"`
	Winner string  `json:"winner,omitempty"`
}

// Efficiency puts a cell's wins beside the clairvoyant bound of its corpus
// and rules: how many of the decks played can be won at all, and how many of
// those the strategy won. Counts are over the decks the cell played.
type Efficiency struct {
	Strategy   string `json:"strategy"`
	Corpus     string `json:"corpus"`
	Rules      string `json:"rules"`
	Bound      string `json:"bound"` // the bound's source
	Games      int    `json:"games"`
	Winnable   int    `json:"winnable"`
	Unknown    int    `json:"unknown"`
	Unwinnable int    `json:"unwinnable"`
	// WinsWinnable are the wins among the winnable decks; Rate is their
	// share of those decks, with its Wilson 95 % interval.
	WinsWinnable int     `json:"wins_winnable"`
	Rate         float64 `json:"rate"`
	CILow        float64 `json:"ci_low"`
	CIHigh       float64 `json:"ci_high"`
	// WinsUnknown are wins on decks the bound left unknown: each is a
	// witness that the deck is winnable.
	WinsUnknown int `json:"wins_unknown"`
	// WinsUnwinnable are wins on decks the bound calls unwinnable: always
	// 0 unless the solver or the engine is wrong.
	WinsUnwinnable int `json:"wins_unwinnable"`
}

// Report is what a tournament's records amount to.
type Report struct {
	Rows       []Row        `json:"rows"`
	Pairs      []Pair       `json:"pairs"`
	Efficiency []Efficiency `json:"efficiency,omitempty"`
	Alpha      float64      `json:"alpha"`
}

// CheckPossible returns an error naming every strategy that won a deck its
// bound calls unwinnable: no fair player can, so the solver or the engine is
// wrong.
func CheckPossible(es []Efficiency) error {
	var msg []string
	for _, e := range es {
		if e.WinsUnwinnable > 0 {
			msg = append(msg, fmt.Sprintf("%s won %d deck(s) of %s under %s that the bound (%s) calls unwinnable", e.Strategy, e.WinsUnwinnable, e.Corpus, e.Rules, e.Bound))
		}
	}
	if len(msg) > 0 {
		return fmt.Errorf("impossible wins: %s; the solver or the engine is wrong", strings.Join(msg, "; "))
	}
	return nil
}

// Report summarises the tally: a row per cell, and for every corpus × rules
// every pair of strategies that both played it, compared on the decks both
// played.
func (ta *Tally) Report() Report {
	rep := Report{Alpha: Alpha}
	for i, c := range ta.cells {
		t := &ta.tally[i]
		row := Row{Strategy: c.Entrant.Name, Corpus: c.Corpus.Name, CorpusSHA: c.Corpus.Checksum, Rules: c.Variant.Key(),
			Applicable: c.Applicable, Wins: t.Wins, Games: t.Games, Failures: t.Failures}
		if !c.Applicable {
			row.NotApp = c.Reason
		}
		if t.Games > 0 {
			row.Rate = float64(t.Wins) / float64(t.Games)
			row.MeanPlaced = float64(t.Placed) / float64(t.Games)
			row.MsPerGame = t.Micros / 1e3 / float64(t.Games)
		}
		row.CILow, row.CIHigh = stats.Wilson(t.Wins, t.Games, stats.Z95)
		rep.Rows = append(rep.Rows, row)
		if b := ta.bounds[i]; b != nil && c.Applicable {
			rep.Efficiency = append(rep.Efficiency, efficiency(row, b, t))
		}
	}
	// Pairs grouped by corpus and rules, strategies in the plan's order.
	type group struct {
		corpus  *Corpus
		variant Variant
	}
	var groups []group
	members := map[group][]int{}
	seen := map[group]bool{}
	for i, c := range ta.cells {
		g := group{c.Corpus, c.Variant}
		if !seen[g] {
			seen[g] = true
			groups = append(groups, g)
		}
		if c.Applicable {
			members[g] = append(members[g], i)
		}
	}
	for _, g := range groups {
		m := members[g]
		for x, i := range m {
			for _, j := range m[x+1:] {
				if p, ok := ta.pair(i, j); ok {
					rep.Pairs = append(rep.Pairs, p)
				}
			}
		}
	}
	ps := make([]float64, len(rep.Pairs))
	for i := range rep.Pairs {
		ps[i] = rep.Pairs[i].P
	}
	for i, adj := range stats.Holm(ps) {
		p := &rep.Pairs[i]
		p.PHolm = adj
		if adj < Alpha {
			p.Winner = p.A
			if p.OnlyB > p.OnlyA {
				p.Winner = p.B
			}
		}
	}
	return rep
}

// pair compares cells i and j on the decks both played.
func (ta *Tally) pair(i, j int) (Pair, bool) {
	a, b := ta.cells[i], ta.cells[j]
	xa, xb := &ta.tally[i], &ta.tally[j]
	p := Pair{Corpus: a.Corpus.Name, Rules: a.Variant.Key(), A: a.Entrant.Name, B: b.Entrant.Name}
	for w := range xa.Played {
		both := xa.Played[w] & xb.Played[w]
		wa, wb := xa.Won[w]&both, xb.Won[w]&both
		p.Games += popcount(both)
		p.Both += popcount(wa & wb)
		p.OnlyA += popcount(wa &^ wb)
		p.OnlyB += popcount(wb &^ wa)
	}
	if p.Games == 0 {
		return p, false
	}
	p.Neither = p.Games - p.Both - p.OnlyA - p.OnlyB
	p.Diff, p.DiffLo, p.DiffHi = stats.PairedDiff(p.Both, p.OnlyA, p.OnlyB, p.Neither)
	p.P = stats.McNemarExact(p.OnlyA, p.OnlyB)
	return p, true
}

func popcount(w uint64) int { return Bitset{w}.Count() }

// efficiency counts a cell's decks and wins by the bound's verdicts.
func efficiency(row Row, b *Bound, t *CellTally) Efficiency {
	e := Efficiency{Strategy: row.Strategy, Corpus: row.Corpus, Rules: row.Rules, Bound: b.Source, Games: t.Games}
	for w := range t.Played {
		played, won := t.Played[w], t.Won[w]
		yes, no := b.Winnable[w], b.Unwinnable[w]
		e.Winnable += bits.OnesCount64(played & yes)
		e.Unwinnable += bits.OnesCount64(played & no)
		e.Unknown += bits.OnesCount64(played &^ (yes | no))
		e.WinsWinnable += bits.OnesCount64(won & yes)
		e.WinsUnwinnable += bits.OnesCount64(won & no)
		e.WinsUnknown += bits.OnesCount64(won &^ (yes | no))
	}
	if e.Winnable > 0 {
		e.Rate = float64(e.WinsWinnable) / float64(e.Winnable)
	}
	e.CILow, e.CIHigh = stats.Wilson(e.WinsWinnable, e.Winnable, stats.Z95)
	return e
}
