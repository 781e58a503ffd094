package analysis

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

	"gonum.org/v1/gonum/mat"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/internal/bug"
)

// Card value by a randomized screening design (docs/metrics.md, "Card
// value"). Every game of the experiment independently perturbs a few card
// copies of every faction at the table: each definition loses one copy to a
// blank with probability BlankRate, and (independently) one of its copies
// gains or loses one combat power with probability ShiftRate. A
// multinomial-logit model of who wins — each faction's strength is its
// seat's intercept plus its perturbations' index π (minus the worth of each
// blanked copy, plus its price of power times the copies raised, minus the
// −1's worth times those lowered) plus λ per pair of its blanked copies —
// fitted by maximum likelihood over all games, recovers at once what one
// copy of each card is worth against a blank and what one power point on
// one copy is worth to each faction. Both are then read as win-share points
// at the ruleset as written: the card's perturbation alone. The pairs
// matter: about 37% of the definitions are perturbed in each game, and
// dead cards together cost more than each alone, so the index alone read
// every card about 1.5 points high against one-at-a-time ablation.
// The logit
// scale matters: a linear model of the win share, averaged over the spread
// of strengths the perturbations make, understates every value by 15–25%
// (win chances saturate). Intervals come from a one-step delete-a-group
// jackknife over game groups, so they hold whatever the games' variance
// or the dependence within a game.

// Defaults of the card-value experiment, chosen so that the default report
// (six lineups, greedy bots) reaches a median half-width of 2.5 win-share
// points (about 1 power point at the default ruleset's price, 2.6 to 2.8
// points a power point).
const (
	DefaultBlankRate = 0.10
	DefaultShiftRate = 0.30
	// DefaultValuePrecision is the median 95% half-width of the cards'
	// values, in win-share points (the headline unit), the experiment plays
	// for: --precision means win-share points in every command.
	DefaultValuePrecision = 2.5
	// MinPrecision is the finest precision, in win-share points, that can
	// be asked for here and of any sequential run: a hundredth of a point,
	// already far beyond what the games anyone plays resolve (half-widths
	// fall as 1/√games).
	MinPrecision = 0.01
	// DefaultValueGames is the first stage, in games per lineup.
	DefaultValueGames = 8000
	// DefaultValueMaxGames caps the games per lineup of all stages.
	DefaultValueMaxGames = 64000
	// valueGroups is the number of jackknife groups (game j of a lineup
	// belongs to group j mod valueGroups).
	valueGroups = 32
	// DesignSalt seeds each game's perturbations apart from its deal and
	// its bots.
	DesignSalt = 0xca7d5a1e
)

// CardValueConfig describes a card-value experiment.
type CardValueConfig struct {
	// Game is the ruleset of any game; it must be a game.Valuer.
	Game     game.Ruleset
	Matchups [][]string
	// Bots: one spec for every seat or one per seat.
	Bots    []string
	Seed    uint64
	Workers int
	// BlankRate and ShiftRate are the per-game probabilities that a card
	// definition has one copy blanked, and one copy moved by ±1 power (0:
	// the defaults).
	BlankRate, ShiftRate float64
	// Games is the first stage in games per lineup; further stages play
	// the games the 1/√n law says are still needed (at most doubling) until
	// the median 95% half-width of the cards' value in win-share points
	// (pts) is at most Precision or
	// MaxGames per lineup are played. Precision < 0 plays exactly Games.
	Games, MaxGames int
	Precision       float64
	// Unit, if set, is the price of a power point (points, with its 95%
	// interval) per faction that power is read at — the base ruleset's,
	// so that an edit does not change the unit the other cards are read
	// in; UnitFrom names where it came from. A faction it lacks is read at
	// this ruleset's own price.
	Unit     map[string]PowerPrice
	UnitFrom string
	// model is the model of a faction's perturbations (the validation
	// compares them); the zero value is cardlab's.
	model valueModel
	// Progress, if set, is called now and then with games done and the
	// games planned so far.
	Progress func(done, total int)
}

// CardValueResult is the experiment's outcome.
type CardValueResult struct {
	// Values by card id, every card of the factions played; a card that is
	// already a blank is worth exactly 0 (no interval of its own).
	Values map[string]CardValue
	// Price of a power point by faction id, measured on this ruleset.
	Price map[string]PowerPrice
	// Unit is the price power is read at by faction id (Price, or
	// CardValueConfig.Unit), and UnitFrom says whose it is (UnitHere, or
	// CardValueConfig.UnitFrom).
	Unit     map[string]PowerPrice
	UnitFrom map[string]string
	// Games per lineup, and in all, that the estimates rest on (an
	// interrupted stage's games are not counted).
	GamesPerLineup int
	Games          int64
	// MedianPtsHalfWidth is the median 95% half-width of the cards' value
	// in win-share points (what Precision aims at); MedianPowerHalfWidth
	// the same of their power.
	MedianPtsHalfWidth   float64
	MedianPowerHalfWidth float64
	// Unpriced lists the factions whose price of a power point was not
	// above 0 after all the games: their cards have no values.
	Unpriced             []string
	BlankRate, ShiftRate float64
	Partial              bool
	// ValueUnit is the game's unit of value (Alpha Tactics: the power
	// point), and Game the game's id.
	ValueUnit game.Unit `json:"-"`
	Game      string    `json:"-"`
	Elapsed   time.Duration
}

// valueDesign is the validated configuration with the model's layout.
type valueDesign struct {
	cfg  CardValueConfig
	plan *plan
	// val is the game's side of the experiment, unit its unit of value;
	// sides and cards the ruleset's (cards[c].ID names card c), value[c]
	// the card's printed value in units and plain[c] whether it is that
	// alone; decks[f] side f's cards as val lists them.
	val     game.Valuer
	unit    game.Unit
	sides   []game.Side
	cards   []game.Card
	vcards  [][]game.ValueCard
	value   []int
	plain   []bool
	nf      int   // sides in the ruleset
	cardPar []int // parameter index per card definition, -1 if none
	// pricePar is the parameter of +1 power on one copy per faction (the
	// price of a power point), minusPar of −1: worth is concave in power,
	// so the two differ and only +1 is the price (-1: not in the run).
	pricePar, minusPar []int
	// etaPar is the faction's curvature of strength in its perturbations
	// (alone; -1: none, the linear model).
	etaPar []int
	// pairPar is the faction's interaction of its blanked copies, per pair
	// (-1: none); nCardPars the card parameters, which come first.
	pairPar   []int
	nCardPars int
	// stratum[li][rot][k] is the intercept parameter of lineup position k in
	// the games of lineup li with seat rotation rot; -1 for k = 0, whose
	// strength is the origin (a softmax does not see a common shift).
	stratum [][][]int
	params  int
	cardsOf [][]int // definitions per side, the Valuer's order
}

