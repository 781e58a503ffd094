// Package analysis runs batches of games and turns what happened in them into
// statistics: a parallel runner with deterministic seeds and shards,
// mergeable integer accumulators, and the figures computed from them with
// their confidence intervals. It does no printing or formatting.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/internal/bug"
)

// BotSalt separates the bots' seeds from a game's own chance stream: seat p's
// bot in the game with seed s is seeded with game.SeedFor(s^BotSalt, p), as
// `cardlab play --seed s` does, so any simulated game can be replayed there.
const BotSalt = 0xb07b07b07

// Shard selects the part of a run one process plays: shard K of N (1-based)
// plays the games whose global index i has i mod N == K-1. The zero value is
// the whole run.
type Shard struct{ K, N int }

func (s Shard) norm() Shard {
	if s.N == 0 && s.K == 0 {
		return Shard{1, 1}
	}
	return s
}

func (s Shard) String() string { s = s.norm(); return fmt.Sprintf("%d/%d", s.K, s.N) }

// Config describes a run.
type Config struct {
	// Game is the ruleset played (Alpha Tactics': alphatactics.Ruleset),
	// through the contracts with its bots (bots.ParseFor): the core's counts
	// and the game's own (game.Counted), and records of the core and the
	// game's named integers (game.Recorder).
	Game game.Ruleset
	// Matchups are the seat lineups to play, each a list of faction ids.
	// Game j of a lineup seats it rotated by j mod its size, so every faction
	// sits in every seat equally often.
	Matchups [][]string
	// Bots holds one bot spec for every seat or one per seat (then every
	// lineup must have that many seats). Bots belong to seats, not factions.
	Bots []string
	// Games per matchup, over all shards.
	Games int
	Seed  uint64
	// Workers is the number of goroutines playing games (0: runtime.NumCPU()).
	// It never changes the result.
	Workers int
	Shard   Shard
	// KeepGames keeps a record of every game in Result.Records (memory grows
	// with the number of games; prefer Record).
	KeepGames bool
	// Record, if set, receives the record of every game counted, in
	// game-index order, from one goroutine, as the games finish: memory does
	// not grow with the number of games (cardlab simulate --games-out). An
	// error from it stops the run, and Run returns it.
	Record func(*GameRecord) error
	// MinSample is the sample size below which figures are flagged low_n
	// (0: DefaultMinSample; negative: none, nothing is flagged).
	MinSample int
	// Progress, if set, is called now and then from Run's goroutine with the
	// games done and the games this shard plays.
	Progress func(done, total int)
	// BotSalt, when non-zero, replaces BotSalt: the same deals with other
	// bot streams (tests of same-tier noise, docs/metrics.md "Skill-dependent").
	BotSalt uint64
}

// Result is what Run returns.
type Result struct {
	Config  Config
	Counts  *Counts
	Partial bool // cancelled before every game was played
	// Total is the number of games this shard was to play (Counts.Games of
	// them were played).
	Total   int
	Elapsed time.Duration
	// Records holds one record per game in game-index order, if KeepGames.
	Records []GameRecord
	// g is the ruleset played (nil in a Result made by hand).
	g game.Ruleset
}

// GameRecord describes one game (cardlab simulate --games-out): the core's
// record and the game's named integers (game.Recorder). Its JSON writes
// the game's integers after "vp" (records.go).
type GameRecord struct {
	Index int    `json:"index"` // global game index
	Seed  uint64 `json:"seed"`  // replay: cardlab play --players F --bots B --seed S
	// Factions and Bots are by seat.
	Factions  []string   `json:"factions"`
	Bots      []string   `json:"bots"`
	StartSeat int        `json:"start_seat"` // seat that began the game (1-based)
	Winners   []string   `json:"winners"`
	VP        []VPRecord `json:"vp"` // by seat
	// Game are the game's own integers (Alpha Tactics: "rounds").
	Game      []game.Named `json:"-"`
	Decisions int          `json:"decisions"`
	// Units are the seats' win units (WinUnit split among the winners),
	// for Outcomes where one side holds several seats and Winners cannot
	// tell them apart; not written.
	Units [game.MaxSeats]int64 `json:"-"`
}

