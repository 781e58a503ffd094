package ai

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"hash"
	"os"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// updateStreams rewrites testdata/golden/streams.golden:
//
//	go test ./games/alphatactics/ai -run TestGameStreamsGolden -update-streams
var updateStreams = flag.Bool("update-streams", false, "rewrite testdata/golden/streams.golden")

const streamsGolden = "../../../testdata/golden/streams.golden"

// streamCase is one family of recorded games: the bots seated in turn
// (cycled over the seats), the player count and how many games.
type streamCase struct {
	bots  string // "random", "greedy", "mixed" (random and greedy alternate), "ismcts"
	np    int
	games int
}

var streamCases = []streamCase{
	{"random", 2, 2000}, {"random", 3, 1000}, {"random", 4, 1000},
	{"greedy", 2, 500}, {"greedy", 3, 300}, {"greedy", 4, 300},
	{"mixed", 2, 200}, {"mixed", 3, 150}, {"mixed", 4, 150},
	{"ismcts", 2, 6}, {"ismcts", 3, 4}, {"ismcts", 4, 4},
}

func streamAgents(kind string, np int, seed uint64) []Agent {
	ag := make([]Agent, np)
	for p := range ag {
		bs := engine.SeedFor(seed^0x5bd1e995, uint64(p))
		switch {
		case kind == "random", kind == "mixed" && p%2 == 0:
			ag[p] = NewRandom(bs)
		case kind == "ismcts" && p == 0:
			ag[p] = NewISMCTS(bs, 25, "random")
		case kind == "ismcts" && p == 1:
			ag[p] = NewISMCTS(bs, 15, "greedy")
		default:
			ag[p] = greedy.New(bs)
		}
	}
	return ag
}

// streamLine plays game g of case c twice — once with an observer that
// records every event, each agent choosing from LegalActions; once without
// an observer, asking each agent through Decide as the runner does (the
// random bot samples from Choices) — and returns its golden line: the
// decision count, a hash of every decision (the legal list and the choice),
// a hash of the event stream, and the final scores. The two plays must make
// the same decisions.
func streamLine(t *testing.T, c streamCase, g int) string {
	t.Helper()
	rs := rules.Default()
	fs := make([]string, c.np)
	for p := range fs {
		fs[p] = factions[(g+p)%4]
	}
	seed := engine.SeedFor(16, uint64(c.np*100000+g))
	var evh, dech, acth [2]hash.Hash
	var decisions [2]int
	var final string
	for pass := 0; pass < 2; pass++ {
		evh[pass], dech[pass], acth[pass] = sha256.New(), sha256.New(), sha256.New()
		cfg := engine.Config{Factions: fs, Seed: seed}
		if pass == 0 {
			h := evh[pass]
			cfg.Observer = engine.ObserverFunc(func(_ *engine.State, e engine.Event) {
				var b [16]byte
				b[0], b[1], b[2], b[3], b[4] = byte(e.Kind), byte(e.Round), byte(e.Player), byte(e.Row), byte(e.Pos)
				if e.FaceUp {
					b[5] = 1
				}
				b[6] = byte(e.Reason)
				binary.LittleEndian.PutUint16(b[7:], uint16(e.Card))
				binary.LittleEndian.PutUint16(b[9:], uint16(e.Target))
				binary.LittleEndian.PutUint32(b[11:], uint32(e.Value))
				h.Write(b[:15])
			})
		}
		s, err := engine.New(rs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ag := streamAgents(c.bots, c.np, seed)
		var buf []engine.Action
		var b [4]byte
		for !s.IsTerminal() {
			if decisions[pass] > 100000 {
				t.Fatalf("%s %dp game %d: does not end", c.bots, c.np, g)
			}
			p := s.CurrentPlayer()
			var a engine.Action
			if pass == 0 {
				buf = s.LegalActions(buf)
				a = ag[p].Choose(s, buf)
				dech[pass].Write([]byte{byte(p), byte(len(buf))})
				for _, l := range buf {
					binary.LittleEndian.PutUint32(b[:], uint32(l))
					dech[pass].Write(b[:])
				}
				binary.LittleEndian.PutUint32(b[:], uint32(a))
				dech[pass].Write(b[:])
			} else {
				// The way the runner asks: samplers never see a list.
				var ok bool
				if a, ok = Decide(ag[p], s, &buf); !ok {
					t.Fatalf("%s %dp game %d: no legal action", c.bots, c.np, g)
				}
			}
			binary.LittleEndian.PutUint32(b[:], uint32(a))
			acth[pass].Write(b[:])
			s.Apply(a)
			decisions[pass]++
		}
		if pass == 0 {
			st := s.Stats()
			final = fmt.Sprintf("rounds=%d passes=%d placements=%d reshuffles=%d turns=%d returns=%v", st.Rounds, st.Passes,
				st.Placements, st.Reshuffles, st.DeployTurns, s.Returns())
			for p := 0; p < c.np; p++ {
				f := s.FinalScore(p)
				final += fmt.Sprintf(" %d/%d/%d", f.Total, f.Targets, f.Planets)
			}
		}
	}
	d0 := dech[0].Sum(nil)
	if string(acth[0].Sum(nil)) != string(acth[1].Sum(nil)) || decisions[0] != decisions[1] {
		t.Errorf("%s %dp game %d: played without an observer through Decide, the game differs", c.bots, c.np, g)
	}
	return fmt.Sprintf("%s %dp %d %s decisions=%d dec=%x events=%x %s", c.bots, c.np, g, strings.Join(fs, ","),
		decisions[0], d0[:8], evh[0].Sum(nil)[:8], final)
}

// TestGameStreamsGolden pins the engine's games: 5,614 seeded games of random,
// greedy and ISMCTS bots for 2, 3 and 4 players must make exactly the
// recorded decisions (every legal list and every choice) and emit exactly the
// recorded events. Any change of the engine or the bots that changes a game
// fails it; speed work must not (issue 16).
func TestGameStreamsGolden(t *testing.T) {
	cases := streamCases
	if testing.Short() {
		cases = nil
		for _, c := range streamCases {
			if c.bots != "ismcts" {
				c.games = (c.games + 9) / 10
				cases = append(cases, c)
			}
		}
	}
	var lines []string
	for _, c := range cases {
		for g := 0; g < c.games; g++ {
			lines = append(lines, streamLine(t, c, g))
		}
	}
	if *updateStreams {
		if testing.Short() {
			t.Fatal("-update-streams needs the full run (no -short)")
		}
		if err := os.WriteFile(streamsGolden, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(streamsGolden)
	if err != nil {
		t.Fatalf("%v (run with -update-streams to record)", err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), " ", 4)
		if len(fields) == 4 {
			want[strings.Join(fields[:3], " ")] = sc.Text()
		}
	}
	bad := 0
	for _, l := range lines {
		key := strings.Join(strings.SplitN(l, " ", 4)[:3], " ")
		if w, ok := want[key]; !ok {
			t.Errorf("no recorded game %q", key)
			bad++
		} else if w != l {
			t.Errorf("game differs from the recording:\n got %s\nwant %s", l, w)
			bad++
		}
		if bad >= 5 {
			t.Fatal("stopping after 5 differences")
		}
	}
}
