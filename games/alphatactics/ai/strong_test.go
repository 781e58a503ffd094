package ai

import (
	"math"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// The strong bot must beat greedy clearly: paired deals, both seat orders.
func TestStrongBeatsGreedy(t *testing.T) {
	rs := rules.Default()
	share, n := 0.0, 60
	for g := 0; g < n; g++ {
		fs := []string{factions[(g/2)%4], factions[(g/2+1+g/8)%4]}
		if fs[0] == fs[1] {
			fs[1] = factions[(g/2+2)%4]
		}
		seat := g % 2
		agents := []Agent{greedy.New(uint64(g)), greedy.New(uint64(g))}
		agents[seat] = mustParse(t, "strong", uint64(g))
		share += playOne(t, rs, fs, agents, engine.SeedFor(11, uint64(g/2)))[seat]
	}
	if share/float64(n) < 0.6 {
		t.Fatalf("strong's win share against greedy %.2f, want >= 0.6", share/float64(n))
	}
}

// Same seed, same game: a whole game between two strong bots replays
// action for action.
func TestStrongDeterministic(t *testing.T) {
	rs := rules.Default()
	play := func() []engine.Action {
		s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 5})
		ag := []Agent{mustParse(t, "strong", 1), mustParse(t, "strong", 2)}
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
		t.Fatalf("%d actions, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("action %d: %v, then %v", i, a[i], b[i])
		}
	}
}

// A strong decision allocates nothing once its buffers have grown.
func TestStrongNoAllocs(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 3})
	st := NewStrong(1, 4, 3)
	st.Margin = 100 // always search
	legal := s.LegalActions(nil)
	st.Choose(s, legal)
	if n := testing.AllocsPerRun(20, func() { st.Choose(s, legal) }); n != 0 {
		t.Fatalf("%v allocations per decision", n)
	}
}