// VPRecord is one seat's final score: Total is its Score, Named the game's
// breakdown (Alpha Tactics: target_vp, bonus_vp, planet_bonus, total,
// planets, targets), which JSON writes in its order after "faction"; a
// game without one writes "total" alone.
type VPRecord struct {
	Faction string
	Total   int
	Named   []game.Named
}

// Reseeder may be implemented by an agent that can start over as if newly
// made by bots.ParseFor with the given seed; the runner then reuses it between
// games instead of building a new one.
type Reseeder interface {
	Reseed(seed uint64)
}

type lineup struct {
	ids []string
	fac []int // side indices, by position; a side may repeat where the game mirrors
}

// plan is a validated Config.
type plan struct {
	// g is the ruleset: lineups are resolved, states and bots made through
	// it.
	g        game.Ruleset
	lineups  []lineup
	factions []int // factions in any lineup, ascending
	sizes    []int // table sizes, ascending
	bots     []string
	games    int
	seed     uint64
	shard    Shard
	total    int // games this shard plays
	botSalt  uint64
	// quality: Run's games replay the game-quality sample (quality.go),
	// every qualityEvery-th game; the paired analyses' arms do not.
	quality      bool
	qualityEvery int
}

// ErrConfig reports a bad run configuration.
var ErrConfig = errors.New("analysis: bad configuration")

func newPlan(cfg *Config) (*plan, error) {
	if cfg.Game == nil {
		return nil, fmt.Errorf("%w: no ruleset", ErrConfig)
	}
	return planLineups(cfg, cfg.Game)
}

// planLineups validates cfg's games, shard and lineups against g's seats
// and sides: a lineup names each seat's side by id; a side takes two seats
// of one lineup only where g.Mirror() allows it. The side is named in the
// game's vocabulary ("faction").
func planLineups(cfg *Config, g game.Ruleset) (*plan, error) {
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("%w: games must be at least 1, got %d", ErrConfig, cfg.Games)
	}
	sh := cfg.Shard.norm()
	if sh.N < 1 || sh.K < 1 || sh.K > sh.N {
		return nil, fmt.Errorf("%w: shard %d/%d (want k/n with 1 <= k <= n)", ErrConfig, sh.K, sh.N)
	}
	p := &plan{g: g, games: cfg.Games, seed: cfg.Seed, shard: sh, botSalt: cfg.BotSalt}
	side := "side"
	if gm, ok := game.Lookup(g.Game()); ok {
		side = gm.Vocabulary().Side
	}
	sides := g.Sides()
	ids := make([]string, len(sides))
	byID := make(map[string]int, len(sides))
	for i, sd := range sides {
		ids[i] = sd.ID
		byID[sd.ID] = i
	}
	lo, hi := g.Seats()
	mirror := g.Mirror()
	inRun := make([]bool, len(sides))
	seen := map[string]bool{}
	for _, lids := range cfg.Matchups {
		n := len(lids)
		if n < lo || n > hi {
			return nil, fmt.Errorf("%w: lineup %s has %d players; the rules allow %d to %d", ErrConfig, strings.Join(lids, ","), n, lo, hi)
		}
		l := lineup{ids: slices.Clone(lids)}
		for _, id := range lids {
			f, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("%w: unknown %s %q (have %s)", ErrConfig, side, id, strings.Join(ids, ", "))
			}
			if !mirror && slices.Contains(l.fac, f) {
				return nil, fmt.Errorf("%w: %s %q twice in lineup %s", ErrConfig, side, id, strings.Join(lids, ","))
			}
			l.fac = append(l.fac, f)
			inRun[f] = true
		}
		key := strings.Join(lids, ",")
		if seen[key] {
			return nil, fmt.Errorf("%w: lineup %s given twice", ErrConfig, key)
		}
		seen[key] = true
		p.lineups = append(p.lineups, l)
		if !slices.Contains(p.sizes, n) {
			p.sizes = append(p.sizes, n)
		}
	}
	slices.Sort(p.sizes)
	for f, ok := range inRun {
		if ok {
			p.factions = append(p.factions, f)
		}
	}
	switch {
	case len(cfg.Bots) == 0:
		p.bots = []string{"random"}
	case len(cfg.Bots) == 1:
		p.bots = []string{normSpec(cfg.Bots[0])}
	default:
		for _, l := range p.lineups {
			if len(l.ids) != len(cfg.Bots) {
				return nil, fmt.Errorf("%w: %d bots for lineup %s of %d players (give one for all or one per seat)", ErrConfig, len(cfg.Bots), strings.Join(l.ids, ","), len(l.ids))
			}
		}
		for _, b := range cfg.Bots {
			p.bots = append(p.bots, normSpec(b))
		}
	}
	for _, b := range p.bots {
		if _, err := bots.ParseFor(g, b, 0); err != nil {
			return nil, err
		}
	}
	p.qualityEvery = qualityStride(p.bots)
	all := len(p.lineups) * p.games
	if k := sh.K - 1; k < all {
		p.total = (all-1-k)/sh.N + 1
	}
	return p, nil
}

