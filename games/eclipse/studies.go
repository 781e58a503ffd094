package eclipse

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// The studies `cardlab study` runs (game.Studier): the blueprint matrix,
// one battle's odds, and the NPC table (design brief §3.1, §3.4). Each
// battle is solved exactly when it fits the state budget; above it, it is
// played by the engine with the same fixed policy and given with a 95%
// Wilson interval, and the table says which. Optimal (and the threshold
// retreat) read each battle's exact study, so above the budget they are
// refused, never replaced.

var commonParams = []game.StudyParam{
	{Key: "policy", Doc: "the players' hit assignment: optimal, kill_largest, most_dangerous, spread (default: rules.yaml assign.player)"},
	{Key: "budget", Doc: "damage states × slots the exact study may use (default: rules.yaml study.state_budget)"},
	{Key: "games", Doc: "battles played for a battle above the budget (default 20000)"},
	{Key: "seed", Doc: "the seed of those battles (default 1)"},
	{Key: "retreat", Doc: "never (default), or θ: a player type retreats when its side's chance of winning, never retreating, is below θ, or when its side began to retreat, where rules.yaml retreat lets its role (the chance is the exact study's, so only battles within the budget)"},
	{Key: "mode", Doc: "auto (default): exact within the budget, engine battles with the same policy above it (optimal is refused there); exact: refuse a battle above the budget; monte_carlo: every battle by the engine with the same policy, to check one against the other"},
}

// Studies implements game.Studier.
func (rs *Ruleset) Studies() []game.StudyInfo {
	return []game.StudyInfo{
		{Name: "matrix", Doc: "every player fleet attacking every other: the chance each side wins, exact where the study fits",
			Params: append([]game.StudyParam{{Key: "fleets", Doc: "comma-separated fleet ids (default: every player fleet)"},
				{Key: "material", Doc: "M: instead of the ruleset's fleets, equal-material fleets: for each mobile player blueprint the most ships of it costing at most M (and within its max), plus the ruleset's mixed player fleets that spend M but less than the cheapest ship (16 is the brief's §3.1 budget)"}}, commonParams...)},
		{Name: "battle", Doc: "one battle's outcomes, rounds and survivors per ship type",
			Params: append([]game.StudyParam{{Key: "attacker", Doc: "the attacking fleet's id (required)"}, {Key: "defender", Doc: "the defending fleet's id (required; an NPC fleet may defend)"}}, commonParams...)},
		{Name: "parts", Doc: "each part's value in hulls: one ship with the part against a field, both roles (design brief §3.2)",
			Params: append([]game.StudyParam{{Key: "ship", Doc: "the blueprint that gets the parts (default interceptor)"}, {Key: "field", Doc: "a fleet id, or a blueprint id for one ship of it (default interceptor)"}}, commonParams...)},
		{Name: "initiative", Doc: "what ±1 initiative on each blueprint flips in the firing order, and what it changes in its fleets' win shares (design brief §3.3)",
			Params: append([]game.StudyParam{{Key: "fleets", Doc: "comma-separated player fleet ids (default: every player fleet)"}}, commonParams...)},
		{Name: "npc", Doc: "the chance each player fleet clears each NPC fleet, and the material it loses",
			Params: append([]game.StudyParam{{Key: "fleets", Doc: "comma-separated player fleet ids (default: all)"}, {Key: "npcs", Doc: "comma-separated NPC fleet ids (default: all)"}}, commonParams...)},
	}
}

type studyOpts struct {
	policy Policy
	budget int
	games  int
	seed   uint64
	theta  float64 // retreat threshold; 0: never
	mode   string  // modeAuto, modeExact or modeMC
}

