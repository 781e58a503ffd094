package eclipse

import (
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
)

func knobNamed(t *testing.T, rs *Ruleset, name string) game.Knob {
	t.Helper()
	for _, k := range rs.Knobs() {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("no knob %s", name)
	return game.Knob{}
}

// A knob's ruleset is re-derived and re-validated: a part value flows into
// every blueprint printing the part, and a value the loader would refuse
// is refused with the validity rule it breaks.
func TestKnobs(t *testing.T) {
	rs := Default()
	src := rs.partIndex("nuclear_source")
	k := knobNamed(t, rs, "energy")
	if _, err := k.With(rs, src, 1); err == nil || !strings.Contains(err.Error(), "validity rule 1") {
		t.Fatalf("a Nuclear Source of 1 energy: %v", err)
	}
	hull := rs.partIndex("hull")
	x, err := knobNamed(t, rs, "hull").With(rs, hull, 2)
	if err != nil {
		t.Fatal(err)
	}
	xr := x.(*Ruleset)
	for i, b := range xr.Blueprints {
		if want := rs.Blueprints[i].Stats.Hull; b.ID == "dreadnought" && b.Stats.Hull != want+2 {
			t.Fatalf("dreadnought hull %d with Hull worth 2, want %d", b.Stats.Hull, want+2)
		}
	}
	if rs.Blueprints[3].Stats.Hull != 2 {
		t.Fatal("the knob changed the ruleset it read")
	}
	// A +1 initiative Interceptor: the variant the brief's §3.3 values.
	y, err := knobNamed(t, rs, "interceptor.init").With(rs, 0, 3)
	if err != nil || y.(*Ruleset).Blueprints[0].Stats.Init != 4 {
		t.Fatalf("interceptor.init 3: %v", err)
	}
	// Fleet counts on the sides.
	n, err := knobNamed(t, rs, "cruiser").With(rs, 1, 2) // fleet 3c
	if err != nil || n.(*Ruleset).shipCount(1, rs.blueprintIndex("cruiser")) != 2 || rs.shipCount(1, rs.blueprintIndex("cruiser")) != 3 {
		t.Fatalf("3c with 2 cruisers: %v", err)
	}
	if _, err := knobNamed(t, rs, "cruiser").With(rs, 1, 0); err == nil {
		t.Fatal("a fleet of no ships accepted")
	}
}