func normSpec(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// botFor returns the spec of seat p.
func (p *plan) botFor(seat int) string {
	if len(p.bots) == 1 {
		return p.bots[0]
	}
	return p.bots[seat]
}

// Run plays the games of cfg (the shard's part of them) on a pool of workers
// and returns their counts. The result depends only on the ruleset, the
// matchups, the bots, the number of games, the seed and the shard — never on
// the number of workers. When ctx is cancelled, the games in play are
// abandoned at once (a bot's search is cut short, see bots.Stoppable), their
// counts taken back, and Run returns the finished games with Partial set.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	p, err := newPlan(&cfg)
	if err != nil {
		return nil, err
	}
	p.quality = true
	ledger := ledgerFrom(ctx)
	if ledger.Replaying() {
		return ledger.replayRun(cfg, p)
	}
	if ledger.Recording() && cfg.Shard.norm() == (Shard{1, 1}) {
		cfg.Shard = ledger.shard
		if p, err = newPlan(&cfg); err != nil {
			return nil, err
		}
		p.quality = true
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = max(1, min(workers, p.total))
	began := time.Now()

	var next, done atomic.Int64
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop, unwatch := stopFlag(ctx)
	defer unwatch()
	var keep []GameRecord
	record := cfg.Record
	if cfg.KeepGames || ledger.Recording() && cfg.Record != nil {
		record = func(g *GameRecord) error {
			if cfg.Record != nil {
				if err := cfg.Record(g); err != nil {
					return err
				}
			}
			keep = append(keep, *g)
			return nil
		}
	}
	var out *recordSink
	if record != nil {
		out = newRecordSink(record, 256*workers, ctx.Done(), cancel)
	}
	ws := make([]*worker, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range ws {
		ws[w] = newWorker(p, stop, out)
		goWork(&wg, &errs[w], cancel, func() error { return ws[w].run(&next, &done) })
	}
	finished := make(chan struct{})
	var closeErr error // read after finished is closed
	go func() {
		defer close(finished)
		defer func() { closeErr = bug.From(recover()) }() // cfg.Record's panic
		wg.Wait()
		if out != nil {
			out.close()
		}
	}()
	progress(cfg.Progress, &done, p.total, finished)
	if out != nil {
		errs = append(errs, out.err, closeErr)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	total := ws[0].acc
	for _, w := range ws[1:] {
		total.merge(w.acc)
	}
	res := finishResult(cfg, p, total.counts(), time.Since(began), int(total.games) < p.total, keep)
	if ledger.Recording() {
		ledger.record(&Phase{Kind: phaseRun, Key: runKey(&cfg, p), Rulesets: []string{p.g.Info().Hash}, Games: res.Counts.Games,
			Seconds: res.Elapsed.Seconds(), Counts: res.Counts, Records: keep, partial: res.Partial})
		if !cfg.KeepGames {
			res.Records = nil
		}
	}
	return res, nil
}

// goWork runs work on a goroutine counted by wg; its error or panic goes
// to *err and cancels the run.
func goWork(wg *sync.WaitGroup, err *error, cancel func(), work func() error) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if e := bug.From(recover()); e != nil {
				*err = e
				cancel()
			}
		}()
		if e := work(); e != nil {
			*err = e
			cancel()
		}
	}()
}

