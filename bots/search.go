package bots

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/cardlab/cardlab/game"
)

// Search is information-set Monte Carlo tree search (single observer;
// Cowling, Powley & Whitehouse 2012) over any game's game.State. Each
// iteration deals what the searching seat cannot see at random
// (Determinize on a copy), walks the tree with UCB1 restricted to the
// actions legal in that deal (availability counts), adds one node, values
// the leaf with a game.Evaluator — the game's own (game.EvaluatorMaker) or
// RandomRollout, a uniform random playout to the end — and credits every
// node on the path with the value of the seat that chose it. It needs from
// the game only the contracts, and that an action mean the same in every
// determinization. Alpha Tactics' ISMCTS is a Search on its engine's state
// with its evaluator (EngineEvaluator). On a state with hidden simultaneous
// moves (game.Simultaneous: Goofspiel) it is multiple-observer ISMCTS
// instead, a tree per seat (search_mo.go).
//
// With a fixed iteration budget and seed it is deterministic. Choose
// allocates nothing once its scratch state is made (the first Choose) and
// its node arena has grown to the budget.
type Search struct {
	Iterations int           // per decision; used when Budget is 0
	Budget     time.Duration // per decision, if > 0
	C          float64       // exploration constant
	Eval       game.Evaluator

	// SingleObserver keeps the single tree on a game.Simultaneous state
	// (the search before the multiple-observer one, for measurements).
	SingleObserver bool

	stop    *atomic.Bool
	rng     game.RNG
	nodes   []snode
	scratch game.State
	buf     []game.Action
	kids    []int32
	path    []int32
	// observers: the state is game.Simultaneous with hidden moves, so
	// Choose keeps a tree per seat in mo (search_mo.go); read once.
	observers bool
	sim       game.Simultaneous // scratch as one
	meAt      int32             // the searching seat's decision node in its tree
	mo        []monode
	obs       []byte
}

type snode struct {
	action      game.Action
	player      int8 // who chose action (the seat to move in the parent)
	visits      int32
	avail       int32
	reward      float64
	first, next int32 // first child, next sibling (-1: none)
}

// NewSearch returns a search with the given iterations per decision (0:
// DefaultIterations) valuing its leaves with eval (nil: RandomRollout).
func NewSearch(seed uint64, iterations int, eval game.Evaluator) *Search {
	if iterations <= 0 {
		iterations = DefaultIterations
	}
	if eval == nil {
		eval = &RandomRollout{}
	}
	b := &Search{Iterations: iterations, C: 0.7, Eval: eval}
	b.Reseed(seed)
	return b
}

// Reseed starts the search over as NewSearch with seed would; the
// evaluator is reseeded from the search's stream, as ISMCTS reseeds its
// rollout agent.
func (b *Search) Reseed(seed uint64) {
	b.rng = game.NewRNG(seed)
	b.Eval.Reseed(b.rng.Uint64())
}

// SetStop implements Stoppable.
func (b *Search) SetStop(stop *atomic.Bool) { b.stop = stop }

func (b *Search) newNode(a game.Action, player int) int32 {
	b.nodes = append(b.nodes, snode{action: a, player: int8(player), first: -1, next: -1})
	return int32(len(b.nodes) - 1)
}

// Choose implements game.Agent: it searches from s for the seat to move and
// returns the most visited legal action.
func (b *Search) Choose(s game.State, legal []game.Action) game.Action {
	if len(legal) == 1 {
		return legal[0]
	}
	if b.scratch == nil {
		b.scratch = s.Clone()
		b.sim, b.observers = b.scratch.(game.Simultaneous)
	}
	me := s.CurrentPlayer()
	if b.observers && !b.SingleObserver {
		return b.chooseObservers(s, legal, me)
	}
	b.nodes = b.nodes[:0]
	root := b.newNode(0, -1)
	b.loop(func() { b.iterate(s, me, root) })
	best, bestN := legal[0], int32(-1)
	for c := b.nodes[root].first; c >= 0; c = b.nodes[c].next {
		if n := &b.nodes[c]; n.visits > bestN && hasAction(legal, n.action) {
			best, bestN = n.action, n.visits
		}
	}
	return best
}

