package analysis

// Paired runs: several arms (rulesets, bots) play the same games — the same
// lineups, per-game seeds and seat rotations as `cardlab simulate` — so that
// deals and target orders match between arms (the game's chance stream is
// separate from the bots'). Per-game outcomes are stored by global game
// index and every statistic is computed from exact integer sums, so a result
// never depends on the number of workers.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/cardlab/cardlab/game"
)

// DefaultAlpha is the significance level of the paired analyses.
const DefaultAlpha = 0.05

// signExactBelow: with fewer games whose outcome differs between the arms,
// the p-value comes from the exact sign test instead of the t approximation
// (the usual rule for McNemar's test: exact below 25 discordant pairs).
const signExactBelow = 25

// PairedConfig is what every arm of a paired analysis shares.
type PairedConfig struct {
	// Matchups are the lineups (faction ids in seat order). Game j of lineup
	// m has global index m·Games + j and seed game.SeedFor(Seed, index), its
	// seats rotated by j mod the lineup size: the games of `cardlab
	// simulate` with the same flags.
	Matchups [][]string
	// Bots: one spec for every seat or one per seat (an arm may override).
	Bots  []string
	Games int // per lineup
	Seed  uint64
	// Workers playing games (0: runtime.NumCPU()); never changes a result.
	Workers int
	// MinSample flags figures resting on fewer games (0: DefaultMinSample,
	// negative: none).
	MinSample int
	// Alpha is the significance level (0: DefaultAlpha).
	Alpha float64
	// Progress, if set, is called now and then with games done and total.
	Progress func(done, total int)
}

func (c *PairedConfig) alpha() float64 {
	if c.Alpha <= 0 || c.Alpha >= 1 {
		return DefaultAlpha
	}
	return c.Alpha
}

func (c *PairedConfig) minSample() int {
	switch {
	case c.MinSample == 0:
		return DefaultMinSample
	case c.MinSample < 0:
		return 0
	}
	return c.MinSample
}

func (c *PairedConfig) info(bots []string) ArmInfo {
	m := make([][]string, len(c.Matchups))
	for i, l := range c.Matchups {
		m[i] = slices.Clone(l)
	}
	return ArmInfo{Matchups: m, Bots: slices.Clone(bots), Games: c.Games, Seed: c.Seed, MinSample: c.minSample()}
}

// arm is one side of a paired comparison.
type arm struct {
	// g is the arm's ruleset (Alpha Tactics': alphatactics.Ruleset): its
	// games are played through the contracts with its bots (bots.ParseFor).
	g game.Ruleset
	// variant: another game's arm played through its game.Valuer's
	// Variants (impact), with card index blank's copy blanked for the
	// first lineup position of its side (blank -1: nothing blanked).
	variant bool
	blank   int
	// blankSide is the side of card blank, ncards the game's card count.
	blankSide, ncards int
	bots              []string // nil: the config's
	// lineups lists the lineup indices this arm plays (nil: all).
	lineups []int
	// counts: observe the games and accumulate Counts (the simulate figures).
	counts bool
	// botSalt, when non-zero, replaces BotSalt (tests: arms that differ only
	// in the bots' streams).
	botSalt uint64

	plan *plan // validated, with every lineup (indices match the config)
	// units[i*MaxPlayers+k] is the win units of position k of game i's
	// lineup; units[i*MaxPlayers] is -1 for a game not played.
	units []int8
	// starts[i] is the seat that began game i (game.Starter; 0 for a game
	// without one): what the starting-seat comparisons pair (pairTurn). A
	// shard's ledger records it with the outcomes (ArmPhase.Starts).
	starts []int8
	played int64
	// Counts, when counts was set.
	Counts *Counts
}

func (a *arm) botFor(seat int) string { return a.plan.botFor(seat) }

// outcome returns the win units of the faction at lineup position k in
// game i, or -1 if the game was not played.
func (a *arm) outcome(i, k int) int {
	if a.units[i*game.MaxSeats] < 0 {
		return -1
	}
	return int(a.units[i*game.MaxSeats+k])
}

