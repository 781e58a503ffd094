package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/ai"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/goofspiel"
)

func allPairs(rs *rules.Ruleset) [][]string {
	ids := rs.FactionIDs()
	var out [][]string
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			out = append(out, []string{ids[i], ids[j]})
		}
	}
	return out
}

func mustRun(t testing.TB, cfg Config) *Result {
	t.Helper()
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// reportJSON encodes a report with its timing zeroed: the only field allowed
// to differ between equivalent runs (the checksum leaves it out, so taking
// it again changes nothing).
func reportJSON(t testing.TB, r *Report) string {
	t.Helper()
	c := *r
	c.Timing = Timing{}
	if c.CardValueDesign != nil {
		d := *c.CardValueDesign
		d.Timing = Timing{}
		c.CardValueDesign = &d
	}
	c.Checksum = c.Sum()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&c); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// roundTrip encodes and decodes a report as merge reads it from a file.
func roundTrip(t testing.TB, r *Report) *Report {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out Report
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return al[i] + "  vs  " + bl[i]
		}
	}
	return "lengths differ"
}

func TestWorkersDoNotChangeResult(t *testing.T) {
	rs := rules.Default()
	cfg := Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: allPairs(rs), Bots: []string{"random"}, Games: 67, Seed: 7}
	cfg.Workers = 1
	a := reportJSON(t, mustRun(t, cfg).Report("test"))
	cfg.Workers = 2
	b := reportJSON(t, mustRun(t, cfg).Report("test"))
	if a != b {
		t.Fatalf("1 and 2 workers differ: %s", firstDiff(a, b))
	}
	cfg.Seed = 8
	if c := reportJSON(t, mustRun(t, cfg).Report("test")); c == a {
		t.Fatal("another seed gave the same result")
	}
}

func TestShardsMergeToWholeRun(t *testing.T) {
	rs := rules.Default()
	cfg := Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: [][]string{{"starfleet", "klingon"}, {"vulcan", "romulan"}},
		Bots: []string{"random"}, Games: 200, Seed: 3, Workers: 2}
	whole := mustRun(t, cfg).Report("test")
	var files []File
	total := 0
	for k := 4; k >= 1; k-- { // any order
		c := cfg
		c.Shard = Shard{K: k, N: 4}
		res := mustRun(t, c)
		total += int(res.Counts.Games)
		files = append(files, File{Name: "shard" + string(rune('0'+k)), Report: roundTrip(t, res.Report("test"))})
	}
	if total != 400 {
		t.Fatalf("shards played %d games, want 400", total)
	}
	merged, err := Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	if got := merged.Config.Shard; got.N != 4 || len(got.K) != 4 {
		t.Errorf("merged shard = %+v", got)
	}
	merged.Config.Shard = whole.Config.Shard
	merged.Checksum = merged.Sum() // the checksum covers config.shard
	a, b := reportJSON(t, whole), reportJSON(t, merged)
	if a != b {
		t.Fatalf("merged shards differ from the whole run: %s", firstDiff(a, b))
	}
	// A merged result holds every shard and merges (alone) to itself.
	again, err := Merge([]File{{Name: "merged", Report: roundTrip(t, merged)}})
	if err != nil {
		t.Fatal(err)
	}
	if reportJSON(t, again) != b {
		t.Fatal("merging a merged result changed it")
	}
	if _, err := Merge(files[:2]); err == nil {
		t.Fatal("merging 2 of 4 shards succeeded")
	}
}

