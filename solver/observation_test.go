package solver_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/solver"
)

// firstFit moves a stack top a table needs, else plays the drawn card to a
// table, else stacks it on the lowest stack, unassigned.
type firstFit struct{}

func (firstFit) Choose(p solver.View) (solver.Move, error) {
	legal := p.AppendLegalMoves(nil)
	for _, kind := range []solver.MoveKind{solver.StackToTable, solver.ToTable} {
		for _, m := range legal {
			if m.Kind == kind {
				return m, nil
			}
		}
	}
	best := 0
	for s := 1; s < p.Stacks(); s++ {
		if p.Height(s) < p.Height(best) {
			best = s
		}
	}
	return solver.Move{Kind: solver.ToStack, Stack: int8(best)}, nil
}

// vandal chooses as firstFit, after doing to what it was handed everything
// the public API allows: exploring a copy of the state with moves and
// reveals, changing the copies of stacks and encodings it can get, and
// overwriting its own copy of the view.
type vandal struct{}

func (vandal) Choose(p solver.View) (solver.Move, error) {
	m, err := firstFit{}.Choose(p)
	st := p.State()
	for range 8 {
		legal := st.AppendLegalMoves(nil)
		if len(legal) == 0 {
			break
		}
		_ = st.Apply(legal[len(legal)-1])
		for r := solver.Rank(1); r <= solver.NumRanks; r++ {
			if st.Reveal(r) == nil {
				break
			}
		}
	}
	for s := range p.Stacks() {
		cards := p.AppendStack(nil, s)
		for i := range cards {
			cards[i] = solver.NewCard(solver.Rank(1+i%solver.NumRanks), 1)
		}
	}
	if b, err := p.MarshalBinary(); err == nil {
		for i := range b {
			b[i] = 0xff
		}
	}
	pos := p.Position()
	_ = pos
	pos = solver.Position{}
	p = st.View()
	_ = p
	return m, err
}

func TestObservationIsReadOnly(t *testing.T) {
	d, err := solver.ParseDeck("A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []solver.Rules{{Stacks: 3}, {Stacks: 4, Preplaced: true}} {
		want, err := solver.Play(context.Background(), &d, r, &solver.ChooserSession{C: firstFit{}}, true)
		if err != nil {
			t.Fatal(err)
		}
		got, err := solver.Play(context.Background(), &d, r, &solver.ChooserSession{C: vandal{}}, true)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(solver.FormatTrace(want.Trace, r), solver.FormatTrace(got.Trace, r)); diff != "" {
			t.Errorf("%s: a strategy that changes what it was handed changed the game (-want +got):\n%s", r, diff)
		}
		if got.Failed || got.Won != want.Won || got.Placed != want.Placed {
			t.Errorf("%s: got %+v, want %+v", r, got, want)
		}
		if _, err := solver.Replay(&d, r, got.Trace); err != nil {
			t.Errorf("%s: the trace does not replay: %v", r, err)
		}
	}
}
