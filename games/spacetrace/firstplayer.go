package spacetrace

import (
	"fmt"
	"math"
	"strconv"
	"sync/atomic"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
)

// The first-player study (brief §4a.3): how much the player who begins
// round 1 wins, under the ruleset's first-turn attack ban (B1) and with it
// flipped, on the same deals — each game is played once under each
// setting with the same seed, so the starter, both libraries and the bots'
// streams are the same and the difference is paired game by game.

// firstPlayerStudy runs the study; params: games (per setting, default
// 2000), bots (a bot spec for both seats, default greedy), seed.
func (rs *Ruleset) firstPlayerStudy(params map[string]string, stop *atomic.Bool) (*game.StudyResult, error) {
	games, seed, spec := 2000, uint64(1), "greedy"
	for k, v := range params {
		switch k {
		case "games", "seed", "bots":
			if err := playParam(k, v, &games, &seed, &spec); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("spacetrace: study first_player takes games, bots and seed, not %q", k)
		}
	}
	if err := rs.Playable(); err != nil {
		return nil, err
	}
	if _, err := bots.ParseFor(rs, spec, 1); err != nil {
		return nil, fmt.Errorf("spacetrace: bots %q: %w", spec, err)
	}
	arms := [2]Ruleset{*rs, *rs}
	arms[1].Rules.FirstTurnBan = !rs.Rules.FirstTurnBan
	var won [2][]float64 // the starter's result in each game, per arm
	for a := range arms {
		st, err := arms[a].NewState([]int{0, 0}, 0)
		if err != nil {
			return nil, err
		}
		s := st.(*State)
		var buf []game.Action
		won[a] = make([]float64, games)
		for i := 0; i < games; i++ {
			if i%64 == 0 && stop.Load() {
				return nil, game.ErrStopped
			}
			gs := game.SeedFor(seed, uint64(i))
			var ag [2]game.Agent
			for q := range ag {
				if ag[q], err = bots.ParseFor(&arms[a], spec, game.SeedFor(gs, uint64(q))); err != nil {
					return nil, err
				}
			}
			s.Reset(gs)
			for !s.IsTerminal() {
				buf = s.LegalActions(buf)
				s.Apply(ag[s.CurrentPlayer()].Choose(s, buf))
			}
			won[a][i] = s.Returns()[s.First]
		}
	}
	sh := game.Sheet{Name: "First player", Columns: []game.SheetColumn{
		{Head: "first-turn attack ban", Doc: "attack.first_turn_ban (B1): the starting player may not attack in round 1"},
		{Head: "setting", Doc: "the ruleset's own, or flipped for the study"},
		{Head: "games", Doc: "games played, the same deals in both settings"},
		{Head: "starter wins", Format: "0.0%", Doc: "the share of the games the player who began round 1 won (a draw counts half)"},
		{Head: "ci95 low", Format: "0.0%", Doc: "its 95% interval (Wilson), lower end"},
		{Head: "ci95 high", Format: "0.0%", Doc: "its 95% interval (Wilson), upper end"},
	}}
	var share [2]float64
	for a := range arms {
		sum := 0.0
		for _, w := range won[a] {
			sum += w
		}
		share[a] = sum / float64(games)
		lo, hi := wilson(sum, float64(games))
		setting := "as the ruleset"
		if a == 1 {
			setting = "flipped"
		}
		sh.Rows = append(sh.Rows, []game.SheetCell{{Value: strconv.FormatBool(arms[a].Rules.FirstTurnBan)}, {Value: setting},
			{Value: int64(games)}, {Value: share[a]}, {Value: lo}, {Value: hi}})
	}
	// The paired difference: each game's starter result with the ban minus
	// without, its mean and normal interval.
	on, off := 0, 1
	if !arms[0].Rules.FirstTurnBan {
		on, off = 1, 0
	}
	var sd, sq float64
	for i := 0; i < games; i++ {
		d := won[on][i] - won[off][i]
		sd += d
		sq += d * d
	}
	n := float64(games)
	mean := sd / n
	se := math.Sqrt(max(0, (sq-sd*sd/n)/(n-1)) / n)
	return &game.StudyResult{Title: "First-player advantage with and without the first-turn attack ban", Tables: []game.Sheet{sh},
		Notes: []string{
			fmt.Sprintf("%d games per setting of the %s bot, seed %d: the same deals, starters and bot streams in both (paired)", games, spec, seed),
			fmt.Sprintf("the ban moves the starter's win share by %+.1f points [%+.1f, %+.1f] (with minus without, paired over games)", 100*mean, 100*(mean-1.96*se), 100*(mean+1.96*se)),
			fmt.Sprintf("the starter's advantage over an even 50%%: %+.1f points with the ban, %+.1f without", 100*(share[on]-0.5), 100*(share[off]-0.5)),
		}}, nil
}

// playParam reads a played study's games, seed or bots parameter (k) into
// its place: the errata and first-player studies take them alike.
func playParam(k, v string, games *int, seed *uint64, spec *string) error {
	switch k {
	case "games":
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 || n > 1000000 {
			return fmt.Errorf("spacetrace: games %q: expected a whole number 2..1000000", v)
		}
		*games = n
	case "seed":
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("spacetrace: seed %q: expected a whole number ≥ 0", v)
		}
		*seed = n
	case "bots":
		*spec = v
	}
	return nil
}
