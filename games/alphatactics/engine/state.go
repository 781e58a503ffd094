// Package engine is the Alpha Tactics rules engine: state, phases, legal
// actions, pending decisions inside effects, scoring, hidden-information
// views and events. It does no I/O.
//
// The decision interface follows OpenSpiel: CurrentPlayer, LegalActions,
// Apply, IsTerminal, Returns, Clone. Every choice — placement, pass and
// discards, an effect's target, a Negotiations bid — is a legal action of the
// player who decides it. A state is a flat value of fixed-size arrays so that
// copying it is one memmove and deciding allocates nothing.
package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

const (
	maxPlayers = rules.MaxPlayers
	maxDeck    = rules.MaxDeckSize
	maxRows    = rules.MaxRows
	// MaxRowLen is the engine's capacity for cards in one row; a full row
	// takes no more cards (documented in docs/rules.md, never reached in
	// practice: the Deployment Phase ends long before).
	MaxRowLen = 40
	maxFrames = 12
	noInst    = 0xff
	// maxRebids bounds Negotiations re-bids between tied players.
	maxRebids = 8
	// MaxDeployTurns ends a Deployment Phase that has gone on this many
	// turns (a normal one takes 20 to 40): players who keep placing cards
	// that get removed again, while nobody completes the last row, would
	// otherwise never finish the round (docs/rules.md).
	MaxDeployTurns = 300
)

// The engine's bit sets and byte-sized indices hold the loader's limits
// (package cards): each line fails to compile (a negative array length) if
// a limit is raised beyond what the engine's representation can hold.
var (
	_ [64 - rules.MaxTargets]struct{}                       // won, planets: one bit per target in a uint64
	_ [64 - maxDeck]struct{}                                // spied, defBit, handCards.defs: one bit or slot per card of a deck
	_ [noInst - rules.MaxPlayers*rules.MaxDeckSize]struct{} // instances are uint8 below noInst
	_ [255 - rules.MaxCardDefs]struct{}                     // definitions are uint8 (instDef)
	_ [32 - maxRows]struct{}                                // longMask, fullMask, closedMask: one bit per row
	_ [64 - MaxRowLen]struct{}                              // row.rules: one bit per position
	_ [255 - rules.MaxTargets*2]struct{}                    // round is a uint8, and unclaimed targets replay up to 2×rounds
)

// Phase of a round.
type Phase uint8

const (
	Deployment Phase = iota
	Reveal
	GameOver
	// Scoring is only seen by setups paused before the Scoring Phase.
	Scoring
)

func (p Phase) String() string {
	switch p {
	case Deployment:
		return "deployment"
	case Reveal:
		return "reveal"
	case Scoring:
		return "scoring"
	}
	return "game over"
}

type pile struct {
	n uint8
	c [maxDeck]uint8
}

func (p *pile) push(i uint8) { p.c[p.n] = i; p.n++ }
func (p *pile) pop() uint8   { p.n--; return p.c[p.n] }
func (p *pile) cards() []uint8 {
	return p.c[:p.n]
}
func (p *pile) removeAt(k int) uint8 {
	i := p.c[k]
	// A loop, not copy: piles are short where this is hot (hands), and a
	// runtime.memmove call costs more than moving a few bytes.
	c := p.c[k:p.n]
	for j := 1; j < len(c); j++ {
		c[j-1] = c[j]
	}
	p.n--
	return i
}

// targetPile is the target draw pile: a pile's operations, sized for the
// most targets a ruleset may hold (a pile holds one deck, which is smaller).
type targetPile struct {
	n uint8
	c [rules.MaxTargets]uint8
}

func (p *targetPile) push(i uint8) { p.c[p.n] = i; p.n++ }
func (p *targetPile) pop() uint8   { p.n--; return p.c[p.n] }
func (p *targetPile) cards() []uint8 {
	return p.c[:p.n]
}
func (p *targetPile) removeAt(k int) {
	copy(p.c[k:p.n], p.c[k+1:p.n])
	p.n--
}

// slot flags
const (
	fFaceUp uint8 = 1 << iota
	fDeactEffect
	fDeactPower
)