func newValueDesign(cfg CardValueConfig) (*valueDesign, error) {
	if cfg.BlankRate == 0 {
		cfg.BlankRate = DefaultBlankRate
	}
	if cfg.ShiftRate == 0 {
		cfg.ShiftRate = DefaultShiftRate
	}
	if !(cfg.BlankRate >= 0 && cfg.BlankRate < 1 && cfg.ShiftRate >= 0 && cfg.ShiftRate < 1) {
		return nil, fmt.Errorf("%w: blank and shift rates must lie in (0, 1)", ErrConfig)
	}
	if cfg.Games == 0 {
		cfg.Games = DefaultValueGames
	}
	if cfg.MaxGames == 0 {
		cfg.MaxGames = max(cfg.Games, DefaultValueMaxGames)
	}
	if cfg.Precision == 0 {
		cfg.Precision = DefaultValuePrecision
	}
	if math.IsNaN(cfg.Precision) || math.IsInf(cfg.Precision, 0) || cfg.Precision > 0 && cfg.Precision < MinPrecision {
		return nil, fmt.Errorf("%w: the precision must be at least %g win-share points (or negative: exactly the games given), got %g", ErrConfig, MinPrecision, cfg.Precision)
	}
	if cfg.Games < valueGroups*2 {
		return nil, fmt.Errorf("%w: card values need at least %d games per lineup, got %d", ErrConfig, valueGroups*2, cfg.Games)
	}
	p, err := newPlan(&Config{Game: cfg.Game, Matchups: cfg.Matchups, Bots: cfg.Bots, Games: cfg.Games, Seed: cfg.Seed})
	if err != nil {
		return nil, err
	}
	val, ok := p.g.(game.Valuer)
	if !ok {
		return nil, fmt.Errorf("%w: card values are not measured for %s (its rules say no blank or unit of value: no game.Valuer)", ErrConfig, p.g.Game())
	}
	d := &valueDesign{cfg: cfg, plan: p, val: val, unit: val.ValueUnit(), sides: p.g.Sides(), cards: p.g.Cards()}
	d.nf = len(d.sides)
	d.value, d.plain = make([]int, len(d.cards)), make([]bool, len(d.cards))
	d.vcards = make([][]game.ValueCard, d.nf)
	d.cardPar = make([]int, len(d.cards))
	for i := range d.cardPar {
		d.cardPar[i] = -1
	}
	d.pricePar, d.minusPar = make([]int, d.nf), make([]int, d.nf)
	for i := range d.pricePar {
		d.pricePar[i], d.minusPar[i] = -1, -1
	}
	d.cardsOf = make([][]int, d.nf)
	for _, f := range p.factions {
		d.vcards[f] = val.ValueCards(f)
		for _, vc := range d.vcards[f] {
			c := vc.Index
			if c < 0 || c >= len(d.cards) || d.cards[c].Side != f {
				return nil, fmt.Errorf("analysis: card values: %s lists card %d for side %s, not one of its cards (a bug in the game)", p.g.Game(), c, d.sides[f].ID)
			}
			d.value[c], d.plain[c] = vc.Value, vc.Plain
			// A card that is already a blank is worth exactly 0 against one:
			// it has no parameter, but it is ranked with its faction.
			if vc.Blankable {
				d.cardPar[c] = d.params
				d.params++
			}
			d.cardsOf[f] = append(d.cardsOf[f], c)
		}
	}
	d.nCardPars = d.params
	d.etaPar, d.pairPar = make([]int, d.nf), make([]int, d.nf)
	for i := range d.etaPar {
		d.etaPar[i], d.pairPar[i] = -1, -1
	}
	for _, f := range p.factions {
		d.pricePar[f], d.minusPar[f] = d.params, d.params+1
		d.params += 2
		switch cfg.model {
		case modelCurvature:
			d.etaPar[f] = d.params
			d.params++
		case modelPairs:
			d.pairPar[f] = d.params
			d.params++
		}
	}
	for _, l := range p.lineups {
		n := len(l.ids)
		byRot := make([][]int, n)
		for rot := range byRot {
			byRot[rot] = make([]int, n)
			byRot[rot][0] = -1
			for k := 1; k < n; k++ {
				byRot[rot][k] = d.params
				d.params++
			}
		}
		d.stratum = append(d.stratum, byRot)
	}
	return d, nil
}

// alone is the change of faction fac's strength when its cards' terms add
// up to pi in a game where nothing else is perturbed: the reading at the
// ruleset as written.
func (d *valueDesign) alone(theta []float64, fac int, pi float64) float64 {
	if ep := d.etaPar[fac]; ep >= 0 {
		return pi + theta[ep]*pi*pi
	}
	return pi
}

// valueModel names a model of how a faction's perturbations in one game
// add up (docs/metrics.md, "Why the pairs").
type valueModel int

const (
	// modelPairs: the index π plus λ per pair of blanked copies.
	modelPairs valueModel = iota
	// modelLinear: the index π alone (cardlab before issue 25).
	modelLinear
	// modelCurvature: π + η·π².
	modelCurvature
)

// draw fills pt, one lineup position's perturbations by card, for a seat
// of side f: every seat's copies are drawn apart, so the seats of a mirror
// are perturbed independently.
func (d *valueDesign) draw(rng *game.RNG, f int, pt []game.Perturb) {
	clear(pt)
	for _, vc := range d.vcards[f] {
		c := vc.Index
		if d.cardPar[c] < 0 {
			continue
		}
		pt[c].Blank = unit(rng) < d.cfg.BlankRate
		if unit(rng) < d.cfg.ShiftRate {
			if pt[c].Blank && d.cards[c].Copies < 2 {
				continue // no copy left to shift
			}
			if rng.Intn(2) == 0 || !vc.Lower {
				pt[c].Shift = 1
			} else {
				pt[c].Shift = -1
			}
		}
	}
}

func unit(rng *game.RNG) float64 { return float64(rng.Uint64()>>11) / (1 << 53) }

// A game's record, as int32s: lineup<<8 | rotation, then per lineup
// position its win units and its count of terms, then those terms
// (parameter<<8 | uint8(value)): a blanked copy is value -1 on the card's
// parameter, the net power shift Z is value Z on the faction's price.
// Records are kept (about 60 bytes a game, and the games are capped) so
// that the model can be fitted by Newton's method over all of them.
type recordRef struct{ worker, off int32 }

