package ai

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// BenchmarkStrongOracle measures how far each strong spec's choices fall
// from what its own evaluation would choose with unlimited deals (issue 26:
// strength per millisecond, screened in a minute instead of a ladder's
// hour). On the positions of b.N self-play games of `strong` (2 players,
// the ordered pairs of factions in turn) an oracle plays every legal action
// on ORACLE_DEALS (default 48) deals with common random numbers, by
// strong's rollouts (h=5) and leaf; a spec's regret at a position is the
// oracle's best mean minus the mean of the spec's choice (in chances of
// winning; comparable between specs of the same rollouts and leaf only).
// Per decision bucket (kind; whether the oracle's best is among greedy's
// best ten; greedy's lead over its second; round; the oracle's spread
// among greedy's ten) it logs each spec's agreement with the oracle and
// regret per game, and each spec's CPU ms per game, for the specs in
// ORACLE_BOTS ("spec;spec"). docs/metrics.md, "Skill", gives the figures.
// Run: ORACLE_BOTS="strong;strong:k=64,dets=12" go test ./games/alphatactics/ai -run '^$'
// -bench StrongOracle -benchtime 100x -cpu 1 -v
func BenchmarkStrongOracle(b *testing.B) {
	specs := []string{"strong", "strong:k=64,dets=12"}
	if e := os.Getenv("ORACLE_BOTS"); e != "" {
		specs = strings.Split(e, ";")
	}
	deals := 48
	if e := os.Getenv("ORACLE_DEALS"); e != "" {
		deals, _ = strconv.Atoi(e)
	}
	type acc struct {
		n   int
		reg []float64
		agr []int
		sp  float64 // the oracle's best mean minus that of greedy's best
	}
	tab := map[string]*acc{}
	cpu := make([]float64, len(specs))
	add := func(key string, k int, reg float64, agree bool, sp float64) {
		x := tab[key]
		if x == nil {
			x = &acc{reg: make([]float64, len(specs)), agr: make([]int, len(specs))}
			tab[key] = x
		}
		if k == 0 {
			x.n++
			x.sp += sp
		}
		x.reg[k] += reg
		if agree {
			x.agr[k]++
		}
	}
	rs := rules.Default()
	for g := 0; g < b.N; g++ {
		f0, f1 := g%4, (g%4+1+g/4%3)%4
		s, err := engine.New(rs, engine.Config{Factions: []string{factions[f0], factions[f1]}, Seed: uint64(g) + 500})
		if err != nil {
			b.Fatal(err)
		}
		play := []Agent{mustParse(b, "strong", uint64(g)*3), mustParse(b, "strong", uint64(g)*3+1)}
		var bots []Agent
		for k, sp := range specs {
			bots = append(bots, mustParse(b, sp, uint64(g)*7+uint64(k)+100))
		}
		or := NewStrong(uint64(g)+1e6, 64, deals)
		for !s.IsTerminal() {
			legal := s.LegalActions(nil)
			if len(legal) == 1 {
				s.Apply(legal[0])
				continue
			}
			me := s.CurrentPlayer()
			// The oracle: every action on the same deals.
			or.rank.Begin(s)
			or.scores, or.cand, or.sum = or.scores[:0], or.cand[:0], or.sum[:0]
			gbest := 0
			for i, a := range legal {
				or.scores = append(or.scores, or.rank.Score(s, a))
				or.cand = append(or.cand, i)
				or.sum = append(or.sum, 0)
				if or.scores[i] > or.scores[gbest] {
					gbest = i
				}
			}
			or.heldOK = 0
			or.deal(s, legal, me, or.cand, deals)
			q := map[engine.Action]float64{}
			best := 0
			for i, a := range legal {
				q[a] = or.sum[i] / float64(deals)
				if or.sum[i] > or.sum[best] {
					best = i
				}
			}
			qb := q[legal[best]]
			kind := "other"
			if legal[len(legal)-1].Kind() == engine.ActPass {
				kind = "deploy"
			}
			nl := len(legal)
			nb := "2-5"
			switch {
			case nl > 20:
				nb = "21+"
			case nl > 10:
				nb = "11-20"
			case nl > 5:
				nb = "6-10"
			}
			// Greedy's lead over its second best.
			sc := append([]float64(nil), or.scores...)
			sort.Sort(sort.Reverse(sort.Float64Slice(sc)))
			lead := sc[0] - sc[1]
			lb := "lead<0.05"
			switch {
			case lead > 0.5:
				lb = "lead>0.5"
			case lead > 0.2:
				lb = "lead 0.2-0.5"
			case lead > 0.05:
				lb = "lead 0.05-0.2"
			}
			// The oracle's spread among greedy's best ten: how much the
			// choice among them matters.
			top := append([]int(nil), or.cand...)
			sort.SliceStable(top, func(i, j int) bool { return or.scores[top[i]] > or.scores[top[j]] })
			top = top[:min(10, len(top))]
			lo := qb
			for _, i := range top {
				lo = min(lo, q[legal[i]])
			}
			sb := "spread<0.02"
			switch {
			case qb-lo > 0.15:
				sb = "spread>0.15"
			case qb-lo > 0.06:
				sb = "spread 0.06-0.15"
			case qb-lo > 0.02:
				sb = "spread 0.02-0.06"
			}
			cov := " best outside greedy's 10"
			for _, i := range top {
				if i == best {
					cov = " best in greedy's 10"
				}
			}
			if cov == " best outside greedy's 10" {
				cov += fmt.Sprintf(" (%v)", legal[best].Kind())
			}
			keys := []string{"all", kind, kind + cov, kind + " n" + nb, kind + " " + lb, fmt.Sprintf("%s round %d", kind, s.Round()), kind + " " + sb}
			for k, bot := range bots {
				c0 := cpuSeconds()
				a := bot.Choose(s, legal)
				cpu[k] += cpuSeconds() - c0
				for _, key := range keys {
					add(key, k, qb-q[a], a == legal[best], qb-q[legal[gbest]])
				}
			}
			s.Apply(play[me].Choose(s, legal))
		}
	}
	keys := make([]string, 0, len(tab))
	for k := range tab {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out strings.Builder
	fmt.Fprintf(&out, "%d games, oracle %d deals; per spec: agreement with the oracle, regret per game (x100)\n%-26s %7s %7s", b.N, deals, "decision", "/game", "spread")
	for _, sp := range specs {
		fmt.Fprintf(&out, " | %-16.16s", sp)
	}
	out.WriteString("\n")
	for _, key := range keys {
		x := tab[key]
		fmt.Fprintf(&out, "%-26s %7.1f %7.3f", key, float64(x.n)/float64(b.N), x.sp/float64(x.n))
		for k := range specs {
			fmt.Fprintf(&out, " | %5.1f%% %8.2f ", 100*float64(x.agr[k])/float64(x.n), 100*x.reg[k]/float64(b.N))
		}
		out.WriteString("\n")
	}
	fmt.Fprintf(&out, "%-42s", "CPU ms per game (both seats)")
	for k := range specs {
		fmt.Fprintf(&out, " | %16.2f", cpu[k]*1e3/float64(b.N))
	}
	out.WriteString("\n")
	b.Log("\n" + out.String())
}

// BenchmarkStrongNoise splits the noise of strong's comparison of two
// candidates (issue 26): on Deployment turns of b.N self-play games of
// `strong`, greedy's two best actions are each played on 16 deals ×
// 16 random continuations (common random numbers: one seed for both), and
// the standard deviation of the difference of their values is split into
// its part between deals (the hidden cards) and within a deal (the random
// continuation), and set against the root mean square of the difference
// itself (the signal: comparable across leaves, whose scales differ).
// NOISE_H sets the horizon (default 5; now: the leaf at once), NOISE_LEAF=fit
// the fitted leaf. Run: go test ./games/alphatactics/ai
// -run '^$' -bench StrongNoise -benchtime 20x -cpu 1 -v
func BenchmarkStrongNoise(b *testing.B) {
	st0Fit := func() bool { return os.Getenv("NOISE_LEAF") == "fit" }
	h := DefaultStrongHorizon
	if e := os.Getenv("NOISE_H"); e == "now" {
		h = -1
	} else if e != "" {
		h, _ = strconv.Atoi(e)
	}
	rs := rules.Default()
	var totV, dealV, seedV, sigV float64
	npos := 0
	for g := 0; g < b.N; g++ {
		s, _ := engine.New(rs, engine.Config{Factions: factions[:2], Seed: uint64(g) + 900})
		play := []Agent{mustParse(b, "strong", 1), mustParse(b, "strong", 2)}
		st := NewStrong(uint64(g), 10, 3)
		st.Horizon = h
		st.Fit = os.Getenv("NOISE_LEAF") == "fit"
		if st.Fit {
			st.useModel(s)
		}
		for step := 0; !s.IsTerminal(); step++ {
			legal := s.LegalActions(nil)
			if len(legal) > 3 && step%10 == 0 && legal[len(legal)-1].Kind() == engine.ActPass {
				st.rank.Begin(s)
				st.scores = st.scores[:0]
				for _, a := range legal {
					st.scores = append(st.scores, st.rank.Score(s, a))
				}
				st.candidates(legal, s.Round())
				two := [2]engine.Action{legal[st.cand[0]], legal[st.cand[1]]}
				me := s.CurrentPlayer()
				const D, S = 16, 16
				var m [D][S]float64
				for d := 0; d < D; d++ {
					s.CopyInto(&st.det)
					st.det.Determinize(me, &st.rng)
					for k := 0; k < S; k++ {
						seed := st.rng.Uint64()
						var v [2]float64
						for c, x := range two {
							st.rroll.Reseed(seed)
							st.det.CopyInto(&st.sim)
							st.sim.Apply(x)
							v[c] = st.rollout(&st.sim, me)
						}
						m[d][k] = v[0] - v[1]
					}
				}
				var mean float64
				var dm [D]float64
				for d := range m {
					for k := range m[d] {
						dm[d] += m[d][k] / S
						mean += m[d][k] / (D * S)
					}
				}
				for d := range m {
					dealV += (dm[d] - mean) * (dm[d] - mean) / D
					for k := range m[d] {
						totV += (m[d][k] - mean) * (m[d][k] - mean) / (D * S)
						seedV += (m[d][k] - dm[d]) * (m[d][k] - dm[d]) / (D * S)
					}
				}
				sigV += mean * mean
				npos++
			}
			s.Apply(play[s.CurrentPlayer()].Choose(s, legal))
		}
	}
	b.Logf("h=%d fit=%v, %d positions: sd of the paired difference %.4f; between deals %.4f, within a deal %.4f; rms of the difference %.4f",
		h, st0Fit(), npos, math.Sqrt(totV/float64(npos)), math.Sqrt(dealV/float64(npos)), math.Sqrt(seedV/float64(npos)), math.Sqrt(sigV/float64(npos)))
}
