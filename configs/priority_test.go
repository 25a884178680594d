package configs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/solver"
	"github.com/calcsol/calcsol/strategies"
)

func TestShippedTables(t *testing.T) {
	want := map[string]int{"nanzaki-shintani": 3, "nanzaki-shintani-4": 4, "tuned-3": 3, "tuned-3-exact": 3, "tuned-3-preplaced": 3, "tuned-4": 4, "tuned-4-preplaced": 4}
	// The defaults for their number of stacks; the tuned tables are shipped
	// beside them.
	isDefault := map[string]bool{"nanzaki-shintani": true, "nanzaki-shintani-4": true}
	names := PriorityNames()
	if len(names) != len(want) {
		t.Errorf("shipped tables %v, want %d", names, len(want))
	}
	for name, stacks := range want {
		tab, err := LoadPriority(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := tab.Validate(solver.Rules{Stacks: stacks}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		// The 4-stack tables, tuned-3-exact and tuned-3-preplaced were
		// tuned with the exact cycle check and carry it; the others keep
		// the defaults.
		wantOpts := strategies.DefaultOptions()
		if strings.HasPrefix(name, "tuned-4") || name == "tuned-3-preplaced" || name == "tuned-3-exact" {
			wantOpts.Check = strategies.CheckExact
		}
		if tab.Options != wantOpts {
			t.Errorf("%s: options %s, want %s", name, tab.Options, wantOpts)
		}
		if isDefault[name] && DefaultPriorityFor(stacks) != name {
			t.Errorf("DefaultPriorityFor(%d) = %q, want %q", stacks, DefaultPriorityFor(stacks), name)
		}
	}
}

// Table 1 of Nanzaki & Shintani [NanzakiShintani] as the paper prints it: the
// file must hold exactly these.
func TestTable1Transcription(t *testing.T) {
	spec := `A: T1 T2 N4 N3 N2 T3 T4 Z4 Z3 Z2 X4 X3 X2 C4 C3 C2
2: T1 T2 T3 T4 N4 N3 N1 Z4 Z3 Z1 X4 X3 X1 C4 C3 C1
3: T3 T1 T4 T2 N2 N4 N1 Z2 Z4 Z1 X2 X4 X1 C2 C4 C1
4: T4 T1 T2 T3 N3 N1 N2 Z3 Z1 Z2 X3 X1 X2 C3 C1 C2
5: T1 T3 T2 T4 N4 N2 N3 N1 X4 X2 Z3 Z1 C4 C2 X3 X1 Z4 Z2 C3 C1
6: T3 T2 T1 N4 N1 N2 N3 T4 Z4 Z1 Z2 Z3 X4 X1 X2 X3 C4 C1 C2 C3
7: T4 T1 T2 T3 N3 N2 N1 N4 X3 X2 Z1 Z4 C3 C2 X1 X4 Z3 Z2 C1 C4
8: T4 T2 N1 N3 N4 N2 T3 T1 Z1 Z3 Z2 Z4 X1 X3 X2 X4 C1 C3 C2 C4
9: N4 N2 X4 T3 N3 T1 N1 T2 T4 Z2 Z1 Z3 Z4 X2 X1 X3 C4 C2 C1 C3
0: N3 N1 X3 T2 N2 T4 N4 T1 T3 Z1 Z4 Z2 Z3 X1 X4 X2 C3 C1 C2 C4
J: N2 N1 X2 T4 N4 T3 N3 T1 T2 Z1 Z3 Z4 Z2 X1 X3 X4 C2 C1 C3 C4
Q: N1 T3 N2 T4 N4 N3 X1 T2 T1 Z2 Z3 Z4 Z1 X2 X3 X4 C1 C2 C3 C4
K: C1 C2 C3 C4 T1 T2 T3 T4 X1 X2 X3 X4 Z1 Z2 Z3 Z4`
	tab, err := LoadPriority(DefaultPriority)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(spec, "\n") {
		r, _ := solver.ParseRank(line[0])
		if got := strategies.FormatOps(tab.Ops[r]); got != line[3:] {
			t.Errorf("rank %s:\n got %s\nwant %s", r, got, line[3:])
		}
	}
}

// The shipped 4-stack table is exactly what Derive makes from Table 1. It is
// shipped, not a golden file: -update leaves it alone, and a change of
// Derive that changes it is a change of the shipped table, made on purpose
// with the command the message names.
func TestDerivedTableIsShipped(t *testing.T) {
	got, err := DerivePriority(DefaultPriority, solver.Rules{Stacks: 4})
	if err != nil {
		t.Fatal(err)
	}
	path := "priority/" + DefaultPriorityFor(4) + ".yaml"
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("configs/%s is not what Derive makes from %s (-shipped +derived); if the change is meant, rewrite it with\n"+
			"  go run ./cmd/calcsol table derive --from %s --stacks 4 --out configs/%s\n%s", path, DefaultPriority, DefaultPriority, path, diff)
	}
}

func TestDeriveAndCheckPriority(t *testing.T) {
	tests := []struct {
		name, table string
		stacks      int
		derive      string // error of DerivePriority, "" for none
		check       string // error of CheckPriority
	}{
		{"table 1 for 3", DefaultPriority, 3, "", ""},
		{"table 1 for 5", DefaultPriority, 5, "", "stacks"},
		{"narrowing", DefaultPriorityFor(4), 3, "can only widen", "stacks"},
		{"unknown", "no-such-table", 4, "no-such-table", "no-such-table"},
	}
	for _, tt := range tests {
		r := solver.Rules{Stacks: tt.stacks}
		data, err := DerivePriority(tt.table, r)
		if tt.derive == "" && err == nil {
			if d, perr := ParsePriority(data, "derived"); perr != nil || len(d.Stacks) != tt.stacks {
				t.Errorf("%s: derived table does not read back with %d stacks: %v", tt.name, tt.stacks, perr)
			}
		} else if err == nil || tt.derive == "" || !strings.Contains(err.Error(), tt.derive) {
			t.Errorf("%s: DerivePriority error %v, want %q", tt.name, err, tt.derive)
		}
		tab, err := CheckPriority(tt.table, r)
		if tt.check == "" && (err != nil || tab == nil) {
			t.Errorf("%s: CheckPriority: %v", tt.name, err)
		} else if tt.check != "" && (err == nil || !strings.Contains(err.Error(), tt.check)) {
			t.Errorf("%s: CheckPriority error %v, want %q", tt.name, err, tt.check)
		}
	}
}

// Names, sources and stack names that YAML would read otherwise come back
// as written: FormatPriority quotes through the YAML encoder.
func TestFormatPriorityQuotes(t *testing.T) {
	tab, err := LoadPriority(DefaultPriority)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a: b", "x # y", "- dash", "'quoted'", `"dq"`, "yes", "12", "", "line\nbreak"} {
		tab.Name, tab.Source = name, name+" source"
		back, err := ParsePriority(FormatPriority(tab, "a comment\n# with a hash"), "t.yaml")
		if err != nil {
			t.Errorf("name %q: %v", name, err)
			continue
		}
		want := name
		if want == "" {
			want = "t" // an empty name is the file's
		}
		if back.Name != want || back.Source != name+" source" {
			t.Errorf("name %q, source %q read back as %q, %q", name, tab.Source, back.Name, back.Source)
		}
	}
}