type slot struct {
	inst      uint8
	flags     uint8
	blockedBy uint8 // scout instance that revealed this card without effect
	shield    uint8 // shield instance lying on this card
	weaken    uint8
}

type row struct {
	target int8 // target index, -1 once taken by Negotiations
	n      uint8
	// ver changes with every change of the row (its cards, their faces,
	// markers and weakening, its target): ViewRowsSince rereads a row only
	// when its version moved.
	ver uint32
	// rules has bit k set while the card at position k lies face up with a
	// permanent row rule (Blockade, blocker ship): only those can close the
	// row or block the cards beneath, so the rule checks visit just them.
	// Face-down cards are not in it, so a determinization, which swaps only
	// face-down cards, leaves it right.
	rules uint64
	s     [MaxRowLen]slot
}

type player struct {
	draw, hand, discard pile
	won                 uint64 // bit i: target index i
	bid                 uint8  // Negotiations bid card lying face down
	// spied[q] holds local instance bits of q's hand cards this player saw
	// through a Spy; cleared as soon as q's hand loses a card.
	spied [maxPlayers]uint64
}

// engine frame kinds (Frame.Def == -1, Frame.Step is the kind)
const (
	fkDiscard = iota // after passing: discard any number of cards
	fkShield         // after choosing a shield: the card it protects and the row
	fkWave           // after a Gravitational Wave: the card to insert and where
	fkBid            // Negotiations: current bidder's sealed bid
)

// fixed is everything about a game that never changes after New; states and
// their clones share it.
type fixed struct {
	rs      *rules.Ruleset
	players int
	faction [maxPlayers]int
	base    [maxPlayers]int // first instance of each seat
	ninst   int
	// Arrays of 256 indexed by a uint8 instance or definition need no
	// bounds checks in the hot path.
	instDef [256]uint8
	instOwn [256]uint8
	// instKey is an instance's owner<<8 | type, so that a slot query
	// tests both with one load.
	instKey [256]uint16
	// defBit: one bit per distinct definition within the owner's deck.
	defBit [256]uint64
	// defFirst..defLast are the instances of a definition: a deck lists
	// each definition once, with its copies, so they are consecutive
	// (takeFromHand tests a whole hand against the range at once). An
	// empty range for a definition no seat holds.
	defFirst, defLast [256]uint8
	defOne            [256]handlers.OneTimeBehavior
	defCh             [256]handlers.ChoiceBehavior
	defPerm           [256]handlers.PermanentFlags
	defMod            [256]handlers.PowerModifier
	defPlace          [256]handlers.Placement
	defScore          [256]handlers.ScoringBehavior
	defArgs           [256][]effects.Value
	defSpec           [256]*effects.Spec
	defStage          [256]uint8 // bit set of scoring stages
	// placeBits[p][pl]: the defBit bits of seat p's cards of placement pl
	// (handlers.Placement), so a hand's definition set tells at once which
	// special (X) cards are in hand and how many.
	placeBits [maxPlayers][8]uint64
	// defScoring marks cards whose effect can change powers or give a
	// combination in the Scoring Phase (rows without any are summed directly).
	defScoring [256]bool
	defPower   [256]int16
	defType    [256]uint8
	// defParams: the decoded arguments of scoring and modifying effects,
	// held in params.
	defParams [256]*handlers.Params
	params    []handlers.Params
	// Targets, resolved once so that scoring compares no strings.
	tgt []targetFixed
	// targetInfo describes the targets to target bonuses as they compile.
	targetInfo []handlers.TargetInfo
	// planets: bit t for planet targets; planetBonus[p]: the planets that
	// earn seat p the planet bonus.
	planets       uint64
	planetBonus   [maxPlayers]uint64
	tieByPlanets  bool
	planetBonusVP int
	// cardsToEnd and handSize copy rule parameters into the hot path.
	cardsToEnd, handSize int
}

// targetFixed is a target card as scoring needs it.
type targetFixed struct {
	typ, quad, vp int
	bonus         []handlers.Bonus
}