func TestParseStrong(t *testing.T) {
	r, err := Parse("strong:search=race,z=1.25,eps=0.02,dmin=3,dmax=20", 1)
	if err != nil {
		t.Fatal(err)
	}
	if st := r.(*Strong); !st.Race || st.Flat || st.Z != 1.25 || st.Eps != 0.02 || st.DMin != 3 || st.DMax != 20 {
		t.Fatalf("parsed %+v", st)
	}
	a, err := Parse("Strong:k=6,ke=10,dets=8,d1=2,cand=diverse,h=0,sigma=2.5,margin=0.5,roll=greedy,search=flat", 1)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := a.(*Strong)
	if !ok || st.K != 6 || st.KE != 10 || st.Dets != 8 || st.D1 != 2 || !st.Diverse || st.Horizon != 0 || st.Sigma != 2.5 || st.Margin != 0.5 || !st.GreedyRoll || !st.Flat {
		t.Fatalf("parsed %+v", a)
	}
	f, err := Parse("strong:leaf=fit,h=now", 1)
	if err != nil {
		t.Fatal(err)
	}
	if st := f.(*Strong); !st.Fit || st.Horizon != -1 {
		t.Fatalf("parsed %+v", st)
	}
	if st := mustParse(t, "strong:leaf=hand", 1).(*Strong); st.Fit || st.Horizon != DefaultStrongHorizon {
		t.Fatalf("parsed %+v", st)
	}
	g := mustParse(t, "strong:roll=gain,beta=0.5,rdets=2/3/4,rk=8/12", 1).(*Strong)
	if !g.GainRoll || g.GreedyRoll || g.Beta != 0.5 || !slices.Equal(g.RDets, []int{2, 3, 4}) || !slices.Equal(g.RK, []int{8, 12}) {
		t.Fatalf("parsed %+v", g)
	}
	if st := mustParse(t, "strong", 1).(*Strong); st.GainRoll || st.Beta != DefaultStrongBeta || st.RDets != nil || st.RK != nil {
		t.Fatalf("parsed %+v", st)
	}
	l := mustParse(t, "strong:roll=lean,lx=2,reps=3", 1).(*Strong)
	if !l.Lean || l.GainRoll || l.GreedyRoll || l.LeanExact != 2 || l.Reps != 3 {
		t.Fatalf("parsed %+v", l)
	}
	if sc := mustParse(t, "strong:k=64,ls=2,lk=8", 1).(*Strong); sc.Lean || sc.ScreenDeals != 2 || sc.ScreenKeep != 8 {
		t.Fatalf("parsed %+v", sc)
	}
	if p := mustParse(t, "strong:pol=cand,teach=ismcts,ti=800,pg=20,pf=noleaf,prior=0.5", 1).(*Strong); p.Pol != PolCand || p.PolTeach != PolTeachISMCTS ||
		p.PolIters != 800 || p.PolGames != 20 || !p.PolNoLeaf || p.Prior != 0.5 {
		t.Fatalf("parsed %+v", p)
	}
	if p := mustParse(t, "strong:pol=only,teach=strong,pf=all", 1).(*Strong); p.Pol != PolOnly || p.PolTeach != PolTeachStrong || p.PolNoLeaf {
		t.Fatalf("parsed %+v", p)
	}
	if st := mustParse(t, "strong", 1).(*Strong); st.Pol != PolNone || st.Prior != 0 {
		t.Fatalf("parsed %+v", st)
	}
	if st := mustParse(t, "strong", 1).(*Strong); st.Lean || st.LeanExact != 0 || st.Reps != 0 || st.ScreenDeals != 0 || st.ScreenKeep != DefaultStrongK {
		t.Fatalf("parsed %+v", st)
	}
	for _, bad := range []string{"strong:lx=-1", "strong:lx=x", "strong:reps=1001", "strong:reps=", "strong:roll=leans", "strong:ls=-2", "strong:lk=x",
		"strong:k=0", "strong:dets=65", "strong:h=-1", "strong:h=never", "strong:leaf=learned", "strong:leaf=", "strong:sigma=nan",
		"strong:margin=inf", "strong:iters=3", "strong:k=x", "strong:roll=minimax", "strong:search=tree",
		"strong:d1=-1", "strong:d1=65", "strong:cand=all", "strong:dmin=1", "strong:dmax=65", "strong:z=-1",
		"strong:z=nan", "strong:eps=inf", "strong:eps=11", "strong:search=races", "strong:beta=-1", "strong:beta=nan",
		"strong:rdets=2/0", "strong:rdets=", "strong:rdets=2//3", "strong:rk=65", "strong:rk=1/2/3/4/5/6/7/8/9", "strong:roll=gains",
		"strong:pol=all", "strong:pol=", "strong:teach=greedy", "strong:ti=9", "strong:ti=x", "strong:pg=4", "strong:pg=5001",
		"strong:pf=some", "strong:prior=-1", "strong:prior=nan", "strong:prior=11"} {
		if _, err := Parse(bad, 1); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// With cand=diverse a Deployment turn's candidates are Greedy's best K, then
// each hand card's best play, each row's best card and passing, each once;
// other decisions keep Greedy's best KE.
func TestStrongDiverseCandidates(t *testing.T) {
	rs := rules.Default()
	for seed := uint64(1); seed <= 40; seed++ {
		s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: seed})
		ag := []Agent{greedy.New(seed), greedy.New(seed + 1)}
		st := NewStrong(seed, 2, 1)
		st.Diverse = true
		var buf []engine.Action
		for steps := 0; !s.IsTerminal(); steps++ {
			legal := s.LegalActions(nil)
			if steps%3 == 0 && len(legal) > 1 {
				st.rank.Begin(s)
				st.scores = st.scores[:0]
				for _, a := range legal {
					st.scores = append(st.scores, st.rank.Score(s, a))
				}
				st.candidates(legal, s.Round())
				checkDiverse(t, st, legal)
			}
			a, _ := Decide(ag[s.CurrentPlayer()], s, &buf)
			s.Apply(a)
		}
	}
}

