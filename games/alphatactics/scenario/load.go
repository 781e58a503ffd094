package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Limits of the format (the engine's own limits, checked here so that a
// scenario fails with a position rather than in the engine).
const (
	maxPower  = 20
	maxCopies = rules.MaxCopies
)

var (
	topKeys    = []string{"players", "seed", "cards", "rows", "expect"}
	cardKeys   = []string{"id", "faction", "name", "type", "kind", "power", "copies", "effect", "params", "text", "tags"}
	rowKeys    = []string{"target", "cards"}
	slotKeys   = []string{"card", "owner", "face"}
	expectKeys = []string{"row", "winner", "reason", "power"}
	faces      = []string{"up", "down"}
	reID       = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	reYAMLErr  = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
)

// Load parses and validates a scenario. name is used in messages (usually
// the file name); rs is the ruleset the scenario plays with and is never
// modified: inline cards go into a copy. Every problem is reported, sorted,
// as "name:line:col: message" in a cards.ErrorList.
func Load(data []byte, name string, rs *rules.Ruleset) (*Scenario, error) {
	l := &loader{name: name, rs: rs, sc: &Scenario{Name: name, Ruleset: rs}}
	l.load(data)
	if len(l.errs) > 0 {
		l.errs.Sort()
		return nil, l.errs
	}
	return l.sc, nil
}

type loader struct {
	name string
	rs   *rules.Ruleset // the ruleset given
	sc   *Scenario
	errs cards.ErrorList
	// seatOf maps playing faction ids to seats.
	seatOf map[string]int
	// noPlayers: players: is missing or invalid, so owners are not checked.
	noPlayers bool
}

func (l *loader) pos(n *yaml.Node) cards.Pos {
	return cards.Pos{File: l.name, Line: n.Line, Col: n.Column}
}

func (l *loader) errorf(n *yaml.Node, format string, args ...any) {
	p := cards.Pos{File: l.name}
	if n != nil {
		p = l.pos(n)
	}
	l.errs = append(l.errs, &cards.Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// MaxFileSize caps a scenario file, as the ruleset loader caps its files;
// a scenario is a few KiB.
const MaxFileSize = 1 << 20

func (l *loader) load(data []byte) {
	if len(data) > MaxFileSize {
		l.errorf(nil, "file is too large (more than %d KiB at byte offset %d); a scenario is a few KiB", MaxFileSize>>10, MaxFileSize)
		return
	}
	if e := cards.CheckText(l.name, data); e != nil {
		l.errs = append(l.errs, e)
		return
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		msg := err.Error()
		if m := reYAMLErr.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			l.errs = append(l.errs, &cards.Error{Pos: cards.Pos{File: l.name, Line: line}, Msg: "syntax error: " + m[2]})
			return
		}
		l.errorf(nil, "syntax error: %s", strings.TrimPrefix(msg, "yaml: "))
		return
	}
	if doc.Kind == 0 || len(doc.Content) == 0 || isNull(doc.Content[0]) {
		l.errorf(nil, "empty scenario: it needs at least players: and rows:")
		return
	}
	// One document per file: a second one would be silently ignored.
	// Empty documents after it are harmless; the file size bounds them.
	for {
		var extra yaml.Node
		err := dec.Decode(&extra)
		if err == io.EOF {
			break
		}
		if err != nil {
			l.errorf(nil, "syntax error after the first document: %s", strings.TrimPrefix(err.Error(), "yaml: "))
			return
		}
		if len(extra.Content) > 0 && !isNull(extra.Content[0]) {
			l.errorf(&extra, "a second YAML document starts here; a scenario file holds one document (remove the \"---\" line)")
			return
		}
	}
	root := doc.Content[0]
	if l.hasAlias(root) {
		return
	}
	if e := cards.CheckStrings(l.name, root); e != nil {
		l.errs = append(l.errs, e)
		return
	}
	m := l.object(root, "scenario", topKeys)
	if m == nil {
		return
	}
	m.require("players", "rows")
	if n := m.vals["players"]; n != nil {
		l.players(n)
	}
	if n := m.vals["seed"]; n != nil {
		if v, ok := l.uint(n, "seed"); ok {
			l.sc.Seed, l.sc.HasSeed = v, true
		}
	}
	if n := m.vals["cards"]; n != nil {
		l.extraCards(n)
	}
	if l.seatOf == nil {
		// Without valid players, check the rows for everything but owners.
		l.noPlayers = true
	}
	if n := m.vals["rows"]; n != nil {
		l.rows(n)
	}
	if n := m.vals["expect"]; n != nil && l.sc.Rows != nil && !l.noPlayers {
		l.expect(n)
	}
}

// hasAlias rejects anchors and aliases: scenarios are short, and an alias
// would make positions in messages point at the wrong place.
func (l *loader) hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		l.errorf(n, "anchors and aliases are not supported in scenarios; write the value out")
		return true
	}
	for _, c := range n.Content {
		if l.hasAlias(c) {
			return true
		}
	}
	return false
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// ymap is a mapping node read into keys and values.
type ymap struct {
	l         *loader
	node      *yaml.Node
	what      string
	keys      map[string]*yaml.Node
	vals      map[string]*yaml.Node
	suggested map[string]bool
}

// object reads the mapping n, reporting duplicate and unknown keys.
func (l *loader) object(n *yaml.Node, what string, allowed []string) *ymap {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "%s: expected a mapping of keys, got %s", what, cards.Describe(n))
		return nil
	}
	m := &ymap{l: l, node: n, what: what, keys: map[string]*yaml.Node{}, vals: map[string]*yaml.Node{}, suggested: map[string]bool{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || isNull(k) {
			l.errorf(k, "expected a key name, got %s", cards.Describe(k))
			continue
		}
		if prev, dup := m.keys[k.Value]; dup {
			l.errorf(k, "duplicate key %q (first given at line %d)", cards.Truncate(k.Value), prev.Line)
			continue
		}
		if allowed != nil && !slices.Contains(allowed, k.Value) {
			if s := suggest(k.Value, allowed); s != "" {
				l.errorf(k, "unknown key %q in %s, did you mean %q?", cards.Truncate(k.Value), what, s)
				m.suggested[s] = true
			} else {
				l.errorf(k, "unknown key %q in %s (allowed: %s)", cards.Truncate(k.Value), what, strings.Join(allowed, ", "))
			}
			continue
		}
		m.keys[k.Value] = k
		m.vals[k.Value] = v
	}
	return m
}