// State is one game in progress.
type State struct {
	core
	// The arrays sized for the largest game, after core: CopyInto copies
	// only their parts in use (the rows of this round, the seats, the
	// pending frames), a third of the whole in a 2-player game. A part not
	// in use is written before it is read (startRound, push), and the
	// views start over with every copy (its epoch is new).
	rows    [maxRows]row
	players [maxPlayers]player
	frames  [maxFrames]handlers.Frame
	views   viewTotals // what ViewRowsSince counted (view.go)
}

// core is a State's fields but its large arrays: CopyInto copies it whole.
type core struct {
	fx  *fixed
	rng RNG
	// epoch is unique to this state's line of play: New, Reset, CopyInto
	// (for the copy) and Determinize draw a new one, so that a row version
	// names one row content (ViewRowsSince).
	epoch uint64

	phase Phase
	round uint8
	turn  uint8 // player whose Deployment turn it is
	ender uint8
	// starter is the seat that began round 1; startDrawn: it was drawn at
	// random (the rules' starting faction is not at the table).
	starter     uint8
	startDrawn  bool
	passStreak  uint8
	deployTurns uint16 // turns in this round's Deployment Phase
	deployEnded bool
	turnOpen    bool
	fizzled     bool
	// pauseScoring stops before the Scoring Phase (setups only).
	pauseScoring bool
	nrows        uint8
	revealFrom   uint8 // Reveal Phase: rows before it are all face up
	// Bit sets of the rows that hold cardsToEnd cards or more (longMask),
	// MaxRowLen cards (fullMask), or an active Blockade (closedMask): the
	// open and complete rows follow from them (openRows, completeRows).
	// Every change of a row keeps them right.
	longMask   uint32
	fullMask   uint32
	closedMask uint32
	// shields counts the shields lying on the table's cards, so that a
	// Reveal Phase without any looks for none.
	shields   uint8
	targets   targetPile // target draw pile, top at the end
	unclaimed uint8
	nframes   uint8

	final    [maxPlayers]Final
	winShare [maxPlayers]float64

	stats Stats

	obs   Observer
	tally *Tally // metrics counters (tally.go), nil unless attached
	offer []Action
	// scratch is the Scoring Phase's RowScore, allocated on first use and
	// this state's alone (Reset, Rebind and CopyInto keep the target's):
	// too large to copy with every state, and it would escape to the heap
	// if declared per call.
	scratch *handlers.RowScore
}

// Stats counts what happened in a game, for metrics.
type Stats struct {
	Decisions  int32
	Passes     int32
	Reshuffles int32
	Placements int32
	// DeployTurns counts Deployment turns per round summed over rounds.
	DeployTurns int32
	Rounds      int32
}

// Final is a player's end-of-game score breakdown.
type Final struct {
	TargetVP    int
	BonusVP     int
	PlanetBonus int
	Total       int
	Planets     int
	Targets     int
}

// Config sets up a game.
type Config struct {
	// Factions, one per seat, by id; seat order is turn order.
	Factions []string
	Seed     uint64
	Observer Observer
}

// ErrConfig reports a bad game configuration.
var ErrConfig = errors.New("game: bad configuration")

// New sets up a game: decks and target pile shuffled, four cards dealt, the
// first round's targets laid out.
func New(rs *rules.Ruleset, cfg Config) (*State, error) {
	fx, err := newFixed(rs, cfg.Factions)
	if err != nil {
		return nil, err
	}
	s := &State{core: core{fx: fx, rng: NewRNG(cfg.Seed), obs: cfg.Observer, epoch: newEpoch()}}
	s.setup()
	return s, nil
}

// epochs hands out State.epoch values (shared by every goroutine's states).
var epochs atomic.Uint64

func newEpoch() uint64 { return epochs.Add(1) }

func newFixed(rs *rules.Ruleset, factions []string) (*fixed, error) {
	fx := new(fixed)
	if err := fx.build(rs, factions); err != nil {
		return nil, err
	}
	return fx, nil
}

