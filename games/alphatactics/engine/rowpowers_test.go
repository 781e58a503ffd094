package engine

import (
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// RowPowers gives every row's powers, combinations and presence exactly as
// ScoreRow does, at every decision of random games at every table size.
func TestRowPowersMatchScoreRow(t *testing.T) {
	rs := rules.Default()
	var a, b handlers.RowScore
	rows := 0
	for np := 2; np <= 4; np++ {
		for g := 0; g < 20; g++ {
			s, err := New(rs, Config{Factions: allFactions[:np], Seed: uint64(np*1000 + g)})
			if err != nil {
				t.Fatal(err)
			}
			bot := NewRNG(uint64(g))
			var buf []Action
			for !s.IsTerminal() {
				for r := 0; r < s.NumRows(); r++ {
					want := s.ScoreRow(r, &a)
					var got RowResult
					s.RowPowers(r, &b, &got)
					if got.Power != want.Power || got.Combo != want.Combo || got.HasCards != want.HasCards ||
						got.Row != want.Row || got.Target != want.Target || got.Winner != -1 {
						t.Fatalf("np %d game %d row %d: RowPowers %+v, ScoreRow %+v", np, g, r, got, want)
					}
					rows++
				}
				buf = s.LegalActions(buf)
				s.Apply(buf[bot.Intn(len(buf))])
			}
		}
	}
	if rows < 10000 {
		t.Fatalf("only %d rows compared", rows)
	}
}
