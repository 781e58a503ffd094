package analysis

import (
	"context"
	"encoding/json"
	"github.com/cardlab/cardlab/game"
	"reflect"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/goofspiel"
)

// shardRuns runs play once per shard of n under a recording ledger, sends
// each shard's phases through JSON (as a shard file does) and replays them
// all; it returns the replay's result.
func shardRuns[R any](t *testing.T, n int, play func(ctx context.Context) (R, error)) R {
	t.Helper()
	var phases [][]Phase
	for k := 1; k <= n; k++ {
		l := NewShardLedger(Shard{k, n})
		if _, err := play(WithLedger(context.Background(), l)); err != nil {
			t.Fatalf("shard %d/%d: %v", k, n, err)
		}
		if l.Partial() {
			t.Fatalf("shard %d/%d partial", k, n)
		}
		b, err := json.Marshal(l.Phases())
		if err != nil {
			t.Fatal(err)
		}
		var back []Phase
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		phases = append(phases, back)
	}
	// Each shard played its part: the phases' games add up to the run's
	// and no shard played them all.
	for p := range phases[0] {
		var sum, most int64
		for k := range phases {
			sum += phases[k][p].Games
			most = max(most, phases[k][p].Games)
		}
		t.Logf("phase %d (%s): %d games in %d shards, at most %d in one", p+1, phases[0][p].Kind, sum, n, most)
		if n > 1 && most > sum/int64(n)+int64(n*(1+len(phases[0][p].Arms))) {
			t.Errorf("phase %d: a shard played %d of %d games", p+1, most, sum)
		}
	}
	l, err := NewReplayLedger(phases)
	if err != nil {
		t.Fatal(err)
	}
	r, err := play(WithLedger(context.Background(), l))
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if err := l.Done(); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestShardedImpactEqualsUnsharded(t *testing.T) {
	rs := rules.Default()
	play := func(ctx context.Context) (*ImpactResult, error) {
		return Impact(ctx, ImpactConfig{Game: alphatactics.Ruleset{RS: rs}, Mode: ModeBlankCopy, GamesPerCard: 40,
			Cards:        []string{"kl-d7", "vu-suurok", "sf-miranda"},
			PairedConfig: PairedConfig{Matchups: allPairs(rs), Bots: []string{"greedy"}, Seed: 3, Workers: 2}})
	}
	want, err := play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3, 7} {
		got := shardRuns(t, n, play)
		got.Timing, want.Timing = Timing{}, Timing{}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d shards merged differ from the unsharded run", n)
		}
	}
}

func TestShardedDiffEqualsUnsharded(t *testing.T) {
	rs := rules.Default()
	v := Variant(rs, "test", func(v *rules.Ruleset) { v.Cards[0].Power++ })
	play := func(ctx context.Context) (*DiffResult, error) {
		return Diff(ctx, DiffConfig{Base: alphatactics.Ruleset{RS: rs}, Variant: alphatactics.Ruleset{RS: v},
			PairedConfig: PairedConfig{Matchups: allPairs(rs)[:3], Bots: []string{"greedy"}, Games: 30, Seed: 4, Workers: 2}})
	}
	want, err := play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := shardRuns(t, 4, play)
	got.Timing, want.Timing = Timing{}, Timing{}
	if !reflect.DeepEqual(got, want) {
		t.Error("4 shards merged differ from the unsharded diff")
	}
}

func TestShardedRunAndValuesEqualUnsharded(t *testing.T) {
	rs := rules.Default()
	lineups := [][]string{{"klingon", "romulan"}, {"starfleet", "vulcan"}}
	type out struct {
		run    *Report
		recs   []GameRecord
		values *CardValueResult
	}
	play := func(ctx context.Context) (out, error) {
		var o out
		r, err := Run(ctx, Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: lineups, Bots: []string{"greedy"}, Games: 45, Seed: 2, Workers: 2,
			Record: func(g *GameRecord) error { o.recs = append(o.recs, unitless(*g)); return nil }})
		if err != nil {
			return o, err
		}
		o.run = r.Report("test")
		o.values, err = CardValues(ctx, CardValueConfig{Game: alphatactics.Ruleset{RS: rs}, Matchups: lineups, Bots: []string{"random"}, Games: 640, Precision: -1, Seed: 7, Workers: 2})
		return o, err
	}
	want, err := play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := shardRuns(t, 3, play)
	got.values.Elapsed, want.values.Elapsed = 0, 0
	if !reflect.DeepEqual(got.values, want.values) {
		t.Error("3 shards merged give other card values than the unsharded run")
	}
	if !reflect.DeepEqual(got.recs, want.recs) {
		t.Error("3 shards merged hand on other game records")
	}
	if got.run.Sum() != want.run.Sum() {
		t.Error("3 shards merged give another simulation report")
	}
}