func checkDiverse(t *testing.T, st *Strong, legal []engine.Action) {
	t.Helper()
	deploy := legal[len(legal)-1].Kind() == engine.ActPass
	in := map[int]bool{}
	for _, i := range st.cand {
		if in[i] {
			t.Fatalf("%v twice among %v", legal[i], st.cand)
		}
		in[i] = true
	}
	top := min(st.K, len(legal))
	if !deploy {
		top = min(st.KE, len(legal))
		if len(st.cand) != top {
			t.Fatalf("%d candidates in a decision of %d actions, want %d", len(st.cand), len(legal), top)
		}
	}
	// The first K are Greedy's best, best first.
	for c := 1; c < top; c++ {
		if st.scores[st.cand[c]] > st.scores[st.cand[c-1]] {
			t.Fatalf("candidates not in Greedy's order: %v", st.cand)
		}
	}
	for i := range legal {
		if !in[i] && top > 0 && st.scores[i] > st.scores[st.cand[top-1]] {
			t.Fatalf("%v (%.3f) better than Greedy's K-th yet left out", legal[i], st.scores[i])
		}
	}
	if !deploy {
		return
	}
	bestCard, bestRow := map[int]float64{}, map[int]float64{}
	for i, a := range legal {
		switch a.Kind() {
		case engine.ActPass:
			if !in[i] {
				t.Fatal("passing left out")
			}
			continue
		case engine.ActPlace, engine.ActPlaceAt:
			if v, ok := bestRow[a.Row()]; !ok || st.scores[i] > v {
				bestRow[a.Row()] = st.scores[i]
			}
		}
		if v, ok := bestCard[a.Card()]; !ok || st.scores[i] > v {
			bestCard[a.Card()] = st.scores[i]
		}
	}
	for c, v := range bestCard {
		found := false
		for _, i := range st.cand {
			a := legal[i]
			found = found || a.Kind() != engine.ActPass && a.Card() == c && st.scores[i] == v
		}
		if !found {
			t.Fatalf("card %d's best play (%.3f) not among the candidates", c, v)
		}
	}
	for r, v := range bestRow {
		found := false
		for _, i := range st.cand {
			a := legal[i]
			k := a.Kind()
			found = found || (k == engine.ActPlace || k == engine.ActPlaceAt) && a.Row() == r && st.scores[i] == v
		}
		if !found {
			t.Fatalf("row %d's best card (%.3f) not among the candidates", r, v)
		}
	}
	if len(st.cand) > len(bestCard)+len(bestRow)+1+st.K {
		t.Fatalf("%d candidates, more than K + cards + rows + pass", len(st.cand))
	}
}

// A diverse decision with a cheap first round allocates nothing either.
func TestStrongDiverseNoAllocs(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 3})
	st := NewStrong(1, 3, 3)
	st.Diverse, st.D1 = true, 1
	legal := s.LegalActions(nil)
	st.Choose(s, legal)
	if n := testing.AllocsPerRun(20, func() { st.Choose(s, legal) }); n != 0 {
		t.Fatalf("%v allocations per decision", n)
	}
}

