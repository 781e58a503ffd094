package analysis

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestNextValueStage: the next stage of the card-value experiment grows by
// the 1/√n law in whole jackknife groups, at most doubling, at most the
// cap — and a precision far below the half-width (issue 24: --precision
// 1e-9 or 5e-324 wrapped the games needed around to a negative stage and
// crashed in makeslice) goes to the cap by comparison, not by overflow.
func TestNextValueStage(t *testing.T) {
	for _, c := range []struct {
		name          string
		done          int
		hw, precision float64
		most, want    int
	}{
		{"by the law", 8000, 1.1, 1, 64000, 10656}, // 8000·1.1²·1.1 = 10648, up to whole groups of 32
		{"at most doubling", 8000, 4, 1, 64000, 16000},
		{"at most the cap", 8000, 4, 1, 12000, 12000},
		{"tiny precision", 8000, 1, 1e-9, 64000, 16000},
		{"smallest float", 8000, 1, 5e-324, 64000, 16000},
		{"huge cap", 1 << 40, 1, 1e-300, math.MaxInt, 1 << 41},
		{"at the top of int", math.MaxInt - 10, 1, 1e-300, math.MaxInt, math.MaxInt},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if got := nextValueStage(c.done, c.hw, c.precision, c.most); got != want {
				t.Errorf("nextValueStage(%d, %g, %g, %d) = %d, want %d", c.done, c.hw, c.precision, c.most, got, want)
			}
		})
	}
}

// TestCardValuesRefusesPrecision: a precision the experiment cannot mean
// (NaN, ±Inf, below MinPrecision) is a configuration error before any
// game is played.
func TestCardValuesRefusesPrecision(t *testing.T) {
	for _, p := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e-9, 5e-324} {
		_, err := CardValues(context.Background(), CardValueConfig{Game: alphatactics.Ruleset{RS: rules.Default()},
			Matchups: [][]string{{"starfleet", "klingon"}}, Bots: []string{"random"}, Games: 64, Precision: p})
		if !errors.Is(err, ErrConfig) {
			t.Errorf("precision %g: got %v, want ErrConfig", p, err)
		}
	}
}
