package tournament

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEndings(t *testing.T) {
	res := []DeckResult{
		{Reason: "won", Won: true}, {Reason: "stuck"}, {Reason: "won", Won: true},
		{Reason: "resigned: 9"}, {Reason: "resigned: 8"}, {Reason: "resigned: 9"}, {Reason: "won", Won: true},
	}
	want := []Ending{{"won", 3}, {"resigned: 9", 2}, {"resigned: 8", 1}, {"stuck", 1}}
	if diff := cmp.Diff(want, Endings(res)); diff != "" {
		t.Errorf("Endings (-want +got):\n%s", diff)
	}
	if got := Endings(nil); len(got) != 0 {
		t.Errorf("Endings(nil) = %v", got)
	}
}
