package analysis

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/cardlab/cardlab/game"
)

// Game quality (issue 27 item 6; docs/metrics.md "Game quality"): figures
// every game has, read from the neutral records — length, decisions, the
// starter's advantage, draws, the score margin — and two of Ludii's
// (Evaluation/src/metrics/single/stateEvaluation): lead changes and
// decisiveness, which need every seat's Score after every decision.
//
// Those run on a sample of the games chosen by global game index (every
// QualityEvery-th game: index mod QualityEvery == 0), so the sample is the
// same whatever the workers and shards, and merge adds it exactly. A
// sampled game is played as usual and then replayed from its seed on a
// state of the worker's own that no Counter watches, Score read after each
// move: the ordinary loop never pays for it.

// QualityEvery is the sampling stride of the game-quality replay when
// every bot is a cheap one (random, greedy): game i of a run is replayed
// when i mod QualityEvery == 0. The replay costs about one random game, so
// a finer stride would show in simulate's cost.
const QualityEvery = 256

// QualityEveryCostly is the stride when a bot searches (strong, ismcts):
// the replay applies the recorded moves without asking a bot, about a
// hundredth of such a game, so the sample can be 16 times larger.
const QualityEveryCostly = 16

// qualityStride is the sampling stride of a run with bots specs; the same
// specs give the same stride in every shard, and merge refuses two files
// sampled at different strides.
func qualityStride(specs []string) int {
	for _, s := range specs {
		if name, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":"); name != "random" && name != "greedy" {
			return QualityEveryCostly
		}
	}
	return QualityEvery
}

// bpOne is one in basis points: per-game shares are counted as whole
// basis points (rounded half up), so they add as integers.
const bpOne = 10_000

// QualityCounts are the raw counts of the game-quality sample
// (results.json "raw" → "quality"). Per-game shares are in basis points.
type QualityCounts struct {
	// Every is the sampling stride (QualityEvery or QualityEveryCostly).
	Every int64 `json:"every"`
	// Games is the sampled games counted.
	Games int64 `json:"games"`
	// Measured says the length is in the game's Length unit (1: the game
	// is a game.Lengther) or in decisions (0).
	Measured int64 `json:"length_measured"`
	Length   int64 `json:"length"`
	LengthSq int64 `json:"length_sq"`
	// LeadChanges counts the decisions after which the set of leading seats
	// (the highest Score) differed from the one before; LeadBP sums each
	// game's share of its decisions that did.
	LeadChanges   int64 `json:"lead_changes"`
	LeadChangesSq int64 `json:"lead_changes_sq"`
	LeadBP        int64 `json:"lead_change_bp"`
	LeadBPSq      int64 `json:"lead_change_bp_sq"`
	// DecisiveGames are the sampled games with a seat that did not win
	// (decisiveness is undefined when every seat shares the victory);
	// DecisiveBP sums each one's decisiveness point as a share of its
	// decisions.
	DecisiveGames int64 `json:"decisive_games"`
	DecisiveBP    int64 `json:"decisiveness_bp"`
	DecisiveBPSq  int64 `json:"decisiveness_bp_sq"`
}

func (a *QualityCounts) add(b *QualityCounts) {
	// A shard that sampled no game has not seen whether the game measures
	// its length.
	a.Measured = max(a.Measured, b.Measured)
	a.Games += b.Games
	a.Length += b.Length
	a.LengthSq += b.LengthSq
	a.LeadChanges += b.LeadChanges
	a.LeadChangesSq += b.LeadChangesSq
	a.LeadBP += b.LeadBP
	a.LeadBPSq += b.LeadBPSq
	a.DecisiveGames += b.DecisiveGames
	a.DecisiveBP += b.DecisiveBP
	a.DecisiveBPSq += b.DecisiveBPSq
}

// check reports the first inconsistency of q against the run's games.
func (q *QualityCounts) check(games int64) error {
	if err := inRange(reflect.ValueOf(q).Elem(), "raw.quality"); err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("raw counts disagree: quality: "+format, args...)
	}
	switch {
	case q.Every < 1:
		return bad("sampling stride %d", q.Every)
	case q.Measured > 1:
		return bad("length_measured is %d (0 or 1)", q.Measured)
	case q.Games > games:
		return bad("%d sampled games of %d", q.Games, games)
	case q.DecisiveGames > q.Games:
		return bad("%d decisive games of %d sampled", q.DecisiveGames, q.Games)
	case q.LeadBP > bpOne*q.Games || q.DecisiveBP > bpOne*q.DecisiveGames:
		return bad("a share above 1")
	case q.Games > 0 && q.Length < q.Games:
		return bad("%d games last %d in all", q.Games, q.Length)
	}
	return nil
}

// sampled reports whether game i of the run is in the quality sample of
// stride every.
func sampled(i, every int) bool { return i%every == 0 }

// bp is k/n in basis points, rounded half up (n > 0).
func bp(k, n int) int64 { return (2*bpOne*int64(k) + int64(n)) / (2 * int64(n)) }

