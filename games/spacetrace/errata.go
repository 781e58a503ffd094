package spacetrace

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
)

// The errata study (brief §4a.6): what a card's printed cost is worth to
// the player who holds it, as paired diffs. For each cost asked, one player
// plays the deck with the card at that cost against the deck as written
// (the card at its printed cost), on the same deals with the seats
// swapped, so every difference between the two players is the card's cost.
// Interceptors at 60 MP (the errata) against other costs; Dreadnought at
// 300 (the errata) against 400 (a guess at the unknown cost before it).

// errataStudy runs the study; params: card (an id, default dreadnought),
// costs (comma-separated MP, default the errata's alternatives), games
// (pairs per cost, default 1000), bots, seed.
func (rs *Ruleset) errataStudy(params map[string]string, stop *atomic.Bool) (*game.StudyResult, error) {
	card, pairs, seed, spec, costsArg := "", 1000, uint64(1), "greedy", ""
	for k, v := range params {
		switch k {
		case "card":
			card = v
		case "costs":
			costsArg = v
		case "games", "seed", "bots":
			if err := playParam(k, v, &pairs, &seed, &spec); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("spacetrace: study errata takes card, costs, games, bots and seed, not %q", k)
		}
	}
	if card == "" {
		card = "dreadnought"
	}
	ci := rs.CardIndex(card)
	if ci < 0 || rs.Defs[ci].Type != Ship {
		return nil, fmt.Errorf("spacetrace: errata: %q is no ship card of this ruleset", card)
	}
	deck := -1
	for d := range rs.Decks {
		for _, c := range rs.Decks[d].List {
			if int(c) == ci && deck < 0 {
				deck = d
			}
		}
	}
	if deck < 0 {
		return nil, fmt.Errorf("spacetrace: errata: no deck of this ruleset holds %s", card)
	}
	printed := rs.Defs[ci].MP
	var costs []int
	if costsArg == "" {
		switch card {
		case "interceptors":
			costsArg = "40,50,70,80,100"
		case "dreadnought":
			costsArg = "400"
		default:
			costsArg = strconv.Itoa(printed+100) + "," + strconv.Itoa(max(0, printed-50))
		}
	}
	for _, f := range strings.Split(costsArg, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || n > 10000 {
			return nil, fmt.Errorf("spacetrace: errata: cost %q: expected MP 0..10000", f)
		}
		costs = append(costs, n)
	}
	if err := rs.Playable(); err != nil {
		return nil, err
	}
	if _, err := bots.ParseFor(rs, spec, 1); err != nil {
		return nil, fmt.Errorf("spacetrace: bots %q: %w", spec, err)
	}
	name := rs.Defs[ci].Name
	sh := game.Sheet{Name: "Errata", Columns: []game.SheetColumn{
		{Head: "card", Doc: "the ship card whose cost changes"},
		{Head: "cost", Doc: "its MP in the changed player's deck"},
		{Head: "printed", Doc: "its MP in the other player's deck, as the ruleset has it"},
		{Head: "games", Doc: "games played: each deal twice, the seats swapped"},
		{Head: "win share", Format: "0.0%", Doc: "the changed player's share of the games (a draw counts half)"},
		{Head: "ci95 low", Format: "0.0%", Doc: "its 95% interval, lower end (normal over the deal pairs)"},
		{Head: "ci95 high", Format: "0.0%", Doc: "its 95% interval, upper end"},
		{Head: "pts", Format: "0.0", Doc: "the win share minus 50, in points: what the cost is worth to its holder against the printed cost"},
	}}
	var notes []string
	for _, cost := range costs {
		v := *rs
		v.Defs = append(append([]Card(nil), rs.Defs...), rs.Defs[ci])
		v.Defs[len(v.Defs)-1].MP = cost
		changed := rs.Decks[deck]
		changed.ID, changed.List = "changed", append([]uint8(nil), changed.List...)
		for i, c := range changed.List {
			if int(c) == ci {
				changed.List[i] = uint8(len(v.Defs) - 1)
			}
		}
		v.Decks = []Deck{changed, rs.Decks[deck]}
		var sum, sq float64
		for i := 0; i < pairs; i++ {
			if i%32 == 0 && stop.Load() {
				return nil, game.ErrStopped
			}
			gs := game.SeedFor(seed, uint64(i))
			pair := 0.0
			for sw := 0; sw < 2; sw++ {
				seats := []int{0, 1}
				if sw == 1 {
					seats = []int{1, 0}
				}
				r, err := playPair(&v, seats, gs, spec)
				if err != nil {
					return nil, err
				}
				pair += r[sw] // the changed deck's seat
			}
			sum += pair / 2
			sq += pair * pair / 4
		}
		n := float64(pairs)
		mean := sum / n
		se := math.Sqrt(max(0, (sq-sum*sum/n)/(n-1)) / n)
		sh.Rows = append(sh.Rows, []game.SheetCell{{Value: name}, {Value: int64(cost)}, {Value: int64(printed)}, {Value: int64(2 * pairs)},
			{Value: round4(mean)}, {Value: round4(mean - 1.96*se)}, {Value: round4(mean + 1.96*se)}, {Value: math.Round(1000*(mean-0.5)) / 10}})
		notes = append(notes, fmt.Sprintf("%s at %d MP instead of %d: %+.1f points [%+.1f, %+.1f] to its holder", name, cost, printed,
			100*(mean-0.5), 100*(mean-1.96*se-0.5), 100*(mean+1.96*se-0.5)))
	}
	notes = append(notes, fmt.Sprintf("%d deals per cost, each played twice with the seats swapped, %s bot in both seats, seed %d; the other player's deck is %s as written", pairs, spec, seed, rs.Decks[deck].Name))
	return &game.StudyResult{Title: "Errata: " + name + "'s cost against its holder's win share (paired)", Tables: []game.Sheet{sh}, Notes: notes}, nil
}

// playPair plays one game of v with seats' decks, seeded gs, spec's bot in
// both seats, and returns its result.
func playPair(v *Ruleset, seats []int, gs uint64, spec string) ([game.MaxSeats]float64, error) {
	st, err := v.NewState(seats, gs)
	if err != nil {
		return [game.MaxSeats]float64{}, err
	}
	var ag [2]game.Agent
	for q := range ag {
		if ag[q], err = bots.ParseFor(v, spec, game.SeedFor(gs, uint64(q))); err != nil {
			return [game.MaxSeats]float64{}, err
		}
	}
	var buf []game.Action
	for !st.IsTerminal() {
		buf = st.LegalActions(buf)
		st.Apply(ag[st.CurrentPlayer()].Choose(st, buf))
	}
	return st.Returns(), nil
}
