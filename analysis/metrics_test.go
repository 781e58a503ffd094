package analysis

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
)

func TestTurnOrderLabel(t *testing.T) {
	for pos, want := range map[int]string{1: "began round 1", 2: "2nd in turn", 3: "3rd in turn", 4: "4th in turn"} {
		if got := TurnOrderLabel(pos); got != want {
			t.Errorf("TurnOrderLabel(%d) = %q, want %q", pos, got, want)
		}
	}
}

// A correlational card figure with an empty side is null in the JSON, never
// 0: a card drawn in every game has no "game not seen".
func TestCardFiguresUndefinedAreNull(t *testing.T) {
	cards := alphatactics.Game{}.CountLayout()[1]
	row := game.Row{Labels: []string{"always", "f", "card"}, Values: make([]int64, len(cards.Columns))}
	for col, x := range map[string]int64{"games": 100, "drawn": 100, "drawn_win_units": 50 * WinUnit, "opening": 40,
		"opening_win_units": 20 * WinUnit, "not_opening_win_units": 30 * WinUnit} {
		k, _, _ := cards.Column(col)
		row.Values[k] = x
	}
	cards.Rows = []game.Row{row}
	c := &Counts{WinUnit: WinUnit, Games: 100, Sections: []game.Section{cards}}
	r := summarize(header{config: ConfigInfo{MinSample: 30}}, c)
	k := r.Cards[0]
	if k.GIHWR == nil || *k.GIHWR != 0.5 {
		t.Errorf("gih_wr %v, want 0.5", k.GIHWR)
	}
	if k.GNSWR != nil || k.IWD != nil || k.IWDCI95 != nil || k.PlayedWR != nil {
		t.Errorf("gns_wr %v, iwd %v, iwd_ci95 %v, played_wr %v: want null (no game without the card, none played)", k.GNSWR, k.IWD, k.IWDCI95, k.PlayedWR)
	}
	if k.OHIWD == nil || k.OHIWDCI95 == nil {
		t.Error("oh_iwd is null although both sides have games")
	}
	data, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"gns_wr":null`, `"iwd":null`, `"iwd_ci95":null`, `"played_wr":null`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the JSON has no %s: %s", want, data)
		}
	}
}