func (m *ymap) require(keys ...string) {
	for _, k := range keys {
		if _, ok := m.vals[k]; !ok && !m.suggested[k] {
			m.l.errorf(m.node, "missing required key %q in %s", k, m.what)
		}
	}
}

func (l *loader) str(n *yaml.Node, key string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || strings.TrimSpace(n.Value) == "" {
		l.errorf(n, "%s: expected a non-empty string, got %s", key, cards.Describe(n))
		return "", false
	}
	return n.Value, true
}

func (l *loader) int(n *yaml.Node, key string, lo, hi int) (int, bool) {
	return cards.IntValue(n, key, lo, hi, func(n *yaml.Node, msg string) { l.errorf(n, "%s", msg) })
}

func (l *loader) uint(n *yaml.Node, key string) (uint64, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		l.errorf(n, "%s: expected a non-negative integer, got %s", key, cards.Describe(n))
		return 0, false
	}
	var v uint64
	if err := n.Decode(&v); err != nil {
		l.errorf(n, "%s: %s is not a non-negative 64-bit integer", key, cards.Truncate(n.Value))
		return 0, false
	}
	return v, true
}

func (l *loader) seq(n *yaml.Node, key string) ([]*yaml.Node, bool) {
	if n.Kind != yaml.SequenceNode {
		l.errorf(n, "%s: expected a list, got %s", key, cards.Describe(n))
		return nil, false
	}
	return n.Content, true
}