// valueWorker plays the experiment's games.
type valueWorker struct {
	d *valueDesign
	// stop is the run's cancellation as a flag: the worker abandons the
	// game in play (its stage is then never estimated) and a Stoppable
	// bot cuts its search short.
	stop   *atomic.Bool
	pool   []int32
	agents [game.MaxSeats]game.Agent
	// pt[k] is lineup position k's perturbations by card; vs makes each
	// game's variant (reusing its memory: no engine tables a game).
	pt    [game.MaxSeats][]game.Perturb
	vs    game.Variants
	moves []game.Action
	buf   []game.Action // the generic loop's scratch
}

func (w *valueWorker) play(li, j int) (off int32, err error) {
	d := w.d
	p := d.plan
	l := p.lineups[li]
	n := len(l.ids)
	rot := j % n
	i := uint64(li)<<40 | uint64(j)
	seed := game.SeedFor(p.seed, i)
	drng := game.NewRNG(game.SeedFor(p.seed^DesignSalt, i))
	for k, f := range l.fac {
		d.draw(&drng, f, w.pt[k])
	}
	s, err := w.vs.Variant(l.fac, rot, w.pt[:n], seed)
	if err != nil {
		return 0, fmt.Errorf("card values: %w", err)
	}
	for q := 0; q < n; q++ {
		bs := game.SeedFor(seed^BotSalt, uint64(q))
		if r, ok := w.agents[q].(Reseeder); ok {
			r.Reseed(bs)
			continue
		}
		a, err := bots.ParseFor(p.g, p.botFor(q), bs)
		if err != nil {
			return 0, err
		}
		if st, ok := a.(bots.Stoppable); ok {
			st.SetStop(w.stop)
		}
		w.agents[q] = a
	}
	w.moves, err = playOut(s, w.agents[:n], w.stop, w.moves[:0], &w.buf)
	if err == game.ErrStopped {
		return 0, errAbandoned
	}
	if err != nil {
		return 0, fmt.Errorf("card values: game %d of lineup %s (seed %d): %w", j, strings.Join(l.ids, ","), seed, err)
	}
	ret := s.Returns()
	winners := int32(0)
	for q := 0; q < n; q++ {
		if ret[q] > 0 {
			winners++
		}
	}
	off = int32(len(w.pool))
	w.pool = append(w.pool, int32(li)<<8|int32(rot))
	for k, f := range l.fac {
		q := (k - rot + n) % n // the seat of position k
		units := int32(0)
		if ret[q] > 0 {
			units = WinUnit / winners
		}
		at := len(w.pool)
		w.pool = append(w.pool, units, 0)
		plus, minus := 0, 0
		pt := w.pt[k]
		for _, c := range d.cardsOf[f] {
			if pt[c].Blank {
				w.pool = append(w.pool, int32(d.cardPar[c])<<8|int32(uint8(0xff)))
			}
			switch pt[c].Shift {
			case 1:
				plus++
			case -1:
				minus++
			}
		}
		// Strength gains price × (copies raised) and loses the −1 worth ×
		// (copies lowered); at most 64 cards a deck, so each fits an int8.
		if plus != 0 {
			w.pool = append(w.pool, int32(d.pricePar[f])<<8|int32(uint8(int8(plus))))
		}
		if minus != 0 {
			w.pool = append(w.pool, int32(d.minusPar[f])<<8|int32(uint8(int8(-minus))))
		}
		w.pool[at+1] = int32(len(w.pool) - at - 2)
	}
	return off, nil
}

// CardValues runs the experiment and estimates every card's value.
func CardValues(ctx context.Context, cfg CardValueConfig) (*CardValueResult, error) {
	d, err := newValueDesign(cfg)
	if err != nil {
		return nil, err
	}
	cfg = d.cfg
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	began := time.Now()
	stop, unwatch := stopFlag(ctx)
	defer unwatch()
	ws := make([]*valueWorker, workers)
	for k := range ws {
		ws[k] = &valueWorker{d: d, stop: stop, vs: d.val.NewVariants(),
			buf: make([]game.Action, 0, 256), moves: make([]game.Action, 0, 512)}
		for q := range ws[k].pt {
			ws[k].pt[q] = make([]game.Perturb, len(d.cards))
		}
	}
	res := &CardValueResult{BlankRate: cfg.BlankRate, ShiftRate: cfg.ShiftRate, ValueUnit: d.unit, Game: d.plan.g.Game()}
	nl := len(d.plan.lineups)
	// A sharded experiment (recorded or replayed) plays a fixed number of
	// games: stopping when precise enough needs every shard's games.
	ledger := ledgerFrom(ctx)
	if ledger != nil && cfg.Precision >= 0 && cfg.Games < cfg.MaxGames {
		return nil, fmt.Errorf("%w: a sharded card-value experiment plays a fixed number of games (no precision target)", ErrConfig)
	}
	mine, shardGames := func(t int) int { return t }, func(stage int) int { return stage }
	if ledger.Recording() {
		sh := ledger.shard
		mine = func(x int) int { return sh.K - 1 + x*sh.N }
		shardGames = func(stage int) int { return shardGameCount(stage, sh.K, sh.N) }
	}
	// refs[t] is game t's record: game j of lineup li is t = j·nl + li, so
	// the records are read in one order whatever the workers did.
	var refs []recordRef
	from, to := 0, cfg.Games
	var played atomic.Int64
	for {
		// One stage: games [from, to) of every lineup.
		stage := (to - from) * nl
		refs = append(refs, make([]recordRef, stage)...)
		if ledger.Replaying() {
			pools, rrefs, elapsed, err := ledger.replayValues(d, to)
			if err != nil {
				return nil, err
			}
			began = time.Now().Add(-elapsed) // the shards' time, summed
			res.GamesPerLineup = to
			if err := d.estimate(pools, rrefs, res, true); err != nil {
				return nil, fmt.Errorf("%w (%d games per lineup; play more with --games or --max-games)", err, to)
			}
			break
		}
		var next atomic.Int64
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for k, w := range ws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					if err := bug.From(recover()); err != nil {
						errs[k] = err
						stop.Store(true)
					}
				}()
				for !stop.Load() {
					x := int(next.Add(1) - 1)
					if x >= shardGames(stage) {
						return
					}
					t := mine(x)
					off, err := w.play(t%nl, from+t/nl)
					if errors.Is(err, errAbandoned) {
						return
					}
					if err != nil {
						errs[k] = err
						stop.Store(true) // one engine error ends the run
						return
					}
					refs[from*nl+t] = recordRef{int32(k), off}
					played.Add(1)
				}
			}()
		}
		// Progress is reported from this goroutine only, as Run does.
		finished := make(chan struct{})
		go func() { wg.Wait(); close(finished) }()
		tick := time.NewTicker(100 * time.Millisecond)
	wait:
		for {
			select {
			case <-finished:
				break wait
			case <-tick.C:
				if cfg.Progress != nil {
					cfg.Progress(int(played.Load()), to*nl)
				}
			}
		}
		tick.Stop()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			res.Partial = true
		}
		if ledger.Recording() {
			// The shard's records, in game order; the estimates are the
			// merge's (empty here, so that the command goes on to its
			// next phase as the unsharded one does).
			var recs []int32
			for x := range shardGames(stage) {
				if res.Partial {
					break // an interrupted shard is never written
				}
				ref := refs[mine(x)]
				rec := ws[ref.worker].pool[ref.off:]
				recs = append(recs, rec[:d.recordLen(rec)]...)
			}
			key, hashes := valuesKey(d, to)
			ledger.record(&Phase{Kind: phaseValues, Key: key, Rulesets: hashes, Games: played.Load(), Seconds: time.Since(began).Seconds(),
				Values: int32Bytes(recs), partial: res.Partial})
			res.GamesPerLineup = to
			res.Values, res.Price, res.Unit, res.UnitFrom = map[string]CardValue{}, map[string]PowerPrice{}, map[string]PowerPrice{}, map[string]string{}
			break
		}
		if res.Partial {
			break
		}
		res.GamesPerLineup = to
		if cfg.Progress != nil {
			cfg.Progress(int(played.Load()), to*nl)
		}
		pools := make([][]int32, len(ws))
		for k, w := range ws {
			pools[k] = w.pool
		}
		if err := d.estimate(pools, refs, res, to >= cfg.MaxGames || cfg.Precision < 0); err != nil {
			if !errors.Is(err, errTooFewGames) || to >= cfg.MaxGames || cfg.Precision < 0 {
				return nil, fmt.Errorf("%w (%d games per lineup; play more with --games or --max-games)", err, to)
			}
			res.Values, res.Price, res.Unit, res.UnitFrom = nil, nil, nil, nil
			from, to = to, to+min(to, cfg.MaxGames-to)
			continue
		}
		if cfg.Precision < 0 || res.MedianPtsHalfWidth <= cfg.Precision || to >= cfg.MaxGames {
			break
		}
		from, to = to, nextValueStage(to, res.MedianPtsHalfWidth, cfg.Precision, cfg.MaxGames)
	}
	// The games the estimates rest on (an interrupted stage's are not).
	res.Games = int64(res.GamesPerLineup * nl)
	res.Elapsed = time.Since(began)
	return res, nil
}