// TestReplayRefusesOtherGames: a replay that asks for other games than the
// shards recorded (another seed, another ruleset) fails and says why.
func TestReplayRefusesOtherGames(t *testing.T) {
	rs := rules.Default()
	cfg := func(seed uint64, r *rules.Ruleset) Config {
		return Config{Game: alphatactics.Ruleset{RS: r}, Matchups: [][]string{{"klingon", "romulan"}}, Bots: []string{"random"}, Games: 20, Seed: seed}
	}
	l := NewShardLedger(Shard{1, 1})
	if _, err := Run(WithLedger(context.Background(), l), cfg(1, rs)); err != nil {
		t.Fatal(err)
	}
	other := Variant(rs, "other", func(*rules.Ruleset) {})
	for _, c := range []struct {
		cfg  Config
		want string
	}{{cfg(2, rs), "not shards of this run"}, {cfg(1, other), "merge with the rulesets the shards played"}} {
		r, err := NewReplayLedger([][]Phase{l.Phases()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(WithLedger(context.Background(), r), c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("replay of other games: %v, want %q", err, c.want)
		}
	}
}

// FuzzReplayPhases: a ledger of any phases either replays into a result or
// fails; it never panics (the replay checks every record before the
// statistics read it). The seeds are the phases of a run, a paired and a
// card-value one.
func FuzzReplayPhases(f *testing.F) {
	rs := rules.Default()
	lineups := [][]string{{"klingon", "romulan"}}
	play := func(ctx context.Context) error {
		_, err := Run(ctx, Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: lineups, Bots: []string{"random"}, Games: 6, Seed: 2, Workers: 1,
			Record: func(*GameRecord) error { return nil }})
		if err != nil {
			return err
		}
		if _, err := Impact(ctx, ImpactConfig{Game: alphatactics.Ruleset{RS: rs}, Mode: ModeBlankCopy, Cards: []string{"kl-d7"},
			PairedConfig: PairedConfig{Matchups: lineups, Bots: []string{"random"}, Games: 6, Seed: 3, Workers: 1}}); err != nil {
			return err
		}
		_, err = CardValues(ctx, CardValueConfig{Game: alphatactics.Ruleset{RS: rs}, Matchups: lineups, Bots: []string{"random"}, Games: 64, Precision: -1, Seed: 7, Workers: 1})
		return err
	}
	l := NewShardLedger(Shard{1, 1})
	if err := play(WithLedger(context.Background(), l)); err != nil {
		f.Fatal(err)
	}
	b, err := json.Marshal(l.Phases())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, phases []byte) {
		var ps []Phase
		if json.Unmarshal(phases, &ps) != nil {
			return
		}
		r, err := NewReplayLedger([][]Phase{ps})
		if err != nil {
			return
		}
		_ = play(WithLedger(context.Background(), r))
	})
}

// TestShardedGoofspielRunEqualsUnsharded: another game's run, its counts
// and records through shard files, replays to the unsharded run's.
func TestShardedGoofspielRunEqualsUnsharded(t *testing.T) {
	type out struct {
		run  *Report
		recs []GameRecord
	}
	play := func(ctx context.Context) (out, error) {
		var o out
		r, err := Run(ctx, Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player"}, {"player", "player", "player"}},
			Games: 30, Seed: 5, Workers: 2, Record: func(g *GameRecord) error { o.recs = append(o.recs, unitless(*g)); return nil }})
		if err != nil {
			return o, err
		}
		o.run = r.Report("test")
		return o, nil
	}
	want, err := play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := shardRuns(t, 2, play)
	if !reflect.DeepEqual(got.recs, want.recs) {
		t.Error("2 shards merged hand on other game records")
	}
	if got.run.Sum() != want.run.Sum() || got.run.Raw.Section("prizes") == nil {
		t.Error("2 shards merged give another simulation report")
	}
}

// unitless is g without its seats' win units, which records read back from
// a shard's file do not carry (GameRecord.Units is not written; Outcomes
// refuses a mirrored record without them).
func unitless(g GameRecord) GameRecord {
	g.Units = [game.MaxSeats]int64{}
	return g
}
