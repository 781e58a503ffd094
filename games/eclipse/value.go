package eclipse

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/cardlab/cardlab/game"
)

// Part values in hulls (design brief §3.2): a ship of one blueprint gets a
// part (or a stat unit), and its win share against a named field — the
// mean of attacking and defending — is matched against the same ship with
// h extra hulls, interpolating linearly between whole hulls. "Plays like
// 0.9 hulls against Cruisers." The value depends on the field and the
// role, so both roles are reported.

// maxHullsValued is the most extra hulls the reference curve goes to; a
// part worth more is reported as "> maxHullsValued".
const maxHullsValued = 6

// variant is one modification of the valued ship.
type variant struct {
	name string
	add  Stats
	// part is the part's index when the variant adds a part tile, else -1.
	part int
}

// roleShares are a ship type's win shares as attacker and defender
// against field, and their mean.
type roleShares struct{ att, def, mean float64 }

// sharesOf studies ship against field in both roles; exact when both
// battles fit budget.
func (rs *Ruleset) sharesOf(ship Type, field Force, o studyOpts, stop *atomic.Bool) (roleShares, bool, error) {
	me := Force{Name: ship.Name, Types: []Type{ship}}
	var r roleShares
	exact := true
	b, err := NewBattle(me, field, rs.Rules)
	if err != nil {
		return r, false, err
	}
	fa, err := rs.fight(b, o, stop)
	if err != nil {
		return r, false, err
	}
	r.att = fa.AttackerShare(&rs.Rules)
	exact = exact && fa.exact
	if !field.NPC {
		b, err = NewBattle(field, me, rs.Rules)
		if err != nil {
			return r, false, err
		}
		fd, err := rs.fight(b, o, stop)
		if err != nil {
			return r, false, err
		}
		r.def = 1 - fd.AttackerShare(&rs.Rules)
		exact = exact && fd.exact
		r.mean = (r.att + r.def) / 2
	} else {
		r.def = math.NaN() // NPCs always defend
		r.mean = r.att
	}
	return r, exact, nil
}

// hullsFor is the extra hulls h at which curve (the share at 0, 1, …
// extra hulls) reaches w, linear between whole hulls: 0 when w is at or
// below curve[0], +Inf above the curve's end.
func hullsFor(curve []float64, w float64) float64 {
	if w <= curve[0]+1e-12 {
		return 0
	}
	for h := 1; h < len(curve); h++ {
		if w <= curve[h]+1e-12 {
			lo, hi := curve[h-1], curve[h]
			if hi <= lo {
				return float64(h)
			}
			return float64(h-1) + (w-lo)/(hi-lo)
		}
	}
	return math.Inf(1)
}

// applyStats is ship with s added.
func applyStats(t Type, s Stats) Type {
	for c := range t.Cannons {
		t.Cannons[c] += s.Cannons[c]
		t.Missiles[c] += s.Missiles[c]
	}
	t.Computer += s.Computer
	t.Shield += s.Shield
	t.Hull += s.Hull
	t.Init += s.Init
	return t
}