// enum reads one of values; label names the vocabulary in messages.
func (l *loader) enum(n *yaml.Node, key, label string, values []string) (int, bool) {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		l.errorf(n, "%s: expected one of %s, got %s", key, quoteList(values), cards.Describe(n))
		return 0, false
	}
	if i := slices.Index(values, n.Value); i >= 0 {
		return i, true
	}
	l.errorf(n, "unknown %s %q%s", label, cards.Truncate(n.Value), hintFor(n.Value, values))
	return 0, false
}

// faction reads a faction id of the ruleset.
func (l *loader) faction(n *yaml.Node, key string) (*rules.Faction, bool) {
	id, ok := l.str(n, key)
	if !ok {
		return nil, false
	}
	f, ok := l.rs.FactionByID(id)
	if !ok {
		l.errorf(n, "unknown faction %q%s", cards.Truncate(id), hintFor(id, l.rs.FactionIDs()))
		return nil, false
	}
	return f, true
}

// playing reads the id of a playing faction and returns its seat.
func (l *loader) playing(n *yaml.Node, key string) (int, bool) {
	f, ok := l.faction(n, key)
	if !ok {
		return 0, false
	}
	seat, ok := l.seatOf[f.ID]
	if !ok {
		l.errorf(n, "%s: %s is not playing (players: %s)", key, f.ID, strings.Join(l.sc.Players, ", "))
	}
	return seat, ok
}

// --- players ----------------------------------------------------------------

func (l *loader) players(n *yaml.Node) {
	items, ok := l.seq(n, "players")
	if !ok {
		return
	}
	seats := map[string]int{}
	var players []string
	good := true
	for _, item := range items {
		f, ok := l.faction(item, "players")
		if !ok {
			good = false
			continue
		}
		if _, dup := seats[f.ID]; dup {
			l.errorf(item, "faction %q plays twice", f.ID)
			good = false
			continue
		}
		seats[f.ID] = len(players)
		players = append(players, f.ID)
	}
	rules := &l.rs.Rules
	if len(items) < rules.MinPlayers || len(items) > rules.MaxPlayers {
		l.errorf(n, "players: %d factions, the rules allow %d to %d", len(items), rules.MinPlayers, rules.MaxPlayers)
		good = false
	}
	if good {
		l.seatOf, l.sc.Players = seats, players
	}
}

// --- inline cards -------------------------------------------------------------