func TestMergeRefuses(t *testing.T) {
	rs := rules.Default()
	cfg := Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: [][]string{{"starfleet", "klingon"}}, Games: 20, Seed: 1, Workers: 1}
	shard := func(c Config, k, n int) *Report {
		c.Shard = Shard{K: k, N: n}
		return roundTrip(t, mustRun(t, c).Report("test"))
	}
	s1, s2 := shard(cfg, 1, 2), shard(cfg, 2, 2)
	other := cfg
	other.Seed = 2
	o2 := shard(other, 2, 2)
	greedy := cfg
	greedy.Bots = []string{"greedy"}
	g2 := shard(greedy, 2, 2)
	three := shard(cfg, 2, 3)
	edited := roundTrip(t, s2)
	edited.Ruleset.Hash = "0000"
	minS := roundTrip(t, s2)
	minS.Config.MinSample = 5
	noRaw := roundTrip(t, s2)
	noRaw.Raw = nil
	tests := []struct {
		name  string
		files []File
		want  string
	}{
		{"duplicate", []File{{"a", s1}, {"b", s1}, {"c", s2}}, "shard 1/2 is in both a and b"},
		{"missing", []File{{"a", s1}}, "missing shard 2/2"},
		{"seed", []File{{"a", s1}, {"b", o2}}, "config.seed"},
		{"bots", []File{{"a", s1}, {"b", g2}}, "config.bots"},
		{"shard count", []File{{"a", s1}, {"b", three}}, "shard count"},
		{"ruleset", []File{{"a", s1}, {"b", edited}}, "ruleset (hash)"},
		{"min sample", []File{{"a", s1}, {"b", minS}}, "min_sample"},
		{"no raw", []File{{"a", s1}, {"b", noRaw}}, "no raw counts"},
		{"nothing", nil, "nothing to merge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(tt.files)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Merge: %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := Merge([]File{{"a", s2}, {"b", s1}}); err != nil {
		t.Fatalf("merging both shards: %v", err)
	}
}

func TestMetricsSanity(t *testing.T) {
	rs := rules.Default()
	cfg := Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: [][]string{{"starfleet", "klingon"}, {"vulcan", "romulan", "klingon"}, {"starfleet", "vulcan", "romulan", "klingon"}},
		Games: 60, Seed: 11, Workers: 2, KeepGames: true}
	res := mustRun(t, cfg)
	c := res.Counts
	if c.Games != 180 || len(res.Records) != 180 {
		t.Fatalf("games %d, records %d, want 180", c.Games, len(res.Records))
	}
	// Win shares add up to one victory per game, however they are cut.
	var facUnits, facGames int64
	for _, f := range c.Factions {
		facUnits += f.WinUnits
		facGames += f.Games
	}
	if facUnits != c.Games*WinUnit {
		t.Errorf("faction win units %d, want %d", facUnits, c.Games*WinUnit)
	}
	if facGames != 60*(2+3+4) {
		t.Errorf("faction games %d, want %d", facGames, 60*9)
	}
	for _, l := range c.Lineups {
		var u int64
		for _, x := range l.WinUnits {
			u += x
		}
		if l.Games != 60 || u != l.Games*WinUnit {
			t.Errorf("lineup %v: games %d, units %d", l.Lineup, l.Games, u)
		}
	}
	if len(c.Seats) != 3 {
		t.Fatalf("seats for %d table sizes, want 3", len(c.Seats))
	}
	for _, s := range c.Seats {
		var a, b int64
		for i := range s.SeatWins {
			a += s.SeatWins[i]
			b += s.StartWins[i]
		}
		if s.Games != 60 || a != s.Games*WinUnit || b != a {
			t.Errorf("seats of %d: games %d, seat units %d, start units %d", s.Players, s.Games, a, b)
		}
	}
	// Every target laid out is taken at scoring, by Negotiations, or left.
	for _, tg := range c.Targets() {
		var capt int64
		for _, x := range tg.Captures {
			capt += x
		}
		if tg.Laid != tg.Won+tg.Negotiated+tg.Unclaimed || capt != tg.Won+tg.Negotiated || tg.Ties > tg.Won {
			t.Errorf("target %s: %+v", tg.ID, tg)
		}
	}
	// A card is played only from the hand, so only once drawn.
	for _, k := range c.Cards() {
		if k.Played > k.Drawn || k.Opening > k.Drawn || k.Drawn > k.Games || k.PlayedWinUnits > k.DrawnWinUnits ||
			k.PlacedRowWon > k.Placed || k.DrawnWinUnits+k.NotDrawnWinUnits != k.OpeningWinUnits+k.NotOpeningWinUnits ||
			k.DrawnWinUnits+k.NotDrawnWinUnits > k.Games*WinUnit {
			t.Errorf("card %s: %+v", k.ID, k)
		}
	}
	// The records agree with the counts.
	var decisions, shared int64
	for i, g := range res.Records {
		if g.Index != i || g.Seed != engine.SeedFor(11, uint64(i)) || len(g.Winners) == 0 {
			t.Fatalf("record %d: %+v", i, g)
		}
		decisions += int64(g.Decisions)
		if len(g.Winners) > 1 {
			shared++
		}
	}
	if decisions != c.Game.Decisions || shared != c.Game.Shared {
		t.Errorf("records: %d decisions, %d shared; counts: %d, %d", decisions, shared, c.Game.Decisions, c.Game.Shared)
	}
	// Seat rotation: game j of a lineup seats it rotated by j.
	if r := res.Records[61]; r.Factions[0] != "romulan" || r.Factions[2] != "vulcan" {
		t.Errorf("game 61 seats %v, want the lineup rotated by 1", r.Factions)
	}

	rep := res.Report("test")
	var wr float64
	for _, f := range rep.Factions {
		if f.CI95[0] > f.WinRate || f.WinRate > f.CI95[1] {
			t.Errorf("win rate outside its interval: %+v", f)
		}
		wr += f.Wins
	}
	if int64(wr+0.5) != c.Games {
		t.Errorf("wins add up to %v, want %d", wr, c.Games)
	}
	for _, k := range rep.Cards {
		if k.LowN != (k.Drawn < 30 || k.NotDrawn < 30) {
			t.Errorf("card %s low_n %v with drawn %d, not drawn %d", k.ID, k.LowN, k.Drawn, k.NotDrawn)
		}
	}
}