func (rs *Ruleset) studyParts(params map[string]string, o studyOpts, stop *atomic.Bool) (*game.StudyResult, error) {
	bpID := params["ship"]
	if bpID == "" {
		bpID = "interceptor"
	}
	bp := -1
	var bpIDs []string
	for i := range rs.Blueprints {
		if !rs.Blueprints[i].NPC {
			bpIDs = append(bpIDs, rs.Blueprints[i].ID)
			if rs.Blueprints[i].ID == bpID {
				bp = i
			}
		}
	}
	if bp < 0 {
		return nil, fmt.Errorf("eclipse: ship: no player blueprint %q%s", bpID, hintFor(bpID, bpIDs))
	}
	field, fieldName, err := rs.field(params["field"])
	if err != nil {
		return nil, err
	}
	base := TypeOf(&rs.Blueprints[bp], 1)
	var curve, curveAtt, curveDef []float64
	exactAll := true
	for h := 0; h <= maxHullsValued; h++ {
		r, exact, err := rs.sharesOf(applyStats(base, Stats{Hull: h}), field, o, stop)
		if err != nil {
			return nil, err
		}
		exactAll = exactAll && exact
		curve, curveAtt, curveDef = append(curve, r.mean), append(curveAtt, r.att), append(curveDef, r.def)
	}
	variants := []variant{
		{"+1 computer", Stats{Computer: 1}, -1},
		{"+1 shield", Stats{Shield: 1}, -1},
		{"+1 initiative", Stats{Init: 1}, -1},
	}
	for _, p := range rs.valuedParts() {
		variants = append(variants, variant{"+" + rs.Parts[p].Name, rs.Parts[p].Stats, p})
	}
	b := &rs.Blueprints[bp]
	var priced []pricedPart
	sheet := game.Sheet{Name: "part values", Columns: []game.SheetColumn{
		{Head: "variant", Doc: "what the " + b.Name + " gets: a part tile in addition to its printed parts, or a stat unit"},
		pctCol("win share", "the mean of its win shares attacking and defending against the field"),
		{Head: "hulls", Format: "0.00", Doc: "extra hulls that give the same win share (linear between whole hulls; 0 when the variant is worth no more than the ship as printed)"},
		{Head: "hulls attacking", Format: "0.00", Doc: "the same, attacking only"},
		{Head: "hulls defending", Format: "0.00", Doc: "the same, defending only (empty against an NPC, which always defends)"},
		{Head: "energy", Doc: "the ship's energy produced minus used with the part; negative: not a legal blueprint without a bigger source"},
		{Head: "research", Doc: "the part's research cost (2E; empty when the ruleset gives none)"},
	}}
	hullCell := func(h float64) game.SheetCell {
		if math.IsNaN(h) {
			return game.SheetCell{}
		}
		if math.IsInf(h, 1) {
			return game.SheetCell{Value: "> " + strconv.Itoa(maxHullsValued)}
		}
		return game.SheetCell{Value: h}
	}
	for h := 0; h <= 3; h++ {
		name := "as printed"
		if h > 0 {
			name = fmt.Sprintf("+%d hull", h)
		}
		sheet.Rows = append(sheet.Rows, []game.SheetCell{{Value: name}, {Value: curve[h]}, {Value: float64(h)}, {Value: float64(h)}, hullCell(nanIf(field.NPC, float64(h))), {Value: int64(b.Stats.Energy)}, {}})
	}
	for _, v := range variants {
		r, exact, err := rs.sharesOf(applyStats(base, v.add), field, o, stop)
		if err != nil {
			return nil, err
		}
		exactAll = exactAll && exact
		research := game.SheetCell{}
		if v.part >= 0 && rs.Parts[v.part].Tech.Track != "" {
			research.Value = int64(rs.Parts[v.part].Tech.Cost)
		}
		hd := math.NaN()
		if !field.NPC {
			hd = hullsFor(curveDef, r.def)
		}
		sheet.Rows = append(sheet.Rows, []game.SheetCell{{Value: v.name}, {Value: r.mean}, hullCell(hullsFor(curve, r.mean)),
			hullCell(hullsFor(curveAtt, r.att)), hullCell(hd), {Value: int64(b.Stats.Energy + v.add.Energy)}, research})
		if v.part >= 0 {
			priced = append(priced, pricedPart{v.part, hullsFor(curve, r.mean)})
		}
	}
	price := rs.priceCurve(priced, hullCell)
	if exactAll {
		// The page draws the price curve from exact figures only
		// (views.go), and printed part tiles carry only exact values
		// (faces.go): the win shares and hulls carry the mark.
		for _, r := range price.Rows {
			if _, ok := r[1].Value.(float64); ok {
				r[1].Mark = "exact"
			}
		}
		for _, r := range sheet.Rows {
			for c := 1; c <= 4; c++ {
				if r[c].Value != nil { // a number, or "> 6" hulls
					r[c].Mark = "exact"
				}
			}
		}
	}
	mode := "exact"
	if !exactAll {
		mode = "some battles played by the engine (see the notes)"
	}
	return &game.StudyResult{
		Title:  fmt.Sprintf("Part values in hulls: one %s against %s (%s)", b.Name, fieldName, mode),
		Tables: []game.Sheet{sheet, price},
	}, nil
}

