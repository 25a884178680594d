package solver

import "fmt"

// ReplayError says which move of a trace is illegal and why.
type ReplayError struct {
	Index int    // 0-based index of the move in the trace
	Token string // the move in trace notation
	Err   error
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("move %d (%s): %v", e.Index+1, e.Token, e.Err)
}

func (e *ReplayError) Unwrap() error { return e.Err }

// Replay plays trace on deck d under rules r and returns the position it
// reaches. A move that does not match the deck (another card is drawn, the
// stack top is another card) or that the rules forbid is rejected with a
// *ReplayError.
func Replay(d *Deck, r Rules, trace []Move) (*Game, error) {
	g, err := NewGame(d, r)
	if err != nil {
		return nil, err
	}
	for i, m := range trace {
		if m.Rank == 0 {
			return g, &ReplayError{i, m.Format(r), fmt.Errorf("move names no card")}
		}
		if err := g.Apply(m); err != nil {
			return g, &ReplayError{i, m.Format(r), err}
		}
	}
	return g, nil
}
