package rules

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// File names fixed by the format; deck file names come from rules.yaml.
const (
	rulesFile   = "rules.yaml"
	targetsFile = "targets.yaml"
)

// GameID is Alpha Tactics' id in rules.yaml's `game:` key and in cardlab's
// games (game.Register).
const GameID = "alphatactics"

// Value ranges fixed by the format (docs/ruleset-format.md).
const (
	maxPower       = 20
	maxVP          = 10
	maxPlanetBonus = 10
)

var (
	reFactionID = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
	reCardID    = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	reColor     = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
)

// tieBreaks are the tie-breaks the rulebook knows.
var tieBreaks = []string{"planets"}

// Keys allowed in each kind of mapping, in the order of the format
// description (used for "allowed:" hints).
var (
	// game comes last although the format puts it first: a misspelt key
	// equally near two keys is taken for the earlier, and rulesets written
	// before the key existed keep their suggestions.
	rulesKeys      = []string{"name", "version", "players", "hand_size", "targets_per_round", "cards_to_end", "deck_size", "rounds", "planet_bonus", "federation", "starting_faction", "tie_break", "affiliations", "factions", "game"}
	playersKeys    = []string{"min", "max"}
	federationKeys = []string{"affiliation", "factions"}
	factionKeys    = []string{"id", "name", "color", "planets", "deck"}
	deckKeys       = []string{"faction", "cards"}
	cardKeys       = []string{"id", "name", "type", "kind", "power", "copies", "effect", "params", "text", "tags"}
	targetsKeys    = []string{"targets"}
	targetKeys     = []string{"id", "name", "type", "affiliation", "quadrant", "vp", "text", "bonuses"}
	bonusKeys      = []string{"effect", "params"}
)

// kindNames describe the effect kinds in messages, indexed by EffectKind.
var kindNames = []string{"no effect", "one-time", "permanent", "special", "scoring"}

// LoadDir loads the ruleset in directory dir on disk; messages name files as
// dir/file so that they can be opened from the shell that ran the command.
func LoadDir(dir string) (*Ruleset, error) {
	if dir == "" {
		dir = "."
	}
	prefix := filepath.Clean(dir)
	if prefix == "." {
		prefix = ""
	}
	return Load(os.DirFS(dir), filepath.ToSlash(prefix))
}

// Load reads a ruleset from fsys, whose root is the ruleset directory. prefix
// is prepended (with a slash) to file names in error messages ("" for none).
// It reports every problem it finds, as an ErrorList sorted by position, and
// returns a ruleset only when there are none: a partly valid ruleset would
// only move the failure into the engine.
func Load(fsys fs.FS, prefix string) (rs *Ruleset, err error) {
	l := &loader{Reader: cards.NewReader(fsys, prefix)}
	defer func() {
		// A designer's file must never crash the tool. Any panic is a loader
		// bug; turn it into a message that says so rather than a stack trace.
		if r := recover(); r != nil {
			l.Errs = append(l.Errs, &cards.Error{Pos: cards.Pos{File: l.DirName()}, Msg: fmt.Sprintf("internal error while loading the ruleset (please report this bug): %v", r)})
			rs, err = nil, l.Errs
		}
	}()
	if fsys == nil {
		return nil, cards.ErrorList{{Pos: cards.Pos{File: l.DirName()}, Msg: "no ruleset directory given"}}
	}
	rs = l.load()
	l.Errs.Sort()
	if len(l.Errs) > 0 {
		return nil, l.Errs
	}
	return rs, nil
}

// loader holds the state of one Load call.
type loader struct {
	*cards.Reader // the directory, its files and the problems found
	rs            *Ruleset

	used map[string]bool // files claimed by rules.yaml

	// Rule values later checks depend on; 0 when missing or invalid, so
	// that the dependent checks are skipped instead of piling up errors.
	deckSize, rounds, perRound int
	affiliations               map[string]bool // nil when the list is unusable
	factionIDs                 []string
	factionSet                 map[string]bool
	factionsOK                 bool // the factions list could be read

	// cardsComplete and targetsComplete are false when a file holding cards
	// or targets could not be read: references into it are then not
	// reported as dangling, since they most likely are not.
	cardsComplete, targetsComplete bool

	cardAt    map[string]int // player card id → index
	cardPos   map[string]cards.Pos
	cardIDs   []string
	targetAt  map[string]int
	targetPos map[string]cards.Pos
	targetIDs []string
	tags      map[string]bool
	tagList   []string

	pending []pendingBinding
}

