package spacetrace

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
	"gopkg.in/yaml.v3"
)

// The ruleset's files: rules.yaml (the readings and the decks) and
// cards.yaml (the card definitions both decks draw on).
const (
	RulesFile = "rules.yaml"
	CardsFile = "cards.yaml"
)

// Bounds of the format: a game's state keeps card indices in bytes.
const (
	MaxCards = 64 // card definitions
	// MaxDefs bounds the definitions a state indexes: the card-value
	// experiment's variants add a blank and each card moved by ±1 unit
	// (value.go).
	MaxDefs     = 3*MaxCards + 1
	MaxDeck     = 120 // cards in one deck
	MaxShips    = 1000
	MaxStat     = 100000
	MaxCopies   = 99
	MaxEffects  = 3
	NumClasses  = 4
	maxTurnsCap = 10000
)

// Type is a card's type (its colour in the printed set).
type Type uint8

const (
	Reinforcement Type = iota // orange
	Ship                      // grey
	Tactic                    // blue
	Commander                 // brown
)

var typeNames = []string{"reinforcement", "ship", "tactic", "commander"}

func (t Type) String() string { return typeNames[t] }

// Variant is the game played: the simplified first game or the full one.
type Variant uint8

const (
	FirstGame Variant = iota
	Full
	// SecondGame is seed 003's second round: "könnt ihr alle Schiffe
	// hinzunehmen und beide Spieler erhalten dann 17 Schiffskarten und 14
	// Reinforcementkarten" — every ship, still no tactics or commanders.
	SecondGame
)

var variantNames = []string{"first_game", "full", "second_game"}

func (v Variant) String() string { return variantNames[v] }

// Card is one card definition.
type Card struct {
	ID, Name, Text string
	Type           Type
	// Class (1..4), Ships and the single ship's AP and LP: ship cards only.
	Class, Ships, AP, LP int
	// MP is the card's cost (0 for reinforcements).
	MP int
	// Limit is the card's own copy limit (0: the deck rule's default).
	Limit int
	// Standard marks a standard reinforcement (unlimited copies).
	Standard bool
	// FirstGame is false for a card the first game sorts out by name
	// (Apollo); the categorical exclusions follow from type and class.
	FirstGame bool
	// Host is the classes a commander may be played on (bit c-1 for class c).
	Host    uint8
	Effects []Effect
	Pos     cards.Pos
	// Lines are the lines of the card's keys in cards.yaml, for the edit a
	// sweep suggests.
	Lines map[string]int
	// Blank marks the card-value experiment's blank (value.go): a card in
	// hand that can never be played, only discarded.
	Blank bool
}

// Has reports whether the card has an effect of handler h.
func (c *Card) Has(h Handler) bool {
	for i := range c.Effects {
		if c.Effects[i].Do == h {
			return true
		}
	}
	return false
}

// Effect returns the card's first effect of handler h, or nil.
func (c *Card) Effect(h Handler) *Effect {
	for i := range c.Effects {
		if c.Effects[i].Do == h {
			return &c.Effects[i]
		}
	}
	return nil
}

// Opens reports whether the card opens an extra fleet (a Mothership).
func (c *Card) Opens() bool { return c.Has(OpenExtraFleet) }

// Limit is the copy limit of c under rules (0: unlimited), seed 003 "Deck
// construction": a standard reinforcement is unlimited, any other
// reinforcement once, any card with its own limit that, else the default.
func (rs *Ruleset) LimitOf(c *Card) int {
	switch {
	case c.Limit > 0:
		return c.Limit
	case c.Type == Reinforcement && c.Standard:
		return 0
	case c.Type == Reinforcement:
		return 1
	}
	return rs.Rules.CopiesDefault
}

// DeckEntry is one card of a deck and its copies.
type DeckEntry struct {
	Card, Copies int
	Pos          cards.Pos
}

// Deck is one deck, a side: both players may play it (mirrored).
type Deck struct {
	ID, Name string
	Entries  []DeckEntry
	// List is the deck as card indices, one per copy, in entry order.
	List []uint8
	Pos  cards.Pos
}

// Ruleset is a loaded, validated Spacetrace ruleset; immutable once loaded.
type Ruleset struct {
	Name, Version string
	Rules         Rules
	Defs          []Card
	Decks         []Deck
	// Warnings are positioned notes on advice the rules give without
	// making it a rule (the reinforcement share, S1).
	Warnings []string
	Hash     string
	Files    map[string][]byte
	// ruleLines are the lines of rules.yaml's readings ("base.ap"), for the
	// edit a sweep suggests.
	ruleLines map[string]int
}