// The options survive a round trip through the file format; reassign_tops
// is written only when set, so a table without it reads as it always did.
func TestFormatPriorityOptions(t *testing.T) {
	tests := []struct {
		name     string
		set      map[string]string
		reassign bool // the file names reassign_tops
	}{
		{"defaults", nil, false},
		{"exact, last stack", map[string]string{"deadlock_check": "exact", "on_exhausted": "last-stack", "tx_respects_reservation": "false"}, false},
		{"reassign tops", map[string]string{"reassign_tops": "true"}, true},
		{"reassign tops off", map[string]string{"reassign_tops": "false"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := LoadPriority(DefaultPriority)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.set {
				if err := tab.Options.SetOption(k, v); err != nil {
					t.Fatal(err)
				}
			}
			out := FormatPriority(tab, "")
			if got := bytes.Contains(out, []byte("reassign_tops")); got != tc.reassign {
				t.Errorf("the file names reassign_tops: %v, want %v\n%s", got, tc.reassign, out)
			}
			back, err := ParsePriority(out, "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if back.Options != tab.Options {
				t.Errorf("options %+v read back as %+v", tab.Options, back.Options)
			}
		})
	}
}

// An error from the parts of a table (an operation, an option) stays in
// the chain under the file and line.
func TestParsePriorityKeepsTheChain(t *testing.T) {
	data, _ := os.ReadFile("priority/nanzaki-shintani.yaml")
	bad := bytes.Replace(data, []byte("T1 T2 N4"), []byte("T1 T2 N7"), 1)
	_, err := ParsePriority(bad, "f.yaml")
	_, opsErr := strategies.ParseOps("N7", "ZXC")
	if err == nil || opsErr == nil {
		t.Fatalf("errors %v, %v", err, opsErr)
	}
	for e := err; e.Error() != opsErr.Error(); e = errors.Unwrap(e) {
		if errors.Unwrap(e) == nil {
			t.Fatalf("%v: no %q in its chain", err, opsErr)
		}
	}
}

