package tournament

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSameRun(t *testing.T) {
	base := Manifest{Program: "calcsol v1", ConfigSHA: "abc", Corpora: []ManifestCorpus{{Name: "c", SHA: "1"}}}
	tests := []struct {
		name string
		now  func(m Manifest) Manifest
		want string
	}{
		{"same", func(m Manifest) Manifest { return m }, ""},
		{"program", func(m Manifest) Manifest { m.Program = "calcsol v2"; return m }, "made by calcsol v1; this is calcsol v2"},
		{"config", func(m Manifest) Manifest { m.ConfigSHA = "abd"; return m }, "its config, corpora or strategies have changed"},
		{"corpus", func(m Manifest) Manifest { m.Corpora = []ManifestCorpus{{Name: "c", SHA: "2"}}; return m }, "its config, corpora or strategies have changed"},
	}
	for _, tc := range tests {
		err := SameRun(base, tc.now(base))
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A session with a directory writes the config and manifest, records every
// game, and a resumed session of the finished run plays none and reports the
// same; a changed config or a bad shard in the manifest is a DirError.
func TestSession(t *testing.T) {
	dir := t.TempDir()
	tn, err := New(context.Background(), testPlan(t, 40), 42)
	if err != nil {
		t.Fatal(err)
	}
	config := []byte("the config\n")
	var log bytes.Buffer
	s, err := tn.Open(SessionOptions{Config: config, Dir: dir, Workers: 2, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Play(context.Background())
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	m, text, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if string(text) != string(config) || m.ConfigSHA != ConfigSHA(config) {
		t.Errorf("ReadRun gives config %q (sha %s), want %q", text, m.ConfigSHA, config)
	}
	tests := []struct {
		name   string
		config []byte
		shard  string
		want   string // error, or "" for a resumed run
	}{
		{"resume", config, "", ""},
		{"changed config", []byte("another\n"), "", "--resume " + dir + ": its config, corpora or strategies have changed"},
		{"bad shard", config, "9/2", "--resume: manifest: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := m
			m.Shard = tc.shard
			log.Reset()
			s, err := tn.Open(SessionOptions{Config: tc.config, Dir: dir, Resume: &m, Workers: 2, Log: &log})
			if tc.want != "" {
				var de *DirError
				if !errors.As(err, &de) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want a DirError containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			again, err := s.Play(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if want := "resuming: 200 of 200 games recorded; playing the other 0\n"; log.String() != want {
				t.Errorf("log %q, want %q", log.String(), want)
			}
			if len(again.Rows) != len(first.Rows) || again.Rows[0].Wins != first.Rows[0].Wins {
				t.Errorf("resumed report %+v, want %+v", again.Rows, first.Rows)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, CompressedResultsFile)); err != nil {
		t.Error(err)
	}
}

// Interrupted, a session with a directory says how to continue.
func TestSessionInterrupted(t *testing.T) {
	dir := t.TempDir()
	tn, err := New(context.Background(), testPlan(t, 40), 42)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tn.Open(SessionOptions{Config: []byte("c\n"), Dir: dir, Workers: 1, Log: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = s.Play(ctx)
	if want := "; continue with: calcsol tournament --resume " + dir; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error %v, want one ending %q", err, want)
	}
}

// A run whose declared costs a game (SessionOptions.Cost) put it above a
// few minutes says so, with what it leaves out, before the first game; one
// without declared costs says nothing.
func TestSessionAnnouncesLongRun(t *testing.T) {
	tn, err := New(context.Background(), testPlan(t, 40), 42)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cost func(*Entrant) time.Duration
		want string
	}{
		{"declared", func(e *Entrant) time.Duration {
			if e.Name == "seeded" {
				return time.Hour // its 80 games, on 2 workers: 40 h
			}
			return 0
		}, "estimated: about 40h00m on 2 workers (the presets' costs a game; 120 games not yet timed)\n"},
		{"none", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			s, err := tn.Open(SessionOptions{Workers: 2, Log: &log, Cost: tc.cost})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Play(context.Background()); err != nil {
				t.Fatal(err)
			}
			if log.String() != tc.want {
				t.Errorf("log %q, want %q", log.String(), tc.want)
			}
		})
	}
}
