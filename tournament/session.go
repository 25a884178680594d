package tournament

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/calcsol/calcsol/internal/atomicfile"
	"github.com/calcsol/calcsol/internal/progress"
)

// Session is one run of a tournament with its report directory, if it has
// one: opened (fresh or resumed) before any game is played, then played.
type Session struct {
	t        *Tournament
	opt      SessionOptions
	manifest Manifest
	tally    *Tally
	results  *Results // nil without a directory
	lock     *DirLock // held from Open to Close
	skip     int      // games recorded by the run resumed
	opened   ResultsOpened
}

// SessionOptions say how a session plays and where it records.
type SessionOptions struct {
	// Config is the resolved config text (configs.TournamentConfig.Format):
	// its checksum goes in the manifest, the text in Dir.
	Config []byte
	// Dir is the report directory, or "" for none.
	Dir string
	// Resume continues the run Dir holds, whose manifest this is; Shard and
	// Trace are then the manifest's.
	Resume *Manifest
	Shard  Shard
	Trace  bool
	// Workers play games in parallel.
	Workers int
	// Log gets the resuming note and the progress line (drawn only when it
	// is a terminal).
	Log io.Writer
	// Repair, resuming, truncates records that cannot be trusted (a
	// *CorruptError) to the last good one, saying on Log what it drops,
	// and plays the rest again.
	Repair bool
	// RetryFailed, resuming, plays again the games recorded as failed and
	// replaces their records.
	RetryFailed bool
	// Stop, closed, stops the run gently (RunOptions.Stop): Log gets a
	// line saying so, the games in play are finished and recorded, and
	// Play returns a *StoppedError (without Dir, where nothing is kept,
	// ErrStopped).
	Stop <-chan struct{}
	// Cost, if set, is an entrant's declared cost of one game (0: none),
	// such as a preset's measured one: the progress line's time left uses
	// it for the cells not yet started (progress.Estimate), and a run
	// that it puts above a few minutes says so in Log when it starts.
	Cost func(*Entrant) time.Duration
}

// longRun is the estimated length above which a run says, as it starts,
// how long it will take.
const longRun = 3 * time.Minute

// StoppedError is a run that SessionOptions.Stop stopped before its end:
// Done of its Total games are recorded in Dir, and --resume continues it.
// It wraps ErrStopped.
type StoppedError struct {
	Done, Total int
	Dir         string
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("stopped: %d of %d games recorded in %s; continue with: calcsol tournament --resume %s", e.Done, e.Total, e.Dir, e.Dir)
}

func (e *StoppedError) Unwrap() error { return ErrStopped }

// DirError says that a report directory cannot hold or continue the run: a
// fault of the input, not of the run.
type DirError struct{ Err error }

func (e *DirError) Error() string { return e.Err.Error() }
func (e *DirError) Unwrap() error { return e.Err }

// ReadRun reads what a report directory holds of its run, to resume it: the
// manifest and the resolved config.
func ReadRun(dir string) (Manifest, []byte, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return m, nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	return m, data, err
}

// ConfigSHA is the checksum of a resolved config text, as manifests give it.
func ConfigSHA(config []byte) string {
	sum := sha256.Sum256(config)
	return hex.EncodeToString(sum[:])
}

// SameRun checks that a resumed run is the run its directory holds.
func SameRun(old, now Manifest) error {
	switch {
	case old.Program != now.Program:
		return fmt.Errorf("made by %s; this is %s", old.Program, now.Program)
	case old.ConfigSHA != now.ConfigSHA || !slices.Equal(old.Corpora, now.Corpora) || !slices.Equal(old.Strategies, now.Strategies) || !slices.Equal(old.Cells, now.Cells):
		return errors.New("its config, corpora or strategies have changed since the run began")
	}
	return nil
}

