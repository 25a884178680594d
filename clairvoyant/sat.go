package clairvoyant

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	gophersat "github.com/crillab/gophersat/solver"

	"github.com/calcsol/calcsol/solver"
)

// A SATSolver decides a formula in conjunctive normal form: variables are
// 1..nvars, a literal is a variable (true) or its negation (-v), and each
// clause is a list of literals of which one at least must hold. It returns
// whether the formula can be satisfied and, if so, a model (model[v] is the
// value of variable v; model[0] is unused). An error, a cancelled context
// among them, leaves the question open.
type SATSolver interface {
	SolveCNF(ctx context.Context, nvars int, clauses [][]int) (sat bool, model []bool, err error)
}

// Gophersat is the SAT solver github.com/crillab/gophersat (a CDCL solver
// in Go) run in this process. It cannot be interrupted: a cancelled context
// is noticed before the search begins, not during it. Commands that need a
// time limit run it in a child process (ExternalSAT, `calcsol sat-worker`).
type Gophersat struct{}

// SolveCNF implements SATSolver.
func (Gophersat) SolveCNF(ctx context.Context, nvars int, clauses [][]int) (bool, []bool, error) {
	if err := ctx.Err(); err != nil {
		return false, nil, err
	}
	for _, c := range clauses {
		if len(c) == 0 {
			return false, nil, nil // gophersat reads an empty clause as none
		}
	}
	s := gophersat.New(gophersat.ParseSliceNb(clauses, nvars))
	switch s.Solve() {
	case gophersat.Sat:
		m := s.Model()
		model := make([]bool, nvars+1)
		copy(model[1:], m)
		return true, model, nil
	case gophersat.Unsat:
		return false, nil, nil
	}
	return false, nil, errors.New("gophersat: no answer")
}

// ExternalSAT runs a SAT solver program that reads a formula in DIMACS CNF
// on its standard input and writes its answer in the SAT competition's
// format ("s SATISFIABLE" and "v" lines, or "s UNSATISFIABLE"): CaDiCaL,
// kissat, minisat-like programs, or this program's own `calcsol sat-worker`.
// The program is killed when the context is done.
type ExternalSAT struct {
	Path string
	Args []string
}

// SolveCNF implements SATSolver.
func (e ExternalSAT) SolveCNF(ctx context.Context, nvars int, clauses [][]int) (bool, []bool, error) {
	var in bytes.Buffer
	WriteDIMACS(&in, nvars, clauses)
	cmd := exec.CommandContext(ctx, e.Path, e.Args...)
	// The program gets no Ctrl-C of its own (ownProcessGroup): it stops when
	// the context does, so that an interrupt reads as one, not as a solver
	// that died; and Run does not wait long for pipes a killed program's
	// children may hold.
	ownProcessGroup(cmd)
	cmd.WaitDelay = time.Second
	cmd.Stdin = &in
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	runErr := cmd.Run()
	if err := ctx.Err(); err != nil {
		return false, nil, err
	}
	sat, model, err := ReadDIMACSAnswer(&out, nvars)
	if err != nil {
		if runErr != nil {
			return false, nil, fmt.Errorf("%s: %v: %s", e.Path, runErr, strings.TrimSpace(stderr.String()))
		}
		return false, nil, fmt.Errorf("%s: %w", e.Path, err)
	}
	return sat, model, nil
}

