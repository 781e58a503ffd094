package engine

import (
	"slices"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Choices must describe exactly the list LegalActions builds — the count and
// every action in order — at every decision of many games (the random bot
// samples from it, and its games must stay the same); DeploymentTurn says
// which decisions it describes card by card.
func TestChoicesMatchLegalActions(t *testing.T) {
	rs := rules.Default()
	var buf, scratch []Action
	var c Choices
	listed, described := 0, 0
	for n := 2; n <= 4; n++ {
		for seed := uint64(0); seed < 300; seed++ {
			s, err := New(rs, Config{Factions: allFactions[:n], Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			bot := NewRNG(seed ^ 0xc401)
			for !s.IsTerminal() {
				buf = s.LegalActions(buf)
				s.FillChoices(&c, scratch)
				if c.Len() != len(buf) {
					t.Fatalf("%dp seed %d: Choices.Len %d, LegalActions %d: %v", n, seed, c.Len(), len(buf), buf)
				}
				for k, a := range buf {
					if got := c.At(k); got != a {
						t.Fatalf("%dp seed %d: Choices.At(%d) = %v, LegalActions has %v", n, seed, k, got, a)
					}
				}
				if s.DeploymentTurn() != c.Deploy() {
					t.Fatalf("%dp seed %d: DeploymentTurn %v, Choices.Deploy %v", n, seed, s.DeploymentTurn(), c.Deploy())
				}
				if c.Deploy() {
					if got := deployList(s, &c); !slices.Equal(got, buf) {
						t.Fatalf("%dp seed %d: DeployCard describes %v, LegalActions has %v", n, seed, got, buf)
					}
				}
				if c.kind == chList {
					listed++
				} else {
					described++
				}
				s.Apply(buf[bot.Intn(len(buf))])
			}
			if s.FillChoices(&c, nil); c.Len() != 0 {
				t.Fatal("Choices of a finished game are not empty")
			}
		}
	}
	t.Logf("%d decisions described, %d listed", described, listed)
}

// deployList lists a Deployment turn from DeployCard, as an agent scoring
// it without the list walks it.
func deployList(s *State, c *Choices) []Action {
	var rows []int
	for r := 0; r < s.NumRows(); r++ {
		if c.OpenRows()&(1<<uint(r)) != 0 {
			rows = append(rows, r)
		}
	}
	var l []Action
	for j := 0; j < c.NumCards(); j++ {
		d, spec, nspec, nplace := c.DeployCard(j)
		if nspec > 0 {
			switch spec {
			case ActShield:
				l = append(l, ShieldAction(d))
			case ActWave:
				l = append(l, WaveAction(d))
			case ActPlaceAt:
				for _, r := range rows {
					for pos := s.InsertFloor(r); pos < s.RowLen(r); pos++ {
						l = append(l, PlaceAtAction(d, r, pos))
					}
				}
			}
		}
		for _, r := range rows[:nplace] {
			l = append(l, PlaceAction(d, r))
		}
	}
	return append(l, PassAction())
}

// divBy must divide exactly every action index a plain turn can have.
func TestDivBy(t *testing.T) {
	for m := 1; m <= maxRows; m++ {
		for k := 0; k < 64*maxRows; k++ {
			if got := uint32(k) * divBy[m] >> 16; got != uint32(k/m) {
				t.Fatalf("%d/%d: got %d", k, m, got)
			}
		}
	}
}
