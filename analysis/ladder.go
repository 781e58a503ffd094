package analysis

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/internal/bug"
)

// LadderConfig sets up a round robin between bots.
type LadderConfig struct {
	// Game is the ruleset of any game: its bots through bots.ParseFor, its
	// games through NewState and PlayOut.
	Game game.Ruleset
	Bots []string // bot specs (bots.ParseFor)
	// Games per pair of bots; rounded up to an even number so every deal is
	// played twice with the bots' seats swapped.
	Games    int
	Players  int // only 2 is supported
	Seed     uint64
	Workers  int
	Progress func(done, total int)
}

// LadderBot is one bot's standing.
type LadderBot struct {
	Spec     string     `json:"bot"`
	Games    int        `json:"games"`
	WinShare float64    `json:"win_share"`
	CI95     [2]float64 `json:"ci95"`
	// Rating is a Bradley–Terry strength on the Elo scale (400 points: 10 to
	// 1 odds), anchored at 0 for the first bot listed.
	Rating float64 `json:"rating"`
}

// LadderPair is the head-to-head record of A against B.
type LadderPair struct {
	A     string     `json:"a"`
	B     string     `json:"b"`
	Games int        `json:"games"`
	AWins float64    `json:"a_win_share"`
	CI95  [2]float64 `json:"ci95"`
}

// LadderResult is the outcome of a ladder.
type LadderResult struct {
	Seed    uint64       `json:"seed"`
	Games   int          `json:"games_per_pair"`
	Bots    []LadderBot  `json:"bots"`
	Pairs   []LadderPair `json:"pairs"`
	Partial bool         `json:"partial"`
}