// progress calls report, if set, with the games done of total now and then
// until finished is closed, and once more at the end; it returns when
// finished is closed.
func progress(report func(done, total int), done *atomic.Int64, total int, finished <-chan struct{}) {
	if report == nil {
		<-finished
		return
	}
	report(0, total)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-finished:
			report(int(done.Load()), total)
			return
		case <-tick.C:
			report(int(done.Load()), total)
		}
	}
}

// finishResult is the Result of the games counted in c.
func finishResult(cfg Config, p *plan, c *Counts, elapsed time.Duration, partial bool, keep []GameRecord) *Result {
	res := &Result{Config: cfg, Counts: c, Elapsed: elapsed, Partial: partial, Total: p.total, g: p.g}
	res.Config.Matchups = nil
	for _, l := range p.lineups {
		res.Config.Matchups = append(res.Config.Matchups, l.ids)
	}
	res.Config.Bots, res.Config.Shard = p.bots, p.shard
	switch {
	case res.Config.MinSample == 0:
		res.Config.MinSample = DefaultMinSample
	case res.Config.MinSample < 0:
		res.Config.MinSample = 0
	}
	res.Records = keep
	return res
}

// Report summarises the result; toolVersion names the program that made it.
func (r *Result) Report(toolVersion string) *Report {
	cfg := r.Config
	g := r.g
	if g == nil {
		g = cfg.Game
	}
	sh := cfg.Shard.norm()
	secs := r.Elapsed.Seconds()
	info := g.Info()
	ri := RulesetInfo{Name: info.Name, Version: info.Version, Hash: info.Hash}
	if id := g.Game(); id != game.DefaultID {
		ri.Game = id
	}
	h := header{
		tool:    toolVersion,
		ruleset: ri,
		config: ConfigInfo{Matchups: cfg.Matchups, Bots: cfg.Bots, Games: cfg.Games, Seed: cfg.Seed,
			Shard: ShardInfo{N: sh.N, K: []int{sh.K}}, MinSample: cfg.MinSample},
		partial: r.Partial,
		timing:  timing(r.Counts.Games, secs),
	}
	return summarize(h, r.Counts)
}

func timing(games int64, secs float64) Timing {
	// Rounded as floats: an int64 conversion wraps around beyond 9.2e15 s.
	t := Timing{Seconds: math.Round(secs*1000) / 1000}
	if secs > 0 {
		t.GamesPerSecond = math.Round(float64(games)/secs*10) / 10
	}
	return t
}

// worker plays games with its own states, agents and accumulator.
type worker struct {
	p      *plan
	acc    *acc
	stop   *atomic.Bool      // the run is cancelled
	out    *recordSink       // nil: no records wanted
	states map[[2]int]*table // by lineup and rotation
	// agents are the seats' bots (bots.ParseFor), made for the first game
	// and reseeded for the next where they can be (Reseeder).
	agents [game.MaxSeats]game.Agent
	buf    []game.Action // the generic loop's scratch
	moves  []game.Action // of the game in play, to take it back if abandoned
	// replays are the quality sample's states (quality.go), by table;
	// best its scratch.
	replays map[*table]game.State
	best    []int
}

