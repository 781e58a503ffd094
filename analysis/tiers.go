package analysis

// The report's check at a second skill level (issue 26): the report's games
// are played again, deal for deal, with the other tier's bots, and each
// faction's win share is compared between the two tiers by the paired test
// of `cardlab skill` (Holm over the factions). Whether a verdict changes
// with skill also needs the report's tolerance band, which is a rendering
// setting: the reports package marks the verdicts (docs/metrics.md,
// "Skill-dependent verdicts").

import (
	"fmt"
	"math"
	"slices"

	"github.com/cardlab/cardlab/game"
)

// Outcomes collects the per-game win units of a run's games by global game
// index, from the records Run hands to Config.Record, so that two runs of
// the same games (another tier's bots) can be paired afterwards without
// keeping the records.
type Outcomes struct {
	lineups [][]string
	a       arm
}

// NewOutcomes prepares the outcomes of games per lineup of lineups.
func NewOutcomes(lineups [][]string, games int) *Outcomes {
	o := &Outcomes{lineups: lineups}
	o.a.units = make([]int8, len(lineups)*games*game.MaxSeats)
	for i := 0; i < len(o.a.units); i += game.MaxSeats {
		o.a.units[i] = -1
	}
	for li := range lineups {
		o.a.lineups = append(o.a.lineups, li)
	}
	o.a.starts = make([]int8, len(lineups)*games)
	o.a.plan = &plan{games: games}
	return o
}

// Record stores a game's outcome; it is a Config.Record.
func (o *Outcomes) Record(g *GameRecord) error {
	games := o.a.plan.games
	li := g.Index / games
	if g.Index < 0 || li >= len(o.lineups) {
		return fmt.Errorf("analysis: game %d outside the %d lineups of %d games", g.Index, len(o.lineups), games)
	}
	ids := o.lineups[li]
	base := g.Index * game.MaxSeats
	if g.StartSeat < 0 || g.StartSeat > len(ids) {
		return fmt.Errorf("analysis: game %d: begun by seat %d at a table of %d", g.Index, g.StartSeat, len(ids))
	}
	if g.StartSeat > 0 {
		o.a.starts[g.Index] = int8(g.StartSeat - 1)
	}
	if n := len(ids); mirrored(ids) {
		// Seat q of game j holds lineup position (q + j mod n) mod n, as
		// Run seats it; the seats' own units tell equal sides apart.
		rot := (g.Index % games) % n
		var sum int64
		for _, u := range g.Units {
			sum += u
		}
		if sum == 0 {
			// A finished game has a winner: these units were never set
			// (a record read back from a file does not carry them).
			return fmt.Errorf("analysis: game %d: the seats' win units are not in its record, so its seats cannot be told apart", g.Index)
		}
		for q := range n {
			o.a.units[base+(q+rot)%n] = int8(g.Units[q])
		}
		o.a.played++
		return nil
	}
	for k, f := range ids {
		u := 0
		if slices.Contains(g.Winners, f) {
			u = WinUnit / len(g.Winners)
		}
		o.a.units[base+k] = int8(u)
	}
	o.a.played++
	return nil
}

// TierCheck is the comparison of the report's tier (the bots every figure
// of the report comes from) with the check tier on the same games: the
// JSON key "tier_check" of results.json.
type TierCheck struct {
	// Bots is the report's tier, CheckBots the tier of the check.
	Bots      []string `json:"bots"`
	CheckBots []string `json:"check_bots"`
	// Games per lineup, played at both tiers on the same per-game seeds.
	Games      int     `json:"games"`
	Alpha      float64 `json:"alpha"`
	Correction string  `json:"correction"`
	// Factions: per faction, Base is the check tier's win share and Variant
	// the report tier's, and the paired test is of Delta = report − check
	// (Holm over the factions). Fair, the verdicts and SkillDependent are
	// set by the report against its tolerance band.
	Factions []TierFaction `json:"factions"`
	// Matchups: every 2-player lineup, its first faction's share at both
	// tiers within that lineup (Holm over the matchups), marked as the
	// factions are against 50%.
	Matchups []TierMatchup `json:"matchups"`
	// Seats: every seat of every table size, its share at both tiers (fair
	// share 1/players; Holm over the seats), marked the same way. In a
	// mirror whose games say who began (Spacetrace) the seats in turn
	// order from the starter, as sweep, diff and skill compare them:
	// SeatsCompared is then ComparedTurnOrder and Seat the place in turn
	// order (1: the starting seat).
	Seats         []TierSeat `json:"seats"`
	SeatsCompared string     `json:"seats_compared,omitempty"`
	// Cards are the card values measured at the check tier, compared with
	// the report's (empty when the report has no card values).
	Cards []TierCard `json:"cards,omitempty"`
	// CardDesign is the check tier's card-value experiment, as
	// card_value_design is the report tier's.
	CardDesign *CardValueDesign `json:"card_value_design,omitempty"`
	Timing     Timing           `json:"timing"`
}