// WriteDIMACS writes the formula in DIMACS CNF.
func WriteDIMACS(w io.Writer, nvars int, clauses [][]int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "p cnf %d %d\n", nvars, len(clauses))
	var buf []byte
	for _, c := range clauses {
		buf = buf[:0]
		for _, l := range c {
			buf = strconv.AppendInt(buf, int64(l), 10)
			buf = append(buf, ' ')
		}
		buf = append(buf, '0', '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// maxDIMACSVars bounds the variables ReadDIMACS accepts (a deal's formula
// has a few thousand).
const maxDIMACSVars = 1 << 24

// ReadDIMACS reads a formula in DIMACS CNF (comments, the problem line,
// clauses ended by 0 across lines).
func ReadDIMACS(r io.Reader) (nvars int, clauses [][]int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	var cur []int
	header, line := false, 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] == "c" {
			continue
		}
		if f[0] == "p" {
			if header || len(f) != 4 || f[1] != "cnf" {
				return 0, nil, fmt.Errorf("line %d: want one problem line \"p cnf VARS CLAUSES\"", line)
			}
			if nvars, err = strconv.Atoi(f[2]); err != nil || nvars < 0 || nvars > maxDIMACSVars {
				return 0, nil, fmt.Errorf("line %d: variables %q (want 0 to %d)", line, f[2], maxDIMACSVars)
			}
			header = true
			continue
		}
		if !header {
			return 0, nil, fmt.Errorf("line %d: a clause before the problem line", line)
		}
		for _, s := range f {
			l, err := strconv.Atoi(s)
			if err != nil || l > nvars || l < -nvars {
				return 0, nil, fmt.Errorf("line %d: literal %q (variables 1..%d)", line, s, nvars)
			}
			if l == 0 {
				clauses = append(clauses, cur)
				cur = nil
				continue
			}
			cur = append(cur, l)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, nil, err
	}
	if !header {
		return 0, nil, errors.New("no problem line")
	}
	if cur != nil {
		return 0, nil, fmt.Errorf("line %d: the last clause does not end with 0", line)
	}
	return nvars, clauses, nil
}

// WriteDIMACSAnswer writes a SAT solver's answer in the SAT competition's
// format.
func WriteDIMACSAnswer(w io.Writer, sat bool, model []bool) error {
	bw := bufio.NewWriter(w)
	if !sat {
		fmt.Fprintln(bw, "s UNSATISFIABLE")
		return bw.Flush()
	}
	fmt.Fprintln(bw, "s SATISFIABLE")
	for v := 1; v < len(model); v++ {
		if v%20 == 1 {
			if v > 1 {
				fmt.Fprintln(bw)
			}
			fmt.Fprint(bw, "v")
		}
		l := v
		if !model[v] {
			l = -v
		}
		fmt.Fprintf(bw, " %d", l)
	}
	fmt.Fprintln(bw, "\nv 0")
	return bw.Flush()
}

// ReadDIMACSAnswer reads a SAT solver's answer in the SAT competition's
// format; variables the model leaves out are false.
func ReadDIMACSAnswer(r io.Reader, nvars int) (sat bool, model []bool, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	status, ended := "", false
	model = make([]bool, nvars+1)
	for sc.Scan() {
		t := sc.Text()
		switch {
		case strings.HasPrefix(t, "s "):
			status = strings.TrimSpace(t[2:])
		case strings.HasPrefix(t, "v "):
			for _, f := range strings.Fields(t[2:]) {
				l, err := strconv.Atoi(f)
				if err != nil || l > nvars || l < -nvars {
					return false, nil, fmt.Errorf("model literal %q", f)
				}
				if l > 0 {
					model[l] = true
				}
				ended = l == 0
			}
		}
	}
	if err := sc.Err(); err != nil {
		return false, nil, err
	}
	switch status {
	case "SATISFIABLE":
		if !ended {
			return false, nil, errors.New("the model does not end with 0 (cut short?)")
		}
		return true, model, nil
	case "UNSATISFIABLE":
		return false, nil, nil
	case "":
		return false, nil, errors.New("no answer line (\"s SATISFIABLE\" or \"s UNSATISFIABLE\")")
	}
	return false, nil, fmt.Errorf("answer %q", status)
}

// The encoding of a position as a formula (docs/clairvoyant.md, "The deal
// as a formula"). The items are the cards not yet on the tables: first the
// stacked cards of the position (stack by stack, bottom first), then the
// stock in the order drawn, the drawn card first. Placement j is the play of
// stock card j; gap g is the play before placement g (gap 0: before the
// drawn card is played; gap n: after the last placement). The variables
// say, for each item, its table; for a stock card, whether it goes straight
// to its table when drawn or onto which stack; in which gap it reaches its
// table; and, for each pair of items, which reaches its table first.
type encoding struct {
	rank    []solver.Rank // rank of each item
	place   []int         // placement of a stock item; -1 for a stacked one
	m, n    int           // stacked items, stock items
	stacks  int
	nvars   int
	clauses [][]int
	table   [][solver.Tables]int // table[i][x]: item i ends on table x (lFalse where its slot is filled)
	direct  []int                // item i goes to its table when drawn
	stack   [][]int              // stack[i][s]: item i waits on stack s
	after   [][]int              // after[i][g]: item i reaches its table in gap g or later (g = 0..n+1)
	first   [][]int              // first[a][b]: a reaches its table before b (first[b][a] = -first[a][b])
}

const (
	lTrue  = 1 << 30
	lFalse = -lTrue
)

func (e *encoding) newVar() int { e.nvars++; return e.nvars }

// clause adds a clause, dropping false constants; a true constant drops the
// clause.
func (e *encoding) clause(lits ...int) {
	c := make([]int, 0, len(lits))
	for _, l := range lits {
		switch l {
		case lTrue:
			return
		case lFalse:
			continue
		}
		c = append(c, l)
	}
	e.clauses = append(e.clauses, c)
}

// exactlyOne adds that exactly one of lits holds.
func (e *encoding) exactlyOne(lits []int) {
	e.clause(lits...)
	for i := range lits {
		for j := i + 1; j < len(lits); j++ {
			e.clause(-lits[i], -lits[j])
		}
	}
}

// stockCards returns the cards of the stock in the order drawn: the deck
// less the pre-placed cards (the first A, 2, 3 and 4 under Preplaced).
func stockCards(d *solver.Deck, r solver.Rules) []solver.Rank {
	var cards []solver.Rank
	var took [solver.Tables + 1]bool
	for _, c := range d {
		if r.Preplaced && int(c) <= solver.Tables && !took[c] {
			took[c] = true
			continue
		}
		cards = append(cards, c)
	}
	return cards
}

// encode builds the formula of deck d under rules r: it can be satisfied if
// and only if the deal can be won (docs/clairvoyant.md, Lemma 8).
func encode(d *solver.Deck, r solver.Rules) *encoding {
	var prog [solver.Tables]int
	if r.Preplaced {
		prog = [solver.Tables]int{1, 1, 1, 1}
	}
	return encodePosition(prog, make([][]solver.Rank, r.Stacks), stockCards(d, r))
}

// encodePosition builds the formula of the position with prog[x] cards on
// table x, the given stacks (bottom first) and the stock in the order drawn,
// the drawn card first: it can be satisfied if and only if the position can
// still be won. Stacked cards may go to any table that needs them (the rules
// know no assignments).
func encodePosition(prog [solver.Tables]int, stacks [][]solver.Rank, stock []solver.Rank) *encoding {
	S := len(stacks)
	e := &encoding{stacks: S, n: len(stock)}
	var home []int // the stack of a stacked item
	for s, st := range stacks {
		for _, r := range st {
			e.rank, e.place, home = append(e.rank, r), append(e.place, -1), append(home, s)
		}
	}
	e.m = len(e.rank)
	for j, r := range stock {
		e.rank, e.place, home = append(e.rank, r), append(e.place, j), append(home, -1)
	}
	N, n := len(e.rank), e.n
	// The table of each item: one of the free slots of its rank, and each
	// slot one item.
	e.table = make([][solver.Tables]int, N)
	for i := range N {
		var lits []int
		for x := range solver.Tables {
			if solver.TablePos(x+1, e.rank[i]) < prog[x] {
				e.table[i][x] = lFalse
				continue
			}
			e.table[i][x] = e.newVar()
			lits = append(lits, e.table[i][x])
		}
		e.exactlyOne(lits)
	}
	for x := range solver.Tables {
		for a := range N {
			for b := a + 1; b < N; b++ {
				if e.rank[a] == e.rank[b] {
					e.clause(-e.table[a][x], -e.table[b][x])
				}
			}
		}
	}
	// A stacked item stays on its stack; a stock card goes straight to its
	// table or onto one stack. With every stack empty, stacks are
	// interchangeable: a card may use stack s > 0 only if an earlier card
	// uses stack s-1.
	e.direct = make([]int, N)
	e.stack = make([][]int, N)
	for i := range N {
		e.stack[i] = make([]int, S)
		if home[i] >= 0 {
			e.direct[i] = lFalse
			for s := range S {
				e.stack[i][s] = lFalse
			}
			e.stack[i][home[i]] = lTrue
			continue
		}
		e.direct[i] = e.newVar()
		lits := []int{e.direct[i]}
		for s := range S {
			e.stack[i][s] = e.newVar()
			lits = append(lits, e.stack[i][s])
		}
		e.exactlyOne(lits)
		for s := 1; s < S && e.m == 0; s++ {
			cl := []int{-e.stack[i][s]}
			for a := e.m; a < i; a++ {
				cl = append(cl, e.stack[a][s-1])
			}
			e.clause(cl...)
		}
	}
	// after[i][g]: item i reaches its table in gap g or later (an order
	// encoding of that gap); a stock card not before the gap after its own
	// placement, and every item by the last gap.
	e.after = make([][]int, N)
	for i := range N {
		lo := e.place[i] + 1 // 0 for a stacked item
		e.after[i] = make([]int, n+2)
		for g := 0; g <= n+1; g++ {
			switch {
			case g <= lo:
				e.after[i][g] = lTrue
			case g == n+1:
				e.after[i][g] = lFalse
			default:
				e.after[i][g] = e.newVar()
				if g > lo+1 {
					e.clause(-e.after[i][g], e.after[i][g-1])
				}
			}
		}
	}
	// first[a][b]: the order in which the items reach their tables, a
	// total order (no cycle of three) that agrees with the gaps.
	e.first = make([][]int, N)
	for a := range N {
		e.first[a] = make([]int, N)
	}
	for a := range N {
		for b := a + 1; b < N; b++ {
			e.first[a][b] = e.newVar()
			e.first[b][a] = -e.first[a][b]
		}
	}
	for a := range N {
		for b := a + 1; b < N; b++ {
			for c := b + 1; c < N; c++ {
				e.clause(-e.first[a][b], -e.first[b][c], -e.first[c][a])
				e.clause(-e.first[a][c], -e.first[c][b], -e.first[b][a])
			}
		}
	}
	for a := range N {
		for b := range N {
			if a == b {
				continue
			}
			// a first and a in gap g or later: b too. For g below a's
			// earliest gap this follows from that gap.
			for g := e.place[a] + 1; g <= n; g++ {
				if e.after[b][g] != lTrue {
					e.clause(-e.first[a][b], -e.after[a][g], e.after[b][g])
				}
			}
		}
	}
	// A table takes its cards in order; a card that goes straight to its
	// table finds the card before it there already, and reaches the table
	// in the gap right after its placement.
	for x := range solver.Tables {
		for k := max(prog[x], 1); k < solver.NumRanks; k++ {
			rp, rk := solver.TableRank(x+1, k-1), solver.TableRank(x+1, k)
			for c := range N {
				if e.rank[c] != rp || k-1 < prog[x] {
					continue
				}
				for d := range N {
					if e.rank[d] != rk {
						continue
					}
					e.clause(-e.table[c][x], -e.table[d][x], e.first[c][d])
					if e.place[d] >= 0 {
						e.clause(-e.direct[d], -e.table[d][x], -e.table[c][x], -e.after[c][e.place[d]+1])
					}
				}
			}
		}
	}
	for d := e.m; d < N; d++ {
		e.clause(-e.direct[d], -e.after[d][e.place[d]+2])
	}
	// A stack is last in, first out: an item put on a stack where an
	// earlier one still lies leaves before it (the position's stacks: the
	// upper card before the lower).
	for a := range N {
		for b := a + 1; b < N; b++ {
			if e.place[b] < 0 {
				if home[a] == home[b] {
					e.clause(e.first[b][a])
				}
				continue
			}
			for s := range S {
				e.clause(-e.stack[a][s], -e.stack[b][s], -e.after[a][e.place[b]+1], e.first[b][a])
			}
		}
	}
	return e
}

// trace reads a winning line off a model: first the stacked cards that
// reach their tables before the drawn card is played; then, for each stock
// card in turn, its play (to its table, or onto its stack) and the stack
// tops that reach their tables in the gap after it, in the order of the
// model. Stock cards are stacked meant for their tables, unless the
// position has stacked cards: the engine keeps their own assignments, which
// the line may not follow, so the line's stacked cards go unassigned.
func (e *encoding) trace(model []bool) []solver.Move {
	val := func(l int) bool {
		switch {
		case l == lTrue:
			return true
		case l == lFalse:
			return false
		case l < 0:
			return !model[-l]
		}
		return model[l]
	}
	N, n := len(e.rank), e.n
	tab, stk, gap := make([]int, N), make([]int, N), make([]int, N)
	for i := range N {
		for x := range solver.Tables {
			if val(e.table[i][x]) {
				tab[i] = x
			}
		}
		stk[i] = -1
		for s := range e.stacks {
			if val(e.stack[i][s]) {
				stk[i] = s
			}
		}
		for g := 0; g <= n; g++ {
			if val(e.after[i][g]) {
				gap[i] = g
			}
		}
	}
	order := make([]int, N)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case a == b:
			return 0
		case val(e.first[a][b]):
			return -1
		}
		return 1
	})
	var moves []solver.Move
	arrivals := func(g int) {
		for _, i := range order {
			if gap[i] == g && stk[i] >= 0 {
				moves = append(moves, solver.Move{Kind: solver.StackToTable, Rank: e.rank[i], Stack: int8(stk[i]), Table: int8(tab[i] + 1)})
			}
		}
	}
	arrivals(0)
	for j := range n {
		i := e.m + j
		switch {
		case stk[i] < 0:
			moves = append(moves, solver.Move{Kind: solver.ToTable, Rank: e.rank[i], Table: int8(tab[i] + 1)})
		case e.m > 0:
			moves = append(moves, solver.Move{Kind: solver.ToStack, Rank: e.rank[i], Stack: int8(stk[i])})
		default:
			moves = append(moves, solver.Move{Kind: solver.ToStack, Rank: e.rank[i], Stack: int8(stk[i]), Table: int8(tab[i] + 1)})
		}
		arrivals(j + 1)
	}
	return moves
}

