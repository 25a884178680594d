package main

import (
	"encoding/json"
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
