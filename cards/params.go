package cards

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/effects"
)

// Refs is what effect parameters may name in one ruleset: ids by reference
// kind (Param.RefKind: Alpha Tactics' "card" and "target"), and the tags its
// cards carry. A set marked unknown (a file holding such ids could not be
// read) makes references into it unchecked, since they most likely are fine
// and the unreadable file has been reported already.
type Refs struct {
	Kinds     map[string]*RefSet // by reference kind
	Tags      map[string]bool
	TagList   []string
	TagsKnown bool // false when a file holding tagged cards could not be read
}

// RefSet is the ids of one reference kind.
type RefSet struct {
	At    map[string]int // id → index
	IDs   []string       // in order of definition
	Known bool
}

// IDs lists the ids of a reference kind (nil for a kind the ruleset lacks).
func (r *Refs) IDs(kind string) []string {
	if set := r.Kinds[kind]; set != nil {
		return set.IDs
	}
	return nil
}

// ParamDecoder decodes an effect binding's parameters against its handler's
// declaration. The ruleset loader and the scenario loader both use it, so a
// parameter is accepted, defaulted and reported alike wherever it is written.
type ParamDecoder struct {
	Refs *Refs
	// Report records a problem found at node n.
	Report func(n *yaml.Node, msg string)
	// Budget bounds the suggestion work (see suggestWithin); nil is unbounded.
	Budget *int
}

func (d *ParamDecoder) reportf(n *yaml.Node, format string, args ...any) {
	d.Report(n, fmt.Sprintf(format, args...))
}

func (d *ParamDecoder) budget() *int {
	if d.Budget == nil {
		b := math.MaxInt
		d.Budget = &b
	}
	return d.Budget
}

func (d *ParamDecoder) suggest(word string, candidates []string) string {
	return suggestWithin(word, candidates, d.budget())
}

func (d *ParamDecoder) didYouMean(word string, candidates []string) string {
	return didYouMeanWithin(word, candidates, d.budget())
}

// Params decodes params (the "params" mapping, or nil) for spec. key is the
// binding's "effect" key and value its handler name, for messages about
// missing parameters and reference defaults.
func (d *ParamDecoder) Params(spec *effects.Spec, params, key, value *yaml.Node) []effects.Value {
	args := make([]effects.Value, len(spec.Params))
	given := make([]bool, len(spec.Params))
	for i, par := range spec.Params {
		args[i] = d.Default(spec, par, value)
	}
	mapping := params != nil && !IsEmptyNode(params)
	if mapping && params.Kind != yaml.MappingNode {
		d.reportf(params, "params: expected a mapping of keys, got %s", Describe(params))
		mapping = false
	}
	names := spec.ParamNames()
	suggested := map[string]bool{} // misspelt parameters are not also reported missing
	seen := map[string]*yaml.Node{}
	for i := 0; mapping && i+1 < len(params.Content); i += 2 {
		k, v := params.Content[i], params.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!null" {
			d.reportf(k, "expected a key name, got %s", Describe(k))
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			d.reportf(k, "duplicate key %q (first given at line %d)", Truncate(k.Value), prev.Line)
			continue
		}
		seen[k.Value] = k
		par, idx, ok := spec.Param(k.Value)
		if !ok {
			switch s := d.suggest(k.Value, names); {
			case s != "":
				suggested[s] = true
				d.reportf(k, "unknown parameter %q for handler %q, did you mean %q?", Truncate(k.Value), spec.Name, s)
			case len(names) == 0:
				d.reportf(k, "unknown parameter %q: handler %q takes no parameters", Truncate(k.Value), spec.Name)
			default:
				d.reportf(k, "unknown parameter %q for handler %q (parameters: %s)", Truncate(k.Value), spec.Name, strings.Join(names, ", "))
			}
			continue
		}
		given[idx] = true
		args[idx] = d.Value(par, v)
	}
	for i, par := range spec.Params {
		if par.Required && !given[i] && !suggested[par.Name] {
			at := key
			if mapping {
				at = params
			}
			d.reportf(at, "handler %q requires parameter %q (%s)", spec.Name, par.Name, par.Doc)
		}
	}
	return args
}

// Default is a parameter's value when omitted. A reference default names its
// card or target by id (Str); its index depends on the ruleset, so it is
// resolved here. A reference without a default is Int -1: no card or target.
func (d *ParamDecoder) Default(spec *effects.Spec, par effects.Param, at *yaml.Node) effects.Value {
	if par.Type != effects.Ref {
		return par.Default
	}
	if par.Required || par.Default.Str == "" {
		return effects.Value{Int: -1}
	}
	set := d.Refs.set(par.RefKind)
	i, ok := set.At[par.Default.Str]
	if !ok {
		if set.Known {
			d.reportf(at, "handler %q: parameter %s defaults to %s %q, which this ruleset lacks; set %s explicitly", spec.Name, par.Name, par.RefKind, par.Default.Str, par.Name)
		}
		return effects.Value{Int: -1, Str: par.Default.Str}
	}
	return effects.Value{Int: i, Str: par.Default.Str}
}

