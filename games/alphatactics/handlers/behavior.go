package handlers

import (
	"math/bits"

	"github.com/cardlab/cardlab/effects"
)

// This file gives the declared handlers their behaviour. Handlers act on a
// game only through the Table interface, which the rules engine implements, so
// that this package stays independent of the engine and a later game can
// provide its own Table.

// Slot addresses a card in a row: Row is the row (left to right), Pos the
// position below the target card (0 is the topmost card).
type Slot struct{ Row, Pos int }

// ChoiceKind says what a pending choice picks.
type ChoiceKind uint8

const (
	ChooseSlot ChoiceKind = iota + 1 // a card in a row
	ChooseRow                        // a row
	ChooseHand                       // a card (definition) from the decider's hand
	ChooseDone                       // stop, decline or bid nothing
)

// Choice is one option of a pending decision.
type Choice struct {
	Kind ChoiceKind
	Row  int
	Pos  int
	Card int // card definition index for ChooseHand
}

// Frame is a pending decision of an effect, kept in the game state. It is a
// flat value so that states copy cheaply; handlers keep their progress in
// Step and Data.
type Frame struct {
	Player int  // who decides
	Src    Slot // the effect's card when it fired
	Def    int  // card definition of the source (selects the handler)
	Step   int
	Data   [4]int
}

// What a Deactivated marker covers (the deactivate_above "what" values).
const (
	DeactivateEffect = iota
	DeactivatePower
	DeactivateBoth
)

// Table is what effect handlers may read and do. Player indices are seats;
// card definitions are indices into the ruleset's cards.
type Table interface {
	Players() int
	Rows() int
	RowLen(row int) int
	HasTarget(row int) bool
	// TargetType is the index into TargetTypes of the row's target, or -1.
	TargetType(row int) int
	// TargetQuadrant is 1 for alpha, 2 for beta, 0 otherwise.
	TargetQuadrant(row int) int

	Owner(s Slot) int
	Def(s Slot) int
	// Info is Owner, Def, its DefType, whether it lies face up and whether a
	// shield protects it (untouchable in the Deployment Phase), in one call.
	Info(s Slot) CardInfo
	// Match returns the positions of row's cards that q selects as a bit
	// set (bit p: position p), so that handlers scanning rows make one call
	// per row rather than several per card.
	Match(row int, q SlotQuery) uint64

	DefType(def int) int // index into CardTypes
	DefPower(def int) int
	DefHasTag(def int, tag string) bool
	DefHandler(def int) *effects.Spec // nil for cards without effect

	// HandOfType counts the distinct definitions of type typ (an index into
	// CardTypes) in p's hand and, when offer is set, offers each as a
	// ChooseHand option in the order of their first copies.
	HandOfType(p, typ int, offer bool) int
	// OpenRows returns the rows a card may be placed at the bottom of now
	// (bit r: row r).
	OpenRows() uint64

	// Remove sends a card to its owner's discard pile. It returns false for
	// a protected card.
	Remove(s Slot) bool
	// Move takes a card to the bottom of another row, face up, without running
	// its one-time effect.
	Move(s Slot, row int) bool
	Weaken(s Slot, amount int) bool
	Deactivate(s Slot, what int) bool
	// BlockAbove reveals the card directly above s without effect; its
	// permanent and scoring effects stay blocked while s stays in the row.
	BlockAbove(s Slot)

	// Draw draws n cards for p (reshuffling the discard pile when the draw
	// pile is empty) and returns the definition of the last card drawn, -1 if
	// none.
	Draw(p, n int) int
	RefillAll()
	// PlaceFromHand plays p's card def to the bottom of row. faceUpNoEffect
	// plays it face up without its one-time effect (Distress Signal);
	// otherwise it is a normal face-down placement that reveals the card above.
	PlaceFromHand(p, def, row int, faceUpNoEffect bool) bool
	// ShowHands lets p see every opponent's hand (Spy).
	ShowHands(p int)
	// Negotiate runs the sealed bid for row's target, started by p.
	Negotiate(p, row int)

	// Fizzle reports that a revealed effect could do nothing.
	Fizzle()
	// Push starts a pending decision; Offer adds an option while the engine
	// asks a handler for options.
	Push(f Frame)
	Offer(c Choice)
	// OfferMatches counts the cards Match selects in every row, leaving out
	// the card at except (all of except.Row when except.Pos < 0), and, when
	// offer is set, offers each as a ChooseSlot option in row and position
	// order: one call for the whole table, not one per row or card. Without
	// offer it stops at the first row with a card (Reveal and Choose only
	// ask whether there is one).
	OfferMatches(q SlotQuery, except Slot, offer bool) int
}

// CardInfo describes a card on the table (Table.Info).
type CardInfo struct {
	Owner, Def, Type  int
	FaceUp, Protected bool
}

// SlotQuery selects cards in a row (Table.Match).
type SlotQuery struct {
	Owner       int  // seat, or AnyOwner
	Type        int  // index into CardTypes, or AnyType
	FaceUp      bool // only face-up cards
	Unprotected bool // only cards a shield does not protect
}

// Wildcards for SlotQuery.
const (
	AnyOwner = -1
	AnyType  = -1
)

// OneTimeBehavior runs when a one-time card is revealed with its effect.
type OneTimeBehavior interface {
	Reveal(t Table, src Slot, args []effects.Value)
}