// A record's seed, seats and bots replay the game: the runner seeds the game
// and the bots as cardlab play does.
func TestRecordReplays(t *testing.T) {
	rs := rules.Default()
	res := mustRun(t, Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: [][]string{{"romulan", "klingon"}}, Bots: []string{"greedy", "random"},
		Games: 5, Seed: 5, Workers: 1, KeepGames: true})
	for _, g := range res.Records {
		s, err := engine.New(rs, engine.Config{Factions: g.Factions, Seed: g.Seed})
		if err != nil {
			t.Fatal(err)
		}
		var agents []ai.Agent
		for q, b := range g.Bots {
			a, err := ai.Parse(b, engine.SeedFor(g.Seed^BotSalt, uint64(q)))
			if err != nil {
				t.Fatal(err)
			}
			agents = append(agents, a)
		}
		buf := make([]engine.Action, 0, 256)
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			s.Apply(agents[s.CurrentPlayer()].Choose(s, buf))
		}
		for q := range g.Factions {
			if s.FinalScore(q).Total != g.VP[q].Total {
				t.Errorf("game %d seat %d: replay scores %d, record %d", g.Index, q, s.FinalScore(q).Total, g.VP[q].Total)
			}
		}
	}
}

func TestCancelGivesPartial(t *testing.T) {
	rs := rules.Default()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	cfg := Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: [][]string{{"starfleet", "klingon"}}, Games: 1_000_000, Seed: 1, Workers: 2,
		Progress: func(done, total int) {
			calls++
			if total != 1_000_000 {
				t.Errorf("progress total %d", total)
			}
			cancel()
		}}
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.Counts.Games >= 1_000_000 || calls == 0 {
		t.Fatalf("partial %v after %d games (%d progress calls)", res.Partial, res.Counts.Games, calls)
	}
	rep := res.Report("test")
	if !rep.Partial || rep.Games != res.Counts.Games {
		t.Fatalf("report partial %v, games %d", rep.Partial, rep.Games)
	}
}

