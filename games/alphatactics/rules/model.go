// The Alpha Tactics model: a ruleset's rule parameters, factions with their
// decks, player cards and target cards. A loaded Ruleset is validated and
// must be treated as immutable: the engine and the analysis layers share one
// Ruleset between goroutines.

package rules

import (
	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// Engine capacity limits. The engine uses fixed-size arrays so that copying a
// game state is cheap; the loader rejects rulesets beyond these limits with a
// clear message instead of letting the engine fail later.
const (
	MaxPlayers      = 4
	MaxDeckSize     = 60  // player cards in one faction's deck, copies counted
	MaxCardDefs     = 250 // distinct player card definitions in a ruleset
	MaxTargets      = 64
	MaxRows         = 8
	MaxHandSize     = 8
	MaxRowsPerRound = MaxRows
	// MaxCardsToEnd is the highest cards_to_end: every player card of a
	// full table in one row.
	MaxCardsToEnd = MaxDeckSize * MaxPlayers
	// MaxCopies is the most copies of one card in a deck (a format limit,
	// docs/ruleset-format.md).
	MaxCopies = 10
)

// Ruleset is a complete, validated game definition.
type Ruleset struct {
	Name    string
	Version string
	Rules   Rules
	// Factions in the order the rules file lists them.
	Factions []Faction
	// Cards holds every player card definition; Card.Index is its position.
	Cards []Card
	// Targets holds every target card; Target.Index is its position.
	Targets []Target
	// Affiliations are the target-card affiliations declared by the rules
	// (e.g. federation, vulcan, romulan, klingon, neutral).
	Affiliations []string
	// Hash is a hex SHA-256 over the ruleset's files (names and contents in
	// name order), identifying it in results.
	Hash string
	// Files holds the raw file contents by relative path, as loaded.
	Files map[string][]byte
}

// Rules are the numeric and structural rule parameters, all taken from the
// rulebook for the default set. Nothing about them is hard-coded elsewhere.
type Rules struct {
	MinPlayers int
	MaxPlayers int
	// HandSize is what players draw back up to after playing or discarding.
	HandSize int
	// TargetsPerRound target cards are laid out each round; each begins a row,
	// so this is also the number of rows.
	TargetsPerRound int
	// CardsToEnd is how many cards every row needs before the Deployment
	// Phase ends.
	CardsToEnd int
	DeckSize   int
	Rounds     int
	// PlanetBonus VP per planet of the player's own faction at game end.
	PlanetBonus int
	// FederationAffiliation is the affiliation of the "blue Federation
	// planets" that FederationFactions also score PlanetBonus for.
	FederationAffiliation string
	FederationFactions    []string
	// StartingFaction begins round 1 when present; otherwise a random player.
	StartingFaction string
	// TieBreak lists the final tie-breaks after victory points; the only one
	// the rulebook names is "planets" (more Planet targets). Players still
	// tied share the victory.
	TieBreak []string
}

// Faction is one playable faction and its deck.
type Faction struct {
	Index int
	ID    string // e.g. "starfleet"
	Name  string // e.g. "Starfleet"
	Color string // CSS colour used by reports, e.g. "#1f5fbf"
	// Planets lists the target affiliations whose planets are this
	// faction's own for the end-of-game planet bonus.
	Planets []string
	// Deck lists the faction's card definitions (indices into Ruleset.Cards);
	// copies are on the cards.
	Deck []int
	File string // deck file, relative to the ruleset directory
	Pos  cards.Pos
}

// DeckCount returns the number of cards in the deck, copies counted.
func (f *Faction) DeckCount(rs *Ruleset) int {
	n := 0
	for _, c := range f.Deck {
		n += rs.Cards[c].Copies
	}
	return n
}

// CardType is a player card's type.
type CardType uint8

const (
	Ship CardType = iota
	Tech
	Weapon
	Action
	Troops
)

func (t CardType) String() string {
	if int(t) < len(handlers.CardTypes) {
		return handlers.CardTypes[t]
	}
	return "unknown"
}

// EffectKind is the effect letter printed on a player card.
type EffectKind uint8

const (
	KindNone      EffectKind = iota // N
	KindOneTime                     // O
	KindPermanent                   // P
	KindSpecial                     // X
	KindScoring                     // S
)

// EffectKinds are the letters as written in YAML, indexed by EffectKind.
var EffectKinds = []string{"N", "O", "P", "X", "S"}

func (k EffectKind) String() string {
	if int(k) < len(EffectKinds) {
		return EffectKinds[k]
	}
	return "?"
}

// Timing is the handler timing that cards of this kind must bind to.
func (k EffectKind) Timing() *effects.Timing {
	switch k {
	case KindOneTime:
		return handlers.OneTime
	case KindPermanent:
		return handlers.Permanent
	case KindSpecial:
		return handlers.Special
	case KindScoring:
		return handlers.Scoring
	}
	return nil
}

// Binding ties a card to a registered handler with decoded parameters.
type Binding struct {
	Handler string
	Spec    *effects.Spec
	// Args holds one value per Spec.Params entry, in declaration order,
	// defaults filled in.
	Args []effects.Value
	Pos  cards.Pos
}

// Arg returns the named argument (its default when omitted).
func (b *Binding) Arg(name string) effects.Value {
	if _, i, ok := b.Spec.Param(name); ok {
		return b.Args[i]
	}
	return effects.Value{}
}

// Card is a player card definition.
type Card struct {
	Index   int
	ID      string
	Name    string
	Faction int // index into Ruleset.Factions
	Type    CardType
	Kind    EffectKind
	Power   int
	Copies  int
	Effect  *Binding // nil for kind N
	Text    string
	Tags    []string
	Pos     cards.Pos
}

// HasTag reports whether the card carries tag.
func (c *Card) HasTag(tag string) bool {
	for _, t := range c.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// TargetType is a target card's type.
type TargetType uint8

const (
	Planet TargetType = iota
	Sector
	Quadrant
	CombatZone
)

func (t TargetType) String() string {
	if int(t) < len(handlers.TargetTypes) {
		return handlers.TargetTypes[t]
	}
	return "unknown"
}

// Target is a target card.
type Target struct {
	Index       int
	ID          string
	Name        string
	Type        TargetType
	Affiliation string // one of Ruleset.Affiliations
	// Quadrant is "alpha" or "beta" for planets, "" otherwise.
	Quadrant string
	VP       int
	Bonuses  []Binding
	Text     string
	Pos      cards.Pos
}

// EarnsPlanetBonus reports whether faction f scores the planet bonus for
// target t: a planet of its own affiliation, or for the Federation
// factions (Starfleet and Vulcan) a Federation planet. A planet counts once.
func (rs *Ruleset) EarnsPlanetBonus(f *Faction, t *Target) bool {
	if t.Type != Planet {
		return false
	}
	for _, a := range f.Planets {
		if a == t.Affiliation {
			return true
		}
	}
	if rs.Rules.FederationAffiliation != "" && t.Affiliation == rs.Rules.FederationAffiliation {
		for _, id := range rs.Rules.FederationFactions {
			if id == f.ID {
				return true
			}
		}
	}
	return false
}

// FactionByID returns the faction with the given id.
func (rs *Ruleset) FactionByID(id string) (*Faction, bool) {
	for i := range rs.Factions {
		if rs.Factions[i].ID == id {
			return &rs.Factions[i], true
		}
	}
	return nil, false
}

// CardByID returns the player card with the given id.
func (rs *Ruleset) CardByID(id string) (*Card, bool) {
	for i := range rs.Cards {
		if rs.Cards[i].ID == id {
			return &rs.Cards[i], true
		}
	}
	return nil, false
}

// TargetByID returns the target card with the given id.
func (rs *Ruleset) TargetByID(id string) (*Target, bool) {
	for i := range rs.Targets {
		if rs.Targets[i].ID == id {
			return &rs.Targets[i], true
		}
	}
	return nil, false
}

// FactionIDs lists the faction ids in order.
func (rs *Ruleset) FactionIDs() []string {
	out := make([]string, len(rs.Factions))
	for i, f := range rs.Factions {
		out[i] = f.ID
	}
	return out
}