// pendingBinding is an effect reference waiting for the second pass, when all
// cards, tags and targets are known and references can be resolved.
type pendingBinding struct {
	file   string
	key    *yaml.Node // the "effect" key
	value  *yaml.Node // its value, the handler name
	params *yaml.Node // the "params" value, or nil
	card   int        // index into rs.Cards, or -1 for a target bonus
	kind   int        // the card's EffectKind, or -1 when unknown
	target int        // index into rs.Targets, for a bonus
	bonus  int        // index into that target's Bonuses
}

func (l *loader) load() *Ruleset {
	l.rs = &Ruleset{}
	l.used = map[string]bool{}
	l.cardAt = map[string]int{}
	l.cardPos = map[string]cards.Pos{}
	l.targetAt = map[string]int{}
	l.targetPos = map[string]cards.Pos{}
	l.tags = map[string]bool{}
	l.factionSet = map[string]bool{}
	l.cardsComplete, l.targetsComplete = true, true

	if !l.ReadDir() {
		return nil
	}
	if !l.Has(rulesFile) {
		msg := "not a ruleset: " + rulesFile + " not found"
		if s := l.Suggest(rulesFile, l.Files); s != "" {
			msg += fmt.Sprintf(" (is %q a misspelling?)", s)
		}
		l.Errs = cards.ErrorList{{Pos: cards.Pos{File: l.DirName()}, Msg: msg}}
		return nil
	}
	for _, name := range l.Files {
		if data, ok := l.Data[name]; ok {
			if root := l.Parse(name, data); root != nil {
				l.Roots[name] = root
			}
		}
	}
	l.used[rulesFile] = true
	rules := l.Roots[rulesFile]
	if rules == nil {
		return nil // reported; without the rules nothing else can be checked
	}
	decks := l.parseRules(rules)
	l.loadDecks(decks)
	l.loadTargets()
	l.checkStray(decks)
	for _, p := range l.pending {
		l.bind(p)
	}
	if n := len(l.rs.Cards); n > MaxCardDefs {
		c := l.rs.Cards[MaxCardDefs]
		l.Errorf(cards.Pos{File: l.Display(c.Pos.File), Line: c.Pos.Line, Col: c.Pos.Col},
			"too many card definitions: %d, the engine supports at most %d", n, MaxCardDefs)
	}
	if len(l.Errs) > 0 {
		return nil
	}
	l.finish()
	return l.rs
}

// ---------------------------------------------------------------------------
// rules.yaml

// deckRef is a faction's deck entry, kept for the cross-file checks.
type deckRef struct {
	faction int
	file    string     // "" when missing or invalid
	node    *yaml.Node // the deck value
}

