package reports

// Skill-dependent verdicts (issue 26): the report's games played again at a
// second skill level (analysis.TierCheck), and every verdict that changes
// between the two marked. A faction is skill-dependent when the paired
// change of its win share between the tiers is significant after Holm over
// the factions AND its verdict against the tolerance band (above, below,
// possibly out, balanced) differs between the tiers; a card when the change
// of its value is significant after Holm over the cards AND its flag
// differs. Both conditions are needed: a significant change inside the band
// changes nothing a designer acts on, and a verdict that flips on noise at
// a band's edge is not a change of the game. "Significant" is judged as a
// rules change is (the change's interval lies beyond ±tolerance and the
// test against the band holds after Holm): with Holm alone, same-tier noise
// marked a faction in 2 of 20 seeds (docs/metrics.md,
// "Skill-dependent verdicts").

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/analysis"
)

// bandVerdict is a deviation's verdict against the band ±tol: "above",
// "below" (out of balance), "possibly out", "balanced".
func bandVerdict(v *deviation, tol float64) string {
	switch {
	case v.out(tol) && v.d() > 0:
		return "above"
	case v.out(tol):
		return "below"
	case v.possibly(tol):
		return "possibly out"
	}
	return "balanced"
}

// markTiers is a copy of tc with every faction's verdict at both tiers and
// its skill dependence set against the band ±tol (a win-share fraction),
// and every card's flags at both tiers (against the card band cardTol) and
// skill dependence; reportValues are the report tier's card values by id.
func markTiers(tc *analysis.TierCheck, tol, cardTol float64, reportValues map[string]*analysis.CardValue) *analysis.TierCheck {
	if tc == nil {
		return nil
	}
	c := *tc
	alpha := c.Alpha
	if !(alpha > 0 && alpha < 1) {
		alpha = analysis.DefaultAlpha
	}
	c.Factions = slices.Clone(tc.Factions)
	fam := make([]*analysis.TierFaction, len(c.Factions))
	for i := range c.Factions {
		fam[i] = &c.Factions[i]
	}
	markFamily(fam, tol, alpha)
	if tc.Matchups != nil {
		c.Matchups = slices.Clone(tc.Matchups)
		fam = make([]*analysis.TierFaction, len(c.Matchups))
		for i := range c.Matchups {
			fam[i] = &c.Matchups[i].TierFaction
		}
		markFamily(fam, tol, alpha)
	}
	if tc.Seats != nil {
		c.Seats = slices.Clone(tc.Seats)
		fam = make([]*analysis.TierFaction, len(c.Seats))
		for i := range c.Seats {
			fam[i] = &c.Seats[i].TierFaction
		}
		markFamily(fam, tol, alpha)
	}
	if tc.Cards != nil {
		c.Cards = slices.Clone(tc.Cards)
		for i := range c.Cards {
			k := &c.Cards[i]
			k.Value.SetFlag(cardTol)
			k.ReportFlag = ""
			if rv := reportValues[k.ID]; rv != nil {
				r := *rv
				r.SetFlag(cardTol)
				k.ReportFlag = r.Flag
			}
			k.SkillDependent = k.PAdj < alpha && k.Value.Flag != k.ReportFlag
		}
	}
	return &c
}

// markFamily sets the verdicts at both tiers and the skill dependence of a
// family of shares (the factions, or the matchups): each tier's verdict
// against the band with Holm within the tier, and the change against the
// band with Holm over the family.
func markFamily(fam []*analysis.TierFaction, tol, alpha float64) {
	var rep, chk []*deviation
	for _, f := range fam {
		n := f.Games
		rep = append(rep, newDeviation(analysis.WinStats{Games: n, WinRate: f.Variant, CI95: f.VariantCI95}, f.Fair, tol))
		chk = append(chk, newDeviation(analysis.WinStats{Games: n, WinRate: f.Base, CI95: f.BaseCI95}, f.Fair, tol))
	}
	holm(rep)
	holm(chk)
	// The change against the band, as a rules change is judged: beyond
	// it when its interval lies outside ±tol and the test of "within the
	// band" holds after Holm over the family.
	ps := make([]float64, len(fam))
	for i, f := range fam {
		ps[i] = 1
		if se := f.SD / math.Sqrt(float64(max(f.Games, 1))); se > 0 && f.Test != analysis.TestNone {
			ps[i] = math.Erfc(max(math.Abs(f.Delta)-tol, 0) / se / math.Sqrt2)
		}
	}
	for i, p := range analysis.Holm(ps) {
		f := fam[i]
		f.ReportVerdict, f.CheckVerdict = bandVerdict(rep[i], tol), bandVerdict(chk[i], tol)
		f.BeyondBandPAdj = math.Round(p*1e6) / 1e6
		beyond := f.CI95[0] > tol || f.CI95[1] < -tol
		f.SkillDependent = beyond && p < alpha && f.PAdj < alpha && f.ReportVerdict != f.CheckVerdict
	}
}

