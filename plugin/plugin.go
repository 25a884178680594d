// Package plugin runs strategies that live in other programs: calcsol starts
// a plugin program (hashicorp/go-plugin, gRPC), one process per session,
// sends it batches of observations and plays the moves it answers, each
// checked by the engine. A plugin is just another solver.Strategy (and a
// solver.Batcher), so everything that takes a strategy takes a plugin.
//
// The host is the referee and owns the processes: a plugin that crashes,
// hangs past its timeout, writes junk, or answers nonsense costs only its
// own games, which fail with the reason; its process, and every process it
// started, is killed on every path, and while plugins run, SIGINT, SIGTERM
// and SIGHUP kill them all and end the program. docs/plugins.md has the protocol;
// package plugin/sdk is what a plugin imports.
package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

// Defaults of a Config.
const (
	DefaultTimeout      = 100 * time.Millisecond
	DefaultBatch        = 256
	MaxBatch            = 16384
	DefaultStartTimeout = 20 * time.Second
	// MinBatchTimeout is the least time a batch is given, however small:
	// a round trip alone can take tens of milliseconds on a loaded machine.
	MinBatchTimeout = time.Second
	// MaxRestarts is how many times a session starts its plugin again after
	// the process crashed, hung or was killed, within RestartWindow games
	// begun; past that, every batch fails at once with the last reason until
	// the oldest of those restarts is RestartWindow games old. A plugin that
	// is rarely late loses only the games it was late on; one that fails
	// all the time costs MaxRestarts restarts per RestartWindow games.
	MaxRestarts = 3
	// RestartWindow is the number of games MaxRestarts counts in.
	RestartWindow = 100
)

// Config says how to run a plugin.
type Config struct {
	// Command is the command line: the program and its arguments, separated
	// by spaces; quote an argument with spaces in '…' or "…".
	Command string `param:"command" doc:"the command line that starts the plugin"`
	// SHA256, if set, is the hex SHA-256 of the file the command names (see
	// CheckedFile): the host refuses to start the plugin when the file
	// differs.
	SHA256 string `param:"sha256" doc:"hex SHA-256 of the program, or of the script an interpreter runs; checked before every start"`
	// Timeout is the time a plugin has per decision: a batch of n decisions
	// must be answered within n×Timeout, and never less than
	// MinBatchTimeout. 0 means DefaultTimeout.
	Timeout time.Duration `param:"timeout" doc:"time per decision (a batch of n gets n times this, at least 1s)"`
	// Batch is the batch size the plugin asks the harness for
	// (solver.Batcher). 0 means DefaultBatch.
	Batch int `param:"batch" min:"1" max:"16384" doc:"decisions per request"`
	// Env is what the plugin's environment holds beyond the few variables
	// every plugin gets (PATH, LANG, LC_*, TZ, HOME and TMPDIR of its own):
	// NAME passes the host's variable, NAME=VALUE sets one.
	Env []string `param:"env" doc:"environment variables it gets: NAME (the host's value) or NAME=VALUE"`
	// Dir is the plugin's working directory, relative to calcsol's; empty
	// means a fresh empty directory, removed with the process.
	Dir string `param:"dir" doc:"its working directory (default: a fresh empty one; . is calcsol's)"`
	// StartTimeout bounds the start of a process (handshake and session
	// start). 0 means DefaultStartTimeout.
	StartTimeout time.Duration
	// Stderr receives the plugin's standard error; nil means os.Stderr.
	Stderr io.Writer
}

// Kind is the registry kind "plugin": a strategy in another program.
func Kind() strategies.Kind {
	return strategies.Define("plugin", "a strategy in another program, over calcsol's plugin protocol (docs/plugins.md)",
		Config{Timeout: DefaultTimeout, Batch: DefaultBatch}, func(cfg Config) (solver.Strategy, error) { return New(cfg) })
}