// nextValueStage returns the games per lineup to play up to after done
// games gave the half-width hw, above precision. Half-widths shrink as
// 1/√games: play what the target needs and a tenth more, in whole jackknife
// groups, at most doubling the games and at most most. What the target
// needs is compared as a float before it becomes an int: a precision far
// below the half-width asks for more games than an int holds.
func nextValueStage(done int, hw, precision float64, most int) int {
	next := done + min(done, most-done)
	need := float64(done) * (hw / precision) * (hw / precision) * 1.1
	if need < float64(next) {
		next = min(next, int(math.Ceil(need/valueGroups))*valueGroups)
	}
	return max(next, done+1)
}

// fit holds the model's score and information summed over games, in
// total and per jackknife group.
type fit struct {
	p      int
	ll     float64 // the log-likelihood
	grad   []float64
	info   []float64 // p×p
	ggrad  [][]float64
	ginfo  [][]float64
	groups bool
}

// pass adds every game's score (gradient of the log-likelihood) and Fisher
// information at theta. With groups it also keeps each jackknife group's.
func (d *valueDesign) pass(pools [][]int32, refs []recordRef, theta []float64, groups bool) *fit {
	p := d.params
	f := &fit{p: p, grad: make([]float64, p), info: make([]float64, p*p), groups: groups}
	if groups {
		f.ggrad, f.ginfo = make([][]float64, valueGroups), make([][]float64, valueGroups)
		for g := range f.ggrad {
			f.ggrad[g], f.ginfo[g] = make([]float64, p), make([]float64, p*p)
		}
	}
	nl := len(d.plan.lineups)
	var (
		str  [game.MaxSeats]float64
		prob [game.MaxSeats]float64
		y    [game.MaxSeats]float64
		// jac[k] is the derivative of position k's strength by each
		// parameter it depends on.
		jac [game.MaxSeats][]jterm
	)
	for t, ref := range refs {
		rec := pools[ref.worker][ref.off:]
		li, rot := int(rec[0]>>8), int(rec[0]&0xff)
		n := len(d.plan.lineups[li].fac)
		at := 1
		for k := 0; k < n; k++ {
			y[k] = float64(rec[at]) / WinUnit
			cnt := int(rec[at+1])
			terms := rec[at+2 : at+2+cnt]
			at += 2 + cnt
			jac[k] = jac[k][:0]
			str[k] = 0
			if sp := d.stratum[li][rot][k]; sp >= 0 {
				str[k] = theta[sp]
				jac[k] = append(jac[k], jterm{sp, 1})
			}
			// The faction's perturbations add up to pi on the logit scale;
			// its strength moves by pi + eta·pi² (d.alone).
			pi := 0.0
			for _, tm := range terms {
				pi += theta[tm>>8] * float64(int8(tm&0xff))
			}
			slope := 1.0
			if ep := d.etaPar[d.plan.lineups[li].fac[k]]; ep >= 0 {
				str[k] += theta[ep] * pi * pi
				slope += 2 * theta[ep] * pi
				jac[k] = append(jac[k], jterm{ep, pi * pi})
			}
			str[k] += pi
			if pp := d.pairPar[d.plan.lineups[li].fac[k]]; pp >= 0 {
				b := 0
				for _, tm := range terms {
					if int(tm>>8) < d.nCardPars {
						b++
					}
				}
				if x := float64(b*(b-1)) / 2; x != 0 {
					str[k] += theta[pp] * x
					jac[k] = append(jac[k], jterm{pp, x})
				}
			}
			for _, tm := range terms {
				jac[k] = append(jac[k], jterm{int(tm >> 8), slope * float64(int8(tm&0xff))})
			}
		}
		softmax(str[:n], prob[:n])
		for k := 0; k < n; k++ {
			if y[k] > 0 {
				f.ll += y[k] * math.Log(max(prob[k], 1e-300))
			}
		}
		g := (t / nl) % valueGroups
		f.add(f.grad, f.info, n, &prob, &y, &jac)
		if groups {
			f.add(f.ggrad[g], f.ginfo[g], n, &prob, &y, &jac)
		}
	}
	return f
}

// jterm is one parameter's derivative of a strength.
type jterm struct {
	par int
	v   float64
}

// ridge is a weak penalty (½·ridge·|θ|², as if one extra game said every
// parameter is 0) that keeps the fit finite when a lineup is won by the
// same side in every game (a ruleset broken badly enough separates the
// data); against thousands of games it moves no estimate measurably.
const ridge = 1.0

