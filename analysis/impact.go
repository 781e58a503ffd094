package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/game"
)

// Ablation modes of Impact.
const (
	// ModeBlank replaces the card by a blank: same type, kind N, no effect,
	// power 0.
	ModeBlank = "blank"
	// ModeEffectOff removes only the card's effect (kind N, power kept).
	ModeEffectOff = "effect-off"
	// ModeBlankCopy replaces one copy of the card by a blank (Blank: same
	// type, power 0, no effect, no tags): the estimand of card values.
	ModeBlankCopy = "blank-copy"
)

// ImpactConfig describes an impact (ablation) analysis.
type ImpactConfig struct {
	PairedConfig
	// Game is the ruleset of any game with a blank: its own ablations (a
	// game.Ablator: Alpha Tactics' modes), or one copy blanked through its
	// game.Valuer (ModeBlankCopy only).
	Game game.Ruleset
	// Mode is one of the game's ablation modes (default: its default,
	// Alpha Tactics' ModeBlank), or ModeBlankCopy through the Valuer.
	Mode string
	// Cards are the ids of the cards to test (nil: every card of the
	// sides in the lineups).
	Cards []string
	// GamesPerCard, when positive, sets PairedConfig.Games so that every
	// card's arm has at least this many games involving its side: with
	// --matchups all over four factions each faction is in 3 lineups, so
	// each lineup plays ⌈GamesPerCard/3⌉ games.
	GamesPerCard int
}

// GamesPerLineup returns the games each lineup must play so that every
// faction in factions takes part in at least perFaction games.
func GamesPerLineup(lineups [][]string, factions []string, perFaction int) int {
	least := 0
	for _, f := range factions {
		n := 0
		for _, l := range lineups {
			if slices.Contains(l, f) {
				n++
			}
		}
		if n > 0 && (least == 0 || n < least) {
			least = n
		}
	}
	if least == 0 {
		return perFaction
	}
	return (perFaction + least - 1) / least
}