// TierFaction is one faction's share at both tiers.
type TierFaction struct {
	FactionDelta
	// Fair is the faction's fair share (the mean of 1/players over its
	// lineups).
	Fair float64 `json:"fair"`
	// ReportVerdict and CheckVerdict are the faction's verdict against the
	// tolerance band at each tier: "above" or "below" (out of balance),
	// "possibly", "balanced".
	ReportVerdict string `json:"report_verdict"`
	CheckVerdict  string `json:"check_verdict"`
	// BeyondBandPAdj tests "the change lies within the band" (|Delta| ≤
	// the tolerance: the p-value of max(|Delta| − tolerance, 0) under the
	// normal approximation, se = sd/√games), Holm-corrected over the
	// factions; set with the verdicts.
	BeyondBandPAdj float64 `json:"beyond_band_p_adj"`
	// SkillDependent: the change lies beyond the band (its interval
	// outside ±tolerance and BeyondBandPAdj < alpha) and the two verdicts
	// differ (docs/metrics.md, "Skill-dependent verdicts").
	SkillDependent bool `json:"skill_dependent"`
}

// TierMatchup is a 2-player lineup: its first faction's share at both
// tiers within the lineup, as TierFaction (fair share 50%).
type TierMatchup struct {
	Lineup []string `json:"lineup"`
	TierFaction
}

// TierSeat is one seat at tables of Players players, as TierFaction
// (Faction empty, fair share 1/Players).
type TierSeat struct {
	Players int `json:"players"`
	Seat    int `json:"seat"` // 1-based
	// Name is the seat's name in turn order ("starting seat", "2nd in
	// turn"; TierCheck.SeatsCompared), "" for a seat of the table.
	Name string `json:"name,omitempty"`
	TierFaction
}

// TierCard is one card's value at the check tier and how it compares with
// the report tier's.
type TierCard struct {
	ID string `json:"id"`
	// Value is the card's value measured at the check tier (as the card's
	// value in cards); its flag is set against the report's card band.
	Value CardValue `json:"value"`
	// ReportFlag is the card's flag at the report tier against the same
	// band ("" none).
	ReportFlag string `json:"report_flag"`
	// P tests "pts is the same at both tiers" (report − check, two
	// independent experiments: z = Δ/√(se₁² + se₂²), each se from its 95%
	// interval); PAdj is Holm-corrected over the cards.
	P    float64 `json:"p"`
	PAdj float64 `json:"p_adj"`
	// SkillDependent: PAdj < alpha and the two flags differ (the card's
	// band — dead, strong text, weak text or none — changes with skill).
	SkillDependent bool `json:"skill_dependent"`
}

// CompareTiers pairs every side's outcomes at the report's tier (rep) and
// the check tier (chk) over the games both finished, Holm-corrected across
// the sides: g's sides in the lineups, in Sides() order, except a side that
// holds several seats of a lineup (Goofspiel's one side), whose share is
// fair by construction: there the seats, each with its bot, are what the
// check compares.
func CompareTiers(g game.Ruleset, lineups [][]string, games int, bots, checkBots []string, rep, chk *Outcomes, minSample int) *TierCheck {
	var sides []string
	for _, sd := range g.Sides() {
		in, twice := false, false
		for _, l := range lineups {
			c := 0
			for _, id := range l {
				if id == sd.ID {
					c++
				}
			}
			in, twice = in || c > 0, twice || c > 1
		}
		if in && !twice {
			sides = append(sides, sd.ID)
		}
	}
	turn := comparesSeats(g) && startsGames(g, lineups)
	return compareTiers(sides, lineups, games, bots, checkBots, rep, chk, minSample, turn)
}

