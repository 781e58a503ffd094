package analysis

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestCardValuePrecisionIsPts: --precision of the card values is a median
// 95% half-width in win-share points (pts), the unit of the headline and
// of diff's and sweep's --precision, not in power points: the run stops at
// the first stage whose median pts half-width is at most Precision, and
// reports it (issue 25, item 16).
func TestCardValuePrecisionIsPts(t *testing.T) {
	rs := rules.Default()
	cfg := CardValueConfig{Game: alphatactics.Ruleset{RS: rs}, Matchups: [][]string{{"klingon", "romulan"}}, Bots: []string{"random"},
		Games: 640, MaxGames: 5120, Precision: 9, Seed: 3, Workers: 2}
	r, err := CardValues(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var hw []float64
	for _, v := range r.Values {
		hw = append(hw, (v.PtsCI95[1]-v.PtsCI95[0])/2)
	}
	slices.Sort(hw)
	med := hw[len(hw)/2]
	if len(hw)%2 == 0 {
		med = (hw[len(hw)/2-1] + hw[len(hw)/2]) / 2
	}
	if math.Abs(med-r.MedianPtsHalfWidth) > 0.05 {
		t.Errorf("median pts half-width %.3f, the cards' is %.3f", r.MedianPtsHalfWidth, med)
	}
	if r.GamesPerLineup < cfg.MaxGames && r.MedianPtsHalfWidth > cfg.Precision {
		t.Errorf("stopped at %d games per lineup with a median pts half-width of %.2f > %g", r.GamesPerLineup, r.MedianPtsHalfWidth, cfg.Precision)
	}
	if r.GamesPerLineup == cfg.Games {
		t.Errorf("the first stage (median pts half-width %.2f) already met %g: the test asks for nothing", r.MedianPtsHalfWidth, cfg.Precision)
	}
	if d := r.Design(cfg); d.Precision != 9 || d.MedianPtsHalfWidth != r.MedianPtsHalfWidth {
		t.Errorf("design %+v", d)
	}
}
