package bots

import (
	"math"

	"github.com/cardlab/cardlab/game"
)

// The multiple-observer search (Cowling, Powley & Whitehouse 2012, MO-ISMCTS)
// of a game whose moves may be hidden from the seats deciding after them
// (game.Simultaneous). The single tree of Search keys an opponent's node by
// the searching seat's own move above it, so an opponent who bids after the
// searcher plays, in the tree, as if it had seen that bid: Goofspiel's
// second bidder always over-bids the first by one (strategy fusion), and
// the search loses to a rule of thumb. Here each seat has its own tree. A
// seat's tree branches on its own actions, and after every move (its own or
// another's) on what it then observes — a hash of State.Observation — so
// the moves it cannot see, and the deals it cannot tell apart, lead to one
// node; chance it observes (a prize turned up) branches. Each decision is
// chosen by UCB1 in the mover's own tree; the root's in the searching
// seat's. Observation is in every game's contract already, so the game
// declares only that it needs this (game.Simultaneous), and a game without
// hidden moves keeps the single tree and its cost.

// monode is a node of one seat's tree: an action node (player >= 0, key the
// action, the statistics UCB1 reads) or an observation node (player -1, key
// the hash of the tree's seat's observation after a move).
type monode struct {
	key         uint64
	player      int8
	visits      int32
	avail       int32
	reward      float64
	first, next int32
}

// chooseObservers is Choose for a game.Simultaneous state: one tree per seat,
// roots 0..n-1.
func (b *Search) chooseObservers(s game.State, legal []game.Action, me int) game.Action {
	n := s.NumSeats()
	if b.Budget <= 0 {
		// At most one action node and one observation node per seat are
		// added an iteration (iterateObservers), so the arena is made once
		// at an ordinary budget; a huge one (which a stop may cut short)
		// grows as it goes.
		if need := n + b.Iterations*(n+1); cap(b.mo) < need && need <= 1<<18 {
			b.mo = make([]monode, 0, need)
		}
	}
	b.mo = b.mo[:0]
	b.meAt = -1
	for t := 0; t < n; t++ {
		b.mo = append(b.mo, monode{player: -1, first: -1, next: -1})
	}
	b.loop(func() { b.iterateObservers(s, me, n) })
	best, bestN := legal[0], int32(-1)
	if b.meAt < 0 {
		return best
	}
	for c := b.mo[b.meAt].first; c >= 0; c = b.mo[c].next {
		if nd := &b.mo[c]; nd.player == int8(me) && nd.visits > bestN && hasAction(legal, game.Action(nd.key)) {
			best, bestN = game.Action(nd.key), nd.visits
		}
	}
	return best
}

func (b *Search) moNode(parent int32, key uint64, player int) int32 {
	b.mo = append(b.mo, monode{key: key, player: int8(player), first: -1, next: b.mo[parent].first})
	c := int32(len(b.mo) - 1)
	b.mo[parent].first = c
	return c
}

// moChild is parent's child of the kind player (-1: an observation node)
// with key, or -1.
func (b *Search) moChild(parent int32, key uint64, player int) int32 {
	for c := b.mo[parent].first; c >= 0; c = b.mo[c].next {
		if b.mo[c].key == key && b.mo[c].player == int8(player) {
			return c
		}
	}
	return -1
}

// iterateObservers walks every seat's tree at once down one determinization
// of s for me. It stops after the first step that adds a node to any tree
// (one step of expansion an iteration), values the position with the
// evaluator and credits each action node on the path with its chooser's
// value.
func (b *Search) iterateObservers(s game.State, me, n int) {
	d := b.scratch
	s.CopyInto(d)
	d.Determinize(me, &b.rng)
	b.sim.Rewind(me)
	var cur [game.MaxSeats]int32
	for t := 0; t < n; t++ {
		cur[t] = int32(t)
	}
	b.path = b.path[:0]
	for !d.IsTerminal() {
		b.buf = d.LegalActions(b.buf)
		mover := d.CurrentPlayer()
		at := cur[mover]
		if mover == me && b.meAt < 0 {
			b.meAt = at
		}
		b.kids = b.kids[:0]
		untried := 0
		for _, a := range b.buf {
			c := b.moChild(at, uint64(a), mover)
			b.kids = append(b.kids, c)
			if c < 0 {
				untried++
			}
		}
		grew := untried > 0
		var sel int32
		if grew {
			pick := b.untried(b.rng.Intn(untried))
			for _, c := range b.kids {
				if c >= 0 {
					b.mo[c].avail++
				}
			}
			sel = b.moNode(at, uint64(pick), mover)
			b.mo[sel].avail = 1
		} else {
			selV := math.Inf(-1)
			for _, c := range b.kids {
				nd := &b.mo[c]
				nd.avail++
				v := nd.reward/float64(nd.visits) + b.C*math.Sqrt(math.Log(float64(nd.avail))/float64(nd.visits))
				if v > selV {
					sel, selV = c, v
				}
			}
		}
		d.Apply(game.Action(b.mo[sel].key))
		b.path = append(b.path, sel)
		cur[mover] = sel
		for t := 0; t < n; t++ {
			b.obs = d.Observation(t, b.obs[:0])
			h := uint64(14695981039346656037) // FNV-1a
			for _, x := range b.obs {
				h = (h ^ uint64(x)) * 1099511628211
			}
			c := b.moChild(cur[t], h, -1)
			if c < 0 {
				c = b.moNode(cur[t], h, -1)
				grew = true
			}
			cur[t] = c
			b.path = append(b.path, c)
		}
		if grew {
			break
		}
	}
	ret := b.Eval.Evaluate(d)
	for _, c := range b.path {
		nd := &b.mo[c]
		nd.visits++
		if nd.player >= 0 {
			nd.reward += ret[nd.player]
		}
	}
}