func (rs *Ruleset) studyOpts(params map[string]string) (studyOpts, error) {
	o := studyOpts{policy: rs.Rules.PlayerPolicy, budget: rs.Rules.StateBudget, games: 20000, seed: 1, mode: modeAuto}
	if v, ok := params["mode"]; ok {
		if v != modeAuto && v != modeExact && v != modeMC {
			return o, fmt.Errorf("eclipse: mode=%q: expected auto, exact or monte_carlo", cards.Truncate(v))
		}
		o.mode = v
	}
	if v, ok := params["policy"]; ok {
		p, err := ParsePolicy(v)
		if err != nil || p > Spread {
			return o, fmt.Errorf("eclipse: policy %q: expected one of %s", v, cards.QuoteList(playerPolicies))
		}
		o.policy = p
	}
	intParam := func(key string, lo, hi int, dst *int) error {
		v, ok := params[key]
		if !ok {
			return nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("eclipse: %s=%q: expected a whole number from %d to %d", key, v, lo, hi)
		}
		*dst = n
		return nil
	}
	if err := intParam("budget", 1, 200_000_000, &o.budget); err != nil {
		return o, err
	}
	if err := intParam("games", 1, 10_000_000, &o.games); err != nil {
		return o, err
	}
	if v, ok := params["seed"]; ok {
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return o, fmt.Errorf("eclipse: seed=%q: expected a whole number", v)
		}
		o.seed = s
	}
	if v, ok := params["retreat"]; ok {
		th, err := parseTheta(v)
		if err != nil {
			return o, err
		}
		if th > 0 && rs.Rules.RetreatCompletes != RetreatNextActivation {
			return o, errRetreatRoundEnd
		}
		o.theta = th
	}
	return o, nil
}

// fleetList reads a comma-separated list of fleet ids of the kind wanted
// (npc), or all of them.
func (rs *Ruleset) fleetList(params map[string]string, key string, npc bool) ([]int, error) {
	var all, ids []string
	var out []int
	for i := range rs.Fleets {
		if rs.Fleets[i].NPC == npc {
			all = append(all, rs.Fleets[i].ID)
			out = append(out, i)
		}
	}
	v, ok := params[key]
	if !ok {
		return out, nil
	}
	out = out[:0]
	for _, id := range strings.Split(v, ",") {
		id = strings.TrimSpace(id)
		if slices.Contains(ids, id) {
			continue
		}
		if !slices.Contains(all, id) {
			hint := hintFor(id, all)
			kind := "player fleet"
			if npc {
				kind = "NPC fleet"
			}
			return nil, fmt.Errorf("eclipse: %s: no %s %q%s", key, kind, cards.Truncate(id), hint)
		}
		ids = append(ids, id)
		out = append(out, rs.FleetIndex(id))
	}
	return out, nil
}

// fought is one battle's figures, exact or sampled.
type fought struct {
	Outcome
	exact    bool
	states   int
	games    int
	lo, hi   float64 // 95% interval of AttackerWins (the value itself when exact)
	policies [2]Policy
	// heuristic is P(attacker eliminates) with kill_largest for the
	// players, when the battle is exact and the policy another (the policy
	// gap the brief asks to report); NaN otherwise.
	heuristic float64
}