// botsName is a tier's bots as the reports name them: "strong",
// "greedy,random".
func botsName(b []string) string { return strings.Join(b, ",") }

// tierPhrase is a faction's deviation at one tier in a few words: "fair
// (−0.5)", "+3.1 (possibly out)", "+18.0 (out of balance)".
func tierPhrase(verdict string, d float64) string {
	switch verdict {
	case "balanced":
		return fmt.Sprintf("fair (%s)", pts1(d))
	case "possibly out":
		return pts1(d) + " (possibly out)"
	}
	return pts1(d) + " (out of balance)"
}

// skillFac is the faction's tier comparison, nil without one.
func (m *model) skillFac(id string) *analysis.TierFaction {
	if m.tiers == nil {
		return nil
	}
	for i := range m.tiers.Factions {
		if m.tiers.Factions[i].Faction == id {
			return &m.tiers.Factions[i]
		}
	}
	return nil
}

// skillMatchup is the 2-player lineup's tier comparison, nil without one.
func (m *model) skillMatchup(l []string) *analysis.TierMatchup {
	if m.tiers == nil {
		return nil
	}
	for i := range m.tiers.Matchups {
		if slices.Equal(m.tiers.Matchups[i].Lineup, l) {
			return &m.tiers.Matchups[i]
		}
	}
	return nil
}

// matchupTierText is "Romulan +2.0 (fair) against greedy play, +13.0 (out
// of balance) against strong play" for the lineup's first faction.
func (m *model) matchupTierText(t *analysis.TierMatchup) string {
	return fmt.Sprintf("%s %s against %s play, %s against %s play", m.facName(t.Lineup[0]), tierPhrase(t.CheckVerdict, t.Base-t.Fair), botsName(m.tiers.CheckBots),
		tierPhrase(t.ReportVerdict, t.Variant-t.Fair), botsName(m.tiers.Bots))
}

// matchupSkillSuffix is what a matchup finding adds when the matchup is
// skill-dependent.
func (m *model) matchupSkillSuffix(l []string) string {
	t := m.skillMatchup(l)
	if t == nil || !t.SkillDependent {
		return ""
	}
	return fmt.Sprintf(" Skill-dependent: against %s play %s wins %s of this matchup, %s.", botsName(m.tiers.CheckBots), m.facName(t.Lineup[0]),
		pct1(t.Base), tierPhrase(t.CheckVerdict, t.Base-t.Fair))
}

// skillSeat is a seat's tier comparison, nil without one.
func (m *model) skillSeat(players, seat int) *analysis.TierSeat {
	if m.tiers == nil {
		return nil
	}
	if m.tiers.SeatsCompared != "" {
		return nil // its seats are in turn order: skillTurn
	}
	for i := range m.tiers.Seats {
		if s := &m.tiers.Seats[i]; s.Players == players && s.Seat == seat {
			return s
		}
	}
	return nil
}

// skillTurn is the tier comparison of the seat pos-th in turn order (1:
// the starting seat) where the check compares seats in turn order (a
// mirror whose games say who began), nil otherwise.
func (m *model) skillTurn(players, pos int) *analysis.TierSeat {
	if m.tiers == nil || m.tiers.SeatsCompared != analysis.ComparedTurnOrder {
		return nil
	}
	for i := range m.tiers.Seats {
		if s := &m.tiers.Seats[i]; s.Players == players && s.Seat == pos {
			return s
		}
	}
	return nil
}

