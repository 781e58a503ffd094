package eclipse

import (
	"math"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// The threshold retreat (Q3) in the study and in the engine agree: over
// default fleet pairs and random small battles, both roles allowed to
// retreat, at three thresholds, each of the five outcomes' frequency in
// 3,000 engine battles (RetreatBot around kill_largest on both seats) lies
// within 4 standard errors of SolveRetreat's exact chance; and retreats
// happen (a study that never retreated would fail).
func TestEngineAgreesWithStudyRetreat(t *testing.T) {
	rs := Default()
	rules := rs.Rules
	rules.Retreat = [2]bool{true, true}
	var battles []*Battle
	for _, p := range [][2]string{{"2c2i", "dci"}, {"3c", "5i"}, {"dc", "ancient2"}, {"1c", "2i"}} {
		b0, err := rs.Battle(rs.FleetIndex(p[0]), rs.FleetIndex(p[1]))
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewBattle(b0.Forces[Attacker], b0.Forces[Defender], rules)
		if err != nil {
			t.Fatal(err)
		}
		battles = append(battles, b)
	}
	rng := game.NewRNG(11)
	for i := 0; i < 8; i++ {
		b, err := NewBattle(randomForce(&rng, "a"), randomForce(&rng, "d"), rules)
		if err != nil {
			t.Fatal(err)
		}
		battles = append(battles, b)
	}
	const n = 3000
	left := 0.0
	for _, theta := range []float64{0.25, 0.5, 0.75} {
		for bi, b := range battles {
			res, err := SolveRetreat(b, KillLargest, theta, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			exact := [5]float64{res.AttackerWins, res.DefenderWins, res.Stalemate, res.AttackerLeaves, res.DefenderLeaves}
			sum := 0.0
			for _, p := range exact {
				sum += p
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("θ %.2f battle %d: the outcomes sum to %.12f", theta, bi, sum)
			}
			left += res.AttackerLeaves + res.DefenderLeaves
			bot := NewRetreatBot(NewPolicyBot(KillLargest), KillLargest, theta, 1_000_000)
			counts, rounds := playMC(t, b, bot, n)
			for o, p := range exact {
				se := math.Sqrt(p*(1-p)/n) + 1e-9
				got := float64(counts[o]) / n
				if math.Abs(got-p) > 4*se+0.5/n {
					t.Errorf("θ %.2f battle %d: outcome %q: engine %.4f (%d/%d), study %.4f (4σ = %.4f)", theta, bi, OutcomeName(o), got, counts[o], n, p, 4*se)
				}
			}
			if math.Abs(rounds-res.Rounds) > 0.15*res.Rounds+0.1 {
				t.Errorf("θ %.2f battle %d: rounds: engine %.3f, study %.3f", theta, bi, rounds, res.Rounds)
			}
		}
	}
	t.Logf("expected retreats in all: %.3f", left)
	if left < 1 {
		t.Errorf("the battles retreat %.3f times in all: the test does not exercise retreat", left)
	}
}

// Where no role may retreat, the retreat study is the never study; a
// threshold outside (0, 1] and a retreat completed at the round's end
// are refused.
func TestSolveRetreatNeverAllowed(t *testing.T) {
	rs := Default()
	b, err := rs.Battle(rs.FleetIndex("2c2i"), rs.FleetIndex("dci"))
	if err != nil {
		t.Fatal(err)
	}
	never, err := Solve(b, Optimal, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	th, err := SolveRetreat(b, Optimal, 0.9, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(th.AttackerWins-never.AttackerWins) > 1e-12 || th.AttackerLeaves != 0 || th.DefenderLeaves != 0 {
		t.Errorf("retreat not allowed: %+v, never %+v", th.Outcome, never.Outcome)
	}
	for _, bad := range []float64{0, -0.1, 1.5, math.NaN()} {
		if _, err := SolveRetreat(b, Optimal, bad, 1_000_000); err == nil {
			t.Errorf("threshold %v accepted", bad)
		}
	}
	r := b.Rules
	r.Retreat, r.RetreatCompletes = [2]bool{true, true}, RetreatRoundEnd
	b2, err := NewBattle(b.Forces[Attacker], b.Forces[Defender], r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SolveRetreat(b2, Optimal, 0.5, 1_000_000); err == nil {
		t.Error("a retreat completed at the round's end was studied")
	}
}

// A bot retreats by threshold with the parameter retreat=θ
// (kill_largest:retreat=0.4); anything but never or a chance in (0, 1] is
// refused, as is another parameter.
func TestRetreatBotSpec(t *testing.T) {
	rs := Default()
	a, err := rs.NewBot("kill_largest", map[string]string{"retreat": "0.4"}, "kill_largest:retreat=0.4", 1)
	if err != nil {
		t.Fatal(err)
	}
	if rb, ok := a.(*RetreatBot); !ok || rb.theta != 0.4 || rb.policy != KillLargest {
		t.Fatalf("bot %T %+v", a, a)
	}
	if a, err := rs.NewBot("greedy", map[string]string{"retreat": "never"}, "greedy:retreat=never", 1); err != nil {
		t.Fatal(err)
	} else if _, ok := a.(*PolicyBot); !ok {
		t.Fatalf("retreat=never gave %T", a)
	}
	for _, v := range []string{"0", "1.5", "NaN", "Inf", "x"} {
		if _, err := rs.NewBot("kill_largest", map[string]string{"retreat": v}, "kill_largest:retreat="+v, 1); err == nil {
			t.Errorf("retreat=%s accepted", v)
		}
	}
	if _, err := rs.NewBot("kill_largest", map[string]string{"depth": "2"}, "kill_largest:depth=2", 1); err == nil {
		t.Error("another parameter accepted")
	}
}

// Why the study has no `optimal` retreat (docs/rules-eclipse.md, Q3): a
// side that retreats scores 0 (Q4), the least any end gives it, so no
// retreat raises the retreating side's win share above fighting on. Over
// default pairs and random small battles, with one role at a time allowed
// to retreat, every threshold leaves that role's share at most its
// never-retreating share — the minimax over retreat flags, which may
// choose any of these and fighting, is therefore never retreating.
func TestRetreatNeverRaisesWinShare(t *testing.T) {
	rs := Default()
	var pairs [][2]Force
	for _, p := range [][2]string{{"2c2i", "dci"}, {"3c", "5i"}, {"dc", "ancient2"}, {"1c", "2i"}} {
		b, err := rs.Battle(rs.FleetIndex(p[0]), rs.FleetIndex(p[1]))
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, b.Forces)
	}
	rng := game.NewRNG(5)
	for i := 0; i < 12; i++ {
		pairs = append(pairs, [2]Force{randomForce(&rng, "a"), randomForce(&rng, "d")})
	}
	retreats := 0.0
	for _, role := range []int{Attacker, Defender} {
		rules := rs.Rules
		rules.Retreat[role] = true
		rules.StalemateShare = 0.5 // a stalemate is no retreat: it may score
		for bi, p := range pairs {
			b, err := NewBattle(p[0], p[1], rules)
			if err != nil {
				t.Fatal(err)
			}
			for _, pol := range []Policy{KillLargest, Optimal} {
				never, err := Solve(b, pol, 1_000_000)
				if err != nil {
					t.Fatal(err)
				}
				for _, theta := range []float64{0.1, 0.25, 0.5, 0.75, 1} {
					r, err := SolveRetreat(b, pol, theta, 1_000_000)
					if err != nil {
						t.Fatal(err)
					}
					retreats += r.AttackerLeaves + r.DefenderLeaves
					gain := r.AttackerShare(&rules) - never.AttackerShare(&rules)
					if role == Defender {
						gain = -gain
					}
					if gain > 1e-12 {
						t.Errorf("role %d battle %d %s θ %.2f: retreating raised the share by %.3g", role, bi, pol, theta, gain)
					}
				}
			}
		}
	}
	if retreats < 1 {
		t.Fatalf("retreats %.3f: the test does not exercise retreat", retreats)
	}
}

// The engine's optimal with retreat=θ plays the study's: RetreatBot
// declaring by θ around an OptimalBot that places hits by the retreating
// game's minimax. Each of the five outcomes of 3,000 battles lies within
// 4σ of SolveRetreat(…, Optimal, θ), on default pairs and random small
// battles with both roles allowed to retreat.
func TestOptimalRetreatBotAgreesWithStudy(t *testing.T) {
	rs := Default()
	rules := rs.Rules
	rules.Retreat = [2]bool{true, true}
	var battles []*Battle
	for _, p := range [][2]string{{"2c2i", "dci"}, {"dc", "ancient2"}, {"1c", "2i"}} {
		b0, err := rs.Battle(rs.FleetIndex(p[0]), rs.FleetIndex(p[1]))
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewBattle(b0.Forces[Attacker], b0.Forces[Defender], rules)
		if err != nil {
			t.Fatal(err)
		}
		battles = append(battles, b)
	}
	rng := game.NewRNG(23)
	for i := 0; i < 6; i++ {
		b, err := NewBattle(randomForce(&rng, "a"), randomForce(&rng, "d"), rules)
		if err != nil {
			t.Fatal(err)
		}
		battles = append(battles, b)
	}
	const n = 3000
	left := 0.0
	for _, theta := range []float64{0.3, 0.6} {
		for bi, b := range battles {
			res, err := SolveRetreat(b, Optimal, theta, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			left += res.AttackerLeaves + res.DefenderLeaves
			counts, _ := playMC(t, b, NewOptimalRetreatBot(1_000_000, theta), n)
			exact := [5]float64{res.AttackerWins, res.DefenderWins, res.Stalemate, res.AttackerLeaves, res.DefenderLeaves}
			for o, p := range exact {
				se := math.Sqrt(p*(1-p)/n) + 1e-9
				if got := float64(counts[o]) / n; math.Abs(got-p) > 4*se+0.5/n {
					t.Errorf("θ %.1f battle %d: outcome %q: engine %.4f, study %.4f (4σ = %.4f)", theta, bi, OutcomeName(o), got, p, 4*se)
				}
			}
		}
	}
	if left < 1 {
		t.Errorf("the battles retreat %.3f times in all: the test does not exercise retreat", left)
	}
}