// valuedParts are the indexes of the parts the parts study values, in
// its rows' order after the stat units: every part but a source, which
// has no combat value of its own.
func (rs *Ruleset) valuedParts() []int {
	var out []int
	for p := range rs.Parts {
		st := rs.Parts[p].Stats
		if st.Cannons.Total()+st.Missiles.Total()+st.Computer+st.Shield+st.Hull+st.Init == 0 {
			continue
		}
		out = append(out, p)
	}
	return out
}

// pricedPart is a part tile and its value in hulls (both roles).
type pricedPart struct {
	part  int
	hulls float64
}

// priceCurve is the brief's price curve (§3.2, "the price curve: energy
// plus science cost against hulls"): each part tile's hulls beside the
// energy it uses and its research cost, cheapest in hulls first, with
// hulls per energy and per research point where those are positive.
func (rs *Ruleset) priceCurve(priced []pricedPart, hullCell func(float64) game.SheetCell) game.Sheet {
	t := game.Sheet{Name: "price curve", Columns: []game.SheetColumn{
		{Head: "part", Doc: "the part tile, as in the part values table"},
		{Head: "hulls", Format: "0.00", Doc: "its value in hulls, both roles (the part values table's hulls)"},
		{Head: "energy used", Doc: "the energy the part takes from the ship's sources (negative: it produces energy)"},
		{Head: "research", Doc: "its research cost (2E; empty when the ruleset gives none)"},
		{Head: "research minimum", Doc: "its lowest research cost after discounts (2E)"},
		{Head: "hulls per energy", Format: "0.00", Doc: "hulls divided by the energy used (empty when it uses none)"},
		{Head: "hulls per research", Format: "0.000", Doc: "hulls divided by the research cost (empty without one)"},
	}}
	// Unvalued (NaN) sorts last; above the largest hull count valued (+Inf)
	// before it.
	slices.SortStableFunc(priced, func(a, b pricedPart) int {
		an, bn := math.IsNaN(a.hulls), math.IsNaN(b.hulls)
		switch {
		case an && bn:
			return 0
		case an:
			return 1
		case bn:
			return -1
		}
		return cmp.Compare(a.hulls, b.hulls)
	})
	ratio := func(h float64, d int) game.SheetCell {
		if d <= 0 || math.IsNaN(h) || math.IsInf(h, 0) {
			return game.SheetCell{}
		}
		return game.SheetCell{Value: h / float64(d)}
	}
	for _, p := range priced {
		pt := &rs.Parts[p.part]
		used := -pt.Stats.Energy
		row := []game.SheetCell{{Value: pt.Name}, hullCell(p.hulls), {Value: int64(used)}, {}, {}, ratio(p.hulls, used), {}}
		if pt.Tech.Track != "" {
			row[3], row[4], row[6] = game.SheetCell{Value: int64(pt.Tech.Cost)}, game.SheetCell{Value: int64(pt.Tech.Min)}, ratio(p.hulls, pt.Tech.Cost)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func nanIf(c bool, v float64) float64 {
	if c {
		return math.NaN()
	}
	return v
}

// field reads the field= parameter: a fleet id, or a blueprint id for one
// ship of it (default: one ship of the first player blueprint... the
// Interceptor).
func (rs *Ruleset) field(id string) (Force, string, error) {
	if id == "" {
		id = "interceptor"
	}
	if f := rs.FleetIndex(id); f >= 0 {
		return rs.Force(f), rs.Fleets[f].Name, nil
	}
	var ids []string
	for i := range rs.Blueprints {
		b := &rs.Blueprints[i]
		if b.ID == id {
			return Force{Name: b.Name, Types: []Type{TypeOf(b, 1)}, NPC: b.NPC}, "one " + b.Name, nil
		}
		ids = append(ids, b.ID)
	}
	for i := range rs.Fleets {
		ids = append(ids, rs.Fleets[i].ID)
	}
	return Force{}, "", fmt.Errorf("eclipse: field: no fleet or blueprint %q%s", id, hintFor(id, ids))
}
