package textblock

import "testing"

func TestWrap(t *testing.T) {
	tests := []struct {
		name  string
		s     string
		width int
		want  string
	}{
		{"empty", "", 10, ""},
		{"one line", "a b c", 10, "  a b c"},
		{"breaks at width", "aaa bbb ccc", 9, "  aaa bbb\n  ccc"},
		{"long word alone", "aaaaaaaaaaaa b", 5, "  aaaaaaaaaaaa\n  b"},
		{"spaces collapse", "  a \n b  ", 10, "  a b"},
	}
	for _, tt := range tests {
		if got := Wrap(tt.s, tt.width); got != tt.want {
			t.Errorf("%s: Wrap(%q, %d) = %q, want %q", tt.name, tt.s, tt.width, got, tt.want)
		}
	}
}

func TestIndent(t *testing.T) {
	tests := []struct{ s, want string }{
		{"", ""},
		{"a", "> a"},
		{"a\nb\n", "> a\n> b\n"},
		{"a\n\nb", "> a\n> \n> b"},
	}
	for _, tt := range tests {
		if got := Indent(tt.s, "> "); got != tt.want {
			t.Errorf("Indent(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestPlural(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{{0, "0 decks"}, {1, "1 deck"}, {2, "2 decks"}, {30000, "30000 decks"}}
	for _, tt := range tests {
		if got := Plural(tt.n, "deck"); got != tt.want {
			t.Errorf("Plural(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestGroup(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {30000, "30,000"}, {1234567, "1,234,567"}, {-1500, "-1,500"}} {
		if got := Group(tc.n); got != tc.want {
			t.Errorf("Group(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