// loop runs iterate until the budget ends the search: Iterations, or
// Budget's time (the clock read every 16 iterations), or the stop flag.
func (b *Search) loop(iterate func()) {
	var deadline time.Time
	if b.Budget > 0 {
		deadline = time.Now().Add(b.Budget)
	}
	for it := 0; ; it++ {
		if it%16 == 0 && b.stop != nil && b.stop.Load() {
			break
		}
		if b.Budget > 0 {
			if it%16 == 0 && time.Now().After(deadline) {
				break
			}
		} else if it >= b.Iterations {
			break
		}
		iterate()
	}
}

func hasAction(as []game.Action, a game.Action) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}

func (b *Search) iterate(s game.State, me int, root int32) {
	d := b.scratch
	s.CopyInto(d)
	d.Determinize(me, &b.rng)
	b.path = append(b.path[:0], root)
	cur := root
	for !d.IsTerminal() {
		b.buf = d.LegalActions(b.buf)
		mover := d.CurrentPlayer()
		b.kids = b.kids[:0]
		untried := 0
		for _, a := range b.buf {
			c := b.child(cur, a)
			b.kids = append(b.kids, c)
			if c < 0 {
				untried++
			}
		}
		if untried > 0 {
			pick := b.untried(b.rng.Intn(untried))
			for _, c := range b.kids {
				if c >= 0 {
					b.nodes[c].avail++
				}
			}
			n := b.newNode(pick, mover)
			b.nodes[n].avail = 1
			b.nodes[n].next = b.nodes[cur].first
			b.nodes[cur].first = n
			d.Apply(pick)
			b.path = append(b.path, n)
			break
		}
		sel, selV := int32(-1), math.Inf(-1)
		for _, c := range b.kids {
			n := &b.nodes[c]
			n.avail++
			v := n.reward/float64(n.visits) + b.C*math.Sqrt(math.Log(float64(n.avail))/float64(n.visits))
			if v > selV {
				sel, selV = c, v
			}
		}
		d.Apply(b.nodes[sel].action)
		b.path = append(b.path, sel)
		cur = sel
	}
	ret := b.Eval.Evaluate(d)
	for _, n := range b.path {
		nd := &b.nodes[n]
		nd.visits++
		if nd.player >= 0 {
			nd.reward += ret[nd.player]
		}
	}
}

func (b *Search) child(n int32, a game.Action) int32 {
	for c := b.nodes[n].first; c >= 0; c = b.nodes[c].next {
		if b.nodes[c].action == a {
			return c
		}
	}
	return -1
}

// RandomRollout is the evaluator of a game that has none of its own: it
// plays uniformly random legal actions to the end of the game and returns
// its win shares (OpenSpiel's RandomRolloutEvaluator with one rollout).
type RandomRollout struct {
	rng game.RNG
	buf []game.Action
}

// Reseed implements game.Evaluator.
func (r *RandomRollout) Reseed(seed uint64) { r.rng = game.NewRNG(seed) }

// Evaluate implements game.Evaluator.
func (r *RandomRollout) Evaluate(s game.State) [game.MaxSeats]float64 {
	for steps := 0; !s.IsTerminal() && steps <= game.MaxDecisions; steps++ {
		r.buf = s.LegalActions(r.buf)
		if len(r.buf) == 0 {
			break // a rules bug; the generic suites report it, the search values the state as it stands
		}
		s.Apply(r.buf[r.rng.Intn(len(r.buf))])
	}
	return s.Returns()
}

// untried is the k-th action of b.buf (0-based) whose child in b.kids is
// not yet in the tree (both searches expand one at random).
func (b *Search) untried(k int) game.Action {
	for i, c := range b.kids {
		if c < 0 {
			if k == 0 {
				return b.buf[i]
			}
			k--
		}
	}
	panic("bots: fewer untried actions than counted")
}
