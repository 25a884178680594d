package texttable

import (
	"bytes"
	"testing"

	"github.com/calcsol/calcsol/internal/golden"
)

func TestIsNumber(t *testing.T) {
	tests := []struct {
		cell string
		want bool
	}{
		{"12", true},
		{"-3", true},
		{"0.978(2646)", true},
		{"1.2e-04", true},
		{"[6.48, 7.05]", true},
		{"≈ 52", true},
		{"", false},
		{"e", false},
		{"HDH", false},
		{"12 decks", false},
		{"χ² (df 12)", false},
	}
	for _, tt := range tests {
		if got := isNumber(tt.cell); got != tt.want {
			t.Errorf("isNumber(%q) = %v, want %v", tt.cell, got, tt.want)
		}
	}
}

type row struct {
	name string
	n    string
}

func (r row) Cells() []string { return []string{r.name, r.n} }

// TestRender pins the layout: headers as written, number columns right,
// mixed columns left, the footer.
func TestRender(t *testing.T) {
	var b bytes.Buffer
	tb := New(&b, "max|e|", "count", "mixed")
	tb.Append("a", "1", "2")
	tb.Append("bb", "1234", "x")
	tb.Footer("total", "1235", "")
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	if err := Rows(&b, []string{"name", "n"}, []row{{"one", "1"}, {"twenty", "20"}}); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	if err := Write(&b, []string{"plan", "s"}, [][]string{{"C^30", "60"}}, "total", "60"); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/render.golden", b.Bytes())
}
