package eclipse

import (
	"math"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/game/gametest"
)

func TestSuite(t *testing.T) { gametest.Run(t, Game{}) }

func TestSuiteSecondEditionWithRetreat(t *testing.T) {
	rs, _ := Edition(SecondEdition)
	r := *rs.clone()
	r.Rules.Retreat = [2]bool{true, true}
	r.Rules.AllowWaste = true
	gametest.RandomGames(t, &r)
	gametest.Determinism(t, &r)
	gametest.CloneIndependence(t, &r)
	gametest.ZeroAllocs(t, &r)
	r = *r.clone()
	r.Rules.RetreatCompletes = RetreatRoundEnd
	gametest.RandomGames(t, &r)
}

// playMC plays n battles of b through the engine with both players on bot,
// counting each outcome.
func playMC(t testing.TB, b *Battle, bot game.Agent, n int) (counts [5]int, rounds float64) {
	s := NewState(b, 0)
	var buf []game.Action
	for i := 0; i < n; i++ {
		s.Reset(game.SeedFor(42, uint64(i)))
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			s.Apply(bot.Choose(s, buf))
		}
		counts[s.Outcome()]++
		rounds += float64(s.Length())
	}
	return counts, rounds / float64(n)
}

// The engine and the study must agree: over 31 battles, each outcome's
// frequency in 4,000 engine battles lies within 4 standard errors of the
// study's exact chance (a 95% interval over ~90 comparisons would fail by
// chance; a correct engine fails this about once in 15,000 comparisons).
// The seeds are fixed, so the test is deterministic.
func TestEngineAgreesWithStudy(t *testing.T) {
	rs := Default()
	rules := rs.Rules
	type battle struct {
		name string
		b    *Battle
	}
	var battles []battle
	add := func(name string, b *Battle, err error) {
		if err != nil {
			t.Fatal(err)
		}
		battles = append(battles, battle{name, b})
	}
	for _, c := range referenceCases() {
		att, def := c.att, c.def
		b, err := NewBattle(Force{Name: "a", Types: att}, Force{Name: "d", Types: def, NPC: c.npc}, rules)
		add(c.name, b, err)
	}
	for _, p := range [][2]string{{"2c2i", "dci"}, {"3c", "5i"}, {"dc", "ancient2"}, {"2c", "ancient"}} {
		b, err := rs.Battle(rs.FleetIndex(p[0]), rs.FleetIndex(p[1]))
		add(p[0]+" vs "+p[1], b, err)
	}
	rng := game.NewRNG(7)
	for i := 0; i < 20; i++ {
		b, err := NewBattle(randomForce(&rng, "a"), randomForce(&rng, "d"), rules)
		add("random", b, err)
	}
	const n = 4000
	bot := NewPolicyBot(KillLargest)
	for _, bt := range battles {
		res, err := Solve(bt.b, KillLargest, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		counts, rounds := playMC(t, bt.b, bot, n)
		exact := []float64{res.AttackerWins, res.DefenderWins, res.Stalemate}
		for o, p := range exact {
			se := math.Sqrt(p*(1-p)/n) + 1e-9
			got := float64(counts[o]) / n
			if math.Abs(got-p) > 4*se+0.5/n {
				t.Errorf("%s: outcome %q: engine %.4f (%d/%d), study %.4f (4σ = %.4f)", bt.name, OutcomeName(o), got, counts[o], n, p, 4*se)
			}
		}
		if counts[AttackerLeaves]+counts[DefenderLeaves] != 0 {
			t.Errorf("%s: retreats without retreat allowed", bt.name)
		}
		if math.Abs(rounds-res.Rounds) > 0.15*res.Rounds+0.1 {
			t.Errorf("%s: rounds: engine %.3f, study %.3f", bt.name, rounds, res.Rounds)
		}
	}
}

// randomForce is a small force of 1–2 types of random profile.
func randomForce(rng *game.RNG, name string) Force {
	f := Force{Name: name}
	for k := 1 + rng.Intn(2); k > 0; k-- {
		var ty Type
		ty.Name = "T"
		ty.Count = 1 + rng.Intn(2)
		ty.Hull = rng.Intn(3)
		ty.Computer = rng.Intn(3)
		ty.Shield = rng.Intn(2)
		ty.Init = rng.Intn(4)
		ty.Size = 1 + rng.Intn(4)
		ty.Cost = ty.Size
		ty.Cannons[rng.Intn(4)] = 1 + rng.Intn(2)
		if rng.Intn(3) == 0 {
			ty.Missiles[rng.Intn(2)] = 1 + rng.Intn(2)
		}
		f.Types = append(f.Types, ty)
	}
	return f
}

// The optimal bot follows the study's minimax: the engine's battles with it
// on both seats agree with Solve(…, Optimal), on the reference battles
// (where optimal differs from kill_largest: 1/16 and 56/125) and on
// default fleets.
func TestOptimalBotAgreesWithStudy(t *testing.T) {
	rs := Default()
	var battles []*Battle
	for _, c := range referenceCases() {
		battles = append(battles, c.battle(t))
	}
	for _, p := range [][2]string{{"dci", "2c2i"}, {"2c", "ancient"}} {
		b, err := rs.Battle(rs.FleetIndex(p[0]), rs.FleetIndex(p[1]))
		if err != nil {
			t.Fatal(err)
		}
		battles = append(battles, b)
	}
	const n = 4000
	bot := NewOptimalBot(1_000_000)
	for i, b := range battles {
		res, err := Solve(b, Optimal, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		counts, _ := playMC(t, b, bot, n)
		for o, p := range []float64{res.AttackerWins, res.DefenderWins, res.Stalemate} {
			se := math.Sqrt(p*(1-p)/n) + 1e-9
			if got := float64(counts[o]) / n; math.Abs(got-p) > 4*se+0.5/n {
				t.Errorf("battle %d: outcome %q: engine %.4f, study %.4f (4σ = %.4f)", i, OutcomeName(o), got, p, 4*se)
			}
		}
	}
	// The optimal targeting case: kill_largest spreads the missiles
	// otherwise than optimal, and only optimal reaches 1/16.
	b := referenceCases()[3].battle(t)
	kl, _ := Solve(b, KillLargest, 1000)
	if kl.AttackerWins >= 1.0/16 {
		t.Fatalf("kill_largest %v: the case no longer tells the policies apart", kl.AttackerWins)
	}
}

// greedy is kill_largest under the name the commands default to.
func TestBotNames(t *testing.T) {
	rs := Default()
	for _, n := range rs.BotNames() {
		a, err := rs.NewBot(n, nil, n, 1)
		if err != nil || a == nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	g, _ := rs.NewBot("greedy", nil, "greedy", 1)
	if pb, ok := g.(*PolicyBot); !ok || pb.p != KillLargest {
		t.Fatalf("greedy is %T", g)
	}
	if _, err := rs.NewBot("max_damage", nil, "max_damage", 1); err == nil {
		t.Fatal("the NPC rule as a player bot")
	}
}
