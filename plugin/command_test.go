package plugin_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/calcsol/calcsol/plugin"
)

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
		err      bool
	}{
		{"words", "bin/calcsol plugin serve priority", []string{"bin/calcsol", "plugin", "serve", "priority"}, false},
		{"spaces around", "  ./p   a\tb \n", []string{"./p", "a", "b"}, false},
		{"single quotes", "python3 'my plugin.py' x", []string{"python3", "my plugin.py", "x"}, false},
		{"double quotes in a word", `p --name="a b"c`, []string{"p", "--name=a bc"}, false},
		{"empty quotes", `p '' x`, []string{"p", "", "x"}, false},
		{"empty", "   ", nil, false},
		{"unclosed", `p "a b`, nil, true},
	} {
		got, err := plugin.SplitCommand(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("%s: error %v, want error %v", tc.name, err, tc.err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: SplitCommand(%q) (-want +got):\n%s", tc.name, tc.in, diff)
		}
	}
}

// FuzzSplitCommand: any line is split without a panic, and words without
// quotes or spaces, quoted and joined, split back to themselves.
func FuzzSplitCommand(f *testing.F) {
	f.Add("bin/calcsol plugin serve priority:deadlock_check=exact")
	f.Add(`/usr/bin/python3 'a b.py' "c"`)
	f.Fuzz(func(t *testing.T, line string) {
		words, err := plugin.SplitCommand(line)
		if err != nil {
			return
		}
		var quoted []string
		for _, w := range words {
			if strings.Contains(w, "'") {
				return
			}
			quoted = append(quoted, "'"+w+"'")
		}
		again, err := plugin.SplitCommand(strings.Join(quoted, " "))
		if err != nil || !cmp.Equal(again, words) {
			t.Errorf("%q: words %q, quoted and split again %q (%v)", line, words, again, err)
		}
	})
}

func TestCheckedFile(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"bin/soonest-fit --x 1", "bin/soonest-fit"},
		{"/usr/bin/python3 examples/pyplugin/plugin.py", "examples/pyplugin/plugin.py"},
		{"python3.11 -u plugin.py", "plugin.py"},
		{"bash -e run.sh", "run.sh"},
		{"bin/calcsol plugin serve priority", "bin/calcsol"},
	} {
		argv, _ := plugin.SplitCommand(tc.in)
		if got := plugin.CheckedFile(argv); got != tc.want {
			t.Errorf("CheckedFile(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The file a plugin's sha256 covers: the program, or the script an
// interpreter runs.
func ExampleCheckedFile() {
	for _, cmd := range []string{"bin/soonest-fit", "/usr/bin/python3 examples/pyplugin/plugin.py"} {
		argv, _ := plugin.SplitCommand(cmd)
		fmt.Println(plugin.CheckedFile(argv))
	}
	// Output:
	// bin/soonest-fit
	// examples/pyplugin/plugin.py
}