// qualityGame is what one sampled game adds.
type qualityGame struct {
	length, leads, leadBP int64
	decisive              bool
	decisiveBP            int64
}

// replayQuality replays moves on r, a state of the finished game's table
// that no Counter watches, from seed, and measures the game: ret are its
// win shares by seat. best is scratch (the winners' highest Score after
// each decision), returned grown.
func replayQuality(r game.State, seed uint64, moves []game.Action, ret [game.MaxSeats]float64, best []int) (qualityGame, []int) {
	var g qualityGame
	d := len(moves)
	r.Reset(seed)
	n := r.NumSeats()
	var winner [game.MaxSeats]bool
	losers := false
	for q := 0; q < n; q++ {
		winner[q] = ret[q] > 0
		losers = losers || !winner[q]
	}
	// leaders is the set of seats with the highest Score, as bits.
	leaders := func() uint8 {
		var set uint8
		top := math.MinInt
		for q := 0; q < n; q++ {
			switch s := r.Score(q); {
			case s > top:
				top, set = s, 1<<q
			case s == top:
				set |= 1 << q
			}
		}
		return set
	}
	prev := leaders()
	threshold := math.MinInt // the highest Score a seat that did not win reached
	best = best[:0]
	for _, a := range moves {
		r.Apply(a)
		set := uint8(0)
		top, wbest := math.MinInt, math.MinInt
		for q := 0; q < n; q++ {
			s := r.Score(q)
			switch {
			case s > top:
				top, set = s, 1<<q
			case s == top:
				set |= 1 << q
			}
			if winner[q] {
				wbest = max(wbest, s)
			} else {
				threshold = max(threshold, s)
			}
		}
		if set != prev {
			g.leads++
		}
		prev = set
		best = append(best, wbest)
	}
	g.length = int64(d)
	if l, ok := r.(game.Lengther); ok {
		g.length = int64(l.Length())
	}
	if d > 0 {
		g.leadBP = bp(int(g.leads), d)
	}
	if losers && d > 0 {
		// The decisiveness point: the first decision after which a winner's
		// Score lies above the threshold; the whole game when none does.
		k := d
		for i, b := range best {
			if b > threshold {
				k = i + 1
				break
			}
		}
		g.decisive, g.decisiveBP = true, bp(k, d)
	}
	return g, best
}

// count adds one sampled game.
func (q *QualityCounts) count(g qualityGame) {
	q.Games++
	q.Length += g.length
	q.LengthSq += g.length * g.length
	q.LeadChanges += g.leads
	q.LeadChangesSq += g.leads * g.leads
	q.LeadBP += g.leadBP
	q.LeadBPSq += g.leadBP * g.leadBP
	if g.decisive {
		q.DecisiveGames++
		q.DecisiveBP += g.decisiveBP
		q.DecisiveBPSq += g.decisiveBP * g.decisiveBP
	}
}

// --- the report ---------------------------------------------------------------

// QualityStats are the game-quality figures of a run (results.json
// "quality"; docs/metrics.md "Game quality"). Absent from results made
// before they were counted.
type QualityStats struct {
	// Games is every game of the run; Sampled the games of the replayed
	// sample (every Every-th game by index) that Length, LeadChanges,
	// LeadChangeShare and Decisiveness are read from.
	Games   int64 `json:"games"`
	Every   int64 `json:"sample_every"`
	Sampled int64 `json:"sampled_games"`
	// Length is in the game's Length unit when LengthInDecisions is false.
	Length            MeanStats `json:"length"`
	LengthInDecisions bool      `json:"length_in_decisions,omitempty"`
	// Decisions per game, over every game.
	Decisions MeanStats `json:"decisions"`
	// Starter is the starting seat's win share by table size, over every
	// game, against 1/players.
	Starter []StarterStats `json:"starter"`
	// Draws are the games whose victory was shared, over every game.
	Draws ShareStats `json:"draws"`
	// Margin is the winner's final Score minus the best other seat's (0 for
	// a shared victory), over every game, in the game's Score unit.
	Margin MeanStats `json:"margin"`
	// LeadChanges are the decisions per game after which the set of
	// leading seats changed; LeadChangeShare each game's share of its
	// decisions that did (Ludii's Lead Change).
	LeadChanges     MeanStats `json:"lead_changes"`
	LeadChangeShare MeanStats `json:"lead_change_share"`
	// Decisiveness is the share of a game's decisions played before a
	// winner's Score stayed above every Score a seat that did not win ever
	// reached (Ludii's Decisiveness Moves), over the sampled games with
	// such a seat.
	Decisiveness MeanStats `json:"decisiveness"`
}

// MeanStats are a per-game mean with its sample standard deviation and
// 95% interval (mean ± 1.96·sd/√n; for a mean of shares, cut to [0, 1]).
type MeanStats struct {
	N    int64      `json:"n"`
	Mean float64    `json:"mean"`
	SD   float64    `json:"sd"`
	CI95 [2]float64 `json:"ci95"`
	LowN bool       `json:"low_n"`
}