// Open prepares a session of t. A fresh run with a directory writes its
// config and manifest there; a resumed one is checked against the manifest
// it continues and reads the records done. The directory is locked
// (LockDir) until Close; a *DirError is a directory that cannot serve,
// among them one that another process is writing (a *BusyError).
func (t *Tournament) Open(opt SessionOptions) (*Session, error) {
	s := &Session{t: t, opt: opt, tally: t.NewTally()}
	if s.opt.Log == nil {
		s.opt.Log = io.Discard
	}
	if m := opt.Resume; m != nil {
		var err error
		if m.Shard != "" {
			if s.opt.Shard, err = ParseShard(m.Shard); err != nil {
				return nil, &DirError{fmt.Errorf("--resume: manifest: %w", err)}
			}
		}
		s.opt.Trace = m.Trace
		if m.Sums == nil {
			return nil, &DirError{fmt.Errorf("--resume %s: %s names no record checksums, which the program it names writes: the manifest was edited", opt.Dir, ManifestFile)}
		}
		if err := SameRun(*m, t.Manifest(ConfigSHA(opt.Config), s.opt.Shard, s.opt.Trace)); err != nil {
			return nil, &DirError{fmt.Errorf("--resume %s: %w", opt.Dir, err)}
		}
		s.manifest = *m
	} else {
		s.manifest = t.Manifest(ConfigSHA(opt.Config), opt.Shard, opt.Trace)
	}
	if opt.Dir == "" {
		return s, nil
	}
	if opt.Resume == nil {
		// Made only now, with the config and inputs found good.
		if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
			return nil, &DirError{fmt.Errorf("--out: %w", err)}
		}
	}
	if err := s.lockDir(); err != nil {
		return nil, err
	}
	if opt.Resume == nil {
		if err := atomicfile.Write(filepath.Join(opt.Dir, ConfigFile), opt.Config); err != nil {
			return nil, s.fail(err)
		}
		if err := WriteManifest(opt.Dir, s.manifest); err != nil {
			return nil, s.fail(err)
		}
	}
	for keep := -1; ; {
		res, o, err := t.openResults(opt.Dir, s.opt.Shard, s.tally)
		var ce *CorruptError
		if errors.As(err, &ce) && opt.Repair && opt.Resume != nil && (keep < 0 || ce.Keep < keep) {
			// Each repair keeps fewer lines than the last, so this ends.
			dropped, rerr := Repair(opt.Dir, ce)
			if rerr != nil {
				return nil, s.fail(rerr)
			}
			path, _ := ResultsPath(opt.Dir)
			fmt.Fprintf(s.opt.Log, "repair: %v\nrepair: keeping %s of %s, dropping %d; their games are played again\n",
				err, linesUpTo(ce.Keep), path, dropped)
			keep = ce.Keep
			s.tally = t.NewTally()
			continue
		}
		if err != nil {
			if ce != nil && opt.Resume != nil {
				return nil, s.fail(&DirError{fmt.Errorf("%w (--repair keeps %s, plays the rest again)", err, linesUpTo(ce.Keep))})
			}
			return nil, s.fail(&DirError{err})
		}
		s.results, s.skip, s.opened = res, o.Done, o
		break
	}
	if s.opened.Dropped > 0 && s.opt.Log != nil {
		fmt.Fprintf(s.opt.Log, "resuming: the last %d records carry no checksum (the run was killed before it wrote it): their games are played again\n", s.opened.Dropped)
	}
	return s, nil
}

// estimate is the time-left estimate of the games opt plays: a part per
// applicable cell, in the run's order, the recorded ones skipped.
func (s *Session) estimate(opt RunOptions) *progress.Estimate {
	est := progress.NewEstimate(opt.workers())
	for _, c := range s.t.cells {
		if !c.Applicable {
			continue
		}
		var prior time.Duration
		if s.opt.Cost != nil {
			prior = s.opt.Cost(c.Entrant)
		}
		est.AddPart(int64(opt.Shard.count(c.Corpus.Len)), c.Entrant.Name, prior)
	}
	est.Skip(int64(s.skip))
	return est
}

// lockDir takes the lock of the session's directory, says so when it takes
// over a stale one, and refuses a fresh run in a directory that holds
// results (written by a run that ended since the caller looked).
func (s *Session) lockDir() error {
	l, err := LockDir(s.opt.Dir)
	if err != nil {
		return &DirError{err}
	}
	s.lock = l
	if l.Stale.PID != 0 && s.opt.Log != nil {
		fmt.Fprintf(s.opt.Log, "report directory %s: taking over the lock left by %s, which has ended\n", s.opt.Dir, l.Stale)
	}
	if HasResults(s.opt.Dir) && s.opt.Resume == nil {
		return s.fail(&DirError{fmt.Errorf("report directory %s holds a run's results already", s.opt.Dir)})
	}
	return nil
}

// fail releases the lock of a session that could not open, and returns err.
func (s *Session) fail(err error) error {
	s.lock.Release()
	return err
}

// Close releases the report directory's lock: after the last file of the
// report is written. It does nothing without a directory or a second time.
func (s *Session) Close() error { return s.lock.Release() }

// Manifest is the manifest of the session's run.
func (s *Session) Manifest() Manifest { return s.manifest }