// leaf's cache of the held targets' scores (kept across the states of a
// decision) gives the value computing them afresh gives, to the bit: warm
// and cold leaves agree at every Deployment state of whole random games,
// 2 and 4 seats, as targets change hands between rounds.
func TestStrongLeafHeldCache(t *testing.T) {
	rs := rules.Default()
	for _, np := range []int{2, 4} {
		for seed := uint64(1); seed <= 6; seed++ {
			s, err := engine.New(rs, engine.Config{Factions: factions[:np], Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			warm, cold := NewStrong(1, 4, 3), NewStrong(1, 4, 3)
			rnd := NewRandom(seed)
			held, checked := false, 0
			for !s.IsTerminal() {
				if s.Phase() == engine.Deployment {
					for me := 0; me < np; me++ {
						cold.heldOK = 0
						if w, c := warm.leaf(s, me), cold.leaf(s, me); w != c {
							t.Fatalf("%d seats, seed %d: warm leaf %v, cold %v", np, seed, w, c)
						}
						held = held || s.HeldTargets(me) != 0
						checked++
					}
				}
				a, _ := rnd.Sample(s)
				s.Apply(a)
			}
			if !held || checked == 0 {
				t.Fatalf("%d seats, seed %d: no leaf with held targets checked", np, seed)
			}
		}
	}
}

// winChance is winChances' share for one seat to the bit: leaders, ties,
// 2 to 4 seats, near and far from the end.
func TestWinChanceExact(t *testing.T) {
	rng := engine.NewRNG(26)
	for i := 0; i < 20000; i++ {
		n := 2 + rng.Intn(3)
		var vp [4]float64
		for p := 0; p < n; p++ {
			vp[p] = float64(rng.Intn(12)) + float64(rng.Intn(8))*0.37
		}
		rl := rng.Intn(6)
		all := winChances(&vp, n, rl)
		for me := 0; me < n; me++ {
			if got := winChance(&vp, n, rl, me); math.Float64bits(got) != math.Float64bits(all[me]) {
				t.Fatalf("vp %v, %d seats, %d rounds left, seat %d: %v, winChances %v", vp, n, rl, me, got, all[me])
			}
		}
	}
}

// A race whose first elimination comes only at its last deal (DMin = DMax)
// is the flat search on DMax deals, to the choice: the same deals, the same
// continuations, the leader never eliminated.
func TestStrongRaceFlatLimit(t *testing.T) {
	rs := rules.Default()
	searched := 0
	for seed := uint64(1); seed <= 12; seed++ {
		s, _ := engine.New(rs, engine.Config{Factions: []string{factions[seed%4], factions[(seed+1)%4]}, Seed: seed})
		ag := []Agent{greedy.New(seed), greedy.New(seed + 1)}
		var buf []engine.Action
		for steps := 0; !s.IsTerminal(); steps++ {
			legal := s.LegalActions(nil)
			if steps%4 == 0 && len(legal) > 1 {
				race, flat := NewStrong(seed, 6, 5), NewStrong(seed, 6, 5)
				race.Race, race.DMin, race.DMax = true, 5, 5
				flat.Flat = true
				if r, f := race.Choose(s, legal), flat.Choose(s, legal); r != f {
					t.Fatalf("seed %d step %d: race chose %v, flat %v", seed, steps, r, f)
				}
				searched++
			}
			a, _ := Decide(ag[s.CurrentPlayer()], s, &buf)
			s.Apply(a)
		}
	}
	if searched < 100 {
		t.Fatalf("only %d decisions compared", searched)
	}
}

// worse: a candidate leaves the race when its paired difference to the
// leader is significant, or small enough not to matter (Eps), and not on
// noise.
func TestStrongRaceWorse(t *testing.T) {
	b := NewStrong(1, 4, 3)
	b.Z, b.Eps = 2, 0.01
	for _, c := range []struct {
		name  string
		lead  []float64
		other []float64
		worse bool
	}{
		{"clearly worse", []float64{0.6, 0.7, 0.5, 0.6}, []float64{0.4, 0.5, 0.3, 0.4}, true},
		{"identical", []float64{0.6, 0.7, 0.5, 0.6}, []float64{0.6, 0.7, 0.5, 0.6}, true},
		{"noisy", []float64{0.9, 0.1, 0.8, 0.2}, []float64{0.1, 0.9, 0.3, 0.7}, false},
		{"worse by less than the noise", []float64{0.6, 0.7, 0.5, 0.6}, []float64{0.5, 0.8, 0.3, 0.7}, false},
		{"ahead", []float64{0.4, 0.5, 0.3, 0.4}, []float64{0.6, 0.7, 0.5, 0.6}, false},
	} {
		if got := b.worse(c.lead, c.other); got != c.worse {
			t.Errorf("%s: worse = %v, want %v", c.name, got, c.worse)
		}
	}
	b.Eps = 0
	if b.worse([]float64{0.5, 0.5}, []float64{0.5, 0.5}) {
		t.Error("with eps=0 an identical candidate left the race")
	}
}

// A race decision allocates nothing once its buffers have grown.
func TestStrongRaceNoAllocs(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 3})
	st := mustParse(t, "strong:search=race,k=16,dmax=24", 1).(*Strong)
	legal := s.LegalActions(nil)
	st.Choose(s, legal)
	if n := testing.AllocsPerRun(20, func() { st.Choose(s, legal) }); n != 0 {
		t.Fatalf("%v allocations per decision", n)
	}
}

// A decision with gain-weighted rollouts allocates nothing either.
func TestStrongGainNoAllocs(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 3})
	st := mustParse(t, "strong:roll=gain,k=4", 1).(*Strong)
	legal := s.LegalActions(nil)
	st.Choose(s, legal)
	if n := testing.AllocsPerRun(20, func() { st.Choose(s, legal) }); n != 0 {
		t.Fatalf("%v allocations per decision", n)
	}
}

