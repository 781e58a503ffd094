package reports

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/cardlab/cardlab/analysis"
)

// DefaultTolerance is the tolerance band of the findings: a win share within
// ±2 percentage points of its fair share counts as balanced, however sure the
// games are that it differs.
const DefaultTolerance = 0.02

// alpha is the significance level of every finding, after correction.
const alpha = 0.05

// finding is one notable result, in plain words.
type finding struct {
	Text string
	// Kind: "faction", "seat", "matchup", "card", "diff", "sweep", "note".
	Kind string
	// Sev orders the findings, worst first: how far (win-share points)
	// outside the tolerance band; below 0 for notes that need no action.
	Sev float64
}

// deviation is a win share tested against its fair value.
type deviation struct {
	rate, fair float64
	ci         [2]float64
	games      int64
	p, pAdj    float64
}

// d is the deviation from the fair share, and its interval.
func (v *deviation) d() float64              { return v.rate - v.fair }
func (v *deviation) dCI() [2]float64         { return [2]float64{v.ci[0] - v.fair, v.ci[1] - v.fair} }
func (v *deviation) sig() bool               { return v.pAdj < alpha }
func (v *deviation) beyond(tol float64) bool { return math.Abs(v.d()) > tol }

// out: significant after correction and outside the tolerance band.
func (v *deviation) out(tol float64) bool { return v.sig() && v.beyond(tol) }

// newDeviation tests a win share against fair with the normal approximation
// of the binomial under the null (shared victories count as shares).
func newDeviation(w analysis.WinStats, fair float64) *deviation {
	v := &deviation{rate: w.WinRate, fair: fair, ci: w.CI95, games: w.Games, p: 1}
	if w.Games > 0 && fair > 0 && fair < 1 {
		se := math.Sqrt(fair * (1 - fair) / float64(w.Games))
		v.p = math.Erfc(math.Abs(w.WinRate-fair) / se / math.Sqrt2)
	}
	return v
}

// holm adjusts the p-values of a family of tests (Holm–Bonferroni).
func holm(vs []*deviation) {
	ps := make([]float64, len(vs))
	for i, v := range vs {
		ps[i] = v.p
	}
	for i, p := range analysis.Holm(ps) {
		vs[i].pAdj = p
	}
}

// facDev is every faction's deviation from its fair share, Holm-corrected
// across the factions.
func (m *model) facDev() map[string]*deviation {
	out := map[string]*deviation{}
	var fam []*deviation
	for _, f := range m.factions {
		v := newDeviation(f.Stats.WinStats, m.expected(f.ID))
		out[f.ID] = v
		fam = append(fam, v)
	}
	holm(fam)
	return out
}

// matchupDev is the deviation from 50% of the first faction of every
// 2-player lineup, Holm-corrected across the lineups, by lineup index.
func (m *model) matchupDev() map[int]*deviation {
	out := map[int]*deviation{}
	var fam []*deviation
	for i, mu := range m.rep.Matchups {
		if len(mu.Lineup) != 2 {
			continue
		}
		v := newDeviation(mu.Factions[mu.Lineup[0]], 0.5)
		out[i] = v
		fam = append(fam, v)
	}
	holm(fam)
	return out
}

// seatDev is the deviation of every seat and turn-order position, one Holm
// family over all of them; keys "seat/N/k" and "order/N/k".
func (m *model) seatDev() map[string]*deviation {
	out := map[string]*deviation{}
	var fam []*deviation
	for _, s := range m.rep.Seats {
		for _, st := range s.Seats {
			v := newDeviation(st.WinStats, s.Expected)
			out[fmt.Sprintf("seat/%d/%d", s.Players, st.Seat)] = v
			fam = append(fam, v)
		}
		for _, st := range s.StartOrder {
			v := newDeviation(st.WinStats, s.Expected)
			out[fmt.Sprintf("order/%d/%d", s.Players, st.Seat)] = v
			fam = append(fam, v)
		}
	}
	holm(fam)
	return out
}

// pts1 is a difference of rates in points, signed: "+9.3".
func pts1(x float64) string { return fmt.Sprintf("%+.1f", 100*x) }

// ptsCI is an interval of a difference of rates: "[+8.1, +10.5]".
func ptsCI(c [2]float64) string { return fmt.Sprintf("[%+.1f, %+.1f]", 100*c[0], 100*c[1]) }

// pAdjText is a corrected p-value in words.
func pAdjText(p float64) string {
	if p < 0.001 {
		return "p < 0.001, Holm-corrected"
	}
	return fmt.Sprintf("p = %.2g, Holm-corrected", p)
}

// tolText is the tolerance band: "±2 points".
func (m *model) tolText() string {
	return "±" + strings.TrimSuffix(fmt.Sprintf("%.1f", 100*m.tol), ".0") + " points"
}