// etaRidge is the curvature parameters' penalty (as if 100 games' worth
// of information said there is none): with few games the curvature is
// barely identified and would bend the model into nonsense (a strength
// falling as a card gets stronger); against the 50,000 games of a default
// run, whose information on each is about 10^4, it moves it by 1%.
const etaRidge = 100.0

// penalty is the ridge penalty at theta.
func (d *valueDesign) penalty(theta []float64) float64 {
	s := 0.0
	for i, x := range theta {
		s += d.ridgeOf(i) / 2 * x * x
	}
	return s
}

func (d *valueDesign) ridgeOf(i int) float64 {
	if slices.Contains(d.etaPar, i) {
		return etaRidge
	}
	return ridge
}

// penalize adds the ridge penalty's gradient and curvature at theta.
func (d *valueDesign) penalize(f *fit, theta, grad, info []float64) {
	for i := range theta {
		grad[i] -= d.ridgeOf(i) * theta[i]
		info[i*f.p+i] += d.ridgeOf(i)
	}
}

// add puts one game's score and (Fisher) information into grad and info:
// J'(y − p) and J'WJ, J the strengths' derivatives, W the softmax's.
func (f *fit) add(grad, info []float64, n int, prob, y *[game.MaxSeats]float64, jac *[game.MaxSeats][]jterm) {
	p := f.p
	for k := 0; k < n; k++ {
		r := y[k] - prob[k]
		for _, a := range jac[k] {
			grad[a.par] += r * a.v
		}
		for l := 0; l < n; l++ {
			w := -prob[k] * prob[l]
			if k == l {
				w += prob[k]
			}
			for _, a := range jac[k] {
				row := info[a.par*p:]
				for _, b := range jac[l] {
					row[b.par] += w * a.v * b.v
				}
			}
		}
	}
}

var debugFit = false

func softmax(s, out []float64) {
	m := s[0]
	for _, x := range s[1:] {
		m = max(m, x)
	}
	sum := 0.0
	for k, x := range s {
		out[k] = math.Exp(x - m)
		sum += out[k]
	}
	for k := range out {
		out[k] /= sum
	}
}

// minPrice is the least price (a share per power point) power is divided by.
const minPrice = 1e-6

// errTooFewGames: the games so far cannot give the estimates; a later
// stage with more games may.
var errTooFewGames = errors.New("analysis: card values: too few games")

// paramName names parameter i for messages.
func (d *valueDesign) paramName(i int) string {
	for c, par := range d.cardPar {
		if par == i {
			return "card " + d.cards[c].ID
		}
	}
	for f := range d.pricePar {
		if d.pricePar[f] == i || d.minusPar[f] == i || d.etaPar[f] == i || d.pairPar[f] == i {
			return "the " + d.unit.Short + " of " + d.sides[f].ID + "'s cards"
		}
	}
	return "a seat"
}

