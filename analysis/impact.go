package analysis

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
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
	Ruleset *rules.Ruleset
	// Game is another game's ruleset (used when Ruleset is nil); it must
	// be a game.Valuer, whose blank the ablation plays (ModeBlankCopy
	// only).
	Game game.Ruleset
	// Mode is ModeBlank (default) or ModeEffectOff.
	Mode string
	// Cards are the ids of the cards to test (nil: every card of the
	// factions in the lineups).
	Cards []string
	// GamesPerCard, when positive, sets PairedConfig.Games so that every
	// card's arm has at least this many games involving its faction: with
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

// Variant returns a copy of rs changed by edit, with its own Cards slice and
// a Hash derived from rs.Hash and desc (so results never mistake it for
// rs). edit may change the copy's Rules and Cards elements; every other
// slice and map is shared with rs and must not be modified.
func Variant(rs *rules.Ruleset, desc string, edit func(*rules.Ruleset)) *rules.Ruleset {
	v := *rs
	v.Cards = slices.Clone(rs.Cards)
	edit(&v)
	h := sha256.Sum256([]byte(rs.Hash + "\x00variant\x00" + desc))
	v.Hash = hex.EncodeToString(h[:])
	return &v
}

// Ablate returns the variant of rs in which card index d is ablated by mode,
// and a description of the change; skip is set (and the variant nil) when
// the ablation would change nothing.
func Ablate(rs *rules.Ruleset, d int, mode string) (v *rules.Ruleset, desc, skip string) {
	c := &rs.Cards[d]
	var parts []string
	switch mode {
	case ModeBlank, "":
		if c.Power != 0 {
			parts = append(parts, fmt.Sprintf("power %d → 0", c.Power))
		}
		if c.Kind != rules.KindNone {
			parts = append(parts, fmt.Sprintf("kind %s → N", c.Kind))
		}
		if c.Effect != nil {
			parts = append(parts, "effect "+c.Effect.Handler+" removed")
		}
		if len(parts) == 0 {
			return nil, "", "already blank (power 0, no effect)"
		}
		desc = "blank (" + strings.Join(parts, ", ") + ")"
	case ModeBlankCopy:
		if !blankable(c) {
			return nil, "", "already blank (power 0, no effect, no tags)"
		}
		desc = fmt.Sprintf("one of %d copies blank (power %d → 0", c.Copies, c.Power)
		if c.Effect != nil {
			desc += ", effect " + c.Effect.Handler + " removed"
		}
		v = Variant(rs, c.ID+": "+desc, func(v *rules.Ruleset) {
			b := Blank(c)
			b.Index = len(v.Cards)
			v.Cards = append(v.Cards, b)
			v.Factions = slices.Clone(v.Factions)
			f := &v.Factions[c.Faction]
			f.Deck = slices.Clone(f.Deck)
			if v.Cards[d].Copies--; v.Cards[d].Copies == 0 {
				f.Deck = slices.DeleteFunc(f.Deck, func(x int) bool { return x == d })
			}
			f.Deck = append(f.Deck, b.Index)
		})
		return v, desc + ")", ""
	case ModeEffectOff:
		if c.Effect == nil && c.Kind == rules.KindNone {
			return nil, "", "no effect to remove (kind N)"
		}
		if c.Kind != rules.KindNone {
			parts = append(parts, fmt.Sprintf("kind %s → N", c.Kind))
		}
		if c.Effect != nil {
			parts = append(parts, "effect "+c.Effect.Handler+" removed")
		}
		desc = "effect off (" + strings.Join(parts, ", ") + ")"
	default:
		return nil, "", "unknown mode " + mode
	}
	v = Variant(rs, c.ID+": "+desc, func(v *rules.Ruleset) {
		k := &v.Cards[d]
		k.Effect, k.Kind = nil, rules.KindNone
		if mode != ModeEffectOff {
			k.Power = 0
		}
	})
	return v, desc, ""
}