// build fills fx for a game of rs between factions, reusing the memory of
// its target table and decoded effect arguments (Rebind builds a state's
// tables again for every game).
func (fx *fixed) build(rs *rules.Ruleset, factions []string) error {
	n := len(factions)
	if n < rs.Rules.MinPlayers || n > rs.Rules.MaxPlayers {
		return fmt.Errorf("%w: %d players, the rules allow %d to %d", ErrConfig, n, rs.Rules.MinPlayers, rs.Rules.MaxPlayers)
	}
	tgt, params, infos := fx.tgt, fx.params, fx.targetInfo[:0]
	*fx = fixed{rs: rs, players: n, cardsToEnd: rs.Rules.CardsToEnd, handSize: rs.Rules.HandSize}
	for d := range fx.defFirst {
		fx.defFirst[d] = 1 // empty ranges until dealt
	}
	seen := map[string]bool{}
	for p, id := range factions {
		f, ok := rs.FactionByID(id)
		if !ok {
			return fmt.Errorf("%w: unknown faction %q (have %v)", ErrConfig, id, rs.FactionIDs())
		}
		if seen[id] {
			return fmt.Errorf("%w: faction %q twice", ErrConfig, id)
		}
		seen[id] = true
		fx.faction[p] = f.Index
		fx.base[p] = fx.ninst
		for _, d := range f.Deck {
			if d < 256 && fx.defLast[d] >= fx.defFirst[d] {
				return fmt.Errorf("%w: card %q is dealt twice", ErrConfig, rs.Cards[d].ID)
			}
			for k := 0; k < rs.Cards[d].Copies; k++ {
				if fx.ninst >= noInst || d >= 256 {
					return fmt.Errorf("%w: the decks exceed the engine's capacity of %d cards", ErrConfig, noInst)
				}
				if k == 0 {
					fx.defFirst[d] = uint8(fx.ninst)
				}
				fx.defLast[d] = uint8(fx.ninst)
				fx.instDef[fx.ninst] = uint8(d)
				fx.instOwn[fx.ninst] = uint8(p)
				fx.ninst++
			}
		}
		if fx.ninst-fx.base[p] > 64 {
			return fmt.Errorf("%w: deck of %q exceeds 64 cards", ErrConfig, id)
		}
		for i := fx.base[p]; i < fx.ninst; i++ {
			fx.defBit[i] = 1 << uint(i-fx.base[p])
			for j := fx.base[p]; j < i; j++ {
				if fx.instDef[j] == fx.instDef[i] {
					fx.defBit[i] = fx.defBit[j]
					break
				}
			}
		}
	}
	if len(rs.Cards) > 255 {
		return fmt.Errorf("%w: %d card definitions exceed the engine's capacity", ErrConfig, len(rs.Cards))
	}
	tagged := func(tag string) (defs [4]uint64) {
		for d := range rs.Cards {
			if rs.Cards[d].HasTag(tag) {
				defs[d>>6] |= 1 << uint(d&63)
			}
		}
		return defs
	}
	for i := range rs.Cards {
		c := &rs.Cards[i]
		fx.defPower[i], fx.defType[i] = int16(c.Power), uint8(c.Type)
		if c.Effect == nil || c.Effect.Spec == nil {
			continue
		}
		b := c.Effect.Spec.Behavior
		fx.defSpec[i] = c.Effect.Spec
		fx.defArgs[i] = c.Effect.Args
		switch c.Effect.Spec.Timing {
		case handlers.OneTime:
			fx.defOne[i], _ = b.(handlers.OneTimeBehavior)
			fx.defCh[i], _ = b.(handlers.ChoiceBehavior)
		case handlers.Permanent:
			if pb, ok := b.(handlers.PermanentBehavior); ok {
				fx.defPerm[i] = pb.Flags()
			}
			fx.defMod[i], _ = b.(handlers.PowerModifier)
		case handlers.Special:
			if sb, ok := b.(handlers.SpecialBehavior); ok {
				fx.defPlace[i] = sb.Placement()
			}
		case handlers.Scoring:
			fx.defScore[i], _ = b.(handlers.ScoringBehavior)
			if fx.defScore[i] != nil {
				fx.defStage[i] = 1 << fx.defScore[i].Stage()
			}
		}
	}
	nparams := 0
	for i := range rs.Cards {
		fx.defScoring[i] = fx.defStage[i] != 0 || fx.defMod[i] != nil
		if fx.defScoring[i] {
			nparams++
		}
	}
	// The arguments of scoring and modifying effects, decoded in memory
	// that Rebind reuses.
	if cap(params) < nparams {
		params = make([]handlers.Params, nparams)
	}
	fx.params = params[:nparams]
	k := 0
	for i := range rs.Cards {
		if fx.defScoring[i] {
			c := &rs.Cards[i]
			fx.params[k] = handlers.NewParams(c.Effect.Spec, c.Effect.Args, tagged)
			fx.defParams[i] = &fx.params[k]
			k++
		}
	}
	for i := 0; i < fx.ninst; i++ {
		fx.placeBits[fx.instOwn[i]][fx.defPlace[fx.instDef[i]]&7] |= fx.defBit[i]
		fx.instKey[i] = uint16(fx.instOwn[i])<<8 | uint16(fx.defType[fx.instDef[i]])
	}
	if cap(tgt) < len(rs.Targets) {
		tgt = make([]targetFixed, len(rs.Targets))
	}
	fx.tgt = tgt[:len(rs.Targets)]
	for t := range fx.tgt {
		fx.tgt[t] = targetFixed{bonus: fx.tgt[t].bonus[:0]}
	}
	for t := range rs.Targets {
		tg := &rs.Targets[t]
		tf := &fx.tgt[t]
		tf.typ, tf.quad, tf.vp = int(tg.Type), quadrantIndex(tg.Quadrant), tg.VP
		infos = append(infos, handlers.TargetInfo{Type: tf.typ, Quadrant: tf.quad})
	}
	fx.targetInfo = infos
	for t := range rs.Targets {
		tg := &rs.Targets[t]
		tf := &fx.tgt[t]
		for b := range tg.Bonuses {
			if bv, ok := tg.Bonuses[b].Spec.Behavior.(handlers.BonusBehavior); ok {
				tf.bonus = append(tf.bonus, bv.Compile(t, tg.Bonuses[b].Args, infos))
			}
		}
		if tg.Type == rules.Planet {
			fx.planets |= 1 << uint(t)
			for p := 0; p < n; p++ {
				if rs.EarnsPlanetBonus(&rs.Factions[fx.faction[p]], tg) {
					fx.planetBonus[p] |= 1 << uint(t)
				}
			}
		}
	}
	for _, tb := range rs.Rules.TieBreak {
		fx.tieByPlanets = fx.tieByPlanets || tb == "planets"
	}
	fx.planetBonusVP = rs.Rules.PlanetBonus
	return nil
}