// ShareStats are a count out of N with its share and Wilson interval.
type ShareStats struct {
	N     int64      `json:"n"`
	Count int64      `json:"count"`
	Share float64    `json:"share"`
	CI95  [2]float64 `json:"ci95"`
	LowN  bool       `json:"low_n"`
}

// StarterStats are the starting seat's win share at tables of one size.
type StarterStats struct {
	Players  int        `json:"players"`
	Games    int64      `json:"games"`
	Expected float64    `json:"expected"`
	Share    float64    `json:"share"`
	CI95     [2]float64 `json:"ci95"`
	// Advantage is Share − Expected, in the same interval's terms.
	Advantage     float64    `json:"advantage"`
	AdvantageCI95 [2]float64 `json:"advantage_ci95"`
	LowN          bool       `json:"low_n"`
}

func meanStats(n, sum, sq int64, scale float64, minN int) MeanStats {
	m, sd := meanSD(n, sum, sq)
	m, sd = m/scale, sd/scale
	h := 0.0
	if n > 1 {
		h = Z95 * sd / math.Sqrt(float64(n))
	}
	lo, hi := m-h, m+h
	if scale == bpOne {
		// a mean of per-game shares lies in [0, 1], and so does its interval
		lo, hi = max(lo, 0), min(hi, 1)
	}
	return MeanStats{N: n, Mean: round6(m), SD: round6(sd), CI95: interval(lo, hi), LowN: n < int64(minN)}
}

// qualityStats are the figures of c, nil when c has no quality sample.
func qualityStats(c *Counts, minN int, unit int64) *QualityStats {
	q := c.Quality
	if q == nil {
		return nil
	}
	g := &c.Game
	s := &QualityStats{Games: c.Games, Every: q.Every, Sampled: q.Games, Starter: []StarterStats{},
		Length:            meanStats(q.Games, q.Length, q.LengthSq, 1, minN),
		LengthInDecisions: q.Measured == 0,
		Decisions:         meanStats(c.Games, g.Decisions, g.DecisionsSq, 1, minN),
		Margin:            meanStats(c.Games, g.Margin, g.MarginSq, 1, minN),
		LeadChanges:       meanStats(q.Games, q.LeadChanges, q.LeadChangesSq, 1, minN),
		LeadChangeShare:   meanStats(q.Games, q.LeadBP, q.LeadBPSq, bpOne, minN),
		Decisiveness:      meanStats(q.DecisiveGames, q.DecisiveBP, q.DecisiveBPSq, bpOne, minN),
	}
	lo, hi := Wilson(float64(g.Shared), float64(c.Games), Z95)
	s.Draws = ShareStats{N: c.Games, Count: g.Shared, Share: round6(ratio(float64(g.Shared), float64(c.Games))),
		CI95: interval(lo, hi), LowN: c.Games < int64(minN)}
	for _, t := range c.Seats {
		if len(t.StartWins) == 0 || t.Players < 1 {
			continue
		}
		w := winStats(t.StartWins[0], t.Games, unit, minN)
		e := 1 / float64(t.Players)
		s.Starter = append(s.Starter, StarterStats{Players: t.Players, Games: t.Games, Expected: round6(e),
			Share: w.WinRate, CI95: w.CI95, Advantage: round6(w.WinRate - e),
			AdvantageCI95: interval(w.CI95[0]-e, w.CI95[1]-e), LowN: w.LowN})
	}
	return s
}

// errQualityLayout: two shards, one with a quality sample and one without,
// or with different strides.
var errQualityLayout = errors.New("raw quality samples differ (a damaged or edited file, or one from an older cardlab?)")

func sameQuality(a, b *QualityCounts) error {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil || b == nil || a.Every != b.Every:
		return errQualityLayout
	case a.Measured != b.Measured && a.Games > 0 && b.Games > 0:
		return errQualityLayout
	}
	return nil
}

func cloneQuality(q *QualityCounts) *QualityCounts {
	if q == nil {
		return nil
	}
	c := *q
	return &c
}

// quality replays the game just finished on t (lineup li, rotation rot,
// seed seed; its moves in w.moves) on a state no Counter watches, and
// counts it into the quality sample.
func (w *worker) quality(t *table, li, rot int, seed uint64) error {
	r := w.replays[t]
	if r == nil {
		fac := w.p.lineups[li].fac
		n := len(fac)
		seats := make([]int, n)
		for q := range seats {
			seats[q] = fac[(q+rot)%n]
		}
		var err error
		if r, err = w.p.g.NewState(seats, 0); err != nil {
			return err
		}
		if w.replays == nil {
			w.replays = map[*table]game.State{}
		}
		w.replays[t] = r
	}
	var g qualityGame
	ret := t.st.Returns()
	g, w.best = replayQuality(r, seed, w.moves, ret, w.best)
	if !r.IsTerminal() || r.Returns() != ret {
		// The replay must be the game played: chance is the state's own
		// stream from its seed (game.State), so anything else is a bug.
		return fmt.Errorf("analysis: the quality replay of the game with seed %d ended otherwise than the game (a bug: please report it with the seed)", seed)
	}
	w.acc.q.count(g)
	return nil
}
