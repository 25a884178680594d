package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShuffleExactJSON(t *testing.T) {
	out, errOut, code := calcsol(t, "", "shuffle", "exact", "--n", "52", "--k", "7", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		N, K int
		TV   float64
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if got.N != 52 || got.K != 7 || got.TV < 0.3340 || got.TV > 0.3341 {
		t.Errorf("got %+v, want n=52 k=7 tv=0.334", got)
	}
}

func TestShuffleAnalyzeJSONAndPictures(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := calcsol(t, "", "shuffle", "analyze", "--seq", "RRR", "--n", "10", "--sets", "3000",
		"--emax", "0.02", "--json", "--pgm", filepath.Join(dir, "r"), "--png", filepath.Join(dir, "r"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	for _, k := range []string{"seq", "n", "sets", "C", "white", "max_abs_e", "chi2_p", "guess_mean"} {
		if _, ok := got[k]; !ok {
			t.Errorf("JSON has no %q: %s", k, out)
		}
	}
	if got["seq"] != "RRR" || got["emax"] != 0.02 {
		t.Errorf("seq %v, emax %v", got["seq"], got["emax"])
	}
	for _, f := range []string{"r-trial.pgm", "r-average.pgm", "r-grey.png", "r-bwr.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestShuffleAnalysisBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad sequence", []string{"shuffle", "analyze", "--seq", "HXQ", "--sets", "10"}, "--seq"},
		{"reference e_max for other s", []string{"shuffle", "analyze", "--seq", "R", "--sets", "10", "--emax", "reference"}, "n=52 and s=10^6"},
		{"bad e_max", []string{"shuffle", "search", "--m", "1", "--sets", "10", "--emax", "much"}, "--emax"},
		{"bad lengths", []string{"shuffle", "search", "--m", "3..1", "--sets", "10"}, "--m"},
		{"bad methods", []string{"shuffle", "search", "--methods", "HH", "--sets", "10"}, "twice"},
		{"bad k", []string{"shuffle", "exact", "--k", "x"}, "--k"},
		{"no repeats", []string{"shuffle", "emax", "--repeats", "0"}, "--repeats"},
	}
	for _, tc := range tests {
		_, errOut, code := calcsol(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 mentioning %q", tc.name, code, errOut, tc.want)
		}
	}
}

func TestShuffleSearchTable(t *testing.T) {
	out, errOut, code := calcsol(t, "", "shuffle", "search", "--methods", "HRD", "--m", "1..2", "--n", "8", "--sets", "500", "--top", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "12 sequences of HRD") || strings.Count(out, "│ 2 │") < 2 {
		t.Errorf("unexpected table:\n%s", out)
	}
}

// TestShuffleAnalyzePictureChecks: a bad picture path is refused with exit 2
// before measuring (10^9 sets would take minutes, so a quick answer shows
// the check comes first), and when one picture cannot be written none is.
func TestShuffleAnalyzePictureChecks(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "r-bwr.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing directory", []string{"--png", "/nonexist/x"}, "directory /nonexist does not exist"},
		{"pgm in missing directory", []string{"--pgm", filepath.Join(dir, "no", "x")}, "does not exist"},
		{"target is a directory", []string{"--pgm", filepath.Join(dir, "r"), "--png", filepath.Join(dir, "r")}, "r-bwr.png is a directory"},
	}
	for _, tc := range tests {
		args := append([]string{"shuffle", "analyze", "--seq", "R", "--n", "10", "--sets", "1000000000"}, tc.args...)
		_, errOut, code := calcsol(t, "", args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 mentioning %q", tc.name, code, errOut, tc.want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files written although the run was refused: %v", entries)
	}
}

// TestSaWriteAllNoneOnFailure: when a later picture fails, the earlier ones
// are not written either and no staging file is left.
func TestSaWriteAllNoneOnFailure(t *testing.T) {
	dir := t.TempDir()
	boom := os.ErrInvalid
	err := saWriteAll([]saPicture{
		{filepath.Join(dir, "a.png"), func(w io.Writer) error { _, err := w.Write([]byte("a")); return err }},
		{filepath.Join(dir, "b.png"), func(w io.Writer) error { return boom }},
	})
	if err == nil {
		t.Fatal("no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if err := saWriteAll([]saPicture{
		{filepath.Join(dir, "a.png"), func(w io.Writer) error { _, err := w.Write([]byte("a")); return err }},
	}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "a.png")); err != nil || string(got) != "a" {
		t.Errorf("a.png = %q, %v", got, err)
	}
}
