package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/cardlab/cardlab/games/alphatactics"
)

func TestImpactAblation(t *testing.T) {
	rs := loadDefault(t)
	d7, _ := rs.CardByID("kl-d7")
	v, desc, skip := Ablate(rs, d7.Index, ModeBlank)
	if skip != "" || desc != "blank (power 4 → 0)" || v.Cards[d7.Index].Power != 0 || rs.Cards[d7.Index].Power != 4 || v.Hash == rs.Hash {
		t.Fatalf("blank kl-d7: %q %q", desc, skip)
	}
	if _, _, skip := Ablate(rs, d7.Index, ModeEffectOff); skip == "" {
		t.Error("effect-off of a plain card not skipped")
	}
	raptor, _ := rs.CardByID("kl-raptor")
	v, desc, skip = Ablate(rs, raptor.Index, ModeEffectOff)
	if skip != "" || v.Cards[raptor.Index].Effect != nil || v.Cards[raptor.Index].Power != raptor.Power || rs.Cards[raptor.Index].Effect == nil {
		t.Fatalf("effect-off kl-raptor: %q %q", desc, skip)
	}
}

func TestImpactRanked(t *testing.T) {
	rs := loadDefault(t)
	games := 300
	if testing.Short() {
		games = 90
	}
	res, err := Impact(context.Background(), ImpactConfig{Game: alphatactics.Ruleset{RS: rs}, Mode: ModeEffectOff, GamesPerCard: games,
		Cards:        []string{"kl-d7", "kl-tygokor", "vu-suurok", "sf-miranda"},
		PairedConfig: PairedConfig{Matchups: allPairs(rs), Bots: []string{"random"}, Seed: 5, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != games/3 || res.Correction != CorrectionBH || len(res.Cards) != 4 {
		t.Fatalf("games per lineup %d, correction %s, cards %d", res.Games, res.Correction, len(res.Cards))
	}
	// Three plain cards are skipped in effect-off mode and ranked last.
	if res.Cards[0].ID != "kl-tygokor" || res.Cards[0].Skipped != "" || res.Cards[0].Games != int64(games) {
		t.Errorf("first card %+v", res.Cards[0])
	}
	for i, c := range res.Cards {
		if c.Rank != i+1 || i > 0 && c.Skipped == "" {
			t.Errorf("card %d: %+v", i, c)
		}
	}
	if res.BaselineGames != int64(6*games/3) || res.VariantGames != int64(games) {
		t.Errorf("baseline %d variant %d games", res.BaselineGames, res.VariantGames)
	}
	// In JSON a skipped card has no figures (null), a tested one has them,
	// and the keys keep their order.
	for i, c := range res.Cards {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("card %s: %v in %s", c.ID, err, b)
		}
		for k := range skippedFigures {
			v, ok := m[k]
			if !ok || (v == nil) != (i > 0) {
				t.Errorf("card %s: %s = %v (present %v)", c.ID, k, v, ok)
			}
		}
		if !bytes.HasPrefix(b, []byte(`{"rank":`)) || !bytes.Contains(b, []byte(`"ci95":`)) {
			t.Errorf("card %s: %s", c.ID, b)
		}
	}
}

// TestImpactAllCards is the performance acceptance run: every card blanked,
// 2,000 paired games each, greedy bots (CARDLAB_LONG=1; CARDLAB_WORKERS).
func TestImpactAllCards(t *testing.T) {
	if !longRuns() {
		t.Skip("set CARDLAB_LONG=1 to time the impact of every card")
	}
	rs := loadDefault(t)
	workers := 2
	if w := os.Getenv("CARDLAB_WORKERS"); w != "" {
		workers = int(w[0] - '0')
	}
	began := time.Now()
	res, err := Impact(context.Background(), ImpactConfig{Game: alphatactics.Ruleset{RS: rs}, GamesPerCard: 2000,
		PairedConfig: PairedConfig{Matchups: allPairs(rs), Bots: []string{"greedy"}, Seed: 1, Workers: workers}})
	if err != nil {
		t.Fatal(err)
	}
	sig := 0
	for _, c := range res.Cards {
		if c.Significant {
			sig++
		}
	}
	t.Logf("%d cards, %d baseline + %d variant games in %v (%.0f games/s), %d significant (BH)",
		len(res.Cards), res.BaselineGames, res.VariantGames, time.Since(began).Round(time.Millisecond), res.Timing.GamesPerSecond, sig)
}
