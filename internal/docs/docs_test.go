package docs

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/calcsol/calcsol/deadlock"
	"github.com/calcsol/calcsol/solver"
)

// A citation key is a capital letter, at least one more letter, and up to four
// digits (a year): [NanzakiShintani], [Tanaka2002], [ONeill2014].
const keyPattern = `[A-Z][A-Za-z]+[0-9]{0,4}`

var (
	// citeRE finds a citation, e.g. [Tanaka2002]. The character after the
	// bracket is captured so that Markdown's own brackets are not taken for
	// citations: a link [text](url), a reference link [text][ref] and a link
	// definition [ref]: url.
	citeRE = regexp.MustCompile(`\[(` + keyPattern + `)\](.?)`)
	// defRE finds a key's definition in docs/references.md: a list item
	// "- **[Tanaka2002]** …" or a heading "## [Tanaka2002] …".
	defRE = regexp.MustCompile(`(?m)^(?:[ \t]*[-*][ \t]+\*\*\[(` + keyPattern + `)\]\*\*|#{1,6}[ \t]+\[(` + keyPattern + `)\])`)
	// linkRE finds inline links and images, [text](target "title"); the text
	// may hold one level of brackets.
	linkRE = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`)
	// refDefRE finds reference-style link definitions, [ref]: target.
	refDefRE = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:[ \t]*<?([^\s>]+)>?`)
	// schemeRE matches an absolute URL (https:, mailto:, …).
	schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	// sharedDir is the directory beside the repository that holds the
	// internal brief, which no document may link to (joined here so that
	// this file does not name it literally: see TestNoInternalCitations).
	sharedDir = path.Join("..", "shared")
)

// repoRoot returns the repository's root: go test runs in internal/docs.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root %s: %v", root, err)
	}
	return root
}

// markdownFiles returns README.md, measurements/README.md and docs/*.md,
// relative to root.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md", "measurements/README.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range docs {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

// repoFiles lists the repository's files, relative to root, as git does:
// the tracked files, plus (withUntracked) the untracked ones git does not
// ignore. Without git (a source archive) it walks the tree, skipping
// hidden files and directories.
func repoFiles(t *testing.T, root string, withUntracked bool) []string {
	t.Helper()
	args := []string{"-C", root, "ls-files", "-z", "--cached"}
	if withUntracked {
		args = append(args, "--others", "--exclude-standard")
	}
	if out, err := exec.Command("git", args...).Output(); err == nil {
		var files []string
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" && !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
		return files
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// readRepoFile reads a file listed by repoFiles; ok is false if it is gone
// (deleted in the work tree but still tracked).
func readRepoFile(t *testing.T, root, rel string) (data []byte, ok bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return data, true
}

// stripCode blanks out Markdown code — fenced blocks and inline code spans —
// keeping every newline, so that line numbers stay right: brackets in code
// are neither citations nor links.
func stripCode(md string) string {
	lines := strings.Split(md, "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "" {
				fence = ""
			}
			lines[i] = ""
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			c := trimmed[:1]
			n := len(trimmed) - len(strings.TrimLeft(trimmed, c))
			fence = strings.Repeat(c, n)
			lines[i] = ""
			continue
		}
		lines[i] = stripCodeSpans(line)
	}
	return strings.Join(lines, "\n")
}

// stripCodeSpans blanks the `code spans` of one line.
func stripCodeSpans(line string) string {
	b := []byte(line)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		ticks := strings.Repeat("`", n)
		end := strings.Index(string(b[i+n:]), ticks)
		if end < 0 {
			break
		}
		for j := i; j < i+n+end+n; j++ {
			b[j] = ' '
		}
		i += n + end + n
	}
	return string(b)
}

// references returns the keys defined in docs/references.md, failing on a
// key defined twice.
func references(t *testing.T, root string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "docs", "references.md"))
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, m := range defRE.FindAllStringSubmatch(stripCode(string(data)), -1) {
		k := m[1] + m[2]
		if keys[k] {
			t.Errorf("docs/references.md: [%s] is defined twice", k)
		}
		keys[k] = true
	}
	if len(keys) == 0 {
		t.Fatal("docs/references.md defines no key")
	}
	return keys
}

// citations returns the keys cited in text, one per occurrence.
func citations(text string) []string {
	var keys []string
	for _, m := range citeRE.FindAllStringSubmatch(text, -1) {
		if next := m[2]; next == "(" || next == "[" || next == ":" {
			continue
		}
		keys = append(keys, m[1])
	}
	return keys
}