// CardIndex is the index of the card id, or -1.
func (rs *Ruleset) CardIndex(id string) int {
	for i := range rs.Defs {
		if rs.Defs[i].ID == id {
			return i
		}
	}
	return -1
}

// Load reads and validates the ruleset directory that is fsys's root;
// prefix names it in messages. Its error is a cards.ErrorList, each
// problem at file:line:col.
func Load(fsys fs.FS, prefix string) (*Ruleset, error) {
	r := cards.NewReader(fsys, prefix)
	if !r.ReadDir() {
		return nil, r.Errs.Err()
	}
	known := []string{RulesFile, CardsFile}
	for _, f := range r.Folders {
		r.FileErr(f, "a folder with a YAML name; a Spacetrace ruleset is the files %s and %s", RulesFile, CardsFile)
	}
	for _, f := range r.Files {
		if f != RulesFile && f != CardsFile {
			r.FileErr(f, "unknown ruleset file; a Spacetrace ruleset is the files %s and %s%s", RulesFile, CardsFile, r.DidYouMean(f, known))
		}
	}
	rs := &Ruleset{Rules: DefaultRules()}
	for _, f := range known {
		if !r.Has(f) {
			r.Errorf(cards.Pos{File: r.DirName()}, "no %s in the ruleset directory", f)
		}
	}
	var rulesRoot *yaml.Node
	if data, ok := r.Data[CardsFile]; ok {
		if root := r.Parse(CardsFile, data); root != nil {
			readCards(r, root, rs)
		}
	}
	if data, ok := r.Data[RulesFile]; ok {
		rulesRoot = r.Parse(RulesFile, data)
	}
	if rulesRoot != nil {
		readRules(r, rulesRoot, rs)
	}
	if err := r.Errs.Err(); err != nil {
		return nil, err
	}
	rs.Files = map[string][]byte{RulesFile: r.Data[RulesFile], CardsFile: r.Data[CardsFile]}
	rs.Hash = cards.HashFiles(rs.Files)
	return rs, nil
}

var cardKeys = []string{"id", "name", "type", "class", "ships", "ap", "lp", "mp", "limit", "standard", "first_game", "host", "text", "effects"}

func readCards(r *cards.Reader, root *yaml.Node, rs *Ruleset) {
	const f = CardsFile
	m := r.Object(f, root, f, []string{"cards"})
	if m == nil {
		return
	}
	m.Require("cards")
	n := m.Get("cards")
	if n == nil {
		return
	}
	if n.Kind != yaml.SequenceNode {
		r.Errorf(r.At(f, n), "cards: expected a list of cards, got %s", cards.Describe(n))
		return
	}
	if len(n.Content) == 0 {
		r.Errorf(r.At(f, n), "cards: the list is empty")
	}
	if len(n.Content) > MaxCards {
		r.Errorf(r.At(f, n.Content[MaxCards]), "cards: %d cards, at most %d", len(n.Content), MaxCards)
		return
	}
	seen := map[string]int{}
	for _, item := range n.Content {
		what := cards.Named("card", cards.PeekID(item))
		cm := r.Object(f, item, what, cardKeys)
		if cm == nil {
			continue
		}
		cm.Require("id", "name", "type")
		c := Card{FirstGame: true, Pos: cards.ModelPos(f, item), Lines: map[string]int{}}
		for _, k := range cardKeys {
			if kn := cm.Key(k); kn != nil {
				c.Lines[k] = kn.Line
			}
		}
		if id, ok := cm.Str("id", false); ok {
			if len(id) > cards.MaxIDLen || strings.ContainsAny(id, " \t/\\") {
				r.Errorf(r.At(f, cm.Get("id")), "id %q: at most %d characters, no spaces or slashes", cards.Truncate(id), cards.MaxIDLen)
			}
			if line, dup := seen[id]; dup {
				r.Errorf(r.At(f, cm.Get("id")), "duplicate card id %q (first at line %d)", cards.Truncate(id), line)
			}
			seen[id] = cm.Get("id").Line
			c.ID = id
		}
		if s, ok := cm.Str("name", false); ok {
			r.CheckName(f, cm.Get("name"), "card", s)
			c.Name = s
		}
		if s, ok := cm.Str("text", true); ok {
			c.Text = s
		}
		t, okType := cm.Enum("type", "card type", typeNames)
		c.Type = Type(t)
		if okType && c.Type == Ship {
			cm.Require("class", "ships", "ap", "lp", "mp")
			c.Class, _ = cm.Int("class", 1, NumClasses)
			c.Ships, _ = cm.Int("ships", 1, MaxShips)
			c.AP, _ = cm.Int("ap", 0, MaxStat)
			c.LP, _ = cm.Int("lp", 1, MaxStat)
		} else if okType {
			for _, k := range []string{"class", "ships", "ap", "lp"} {
				if cm.Get(k) != nil {
					r.Errorf(r.At(f, cm.Key(k)), "%s: %s is a %s card; only ship cards have %s", k, what, c.Type, k)
				}
			}
		}
		if okType && c.Type == Reinforcement {
			if cm.Get("mp") != nil {
				r.Errorf(r.At(f, cm.Key("mp")), "mp: %s is a reinforcement; it costs nothing and gives MP by its effect {do: mp, amount: N}", what)
			}
		} else {
			c.MP, _ = cm.Int("mp", 0, MaxStat)
		}
		if cm.Get("limit") != nil {
			c.Limit, _ = cm.Int("limit", 1, MaxCopies)
		}
		if n := cm.Get("standard"); n != nil {
			c.Standard, _ = boolOf(r, f, n, "standard")
			if okType && c.Type != Reinforcement && c.Standard {
				r.Errorf(r.At(f, n), "standard: only reinforcements are standard (unlimited copies)")
			}
		}
		if n := cm.Get("first_game"); n != nil {
			c.FirstGame, _ = boolOf(r, f, n, "first_game")
		}
		if n := cm.Get("host"); n != nil {
			c.Host, _ = classesOf(r, f, n, "host")
			if okType && c.Type != Commander {
				r.Errorf(r.At(f, cm.Key("host")), "host: only commanders are played on a host ship")
			}
		} else if okType && c.Type == Commander {
			r.Errorf(r.At(f, item), "missing required key \"host\" in %s: the classes of ship card the commander is played on", what)
		}
		if n := cm.Get("effects"); n != nil {
			c.Effects = readEffects(r, f, n, what, c.Type, okType)
		}
		if okType && c.Type == Reinforcement && !c.Has(MP) {
			r.Errorf(r.At(f, item), "%s: a reinforcement needs an effect {do: mp, amount: N}", what)
		}
		rs.Defs = append(rs.Defs, c)
	}
}

