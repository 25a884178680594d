package solver

// View is a read-only view of a Position: what the harness hands a strategy.
// It has Position's reading methods and none that change anything, and it
// holds the position by an unexported pointer, so no strategy can change the
// game through it, whatever it does with the View (copying a View copies the
// pointer, not the position, so handing one out costs nothing). A strategy
// that wants to explore takes a State, a copy of its own: v.State().
//
// A View is valid only during the call it was passed to: the game moves on
// after it.
type View struct{ p *Position }

// View returns a read-only view of p.
func (p *Position) View() View { return View{p} }

// State returns a changeable copy of the position.
func (v View) State() State { return State{*v.p} }

// Position returns a copy of the position.
func (v View) Position() Position { return *v.p }

// Rules: see Position.Rules.
func (v View) Rules() Rules { return v.p.Rules() }

// Stacks: see Position.Stacks.
func (v View) Stacks() int { return v.p.Stacks() }

// Drawn: see Position.Drawn.
func (v View) Drawn() Rank { return v.p.Drawn() }

// StockLen: see Position.StockLen.
func (v View) StockLen() int { return v.p.StockLen() }

// Remaining: see Position.Remaining.
func (v View) Remaining(r Rank) int { return v.p.Remaining(r) }

// Placed: see Position.Placed.
func (v View) Placed(x int) int { return v.p.Placed(x) }

// TotalPlaced: see Position.TotalPlaced.
func (v View) TotalPlaced() int { return v.p.TotalPlaced() }

// Need: see Position.Need.
func (v View) Need(x int) Rank { return v.p.Need(x) }

// Height: see Position.Height.
func (v View) Height(s int) int { return v.p.Height(s) }

// Top: see Position.Top.
func (v View) Top(s int) Card { return v.p.Top(s) }

// StackCard: see Position.StackCard.
func (v View) StackCard(s, i int) Card { return v.p.StackCard(s, i) }

// AppendStack: see Position.AppendStack.
func (v View) AppendStack(dst []Card, s int) []Card { return v.p.AppendStack(dst, s) }

// Filled: see Position.Filled.
func (v View) Filled(x int, r Rank) bool { return v.p.Filled(x, r) }

// Reserved: see Position.Reserved.
func (v View) Reserved(x int, r Rank) bool { return v.p.Reserved(x, r) }

// SlotFree: see Position.SlotFree.
func (v View) SlotFree(x int, r Rank) bool { return v.p.SlotFree(x, r) }

// ReservedMask: see Position.ReservedMask.
func (v View) ReservedMask(x int) uint16 { return v.p.ReservedMask(x) }

// StackMask: see Position.StackMask.
func (v View) StackMask(s, x int) uint16 { return v.p.StackMask(s, x) }

// Locate: see Position.Locate.
func (v View) Locate(x, k int) (stack, index int) { return v.p.Locate(x, k) }

// Won: see Position.Won.
func (v View) Won() bool { return v.p.Won() }

// Over: see Position.Over.
func (v View) Over() bool { return v.p.Over() }

// Check: see Position.Check.
func (v View) Check(m Move) error { return v.p.Check(m) }

// AppendLegalMoves: see Position.AppendLegalMoves.
func (v View) AppendLegalMoves(dst []Move) []Move { return v.p.AppendLegalMoves(dst) }

// String: see Position.String.
func (v View) String() string { return v.p.String() }

// MarshalBinary: see Position.MarshalBinary.
func (v View) MarshalBinary() ([]byte, error) { return v.p.MarshalBinary() }
