package analysis

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/internal/bug"
)

// ladderGame is Ladder for another game than Alpha Tactics, through the
// contracts: the sides cycle as Alpha Tactics' factions do (every ordered
// pair of distinct sides), or, in a game of one side that every seat plays
// (Goofspiel), that side on both seats; every deal is played twice with
// the bots' seats swapped. Seeds are derived as Alpha Tactics' are, so the
// result is the same for any number of workers.
func ladderGame(ctx context.Context, cfg LadderConfig) (*LadderResult, error) {
	g := cfg.Game
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
