// Package effects is the registry of named effect handlers that player cards
// and target cards bind to from YAML. A handler declares its name, when it runs,
// a one-line doc and typed parameters; the loader in package cards validates
// bindings against these declarations, and the rules engine (package game)
// runs the behaviour through the Table interface it implements, so this
// package never imports the engine.
package effects

import (
	"fmt"
	"sort"
	"sync"
)

// Timing says when a handler runs. It corresponds to the effect kinds printed
// on player cards (O, P, X, S) plus target-card combination bonuses.
type Timing uint8

const (
	OneTime     Timing = iota + 1 // O: once, right after the card is revealed
	Permanent                     // P: throughout the round while the card is active
	Special                       // X: changes how the card is played
	Scoring                       // S: applied in the Scoring Phase
	TargetBonus                   // end-of-game victory points on a target card
)

var timingNames = [...]string{"", "one-time", "permanent", "special", "scoring", "target-bonus"}

func (t Timing) String() string {
	if int(t) < len(timingNames) && t != 0 {
		return timingNames[t]
	}
	return fmt.Sprintf("timing(%d)", t)
}

// Kind is the effect-kind letter printed on player cards that matches this
// timing ("" for target bonuses).
func (t Timing) Kind() string {
	switch t {
	case OneTime:
		return "O"
	case Permanent:
		return "P"
	case Special:
		return "X"
	case Scoring:
		return "S"
	}
	return ""
}

// ParamType is the type of a handler parameter as written in YAML.
type ParamType uint8

const (
	Int       ParamType = iota + 1 // an integer within [Min, Max]
	Bool                           // true or false
	Enum                           // one of Values
	Tag                            // a card tag (a free identifier that must be carried by some card)
	CardRef                        // the id of a player card in the ruleset
	TargetRef                      // the id of a target card in the ruleset
)

var paramTypeNames = [...]string{"", "int", "bool", "enum", "tag", "card", "target"}

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
	Required bool
	Min, Max int      // inclusive range for Int
	Values   []string // allowed values for Enum
	Default  Value    // used when the parameter is omitted and not Required
	Doc      string
}

// Value is a decoded parameter value. Int holds integers, booleans (0/1),
// the index into Values for enums, and the resolved index of a card or
// target reference; Str holds the text as written (enum value, tag, id).
type Value struct {
	Int int
	Str string
}

// Bool reports a Bool parameter's value.
func (v Value) Bool() bool { return v.Int != 0 }

// Spec declares a handler.
type Spec struct {
	Name   string
	Timing Timing
	Doc    string
	Params []Param
	// Behavior is what the engine calls. It is one of the behaviour
	// interfaces in this package (OneTimeBehavior, …) chosen by Timing.
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

var (
	mu       sync.RWMutex
	registry = map[string]*Spec{}
)

// Register adds a handler. Like database/sql.Register it panics on an empty
// name, an unknown timing or a duplicate: those are programming errors.
func Register(s Spec) {
	if s.Name == "" {
		panic("effects: Register with empty name")
	}
	if s.Timing < OneTime || s.Timing > TargetBonus {
		panic("effects: Register " + s.Name + " with unknown timing")
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
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[s.Name]; dup {
		panic("effects: Register called twice for " + s.Name)
	}
	registry[s.Name] = &s
}

// Lookup returns the handler registered under name.
func Lookup(name string) (*Spec, bool) {
	mu.RLock()
	defer mu.RUnlock()
	s, ok := registry[name]
	return s, ok
}

// Names returns the registered handler names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// All returns every registered spec sorted by name.
func All() []*Spec {
	names := Names()
	out := make([]*Spec, len(names))
	for i, n := range names {
		out[i], _ = Lookup(n)
	}
	return out
}
