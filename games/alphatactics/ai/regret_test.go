package ai

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// BenchmarkStrongRegret aims the strong bot's search (issue 26): on the
// positions of strong's self-play games (2 players, the ordered pairs of
// factions in turn, b.N games), each bot chooses, and ISMCTS-1600 searches
// the same position. A bot's regret is the reference's mean value of its
// own most visited root action minus that of the bot's choice (0 where they
// agree; in chances of winning, so noisy per position and biased towards
// bots that value positions as the reference does, by random rollouts). Per
// decision kind and per faction it logs how often each bot agrees with the
// reference and its regret per game: where strong's regret exceeds
// ISMCTS-400's is where it loses to strong play. For strong bots it also
// logs how often the reference's move is among the candidates searched
// and how many there are (is the move missed, or misjudged?). REGRET_BOTS="spec;spec"
// replaces the last two bots (greedy and strong stay). docs/metrics.md,
// "Skill", gives the figures. Run: go test ./games/alphatactics/ai -run '^$' -bench
// StrongRegret -benchtime 48x -cpu 1 -v (about 3 s a game).
func BenchmarkStrongRegret(b *testing.B) {
	specs := []string{"greedy", "strong", "ismcts:iters=100", "ismcts:iters=400"}
	if e := os.Getenv("REGRET_BOTS"); e != "" {
		specs = append(specs[:2], strings.Split(e, ";")...)
		if len(specs) > 8 {
			b.Fatal("REGRET_BOTS: at most 6 bots")
		}
	}
	type acc struct {
		n     int
		agree [8]int
		reg   [8]float64
		// For a strong bot: the reference's move among its candidates,
		// and their number.
		cover [8]int
		ncand [8]int
	}
	tab := map[string]*acc{}
	add := func(key string, k int, agree bool, reg float64) {
		x := tab[key]
		if x == nil {
			x = &acc{}
			tab[key] = x
		}
		if k == 0 {
			x.n++
		}
		if agree {
			x.agree[k]++
		}
		x.reg[k] += reg
	}
	rs := rules.Default()
	for g := 0; g < b.N; g++ {
		// Every ordered pair of factions in turn (12).
		f0, f1 := g%4, (g%4+1+g/4%3)%4
		fs := []string{factions[f0], factions[f1]}
		s, err := engine.New(rs, engine.Config{Factions: fs, Seed: uint64(g)})
		if err != nil {
			b.Fatal(err)
		}
		var bots []Agent
		for k, sp := range specs {
			bots = append(bots, mustParse(b, sp, uint64(g)*7+uint64(k)))
		}
		ref := NewISMCTS(uint64(g)+2e6, 1600, "random")
		for !s.IsTerminal() {
			legal := s.LegalActions(nil)
			p := s.CurrentPlayer()
			if len(legal) == 1 {
				s.Apply(legal[0])
				continue
			}
			r := ref.Choose(s, legal)
			q := map[engine.Action]float64{}
			ref.RootMeans(func(a game.Action, mean float64) { q[engine.Action(a)] = mean })
			kind := decisionKind(s, legal)
			var mine engine.Action
			for k, bot := range bots {
				a := bot.Choose(s, legal)
				if k == 1 {
					mine = a
				}
				for _, key := range []string{kind, "faction " + fs[p], "all"} {
					add(key, k, a == r, q[r]-q[a])
					if st, ok := bot.(*Strong); ok {
						x := tab[key]
						x.ncand[k] += len(st.cand)
						for _, i := range st.cand {
							if legal[i] == r {
								x.cover[k]++
							}
						}
					}
				}
			}
			s.Apply(mine)
		}
	}
	keys := make([]string, 0, len(tab))
	for k := range tab {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out strings.Builder
	fmt.Fprintf(&out, "%d games; per bot: agreement with ISMCTS-1600, regret per game\n%-24s %9s", b.N, "decision", "per game")
	for _, sp := range specs {
		fmt.Fprintf(&out, " | %-22s", sp)
	}
	out.WriteString("\n")
	for _, key := range keys {
		x := tab[key]
		fmt.Fprintf(&out, "%-24s %9.1f", key, float64(x.n)/float64(b.N))
		for k := range specs {
			fmt.Fprintf(&out, " | %5.1f%% %8.3f      ", 100*float64(x.agree[k])/float64(x.n), x.reg[k]/float64(b.N))
		}
		out.WriteString("\n")
	}
	fmt.Fprintf(&out, "strong bots' candidates: the reference's move among them, their mean number\n")
	for _, key := range keys {
		x := tab[key]
		fmt.Fprintf(&out, "%-24s %9.1f", key, float64(x.n)/float64(b.N))
		for k := range specs {
			if x.ncand[k] == 0 {
				fmt.Fprintf(&out, " | %-22s", "")
				continue
			}
			fmt.Fprintf(&out, " | %5.1f%% %6.1f        ", 100*float64(x.cover[k])/float64(x.n), float64(x.ncand[k])/float64(x.n))
		}
		out.WriteString("\n")
	}
	b.Log("\n" + out.String())
	all := tab["all"]
	b.ReportMetric(all.reg[1]/float64(b.N), "strong-regret/game")
	b.ReportMetric(all.reg[len(specs)-1]/float64(b.N), "last-regret/game")
}

// decisionKind names the kind of decision legal answers: a Deployment turn,
// a discard after passing, an effect's decision (by handler), or the second
// step of a two-card play (where to put the protected or inserted card).
func decisionKind(s *engine.State, legal []engine.Action) string {
	if h := s.PendingHandler(); h != "" {
		return "effect " + h
	}
	for _, a := range legal {
		switch a.Kind() {
		case engine.ActPass:
			return "deploy"
		case engine.ActDiscard:
			return "discard"
		}
	}
	return "then " + legal[0].Kind().String()
}
