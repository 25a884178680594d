package games

import "testing"

// TestTable plays batches of lookups in the orders a lockstep player makes
// (the same order, games ended, games started, a game's id used again) and
// in others, and checks that each game keeps its own value.
func TestTable(t *testing.T) {
	type step struct {
		batch []uint64 // the ids looked up, in order
		fresh []uint64 // of them, the ones that must be new
		end   []uint64 // deleted after the batch
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"same order", []step{
			{batch: []uint64{1, 2, 3}, fresh: []uint64{1, 2, 3}},
			{batch: []uint64{1, 2, 3}},
			{batch: []uint64{1, 2, 3}},
		}},
		{"games end and start", []step{
			{batch: []uint64{1, 2, 3, 4}, fresh: []uint64{1, 2, 3, 4}, end: []uint64{2}},
			{batch: []uint64{1, 3, 4, 5}, fresh: []uint64{5}, end: []uint64{1, 4}},
			{batch: []uint64{3, 5, 6}, fresh: []uint64{6}},
		}},
		{"other orders", []step{
			{batch: []uint64{1, 2, 3, 4}, fresh: []uint64{1, 2, 3, 4}},
			{batch: []uint64{4, 3, 2, 1}},
			{batch: []uint64{2, 4, 1, 3}},
			{batch: []uint64{3}},
			{batch: []uint64{1, 2, 3, 4}},
		}},
		{"an id used again is a new game", []step{
			{batch: []uint64{7, 8}, fresh: []uint64{7, 8}, end: []uint64{7}},
			{batch: []uint64{7, 8}, fresh: []uint64{7}, end: []uint64{8}},
			{batch: []uint64{7, 8}, fresh: []uint64{8}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tab Table[int]
			want := map[uint64]int{} // the value each live game holds
			for s, st := range tc.steps {
				tab.Begin()
				for _, id := range st.batch {
					v, fresh := tab.Get(id)
					wantFresh := false
					for _, f := range st.fresh {
						wantFresh = wantFresh || f == id
					}
					if fresh != wantFresh {
						t.Fatalf("batch %d, game %d: fresh %t, want %t", s, id, fresh, wantFresh)
					}
					if fresh {
						if *v != 0 {
							t.Fatalf("batch %d, game %d: new game holds %d", s, id, *v)
						}
					} else if *v != want[id] {
						t.Fatalf("batch %d, game %d: holds %d, want %d", s, id, *v, want[id])
					}
					*v = s*100 + int(id)
					want[id] = *v
				}
				for _, id := range st.end {
					tab.Delete(id)
					delete(want, id)
				}
				if tab.Len() != len(want) {
					t.Fatalf("after batch %d: %d games held, want %d", s, tab.Len(), len(want))
				}
			}
		})
	}
}

func BenchmarkGetInOrder(b *testing.B) {
	var tab Table[int]
	ids := make([]uint64, 4096)
	for i := range ids {
		ids[i] = uint64(i) * 7919
	}
	for b.Loop() {
		tab.Begin()
		for _, id := range ids {
			v, _ := tab.Get(id)
			*v++
		}
	}
}
