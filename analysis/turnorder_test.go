package analysis

import (
	"context"
	"reflect"
	"testing"

	"github.com/cardlab/cardlab/games/goofspiel"
	"github.com/cardlab/cardlab/games/spacetrace"
)

func spacetracePaired(games int) PairedConfig {
	side := spacetrace.First().Sides()[0].ID
	return PairedConfig{Matchups: [][]string{{side, side}}, Bots: []string{"greedy"}, Games: games, Seed: 7, Workers: 2}
}

// TestMirrorStartingSeat: on a mirror whose games say who began
// (Spacetrace: the starter is drawn per game), sweep and diff compare the
// seats in turn order, and the starting seat's share is the one simulate
// counts over the same games (Counts' start order, an independent count
// in the accumulator) — not seat 1's, which the drawn starter evens out.
func TestMirrorStartingSeat(t *testing.T) {
	g := spacetrace.First()
	pc := spacetracePaired(400)
	run, err := Run(context.Background(), Config{Game: g, Matchups: pc.Matchups, Bots: pc.Bots, Games: pc.Games, Seed: pc.Seed, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	seats := run.Counts.Seats
	if len(seats) != 1 || seats[0].Players != 2 || seats[0].Games != 400 {
		t.Fatalf("simulate's seats: %+v", seats)
	}
	share := func(units int64) float64 { return round6(float64(units) / float64(WinUnit*seats[0].Games)) }
	starter, second, seat1 := share(seats[0].StartWins[0]), share(seats[0].StartWins[1]), share(seats[0].SeatWins[0])
	t.Logf("simulate: starting seat %.3f, 2nd in turn %.3f, seat 1 %.3f", starter, second, seat1)
	if starter == seat1 {
		t.Fatalf("the starting seat's share %v is seat 1's: the test could not tell them apart", starter)
	}

	sw, err := Sweep(context.Background(), SweepConfig{Game: g, Field: "draw.per_turn", Values: []int{1, 2}, PairedConfig: pc})
	if err != nil {
		t.Fatal(err)
	}
	if sw.Compared != ComparedTurnOrder || sw.Current != 2 || len(sw.Points) != 2 {
		t.Fatalf("sweep: compared %q, current %d, %d points", sw.Compared, sw.Current, len(sw.Points))
	}
	now := sw.Points[1].Factions
	if len(now) != 2 || now[0].Faction != "starting seat" || now[1].Faction != "2nd in turn" {
		t.Fatalf("sweep's entries: %+v", now)
	}
	if now[0].Variant != starter || now[1].Variant != second {
		t.Errorf("sweep at the current value: starting seat %v, 2nd in turn %v; simulate counts %v and %v", now[0].Variant, now[1].Variant, starter, second)
	}
	// The starter's advantage is real in this game (about 60% with
	// greedy): its interval excludes the fair share.
	if ci := now[0].VariantCI95; !(ci[0] > 0.5) {
		t.Errorf("the starting seat's interval %v does not exclude 50%%", ci)
	}

	df, err := Diff(context.Background(), DiffConfig{Base: g, Variant: spacetraceDraw(t, 1), PairedConfig: pc})
	if err != nil {
		t.Fatal(err)
	}
	if df.Compared != ComparedTurnOrder || len(df.Factions) != 2 || df.Factions[0].Faction != "starting seat" {
		t.Fatalf("diff: compared %q, entries %+v", df.Compared, df.Factions)
	}
	if df.Factions[0].Base != starter {
		t.Errorf("diff's base starting seat %v, simulate counts %v", df.Factions[0].Base, starter)
	}
	// The same value swept and diffed is the same paired comparison.
	if one := sw.Points[0].Factions[0]; df.Factions[0].Variant != one.Variant || df.Factions[0].Delta != one.Delta {
		t.Errorf("diff to draw 1: %+v; sweep's point 1: %+v", df.Factions[0], one)
	}

	// skill compares the same seats: its greedy level is simulate's
	// starting seat, not seat 1.
	sk, err := Skill(context.Background(), SkillConfig{Game: g, Levels: []string{"random", "greedy"}, PairedConfig: pc})
	if err != nil {
		t.Fatal(err)
	}
	if sk.Compared != ComparedTurnOrder || len(sk.Factions) != 2 || sk.Factions[0].Faction != "starting seat" || sk.Factions[1].Faction != "2nd in turn" {
		t.Fatalf("skill: compared %q, entries %+v", sk.Compared, sk.Factions)
	}
	if got := sk.Factions[0].Levels[1].WinRate; got != starter {
		t.Errorf("skill's greedy starting seat %v, simulate counts %v", got, starter)
	}
}

// TestMirrorWithoutStarterComparesSeats: Goofspiel's bids are
// simultaneous (its states are no game.Starter): its seats stay the
// entities, in table order.
func TestMirrorWithoutStarterComparesSeats(t *testing.T) {
	pc := PairedConfig{Matchups: [][]string{{"player", "player"}}, Bots: []string{"greedy", "random"}, Games: 20, Seed: 1, Workers: 1}
	res, err := Sweep(context.Background(), SweepConfig{Game: goofspiel.Default(), Card: "prize-1", Field: "value", Values: []int{1, 5}, PairedConfig: pc})
	if err != nil {
		t.Fatal(err)
	}
	if res.Compared != ComparedSeats || res.Points[0].Factions[0].Faction != "seat 1" {
		t.Errorf("compared %q, entries %+v", res.Compared, res.Points[0].Factions)
	}
}

// TestShardedMirrorEqualsUnsharded: a mirror's sweep and diff through
// shard files replay to the unsharded results — the starting seats travel
// with the outcomes (ArmPhase.Starts); without them every replayed game
// would have begun with seat 1.
func TestShardedMirrorEqualsUnsharded(t *testing.T) {
	g := spacetrace.First()
	pc := spacetracePaired(60)
	sweep := func(ctx context.Context) (*SweepResult, error) {
		return Sweep(ctx, SweepConfig{Game: g, Field: "draw.per_turn", Values: []int{1, 2, 3}, PairedConfig: pc})
	}
	want, err := sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	v := spacetraceDraw(t, 1)
	diff := func(ctx context.Context) (*DiffResult, error) {
		return Diff(ctx, DiffConfig{Base: g, Variant: v, PairedConfig: pc})
	}
	wantDiff, err := diff(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 3} {
		got := shardRuns(t, n, sweep)
		got.Timing, want.Timing = Timing{}, Timing{}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d shards of the sweep merged differ from the unsharded sweep:\n%+v\nwant\n%+v", n, got.Points, want.Points)
		}
		gotDiff := shardRuns(t, n, diff)
		gotDiff.Timing, wantDiff.Timing = Timing{}, Timing{}
		if !reflect.DeepEqual(gotDiff, wantDiff) {
			t.Errorf("%d shards of the diff merged differ from the unsharded diff:\n%+v\nwant\n%+v", n, gotDiff.Factions, wantDiff.Factions)
		}
	}
}