// turnSkillSuffix is what a turn-order finding adds when that place in
// turn order is skill-dependent.
func (m *model) turnSkillSuffix(players, pos int) string {
	t := m.skillTurn(players, pos)
	if t == nil || !t.SkillDependent {
		return ""
	}
	return fmt.Sprintf(" Skill-dependent: against %s play it wins %s, %s.", botsName(m.tiers.CheckBots), pct1(t.Base), tierPhrase(t.CheckVerdict, t.Base-t.Fair))
}

// tierSeatName is "seat 2" or, in turn order, "the starting seat".
func tierSeatName(t *analysis.TierSeat) string {
	if t.Name != "" {
		return "the " + t.Name
	}
	return fmt.Sprintf("seat %d", t.Seat)
}

// seatSkillSuffix is what a seat finding adds when the seat is
// skill-dependent.
func (m *model) seatSkillSuffix(players, seat int) string {
	t := m.skillSeat(players, seat)
	if t == nil || !t.SkillDependent {
		return ""
	}
	return fmt.Sprintf(" Skill-dependent: against %s play it wins %s, %s.", botsName(m.tiers.CheckBots), pct1(t.Base), tierPhrase(t.CheckVerdict, t.Base-t.Fair))
}

// skillCard is the card's tier comparison, nil without one.
func (m *model) skillCard(id string) *analysis.TierCard {
	if m.tiers == nil {
		return nil
	}
	for i := range m.tiers.Cards {
		if m.tiers.Cards[i].ID == id {
			return &m.tiers.Cards[i]
		}
	}
	return nil
}

// facTierText is "fair (−0.5) against greedy play, +18.0, out of balance
// against strong play".
func (m *model) facTierText(f *analysis.TierFaction) string {
	return fmt.Sprintf("%s against %s play, %s against %s play", tierPhrase(f.CheckVerdict, f.Base-f.Fair), botsName(m.tiers.CheckBots),
		tierPhrase(f.ReportVerdict, f.Variant-f.Fair), botsName(m.tiers.Bots))
}

// flagWords is a card flag in words.
func flagWords(flag string) string {
	switch flag {
	case analysis.FlagDead:
		return "dead"
	case analysis.FlagStrongText:
		return "strong text"
	case analysis.FlagWeakText:
		return "weak text"
	}
	return "not flagged"
}

// cardTierText is "dead against greedy play, not flagged against strong
// play".
func (m *model) cardTierText(k *analysis.TierCard) string {
	return fmt.Sprintf("%s against %s play, %s against %s play", flagWords(k.Value.Flag), botsName(m.tiers.CheckBots),
		flagWords(k.ReportFlag), botsName(m.tiers.Bots))
}

