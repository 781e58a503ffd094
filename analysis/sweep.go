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
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// SweepConfig describes a value sweep: one card field or rule parameter set
// to each of Values in turn, every value on the same games.
type SweepConfig struct {
	PairedConfig
	Ruleset *rules.Ruleset
	// Game is another game's ruleset (when Ruleset is nil): Field is one
	// of its knobs (game.Knob), on Card or on its rules.
	Game game.Ruleset
	// Card is the id of the card whose Field is swept; "" sweeps the rule
	// parameter Field.
	Card string
	// Field is a card field (SweepCardFields) or a rule parameter
	// (SweepParams).
	Field  string
	Values []int
	// Faction is steered towards Target: default the card's faction; for a
	// rule parameter "" steers every faction (least squares).
	Faction string
	// Target is the win share aimed at; 0 means the fair share (1/players,
	// averaged over the faction's lineups).
	Target float64
}

// SweepCardFields are the card fields a sweep can change. Besides these, a
// card sweep takes any integer parameter of the card's effect binding, named
// "params.NAME" or NAME ("amount" of modify_power).
var SweepCardFields = []string{"power", "copies"}

// paramPrefix marks an effect parameter in SweepConfig.Field and
// SweepResult.Field: "params.amount" is the YAML key `amount` under the
// card's `params`.
const paramPrefix = alphatactics.ParamKnob

// SweepParams are the rule parameters a sweep can change: Alpha Tactics'
// rule knobs (alphatactics.RuleKnobs, TestSweepParamsChangeGames).
var SweepParams = alphatactics.RuleKnobs

// sweepField reads and writes one integer of a ruleset: one of Alpha
// Tactics' knobs (alphatactics.Ruleset.Knobs) on a card or the rules.
type sweepField struct {
	// name is the field's canonical name when it differs from the one asked
	// for ("params.amount" for "amount").
	name   string
	knob   game.Knob
	entity int
}

func (f *sweepField) get(rs *rules.Ruleset) int {
	return f.knob.Get(alphatactics.Ruleset{RS: rs}, f.entity)
}

// set sets v in rs (a variant's own copy, see Variant); check has passed.
func (f *sweepField) set(rs *rules.Ruleset, v int) {
	x, err := f.knob.With(alphatactics.Ruleset{RS: rs}, f.entity, v)
	if err != nil {
		panic(fmt.Sprintf("analysis: %s %d passed its check, then: %v", f.knob.Name, v, err))
	}
	*rs = *x.(alphatactics.Ruleset).RS
}

// check says why v cannot be set (the knob's With refuses it).
func (f *sweepField) check(rs *rules.Ruleset, v int) error {
	_, err := f.knob.With(alphatactics.Ruleset{RS: rs}, f.entity, v)
	return err
}

// atKnob is Alpha Tactics' knob of that name.
func atKnob(name string) game.Knob {
	for _, k := range (alphatactics.Ruleset{}).Knobs() {
		if k.Name == name {
			return k
		}
	}
	panic("analysis: Alpha Tactics has no knob " + name)
}

func cardSweepField(rs *rules.Ruleset, d int, field string) (*sweepField, error) {
	switch field {
	case "power", "copies":
		return &sweepField{knob: atKnob(field), entity: d}, nil
	}
	return effectParamSweepField(rs, d, field)
}

// effectParamSweepField sweeps an integer parameter of card d's effect, in
// the range its handler declares. A variant gets its own copy of the
// binding, so the ruleset swept is never changed.
func effectParamSweepField(rs *rules.Ruleset, d int, field string) (*sweepField, error) {
	c := &rs.Cards[d]
	name := strings.TrimPrefix(strings.TrimPrefix(field, paramPrefix), "effect.")
	if c.Effect == nil || c.Effect.Spec == nil {
		return nil, fmt.Errorf("%w: cannot sweep card field %q of %s: the card has no effect, so only %s", ErrConfig, field, c.ID, strings.Join(SweepCardFields, " or "))
	}
	spec := c.Effect.Spec
	var ints []string
	for _, p := range spec.Params {
		if p.Type == effects.Int {
			ints = append(ints, p.Name)
		}
	}
	have := strings.Join(SweepCardFields, ", ")
	if len(ints) > 0 {
		have += ", or the " + spec.Name + " parameter " + strings.Join(ints, ", ")
	}
	par, _, ok := spec.Param(name)
	if !ok {
		hint := ""
		if s := cards.Suggest(name, append(slices.Clone(SweepCardFields), ints...)); s != "" {
			hint = fmt.Sprintf(", did you mean %q?", s)
		}
		return nil, fmt.Errorf("%w: cannot sweep card field %q of %s%s (have %s)", ErrConfig, field, c.ID, hint, have)
	}
	if par.Type != effects.Int {
		return nil, fmt.Errorf("%w: cannot sweep %s of card %s: the %s parameter %s is not a whole number (have %s)",
			ErrConfig, field, c.ID, spec.Name, par.Name, have)
	}
	return &sweepField{name: paramPrefix + par.Name, knob: atKnob(paramPrefix + par.Name), entity: d}, nil
}

