package analysis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/game"
)

// RulesetInfoOf is what a result says of the ruleset g: its name, version
// and hash, and its game's id unless it is the default game.
func RulesetInfoOf(g game.Ruleset) RulesetInfo {
	info := g.Info()
	ri := RulesetInfo{Name: info.Name, Version: info.Version, Hash: info.Hash}
	if id := g.Game(); id != game.DefaultID {
		ri.Game = id
	}
	return ri
}

// GameChanges lists what differs between two rulesets of one game: the
// game's own list where the variant is a game.Differ (Alpha Tactics);
// else name, version and seats, every knob's value (rules knobs, then card
// knobs by card id, side knobs by side id), cards added or removed, then
// every top-level key of a ruleset file whose value differs and that no
// rules knob of its name already showed, with its line in the variant's
// file.
func GameChanges(a, b game.Ruleset) []Change {
	if d, ok := b.(game.Differ); ok {
		return d.Changes(a)
	}
	out := []Change{}
	ia, ib := a.Info(), b.Info()
	add := func(kind, id, field, va, vb, pos string) {
		if va != vb {
			out = append(out, Change{Kind: kind, ID: id, Change: "changed", Field: field, Base: va, Variant: vb, Pos: pos})
		}
	}
	add("rules", "", "name", ia.Name, ib.Name, "")
	add("rules", "", "version", ia.Version, ib.Version, "")
	la, ha := a.Seats()
	lb, hb := b.Seats()
	add("rules", "", "players.min", strconv.Itoa(la), strconv.Itoa(lb), "")
	add("rules", "", "players.max", strconv.Itoa(ha), strconv.Itoa(hb), "")
	knobsA, knobsB := game.KnobsOf(a), game.KnobsOf(b)
	shown := map[string]bool{}
	for i := range knobsB {
		kb := &knobsB[i]
		j := slices.IndexFunc(knobsA, func(k game.Knob) bool { return k.Name == kb.Name && k.Scope == kb.Scope })
		if j < 0 || kb.Scope != game.OnRules {
			continue
		}
		shown[kb.Name] = true
		add("rules", "", kb.Name, strconv.Itoa(knobsA[j].Get(a, 0)), strconv.Itoa(kb.Get(b, 0)), "")
	}
	cardsA, cardsB := a.Cards(), b.Cards()
	for _, cb := range cardsB {
		ca := cardByID(cardsA, cb.ID)
		if ca == nil {
			out = append(out, Change{Kind: "card", ID: cb.ID, Change: "added", Variant: cb.Name, Pos: posString(cb.Pos)})
			continue
		}
		for i := range knobsB {
			kb := &knobsB[i]
			j := slices.IndexFunc(knobsA, func(k game.Knob) bool { return k.Name == kb.Name && k.Scope == kb.Scope })
			if j < 0 || kb.Scope != game.OnCard || !game.KnobApplies(kb, b, cb.Index) || !game.KnobApplies(&knobsA[j], a, ca.Index) {
				continue
			}
			add("card", cb.ID, kb.Name, strconv.Itoa(knobsA[j].Get(a, ca.Index)), strconv.Itoa(kb.Get(b, cb.Index)), posString(cb.Pos))
		}
	}
	for _, ca := range cardsA {
		if cardByID(cardsB, ca.ID) == nil {
			out = append(out, Change{Kind: "card", ID: ca.ID, Change: "removed", Base: ca.Name, Pos: posString(ca.Pos)})
		}
	}
	sidesA := a.Sides()
	for si, sb := range b.Sides() {
		sa := slices.IndexFunc(sidesA, func(s game.Side) bool { return s.ID == sb.ID })
		if sa < 0 {
			continue
		}
		for i := range knobsB {
			kb := &knobsB[i]
			j := slices.IndexFunc(knobsA, func(k game.Knob) bool { return k.Name == kb.Name && k.Scope == kb.Scope })
			if j < 0 || kb.Scope != game.OnSide || !game.KnobApplies(kb, b, si) || !game.KnobApplies(&knobsA[j], a, sa) {
				continue
			}
			add("side", sb.ID, kb.Name, strconv.Itoa(knobsA[j].Get(a, sa)), strconv.Itoa(kb.Get(b, si)), "")
		}
	}
	// The files' top-level keys: what no knob covers (Goofspiel's ties). A
	// key holding a card whose knob change is listed already (the prize
	// list) is not listed again.
	cardLines := map[string][]int{}
	for _, c := range out {
		if file, l, ok := strings.Cut(c.Pos, ":"); ok && c.Kind == "card" {
			if n, err := strconv.Atoi(l); err == nil {
				cardLines[file] = append(cardLines[file], n)
			}
		}
	}
	var files []string
	for f := range ib.Files {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		ka, kb := topLevel(ia.Files[f]), topLevel(ib.Files[f])
		for i, k := range kb.keys {
			if shown[k] || k == "name" || k == "version" || k == "players" {
				continue
			}
			from, to := kb.vals[k].line, int(^uint(0)>>1)
			if i+1 < len(kb.keys) {
				to = kb.vals[kb.keys[i+1]].keyLine - 1
			}
			if slices.ContainsFunc(cardLines[f], func(l int) bool { return l >= from && l <= to }) {
				continue
			}
			va, vb := ka.vals[k], kb.vals[k]
			// A mapping whose only differences are knobs listed already
			// (Spacetrace's draw: {per_turn: …}) is not a second change.
			if va.node != nil && vb.node != nil && flowTextExcept(va.node, k, shown) == flowTextExcept(vb.node, k, shown) {
				continue
			}
			add("rules", "", k, va.text, vb.text, fmt.Sprintf("%s:%d", f, vb.line))
		}
	}
	for i := range out {
		if out[i].Kind == "rules" && out[i].Pos == "" {
			// The knob's own key where its name is a path in rules.yaml
			// (draw.per_turn: the per_turn line), else its top-level key.
			l := keyPathLine(ib.Files["rules.yaml"], strings.Split(out[i].Field, "."))
			if l == 0 {
				l = findKeyLine(ib.Files["rules.yaml"], 1, strings.SplitN(out[i].Field, ".", 2)[0], false)
			}
			if l > 0 {
				out[i].Pos = fmt.Sprintf("rules.yaml:%d", l)
			}
		}
	}
	return out
}

