package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// sweepGame is Sweep for another game than Alpha Tactics: the field is one
// of the ruleset's knobs (game.Knob), every value made by the knob's With
// and checked before any game is played.
func sweepGame(ctx context.Context, cfg SweepConfig) (*SweepResult, error) {
	g := cfg.Game
	if len(cfg.Values) == 0 {
		return nil, fmt.Errorf("%w: no values to sweep", ErrConfig)
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	info := g.Info()
	ri := RulesetInfo{Name: info.Name, Version: info.Version, Hash: info.Hash}
	if id := g.Game(); id != game.DefaultID {
		ri.Game = id
	}
	res := &SweepResult{Ruleset: ri, Field: cfg.Field, Values: slices.Clone(cfg.Values), Alpha: cfg.alpha(), Points: []SweepPoint{}}
	scope, entity := game.OnRules, 0
	var card *game.Card
	if cfg.Card != "" {
		scope = game.OnCard
		var ids []string
		for _, c := range g.Cards() {
			ids = append(ids, c.ID)
			if c.ID == cfg.Card {
				card = &c
			}
		}
		if card == nil {
			return nil, fmt.Errorf("%w: unknown card %q%s", ErrConfig, cfg.Card, didYouMean(cfg.Card, ids))
		}
		entity = card.Index
	}
	var k *game.Knob
	var have []string
	knobs := game.KnobsOf(g)
	for i := range knobs {
		if knobs[i].Scope != scope || !game.KnobApplies(&knobs[i], g, entity) {
			continue
		}
		have = append(have, knobs[i].Name)
		if knobs[i].Name == cfg.Field {
			k = &knobs[i]
		}
	}
	if k == nil {
		what := "rule parameter"
		if card != nil {
			what = "field of card " + card.ID
		}
		if len(have) == 0 {
			return nil, fmt.Errorf("%w: cannot sweep %s %q: the ruleset has nothing to sweep there", ErrConfig, what, cfg.Field)
		}
		return nil, fmt.Errorf("%w: cannot sweep %s %q%s (have %s)", ErrConfig, what, cfg.Field, didYouMean(cfg.Field, have), strings.Join(have, ", "))
	}
	names, pair := gameEntities(g, cfg.Matchups)
	if card != nil {
		res.Card = &SweepCard{ID: card.ID, Name: card.Name, File: card.Pos.File, Line: card.Pos.Line}
		if sd := g.Sides(); card.Side >= 0 && card.Side < len(sd) {
			res.Card.Faction = sd[card.Side].ID
			if slices.Contains(names, sd[card.Side].ID) {
				res.Faction = sd[card.Side].ID
			}
		}
	}
	if cfg.Faction != "" {
		if !slices.Contains(names, cfg.Faction) {
			return nil, fmt.Errorf("%w: %q is none of the run's %s", ErrConfig, cfg.Faction, strings.Join(names, ", "))
		}
		res.Faction = cfg.Faction
	}
	if !(cfg.Target >= 0 && cfg.Target < 1) {
		return nil, fmt.Errorf("%w: the target share must lie in [0, 1), got %g", ErrConfig, cfg.Target)
	}
	res.Target = cfg.Target
	if res.Target <= 0 {
		res.Target = fairShare(cfg.Matchups, "")
		if !strings.HasPrefix(res.Faction, "seat ") {
			res.Target = fairShare(cfg.Matchups, res.Faction)
		}
	}
	res.Target = round6(res.Target)
	cur := k.Get(g, entity)
	res.Current = cur
	base := &arm{g: g}
	arms := []*arm{base}
	armOf := map[int]*arm{cur: base}
	for _, v := range cfg.Values {
		if v < k.Min || v > k.Max {
			return nil, fmt.Errorf("%w: %s %d is out of range (%d to %d)", ErrConfig, k.Name, v, k.Min, k.Max)
		}
		if _, ok := armOf[v]; ok {
			continue
		}
		vg, err := k.With(g, entity, v)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
		a := &arm{g: vg}
		armOf[v] = a
		arms = append(arms, a)
	}
	pc := cfg.PairedConfig
	partial, elapsed, err := runArms(ctx, &pc, arms)
	if err != nil {
		return nil, err
	}
	res.ArmInfo = pc.info(base.plan.bots)
	res.Partial = partial
	var games int64
	for _, a := range arms {
		games += a.played
	}
	sweepPoints(res, &pc, cfg.Values, armOf, names, func(a *arm, i int) pairAcc { return pair(&pc, base, a, i) })
	if res.Best != cur {
		s := &Suggestion{Field: k.Name, From: cur, To: res.Best, File: "rules.yaml"}
		if card != nil {
			s.File, s.Line = card.Pos.File, card.Pos.Line
			s.Text = fmt.Sprintf("%s:%d (%s, %s): %s: %d → %d", s.File, s.Line, card.ID, card.Name, k.Name, cur, res.Best)
		} else if files := g.Info().Files; files != nil {
			s.Line = findKeyLine(files[s.File], 1, k.Name, false)
		}
		if s.Text == "" && s.Line > 0 {
			s.Text = fmt.Sprintf("%s:%d: %s: %d → %d", s.File, s.Line, k.Name, cur, res.Best)
		} else if s.Text == "" {
			s.Text = fmt.Sprintf("%s: %s: %d → %d", s.File, k.Name, cur, res.Best)
		}
		res.Suggestion = s
		res.Suggestion.Text += " " + res.PlausibleNote()
	}
	res.Timing = runTiming(games, elapsed)
	return res, nil
}

// gameEntities are what a paired comparison of g's games compares: its
// sides in the lineups (in Sides() order), or, where every seat plays the
// one side (a mirror, Goofspiel), the seats "seat 1"… with their bots —
// the side's share is fair by construction there.
func gameEntities(g game.Ruleset, lineups [][]string) ([]string, func(cfg *PairedConfig, a, b *arm, k int) pairAcc) {
	if comparesSeats(g) {
		n := 0
		for _, l := range lineups {
			n = max(n, len(l))
		}
		names := make([]string, n)
		for q := range names {
			names[q] = fmt.Sprintf("seat %d", q+1)
		}
		return names, pairSeat
	}
	var names []string
	for _, s := range g.Sides() {
		for _, l := range lineups {
			if slices.Contains(l, s.ID) {
				names = append(names, s.ID)
				break
			}
		}
	}
	return names, func(cfg *PairedConfig, a, b *arm, k int) pairAcc { return pairFaction(cfg, a, b, names[k]) }
}

// comparesSeats reports whether g's comparisons are by seat: every seat
// plays its one side (a mirror), so the side is fair by construction.
func comparesSeats(g game.Ruleset) bool { return g.Mirror() && len(g.Sides()) == 1 }

// didYouMean is ", did you mean "x"?" when a candidate is close to s.
func didYouMean(s string, candidates []string) string {
	if c := cards.Suggest(s, candidates); c != "" {
		return fmt.Sprintf(", did you mean %q?", c)
	}
	return ""
}