// goText returns the comments and string literals of a Go file with the line
// each starts on: the only places a Go file can cite a source.
func goText(src []byte) (lines []int, texts []string) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return lines, texts
		}
		if tok == token.COMMENT || tok == token.STRING || tok == token.CHAR {
			lines = append(lines, fset.Position(pos).Line)
			texts = append(texts, lit)
		}
	}
}

// declaredNames returns the package-level names and method names declared in
// the Go files: in a doc comment, [Exact] is a link to such a declaration
// (go doc's syntax), not a citation.
func declaredNames(t *testing.T, root string, files []string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, rel := range files {
		src, ok := readRepoFile(t, root, rel)
		if !ok {
			continue
		}
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			continue // not ours to judge; go vet will
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				names[d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}

// TestCitationsDefined checks that every citation key ([Tanaka2002], say) in
// README.md, docs/*.md, and the comments and strings of the Go code is
// defined in docs/references.md.
func TestCitationsDefined(t *testing.T) {
	root := repoRoot(t)
	refs := references(t, root)
	for _, rel := range markdownFiles(t, root) {
		data, _ := readRepoFile(t, root, rel)
		for i, line := range strings.Split(stripCode(string(data)), "\n") {
			for _, k := range citations(line) {
				if !refs[k] {
					t.Errorf("%s:%d: [%s] is not defined in docs/references.md", rel, i+1, k)
				}
			}
		}
	}
	var goFiles []string
	for _, rel := range repoFiles(t, root, true) {
		if strings.HasSuffix(rel, ".go") {
			goFiles = append(goFiles, rel)
		}
	}
	if len(goFiles) == 0 {
		t.Fatal("no Go files found")
	}
	names := declaredNames(t, root, goFiles)
	for _, rel := range goFiles {
		src, ok := readRepoFile(t, root, rel)
		if !ok {
			continue
		}
		lines, texts := goText(src)
		for j, text := range texts {
			for _, k := range citations(text) {
				if !refs[k] && !names[k] {
					t.Errorf("%s:%d: [%s] is not defined in docs/references.md (nor a Go name for a doc link)", rel, lines[j], k)
				}
			}
		}
	}
}

// TestLinksResolve checks every relative link of README.md and docs/*.md: it
// must name a file or directory inside the repository, and a #fragment into
// a Markdown file must name one of its headings.
func TestLinksResolve(t *testing.T) {
	root := repoRoot(t)
	for _, rel := range markdownFiles(t, root) {
		data, _ := readRepoFile(t, root, rel)
		for i, line := range strings.Split(stripCode(string(data)), "\n") {
			var targets []string
			for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
				targets = append(targets, m[1])
			}
			for _, m := range refDefRE.FindAllStringSubmatch(line, -1) {
				targets = append(targets, m[1])
			}
			for _, target := range targets {
				if err := checkLink(root, rel, target); err != nil {
					t.Errorf("%s:%d: link %q: %v", rel, i+1, target, err)
				}
			}
		}
	}
}

// checkLink reports what is wrong with a link target in the Markdown file
// from (relative to root), or nil.
func checkLink(root, from, target string) error {
	if schemeRE.MatchString(target) {
		return nil // absolute URL: not ours to check
	}
	if strings.Contains(target, sharedDir) {
		return errors.New("points to the internal brief's directory, outside the repository")
	}
	path, fragment, _ := strings.Cut(target, "#")
	path, _, _ = strings.Cut(path, "?")
	path, err := url.PathUnescape(path)
	if err != nil {
		return err
	}
	file := filepath.Join(root, filepath.FromSlash(from))
	if path != "" {
		if strings.HasPrefix(path, "/") {
			return errors.New("absolute path; use a path relative to the file")
		}
		file = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
		rel, err := filepath.Rel(root, file)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return errors.New("points outside the repository")
		}
		if _, err := os.Stat(file); err != nil {
			return errors.New("no such file in the repository")
		}
	}
	if fragment == "" || !strings.HasSuffix(file, ".md") {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if !slices.Contains(anchors(string(data)), fragment) {
		return errors.New("no heading with that anchor")
	}
	return nil
}

// anchors returns the anchors of a Markdown file's headings as GitHub makes
// them: lower case, punctuation dropped, spaces turned into hyphens, and
// "-1", "-2", … added to repeats.
func anchors(md string) []string {
	var out []string
	seen := map[string]int{}
	for _, line := range strings.Split(stripCode(md), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out = append(out, a+"-"+strconv.Itoa(n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}

// TestNoInternalCitations checks that no tracked file outside .ci/ cites the
// project's internal brief — its numbered seed documents, its sections, its
// file name, or the directory beside the repository it lives in — instead of
// an author and title (the patterns are in bad below). The project must carry
// its own rules (docs/rules.md) and references (docs/references.md). The
// patterns are those of `git grep -E` in the newcomer issue, so "SP" "EC"
// anywhere is refused, placeholders included.
func TestNoInternalCitations(t *testing.T) {
	root := repoRoot(t)
	// The patterns are spelled so that this file does not match them itself.
	bad := regexp.MustCompile(`seed 00[0-9]|SP[E]C|\.\./shared`)
	for _, rel := range repoFiles(t, root, false) {
		if strings.HasPrefix(rel, ".ci/") {
			continue
		}
		data, ok := readRepoFile(t, root, rel)
		if !ok || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			continue // gone, or binary (git grep skips those too)
		}
		if !containsAny(data, "seed 00", "SP"+"EC", "../sh"+"ared") {
			continue // the common case (the kept records are tens of MB: no regexp over them)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, loc := range bad.FindAllStringIndex(line, -1) {
				t.Errorf("%s:%d: cites internal material (%q); cite an author and title from docs/references.md", rel, i+1, line[loc[0]:loc[1]])
			}
		}
	}
}

// containsAny reports whether data contains one of subs.
func containsAny(data []byte, subs ...string) bool {
	for _, sub := range subs {
		if bytes.Contains(data, []byte(sub)) {
			return true
		}
	}
	return false
}

// TestRulesTableOrders checks the table of orders in docs/rules.md against
// the engine's solver.TableRank.
func TestRulesTableOrders(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| ([1-4]) \| ((?:[A2-90JQK] ){12}[A2-90JQK]) \|$`)
	found := map[int]bool{}
	for _, m := range row.FindAllStringSubmatch(string(data), -1) {
		x := int(m[1][0] - '0')
		var want []string
		for k := range solver.NumRanks {
			want = append(want, solver.TableRank(x, k).String())
		}
		if got := m[2]; got != strings.Join(want, " ") {
			t.Errorf("docs/rules.md: table %d is %q; the engine builds %q", x, got, strings.Join(want, " "))
		}
		found[x] = true
	}
	if len(found) != solver.Tables {
		t.Errorf("docs/rules.md: found the orders of %d tables, want %d", len(found), solver.Tables)
	}
}

// TestRulesExamples replays the traces and worked deadlock examples of
// docs/rules.md, which must quote them exactly as given here.
func TestRulesExamples(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	rules := string(data)
	tests := []struct {
		name, deck, trace string
		// the stacking move to check: the drawn card onto stack s for table x
		s, x        int
		partial     bool
		explanation string // "" when the move closes no cycle
	}{
		{
			name:  "consecutive trace",
			deck:  "A3474AK0JJ77Q580Q626639695324880KJAK2047A85Q25KJ99Q3",
			trace: "A1 33 44 7X3",
			s:     0, // the 4 drawn next onto Z for table 2: no cycle
			x:     2,
		},
		{
			name:        "two cards",
			deck:        "35A474AK0JJ77Q80Q626639695324880KJAK2047A85Q25KJ99Q3",
			trace:       "3Z1",
			s:           0,
			x:           1,
			partial:     true,
			explanation: "deadlock: 5 (to go on stack Z, for table 1) lies on 3 (stack Z, for table 1), which comes before 5 on table 1",
		},
		{
			name:  "two cards, other stack",
			deck:  "35A474AK0JJ77Q80Q626639695324880KJAK2047A85Q25KJ99Q3",
			trace: "3Z1",
			s:     1,
			x:     1,
		},
		{
			name:        "missed by the partial check",
			deck:        "07393Q9893Q627520448647A865J32JQAK7Q48K5A09J0K6JA5K2",
			trace:       "0Z2 7Z3 33 9Z4 3X4",
			s:           1,
			x:           2,
			explanation: "deadlock: Q (to go on stack X, for table 2) lies on 3 (stack X, for table 4), which comes before 9 on table 4; 9 (stack Z, for table 4) lies above 0 (stack Z, for table 2), which comes before Q on table 2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, quoted := range []string{tt.deck, tt.trace, tt.explanation} {
				if !strings.Contains(rules, quoted) {
					t.Errorf("docs/rules.md does not quote %q", quoted)
				}
			}
			r := solver.DefaultRules()
			deck, err := solver.ParseDeck(tt.deck)
			if err != nil {
				t.Fatal(err)
			}
			moves, err := solver.ParseTrace(tt.trace, r)
			if err != nil {
				t.Fatal(err)
			}
			if got := solver.FormatTrace(moves, r); got != tt.trace {
				t.Errorf("trace %q formats back as %q", tt.trace, got)
			}
			g, err := solver.Replay(&deck, r, moves)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			p := g.Position
			y := p.Drawn()
			if got := deadlock.Partial(p.View(), y, tt.x, tt.s); got != tt.partial {
				t.Errorf("Partial(%s for table %d on stack %d) = %v, want %v", y, tt.x, tt.s, got, tt.partial)
			}
			got := ""
			if c := deadlock.Exact(p.View(), y, tt.x, tt.s); c != nil {
				got = c.String()
			}
			if got != tt.explanation {
				t.Errorf("Exact(%s for table %d on stack %d):\n got %q\nwant %q", y, tt.x, tt.s, got, tt.explanation)
			}
		})
	}
}

// TestTraceNotation checks the example tokens of docs/rules.md: each parses
// as the kind of move the page says and formats back unchanged.
func TestTraceNotation(t *testing.T) {
	r := solver.DefaultRules()
	tests := []struct {
		tok   string
		kind  solver.MoveKind
		rank  string
		stack int8
		table int8
	}{
		{"6Z4", solver.ToStack, "6", 0, 4},
		{"0X3", solver.ToStack, "0", 1, 3},
		{"33", solver.ToTable, "3", 0, 3},
		{"KC1", solver.ToStack, "K", 2, 1},
		{"Z93", solver.StackToTable, "9", 0, 3},
		{"6Z", solver.ToStack, "6", 0, 0},
	}
	for _, tt := range tests {
		m, err := solver.ParseMove(tt.tok, r)
		if err != nil {
			t.Errorf("%s: %v", tt.tok, err)
			continue
		}
		if m.Kind != tt.kind || m.Rank.String() != tt.rank || m.Stack != tt.stack || m.Table != tt.table {
			t.Errorf("%s parses as %+v; want kind %d, rank %s, stack %d, table %d", tt.tok, m, tt.kind, tt.rank, tt.stack, tt.table)
		}
		if got := m.Format(r); got != tt.tok {
			t.Errorf("%s formats back as %s", tt.tok, got)
		}
	}
}

// TestCitationPattern pins what counts as a citation, so that the checks
// above neither miss keys nor take Markdown's brackets for them.
func TestCitationPattern(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"as [Tanaka2002] reports", []string{"Tanaka2002"}},
		{"[NanzakiShintani]'s rules, [PySol].", []string{"NanzakiShintani", "PySol"}},
		{"[ONeill2014] [BayerDiaconis1992]", []string{"ONeill2014", "BayerDiaconis1992"}},
		{"[Tanaka2002](references.md)", nil}, // a link
		{"[Rules][rules]", nil},              // a reference link
		{"[Rules]: rules.md", nil},           // a link definition
		{"[x] [ab] [A] [Tanaka20021] [Tables-1]", nil},
	}
	for _, tt := range tests {
		if got := citations(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("citations(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestCheckLink pins what counts as a link that resolves.
func TestCheckLink(t *testing.T) {
	root := repoRoot(t)
	tests := []struct {
		from, target string
		ok           bool
	}{
		{"README.md", "docs/rules.md", true},
		{"README.md", "docs/rules.md#assignments-and-slots", true},
		{"README.md", "docs/", true},
		{"docs/rules.md", "references.md", true},
		{"docs/rules.md", "../README.md", true},
		{"docs/rules.md", "#the-dependency-graph-and-deadlocks", true},
		{"docs/rules.md", "https://example.org/x", true},
		{"README.md", sharedDir + "/brief.md", false},
		{"docs/rules.md", sharedDir + "/brief.md", false},
		{"docs/rules.md", "../../outside.md", false},
		{"README.md", "/etc/passwd", false},
		{"README.md", "docs/no-such-file.md", false},
		{"docs/rules.md", "#no-such-heading", false},
	}
	for _, tt := range tests {
		if err := checkLink(root, tt.from, tt.target); (err == nil) != tt.ok {
			t.Errorf("checkLink(%s, %q) = %v, want ok %v", tt.from, tt.target, err, tt.ok)
		}
	}
}
