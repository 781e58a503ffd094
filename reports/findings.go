package reports

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
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
	// Group orders the findings by what they are about, faction imbalance
	// first (groupFaction …); Fig is the size of the figure the finding
	// states (win-share points), which orders a group, largest first.
	Group int
	Fig   float64
}

// The finding groups, in the order they are listed.
const (
	groupFaction = iota
	groupFactionMaybe
	groupSkill
	groupMatchup
	groupSeat
	groupDiff
	groupCard
	groupCardMaybe
	groupSweep
	groupNote
)

// deviation is a win share tested against its fair value and a tolerance
// band around it.
type deviation struct {
	rate, fair float64
	ci         [2]float64
	games      int64
	// p tests "the deviation lies within the band" (pAdj: Holm-corrected
	// over the family); with no band, "the deviation is 0".
	p, pAdj float64
}

// d is the deviation from the fair share, and its interval.
func (v *deviation) d() float64      { return v.rate - v.fair }
func (v *deviation) dCI() [2]float64 { return [2]float64{v.ci[0] - v.fair, v.ci[1] - v.fair} }
func (v *deviation) sig() bool       { return v.pAdj < alpha }

// outside: the whole interval lies outside the band ±tol.
func (v *deviation) outside(tol float64) bool { c := v.dCI(); return c[0] > tol || c[1] < -tol }

// inside: the whole interval lies inside the band.
func (v *deviation) inside(tol float64) bool { c := v.dCI(); return c[0] >= -tol && c[1] <= tol }

// out (out of balance): the interval lies outside the band and the test
// against the band's nearer edge is significant after Holm's correction.
func (v *deviation) out(tol float64) bool { return v.sig() && v.outside(tol) }

// possibly (possibly out of balance): not out, and the interval reaches
// beyond the band — the games cannot tell.
func (v *deviation) possibly(tol float64) bool { return !v.out(tol) && !v.inside(tol) }

// newDeviation tests a win share against the band fair ± tol with the
// normal approximation of the binomial under the null (shared victories
// count as shares): the p-value of the distance beyond the band's nearer
// edge, so that within the band nothing is ever out of balance however
// many games are played.
func newDeviation(w analysis.WinStats, fair, tol float64) *deviation {
	v := &deviation{rate: w.WinRate, fair: fair, ci: w.CI95, games: w.Games, p: 1}
	if w.Games > 0 && fair > 0 && fair < 1 {
		se := math.Sqrt(fair * (1 - fair) / float64(w.Games))
		v.p = math.Erfc(max(math.Abs(w.WinRate-fair)-tol, 0) / se / math.Sqrt2)
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
		v := newDeviation(f.Stats.WinStats, m.expected(f.ID), m.tol)
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
		v := newDeviation(mu.Factions[mu.Lineup[0]], 0.5, m.tol)
		out[i] = v
		fam = append(fam, v)
	}
	holm(fam)
	return out
}