// fight studies one battle: exactly within the budget, else by the engine
// with the same policy (o.mode: "exact" refuses the engine, "monte_carlo"
// plays every battle by it).
func (rs *Ruleset) fight(b *Battle, o studyOpts, stop *atomic.Bool) (*fought, error) {
	solve := func(p Policy) (*Result, error) {
		if o.theta > 0 {
			return SolveRetreat(b, p, o.theta, o.budget)
		}
		return Solve(b, p, o.budget)
	}
	if o.mode != modeMC {
		res, err := solve(o.policy)
		if err == nil {
			f := &fought{Outcome: res.Outcome, exact: true, states: res.States, lo: res.AttackerWins, hi: res.AttackerWins, policies: res.Policies, heuristic: math.NaN()}
			if o.policy != KillLargest {
				if h, err := solve(KillLargest); err == nil {
					f.heuristic = h.AttackerWins
				}
			}
			return f, nil
		}
		if !errors.Is(err, ErrTooLarge) {
			return nil, err
		}
		if o.mode == modeExact {
			var se *sizeError
			errors.As(err, &se)
			return nil, fmt.Errorf("eclipse: mode=exact: %w; raise budget= (rules.yaml study.state_budget)", se)
		}
	}
	bot, err := rs.mcBot(b, o)
	if err != nil {
		return nil, err
	}
	f := &fought{games: o.games, policies: [2]Policy{o.policy, o.policy}, heuristic: math.NaN()}
	if b.Forces[Defender].NPC {
		f.policies[Defender] = b.Rules.NPCPolicy
	}
	s := NewState(b, 0)
	var buf []game.Action
	var counts [5]int
	for i := 0; i < o.games; i++ {
		if stop.Load() {
			return nil, game.ErrStopped
		}
		s.Reset(game.SeedFor(o.seed, uint64(i)))
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			s.Apply(bot.Choose(s, buf))
		}
		counts[s.Outcome()]++
		f.Rounds += float64(s.Length())
		for side := range b.Forces {
			for t := range b.Forces[side].Types {
				n := float64(s.Alive(side, t) + int(s.left[side][t]))
				f.Survivors[side][t] += n
				for j := 0; j < int(n); j++ {
					f.AtLeast[side][t][j]++
				}
				f.Material[side] += n * float64(b.Forces[side].Types[t].Cost)
			}
		}
	}
	n := float64(o.games)
	// As the exact study's: eliminations apart from retreats (the share
	// counts a defender's retreat as the attacker's win).
	f.AttackerWins = float64(counts[AttackerEliminates]) / n
	f.DefenderWins = float64(counts[DefenderEliminates]) / n
	f.Stalemate = float64(counts[StalemateEnd]) / n
	f.AttackerLeaves = float64(counts[AttackerLeaves]) / n
	f.DefenderLeaves = float64(counts[DefenderLeaves]) / n
	f.Rounds /= n
	for side := range b.Forces {
		f.Material[side] /= n
		for t := range f.Survivors[side] {
			f.Survivors[side][t] /= n
			for j := range f.AtLeast[side][t] {
				f.AtLeast[side][t][j] /= n
			}
		}
	}
	f.lo, f.hi = Wilson(counts[AttackerEliminates], o.games)
	return f, nil
}

// The study's modes (mode=): exact within the budget and the engine above
// it (auto), exact only, or the engine only.
const (
	modeAuto  = "auto"
	modeExact = "exact"
	modeMC    = "monte_carlo"
)

// mcBot is the engine bot that plays o's policy in b: the same policy as
// the exact study's, never another in its place. Optimal and the
// threshold retreat read the exact study of the battle (OptimalBot), so
// above the budget they are refused.
func (rs *Ruleset) mcBot(b *Battle, o studyOpts) (game.Agent, error) {
	if o.policy == Optimal || o.theta > 0 {
		what := "policy=optimal reads the exact study of the battle (its first choice needs the values of states with every ship still alive, so the whole battle)"
		fix := "choose a fixed policy (kill_largest, most_dangerous, spread), which the engine plays above the budget"
		if o.theta > 0 {
			what = fmt.Sprintf("retreat=%g reads the exact study of the battle (its threshold is the never-retreating study's chance)", o.theta)
			fix = "drop retreat="
		}
		if err := optimalFits(b, o.budget); err != nil {
			return nil, fmt.Errorf("eclipse: %s: %w; raise budget= (rules.yaml study.state_budget) or %s", what, err, fix)
		}
	}
	if o.policy == Optimal && o.theta > 0 {
		// The study's optimal with retreat is the minimax of the
		// retreating game: so is the bot's.
		return NewOptimalRetreatBot(o.budget, o.theta), nil
	}
	var bot game.Agent = NewPolicyBot(o.policy)
	if o.policy == Optimal {
		bot = NewOptimalBot(o.budget)
	}
	if o.theta > 0 {
		bot = NewRetreatBot(bot, o.policy, o.theta, o.budget)
	}
	return bot, nil
}

