package bots

import (
	"math"

	"github.com/cardlab/cardlab/game"
)

// tnode is a node of Strong's tree search (search): the action that led to
// it, who chose it, and the statistics ISMCTS keeps.
type tnode struct {
	action      game.Action
	player      int8
	visits      int32
	avail       int32
	reward      float64
	first, next int32
}

// search is Strong's tree mode (Iters > 0): single-observer ISMCTS whose
// children at every node are Greedy's best actions in that deal, as many as
// the node's visits allow (progressive widening: 1 + PW·√visits, at most
// K), tried in Greedy's order before any is tried again, and whose
// iterations end Horizon decisions of Greedy after the new node, valued by
// leaf. It returns the most visited of the root's candidates.
func (b *Strong) search(s *game.State, legal []game.Action, me int) game.Action {
	b.tn = b.tn[:0]
	b.tn = append(b.tn, tnode{player: -1, first: -1, next: -1})
	// The iterations cycle through Dets deals of the hidden cards, dealt
	// once: candidates compared on the same deals (common random numbers)
	// differ by their merit, not by the luck of the deal.
	for len(b.dets) < b.Dets {
		b.dets = append(b.dets, game.State{})
	}
	for k := 0; k < b.Dets; k++ {
		s.CopyInto(&b.dets[k])
		b.dets[k].Determinize(me, &b.rng)
	}
	for it := 0; it < b.Iters; it++ {
		b.iterate(&b.dets[it%b.Dets], legal, me)
	}
	best, bestN := b.cand[0], int32(-1)
	for c := b.tn[0].first; c >= 0; c = b.tn[c].next {
		n := &b.tn[c]
		if n.visits > bestN {
			for _, i := range b.cand {
				if legal[i] == n.action {
					best, bestN = i, n.visits
				}
			}
		}
	}
	return legal[best]
}

// allowed is how many of Greedy's best actions a node visited n times
// offers.
func (b *Strong) allowed(n int32, k int) int {
	w := 1 + int(b.PW*math.Sqrt(float64(n)))
	return min(w, k)
}

func (b *Strong) iterate(s *game.State, legal []game.Action, me int) {
	d := &b.sim
	s.CopyInto(d)
	b.path = append(b.path[:0], 0)
	cur := int32(0)
	round := d.Round()
	root := true
	expanded := false
	for !expanded && !d.IsTerminal() && d.Round() == round {
		var acts []game.Action
		var cand []int
		if root {
			acts, cand = legal, b.cand
		} else {
			b.tbuf = d.LegalActions(b.tbuf)
			acts = b.tbuf
			if len(acts) == 1 {
				d.Apply(acts[0])
				continue
			}
			K := b.K
			if acts[len(acts)-1].Kind() != game.ActPass {
				K = b.KE
			}
			b.rankInto(d, acts, K, &b.tcand)
			cand = b.tcand
		}
		root = false
		mover := d.CurrentPlayer()
		w := b.allowed(b.tn[cur].visits, len(cand))
		// The first untried of the allowed, in Greedy's order.
		sel, selV := int32(-1), math.Inf(-1)
		for _, i := range cand[:w] {
			a := acts[i]
			c := b.tchild(cur, a)
			if c < 0 {
				n := int32(len(b.tn))
				b.tn = append(b.tn, tnode{action: a, player: int8(mover), avail: 1, first: -1, next: b.tn[cur].first})
				b.tn[cur].first = n
				sel, expanded = n, true
				break
			}
			nd := &b.tn[c]
			nd.avail++
			v := nd.reward/float64(nd.visits) + b.C*math.Sqrt(math.Log(float64(nd.avail))/float64(nd.visits))
			if v > selV {
				sel, selV = c, v
			}
		}
		d.Apply(b.tn[sel].action)
		b.path = append(b.path, sel)
		cur = sel
	}
	ret := b.rolloutAll(d, me)
	for _, n := range b.path {
		nd := &b.tn[n]
		nd.visits++
		if nd.player >= 0 {
			nd.reward += ret[nd.player]
		}
	}
}

// rolloutAll is rollout for every seat.
func (b *Strong) rolloutAll(d *game.State, me int) [4]float64 {
	round := d.Round()
	for n := 0; !d.IsTerminal() && d.Round() == round; n++ {
		if n >= b.Horizon && d.Phase() == game.Deployment {
			return b.leafAll(d)
		}
		a, _ := Decide(b.roll, d, &b.buf)
		d.Apply(a)
	}
	if d.IsTerminal() {
		return d.Returns()
	}
	return Evaluate(d)
}

// tchild returns the child of n reached by a, or -1.
func (b *Strong) tchild(n int32, a game.Action) int32 {
	for c := b.tn[n].first; c >= 0; c = b.tn[c].next {
		if b.tn[c].action == a {
			return c
		}
	}
	return -1
}
