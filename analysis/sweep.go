package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// SweepConfig describes a value sweep: one knob of a card or of the rules
// set to each of Values in turn, every value on the same games.
type SweepConfig struct {
	PairedConfig
	// Game is the ruleset of any game; Field is one of its knobs
	// (game.Knob), on Card or on its rules.
	Game game.Ruleset
	// Card is the id of the card whose Field is swept; "" sweeps the rules'
	// knob Field.
	Card string
	// Field is the knob's name (a game.KnobFinder may take other names
	// for it: Alpha Tactics' "amount" for "params.amount").
	Field  string
	Values []int
	// Faction is steered towards Target: default the card's side; for a
	// rule parameter "" steers every side (least squares).
	Faction string
	// Target is the win share aimed at; 0 means the fair share (1/players,
	// averaged over the side's lineups).
	Target float64
}

// findKnob is the knob name names on entity of scope: the game's own
// finding where it has one (game.KnobFinder), else the knob of that exact
// name among those that apply there.
func findKnob(g game.Ruleset, scope game.Scope, entity int, name string, card *game.Card) (*game.Knob, error) {
	if f, ok := g.(game.KnobFinder); ok {
		k, err := f.FindKnob(scope, entity, name)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
		return &k, nil
	}
	var have []string
	knobs := game.KnobsOf(g)
	for i := range knobs {
		if knobs[i].Scope != scope || !game.KnobApplies(&knobs[i], g, entity) {
			continue
		}
		have = append(have, knobs[i].Name)
		if knobs[i].Name == name {
			return &knobs[i], nil
		}
	}
	what := "rule parameter"
	if card != nil {
		what = "field of card " + card.ID
	}
	if len(have) == 0 {
		return nil, fmt.Errorf("%w: cannot sweep %s %q: the ruleset has nothing to sweep there", ErrConfig, what, name)
	}
	return nil, fmt.Errorf("%w: cannot sweep %s %q%s (have %s)", ErrConfig, what, name, didYouMean(name, have), strings.Join(have, ", "))
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
// value that brings the steered side closest to the target share. The
// sides compared are the lineups' (gameEntities), or, where every seat
// plays the one side (a mirror), the seats: in turn order from the starter
// where the game says who began (pairedEntities). Every value is made by the
// knob's With and checked before any game is played.
func Sweep(ctx context.Context, cfg SweepConfig) (*SweepResult, error) {
	g := cfg.Game
	if g == nil {
		return nil, fmt.Errorf("%w: no ruleset", ErrConfig)
	}
	if len(cfg.Values) == 0 {
		return nil, fmt.Errorf("%w: no values to sweep", ErrConfig)
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	res := &SweepResult{Ruleset: RulesetInfoOf(g), Field: cfg.Field, Values: slices.Clone(cfg.Values), Alpha: cfg.alpha(), Points: []SweepPoint{}}
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
	k, err := findKnob(g, scope, entity, cfg.Field, card)
	if err != nil {
		return nil, err
	}
	res.Field = k.Name
	names, pair, compared := pairedEntities(g, cfg.Matchups)
	res.Compared = compared
	seats := comparesSeats(g)
	word := "side"
	if gm, ok := game.Lookup(g.Game()); ok && gm.Vocabulary().Side != "" {
		word = gm.Vocabulary().Side
	}
	// A card of one side matters only in the games of its side: the other
	// lineups play exactly as in the ruleset itself and are not replayed.
	var only []int
	if card != nil {
		res.Card = &SweepCard{ID: card.ID, Name: card.Name, File: card.Pos.File, Line: card.Pos.Line}
		if sd := g.Sides(); card.Side >= 0 && card.Side < len(sd) {
			f := sd[card.Side].ID
			res.Card.Faction = f
			switch {
			case slices.Contains(names, f):
				res.Faction = f
			case !seats:
				return nil, fmt.Errorf("%w: card %s belongs to %s, which plays in none of the lineups", ErrConfig, card.ID, f)
			}
			for li, l := range cfg.Matchups {
				if !seats && slices.Contains(l, f) {
					only = append(only, li)
				}
			}
		}
	}
	if cfg.Faction != "" {
		if !slices.Contains(names, cfg.Faction) {
			if seats {
				return nil, fmt.Errorf("%w: %q is none of the run's %s", ErrConfig, cfg.Faction, strings.Join(names, ", "))
			}
			return nil, fmt.Errorf("%w: %s %q plays in none of the lineups", ErrConfig, word, cfg.Faction)
		}
		res.Faction = cfg.Faction
	}
	// Written so that NaN fails it: NaN compares false with everything.
	if !(cfg.Target >= 0 && cfg.Target < 1) {
		return nil, fmt.Errorf("%w: the target share must lie in [0, 1), got %g", ErrConfig, cfg.Target)
	}
	res.Target = cfg.Target
	if res.Target <= 0 {
		res.Target = fairShare(cfg.Matchups, "")
		if !seats {
			res.Target = fairShare(cfg.Matchups, res.Faction)
		}
	}
	res.Target = round6(res.Target)
	// Every value checked before a game is played: the knob's With says
	// why a value makes a ruleset the game's loader refuses.
	variants := make([]game.Ruleset, len(cfg.Values))
	for i, v := range cfg.Values {
		vg, err := k.With(g, entity, v)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
		if v < k.Min || v > k.Max {
			return nil, fmt.Errorf("%w: %s %d is out of range (%d to %d)", ErrConfig, k.Name, v, k.Min, k.Max)
		}
		variants[i] = vg
	}
	cur := k.Get(g, entity)
	res.Current = cur
	// One arm per value; the ruleset itself stands for the current value.
	base := &arm{g: g}
	arms := []*arm{base}
	armOf := map[int]*arm{cur: base}
	for i, v := range cfg.Values {
		if _, ok := armOf[v]; ok {
			continue
		}
		a := &arm{g: variants[i], lineups: only}
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
	sweepPoints(res, &pc, cfg.Values, armOf, names, func(a *arm, i int) pairAcc { return pair(&pc, base, a, i) })
	if res.Best != cur {
		res.Suggestion = suggestEdit(g, k, card, entity, cur, res.Best)
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
		if r.Compared != "" {
			whose = "every seat's" // a mirror (pairedEntities)
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

// suggestEdit locates the YAML line to change: where the knob says its
// value is written (game.Knob.Where), else the card's first line, or
// rules.yaml's line with the knob's key.
func suggestEdit(g game.Ruleset, k *game.Knob, card *game.Card, entity, from, to int) *Suggestion {
	s := &Suggestion{Field: k.Name, From: from, To: to}
	switch {
	case k.Where != nil:
		s.File, s.Line = k.Where(g, entity)
	case card != nil:
		s.File, s.Line = card.Pos.File, card.Pos.Line
	default:
		s.File = "rules.yaml"
		if files := g.Info().Files; files != nil {
			s.Line = findKeyLine(files[s.File], 1, k.Name, false)
		}
	}
	switch {
	case card != nil:
		s.Text = fmt.Sprintf("%s:%d (%s, %s): %s: %d → %d", s.File, s.Line, card.ID, card.Name, k.Name, from, to)
	case s.Line > 0:
		s.Text = fmt.Sprintf("%s:%d: %s: %d → %d", s.File, s.Line, k.Name, from, to)
	default:
		s.Text = fmt.Sprintf("%s: %s: %d → %d", s.File, k.Name, from, to)
	}
	return s
}

// findKeyLine is cards.FindKeyLine.
func findKeyLine(data []byte, start int, key string, inItem bool) int {
	return cards.FindKeyLine(data, start, key, inItem)
}
