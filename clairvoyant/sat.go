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
	status := ""
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
			}
		}
	}
	if err := sc.Err(); err != nil {
		return false, nil, err
	}
	switch status {
	case "SATISFIABLE":
		return true, model, nil
	case "UNSATISFIABLE":
		return false, nil, nil
	case "":
		return false, nil, errors.New("no answer line (\"s SATISFIABLE\" or \"s UNSATISFIABLE\")")
	}
	return false, nil, fmt.Errorf("answer %q", status)
}

// The encoding of a deal as a formula (docs/clairvoyant.md, "The deal as a
// formula"). Cards are numbered by their place in the stock: card i is drawn
// i-th. The variables say, for each card, its table; whether it goes
// straight to the table when drawn or onto which stack; after which draws it
// reaches its table; and, for each pair of cards, which reaches its table
// first.
type encoding struct {
	cards   []solver.Rank
	stacks  int
	nvars   int
	clauses [][]int
	table   [][solver.Tables]int // table[c][x]: card c ends on table x (lTrue/lFalse when fixed)
	direct  []int                // card c goes to its table when drawn
	stack   [][]int              // stack[c][s]: card c waits on stack s
	after   [][]int              // after[c][j]: card c reaches its table after draw j (j = 0..n; lTrue for j <= c, lFalse for j = n)
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
	cards := stockCards(d, r)
	n, S := len(cards), r.Stacks
	e := &encoding{cards: cards, stacks: S}
	filled := 0 // slots already filled on every table
	if r.Preplaced {
		filled = 1
	}
	// The table of each card: one of the free slots of its rank, and each
	// slot one card.
	e.table = make([][solver.Tables]int, n)
	for c := range n {
		var lits []int
		for x := range solver.Tables {
			if solver.TablePos(x+1, cards[c]) < filled {
				e.table[c][x] = lFalse
				continue
			}
			e.table[c][x] = e.newVar()
			lits = append(lits, e.table[c][x])
		}
		e.exactlyOne(lits)
	}
	for x := range solver.Tables {
		for a := range n {
			for b := a + 1; b < n; b++ {
				if cards[a] == cards[b] {
					e.clause(-e.table[a][x], -e.table[b][x])
				}
			}
		}
	}
	// Straight to the table, or onto one stack. Stacks are interchangeable:
	// a card may use stack s > 0 only if an earlier card uses stack s-1.
	e.direct = make([]int, n)
	e.stack = make([][]int, n)
	for c := range n {
		e.direct[c] = e.newVar()
		e.stack[c] = make([]int, S)
		lits := []int{e.direct[c]}
		for s := range S {
			e.stack[c][s] = e.newVar()
			lits = append(lits, e.stack[c][s])
		}
		e.exactlyOne(lits)
		for s := 1; s < S; s++ {
			cl := []int{-e.stack[c][s]}
			for a := range c {
				cl = append(cl, e.stack[a][s-1])
			}
			e.clause(cl...)
		}
	}
	// after[c][j]: card c reaches its table after draw j, i.e. in the play
	// between draws j and j+1 or later (an order encoding of that time).
	e.after = make([][]int, n)
	for c := range n {
		e.after[c] = make([]int, n+1)
		for j := 0; j <= n; j++ {
			switch {
			case j <= c:
				e.after[c][j] = lTrue
			case j == n:
				e.after[c][j] = lFalse
			default:
				e.after[c][j] = e.newVar()
				if j > c+1 {
					e.clause(-e.after[c][j], e.after[c][j-1])
				}
			}
		}
	}
	// first[a][b]: the order in which the cards reach their tables, a
	// total order (no cycle of three) that agrees with the times.
	e.first = make([][]int, n)
	for a := range n {
		e.first[a] = make([]int, n)
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			e.first[a][b] = e.newVar()
			e.first[b][a] = -e.first[a][b]
		}
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				e.clause(-e.first[a][b], -e.first[b][c], -e.first[c][a])
				e.clause(-e.first[a][c], -e.first[c][b], -e.first[b][a])
			}
		}
	}
	for a := range n {
		for b := range n {
			if a == b {
				continue
			}
			// a first and a after draw j: b after draw j too. For j < a
			// this follows from j = a.
			for j := a; j < n; j++ {
				if e.after[b][j] != lTrue {
					e.clause(-e.first[a][b], -e.after[a][j], e.after[b][j])
				}
			}
		}
	}
	// A table takes its cards in order; a card that goes straight to its
	// table finds the card before it there already, and reaches the table
	// in the play right after its draw.
	for x := range solver.Tables {
		for k := max(filled, 1); k < solver.NumRanks; k++ {
			rp, rk := solver.TableRank(x+1, k-1), solver.TableRank(x+1, k)
			for c := range n {
				if cards[c] != rp || k-1 < filled {
					continue
				}
				for d := range n {
					if cards[d] != rk {
						continue
					}
					e.clause(-e.table[c][x], -e.table[d][x], e.first[c][d])
					e.clause(-e.direct[d], -e.table[d][x], -e.table[c][x], -e.after[c][d])
				}
			}
		}
	}
	for d := range n {
		e.clause(-e.direct[d], -e.after[d][d+1])
	}
	// A stack is last in, first out: a card put on a stack where an
	// earlier card still lies leaves before it.
	for a := range n {
		for b := a + 1; b < n; b++ {
			for s := range S {
				e.clause(-e.stack[a][s], -e.stack[b][s], -e.after[a][b], e.first[b][a])
			}
		}
	}
	return e
}

// trace reads a winning line off a model: each card in turn is drawn and
// played (to its table, or onto its stack, meant for its table), then the
// stack tops that reach their tables before the next draw move there, in
// the order of the model.
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
	n := len(e.cards)
	tab, stk, when := make([]int, n), make([]int, n), make([]int, n)
	for c := range n {
		for x := range solver.Tables {
			if val(e.table[c][x]) {
				tab[c] = x
			}
		}
		stk[c] = -1
		for s := range e.stacks {
			if val(e.stack[c][s]) {
				stk[c] = s
			}
		}
		for j := range n {
			if val(e.after[c][j]) {
				when[c] = j
			}
		}
	}
	order := make([]int, n)
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
	for j := range n {
		if stk[j] < 0 {
			moves = append(moves, solver.Move{Kind: solver.ToTable, Rank: e.cards[j], Table: int8(tab[j] + 1)})
		} else {
			moves = append(moves, solver.Move{Kind: solver.ToStack, Rank: e.cards[j], Stack: int8(stk[j]), Table: int8(tab[j] + 1)})
		}
		for _, c := range order {
			if when[c] == j && stk[c] >= 0 {
				moves = append(moves, solver.Move{Kind: solver.StackToTable, Rank: e.cards[c], Stack: int8(stk[c]), Table: int8(tab[c] + 1)})
			}
		}
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
	if err := deck.Validate(); err != nil {
		return Result{}, fmt.Errorf("deck: %w", err)
	}
	if err := rules.Validate(); err != nil {
		return Result{}, err
	}
	e := encode(&deck, rules)
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
	if end, err := solver.Replay(&deck, rules, tr); err != nil || !end.Won() {
		return Result{}, fmt.Errorf("clairvoyant: internal error: the SAT solver's winning line does not replay (%v)", err)
	}
	return Result{Winnable: Yes, Trace: tr, SAT: true}, nil
}
