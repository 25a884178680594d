package search

import (
	"github.com/calcsol/calcsol/solver"
)

// Weights rate where to stack a card; lower cost is better. They are the
// heuristic of the deadlock-graph player and the rollout policy of the
// sampling player, declared as parameters so that a tuner can tune them.
//
// The heuristic keeps every stack in "needed-later" order, bottom to top:
// a card should lie on a card that is needed after it. A card's need is how
// many cards its table must still get before it; with assignments open, a
// rank's open slots (on the tables that do not hold it yet) are shared by
// the cards of that rank still to come and those already stacked, so a new
// card of rank r is taken to fill the first open slot of r that the stacked
// r's do not already claim, and a stack top the first open slot of its rank.
type Weights struct {
	// Gap is the cost per step by which the top under the new card is needed
	// later than the card (a tight fit wastes the least).
	Gap float64 `param:"w_gap" min:"0" max:"100" doc:"cost per step the covered top is needed after the card"`
	// Bury is the cost of covering a top that is needed before the new card.
	Bury float64 `param:"w_bury" min:"0" max:"100" doc:"cost of covering a top needed before the card"`
	// BuryGap is the further cost per step by which the covered top is
	// needed before the card.
	BuryGap float64 `param:"w_bury_gap" min:"0" max:"100" doc:"further cost per step the covered top is needed before the card"`
	// Empty is the cost of starting an empty stack.
	Empty float64 `param:"w_empty" min:"0" max:"100" doc:"cost of starting an empty stack"`
	// Late is the credit, per step of need, for putting a card on an empty
	// stack: a card needed late (a king) makes a good bottom.
	Late float64 `param:"w_late" min:"0" max:"100" doc:"credit per step of need for a card put on an empty stack"`
	// Chain is the credit for putting a card on the card that comes right
	// after it on a table that does not hold the card's rank yet (Nanzaki
	// & Shintani's chain stacking): the two can leave together.
	Chain float64 `param:"w_chain" min:"0" max:"100" doc:"credit for a card put on the card right after it on a table that lacks its rank"`
}

// DefaultWeights are the weights measured best on the 1,000-deck corpus
// (docs/strategies.md).
var DefaultWeights = Weights{Gap: 1, Bury: 20, BuryGap: 1, Empty: 14, Late: 1}

// needs holds, for one position, the distance of each rank's open slots,
// nearest first.
type needs struct {
	d [solver.NumRanks + 1][solver.Tables]int8
	n [solver.NumRanks + 1]int8 // open slots of each rank
	s [solver.NumRanks + 1]int8 // stacked cards of each rank
}

func (nd *needs) fill(p *solver.State) {
	*nd = needs{}
	for x := 1; x <= solver.Tables; x++ {
		pl := p.Placed(x)
		for k := pl; k < solver.NumRanks; k++ {
			r := solver.TableRank(x, k)
			// Insert k-pl in order: at most four slots per rank.
			i := nd.n[r]
			for i > 0 && nd.d[r][i-1] > int8(k-pl) {
				nd.d[r][i] = nd.d[r][i-1]
				i--
			}
			nd.d[r][i] = int8(k - pl)
			nd.n[r]++
		}
	}
	for s := range p.Stacks() {
		for i := range p.Height(s) {
			nd.s[p.StackCard(s, i).Rank()]++
		}
	}
}

// newNeed is the need of a card of rank r about to be stacked.
func (nd *needs) newNeed(r solver.Rank) int {
	i := min(nd.s[r], nd.n[r]-1)
	if i < 0 {
		return solver.NumRanks
	}
	return int(nd.d[r][i])
}

// topNeed is the need of a stacked card of rank r lying on top of a stack.
func (nd *needs) topNeed(r solver.Rank) int {
	if nd.n[r] == 0 {
		return solver.NumRanks
	}
	return int(nd.d[r][0])
}

// cost rates stacking y on stack s, whose top is top (0: empty), in st.
func (w *Weights) cost(st *solver.State, nd *needs, y solver.Rank, top solver.Card) float64 {
	ny := nd.newNeed(y)
	if top == 0 {
		return w.Empty - w.Late*float64(ny)
	}
	var c float64
	if nt := nd.topNeed(top.Rank()); nt >= ny {
		c = w.Gap * float64(nt-ny)
	} else {
		c = w.Bury + w.BuryGap*float64(ny-nt)
	}
	if w.Chain != 0 && chains(st, y, top.Rank()) {
		c -= w.Chain
	}
	return c
}

// chains reports whether rank t comes right after rank y on some table that
// does not hold y yet.
func chains(st *solver.State, y, t solver.Rank) bool {
	for x := 1; x <= solver.Tables; x++ {
		k := solver.TablePos(x, y)
		if k+1 < solver.NumRanks && !st.Filled(x, y) && solver.TableRank(x, k+1) == t {
			return true
		}
	}
	return false
}