// ChoiceBehavior is implemented by handlers that push frames.
type ChoiceBehavior interface {
	Options(t Table, f *Frame, args []effects.Value)
	// Choose applies c and reports whether the decision is finished.
	Choose(t Table, f *Frame, args []effects.Value, c Choice) (done bool)
}

// PendingCarder is implemented by choice handlers whose decision is about a
// particular card the decider holds (the card a Flagship drew), so agents
// can see it.
type PendingCarder interface {
	PendingCard(f *Frame) int
}

// PermanentFlags are the row rules a permanent effect imposes while active.
type PermanentFlags uint8

const (
	ClosesRow   PermanentFlags = 1 << iota // no card may be placed; row counts complete
	BlocksBelow                            // cards beneath lose their effects
)

// PermanentBehavior is implemented by permanent handlers.
type PermanentBehavior interface {
	Flags() PermanentFlags
}

// PowerModifier is implemented by permanent handlers that change the power of
// cards in their row while active: ModifyRow adds to the Mod of every card
// of r the power that the active card i gives it.
type PowerModifier interface {
	ModifyRow(r *RowScore, i int, p *Params)
}

// Params are the arguments of a handler that runs for every scored row,
// decoded once per ruleset (NewParams) so that scoring compares no strings.
type Params struct {
	// Int holds each argument's Int (a Bool's 1 or 0, an Enum's index).
	Int [4]int
	// Tagged holds, for a Tag argument, the card definitions that carry
	// the tag (bit d%64 of word d/64: definition d).
	Tagged [4][4]uint64
}

// NewParams decodes the arguments args of a handler of spec; tagged gives
// the definitions carrying a tag.
func NewParams(spec *effects.Spec, args []effects.Value, tagged func(tag string) [4]uint64) Params {
	var p Params
	for k, v := range args[:min(len(args), len(p.Int))] {
		p.Int[k] = v.Int
		if spec.Params[k].Type == effects.Tag {
			p.Tagged[k] = tagged(v.Str)
		}
	}
	return p
}

// HasTag reports whether card definition def carries the tag of argument k.
func (p *Params) HasTag(k, def int) bool {
	return p.Tagged[k][uint8(def)>>6]&(1<<(def&63)) != 0
}

// Placement is how a special (X) card is played.
type Placement uint8

const (
	PlaceNormal      Placement = iota
	PlaceScout                 // face up by every route (turn, Distress Signal, Wave, Flagship); the card above is revealed without effect
	PlaceAnywhere              // at any position of a row, cards below shift down
	PlaceInsertOther           // discarded to insert another hand card anywhere
	PlaceShieldOther           // a two-card turn protecting the other card; never a card of a row itself
)

// SpecialBehavior is implemented by special handlers.
type SpecialBehavior interface {
	Placement() Placement
}

// ScoreCard is one card's contribution while a row is scored.
type ScoreCard struct {
	Owner  int
	Def    int
	Type   int
	Base   int  // base combat power after deactivation and weakening
	Mod    int  // added by permanent modifiers
	Bonus  int  // added by scoring effects
	Active bool // its effect is active
	Stolen bool // its base power was taken by a deflector
	// Copier marks a card whose effect copies an opponent's power (Armada,
	// the StageCopy handlers): a deflector finds no power of its own to take.
	Copier bool
}

// RowScore is the scratch space in which a row is scored.
type RowScore struct {
	N          int
	Cards      [64]ScoreCard
	TargetType int
	Quadrant   int
	Players    int
	// Total is each player's combat power; Combo marks players who win the
	// row regardless of power (Diplomat combination).
	Total [4]int
	Combo [4]bool
	// HasCards marks players with at least one card in the row.
	HasCards [4]bool
}

// ScoringStage orders scoring handlers: deflectors take base power first,
// then additive bonuses, then armadas which copy opponents' totals.
type ScoringStage uint8

const (
	StageSteal ScoringStage = iota
	StageAdd
	StageCopy
	NumStages
)

// ScoringBehavior is implemented by scoring handlers. Score is called for an
// active card at index i in its stage; StageCopy handlers see Total filled.
type ScoringBehavior interface {
	Stage() ScoringStage
	Score(r *RowScore, i int, p *Params)
}

// TargetInfo is a target card as target bonuses see it.
type TargetInfo struct {
	Type     int // index into TargetTypes
	Quadrant int // 0 none, 1 alpha, 2 beta
}

// Bonus is a target bonus compiled for one ruleset's targets: the targets it
// counts as a bit set (bit t: target index t), so that a player's bonus is
// a popcount of the targets held rather than a pass over them.
type Bonus struct {
	Counted uint64
	// PerTarget is the VP per counted target held; with 0, VP is earned
	// once at least AtLeast counted targets are held.
	PerTarget   int
	VP, AtLeast int
}

// Earned is the bonus's VP for a player holding the targets in held.
func (b *Bonus) Earned(held uint64) int {
	n := bits.OnesCount64(held & b.Counted)
	if b.PerTarget != 0 {
		return b.PerTarget * n
	}
	if n >= b.AtLeast {
		return b.VP
	}
	return 0
}

// BonusBehavior is implemented by target-bonus handlers: Compile gives the
// bonus of the target with index self for a ruleset whose targets (at most
// 64) are described by targets.
type BonusBehavior interface {
	Compile(self int, args []effects.Value, targets []TargetInfo) Bonus
}
