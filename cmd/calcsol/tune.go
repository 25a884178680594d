package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/configs"
	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
	"github.com/calcsol/calcsol/tune"
)

func newTuneCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tune --out FILE.yaml [--table FILE] [--strategy KIND[:params] --param NAME ...]",
		Short: "Search for a stronger priority table or strategy parameters",
		Long: `Search, by iterated local search (Lourenço, Martin & Stützle), for a priority
table, or values of a strategy's declared parameters, that win more games.
A move changes one rank's operation list (swap two operations, move one,
insert or drop one of T1–T4, N1–N4, S1–S4 for each stack S), one table option
(--options), or one parameter (--param). A candidate is played on the same
training decks as the point it would replace and accepted only when McNemar's
exact test on the decks one of them alone wins says it is better (--alpha),
or when it wins --margin more of them. Every accepted point is scored on the
validation decks; the best there is the result. The start and the result are
then scored on the test decks, which the search never saw.

The corpora are corpus specs (configs/tune/*.yaml, shipped: tune-train,
tune-validate, tune-test; any YAML with deck, shuffle, count, seed), corpus
files, or built-in corpora. They are made on the fly and named by checksum.

Outputs: --out, the best table as a table file (eval and tournament load it
unchanged), with its provenance in comments; --log, the search as JSON lines;
--chart, the tuning curve as a PNG. With --evals the search is deterministic
(same seed, corpora, start: same log and table); --time is not. Interrupted
(Ctrl-C), it keeps its log: --resume LOG continues it to the same result as
an uninterrupted run. See docs/tuning.md.`,
		Example: `  calcsol tune --table nanzaki-shintani --stacks 3 --evals 100 --seed 1 --out tuned.yaml
  calcsol tune --table nanzaki-shintani --stacks 3 --evals 200 --seed 1 --out tuned.yaml --resume tuned.jsonl
  calcsol tune --table nanzaki-shintani --options deadlock_check,tx_respects_reservation --evals 50 --out t.yaml
  calcsol tune --strategy priority --no-ops --param deadlock_check --evals 10 --out p.yaml`,
		Args: cobra.NoArgs,
		RunE: runTune,
	}
	f := cmd.Flags()
	f.String("train", "tune-train", "training corpus: spec, file or built-in name")
	f.String("validate", "tune-validate", "validation corpus")
	f.String("test", "tune-test", `test corpus, scored once at the end ("" to skip)`)
	f.StringArray("param", nil, "a declared parameter of the strategy to tune (repeatable)")
	f.Bool("no-ops", false, "leave the table's operation lists alone (tune only --options and --param)")
	f.StringSlice("options", nil, "table options the search may change: "+strings.Join(tune.OptionNames(), ", "))
	f.Uint64("seed", 1, "seed of the search's moves")
	f.Int("evals", 2000, "budget: candidates scored on the training decks (0: only --time)")
	f.Duration("time", 0, "budget in wall-clock time, e.g. 10m (not deterministic)")
	f.Float64("alpha", tune.DefaultAccept.Alpha, "accept a candidate when McNemar's exact p is below this")
	f.Int("margin", 0, "instead of the test, accept a candidate that wins this many more decks")
	f.Float64("race", 0.25, "play candidates first on this share of the training decks and drop the clearly worse (0: off)")
	f.Float64("race-alpha", 0.001, "drop a candidate after the first share when it is worse at this level")
	f.Int("patience", 200, "rejected neighbours in a row before a kick")
	f.Int("kick", 3, "random moves in a kick")
	f.Int("workers", runtime.NumCPU(), "games played in parallel")
	f.String("out", "", "write the best table (or parameters) here, YAML (required)")
	f.String("name", "", "name of the tuned table (default: --out's base name)")
	f.String("log", "", "the search log, JSON lines (default: --out with .jsonl)")
	f.String("chart", "", "the tuning curve, PNG (default: --out with .png)")
	f.String("resume", "", "continue the search whose log this is")
	addRulesFlags(cmd)
	addStrategyFlags(cmd)
	return cmd
}

func init() { rootCmd.AddCommand(newTuneCmd()) }

// tuneSetup is what the flags say to search.
type tuneSetup struct {
	parts     []strategies.Part
	paramPart map[string]int // tuned parameter → the part that declares it
	start     tune.Candidate
	startName string
	space     *tune.Space
	build     func(tune.Candidate) (solver.Strategy, error)
	// incremental: the strategy is the start table's priority strategy and
	// nothing else, so the search may play tables itself.
	incremental bool
}