// Impact measures each card's causal effect on its side's win share: the
// baseline games (the ruleset as it is) are played once, and for every card
// the games of the lineups with its side are played again with the card
// ablated, on the same seeds. The per-game paired differences give each
// card's interval and p-value, adjusted across the cards tested by
// Benjamini–Hochberg. A game.Ablator ablates by its own modes (Alpha
// Tactics'); another game blanks one copy through its game.Valuer.
func Impact(ctx context.Context, cfg ImpactConfig) (*ImpactResult, error) {
	g := cfg.Game
	if g == nil {
		return nil, fmt.Errorf("%w: no ruleset", ErrConfig)
	}
	ab, ok := g.(game.Ablator)
	if !ok {
		return impactValuer(ctx, cfg)
	}
	modes, mode := ab.AblationModes()
	if cfg.Mode != "" {
		mode = cfg.Mode
	}
	if !slices.Contains(modes, mode) {
		return nil, fmt.Errorf("%w: unknown mode %q (want %s)", ErrConfig, mode, orList(modes))
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	sides, cards := g.Sides(), g.Cards()
	played := factionsOf(g, cfg.Matchups)
	sideID := func(d int) string { return sides[cards[d].Side].ID }
	var defs []int
	if cfg.Cards == nil {
		for d := range cards {
			if cards[d].Side >= 0 && slices.Contains(played, sideID(d)) {
				defs = append(defs, d)
			}
		}
	} else {
		for _, id := range cfg.Cards {
			d := slices.IndexFunc(cards, func(c game.Card) bool { return c.ID == id })
			if d < 0 || cards[d].Side < 0 {
				return nil, fmt.Errorf("%w: unknown card %q", ErrConfig, id)
			}
			if f := sideID(d); !slices.Contains(played, f) {
				return nil, fmt.Errorf("%w: card %s belongs to %s, which plays in none of the lineups", ErrConfig, id, f)
			}
			if slices.Contains(defs, d) {
				return nil, fmt.Errorf("%w: card %q given twice", ErrConfig, id)
			}
			defs = append(defs, d)
		}
	}
	if len(defs) == 0 {
		return nil, fmt.Errorf("%w: no cards to test", ErrConfig)
	}
	pc := cfg.PairedConfig
	if cfg.GamesPerCard > 0 {
		var fs []string
		for _, d := range defs {
			fs = append(fs, sideID(d))
		}
		pc.Games = GamesPerLineup(pc.Matchups, fs, cfg.GamesPerCard)
	}
	// The baseline plays every lineup with a tested side.
	var baseL []int
	for _, d := range defs {
		for _, li := range lineupsOf(pc.Matchups, sideID(d)) {
			if !slices.Contains(baseL, li) {
				baseL = append(baseL, li)
			}
		}
	}
	slices.Sort(baseL)
	baseline := &arm{g: g, lineups: baseL}
	arms := []*arm{baseline}
	res := &ImpactResult{Ruleset: RulesetInfoOf(g), Mode: mode, Alpha: pc.alpha(), Correction: CorrectionBH, Cards: []CardImpact{}}
	armOf := make([]*arm, len(defs))
	for k, d := range defs {
		c := &cards[d]
		f := sideID(d)
		ci := CardImpact{ID: c.ID, Name: c.Name, Faction: f, Type: column(c, "type").Text, Kind: column(c, "kind").Text,
			Power: printedValue(c), Copies: c.Copies, File: c.Pos.File, Line: c.Pos.Line}
		v, desc, skip := ab.Ablate(d, mode)
		ci.Variant, ci.Skipped = desc, skip
		if skip == "" {
			armOf[k] = &arm{g: v, lineups: lineupsOf(pc.Matchups, f)}
			arms = append(arms, armOf[k])
		} else {
			ci.Test, ci.P, ci.PAdj = TestNone, 1, 1
			ci.CI95, ci.UnpairedCI95 = [2]float64{}, [2]float64{}
		}
		res.Cards = append(res.Cards, ci)
	}
	return playImpact(ctx, pc, arms, baseline, armOf, res)
}

// column is card c's printed field key (zero when it has none).
func column(c *game.Card, key string) game.Column {
	for _, col := range c.Columns {
		if col.Key == key {
			return col
		}
	}
	return game.Column{}
}

// printedValue is card c's first whole-number column: its printed value,
// as the report's price curve reads it (Alpha Tactics' power).
func printedValue(c *game.Card) int {
	for _, col := range c.Columns {
		if col.IsInt {
			return col.Int
		}
	}
	return 0
}

// lineupsOf are the indices of the lineups side f plays in.
func lineupsOf(lineups [][]string, f string) []int {
	var out []int
	for li, l := range lineups {
		if slices.Contains(l, f) {
			out = append(out, li)
		}
	}
	return out
}

// orList writes "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// impactValuer is Impact for a game without a game.Ablator, through its
// game.Valuer: a card's arm blanks one copy of it (the Valuer's blank:
// Goofspiel's bid card bids 0) for the side's first position in each
// lineup — in a mirror, the copy of one seat only, the lineup's first,
// which rotates through every seat as the games do — and compares that
// position's win share with the baseline's on the same seeds. Both arms
// play through the Valuer's Variants, so they differ by the blank alone.
func impactValuer(ctx context.Context, cfg ImpactConfig) (*ImpactResult, error) {
	g := cfg.Game
	val, ok := g.(game.Valuer)
	if !ok {
		return nil, fmt.Errorf("%w: impact is not measured for %s (its rules say no blank: no game.Valuer)", ErrConfig, g.Game())
	}
	mode := cfg.Mode
	if mode == "" {
		mode = ModeBlankCopy
	}
	if mode != ModeBlankCopy {
		return nil, fmt.Errorf("%w: mode %q is none of %s's; its impact blanks one copy (%s)", ErrConfig, mode, g.Game(), ModeBlankCopy)
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	sides, cards := g.Sides(), g.Cards()
	sideOf := map[string]int{}
	for i, sd := range sides {
		sideOf[sd.ID] = i
	}
	played := map[int]bool{}
	for _, l := range cfg.Matchups {
		for _, id := range l {
			f, ok := sideOf[id]
			if !ok {
				return nil, fmt.Errorf("%w: unknown side %q", ErrConfig, id)
			}
			played[f] = true
		}
	}
	// The cards the Valuer may blank, by card index.
	vcard := map[int]game.ValueCard{}
	var all []int
	for f := range sides {
		for _, vc := range val.ValueCards(f) {
			if vc.Index < 0 || vc.Index >= len(cards) || cards[vc.Index].Side != f {
				return nil, fmt.Errorf("analysis: impact: %s lists card %d for side %s, not one of its cards (a bug in the game)", g.Game(), vc.Index, sides[f].ID)
			}
			vcard[vc.Index] = vc
			if played[f] {
				all = append(all, vc.Index)
			}
		}
	}
	var defs []int
	if cfg.Cards == nil {
		defs = all
	} else {
		for _, id := range cfg.Cards {
			d := slices.IndexFunc(cards, func(c game.Card) bool { return c.ID == id })
			if _, valued := vcard[d]; d < 0 || !valued {
				return nil, fmt.Errorf("%w: unknown card %q", ErrConfig, id)
			}
			if !played[cards[d].Side] {
				return nil, fmt.Errorf("%w: card %s belongs to %s, which plays in none of the lineups", ErrConfig, id, sides[cards[d].Side].ID)
			}
			if slices.Contains(defs, d) {
				return nil, fmt.Errorf("%w: card %q given twice", ErrConfig, id)
			}
			defs = append(defs, d)
		}
	}
	if len(defs) == 0 {
		return nil, fmt.Errorf("%w: no cards to test", ErrConfig)
	}
	pc := cfg.PairedConfig
	sideID := func(d int) string { return sides[cards[d].Side].ID }
	if cfg.GamesPerCard > 0 {
		var fs []string
		for _, d := range defs {
			fs = append(fs, sideID(d))
		}
		pc.Games = GamesPerLineup(pc.Matchups, fs, cfg.GamesPerCard)
	}
	lineupsOf := func(f string) []int {
		var out []int
		for li, l := range pc.Matchups {
			if slices.Contains(l, f) {
				out = append(out, li)
			}
		}
		return out
	}
	var baseL []int
	for _, d := range defs {
		for _, li := range lineupsOf(sideID(d)) {
			if !slices.Contains(baseL, li) {
				baseL = append(baseL, li)
			}
		}
	}
	slices.Sort(baseL)
	baseline := &arm{g: g, lineups: baseL, variant: true, blank: -1, ncards: len(cards)}
	arms := []*arm{baseline}
	info := g.Info()
	res := &ImpactResult{Ruleset: RulesetInfo{Name: info.Name, Version: info.Version, Hash: info.Hash, Game: g.Game()},
		Mode: mode, Alpha: pc.alpha(), Correction: CorrectionBH, Cards: []CardImpact{}}
	unit := val.ValueUnit()
	armOf := make([]*arm, len(defs))
	for k, d := range defs {
		c := &cards[d]
		vc := vcard[d]
		ci := CardImpact{ID: c.ID, Name: c.Name, Faction: sideID(d), Power: vc.Value, Copies: c.Copies,
			File: c.Pos.File, Line: c.Pos.Line}
		if vc.Blankable {
			ci.Variant = fmt.Sprintf("one of %d copies blank (%s %d → 0)", c.Copies, unit.Short, vc.Value)
			armOf[k] = &arm{g: g, lineups: lineupsOf(ci.Faction), variant: true, blank: d, blankSide: c.Side, ncards: len(cards)}
			arms = append(arms, armOf[k])
		} else {
			ci.Skipped = "already blank"
			ci.Test, ci.P, ci.PAdj = TestNone, 1, 1
		}
		res.Cards = append(res.Cards, ci)
	}
	return playImpact(ctx, pc, arms, baseline, armOf, res)
}

// playImpact plays the arms of an impact run, Alpha Tactics' or another
// game's, and fills res: each card's ablation paired with the baseline on
// the card's side (armOf[k] is card k's arm, nil for one skipped),
// Benjamini–Hochberg over the cards, ranked.
func playImpact(ctx context.Context, pc PairedConfig, arms []*arm, baseline *arm, armOf []*arm, res *ImpactResult) (*ImpactResult, error) {
	partial, elapsed, err := runArms(ctx, &pc, arms)
	if err != nil {
		return nil, err
	}
	res.ArmInfo = pc.info(baseline.plan.bots)
	res.Partial = partial
	var tests []*PairedTest
	for k := range armOf {
		a := armOf[k]
		if a == nil {
			continue
		}
		ci := &res.Cards[k]
		p := pairFaction(&pc, a, baseline, ci.Faction)
		without, with := p.shares()
		ci.WithCard, ci.Ablated = round6(with), round6(without)
		ci.PairedTest = p.test(pc.minSample())
		tests = append(tests, &ci.PairedTest)
		res.VariantGames += a.played
	}
	finishTests(tests, CorrectionBH, pc.alpha())
	res.BaselineGames = baseline.played
	res.Timing = runTiming(res.BaselineGames+res.VariantGames, elapsed)
	rankImpacts(res.Cards)
	return res, nil
}

// rankImpacts sorts the tested cards by impact, largest first, the skipped
// last, and numbers them.
func rankImpacts(cs []CardImpact) {
	slices.SortStableFunc(cs, func(a, b CardImpact) int {
		switch {
		case (a.Skipped == "") != (b.Skipped == ""):
			if a.Skipped == "" {
				return -1
			}
			return 1
		case a.Delta > b.Delta:
			return -1
		case a.Delta < b.Delta:
			return 1
		}
		return 0
	})
	for i := range cs {
		cs[i].Rank = i + 1
	}
}
