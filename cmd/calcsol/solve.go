package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/clairvoyant"
	"github.com/calcsol/calcsol/decks/corpora"
	"github.com/calcsol/calcsol/decks/corpus"
	"github.com/calcsol/calcsol/internal/exitcode"
	"github.com/calcsol/calcsol/internal/progress"
	"github.com/calcsol/calcsol/internal/textblock"
	"github.com/calcsol/calcsol/solver"
)

func newSolveCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "solve (--deck DECK | --corpus NAME|FILE) [--stacks N] [--preplaced]",
		Short: "Decide whether deals are winnable with the stock order known (the clairvoyant bound)",
		Long: `Decide, with the order of the stock known, whether a deal can be won, and give
a winning trace when it can (yx: card y to table x; ySx: y onto stack S, meant
for table x; Syx: top card y of stack S to table x). The answer is exact:
winnable, unwinnable, or unknown when the budget (--nodes per deck, --timeout
for the whole run) ran out first — never a guess. See docs/clairvoyant.md.

With --deck, one deal: the trace, or with --json
  {"winnable": true|false|null, "trace": [...], "nodes": N, "sat": false}
(null: not settled within the budget). The flags marked "with --corpus"
are refused with --deck, and --json with --corpus (exit 2), rather than
ignored.

With --corpus (a corpus file or a built-in name: ` + strings.Join(corpora.Names(), ", ") + `), every deck,
in parallel: the share of winnable decks with its Wilson 95 % interval, and
the bound on every strategy's success rate, [winnable/n, (winnable+unknown)/n]
widened by the Wilson interval at each end. --out F.json writes the
per-deck verdicts as JSON (corpus checksum, rules, per deck true/false/null)
and beside it F.lines.gz, a winning line for every winnable deck, which
'calcsol verify-bound F.json' replays with the rules alone. --resume FILE
reads such a file and searches only the decks it left unknown (with a larger
--nodes, say), and those marked winnable without a line that wins.
Stopped by --timeout (exit 0), or by Ctrl-C, SIGTERM or SIGHUP (exit 130),
a run with --out still writes what it settled,
the rest unknown, and says where to go on: --start N begins with deck N (0-based, corpus
order) and searches the decks before it last, so that a stage stopped early
goes on with the decks it did not reach. --try STRATEGY plays that strategy on each deck
before searching it: a game it wins, replayed, is a proof that the deck is
winnable (a strategy's loss proves nothing, so the search then runs as usual).
With --handoff S1,S2,… the search also takes over from the strategy's lost
game (with --pilot, its deepest pilot's), at the positions where the stock
holds S1, S2, … cards (fewest first, --handoff-nodes each): a win found
from there, after the game's moves up to that position, settles the deck
too. --try may be given several times: the strategies are tried in turn,
each deck's cheapest games first.

--pilot L plays each deck by the pilot method over each --try strategy, the
order known: at every decision each move (the drawn card to each table that
needs it, onto each stack, assigned to each table with a free slot unless
--pilot-assign=false; each stack top to each table that needs it) is played
out to the end by the pilot one level down — at level 0 the strategy
itself — and the best game found is followed. A playout that wins settles
the deck. Levels 1 to L are tried in turn, every strategy at one level
before any at the next: level 1 costs about a millisecond a deck, level 2
a few to tens of milliseconds. With several tables it settles almost every
3-stack deck before any search (docs/clairvoyant.md, "The pilot"). The
strategies must be deterministic; --pilot-assign=false stacks unassigned,
for strategies that do not read assignments.

--restarts N spends up to N nodes a deck, after a few passes of the usual
search, on runs with a randomly perturbed move ordering, each cut short and
started over (deterministic: each run is seeded with its number); then the
exhaustive search goes on. It finds hard wins (3 stacks) in fewer nodes and
never changes an answer.

--sat D gives each deck the search leaves unknown to a SAT solver, for up to
D: the deal is encoded as a formula that can be satisfied exactly when it
can be won (docs/clairvoyant.md, "The deal as a formula"). A model is read
as a winning line and replayed; an unsatisfiable formula proves the deal
lost. It settles the hard 3-stack deals that the search leaves unknown,
typically in seconds each. The solver is calcsol's own (the Go CDCL solver
gophersat, run in a child process so that a time limit can stop it), or any
program in the SAT competition's format named by --sat-solver.`,
		Example: `  calcsol solve --deck A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3 --stacks 4
  calcsol solve --deck A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3 --json --nodes 1000000
  calcsol solve --deck 98A75J552A342J28J02JQQ8A60Q44A037083K6Q65K9K349779K6 --stacks 3 --preplaced --nodes 1000000 --restarts 1000000
  calcsol solve --deck 47J4JK8QKJ463K29576JAAQ80AQ20A47Q035809K523935266798 --stacks 3 --preplaced --nodes 10000 --sat 2m
  calcsol corpus generate --deck standard52 --shuffle U --count 20 --seed 5 --out twenty.txt
  calcsol solve --corpus twenty.txt --stacks 4 --preplaced --nodes 20000 --out twenty-s4p.json
  calcsol solve --corpus twenty.txt --stacks 4 --preplaced --nodes 20000 --resume twenty-s4p.json --try priority:table=tuned-4-preplaced+rescue+endgame --out twenty-s4p.json
  calcsol solve --corpus twenty.txt --stacks 4 --preplaced --nodes 0 --resume twenty-s4p.json --out twenty-s4p.json
  calcsol solve --corpus twenty.txt --stacks 3 --nodes 1 --try priority:table=tuned-3-exact+rescue+endgame --handoff 16,32 --handoff-nodes 2000 --out twenty-s3.json
  calcsol solve --corpus twenty.txt --stacks 3 --nodes 1 --try priority:table=tuned-3-exact --try priority:table=tuned-3 --pilot 2 --out twenty-s3.json`,
		Args: cobra.NoArgs,
		RunE: runSolve,
	}
	f := cmd.Flags()
	f.String("deck", "", "the deck to solve (- for standard input)")
	f.String("corpus", "", "solve every deck of this corpus file or built-in corpus")
	f.Bool("json", false, "with --deck: print {\"winnable\":…,\"trace\":[…],\"nodes\":N}")
	f.Int64("nodes", 2_000_000, "search nodes allowed per deck (0: no limit)")
	f.Duration("timeout", 0, "stop after this long (0: no limit); what is not settled then is unknown")
	f.Int("workers", runtime.NumCPU(), "with --corpus: decks solved in parallel")
	f.String("out", "", "with --corpus: write the per-deck verdicts to this JSON file, and beside it a winning line for each winnable deck (F.json: F.lines.gz)")
	f.String("resume", "", "with --corpus: keep the decks this earlier --out file settles, solve only its unknowns")
	f.Int("start", 0, "with --corpus: begin with this deck (0-based, corpus order), search the decks before it last")
	f.StringArray("try", nil, "with --corpus: play this strategy on each deck first; a won game settles the deck (a kind, with parameters: priority+rescue+endgame); repeat for several, tried in turn")
	f.Int("pilot", 0, "with --try: play each deck by the pilot method over the strategies, levels 1 to this (0: their own games; at most 3), the order known")
	f.Bool("pilot-assign", true, "with --pilot: stack cards assigned to each table with a free slot (for strategies that read assignments, like priority); false: unassigned")
	f.IntSlice("handoff", nil, "with --try: where the strategy loses, search on from the positions of its game where the stock holds these numbers of cards (fewest first), e.g. 12,20,28")
	f.Int64("restarts", 0, "search nodes a deck for restarts with a perturbed move ordering before the exhaustive search (0: off); finds hard wins sooner, see docs/clairvoyant.md")
	f.Int64("handoff-nodes", 20_000, "with --handoff: search nodes allowed for each handoff search (0: no limit, only --timeout stops it)")
	addSATFlags(cmd, "deck")
	addRulesFlags(cmd)
	return cmd
}

