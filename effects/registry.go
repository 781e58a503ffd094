// Package effects declares effect handlers: the named, parameterised
// behaviours a game's cards bind to from YAML. A handler declares its name,
// when it runs (a Timing its game declares), a one-line doc and typed
// parameters; a ruleset loader validates bindings against these declarations
// (see the Param types), and the game's engine runs the behaviour. Each game
// keeps its handlers in its own Registry, so two games may use one name for
// different things and neither sees the other's timings.
//
// Alpha Tactics' registry, its handlers and the interfaces they act through
// (Table) are games/alphatactics/handlers.
package effects

import (
	"fmt"
	"slices"
	"sort"
	"sync"
)

// Timing says when a handler runs, in its game's terms: Alpha Tactics has
// one-time, permanent, special and scoring effects (the kind letters O, P,
// X, S printed on its cards) and target-card bonuses. A game declares its
// timings with NewTiming and passes them to NewRegistry; a timing is
// identified by its pointer, so timings of different games never compare
// equal even when they share a name.
type Timing struct {
	name, kind string
}

// NewTiming declares a timing. name is how messages and `cardlab effects`
// call it ("one-time"); kind is the letter a card prints for it ("O"), or ""
// when cards print none (a target bonus).
func NewTiming(name, kind string) *Timing {
	if name == "" {
		panic("effects: NewTiming with empty name")
	}
	return &Timing{name: name, kind: kind}
}

func (t *Timing) String() string {
	if t == nil {
		return "no timing"
	}
	return t.name
}

// Kind is the letter printed on a card for this timing ("" for none).
func (t *Timing) Kind() string {
	if t == nil {
		return ""
	}
	return t.kind
}

// ParamType is the type of a handler parameter as written in YAML.
type ParamType uint8

const (
	Int  ParamType = iota + 1 // an integer within [Min, Max]
	Bool                      // true or false
	Enum                      // one of Values
	Tag                       // a card tag (a free identifier that must be carried by some card)
	Ref                       // the id of something the ruleset defines, of the kind Param.RefKind names
)

var paramTypeNames = [...]string{"", "int", "bool", "enum", "tag", "ref"}

func (t ParamType) String() string {
	if int(t) < len(paramTypeNames) && t != 0 {
		return paramTypeNames[t]
	}
	return fmt.Sprintf("paramtype(%d)", t)
}

// Param declares one parameter of a handler.
type Param struct {
	Name     string
	Type     ParamType
	RefKind  string // for Ref: what the id names ("card", "target"), one of the registry's reference kinds
	Required bool
	Min, Max int      // inclusive range for Int
	Values   []string // allowed values for Enum
	Default  Value    // used when the parameter is omitted and not Required
	Doc      string
}

// TypeName is the parameter's type as documents and JSON name it: the
// reference kind for a Ref ("card"), else the type ("int").
func (p Param) TypeName() string {
	if p.Type == Ref {
		return p.RefKind
	}
	return p.Type.String()
}

// Value is a decoded parameter value. Int holds integers, booleans (0/1),
// the index into Values for enums, and the resolved index of a reference
// (-1 when it names nothing); Str holds the text as written (enum value,
// tag, id).
type Value struct {
	Int int
	Str string
}

// Bool reports a Bool parameter's value.
func (v Value) Bool() bool { return v.Int != 0 }

// Spec declares a handler.
type Spec struct {
	Name   string
	Timing *Timing
	Doc    string
	Params []Param
	// Behavior is what the engine calls. Each game asserts its own
	// behaviour interfaces on it, chosen by Timing.
	Behavior any
}

// Param returns the declaration of the named parameter and its index.
func (s *Spec) Param(name string) (Param, int, bool) {
	for i, p := range s.Params {
		if p.Name == name {
			return p, i, true
		}
	}
	return Param{}, -1, false
}

// ParamNames lists the declared parameter names in declaration order.
func (s *Spec) ParamNames() []string {
	out := make([]string, len(s.Params))
	for i, p := range s.Params {
		out[i] = p.Name
	}
	return out
}

// Registry holds one game's handlers, with the timings and reference kinds
// that game declares. It is safe for concurrent use; games fill theirs in
// init, tests may add handlers later.
type Registry struct {
	game     string
	timings  []*Timing
	refKinds []string

	mu    sync.RWMutex
	specs map[string]*Spec
}

// NewRegistry makes an empty registry for game (its id, "alphatactics") that
// accepts handlers of the given timings, whose reference parameters may name
// the given kinds. Like Register it panics on a programming error: no
// timing, a duplicate timing name or kind.
func NewRegistry(game string, timings []*Timing, refKinds []string) *Registry {
	if game == "" || len(timings) == 0 {
		panic("effects: NewRegistry needs a game and at least one timing")
	}
	seen := map[string]bool{}
	for _, t := range timings {
		if t == nil || seen[t.name] {
			panic("effects: NewRegistry " + game + ": nil or duplicate timing")
		}
		seen[t.name] = true
	}
	seen = map[string]bool{}
	for _, k := range refKinds {
		if k == "" || seen[k] {
			panic("effects: NewRegistry " + game + ": empty or duplicate reference kind")
		}
		seen[k] = true
	}
	return &Registry{game: game, timings: slices.Clone(timings), refKinds: slices.Clone(refKinds), specs: map[string]*Spec{}}
}

// Game is the id of the game the registry belongs to.
func (r *Registry) Game() string { return r.game }

// Timings are the game's timings in the order it declared them (the order
// `cardlab effects` groups handlers in).
func (r *Registry) Timings() []*Timing { return slices.Clone(r.timings) }

// RefKinds are what the game's reference parameters may name.
func (r *Registry) RefKinds() []string { return slices.Clone(r.refKinds) }

// Register adds a handler. Like database/sql.Register it panics on an empty
// name, a timing the registry does not declare, a malformed parameter or a
// duplicate: those are programming errors.
func (r *Registry) Register(s Spec) {
	if s.Name == "" {
		panic("effects: Register with empty name")
	}
	if !slices.Contains(r.timings, s.Timing) {
		panic("effects: Register " + s.Name + " with a timing " + r.game + " does not declare")
	}
	seen := map[string]bool{}
	for _, p := range s.Params {
		if p.Name == "" || seen[p.Name] {
			panic("effects: Register " + s.Name + ": empty or duplicate parameter name")
		}
		seen[p.Name] = true
		if p.Type == Enum && len(p.Values) == 0 {
			panic("effects: Register " + s.Name + ": enum parameter " + p.Name + " without values")
		}
		if p.Type == Ref && !slices.Contains(r.refKinds, p.RefKind) {
			panic("effects: Register " + s.Name + ": parameter " + p.Name + " refers to " + fmt.Sprintf("%q", p.RefKind) + ", which " + r.game + " does not declare")
		}
		if p.Type != Ref && p.RefKind != "" {
			panic("effects: Register " + s.Name + ": parameter " + p.Name + " has a reference kind but is not a Ref")
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.specs[s.Name]; dup {
		panic("effects: Register called twice for " + s.Name)
	}
	r.specs[s.Name] = &s
}

// Lookup returns the handler registered under name.
func (r *Registry) Lookup(name string) (*Spec, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.specs[name]
	return s, ok
}

// Names returns the registered handler names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.specs))
	for n := range r.specs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// All returns every registered spec sorted by name.
func (r *Registry) All() []*Spec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Spec, 0, len(r.specs))
	for _, s := range r.specs {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