func TestParsePriorityErrors(t *testing.T) {
	good, err := priorityFS.ReadFile("priority/nanzaki-shintani.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(good)
	// lineOf is the 1-based line of the first occurrence of text in src.
	lineOf := func(text string) int { return strings.Count(src[:strings.Index(src, text)], "\n") + 1 }
	rank9 := lineOf("{rank: 9,")
	tests := []struct {
		name     string
		old, new string
		err      string
	}{
		{"unknown rank", "{rank: 9,", "{rank: 1,", fmt.Sprintf("f.yaml:%d: ranks[8].rank: unknown rank '1'", rank9)},
		{"unknown operation", "N4 N2 X4 T3", "N4 N2 P4 T3", fmt.Sprintf(`f.yaml:%d: ranks[8].ops: rank 9: operation "P4": 'P' is not T, N, F, E or a stack of this table (ZXC)`, rank9)},
		{"bad table", "N4 N2 X4 T3", "N4 N2 X5 T3", fmt.Sprintf(`f.yaml:%d: ranks[8].ops: rank 9: operation "X5": table '5' is not 1..4`, rank9)},
		{"stack the table does not have", "N4 N2 X4 T3", "N4 N2 V4 T3", fmt.Sprintf(`f.yaml:%d: ranks[8].ops: rank 9: operation "V4": 'V' is not T, N, F, E or a stack`, rank9)},
		{"duplicate operation", "N4 N2 X4 T3", "N4 N2 N4 T3", fmt.Sprintf("f.yaml:%d: ranks[8].ops: rank 9: operation N4 appears twice", rank9)},
		{"missing rank", "  - {rank: 9, ops: \"N4 N2 X4 T3 N3 T1 N1 T2 T4 Z2 Z1 Z3 Z4 X2 X1 X3 C4 C2 C1 C3\"}\n", "", fmt.Sprintf("f.yaml:%d: ranks: rank 9 is missing", lineOf("ranks:")+1)},
		{"rank twice", "{rank: 9,", "{rank: 8,", fmt.Sprintf("f.yaml:%d: ranks[8].rank: rank 8 given twice", rank9)},
		{"unknown key", "name: nanzaki-shintani", "nme: x", fmt.Sprintf("f.yaml:%d: nme: unknown key (did you mean name? want name, source, stacks, options, ranks)", lineOf("name: nanzaki"))},
		{"bad option", "deadlock_check: partial", "deadlock_check: full", fmt.Sprintf(`f.yaml:%d: options.deadlock_check: parameter deadlock_check: "full" is not one of partial, exact, none`, lineOf("deadlock_check: partial"))},
		{"unknown option", "on_exhausted: lose", "on_exausted: lose", fmt.Sprintf(`f.yaml:%d: options.on_exausted: unknown parameter "on_exausted"`, lineOf("on_exhausted: lose"))},
		{"stacks clash", "stacks: ZXC", "stacks: ZXA", fmt.Sprintf(`f.yaml:%d: stacks: "ZXA": `, lineOf("stacks: ZXC"))},
		{"not yaml", "ranks:", "ranks: [", `f.yaml: yaml:`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(src, tc.old) {
				t.Fatalf("test case: %q not in the shipped file", tc.old)
			}
			_, err := ParsePriority([]byte(strings.Replace(src, tc.old, tc.new, 1)), "f.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error = %v\nwant it to contain %q", err, tc.err)
			}
		})
	}
}

