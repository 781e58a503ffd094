package handlers

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cardlab/cardlab/effects"
)

// Alpha Tactics' timings: the effect kinds printed on its player cards (O,
// P, X, S) plus target-card combination bonuses. They are declared here, by
// the game, rather than in the Registry type, because another game times its
// effects differently (Spacetrace: on deploy, in a volley, on a wreck).
var (
	OneTime     = effects.NewTiming("one-time", "O")    // once, right after the card is revealed
	Permanent   = effects.NewTiming("permanent", "P")   // throughout the round while the card is active
	Special     = effects.NewTiming("special", "X")     // changes how the card is played
	Scoring     = effects.NewTiming("scoring", "S")     // applied in the Scoring Phase
	TargetBonus = effects.NewTiming("target-bonus", "") // end-of-game victory points on a target card
)

// What Alpha Tactics' reference parameters name: a player card or a target
// card of the ruleset, by id.
const (
	RefCard   = "card"
	RefTarget = "target"
)

// AlphaTactics is Alpha Tactics' registry: every handler declared below,
// with its behaviour. The package-level Register, Lookup, Names and All act
// on it, so callers written before there were registries per game keep
// working until they move with the game (design step 3).
var AlphaTactics = effects.NewRegistry("alphatactics",
	[]*effects.Timing{OneTime, Permanent, Special, Scoring, TargetBonus},
	[]string{RefCard, RefTarget})

// Register adds a handler to Alpha Tactics' registry.
func Register(s effects.Spec) { AlphaTactics.Register(s) }

// Lookup returns Alpha Tactics' handler registered under name.
func Lookup(name string) (*effects.Spec, bool) { return AlphaTactics.Lookup(name) }

// Names returns Alpha Tactics' handler names, sorted.
func Names() []string { return AlphaTactics.Names() }

// All returns Alpha Tactics' handlers sorted by name.
func All() []*effects.Spec { return AlphaTactics.All() }

// The vocabularies fixed by the rulebook's card anatomy. Package cards parses
// YAML against the same lists so the two never disagree.
var (
	// CardTypes are the player-card types, in the rulebook's order.
	CardTypes = []string{"ship", "tech", "weapon", "action", "troops"}
	// TargetTypes are the target-card types, in the rulebook's order.
	TargetTypes = []string{"planet", "sector", "quadrant", "combat_zone"}
	// Quadrants a planet can lie in.
	Quadrants = []string{"alpha", "beta"}
)

// Filters used by parameters: "any" is always index 0 so that Value.Int-1 is
// the index into the underlying vocabulary.
var (
	cardTypeFilter   = append([]string{"any"}, CardTypes...)
	targetTypeFilter = append([]string{"any"}, TargetTypes...)
	quadrantFilter   = append([]string{"any"}, Quadrants...)
	ownerFilter      = []string{"own", "opponent", "any"}
)

// Owner filter values (index into the "who" enum).
const (
	WhoOwn = iota
	WhoOpponent
	WhoAny
)

func cardTypeParam(name, def, doc string) effects.Param {
	return effects.Param{Name: name, Type: effects.Enum, Values: cardTypeFilter, Default: enumDefault(cardTypeFilter, def), Doc: doc}
}

func enumDefault(values []string, v string) effects.Value {
	for i, s := range values {
		if s == v {
			return effects.Value{Int: i, Str: v}
		}
	}
	panic("effects: default " + v + " not among enum values")
}