// findings lists what a designer can act on, worst first: factions, seats
// and matchups outside the tolerance band (significant after Holm's
// correction), the cards furthest from their faction's typical card, and
// the paired analyses' results; notes that need no action come last.
func (m *model) findings() []finding {
	var out []finding
	fd := m.facDev()
	var balanced, unclear []string
	for _, f := range m.factions {
		v := fd[f.ID]
		d := v.d()
		switch {
		case v.out(m.tol):
			dir := "above"
			if d < 0 {
				dir = "below"
			}
			out = append(out, finding{fmt.Sprintf("%s wins %s of its games: %.1f points %s its fair share of %s %s (%s).",
				f.Name, pct1(v.rate), math.Abs(100*d), dir, pct0(v.fair), ptsCI(v.dCI()), pAdjText(v.pAdj)), "faction", 100 * (math.Abs(d) - m.tol)})
		case v.beyond(m.tol):
			unclear = append(unclear, fmt.Sprintf("%s %s %s", f.Name, pts1(d), ptsCI(v.dCI())))
		default:
			balanced = append(balanced, f.Name)
		}
	}
	if len(unclear) > 0 {
		out = append(out, finding{fmt.Sprintf("Outside the %s band but not significant after correction — more games would tell: %s.",
			m.tolText(), strings.Join(unclear, "; ")), "faction", 0})
	}
	if len(balanced) > 0 {
		out = append(out, finding{fmt.Sprintf("Balanced (within %s of the fair share): %s.", m.tolText(), strings.Join(balanced, ", ")), "note", -1})
	}

	sd := m.seatDev()
	for _, s := range m.rep.Seats {
		for _, st := range s.Seats {
			v := sd[fmt.Sprintf("seat/%d/%d", s.Players, st.Seat)]
			// At 2-player tables seat 2 mirrors seat 1: one finding.
			if v.out(m.tol) && (s.Players > 2 || st.Seat == 1) {
				out = append(out, finding{fmt.Sprintf("At %d-player tables seat %d wins %s: %s points against the fair %s %s (%s).",
					s.Players, st.Seat, pct1(v.rate), pts1(v.d()), pct0(v.fair), ptsCI(v.dCI()), pAdjText(v.pAdj)), "seat", 100 * (math.Abs(v.d()) - m.tol)})
			}
		}
		for _, st := range s.StartOrder {
			v := sd[fmt.Sprintf("order/%d/%d", s.Players, st.Seat)]
			if v.out(m.tol) && (s.Players > 2 || st.Seat == 1) {
				who := "the player who " + analysis.TurnOrderLabel(st.Seat)
				if st.Seat > 1 {
					who = "the player " + analysis.TurnOrderLabel(st.Seat)
				}
				out = append(out, finding{fmt.Sprintf("At %d-player tables %s wins %s: %s points against the fair %s %s (%s).",
					s.Players, who, pct1(v.rate), pts1(v.d()), pct0(v.fair), ptsCI(v.dCI()), pAdjText(v.pAdj)), "seat", 100 * (math.Abs(v.d()) - m.tol)})
			}
		}
	}

	md := m.matchupDev()
	var lops []finding
	for i, mu := range m.rep.Matchups {
		v := md[i]
		if v == nil || !v.out(m.tol) {
			continue
		}
		w, l := mu.Lineup[0], mu.Lineup[1]
		rate, ci := v.rate, v.ci
		if rate < 0.5 {
			w, l = l, w
			rate, ci = 1-rate, [2]float64{1 - ci[1], 1 - ci[0]}
		}
		lops = append(lops, finding{fmt.Sprintf("%s beats %s %s of the time: %s points over 50%% %s (%s).",
			m.facName(w), m.facName(l), pct1(rate), pts1(rate-0.5), ptsCI([2]float64{ci[0] - 0.5, ci[1] - 0.5}), pAdjText(v.pAdj)),
			"matchup", 100 * (math.Abs(rate-0.5) - m.tol)})
	}
	slices.SortStableFunc(lops, func(a, b finding) int { return cmpFloat(b.Sev, a.Sev) })
	if len(lops) > 3 {
		rest := lops[3:]
		lops = append(lops[:3], finding{fmt.Sprintf("%d more matchups are outside the %s band (see Matchups).", len(rest), m.tolText()),
			"matchup", rest[0].Sev})
	}
	out = append(out, lops...)

	out = append(out, m.cardFindings()...)

	if d := m.d.Diff; d != nil {
		for _, f := range d.Factions {
			if f.Significant {
				out = append(out, finding{fmt.Sprintf("The rules change moves %s from %s to %s: %s points %s (paired, %s).",
					m.facName(f.Faction), pct1(f.Base), pct1(f.Variant), pts1(f.Delta), ptsCI(f.CI95), pAdjText(f.PAdj)),
					"diff", 100 * math.Abs(f.Delta)})
			}
		}
	}
	if s := m.d.Sweep; s != nil && s.Suggestion != nil {
		out = append(out, finding{"Sweep suggests " + s.Suggestion.Text + ".", "sweep", 0})
	}
	if !m.metric.Causal {
		out = append(out, finding{"This result has no card values (it was made without them), so no card finding is given: " +
			"the card chart falls back to " + m.metric.Label + ", which describes the games but does not say which card is too strong.", "note", -2})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Sev > out[j].Sev })
	return out
}