func setupTune(cmd *cobra.Command, r solver.Rules) (*tuneSetup, error) {
	f := cmd.Flags()
	spec, _ := f.GetString("strategy")
	tableArg, _ := f.GetString("table")
	opts, _ := f.GetStringArray("option")
	params, _ := f.GetStringArray("param")
	noOps, _ := f.GetBool("no-ops")
	tuneOpts, _ := f.GetStringSlice("options")
	reg := strategyRegistry()
	parts, err := strategies.ParseSpec(spec)
	if err != nil {
		return nil, badInput("--strategy: %w", err)
	}
	s := &tuneSetup{parts: parts, paramPart: map[string]int{}, space: &tune.Space{Rules: r, Options: tuneOpts}}
	s.start.Params = map[string]string{}
	priority := parts[0].Kind == "priority"
	if !priority && (tableArg != "" || len(opts) > 0 || len(tuneOpts) > 0) {
		return nil, badInput("--table, --option and --options go with --strategy priority, not %s", parts[0].Kind)
	}
	if priority && (!noOps || len(tuneOpts) > 0) {
		name := tableArg
		if name == "" {
			name = parts[0].Params["table"]
		}
		t, err := configs.LoadPriorityFor(name, r.Stacks)
		if err != nil {
			return nil, badInput("%v", err)
		}
		for _, kv := range opts {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, badInput("--option %q: want key=value", kv)
			}
			if err := t.Options.SetOption(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
				return nil, badInput("--option: %v", err)
			}
		}
		delete(parts[0].Params, "table")
		// Options given in the spec become the start table's own, unless
		// they are tuned as parameters.
		for k, v := range parts[0].Params {
			if slices.Contains(tune.OptionNames(), k) && !slices.Contains(params, k) {
				if err := t.Options.SetOption(k, v); err != nil {
					return nil, badInput("--strategy: %v", err)
				}
				delete(parts[0].Params, k)
			}
		}
		s.start.Table, s.startName = t, t.Name
		s.space.Ops = !noOps
	}
	for _, name := range params {
		found := false
		for i, p := range parts {
			k, ok := reg.Kind(p.Kind)
			if !ok {
				return nil, badInput("--strategy: unknown kind %q (known: %s)", p.Kind, strings.Join(reg.Names(), ", "))
			}
			j := slices.IndexFunc(k.Params, func(d solver.Param) bool { return d.Name == name })
			if j < 0 {
				continue
			}
			d := k.Params[j]
			v, given := p.Params[name]
			if !given {
				v = d.Value
				if s.start.Table != nil && slices.Contains(tune.OptionNames(), name) {
					v = tune.OptionValue(s.start.Table.Options, name)
				}
			}
			s.start.Params[name] = v
			s.paramPart[name] = i
			delete(parts[i].Params, name)
			s.space.Params = append(s.space.Params, d)
			found = true
			break
		}
		if !found {
			return nil, badInput("--param %s: no kind of %q declares it", name, spec)
		}
	}
	if s.startName == "" {
		s.startName = strategies.FormatSpec(parts)
	}
	s.build = func(c tune.Candidate) (solver.Strategy, error) {
		ps := make([]strategies.Part, len(s.parts))
		for i, p := range s.parts {
			ps[i] = strategies.Part{Kind: p.Kind, Params: maps.Clone(p.Params)}
		}
		for name, v := range c.Params {
			ps[s.paramPart[name]].Params[name] = v
		}
		rr := reg
		if c.Table != nil {
			t := c.Table
			rr = strategies.NewRegistry()
			rr.MustRegister(strategies.PriorityKind(func(string, int) (*strategies.Table, error) { return tune.CloneTable(t), nil }))
			for _, k := range reg.Kinds() {
				if k.Name != "priority" {
					rr.MustRegister(k)
				}
			}
		}
		return rr.BuildParts(ps)
	}
	s.incremental = s.start.Table != nil && len(parts) == 1 && len(parts[0].Params) == 0 && len(s.space.Params) == 0
	if err := s.space.Check(s.start); err != nil {
		return nil, badInput("%v", err)
	}
	if _, err := s.build(s.start); err != nil {
		return nil, badInput("%v", err)
	}
	return s, nil
}

// withExt replaces path's extension.
func withExt(path, ext string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ext
}