// extraCards reads the inline card definitions and builds the copy of the
// ruleset that holds them.
func (l *loader) extraCards(n *yaml.Node) {
	items, ok := l.seq(n, "cards")
	if !ok || len(items) == 0 {
		return
	}
	nrs := *l.rs
	nrs.Cards = slices.Clone(l.rs.Cards)
	nrs.Factions = slices.Clone(l.rs.Factions)
	cloned := map[int]bool{}
	type pending struct {
		card                int
		effect, params, key *yaml.Node
	}
	var binds []pending
	seen := map[string]*yaml.Node{}
	for _, item := range items {
		m := l.object(item, cards.Named("card", cards.PeekID(item)), cardKeys)
		if m == nil {
			continue
		}
		m.require("id", "faction", "type", "kind", "power")
		c := rules.Card{Index: len(nrs.Cards), Copies: 1, Faction: -1, Pos: l.pos(item)}
		good := true
		if v := m.vals["id"]; v != nil {
			id, ok := l.str(v, "id")
			switch {
			case !ok:
				good = false
			case !reID.MatchString(id):
				l.errorf(v, "invalid card id %q: use lower-case letters, digits, \"-\" and \"_\"", cards.Truncate(id))
				good = false
			case seen[id] != nil:
				l.errorf(v, "card %q is defined twice (first at line %d)", id, seen[id].Line)
				good = false
			default:
				if old, exists := l.rs.CardByID(id); exists {
					l.errorf(v, "card %q already exists in the ruleset (%s, %s); choose another id", id, old.Name, l.rs.Factions[old.Faction].ID)
					good = false
				}
				seen[id] = v
			}
			c.ID = id
		} else {
			good = false
		}
		if v := m.vals["faction"]; v != nil {
			if f, ok := l.faction(v, "faction"); ok {
				c.Faction = f.Index
			} else {
				good = false
			}
		} else {
			good = false
		}
		c.Name = c.ID
		if v := m.vals["name"]; v != nil {
			c.Name, _ = l.str(v, "name")
		}
		if v := m.vals["type"]; v != nil {
			t, ok := l.enum(v, "type", "card type", handlers.CardTypes)
			c.Type, good = rules.CardType(t), good && ok
		}
		kind := -1
		if v := m.vals["kind"]; v != nil {
			if k, ok := l.enum(v, "kind", "kind", rules.EffectKinds); ok {
				c.Kind, kind = rules.EffectKind(k), k
			} else {
				good = false
			}
		}
		if v := m.vals["power"]; v != nil {
			p, ok := l.int(v, "power", 0, maxPower)
			c.Power, good = p, good && ok
		}
		if v := m.vals["copies"]; v != nil {
			cp, ok := l.int(v, "copies", 1, maxCopies)
			c.Copies, good = cp, good && ok
		}
		if v := m.vals["text"]; v != nil {
			if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
				l.errorf(v, "text: expected a string, got %s", cards.Describe(v))
			} else {
				c.Text = v.Value
			}
		}
		if v := m.vals["tags"]; v != nil {
			if tags, ok := l.seq(v, "tags"); ok {
				for _, tn := range tags {
					t, ok := l.str(tn, "tags")
					switch {
					case !ok:
					case !reID.MatchString(t):
						l.errorf(tn, "invalid tag %q: use lower-case letters, digits, \"-\" and \"_\"", cards.Truncate(t))
					case slices.Contains(c.Tags, t):
						l.errorf(tn, "tag %q is listed twice", t)
					default:
						c.Tags = append(c.Tags, t)
					}
				}
			}
		}
		effKey, effVal, parKey := m.keys["effect"], m.vals["effect"], m.keys["params"]
		switch {
		case kind < 0:
		case kind == int(rules.KindNone):
			if effKey != nil {
				l.errorf(effKey, "kind N (no effect) cannot have an effect; remove \"effect\" or change the kind")
			} else if parKey != nil {
				l.errorf(parKey, "\"params\" without an \"effect\"")
			}
		case effKey == nil:
			if !m.suggested["effect"] {
				l.errorf(item, "missing required key \"effect\" in %s (kind %s needs a %s handler)", m.what, rules.EffectKinds[kind], rules.EffectKind(kind).Timing())
			}
		}
		if !good {
			continue
		}
		if kind > int(rules.KindNone) && effKey != nil {
			binds = append(binds, pending{card: c.Index, effect: effVal, params: m.vals["params"], key: effKey})
		}
		f := &nrs.Factions[c.Faction]
		if !cloned[c.Faction] {
			f.Deck = slices.Clone(f.Deck)
			cloned[c.Faction] = true
		}
		f.Deck = append(f.Deck, c.Index)
		nrs.Cards = append(nrs.Cards, c)
		l.sc.Extra = append(l.sc.Extra, c.ID)
		if f.DeckCount(&nrs) > rules.MaxDeckSize {
			l.errorf(item, "the %s deck would hold %d cards with this one; the engine holds at most %d", f.ID, f.DeckCount(&nrs), rules.MaxDeckSize)
		}
	}
	if len(nrs.Cards) > rules.MaxCardDefs {
		l.errorf(n, "cards: %d card definitions in all; the engine holds at most %d", len(nrs.Cards), rules.MaxCardDefs)
	}
	// Bind effects once every card is known (a parameter may name a tag or
	// a card defined further down).
	for _, b := range binds {
		l.bind(&nrs, &nrs.Cards[b.card], b.effect, b.params, b.key)
	}
	l.sc.Ruleset = &nrs // even with errors, so that rows can name the inline cards
	h := sha256.New()
	h.Write([]byte(l.rs.Hash))
	h.Write([]byte{0})
	for _, id := range l.sc.Extra {
		c, _ := nrs.CardByID(id)
		fmt.Fprintf(h, "%s|%d|%s|%d|%d|%d|%d|%s|%v\n", c.ID, c.Faction, c.Name, c.Type, c.Kind, c.Power, c.Copies, bindingKey(c.Effect), c.Tags)
	}
	nrs.Hash = hex.EncodeToString(h.Sum(nil))
}

