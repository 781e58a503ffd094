package ai

import (
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestNeverPeek builds pairs of states that differ only in what the deciding
// seat cannot see — opponents' hands, every draw order, opponents' face-down
// cards and sealed bids, the future shuffles — and checks that every agent,
// seeded alike, picks the same action in both.
func TestNeverPeek(t *testing.T) {
	rs := rules.Default()
	specs := []string{"random", "greedy", "ismcts:iters=60", "ismcts:iters=30,rollout=greedy,depth=game",
		"strong", "strong:k=4,dets=3,margin=0", "strong:roll=greedy,dets=2", "strong:search=flat",
		"strong:cand=diverse,k=3,d1=1", "strong:search=race,k=6,dmin=2,dmax=6",
		"strong:leaf=fit,k=4,h=2", "strong:leaf=fit,k=4,h=now", "strong:roll=gain,k=4", "strong:rdets=1/2/3,rk=3/5,k=4",
		"strong:roll=lean,k=4", "strong:roll=lean,lx=2,reps=2,k=4", "strong:roll=lean,search=race,k=4,dmin=2,dmax=4",
		"strong:k=16,ls=1,lk=4", "strong:pol=cand,pg=10,k=4", "strong:pol=only,pg=10", "strong:pol=cand,pg=10,pf=noleaf,prior=0.05,k=4",
		"strong:pol=only,teach=ismcts,ti=100,pg=5"}
	n := 300
	if testing.Short() {
		n = 60
	}
	differ := 0
	for i := 0; i < n; i++ {
		np := 2 + i%3
		fs := make([]string, np)
		for k := range fs {
			fs[k] = factions[(i+k)%4]
		}
		s, err := engine.New(rs, engine.Config{Factions: fs, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		walk := engine.NewRNG(uint64(i) * 31)
		var buf []engine.Action
		steps := walk.Intn(250)
		for k := 0; k < steps && !s.IsTerminal(); k++ {
			buf = s.LegalActions(buf)
			s.Apply(buf[walk.Intn(len(buf))])
		}
		if s.IsTerminal() {
			continue
		}
		v := s.CurrentPlayer()
		twin := s.Clone()
		r := engine.NewRNG(uint64(i) + 1000)
		twin.Determinize(v, &r)
		if hiddenDiffers(s, twin) {
			differ++
		}
		la, lb := s.LegalActions(nil), twin.LegalActions(nil)
		for _, spec := range specs {
			a1, _ := Parse(spec, uint64(i))
			a2, _ := Parse(spec, uint64(i))
			x, y := a1.Choose(s, la), a2.Choose(twin, lb)
			if x != y {
				t.Fatalf("state %d: %s chose %v in one and %v in its twin: it used hidden information", i, spec, x, y)
			}
		}
	}
	if differ < n/3 {
		t.Fatalf("only %d of %d twins differ in hidden cards", differ, n)
	}
}

// hiddenDiffers reports whether two states differ anywhere (seen by an
// omniscient viewer): hands, rows or pile sizes.
func hiddenDiffers(a, b *engine.State) bool {
	for p := 0; p < a.NumPlayers(); p++ {
		for k := 0; k < a.HandLen(p); k++ {
			if a.HandCard(engine.Omniscient, p, k) != b.HandCard(engine.Omniscient, p, k) {
				return true
			}
		}
	}
	for r := 0; r < a.NumRows(); r++ {
		for k := 0; k < a.RowLen(r); k++ {
			if a.Slot(engine.Omniscient, r, k).Card != b.Slot(engine.Omniscient, r, k).Card {
				return true
			}
		}
	}
	return false
}

// peeker cheats: it looks at the next opponent's first hand card.
type peeker struct{}

func (peeker) Choose(s *engine.State, legal []engine.Action) engine.Action {
	q := (s.CurrentPlayer() + 1) % s.NumPlayers()
	if s.HandLen(q) == 0 {
		return legal[0]
	}
	return legal[s.HandCard(engine.Omniscient, q, 0)%len(legal)]
}

// The harness itself must catch a cheat.
func TestNeverPeekCatchesCheat(t *testing.T) {
	rs := rules.Default()
	caught := 0
	for i := 0; i < 50; i++ {
		s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: uint64(i)})
		twin := s.Clone()
		r := engine.NewRNG(uint64(i))
		twin.Determinize(s.CurrentPlayer(), &r)
		if (peeker{}).Choose(s, s.LegalActions(nil)) != (peeker{}).Choose(twin, twin.LegalActions(nil)) {
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("a peeking agent was never caught")
	}
}

// TestNeverPeekSealedBid: in Negotiations a later bidder cannot tell
// whether an earlier one took part (the rulebook reveals all bids at once),
// so every agent, seeded alike, decides the same after a bid and after
// none.
func TestNeverPeekSealedBid(t *testing.T) {
	rs := rules.Default()
	id := func(s string) int {
		c, ok := rs.CardByID(s)
		if !ok {
			t.Fatalf("no card %s", s)
		}
		return c.Index
	}
	for seed := uint64(0); seed < 6; seed++ {
		mk := func() *engine.State {
			s, err := engine.NewSetup(rs, engine.Setup{Factions: []string{"starfleet", "klingon", "romulan"}, Seed: seed, Phase: engine.Reveal,
				Hands: [][]string{{"sf-akira", "sf-miranda"}, {"kl-ktinga", "kl-d7", "kl-bird-of-prey"}, {"ro-scimitar"}},
				Rows:  []engine.SetupRow{{Target: "earth", Cards: []engine.SetupCard{{Card: "sf-negotiations", Owner: 0}}}}})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		bid, pass := mk(), mk()
		bid.Apply(engine.HandAction(id("sf-akira")))
		pass.Apply(engine.DoneAction())
		if bid.CurrentPlayer() != 1 || bid.PendingHandler() != "negotiations" {
			t.Fatalf("seat %d decides %q", bid.CurrentPlayer(), bid.PendingHandler())
		}
		la, lb := bid.LegalActions(nil), pass.LegalActions(nil)
		for _, spec := range []string{"random", "greedy", "ismcts:iters=60", "ismcts:iters=30,rollout=greedy,depth=game", "strong", "strong:leaf=fit,h=1", "strong:roll=gain,k=4", "strong:roll=lean,lx=1,k=4"} {
			a1, _ := Parse(spec, seed)
			a2, _ := Parse(spec, seed)
			if x, y := a1.Choose(bid, la), a2.Choose(pass, lb); x != y {
				t.Errorf("seed %d: %s bids %v after seat 0 bid and %v after it did not: it saw a sealed decision", seed, spec, x, y)
			}
		}
	}
}