func init() { rootCmd.AddCommand(newSolveCmd()) }

// solveJSON is the --json output for one deck.
type solveJSON struct {
	Winnable *bool    `json:"winnable"`
	Trace    []string `json:"trace"`
	Nodes    int64    `json:"nodes"`
	SAT      bool     `json:"sat"` // settled by the SAT solver (--sat)
}

func runSolve(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	deckArg, _ := f.GetString("deck")
	corpusArg, _ := f.GetString("corpus")
	if (deckArg == "") == (corpusArg == "") {
		return badInput("give one of --deck and --corpus")
	}
	if err := checkSolveMode(cmd, deckArg != ""); err != nil {
		return err
	}
	rules, err := rulesFromFlags(cmd)
	if err != nil {
		return err
	}
	nodes, _ := f.GetInt64("nodes")
	if nodes < 0 {
		return badInput("--nodes %d: want 0 (no limit) or more", nodes)
	}
	budget := clairvoyant.Budget{Nodes: nodes}
	restarts, _ := f.GetInt64("restarts")
	if restarts < 0 {
		return badInput("--restarts %d: want 0 (off) or more", restarts)
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	if d, _ := f.GetDuration("timeout"); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	opts := clairvoyant.Options{Restarts: restarts}
	if err := satFromFlags(cmd, &opts); err != nil {
		return err
	}
	if corpusArg != "" {
		return solveCorpus(cmd, ctx, corpusArg, rules, budget, opts)
	}
	deck, err := deckFromFlag(cmd)
	if err != nil {
		return err
	}
	res, err := clairvoyant.NewSolver(opts).Solve(ctx, deck, rules, budget)
	if errors.Is(err, clairvoyant.ErrSAT) {
		return err
	}
	if err != nil {
		return badInput("%v", err)
	}
	out := cmd.OutOrStdout()
	// Stopped by Ctrl-C, SIGTERM or SIGHUP rather than --timeout: the
	// verdict (unknown) is printed, and the exit status says so.
	var stopped error
	if res.Stopped && contextOf(cmd).Err() != nil {
		stopped = exitcode.Error{Code: exitcode.Interrupted, Err: fmt.Errorf("interrupted after %d nodes: the deal is not settled", res.Nodes)}
	}
	if asJSON, _ := f.GetBool("json"); asJSON {
		j := solveJSON{Winnable: res.Winnable.Bool(), Trace: []string{}, Nodes: res.Nodes, SAT: res.SAT}
		for _, m := range res.Trace {
			j.Trace = append(j.Trace, m.Format(rules))
		}
		if err := json.NewEncoder(out).Encode(j); err != nil {
			return err
		}
		return stopped
	}
	fmt.Fprintf(out, "deck:     %s\n", deck.String())
	fmt.Fprintf(out, "rules:    %s\n", rules)
	by := fmt.Sprintf("%d nodes", res.Nodes)
	if res.SAT {
		by = fmt.Sprintf("the SAT solver, after %d nodes of search", res.Nodes)
	}
	switch res.Winnable {
	case clairvoyant.Yes:
		fmt.Fprintf(out, "winnable: yes (%s)\ntrace:\n%s\n", by, textblock.Wrap(solver.FormatTrace(res.Trace, rules), 78))
	case clairvoyant.No:
		fmt.Fprintf(out, "winnable: no: every line of play loses (%s)\n", by)
	default:
		why := "not settled within the budget"
		if res.Stopped {
			why = "stopped by --timeout or an interrupt"
		}
		fmt.Fprintf(out, "winnable: unknown: %s (%d nodes)\n", why, res.Nodes)
	}
	return stopped
}

// corpusOnly are the flags of solve that only a corpus run uses (--workers
// aside: a config file may set it for both).
var corpusOnly = []string{"out", "resume", "start", "try", "pilot", "pilot-assign", "handoff", "handoff-nodes"}

// checkSolveMode refuses the flags the mode (--deck or --corpus) would
// ignore: a search of one deal that silently left out --try would answer
// another question than the one asked.
func checkSolveMode(cmd *cobra.Command, deck bool) error {
	f := cmd.Flags()
	if !deck {
		if f.Changed("json") {
			return badInput("--json needs --deck: solve --corpus prints a summary (--out writes the verdicts as JSON)")
		}
		return nil
	}
	var given []string
	for _, name := range corpusOnly {
		if f.Changed(name) {
			given = append(given, "--"+name)
		}
	}
	switch len(given) {
	case 0:
		return nil
	case 1:
		return badInput("%s needs --corpus: solve --deck searches one deal and would ignore it", given[0])
	}
	return badInput("%s need --corpus: solve --deck searches one deal and would ignore them", strings.Join(given, ", "))
}

// solveCorpus solves every deck of a corpus (clairvoyant.SolveCorpus) and
// prints the bound.
func solveCorpus(cmd *cobra.Command, ctx context.Context, arg string, rules solver.Rules, budget clairvoyant.Budget, opts clairvoyant.Options) error {
	f := cmd.Flags()
	job := clairvoyant.CorpusJob{Rules: rules, Budget: budget, Options: opts}
	job.Workers, _ = f.GetInt("workers")
	if job.Workers < 1 {
		return badInput("--workers %d: want at least 1", job.Workers)
	}
	out, _ := f.GetString("out")
	c, err := corpus.OpenCalculation(arg, arg)
	if err != nil {
		return badInput("%w", err)
	}
	if resume, _ := f.GetString("resume"); resume != "" {
		if job.Prior, err = settledIn(cmd, resume, c, rules); err != nil {
			return err
		}
	}
	job.Start, _ = f.GetInt("start")
	if job.Start < 0 || job.Start >= c.Len {
		return badInput("--start %d: want a deck index from 0 to %d", job.Start, c.Len-1)
	}
	specs, _ := f.GetStringArray("try")
	if err := tryFromFlags(cmd, specs, &job); err != nil {
		return err
	}
	// The shared progress line, drawn only when standard error is a terminal.
	bar := progress.Start(cmd.ErrOrStderr(), "decks", int64(c.Len))
	job.Progress = bar.Count(0)
	res, err := clairvoyant.SolveCorpus(ctx, c, job)
	bar.Stop()
	var te *clairvoyant.TryError
	if errors.As(err, &te) {
		if te.Pilot {
			return badInput("--try %s --pilot %d: %w", specs[te.Index], job.Pilot, te.Err)
		}
		return badInput("--try %s: %w", specs[te.Index], te.Err)
	}
	if res == nil {
		return err
	}
	// Stopped by --timeout, or by Ctrl-C, SIGTERM or SIGHUP with --out: what was
	// settled is kept (the rest is unknown, as with a budget), so that
	// --resume can go on from it.
	interrupted := out != "" && errors.Is(err, context.Canceled) && ctx.Err() != nil
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !interrupted {
		return err
	}
	w := cmd.OutOrStdout()
	n := res.Decks
	fmt.Fprintf(w, "corpus %s: %d decks; %s; budget %s nodes a deck; workers %d\n", arg, n, rules, nodesText(budget.Nodes), job.Workers)
	spent := fmt.Sprintf("%d nodes", res.Nodes)
	if res.Handoff {
		spent = fmt.Sprintf("%d nodes from the start, %d in handoff searches", res.Nodes, res.HandoffNodes)
	}
	if opts.SAT != nil {
		spent += fmt.Sprintf("; %d decks settled by the SAT solver", res.BySAT)
	}
	fmt.Fprintf(w, "winnable %d, unwinnable %d, unknown %d (%s, %s)\n", res.Winnable, res.Unwinnable, res.Unknown, spent, res.Elapsed.Round(time.Millisecond))
	p, lo, hi := res.Share()
	fmt.Fprintf(w, "winnable share %.2f %%, Wilson 95 %% CI [%.2f, %.2f] (unknowns counted as not won)\n", 100*p, 100*lo, 100*hi)
	blo, bhi, clo, chi := res.Bound()
	fmt.Fprintf(w, "clairvoyant bound: [%.2f, %.2f] %% of decks, Wilson 95 %% [%.2f, %.2f]\n", 100*blo, 100*bhi, 100*clo, 100*chi)
	// Where a stopped run can go on: the first deck, in the order searched,
	// that it did not search to its budget.
	goOn := ""
	if err != nil || interrupted {
		why := "--timeout"
		if interrupted {
			why = "an interrupt"
		}
		fmt.Fprintf(w, "stopped by %s: the decks not settled by then count as unknown\n", why)
		if k := clairvoyant.NotReached(res.Results, job.Start); k >= 0 {
			goOn = fmt.Sprintf(" --start %d", k)
			how := fmt.Sprintf("go on there with --resume %s --start %d", out, k)
			if out == "" {
				how = fmt.Sprintf("--out FILE keeps what a run settled, --resume FILE --start %d goes on there", k)
			}
			fmt.Fprintf(w, "not reached: deck %d and the unknowns after it (corpus order); %s\n", k, how)
		}
	}
	if out != "" {
		b := clairvoyant.NewBoundFile(strings.TrimSuffix(arg, ".txt"), c.Checksum, rules, budget, res.Results)
		lf, err := clairvoyant.EncodeLines(c.Decks(), c.Checksum, rules, res.Results)
		if err != nil {
			return err
		}
		if err := clairvoyant.WriteBound(out, b, lf); err != nil {
			return err
		}
		fmt.Fprintf(w, "per-deck verdicts: %s; winning lines: %s\n", out, clairvoyant.LinesPath(out))
	}
	if interrupted {
		return exitcode.Error{Code: exitcode.Interrupted, Err: fmt.Errorf("interrupted: %d of %d decks settled, written to %s; continue with --resume %s%s", res.Winnable+res.Unwinnable, n, out, out, goOn)}
	}
	return nil
}

// settledIn reads the verdicts of the bound file path (--resume) for c, with
// the winning lines beside it; a winnable verdict without a line that wins
// is searched again.
func settledIn(cmd *cobra.Command, path string, c *corpus.Calculation, rules solver.Rules) ([]clairvoyant.Result, error) {
	b, lf, err := clairvoyant.ReadBound(path)
	if err != nil {
		return nil, badInput("--resume %v", err)
	}
	prior, err := b.Settled(c.Checksum, rules, c.Len)
	if err != nil {
		return nil, badInput("--resume %s: %v", path, err)
	}
	if n := clairvoyant.WithLines(prior, c.Decks(), rules, lf); n > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "--resume %s: %d winnable verdicts without a winning line are searched again\n", path, n)
	}
	return prior, nil
}