func bindingKey(b *rules.Binding) string {
	if b == nil {
		return ""
	}
	return fmt.Sprintf("%s%v", b.Handler, b.Args)
}

// bind resolves an inline card's effect against the handler registry,
// filling the arguments with defaults and the given parameters as the
// ruleset loader does.
func (l *loader) bind(rs *rules.Ruleset, c *rules.Card, effVal, params, key *yaml.Node) {
	name, ok := l.str(effVal, "effect")
	if !ok {
		return
	}
	spec, ok := handlers.Lookup(name)
	if !ok {
		hint := hintFor(name, handlers.Names())
		if hint == "" {
			hint = " (`cardlab effects` lists them)"
		}
		l.errorf(effVal, "unknown handler %q%s", cards.Truncate(name), hint)
		return
	}
	if spec.Timing != c.Kind.Timing() {
		l.errorf(effVal, "handler %q is a %s effect (kind %s), but the card's kind is %s", name, spec.Timing, spec.Timing.Kind(), c.Kind)
		return
	}
	d := &cards.ParamDecoder{Refs: rules.RefsOf(rs), Report: func(n *yaml.Node, msg string) { l.errorf(n, "%s", msg) }}
	args := d.Params(spec, params, key, effVal)
	c.Effect = &rules.Binding{Handler: name, Spec: spec, Args: args, Pos: l.pos(key)}
}

// --- rows -------------------------------------------------------------------

func (l *loader) rows(n *yaml.Node) {
	items, ok := l.seq(n, "rows")
	if !ok {
		return
	}
	if len(items) == 0 || len(items) > rules.MaxRows {
		l.errorf(n, "rows: %d rows, a scenario needs 1 to %d", len(items), rules.MaxRows)
		return
	}
	rs := l.sc.Ruleset
	usedTarget := map[string]int{} // target id -> row (1-based)
	usedCopies := map[[2]int]int{} // (seat, card index) -> uses
	rows := make([]Row, 0, len(items))
	for ri, item := range items {
		m := l.object(item, fmt.Sprintf("row %d", ri+1), rowKeys)
		if m == nil {
			continue
		}
		m.require("target")
		row := Row{Pos: l.pos(item)}
		if v := m.vals["target"]; v != nil {
			if id, ok := l.str(v, "target"); ok {
				switch t, found := rs.TargetByID(id); {
				case !found:
					l.errorf(v, "unknown target %q%s", cards.Truncate(id), hintFor(id, rules.RefsOf(rs).IDs(handlers.RefTarget)))
				case usedTarget[id] > 0:
					l.errorf(v, "target %q is already used by row %d", id, usedTarget[id])
				default:
					usedTarget[id] = ri + 1
					row.Target = t.ID
				}
			}
		}
		if v := m.vals["cards"]; v != nil && !isNull(v) {
			slots, _ := l.seq(v, "cards")
			if len(slots) > engine.MaxRowLen {
				l.errorf(v, "cards: %d cards, a row holds at most %d", len(slots), engine.MaxRowLen)
			}
			for _, sn := range slots {
				if c, ok := l.slot(sn, ri+1, usedCopies); ok {
					row.Cards = append(row.Cards, c)
				}
			}
		}
		rows = append(rows, row)
	}
	l.sc.Rows = rows
}