func paramSweepField(field string) (*sweepField, error) {
	switch {
	case field == "rounds":
		return nil, fmt.Errorf("%w: cannot sweep rounds: a game lasts until every target is conquered, so rounds only restates "+
			"the targets' count (rounds × targets_per_round = the targets); sweep targets_per_round, or add targets (have %s)",
			ErrConfig, strings.Join(SweepParams, ", "))
	case !slices.Contains(SweepParams, field):
		return nil, fmt.Errorf("%w: cannot sweep rule parameter %q (have %s)", ErrConfig, field, strings.Join(SweepParams, ", "))
	}
	return &sweepField{knob: atKnob(field)}, nil
}

// ParseValues parses a sweep's values: "0..8" (inclusive), "0..8..2" (step
// 2) or a list "1,3,5"; duplicates are an error.
func ParseValues(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("no values")
	}
	var out []int
	if strings.Contains(s, "..") {
		parts := strings.Split(s, "..")
		if len(parts) > 3 {
			return nil, fmt.Errorf("values %q: want FROM..TO or FROM..TO..STEP", s)
		}
		nums := make([]int, len(parts))
		for i, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return nil, fmt.Errorf("values %q: %q is not a whole number", s, p)
			}
			nums[i] = n
		}
		step := 1
		if len(nums) == 3 {
			step = nums[2]
		}
		if step < 1 || nums[1] < nums[0] {
			return nil, fmt.Errorf("values %q: want FROM..TO with FROM <= TO and a positive step", s)
		}
		if (nums[1]-nums[0])/step >= 1000 {
			return nil, fmt.Errorf("values %q: more than 1000 values", s)
		}
		for v := nums[0]; v <= nums[1]; v += step {
			out = append(out, v)
		}
		return out, nil
	}
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("values %q: %q is not a whole number", s, strings.TrimSpace(p))
		}
		if slices.Contains(out, n) {
			return nil, fmt.Errorf("values %q: %d given twice", s, n)
		}
		out = append(out, n)
	}
	return out, nil
}