// Wilson is the 95% Wilson score interval of k successes in n trials.
func Wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(0, c-h), min(1, c+h)
}

func (f *fought) mode() string {
	if f.exact {
		return "exact"
	}
	return "monte carlo"
}

// pct formats a chance for a table cell: "40.3", or "40.3 [39.6, 41.0]"
// when sampled.
func (f *fought) pct() string {
	if f.exact {
		return strconv.FormatFloat(100*f.AttackerWins, 'f', 1, 64)
	}
	return fmt.Sprintf("%.1f [%.1f, %.1f]", 100*f.AttackerWins, 100*f.lo, 100*f.hi)
}

// pctCell is pct's table cell, marked "exact" when it is (the page shows
// exact cells in bold).
func (f *fought) pctCell() game.SheetCell {
	c := game.SheetCell{Value: f.pct()}
	if f.exact {
		c.Mark = "exact"
	}
	return c
}

// Study implements game.Studier.
func (rs *Ruleset) Study(name string, params map[string]string, stop *atomic.Bool) (*game.StudyResult, error) {
	o, err := rs.studyOpts(params)
	if err != nil {
		return nil, err
	}
	var res *game.StudyResult
	switch name {
	case "matrix":
		res, err = rs.studyMatrix(params, o, stop)
	case "battle":
		res, err = rs.studyBattle(params, o, stop)
	case "npc":
		res, err = rs.studyNPC(params, o, stop)
	case "parts":
		res, err = rs.studyParts(params, o, stop)
	case "initiative":
		res, err = rs.studyInitiative(params, o, stop)
	default:
		return nil, fmt.Errorf("eclipse: no study %q (matrix, battle, parts, initiative, npc)", name)
	}
	if err != nil {
		return nil, err
	}
	res.Notes = append(res.Notes, rs.provenance(o)...)
	return res, nil
}

func (rs *Ruleset) provenance(o studyOpts) []string {
	retreat := "No side retreats (the study's retreat policy is never)."
	if o.theta > 0 {
		var roles []string
		for s, name := range []string{"attacker", "defender"} {
			if rs.Rules.Retreat[s] {
				roles = append(roles, name)
			}
		}
		who := "no role (rules.yaml retreat allows none, so no side retreats)"
		if len(roles) > 0 {
			who = "the " + strings.Join(roles, " and the ") + " (rules.yaml retreat)"
		}
		retreat = fmt.Sprintf("Retreat by threshold %g for %s: a type retreats at its activation when its side's chance of winning, never retreating, is below %g, or its side began to retreat; it leaves at its next activation.", o.theta, who, o.theta)
	}
	var mode string
	switch {
	case o.mode == modeMC:
		mode = fmt.Sprintf("Every battle is %d engine battles (seed %d, mode=monte_carlo) with the same policy, %s, and a 95%% Wilson interval; the mode column says monte carlo.", o.games, o.seed, o.policy)
	case o.mode == modeExact:
		mode = fmt.Sprintf("Exact: the dynamic programme over damage states (docs/rules-eclipse.md), every battle within %d damage states × slots (mode=exact).", o.budget)
	case o.policy == Optimal || o.theta > 0:
		mode = fmt.Sprintf("Exact: the dynamic programme over damage states (docs/rules-eclipse.md), every battle within %d damage states × slots: %s reads each battle's exact study, so a battle above the budget is refused, never played by another policy.", o.budget, o.policy)
	default:
		mode = fmt.Sprintf("Exact: the dynamic programme over damage states (docs/rules-eclipse.md), for battles of at most %d damage states × slots; the others are %d engine battles (seed %d) with the same policy, %s, and a 95%% Wilson interval. The mode column (exact or monte carlo) and the mark on exact cells say which each battle used.", o.budget, o.games, o.seed, o.policy)
	}
	return []string{
		fmt.Sprintf("Players assign hits by %s; NPCs by %s (rules.yaml assign). %s", o.policy, rs.Rules.NPCPolicy, retreat),
		mode,
	}
}