func compareTiers(factions []string, lineups [][]string, games int, bots, checkBots []string, rep, chk *Outcomes, minSample int, turn bool) *TierCheck {
	pc := PairedConfig{Matchups: lineups, Games: games, MinSample: minSample}
	// comparison's Delta is b − a with a the first arm: Base is the check
	// tier and Delta = report − check.
	deltas := comparison(&pc, factions, &chk.a, &rep.a, CorrectionHolm)
	tc := &TierCheck{Bots: slices.Clone(bots), CheckBots: slices.Clone(checkBots), Games: games,
		Alpha: pc.alpha(), Correction: CorrectionHolm, Factions: []TierFaction{}}
	for _, d := range deltas {
		tc.Factions = append(tc.Factions, TierFaction{FactionDelta: d, Fair: round6(fairShare(lineups, d.Faction))})
	}
	tc.Matchups = []TierMatchup{}
	var tests []*PairedTest
	for li, l := range lineups {
		if len(l) != 2 || mirrored(l) {
			continue
		}
		p := pairAcc{unit: WinUnit}
		for j := range games {
			i := li*games + j
			if ua, ub := chk.a.outcome(i, 0), rep.a.outcome(i, 0); ua >= 0 && ub >= 0 {
				p.add(ua, ub)
			}
		}
		tc.Matchups = append(tc.Matchups, TierMatchup{Lineup: slices.Clone(l), TierFaction: TierFaction{FactionDelta: factionDelta(l[0], &p, pc.minSample()), Fair: 0.5}})
	}
	for i := range tc.Matchups {
		tests = append(tests, &tc.Matchups[i].PairedTest)
	}
	finishTests(tests, CorrectionHolm, pc.alpha())
	tc.Seats = tierSeats(lineups, games, rep, chk, pc.minSample(), turn)
	if turn {
		tc.SeatsCompared = ComparedTurnOrder
	}
	tests = tests[:0]
	for i := range tc.Seats {
		tests = append(tests, &tc.Seats[i].PairedTest)
	}
	finishTests(tests, CorrectionHolm, pc.alpha())
	return tc
}

// AttachTierCards adds the card values measured at the check tier (res,
// played as cfg says) to tc, each tested against the report tier's value
// on rep's cards (Holm over the cards both tiers valued).
func AttachTierCards(tc *TierCheck, rep *Report, res *CardValueResult, cfg CardValueConfig) {
	tc.CardDesign = res.Design(cfg)
	tc.Cards = []TierCard{}
	var ps []float64
	for _, k := range rep.Cards {
		v, ok := res.Values[k.ID]
		if !ok || k.Value == nil {
			continue
		}
		v.CardHash = cardHash(cfg.Game, k.ID)
		p := diffP(k.Value.Pts, k.Value.PtsCI95, v.Pts, v.PtsCI95)
		tc.Cards = append(tc.Cards, TierCard{ID: k.ID, Value: v, ReportFlag: k.Value.Flag, P: round6(p)})
		ps = append(ps, p)
	}
	for i, p := range Holm(ps) {
		tc.Cards[i].PAdj = round6(p)
	}
}

// mirrored reports whether a side holds several seats of lineup l.
func mirrored(l []string) bool {
	for i := range l {
		if slices.Contains(l[i+1:], l[i]) {
			return true
		}
	}
	return false
}

// diffP is the two-sided p-value of a − b for two independent estimates
// with 95% intervals ia and ib (normal approximation, se = half-width/1.96).
func diffP(a float64, ia [2]float64, b float64, ib [2]float64) float64 {
	sa, sb := (ia[1]-ia[0])/2/Z95, (ib[1]-ib[0])/2/Z95
	se := math.Sqrt(sa*sa + sb*sb)
	if !(se > 0) {
		return 1
	}
	return clamp01(math.Erfc(math.Abs(a-b) / se / math.Sqrt2))
}

// tierSeats pairs every seat's outcomes between the tiers over the lineups
// of its table size: game j of a lineup of n seats it rotated by j mod n,
// so seat q holds lineup position (q + j mod n) mod n (as Run seats it).
// With turn, "seat" q is the q-th in turn order from each game's starter
// (each tier's own, as pairTurn pairs them): in a mirror whose starter is
// drawn, seat 1 against seat 2 averages the starter's advantage away.
func tierSeats(lineups [][]string, games int, rep, chk *Outcomes, minN int, turn bool) []TierSeat {
	var sizes []int
	for _, l := range lineups {
		if !slices.Contains(sizes, len(l)) {
			sizes = append(sizes, len(l))
		}
	}
	slices.Sort(sizes)
	out := []TierSeat{}
	for _, n := range sizes {
		for q := range n {
			p := pairAcc{unit: WinUnit}
			for li, l := range lineups {
				if len(l) != n {
					continue
				}
				for j := range games {
					i, ka, kb := li*games+j, (q+j%n)%n, (q+j%n)%n
					if turn {
						ka, kb = (int(chk.a.starts[i])+q+j%n)%n, (int(rep.a.starts[i])+q+j%n)%n
					}
					if ua, ub := chk.a.outcome(i, ka), rep.a.outcome(i, kb); ua >= 0 && ub >= 0 {
						p.add(ua, ub)
					}
				}
			}
			ts := TierSeat{Players: n, Seat: q + 1, TierFaction: TierFaction{FactionDelta: factionDelta("", &p, minN), Fair: round6(1 / float64(n))}}
			if turn {
				ts.Name = TurnOrderName(q)
			}
			out = append(out, ts)
		}
	}
	return out
}