// tryFromFlags sets the strategies --try names, with --pilot, --pilot-assign
// and --handoff, in job; without --try those flags are refused.
func tryFromFlags(cmd *cobra.Command, specs []string, job *clairvoyant.CorpusJob) error {
	f := cmd.Flags()
	if len(specs) == 0 {
		for _, c := range []struct{ flag, why string }{
			{"handoff", "the search takes over from the strategy's game"},
			{"pilot", "the pilot plays the strategy's games"},
			{"pilot-assign", "the pilot plays the strategy's games"},
		} {
			if f.Changed(c.flag) {
				return badInput("--%s needs --try: %s", c.flag, c.why)
			}
		}
		return nil
	}
	job.Pilot, _ = f.GetInt("pilot")
	if job.Pilot < 0 || job.Pilot > clairvoyant.MaxPilotLevel {
		return badInput("--pilot %d: want a level from 0 (the strategy's own game) to %d", job.Pilot, clairvoyant.MaxPilotLevel)
	}
	job.PilotAssign, _ = f.GetBool("pilot-assign")
	if f.Changed("pilot-assign") && job.Pilot == 0 {
		return badInput("--pilot-assign needs --pilot 1 or more: it says how the pilot stacks")
	}
	if hs, _ := f.GetIntSlice("handoff"); len(hs) > 0 {
		hn, _ := f.GetInt64("handoff-nodes")
		if hn < 0 {
			return badInput("--handoff-nodes %d: want 0 (no limit) or more", hn)
		}
		for _, h := range hs {
			if h < 0 || h >= solver.DeckSize {
				return badInput("--handoff %d: want a number of stock cards from 0 to %d", h, solver.DeckSize-1)
			}
		}
		job.Handoff = &clairvoyant.Handoff{Stock: hs, Budget: clairvoyant.Budget{Nodes: hn}}
	}
	for _, spec := range specs {
		s, err := strategyRegistry().BuildSpec(spec)
		if err != nil {
			return badInput("--try %s: %w", spec, err)
		}
		job.Try = append(job.Try, s)
	}
	return nil
}