func (s *State) setup() {
	fx := s.fx
	for p := 0; p < fx.players; p++ {
		pl := &s.players[p]
		pl.bid = noInst
		end := fx.ninst
		if p+1 < fx.players {
			end = fx.base[p+1]
		}
		for i := fx.base[p]; i < end; i++ {
			pl.draw.push(uint8(i))
		}
		s.rng.Shuffle(pl.draw.cards())
	}
	for i := range fx.rs.Targets {
		s.targets.push(uint8(i))
	}
	s.rng.Shuffle(s.targets.cards())
	for p := 0; p < fx.players; p++ {
		s.refill(p)
	}
	// Round 1: the starting faction begins if present, else a random player.
	start := -1
	if sf := fx.rs.Rules.StartingFaction; sf != "" {
		for p := 0; p < fx.players; p++ {
			if fx.rs.Factions[fx.faction[p]].ID == sf {
				start = p
			}
		}
	}
	if start < 0 {
		start = s.rng.Intn(fx.players)
		s.startDrawn = true
	}
	s.starter = uint8(start)
	s.startRound(start)
}

// Reset starts a new game with the same ruleset and seats and a new seed,
// reusing s (no allocation); the observer stays attached.
func (s *State) Reset(seed uint64) {
	fx, obs, tally := s.fx, s.obs, s.tally
	*s = State{core: core{fx: fx, rng: NewRNG(seed), obs: obs, tally: tally, epoch: newEpoch(), scratch: s.scratch}}
	if tally != nil {
		tally.newGame()
	}
	s.setup()
}

// Clone returns an independent copy of the state without its observer.
func (s *State) Clone() *State {
	c := new(State)
	s.CopyInto(c)
	return c
}