func boolOf(r *cards.Reader, f string, n *yaml.Node, key string) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		r.Errorf(r.At(f, n), "%s: expected true or false, got %s", key, cards.Describe(n))
		return false, false
	}
	return n.Value == "true", true
}

// classesOf reads a list of classes 1..4 as a bit set.
func classesOf(r *cards.Reader, f string, n *yaml.Node, key string) (uint8, bool) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		r.Errorf(r.At(f, n), "%s: expected a list of classes 1..4, got %s", key, cards.Describe(n))
		return 0, false
	}
	var set uint8
	ok := true
	for _, item := range n.Content {
		c, good := r.IntOf(f, item, key, 1, NumClasses)
		if !good {
			ok = false
			continue
		}
		if set&(1<<(c-1)) != 0 {
			r.Errorf(r.At(f, item), "%s: class %d twice", key, c)
		}
		set |= 1 << (c - 1)
	}
	return set, ok
}

var deckKeys = []string{"id", "name", "cards"}

// readDecks reads rules.yaml's decks and checks every deck rule at the
// position a designer edits.
func readDecks(r *cards.Reader, n *yaml.Node, rs *Ruleset) {
	const f = RulesFile
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		r.Errorf(r.At(f, n), "decks: expected a list of decks, got %s", cards.Describe(n))
		return
	}
	ids := make([]string, len(rs.Defs))
	for i := range rs.Defs {
		ids[i] = rs.Defs[i].ID
	}
	seen := map[string]int{}
	for _, item := range n.Content {
		what := cards.Named("deck", cards.PeekID(item))
		dm := r.Object(f, item, what, deckKeys)
		if dm == nil {
			continue
		}
		dm.Require("id", "name", "cards")
		d := Deck{Pos: cards.ModelPos(f, item)}
		if id, ok := dm.Str("id", false); ok {
			if len(id) > cards.MaxIDLen || strings.ContainsAny(id, " \t/\\") {
				r.Errorf(r.At(f, dm.Get("id")), "id %q: at most %d characters, no spaces or slashes", cards.Truncate(id), cards.MaxIDLen)
			}
			if line, dup := seen[id]; dup {
				r.Errorf(r.At(f, dm.Get("id")), "duplicate deck id %q (first at line %d)", cards.Truncate(id), line)
			}
			seen[id] = dm.Get("id").Line
			d.ID = id
		}
		if s, ok := dm.Str("name", false); ok {
			r.CheckName(f, dm.Get("name"), "deck", s)
			d.Name = s
		}
		cn := dm.Get("cards")
		if cn == nil {
			rs.Decks = append(rs.Decks, d)
			continue
		}
		if cn.Kind != yaml.MappingNode {
			r.Errorf(r.At(f, cn), "%s: cards: expected a mapping of card id to copies, got %s", what, cards.Describe(cn))
			rs.Decks = append(rs.Decks, d)
			continue
		}
		cm := r.Object(f, cn, what+" cards", nil)
		var count [4]int
		size, commanders, motherships := 0, 0, 0
		for i := 0; i+1 < len(cn.Content); i += 2 {
			k, v := cn.Content[i], cn.Content[i+1]
			if cm.Get(k.Value) != v {
				continue // a duplicate, reported by Object
			}
			ci := -1
			for j, id := range ids {
				if id == k.Value {
					ci = j
				}
			}
			if ci < 0 {
				r.Errorf(r.At(f, k), "%s: unknown card %q%s", what, cards.Truncate(k.Value), r.HintFor(k.Value, ids))
				continue
			}
			copies, ok := r.IntOf(f, v, k.Value, 1, MaxCopies)
			if !ok {
				continue
			}
			c := &rs.Defs[ci]
			if lim := rs.LimitOf(c); lim > 0 && copies > lim {
				r.Errorf(r.At(f, v), "%s: %d copies of %q, at most %d (%s)", what, copies, c.ID, lim, limitWhy(c))
			}
			if rs.Rules.Variant == FirstGame {
				if why := firstGameBan(c); why != "" {
					r.Errorf(r.At(f, k), "%s: %q is sorted out for the first game (%s); set variant: full to play it", what, c.ID, why)
				}
			}
			if rs.Rules.Variant == SecondGame && (c.Type == Tactic || c.Type == Commander) {
				r.Errorf(r.At(f, k), "%s: %q is a %s; the second game adds every ship but no tactics or commanders; set variant: full to play it", what, c.ID, c.Type)
			}
			d.Entries = append(d.Entries, DeckEntry{Card: ci, Copies: copies, Pos: cards.ModelPos(f, k)})
			for j := 0; j < copies && len(d.List) < MaxDeck; j++ {
				d.List = append(d.List, uint8(ci))
			}
			size += copies
			count[c.Type] += copies
			if c.Type == Commander {
				commanders += copies
			}
			if c.Opens() {
				motherships += copies
			}
		}
		at := r.At(f, dm.Key("cards"))
		switch {
		case size > MaxDeck:
			r.Errorf(at, "%s: %d cards, at most %d", what, size, MaxDeck)
		case rs.Rules.Variant == SecondGame:
			if count[Ship] != rs.Rules.SecondShips || count[Reinforcement] != rs.Rules.SecondReinf {
				r.Errorf(at, "%s: %d ship cards and %d reinforcements; the second game deals each player %d and %d (second_game: ships, reinforcements)",
					what, count[Ship], count[Reinforcement], rs.Rules.SecondShips, rs.Rules.SecondReinf)
			}
		case rs.Rules.Variant == FirstGame:
			if count[Ship] != rs.Rules.FirstShips || count[Reinforcement] != rs.Rules.FirstReinf {
				r.Errorf(at, "%s: %d ship cards and %d reinforcements; the first game deals each player %d and %d (first_game: ships, reinforcements)",
					what, count[Ship], count[Reinforcement], rs.Rules.FirstShips, rs.Rules.FirstReinf)
			}
		default:
			if size < rs.Rules.DeckMin {
				r.Errorf(at, "%s: %d cards, at least %d (deck: min)", what, size, rs.Rules.DeckMin)
			}
			if commanders == 0 {
				r.Errorf(at, "%s: no commander card; a deck holds at least one (\"mindestens eine Commanderkarte\")", what)
			}
			if motherships == 0 {
				r.Errorf(at, "%s: no Mothership (a ship with {do: open_extra_fleet}); a deck holds at least one", what)
			}
			if lo, hi := rs.Rules.ReinfTarget-rs.Rules.ReinfTolerance, rs.Rules.ReinfTarget+rs.Rules.ReinfTolerance; count[Reinforcement] < lo || count[Reinforcement] > hi {
				rs.Warnings = append(rs.Warnings, fmt.Sprintf("%s: %s: %d reinforcements; the rules advise about %d (%d..%d, deck: reinf_target, reinf_tolerance)",
					at, what, count[Reinforcement], rs.Rules.ReinfTarget, lo, hi))
			}
		}
		if size == 0 && len(cn.Content) == 0 {
			r.Errorf(at, "%s: the deck is empty", what)
		}
		rs.Decks = append(rs.Decks, d)
	}
}