var pctCol = func(head, doc string) game.SheetColumn {
	return game.SheetColumn{Head: head, Format: "0.0%", Doc: doc}
}

// matrixFleet is one side of the matrix: a ruleset fleet (index ≥ 0), or
// an equal-material fleet built for the study (index -1).
type matrixFleet struct {
	index    int
	id, name string
	force    Force
	cost     int
}

func (rs *Ruleset) rulesetMatrixFleet(f int) matrixFleet {
	return matrixFleet{index: f, id: rs.Fleets[f].ID, name: rs.Fleets[f].Name, force: rs.Force(f), cost: rs.Fleets[f].Cost(rs)}
}

// materialFleets are the fleets of the equal-material matrix at material m
// (docs/rules-eclipse.md): for each mobile player blueprint in ruleset
// order, the largest count whose cost is at most m, capped by the
// blueprint's max; then each ruleset player fleet of two or more
// blueprints whose cost is at most m and whose remainder m − cost is
// less than the cheapest mobile player blueprint, so that no further ship
// would fit. A single-blueprint fleet takes the id and name of a ruleset
// fleet of the same ships, if there is one.
func (rs *Ruleset) materialFleets(m int) ([]matrixFleet, error) {
	cheapest := 0
	var mono []int
	for i := range rs.Blueprints {
		b := &rs.Blueprints[i]
		if b.NPC || !b.Mobile || b.Cost <= 0 {
			continue
		}
		mono = append(mono, i)
		if cheapest == 0 || b.Cost < cheapest {
			cheapest = b.Cost
		}
	}
	var out []matrixFleet
	for _, i := range mono {
		b := &rs.Blueprints[i]
		n := m / b.Cost
		if b.Max > 0 {
			n = min(n, b.Max)
		}
		if n == 0 {
			continue // one ship costs more than m
		}
		mf := matrixFleet{index: -1, id: fmt.Sprintf("%d×%s", n, b.ID), name: fmt.Sprintf("%d × %s", n, b.Name),
			force: Force{Name: fmt.Sprintf("%d × %s", n, b.Name), Types: []Type{TypeOf(b, n)}}, cost: n * b.Cost}
		for _, f := range rs.SideFleets {
			if sh := rs.Fleets[f].Ships; len(sh) == 1 && sh[0].Blueprint == i && sh[0].Count == n {
				mf = rs.rulesetMatrixFleet(f)
				break
			}
		}
		out = append(out, mf)
	}
	for _, f := range rs.SideFleets {
		if len(rs.Fleets[f].Ships) < 2 {
			continue
		}
		if c := rs.Fleets[f].Cost(rs); c <= m && m-c < cheapest {
			out = append(out, rs.rulesetMatrixFleet(f))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("eclipse: material=%d: no mobile player ship costs that little", m)
	}
	return out, nil
}

func (rs *Ruleset) studyMatrix(params map[string]string, o studyOpts, stop *atomic.Bool) (*game.StudyResult, error) {
	var fl []matrixFleet
	material := 0
	if v, ok := params["material"]; ok {
		if _, ok := params["fleets"]; ok {
			return nil, fmt.Errorf("eclipse: matrix takes fleets= or material=, not both")
		}
		m, err := strconv.Atoi(v)
		if err != nil || m < 1 || m > 1000 {
			return nil, fmt.Errorf("eclipse: material=%q: expected a whole number from 1 to 1000", v)
		}
		material = m
		if fl, err = rs.materialFleets(m); err != nil {
			return nil, err
		}
	} else {
		idx, err := rs.fleetList(params, "fleets", false)
		if err != nil {
			return nil, err
		}
		for _, f := range idx {
			fl = append(fl, rs.rulesetMatrixFleet(f))
		}
	}
	n := len(fl)
	cells := make([][]*fought, n)
	for i, a := range fl {
		cells[i] = make([]*fought, n)
		for j, d := range fl {
			if stop.Load() {
				return nil, game.ErrStopped
			}
			var b *Battle
			var err error
			if a.index >= 0 && d.index >= 0 {
				b, err = rs.Battle(a.index, d.index)
			} else {
				b, err = NewBattle(a.force, d.force, rs.Rules)
			}
			if err != nil {
				return nil, err
			}
			if cells[i][j], err = rs.fight(b, o, stop); err != nil {
				return nil, err
			}
		}
	}
	m := game.Sheet{Name: "matrix", Columns: []game.SheetColumn{{Head: "attacker \\ defender", Doc: "the attacking fleet (row) against the defending fleet (column)"}}}
	if material > 0 {
		m.Columns = append(m.Columns, game.SheetColumn{Head: "material", Doc: fmt.Sprintf("the row fleet's build cost: at most %d, the remainder unspent", material)})
	}
	for _, d := range fl {
		m.Columns = append(m.Columns, game.SheetColumn{Head: d.id,
			Doc: "P(the row's fleet, attacking, eliminates " + d.name + ") in %; a sampled cell gives its 95% interval"})
	}
	m.Columns = append(m.Columns, game.SheetColumn{Head: "mean both roles", Doc: "the row fleet's win share over every pairing, attacking and defending, in %"})
	battles := game.Sheet{Name: "battles", Columns: []game.SheetColumn{
		{Head: "attacker", Doc: "the attacking fleet's id"}, {Head: "defender", Doc: "the defending fleet's id"},
		{Head: "mode", Doc: "exact (the dynamic programme) or monte carlo (engine battles)"},
		pctCol("attacker eliminates", "P(the defender is eliminated)"),
		pctCol("low", "95% interval of that chance, low end (the value when exact)"),
		pctCol("high", "95% interval, high end"),
		pctCol("defender eliminates", "P(the attacker is eliminated)"),
		pctCol("stalemate", "P(neither side can hit the other: the attacker leaves)"),
		{Head: "rounds", Format: "0.00", Doc: "expected engagement rounds begun"},
		{Head: "attacker material", Format: "0.00", Doc: "expected material (build cost) of the attacker's surviving ships"},
		{Head: "defender material", Format: "0.00", Doc: "expected material of the defender's surviving ships"},
		{Head: "states", Doc: "damage states × slots the exact study held (0 when sampled)"},
		pctCol("kill_largest", "P(the defender is eliminated) when the players assign by kill_largest, exact (empty when sampled or when kill_largest is the policy)"),
		{Head: "policy gap", Format: "0.00", Doc: "the policy's P(attacker eliminates) minus kill_largest's, in percentage points: what the assignment rule is worth in this battle"},
		pctCol("attacker retreats", "P(every attacking ship still in the battle retreated): 0 unless the study's retreat is a threshold"),
		pctCol("defender retreats", "P(every defending ship still in the battle retreated)"),
	}}
	for i, a := range fl {
		row := []game.SheetCell{{Value: a.id}}
		if material > 0 {
			row = append(row, game.SheetCell{Value: int64(a.cost)})
		}
		share := 0.0
		for j, d := range fl {
			c := cells[i][j]
			row = append(row, c.pctCell())
			// Fleet a's share as attacker here, and as defender against d.
			rev := cells[j][i]
			share += c.AttackerShare(&rs.Rules) + (1 - rev.AttackerShare(&rs.Rules))
			battles.Rows = append(battles.Rows, []game.SheetCell{
				{Value: a.id}, {Value: d.id}, {Value: c.mode()},
				{Value: c.AttackerWins}, {Value: c.lo}, {Value: c.hi}, {Value: c.DefenderWins}, {Value: c.Stalemate},
				{Value: c.Rounds}, {Value: c.Material[Attacker]}, {Value: c.Material[Defender]}, {Value: int64(c.states)},
				numOrEmpty(c.heuristic), numOrEmpty(100 * (c.AttackerWins - c.heuristic)),
				{Value: c.AttackerLeaves}, {Value: c.DefenderLeaves},
			})
		}
		row = append(row, game.SheetCell{Value: strconv.FormatFloat(100*share/float64(2*n), 'f', 1, 64)})
		m.Rows = append(m.Rows, row)
	}
	title := "Blueprint matrix: P(row attacker wins) in %"
	var notes []string
	if material > 0 {
		title = fmt.Sprintf("Blueprint matrix at equal material (at most %d each): P(row attacker wins) in %%", material)
		notes = append(notes, fmt.Sprintf("Fleets at material %d: each mobile player blueprint's largest count costing at most %d (capped by its max), and the ruleset's mixed player fleets with less left over than the cheapest ship; the material column gives each fleet's actual cost.", material, material))
	}
	return &game.StudyResult{Title: title, Tables: []game.Sheet{m, battles}, Notes: notes}, nil
}

func (rs *Ruleset) oneFleet(params map[string]string, key string) (int, error) {
	v, ok := params[key]
	if !ok {
		return 0, fmt.Errorf("eclipse: battle needs %s=FLEET", key)
	}
	if i := rs.FleetIndex(v); i >= 0 {
		return i, nil
	}
	ids := make([]string, len(rs.Fleets))
	for i := range rs.Fleets {
		ids[i] = rs.Fleets[i].ID
	}
	return 0, fmt.Errorf("eclipse: %s: no fleet %q%s", key, cards.Truncate(v), hintFor(v, ids))
}

func (rs *Ruleset) studyBattle(params map[string]string, o studyOpts, stop *atomic.Bool) (*game.StudyResult, error) {
	a, err := rs.oneFleet(params, "attacker")
	if err != nil {
		return nil, err
	}
	d, err := rs.oneFleet(params, "defender")
	if err != nil {
		return nil, err
	}
	b, err := rs.Battle(a, d)
	if err != nil {
		return nil, err
	}
	f, err := rs.fight(b, o, stop)
	if err != nil {
		return nil, err
	}
	out := game.Sheet{Name: "outcomes", Columns: []game.SheetColumn{
		{Head: "outcome", Doc: "how the battle ends"}, pctCol("chance", "its probability"),
	}}
	for _, r := range []struct {
		name string
		p    float64
	}{{"attacker eliminates the defender", f.AttackerWins}, {"defender eliminates the attacker", f.DefenderWins}, {"stalemate (the attacker leaves)", f.Stalemate},
		{"attacker retreats", f.AttackerLeaves}, {"defender retreats", f.DefenderLeaves}} {
		out.Rows = append(out.Rows, []game.SheetCell{{Value: r.name}, {Value: r.p}})
	}
	if !math.IsNaN(f.heuristic) {
		out.Rows = append(out.Rows, []game.SheetCell{{Value: "attacker eliminates, both assigning by kill_largest"}, {Value: f.heuristic}})
	}
	surv := game.Sheet{Name: "survivors", Columns: []game.SheetColumn{
		{Head: "side", Doc: "attacker or defender"}, {Head: "ship", Doc: "the ship type"},
		{Head: "ships", Doc: "ships at the start"}, {Head: "survivors", Format: "0.00", Doc: "expected ships left"},
		{Head: "material", Format: "0.00", Doc: "expected material (build cost) left"},
		{Head: "P(at least 1, 2, … survive) %", Doc: "the chance that at least k ships of the type survive, for k = 1 up to the ships at the start"},
	}}
	for side, name := range []string{"attacker", "defender"} {
		for t, ty := range b.Forces[side].Types {
			surv.Rows = append(surv.Rows, []game.SheetCell{{Value: name}, {Value: ty.Name}, {Value: int64(ty.Count)},
				{Value: f.Survivors[side][t]}, {Value: f.Survivors[side][t] * float64(ty.Cost)}, {Value: atLeast(f.AtLeast[side][t][:ty.Count])}})
		}
	}
	title := fmt.Sprintf("%s attacks %s (%s", rs.Fleets[a].Name, rs.Fleets[d].Name, f.mode())
	if f.exact {
		title += fmt.Sprintf(", %d states × slots)", f.states)
	} else {
		title += fmt.Sprintf(", %d battles; P(attacker eliminates) 95%% interval [%.2f%%, %.2f%%])", f.games, 100*f.lo, 100*f.hi)
	}
	title += fmt.Sprintf("; %.2f engagement rounds expected", f.Rounds)
	return &game.StudyResult{Title: title, Tables: []game.Sheet{out, surv}}, nil
}

func (rs *Ruleset) studyNPC(params map[string]string, o studyOpts, stop *atomic.Bool) (*game.StudyResult, error) {
	fl, err := rs.fleetList(params, "fleets", false)
	if err != nil {
		return nil, err
	}
	npcs, err := rs.fleetList(params, "npcs", true)
	if err != nil {
		return nil, err
	}
	if len(npcs) == 0 {
		return nil, fmt.Errorf("eclipse: the ruleset has no NPC fleet")
	}
	clear := game.Sheet{Name: "npc", Columns: []game.SheetColumn{{Head: "npc \\ fleet", Doc: "the NPC fleet defending (row) against the player fleet attacking (column)"}}}
	lost := game.Sheet{Name: "material lost", Columns: []game.SheetColumn{{Head: "npc \\ fleet", Doc: "as in the npc table"}}}
	for _, f := range fl {
		clear.Columns = append(clear.Columns, game.SheetColumn{Head: rs.Fleets[f].ID, Doc: "P(" + rs.Fleets[f].Name + " clears the NPC) in %; a sampled cell gives its 95% interval"})
		lost.Columns = append(lost.Columns, game.SheetColumn{Head: rs.Fleets[f].ID, Format: "0.00", Doc: "expected material " + rs.Fleets[f].Name + " loses"})
	}
	for _, n := range npcs {
		row := []game.SheetCell{{Value: rs.Fleets[n].ID}}
		lrow := []game.SheetCell{{Value: rs.Fleets[n].ID}}
		for _, f := range fl {
			b, err := rs.Battle(f, n)
			if err != nil {
				return nil, err
			}
			c, err := rs.fight(b, o, stop)
			if err != nil {
				return nil, err
			}
			row = append(row, c.pctCell())
			lrow = append(lrow, game.SheetCell{Value: float64(rs.Fleets[f].Cost(rs)) - c.Material[Attacker]})
		}
		clear.Rows = append(clear.Rows, row)
		lost.Rows = append(lost.Rows, lrow)
	}
	return &game.StudyResult{Title: "NPC table: P(player fleet clears the NPC) in %", Tables: []game.Sheet{clear, lost}}, nil
}

// hintFor is ", did you mean …?" for a misspelt id, else the list of ids.
func hintFor(id string, ids []string) string {
	if s := cards.NewReader(nil, "").Suggest(id, ids); s != "" {
		return fmt.Sprintf(", did you mean %q?", s)
	}
	return " (" + strings.Join(ids, ", ") + ")"
}

// atLeast formats P(≥k survive) for k = 1… as "66.5 12.0".
func atLeast(p []float64) string {
	var b strings.Builder
	for i, x := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatFloat(100*x, 'f', 1, 64))
	}
	return b.String()
}

// numOrEmpty is a number cell, or an empty one for NaN.
func numOrEmpty(x float64) game.SheetCell {
	if math.IsNaN(x) {
		return game.SheetCell{}
	}
	return game.SheetCell{Value: x}
}