func TestValidateAgainstRules(t *testing.T) {
	tab, err := LoadPriority(DefaultPriority)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Validate(solver.Rules{Stacks: 4}); err == nil || !strings.Contains(err.Error(), "is for 3 stacks (ZXC), the game has 4") {
		t.Errorf("3-stack table with 4 stacks: err = %v", err)
	}
	if err := tab.Validate(solver.Rules{Stacks: 2}); err == nil {
		t.Errorf("3-stack table with 2 stacks: no error")
	}
}

func FuzzParsePriority(f *testing.F) {
	for _, name := range PriorityNames() {
		data, _ := priorityFS.ReadFile("priority/" + name + ".yaml")
		f.Add(data)
	}
	f.Add([]byte("stacks: Z\nranks: [{rank: A, ops: T1}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := ParsePriority(data, "fuzz.yaml")
		if err != nil {
			return
		}
		out := FormatPriority(tab, "")
		again, err := ParsePriority(out, "again.yaml")
		if err != nil {
			t.Fatalf("formatted table does not parse: %v\n%s", err, out)
		}
		if !bytes.Equal(FormatPriority(again, ""), out) {
			t.Fatalf("round trip changed the table:\n%s", out)
		}
	})
}

func TestLoadPriorityForStacks(t *testing.T) {
	tests := []struct {
		stacks int
		want   string // in the error; "" for a table
	}{
		{1, "not narrowed"},
		{2, "not narrowed"},
		{3, ""},
		{4, ""},
		{5, "calcsol table derive --stacks 5 --out table-5.yaml"},
	}
	for _, tc := range tests {
		tab, err := LoadPriorityFor("", tc.stacks)
		switch {
		case tc.want == "" && (err != nil || tab == nil):
			t.Errorf("%d stacks: %v", tc.stacks, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, solver.ErrNotApplicable)):
			t.Errorf("%d stacks: error %v, want one containing %q that is ErrNotApplicable", tc.stacks, err, tc.want)
		}
	}
}

func TestLoadPriorityFileWinsOverName(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("priority", "nanzaki-shintani.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	data = []byte(strings.Replace(string(data), "name: nanzaki-shintani", "name: mine", 1))
	if err := os.WriteFile("nanzaki-shintani", data, 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := LoadPriority("nanzaki-shintani")
	if err != nil {
		t.Fatal(err)
	}
	if tab.Name != "mine" {
		t.Errorf("loaded %q, want the file in the working directory (mine)", tab.Name)
	}
}

// A copy of a shipped table keeps its name while it plays the same; once
// edited it is named after its file and its content, never as the paper's.
func TestEditedCopyIsRenamed(t *testing.T) {
	shipped, err := LoadPriority(DefaultPriority)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyFile := filepath.Join(dir, "copy.yaml")
	if err := os.WriteFile(copyFile, FormatPriority(shipped, "a copy"), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := *shipped
	edited.Ops[solver.NumRanks] = edited.Ops[solver.NumRanks][:1]
	mineFile := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(mineFile, FormatPriority(&edited, "edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ file, wantPrefix string }{
		{copyFile, "nanzaki-shintani"},
		{mineFile, "mine@"},
	}
	for _, tc := range tests {
		got, err := LoadPriority(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got.Name, tc.wantPrefix) || (tc.wantPrefix == "nanzaki-shintani" && got.Name != DefaultPriority) {
			t.Errorf("%s: name %q, want %q…", filepath.Base(tc.file), got.Name, tc.wantPrefix)
		}
	}
}
