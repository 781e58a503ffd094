package analysis

import (
	"encoding/json"
	"strings"
	"testing"
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
	c := &Counts{WinUnit: WinUnit, Games: 100, Cards: []CardCounts{
		{ID: "always", Faction: "f", Games: 100, Drawn: 100, DrawnWinUnits: 50 * WinUnit, Played: 0, Opening: 40,
			OpeningWinUnits: 20 * WinUnit, NotOpeningWinUnits: 30 * WinUnit},
	}}
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