// solveSym solves a·x = b for a symmetric positive definite a.
func solveSym(p int, a, b []float64) ([]float64, error) {
	for i := 0; i < p; i++ {
		if a[i*p+i] <= 0 {
			return nil, fmt.Errorf("analysis: card values: too few games: a card was never perturbed (play more games)")
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(mat.NewSymDense(p, slices.Clone(a))) {
		return nil, fmt.Errorf("analysis: card values: the design is singular (play more games)")
	}
	var x mat.VecDense
	if err := ch.SolveVecTo(&x, mat.NewVecDense(p, slices.Clone(b))); err != nil {
		return nil, fmt.Errorf("analysis: card values: %w", err)
	}
	return x.RawVector().Data, nil
}

// estimate fits the model by Newton's method on all games, takes one Newton
// step from the fit for every delete-one-group subset (the one-step
// jackknife), and fills res with the estimates and their intervals.
func (d *valueDesign) estimate(pools [][]int32, refs []recordRef, res *CardValueResult, final bool) error {
	p := d.params
	theta := make([]float64, p)
	f := d.pass(pools, refs, theta, false)
	// Every parameter needs games that inform it before the ridge (which
	// would fill the gap with a made-up 0) is added. (The curvature's is 0
	// at the start, where every pi is 0.)
	for i := 0; i < p; i++ {
		if f.info[i*p+i] <= 0 && !slices.Contains(d.etaPar, i) && !slices.Contains(d.pairPar, i) {
			return fmt.Errorf("%w: %s was never perturbed", errTooFewGames, d.paramName(i))
		}
	}
	next := make([]float64, p)
	for it := 0; ; it++ {
		ll := f.ll - d.penalty(theta)
		d.penalize(f, theta, f.grad, f.info)
		step, err := solveSym(p, f.info, f.grad)
		if err != nil {
			return err
		}
		// Fisher scoring, with the step halved while it lowers the
		// penalized likelihood (the curvature term makes the model
		// nonlinear in its parameters).
		var nf *fit
		nll := math.Inf(-1)
		for half := 0; half <= 30; half++ {
			for i := range next {
				next[i] = theta[i] + step[i]
			}
			nf = d.pass(pools, refs, next, false)
			if nll = nf.ll - d.penalty(next); nll >= ll-1e-12*math.Abs(ll) {
				break
			}
			for i := range step {
				step[i] /= 2
			}
		}
		if nll < ll-1e-12*math.Abs(ll) {
			break // no step improves the fit: it is at its maximum
		}
		big := 0.0
		for i := range theta {
			big = max(big, math.Abs(next[i]-theta[i]))
		}
		copy(theta, next)
		f = nf
		// Fisher scoring can approach the maximum slowly when the
		// curvature makes the model nonlinear: a likelihood that no longer
		// moves (a step of about 10⁻⁵ of an SE) ends it too.
		if it >= 5 && nll-ll < 1e-11*(math.Abs(ll)+1) {
			break
		}
		if debugFit {
			etas := []float64{}
			for f, ep := range d.etaPar {
				if ep >= 0 {
					etas = append(etas, theta[ep])
				}
				if pp := d.pairPar[f]; pp >= 0 {
					etas = append(etas, theta[pp])
				}
			}
			fmt.Println("it", it, "ll", ll, "big", big, "eta", etas)
		}
		if big < 1e-9 || (it >= 25 && big < 1e-6) {
			break
		}
		if it == 100 {
			return fmt.Errorf("analysis: card values: the model did not converge (play more games)")
		}
	}
	f = d.pass(pools, refs, theta, true)
	d.penalize(f, theta, f.grad, f.info)
	var reps [][]float64
	sub := make([]float64, p*p)
	subG := make([]float64, p)
	for g := 0; g < valueGroups; g++ {
		for i := range sub {
			sub[i] = f.info[i] - f.ginfo[g][i]
		}
		for i := range subG {
			subG[i] = f.grad[i] - f.ggrad[g][i]
		}
		step, err := solveSym(p, sub, subG)
		if err != nil {
			return err
		}
		r := slices.Clone(theta)
		for i := range r {
			r[i] += step[i]
		}
		reps = append(reps, r)
	}
	// The figures, as functions of one parameter vector, as win shares
	// (×100 for points). Power is read from them afterwards, at one price
	// per faction (the unit).
	type figs struct {
		pts, vs, eff []float64 // per card
		price        []float64 // per faction: this ruleset's price of a power point
	}
	plain := make([]plainRef, d.nf)
	for fac := range d.cardsOf {
		plain[fac] = d.plainReference(fac)
	}
	derive := func(th []float64) figs {
		f := figs{pts: make([]float64, len(d.cards)), vs: make([]float64, len(d.cards)),
			eff: make([]float64, len(d.cards)), price: make([]float64, d.nf)}
		for fac, list := range d.cardsOf {
			if len(list) == 0 {
				continue
			}
			// Read on the win-share scale at the ruleset as written,
			// averaged over the faction's lineups and seats.
			var s, pr [game.MaxSeats]float64
			at := func(li, rot, k int, delta float64) float64 {
				n := len(d.plan.lineups[li].fac)
				for j := 0; j < n; j++ {
					s[j] = 0
					if sp := d.stratum[li][rot][j]; sp >= 0 {
						s[j] = th[sp]
					}
				}
				s[k] += delta
				softmax(s[:n], pr[:n])
				return pr[k]
			}
			cells := 0.0
			gain := make([]float64, len(list))
			price := 0.0
			// Every position the side holds counts as a cell of its own:
			// in a mirror, each seat's copy is perturbed apart and the
			// card's one parameter is read at each seat in turn.
			for li, l := range d.plan.lineups {
				if !slices.Contains(l.fac, fac) {
					continue
				}
				for rot := range l.fac {
					for k, f := range l.fac {
						if f != fac {
							continue
						}
						cells++
						base := at(li, rot, k, 0)
						price += at(li, rot, k, d.alone(th, fac, th[d.pricePar[fac]])) - base
						for x, c := range list {
							if par := d.cardPar[c]; par >= 0 {
								gain[x] += base - at(li, rot, k, d.alone(th, fac, -th[par]))
							}
						}
					}
				}
			}
			f.price[fac] = price / cells
			pts := make([]float64, 0, len(list))
			for x, c := range list {
				f.pts[c] = gain[x] / cells
				pts = append(pts, f.pts[c])
			}
			// Against the median of the faction's other cards: against a
			// median that includes the card, the median card would sit at
			// 0 in every replicate, with an interval of nothing.
			others := make([]float64, 0, len(pts))
			for x, c := range list {
				others = append(others[:0], pts[:x]...)
				others = append(others, pts[x+1:]...)
				f.vs[c] = f.pts[c] - median(others)
			}
			ref := &plain[fac]
			a, b := ref.line(d, f.pts)
			for _, c := range list {
				if r, ok := ref.reference(ref.basis(d, c), d.value[c], a, b); ok {
					f.eff[c] = f.pts[c] - r
				}
			}
		}
		return f
	}
	point := derive(theta)
	// A price at or below 0 would flip or blow up every card of the
	// faction. More games may settle it; at the last stage the faction's
	// cards go without values (a lineup so one-sided that a power point
	// changes nothing measurable).
	unpriced := map[int]bool{}
	res.Unpriced = nil
	for fac, par := range d.pricePar {
		if par >= 0 && !(point.price[fac] > 0) {
			if !final {
				return fmt.Errorf("%w: %s's price of a %s is %.2f points, not above 0", errTooFewGames, d.sides[fac].ID, d.unit.Name, 100*point.price[fac])
			}
			unpriced[fac] = true
			res.Unpriced = append(res.Unpriced, d.sides[fac].ID)
		}
	}
	repF := make([]figs, len(reps))
	for k, r := range reps {
		repF[k] = derive(r)
	}
	G := float64(len(reps))
	tq := StudentTQuantile(0.975, G-1)
	jack := func(at func(figs) float64) (se float64) {
		mean := 0.0
		for _, f := range repF {
			mean += at(f)
		}
		mean /= G
		ss := 0.0
		for _, f := range repF {
			x := at(f) - mean
			ss += x * x
		}
		return math.Sqrt((G - 1) / G * ss)
	}
	ci := func(x, se float64) [2]float64 { return [2]float64{round6(x - tq*se), round6(x + tq*se)} }
	res.Values = map[string]CardValue{}
	res.Price, res.Unit, res.UnitFrom = map[string]PowerPrice{}, map[string]PowerPrice{}, map[string]string{}
	// toPower reads a figure (a function of the parameters, as a share) in
	// power points at the faction's unit, with its standard error. At this
	// ruleset's own price the ratio is recomputed in every replicate; at a
	// fixed unit from elsewhere (the base ruleset) the unit's standard error
	// is added by the delta method, the two runs being independent.
	type unitOf struct {
		own bool
		u   float64 // a share per power point
		se  float64
	}
	units := make([]unitOf, d.nf)
	for fac, par := range d.pricePar {
		if par < 0 || unpriced[fac] {
			continue
		}
		id := d.sides[fac].ID
		se := jack(func(f figs) float64 { return f.price[fac] })
		own := PowerPrice{Pts: round6(100 * point.price[fac]), CI95: ci(100*point.price[fac], 100*se)}
		res.Price[id] = own
		if u, ok := d.cfg.Unit[id]; ok && u.Pts > 0 {
			units[fac] = unitOf{u: u.Pts / 100, se: (u.CI95[1] - u.CI95[0]) / 2 / tq / 100}
			res.Unit[id], res.UnitFrom[id] = u, d.cfg.UnitFrom
		} else {
			units[fac] = unitOf{own: true, u: point.price[fac], se: se}
			res.Unit[id], res.UnitFrom[id] = own, UnitHere
		}
	}
	toPower := func(fac int, at func(figs) float64) (x, se float64) {
		u := units[fac]
		if u.own {
			ratio := func(f figs) float64 { return at(f) / max(f.price[fac], minPrice) }
			return ratio(point), jack(ratio)
		}
		x = at(point) / u.u
		return x, math.Hypot(jack(at)/u.u, x*u.se/u.u)
	}
	var halfWidths, ptsHalfWidths []float64
	for fac, list := range d.cardsOf {
		if unpriced[fac] {
			continue
		}
		ref := &plain[fac]
		for _, c := range list {
			card := &d.cards[c]
			pts := func(f figs) float64 { return f.pts[c] }
			vs := func(f figs) float64 { return f.vs[c] }
			eff := func(f figs) float64 { return f.eff[c] }
			seP, seV, seE := jack(pts), jack(vs), jack(eff)
			pw, seW := toPower(fac, pts)
			vw, seVW := toPower(fac, vs)
			ew, seEW := toPower(fac, eff)
			v := CardValue{
				Pts: round6(100 * point.pts[c]), PtsCI95: ci(100*point.pts[c], 100*seP),
				VsFactionPts: round6(100 * point.vs[c]), VsFactionPtsCI95: ci(100*point.vs[c], 100*seV),
				EffectPts: round6(100 * point.eff[c]), EffectPtsCI95: ci(100*point.eff[c], 100*seE),
				EffectBasis: ref.basis(d, c),
				Power:       round6(pw), PowerCI95: ci(pw, seW),
				VsFaction: round6(vw), VsFactionCI95: ci(vw, seVW),
				EffectPower: round6(ew), EffectPowerCI95: ci(ew, seEW),
			}
			v.SetFlag(DefaultCardTolerance)
			res.Values[card.ID] = v
			if d.cardPar[c] >= 0 {
				halfWidths = append(halfWidths, tq*seW)
				ptsHalfWidths = append(ptsHalfWidths, tq*100*seP)
			}
		}
	}
	res.MedianPowerHalfWidth = round6(median(halfWidths))
	res.MedianPtsHalfWidth = round6(median(ptsHalfWidths))
	return nil
}

// UnitHere says a faction's power is read at the price of a power point
// measured on the ruleset itself (CardValueResult.UnitFrom).
const UnitHere = "this ruleset"

// UnitFromInfo is CardValueConfig.UnitFrom for a unit measured on the base
// ruleset of any game.
func UnitFromInfo(base game.Info) string {
	return strings.TrimSpace("base ruleset " + base.Name + " " + base.Version)
}

// What a card's effect value (CardValue.EffectPts) compares it with: a
// plain card (kind N, no effect, no tags) of its printed power, as the
// faction's own plain cards play (docs/metrics.md, "Card value").
const (
	// EffectNoText: a plain card or a blank has no text; it adds exactly 0.
	EffectNoText = "no text"
	// EffectBlank: printed power 0, where a plain card is a blank, worth
	// exactly 0: the card's whole value is its text.
	EffectBlank = "blank"
	// EffectFit: the line through the faction's plain cards, within their
	// printed powers.
	EffectFit = "fit"
	// EffectInterpolated: below the faction's plain cards' printed powers,
	// on the straight line from a blank (0 at power 0) to the fitted line
	// at the weakest plain card's power. Worth is concave in power, so it
	// understates a plain card there, and the text reads high.
	EffectInterpolated = "interpolated"
	// EffectExtrapolated: above the faction's plain cards' printed powers,
	// the fitted line extended: a guess, said as one.
	EffectExtrapolated = "extrapolated"
	// EffectNoReference: the faction has no plain cards of two printed
	// powers (three cards at least): the text's worth is not given.
	EffectNoReference = "no reference"
)

// plainRef is a faction's plain cards, the reference of its cards' effect
// values.
type plainRef struct {
	cards  []int // definitions
	lo, hi int   // their printed powers' range
	ok     bool  // at least three plain cards of two printed powers
}

// plainReference collects faction fac's plain cards (blanks excepted).
func (d *valueDesign) plainReference(fac int) plainRef {
	var r plainRef
	powers := map[int]bool{}
	for _, c := range d.cardsOf[fac] {
		if v := d.value[c]; d.cardPar[c] >= 0 && d.plain[c] {
			if len(r.cards) == 0 || v < r.lo {
				r.lo = v
			}
			r.hi = max(r.hi, v)
			r.cards = append(r.cards, c)
			powers[v] = true
		}
	}
	r.ok = len(r.cards) >= 3 && len(powers) >= 2
	return r
}

// basis says what card c's effect value compares it with.
func (r *plainRef) basis(d *valueDesign, c int) string {
	v := d.value[c]
	switch {
	case d.cardPar[c] < 0 || d.plain[c]:
		return EffectNoText
	case v == 0:
		return EffectBlank
	case !r.ok:
		return EffectNoReference
	case v < r.lo:
		return EffectInterpolated
	case v > r.hi:
		return EffectExtrapolated
	}
	return EffectFit
}

// line fits worth = a + b·printed (as shares) by least squares over the
// plain cards; worth holds every card's.
func (r *plainRef) line(d *valueDesign, worth []float64) (a, b float64) {
	if !r.ok {
		return 0, 0
	}
	var n, sx, sy, sxx, sxy float64
	for _, c := range r.cards {
		x, y := float64(d.value[c]), worth[c]
		n, sx, sy, sxx, sxy = n+1, sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	b = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (sy - b*sx) / n, b
}

// reference is what a plain card of printed power x is worth on the basis
// given; ok is false when the text's worth is not given.
func (r *plainRef) reference(basis string, x int, a, b float64) (float64, bool) {
	switch basis {
	case EffectBlank:
		return 0, true
	case EffectFit, EffectExtrapolated:
		return a + b*float64(x), true
	case EffectInterpolated:
		lo := float64(r.lo)
		return float64(x) / lo * (a + b*lo), true
	}
	return 0, false
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// AttachCardValues puts the experiment's values on the report's cards and
// its prices of a power point and design on the report, and renews its
// checksum (which covers them).
func AttachCardValues(rep *Report, res *CardValueResult, cfg CardValueConfig) {
	defer func() { rep.Checksum = rep.Sum() }()
	rep.CardValueDesign = res.Design(cfg)
	// A game that counts no figures by card (every game but Alpha
	// Tactics): its valued cards join the report's cards with their value
	// alone.
	have := map[string]bool{}
	for _, k := range rep.Cards {
		have[k.ID] = true
	}
	sides := cfg.Game.Sides()
	for _, c := range cfg.Game.Cards() {
		if _, ok := res.Values[c.ID]; ok && !have[c.ID] && c.Side >= 0 && c.Side < len(sides) {
			rep.Cards = append(rep.Cards, CardStats{ID: c.ID, Faction: sides[c.Side].ID, Name: c.Name, Copies: int64(c.Copies)})
		}
	}
	for i := range rep.Cards {
		if v, ok := res.Values[rep.Cards[i].ID]; ok {
			v.CardHash = cardHash(cfg.Game, rep.Cards[i].ID)
			rep.Cards[i].Value = &v
		}
	}
	rep.PriceOfPower = res.Unit
}

// cardHash is the play hash of g's card id (game.CardHasher), "" where g
// has none.
func cardHash(g game.Ruleset, id string) string {
	h, ok := g.(game.CardHasher)
	if !ok {
		return ""
	}
	for _, c := range g.Cards() {
		if c.ID == id {
			return h.CardHash(c.Index)
		}
	}
	return ""
}

// ValueUnit is a game's unit of value as results.json names it.
type ValueUnit struct {
	Name   string `json:"name"`   // "bid point"
	Plural string `json:"plural"` // "bid points"
	Short  string `json:"short"`  // "bid": what one unit moves
	// Scale and Currency: one unit is Scale of the game's Currency (10
	// MP), which the reports print values in (game.Unit).
	Scale    int    `json:"scale,omitempty"`
	Currency string `json:"currency,omitempty"`
}

// CardValueDesign records how a run's card values were estimated.
type CardValueDesign struct {
	Matchups       [][]string `json:"matchups"`
	Bots           []string   `json:"bots"`
	Seed           uint64     `json:"seed"`
	GamesPerLineup int        `json:"games_per_lineup"`
	Games          int64      `json:"games"`
	BlankRate      float64    `json:"blank_rate"`
	ShiftRate      float64    `json:"shift_rate"`
	// Precision is the median 95% half-width of the cards' values in
	// win-share points the run played for (negative: a fixed number of
	// games); MedianPtsHalfWidth what it reached, MedianPowerHalfWidth the
	// same in power points.
	Precision            float64 `json:"precision"`
	MedianPtsHalfWidth   float64 `json:"median_pts_half_width"`
	MedianPowerHalfWidth float64 `json:"median_power_half_width"`
	Partial              bool    `json:"partial"`
	// Unit names another game's unit of value ("bid point"), in which
	// the cards' power figures and the price of power are read; absent
	// for Alpha Tactics, whose unit is the power point.
	Unit *ValueUnit `json:"unit,omitempty"`
	// Unpriced lists the factions whose price of a power point was not
	// above 0 after all the games (their cards have no value).
	Unpriced []string `json:"unpriced_factions,omitempty"`
	// PowerUnitFrom says, by faction, whose price of a power point power
	// is read at: "this ruleset" (UnitHere), or the base ruleset's (as
	// "base ruleset NAME VERSION"); OwnPrice is this ruleset's own price
	// when it is not the unit.
	PowerUnitFrom map[string]string     `json:"power_unit_from,omitempty"`
	OwnPrice      map[string]PowerPrice `json:"own_price_of_power,omitempty"`
	Timing        Timing                `json:"timing"`
}

// Design describes the run that gave r.
func (r *CardValueResult) Design(cfg CardValueConfig) *CardValueDesign {
	d := &CardValueDesign{Matchups: cfg.Matchups, Bots: cfg.Bots, Seed: cfg.Seed, GamesPerLineup: r.GamesPerLineup,
		Games: r.Games, BlankRate: r.BlankRate, ShiftRate: r.ShiftRate, Precision: cfg.Precision,
		MedianPtsHalfWidth: r.MedianPtsHalfWidth, MedianPowerHalfWidth: r.MedianPowerHalfWidth, Partial: r.Partial, Unpriced: r.Unpriced, Timing: runTiming(r.Games, r.Elapsed)}
	if d.Precision == 0 {
		d.Precision = DefaultValuePrecision
	}
	d.PowerUnitFrom = r.UnitFrom
	if r.Game != "" && r.Game != game.DefaultID {
		d.Unit = &ValueUnit{Name: r.ValueUnit.Name, Plural: r.ValueUnit.Plural, Short: r.ValueUnit.Short,
			Scale: r.ValueUnit.Scale, Currency: r.ValueUnit.Currency}
	}
	for f, from := range r.UnitFrom {
		if from != UnitHere {
			if d.OwnPrice == nil {
				d.OwnPrice = map[string]PowerPrice{}
			}
			d.OwnPrice[f] = r.Price[f]
		}
	}
	return d
}

// ValueReport is `cardlab impact`'s result (docs/metrics.md, "Card value").
type ValueReport struct {
	ToolVersion  string                `json:"tool_version"`
	Ruleset      RulesetInfo           `json:"ruleset"`
	Design       *CardValueDesign      `json:"design"`
	PriceOfPower map[string]PowerPrice `json:"price_of_power"`
	// Cards, ranked by VsFactionPts (over-powered first).
	Cards []ValuedCard `json:"cards"`
}

// ValuedCard is one card definition and its value.
type ValuedCard struct {
	Rank    int       `json:"rank"`
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Faction string    `json:"faction"`
	Type    string    `json:"type"`
	Kind    string    `json:"kind"`
	Power   int       `json:"power"` // printed
	Copies  int       `json:"copies"`
	Value   CardValue `json:"value"`
}

// Report lists the values of g's cards ids (nil: every card valued),
// ranked by VsFactionPts among all the cards valued: each with its printed
// value in the game's unit (the Valuer's), its type and kind where the
// game prints them.
func (r *CardValueResult) Report(g game.Ruleset, cfg CardValueConfig, ids []string) *ValueReport {
	out := &ValueReport{Ruleset: RulesetInfoOf(g), Design: r.Design(cfg), PriceOfPower: r.Unit, Cards: []ValuedCard{}}
	sides, cards := g.Sides(), g.Cards()
	printed := map[int]int{}
	if val, ok := g.(game.Valuer); ok {
		for f := range sides {
			for _, vc := range val.ValueCards(f) {
				printed[vc.Index] = vc.Value
			}
		}
	}
	for i := range cards {
		c := &cards[i]
		v, ok := r.Values[c.ID]
		if !ok || c.Side < 0 {
			continue
		}
		out.Cards = append(out.Cards, ValuedCard{ID: c.ID, Name: c.Name, Faction: sides[c.Side].ID,
			Type: column(c, "type").Text, Kind: column(c, "kind").Text, Power: printed[i], Copies: c.Copies, Value: v})
	}
	return rankValueReport(out, ids)
}

// rankValueReport ranks a report's cards among all cards, then keeps the
// ones asked for: a card's rank does not depend on which others are shown.
func rankValueReport(out *ValueReport, ids []string) *ValueReport {
	idx := make([]int, len(out.Cards))
	for i := range idx {
		idx[i] = i
	}
	rankDesc(idx, func(i int) float64 { return out.Cards[i].Value.VsFactionPts }, func(i, rank int) { out.Cards[i].Rank = rank })
	slices.SortFunc(out.Cards, func(a, b ValuedCard) int { return a.Rank - b.Rank })
	if ids != nil {
		out.Cards = slices.DeleteFunc(out.Cards, func(c ValuedCard) bool { return !slices.Contains(ids, c.ID) })
	}
	return out
}