// skillVerdict is the verdict's sentence on the skill check: the
// skill-dependent factions, or that none is, or nothing without a check.
func (m *model) skillVerdict() string {
	if m.tiers == nil {
		return ""
	}
	var parts []string
	for _, f := range m.factions {
		if t := m.skillFac(f.ID); t != nil && t.SkillDependent {
			parts = append(parts, f.Name+": "+m.facTierText(t))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf(m.say(" Checked against %s play on the same deals: no faction's verdict changes."), botsName(m.tiers.CheckBots))
	}
	return fmt.Sprintf(" Skill-dependent (checked against %s play on the same deals) — %s.", botsName(m.tiers.CheckBots), strings.Join(parts, "; "))
}

// skillFindings are the findings of the skill check: one per
// skill-dependent faction, one line of skill-dependent cards, and a note
// when nothing changes.
func (m *model) skillFindings() []finding {
	if m.tiers == nil {
		return nil
	}
	var out []finding
	largest := 0.0
	var largestF string
	for _, f := range m.factions {
		t := m.skillFac(f.ID)
		if t == nil {
			continue
		}
		if math.Abs(t.Delta) >= math.Abs(largest) {
			largest, largestF = t.Delta, f.Name
		}
		if !t.SkillDependent {
			continue
		}
		out = append(out, finding{fmt.Sprintf("%s is skill-dependent: %s. On the same %d games it wins %s [%s] against %s play and %s [%s] against %s play; the paired change is %s points %s (%s over the factions).",
			f.Name, m.facTierText(t), t.Games, pct1(t.Variant), ciPct(t.VariantCI95), botsName(m.tiers.Bots),
			pct1(t.Base), ciPct(t.BaseCI95), botsName(m.tiers.CheckBots),
			pts1(t.Delta), ptsCI(t.CI95), pAdjText(t.PAdj)), "skill", groupSkill, math.Abs(100 * t.Delta)})
	}
	slices.SortStableFunc(out, func(a, b finding) int { return cmp.Compare(b.Fig, a.Fig) })
	var ms []string
	for i := range m.tiers.Matchups {
		if t := &m.tiers.Matchups[i]; t.SkillDependent {
			ms = append(ms, fmt.Sprintf("%s vs %s — %s (paired change %s points %s, %s)", m.facName(t.Lineup[0]), m.facName(t.Lineup[1]),
				m.matchupTierText(t), pts1(t.Delta), ptsCI(t.CI95), pAdjText(t.PAdj)))
		}
	}
	for i := range m.tiers.Seats {
		if t := &m.tiers.Seats[i]; t.SkillDependent {
			ms = append(ms, fmt.Sprintf("%s at %d-player tables — %s against %s play, %s against %s play (paired change %s points %s, %s)", tierSeatName(t), t.Players,
				tierPhrase(t.CheckVerdict, t.Base-t.Fair), botsName(m.tiers.CheckBots), tierPhrase(t.ReportVerdict, t.Variant-t.Fair), botsName(m.tiers.Bots),
				pts1(t.Delta), ptsCI(t.CI95), pAdjText(t.PAdj)))
		}
	}
	if len(ms) > 0 {
		out = append(out, finding{fmt.Sprintf("Skill-dependent matchups and seats: %s.", strings.Join(ms, "; ")), "skill", groupSkill, 0})
	}
	var cs []string
	n := 0
	for _, c := range m.ranked() {
		k := m.skillCard(c.ID)
		if k == nil || !k.SkillDependent {
			continue
		}
		n++
		if len(cs) < maxPossiblyDead {
			cs = append(cs, fmt.Sprintf("%s (%s; %s)", c.Info.Name, m.facName(c.Faction), m.cardTierText(k)))
		}
	}
	if n > 0 {
		more := ""
		if n > len(cs) {
			more = fmt.Sprintf(", and %d more (balance.xlsx, sheet \"Skill check\")", n-len(cs))
		}
		out = append(out, finding{fmt.Sprintf("%d %s skill-dependent — the flag changes between %s and %s play and the change of pts is significant after Holm over the cards: %s%s.",
			n, plural(n, "card is", "cards are"), botsName(m.tiers.CheckBots), botsName(m.tiers.Bots), strings.Join(cs, "; "), more), "skill", groupSkill, 0})
	}
	if len(out) == 0 {
		// Where one side holds every seat (Goofspiel), the check has no
		// sides to compare, only seats.
		seatsOnly := len(m.tiers.Factions) == 0 && len(m.tiers.Seats) > 0
		what := m.say("no faction's verdict")
		if seatsOnly {
			what = "no seat's verdict"
		}
		s := fmt.Sprintf("Checked against %s play on the same %d games per lineup: %s changes with skill", botsName(m.tiers.CheckBots), m.tiers.Games, what)
		if largestF != "" {
			s += fmt.Sprintf(" (largest paired change: %s %s points)", largestF, pts1(largest))
		}
		if len(m.tiers.Matchups) > 0 {
			s += ", nor any matchup's"
		}
		if len(m.tiers.Seats) > 0 && !seatsOnly {
			s += ", nor any seat's"
		}
		if m.tiers.Cards != nil {
			s += ", nor any card's flag"
		}
		out = append(out, finding{s + ".", "note", groupNote, 0})
	}
	return out
}

// skillSuffix is what a faction finding adds when the faction is
// skill-dependent: " Skill-dependent: fair (…) against greedy play."
func (m *model) skillSuffix(id string) string {
	t := m.skillFac(id)
	if t == nil || !t.SkillDependent {
		return ""
	}
	return fmt.Sprintf(" Skill-dependent: %s against %s play.", tierPhrase(t.CheckVerdict, t.Base-t.Fair), botsName(m.tiers.CheckBots))
}

// cardSkillSuffix is what a card finding adds when the card is
// skill-dependent.
func (m *model) cardSkillSuffix(id string) string {
	k := m.skillCard(id)
	if k == nil || !k.SkillDependent {
		return ""
	}
	return fmt.Sprintf(" Skill-dependent: %s against %s play.", flagWords(k.Value.Flag), botsName(m.tiers.CheckBots))
}

// botsLine says which bots produced the figures: every page, sheet and
// the summary shows it.
func (m *model) botsLine() string {
	s := fmt.Sprintf("Every figure comes from games of the %s bot", botsName(m.rep.Config.Bots))
	if d := m.rep.CardValueDesign; d != nil && len(d.Bots) > 0 && botsName(d.Bots) != botsName(m.rep.Config.Bots) {
		s += fmt.Sprintf(" (card values: %s)", botsName(d.Bots))
	}
	if m.tiers != nil {
		s += fmt.Sprintf("; the skill check replays the same deals with the %s bot", botsName(m.tiers.CheckBots))
		if m.tiers.Cards != nil {
			s += " (card values too)"
		}
		s += "."
	} else {
		s += "; no skill check was run."
	}
	return s
}

// xlsxSkillCheck is the sheet of the skill check's factions: both tiers'
// shares and verdicts, the paired change and the mark.
func (m *model) xlsxSkillCheck(s *sheet) {
	pct := func(analysis.TierFaction) look { return look{numFmt: fmtPct} }
	cols := []col[analysis.TierFaction]{
		{head: "faction", width: 14, val: func(f analysis.TierFaction) any { return f.Faction }},
		{head: "name", width: 18, val: func(f analysis.TierFaction) any { return m.facName(f.Faction) }},
		{head: "fair share", val: func(f analysis.TierFaction) any { return f.Fair }, look: pct},
		{head: "report bots", val: func(analysis.TierFaction) any { return botsName(m.tiers.Bots) }, doc: "the bots of the report's tier: every other sheet's figures come from their games"},
		{head: "report win rate", val: func(f analysis.TierFaction) any { return f.Variant }, look: pct, doc: m.say("the faction's win share at the report's tier, on the paired games (its Factions sheet figure)")},
		{head: "report ci95 low", val: func(f analysis.TierFaction) any { return f.VariantCI95[0] }, look: pct, doc: "the Wilson 95% interval of the report tier's win share"},
		{head: "report ci95 high", val: func(f analysis.TierFaction) any { return f.VariantCI95[1] }, look: pct, doc: "the Wilson 95% interval of the report tier's win share"},
		{head: "report verdict", val: func(f analysis.TierFaction) any { return f.ReportVerdict }, doc: "the verdict against the tolerance band at the report's tier: above or below (out of balance), possibly out, balanced"},
		{head: "check bots", val: func(analysis.TierFaction) any { return botsName(m.tiers.CheckBots) }, doc: "the bots of the check tier, which replayed the same games (same per-game seeds)"},
		{head: "check win rate", val: func(f analysis.TierFaction) any { return f.Base }, look: pct, doc: m.say("the faction's win share at the check tier, on the same games")},
		{head: "check ci95 low", val: func(f analysis.TierFaction) any { return f.BaseCI95[0] }, look: pct, doc: "the Wilson 95% interval of the check tier's win share"},
		{head: "check ci95 high", val: func(f analysis.TierFaction) any { return f.BaseCI95[1] }, look: pct, doc: "the Wilson 95% interval of the check tier's win share"},
		{head: "check verdict", val: func(f analysis.TierFaction) any { return f.CheckVerdict }, doc: "the verdict against the tolerance band at the check tier"},
	}
	cols = append(cols, pairedCols(func(f analysis.TierFaction) *analysis.PairedTest { return &f.PairedTest })...)
	cols = append(cols, col[analysis.TierFaction]{head: "skill-dependent", val: func(f analysis.TierFaction) any { return yes(f.SkillDependent) },
		doc: m.say("yes when the paired change (report − check) lies beyond the tolerance band (its interval outside it, the band test significant after Holm over the factions) and the two verdicts differ (docs/metrics.md, \"Skill-dependent verdicts\")")})
	table(s, cols, m.tiers.Factions)
}

// xlsxSkillCheckCards is the sheet of the skill check's cards: both tiers'
// values and flags, the test of their difference and the mark.
func (m *model) xlsxSkillCheckCards(s *sheet) {
	pts := func(analysis.TierCard) look { return look{numFmt: fmtPow} }
	rv := reportValues(m.rep)
	rep := func(k analysis.TierCard) *analysis.CardValue { return rv[k.ID] }
	cols := []col[analysis.TierCard]{
		{head: "id", width: 20, val: func(k analysis.TierCard) any { return k.ID }},
		{head: "name", width: 24, val: func(k analysis.TierCard) any {
			for _, c := range m.cards {
				if c.ID == k.ID {
					return c.Info.Name
				}
			}
			return k.ID
		}},
		{head: "report bots", val: func(analysis.TierCard) any { return botsName(m.tiers.Bots) }, doc: "the bots of the report's tier, whose card-value experiment gave report pts"},
		{head: "report pts", val: func(k analysis.TierCard) any { return rep(k).Pts }, look: pts, doc: m.say("one copy against a blank, in points of its faction's win share, at the report's tier (the Cards sheet's pts)")},
		{head: "report flag", val: func(k analysis.TierCard) any { return flagWords(k.ReportFlag) }, doc: "the card's flag at the report's tier: dead, strong text, weak text or not flagged"},
		{head: "check bots", val: func(analysis.TierCard) any { return botsName(m.tiers.CheckBots) }, doc: "the bots of the check tier, whose own card-value experiment gave check pts"},
		{head: "check pts", val: func(k analysis.TierCard) any { return k.Value.Pts }, look: pts, doc: "the same figure measured by its own experiment at the check tier"},
		{head: "check pts ci95 low", val: func(k analysis.TierCard) any { return k.Value.PtsCI95[0] }, look: pts, doc: "the 95% interval of the check tier's pts"},
		{head: "check pts ci95 high", val: func(k analysis.TierCard) any { return k.Value.PtsCI95[1] }, look: pts, doc: "the 95% interval of the check tier's pts"},
		{head: "check flag", val: func(k analysis.TierCard) any { return flagWords(k.Value.Flag) }, doc: "the card's flag at the check tier, against the same card band"},
		{head: "p", val: func(k analysis.TierCard) any { return k.P }, look: func(analysis.TierCard) look { return look{numFmt: fmtP} },
			doc: "two-sided p-value of report pts − check pts (two independent experiments, normal approximation)"},
		{head: "p adjusted", val: func(k analysis.TierCard) any { return k.PAdj }, look: func(analysis.TierCard) look { return look{numFmt: fmtP} }},
		{head: "skill-dependent", val: func(k analysis.TierCard) any { return yes(k.SkillDependent) },
			doc: "yes when the change of pts is significant after Holm over the cards and the two flags differ"},
	}
	table(s, cols, m.tiers.Cards)
}

// precisionText is the card values' precision as reached, the games and
// the bots: "±4.1 pts reached (asked ±2.5; stopped at the budget of 2500
// games per lineup), 15000 games of the strong bot".
func (m *model) precisionText(d *analysis.CardValueDesign) string {
	reached := fmt.Sprintf("median 95%% half-width ±%.1f pts", d.MedianPtsHalfWidth)
	switch {
	case d.Precision < 0:
		reached += " (a fixed number of games)"
	case d.MedianPtsHalfWidth > d.Precision:
		reached += fmt.Sprintf(" — coarser than the ±%s asked: the run stopped at its budget of %d games per lineup", trimFloat(d.Precision), d.GamesPerLineup)
	default:
		reached += fmt.Sprintf(" (±%s asked)", trimFloat(d.Precision))
	}
	return fmt.Sprintf("%s, from %d games of the %s bot", reached, d.Games, botsName(d.Bots))
}

// skillChartNote is what the cards chart's note says of the skill check.
func (m *model) skillChartNote() string {
	if m.tiers == nil || m.tiers.Cards == nil {
		return ""
	}
	return fmt.Sprintf(" ◆: skill-dependent — the card's flag differs against %s play (the same experiment at the check tier) and the change is significant after Holm over the cards.", botsName(m.tiers.CheckBots))
}

// xlsxSkillCheckMatchups is the sheet of the skill check's matchups.
func (m *model) xlsxSkillCheckMatchups(s *sheet) {
	pct := func(analysis.TierMatchup) look { return look{numFmt: fmtPct} }
	cols := []col[analysis.TierMatchup]{
		{head: "lineup", width: 24, val: func(t analysis.TierMatchup) any { return strings.Join(t.Lineup, " vs ") }, doc: "the 2-player lineup; its first faction's share is shown"},
		{head: "report bots", val: func(analysis.TierMatchup) any { return botsName(m.tiers.Bots) }, doc: "the bots of the report's tier"},
		{head: "report win rate", val: func(t analysis.TierMatchup) any { return t.Variant }, look: pct, doc: "the first faction's win share in this lineup at the report's tier"},
		{head: "report verdict", val: func(t analysis.TierMatchup) any { return t.ReportVerdict }, doc: "the verdict against the tolerance band around 50% at the report's tier"},
		{head: "check bots", val: func(analysis.TierMatchup) any { return botsName(m.tiers.CheckBots) }, doc: "the bots of the check tier, on the same games"},
		{head: "check win rate", val: func(t analysis.TierMatchup) any { return t.Base }, look: pct, doc: "the first faction's win share in this lineup at the check tier, on the same games"},
		{head: "check verdict", val: func(t analysis.TierMatchup) any { return t.CheckVerdict }, doc: "the verdict against the tolerance band around 50% at the check tier"},
	}
	cols = append(cols, pairedCols(func(t analysis.TierMatchup) *analysis.PairedTest { return &t.PairedTest })...)
	cols = append(cols, col[analysis.TierMatchup]{head: "skill-dependent", val: func(t analysis.TierMatchup) any { return yes(t.SkillDependent) },
		doc: "yes when the paired change is beyond the band after Holm over the matchups and the two verdicts differ"})
	table(s, cols, m.tiers.Matchups)
}

// xlsxSkillCheckSeats is the sheet of the skill check's seats.
func (m *model) xlsxSkillCheckSeats(s *sheet) {
	pct := func(analysis.TierSeat) look { return look{numFmt: fmtPct} }
	cols := []col[analysis.TierSeat]{
		{head: "players", val: func(t analysis.TierSeat) any { return t.Players }, doc: "the table size"},
		{head: "seat", val: func(t analysis.TierSeat) any {
			if t.Name != "" {
				return t.Name
			}
			return t.Seat
		}, doc: "the seat, 1 first; in a game whose seats all play one side and whose games say who began, the seat in turn order from the one that began each game (starting seat, 2nd in turn, …), each tier's own starter"},
		{head: "fair share", val: func(t analysis.TierSeat) any { return t.Fair }, look: pct},
		{head: "report bots", val: func(analysis.TierSeat) any { return botsName(m.tiers.Bots) }, doc: "the bots of the report's tier"},
		{head: "report win rate", val: func(t analysis.TierSeat) any { return t.Variant }, look: pct, doc: "the seat's win share at the report's tier"},
		{head: "report verdict", val: func(t analysis.TierSeat) any { return t.ReportVerdict }, doc: "the verdict against the tolerance band around the fair share at the report's tier"},
		{head: "check bots", val: func(analysis.TierSeat) any { return botsName(m.tiers.CheckBots) }, doc: "the bots of the check tier, on the same games"},
		{head: "check win rate", val: func(t analysis.TierSeat) any { return t.Base }, look: pct, doc: "the seat's win share at the check tier, on the same games"},
		{head: "check verdict", val: func(t analysis.TierSeat) any { return t.CheckVerdict }, doc: "the verdict against the tolerance band at the check tier"},
	}
	cols = append(cols, pairedCols(func(t analysis.TierSeat) *analysis.PairedTest { return &t.PairedTest })...)
	cols = append(cols, col[analysis.TierSeat]{head: "skill-dependent", val: func(t analysis.TierSeat) any { return yes(t.SkillDependent) },
		doc: "yes when the paired change is beyond the band after Holm over the seats and the two verdicts differ"})
	table(s, cols, m.tiers.Seats)
}