// TestStrongGainRoll: roll=gain's rollout action is always legal, passes
// at the random bot's odds and otherwise draws each action in proportion
// to its weight (1 + Beta·gain; with Beta 0 uniformly, as the random bot),
// and a large Beta does concentrate the draws.
func TestStrongGainRoll(t *testing.T) {
	rs := rules.Default()
	checked, leaned := 0, 0
	for seed := uint64(0); seed < 40; seed++ {
		np := 2 + int(seed)%3
		s, err := engine.New(rs, engine.Config{Factions: factions[:np], Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		walk := NewRandom(seed)
		for k := int(seed) % 7 * 9; k > 0 && !s.IsTerminal(); k-- {
			a, _ := walk.Sample(s)
			s.Apply(a)
		}
		if s.IsTerminal() || !s.DeploymentTurn() {
			continue
		}
		legal := s.LegalActions(nil)
		if len(legal) < 4 {
			continue
		}
		for _, beta := range []float64{0, 1000} {
			st := mustParse(t, "strong:roll=gain", seed).(*Strong)
			st.Beta = beta
			count := map[engine.Action]int{}
			const draws = 4000
			for range draws {
				a := st.gainAction(s)
				if !slices.Contains(legal, a) {
					t.Fatalf("seed %d: %v is not legal", seed, a)
				}
				count[a]++
			}
			// The weights of the last non-pass draw (the same every time:
			// the state does not change).
			cum := st.gcum
			if len(cum) != len(legal)-1 {
				t.Fatalf("seed %d: %d weights for %d actions besides Pass", seed, len(cum), len(legal)-1)
			}
			pass := float64(count[engine.PassAction()]) / draws
			if pass < 0.03 || pass > 0.075 {
				t.Errorf("seed %d, beta %v: passes %.3f, want about 1/%d", seed, beta, pass, PassOdds)
			}
			tot, wmax := cum[len(cum)-1], 0.0
			for k := range cum {
				w := cum[k]
				if k > 0 {
					w -= cum[k-1]
				}
				if beta == 0 && w != 1 {
					t.Fatalf("seed %d: beta 0 weighs action %d %v", seed, k, w)
				}
				wmax = max(wmax, w)
				a := st.gch.At(k)
				if a != legal[k] {
					t.Fatalf("seed %d: weight %d is for %v, legal action %v", seed, k, a, legal[k])
				}
				p := (1 - 1.0/PassOdds) * w / tot
				want := draws * p
				if sd := math.Sqrt(draws * p * (1 - p)); math.Abs(float64(count[a])-want) > 5*sd+1 {
					t.Errorf("seed %d, beta %v: %v drawn %d times, want %.0f ± %.0f", seed, beta, a, count[a], want, sd)
				}
			}
			if beta > 0 && wmax > 2*tot/float64(len(cum)) {
				leaned++
			}
		}
		checked++
	}
	if checked < 10 || leaned < checked/2 {
		t.Fatalf("%d Deployment turns checked, %d with an action of twice the mean weight", checked, leaned)
	}
}

// A decision with the compact continuation (roll=lean) allocates nothing.
func TestStrongLeanNoAllocs(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 3})
	for _, spec := range []string{"strong:roll=lean,k=4", "strong:roll=lean,lx=2,reps=3,k=4", "strong:k=16,ls=1,lk=4"} {
		st := mustParse(t, spec, 1).(*Strong)
		legal := s.LegalActions(nil)
		st.Choose(s, legal)
		if n := testing.AllocsPerRun(20, func() { st.Choose(s, legal) }); n != 0 {
			t.Fatalf("%s: %v allocations per decision", spec, n)
		}
	}
}

