package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/game"
)

// SkillConfig describes a skill comparison: the same games played with
// every seat taken by the bot of each level in turn. PairedConfig.Bots is
// ignored.
type SkillConfig struct {
	PairedConfig
	// Game is the ruleset of any game.
	Game game.Ruleset
	// Levels are bot specs, weakest first by convention; at least two.
	Levels []string
	// SettleTolerance is the band within which a step counts as no
	// movement (0: DefaultSettleTolerance).
	SettleTolerance float64
}

// Skill plays the games once per level, on the same seeds, and reports each
// side's win share and rank per level, the paired change of every side
// between consecutive levels (Holm-corrected across sides and steps), the
// cards' opening-hand improvement per level where the game counts it, and
// the sides and cards whose rank changes. In a game every seat of which
// plays one side (a mirror) the side is fair by construction, so the seats
// take the sides' place (pairedEntities): in turn order from the seat that
// began each game where the game says who began (Spacetrace: the starting
// seat's share at each level is what skill moves there), else seat by seat.
func Skill(ctx context.Context, cfg SkillConfig) (*SkillResult, error) {
	g := cfg.Game
	if g == nil {
		return nil, fmt.Errorf("%w: no ruleset", ErrConfig)
	}
	if len(cfg.Levels) < 2 {
		return nil, fmt.Errorf("%w: skill needs at least two bot levels, got %d", ErrConfig, len(cfg.Levels))
	}
	if t := cfg.SettleTolerance; math.IsNaN(t) || t < 0 || t >= 1 {
		return nil, fmt.Errorf("%w: settle tolerance %v is not a win share between 0 and 1", ErrConfig, t)
	}
	levels := make([]string, len(cfg.Levels))
	for i, l := range cfg.Levels {
		levels[i] = normSpec(l)
		if slices.Contains(levels[:i], levels[i]) {
			return nil, fmt.Errorf("%w: bot level %q given twice", ErrConfig, l)
		}
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	arms := make([]*arm, len(levels))
	for i, l := range levels {
		arms[i] = &arm{g: g, bots: []string{l}, counts: true}
	}
	pc := cfg.PairedConfig
	partial, elapsed, err := runArms(ctx, &pc, arms)
	if err != nil {
		return nil, err
	}
	minN := pc.minSample()
	res := &SkillResult{Ruleset: RulesetInfoOf(g),
		Levels: levels, ArmInfo: pc.info(levels), Alpha: pc.alpha(), Correction: CorrectionHolm,
		Factions: []SkillFaction{}, Steps: []SkillStep{}, Cards: []SkillCard{}, RankChanges: []RankChange{},
		Partial: partial}
	var games int64
	for _, a := range arms {
		games += a.played
	}
	res.Timing = runTiming(games, elapsed)
	names, pair, compared := pairedEntities(g, pc.Matchups)
	res.Compared = compared
	// Shares and ranks per level: an arm paired with itself holds its own
	// win units and games, as the counts' winStats reads them.
	for k, f := range names {
		sf := SkillFaction{Faction: f}
		for i, l := range levels {
			p := pair(&pc, arms[i], arms[i], k)
			sf.Levels = append(sf.Levels, SkillShare{Level: l, WinStats: winStats(p.sumA, p.n, WinUnit, minN)})
		}
		res.Factions = append(res.Factions, sf)
	}
	for i := range levels {
		order := make([]int, len(res.Factions))
		for k := range order {
			order[k] = k
		}
		rankDesc(order, func(k int) float64 { return res.Factions[k].Levels[i].WinRate },
			func(k, rank int) { res.Factions[k].Levels[i].Rank = rank })
	}
	// Paired steps between consecutive levels, corrected together.
	var tests []*PairedTest
	for i := 0; i+1 < len(levels); i++ {
		st := SkillStep{From: levels[i], To: levels[i+1], Factions: make([]FactionDelta, len(names))}
		for k, f := range names {
			p := pair(&pc, arms[i], arms[i+1], k)
			st.Factions[k] = factionDelta(f, &p, minN)
		}
		res.Steps = append(res.Steps, st)
	}
	for i := range res.Steps {
		for k := range res.Steps[i].Factions {
			tests = append(tests, &res.Steps[i].Factions[k].PairedTest)
		}
	}
	finishTests(tests, CorrectionHolm, pc.alpha())
	res.SettleTolerance = cfg.SettleTolerance
	if res.SettleTolerance <= 0 {
		res.SettleTolerance = DefaultSettleTolerance
	}
	for k := range res.Factions {
		deltas := make([]*FactionDelta, len(res.Steps))
		for i := range res.Steps {
			deltas[i] = &res.Steps[i].Factions[k]
		}
		res.Factions[k].Settle = settle(levels, deltas, res.SettleTolerance, pc.Games)
	}
	// Cards: opening-hand IWD per level, ranked within the faction, where
	// the game's counts have it (Alpha Tactics').
	reps := make([]*Report, len(arms))
	for i, a := range arms {
		if a.Counts == nil {
			reps = nil
			break
		}
		reps[i] = summarize(header{config: ConfigInfo{MinSample: minN}}, a.Counts)
	}
	if reps != nil {
		for ci := range reps[0].Cards {
			k := &reps[0].Cards[ci]
			sc := SkillCard{ID: k.ID, Faction: k.Faction, Name: k.Name}
			for i, l := range levels {
				kc := &reps[i].Cards[ci]
				sc.Levels = append(sc.Levels, SkillCardLevel{Level: l, PlayRate: kc.PlayRate, OHIWD: Or0(kc.OHIWD),
					OHIWDCI: CIOr0(kc.OHIWDCI95), LowN: kc.OHLowN})
			}
			res.Cards = append(res.Cards, sc)
		}
	}
	for i := range levels {
		for _, f := range names {
			var idx []int
			for c := range res.Cards {
				if res.Cards[c].Faction == f {
					idx = append(idx, c)
				}
			}
			rankDesc(idx, func(c int) float64 { return res.Cards[c].Levels[i].OHIWD },
				func(c, rank int) { res.Cards[c].Levels[i].Rank = rank })
		}
	}
	res.RankChanges = rankChanges(res)
	if comparesSeats(g) {
		for i := range res.RankChanges {
			if res.RankChanges[i].Kind == "faction" {
				res.RankChanges[i].Kind = "seat"
			}
		}
	}
	return res, nil
}

// rankDesc orders idx by val, highest first (stable: equal values, and NaN,
// keep their order), and gives set each index's rank, 1 for the highest.
func rankDesc(idx []int, val func(int) float64, set func(k, rank int)) {
	slices.SortStableFunc(idx, func(x, y int) int {
		a, b := val(x), val(y)
		switch {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	for r, k := range idx {
		set(k, r+1)
	}
}

// rankChanges lists factions whose rank differs between consecutive levels
// (and between the first and the last, with more than two levels), and the
// cards whose rank within their faction changes with a significant change of
// their opening-hand IWD.
func rankChanges(res *SkillResult) []RankChange {
	type pair struct{ i, j int }
	var pairs []pair
	for i := 0; i+1 < len(res.Levels); i++ {
		pairs = append(pairs, pair{i, i + 1})
	}
	if len(res.Levels) > 2 {
		pairs = append(pairs, pair{0, len(res.Levels) - 1})
	}
	var out []RankChange
	for _, pr := range pairs {
		from, to := res.Levels[pr.i], res.Levels[pr.j]
		for fi, f := range res.Factions {
			a, b := f.Levels[pr.i], f.Levels[pr.j]
			if a.Rank == b.Rank {
				continue
			}
			rc := RankChange{Kind: "faction", ID: f.Faction, Faction: f.Faction, From: from, To: to,
				RankFrom: a.Rank, RankTo: b.Rank}
			// Significance of the faction's own change: the step's test for
			// consecutive levels; for first → last every step on the way must
			// agree in sign and at least one be significant.
			if pr.j == pr.i+1 {
				rc.Significant = res.Steps[pr.i].Factions[fi].Significant
			} else {
				sign, any, agree := 0.0, false, true
				for s := pr.i; s < pr.j; s++ {
					d := res.Steps[s].Factions[fi]
					if d.Delta*sign < 0 {
						agree = false
					}
					if d.Delta != 0 {
						sign = d.Delta
					}
					any = any || d.Significant
				}
				rc.Significant = any && agree
			}
			rc.Note = rankNote(b.Rank > a.Rank, rc.Significant, "faction")
			out = append(out, rc)
		}
		// Cards: is the change of oh_iwd between the levels real? A z-test
		// on the two estimates, their standard errors read from their
		// Newcombe intervals, Holm-corrected over the cards; only cards that
		// pass and change rank are listed.
		var ps []float64
		var idx []int
		for ci, c := range res.Cards {
			a, b := c.Levels[pr.i], c.Levels[pr.j]
			if a.LowN || b.LowN {
				continue
			}
			sa := (a.OHIWDCI[1] - a.OHIWDCI[0]) / (2 * Z95)
			sb := (b.OHIWDCI[1] - b.OHIWDCI[0]) / (2 * Z95)
			p := 1.0
			if se := math.Sqrt(sa*sa + sb*sb); se > 0 {
				z := math.Abs(b.OHIWD-a.OHIWD) / se
				p = math.Erfc(z / math.Sqrt2)
			}
			ps = append(ps, p)
			idx = append(idx, ci)
		}
		adj := Holm(ps)
		for k, ci := range idx {
			c := res.Cards[ci]
			a, b := c.Levels[pr.i], c.Levels[pr.j]
			if a.Rank == b.Rank || adj[k] >= res.Alpha {
				continue
			}
			out = append(out, RankChange{Kind: "card", ID: c.ID, Faction: c.Faction, From: from, To: to,
				RankFrom: a.Rank, RankTo: b.Rank, Significant: true, Note: rankNote(b.Rank > a.Rank, true, "card")})
		}
	}
	slices.SortStableFunc(out, func(x, y RankChange) int {
		dx, dy := absInt(x.RankTo-x.RankFrom), absInt(y.RankTo-y.RankFrom)
		switch {
		case x.Significant != y.Significant:
			if x.Significant {
				return -1
			}
			return 1
		case dx != dy:
			return dy - dx
		}
		return strings.Compare(x.ID, y.ID)
	})
	if out == nil {
		out = []RankChange{}
	}
	return out
}

func rankNote(worse, significant bool, kind string) string {
	if !significant {
		return "rank change within noise"
	}
	if worse {
		return "strong only against weak play"
	}
	if kind == "card" {
		return "pays off with skilled play"
	}
	return "rewards skilled play"
}