func TestConfigErrors(t *testing.T) {
	rs := rules.Default()
	base := Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: [][]string{{"starfleet", "klingon"}}, Games: 10}
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no games", func(c *Config) { c.Games = 0 }, "games must be at least 1"},
		{"unknown faction", func(c *Config) { c.Matchups = [][]string{{"starfleet", "borg"}} }, `unknown faction "borg"`},
		{"twice", func(c *Config) { c.Matchups = [][]string{{"klingon", "klingon"}} }, "twice"},
		{"too many", func(c *Config) {
			c.Matchups = [][]string{{"starfleet", "klingon", "vulcan", "romulan", "starfleet"}}
		}, "the rules allow"},
		{"shard", func(c *Config) { c.Shard = Shard{K: 5, N: 4} }, "shard 5/4"},
		{"bot", func(c *Config) { c.Bots = []string{"grredy"} }, "unknown bot"},
		{"bot count", func(c *Config) { c.Bots = []string{"random", "random", "random"} }, "3 bots"},
		{"lineup twice", func(c *Config) { c.Matchups = append(c.Matchups, []string{"starfleet", "klingon"}) }, "given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.edit(&c)
			_, err := Run(context.Background(), c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Run: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// BenchmarkSimulateRandom2p measures the runner (observer and accumulators
// included) on 2-player games between random bots.
func BenchmarkSimulateRandom2p(b *testing.B) {
	rs := rules.Default()
	b.ReportAllocs()
	res, err := Run(context.Background(), Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: [][]string{{"starfleet", "klingon"}},
		Games: b.N, Seed: 1, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	if int(res.Counts.Games) != b.N {
		b.Fatalf("%d games, want %d", res.Counts.Games, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// TestPlanMirror: the plan reads seats and sides through the contracts. A
// game whose ruleset mirrors (Goofspiel: one side, "player", on 2-4 seats)
// may seat a side several times in one lineup; Alpha Tactics, which does
// not, refuses a faction twice as before; each names the side in its
// game's words.
func TestPlanMirror(t *testing.T) {
	g := goofspiel.Default()
	cfg := Config{Matchups: [][]string{{"player", "player"}, {"player", "player", "player", "player"}}, Games: 10}
	p, err := planLineups(&cfg, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.lineups) != 2 || !slices.Equal(p.lineups[1].fac, []int{0, 0, 0, 0}) || !slices.Equal(p.sizes, []int{2, 4}) || !slices.Equal(p.factions, []int{0}) {
		t.Fatalf("lineups %+v, sizes %v, sides %v", p.lineups, p.sizes, p.factions)
	}
	for _, tt := range []struct {
		g       game.Ruleset
		lineups [][]string
		want    string
	}{
		{g, [][]string{{"player", "bidder"}}, `unknown player "bidder" (have player)`},
		{g, [][]string{{"player"}}, "lineup player has 1 players; the rules allow 2 to 4"},
		{g, [][]string{{"player", "player"}, {"player", "player"}}, "lineup player,player given twice"},
		{alphatactics.Ruleset{RS: rules.Default()}, [][]string{{"klingon", "klingon"}}, `faction "klingon" twice in lineup klingon,klingon`},
	} {
		cfg.Matchups = tt.lineups
		if _, err := planLineups(&cfg, tt.g); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want %q", tt.lineups, err, tt.want)
		}
	}
}

// TestRunGoofspiel: the runner plays a game other than Alpha Tactics
// through the contracts, mirrored lineups included (Goofspiel's one side on
// 2 and 3 seats, seat rotation and all): its core counts are those of the
// same games played one by one with game.PlayGeneric (each game's seed
// s = SeedFor(seed, i), its bots' SeedFor(s^BotSalt, seat)), whatever the
// number of workers; another seed plays other games.
func TestRunGoofspiel(t *testing.T) {
	g := goofspiel.Default()
	const games, seed = 150, 3
	cfg := Config{Game: g, Matchups: [][]string{{"player", "player"}, {"player", "player", "player"}}, Games: games, Seed: seed, Workers: 1}
	one, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 3
	three, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.Counts, three.Counts) {
		t.Fatalf("1 worker and 3 workers counted differently:\n%+v\n%+v", one.Counts, three.Counts)
	}
	var seatWins [2][]int64
	var lineupWins [2][]int64
	var decisions, units int64
	for li := range 2 {
		n := 2 + li
		seatWins[li], lineupWins[li] = make([]int64, n), make([]int64, n)
		for j := range games {
			i := li*games + j
			gs := game.SeedFor(seed, uint64(i))
			s, err := g.NewState(make([]int, n), gs)
			if err != nil {
				t.Fatal(err)
			}
			ag := make([]game.Agent, n)
			for q := range ag {
				ag[q] = bots.NewUniform(game.SeedFor(gs^BotSalt, uint64(q)))
			}
			moves, _, err := game.PlayGeneric(s, ag, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			decisions += int64(len(moves))
			ret, winners := s.Returns(), 0
			for q := range n {
				if ret[q] > 0 {
					winners++
				}
			}
			for q := range n {
				if ret[q] > 0 {
					u := int64(WinUnit / winners)
					seatWins[li][q] += u
					lineupWins[li][(q+j%n)%n] += u
					units += u
				}
			}
		}
	}
	c := one.Counts
	if c.Games != 2*games || c.Game.Decisions != decisions || len(c.Factions) != 1 || c.Factions[0].ID != "player" ||
		c.Factions[0].Games != games*(2+3) || c.Factions[0].WinUnits != units || units != 2*games*WinUnit {
		t.Fatalf("counts %+v, want %d games, %d decisions, %d win units", c, 2*games, decisions, units)
	}
	for li := range 2 {
		if !slices.Equal(c.Seats[li].SeatWins, seatWins[li]) || !slices.Equal(c.Lineups[li].WinUnits, lineupWins[li]) {
			t.Errorf("%d seats: seat wins %v, lineup wins %v; played one by one %v, %v",
				2+li, c.Seats[li].SeatWins, c.Lineups[li].WinUnits, seatWins[li], lineupWins[li])
		}
	}
	// Random against random: no seat of 2 is far from half (4 standard
	// errors of 150 games is 0.16).
	for q, u := range seatWins[0] {
		if share := float64(u) / float64(games*WinUnit); share < 0.34 || share > 0.66 {
			t.Errorf("seat %d of 2 wins %.3f of the games", q+1, share)
		}
	}
	cfg.Seed = seed + 1
	other, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(other.Counts, one.Counts) {
		t.Fatal("another seed played the same games")
	}
}

// TestRunGoofspielRefuses a lineup of sides Goofspiel does not have and a
// bot it does not have.
func TestRunGoofspielRefuses(t *testing.T) {
	for _, tt := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Matchups = [][]string{{"player", "klingon"}} }, `unknown player "klingon"`},
	} {
		cfg := Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}}, Games: 4}
		tt.edit(&cfg)
		if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v, want ErrConfig with %q", err, tt.want)
		}
	}
	// A bot Goofspiel does not have is the spec's fault, named with the
	// game's bots.
	cfg := Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}}, Games: 4, Bots: []string{"strong"}}
	var se *bots.SpecError
	if _, err := Run(context.Background(), cfg); !errors.As(err, &se) || !strings.Contains(err.Error(), `unknown bot "strong" for Goofspiel (its bots: greedy, ismcts, random)`) {
		t.Errorf("strong for Goofspiel: %v", err)
	}
}