// CopyInto overwrites dst with s (no allocation); dst gets no observer.
func (s *State) CopyInto(dst *State) {
	scratch := dst.scratch
	dst.core = s.core
	copy(dst.rows[:s.nrows], s.rows[:s.nrows])
	copy(dst.players[:s.fx.players], s.players[:s.fx.players])
	copy(dst.frames[:s.nframes], s.frames[:s.nframes])
	dst.scratch = scratch
	dst.epoch = newEpoch()
	dst.obs = nil
	dst.tally = nil
	dst.offer = nil
}

// SetObserver attaches (or with nil detaches) an event observer.
func (s *State) SetObserver(o Observer) { s.obs = o }

// Ruleset returns the game's ruleset.
func (s *State) Ruleset() *rules.Ruleset { return s.fx.rs }

// NumPlayers returns the number of seats.
func (s *State) NumPlayers() int { return s.fx.players }

// Faction returns the faction index of seat p.
func (s *State) Faction(p int) int { return s.fx.faction[p] }

// Phase returns the current phase.
func (s *State) Phase() Phase { return s.phase }

// Round returns the current round, counting from 0.
func (s *State) Round() int { return int(s.round) }

// Starter is the seat that began round 1 and whether it was drawn at
// random (no faction at the table is the rules' starting faction).
func (s *State) Starter() (int, bool) { return int(s.starter), s.startDrawn }

// Stats returns the game's counters.
func (s *State) Stats() Stats { return s.stats }

// IsTerminal reports the end of the game.
func (s *State) IsTerminal() bool { return s.phase == GameOver }

// Returns gives each seat's share of the victory (1 for a sole winner, 1/k
// for a k-way shared victory, 0 otherwise) once the game is over.
func (s *State) Returns() [maxPlayers]float64 { return s.winShare }

// FinalScore returns seat p's end-of-game breakdown.
func (s *State) FinalScore(p int) Final { return s.final[p] }

// Won returns the target indices seat p holds.
func (s *State) Won(p int) []int {
	var out []int
	for t := range s.fx.rs.Targets {
		if s.players[p].won&(1<<uint(t)) != 0 {
			out = append(out, t)
		}
	}
	return out
}

// CurrentPlayer returns the seat that decides next, or -1 at the end.
func (s *State) CurrentPlayer() int {
	if s.phase == GameOver || s.phase == Scoring {
		return -1
	}
	if s.nframes > 0 {
		return s.frames[s.nframes-1].Player
	}
	return int(s.turn)
}

func (s *State) defOf(inst uint8) int   { return int(s.fx.instDef[inst]) }
func (s *State) def8(inst uint8) uint8  { return s.fx.instDef[inst] }
func (s *State) ownerOf(inst uint8) int { return int(s.fx.instOwn[inst]) }
func (s *State) card(def int) *rules.Card {
	return &s.fx.rs.Cards[def]
}

func (s *State) draw1(p int) (uint8, bool) {
	pl := &s.players[p]
	if pl.draw.n == 0 {
		if pl.discard.n == 0 {
			return 0, false
		}
		// The discard pile, shuffled, becomes the new draw pile.
		pl.draw = pl.discard
		pl.discard.n = 0
		s.rng.Shuffle(pl.draw.cards())
		s.stats.Reshuffles++
		if s.obs != nil {
			e := ev(EvReshuffle, p)
			e.Value = int32(pl.draw.n)
			s.emit(e)
		}
	}
	i := pl.draw.pop()
	pl.hand.push(i)
	if t := s.tally; t != nil {
		s.tallyDraw(t, i)
	}
	if s.obs != nil {
		e := ev(EvDrawn, p)
		e.Card = int16(s.defOf(i))
		s.emit(e)
	}
	return i, true
}

// tallyDraw counts a drawn card in t.
func (s *State) tallyDraw(t *Tally, i uint8) {
	d := s.def8(i)
	setBit(&t.Drawn, d)
	if t.Start < 0 {
		setBit(&t.Opening, d) // dealt before round 1
	}
}