func runTune(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags()
	out, _ := f.GetString("out")
	if out == "" {
		return badInput("--out FILE.yaml is required")
	}
	logPath, _ := f.GetString("log")
	if logPath == "" {
		logPath = withExt(out, ".jsonl")
	}
	chartPath, _ := f.GetString("chart")
	if chartPath == "" {
		chartPath = withExt(out, ".png")
	}
	for _, p := range []string{out, logPath, chartPath} {
		if err := atomicfile.CheckFile(p); err != nil {
			return badInput("--out: %w", err)
		}
	}
	r, err := rulesFromFlags(cmd)
	if err != nil {
		return err
	}
	setup, err := setupTune(cmd, r)
	if err != nil {
		return err
	}
	load := func(flag string) (*tune.Corpus, error) {
		arg, _ := f.GetString(flag)
		if arg == "" {
			return nil, nil
		}
		c, err := tune.LoadCorpus(arg, configs.TuneCorpusSpec)
		if err != nil {
			return nil, badInput("--%s: %v", flag, err)
		}
		return c, nil
	}
	train, err := load("train")
	if err != nil {
		return err
	}
	validate, err := load("validate")
	if err != nil {
		return err
	}
	test, err := load("test")
	if err != nil {
		return err
	}
	if train == nil || validate == nil {
		return badInput("--train and --validate are required")
	}
	for _, c := range []*tune.Corpus{validate, test} {
		if c != nil && c.Checksum == train.Checksum {
			return badInput("corpus %s is the training corpus: the search would be judged on the decks it was tuned on", c.Name)
		}
	}
	if test != nil && test.Checksum == validate.Checksum {
		return badInput("the test corpus is the validation corpus: it would not be held out")
	}

	opt := tune.Options{Rules: r, Train: train, Validate: validate, Space: setup.space, Start: setup.start,
		StartName: setup.startName, Build: setup.build, Incremental: setup.incremental}
	opt.Seed, _ = f.GetUint64("seed")
	opt.Evals, _ = f.GetInt("evals")
	opt.Time, _ = f.GetDuration("time")
	opt.Accept.Alpha, _ = f.GetFloat64("alpha")
	opt.Accept.Margin, _ = f.GetInt("margin")
	opt.Race, _ = f.GetFloat64("race")
	opt.RaceAlpha, _ = f.GetFloat64("race-alpha")
	opt.Patience, _ = f.GetInt("patience")
	opt.Kick, _ = f.GetInt("kick")
	opt.Workers, _ = f.GetInt("workers")
	if opt.Evals < 0 || (opt.Evals == 0 && opt.Time <= 0) {
		return badInput("give --evals N (N > 0) or --time D")
	}
	if opt.Accept.Margin == 0 && (opt.Accept.Alpha <= 0 || opt.Accept.Alpha >= 1) {
		return badInput("--alpha %g: want a level between 0 and 1", opt.Accept.Alpha)
	}
	if resume, _ := f.GetString("resume"); resume != "" {
		fh, err := os.Open(resume)
		if err != nil {
			return badInput("--resume: %v", err)
		}
		opt.Resume, err = tune.ReadLog(fh, resume)
		fh.Close()
		if err != nil {
			return badInput("--resume: %v", err)
		}
	}
	// The log is written as the search goes, so that an interrupted search
	// can be resumed; a resumed log has been read whole above.
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	opt.Log = logFile
	opt.Progress = progressPrinter(cmd.ErrOrStderr())

	ctx, stop := signal.NotifyContext(cmdContext(cmd), os.Interrupt)
	defer stop()
	res, err := tune.Search(ctx, opt)
	fmt.Fprintln(cmd.ErrOrStderr())
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted after %d evaluations; continue with --resume %s", res.Evals, logPath)
		}
		return err
	}
	if err := logFile.Close(); err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	made := res.Evals + 1 - res.Replayed // the start is evaluation 0
	fmt.Fprintf(w, "%d evaluations (%d replayed from the log, %d made in %s: %.1f candidates/s on %d workers; %d games played, %d skipped as unaffected); log %s\n",
		res.Evals, res.Replayed, made, res.Elapsed.Round(time.Millisecond), float64(made)/res.Elapsed.Seconds(), opt.Workers, res.Games, res.Skipped, logPath)
	rate := func(wins, n int) string { return fmt.Sprintf("%d/%d = %.2f %%", wins, n, 100*float64(wins)/float64(n)) }
	fmt.Fprintf(w, "training   %s: start %s, best %s\n", train.Name, rate(res.Start.TrainWins, res.TrainDecks), rate(res.Best.TrainWins, res.TrainDecks))
	fmt.Fprintf(w, "validation %s: start %s, best %s (evaluation %d)\n", validate.Name, rate(res.Start.ValWins, res.ValDecks), rate(res.Best.ValWins, res.ValDecks), res.Best.Eval)

	var rep *tune.Report
	if test != nil {
		if rep, err = tune.Test(ctx, test, r, setup.build, res.Start.Candidate, res.Best.Candidate, opt.Workers); err != nil {
			return err
		}
		fmt.Fprint(w, rep)
	}
	if err := tune.WriteChart(chartPath, res, fmt.Sprintf("tuning %s, %s", setup.startName, r)); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	text := tuneOutput(setup, res, rep, opt, outName(cmd, out))
	if err := atomicfile.Write(out, text); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s, %s, %s\n", out, logPath, chartPath)
	return nil
}

func cmdContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

func outName(cmd *cobra.Command, out string) string {
	if name, _ := cmd.Flags().GetString("name"); name != "" {
		return name
	}
	return strings.TrimSuffix(filepath.Base(out), filepath.Ext(out))
}