// TestLeanLeafMatchesLeaf: before any compact decision, the compact rows
// value a position exactly as the engine's leaf does (the same powers,
// combinations and worths, summed in the same order), whether the rows
// come from the deal's cache or are scored afresh; and a compact
// continuation only adds printed powers of the mover's hand to open rows,
// each replaced by its deck's mean.
func TestLeanLeafMatchesLeaf(t *testing.T) {
	rs := rules.Default()
	checked := 0
	for g := 0; g < 12; g++ {
		np := 2 + g%3
		s, _ := engine.New(rs, engine.Config{Factions: factions[:np], Seed: uint64(40 + g)})
		st := mustParse(t, "strong:roll=lean", 1).(*Strong)
		bot := NewRandom(uint64(g))
		var buf []engine.Action
		for !s.IsTerminal() {
			if s.DeploymentTurn() {
				me := s.CurrentPlayer()
				var d engine.State
				s.CopyInto(&d)
				d.Determinize(me, &st.rng)
				for _, cached := range []bool{true, false} {
					if cached {
						st.leanStart(&d)
					} else {
						st.ldeal = leanDeal{}
						for r := range st.ldeal.ver {
							st.ldeal.ver[r] = d.RowVersion(r) + 1
						}
					}
					st.heldOK = 0
					st.Horizon = 0
					got := st.leanRollout(&d, me)
					st.heldOK = 0
					if want := st.leaf(&d, me); got != want {
						t.Fatalf("game %d (cached %v): lean leaf %v, leaf %v", g, cached, got, want)
					}
					checked++
				}
				// Five compact decisions: the rows' added power is the
				// printed power of cards from the movers' hands.
				st.Horizon = 5
				before := st.lean.play
				st.lrun = before
				st.leanPlay(0)
				after := st.lrun
				for p := 0; p < np; p++ {
					added := 0.0
					for r := 0; r < d.NumRows(); r++ {
						added += after.pw[r][p] - before.pw[r][p]
						if after.pw[r][p] != before.pw[r][p] && before.open&(1<<r) == 0 {
							t.Fatalf("game %d: seat %d added power to closed row %d", g, p, r)
						}
					}
					hand := 0.0
					for j := 0; j < before.nh[p]; j++ {
						hand += before.hand[p][j] - after.hand[p][j]
					}
					// Each card played is replaced by its deck's mean.
					k := (added - hand) / st.lean.mean[p]
					if math.Abs(k-math.Round(k)) > 1e-9 || k < 0 || k > 5 {
						t.Fatalf("game %d: seat %d added %v to the rows, %v left its hand (mean %v)", g, p, added, hand, st.lean.mean[p])
					}
				}
			}
			a, _ := Decide(bot, s, &buf)
			s.Apply(a)
		}
	}
	if checked < 200 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestStrongScreen: with ls the candidates are cut to the lk best by the
// compact rollouts before the search, and the choice is one of them.
func TestStrongScreen(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 3})
	legal := s.LegalActions(nil)
	st := mustParse(t, "strong:k=64,ls=2,lk=3", 1).(*Strong)
	if len(legal) <= 3 {
		t.Fatalf("only %d legal actions", len(legal))
	}
	a := st.Choose(s, legal)
	if len(st.cand) != 3 {
		t.Fatalf("%d candidates after the screen, want 3", len(st.cand))
	}
	// The screen's survivors were its best three by the lean sums: replay
	// the screen alone with the same random stream and compare.
	ref := mustParse(t, "strong:k=64,ls=2,lk=3", 1).(*Strong)
	g := ref.rank
	g.Begin(s)
	ref.scores = ref.scores[:0]
	for _, x := range legal {
		ref.scores = append(ref.scores, g.Score(s, x))
	}
	ref.candidates(legal, s.Round())
	all := append([]int(nil), ref.cand...)
	ref.sum = make([]float64, len(ref.cand))
	ref.heldOK = 0
	ref.Lean = true
	ref.deal(s, legal, s.CurrentPlayer(), ref.cand, 2)
	best := map[int]float64{}
	for c, i := range all {
		best[i] = ref.sum[c]
	}
	kept := map[int]bool{}
	for _, i := range st.cand {
		kept[i] = true
	}
	for _, i := range all {
		for _, j := range st.cand {
			if !kept[i] && best[i] > best[j] {
				t.Fatalf("candidate %d (lean sum %v) dropped, %d (%v) kept", i, best[i], j, best[j])
			}
		}
	}
	if !slices.Contains(legal, a) || !kept[slices.Index(legal, a)] {
		t.Fatalf("chose %v, not a screened candidate", a)
	}
}
