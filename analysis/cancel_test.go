package analysis

import (
	"context"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/ai"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/goofspiel"
)

// stopAfter plays like a random bot and sets the run's stop flag at its
// n-th decision, as Ctrl-C would in the middle of a game.
type stopAfter struct {
	r    *ai.Random
	n    *int
	stop *atomic.Bool
}

func (a stopAfter) Reseed(uint64) {}
func (a stopAfter) Choose(s *engine.State, legal []engine.Action) engine.Action {
	*a.n--
	if *a.n == 0 {
		a.stop.Store(true)
	}
	return a.r.Choose(s, legal)
}

// TestAbandonedGameLeavesNoCounts: a game cut short by a cancellation adds
// nothing to the counts — they equal those of the games finished before it,
// whatever point of the game it was stopped at.
func TestAbandonedGameLeavesNoCounts(t *testing.T) {
	rs := rules.Default()
	cfg := Config{Game: alphatactics.Ruleset{RS: rs}, Matchups: [][]string{{"starfleet", "klingon", "vulcan"}}, Games: 20, Seed: 4}
	p, err := newPlan(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	var never atomic.Bool
	want := newWorker(p, &never, nil)
	for i := range 5 {
		if _, err := want.play(i); err != nil {
			t.Fatal(err)
		}
	}
	for _, at := range []int{1, 7, 40, 150} {
		var stop atomic.Bool
		w := newWorker(p, &stop, nil)
		for i := range 5 {
			if _, err := w.play(i); err != nil {
				t.Fatal(err)
			}
		}
		n := at
		for q := range 3 {
			w.agents[q] = &alphatactics.Agent{A: stopAfter{r: ai.NewRandom(uint64(q)), n: &n, stop: &stop}}
		}
		if _, err := w.play(5); err != errAbandoned {
			t.Fatalf("stop at decision %d: play returned %v, want errAbandoned", at, err)
		}
		if got, exp := w.acc.counts(), want.acc.counts(); !reflect.DeepEqual(got, exp) {
			t.Errorf("stop at decision %d: the abandoned game left counts behind", at)
		}
	}
}

// TestRecordsStreamInOrder: Record sees every game once, in index order,
// whatever the number of workers, and the same records KeepGames keeps.
func TestRecordsStreamInOrder(t *testing.T) {
	cfg := Config{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"starfleet", "klingon"}, {"vulcan", "romulan"}},
		Games: 150, Seed: 8, Workers: 3, Shard: Shard{K: 2, N: 3}, KeepGames: true}
	var got []int
	cfg.Record = func(g *GameRecord) error { got = append(got, g.Index); return nil }
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 100 || len(res.Records) != 100 {
		t.Fatalf("%d records streamed, %d kept, want 100", len(got), len(res.Records))
	}
	for k, i := range got {
		if i != 1+3*k || res.Records[k].Index != i {
			t.Fatalf("record %d has index %d (kept %d), want %d", k, i, res.Records[k].Index, 1+3*k)
		}
	}
}

// TestCancelledRunIsConsistent: a run cancelled in the middle returns the
// finished games only, with a record for exactly each of them.
func TestCancelledRunIsConsistent(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"starfleet", "klingon"}}, Games: 1_000_000, Seed: 2, Workers: 2}
	n := 0
	cfg.Record = func(g *GameRecord) error { n++; return nil }
	time.AfterFunc(300*time.Millisecond, cancel)
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.Counts.Games == 0 || int64(n) != res.Counts.Games {
		t.Fatalf("partial %v, %d games counted, %d records", res.Partial, res.Counts.Games, n)
	}
	if err := res.Report("test").Raw.Check(); err != nil {
		t.Fatalf("the counts of a cancelled run are inconsistent: %v", err)
	}
}

// BenchmarkRunStreamedRecords plays b.N random games with every record
// streamed to a callback, as `simulate --games-out` does, and reports the
// largest live heap seen: run it with -benchtime 20000x and 200000x to see
// that memory does not grow with the number of games (issue 14 item 8).
func BenchmarkRunStreamedRecords(b *testing.B) {
	cfg := Config{Game: alphatactics.Ruleset{RS: rules.Default()}, Matchups: [][]string{{"starfleet", "klingon"}}, Games: b.N, Seed: 1, Workers: 2}
	var peak uint64
	n := 0
	cfg.Record = func(g *GameRecord) error {
		if n++; n%5000 == 0 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		return nil
	}
	b.ResetTimer()
	if _, err := Run(context.Background(), cfg); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}

// TestPairedRunStopsAtOnce: Ctrl-C reaches the bots' search loops in the
// paired runner (impact, sweep, diff, skill) — an ISMCTS bot with a huge
// budget returns within a second of the cancel, the game in play is not
// counted, and the result is partial.
func TestPairedRunStopsAtOnce(t *testing.T) {
	rs := rules.Default()
	variant := Variant(rs, "stop test", func(v *rules.Ruleset) { v.Cards[0].Power++ })
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	began := time.Now()
	res, err := Diff(ctx, DiffConfig{Base: alphatactics.Ruleset{RS: rs}, Variant: alphatactics.Ruleset{RS: variant}, PairedConfig: PairedConfig{
		Matchups: [][]string{{"starfleet", "klingon"}}, Bots: []string{"ismcts:iters=10000000"}, Games: 4, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took > 1300*time.Millisecond || !res.Partial {
		t.Fatalf("cancelled after 0.3 s: returned after %s, partial %v", took, res.Partial)
	}
	for _, f := range res.Factions {
		if f.Games != 0 {
			t.Errorf("%s: %d paired games counted, want none (no game could finish)", f.Faction, f.Games)
		}
	}
}

// TestAbandonedGoofspielGame: a game of another game cut short by a
// cancellation (through game.PlayGeneric) is not counted: the counts are
// those of the games finished before it.
func TestAbandonedGoofspielGame(t *testing.T) {
	cfg := Config{Game: goofspiel.Default(), Matchups: [][]string{{"player", "player", "player"}}, Games: 20, Seed: 4}
	p, err := newPlan(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	var never, stop atomic.Bool
	want, w := newWorker(p, &never, nil), newWorker(p, &stop, nil)
	for i := range 5 {
		if _, err := want.play(i); err != nil {
			t.Fatal(err)
		}
		if _, err := w.play(i); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	if _, err := w.play(5); err != errAbandoned {
		t.Fatalf("play returned %v, want errAbandoned", err)
	}
	if got, exp := w.acc.counts(), want.acc.counts(); !reflect.DeepEqual(got, exp) || got.Games != 5 {
		t.Errorf("the abandoned game was counted: %+v, want %+v", got, exp)
	}
}