// shareUnplayed gives a the outcomes of base in the lineups a did not play:
// for arms whose change cannot matter there (a card of a faction not at the
// table), those games are identical to base's. a.played still counts only
// the games a played itself.
func (a *arm) shareUnplayed(base *arm) {
	a.lineups = slices.Clone(a.lineups)
	for li := range a.plan.lineups {
		if slices.Contains(a.lineups, li) || !slices.Contains(base.lineups, li) {
			continue
		}
		g := a.plan.games
		copy(a.units[li*g*game.MaxSeats:(li+1)*g*game.MaxSeats], base.units[li*g*game.MaxSeats:(li+1)*g*game.MaxSeats])
		copy(a.starts[li*g:(li+1)*g], base.starts[li*g:(li+1)*g])
		a.lineups = append(a.lineups, li)
	}
	slices.Sort(a.lineups)
}

// covered counts the games with an outcome in a (played or shared).
func (a *arm) covered() int64 {
	n := int64(0)
	for i := 0; i < len(a.units); i += game.MaxSeats {
		if a.units[i] >= 0 {
			n++
		}
	}
	return n
}

// runArms plays every arm's games on one pool of workers. It returns
// whether the context stopped it before every game was played.
func runArms(ctx context.Context, cfg *PairedConfig, arms []*arm) (partial bool, elapsed time.Duration, err error) {
	if cfg.Games < 1 {
		return false, 0, fmt.Errorf("%w: games must be at least 1, got %d", ErrConfig, cfg.Games)
	}
	nl := len(cfg.Matchups)
	all := make([]int, nl)
	for i := range all {
		all[i] = i
	}
	// Tasks: chunks of one lineup's games in one arm, arm by arm so that a
	// worker's game states stay few.
	type task struct{ arm, li, j0, j1 int }
	// A shard plays the games i (over the lineups, i = li·Games + j) with
	// i mod n = k−1, in every arm, so that it holds whole pairs.
	ledger := ledgerFrom(ctx)
	mine := func(int) bool { return true }
	if ledger.Recording() {
		sh := ledger.shard
		mine = func(i int) bool { return i%sh.N == sh.K-1 }
	}
	const chunk = 50
	var tasks []task
	total := 0
	for ai, a := range arms {
		b := a.bots
		if b == nil {
			b = cfg.Bots
		}
		if a.variant && a.counts {
			return false, 0, errors.New("analysis: a variant arm cannot count (an analysis bug)")
		}
		p, err := newPlan(&Config{Game: a.g, Matchups: cfg.Matchups, Bots: b, Games: cfg.Games, Seed: cfg.Seed})
		if err != nil {
			return false, 0, err
		}
		a.plan = p
		if a.lineups == nil {
			a.lineups = slices.Clone(all)
		}
		a.units = make([]int8, nl*cfg.Games*game.MaxSeats)
		a.starts = make([]int8, nl*cfg.Games)
		for i := 0; i < len(a.units); i += game.MaxSeats {
			a.units[i] = -1
		}
		for _, li := range a.lineups {
			for j := 0; j < cfg.Games; j += chunk {
				tasks = append(tasks, task{ai, li, j, min(j+chunk, cfg.Games)})
				for jj := j; jj < min(j+chunk, cfg.Games); jj++ {
					if mine(li*cfg.Games + jj) {
						total++
					}
				}
			}
		}
	}
	if ledger.Replaying() {
		elapsed, err := ledger.replayArms(cfg, arms)
		if err != nil {
			return false, 0, err
		}
		for _, a := range arms {
			for i := 0; i < len(a.units); i += game.MaxSeats {
				if a.units[i] >= 0 {
					a.played++
				}
			}
		}
		return false, elapsed, nil
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = max(1, min(workers, len(tasks)))
	began := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop, unwatch := stopFlag(ctx)
	defer unwatch()
	var next atomic.Int64
	var done atomic.Int64
	ws := make([]*pairWorker, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range ws {
		ws[w] = &pairWorker{cfg: cfg, arms: arms, cur: -1, accs: map[int]*acc{}, buf: make([]game.Action, 0, 256), stop: stop,
			moves: make([]game.Action, 0, 512)}
		pw := ws[w]
		goWork(&wg, &errs[w], cancel, func() error {
			for ctx.Err() == nil {
				t := int(next.Add(1) - 1)
				if t >= len(tasks) {
					return nil
				}
				tk := tasks[t]
				for j := tk.j0; j < tk.j1 && ctx.Err() == nil; j++ {
					if !mine(tk.li*cfg.Games + j) {
						continue
					}
					err := pw.play(tk.arm, tk.li, j)
					if err == errAbandoned {
						return nil
					}
					if err != nil {
						return err
					}
					done.Add(1)
				}
			}
			return nil
		})
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	progress(cfg.Progress, &done, total, finished)
	if err := errors.Join(errs...); err != nil {
		return false, 0, err
	}
	for ai, a := range arms {
		var sum *acc
		for _, w := range ws {
			if x := w.accs[ai]; x != nil {
				if sum == nil {
					sum = x
				} else {
					sum.merge(x)
				}
			}
		}
		if a.counts {
			if sum == nil {
				sum = newAcc(a.plan)
			}
			a.Counts = sum.counts()
		}
		for i := 0; i < len(a.units); i += game.MaxSeats {
			if a.units[i] >= 0 {
				a.played++
			}
		}
	}
	partial = int(done.Load()) < total
	if ledger.Recording() {
		ledger.recordArms(cfg, arms, partial, time.Since(began))
	}
	return partial, time.Since(began), nil
}

// pairWorker plays games of any arm with its own states and accumulators.
type pairWorker struct {
	cfg    *PairedConfig
	arms   []*arm
	cur    int // arm whose states are cached
	states map[[2]int]*table
	accs   map[int]*acc
	// agents are the seats' bots, made for the arm w.cur and reseeded from
	// game to game (seatAgents).
	agents [game.MaxSeats]game.Agent
	buf    []game.Action
	// stop is the run's cancellation as a flag (bots' searches see it too);
	// moves are the game's actions so far, to take an abandoned game's
	// counts back.
	stop  *atomic.Bool
	moves []game.Action
	// vs and pert make a variant arm's games (impact of another game).
	vs   game.Variants
	pert [game.MaxSeats][]game.Perturb
}

// variantOf returns game j's state of lineup li in variant arm a: the
// Valuer's variant with a.blank's copy blanked for the first position of
// its side, reset with seed.
func (w *pairWorker) variantOf(a *arm, li, rot int, seed uint64) (game.State, error) {
	if w.vs == nil {
		w.vs = a.plan.g.(game.Valuer).NewVariants()
	}
	fac := a.plan.lineups[li].fac
	nc := a.ncards
	done := false
	for k := range fac {
		if len(w.pert[k]) != nc {
			w.pert[k] = make([]game.Perturb, nc)
		}
		clear(w.pert[k])
		if a.blank >= 0 && !done && fac[k] == a.blankSide {
			w.pert[k][a.blank].Blank = true
			done = true
		}
	}
	s, err := w.vs.Variant(fac, rot, w.pert[:len(fac)], seed)
	if err != nil {
		return nil, fmt.Errorf("impact: %w", err)
	}
	return s, nil
}

// play plays game j of lineup li in arm armNo and stores its outcome: the
// state through the ruleset's NewState (or, for a variant arm, its
// Valuer's variant), the bots through bots.ParseFor (seeded as a batch
// run's are), each seat's win units from the accumulator where the arm
// counts, else from Returns.
func (w *pairWorker) play(armNo, li, j int) error {
	a := w.arms[armNo]
	if w.cur != armNo {
		// A game's bot may read its ruleset, and an arm may seat other
		// bots: the agents are the arm's.
		w.cur, w.states = armNo, map[[2]int]*table{}
		w.agents = [game.MaxSeats]game.Agent{}
	}
	n := len(w.cfg.Matchups[li])
	rot := j % n
	i := li*w.cfg.Games + j
	seed := game.SeedFor(w.cfg.Seed, uint64(i))
	var ac *acc
	if a.counts {
		ac = w.accs[armNo]
		if ac == nil {
			ac = newAcc(a.plan)
			w.accs[armNo] = ac
		}
	}
	var t *table
	if a.variant {
		s, err := w.variantOf(a, li, rot, seed)
		if err != nil {
			return err
		}
		t = &table{st: s}
	} else if t = w.states[[2]int{li, rot}]; t == nil {
		var err error
		if t, err = newTable(a.plan, li, rot, ac); err != nil {
			return err
		}
		w.states[[2]int{li, rot}] = t
	}
	salt := uint64(BotSalt)
	if a.botSalt != 0 {
		salt = a.botSalt
	}
	if err := seatAgents(&w.agents, n, a.plan.g, a.botFor, seed^salt, w.stop); err != nil {
		return err
	}
	if !a.variant {
		t.st.Reset(seed) // a variant comes reset
	}
	var err error
	w.moves, err = playOut(t.st, w.agents[:n], w.stop, w.moves[:0], &w.buf)
	if err == game.ErrStopped {
		// The game stays unplayed (units -1); its counts so far are taken
		// back by replaying its moves into an accumulator that is
		// subtracted.
		if ac != nil {
			takeBack(ac, a.plan, t.st, func() {
				t.st.Reset(seed)
				for _, m := range w.moves {
					t.st.Apply(m)
				}
			})
		}
		return errAbandoned
	}
	if err != nil {
		return fmt.Errorf("game %d (seed %d, lineup %s): %w", i, seed, strings.Join(w.cfg.Matchups[li], ","), err)
	}
	var units [game.MaxSeats]int64
	if ac != nil {
		units = ac.finish(t.st, t.starter, li, rot, len(w.moves))
	} else {
		ret := t.st.Returns()
		winners := int64(0)
		for q := 0; q < n; q++ {
			if ret[q] > 0 {
				winners++
			}
		}
		for q := 0; q < n; q++ {
			if ret[q] > 0 {
				units[q] = WinUnit / winners
			}
		}
	}
	base := i * game.MaxSeats
	for q := 0; q < n; q++ {
		a.units[base+(q+rot)%n] = int8(units[q])
	}
	if st, ok := t.st.(game.Starter); ok {
		start, _ := st.Starter()
		a.starts[i] = int8(start)
	}
	for k := n; k < game.MaxSeats; k++ {
		a.units[base+k] = 0
	}
	return nil
}

// pairSeat pairs the outcomes of seat q (0-based, the seat its bot plays
// from) between arms a and b: in a game every seat of which plays one side
// (a mirror), the sides are fair by construction and the seats, with their
// bots, are what a change can move.
func pairSeat(cfg *PairedConfig, a, b *arm, q int) pairAcc {
	p := pairAcc{unit: WinUnit}
	for li, ids := range cfg.Matchups {
		n := len(ids)
		if q >= n || !slices.Contains(a.lineups, li) || !slices.Contains(b.lineups, li) {
			continue
		}
		for j := 0; j < cfg.Games; j++ {
			i := li*cfg.Games + j
			k := (q + j%n) % n
			ua, ub := a.outcome(i, k), b.outcome(i, k)
			if ua < 0 || ub < 0 {
				continue
			}
			p.add(ua, ub)
		}
	}
	return p
}

// pairStarter pairs the outcomes of the seat that began each game
// (game.Starter; the first seat in a game without one) between arms a and
// b, each arm's own starter: what the starter's advantage is.
func pairStarter(cfg *PairedConfig, a, b *arm) pairAcc { return pairTurn(cfg, a, b, 0) }

// pairTurn pairs the outcomes of the seat pos places after the one that
// began each game in turn order (pos 0: the starter) between arms a and b,
// each arm's own starter, over the lineups with more than pos seats. In a
// mirror the starter is drawn per game (or fixed by the rules), so seat 1
// against seat 2 averages the starter's advantage away; turn order is
// what a rule change moves there.
func pairTurn(cfg *PairedConfig, a, b *arm, pos int) pairAcc {
	p := pairAcc{unit: WinUnit}
	for li, ids := range cfg.Matchups {
		n := len(ids)
		if pos >= n || !slices.Contains(a.lineups, li) || !slices.Contains(b.lineups, li) {
			continue
		}
		for j := 0; j < cfg.Games; j++ {
			i := li*cfg.Games + j
			rot := j % n
			ua := a.outcome(i, (int(a.starts[i])+pos+rot)%n)
			ub := b.outcome(i, (int(b.starts[i])+pos+rot)%n)
			if ua < 0 || ub < 0 {
				continue
			}
			p.add(ua, ub)
		}
	}
	return p
}

// --- paired statistics --------------------------------------------------------

// pairAcc accumulates paired per-game outcomes (in win units) of one
// faction: first arm a, second arm b. Every sum is an exact integer.
type pairAcc struct {
	n, changed, pos, neg int64
	sumA, sumB, sqA, sqB int64
	sumD, sqD            int64
	unit                 int64
	// posMag[k] and negMag[k] count the games whose difference is +k and
	// −k win units: the exact sign test weighs each changed game by its
	// magnitude (a shared victory moves less than a whole one).
	posMag, negMag [WinUnit + 1]int64
}

func (p *pairAcc) add(a, b int) {
	d := int64(b - a)
	p.n++
	p.sumA += int64(a)
	p.sumB += int64(b)
	p.sqA += int64(a) * int64(a)
	p.sqB += int64(b) * int64(b)
	p.sumD += d
	p.sqD += d * d
	switch {
	case d > 0:
		p.pos++
		p.changed++
		p.posMag[min(d, WinUnit)]++
	case d < 0:
		p.neg++
		p.changed++
		p.negMag[min(-d, WinUnit)]++
	}
}

// pairFaction pairs faction f's outcomes in arms a and b over the lineups
// both played and the games both finished.
func pairFaction(cfg *PairedConfig, a, b *arm, f string) pairAcc {
	p := pairAcc{unit: WinUnit}
	for li, ids := range cfg.Matchups {
		k := slices.Index(ids, f)
		if k < 0 || !slices.Contains(a.lineups, li) || !slices.Contains(b.lineups, li) {
			continue
		}
		for j := 0; j < cfg.Games; j++ {
			i := li*cfg.Games + j
			ua, ub := a.outcome(i, k), b.outcome(i, k)
			if ua < 0 || ub < 0 {
				continue
			}
			p.add(ua, ub)
		}
	}
	return p
}

// shares returns the mean win shares of the two arms.
func (p *pairAcc) shares() (a, b float64) {
	if p.n == 0 {
		return 0, 0
	}
	u := float64(p.unit) * float64(p.n)
	return float64(p.sumA) / u, float64(p.sumB) / u
}

// test computes the paired comparison (b − a); PAdj is left equal to P for
// the caller's correction. The interval always agrees with the p-value at
// the 5% level: 0 lies outside CI95 exactly when P < 0.05. With many
// changed games both come from Student's t; with few (or all alike) both
// come from the exact sign test — the p-value from the test, the interval
// from inverting it (signExactInterval). With no changed game the interval
// is not [0, 0] but the change that up to 95% could still hide behind n
// unchanged games.
func (p *pairAcc) test(minN int) PairedTest {
	t := PairedTest{Games: p.n, Changed: p.changed, Test: TestNone, P: 1, PAdj: 1, LowN: p.n < int64(minN)}
	if p.n == 0 {
		t.CI95, t.UnpairedCI95 = [2]float64{-1, 1}, [2]float64{-1, 1}
		return t
	}
	u := float64(p.unit)
	n := float64(p.n)
	mean, sd := meanSD(p.n, p.sumD, p.sqD)
	mean, sd = mean/u, sd/u
	t.Delta, t.SD = round6(mean), round6(sd)
	_, sa := meanSD(p.n, p.sumA, p.sqA)
	_, sb := meanSD(p.n, p.sumB, p.sqB)
	sa, sb = sa/u, sb/u
	// The same arms as independent samples (Welch).
	va, vb := sa*sa/n, sb*sb/n
	var uhalf float64
	if p.n >= 2 && va+vb > 0 {
		df := (va + vb) * (va + vb) / (va*va/(n-1) + vb*vb/(n-1))
		uhalf = StudentTQuantile(0.975, df) * math.Sqrt(va+vb)
	}
	t.UnpairedCI95 = interval(math.Max(mean-uhalf, -1), math.Min(mean+uhalf, 1))
	var lo, hi float64
	switch {
	case p.changed == 0:
		// Identical outcomes in every game: no evidence of any difference,
		// and no test. The interval is what n unchanged games still allow.
		lo, hi = p.signExactInterval()
	case p.changed < signExactBelow || sd == 0:
		t.Test = TestSignExact
		t.P = p.signExactP()
		lo, hi = p.signExactInterval()
	default:
		t.Test = TestPairedT
		half := StudentTQuantile(0.975, n-1) * sd / math.Sqrt(n)
		lo, hi = mean-half, mean+half
		t.P = StudentTTwoSided(mean/(sd/math.Sqrt(n)), n-1)
	}
	t.P = clamp01(t.P)
	t.PAdj = t.P
	t.CI95 = agreeingInterval(math.Max(lo, -1), math.Min(hi, 1), t.P)
	if w := t.CI95[1] - t.CI95[0]; w > 0 {
		t.WidthRatio = round6((t.UnpairedCI95[1] - t.UnpairedCI95[0]) / w)
	}
	return t
}

// ciLevelAlpha is the level of every CI95: an interval excludes 0 exactly
// when the unadjusted p-value is below it.
const ciLevelAlpha = 0.05

// agreeingInterval rounds [lo, hi] for the JSON without letting rounding
// undo its agreement with p: an interval that excludes 0 (p < 0.05) keeps
// a bound of at least 1e-6 away from 0 instead of rounding onto it.
func agreeingInterval(lo, hi, p float64) [2]float64 {
	c := interval(lo, hi)
	if p < ciLevelAlpha {
		switch {
		case lo > 0 && c[0] <= 0:
			c[0] = 1e-6
		case hi < 0 && c[1] >= 0:
			c[1] = -1e-6
		}
	}
	return c
}

// sameMagnitude reports whether every changed game moved by the same
// number of win units (always, unless some victories were shared).
func (p *pairAcc) sameMagnitude() bool {
	mag := int64(0)
	for k := int64(1); k <= WinUnit; k++ {
		if p.posMag[k]+p.negMag[k] > 0 {
			if mag != 0 {
				return false
			}
			mag = k
		}
	}
	return true
}

// signTails returns P(U ≥ u) and P(U ≤ u) where U is the sum of the
// magnitudes of the changed games that come out positive when each does so
// independently with probability q (the signs of the changed games, given
// their sizes), and u is the observed sum. When every changed game moved
// by the same amount this is the binomial of the sign test.
func (p *pairAcc) signTails(q float64) (ge, le float64) {
	if p.sameMagnitude() {
		b := distuv.Binomial{N: float64(p.changed), P: q}
		if p.pos == 0 {
			ge = 1
		} else {
			ge = b.Survival(float64(p.pos) - 0.5)
		}
		le = b.CDF(float64(p.pos))
		return clamp01(ge), clamp01(le)
	}
	// Few games with different sizes (shared victories): the exact
	// distribution of U by dynamic programming over the sum.
	var w []int64
	var u, total int64
	for k := int64(1); k <= WinUnit; k++ {
		for range p.posMag[k] {
			w = append(w, k)
			u += k
		}
		for range p.negMag[k] {
			w = append(w, k)
		}
		total += k * (p.posMag[k] + p.negMag[k])
	}
	f := make([]float64, total+1)
	f[0] = 1
	top := int64(0)
	for _, k := range w {
		for x := top + k; x >= 0; x-- {
			v := (1 - q) * f[x]
			if x >= k {
				v += q * f[x-k]
			}
			f[x] = v
		}
		top += k
	}
	for x := int64(0); x <= total; x++ {
		if x >= u {
			ge += f[x]
		}
		if x <= u {
			le += f[x]
		}
	}
	return clamp01(ge), clamp01(le)
}

// signExactP is the exact two-sided sign test of the changed games: twice
// the smaller tail of the observed positive sum at q = 1/2, at most 1. With
// every changed game of the same size it is SignTestP (McNemar's exact
// test).
func (p *pairAcc) signExactP() float64 {
	if p.changed == 0 {
		return 1
	}
	ge, le := p.signTails(0.5)
	return math.Min(1, 2*math.Min(ge, le))
}

// signExactInterval inverts the exact sign test into a 95% interval for
// the mean difference. Write Δ = π·μ·(2q − 1): π the share of games that
// change, q the chance that a changed game changes in the second arm's
// favour, μ the changed games' mean size (1 for whole victories). q's
// interval is every q the sign test at 5% does not reject (for equal sizes
// the Clopper–Pearson interval), π's the Clopper–Pearson interval of the
// changed count, and the interval of Δ is the range of π·μ·(2q − 1) over
// both. It excludes 0 exactly when q's interval excludes 1/2, i.e. when
// the sign test's p < 0.05; π's uncertainty only widens it. With no
// changed game q is unknown and μ at most 1: the interval is ±π's upper
// bound, the largest share of games that could change unseen.
func (p *pairAcc) signExactInterval() (lo, hi float64) {
	n, m := float64(p.n), float64(p.changed)
	piLo, piHi := clopperPearson(m, n, ciLevelAlpha)
	if p.changed == 0 {
		return -piHi, piHi
	}
	var total int64
	for k := int64(1); k <= WinUnit; k++ {
		total += k * (p.posMag[k] + p.negMag[k])
	}
	mu := float64(total) / m / float64(WinUnit)
	// q's limits: P_q(U ≥ u) rises with q and P_q(U ≤ u) falls.
	qLo, qHi := 0.0, 1.0
	if p.pos > 0 {
		qLo = bisect(func(q float64) bool { ge, _ := p.signTails(q); return ge > ciLevelAlpha/2 })
	}
	if p.neg > 0 {
		qHi = bisect(func(q float64) bool { _, le := p.signTails(q); return le <= ciLevelAlpha/2 })
	}
	at := func(q float64, outward bool) float64 {
		e := 2*q - 1
		if (e > 0) == outward {
			return piHi * mu * e
		}
		return piLo * mu * e
	}
	lo, hi = at(qLo, false), at(qHi, true)
	// The estimate itself, π̂·μ·(2q̂ − 1), lies inside; make sure rounding
	// in the bisection never puts it outside.
	d := float64(p.sumD) / n / float64(p.unit)
	return math.Min(lo, d), math.Max(hi, d)
}

// bisect returns the q in [0, 1] where ok turns from false to true (ok is
// monotone: false below, true above), to 1e-12.
func bisect(ok func(q float64) bool) float64 {
	a, b := 0.0, 1.0
	for b-a > 1e-12 {
		mid := (a + b) / 2
		if ok(mid) {
			b = mid
		} else {
			a = mid
		}
	}
	return (a + b) / 2
}

// clopperPearson is the exact (Clopper–Pearson) 1−alpha interval of a
// proportion: x successes of n.
func clopperPearson(x, n, alpha float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	if x > 0 {
		lo = distuv.Beta{Alpha: x, Beta: n - x + 1}.Quantile(alpha / 2)
	}
	hi = 1
	if x < n {
		hi = distuv.Beta{Alpha: x + 1, Beta: n - x}.Quantile(1 - alpha/2)
	}
	return lo, hi
}

func clamp01(x float64) float64 {
	if x < 0 || math.IsNaN(x) {
		return 0
	}
	return math.Min(x, 1)
}

// factionDelta builds the FactionDelta of p.
func factionDelta(f string, p *pairAcc, minN int) FactionDelta {
	a, b := p.shares()
	la, ha := Wilson(a*float64(p.n), float64(p.n), Z95)
	lb, hb := Wilson(b*float64(p.n), float64(p.n), Z95)
	return FactionDelta{Faction: f, Base: round6(a), BaseCI95: interval(la, ha),
		Variant: round6(b), VariantCI95: interval(lb, hb), PairedTest: p.test(minN)}
}

// finishTests applies the correction to the tests and marks the significant
// ones at alpha.
func finishTests(tests []*PairedTest, correction string, alpha float64) {
	ps := make([]float64, len(tests))
	for i, t := range tests {
		ps[i] = t.P
	}
	var adj []float64
	switch correction {
	case CorrectionHolm:
		adj = Holm(ps)
	case CorrectionBH:
		adj = BenjaminiHochberg(ps)
	default:
		adj = ps
	}
	level := alpha
	if correction == CorrectionHolm || correction == CorrectionBH {
		level = alpha / float64(max(1, len(tests)))
	}
	for i, t := range tests {
		t.PAdj = round6(adj[i])
		// Rounding must not carry p across the level its interval agrees
		// with (0.0499996 is below 0.05; 0.05 would not be).
		if p := round6(t.P); t.P < ciLevelAlpha && p >= ciLevelAlpha {
			t.P = ciLevelAlpha - 1e-6
		} else {
			t.P = p
		}
		t.Significant = t.Test != TestNone && adj[i] < alpha
		t.MDE80 = round6(minDetectable(t.Games, t.SD, level))
	}
}

// minDetectable is the smallest true change of a win share that a paired
// comparison of n games with per-game differences of standard deviation sd
// detects with 80% power at two-sided level `level`:
// (z(1 − level/2) + z(0.8))·sd/√n. Under Holm or Benjamini–Hochberg over m
// tests a single real change must reach level alpha/m, so that is the level
// used. It is never below what the exact sign test can flag at all — k
// games all changing the same way, 2·2⁻ᵏ < level — so a run in which no
// game changed (sd 0) still states an honest figure.
func minDetectable(n int64, sd, level float64) float64 {
	if n <= 0 {
		return 1
	}
	std := distuv.UnitNormal
	mde := (std.Quantile(1-level/2) + std.Quantile(0.8)) * sd / math.Sqrt(float64(n))
	k := math.Floor(math.Log2(2/level)) + 1
	return math.Min(1, math.Max(mde, k/float64(n)))
}

// Holm returns Holm's step-down adjusted p-values (family-wise error rate,
// valid under any dependence between the tests), in the input order.
func Holm(p []float64) []float64 {
	m := len(p)
	idx := ascending(p)
	out := make([]float64, m)
	run := 0.0
	for r, i := range idx {
		v := math.Min(1, float64(m-r)*p[i])
		run = math.Max(run, v)
		out[i] = run
	}
	return out
}

// ascending returns the indices of p ordered by p-value, ties in input order.
func ascending(p []float64) []int {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	return idx
}

// BenjaminiHochberg returns the Benjamini–Hochberg adjusted p-values (false
// discovery rate), in the input order.
func BenjaminiHochberg(p []float64) []float64 {
	m := len(p)
	idx := ascending(p)
	out := make([]float64, m)
	run := 1.0
	for r := m - 1; r >= 0; r-- {
		i := idx[r]
		v := math.Min(1, p[i]*float64(m)/float64(r+1))
		run = math.Min(run, v)
		out[i] = run
	}
	return out
}

// SignTestP is the exact two-sided sign test of pos positive and neg
// negative differences (zeros dropped): 2·P(X ≤ min(pos, neg)) for X ~
// Binomial(pos+neg, 1/2), at most 1. For binary outcomes it is McNemar's
// exact test. The distributions come from gonum's stat/distuv.
func SignTestP(pos, neg int64) float64 {
	m := pos + neg
	if m == 0 {
		return 1
	}
	k := min(pos, neg)
	return math.Min(1, 2*distuv.Binomial{N: float64(m), P: 0.5}.CDF(float64(k)))
}

// StudentTTwoSided returns P(|T| ≥ |t|) for Student's t with df degrees of
// freedom.
func StudentTTwoSided(t, df float64) float64 {
	if math.IsNaN(t) || df <= 0 {
		return 1
	}
	if math.IsInf(t, 0) {
		return 0
	}
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
}

// StudentTQuantile returns the p-quantile (0 < p < 1) of Student's t with df
// degrees of freedom.
func StudentTQuantile(p, df float64) float64 {
	if df <= 0 || p <= 0 || p >= 1 {
		return math.NaN()
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
}

// factionsOf lists the sides of the lineups in the ruleset's order.
func factionsOf(g game.Ruleset, lineups [][]string) []string {
	var out []string
	for _, f := range g.Sides() {
		for _, l := range lineups {
			if slices.Contains(l, f.ID) {
				out = append(out, f.ID)
				break
			}
		}
	}
	return out
}

// comparison pairs every faction of the lineups between arms a and b and
// corrects the tests across factions.
func comparison(cfg *PairedConfig, factions []string, a, b *arm, correction string) []FactionDelta {
	out := make([]FactionDelta, len(factions))
	tests := make([]*PairedTest, len(factions))
	for k, f := range factions {
		p := pairFaction(cfg, a, b, f)
		out[k] = factionDelta(f, &p, cfg.minSample())
		tests[k] = &out[k].PairedTest
	}
	finishTests(tests, correction, cfg.alpha())
	return out
}

// runTiming is the Timing of games played in d.
func runTiming(games int64, d time.Duration) Timing { return timing(games, d.Seconds()) }
