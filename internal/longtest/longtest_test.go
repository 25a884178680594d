package longtest

import "testing"

func TestSwitch(t *testing.T) {
	tests := []struct {
		env  string
		want bool
	}{
		{"", false},
		{"0", false},
		{"yes", false},
		{"1", true},
	}
	for _, tc := range tests {
		t.Run("CALCSOL_LONG="+tc.env, func(t *testing.T) {
			t.Setenv(Env, tc.env)
			if got := Enabled(); got != tc.want {
				t.Errorf("Enabled() = %t, want %t", got, tc.want)
			}
			if got := Pick("quick", "long"); got != map[bool]string{false: "quick", true: "long"}[tc.want] {
				t.Errorf("Pick = %q", got)
			}
			skipped := true
			t.Run("skip", func(t *testing.T) {
				Skip(t)
				skipped = false
			})
			if skipped == tc.want {
				t.Errorf("Skip skipped: %t, want %t", skipped, !tc.want)
			}
		})
	}
}

func TestSize(t *testing.T) {
	tests := []struct {
		env  string
		want string
	}{
		{"", map[bool]string{false: "quick", true: "race"}[Race]},
		{"0", map[bool]string{false: "quick", true: "race"}[Race]},
		{"1", "long"},
	}
	for _, tc := range tests {
		t.Run("CALCSOL_LONG="+tc.env, func(t *testing.T) {
			t.Setenv(Env, tc.env)
			if got := Size("race", "quick", "long"); got != tc.want {
				t.Errorf("Size = %q, want %q (Race %t)", got, tc.want, Race)
			}
		})
	}
}