// tuneOutput writes the result: a priority table file when a table was
// tuned (the tuned parameters that are table options folded into it), else
// the strategy spec; provenance in comments either way.
func tuneOutput(s *tuneSetup, res *tune.Result, rep *tune.Report, opt tune.Options, name string) []byte {
	best := res.Best.Candidate
	var c strings.Builder
	fmt.Fprintf(&c, "Tuned by calcsol tune from %s (%s), seed %d, %d evaluations.\n", s.startName, opt.Rules, opt.Seed, res.Evals)
	fmt.Fprintf(&c, "  calcsol %s\n", strings.Join(resultArgs(os.Args[1:]), " "))
	fmt.Fprintf(&c, "Search: iterated local search; accept: %s; best at evaluation %d.\n", opt.Accept, res.Best.Eval)
	corpusLine := func(role string, k *tune.Corpus, startWins, bestWins, n int) {
		fmt.Fprintf(&c, "%s: %s (%s), sha256 %s\n", role, k.Name, k.About, k.Checksum)
		fmt.Fprintf(&c, "  start %d/%d = %.2f %%, tuned %d/%d = %.2f %%\n", startWins, n, 100*float64(startWins)/float64(n), bestWins, n, 100*float64(bestWins)/float64(n))
	}
	corpusLine("training", opt.Train, res.Start.TrainWins, res.Best.TrainWins, res.TrainDecks)
	corpusLine("validation", opt.Validate, res.Start.ValWins, res.Best.ValWins, res.ValDecks)
	if rep != nil {
		fmt.Fprintf(&c, "test: %s (%s), sha256 %s\n", rep.Corpus.Name, rep.Corpus.About, rep.Corpus.Checksum)
		fmt.Fprintf(&c, "  start %d/%d = %.2f %% [%.2f, %.2f], tuned %d/%d = %.2f %% [%.2f, %.2f]\n",
			rep.Start.Wins, rep.Start.Games, 100*rep.Start.Rate, 100*rep.Start.Lo, 100*rep.Start.Hi,
			rep.Tuned.Wins, rep.Tuned.Games, 100*rep.Tuned.Rate, 100*rep.Tuned.Lo, 100*rep.Tuned.Hi)
		fmt.Fprintf(&c, "  difference %+.2f points [%+.2f, %+.2f]; McNemar exact p = %.3g\n", 100*rep.Diff, 100*rep.Lo, 100*rep.Hi, rep.Paired.P)
	}
	if best.Table != nil {
		t := tune.CloneTable(best.Table)
		for k, v := range best.Params {
			if slices.Contains(tune.OptionNames(), k) && s.paramPart[k] == 0 {
				_ = t.Options.SetOption(k, v)
			}
		}
		t.Name = name
		t.Source = fmt.Sprintf("calcsol tune from %s, seed %d, %d evaluations", s.startName, opt.Seed, res.Evals)
		return configs.FormatPriority(t, c.String())
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(c.String(), "\n"), "\n") {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	parts := make([]strategies.Part, len(s.parts))
	for i, p := range s.parts {
		parts[i] = strategies.Part{Kind: p.Kind, Params: maps.Clone(p.Params)}
	}
	for k, v := range best.Params {
		parts[s.paramPart[k]].Params[k] = v
	}
	fmt.Fprintf(&b, "strategy: %q\n", strategies.FormatSpec(parts))
	return []byte(b.String())
}

// progressPrinter reports the search on one line of w while w is a
// terminal, at most five times a second; elsewhere it prints nothing.
func progressPrinter(w io.Writer) func(tune.Progress) {
	fh, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if st, err := fh.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	var last time.Time
	return func(p tune.Progress) {
		if time.Since(last) < 200*time.Millisecond && p.Evals != p.Budget {
			return
		}
		last = time.Now()
		budget := ""
		if p.Budget > 0 {
			budget = fmt.Sprintf("/%d", p.Budget)
		}
		fmt.Fprintf(w, "\rtune: evaluation %d%s  %s  accepted %d  training %.2f %%  best validation %.2f %%  %.1f/s   ",
			p.Evals, budget, p.Elapsed.Round(time.Second), p.Accepted, 100*p.TrainRate, 100*p.BestValRate,
			float64(p.Evals)/max(p.Elapsed.Seconds(), 1e-9))
	}
}

// resultArgs drops from args the flags that do not change the result
// (--resume, --log, --chart, --workers), so that the provenance names the
// command that gives the same table from scratch.
func resultArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "--") && slices.Contains([]string{"resume", "log", "chart", "workers"}, name) {
			if !hasValue {
				i++ // the value is the next argument
			}
			continue
		}
		if a == "" {
			a = `""`
		}
		out = append(out, a)
	}
	return out
}
