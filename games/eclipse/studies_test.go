package eclipse

import (
	"math"
	"strings"
	"sync/atomic"
	"testing"
)

// Above the state budget a battle is played by the engine with the same
// fixed policy, and its interval holds the exact value.
func TestStudyFallsBackToMonteCarlo(t *testing.T) {
	rs := Default()
	var stop atomic.Bool
	exact, err := rs.Study("battle", map[string]string{"attacker": "dc", "defender": "ancient2", "policy": "kill_largest"}, &stop)
	if err != nil {
		t.Fatal(err)
	}
	mc, err := rs.Study("battle", map[string]string{"attacker": "dc", "defender": "ancient2", "policy": "kill_largest", "budget": "10", "games": "20000"}, &stop)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(exact.Title, "exact") || !strings.Contains(mc.Title, "monte carlo") {
		t.Fatalf("titles %q, %q", exact.Title, mc.Title)
	}
	p := exact.Tables[0].Rows[0][1].Value.(float64)
	b, _ := rs.Battle(rs.FleetIndex("dc"), rs.FleetIndex("ancient2"))
	f, err := rs.fight(b, studyOpts{policy: KillLargest, budget: 10, games: 20000, seed: 1}, &stop)
	if err != nil || f.exact {
		t.Fatalf("fight: %v, exact %v", err, f.exact)
	}
	// The 95% interval misses the truth one time in 20 by design; the
	// test asks for 4 standard errors, which a correct engine misses about
	// once in 15,000 seeds.
	if se := math.Sqrt(p * (1 - p) / 20000); math.Abs(f.AttackerWins-p) > 4*se || f.lo > f.AttackerWins || f.hi < f.AttackerWins {
		t.Fatalf("exact %.4f, Monte Carlo %.4f [%.4f, %.4f]", p, f.AttackerWins, f.lo, f.hi)
	}
	stop.Store(true)
	if _, err := rs.fight(b, studyOpts{policy: KillLargest, budget: 10, games: 100, seed: 1}, &stop); err == nil {
		t.Fatal("a stopped study went on")
	}
}

func TestWilson(t *testing.T) {
	lo, hi := Wilson(50, 100)
	if lo < 0.403 || lo > 0.404 || hi < 0.596 || hi > 0.597 {
		t.Fatalf("Wilson(50, 100) = [%v, %v], want [0.4038, 0.5962]", lo, hi)
	}
	if lo, hi := Wilson(0, 10); lo != 0 || hi < 0.27 || hi > 0.28 {
		t.Fatalf("Wilson(0, 10) = [%v, %v]", lo, hi)
	}
}
