package bots

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
)

// ISMCTS is information-set Monte Carlo tree search with a single observer
// (Cowling, Powley & Whitehouse 2012). Each iteration deals the cards its
// seat cannot see at random (engine.State.Determinize), walks the tree with
// UCB1 restricted to the actions legal in that deal, adds one node, plays
// the game out with the rollout agent and credits every node on the path
// with the win share of the seat that chose it. Actions name cards, not
// physical copies, so one tree serves every deal.
//
// With a fixed iteration budget and seed it is deterministic. Choose
// allocates nothing once its node arena has grown to the budget.
type ISMCTS struct {
	Iterations int           // per decision; used when Budget is 0
	Budget     time.Duration // per decision, if > 0
	C          float64       // exploration constant
	Rollout    string        // "random" or "greedy"
	// FullGame rolls out to the end of the game; otherwise to the end of
	// the round being played, then the standings are valued by Evaluate.
	FullGame bool

	// stop, when set and true, cuts the search short (SetStop).
	stop *atomic.Bool

	rng     engine.RNG
	nodes   []node
	scratch engine.State
	buf     []engine.Action
	kids    []int32 // the child of each action in buf during the descent
	path    []int32
	roll    Agent
}

type node struct {
	action      engine.Action
	player      int8 // who chose action (the seat to move in the parent)
	visits      int32
	avail       int32
	reward      float64
	first, next int32 // first child, next sibling (-1: none)
}

// DefaultIterations is ISMCTS's budget per decision when none is given.
const DefaultIterations = 500

// NewISMCTS returns a search agent with the given iterations per decision and
// rollout ("random" or "greedy").
func NewISMCTS(seed uint64, iterations int, rollout string) *ISMCTS {
	if iterations <= 0 {
		iterations = DefaultIterations
	}
	b := &ISMCTS{Iterations: iterations, C: 0.7, Rollout: rollout}
	if rollout != "greedy" {
		b.Rollout = "random"
	}
	b.Reseed(seed)
	return b
}

// Reseed starts the agent over as NewISMCTS with seed would (the node arena
// is kept for reuse), so a runner can reuse it between games.
func (b *ISMCTS) Reseed(seed uint64) {
	b.rng = engine.NewRNG(seed)
	rs := b.rng.Uint64()
	if b.Rollout == "greedy" {
		if g, ok := b.roll.(*greedy.Greedy); ok {
			g.Reseed(rs)
		} else {
			b.roll = greedy.New(rs)
		}
	} else {
		if r, ok := b.roll.(*Random); ok {
			r.Reseed(rs)
		} else {
			b.roll = NewRandom(rs)
		}
	}
}

// SetStop makes Choose return within a few iterations once stop is true (a
// cancelled run must not wait for a search with a huge budget). The action
// it then returns comes from a cut-short search: the caller abandons the
// game.
func (b *ISMCTS) SetStop(stop *atomic.Bool) { b.stop = stop }

func (b *ISMCTS) newNode(a engine.Action, player int) int32 {
	b.nodes = append(b.nodes, node{action: a, player: int8(player), first: -1, next: -1})
	return int32(len(b.nodes) - 1)
}

// Choose runs the search from s for the seat to move and returns the most
// visited legal action.
func (b *ISMCTS) Choose(s *engine.State, legal []engine.Action) engine.Action {
	if len(legal) == 1 {
		return legal[0]
	}
	me := s.CurrentPlayer()
	b.nodes = b.nodes[:0]
	root := b.newNode(0, -1)
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
		b.iterate(s, me, root)
	}
	best, bestN := legal[0], int32(-1)
	for c := b.nodes[root].first; c >= 0; c = b.nodes[c].next {
		if n := &b.nodes[c]; n.visits > bestN && hasAction(legal, n.action) {
			best, bestN = n.action, n.visits
		}
	}
	return best
}

func hasAction(as []engine.Action, a engine.Action) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}

func (b *ISMCTS) iterate(s *engine.State, me int, root int32) {
	d := &b.scratch
	s.CopyInto(d)
	d.Determinize(me, &b.rng)
	b.path = append(b.path[:0], root)
	cur := root
	for !d.IsTerminal() {
		b.buf = d.LegalActions(b.buf)
		mover := d.CurrentPlayer()
		// Children legal in this deal are available; find an untried action.
		// Each action's child is looked up once (kids[i], -1 if untried).
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
			k := b.rng.Intn(untried)
			var pick engine.Action
			for i, c := range b.kids {
				if c < 0 {
					if k == 0 {
						pick = b.buf[i]
						break
					}
					k--
				}
			}
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
	// Rollout.
	round := d.Round()
	for !d.IsTerminal() && (b.FullGame || d.Round() == round) {
		a, _ := Decide(b.roll, d, &b.buf)
		d.Apply(a)
	}
	ret := d.Returns()
	if !d.IsTerminal() {
		ret = Evaluate(d)
	}
	for _, n := range b.path {
		nd := &b.nodes[n]
		nd.visits++
		if nd.player >= 0 {
			nd.reward += ret[nd.player]
		}
	}
}

// child returns the child of n reached by a, or -1.
func (b *ISMCTS) child(n int32, a engine.Action) int32 {
	for c := b.nodes[n].first; c >= 0; c = b.nodes[c].next {
		if b.nodes[c].action == a {
			return c
		}
	}
	return -1
}

// Evaluate values an unfinished game for every seat as a chance of winning:
// a softmax of the victory points each would score if the game ended now,
// flatter the more rounds are left (a lead of a few VP means little early).
func Evaluate(s *engine.State) [4]float64 {
	n := s.NumPlayers()
	var vp [4]float64
	for p := 0; p < n; p++ {
		vp[p] = float64(s.ProvisionalScore(p).Total)
	}
	return winChances(&vp, n, s.RoundsLeft())
}

// winChances turns the first n seats' expected victory points into chances
// of winning the game: a softmax, flatter the more rounds are left.
func winChances(vp *[4]float64, n, roundsLeft int) [4]float64 {
	var out [4]float64
	scale := 2 + 2.5*float64(roundsLeft)
	best := math.Inf(-1)
	for p := 0; p < n; p++ {
		best = math.Max(best, vp[p])
	}
	sum := 0.0
	for p := 0; p < n; p++ {
		out[p] = math.Exp((vp[p] - best) / scale)
		sum += out[p]
	}
	for p := 0; p < n; p++ {
		out[p] /= sum
	}
	return out
}