// Ladder plays every pair of bots against each other, through the
// contracts: the sides rotated over every ordered pair of distinct sides
// (Alpha Tactics' factions), or, in a game of one side that every seat
// plays (Goofspiel), that side on both seats; and every deal played twice
// with the bots' seats swapped (mirrored), so neither side nor seat
// favours a bot. The result is the same for any number of workers.
func Ladder(ctx context.Context, cfg LadderConfig) (*LadderResult, error) {
	g := cfg.Game
	if g == nil {
		return nil, fmt.Errorf("analysis: ladder needs a ruleset")
	}
	if cfg.Players == 0 {
		cfg.Players = 2
	}
	if cfg.Players != 2 {
		return nil, fmt.Errorf("analysis: the ladder plays 2-player games (got --players %d)", cfg.Players)
	}
	if lo, hi := g.Seats(); lo > 2 || hi < 2 {
		return nil, fmt.Errorf("analysis: the ladder plays 2-player games; %s allows %d to %d players", g.Info().Name, lo, hi)
	}
	if len(cfg.Bots) < 2 {
		return nil, fmt.Errorf("analysis: a ladder needs at least two bots")
	}
	seen := map[string]bool{}
	for _, b := range cfg.Bots {
		if _, err := bots.ParseFor(g, b, 0); err != nil {
			return nil, err
		}
		if seen[normSpec(b)] {
			return nil, fmt.Errorf("analysis: bot %q listed twice", b)
		}
		seen[normSpec(b)] = true
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("analysis: --games must be at least 1")
	}
	cfg.Games += cfg.Games % 2
	var seatings [][]int
	sides := g.Sides()
	for a := range sides {
		for b := range sides {
			if a != b {
				seatings = append(seatings, []int{a, b})
			}
		}
	}
	if len(seatings) == 0 {
		if !g.Mirror() {
			return nil, fmt.Errorf("analysis: the ladder needs two %s sides or one that both seats may play", g.Info().Name)
		}
		seatings = [][]int{{0, 0}}
	}
	var pairs [][2]int
	for i := range cfg.Bots {
		for j := i + 1; j < len(cfg.Bots); j++ {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	total := len(pairs) * cfg.Games
	share := make([]float64, total)
	played := make([]bool, total)
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var next, done atomic.Int64
	stop, unwatch := stopFlag(ctx)
	defer unwatch()
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			defer func() {
				if err := bug.From(recover()); err != nil {
					errs[w] = err
				}
			}()
			var moves, buf []game.Action
			agents := make([]game.Agent, 2)
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= total {
					return
				}
				pi, k := i/cfg.Games, i%cfg.Games
				deal := k / 2
				seats := seatings[deal%len(seatings)]
				seed := game.SeedFor(cfg.Seed, uint64(pi*cfg.Games/2+deal))
				specs := [2]string{cfg.Bots[pairs[pi][0]], cfg.Bots[pairs[pi][1]]}
				aSeat := 0
				if k%2 == 1 { // mirrored: same deal, bots swap seats
					specs[0], specs[1], aSeat = specs[1], specs[0], 1
				}
				s, err := g.NewState(seats, seed)
				if err != nil {
					errs[w] = err
					return
				}
				for p := range agents {
					a, err := bots.ParseFor(g, specs[p], game.SeedFor(seed^BotSalt, uint64(p)))
					if err != nil {
						errs[w] = err
						return
					}
					if st, ok := a.(bots.Stoppable); ok {
						st.SetStop(stop)
					}
					agents[p] = a
				}
				moves, err = playOut(s, agents, stop, moves[:0], &buf)
				if err == game.ErrStopped {
					return
				}
				if err != nil {
					errs[w] = fmt.Errorf("analysis: ladder game %d (seed %d, bots %s): %w", i, seed, strings.Join(specs[:], " v "), err)
					return
				}
				share[i] = s.Returns()[aSeat]
				played[i] = true
				d := done.Add(1)
				if cfg.Progress != nil {
					cfg.Progress(int(d), total)
				}
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return tallyLadder(&cfg, pairs, share, played, ctx.Err() != nil), nil
}

// tallyLadder is the ladder's result from the games played: share[i] is bot
// pairs[i/Games][0]'s win share in game i, played[i] whether it finished.
func tallyLadder(cfg *LadderConfig, pairs [][2]int, share []float64, played []bool, partial bool) *LadderResult {
	res := &LadderResult{Seed: cfg.Seed, Games: cfg.Games, Partial: partial}
	n := len(cfg.Bots)
	wins := make([]float64, n)
	games := make([]int, n)
	// nij[i][j]: games between i and j; wij[i][j]: i's win share against j.
	nij := make([][]float64, n)
	wij := make([][]float64, n)
	for i := range nij {
		nij[i], wij[i] = make([]float64, n), make([]float64, n)
	}
	for pi, pr := range pairs {
		p := struct{ a, b int }{pr[0], pr[1]}
		var aw float64
		cnt := 0
		for g := 0; g < cfg.Games; g++ {
			i := pi*cfg.Games + g
			if !played[i] {
				continue
			}
			aw += share[i]
			cnt++
		}
		wins[p.a] += aw
		wins[p.b] += float64(cnt) - aw
		games[p.a] += cnt
		games[p.b] += cnt
		nij[p.a][p.b], nij[p.b][p.a] = float64(cnt), float64(cnt)
		wij[p.a][p.b], wij[p.b][p.a] = aw, float64(cnt)-aw
		lp := LadderPair{A: cfg.Bots[p.a], B: cfg.Bots[p.b], Games: cnt}
		if cnt > 0 {
			lp.AWins = aw / float64(cnt)
			lo, hi := Wilson(aw, float64(cnt), 1.959964)
			lp.CI95 = [2]float64{lo, hi}
		}
		res.Pairs = append(res.Pairs, lp)
	}
	ratings := bradleyTerry(nij, wij)
	for i, spec := range cfg.Bots {
		lb := LadderBot{Spec: spec, Games: games[i], Rating: ratings[i] - ratings[0]}
		if games[i] > 0 {
			lb.WinShare = wins[i] / float64(games[i])
			lo, hi := Wilson(wins[i], float64(games[i]), 1.959964)
			lb.CI95 = [2]float64{lo, hi}
		}
		res.Bots = append(res.Bots, lb)
	}
	return res
}

// bradleyTerry fits strengths by Hunter's MM algorithm with half a win and
// half a loss added to every pairing (so a bot that never loses still gets
// a finite rating), and returns them on the Elo scale.
func bradleyTerry(nij, wij [][]float64) []float64 {
	n := len(nij)
	p := make([]float64, n)
	for i := range p {
		p[i] = 1
	}
	for it := 0; it < 500; it++ {
		maxChange := 0.0
		for i := 0; i < n; i++ {
			num, den := 0.0, 0.0
			for j := 0; j < n; j++ {
				if i == j || nij[i][j] == 0 {
					continue
				}
				num += wij[i][j] + 0.5
				den += (nij[i][j] + 1) / (p[i] + p[j])
			}
			if den > 0 {
				np := num / den
				maxChange = math.Max(maxChange, math.Abs(np-p[i])/p[i])
				p[i] = np
			}
		}
		// Normalise to a geometric mean of 1.
		lg := 0.0
		for _, v := range p {
			lg += math.Log(v)
		}
		g := math.Exp(lg / float64(n))
		for i := range p {
			p[i] /= g
		}
		if maxChange < 1e-9 {
			break
		}
	}
	out := make([]float64, n)
	for i, v := range p {
		out[i] = 400 * math.Log10(v)
	}
	return out
}