func cardByID(cs []game.Card, id string) *game.Card {
	for i := range cs {
		if cs[i].ID == id {
			return &cs[i]
		}
	}
	return nil
}

type yamlVal struct {
	text          string
	line, keyLine int
	node          *yaml.Node
}

type yamlKeys struct {
	keys []string
	vals map[string]yamlVal
}

// topLevel reads a YAML document's top-level keys and their values as
// compact one-line text ("" for a file that is not a mapping).
func topLevel(data []byte) yamlKeys {
	out := yamlKeys{vals: map[string]yamlVal{}}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return out
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		out.keys = append(out.keys, k.Value)
		out.vals[k.Value] = yamlVal{text: flowText(v), line: v.Line, keyLine: k.Line, node: v}
	}
	return out
}

// flowText writes a YAML value on one line: a scalar as it is, a list as
// [a, b], a mapping as {k: v}.
func flowText(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		var parts []string
		for _, c := range n.Content {
			parts = append(parts, flowText(c))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case yaml.MappingNode:
		var parts []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			parts = append(parts, n.Content[i].Value+": "+flowText(n.Content[i+1]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case yaml.AliasNode:
		if n.Alias != nil {
			return flowText(n.Alias)
		}
	}
	return n.Value
}

// flowTextExcept is flowText of n, the value at the dotted path, without
// the mapping entries whose paths are in skip.
func flowTextExcept(n *yaml.Node, path string, skip map[string]bool) string {
	if n.Kind != yaml.MappingNode {
		return flowText(n)
	}
	var parts []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		p := path + "." + n.Content[i].Value
		if skip[p] {
			continue
		}
		parts = append(parts, n.Content[i].Value+": "+flowTextExcept(n.Content[i+1], p, skip))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// keyPathLine is the line of the key at path (mapping keys from the top)
// in the YAML document data, 0 where there is none.
func keyPathLine(data []byte, path []string) int {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return 0
	}
	n, line := doc.Content[0], 0
	for _, key := range path {
		if n.Kind != yaml.MappingNode {
			return 0
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				n, line, found = n.Content[i+1], n.Content[i].Line, true
				break
			}
		}
		if !found {
			return 0
		}
	}
	return line
}