// TestRunGoofspielBots: the runner plays Goofspiel with every bot it has,
// and they rank as they must against the random bidder — the
// prize-matching greedy and the search (generic ISMCTS, random rollouts)
// each win far more than half of two-seat games, seated first and
// second alike. The margins are many standard errors (the log gives
// them), so the figures at this fixed seed are no coin toss.
func TestRunGoofspielBots(t *testing.T) {
	games := 200
	for _, tt := range []struct {
		bot  string
		want float64 // the least win share, at least 6 standard errors above 1/2
	}{
		{"greedy", 0.8},
		{"ismcts:iters=200", 0.75},
	} {
		for seat := range 2 {
			bs := []string{"random", "random"}
			bs[seat] = tt.bot
			cfg := Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}}, Bots: bs, Games: games, Seed: 11, Workers: 2}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if seat == 0 {
				// The bots are reseeded per game as Alpha Tactics' are:
				// one worker plays the same games.
				cfg.Workers = 1
				one, err := Run(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(one.Counts, res.Counts) {
					t.Fatalf("%s: 1 and 2 workers counted differently", tt.bot)
				}
			}
			share := float64(res.Counts.Seats[0].SeatWins[seat]) / float64(int64(games)*WinUnit)
			lo, hi := Wilson(share*float64(games), float64(games), 3.29)
			se := math.Sqrt(share * (1 - share) / float64(games))
			t.Logf("%s in seat %d against random: %.3f of %d games (99.9%% Wilson %.3f–%.3f), %.1f standard errors above 1/2",
				tt.bot, seat+1, share, games, lo, hi, (share-0.5)/se)
			if share < tt.want || lo <= 0.5 || (share-0.5)/se < 6 {
				t.Errorf("%s in seat %d wins %.3f against random (interval %.3f–%.3f), want at least %.2f",
					tt.bot, seat+1, share, lo, hi, tt.want)
			}
		}
	}
}