// priceNote states the conversion of points to power for every faction:
// "1 power = 2.8 pts for Klingon, … (this ruleset's price)".
func (m *model) priceNote() string {
	var parts []string
	from := map[string]bool{}
	for _, f := range m.factions {
		p, ok := m.rep.PriceOfPower[f.ID]
		if !ok {
			continue
		}
		parts = append(parts, fmt.Sprintf("%.2f pts [%.2f, %.2f] for %s", p.Pts, p.CI95[0], p.CI95[1], f.Name))
		from[m.unitFrom(f.ID)] = true
	}
	if len(parts) == 0 {
		return "no price of a power point"
	}
	return "1 power = " + strings.Join(parts, ", ") + "; " + strings.Join(slices.Sorted(maps.Keys(from)), ", ")
}

// unitFrom says whose price a faction's power is read at: "at this
// ruleset's price" or "at the price of base ruleset …".
func (m *model) unitFrom(faction string) string {
	if d := m.rep.CardValueDesign; d != nil {
		if from, ok := d.PowerUnitFrom[faction]; ok && from != analysis.UnitHere {
			return "at the price of the " + from
		}
	}
	return "at this ruleset's price"
}

// powerReading is a card's power with its conversion, for one line: "7.5
// power [6.1, 8.9] at Klingon's 2.76 pts a power point, this ruleset's".
func (m *model) powerReading(c *cardView) string {
	v := c.Value
	s := fmt.Sprintf("%.1f power [%.1f, %.1f]", v.Power, v.PowerCI95[0], v.PowerCI95[1])
	if c.HasFace {
		s += fmt.Sprintf(" (printed %d)", c.Info.Power)
	}
	if p, ok := m.rep.PriceOfPower[c.Faction]; ok {
		s += fmt.Sprintf(", 1 power = %.2f pts %s", p.Pts, m.unitFrom(c.Faction))
	}
	return s
}

// textAdds says what a card's text adds, on its basis; "" for a card
// without text or without a reference.
func textAdds(v *analysis.CardValue) string {
	s := fmt.Sprintf("its text adds %+.1f pts [%+.1f, %+.1f]", v.EffectPts, v.EffectPtsCI95[0], v.EffectPtsCI95[1])
	switch v.EffectBasis {
	case analysis.EffectFit:
		return s + " against its faction's plain cards"
	case analysis.EffectBlank:
		return s + " (at printed power 0 a plain card is a blank)"
	case analysis.EffectInterpolated:
		return s + " against a plain card interpolated between a blank and its faction's weakest plain card (below their printed powers: reads high)"
	case analysis.EffectExtrapolated:
		return s + " against its faction's plain cards' line extended above their printed powers (extrapolated)"
	}
	return ""
}

// cardFindings: the flagged cards furthest from their faction's typical
// card, three at each end. Without card values none: the correlational
// figures do not say what to change.
func (m *model) cardFindings() []finding {
	if m.metric.Key == "impact" {
		var out []finding
		for _, c := range m.ranked() {
			if c.Sig != 0 {
				out = append(out, finding{fmt.Sprintf("%s (%s): impact %s %s — its faction's win share with the card minus with a blank in its place.",
					c.Info.Name, m.facName(c.Faction), m.metric.fig(c.Score), m.metric.ci(c.CI)), "card", 100 * math.Abs(c.Score)})
			}
			if len(out) == 6 {
				break
			}
		}
		return out
	}
	if m.metric.Key != "value" {
		return nil
	}
	var over, under []finding
	for _, c := range m.ranked() {
		v := c.Value
		if !v.Flagged {
			continue
		}
		sev := math.Abs(v.VsFactionPts)
		dir := "above"
		if v.VsFactionPts < 0 {
			dir = "below"
		}
		text := fmt.Sprintf("%s (%s): one copy adds %+.1f pts %s to its faction's win share against a blank, %.1f pts %s its faction's typical card %s; it reads as %s",
			c.Info.Name, m.facName(c.Faction), v.Pts, m.metric.ci(v.PtsCI95), math.Abs(v.VsFactionPts), dir, m.metric.ci(v.VsFactionPtsCI95), m.powerReading(c))
		if t := textAdds(v); t != "" {
			text += "; " + t
		}
		f := finding{text + ".", "card", sev}
		if v.VsFactionPts > 0 {
			over = append(over, f)
		} else {
			under = append(under, f)
		}
	}
	slices.Reverse(under) // the lowest first
	return append(over[:min(3, len(over))], under[:min(3, len(under))]...)
}

