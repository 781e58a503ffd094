package ai

import (
	"math"
	"os"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// The policy's fit is deterministic (two fits give the same weights to the
// bit), converges (at its weights the penalized log-likelihood's gradient
// vanishes) and predicts the teacher better than chance on held-out games.
func TestPolicyFit(t *testing.T) {
	k := polKey{rs: rules.Default(), np: 2}
	m1, m2 := fitPolicy(k, 10), fitPolicy(k, 10)
	if !m1.ok || m1.w != m2.w || m1.Fitted < 10*nPolFeat || m1.HeldOut == 0 {
		t.Fatalf("fits %+v and %+v", m1, m2)
	}
	if m1.Agree <= 1/m1.MeanLegal || m1.Top10 < m1.Agree {
		t.Fatalf("held out: agreement %.3f with %.1f actions, top 10 %.3f", m1.Agree, m1.MeanLegal, m1.Top10)
	}
	// The gradient at the fit, recomputed from fresh features.
	if g := polGradient(t, k, 10, &m1.w); g > 1e-6 {
		t.Fatalf("gradient %g at the fit", g)
	}
}

// polGradient replays fitPolicy's labelled decisions through the exported
// path (polFeatures) and returns the largest component of the penalized
// log-likelihood's gradient at w over the fitted games.
func polGradient(t *testing.T, k polKey, games int, w *[nPolFeat]float64) float64 {
	t.Helper()
	d := collectPolicy(k, games)
	var gs [nPolFeat]float64
	for i := range gs {
		gs[i] = -polRidge * w[i]
	}
	var pr []float64
	for _, x := range d.decs[:d.nfit] {
		f := d.xs[x.off*nPolFeat : (x.off+x.n)*nPolFeat]
		pr = softmax(w, f, x.n, pr)
		for a := 0; a < x.n; a++ {
			for i := range gs {
				gs[i] -= pr[a] * f[a*nPolFeat+i]
			}
		}
		for i := range gs {
			gs[i] += f[x.y*nPolFeat+i]
		}
	}
	hi := 0.0
	for _, v := range gs {
		hi = max(hi, math.Abs(v))
	}
	return hi
}

// The policy plays legal actions and allocates nothing per decision once
// fitted.
func TestStrongPolicyNoAllocs(t *testing.T) {
	rs := rules.Default()
	s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: 3})
	for _, spec := range []string{"strong:pol=cand,pg=10,k=4", "strong:pol=only,pg=10", "strong:pol=cand,pg=10,k=4,prior=0.05"} {
		st := mustParse(t, spec, 1).(*Strong)
		legal := s.LegalActions(nil)
		a := st.Choose(s, legal)
		found := false
		for _, l := range legal {
			found = found || l == a
		}
		if !found {
			t.Fatalf("%s chose %v, not legal", spec, a)
		}
		if n := testing.AllocsPerRun(20, func() { st.Choose(s, legal) }); n != 0 {
			t.Fatalf("%s: %v allocations per decision", spec, n)
		}
	}
}

// BenchmarkPolicyFit: the imitation policy's one-off cost per ruleset and
// player count (pol=cand, pol=only): Greedy's self-play, the teacher's
// labels and the fit; it logs the held-out agreement with the teacher.
// STRONG_SPEC=strong:teach=ismcts,pf=noleaf fits that one. Run: go test ./games/alphatactics/ai -run '^$' -bench PolicyFit -benchtime 1x -cpu 1 -v
func BenchmarkPolicyFit(b *testing.B) {
	k := polKey{rs: rules.Default(), np: 2}
	if sp := os.Getenv("STRONG_SPEC"); sp != "" {
		st := mustParse(b, sp, 0).(*Strong)
		k.teach, k.iters, k.noLeaf, k.games = st.PolTeach, st.PolIters, st.PolNoLeaf, st.PolGames
	}
	g := polGames
	if k.games > 0 {
		g = k.games
	}
	c0 := cpuSeconds()
	var m *policyModel
	for i := 0; i < b.N; i++ {
		m = fitPolicy(k, g)
	}
	if c := cpuSeconds(); c > 0 {
		b.ReportMetric((c-c0)/float64(b.N), "cpu-s/fit")
	}
	b.Logf("ok %v, %d decisions fitted, %d held out (%.1f legal actions each): the teacher's move first by the policy %.1f%% (Greedy %.1f%%), among its best 10 %.1f%% (Greedy's 10 %.1f%%); w %.3f",
		m.ok, m.Fitted, m.HeldOut, m.MeanLegal, 100*m.Agree, 100*m.GreedyAgree, 100*m.Top10, 100*m.GreedyTop10, m.w)
}