func limitWhy(c *Card) string {
	switch {
	case c.Limit > 0:
		return "the card's limit"
	case c.Type == Reinforcement:
		return "a non-standard reinforcement is taken once"
	}
	return "deck: copies_default"
}

// firstGameBan says why the first game sorts c out, or "" (seed 003: "alle
// Taktikkarten (blau), Commanderkarten (braun), Klasse-II-Schiffskarten …
// das Klasse-III-Schiff »Apollo« und die beiden »Motherships«").
func firstGameBan(c *Card) string {
	switch {
	case c.Type == Tactic:
		return "a tactic"
	case c.Type == Commander:
		return "a commander"
	case c.Type == Ship && c.Class == 2:
		return "a class II ship"
	case c.Opens():
		return "a Mothership"
	case !c.FirstGame:
		return "first_game: false"
	}
	return ""
}

// Game implements game.Ruleset.
func (*Ruleset) Game() string { return ID }

// Info implements game.Ruleset.
func (rs *Ruleset) Info() game.Info {
	return game.Info{Name: rs.Name, Version: rs.Version, Hash: rs.Hash, Files: rs.Files}
}

// Seats implements game.Ruleset: two players (three-player rules are not
// modelled, E6).
func (rs *Ruleset) Seats() (min, max int) { return 2, 2 }