// set is the ids of kind; a kind the ruleset lacks (a registry declaring a
// kind its loader does not fill) is an empty, known set, so every reference
// into it is reported.
func (r *Refs) set(kind string) *RefSet {
	if set := r.Kinds[kind]; set != nil {
		return set
	}
	return &RefSet{Known: true}
}

// Value decodes one parameter value.
func (d *ParamDecoder) Value(par effects.Param, v *yaml.Node) effects.Value {
	report := func(n *yaml.Node, msg string) { d.Report(n, msg) }
	switch par.Type {
	case effects.Int:
		n, _ := IntValue(v, par.Name, par.Min, par.Max, report)
		return effects.Value{Int: n}
	case effects.Bool:
		var b bool
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" || v.Decode(&b) != nil {
			d.reportf(v, "%s: expected true or false, got %s", par.Name, Describe(v))
			return par.Default
		}
		if b {
			return effects.Value{Int: 1}
		}
		return effects.Value{Int: 0}
	case effects.Enum:
		if v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" {
			d.reportf(v, "%s: expected one of %s, got %s", par.Name, quoteList(par.Values), Describe(v))
			return par.Default
		}
		for i, s := range par.Values {
			if v.Value == s {
				return effects.Value{Int: i, Str: s}
			}
		}
		hint := d.didYouMean(v.Value, par.Values)
		if hint == "" && len(par.Values) <= 8 {
			hint = " (expected one of " + quoteList(par.Values) + ")"
		}
		d.reportf(v, "unknown value %q for parameter %s%s", Truncate(v.Value), par.Name, hint)
		return par.Default
	case effects.Tag:
		s, ok := StringValue(v, par.Name, false, report)
		if !ok {
			return effects.Value{}
		}
		if !d.Refs.Tags[s] && d.Refs.TagsKnown {
			d.reportf(v, "tag %q is not carried by any card%s", Truncate(s), d.didYouMean(s, d.Refs.TagList))
		}
		return effects.Value{Str: s}
	case effects.Ref:
		s, ok := StringValue(v, par.Name, false, report)
		if !ok {
			return effects.Value{Int: -1}
		}
		set := d.Refs.set(par.RefKind)
		i, found := set.At[s]
		if !found {
			if set.Known {
				d.reportf(v, "unknown %s %q%s", par.RefKind, Truncate(s), d.didYouMean(s, set.IDs))
			}
			return effects.Value{Int: -1, Str: s}
		}
		return effects.Value{Int: i, Str: s}
	}
	d.reportf(v, "%s: parameter type %s is not supported by the loader", par.Name, par.Type)
	return par.Default
}

// StringValue reads a string scalar. Strings must be YAML strings: an unquoted
// 1.2 is a number, and accepting it would let "1.10" silently become "1.1".
func StringValue(n *yaml.Node, key string, allowEmpty bool, report func(*yaml.Node, string)) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		hint := ""
		if n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null" {
			hint = fmt.Sprintf(" (quote it: \"%s\")", Truncate(n.Value))
		}
		report(n, fmt.Sprintf("%s: expected a string, got %s%s", key, Describe(n), hint))
		return "", false
	}
	if !allowEmpty && strings.TrimSpace(n.Value) == "" {
		report(n, fmt.Sprintf("%s: must not be empty", key))
		return "", false
	}
	return n.Value, true
}

// IntValue reads an integer scalar in [lo, hi].
func IntValue(n *yaml.Node, key string, lo, hi int, report func(*yaml.Node, string)) (int, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		report(n, fmt.Sprintf("%s: expected an integer, got %s", key, Describe(n)))
		return 0, false
	}
	var v int64
	if err := n.Decode(&v); err != nil || v < int64(lo) || v > int64(hi) {
		report(n, fmt.Sprintf("%s: %s is out of range (%d..%d)", key, Truncate(n.Value), lo, hi))
		return 0, false
	}
	return int(v), true
}

// Describe says what a node is, for "expected X, got Y" messages.
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			if n.Value == "" {
				return "nothing"
			}
			return n.Value
		case "!!str":
			return strconv.Quote(Truncate(n.Value))
		}
		return Truncate(n.Value)
	}
	return "an unknown node"
}

// Truncate shortens user text quoted in messages, so a pasted paragraph or a
// huge garbage value does not swamp the error list.
func Truncate(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + "…"
}

// PeekID returns the string value of key "id" in mapping n, to name the
// object in messages before it is fully read.
func PeekID(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k, v := n.Content[i], n.Content[i+1]; k.Value == "id" && v.Kind == yaml.ScalarNode && v.Value != "" {
			return Truncate(v.Value)
		}
	}
	return ""
}

// Named is `kind "id"` for messages, or kind alone without an id.
func Named(kind, id string) string {
	if id == "" {
		return kind
	}
	return kind + " " + strconv.Quote(id)
}
