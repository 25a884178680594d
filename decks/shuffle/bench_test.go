package shuffle

import "testing"

// BenchmarkShuffle52 times one set (one shuffle of a fresh 52-card deck) per
// model and for the sequences the analysis runs most, and reports sets/s.
//
//	go test ./decks -run '^$' -bench Shuffle52 -benchtime 2s
func BenchmarkShuffle52(b *testing.B) {
	p := DefaultParams()
	for _, spec := range []string{"C", "H", "R", "F", "D", "O", "U", "HDHRDHH", "R^7", "H^86"} {
		s := MustParseSequence(spec, p)
		benchShuffle52(b, spec, s)
	}
	// the shuffle models' literal dropping rule, for comparison with the digit form.
	benchShuffle52(b, "R-drop", Riffle{Packets: 2, Drop: true})
}

func benchShuffle52(b *testing.B, name string, s Shuffler) {
	b.Run(name, func(b *testing.B) {
		r := NewRand(1)
		fresh := Unshuffled(52)
		deck := make([]int, 52)
		b.ReportAllocs()
		for b.Loop() {
			copy(deck, fresh)
			s.Shuffle(deck, r)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sets/s")
	})
}
