package bots

import "github.com/cardlab/cardlab/game"

// Iterate runs one search iteration for seat me from a new root at s,
// dropping the tree built so far: the unit a benchmark of iterations per
// second counts. It is the single tree's iteration, whatever the state
// (game.Simultaneous is read by Choose) (a game's own search, such as Alpha Tactics' ISMCTS, is
// measured from its own package).
func (b *Search) Iterate(s game.State, me int) {
	b.nodes = b.nodes[:0]
	b.iterate(s, me, b.newNode(0, -1))
}

// RootMeans calls f for every child of the last search's root, in the
// tree's order: its action and the mean reward it earned the seat to move
// (what a regret measurement compares a bot's choice against).
func (b *Search) RootMeans(f func(a game.Action, mean float64)) {
	if b.observers && !b.SingleObserver {
		// The multiple-observer search (search_mo.go): the searching seat's
		// decision node in its own tree.
		if b.meAt < 0 || int(b.meAt) >= len(b.mo) {
			return
		}
		for c := b.mo[b.meAt].first; c >= 0; c = b.mo[c].next {
			if n := &b.mo[c]; n.player >= 0 {
				f(game.Action(n.key), n.reward/float64(n.visits))
			}
		}
		return
	}
	for c := b.nodes[0].first; c >= 0; c = b.nodes[c].next {
		n := &b.nodes[c]
		f(n.action, n.reward/float64(n.visits))
	}
}
