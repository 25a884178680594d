package shuffle_test

import (
	"fmt"

	"github.com/calcsol/calcsol/decks/shuffle"
)

// The worked examples of docs/shuffles-models.md: n = 10, card i starts at position i, and
// π(i) is where card i ends up.
func ExampleDeal() {
	deck := shuffle.Unshuffled(10)
	shuffle.Deal{Piles: 3, Order: shuffle.PilesNatural}.Shuffle(deck, nil)
	fmt.Println("deck:", oneBased(deck))
	fmt.Println("π:   ", oneBased(shuffle.Permutation(deck)))
	// Output:
	// deck: [10 7 4 1 8 5 2 9 6 3]
	// π:    [4 7 10 3 6 9 2 5 8 1]
}

// Dealt face up, each pile keeps the order dealt (pile 1 is 1 4 7 10 from
// its top).
func ExampleDeal_faceUp() {
	deck := shuffle.Unshuffled(10)
	shuffle.Deal{Piles: 3, Order: shuffle.PilesNatural, FaceUp: true}.Shuffle(deck, nil)
	fmt.Println("deck:", oneBased(deck))
	// Output:
	// deck: [1 4 7 10 2 5 8 3 6 9]
}

func ExampleHinduPackets() {
	deck := shuffle.Unshuffled(10)
	shuffle.HinduPackets(deck, []int{3, 3, 3, 3})
	fmt.Println("π:", oneBased(shuffle.Permutation(deck)))
	// Output:
	// π: [8 9 10 5 6 7 2 3 4 1]
}

func ExampleParseSequence() {
	p := shuffle.DefaultParams()
	seq, err := shuffle.ParseSequence("D^1R^4", p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(seq, seq.Expanded(), seq.Len())
	deck := shuffle.Unshuffled(52)
	seq.Shuffle(deck, shuffle.NewRand(1)) // same seed, same deck, on every machine

	_, err = shuffle.ParseSequence("HDHXDHH", p)
	fmt.Println(err)
	// Output:
	// DR^4 DRRRR 5
	// shuffle sequence "HDHXDHH": position 4: unknown shuffle letter "X" (want one of CHRFDOU)
}

func ExampleCosts_Maximal() {
	combs, err := shuffle.DefaultCosts().Maximal("HRD", 60, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	total := 0
	for _, c := range combs {
		fmt.Println(c, c.NumOrderings())
		total += int(c.NumOrderings().Int64())
	}
	fmt.Println("orderings:", total)
	// Output:
	// D^1R^4 5
	// D^1R^3H^3 140
	// D^1R^2H^5 168
	// D^1R^1H^7 72
	// D^1H^10 11
	// orderings: 396
}

func ExampleRepeat() {
	for _, limit := range []int{60, 12} {
		var plan []shuffle.Term
		for _, l := range []byte("CHFD") {
			t, _ := shuffle.Repeat(l, limit)
			plan = append(plan, t)
		}
		fmt.Println(plan)
	}
	// Output:
	// [C^30 H^20 F^8 D^2]
	// [C^6 H^4 F^1 D^0]
}

func oneBased(xs []int) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = x + 1
	}
	return out
}