func (l *loader) parseRules(root *yaml.Node) []deckRef {
	const file = rulesFile
	rs := l.rs
	m := l.Object(file, root, file, rulesKeys)
	m.Require("name", "version", "players", "hand_size", "targets_per_round", "cards_to_end", "deck_size", "rounds", "planet_bonus", "affiliations", "factions")
	if id, ok := m.Str("game", false); ok && id != GameID {
		// The command line picks the loader by this key (game.Detect); a
		// ruleset of another game reaching this one is refused, not misread.
		l.Errorf(l.At(file, m.Get("game")), "game: %q is not Alpha Tactics: this loader reads rulesets with game: %s (or no game key)", cards.Truncate(id), GameID)
	}
	rs.Name, _ = m.Str("name", false)
	l.CheckName(file, m.Get("name"), "ruleset", rs.Name)
	rs.Version, _ = m.Str("version", false)

	var maxPlayersNode *yaml.Node
	if n := m.Get("players"); n != nil {
		if pm := l.Object(file, n, "players", playersKeys); pm != nil {
			pm.Require(playersKeys...)
			lo, okLo := pm.Int("min", 1, MaxPlayers)
			hi, okHi := pm.Int("max", 1, MaxPlayers)
			if okLo && okHi && lo > hi {
				l.Errorf(l.At(file, pm.Get("min")), "players: min %d is greater than max %d", lo, hi)
			}
			rs.Rules.MinPlayers, rs.Rules.MaxPlayers = lo, hi
			if okHi {
				maxPlayersNode = pm.Get("max")
			}
		}
	}
	rs.Rules.HandSize, _ = m.Int("hand_size", 1, MaxHandSize)
	perRound, okPR := m.Int("targets_per_round", 1, MaxRowsPerRound)
	rs.Rules.TargetsPerRound = perRound
	rs.Rules.CardsToEnd, _ = m.Int("cards_to_end", 1, MaxCardsToEnd)
	deckSize, okDS := m.Int("deck_size", 1, MaxDeckSize)
	rs.Rules.DeckSize = deckSize
	rounds, okR := m.Int("rounds", 1, MaxTargets)
	rs.Rules.Rounds = rounds
	rs.Rules.PlanetBonus, _ = m.Int("planet_bonus", 0, maxPlanetBonus)
	if okDS {
		l.deckSize = deckSize
		if hs := rs.Rules.HandSize; hs > 0 && deckSize < hs {
			l.Errorf(l.At(file, m.Get("deck_size")), "deck_size %d is smaller than hand_size %d: the opening hand could not be drawn", deckSize, hs)
		}
	}
	if okR && okPR {
		if rounds*perRound > MaxTargets {
			l.Errorf(l.At(file, m.Get("rounds")), "rounds × targets_per_round = %d × %d = %d targets, more than the engine's limit of %d", rounds, perRound, rounds*perRound, MaxTargets)
		} else {
			l.rounds, l.perRound = rounds, perRound
		}
	}

	// Affiliations come before the factions that refer to them.
	if affs, nodes, ok := m.Strs("affiliations"); affs != nil {
		set := map[string]bool{}
		first := map[string]int{}
		for i, a := range affs {
			if set[a] {
				l.Errorf(l.At(file, nodes[i]), "duplicate affiliation %q (first listed at line %d)", cards.Truncate(a), first[a])
				continue
			}
			set[a] = true
			first[a] = nodes[i].Line
			rs.Affiliations = append(rs.Affiliations, a)
		}
		if ok && len(affs) == 0 {
			l.Errorf(l.At(file, m.Get("affiliations")), "affiliations: at least one affiliation is needed")
		}
		if ok {
			l.affiliations = set
		}
	}

	decks := l.parseFactions(m)
	if maxPlayersNode != nil && l.factionsOK && rs.Rules.MaxPlayers > len(l.factionIDs) && len(l.factionIDs) >= 2 {
		l.Errorf(l.At(file, maxPlayersNode), "players: max is %d, but only %d factions are defined (each player plays a different faction)", rs.Rules.MaxPlayers, len(l.factionIDs))
	}

	if n := m.Get("federation"); n != nil {
		if fm := l.Object(file, n, "federation", federationKeys); fm != nil {
			fm.Require(federationKeys...)
			if a, ok := fm.Str("affiliation", false); ok {
				l.checkAffiliation(file, fm.Get("affiliation"), a)
				rs.Rules.FederationAffiliation = a
			}
			if ids, nodes, _ := fm.Strs("factions"); ids != nil {
				seen := map[string]bool{}
				for i, id := range ids {
					if seen[id] {
						l.Errorf(l.At(file, nodes[i]), "faction %q is listed twice", cards.Truncate(id))
						continue
					}
					seen[id] = true
					l.checkFaction(file, nodes[i], id)
					rs.Rules.FederationFactions = append(rs.Rules.FederationFactions, id)
				}
			}
		}
	}
	if id, ok := m.Str("starting_faction", false); ok {
		l.checkFaction(file, m.Get("starting_faction"), id)
		rs.Rules.StartingFaction = id
	}
	if m.Get("tie_break") == nil {
		rs.Rules.TieBreak = append([]string(nil), tieBreaks...)
	} else if n := m.Get("tie_break"); n.Kind != yaml.SequenceNode {
		l.Errorf(l.At(file, n), "tie_break: expected a list, got %s", cards.Describe(n))
	} else {
		rs.Rules.TieBreak = []string{}
		for _, item := range n.Content {
			if i, ok := l.EnumOf(file, item, "tie_break", "tie-break", tieBreaks); ok {
				if slices.Contains(rs.Rules.TieBreak, tieBreaks[i]) {
					l.Errorf(l.At(file, item), "tie-break %q is listed twice", tieBreaks[i])
					continue
				}
				rs.Rules.TieBreak = append(rs.Rules.TieBreak, tieBreaks[i])
			}
		}
	}
	return decks
}