func (l *loader) slot(n *yaml.Node, row int, used map[[2]int]int) (Card, bool) {
	m := l.object(n, fmt.Sprintf("a card of row %d", row), slotKeys)
	if m == nil {
		return Card{}, false
	}
	m.require("card")
	rs := l.sc.Ruleset
	out := Card{Pos: l.pos(n)}
	good := true
	if v := m.vals["face"]; v != nil {
		f, ok := l.enum(v, "face", "face", faces)
		out.FaceUp, good = ok && faces[f] == "up", ok
	}
	var def *rules.Card
	if v := m.vals["card"]; v != nil {
		if id, ok := l.str(v, "card"); ok {
			if c, found := rs.CardByID(id); found {
				def, out.Card = c, c.ID
			} else {
				l.errorf(v, "unknown card %q%s", cards.Truncate(id), hintFor(id, rules.RefsOf(rs).IDs(handlers.RefCard)))
			}
		}
	}
	owner := -1
	if v := m.vals["owner"]; v != nil {
		if l.noPlayers {
			l.faction(v, "owner")
		} else if seat, ok := l.playing(v, "owner"); ok {
			owner = seat
		}
		if owner < 0 {
			good = false
		}
	}
	if def == nil || !good || l.noPlayers {
		return out, false
	}
	cardFaction := rs.Factions[def.Faction].ID
	if owner >= 0 {
		if l.sc.Players[owner] != cardFaction {
			l.errorf(m.vals["owner"], "card %q is a %s card: only %s can own it", def.ID, cardFaction, cardFaction)
			return out, false
		}
	} else {
		seat, ok := l.seatOf[cardFaction]
		if !ok {
			l.errorf(m.vals["card"], "card %q belongs to %s, who is not playing (players: %s)", def.ID, cardFaction, strings.Join(l.sc.Players, ", "))
			return out, false
		}
		owner = seat
	}
	out.Owner = owner
	k := [2]int{owner, def.Index}
	used[k]++
	if used[k] > def.Copies {
		copies := "copy"
		if def.Copies > 1 {
			copies = "copies"
		}
		l.errorf(m.vals["card"], "card %q is used %d times, but the %s deck has %d %s", def.ID, used[k], cardFaction, def.Copies, copies)
		return out, false
	}
	return out, true
}

// --- expect -------------------------------------------------------------------

func (l *loader) expect(n *yaml.Node) {
	items, ok := l.seq(n, "expect")
	if !ok {
		return
	}
	seen := map[int]int{}
	for _, item := range items {
		m := l.object(item, "an expectation", expectKeys)
		if m == nil {
			continue
		}
		m.require("row")
		e := Expect{Pos: l.pos(item)}
		v := m.vals["row"]
		if v == nil {
			continue
		}
		r, ok := l.int(v, "row", 1, len(l.sc.Rows))
		if !ok {
			continue
		}
		if line, dup := seen[r]; dup {
			l.errorf(v, "row %d is expected twice (first at line %d)", r, line)
			continue
		}
		seen[r] = v.Line
		e.Row = r
		if w := m.vals["winner"]; w != nil {
			e.WinnerPos = l.pos(w)
			if id, ok := l.str(w, "winner"); ok {
				if id == "none" {
					e.Winner = id
				} else if seat, ok := l.playing(w, "winner"); ok {
					e.Winner = l.sc.Players[seat]
				}
			}
		}
		if rn := m.vals["reason"]; rn != nil {
			e.ReasonPos = l.pos(rn)
			if i, ok := l.enum(rn, "reason", "reason", Reasons); ok {
				e.Reason = Reasons[i]
			}
		}
		if pn := m.vals["power"]; pn != nil {
			pm := l.object(pn, "power", nil)
			if pm != nil {
				e.Power, e.PowerPos = map[string]int{}, map[string]cards.Pos{}
				for i := 0; i+1 < len(pn.Content); i += 2 {
					k, val := pn.Content[i], pn.Content[i+1]
					if pm.keys[k.Value] != k {
						continue
					}
					seat, ok := l.playing(k, "power")
					if !ok {
						continue
					}
					if p, ok := l.int(val, "power of "+k.Value, 0, 1<<20); ok {
						f := l.sc.Players[seat]
						e.Power[f], e.PowerPos[f] = p, l.pos(val)
					}
				}
			}
		}
		if m.vals["winner"] == nil && m.vals["reason"] == nil && m.vals["power"] == nil {
			l.errorf(item, "expectation for row %d checks nothing: give winner, reason or power", r)
		}
		l.sc.Expect = append(l.sc.Expect, e)
	}
}
