package subgame_test

import (
	"context"
	"fmt"

	"github.com/calcsol/calcsol/subgame"
)

// Solve the stack game with 3 stacks up to 6 cards and read two positions:
// every card in the stock, and cards 3, 4 and 5 already waiting in order on
// the first stack (5 at the bottom, 3 on top).
func ExampleBuild() {
	t, err := subgame.Build(context.Background(), subgame.Key{Stacks: 3, Cards: 6})
	if err != nil {
		fmt.Println(err)
		return
	}
	fresh := subgame.Position{Cards: 6}
	waiting := subgame.Position{Cards: 6, Where: [subgame.MaxCards]uint8{3: 1, 4: 1, 5: 1}}
	fmt.Printf("6 cards in the stock: %.2f %%\n", 100*float64(t.Value(&fresh))/subgame.Scale)
	fmt.Printf("3 of them stacked in order: %.2f %%\n", 100*float64(t.Value(&waiting))/subgame.Scale)
	// Output:
	// 6 cards in the stock: 96.39 %
	// 3 of them stacked in order: 100.00 %
}