// Sides implements game.Ruleset: the decks.
func (rs *Ruleset) Sides() []game.Side {
	out := make([]game.Side, len(rs.Decks))
	for i, d := range rs.Decks {
		out[i] = game.Side{ID: d.ID, Name: d.Name, Pos: d.Pos}
	}
	return out
}

// Mirror implements game.Ruleset: both players may play one deck.
func (*Ruleset) Mirror() bool { return true }

// Summary implements game.Summarizer, with the warnings.
func (rs *Ruleset) Summary() string {
	s := fmt.Sprintf("%s, %d decks, %d card definitions", rs.Rules.Variant, len(rs.Decks), len(rs.Defs))
	for _, w := range rs.Warnings {
		s += "; warning: " + w
	}
	return s
}

// Cards implements game.Ruleset: the card definitions with their printed
// fields; Copies are the most any deck holds, Side the first deck holding it
// (every deck is both players').
func (rs *Ruleset) Cards() []game.Card {
	out := make([]game.Card, len(rs.Defs))
	for i := range rs.Defs {
		c := &rs.Defs[i]
		gc := game.Card{Index: i, ID: c.ID, Name: c.Name, Side: -1, Text: c.Text, Tags: []string{c.Type.String()}, Pos: c.Pos}
		for di, d := range rs.Decks {
			for _, e := range d.Entries {
				if e.Card == i && e.Copies > gc.Copies {
					gc.Copies = e.Copies
					if gc.Side < 0 {
						gc.Side = di
					}
				}
			}
		}
		for _, e := range c.Effects {
			gc.Effects = append(gc.Effects, e.Do.String())
		}
		gc.Columns = append(gc.Columns, game.Column{Key: "type", Text: c.Type.String()})
		// The first whole-number column is the printed value the report's
		// price curve reads, in the card-value unit (value.go): MP ÷ the
		// variant's step, for every card type (each has a printed MP).
		gc.Columns = append(gc.Columns, intCol("mp/"+strconv.Itoa(rs.valueStep()), rs.printedUnits(c)))
		if c.Type == Ship {
			gc.Columns = append(gc.Columns,
				intCol("class", c.Class), intCol("ships", c.Ships), intCol("ap", c.AP), intCol("lp", c.LP))
		}
		if c.Type != Reinforcement {
			gc.Columns = append(gc.Columns, intCol("mp", c.MP))
		} else if e := c.Effect(MP); e != nil {
			gc.Columns = append(gc.Columns, intCol("gives", e.Amount))
		}
		// The printed value exactly, in MP: the unit's step rounds it (a
		// 60-MP card is one 50-MP step), and a report must not say so.
		mp := c.MP
		if c.Type == Reinforcement {
			mp, _ = reinforcementMP(c)
		}
		gc.Columns = append(gc.Columns, intCol(game.PrintedColumn, mp))
		out[i] = gc
	}
	return out
}

func intCol(k string, v int) game.Column {
	return game.Column{Key: k, Text: strconv.Itoa(v), Int: v, IsInt: true}
}
