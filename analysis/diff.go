package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// DiffConfig describes a rule-version comparison: Base first, Variant
// second, on the same games. Every lineup must be playable under both.
type DiffConfig struct {
	PairedConfig
	Base, Variant *rules.Ruleset
	// BaseGame and VariantGame are two rulesets of another game (when Base
	// and Variant are nil).
	BaseGame, VariantGame game.Ruleset
}

// Diff lists what changed between two rulesets and measures what the change
// does: every faction's paired win-share difference with its interval and a
// Holm-corrected test across the factions, and the per-card and per-target
// metrics of both arms.
func Diff(ctx context.Context, cfg DiffConfig) (*DiffResult, error) {
	a, b := cfg.Base, cfg.Variant
	if a == nil && b == nil && cfg.BaseGame != nil && cfg.VariantGame != nil {
		return diffGame(ctx, cfg)
	}
	if a == nil || b == nil {
		return nil, fmt.Errorf("%w: diff needs two rulesets", ErrConfig)
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	res := &DiffResult{
		Base:       RulesetInfo{Name: a.Name, Version: a.Version, Hash: a.Hash},
		Variant:    RulesetInfo{Name: b.Name, Version: b.Version, Hash: b.Hash},
		Changes:    RulesetChanges(a, b),
		Alpha:      cfg.alpha(),
		Correction: CorrectionHolm,
		Cards:      []CardDelta{}, Targets: []TargetDelta{},
	}
	armA := &arm{rs: a, counts: true}
	armB := &arm{rs: b, counts: true}
	pc := cfg.PairedConfig
	partial, elapsed, err := runArms(ctx, &pc, []*arm{armA, armB})
	if err != nil {
		return nil, err
	}
	res.ArmInfo = pc.info(armA.plan.bots)
	res.Partial = partial
	res.Timing = runTiming(armA.played+armB.played, elapsed)
	factions := factionsOf(a, pc.Matchups)
	res.Factions = comparison(&pc, factions, armA, armB, CorrectionHolm)
	for _, f := range res.Factions {
		if f.Significant {
			res.Significant = true
		}
	}
	// Descriptive metrics of both arms.
	minN := pc.minSample()
	repA := summarize(header{config: ConfigInfo{MinSample: minN}}, armA.Counts)
	repB := summarize(header{config: ConfigInfo{MinSample: minN}}, armB.Counts)
	changedCard := map[string]bool{}
	changedTarget := map[string]bool{}
	for _, c := range res.Changes {
		switch c.Kind {
		case "card":
			changedCard[c.ID] = true
		case "target":
			changedTarget[c.ID] = true
		}
	}
	cardsB := map[string]*CardStats{}
	for i := range repB.Cards {
		cardsB[repB.Cards[i].ID] = &repB.Cards[i]
	}
	for i := range repA.Cards {
		ka := &repA.Cards[i]
		kb := cardsB[ka.ID]
		if kb == nil {
			continue
		}
		res.Cards = append(res.Cards, CardDelta{ID: ka.ID, Faction: ka.Faction, Name: ka.Name, Changed: changedCard[ka.ID],
			PlayRate: valueDelta(ka.PlayRate, kb.PlayRate), PlayedWR: valueDelta(Or0(ka.PlayedWR), Or0(kb.PlayedWR)), OHWR: valueDelta(Or0(ka.OHWR), Or0(kb.OHWR)),
			RowWinRate: valueDelta(ka.RowWinRate, kb.RowWinRate), MeanPower: valueDelta(ka.MeanPower, kb.MeanPower),
			FiredPerGame: valueDelta(ratio(float64(ka.Fired), float64(ka.Games)), ratio(float64(kb.Fired), float64(kb.Games)))})
	}
	tgB := map[string]*TargetStats{}
	for i := range repB.Targets {
		tgB[repB.Targets[i].ID] = &repB.Targets[i]
	}
	for i := range repA.Targets {
		ta := &repA.Targets[i]
		tb := tgB[ta.ID]
		if tb == nil {
			continue
		}
		res.Targets = append(res.Targets, TargetDelta{ID: ta.ID, Name: ta.Name, Changed: changedTarget[ta.ID],
			CaptureRate: valueDelta(ta.CaptureRate, tb.CaptureRate), MeanMargin: valueDelta(ta.MeanMargin, tb.MeanMargin),
			TieRate:     valueDelta(ta.TieRate, tb.TieRate),
			LaidPerGame: valueDelta(ratio(float64(ta.Laid), float64(repA.Games)), ratio(float64(tb.Laid), float64(repB.Games)))})
	}
	res.Verdict = diffVerdict(res)
	return res, nil
}

func valueDelta(a, b float64) ValueDelta {
	return ValueDelta{Base: round6(a), Variant: round6(b), Delta: round6(b - a)}
}

// diffVerdict is the one-line reading of a diff.
func diffVerdict(r *DiffResult) string {
	games := int64(0)
	for _, f := range r.Factions {
		games = max(games, f.Games)
	}
	pts := func(x float64) string { return fmt.Sprintf("%+.1f", 100*x) }
	if len(r.Changes) == 0 {
		changed := int64(0)
		for _, f := range r.Factions {
			changed += f.Changed
		}
		if changed == 0 {
			return "no changes: the rulesets define the same game and every paired game ended the same"
		}
	}
	var sig []string
	for _, f := range r.Factions {
		if f.Significant {
			sig = append(sig, fmt.Sprintf("%s %s points [%s, %s] (p_adj %s)", f.Faction, pts(f.Delta),
				pts(f.CI95[0]), pts(f.CI95[1]), formatP(f.PAdj)))
		}
	}
	// What differs is the definitions, what is significant the factions'
	// win shares: two counts, each named.
	what := fmt.Sprintf("%d %s", len(r.Changes), pluralWord(len(r.Changes), "definition differs", "definitions differ"))
	if len(r.Changes) == 0 {
		what = "no definition differs, yet the games do: a deck listed in another order, for one"
	}
	if len(sig) > 0 {
		return fmt.Sprintf("SIGNIFICANT: %d of %d %s changed (Holm-corrected at %.2g): %s; %s", len(sig), len(r.Factions),
			pluralWord(len(r.Factions), "faction's win share", "factions' win shares"), r.Alpha, strings.Join(sig, "; "), what)
	}
	// What the run could have seen: the minimum detectable effect (80%
	// power after Holm) of the least sensitive faction — not an interval's
	// half-width, which is the effect detected only half the time.
	mde, big, changed := 0.0, FactionDelta{}, int64(0)
	for _, f := range r.Factions {
		mde = math.Max(mde, f.MDE80)
		changed += f.Changed
		if math.Abs(f.Delta) >= math.Abs(big.Delta) {
			big = f
		}
	}
	if changed == 0 {
		bound := 0.0
		for _, f := range r.Factions {
			bound = math.Max(bound, math.Max(-f.CI95[0], f.CI95[1]))
		}
		return fmt.Sprintf("no game changed (%s, %d paired games per faction at most): every paired game ended the same in both versions; any effect on a faction's win share is within ±%.1f points (95%%)",
			what, games, 100*bound)
	}
	note := ""
	if big.CI95[0] > 0 || big.CI95[1] < 0 {
		note = fmt.Sprintf(" (its own interval excludes 0, p %s, but not after correcting for %d factions)", formatP(big.P), len(r.Factions))
	}
	return fmt.Sprintf("no significant change in any faction's win share (%s, %d paired games per faction at most); largest: %s %s points [%s, %s]%s; this run detects a change of ±%.1f points in any one faction with 80%% power (Holm over %d factions) — smaller ones may be missed",
		what, games, big.Faction, pts(big.Delta), pts(big.CI95[0]), pts(big.CI95[1]), note, 100*mde, len(r.Factions))
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func formatP(p float64) string {
	if p < 0.001 {
		return "< 0.001"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// RulesetChanges lists the definition differences between rulesets a and b:
// rule parameters, factions, then player cards and targets by id.
func RulesetChanges(a, b *rules.Ruleset) []Change {
	out := []Change{}
	add := func(kind, id, field, va, vb, pos string) {
		if va != vb {
			out = append(out, Change{Kind: kind, ID: id, Change: "changed", Field: field, Base: va, Variant: vb, Pos: pos})
		}
	}
	// addAt is add for a field of the list item at p in b: the change points
	// at the field's own line when it is written out.
	addAt := func(kind, id, field, va, vb string, p cards.Pos) {
		pos := posString(p)
		if va != vb {
			if l := findKeyLine(b.Files[p.File], p.Line, field, true); l > 0 {
				pos = fmt.Sprintf("%s:%d", p.File, l)
			}
		}
		add(kind, id, field, va, vb, pos)
	}
	itoa := strconv.Itoa
	ra, rb := &a.Rules, &b.Rules
	rulesPos := "rules.yaml"
	add("rules", "", "name", a.Name, b.Name, rulesPos)
	add("rules", "", "version", a.Version, b.Version, rulesPos)
	add("rules", "", "players.min", itoa(ra.MinPlayers), itoa(rb.MinPlayers), rulesPos)
	add("rules", "", "players.max", itoa(ra.MaxPlayers), itoa(rb.MaxPlayers), rulesPos)
	add("rules", "", "hand_size", itoa(ra.HandSize), itoa(rb.HandSize), rulesPos)
	add("rules", "", "targets_per_round", itoa(ra.TargetsPerRound), itoa(rb.TargetsPerRound), rulesPos)
	add("rules", "", "cards_to_end", itoa(ra.CardsToEnd), itoa(rb.CardsToEnd), rulesPos)
	add("rules", "", "deck_size", itoa(ra.DeckSize), itoa(rb.DeckSize), rulesPos)
	add("rules", "", "rounds", itoa(ra.Rounds), itoa(rb.Rounds), rulesPos)
	add("rules", "", "planet_bonus", itoa(ra.PlanetBonus), itoa(rb.PlanetBonus), rulesPos)
	add("rules", "", "federation.affiliation", ra.FederationAffiliation, rb.FederationAffiliation, rulesPos)
	add("rules", "", "federation.factions", listString(ra.FederationFactions), listString(rb.FederationFactions), rulesPos)
	add("rules", "", "starting_faction", ra.StartingFaction, rb.StartingFaction, rulesPos)
	add("rules", "", "tie_break", listString(ra.TieBreak), listString(rb.TieBreak), rulesPos)
	add("rules", "", "affiliations", listString(a.Affiliations), listString(b.Affiliations), rulesPos)
	for i := range out {
		if l := findKeyLine(b.Files["rules.yaml"], 1, strings.SplitN(out[i].Field, ".", 2)[0], false); l > 0 {
			out[i].Pos = fmt.Sprintf("rules.yaml:%d", l)
		}
	}
	// Factions.
	for _, fa := range a.Factions {
		fb, ok := b.FactionByID(fa.ID)
		if !ok {
			out = append(out, Change{Kind: "faction", ID: fa.ID, Change: "removed", Pos: posString(fa.Pos)})
			continue
		}
		addAt("faction", fa.ID, "name", fa.Name, fb.Name, fb.Pos)
		addAt("faction", fa.ID, "planets", listString(fa.Planets), listString(fb.Planets), fb.Pos)
		addAt("faction", fa.ID, "deck", deckIDs(a, &fa), deckIDs(b, fb), fb.Pos)
	}
	for _, fb := range b.Factions {
		if _, ok := a.FactionByID(fb.ID); !ok {
			out = append(out, Change{Kind: "faction", ID: fb.ID, Change: "added", Pos: posString(fb.Pos)})
		}
	}
	// Cards.
	for i := range a.Cards {
		ca := &a.Cards[i]
		cb, ok := b.CardByID(ca.ID)
		if !ok {
			out = append(out, Change{Kind: "card", ID: ca.ID, Change: "removed", Base: ca.Name, Pos: posString(ca.Pos)})
			continue
		}
		addAt("card", ca.ID, "name", ca.Name, cb.Name, cb.Pos)
		addAt("card", ca.ID, "faction", a.Factions[ca.Faction].ID, b.Factions[cb.Faction].ID, cb.Pos)
		addAt("card", ca.ID, "type", ca.Type.String(), cb.Type.String(), cb.Pos)
		addAt("card", ca.ID, "kind", ca.Kind.String(), cb.Kind.String(), cb.Pos)
		addAt("card", ca.ID, "power", itoa(ca.Power), itoa(cb.Power), cb.Pos)
		addAt("card", ca.ID, "copies", itoa(ca.Copies), itoa(cb.Copies), cb.Pos)
		addAt("card", ca.ID, "effect", bindingString(ca.Effect), bindingString(cb.Effect), cb.Pos)
		addAt("card", ca.ID, "tags", listString(ca.Tags), listString(cb.Tags), cb.Pos)
		addAt("card", ca.ID, "text", ca.Text, cb.Text, cb.Pos)
	}
	for i := range b.Cards {
		if _, ok := a.CardByID(b.Cards[i].ID); !ok {
			out = append(out, Change{Kind: "card", ID: b.Cards[i].ID, Change: "added", Variant: b.Cards[i].Name, Pos: posString(b.Cards[i].Pos)})
		}
	}
	// Targets.
	for i := range a.Targets {
		ta := &a.Targets[i]
		tb, ok := b.TargetByID(ta.ID)
		if !ok {
			out = append(out, Change{Kind: "target", ID: ta.ID, Change: "removed", Base: ta.Name, Pos: posString(ta.Pos)})
			continue
		}
		addAt("target", ta.ID, "name", ta.Name, tb.Name, tb.Pos)
		addAt("target", ta.ID, "type", ta.Type.String(), tb.Type.String(), tb.Pos)
		addAt("target", ta.ID, "affiliation", ta.Affiliation, tb.Affiliation, tb.Pos)
		addAt("target", ta.ID, "quadrant", ta.Quadrant, tb.Quadrant, tb.Pos)
		addAt("target", ta.ID, "vp", itoa(ta.VP), itoa(tb.VP), tb.Pos)
		var ba, bb []string
		for k := range ta.Bonuses {
			ba = append(ba, bindingString(&ta.Bonuses[k]))
		}
		for k := range tb.Bonuses {
			bb = append(bb, bindingString(&tb.Bonuses[k]))
		}
		addAt("target", ta.ID, "bonuses", strings.Join(ba, "; "), strings.Join(bb, "; "), tb.Pos)
		addAt("target", ta.ID, "text", ta.Text, tb.Text, tb.Pos)
	}
	for i := range b.Targets {
		if _, ok := a.TargetByID(b.Targets[i].ID); !ok {
			out = append(out, Change{Kind: "target", ID: b.Targets[i].ID, Change: "added", Variant: b.Targets[i].Name, Pos: posString(b.Targets[i].Pos)})
		}
	}
	return out
}

func listString(s []string) string { return "[" + strings.Join(s, ", ") + "]" }

func posString(p cards.Pos) string {
	if p.File == "" {
		return ""
	}
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// deckIDs lists a faction's deck as card ids with copies.
func deckIDs(rs *rules.Ruleset, f *rules.Faction) string {
	ids := make([]string, 0, len(f.Deck))
	for _, d := range f.Deck {
		ids = append(ids, rs.Cards[d].ID)
	}
	slices.Sort(ids)
	return listString(ids)
}

// bindingString renders an effect binding as "handler(param=value, …)".
func bindingString(b *rules.Binding) string {
	if b == nil {
		return "none"
	}
	if b.Spec == nil || len(b.Args) == 0 {
		return b.Handler
	}
	var ps []string
	for i, p := range b.Spec.Params {
		if i >= len(b.Args) {
			break
		}
		v := b.Args[i]
		s := v.Str
		switch p.Type {
		case effects.Int:
			s = strconv.Itoa(v.Int)
		case effects.Bool:
			s = strconv.FormatBool(v.Bool())
		}
		ps = append(ps, p.Name+"="+s)
	}
	return b.Handler + "(" + strings.Join(ps, ", ") + ")"
}