// Impact measures each card's causal effect on its faction's win share: the
// baseline games (the ruleset as it is) are played once, and for every card
// the games of the lineups with its faction are played again with the card
// ablated, on the same seeds. The per-game paired differences give each
// card's interval and p-value, adjusted across the cards tested by
// Benjamini–Hochberg.
func Impact(ctx context.Context, cfg ImpactConfig) (*ImpactResult, error) {
	rs := cfg.Ruleset
	if rs == nil && cfg.Game != nil {
		return impactGame(ctx, cfg)
	}
	if rs == nil {
		return nil, fmt.Errorf("%w: no ruleset", ErrConfig)
	}
	mode := cfg.Mode
	if mode == "" {
		mode = ModeBlank
	}
	if mode != ModeBlank && mode != ModeEffectOff && mode != ModeBlankCopy {
		return nil, fmt.Errorf("%w: unknown mode %q (want %s, %s or %s)", ErrConfig, mode, ModeBlankCopy, ModeBlank, ModeEffectOff)
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	played := factionsOf(alphatactics.Ruleset{RS: rs}, cfg.Matchups)
	var defs []int
	if cfg.Cards == nil {
		for d := range rs.Cards {
			if slices.Contains(played, rs.Factions[rs.Cards[d].Faction].ID) {
				defs = append(defs, d)
			}
		}
	} else {
		for _, id := range cfg.Cards {
			c, ok := rs.CardByID(id)
			if !ok {
				return nil, fmt.Errorf("%w: unknown card %q", ErrConfig, id)
			}
			f := rs.Factions[c.Faction].ID
			if !slices.Contains(played, f) {
				return nil, fmt.Errorf("%w: card %s belongs to %s, which plays in none of the lineups", ErrConfig, id, f)
			}
			if slices.Contains(defs, c.Index) {
				return nil, fmt.Errorf("%w: card %q given twice", ErrConfig, id)
			}
			defs = append(defs, c.Index)
		}
	}
	if len(defs) == 0 {
		return nil, fmt.Errorf("%w: no cards to test", ErrConfig)
	}
	pc := cfg.PairedConfig
	if cfg.GamesPerCard > 0 {
		var fs []string
		for _, d := range defs {
			fs = append(fs, rs.Factions[rs.Cards[d].Faction].ID)
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
	// The baseline plays every lineup with a tested faction.
	var baseL []int
	for _, d := range defs {
		for _, li := range lineupsOf(rs.Factions[rs.Cards[d].Faction].ID) {
			if !slices.Contains(baseL, li) {
				baseL = append(baseL, li)
			}
		}
	}
	slices.Sort(baseL)
	baseline := &arm{g: alphatactics.Ruleset{RS: rs}, lineups: baseL}
	arms := []*arm{baseline}
	res := &ImpactResult{Ruleset: RulesetInfo{Name: rs.Name, Version: rs.Version, Hash: rs.Hash},
		Mode: mode, Alpha: pc.alpha(), Correction: CorrectionBH, Cards: []CardImpact{}}
	armOf := make([]*arm, len(defs))
	for k, d := range defs {
		c := &rs.Cards[d]
		f := rs.Factions[c.Faction].ID
		ci := CardImpact{ID: c.ID, Name: c.Name, Faction: f, Type: c.Type.String(), Kind: c.Kind.String(),
			Power: c.Power, Copies: c.Copies, File: c.Pos.File, Line: c.Pos.Line}
		v, desc, skip := Ablate(rs, d, mode)
		ci.Variant, ci.Skipped = desc, skip
		if skip == "" {
			armOf[k] = &arm{g: alphatactics.Ruleset{RS: v}, lineups: lineupsOf(f)}
			arms = append(arms, armOf[k])
		} else {
			ci.Test, ci.P, ci.PAdj = TestNone, 1, 1
			ci.CI95, ci.UnpairedCI95 = [2]float64{}, [2]float64{}
		}
		res.Cards = append(res.Cards, ci)
	}
	return playImpact(ctx, pc, arms, baseline, armOf, res)
}

// impactGame is Impact for another game than Alpha Tactics, through its
// game.Valuer: a card's arm blanks one copy of it (the Valuer's blank:
// Goofspiel's bid card bids 0) for the side's first position in each
// lineup — in a mirror, the copy of one seat only, the lineup's first,
// which rotates through every seat as the games do — and compares that
// position's win share with the baseline's on the same seeds. Both arms
// play through the Valuer's Variants, so they differ by the blank alone.
func impactGame(ctx context.Context, cfg ImpactConfig) (*ImpactResult, error) {
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
		return nil, fmt.Errorf("%w: mode %q is Alpha Tactics' (power, kind, effect); %s blanks one copy (%s)", ErrConfig, mode, g.Game(), ModeBlankCopy)
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