// verdict is the one line a designer reads first: the faction furthest
// outside the tolerance band and the cards that make it so, or that none is.
func (m *model) verdict() string {
	fd := m.facDev()
	var worst *facView
	outN := 0
	for _, f := range m.factions {
		v := fd[f.ID]
		if !v.out(m.tol) {
			continue
		}
		outN++
		if worst == nil || math.Abs(v.d()) > math.Abs(fd[worst.ID].d()) {
			worst = f
		}
	}
	if worst == nil {
		var big *facView
		for _, f := range m.factions {
			if big == nil || math.Abs(fd[f.ID].d()) > math.Abs(fd[big.ID].d()) {
				big = f
			}
		}
		if big == nil {
			return "No faction was played."
		}
		v := fd[big.ID]
		s := fmt.Sprintf("No faction is out of balance: every win share is within %s of its fair share or cannot be told from it in %d games (largest: %s %s points %s).",
			m.tolText(), m.rep.Games, big.Name, pts1(v.d()), ptsCI(v.dCI()))
		if m.metric.Key == "value" {
			if r := m.ranked(); len(r) > 0 && r[0].Score > 0 {
				s += fmt.Sprintf(" Strongest card for its slot: %s (%s, %+.1f pts against its faction's typical card).", r[0].Info.Name, r[0].Fac.Name, r[0].Score)
			}
		}
		return s
	}
	v := fd[worst.ID]
	dir, which := "above", "strongest"
	if v.d() < 0 {
		dir, which = "below", "weakest"
	}
	s := fmt.Sprintf("%s is %.1f points %s fair share %s", worst.Name, math.Abs(100*v.d()), dir, ptsCI(v.dCI()))
	if m.metric.Key == "value" {
		var cs []*cardView
		for _, c := range m.ranked() {
			if c.Faction == worst.ID && (v.d() > 0) == (c.Score > 0) {
				cs = append(cs, c)
			}
		}
		if v.d() < 0 {
			slices.Reverse(cs)
		}
		var parts []string
		for _, c := range cs[:min(3, len(cs))] {
			parts = append(parts, fmt.Sprintf("%s (%+.1f pts)", c.Info.Name, c.Score))
		}
		if len(parts) > 0 {
			s += fmt.Sprintf("; its %s cards for their slot: %s", which, strings.Join(parts, ", "))
		}
	}
	s += "."
	if outN > 1 {
		s += fmt.Sprintf(" %d more %s out of balance (see the findings).", outN-1, plural(outN-1, "faction is", "factions are"))
	}
	return s
}

// ranked lists the cards with enough games by the card metric, highest
// first.
func (m *model) ranked() []*cardView {
	var out []*cardView
	for _, c := range m.cards {
		if !c.Low {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b *cardView) int { return cmpFloat(b.Score, a.Score) })
	return out
}

// changes lists the rules change with --base as "what, field: old → new",
// card ids replaced by their names.
func (m *model) changes() []changeLine {
	df := m.d.Diff
	if df == nil {
		return nil
	}
	names := map[string]string{}
	for _, c := range m.cards {
		names[c.ID] = c.Info.Name
	}
	for id, t := range m.targets {
		names[id] = t.Name
	}
	var out []changeLine
	for _, c := range df.Changes {
		l := changeLine{Kind: c.Kind, ID: c.ID, Name: c.ID, Field: c.Field, Old: c.Base, New: c.Variant, Change: c.Change, Pos: c.Pos}
		switch {
		case c.Kind == "rules":
			l.Name = "rules"
		case c.Kind == "faction":
			l.Name = m.facName(c.ID)
		case names[c.ID] != "":
			l.Name = names[c.ID]
		}
		out = append(out, l)
	}
	return out
}

// changeLine is one change of the ruleset against --base.
type changeLine struct {
	Kind, ID, Name, Field, Old, New, Change, Pos string
}

// What is the change in words, without the name: "power: 3 → 9",
// "added", "removed".
func (c changeLine) What() string {
	switch c.Change {
	case "added", "removed":
		return c.Change
	}
	old, nw := c.Old, c.New
	if old == "" {
		old = "(none)"
	}
	if nw == "" {
		nw = "(none)"
	}
	f := c.Field
	if f == "" {
		f = "changed"
	}
	return f + ": " + old + " → " + nw
}