// addSATFlags adds --sat and --sat-solver, for the decks or positions what
// names.
func addSATFlags(cmd *cobra.Command, what string) {
	f := cmd.Flags()
	f.Duration("sat", 0, "give each "+what+" the search leaves unknown to a SAT solver for up to this long (0: off); see docs/clairvoyant.md")
	f.String("sat-solver", "", "with --sat: a SAT solver program and its arguments (reads DIMACS CNF on standard input, answers \"s SATISFIABLE\" with \"v\" lines or \"s UNSATISFIABLE\"), e.g. cadical; default: calcsol's own (gophersat, in a child process)")
}

// satFromFlags sets the SAT stage of opts from --sat and --sat-solver.
func satFromFlags(cmd *cobra.Command, opts *clairvoyant.Options) error {
	f := cmd.Flags()
	d, _ := f.GetDuration("sat")
	prog, _ := f.GetString("sat-solver")
	if d < 0 {
		return badInput("--sat %s: want a duration, 0 for off", d)
	}
	if d == 0 {
		if prog != "" {
			return badInput("--sat-solver needs --sat: how long the SAT solver may take a deck")
		}
		return nil
	}
	if prog == "" {
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("--sat: finding this program to run its SAT solver: %w", err)
		}
		opts.SAT = clairvoyant.ExternalSAT{Path: self, Args: []string{"sat-worker"}}
	} else {
		args := strings.Fields(prog)
		if len(args) == 0 {
			return badInput("--sat-solver %q: name a program", prog)
		}
		path, err := exec.LookPath(args[0])
		if err != nil {
			return badInput("--sat-solver %s: %v", prog, err)
		}
		opts.SAT = clairvoyant.ExternalSAT{Path: path, Args: args[1:]}
	}
	opts.SATTime = d
	return nil
}

func nodesText(n int64) string {
	if n == 0 {
		return "unlimited"
	}
	return fmt.Sprint(n)
}
