package analysis

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// DiffConfig describes a rule-version comparison: Base first, Variant
// second, on the same games. Every lineup must be playable under both.
type DiffConfig struct {
	PairedConfig
	// Base and Variant are two rulesets of one game.
	Base, Variant game.Ruleset
}

// Diff lists what changed between two rulesets (GameChanges) and measures
// what the change does: every side's paired win-share difference — in a
// mirror every seat's, in turn order from the starter where the game says
// who began (pairedEntities) — with its interval and a
// Holm-corrected test across them, and, where the arms count them (Alpha
// Tactics), the per-card and per-target metrics of both arms.
func Diff(ctx context.Context, cfg DiffConfig) (*DiffResult, error) {
	a, b := cfg.Base, cfg.Variant
	if a == nil || b == nil {
		return nil, fmt.Errorf("%w: diff needs two rulesets", ErrConfig)
	}
	if a.Game() != b.Game() {
		return nil, fmt.Errorf("%w: diff compares two versions of one game; the base is %s, the variant %s", ErrConfig, a.Game(), b.Game())
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	res := &DiffResult{
		Base: RulesetInfoOf(a), Variant: RulesetInfoOf(b),
		Changes: GameChanges(a, b), Alpha: cfg.alpha(), Correction: CorrectionHolm,
		Cards: []CardDelta{}, Targets: []TargetDelta{},
	}
	armA := &arm{g: a, counts: true}
	armB := &arm{g: b, counts: true}
	pc := cfg.PairedConfig
	partial, elapsed, err := runArms(ctx, &pc, []*arm{armA, armB})
	if err != nil {
		return nil, err
	}
	res.ArmInfo = pc.info(armA.plan.bots)
	res.Partial = partial
	res.Timing = runTiming(armA.played+armB.played, elapsed)
	names, pair, compared := pairedEntities(a, pc.Matchups)
	res.Compared = compared
	res.Factions = make([]FactionDelta, len(names))
	tests := make([]*PairedTest, len(names))
	for k, f := range names {
		p := pair(&pc, armA, armB, k)
		res.Factions[k] = factionDelta(f, &p, pc.minSample())
		tests[k] = &res.Factions[k].PairedTest
	}
	finishTests(tests, CorrectionHolm, pc.alpha())
	for _, f := range res.Factions {
		if f.Significant {
			res.Significant = true
		}
	}
	if armA.Counts != nil && armB.Counts != nil {
		diffCounts(res, &pc, armA, armB)
	}
	res.Verdict = diffVerdict(res)
	// The verdict's words for what is compared: the game's side, or seats.
	word := "side"
	if g, ok := game.Lookup(a.Game()); ok && g.Vocabulary().Side != "" {
		word = g.Vocabulary().Side
	}
	if comparesSeats(a) {
		word = "seat"
	}
	if word != "faction" {
		res.Verdict = strings.ReplaceAll(res.Verdict, "faction", word)
	}
	return res, nil
}

// diffCounts adds the descriptive metrics of both arms' counts: the cards
// and targets of both (Alpha Tactics' count sections; none for a game
// without them).
func diffCounts(res *DiffResult, pc *PairedConfig, armA, armB *arm) {
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

func posString(p cards.Pos) string {
	if p.File == "" {
		return ""
	}
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}