// Play plays the games not yet recorded and returns the report of the whole
// run. Interrupted (ctx cancelled) with a directory, it says how many games
// are recorded and how to continue.
func (s *Session) Play(ctx context.Context) (Report, error) {
	defer func() { // the results open at the end (retryFailed reopens them)
		if s.results != nil {
			s.results.Close()
		}
	}()
	total := s.t.Games(s.opt.Shard)
	if err := s.retryFailed(ctx); err != nil {
		return Report{}, err
	}
	if s.opt.Resume != nil {
		fmt.Fprintf(s.opt.Log, "resuming: %d of %d games recorded; playing the other %d\n", s.skip, total, total-s.skip)
	}
	opt := RunOptions{Workers: s.opt.Workers, Shard: s.opt.Shard, Skip: s.skip, Trace: s.opt.Trace, Stop: s.opt.Stop}
	if s.opt.Stop != nil && s.opt.Log != nil {
		opt.Stopping = func() {
			fmt.Fprintln(s.opt.Log, "stopping: finishing the games in play (Ctrl-C would drop them)")
		}
	}
	// The shared progress line (games done, games/s, time left), drawn only
	// when the log is a terminal; Run reports from one goroutine. The time
	// left weighs each cell by its cost a game (progress.Estimate): the
	// cells are played one after another, and a sampling player's cost a
	// thousand times a table's.
	est := s.estimate(opt)
	if line := est.Announce(longRun); line != "" && s.opt.Log != nil {
		fmt.Fprintln(s.opt.Log, line)
	}
	bar := progress.StartEstimated(s.opt.Log, "games", int64(total-s.skip), est)
	count := bar.Count(s.skip)
	opt.Progress = func(done, _ int) { count(done) }
	var sink Sink
	if s.results != nil {
		sink = s.results
	}
	tally := s.tally.Sink(sink)
	timed := SinkFunc(func(recs []Record) error {
		for i := range recs {
			est.Played(time.Duration(recs[i].Micros * float64(time.Microsecond)))
		}
		return tally.Write(recs)
	})
	err := s.t.Run(ctx, timed, opt)
	bar.Stop() // clears the line
	if err != nil {
		done := 0
		for _, c := range s.tally.Tallies() {
			done += c.Games
		}
		switch {
		case ctx.Err() != nil && s.opt.Dir != "":
			return Report{}, fmt.Errorf("interrupted: %d of %d games recorded in %s; continue with: calcsol tournament --resume %s", done, total, s.opt.Dir, s.opt.Dir)
		case errors.Is(err, ErrStopped) && s.opt.Dir != "":
			return Report{}, &StoppedError{Done: done, Total: total, Dir: s.opt.Dir}
		}
		return Report{}, err
	}
	return s.tally.Report(), nil
}

// retryFailed plays again the games the resumed run recorded as failed
// (SessionOptions.RetryFailed) and writes the records anew, each replayed
// game's record in the place of its old one; the tally is then that of the
// new records. Interrupted, it leaves the records as they were.
func (s *Session) retryFailed(ctx context.Context) error {
	if !s.opt.RetryFailed || s.results == nil || s.opened.Failures == 0 {
		return nil
	}
	fmt.Fprintf(s.opt.Log, "retrying: %d games recorded as failed\n", s.opened.Failures)
	if err := s.results.Close(); err != nil {
		return err
	}
	s.results = nil
	dir := s.opt.Dir
	rr, err := openReport(dir, &s.manifest, tailRefuse, false)
	if err != nil {
		return &DirError{err}
	}
	defer rr.close()
	path, gz, err := resultsPath(dir)
	if err != nil {
		return &DirError{err}
	}
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer tmp.Abort()
	rw := newRecordWriter(gz, 1, []byte(sumsHeader))
	var buf []byte
	write := func(rec *Record) error {
		buf = rec.AppendJSON(buf[:0])
		if err := rw.add(buf); err != nil || rw.Data.Len() < 1<<16 {
			return err
		}
		return rw.writeData(tmp)
	}
	// copyTo copies the old records up to the one of key (not written:
	// its replay takes its place), or to the end when key is nil.
	copyTo := func(key *RecordKey) error {
		for {
			rec, err := rr.next()
			if err == io.EOF && key == nil {
				return nil
			}
			if err == io.EOF {
				return fmt.Errorf("retry: no record of %s × %s × %s deck %d to replace", key.Strategy, key.Corpus, key.Rules, key.Deck)
			}
			if err != nil {
				return err
			}
			if key != nil && rec.Key() == *key {
				return nil
			}
			if err := write(&rec); err != nil {
				return err
			}
		}
	}
	replay := RunOptions{Workers: s.opt.Workers, Shard: s.opt.Shard, Trace: s.opt.Trace, Only: s.opened.Failed}
	err = s.t.Run(ctx, SinkFunc(func(recs []Record) error {
		for i := range recs {
			k := recs[i].Key()
			if err := copyTo(&k); err != nil {
				return err
			}
			if err := write(&recs[i]); err != nil {
				return err
			}
		}
		return nil
	}), replay)
	if err == nil {
		err = copyTo(nil)
	}
	if err == nil {
		err = rw.closeBlock()
	}
	if err == nil {
		err = rw.writeData(tmp)
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while retrying the failed games: the records are as they were; continue with: calcsol tournament --resume %s", dir)
		}
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, SumsFile), rw.Sums); err != nil {
		return err
	}
	if err := tmp.Commit(); err != nil {
		return err
	}
	was := s.opened.Failures
	s.tally = s.t.NewTally()
	res, o, err := s.t.openResults(dir, s.opt.Shard, s.tally)
	if err != nil {
		return &DirError{err}
	}
	s.results, s.skip, s.opened = res, o.Done, o
	fmt.Fprintf(s.opt.Log, "retrying: %d games played again, %d of them failed again\n", was, o.Failures)
	return nil
}

// linesUpTo names the first n lines of a file.
func linesUpTo(n int) string {
	if n == 0 {
		return "no line"
	}
	return fmt.Sprintf("lines 1-%d", n)
}