// fairShare is the mean of 1/players over the lineups faction f plays in
// (every lineup plays the same number of games).
func fairShare(lineups [][]string, f string) float64 {
	sum, n := 0.0, 0
	for _, l := range lineups {
		if f == "" || slices.Contains(l, f) {
			sum += 1 / float64(len(l))
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// Sweep plays the games once for every value (and for the ruleset's own
// value, the reference every value is compared with, paired) and finds the
// value that brings the steered faction closest to the target share.
func Sweep(ctx context.Context, cfg SweepConfig) (*SweepResult, error) {
	rs := cfg.Ruleset
	if rs == nil && cfg.Game != nil {
		return sweepGame(ctx, cfg)
	}
	if rs == nil {
		return nil, fmt.Errorf("%w: no ruleset", ErrConfig)
	}
	if len(cfg.Values) == 0 {
		return nil, fmt.Errorf("%w: no values to sweep", ErrConfig)
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	res := &SweepResult{Ruleset: RulesetInfo{Name: rs.Name, Version: rs.Version, Hash: rs.Hash},
		Field: cfg.Field, Values: slices.Clone(cfg.Values), Alpha: cfg.alpha(), Points: []SweepPoint{}}
	played := factionsOf(alphatactics.Ruleset{RS: rs}, cfg.Matchups)
	var sf *sweepField
	var err error
	var card *rules.Card
	if cfg.Card != "" {
		c, ok := rs.CardByID(cfg.Card)
		if !ok {
			return nil, fmt.Errorf("%w: unknown card %q", ErrConfig, cfg.Card)
		}
		card = c
		if sf, err = cardSweepField(rs, c.Index, cfg.Field); err != nil {
			return nil, err
		}
		if sf.name != "" {
			res.Field = sf.name
		}
		f := rs.Factions[c.Faction].ID
		res.Card = &SweepCard{ID: c.ID, Name: c.Name, Faction: f, File: c.Pos.File, Line: c.Pos.Line}
		if !slices.Contains(played, f) {
			return nil, fmt.Errorf("%w: card %s belongs to %s, which plays in none of the lineups", ErrConfig, c.ID, f)
		}
		res.Faction = f
	} else if sf, err = paramSweepField(cfg.Field); err != nil {
		return nil, err
	}
	if cfg.Faction != "" {
		if !slices.Contains(played, cfg.Faction) {
			return nil, fmt.Errorf("%w: faction %q plays in none of the lineups", ErrConfig, cfg.Faction)
		}
		res.Faction = cfg.Faction
	}
	// Written so that NaN fails it: NaN compares false with everything.
	if !(cfg.Target >= 0 && cfg.Target < 1) {
		return nil, fmt.Errorf("%w: the target share must lie in [0, 1), got %g", ErrConfig, cfg.Target)
	}
	res.Target = cfg.Target
	if res.Target <= 0 {
		res.Target = fairShare(cfg.Matchups, res.Faction)
	}
	res.Target = round6(res.Target)
	for _, v := range cfg.Values {
		if err := sf.check(rs, v); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
	}
	cur := sf.get(rs)
	res.Current = cur
	// One arm per value; the ruleset itself stands for the current value.
	what := res.Field
	if card != nil {
		what = card.ID + "." + res.Field
	}
	var arms []*arm
	armOf := map[int]*arm{}
	base := &arm{g: alphatactics.Ruleset{RS: rs}}
	arms = append(arms, base)
	armOf[cur] = base
	// A card's value only matters in the games of its faction: the other
	// lineups play exactly as in the ruleset itself and are not replayed.
	var only []int
	if card != nil {
		f := rs.Factions[card.Faction].ID
		for li, l := range cfg.Matchups {
			if slices.Contains(l, f) {
				only = append(only, li)
			}
		}
	}
	for _, v := range cfg.Values {
		if _, ok := armOf[v]; ok {
			continue
		}
		a := &arm{g: alphatactics.Ruleset{RS: Variant(rs, fmt.Sprintf("%s=%d", what, v), func(x *rules.Ruleset) { sf.set(x, v) })}, lineups: only}
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
		if a != base {
			a.shareUnplayed(base)
		}
	}
	sweepPoints(res, &pc, cfg.Values, armOf, played, func(a *arm, k int) pairAcc { return pairFaction(&pc, base, a, played[k]) })
	if res.Best != cur {
		res.Suggestion = suggestEdit(rs, card, res.Field, cur, res.Best)
		res.Suggestion.Text += " " + res.PlausibleNote()
	}
	res.Timing = runTiming(games, elapsed)
	return res, nil
}

// sweepPoints fills res's points, tests (Holm over the sweep), distances,
// best value and plausible values from the arms played: names are the
// entities compared (factions, or seats), pair(a, k) pairs entity k
// between the reference arm and a.
func sweepPoints(res *SweepResult, pc *PairedConfig, values []int, armOf map[int]*arm, names []string, pair func(a *arm, k int) pairAcc) {
	var tests []*PairedTest
	for _, v := range values {
		a := armOf[v]
		pt := SweepPoint{Value: v, Games: a.covered(), Factions: make([]FactionDelta, len(names))}
		for k, f := range names {
			p := pair(a, k)
			pt.Factions[k] = factionDelta(f, &p, pc.minSample())
		}
		res.Points = append(res.Points, pt)
	}
	for i := range res.Points {
		pt := &res.Points[i]
		if pt.Value == res.Current {
			continue // the reference itself: nothing to test
		}
		for k := range pt.Factions {
			tests = append(tests, &pt.Factions[k].PairedTest)
		}
	}
	finishTests(tests, CorrectionHolm, pc.alpha())
	// Distance to the target and the best value (ties: the smallest change).
	best := -1
	for i := range res.Points {
		pt := &res.Points[i]
		d := 0.0
		if res.Faction != "" {
			for _, fd := range pt.Factions {
				if fd.Faction == res.Faction {
					d = math.Abs(fd.Variant - res.Target)
				}
			}
		} else {
			for _, fd := range pt.Factions {
				d += (fd.Variant - res.Target) * (fd.Variant - res.Target)
			}
			d = math.Sqrt(d / float64(max(1, len(pt.Factions))))
		}
		pt.Distance = round6(d)
		if best < 0 || pt.Distance < res.Points[best].Distance ||
			pt.Distance == res.Points[best].Distance && absInt(pt.Value-res.Current) < absInt(res.Points[best].Value-res.Current) {
			best = i
		}
	}
	res.Best = res.Points[best].Value
	res.Plausible = plausibleValues(res)
}

// plausibleValues lists the values whose 95% interval of the steered
// faction's win share contains the target (for every faction together:
// every faction's interval contains it) — the values the games cannot tell
// from the best one as far as hitting the target goes.
func plausibleValues(r *SweepResult) []int {
	out := []int{}
	for _, pt := range r.Points {
		ok := len(pt.Factions) > 0
		for _, fd := range pt.Factions {
			if (r.Faction == "" || fd.Faction == r.Faction) && (r.Target < fd.VariantCI95[0] || r.Target > fd.VariantCI95[1]) {
				ok = false
			}
		}
		if ok {
			out = append(out, pt.Value)
		}
	}
	slices.Sort(out)
	return out
}

// PlausibleNote is the uncertainty of the best value in words, from
// Plausible: "(values whose 95% interval contains the target 50.0%: 2 to 4)".
func (r *SweepResult) PlausibleNote() string {
	whose := "its"
	if r.Faction == "" {
		whose = "every faction's"
		if len(r.Points) > 0 && len(r.Points[0].Factions) > 0 && strings.HasPrefix(r.Points[0].Factions[0].Faction, "seat ") {
			whose = "every seat's" // another game's mirror (sweepGame)
		}
	}
	target := strconv.FormatFloat(100*r.Target, 'f', 1, 64) + "%"
	switch {
	case len(r.Plausible) == 0:
		return fmt.Sprintf("(no value tried has %s 95%% interval around the target %s: it is the closest, not a hit)", whose, target)
	case slices.Contains(r.Plausible, r.Current):
		return fmt.Sprintf("(values whose 95%% interval contains the target %s: %s — including the current %d, so the games cannot yet tell them apart)",
			target, valueRanges(r.Plausible), r.Current)
	}
	return fmt.Sprintf("(values whose 95%% interval contains the target %s: %s)", target, valueRanges(r.Plausible))
}

// valueRanges writes sorted values with runs of consecutive integers
// joined: "1–3, 5".
func valueRanges(v []int) string {
	var parts []string
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, strconv.Itoa(v[i]))
		case j == i+1:
			parts = append(parts, strconv.Itoa(v[i]), strconv.Itoa(v[j]))
		default:
			parts = append(parts, fmt.Sprintf("%d to %d", v[i], v[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// suggestEdit locates the YAML line to change: the card's (or rules.yaml's)
// line with the field's key, or the card's first line when the key is not
// written (a default).
func suggestEdit(rs *rules.Ruleset, card *rules.Card, field string, from, to int) *Suggestion {
	s := &Suggestion{Field: field, From: from, To: to}
	if card != nil {
		s.File, s.Line = card.Pos.File, card.Pos.Line
		// An effect parameter sits on its own line under params: (block
		// style) or inside params: {…} on one line.
		keys := []string{field}
		if name, ok := strings.CutPrefix(field, paramPrefix); ok {
			keys = []string{name, "params"}
		}
		for _, k := range keys {
			if l := findKeyLine(rs.Files[card.Pos.File], card.Pos.Line, k, true); l > 0 {
				s.Line = l
				break
			}
		}
		s.Text = fmt.Sprintf("%s:%d (%s, %s): %s: %d → %d", s.File, s.Line, card.ID, card.Name, field, from, to)
		return s
	}
	s.File = "rules.yaml"
	s.Line = findKeyLine(rs.Files[s.File], 1, field, false)
	if s.Line > 0 {
		s.Text = fmt.Sprintf("%s:%d: %s: %d → %d", s.File, s.Line, field, from, to)
	} else {
		s.Text = fmt.Sprintf("%s: %s: %d → %d", s.File, field, from, to)
	}
	return s
}

// findKeyLine is cards.FindKeyLine.
func findKeyLine(data []byte, start int, key string, inItem bool) int {
	return cards.FindKeyLine(data, start, key, inItem)
}