// seatDev is the deviation of every seat and, over the games with a random
// starter, every turn-order position: one Holm family over all of them;
// keys "seat/N/k" and "random/N/k".
func (m *model) seatDev() map[string]*deviation {
	out := map[string]*deviation{}
	var fam []*deviation
	for _, s := range m.rep.Seats {
		for _, st := range s.Seats {
			v := newDeviation(st.WinStats, s.Expected, m.tol)
			out[fmt.Sprintf("seat/%d/%d", s.Players, st.Seat)] = v
			fam = append(fam, v)
		}
		for _, st := range s.RandomStartOrder {
			v := newDeviation(st.WinStats, s.Expected, m.tol)
			out[fmt.Sprintf("random/%d/%d", s.Players, st.Seat)] = v
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

// cardTolText is the card tolerance band: "±8 pts".
func (m *model) cardTolText() string {
	return "±" + strings.TrimSuffix(fmt.Sprintf("%.1f", m.cardTol), ".0") + " pts"
}

// oneSide: every seat of the run plays one side (a mirrored game such as
// Goofspiel): there is no balance between sides to judge.
func (m *model) oneSide() bool { return len(m.factions) == 1 && len(m.rep.Raw.Factions) == 1 }

// againstBand is a test against the band in words: "p < 0.001 against the
// ±2 points band, Holm-corrected".
func (m *model) againstBand(p float64) string {
	t := pAdjText(p)
	if m.tol > 0 {
		t = strings.Replace(t, ", Holm-corrected", " against the "+m.tolText()+" band, Holm-corrected", 1)
	}
	return t
}

// findings lists what a designer can act on: factions out of balance
// first, then the factions possibly out of balance, matchups, seats and
// turn order, the rules change, the flagged cards and the sweep; notes
// that need no action come last. Within a group the largest figure the
// finding states comes first. Out of balance means the 95% interval lies
// outside the tolerance band (and the test against the band's nearer edge
// holds after Holm's correction); possibly, that the interval reaches
// beyond the band without lying outside it (docs/metrics.md).
func (m *model) findings() []finding {
	var out []finding
	fd := m.facDev()
	var balanced, unclear []string
	maxUnclear := 0.0
	for _, f := range m.factions {
		if m.oneSide() {
			break // its share is the fair share by construction
		}
		v := fd[f.ID]
		d := v.d()
		switch {
		case v.out(m.tol):
			dir := "above"
			if d < 0 {
				dir = "below"
			}
			out = append(out, finding{fmt.Sprintf("%s wins %s of its games: %.1f points %s its fair share of %s %s — out of balance, the whole interval outside the %s band (%s).%s",
				f.Name, pct1(v.rate), math.Abs(100*d), dir, pct0(v.fair), ptsCI(v.dCI()), m.tolText(), m.againstBand(v.pAdj), m.skillSuffix(f.ID)), "faction", groupFaction, math.Abs(100 * d)})
		case v.possibly(m.tol):
			sd := ""
			if t := m.skillFac(f.ID); t != nil && t.SkillDependent {
				sd = fmt.Sprintf(" (skill-dependent: %s against %s play)", tierPhrase(t.CheckVerdict, t.Base-t.Fair), botsName(m.tiers.CheckBots))
			}
			unclear = append(unclear, fmt.Sprintf("%s %s %s%s", f.Name, pts1(d), ptsCI(v.dCI()), sd))
			maxUnclear = max(maxUnclear, math.Abs(100*d))
		default:
			balanced = append(balanced, f.Name)
		}
	}
	if len(unclear) > 0 {
		out = append(out, finding{fmt.Sprintf("Possibly out of balance — the interval reaches beyond the %s band without lying outside it, so more games would tell: %s.",
			m.tolText(), strings.Join(unclear, "; ")), "faction", groupFactionMaybe, maxUnclear})
	}
	if len(balanced) > 0 {
		out = append(out, finding{fmt.Sprintf("Balanced (the whole interval within %s of the fair share): %s.", m.tolText(), strings.Join(balanced, ", ")), "note", groupNote, 0})
	}

	sd := m.seatDev()
	beforeSeats := len(out)
	for _, s := range m.rep.Seats {
		for _, st := range s.Seats {
			v := sd[fmt.Sprintf("seat/%d/%d", s.Players, st.Seat)]
			// At 2-player tables seat 2 mirrors seat 1: one finding.
			if v.out(m.tol) && (s.Players > 2 || st.Seat == 1) {
				out = append(out, finding{fmt.Sprintf("At %d-player tables seat %d wins %s: %s points against the fair %s %s — out of balance (%s).%s",
					s.Players, st.Seat, pct1(v.rate), pts1(v.d()), pct0(v.fair), ptsCI(v.dCI()), m.againstBand(v.pAdj), m.seatSkillSuffix(s.Players, st.Seat)), "seat", groupSeat, math.Abs(100 * v.d())})
			}
		}
		out = append(out, m.turnOrder(s, sd)...)
	}
	if m.oneSide() && len(out) == beforeSeats && len(m.rep.Seats) > 0 {
		// The seats are all a one-side game's verdict rests on: an empty
		// list would read as a report that forgot to look.
		out = append(out, finding{fmt.Sprintf("No seat and no turn-order figure lies outside the %s band around the fair share (see Seats).", m.tolText()), "note", groupNote, 0})
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
		lops = append(lops, finding{fmt.Sprintf("%s beats %s %s of the time: %s points over 50%% %s — out of balance (%s).%s",
			m.facName(w), m.facName(l), pct1(rate), pts1(rate-0.5), ptsCI([2]float64{ci[0] - 0.5, ci[1] - 0.5}), m.againstBand(v.pAdj), m.matchupSkillSuffix(mu.Lineup)),
			"matchup", groupMatchup, 100 * (rate - 0.5)})
	}
	slices.SortStableFunc(lops, func(a, b finding) int { return cmp.Compare(b.Fig, a.Fig) })
	if len(lops) > 3 {
		rest := lops[3:]
		lops = append(lops[:3], finding{fmt.Sprintf("%d more %s out of balance (see Matchups).", len(rest), plural(len(rest), "matchup is", "matchups are")),
			"matchup", groupMatchup, rest[0].Fig})
	}
	out = append(out, lops...)

	out = append(out, m.skillFindings()...)
	out = append(out, m.cardFindings()...)
	out = append(out, m.diffFindings()...)

	if g := m.rep.Game; g.Games >= 100 && g.SharedRate >= 0.9 {
		// A verdict of "fair" from games that all end level says nothing of
		// the game: it is usually one fixed rule playing itself.
		out = append(out, finding{fmt.Sprintf("%s of the %d games ended in a shared victory, so the win shares sit at their fair share whatever the cards say: the bots (%s) may be one fixed rule playing itself, which ties every time. Play bots that vary (random, ismcts) before reading this report as a verdict.",
			pct1(g.SharedRate), g.Games, botsName(m.rep.Config.Bots)), "note", groupFaction, 100})
	}
	if s := m.d.Sweep; s != nil && s.Suggestion != nil {
		out = append(out, finding{"Sweep suggests " + s.Suggestion.Text + ".", "sweep", groupSweep, 0})
	}
	if !m.metric.Causal && len(m.rep.Cards) > 0 {
		out = append(out, finding{"This result has no card values (it was made without them), so no card finding is given: " +
			"the card chart falls back to " + m.metric.Label + ", which describes the games but does not say which card is too strong.", "note", groupNote, 0})
	}
	slices.SortStableFunc(out, func(a, b finding) int {
		if a.Group != b.Group {
			return a.Group - b.Group
		}
		return cmp.Compare(b.Fig, a.Fig)
	})
	return out
}

// turnOrder is the turn-order finding of one table size: the starter's
// advantage measured only over the games whose starter was drawn at random,
// since the rules' starting faction always begins where it plays and would
// lend the start its own strength. As a finding when out of balance, else
// as a note; nothing from results that did not count those games.
func (m *model) turnOrder(s analysis.SeatStats, sd map[string]*deviation) []finding {
	if s.RandomStartGames == 0 || len(s.RandomStartOrder) == 0 {
		return nil
	}
	where := "in the games whose starter was drawn at random"
	if sf := m.startingFaction(); sf != "" {
		where = fmt.Sprintf("without %s (which begins round 1 whenever it plays), where the starter is drawn at random", m.facName(sf))
	}
	var out []finding
	for _, st := range s.RandomStartOrder {
		if s.Players == 2 && st.Seat > 1 {
			break // the second player mirrors the first
		}
		v := sd[fmt.Sprintf("random/%d/%d", s.Players, st.Seat)]
		who := "the player who " + analysis.TurnOrderLabel(st.Seat)
		if st.Seat > 1 {
			who = "the player " + analysis.TurnOrderLabel(st.Seat)
		}
		text := fmt.Sprintf("At %d-player tables %s, %s wins %s of %d games: %s points against the fair %s %s",
			s.Players, where, who, pct1(v.rate), v.games, pts1(v.d()), pct0(v.fair), ptsCI(v.dCI()))
		switch {
		case v.out(m.tol):
			out = append(out, finding{text + " — out of balance (" + m.againstBand(v.pAdj) + ")." + m.turnSkillSuffix(s.Players, st.Seat), "seat", groupSeat, math.Abs(100 * v.d())})
		case st.Seat == 1:
			what := "balanced"
			if v.possibly(m.tol) {
				what = "possibly out of balance"
			}
			out = append(out, finding{text + " — " + what + "." + m.turnSkillSuffix(s.Players, st.Seat), "note", groupNote, 0})
		}
	}
	return out
}

// startingFaction is the rules' starting faction, "" when unknown.
func (m *model) startingFaction() string {
	if m.d.Meta != nil && m.d.Meta.Catalog != nil {
		return m.d.Meta.Catalog.StartingFaction
	}
	return ""
}

// diffFindings: the rules change's effect on every faction, judged against
// the tolerance band as the factions are: a change whose whole interval
// lies beyond the band is a finding; a significant one that reaches beyond
// it, a "possibly"; a significant change inside the band only a note.
func (m *model) diffFindings() []finding {
	df := m.d.Diff
	if df == nil {
		return nil
	}
	var out []finding
	var maybe, small []string
	for _, f := range df.Factions {
		if !f.Significant {
			continue
		}
		c := [2]float64{100 * f.CI95[0], 100 * f.CI95[1]}
		t := 100 * m.tol
		switch {
		case c[0] > t || c[1] < -t:
			out = append(out, finding{fmt.Sprintf("The rules change moves %s from %s to %s: %s points %s, beyond the %s band (paired, %s).",
				m.facName(f.Faction), pct1(f.Base), pct1(f.Variant), pts1(f.Delta), ptsCI(f.CI95), m.tolText(), pAdjText(f.PAdj)),
				"diff", groupDiff, math.Abs(100 * f.Delta)})
		case c[0] < -t || c[1] > t:
			maybe = append(maybe, fmt.Sprintf("%s %s %s", m.facName(f.Faction), pts1(f.Delta), ptsCI(f.CI95)))
		default:
			small = append(small, fmt.Sprintf("%s %s %s", m.facName(f.Faction), pts1(f.Delta), ptsCI(f.CI95)))
		}
	}
	if len(maybe) > 0 {
		out = append(out, finding{fmt.Sprintf("The rules change possibly moves win shares beyond the %s band (significant, but the interval reaches into the band): %s.",
			m.tolText(), strings.Join(maybe, "; ")), "diff", groupDiff, 0})
	}
	if len(small) > 0 {
		out = append(out, finding{fmt.Sprintf("The rules change moves win shares significantly but within the %s band: %s.",
			m.tolText(), strings.Join(small, "; ")), "note", groupNote, 0})
	}
	return out
}

// priceNote states the conversion of points to power for every faction:
// "1 power = 2.8 pts for Klingon, … (this ruleset's price)".
// unit is the unit the cards' values are read in: the power point, or
// another game's unit as its result names it.
func (m *model) unit() analysis.ValueUnit {
	if d := m.rep.CardValueDesign; d != nil && d.Unit != nil {
		return *d.Unit
	}
	return analysis.ValueUnit{Name: "power point", Plural: "power points", Short: "power"}
}

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
		return "no price of a " + m.unit().Name
	}
	return m.oneUnit() + " = " + strings.Join(parts, ", ") + "; " + strings.Join(slices.Sorted(maps.Keys(from)), ", ")
}

// oneUnit names one unit of value: "1 power", or in the game's currency
// where the unit is a step of it: "10 MP" (game.Unit.Scale).
func (m *model) oneUnit() string {
	if u := m.unit(); u.Scale > 1 && u.Currency != "" {
		return fmt.Sprintf("%d %s", u.Scale, u.Currency)
	}
	return "1 " + m.unit().Short
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
//
// In a game whose unit is a step of its currency (game.Unit.Scale) the
// reading is in the currency: "a 106-MP card [64, 147] (printed 100 MP),
// 10 MP = 1.19 pts …".
func (m *model) powerReading(c *cardView) string {
	v := c.Value
	u := m.unit()
	var s string
	if u.Scale > 1 && u.Currency != "" {
		k := float64(u.Scale)
		s = fmt.Sprintf("a %.0f-%s card [%.0f, %.0f]", v.Power*k, u.Currency, v.PowerCI95[0]*k, v.PowerCI95[1]*k)
		if c.HasFace {
			s += fmt.Sprintf(" (printed %d %s)", m.printedValue(&c.Info), u.Currency)
		}
	} else {
		s = fmt.Sprintf("%.1f %s [%.1f, %.1f]", v.Power, u.Short, v.PowerCI95[0], v.PowerCI95[1])
		if c.HasFace {
			s += fmt.Sprintf(" (printed %d)", c.Info.Power)
		}
	}
	if p, ok := m.rep.PriceOfPower[c.Faction]; ok {
		s += fmt.Sprintf(", %s = %.2f pts %s", m.oneUnit(), p.Pts, m.unitFrom(c.Faction))
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

// flagText says why a card is flagged, with the figure and interval it
// rests on; "" when it is not.
func (m *model) flagText(c *cardView) string {
	v := c.Value
	if v == nil {
		return ""
	}
	over := "a plain card"
	switch {
	case v.EffectBasis == analysis.EffectBlank:
		over = "a blank (its printed power is 0)"
	case c.HasFace:
		over = fmt.Sprintf("a plain card of printed power %d", c.Info.Power)
	}
	switch v.Flag {
	case analysis.FlagDead:
		return fmt.Sprintf("a dead card: one copy adds %+.1f pts [%+.1f, %+.1f] to its faction's win share over a blank, under %.0f pt over the whole interval — no better than a blank",
			v.Pts, v.PtsCI95[0], v.PtsCI95[1], analysis.DeadMargin)
	case analysis.FlagStrongText:
		return fmt.Sprintf("its text adds %+.1f pts [%+.1f, %+.1f] of win share over %s, beyond the %s card band",
			v.EffectPts, v.EffectPtsCI95[0], v.EffectPtsCI95[1], over, m.cardTolText())
	case analysis.FlagWeakText:
		return fmt.Sprintf("its text costs %+.1f pts [%+.1f, %+.1f] of win share against %s, beyond the %s card band",
			v.EffectPts, v.EffectPtsCI95[0], v.EffectPtsCI95[1], over, m.cardTolText())
	}
	return ""
}

// flagRule is the rule of the card flags in one line.
func (m *model) flagRule() string {
	return fmt.Sprintf("a dead card (one copy adds under %.0f point of win share over a blank, over its whole 95%% interval), or a card whose text adds more or less than the %s card band over a plain card of its printed power (over its whole interval)",
		analysis.DeadMargin, m.cardTolText())
}

// flagFig is the figure a card's flag states, in points.
func flagFig(v *analysis.CardValue) float64 {
	if v.Flag == analysis.FlagDead {
		return math.Abs(v.Pts)
	}
	return math.Abs(v.EffectPts)
}

// cardFindings: the flagged cards (docs/metrics.md, "Flags"), the largest
// figure first, at most maxCardFindings and a line saying how many more.
// Without card values none: the correlational figures do not say what to
// change.
func (m *model) cardFindings() []finding {
	if m.metric.Key == "impact" {
		var out []finding
		for _, c := range m.ranked() {
			if c.Sig != 0 {
				out = append(out, finding{fmt.Sprintf("%s (%s): impact %s %s — its faction's win share with the card minus with a blank in its place.",
					c.Info.Name, m.facName(c.Faction), m.metric.fig(c.Score), m.metric.ci(c.CI)), "card", groupCard, 100 * math.Abs(c.Score)})
			}
		}
		slices.SortStableFunc(out, func(a, b finding) int { return cmp.Compare(b.Fig, a.Fig) })
		return out[:min(6, len(out))]
	}
	if m.metric.Key != "value" {
		return nil
	}
	var out []finding
	for _, c := range m.cards {
		if c.Low || c.Value == nil || !c.Value.Flagged {
			continue
		}
		out = append(out, finding{fmt.Sprintf("%s (%s) is flagged: %s.%s", c.Info.Name, m.facName(c.Faction), m.flagText(c), m.cardSkillSuffix(c.ID)), "card", groupCard, flagFig(c.Value)})
	}
	slices.SortStableFunc(out, func(a, b finding) int { return cmp.Compare(b.Fig, a.Fig) })
	if len(out) > maxCardFindings {
		n := len(out) - maxCardFindings
		out = append(out[:maxCardFindings], finding{fmt.Sprintf("%d more %s flagged (cards.html, and balance.xlsx column \"flagged\").", n, plural(n, "card is", "cards are")), "card", groupCard, 0})
	}
	if f, ok := m.possiblyDead(); ok {
		out = append(out, f)
	}
	return out
}

// possiblyDead is the one line listing the possibly dead cards (no flag:
// docs/metrics.md, "Flags"), lowest estimate first, at most
// maxPossiblyDead named; ok is false when there are none.
func (m *model) possiblyDead() (f finding, ok bool) {
	var cs []*cardView
	for _, c := range m.cards {
		if !c.Low && c.Value != nil && c.Value.PossiblyDead {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return finding{}, false
	}
	slices.SortStableFunc(cs, func(a, b *cardView) int { return cmp.Compare(a.Value.Pts, b.Value.Pts) })
	var parts []string
	for _, c := range cs[:min(maxPossiblyDead, len(cs))] {
		v := c.Value
		parts = append(parts, fmt.Sprintf("%s (%s) %+.1f [%+.1f, %+.1f]", c.Info.Name, m.facName(c.Faction), v.Pts, v.PtsCI95[0], v.PtsCI95[1]))
	}
	s := strings.Join(parts, ", ")
	if n := len(cs) - maxPossiblyDead; n > 0 {
		s += fmt.Sprintf(" and %d more (cards.html, and balance.xlsx column \"flagged\")", n)
	}
	return finding{fmt.Sprintf("Possibly dead — one copy adds under %+.0f pt over a blank by its estimate, but the interval reaches above, so more games would tell: %s.",
		analysis.DeadMargin, s), "card", groupCardMaybe, 0}, true
}

// maxPossiblyDead caps the cards the possibly-dead line names (a default
// run has about a dozen).
const maxPossiblyDead = 8

// maxCardFindings caps the card findings (a default run flags about a
// dozen): the rest are marked in the gallery and the workbook.
const maxCardFindings = 15

// verdict is the one line a designer reads first: the faction furthest
// outside the tolerance band, and its flagged cards with what flags them —
// or that no faction is out of balance.
func (m *model) verdict() string {
	if m.oneSide() {
		return fmt.Sprintf("Every seat plays the one %s of this game, whose win share is its fair share by construction: the seats and the turn order (below) say whether the game favours a position.", m.vocab.Side)
	}
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
	flagged := 0
	for _, c := range m.cards {
		if !c.Low && c.Value != nil && c.Value.Flagged {
			flagged++
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
			return m.say("No faction was played.")
		}
		v := fd[big.ID]
		s := fmt.Sprintf(m.say("No faction is out of balance: no win share's interval lies outside the %s band around its fair share in %d games (largest: %s %s points %s)."),
			m.tolText(), m.rep.Games, big.Name, pts1(v.d()), ptsCI(v.dCI()))
		if m.metric.Key == "value" && flagged > 0 {
			s += fmt.Sprintf(" %d %s flagged (see the findings).", flagged, plural(flagged, "card is", "cards are"))
		}
		return s + m.skillVerdict()
	}
	v := fd[worst.ID]
	dir := "above"
	if v.d() < 0 {
		dir = "below"
	}
	s := fmt.Sprintf("%s is %.1f points %s fair share %s, out of balance", worst.Name, math.Abs(100*v.d()), dir, ptsCI(v.dCI()))
	if m.metric.Key == "value" {
		var fl []*cardView
		for _, c := range m.cards {
			if c.Faction == worst.ID && !c.Low && c.Value != nil && c.Value.Flagged {
				fl = append(fl, c)
			}
		}
		slices.SortStableFunc(fl, func(a, b *cardView) int { return cmp.Compare(flagFig(b.Value), flagFig(a.Value)) })
		var parts []string
		for _, c := range fl {
			parts = append(parts, fmt.Sprintf("%s (%s)", c.Info.Name, shortFlag(c.Value)))
		}
		if len(parts) > 0 {
			s += "; its flagged cards: " + strings.Join(parts, ", ")
		}
	}
	s += "."
	if outN > 1 {
		s += fmt.Sprintf(" %d more %s out of balance (see the findings).", outN-1, plural(outN-1, m.say("faction is"), m.say("factions are")))
	}
	return s + m.skillVerdict()
}

// shortFlag is a flag and its figure in a few words: "dead, +0.2 points
// over a blank", "text adds +14.1 points".
func shortFlag(v *analysis.CardValue) string {
	switch v.Flag {
	case analysis.FlagDead:
		return fmt.Sprintf("dead, %+.1f pts over a blank", v.Pts)
	case analysis.FlagStrongText:
		return fmt.Sprintf("text adds %+.1f pts", v.EffectPts)
	case analysis.FlagWeakText:
		return fmt.Sprintf("text costs %+.1f pts", v.EffectPts)
	}
	return ""
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
	slices.SortStableFunc(out, func(a, b *cardView) int { return cmp.Compare(b.Score, a.Score) })
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
	for _, p := range m.parts {
		for id, name := range p.Names {
			names[id] = name
		}
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
