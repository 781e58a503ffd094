package analysis

import "testing"

func TestTurnOrderLabel(t *testing.T) {
	for pos, want := range map[int]string{1: "began round 1", 2: "2nd in turn", 3: "3rd in turn", 4: "4th in turn"} {
		if got := TurnOrderLabel(pos); got != want {
			t.Errorf("TurnOrderLabel(%d) = %q, want %q", pos, got, want)
		}
	}
}
