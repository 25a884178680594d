package tournament

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteJSONL(t *testing.T) {
	res := []DeckResult{
		{Deck: 0, Won: true, Placed: 52},
		{Deck: 1, Placed: 37},
		{Deck: 2, Placed: 3, Failed: true, Reason: `strategy panicked: "<x>"`},
		{Deck: 3, Placed: 0, Failed: true},
	}
	var b bytes.Buffer
	if err := WriteJSONL(&b, res); err != nil {
		t.Fatal(err)
	}
	want := `{"deck":0,"won":true,"placed":52}
{"deck":1,"won":false,"placed":37}
{"deck":2,"won":false,"placed":3,"reason":"strategy panicked: \"<x>\""}
{"deck":3,"won":false,"placed":0,"reason":"failed"}
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	got, err := ReadJSONL(&b)
	if err != nil {
		t.Fatal(err)
	}
	res[3].Reason = "failed"
	if diff := cmp.Diff(res, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestReadJSONLErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"order", "{\"deck\":0,\"won\":false,\"placed\":1}\n{\"deck\":2,\"won\":false,\"placed\":1}\n", "results line 2: deck 2, want 1"},
		{"missing won", `{"deck":0,"placed":1}`, `results line 1: no "won"`},
		{"missing deck", `{"won":false,"placed":1}`, `results line 1: no "deck"`},
		{"missing placed", `{"deck":0,"won":false}`, `results line 1: no "placed"`},
		{"unknown field", `{"deck":0,"won":false,"placed":1,"x":2}`, `results line 1: json: unknown field "x"`},
		{"placed range", `{"deck":0,"won":false,"placed":53}`, "results line 1: placed 53; want 0..52"},
		{"won without 52", `{"deck":0,"won":true,"placed":51}`, "results line 1: won is true with 51 cards placed"},
		{"52 without won", `{"deck":0,"won":false,"placed":52}`, "results line 1: won is false with 52 cards placed"},
		{"empty reason", `{"deck":0,"won":false,"placed":5,"reason":""}`, `results line 1: empty "reason"`},
		{"two records", `{"deck":0,"won":false,"placed":5} {"deck":1,"won":false,"placed":5}`, "results line 1: more than one record"},
		{"not json", "\n\ndeck 0", "results line 3: invalid character"},
		{"wrong type", `{"deck":"0","won":false,"placed":5}`, "results line 1: json: cannot unmarshal string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadJSONL(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestReadJSONLBlankLines(t *testing.T) {
	in := "\n{\"deck\":0,\"won\":false,\"placed\":4}\r\n\n  {\"deck\":1,\"won\":true,\"placed\":52}  \n"
	got, err := ReadJSONL(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []DeckResult{{Deck: 0, Placed: 4}, {Deck: 1, Won: true, Placed: 52}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// FuzzReadJSONL checks that whatever ReadJSONL accepts, WriteJSONL writes back
// in a form that reads to the same results (parse → write → parse).
func FuzzReadJSONL(f *testing.F) {
	f.Add("{\"deck\":0,\"won\":true,\"placed\":52}\n{\"deck\":1,\"won\":false,\"placed\":3,\"reason\":\"boom\"}\n")
	f.Add(`{"deck":0,"won":false,"placed":0}`)
	f.Add("{\"deck\":0,\"won\":false,\"placed\":1,\"reason\":\"\\u2028<&>\"}\n\n")
	f.Fuzz(func(t *testing.T, in string) {
		res, err := ReadJSONL(strings.NewReader(in))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteJSONL(&b, res); err != nil {
			t.Fatal(err)
		}
		again, err := ReadJSONL(&b)
		if err != nil {
			t.Fatalf("re-reading %q: %v", b.String(), err)
		}
		if diff := cmp.Diff(res, again); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}