func (l *loader) parseFactions(m *cards.Map) []deckRef {
	const file = rulesFile
	n := m.Get("factions")
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		l.Errorf(l.At(file, n), "factions: expected a list, got %s", cards.Describe(n))
		return nil
	}
	l.factionsOK = true
	switch k := len(n.Content); {
	case k < 2:
		l.Errorf(l.At(file, n), "factions: %d given, a ruleset needs 2 to %d", k, MaxPlayers)
	case k > MaxPlayers:
		l.Errorf(l.At(file, n.Content[MaxPlayers]), "factions: %d given, the engine supports at most %d", k, MaxPlayers)
	}
	var decks []deckRef
	firstID := map[string]int{}
	deckOwner := map[string]string{} // deck file → faction id
	for _, item := range n.Content {
		id := cards.PeekID(item)
		fm := l.Object(file, item, cards.Named("faction", id), factionKeys)
		if fm == nil {
			continue
		}
		fm.Require(factionKeys...)
		f := Faction{Index: len(l.rs.Factions), Pos: cards.ModelPos(file, item)}
		if id, ok := fm.Str("id", false); ok {
			switch {
			case len(id) > cards.MaxIDLen:
				l.Errorf(l.At(file, fm.Get("id")), "faction id %q is %d characters long, at most %d", cards.Truncate(id), len(id), cards.MaxIDLen)
			case !reFactionID.MatchString(id):
				l.Errorf(l.At(file, fm.Get("id")), "invalid faction id %q: use lower-case letters, digits, \"-\" and \"_\", starting with a letter", cards.Truncate(id))
			case firstID[id] > 0:
				l.Errorf(l.At(file, fm.Get("id")), "duplicate faction id %q (first defined at line %d)", id, firstID[id])
			default:
				firstID[id] = fm.Get("id").Line
				l.factionIDs = append(l.factionIDs, id)
				l.factionSet[id] = true
			}
			f.ID = id
		}
		f.Name, _ = fm.Str("name", false)
		l.CheckName(file, fm.Get("name"), "faction", f.Name)
		if c := fm.Get("color"); c != nil {
			if cards.IsEmptyNode(c) {
				l.Errorf(l.At(file, c), "color: expected \"#rrggbb\", got nothing (quote the colour: an unquoted # starts a comment)")
			} else if s, ok := fm.Str("color", false); ok {
				if !reColor.MatchString(s) {
					l.Errorf(l.At(file, c), "invalid color %q: use \"#rrggbb\"", cards.Truncate(s))
				}
				f.Color = s
			}
		}
		if planets, nodes, _ := fm.Strs("planets"); planets != nil {
			for i, a := range planets {
				l.checkAffiliation(file, nodes[i], a)
			}
			f.Planets = planets
		} else if fm.Get("planets") != nil {
			f.Planets = []string{}
		}
		ref := deckRef{faction: f.Index, node: fm.Get("deck")}
		if deck, ok := fm.Str("deck", false); ok {
			dn := fm.Get("deck")
			switch {
			case strings.ContainsAny(deck, `/\`):
				l.Errorf(l.At(file, dn), "deck: %q is a path; name a file in the ruleset directory", cards.Truncate(deck))
			case !cards.IsYAMLName(deck):
				l.Errorf(l.At(file, dn), "deck: %q must be a .yaml file", cards.Truncate(deck))
			case deck == rulesFile || deck == targetsFile:
				l.Errorf(l.At(file, dn), "deck: %q is not a deck file", deck)
			default:
				if owner, dup := deckOwner[deck]; dup {
					l.Errorf(l.At(file, dn), "deck file %q is already the deck of faction %q", deck, owner)
					break
				}
				deckOwner[deck] = f.ID
				ref.file = deck
			}
			f.File = deck
		}
		decks = append(decks, ref)
		l.rs.Factions = append(l.rs.Factions, f)
	}
	return decks
}

func (l *loader) checkAffiliation(file string, n *yaml.Node, a string) {
	if l.affiliations == nil || l.affiliations[a] {
		return
	}
	l.Errorf(l.At(file, n), "unknown affiliation %q%s", cards.Truncate(a), l.HintFor(a, l.rs.Affiliations))
}

func (l *loader) checkFaction(file string, n *yaml.Node, id string) {
	if !l.factionsOK || l.factionSet[id] {
		return
	}
	l.Errorf(l.At(file, n), "unknown faction %q%s", cards.Truncate(id), l.HintFor(id, l.factionIDs))
}

// ---------------------------------------------------------------------------
// Deck files

func (l *loader) loadDecks(decks []deckRef) {
	if !l.factionsOK {
		l.cardsComplete = false
	}
	for _, d := range decks {
		if d.file == "" {
			l.cardsComplete = false
			continue
		}
		l.used[d.file] = true
	}
	for _, d := range decks {
		if d.file == "" {
			continue
		}
		if slices.Contains(l.Folders, d.file) {
			l.cardsComplete = false
			l.Errorf(l.At(rulesFile, d.node), "deck file %q is a folder, not a file", d.file)
			continue
		}
		if !l.Has(d.file) {
			l.cardsComplete = false
			var unused []string
			for _, name := range l.Files {
				if !l.used[name] {
					unused = append(unused, name)
				}
			}
			l.Errorf(l.At(rulesFile, d.node), "deck file %q not found%s", d.file, l.DidYouMean(d.file, unused))
			continue
		}
		root := l.Roots[d.file]
		if root == nil {
			l.cardsComplete = false // unreadable; already reported
			continue
		}
		l.parseDeck(&l.rs.Factions[d.faction], d.file, root)
	}
}

func (l *loader) parseDeck(f *Faction, file string, root *yaml.Node) {
	m := l.Object(file, root, file, deckKeys)
	m.Require(deckKeys...)
	if id, ok := m.Str("faction", false); ok && f.ID != "" && id != f.ID {
		l.Errorf(l.At(file, m.Get("faction")), "faction %q does not match rules.yaml, which makes this file the deck of faction %q", cards.Truncate(id), f.ID)
	}
	n := m.Get("cards")
	if n == nil {
		return
	}
	if n.Kind != yaml.SequenceNode {
		l.Errorf(l.At(file, n), "cards: expected a list, got %s", cards.Describe(n))
		return
	}
	countOK := true
	total := 0
	for _, item := range n.Content {
		copies, ok := l.parseCard(f, file, item)
		countOK = countOK && ok
		total += copies
	}
	if countOK && l.deckSize > 0 && total != l.deckSize {
		l.Errorf(l.At(file, m.Key("cards")), "deck has %d cards (copies counted), but deck_size in rules.yaml is %d", total, l.deckSize)
	}
}

// parseCard reads one card, returning its copies and whether they are known.
func (l *loader) parseCard(f *Faction, file string, n *yaml.Node) (int, bool) {
	id := cards.PeekID(n)
	m := l.Object(file, n, cards.Named("card", id), cardKeys)
	if m == nil {
		return 0, false
	}
	m.Require("id", "name", "type", "kind", "power")
	c := Card{Index: len(l.rs.Cards), Faction: f.Index, Copies: 1, Pos: cards.ModelPos(file, n)}
	if id, ok := m.Str("id", false); ok {
		in := m.Get("id")
		switch {
		case len(id) > cards.MaxIDLen:
			l.Errorf(l.At(file, in), "card id %q is %d characters long, at most %d", cards.Truncate(id), len(id), cards.MaxIDLen)
		case !reCardID.MatchString(id):
			l.Errorf(l.At(file, in), "invalid card id %q: use lower-case letters, digits, \"-\" and \"_\"", cards.Truncate(id))
		case l.cardPos[id] != (cards.Pos{}):
			p := l.cardPos[id]
			l.Errorf(l.At(file, in), "duplicate card id %q (first defined at %s:%d)", id, l.Display(p.File), p.Line)
		default:
			l.cardAt[id] = c.Index
			l.cardPos[id] = cards.ModelPos(file, in)
			l.cardIDs = append(l.cardIDs, id)
		}
		c.ID = id
	}
	c.Name, _ = m.Str("name", false)
	l.CheckName(file, m.Get("name"), "card", c.Name)
	if t, ok := m.Enum("type", "card type", handlers.CardTypes); ok {
		c.Type = CardType(t)
	}
	kind := -1
	if k, ok := m.Enum("kind", "kind", EffectKinds); ok {
		c.Kind = EffectKind(k)
		kind = k
	}
	c.Power, _ = m.Int("power", 0, maxPower)
	// A misspelt "copies" key leaves the count unknown, not 1.
	copiesOK := !m.Suggested("copies")
	if m.Get("copies") != nil {
		var ok bool
		if c.Copies, ok = m.Int("copies", 1, MaxCopies); !ok {
			c.Copies, copiesOK = 1, false
		}
	}
	c.Text, _ = m.Str("text", true)
	if tags, nodes, _ := m.Strs("tags"); tags != nil {
		own := map[string]bool{}
		for i, t := range tags {
			if len(t) > cards.MaxIDLen {
				l.Errorf(l.At(file, nodes[i]), "tag %q is %d characters long, at most %d", cards.Truncate(t), len(t), cards.MaxIDLen)
				continue
			}
			if !reCardID.MatchString(t) {
				l.Errorf(l.At(file, nodes[i]), "invalid tag %q: use lower-case letters, digits, \"-\" and \"_\"", cards.Truncate(t))
				continue
			}
			if own[t] {
				l.Errorf(l.At(file, nodes[i]), "tag %q is listed twice", t)
				continue
			}
			own[t] = true
			c.Tags = append(c.Tags, t)
			if !l.tags[t] {
				l.tags[t] = true
				l.tagList = append(l.tagList, t)
			}
		}
	}

	effKey, effVal := m.Key("effect"), m.Get("effect")
	paramsKey, paramsVal := m.Key("params"), m.Get("params")
	switch {
	case kind == int(KindNone):
		if effKey != nil {
			l.Errorf(l.At(file, effKey), "kind N (no effect) cannot have an effect; remove \"effect\" or change the kind")
		} else if paramsKey != nil {
			l.Errorf(l.At(file, paramsKey), "\"params\" without an \"effect\"")
		}
	case effKey == nil:
		if kind > 0 && !m.Suggested("effect") {
			l.Errorf(l.At(file, n), "missing required key \"effect\" in %s (kind %s needs a %s handler)", m.What(), EffectKinds[kind], kindNames[kind])
		}
	default:
		l.pending = append(l.pending, pendingBinding{file: file, key: effKey, value: effVal, params: paramsVal, card: c.Index, kind: kind})
	}
	l.rs.Cards = append(l.rs.Cards, c)
	f.Deck = append(f.Deck, c.Index)
	return c.Copies, copiesOK
}

// ---------------------------------------------------------------------------
// targets.yaml

func (l *loader) loadTargets() {
	const file = targetsFile
	l.used[file] = true
	if !l.Has(file) {
		l.targetsComplete = false
		l.FileErr(file, "file not found (a ruleset keeps its target cards in %s)", file)
		return
	}
	root := l.Roots[file]
	if root == nil {
		l.targetsComplete = false
		return
	}
	m := l.Object(file, root, file, targetsKeys)
	m.Require(targetsKeys...)
	n := m.Get("targets")
	if n == nil {
		l.targetsComplete = false
		return
	}
	if n.Kind != yaml.SequenceNode {
		l.targetsComplete = false
		l.Errorf(l.At(file, n), "targets: expected a list, got %s", cards.Describe(n))
		return
	}
	for _, item := range n.Content {
		l.parseTarget(file, item)
	}
	if want := l.rounds * l.perRound; want > 0 && len(n.Content) != want {
		l.Errorf(l.At(file, m.Key("targets")), "%d targets given, but rules.yaml needs rounds × targets_per_round = %d × %d = %d", len(n.Content), l.rounds, l.perRound, want)
	} else if len(n.Content) > MaxTargets {
		l.Errorf(l.At(file, n.Content[MaxTargets]), "too many targets: %d, the engine supports at most %d", len(n.Content), MaxTargets)
	}
}

func (l *loader) parseTarget(file string, n *yaml.Node) {
	id := cards.PeekID(n)
	m := l.Object(file, n, cards.Named("target", id), targetKeys)
	if m == nil {
		l.targetsComplete = false
		return
	}
	m.Require("id", "name", "type", "affiliation", "vp")
	t := Target{Index: len(l.rs.Targets), Pos: cards.ModelPos(file, n)}
	if id, ok := m.Str("id", false); ok {
		in := m.Get("id")
		switch {
		case len(id) > cards.MaxIDLen:
			l.Errorf(l.At(file, in), "target id %q is %d characters long, at most %d", cards.Truncate(id), len(id), cards.MaxIDLen)
		case !reCardID.MatchString(id):
			l.Errorf(l.At(file, in), "invalid target id %q: use lower-case letters, digits, \"-\" and \"_\"", cards.Truncate(id))
		case l.targetPos[id] != (cards.Pos{}):
			p := l.targetPos[id]
			l.Errorf(l.At(file, in), "duplicate target id %q (first defined at %s:%d)", id, l.Display(p.File), p.Line)
		default:
			l.targetAt[id] = t.Index
			l.targetPos[id] = cards.ModelPos(file, in)
			l.targetIDs = append(l.targetIDs, id)
		}
		t.ID = id
	} else {
		l.targetsComplete = false
	}
	t.Name, _ = m.Str("name", false)
	l.CheckName(file, m.Get("name"), "target", t.Name)
	typ, typeOK := m.Enum("type", "target type", handlers.TargetTypes)
	t.Type = TargetType(typ)
	if a, ok := m.Str("affiliation", false); ok {
		l.checkAffiliation(file, m.Get("affiliation"), a)
		t.Affiliation = a
	}
	if q := m.Get("quadrant"); q != nil {
		if typeOK && t.Type != Planet {
			l.Errorf(l.At(file, m.Key("quadrant")), "quadrant is only for planets, not for a %s", t.Type)
		} else if i, ok := m.Enum("quadrant", "quadrant", handlers.Quadrants); ok {
			t.Quadrant = handlers.Quadrants[i]
		}
	} else if typeOK && t.Type == Planet && !m.Suggested("quadrant") {
		l.Errorf(l.At(file, n), "missing required key \"quadrant\" in %s (a planet lies in the %s quadrant)", m.What(), strings.Join(handlers.Quadrants, " or "))
	}
	t.VP, _ = m.Int("vp", 0, maxVP)
	t.Text, _ = m.Str("text", true)
	if b := m.Get("bonuses"); b != nil {
		if b.Kind != yaml.SequenceNode {
			l.Errorf(l.At(file, b), "bonuses: expected a list, got %s", cards.Describe(b))
		} else {
			for _, item := range b.Content {
				bm := l.Object(file, item, "bonus", bonusKeys)
				if bm == nil {
					continue
				}
				bm.Require("effect")
				if bm.Key("effect") == nil {
					continue
				}
				l.pending = append(l.pending, pendingBinding{file: file, key: bm.Key("effect"), value: bm.Get("effect"), params: bm.Get("params"), card: -1, kind: -1, target: t.Index, bonus: len(t.Bonuses)})
				t.Bonuses = append(t.Bonuses, Binding{Pos: cards.ModelPos(file, item)})
			}
		}
	}
	l.rs.Targets = append(l.rs.Targets, t)
}

// ---------------------------------------------------------------------------
// Cross-file checks

// checkStray reports YAML files that rules.yaml does not claim: most likely a
// deck whose deck: entry is misspelt, which would otherwise load as a
// ruleset missing that deck's edits.
func (l *loader) checkStray(decks []deckRef) {
	if !l.factionsOK {
		return
	}
	var missing []string
	for _, d := range decks {
		if d.file != "" && !l.Has(d.file) {
			missing = append(missing, d.file)
		}
	}
	for _, name := range l.Files {
		if l.used[name] {
			continue
		}
		if s := l.Suggest(name, missing); s != "" {
			l.FileErr(name, "file is not used: rules.yaml names deck %q (misspelt file name?)", s)
		} else {
			l.FileErr(name, "file is not used by rules.yaml (a deck file must be named by a faction's deck: entry)")
		}
	}
}

// bind resolves one effect reference against the handler registry.
func (l *loader) bind(p pendingBinding) {
	file := p.file
	if p.value.Kind != yaml.ScalarNode || p.value.ShortTag() != "!!str" || p.value.Value == "" {
		l.Errorf(l.At(file, p.value), "effect: expected a handler name, got %s", cards.Describe(p.value))
		return
	}
	name := p.value.Value
	spec, ok := handlers.Lookup(name)
	if !ok {
		hint := l.DidYouMean(name, handlers.Names())
		if hint == "" {
			hint = " (`cardlab effects` lists them)"
		}
		l.Errorf(l.At(file, p.value), "unknown handler %q%s", cards.Truncate(name), hint)
		return
	}
	if p.card >= 0 {
		switch {
		case spec.Timing == handlers.TargetBonus:
			l.Errorf(l.At(file, p.value), "handler %q is a target-card bonus; player cards need a one-time, permanent, special or scoring handler", name)
		case p.kind > 0 && EffectKind(p.kind).Timing() != spec.Timing:
			l.Errorf(l.At(file, p.value), "handler %q is a %s effect (kind %s), but the card's kind is %s (%s)", name, spec.Timing, spec.Timing.Kind(), EffectKinds[p.kind], kindNames[p.kind])
		}
	} else if spec.Timing != handlers.TargetBonus {
		var bonus []string
		for _, s := range handlers.All() {
			if s.Timing == handlers.TargetBonus {
				bonus = append(bonus, s.Name)
			}
		}
		l.Errorf(l.At(file, p.value), "handler %q is a %s player-card effect; target bonuses need a target-bonus handler (%s)", name, spec.Timing, strings.Join(bonus, ", "))
	}
	b := Binding{Handler: name, Spec: spec, Args: l.params(file, spec, p), Pos: cards.ModelPos(file, p.key)}
	if p.card >= 0 {
		l.rs.Cards[p.card].Effect = &b
	} else {
		b.Pos = l.rs.Targets[p.target].Bonuses[p.bonus].Pos
		l.rs.Targets[p.target].Bonuses[p.bonus] = b
	}
}

// params decodes a binding's parameters against the handler declaration.
func (l *loader) params(file string, spec *effects.Spec, p pendingBinding) []effects.Value {
	d := &cards.ParamDecoder{
		Refs: &cards.Refs{
			Kinds: map[string]*cards.RefSet{
				handlers.RefCard:   {At: l.cardAt, IDs: l.cardIDs, Known: l.cardsComplete},
				handlers.RefTarget: {At: l.targetAt, IDs: l.targetIDs, Known: l.targetsComplete},
			},
			Tags: l.tags, TagList: l.tagList, TagsKnown: l.cardsComplete,
		},
		Report: l.Reporter(file),
		Budget: l.Budget(),
	}
	return d.Params(spec, p.params, p.key, p.value)
}

// finish records the files and their hash on a valid ruleset.
func (l *loader) finish() {
	l.rs.Files = make(map[string][]byte, len(l.used))
	for name := range l.used {
		if data, ok := l.Data[name]; ok {
			l.rs.Files[name] = data
		}
	}
	l.rs.Hash = cards.HashFiles(l.rs.Files)
}

// RefsOf lists what parameters may name in a loaded ruleset.
func RefsOf(rs *Ruleset) *cards.Refs {
	cardSet := &cards.RefSet{At: map[string]int{}, Known: true}
	targetSet := &cards.RefSet{At: map[string]int{}, Known: true}
	r := &cards.Refs{Kinds: map[string]*cards.RefSet{handlers.RefCard: cardSet, handlers.RefTarget: targetSet}, Tags: map[string]bool{}, TagsKnown: true}
	for i := range rs.Cards {
		c := &rs.Cards[i]
		cardSet.At[c.ID] = i
		cardSet.IDs = append(cardSet.IDs, c.ID)
		for _, t := range c.Tags {
			if !r.Tags[t] {
				r.Tags[t] = true
				r.TagList = append(r.TagList, t)
			}
		}
	}
	for i := range rs.Targets {
		targetSet.At[rs.Targets[i].ID] = i
		targetSet.IDs = append(targetSet.IDs, rs.Targets[i].ID)
	}
	return r
}