// ErrSAT marks the errors of a SAT solver (it failed, or answered nonsense),
// as against errors of the input.
var ErrSAT = errors.New("SAT solver")

// SolveSAT decides deck under rules by encoding the deal as a formula for
// sat (docs/clairvoyant.md, "The deal as a formula"): satisfiable exactly
// when the deal can be won. A model is read as a winning line and replayed
// by the engine before Yes is returned; an unsatisfiable formula is No; an
// error of sat when ctx is done (a timeout) is Unknown, with Stopped set;
// its other errors are returned, wrapping ErrSAT.
func SolveSAT(ctx context.Context, deck solver.Deck, rules solver.Rules, sat SATSolver) (Result, error) {
	return SolveSATAfter(ctx, deck, rules, nil, sat)
}

// SolveSATAfter is SolveSAT for the position reached by playing prefix on
// deck, as SolveAfter: Result.Trace holds the moves after the prefix, and
// the prefix's stacked cards may go to any table that needs them.
func SolveSATAfter(ctx context.Context, deck solver.Deck, rules solver.Rules, prefix []solver.Move, sat SATSolver) (Result, error) {
	if err := deck.Validate(); err != nil {
		return Result{}, fmt.Errorf("deck: %w", err)
	}
	if err := rules.Validate(); err != nil {
		return Result{}, err
	}
	var e *encoding
	if len(prefix) == 0 {
		e = encode(&deck, rules)
	} else {
		g, err := solver.Replay(&deck, rules, prefix)
		if err != nil {
			return Result{}, fmt.Errorf("%w: %v", ErrBadPrefix, err)
		}
		v := g.View()
		var prog [solver.Tables]int
		for x := range prog {
			prog[x] = v.Placed(x + 1)
		}
		stacks := make([][]solver.Rank, rules.Stacks)
		for s := range stacks {
			for _, c := range v.AppendStack(nil, s) {
				stacks[s] = append(stacks[s], c.Rank())
			}
		}
		cards := stockCards(&deck, rules)
		left := v.StockLen()
		if v.Drawn() != 0 {
			left++
		}
		e = encodePosition(prog, stacks, cards[len(cards)-left:])
	}
	ok, model, err := sat.SolveCNF(ctx, e.nvars, e.clauses)
	if err != nil {
		if ctx.Err() != nil {
			return Result{Winnable: Unknown, Stopped: true}, nil
		}
		return Result{}, fmt.Errorf("%w: %v", ErrSAT, err)
	}
	if !ok {
		return Result{Winnable: No, SAT: true}, nil
	}
	if len(model) != e.nvars+1 {
		return Result{}, fmt.Errorf("%w: its model has %d values for %d variables", ErrSAT, len(model)-1, e.nvars)
	}
	tr := e.trace(model)
	all := append(append([]solver.Move(nil), prefix...), tr...)
	if end, err := solver.Replay(&deck, rules, all); err != nil || !end.Won() {
		return Result{}, fmt.Errorf("%w: the line read off its model does not replay (a wrong model, or an error of the encoding): %v", ErrSAT, err)
	}
	return Result{Winnable: Yes, Trace: tr, SAT: true}, nil
}
