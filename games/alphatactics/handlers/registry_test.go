package handlers

import (
	"sort"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/effects"
)

func TestNamesSortedAndLookup(t *testing.T) {
	names := Names()
	if !sort.StringsAreSorted(names) || len(names) != len(declarations) {
		t.Fatalf("Names() = %v", names)
	}
	for _, n := range names {
		if s, ok := Lookup(n); !ok || s.Name != n {
			t.Fatalf("Lookup(%q) = %v, %v", n, s, ok)
		}
	}
	if _, ok := Lookup("no-such-handler"); ok {
		t.Fatal("Lookup of an unknown name succeeded")
	}
}

// Every handler's behaviour implements the interface its timing needs, and
// every default lies within its declared range or enum.
func TestBehaviourMatchesTiming(t *testing.T) {
	for _, s := range All() {
		var ok bool
		switch s.Timing {
		case OneTime:
			_, ok = s.Behavior.(OneTimeBehavior)
		case Permanent:
			_, ok = s.Behavior.(PermanentBehavior)
		case Special:
			_, ok = s.Behavior.(SpecialBehavior)
		case Scoring:
			_, ok = s.Behavior.(ScoringBehavior)
		case TargetBonus:
			_, ok = s.Behavior.(BonusBehavior)
		}
		if !ok {
			t.Errorf("%s (%v): behaviour %T does not fit its timing", s.Name, s.Timing, s.Behavior)
		}
		if s.Doc == "" {
			t.Errorf("%s has no doc", s.Name)
		}
		for _, p := range s.Params {
			switch p.Type {
			case effects.Int:
				if !p.Required && (p.Default.Int < p.Min || p.Default.Int > p.Max) {
					t.Errorf("%s.%s default %d outside [%d, %d]", s.Name, p.Name, p.Default.Int, p.Min, p.Max)
				}
			case effects.Enum:
				if p.Default.Int < 0 || p.Default.Int >= len(p.Values) || (!p.Required && p.Values[p.Default.Int] != p.Default.Str) {
					t.Errorf("%s.%s default %+v not among %v", s.Name, p.Name, p.Default, p.Values)
				}
			}
		}
	}
}

func TestRegisterRejectsProgrammingErrors(t *testing.T) {
	for name, spec := range map[string]effects.Spec{
		"empty name":      {Timing: OneTime},
		"no timing":       {Name: "x-no-timing"},
		"duplicate":       {Name: "admiral", Timing: Scoring},
		"dup param":       {Name: "x-dup-param", Timing: OneTime, Params: []effects.Param{{Name: "a", Type: effects.Int}, {Name: "a", Type: effects.Int}}},
		"enum w/o values": {Name: "x-enum", Timing: OneTime, Params: []effects.Param{{Name: "e", Type: effects.Enum}}},
		"foreign timing":  {Name: "x-foreign", Timing: effects.NewTiming("one-time", "O")},
		"undeclared ref":  {Name: "x-ref", Timing: OneTime, Params: []effects.Param{{Name: "r", Type: effects.Ref, RefKind: "hex"}}},
		"ref w/o kind":    {Name: "x-ref-none", Timing: OneTime, Params: []effects.Param{{Name: "r", Type: effects.Ref}}},
		"kind on non-ref": {Name: "x-int-kind", Timing: OneTime, Params: []effects.Param{{Name: "n", Type: effects.Int, RefKind: RefCard}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			Register(spec)
		}()
	}
}

// A filter parameter's "any" is index 0, so Int-1 indexes the vocabulary.
func TestFilterVocabulary(t *testing.T) {
	if cardTypeFilter[0] != "any" || cardTypeFilter[1] != CardTypes[0] || targetTypeFilter[len(targetTypeFilter)-1] != TargetTypes[len(TargetTypes)-1] {
		t.Fatal("filter vocabularies out of step")
	}
	if !matchType(0, 3) || !matchType(2, 1) || matchType(2, 0) {
		t.Fatal("matchType")
	}
	if !matchOwner(WhoOwn, 1, 1) || matchOwner(WhoOwn, 1, 0) || !matchOwner(WhoOpponent, 1, 0) || !matchOwner(WhoAny, 0, 1) {
		t.Fatal("matchOwner")
	}
}

// Params holds a fixed number of decoded arguments: every handler must fit.
func TestParamsHoldEveryHandlersArguments(t *testing.T) {
	var p Params
	for _, s := range All() {
		if len(s.Params) > len(p.Int) {
			t.Errorf("%s has %d parameters; effects.Params holds %d", s.Name, len(s.Params), len(p.Int))
		}
	}
}

// A second game's registry is separate from Alpha Tactics': it takes a
// handler name Alpha Tactics uses, accepts only its own timings and
// reference kinds, and neither registry sees the other's handlers.
func TestRegistriesAreSeparate(t *testing.T) {
	bid := effects.NewTiming("on-bid", "B")
	r := effects.NewRegistry("toy", []*effects.Timing{bid}, []string{"prize"})
	r.Register(effects.Spec{Name: "admiral", Timing: bid, Doc: "a toy", Params: []effects.Param{{Name: "p", Type: effects.Ref, RefKind: "prize", Required: true}}})
	if got := r.Names(); len(got) != 1 || got[0] != "admiral" {
		t.Fatalf("toy names %v", got)
	}
	if s, _ := r.Lookup("admiral"); s.Timing != bid || s.Params[0].TypeName() != "prize" {
		t.Fatalf("toy admiral %+v", s)
	}
	if s, _ := Lookup("admiral"); s.Timing != Scoring {
		t.Fatalf("Alpha Tactics' admiral changed: %+v", s)
	}
	if _, ok := r.Lookup("bomb"); ok {
		t.Fatal("the toy registry sees Alpha Tactics' bomb")
	}
	if r.Game() != "toy" || len(r.Timings()) != 1 || r.RefKinds()[0] != "prize" {
		t.Fatalf("toy registry %q %v %v", r.Game(), r.Timings(), r.RefKinds())
	}
	for name, f := range map[string]func(){
		"AT timing in toy": func() { r.Register(effects.Spec{Name: "x", Timing: OneTime}) },
		"no timings":       func() { effects.NewRegistry("empty", nil, nil) },
		"dup timing":       func() { effects.NewRegistry("dup", []*effects.Timing{bid, effects.NewTiming("on-bid", "")}, nil) },
		"dup ref kind":     func() { effects.NewRegistry("dup", []*effects.Timing{bid}, []string{"a", "a"}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// Alpha Tactics declares its timings in the order `cardlab effects` groups
// them, with the kind letters its cards print.
func TestAlphaTacticsTimings(t *testing.T) {
	var got []string
	for _, tm := range AlphaTactics.Timings() {
		got = append(got, tm.String()+"/"+tm.Kind())
	}
	if want := "one-time/O permanent/P special/X scoring/S target-bonus/"; strings.Join(got, " ") != want {
		t.Fatalf("timings %q, want %q", strings.Join(got, " "), want)
	}
}