// table is a worker's state for one lineup and rotation, and the state as
// a Starter (nil if it is none).
type table struct {
	st      game.State
	starter game.Starter
}

func newWorker(p *plan, stop *atomic.Bool, out *recordSink) *worker {
	return &worker{p: p, acc: newAcc(p), stop: stop, out: out, states: map[[2]int]*table{},
		buf: make([]game.Action, 0, 256), moves: make([]game.Action, 0, 512)}
}

// errAbandoned: the run was cancelled during the game, which is not counted.
var errAbandoned = errors.New("analysis: game abandoned")

// maxDecisions bounds a game; beyond it the engine is looping.
const maxDecisions = game.MaxDecisions

func (w *worker) run(next, done *atomic.Int64) error {
	p := w.p
	for !w.stop.Load() {
		if w.out != nil && !w.out.acquire() {
			return nil
		}
		t := int(next.Add(1) - 1)
		if t >= p.total {
			return nil
		}
		i := p.shard.K - 1 + t*p.shard.N
		rec, err := w.play(i)
		if err == errAbandoned {
			if w.out != nil {
				w.out.skip(t)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if w.out != nil {
			w.out.put(t, rec)
		}
		done.Add(1)
	}
	return nil
}

// state is the worker's table for lineup li seated with rotation rot: seat
// q plays the side at position (q+rot) mod n of the lineup.
func (w *worker) state(li, rot int) (*table, error) {
	key := [2]int{li, rot}
	if t := w.states[key]; t != nil {
		return t, nil
	}
	t, err := newTable(w.p, li, rot, w.acc)
	if err != nil {
		return nil, err
	}
	w.states[key] = t
	return t, nil
}

// newTable makes p's state for lineup li seated with rotation rot — seat q
// plays the side at position (q+rot) mod n — attached to ac if it is not
// nil.
func newTable(p *plan, li, rot int, ac *acc) (*table, error) {
	fac := p.lineups[li].fac
	n := len(fac)
	seats := make([]int, n)
	for q := range seats {
		seats[q] = fac[(q+rot)%n]
	}
	st, err := p.g.NewState(seats, 0)
	if err != nil {
		return nil, err
	}
	t := &table{st: st}
	t.starter, _ = st.(game.Starter)
	if ac != nil {
		ac.attach(st)
	}
	return t, nil
}

// play plays the game with global index i and returns its record (when
// records are wanted). When the run is cancelled during the game it takes
// the game's counts back and returns errAbandoned.
func (w *worker) play(i int) (*GameRecord, error) {
	p := w.p
	li, j := i/p.games, i%p.games
	n := len(p.lineups[li].ids)
	rot := j % n
	t, err := w.state(li, rot)
	if err != nil {
		return nil, err
	}
	seed := game.SeedFor(p.seed, uint64(i))
	salt := uint64(BotSalt)
	if p.botSalt != 0 {
		salt = p.botSalt
	}
	if err := seatAgents(&w.agents, n, p.g, p.botFor, seed^salt, w.stop); err != nil {
		return nil, err
	}
	t.st.Reset(seed)
	w.moves, err = playOut(t.st, w.agents[:n], w.stop, w.moves[:0], &w.buf)
	if err == game.ErrStopped {
		takeBack(w.acc, w.p, t.st, func() {
			t.st.Reset(seed)
			for _, a := range w.moves {
				t.st.Apply(a)
			}
		})
		return nil, errAbandoned
	}
	if err != nil {
		return nil, fmt.Errorf("game %d (seed %d, lineup %s): %w", i, seed, strings.Join(p.lineups[li].ids, ","), err)
	}
	units := w.acc.finish(t.st, t.starter, li, rot, len(w.moves))
	if p.quality && sampled(i, p.qualityEvery) {
		if err := w.quality(t, li, rot, seed); err != nil {
			return nil, err
		}
	}
	if w.out == nil {
		return nil, nil
	}
	g := w.record(t, i, seed, units, li, rot)
	return &g, nil
}

// seatAgents makes ready in agents the bots of a game's n seats: seat q's
// is seeded with game.SeedFor(salted, q) (salted: the game's seed ^ the bot
// salt) — reseeded where an earlier game left one that can be (Reseeder),
// else made by bots.ParseFor from spec(q) and handed the run's stop flag
// (bots.Stoppable). The caller clears agents when the specs or the ruleset
// change.
func seatAgents(agents *[game.MaxSeats]game.Agent, n int, g game.Ruleset, spec func(int) string, salted uint64, stop *atomic.Bool) error {
	for q := 0; q < n; q++ {
		bs := game.SeedFor(salted, uint64(q))
		if r, ok := agents[q].(Reseeder); ok {
			r.Reseed(bs) // seat q's spec never changes within a plan
			continue
		}
		a, err := bots.ParseFor(g, spec(q), bs)
		if err != nil {
			return err
		}
		if st, ok := a.(bots.Stoppable); ok {
			st.SetStop(stop)
		}
		agents[q] = a
	}
	return nil
}

// playOut plays s to its end: with the game's own loop where it has one
// (game.PlayOuter: Alpha Tactics' never crosses an interface per
// decision), else through the contracts.
func playOut(s game.State, agents []game.Agent, stop *atomic.Bool, moves []game.Action, buf *[]game.Action) ([]game.Action, error) {
	if po, ok := s.(game.PlayOuter); ok {
		return po.PlayOut(agents, stop, moves)
	}
	var err error
	moves, *buf, err = game.PlayGeneric(s, agents, stop, moves, *buf)
	return moves, err
}

// stopFlag is ctx's cancellation as a flag the workers and the bots'
// search loops can test for free. A ctx cancelled already sets it at once
// (AfterFunc would set it from a goroutine of its own, and fast games could
// all finish first); unwatch stops watching ctx.
func stopFlag(ctx context.Context) (stop *atomic.Bool, unwatch func() bool) {
	stop = new(atomic.Bool)
	if ctx.Err() != nil {
		stop.Store(true)
	}
	return stop, context.AfterFunc(ctx, func() { stop.Store(true) })
}

// takeBack removes from into what the unfinished game on s (of plan p) has
// counted: only the game's Counter counts before a game ends, so replay
// plays its moves so far again from its seed into a fresh Counter, which
// is subtracted. s is left attached to into's Counter.
func takeBack(into *acc, p *plan, s game.State, replay func()) {
	if into.ctr == nil {
		return
	}
	undo := p.g.(game.Counted).NewCounter(p.factions)
	undo.Attach(s)
	replay()
	into.ctr.Attach(s)
	into.ctr.Sub(undo)
}

// record is the record of the finished game i on t (lineup li, rotation
// rot) with its seed and the seats' win units.
func (w *worker) record(t *table, i int, seed uint64, units [game.MaxSeats]int64, li, rot int) GameRecord {
	s := t.st
	n := s.NumSeats()
	start := 0
	if t.starter != nil {
		start, _ = t.starter.Starter()
	}
	g := GameRecord{Index: i, Seed: seed, StartSeat: start + 1, Winners: []string{}, Decisions: len(w.moves), Units: units}
	rec, _ := s.(game.Recorder)
	if rec != nil {
		g.Game = rec.GameRecord(nil)
	}
	sides, fac := w.p.g.Sides(), w.p.lineups[li].fac
	for q := 0; q < n; q++ {
		id := sides[fac[(q+rot)%n]].ID
		g.Factions = append(g.Factions, id)
		g.Bots = append(g.Bots, w.p.botFor(q))
		if units[q] > 0 {
			g.Winners = append(g.Winners, id)
		}
		v := VPRecord{Faction: id, Total: s.Score(q)}
		if rec != nil {
			v.Named = rec.SeatRecord(q, nil)
		}
		g.VP = append(g.VP, v)
	}
	return g
}
