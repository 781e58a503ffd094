package goofspiel

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/cardlab/cardlab/game"
)

// BotNames implements game.Botter: Goofspiel's own bot, beside the core's
// random and ismcts.
func (rs *Ruleset) BotNames() []string { return []string{"greedy"} }

// DefaultBot implements game.DefaultBotter: the search, as greedy against
// itself bids the same card every turn and ties it (a report of nothing but
// draws). Since the search keeps a tree per seat (bots/search_mo.go) its
// self-play is even between the seats, and 300 iterations keep a report
// at its 1000 games under half a minute on two cores
// (docs/rules-goofspiel.md, "The search and simultaneous bids").
func (rs *Ruleset) DefaultBot() string { return DefaultBot }

// DefaultBot is Goofspiel's default bot spec.
const DefaultBot = "ismcts:iters=300"

// NewBot implements game.Botter.
func (rs *Ruleset) NewBot(name string, params map[string]string, spec string, _ uint64) (game.Agent, error) {
	if name != "greedy" {
		return nil, fmt.Errorf("goofspiel: no bot %q", name) // not reached: BotNames is the list
	}
	if len(params) > 0 {
		return nil, fmt.Errorf("goofspiel: %s takes no parameters (got %q)", name, spec)
	}
	return NewGreedy(rs), nil
}

// Greedy is the prize-matching rule of thumb: it bids the card whose rank
// among the bid cards is the turned-up prize's rank among the prizes — in
// the classic game, where both are 1..13, the card equal to the prize (the
// "matching" bot of OpenSpiel users, which beats a random bidder nearly
// always). With fewer prizes than cards the ranks are spread over the hand,
// rank r of T prizes bidding card ⌈(r+1)·cards/T⌉, so the top prize still
// takes the top card. The target is always in hand (each prize comes up once
// and the map is one to one); should it not be, Greedy bids the held card
// nearest to it, the lower on a tie.
//
// It reads only the prize turned up and its own hand, decides without a
// random stream and allocates nothing.
type Greedy struct {
	rs *Ruleset
	// card[i] is the bid for prize card i (an index into rs.Prizes).
	card [MaxCards]uint8
}

// NewGreedy returns the greedy bot for games of rs.
func NewGreedy(rs *Ruleset) *Greedy {
	g := &Greedy{rs: rs}
	t, h := len(rs.Prizes), rs.HandSize
	order := make([]int, t)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rs.Prizes[order[a]] < rs.Prizes[order[b]] })
	for r, i := range order {
		g.card[i] = uint8(((r+1)*h + t - 1) / t)
	}
	return g
}

// Choose implements game.Agent for a Goofspiel state of the bot's ruleset.
func (g *Greedy) Choose(st game.State, legal []game.Action) game.Action {
	s := st.(*State)
	want := int(g.card[s.deck[s.turn]])
	hand := s.hand[s.player]
	if hand&(1<<(want-1)) != 0 {
		return game.Action(want)
	}
	// The nearest held card: the highest below want against the lowest
	// above it.
	best, bestD := legal[0], MaxCards+1
	for h := hand; h != 0; h &= h - 1 {
		v := bits.TrailingZeros64(h) + 1
		d := v - want
		if d < 0 {
			d = -d
		}
		if d < bestD {
			best, bestD = game.Action(v), d
		}
	}
	return best
}

// Reseed implements analysis.Reseeder: Greedy has no stream, so a runner
// reuses it as it is.
func (g *Greedy) Reseed(uint64) {}