// Declarations of every handler the reconstructed Alpha Tactics set uses: the
// named effects the rulebook clarifies, and the generic parameterised handlers
// that fill the decks and target cards. Behaviour is attached by behavior.go.
var declarations = []effects.Spec{
	// Named effects of the rulebook ("Details on Special Card Effects").
	{Name: "admiral", Timing: Scoring,
		Doc:    "gains per_card combat power for every other player card in this row, whoever owns it",
		Params: []effects.Param{{Name: "per_card", Type: effects.Int, Min: 0, Max: 20, Default: effects.Value{Int: 5}, Doc: "power per other card in the row"}}},
	{Name: "armada", Timing: Scoring,
		Doc: "has combat power equal to the highest total of any single opponent in this row (0 if its power is stolen)"},
	{Name: "blockade", Timing: Permanent,
		Doc: "no further card may be placed into this row, and the row counts as complete for ending the Deployment Phase"},
	{Name: "deflector", Timing: Scoring,
		Doc: "takes the base combat power of the card directly above and sets that card's base power to 0"},
	{Name: "blocker_ship", Timing: Permanent,
		Doc: "cards beneath this card lose their effects; cards placed beneath it are played face up and without effect"},
	{Name: "distress_signal", Timing: OneTime,
		Doc: "move up to max_ships of your Ships from other rows into this row, or play one Ship from hand here; their one-time effects do not run",
		Params: []effects.Param{
			{Name: "max_ships", Type: effects.Int, Min: 1, Max: 4, Default: effects.Value{Int: 2}, Doc: "how many ships may be moved"},
			{Name: "from_hand", Type: effects.Bool, Default: effects.Value{Int: 1}, Doc: "whether a Ship may instead be played from hand"},
		}},
	{Name: "weapon_purge", Timing: OneTime,
		Doc:    "remove one card of card_type from this row, any owner; not optional; the owner of this card chooses",
		Params: []effects.Param{cardTypeParam("card_type", "weapon", "the type of card removed")}},
	{Name: "diplomat_combo", Timing: Scoring,
		Doc:    "if a card of yours tagged partner_tag is in this row, you win the row regardless of power",
		Params: []effects.Param{{Name: "partner_tag", Type: effects.Tag, Required: true, Doc: "tag carried by the partner card (e.g. diplomat)"}}},
	{Name: "gravitational_wave", Timing: Special,
		Doc: "played face up to your discard pile to insert another card from hand at any position of any row"},
	{Name: "scout_ship", Timing: Special,
		Doc: "played face up with immediate effect: the card above it is revealed without effect"},
	{Name: "negotiations", Timing: OneTime,
		Doc: "sealed bid with one hand card each; the highest base power takes this row's target at once"},
	{Name: "strike_ship", Timing: OneTime,
		Doc: "remove any one card, face down or face up, from any row"},
	{Name: "spy", Timing: OneTime,
		Doc: "every player refills to a full hand, then all opponents show you their hands"},
	{Name: "flagship", Timing: OneTime,
		Doc: "play the top card of your draw pile face down into any row as a normal turn (shields go to hand)"},
	{Name: "space_mines", Timing: OneTime,
		Doc:    "remove the nearest card of card_type above this card in this row, whoever owns it; not optional",
		Params: []effects.Param{cardTypeParam("card_type", "ship", "the type of card removed")}},
	{Name: "bomb", Timing: OneTime,
		Doc:    "remove the count cards directly above this card, face down or face up; the bomb stays",
		Params: []effects.Param{{Name: "count", Type: effects.Int, Min: 1, Max: 6, Default: effects.Value{Int: 2}, Doc: "how many cards above are removed"}}},
	{Name: "teleport", Timing: Special,
		Doc: "may be placed at any position of a row; the cards below shift down (never a shielded card)"},
	{Name: "shield", Timing: Special,
		Doc: "a two-card turn: play a card face down, then this card on it; that card is untouchable until the Reveal Phase"},

	// Generic, parameterised handlers.
	{Name: "modify_power", Timing: Permanent,
		Doc: "while active, cards in this row matching who and card_type get amount combat power",
		Params: []effects.Param{
			{Name: "amount", Type: effects.Int, Required: true, Min: -10, Max: 10, Doc: "power added (negative to subtract)"},
			{Name: "who", Type: effects.Enum, Values: ownerFilter, Default: effects.Value{Int: WhoOwn, Str: "own"}, Doc: "whose cards are affected"},
			cardTypeParam("card_type", "any", "which card type is affected"),
			{Name: "include_self", Type: effects.Bool, Default: effects.Value{Int: 0}, Doc: "whether this card is affected too"},
		}},
	{Name: "weaken_above", Timing: OneTime,
		Doc:    "the card directly above loses amount base combat power for the round (not below 0)",
		Params: []effects.Param{{Name: "amount", Type: effects.Int, Required: true, Min: 1, Max: 10, Doc: "power removed"}}},
	{Name: "deactivate_above", Timing: OneTime,
		Doc:    "deactivates the effect, the power, or both of the card directly above for the round",
		Params: []effects.Param{{Name: "what", Type: effects.Enum, Values: []string{"effect", "power", "both"}, Default: effects.Value{Int: 0, Str: "effect"}, Doc: "which part is covered by a Deactivated marker"}}},
	{Name: "bonus_vs_target", Timing: Scoring,
		Doc: "gains amount combat power if this row's target matches target_type and quadrant",
		Params: []effects.Param{
			{Name: "amount", Type: effects.Int, Required: true, Min: 1, Max: 20, Doc: "power gained"},
			{Name: "target_type", Type: effects.Enum, Values: targetTypeFilter, Default: effects.Value{Int: 0, Str: "any"}, Doc: "required target type"},
			{Name: "quadrant", Type: effects.Enum, Values: quadrantFilter, Default: effects.Value{Int: 0, Str: "any"}, Doc: "required planet quadrant"},
		}},
	{Name: "power_per_card", Timing: Scoring,
		Doc: "gains amount combat power for every other card in this row matching who and card_type",
		Params: []effects.Param{
			{Name: "amount", Type: effects.Int, Required: true, Min: 1, Max: 10, Doc: "power per matching card"},
			{Name: "who", Type: effects.Enum, Values: ownerFilter, Default: effects.Value{Int: WhoOwn, Str: "own"}, Doc: "whose cards count"},
			cardTypeParam("card_type", "any", "which card type counts"),
		}},
	{Name: "draw_cards", Timing: OneTime,
		Doc:    "draw count cards from your draw pile (your hand may exceed its usual size)",
		Params: []effects.Param{{Name: "count", Type: effects.Int, Min: 1, Max: 4, Default: effects.Value{Int: 1}, Doc: "cards drawn"}}},

	// Target-card combination bonuses, counted at the end of the game.
	{Name: "vp_per_target", Timing: TargetBonus,
		Doc: "vp victory points for every target you hold matching type and quadrant",
		Params: []effects.Param{
			{Name: "vp", Type: effects.Int, Required: true, Min: 1, Max: 10, Doc: "points per matching target"},
			{Name: "type", Type: effects.Enum, Values: targetTypeFilter, Default: effects.Value{Int: 0, Str: "any"}, Doc: "target type counted"},
			{Name: "quadrant", Type: effects.Enum, Values: quadrantFilter, Default: effects.Value{Int: 0, Str: "any"}, Doc: "planet quadrant counted"},
			{Name: "include_self", Type: effects.Bool, Default: effects.Value{Int: 0}, Doc: "whether this target counts itself"},
		}},
	{Name: "vp_if_held", Timing: TargetBonus,
		Doc: "vp victory points if you also hold the target named by target",
		Params: []effects.Param{
			{Name: "vp", Type: effects.Int, Required: true, Min: 1, Max: 10, Doc: "points awarded"},
			{Name: "target", Type: effects.Ref, RefKind: RefTarget, Required: true, Doc: "id of the other target card"},
		}},
	{Name: "vp_if_count", Timing: TargetBonus,
		Doc: "vp victory points if you hold at least at_least targets matching type (this one included)",
		Params: []effects.Param{
			{Name: "vp", Type: effects.Int, Required: true, Min: 1, Max: 10, Doc: "points awarded"},
			{Name: "type", Type: effects.Enum, Values: targetTypeFilter, Default: effects.Value{Int: 0, Str: "any"}, Doc: "target type counted"},
			{Name: "at_least", Type: effects.Int, Required: true, Min: 1, Max: 24, Doc: "how many are needed"},
		}},
}

func init() {
	b := behaviors()
	for _, s := range declarations {
		if s.Behavior = b[s.Name]; s.Behavior == nil {
			panic("effects: handler " + s.Name + " has no behaviour")
		}
		delete(b, s.Name)
		AlphaTactics.Register(s)
	}
	if len(b) > 0 {
		panic(fmt.Sprintf("effects: behaviours for undeclared handlers %v", slices.Sorted(maps.Keys(b))))
	}
}