// refill draws p back up to the hand size; more cards in hand stay.
func (s *State) refill(p int) {
	pl := &s.players[p]
	for int(pl.hand.n) < s.fx.handSize {
		// The common draw inline: a card on the draw pile, nobody watching
		// (draw1 reshuffles and reports).
		if pl.draw.n != 0 && s.obs == nil {
			i := pl.draw.pop()
			pl.hand.push(i)
			if t := s.tally; t != nil {
				s.tallyDraw(t, i)
			}
			continue
		}
		if _, ok := s.draw1(p); !ok {
			return
		}
	}
}

// takeFromHand removes a card of definition def from p's hand.
func (s *State) takeFromHand(p, def int) (uint8, bool) {
	h := &s.players[p].hand
	if h.n > 8 {
		return s.takeFromLongHand(p, def)
	}
	// A hand of up to eight cards is one word, tested against def's
	// instance range in 16-bit lanes (even and odd bytes), and the first
	// copy found is cut out with shifts. No branch depends on where the
	// card lies (a coin toss for the predictor) or on the hand's length.
	const lanes, bit8, lane1 = 0x00FF00FF00FF00FF, 0x0100010001000100, 0x0001000100010001
	x := binary.LittleEndian.Uint64(h.c[:8])
	lo, hi := uint64(s.fx.defFirst[uint8(def)])*lane1, uint64(s.fx.defLast[uint8(def)])*lane1
	even, odd := x&lanes, x>>8&lanes
	// Bit 8 of a lane: its byte is >= lo (no borrow leaves the lane), and
	// <= hi.
	ev := ((even | bit8) - lo) & ((hi | bit8) - even) & bit8
	od := ((odd | bit8) - lo) & ((hi | bit8) - odd) & bit8
	// Bit 8j+7 for a copy at position j < h.n.
	at := (ev>>1 | od<<7) & (1<<(uint(h.n)*8&63) - 1 | -(uint64(h.n) >> 3))
	if at == 0 {
		return 0, false
	}
	k := uint(bits.TrailingZeros64(at)) &^ 7
	keep := uint64(1)<<k - 1
	binary.LittleEndian.PutUint64(h.c[:8], x&keep|x>>8&^keep)
	h.n--
	s.handChanged(p)
	return uint8(x >> k), true
}

// takeFromLongHand is takeFromHand for hands of more than eight cards.
func (s *State) takeFromLongHand(p, def int) (uint8, bool) {
	h := &s.players[p].hand
	for k, inst := range h.c[:h.n] {
		if int(s.fx.instDef[inst]) == def {
			i := h.removeAt(k)
			s.handChanged(p)
			return i, true
		}
	}
	return 0, false
}

// handChanged forgets Spy knowledge of p's hand: once p plays or discards,
// nobody can tell which of the seen cards went where.
func (s *State) handChanged(p int) {
	// Every seat, seated or not (an empty seat never spies): four stores
	// cost less than a loop over the seated ones.
	p &= maxPlayers - 1
	s.players[0].spied[p] = 0
	s.players[1].spied[p] = 0
	s.players[2].spied[p] = 0
	s.players[3].spied[p] = 0
}

// The four stores above are every seat only while maxPlayers is 4.
var _ [maxPlayers - 4]struct{}
var _ [4 - maxPlayers]struct{}

func (s *State) startRound(first int) {
	s.nrows = 0
	rules := &s.fx.rs.Rules
	for s.nrows < uint8(rules.TargetsPerRound) && s.targets.n > 0 {
		r := &s.rows[s.nrows]
		r.target = int8(s.targets.pop())
		r.n, r.rules = 0, 0
		r.ver++
		s.nrows++
	}
	s.resetMasks()
	s.phase = Deployment
	s.turn = uint8(first)
	s.passStreak = 0
	s.deployTurns = 0
	s.deployEnded = false
	s.turnOpen = false
	if t := s.tally; t != nil {
		if t.Start < 0 {
			t.Start = int8(first)
		}
		for r := 0; r < int(s.nrows); r++ {
			t.Laid[uint8(s.rows[r].target)&63]++
		}
	}
	if s.obs != nil {
		e := ev(EvRoundStart, first)
		e.Value = int32(s.nrows)
		s.emit(e)
		for r := 0; r < int(s.nrows); r++ {
			e := ev(EvTargetLaid, -1)
			e.Row, e.Target = int8(r), int16(s.rows[r].target)
			s.emit(e)
		}
	}
}
