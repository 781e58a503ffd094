package ai

import (
	"math"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// The fitted row model must predict who takes a row on games it was not
// fitted on better than the hand-made leaf's soft-sign chance does, and
// the fit must be deterministic. Held-out games: greedy self-play with
// other seeds.
func TestRowModelPredicts(t *testing.T) {
	rs := rules.Default()
	c0 := cpuSeconds()
	m := fitRows(rs, 2, fitGames)
	t.Logf("fit: %.3f s CPU, %d positions, %d samples, w=%.3f", cpuSeconds()-c0, m.positions, m.samples, m.w)
	if !m.ok {
		t.Fatal("fit failed on the default ruleset")
	}
	if m2 := fitRows(rs, 2, fitGames); m2.w != m.w {
		t.Fatal("two fits of one ruleset differ")
	}
	fit, hand, n := rowLogLoss(t, rs, m)
	t.Logf("held-out log loss per row and seat (%d): fitted %.4f, hand-made %.4f", n, fit, hand)
	if fit >= hand {
		t.Fatalf("fitted log loss %.4f not below the hand-made leaf's %.4f", fit, hand)
	}
}

// rowLogLoss plays 200 greedy games and returns the mean log loss of m's
// and of the hand-made leaf's chance of taking each row with cards (sigma
// 3), over every seat and every third Deployment position.
func rowLogLoss(t *testing.T, rs *rules.Ruleset, m *rowModel) (fit, hand float64, n int) {
	var x rowScratch
	var rsc handlers.RowScore
	var f [nRowFeat]float64
	var buf []engine.Action
	ll := func(q float64, y bool) float64 {
		q = min(max(q, 1e-6), 1-1e-6)
		if y {
			return -math.Log(q)
		}
		return -math.Log(1 - q)
	}
	for g := 0; g < 200; g++ {
		fs := []string{factions[g%4], factions[(g+1+g/4)%4]}
		if fs[0] == fs[1] {
			continue
		}
		s, err := engine.New(rs, engine.Config{Factions: fs, Seed: engine.SeedFor(999, uint64(g))})
		if err != nil {
			t.Fatal(err)
		}
		ag := []Agent{greedy.New(uint64(g)), greedy.New(uint64(g) + 1)}
		type pt struct {
			t, p      int
			fit, hand float64
		}
		var pts []pt
		round := s.Round()
		for k := 0; !s.IsTerminal(); k++ {
			if s.Phase() == engine.Deployment && k%3 == 0 {
				x.hands(s)
				for r := 0; r < s.NumRows(); r++ {
					tg := s.RowTarget(r)
					if tg < 0 || s.RowLen(r) == 0 {
						continue
					}
					res := s.ScoreRow(r, &rsc)
					for p := 0; p < 2; p++ {
						x.rowFeatures(s, &res, r, p, 2, &f)
						mg := float64(res.Power[p] - res.Power[1-p])
						if !res.HasCards[p] {
							mg = math.Inf(-1)
						}
						if res.Combo[p] {
							mg += 20
						}
						h := 0.0
						if !math.IsInf(mg, -1) {
							h = 0.5 + 0.5*softSign(mg, 3)
						}
						pts = append(pts, pt{tg, p, m.prob(&f), h})
					}
				}
			}
			a, _ := Decide(ag[s.CurrentPlayer()], s, &buf)
			s.Apply(a)
			if s.IsTerminal() || s.Round() != round {
				round = s.Round()
				for _, q := range pts {
					y := s.HeldTargets(q.p)&(1<<q.t) != 0
					fit += ll(q.fit, y)
					hand += ll(q.hand, y)
					n++
				}
				pts = pts[:0]
			}
		}
	}
	return fit / float64(n), hand / float64(n), n
}

// On a modified ruleset (every effect removed, every power tripled) the
// leaf is fitted anew, its own fit predicts that ruleset's rows better than
// the hand-made chance, and the bot with it still beats greedy.
func TestRowModelOtherRuleset(t *testing.T) {
	rs := keepEffects(rules.Default(), "none")
	for i := range rs.Cards {
		rs.Cards[i].Power *= 3
	}
	m := rowModelFor(rs, 2)
	if !m.ok {
		t.Fatal("fit failed on the modified ruleset")
	}
	if d := rowModelFor(rules.Default(), 2); d.w == m.w {
		t.Fatal("the modified ruleset got the default ruleset's fit")
	}
	fit, hand, n := rowLogLoss(t, rs, m)
	t.Logf("modified ruleset, held-out log loss (%d): fitted %.4f, hand-made %.4f; w=%.3f", n, fit, hand, m.w)
	if fit >= hand {
		t.Fatalf("fitted log loss %.4f not below the hand-made leaf's %.4f", fit, hand)
	}
	share, games := 0.0, 20
	for g := 0; g < games; g++ {
		fs := []string{factions[(g/2)%4], factions[(g/2+1)%4]}
		seat := g % 2
		agents := []Agent{greedy.New(uint64(g)), greedy.New(uint64(g))}
		agents[seat] = mustParse(t, "strong:leaf=fit", uint64(g))
		share += playOne(t, rs, fs, agents, engine.SeedFor(12, uint64(g/2)))[seat]
	}
	if share/float64(games) < 0.6 {
		t.Fatalf("strong:leaf=fit's win share against greedy on the modified ruleset %.2f, want >= 0.6", share/float64(games))
	}
}

// A game between two strong:leaf=fit bots replays action for action, and
// a decision allocates nothing once the model is fitted and the buffers
// have grown.
func TestStrongFitDeterministic(t *testing.T) {
	rs := rules.Default()
	play := func() []engine.Action {
		s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 5})
		ag := []Agent{mustParse(t, "strong:leaf=fit,h=3", 1), mustParse(t, "strong:leaf=fit,h=3", 2)}
		var out, buf []engine.Action
		for !s.IsTerminal() {
			a, _ := Decide(ag[s.CurrentPlayer()], s, &buf)
			out = append(out, a)
			s.Apply(a)
		}
		return out
	}
	a, b := play(), play()
	if len(a) != len(b) {
		t.Fatalf("games of %d and %d decisions", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("decision %d: %v then %v", i, a[i], b[i])
		}
	}
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 6})
	st := mustParse(t, "strong:leaf=fit", 3)
	var buf []engine.Action
	for k := 0; k < 12; k++ {
		a, _ := Decide(st, s, &buf)
		s.Apply(a)
	}
	legal := s.LegalActions(nil)
	if n := testing.AllocsPerRun(20, func() { st.Choose(s, legal) }); n != 0 {
		t.Fatalf("a decision allocates %.0f times", n)
	}
}