// TestGoofspielRunStopsAtOnce: Ctrl-C reaches another game's search (the
// generic ISMCTS, bots.Search) through the runner: a huge budget returns
// within a second of the cancel, nothing is counted, the result is partial.
func TestGoofspielRunStopsAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	began := time.Now()
	res, err := Run(ctx, Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}},
		Bots: []string{"ismcts:iters=10000000"}, Games: 4, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took > 1300*time.Millisecond || !res.Partial || res.Counts.Games != 0 {
		t.Fatalf("cancelled after 0.3 s: returned after %s, partial %v, %d games counted", took, res.Partial, res.Counts.Games)
	}
}

// TestGoofspielCountsMergeAndRecords: a Goofspiel run has its game's counts
// (prizes, bids, lost points) and records (points and prizes by seat, tied
// turns); its result names the game, reads back to the same bytes, and two
// shards merge to the whole run's counts, refused once edited.
func TestGoofspielCountsMergeAndRecords(t *testing.T) {
	cfg := Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}, {"player", "player", "player"}},
		Games: 40, Seed: 8, Workers: 2, KeepGames: true}
	whole := mustRun(t, cfg)
	c := whole.Counts
	prizes, bids := c.Section("prizes"), c.Section("bids")
	if prizes == nil || bids == nil || len(prizes.Rows) != 13 || len(bids.Rows) != 13 || c.Section("targets") != nil {
		t.Fatalf("sections %+v", c.Sections)
	}
	var turned int64
	for _, r := range prizes.Rows {
		turned += r.Values[1]
	}
	if turned != 13*c.Games {
		t.Errorf("%d prizes turned up in %d games of 13 turns", turned, c.Games)
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if len(whole.Records) != 80 {
		t.Fatalf("%d records", len(whole.Records))
	}
	for _, g := range whole.Records {
		tied, ok := g.Int("tied_turns")
		sum := 0
		for _, v := range g.VP {
			p, _ := v.Int("prizes")
			sum += p
		}
		if !ok || sum+tied != 13 || g.StartSeat != 1 || len(g.Winners) == 0 {
			t.Fatalf("record %+v: %d prizes taken and %d tied turns of 13", g, sum, tied)
		}
	}
	line, _ := json.Marshal(whole.Records[0])
	if !strings.Contains(string(line), `"vp":[{"faction":"player","total":`) || !strings.Contains(string(line), `"tied_turns":`) {
		t.Errorf("record %s", line)
	}
	rep := whole.Report("test")
	data, _ := json.Marshal(rep)
	if !strings.Contains(string(data), `"hash":"`+goofspiel.Default().Hash+`","game":"goofspiel"}`) ||
		!strings.Contains(string(data), `"decisions_sq":`) || !strings.Contains(string(data), `"lost_points":`) {
		t.Fatalf("the result does not name its game or lacks its counts")
	}
	back := roundTrip(t, rep)
	if err := back.Verify(); err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(back); !bytes.Equal(again, data) {
		t.Error("read back, the result writes other bytes")
	}
	var shards []File
	for k := range 2 {
		sc := cfg
		sc.KeepGames, sc.Shard = false, Shard{K: k + 1, N: 2}
		shards = append(shards, File{Name: "s.json", Report: roundTrip(t, mustRun(t, sc).Report("test"))})
	}
	merged, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(merged.Raw.Sections, c.Sections) || merged.Raw.Game != c.Game {
		t.Error("two shards merged differ from the whole run")
	}
	shards[1].Report.Raw.Section("bids").Rows[6].Values[2]++ // bid 7 won once more than prizes were taken
	shards[1].Report.Checksum = shards[1].Report.Sum()
	if _, err := Merge(shards); err == nil || !strings.Contains(err.Error(), "bid cards won") {
		t.Errorf("an edited shard: %v", err)
	}
}