// Strategy is a plugin as a solver.Strategy.
type Strategy struct {
	cfg  Config
	argv []string
	file string // the file SHA256 covers

	mu   sync.Mutex
	info *solver.Info // as the plugin reported it, once a session started

	shown atomic.Int64 // bytes of its processes' stderr copied to cfg.Stderr

	// minBatch is MinBatchTimeout. It is a field only so that a test of a
	// plugin that never answers can shorten it for its own strategy
	// (export_test.go) instead of waiting a second a batch.
	minBatch time.Duration
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// New returns the strategy cfg describes. It starts nothing: each session
// starts its own process.
func New(cfg Config) (*Strategy, error) {
	argv, err := SplitCommand(cfg.Command)
	if err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, errors.New("plugin: no command")
	}
	if err := checkEnv(cfg.Env); err != nil {
		return nil, err
	}
	cfg.SHA256 = strings.ToLower(strings.TrimSpace(cfg.SHA256))
	if cfg.SHA256 != "" && !sha256Hex.MatchString(cfg.SHA256) {
		return nil, fmt.Errorf("plugin: sha256 %q is not 64 hex digits", cfg.SHA256)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Batch <= 0 {
		cfg.Batch = DefaultBatch
	}
	cfg.Batch = min(cfg.Batch, MaxBatch)
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.Stderr == nil {
		cfg.Stderr = os.Stderr
	}
	return &Strategy{cfg: cfg, argv: argv, file: CheckedFile(argv), minBatch: MinBatchTimeout}, nil
}

// BatchSize implements solver.Batcher.
func (s *Strategy) BatchSize() int { return s.cfg.Batch }

// Info implements solver.Strategy: the name, stochasticity and parameters
// the plugin reported (known once a session has started; before, the name is
// "plugin"), then the host's parameters.
func (s *Strategy) Info() solver.Info {
	host := strategies.Declare(s.cfg)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.info == nil {
		return solver.Info{Name: "plugin", Params: host}
	}
	info := *s.info
	info.Params = append(append([]solver.Param(nil), info.Params...), host...)
	return info
}

// interpreters run a script named by their first argument: for them SHA256
// covers the script, not the interpreter.
var interpreters = regexp.MustCompile(`^(python[0-9.]*|pypy[0-9.]*|sh|bash|dash|node|perl|ruby|Rscript|julia)$`)

// CheckedFile returns the file a plugin's sha256 covers: the program, or,
// when the program is an interpreter (python3, sh, node, …), the script it
// runs (its first argument that is not an option).
func CheckedFile(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	return argv[checkedIndex(argv)]
}

// checkedIndex is the index in argv of the file CheckedFile returns.
func checkedIndex(argv []string) int {
	if interpreters.MatchString(filepath.Base(argv[0])) {
		for i, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") {
				return i + 1
			}
		}
	}
	return 0
}

// FileSHA256 returns the hex SHA-256 of the file at path.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// WriteFingerprint implements strategies.Fingerprinter: the content of the
// program (or the script an interpreter runs), found as the command would
// find it, decides the plugin's games.
func (s *Strategy) WriteFingerprint(w io.Writer, _ []solver.Rules) error {
	path := s.file
	if path == s.argv[0] && !strings.ContainsRune(path, os.PathSeparator) {
		if p, err := exec.LookPath(path); err == nil { // a program on PATH
			path = p
		}
	}
	sum, err := FileSHA256(path)
	if err != nil {
		return fmt.Errorf("plugin program %s: %w", s.file, err)
	}
	fmt.Fprintf(w, "plugin %s sha256 %s\n", s.file, sum)
	return nil
}

// errRefused marks a plugin the host would not start: starting it again
// would not help.
var errRefused = errors.New("refused")

// checkFile compares the checked file's hash with the config's.
func (s *Strategy) checkFile() error {
	if s.cfg.SHA256 == "" {
		return nil
	}
	got, err := FileSHA256(s.file)
	if err != nil {
		return fmt.Errorf("plugin %s %w: checking its sha256: %v", s.file, errRefused, err)
	}
	if got != s.cfg.SHA256 {
		return fmt.Errorf("plugin %s %w: its sha256 is %s, the config says %s", s.file, errRefused, got, s.cfg.SHA256)
	}
	return nil
}

// SplitCommand splits a command line into words at spaces; '…' and "…"
// quote (no escapes inside).
func SplitCommand(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("plugin command %q: unclosed quote", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// Start implements solver.Strategy: it starts the plugin's process (a start
// that fails is tried once more) and opens its session. A plugin that says
// it cannot play r gives an error wrapping solver.ErrNotApplicable. A plugin
// that could not be started (or that was refused: its sha256 differs) does
// not make Start fail: its session fails every batch with the reason, so
// that its games are recorded as failed and the run goes on.
func (s *Strategy) Start(ctx context.Context, r solver.Rules) (solver.Session, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	sess := &session{s: s, rules: r, first: solver.DeckSize - 1}
	if r.Preplaced {
		sess.first -= solver.Tables
	}
	err := sess.launch(ctx)
	switch {
	case errors.Is(err, solver.ErrNotApplicable):
		return nil, err
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		sess.gaveUp = err
	}
	return sess, nil
}

// KillAll kills every plugin process still running, with what it started.
func KillAll() {
	live.Lock()
	ps := make([]*process, 0, len(live.m))
	for p := range live.m {
		ps = append(ps, p)
	}
	live.Unlock()
	for _, p := range ps {
		p.kill()
	}
	goplugin.CleanupClients()
}

// Running returns the number of plugin processes running.
func Running() int {
	live.Lock()
	defer live.Unlock()
	return len(live.m)
}
