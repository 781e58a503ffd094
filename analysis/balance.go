package analysis

// Balance: the fewest integer edits that bring every side within a band of
// its fair share (docs/metrics.md, "Balance"). The card-value experiment
// predicts every single edit's effect; the edits predicted to help most
// are raced against each other on paired games, stage by stage, until the
// games tell them apart; the winner joins the package, and the next round
// starts from the package as measured — a package is only ever judged on
// games it played, never on the sum of its edits' predictions. The package
// found is then re-played on fresh seeds, at the search's bots and at
// another tier's.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"testing/fstest"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// Defaults of a balance run.
const (
	DefaultBalanceTolerance = 0.02
	DefaultBalanceGames     = 500 // per lineup, each racing stage
	DefaultBalanceVerify    = 1000
	DefaultBalanceShortlist = 6
	DefaultBalanceMaxEdits  = 4
	DefaultBalanceMaxStep   = 2
	// The second search tier (BalanceConfig.Tier2): the finalists of
	// each round, the games each plays there per lineup, and the
	// card-value experiment's games per lineup at that tier.
	DefaultBalanceFinalists  = 3
	DefaultBalanceTier2Games = 400
	DefaultBalanceTier2Value = 500
	balanceStages            = 3 // racing stages per round
	balanceSalt              = 0xba1a4ce
	balanceVerifySalt        = 0xf2e54
	balanceTier2Salt         = 0x7135
)

// BalanceConfig describes a balance search.
type BalanceConfig struct {
	Game     game.Ruleset
	Matchups [][]string
	// Bots play the search; VerifyBots the second tier of the
	// verification (nil: the search's only).
	Bots, VerifyBots []string
	// Tier2, when set, is a second search tier (the verification's
	// strong bot, typically): the objective is the worse of the two
	// tiers', the race at Bots shortlists, and Finalists edits a round
	// play Tier2Games games per lineup at Tier2 beside the package as it
	// is; Tier2's card-value experiment (Tier2ValueGames per lineup)
	// predicts each edit there (docs/metrics.md, "Balance", "Two tiers").
	Tier2                                  []string
	Finalists, Tier2Games, Tier2ValueGames int
	Seed                                   uint64
	Workers                                int
	// Knobs are the card knobs edits may change (nil: "power").
	Knobs []string
	// Lock lists cards ("ID") or card knobs ("ID:KNOB") never edited.
	Lock []string
	// MaxStep bounds each edit's change of a value; MaxEdits the package.
	MaxStep, MaxEdits int
	// Tolerance is the band around each side's fair share (a share).
	Tolerance float64
	// SeatTolerance, when above 0, also brings the starting seat (the
	// seat that began the game, game.Starter) within this band of its
	// fair share: the starter's advantage. A mirror (every seat plays one
	// side) is balanced between seats only, with SeatTolerance, or
	// Tolerance when it is 0.
	SeatTolerance float64
	// Games per lineup of each racing stage; VerifyGames of each tier's
	// verification; ValueGames of the card-value experiment (0: defaults).
	Games, VerifyGames, ValueGames int
	// Shortlist is how many predicted edits race in a round.
	Shortlist int
	// BudgetGames and Deadline stop the search (0 / zero: none); the
	// verification is played whatever is left.
	BudgetGames int64
	Deadline    time.Time
	// Pool plays every round's racing stages on the same deals and
	// brings the package as it is's games from the round before instead
	// of playing them again; Pool2 does so for the second tier's finals
	// (docs/metrics.md, "Balance", "Pooling the package's games": worth
	// it at a costly tier, where an arm is minutes of CPU; at greedy,
	// fresh deals every round keep the rounds' luck apart).
	Pool, Pool2 bool
	// Log receives one line per step (stderr).
	Log io.Writer
}

// BalanceEdit is one integer edit of a package.
type BalanceEdit struct {
	Card string `json:"card"`
	Name string `json:"name"`
	Side string `json:"side"`
	Knob string `json:"knob"`
	From int    `json:"from"`
	To   int    `json:"to"`
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
	// Rules: a rule parameter's edit (Card, Name and Side empty).
	Rules    bool `json:"rules,omitempty"`
	entity   int
	knobSpec *game.Knob
}

// SideShare is a side's win share against its fair share.
type SideShare struct {
	Side  string     `json:"side"`
	Share float64    `json:"share"`
	CI95  [2]float64 `json:"ci95"`
	Fair  float64    `json:"fair"`
	Games int64      `json:"games"`
	// Tolerance is the side's band (the starting seat's may differ).
	Tolerance float64 `json:"tolerance"`
	// scale turns the side's deviation into one against the sides' band
	// (Tolerance of the config over this one's), so that the search
	// weighs a starting seat 3 points off a 3-point band as a side 2
	// points off a 2-point one. 0 counts as 1.
	scale float64
}

// StarterSide is the name of the starting seat among balance's sides.
const StarterSide = "starting seat"

func (x *SideShare) weight() float64 {
	if x.scale == 0 {
		return 1
	}
	return x.scale
}

// BalanceCandidate is an edit predicted and, if raced, measured.
type BalanceCandidate struct {
	Edit BalanceEdit `json:"edit"`
	// Predicted is each side's predicted share after the edit, and
	// PredictedDev the largest predicted deviation (with its 95% interval
	// from the value model's).
	Predicted        []float64  `json:"predicted"`
	PredictedDev     float64    `json:"predicted_dev"`
	PredictedDevCI95 [2]float64 `json:"predicted_dev_ci95"`
	// Unpredicted: the value model says nothing about this edit (a rule
	// parameter, an edit of a mirror's cards, the starting seat's share):
	// it races on its games alone.
	Unpredicted bool `json:"unpredicted,omitempty"`
	predictedIn bool
	// Measured is the package with this edit, played (nil: not raced
	// that far); MeasuredDev its largest deviation.
	Measured    []SideShare `json:"measured,omitempty"`
	MeasuredDev float64     `json:"measured_dev"`
	Games       int64       `json:"games"`
	Dropped     string      `json:"dropped,omitempty"`
	// Predicted2 is each side's predicted share at the second search
	// tier (BalanceConfig.Tier2); Measured2 the finalist's shares played
	// there (nil: not a finalist) with its largest deviation.
	Predicted2   []float64   `json:"predicted_tier2,omitempty"`
	Measured2    []SideShare `json:"measured_tier2,omitempty"`
	MeasuredDev2 float64     `json:"measured_dev_tier2,omitempty"`
	// predictedObj and measuredObj are the search's objective (with two
	// tiers, the worse tier's); outlier how far the edit moves the card
	// towards its side's median value (its VsFactionPts against the
	// edit's direction, the larger of the tiers'); obj1 the first tier's
	// measured objective.
	predictedObj, measuredObj, outlier, obj1 float64
}

// BalanceStep is the package after one round: its edits and its shares as
// played in the round's race.
type BalanceStep struct {
	Edits  []BalanceEdit      `json:"edits"`
	Shares []SideShare        `json:"shares"`
	MaxDev float64            `json:"max_dev"`
	Tried  []BalanceCandidate `json:"tried"`
	// Baseline is the package before the round's edit, played on the
	// race's games beside the edits: what each edit is judged against.
	Baseline []SideShare `json:"baseline"`
	// Shares2, MaxDev2 and Baseline2 are the same at the second search
	// tier (nil without one): the finalists' games there.
	Shares2   []SideShare `json:"shares_tier2,omitempty"`
	MaxDev2   float64     `json:"max_dev_tier2,omitempty"`
	Baseline2 []SideShare `json:"baseline_tier2,omitempty"`
}

// BalanceVerify is one tier's verification: the ruleset and the package on
// the same fresh games.
type BalanceVerify struct {
	Bots   []string       `json:"bots"`
	Games  int            `json:"games_per_lineup"`
	Seed   uint64         `json:"seed"`
	Sides  []FactionDelta `json:"sides"`
	InBand bool           `json:"in_band"`
	MaxDev float64        `json:"max_dev"`
}

// BalanceResult is a balance run's outcome.
type BalanceResult struct {
	Ruleset   RulesetInfo `json:"ruleset"`
	Sides     []string    `json:"sides"`
	Fair      []float64   `json:"fair"`
	Tolerance float64     `json:"tolerance"`
	// SeatTolerance is the starting seat's band when it is among Sides
	// (0: it is not).
	SeatTolerance float64  `json:"seat_tolerance,omitempty"`
	Bots          []string `json:"bots"`
	// Tier2 is the second search tier's bots (nil: the search played
	// Bots only), Before2 the ruleset's shares there, Price2 and
	// ValueGames2 its card-value experiment's, Tier2Games the games per
	// lineup each finalist played there a round.
	Tier2       []string              `json:"tier2,omitempty"`
	Before2     []SideShare           `json:"before_tier2,omitempty"`
	Price2      map[string]PowerPrice `json:"price_per_unit_tier2,omitempty"`
	ValueGames2 int                   `json:"value_games_per_lineup_tier2,omitempty"`
	Tier2Games  int                   `json:"tier2_games_per_lineup,omitempty"`
	Finalists   int                   `json:"finalists,omitempty"`
	Matchups    [][]string            `json:"matchups"`
	Seed        uint64                `json:"seed"`
	// Price of one unit of value per side (points per unit on one copy),
	// with its interval, from ValueGames games per lineup.
	Price      map[string]PowerPrice `json:"price_per_unit"`
	ValueUnit  string                `json:"value_unit"`
	ValueGames int                   `json:"value_games_per_lineup"`
	Before     []SideShare           `json:"before"`
	Steps      []BalanceStep         `json:"steps"`
	// Menu is the best package of each size, 0 edits first, on search
	// games (docs/metrics.md, "Balance": not the evidence).
	Menu    []BalanceMenuRow `json:"menu"`
	Package []BalanceEdit    `json:"package"`
	// Diff is the package as a unified diff of the ruleset's files, set
	// by EditedFiles: what a designer pastes (patch -p1 in DIR).
	Diff   string          `json:"diff"`
	Verify []BalanceVerify `json:"verify"`
	// Balanced: every side within the band at every tier verified.
	Balanced        bool   `json:"balanced"`
	AlreadyBalanced bool   `json:"already_balanced"`
	SkillDependent  bool   `json:"skill_dependent"`
	Stop            string `json:"stop"`
	Games           int64  `json:"games"`
	// GamesByBots splits Games by the bots that played them (a strong
	// game costs about a hundred greedy ones); ReusedGames counts the
	// package's games brought from one round to the next on the same
	// deals instead of played again (not in Games).
	GamesByBots map[string]int64 `json:"games_by_bots"`
	ReusedGames int64            `json:"reused_games"`
	Partial     bool             `json:"partial"`
	Elapsed     time.Duration
	final       game.Ruleset
}

// Final is the ruleset with the package applied.
func (r *BalanceResult) Final() game.Ruleset { return r.final }

func (c *BalanceConfig) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, "balance: "+format+"\n", args...)
	}
}

// Balance searches for the package and verifies it.
func Balance(ctx context.Context, cfg BalanceConfig) (*BalanceResult, error) {
	g := cfg.Game
	if g == nil {
		return nil, fmt.Errorf("%w: no ruleset", ErrConfig)
	}
	if len(cfg.Matchups) == 0 {
		return nil, fmt.Errorf("%w: no matchups", ErrConfig)
	}
	if err := BalanceRefusal(g); err != nil {
		return nil, err
	}
	if !(cfg.Tolerance > 0 && cfg.Tolerance < 0.5) {
		return nil, fmt.Errorf("%w: the tolerance must lie in (0, 0.5), got %g", ErrConfig, cfg.Tolerance)
	}
	if !(cfg.SeatTolerance >= 0 && cfg.SeatTolerance < 0.5) {
		return nil, fmt.Errorf("%w: the seat tolerance must lie in [0, 0.5), got %g", ErrConfig, cfg.SeatTolerance)
	}
	def := func(p *int, v int) {
		if *p <= 0 {
			*p = v
		}
	}
	def(&cfg.Games, DefaultBalanceGames)
	def(&cfg.VerifyGames, DefaultBalanceVerify)
	def(&cfg.ValueGames, DefaultValueGames)
	def(&cfg.Shortlist, DefaultBalanceShortlist)
	def(&cfg.MaxEdits, DefaultBalanceMaxEdits)
	def(&cfg.MaxStep, DefaultBalanceMaxStep)
	if slices.Equal(cfg.Tier2, cfg.Bots) {
		cfg.Tier2 = nil // one tier: nothing to add
	}
	if cfg.Tier2 != nil {
		def(&cfg.Finalists, DefaultBalanceFinalists)
		def(&cfg.Tier2Games, DefaultBalanceTier2Games)
		def(&cfg.Tier2ValueGames, DefaultBalanceTier2Value)
	}
	if len(cfg.Knobs) == 0 {
		cfg.Knobs = []string{"power"}
	}
	began := time.Now()
	// The sides: the factions in the lineups (none in a mirror, where
	// they are fair by construction), then the starting seat when seats
	// are balanced.
	var names []string
	if !comparesSeats(g) {
		names = factionsOf(g, cfg.Matchups)
	}
	nSides := len(names)
	seatTol := cfg.SeatTolerance
	if comparesSeats(g) && seatTol == 0 {
		seatTol = cfg.Tolerance
	}
	res := &BalanceResult{Ruleset: RulesetInfoOf(g), Tolerance: cfg.Tolerance, SeatTolerance: seatTol, Bots: slices.Clone(cfg.Bots),
		Matchups: cfg.Matchups, Seed: cfg.Seed, Steps: []BalanceStep{}, Package: []BalanceEdit{}, final: g,
		Tier2: slices.Clone(cfg.Tier2)}
	if cfg.Tier2 != nil {
		res.Tier2Games, res.Finalists = cfg.Tier2Games, cfg.Finalists
	}
	var tols []float64
	for _, f := range names {
		res.Fair = append(res.Fair, round6(fairShare(cfg.Matchups, f)))
		tols = append(tols, cfg.Tolerance)
	}
	if seatTol > 0 {
		names = append(names, StarterSide)
		fair := 0.0
		for _, l := range cfg.Matchups {
			fair += 1 / float64(len(l))
		}
		res.Fair = append(res.Fair, round6(fair/float64(len(cfg.Matchups))))
		tols = append(tols, seatTol)
	}
	res.Sides = names
	b := &balancer{cfg: &cfg, res: res, names: names, nSides: nSides, tols: tols}
	edits, err := balanceEdits(g, &cfg, b.predicts())
	if err != nil {
		return nil, err
	}
	// The ruleset as it is, on the first stage's games.
	cfg.logf("measuring the ruleset: %d games per lineup, bots %s", cfg.Games, strings.Join(cfg.Bots, ","))
	seed0 := game.SeedFor(cfg.Seed^balanceSalt, 0)
	if cfg.Pool {
		seed0 = b.raceSeed(0)
	}
	cur, err := b.measure(ctx, []game.Ruleset{g}, seed0)
	if err != nil {
		return nil, err
	}
	res.Before = cur[0].shares
	if cfg.Pool {
		b.carry = [][]pairAcc{cur[0].sums} // the first race's first stage: its baseline
	}
	curDev := maxDev(res.Before)
	cfg.logf("before: %s (largest deviation %.1f points)", shareLine(res.Before), 100*curDev)
	if cfg.Tier2 != nil {
		cfg.logf("measuring the ruleset at the second tier: %d games per lineup, bots %s", cfg.Tier2Games, strings.Join(cfg.Tier2, ","))
		m2, err := b.measureAt(ctx, []game.Ruleset{g}, game.SeedFor(cfg.Seed^balanceTier2Salt, 0), cfg.Tier2, cfg.Tier2Games)
		if err != nil {
			if ctx.Err() != nil {
				res.Partial, res.Stop = true, "interrupted"
				res.Games, res.Elapsed, res.ReusedGames = b.games, time.Since(began), b.reused
				return res, nil
			}
			return nil, err
		}
		res.Before2 = m2[0].shares
		if cfg.Pool2 {
			b.carry2 = m2[0].sums
		}
		cfg.logf("before at %s: %s (largest deviation %.1f points)", strings.Join(cfg.Tier2, ","), shareLine(res.Before2), 100*maxDev(res.Before2))
	}
	var pkg []BalanceEdit
	curRS := g
	switch {
	case reachesBand(res.Before) && (res.Before2 == nil || reachesBand(res.Before2)):
		// No edit on noise: a ruleset is only edited when its games show
		// a side outside the band with 95% confidence (at either search
		// tier); the verification then decides on fresh games.
		res.Stop = "every side's 95% interval reaches into the band: nothing to edit"
	case !slices.ContainsFunc(edits, func(e BalanceEdit) bool { return b.predictable(&e) }):
		// Nothing the card-value model predicts (rule parameters, a
		// mirror's cards): every edit races on its games alone.
		pkg, curRS, res.Stop, err = b.search(ctx, edits, nil, nil, cur[0].shares, res.Before2)
		if err != nil {
			return nil, err
		}
	default:
		vu := g.(game.Valuer).ValueUnit()
		res.ValueUnit = vu.Name
		cfg.logf("card values: %d games per lineup (the price of one %s and each card's value)", cfg.ValueGames, vu.Name)
		vres, err := CardValues(ctx, CardValueConfig{Game: g, Matchups: cfg.Matchups, Bots: cfg.Bots, Seed: cfg.Seed ^ balanceSalt,
			Workers: cfg.Workers, Games: cfg.ValueGames, Precision: -1})
		if err != nil {
			return nil, err
		}
		b.add(cfg.Bots, vres.Games)
		if vres.Partial {
			res.Partial = true
			res.Stop = "interrupted"
			break
		}
		res.Price, res.ValueGames = vres.Price, vres.GamesPerLineup
		for _, f := range names {
			p := vres.Price[f]
			cfg.logf("price of one %s to %s: %.2f points [%.2f, %.2f] a copy", vu.Name, f, p.Pts, p.CI95[0], p.CI95[1])
		}
		var v2 *CardValueResult
		if cfg.Tier2 != nil {
			cfg.logf("card values at the second tier: %d games per lineup, bots %s", cfg.Tier2ValueGames, strings.Join(cfg.Tier2, ","))
			v2, err = CardValues(ctx, CardValueConfig{Game: g, Matchups: cfg.Matchups, Bots: cfg.Tier2, Seed: cfg.Seed ^ balanceTier2Salt,
				Workers: cfg.Workers, Games: cfg.Tier2ValueGames, Precision: -1})
			if err != nil {
				return nil, err
			}
			b.add(cfg.Tier2, v2.Games)
			if v2.Partial {
				res.Partial = true
				res.Stop = "interrupted"
				break
			}
			res.Price2, res.ValueGames2 = v2.Price, v2.GamesPerLineup
			for _, f := range names {
				p := v2.Price[f]
				cfg.logf("price of one %s to %s at %s: %.2f points [%.2f, %.2f] a copy", vu.Name, f, strings.Join(cfg.Tier2, ","), p.Pts, p.CI95[0], p.CI95[1])
			}
		}
		pkg, curRS, res.Stop, err = b.search(ctx, edits, vres, v2, cur[0].shares, res.Before2)
		if err != nil {
			return nil, err
		}
	}
	res.Package = pkg
	res.final = curRS
	if res.Package == nil {
		res.Package = []BalanceEdit{}
	}
	res.Menu = res.menu()
	if ctx.Err() != nil {
		res.Partial = true
		res.Stop = "interrupted"
		res.Games, res.Elapsed, res.ReusedGames = b.games, time.Since(began), b.reused
		return res, nil
	}
	// Verification on seeds the search never used, at each tier.
	tiers := [][]string{cfg.Bots}
	if cfg.VerifyBots != nil && !slices.Equal(cfg.VerifyBots, cfg.Bots) {
		tiers = append(tiers, cfg.VerifyBots)
	}
	res.Balanced = true
	inBand := []bool{}
	for t, bots := range tiers {
		seed := game.SeedFor(cfg.Seed^balanceVerifySalt, uint64(t))
		cfg.logf("verifying on fresh seeds: %d games per lineup, bots %s", cfg.VerifyGames, strings.Join(bots, ","))
		pc := PairedConfig{Matchups: cfg.Matchups, Bots: bots, Games: cfg.VerifyGames, Seed: seed, Workers: cfg.Workers}
		base := &arm{g: g}
		arms := []*arm{base}
		after := base
		if len(pkg) > 0 {
			after = &arm{g: curRS}
			arms = append(arms, after)
		}
		partial, _, err := runArms(ctx, &pc, arms)
		if err != nil {
			return nil, err
		}
		for _, a := range arms {
			b.add(bots, a.played)
		}
		if partial {
			res.Partial, res.Balanced = true, false
			res.Stop = "interrupted"
			break
		}
		v := BalanceVerify{Bots: bots, Games: cfg.VerifyGames, Seed: seed, Sides: b.comparison(&pc, base, after), InBand: true}
		for k, fd := range v.Sides {
			d := math.Abs(fd.Variant - res.Fair[k])
			v.MaxDev = round6(max(v.MaxDev, d))
			if d > tols[k] {
				v.InBand = false
			}
		}
		res.Verify = append(res.Verify, v)
		inBand = append(inBand, v.InBand)
		res.Balanced = res.Balanced && v.InBand
		cfg.logf("verified at %s: largest deviation %.1f points (%s)", strings.Join(bots, ","), 100*v.MaxDev, map[bool]string{true: "within the band", false: "outside the band"}[v.InBand])
	}
	res.SkillDependent = slices.Contains(inBand, true) && slices.Contains(inBand, false)
	res.AlreadyBalanced = res.Balanced && len(pkg) == 0
	res.Games, res.Elapsed, res.ReusedGames = b.games, time.Since(began), b.reused
	return res, nil
}

// BalanceRefusal says why g cannot be balanced, or nil: a game with
// sides needs the card-value experiment to predict edits; a mirror's
// seats are balanced by edits raced on their games alone.
func BalanceRefusal(g game.Ruleset) error {
	if comparesSeats(g) {
		return nil
	}
	if _, ok := g.(game.Valuer); !ok {
		return fmt.Errorf("%w: balance predicts edits from the card-value experiment, which %s's game does not run", ErrConfig, g.Info().Name)
	}
	return nil
}

// maxUnpredicted bounds the edits a round races without a prediction
// (rule parameters, a mirror's cards): each costs a racing stage's games.
const maxUnpredicted = 16

// balancer holds a search's state.
type balancer struct {
	cfg *BalanceConfig
	res *BalanceResult
	// names are the sides: the first nSides factions, then the starting
	// seat if seats are balanced; tols their bands.
	names  []string
	nSides int
	tols   []float64
	games  int64
	round  int
	// floor, above 0, is what a race's dropping compares with at least
	// (the package's largest possible deviation at the second tier);
	// alive the edits the last race left.
	floor float64
	alive []int
	// carry holds the package as it is's games for each racing stage
	// already played (the round's winner's, or the ruleset's), carry2 its
	// games at the second tier's finals: every round plays the same
	// deals, so the package's arm is not played again (docs/metrics.md,
	// "Balance", "Pooling the package's games").
	carry  [][]pairAcc
	carry2 []pairAcc
	// stages are the last race's games of each candidate, stage by stage
	// (the winner's become carry); reused counts the games brought.
	stages [][][]pairAcc
	reused int64
	// fin are the last finals' games of each finalist at the second tier
	// (the winner's become carry2).
	fin map[int][]pairAcc
}

// add counts n games played by bots.
func (b *balancer) add(bots []string, n int64) {
	b.games += n
	if b.res.GamesByBots == nil {
		b.res.GamesByBots = map[string]int64{}
	}
	b.res.GamesByBots[strings.Join(bots, ",")] += n
}

func clonePairs(p []pairAcc) []pairAcc { return slices.Clone(p) } // pairAcc holds no reference

// raceSeed is the seed of a race's stage: pooled (BalanceConfig.Pool),
// the same in every round, so that the package as it is brings its games
// from the round before; else fresh each round.
func (b *balancer) raceSeed(stage int) uint64 {
	if b.cfg.Pool {
		return game.SeedFor(b.cfg.Seed^balanceSalt, uint64(stage+1))
	}
	return game.SeedFor(b.cfg.Seed^balanceSalt, uint64(b.round*16+stage+1))
}

// finalsSeed is the seed of the second tier's finals: pooled (Pool2) the
// ruleset's own there, in every round; else fresh each round.
func (b *balancer) finalsSeed() uint64 {
	if b.cfg.Pool2 {
		return game.SeedFor(b.cfg.Seed^balanceTier2Salt, 0)
	}
	return game.SeedFor(b.cfg.Seed^balanceTier2Salt, uint64(b.round))
}

// predicts reports whether the card-value model predicts this run's
// edits of card knobs: only between factions.
func (b *balancer) predicts() bool { return b.nSides > 0 }

// predictable reports whether the value model predicts edit e.
func (b *balancer) predictable(e *BalanceEdit) bool {
	return b.predicts() && !e.Rules && predictable(b.cfg.Game, e.Knob)
}

// pair pairs side k's outcomes between arms a and c.
func (b *balancer) pair(pc *PairedConfig, a, c *arm, k int) pairAcc {
	if k >= b.nSides {
		return pairStarter(pc, a, c)
	}
	return pairFaction(pc, a, c, b.names[k])
}

// comparison is each side's paired change from a to c, Holm-corrected.
func (b *balancer) comparison(pc *PairedConfig, a, c *arm) []FactionDelta {
	out := make([]FactionDelta, len(b.names))
	tests := make([]*PairedTest, len(b.names))
	for k, f := range b.names {
		p := b.pair(pc, a, c, k)
		out[k] = factionDelta(f, &p, pc.minSample())
		tests[k] = &out[k].PairedTest
	}
	finishTests(tests, CorrectionHolm, pc.alpha())
	return out
}

// measured is one ruleset's shares on a stage's games.
type measured struct {
	shares []SideShare
	sums   []pairAcc
}

// measure plays rulesets on the games of seed (cfg.Games per lineup) and
// returns each side's share.
func (b *balancer) measure(ctx context.Context, rss []game.Ruleset, seed uint64) ([]measured, error) {
	return b.measureAt(ctx, rss, seed, b.cfg.Bots, b.cfg.Games)
}

// measureAt is measure with other bots and games per lineup.
func (b *balancer) measureAt(ctx context.Context, rss []game.Ruleset, seed uint64, bots []string, games int) ([]measured, error) {
	pc := PairedConfig{Matchups: b.cfg.Matchups, Bots: bots, Games: games, Seed: seed, Workers: b.cfg.Workers}
	arms := make([]*arm, len(rss))
	for i, rs := range rss {
		arms[i] = &arm{g: rs}
	}
	partial, _, err := runArms(ctx, &pc, arms)
	if err != nil {
		return nil, err
	}
	if partial {
		return nil, ctx.Err()
	}
	out := make([]measured, len(rss))
	for i, a := range arms {
		b.add(bots, a.played)
		for k := range b.names {
			out[i].sums = append(out[i].sums, b.pair(&pc, a, a, k))
		}
		out[i].shares = b.shares(out[i].sums)
	}
	return out, nil
}

// shares turns each side's accumulated outcomes into its share with its
// Wilson interval.
func (b *balancer) shares(sums []pairAcc) []SideShare {
	return b.sharesAt(sums, Z95)
}

// sharesAt is shares with Wilson intervals at normal quantile z.
func (b *balancer) sharesAt(sums []pairAcc, z float64) []SideShare {
	out := make([]SideShare, len(sums))
	for k := range sums {
		s, _ := sums[k].shares()
		lo, hi := Wilson(s*float64(sums[k].n), float64(sums[k].n), z)
		out[k] = SideShare{Side: b.names[k], Share: round6(s), CI95: interval(lo, hi), Fair: b.res.Fair[k], Games: sums[k].n,
			Tolerance: b.tols[k], scale: b.cfg.Tolerance / b.tols[k]}
	}
	return out
}

// reachesBand reports whether every side's 95% interval reaches into the
// band around its fair share.
func reachesBand(s []SideShare) bool {
	for _, x := range s {
		if x.CI95[1] < x.Fair-x.Tolerance || x.CI95[0] > x.Fair+x.Tolerance {
			return false
		}
	}
	return true
}

// inBand reports whether every side's share lies within its band.
func inBand(s []SideShare) bool {
	for _, x := range s {
		if math.Abs(x.Share-x.Fair) > x.Tolerance {
			return false
		}
	}
	return true
}

// objective is what the search lowers: the largest deviation from fair
// share plus the root mean square one, so that an edit that moves the
// worst side and pushes another up as far still counts as progress; the
// starting seat's deviation is weighed against its own band.
func objective(s []SideShare) float64 {
	ss, worst := 0.0, 0.0
	for _, x := range s {
		d := (x.Share - x.Fair) * x.weight()
		ss += d * d
		worst = max(worst, math.Abs(d))
	}
	return worst + math.Sqrt(ss/float64(max(1, len(s))))
}

// maxDev is the largest deviation from fair share, in points of share
// (what the tables show; the search weighs by bands, objective).
func maxDev(s []SideShare) float64 {
	d := 0.0
	for _, x := range s {
		d = max(d, math.Abs(x.Share-x.Fair))
	}
	return d
}

// devBounds is the largest deviation from fair share that the sides' 95%
// intervals allow at least (lo) and at most (hi), each side's weighed
// against the sides' band.
func devBounds(s []SideShare) (lo, hi float64) {
	for _, x := range s {
		w := x.weight()
		a, c := (x.CI95[0]-x.Fair)*w, (x.CI95[1]-x.Fair)*w
		if a > 0 {
			lo = max(lo, a)
		} else if c < 0 {
			lo = max(lo, -c)
		}
		hi = max(hi, math.Max(math.Abs(a), math.Abs(c)))
	}
	return lo, hi
}

func shareLine(s []SideShare) string {
	var parts []string
	for _, x := range s {
		parts = append(parts, fmt.Sprintf("%s %.1f%% [%.1f, %.1f]", x.Side, 100*x.Share, 100*x.CI95[0], 100*x.CI95[1]))
	}
	return strings.Join(parts, ", ")
}

// balanceEdits lists every single edit the configuration allows on g:
// each allowed card knob of each card of a side in the lineups (any card
// in a mirror), and each rule parameter named among the knobs, every step
// up to MaxStep either way that the knob's With accepts. predicts says
// whether card knobs must be ones the value model predicts.
func balanceEdits(g game.Ruleset, cfg *BalanceConfig, predicts bool) ([]BalanceEdit, error) {
	knobs := game.KnobsOf(g)
	byName := map[string]*game.Knob{}
	var have []string
	for i := range knobs {
		if knobs[i].Scope == game.OnCard {
			byName[knobs[i].Name] = &knobs[i]
			have = append(have, knobs[i].Name)
		}
	}
	var cardKnobs []string
	var ruleKnobs []*game.Knob
	for _, k := range cfg.Knobs {
		if byName[k] == nil {
			rk, err := findKnob(g, game.OnRules, 0, k, nil)
			if err != nil {
				why := strings.TrimPrefix(err.Error(), ErrConfig.Error()+": ")
				return nil, fmt.Errorf("%w: no card knob %q%s (card knobs: %s), nor a rule parameter: %s", ErrConfig, k, didYouMean(k, have), strings.Join(have, ", "), why)
			}
			ruleKnobs = append(ruleKnobs, rk)
			continue
		}
		if predicts && !predictable(g, k) {
			return nil, fmt.Errorf("%w: balance predicts edits of the unit of value (%s) and copies only, not %q", ErrConfig, g.(game.Valuer).ValueUnit().Short, k)
		}
		cardKnobs = append(cardKnobs, k)
	}
	sides := g.Sides()
	ids := []string{}
	for _, c := range g.Cards() {
		ids = append(ids, c.ID)
	}
	for _, l := range cfg.Lock {
		id, knob, _ := strings.Cut(l, ":")
		if !slices.Contains(ids, id) {
			return nil, fmt.Errorf("%w: --lock: unknown card %q%s", ErrConfig, id, didYouMean(id, ids))
		}
		if knob != "" && byName[knob] == nil {
			return nil, fmt.Errorf("%w: --lock %s: no card knob %q (have %s)", ErrConfig, l, knob, strings.Join(have, ", "))
		}
	}
	in := factionsOf(g, cfg.Matchups)
	var out []BalanceEdit
	unpredicted, illegal := 0, 0
	for _, c := range g.Cards() {
		// A mirror's cards are every seat's (Goofspiel's prizes belong
		// to no side); elsewhere a card of a side in the lineups.
		mine := comparesSeats(g) || c.Side >= 0 && c.Side < len(sides) && slices.Contains(in, sides[c.Side].ID)
		if !mine || slices.Contains(cfg.Lock, c.ID) {
			continue
		}
		side := ""
		if c.Side >= 0 && c.Side < len(sides) {
			side = sides[c.Side].ID
		}
		for _, kn := range cardKnobs {
			k := byName[kn]
			if !game.KnobApplies(k, g, c.Index) || slices.Contains(cfg.Lock, c.ID+":"+kn) {
				continue
			}
			from := k.Get(g, c.Index)
			for s := -cfg.MaxStep; s <= cfg.MaxStep; s++ {
				to := from + s
				if s == 0 || to < k.Min || to > k.Max {
					continue
				}
				if _, err := k.With(g, c.Index, to); err != nil {
					continue
				}
				sug := suggestEdit(g, k, &c, c.Index, from, to)
				e := BalanceEdit{Card: c.ID, Name: c.Name, Side: side, Knob: k.Name, From: from, To: to,
					File: sug.File, Line: sug.Line, Text: sug.Text, entity: c.Index, knobSpec: k}
				if !legal(g, &e) {
					illegal++
					continue
				}
				out = append(out, e)
				if !predicts {
					unpredicted++
				}
			}
		}
	}
	for _, k := range ruleKnobs {
		from := k.Get(g, 0)
		n := 0
		for s := -cfg.MaxStep; s <= cfg.MaxStep; s++ {
			to := from + s
			if s == 0 || to < k.Min || to > k.Max {
				continue
			}
			if _, err := k.With(g, 0, to); err != nil {
				continue
			}
			sug := suggestEdit(g, k, nil, 0, from, to)
			if sug.Line <= 0 {
				return nil, fmt.Errorf("%w: rule parameter %s is not written in %s (its default applies): write %s: %d there for balance to edit it", ErrConfig, k.Name, sug.File, k.Name, from)
			}
			out = append(out, BalanceEdit{Knob: k.Name, From: from, To: to, File: sug.File, Line: sug.Line, Text: sug.Text, Rules: true, knobSpec: k})
			unpredicted++
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("%w: rule parameter %s (%d) allows no other value within --max-step %d", ErrConfig, k.Name, from, cfg.MaxStep)
		}
	}
	if len(out) == 0 && illegal > 0 {
		return nil, fmt.Errorf("%w: none of the %d edits the knobs allow leaves a valid ruleset (a copies change alone breaks a fixed deck size; balance does not search pairs of edits): allow another knob, such as power", ErrConfig, illegal)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no card may be edited (every card locked, or no knob applies)", ErrConfig)
	}
	if unpredicted > maxUnpredicted {
		why := "rule parameters"
		if !predicts {
			why = "edits of a mirror's cards and rule parameters (the card-value model compares sides, and a mirror has one)"
		}
		return nil, fmt.Errorf("%w: %d edits have no prediction to shortlist them (%s), and each would race on its own games: at most %d may; name fewer knobs, --lock cards, or lower --max-step", ErrConfig, unpredicted, why, maxUnpredicted)
	}
	return out, nil
}

// legal reports whether edit e, written into the ruleset's files, loads:
// a knob's With checks the value, not the rules between cards (Alpha
// Tactics' deck_size: a copies edit alone changes the deck's size, and
// the written ruleset did not load). A ruleset without files, a game not
// registered, or a value SetInt cannot write is left to With.
func legal(g game.Ruleset, e *BalanceEdit) bool {
	files := g.Info().Files
	gm, ok := game.Lookup(g.Game())
	if files == nil || !ok || files[e.File] == nil {
		return true
	}
	d, err := cards.SetInt(files[e.File], e.File, e.Line, e.Knob, e.From, e.To)
	if err != nil {
		return true // not a value written where SetInt edits: With's check alone, as before
	}
	m := fstest.MapFS{}
	for n, data := range files {
		m[n] = &fstest.MapFile{Data: data}
	}
	m[e.File] = &fstest.MapFile{Data: d}
	_, err = gm.Load(m, ".")
	return err == nil
}

// predictable reports whether the value model predicts knob k: the game's
// unit of value (the knob its Short names: "power") or copies.
func predictable(g game.Ruleset, k string) bool {
	return k == "copies" || k == g.(game.Valuer).ValueUnit().Short
}

// predict is the change of every side's share the value model predicts
// for edit e (one copy's value per copy for copies, the price of a unit
// times the copies for the unit), with the half-width of its interval.
func (b *balancer) predict(g game.Ruleset, e *BalanceEdit, v *CardValueResult) (delta []float64, half float64, ok bool) {
	if v == nil || !b.predictable(e) {
		return nil, 0, false
	}
	step := float64(e.To - e.From)
	var d, h float64
	if e.Knob == "copies" {
		cv, has := v.Values[e.Card]
		if !has {
			return nil, 0, false
		}
		d, h = step*cv.Pts/100, math.Abs(step)*(cv.PtsCI95[1]-cv.PtsCI95[0])/200
	} else {
		p, has := v.Price[e.Side]
		if !has {
			return nil, 0, false
		}
		n := float64(g.Cards()[e.entity].Copies)
		d, h = step*n*p.Pts/100, math.Abs(step)*n*(p.CI95[1]-p.CI95[0])/200
	}
	// The side gains d in each of its lineups; its opponents there share
	// the loss equally.
	delta = make([]float64, len(b.names))
	for k, f := range b.names[:b.nSides] { // the starting seat: not predicted (0)
		if f == e.Side {
			delta[k] = d
			continue
		}
		sum, n := 0.0, 0
		for _, l := range b.cfg.Matchups {
			if !slices.Contains(l, f) {
				continue
			}
			n++
			if slices.Contains(l, e.Side) {
				sum -= d / float64(len(l)-1)
			}
		}
		if n > 0 {
			delta[k] = sum / float64(n)
		}
	}
	return delta, h, true
}

// search runs the greedy rounds from the ruleset's measured shares (and,
// with a second search tier, its shares there, before2; v2 that tier's
// card values).
func (b *balancer) search(ctx context.Context, edits []BalanceEdit, v, v2 *CardValueResult, before, before2 []SideShare) ([]BalanceEdit, game.Ruleset, string, error) {
	cfg := b.cfg
	g := cfg.Game
	var pkg []BalanceEdit
	curRS, cur, cur2 := g, before, before2
	var curDev float64 // the package's largest deviation, once it has an edit
	curObj := objective2(cur, cur2)
	for len(pkg) < cfg.MaxEdits {
		if ctx.Err() != nil {
			return pkg, curRS, "interrupted", nil
		}
		if r := b.budgetLeft(); r != "" {
			return pkg, curRS, r, nil
		}
		b.round++
		// Predict every single edit on top of the package as measured;
		// the edits the model cannot predict race on their games alone.
		var cands, blind []BalanceCandidate
		for i := range edits {
			e := edits[i]
			at := slices.IndexFunc(pkg, func(p BalanceEdit) bool { return p.Card == e.Card && p.Knob == e.Knob && p.Rules == e.Rules })
			if at >= 0 {
				continue // a card's knob is edited once; its step was raced whole
			}
			delta, half, ok := b.predict(g, &e, v)
			if !ok {
				c := BalanceCandidate{Edit: e, Unpredicted: true}
				for _, x := range cur2 {
					c.Predicted2 = append(c.Predicted2, x.Share) // nothing predicted: as it is
				}
				blind = append(blind, c)
				continue
			}
			c := BalanceCandidate{Edit: e}
			dev, devLo, devHi := 0.0, 0.0, 0.0
			after := slices.Clone(cur)
			c.predictedIn = true
			for k := range cur {
				p := cur[k].Share + delta[k]
				after[k].Share = p
				c.Predicted = append(c.Predicted, round6(p))
				x := math.Abs(p - cur[k].Fair)
				dev = max(dev, x)
				devLo = max(devLo, math.Max(0, x-half))
				devHi = max(devHi, x+half)
				c.predictedIn = c.predictedIn && x <= cur[k].Tolerance
			}
			c.PredictedDev, c.PredictedDevCI95 = round6(dev), interval(devLo, devHi)
			var after2 []SideShare
			if cur2 != nil {
				// The second tier: its own price of a unit and card values
				// (a card whose worth differs by skill moves the tiers
				// apart), from the package's shares measured there.
				delta2, _, ok2 := b.predict(g, &e, v2)
				after2 = slices.Clone(cur2)
				for k := range cur2 {
					if ok2 {
						after2[k].Share += delta2[k]
					}
					c.Predicted2 = append(c.Predicted2, round6(after2[k].Share))
					c.predictedIn = c.predictedIn && math.Abs(after2[k].Share-cur2[k].Fair) <= cur2[k].Tolerance
				}
			}
			c.predictedObj = objective2(after, after2)
			if cv, ok := v.Values[e.Card]; ok {
				c.outlier = -float64(sign(e.To-e.From)) * cv.VsFactionPts
			}
			if v2 != nil {
				if cv, ok := v2.Values[e.Card]; ok {
					c.outlier = max(c.outlier, -float64(sign(e.To-e.From))*cv.VsFactionPts)
				}
			}
			if c.predictedObj < curObj {
				cands = append(cands, c)
			}
		}
		if len(cands)+len(blind) == 0 {
			if len(pkg) > 0 && !slices.ContainsFunc(edits, func(e BalanceEdit) bool {
				return !slices.ContainsFunc(pkg, func(p BalanceEdit) bool { return p.Card == e.Card && p.Knob == e.Knob && p.Rules == e.Rules })
			}) {
				return pkg, curRS, "every value the knobs allow is edited once", nil
			}
			return pkg, curRS, "no single edit is predicted to bring the sides closer", nil
		}
		// The prediction first, but among edits predicted within the
		// band the smaller step (a designer's smaller change).
		sort.SliceStable(cands, func(i, j int) bool {
			a, c := cands[i], cands[j]
			if a.predictedIn && c.predictedIn {
				if sa, sc := absInt(a.Edit.To-a.Edit.From), absInt(c.Edit.To-c.Edit.From); sa != sc {
					return sa < sc
				}
			}
			if a.predictedObj != c.predictedObj {
				return a.predictedObj < c.predictedObj
			}
			return absInt(a.Edit.To-a.Edit.From) < absInt(c.Edit.To-c.Edit.From)
		})
		if len(cands) > 0 {
			cands = shortlist(cands, cfg.Shortlist)
			cfg.logf("round %d: racing %d edits (best predicted: %s, largest deviation %.1f points)", b.round, len(cands), cands[0].Edit.Text, 100*cands[0].PredictedDev)
		}
		if len(blind) > 0 {
			cfg.logf("round %d: racing %d edits without a prediction (%s … %s)", b.round, len(blind), blind[0].Edit.Text, blind[len(blind)-1].Edit.Text)
			cands = append(cands, blind...)
		}
		// With a second tier the first tier's race only drops an edit
		// surely worse than the package as it is at both (its first-tier
		// deviation above the package's largest possible at either tier):
		// an edit worse at the first tier may still be the best of the
		// two, and the second tier decides among the finalists.
		b.floor = 0
		if cur2 != nil {
			_, b.floor = devBounds(b.rezoned(cur2, raceZ(len(cands)+1, len(b.names), balanceStages)))
		}
		win, base, err := b.race(ctx, curRS, cands)
		if err != nil {
			if ctx.Err() != nil {
				return pkg, curRS, "interrupted", nil
			}
			return nil, nil, "", err
		}
		step := BalanceStep{Tried: cands, Baseline: base.Measured}
		if cur2 != nil && win >= 0 {
			win, base, err = b.finals(ctx, curRS, cands, base, cur2)
			if err != nil {
				if ctx.Err() != nil {
					return pkg, curRS, "interrupted", nil
				}
				return nil, nil, "", err
			}
			step.Baseline2 = base.Measured2
		}
		if win < 0 {
			b.res.Steps = append(b.res.Steps, step)
			return pkg, curRS, "no edit raced improved on the package", nil
		}
		w := cands[win]
		if w.measuredObj >= base.measuredObj {
			b.res.Steps = append(b.res.Steps, step)
			if cur2 != nil {
				return pkg, curRS, fmt.Sprintf("the best edit raced (%s) left the largest deviation at %.1f points at %s and %.1f at %s, no better than the package's %.1f and %.1f on the same games",
					w.Edit.Text, 100*w.MeasuredDev, strings.Join(cfg.Bots, ","), 100*w.MeasuredDev2, strings.Join(cfg.Tier2, ","), 100*base.MeasuredDev, 100*base.MeasuredDev2), nil
			}
			return pkg, curRS, fmt.Sprintf("the best edit raced (%s) left the largest deviation at %.1f points, no better than the package's %.1f on the same games", w.Edit.Text, 100*w.MeasuredDev, 100*base.MeasuredDev), nil
		}
		rs, err := w.Edit.knobSpec.With(curRS, w.Edit.entity, w.Edit.To)
		if err != nil {
			return nil, nil, "", fmt.Errorf("analysis: balance: %v", err)
		}
		pkg = append(pkg, w.Edit)
		curRS, cur, cur2, curDev, curObj = rs, w.Measured, w.Measured2, w.MeasuredDev, w.measuredObj
		// The package's games, brought to the next round's same deals.
		if cfg.Pool {
			b.carry = b.stages[win]
		}
		if cur2 != nil && cfg.Pool2 {
			b.carry2 = b.fin[win]
		}
		step.Edits, step.Shares, step.MaxDev = slices.Clone(pkg), cur, curDev
		step.Shares2, step.MaxDev2 = cur2, w.MeasuredDev2
		b.res.Steps = append(b.res.Steps, step)
		if cur2 != nil {
			cfg.logf("round %d: + %s → %s; at %s %s (largest deviation %.1f and %.1f points)", b.round, w.Edit.Text, shareLine(cur), strings.Join(cfg.Tier2, ","), shareLine(cur2), 100*curDev, 100*w.MeasuredDev2)
		} else {
			cfg.logf("round %d: + %s → %s (largest deviation %.1f points)", b.round, w.Edit.Text, shareLine(cur), 100*curDev)
		}
		if inBand(cur) && (cur2 == nil || inBand(cur2)) {
			if cur2 != nil {
				return pkg, curRS, "the search's games put every side within the band at both tiers", nil
			}
			return pkg, curRS, "the search's games put every side within the band", nil
		}
	}
	return pkg, curRS, fmt.Sprintf("--max-edits %d reached", cfg.MaxEdits), nil
}

// objective2 is the search's objective over the tiers searched: the worse
// tier's (s2 nil: the first tier's alone).
func objective2(s, s2 []SideShare) float64 {
	if s2 == nil {
		return objective(s)
	}
	return max(objective(s), objective(s2))
}

// rezoned is s with each side's interval at normal quantile z instead of
// its 95% one (the shares' Wilson intervals from their games).
func (b *balancer) rezoned(s []SideShare, z float64) []SideShare {
	out := slices.Clone(s)
	for k := range out {
		lo, hi := Wilson(s[k].Share*float64(s[k].Games), float64(s[k].Games), z)
		out[k].CI95 = interval(lo, hi)
	}
	return out
}

// finals plays the first tier's race's finalists — the Finalists edits it
// left with the best objective over the first tier's measured shares and
// the second tier's predicted ones — and the package as it is at the
// second tier, on the same fresh games (Tier2Games per lineup), and picks
// among them by the worse tier: an edit whose deviation, at the tier
// where its simultaneous intervals allow it least, exceeds what another's
// allow at most, is out; among the rest, pick's preference.
func (b *balancer) finals(ctx context.Context, from game.Ruleset, cands []BalanceCandidate, base BalanceCandidate, cur2 []SideShare) (win int, _ BalanceCandidate, err error) {
	cfg := b.cfg
	alive := slices.Clone(b.alive)
	est := func(c *BalanceCandidate) float64 {
		p := slices.Clone(cur2)
		for k := range p {
			p[k].Share = c.Predicted2[k]
		}
		return max(c.measuredObj, objective(p))
	}
	sort.SliceStable(alive, func(i, j int) bool { return est(&cands[alive[i]]) < est(&cands[alive[j]]) })
	alive = alive[:min(len(alive), cfg.Finalists)]
	if len(alive) == 0 {
		return -1, base, nil
	}
	rss := make([]game.Ruleset, 0, len(alive)+1)
	for _, c := range alive {
		rs, err := cands[c].Edit.knobSpec.With(from, cands[c].Edit.entity, cands[c].Edit.To)
		if err != nil {
			return -1, base, fmt.Errorf("analysis: balance: %v", err)
		}
		rss = append(rss, rs)
	}
	// The package as it is played these deals in the round before (or as
	// the ruleset): its games are brought, not played again.
	if b.carry2 == nil {
		rss = append(rss, from)
	}
	var names []string
	for _, c := range alive {
		names = append(names, cands[c].Edit.Text)
	}
	cfg.logf("round %d: %d finalists at %s, %d games per lineup: %s", b.round, len(alive), strings.Join(cfg.Tier2, ","), cfg.Tier2Games, strings.Join(names, "; "))
	ms, err := b.measureAt(ctx, rss, b.finalsSeed(), cfg.Tier2, cfg.Tier2Games)
	if err != nil {
		return -1, base, err
	}
	if b.carry2 != nil {
		ms = append(ms, measured{sums: clonePairs(b.carry2), shares: b.shares(b.carry2)})
		rss = append(rss, from)
		b.reused += int64(cfg.Tier2Games * len(cfg.Matchups))
	}
	b.fin = map[int][]pairAcc{}
	for i, c := range alive {
		b.fin[c] = ms[i].sums
	}
	// The decision's intervals: the first tier's race's at its z, the
	// second tier's simultaneous over its arms and sides (its one look).
	z1 := raceZ(len(cands)+1, len(b.names), balanceStages)
	z2 := raceZ(len(rss), len(b.names), 1)
	all := append(slices.Clone(alive), -1)
	los, his := make([]float64, len(all)), make([]float64, len(all))
	bestHi := math.Inf(1)
	for i, c := range all {
		p := &base
		if c >= 0 {
			p = &cands[c]
		}
		p.Measured2 = ms[i].shares
		p.MeasuredDev2 = round6(maxDev(p.Measured2))
		p.obj1 = p.measuredObj
		p.measuredObj = max(p.obj1, objective(p.Measured2))
		lo1, hi1 := devBounds(b.rezoned(p.Measured, z1))
		lo2, hi2 := devBounds(b.sharesAt(ms[i].sums, z2))
		los[i], his[i] = max(lo1, lo2), max(hi1, hi2)
		bestHi = min(bestHi, his[i])
	}
	var left []int
	for i, c := range all {
		if c < 0 {
			continue
		}
		if los[i] > bestHi {
			cands[c].Dropped = fmt.Sprintf("at %s: its deviation at the worse tier is at least %.1f points, another's at most %.1f (simultaneous intervals, z %.2f and %.2f)", strings.Join(cfg.Tier2, ","), 100*los[i], 100*bestHi, z1, z2)
			continue
		}
		left = append(left, c)
	}
	return pick(cands, left, base.measuredObj, cfg.Tolerance), base, nil
}

// shortlist keeps the n edits predicted best, and besides them the edit
// of each side's card most out of line with the side's other cards (the
// value model's suspect: a card made much stronger), at its largest step:
// the prediction by price of a unit cannot tell a suspect card from any
// other of as many copies, the race can.
func shortlist(cands []BalanceCandidate, n int) []BalanceCandidate {
	out := slices.Clone(cands[:min(len(cands), n)])
	best := map[string]int{}
	for i, c := range cands {
		j, ok := best[c.Edit.Side]
		if !ok || c.outlier > cands[j].outlier ||
			c.outlier == cands[j].outlier && c.Edit.Card == cands[j].Edit.Card && absInt(c.Edit.To-c.Edit.From) > absInt(cands[j].Edit.To-cands[j].Edit.From) {
			best[c.Edit.Side] = i
		}
	}
	sides := make([]string, 0, len(best))
	for s := range best {
		sides = append(sides, s)
	}
	slices.Sort(sides)
	for _, s := range sides {
		c := cands[best[s]]
		if c.outlier > 0 && !slices.ContainsFunc(out, func(x BalanceCandidate) bool { return x.Edit == c.Edit }) {
			out = append(out, c)
		}
	}
	return out
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func (b *balancer) budgetLeft() string {
	if b.cfg.BudgetGames > 0 && b.games >= b.cfg.BudgetGames {
		return fmt.Sprintf("the budget of %d games is spent", b.cfg.BudgetGames)
	}
	if !b.cfg.Deadline.IsZero() && time.Now().After(b.cfg.Deadline) {
		return "the time budget is spent"
	}
	return ""
}

// race plays the candidates (each the package with its edit) on the same
// games, stage by stage on fresh seeds, dropping a candidate once the
// smallest deviation its intervals allow exceeds the largest another's
// allow, until one is left, one is surely within the band, or the stages
// are played. It returns the index of the candidate measured closest.
//
// The package as it is races too, as the last entry (no edit), so that
// each edit is judged against it on the same games: the package's own
// figures from the round before came from other games, and a step that
// does nothing would beat them half the time. base is its measurement.
func (b *balancer) race(ctx context.Context, from game.Ruleset, edits []BalanceCandidate) (win int, base BalanceCandidate, err error) {
	m := len(edits)
	cands := append(slices.Clone(edits), BalanceCandidate{Edit: BalanceEdit{Text: "(no further edit)"}})
	defer func() {
		copy(edits, cands[:m])
		base = cands[m]
	}()
	rss := make([]game.Ruleset, len(cands))
	for i := range edits {
		rs, err := cands[i].Edit.knobSpec.With(from, cands[i].Edit.entity, cands[i].Edit.To)
		if err != nil {
			return -1, base, fmt.Errorf("analysis: balance: %v", err)
		}
		rss[i] = rs
	}
	rss[m] = from
	z := raceZ(len(cands), len(b.names), balanceStages)
	sums := make([][]pairAcc, len(cands))
	b.stages = make([][][]pairAcc, len(cands))
	alive := make([]int, len(cands))
	for i := range alive {
		alive[i] = i
	}
	for stage := 0; stage < balanceStages && len(alive) > 0; stage++ {
		if stage > 0 && b.budgetLeft() != "" {
			break
		}
		// The package as it is played this stage's deals in the round
		// before (as that round's winner, or as the ruleset): its games
		// are brought, not played again.
		var play []game.Ruleset
		var at []int
		for _, c := range alive {
			if c == m && stage < len(b.carry) {
				continue
			}
			at = append(at, c)
			play = append(play, rss[c])
		}
		ms, err := b.measure(ctx, play, b.raceSeed(stage))
		if err != nil {
			return -1, base, err
		}
		got := make([][]pairAcc, len(cands))
		for i, c := range at {
			got[c] = ms[i].sums
		}
		if slices.Contains(alive, m) && got[m] == nil {
			got[m] = clonePairs(b.carry[stage])
			b.reused += int64(b.cfg.Games * len(b.cfg.Matchups))
		}
		for _, c := range alive {
			b.stages[c] = append(b.stages[c], clonePairs(got[c]))
			if sums[c] == nil {
				sums[c] = got[c]
			} else {
				for k := range sums[c] {
					sums[c][k].merge(&got[c][k])
				}
			}
			cands[c].Measured = b.shares(sums[c])
			cands[c].MeasuredDev = round6(maxDev(cands[c].Measured))
			cands[c].measuredObj = objective(cands[c].Measured)
			cands[c].Games = int64(0)
			for _, s := range sums[c] {
				cands[c].Games += s.n
			}
		}
		// The decisions use simultaneous intervals (Bonferroni over every
		// side of every candidate at every stage): the measured 95% ones
		// above are what the menu shows.
		dec := make([][]SideShare, len(alive))
		for i, c := range alive {
			dec[i] = b.sharesAt(sums[c], z)
		}
		keep, bestHi, los := raceKeep(dec)
		if b.floor > 0 {
			// Two tiers: only an edit surely worse than the package as it
			// is at both is out (the package's own arm bounds the first
			// tier, the floor the second).
			_, baseHi := devBounds(dec[slices.Index(alive, m)])
			bestHi = max(baseHi, b.floor)
			for i := range keep {
				keep[i] = los[i] <= bestHi
			}
		}
		var next []int
		for i, c := range alive {
			if !keep[i] {
				cands[c].Dropped = fmt.Sprintf("stage %d: its deviation is at least %.1f points, another's at most %.1f (simultaneous intervals, z %.2f)", stage+1, 100*los[i], 100*bestHi, z)
				continue
			}
			next = append(next, c)
		}
		alive = next
		if len(alive) <= 1 || bestHi <= b.cfg.Tolerance { // bestHi is weighed against the sides' band
			break
		}
	}
	alive = slices.DeleteFunc(alive, func(c int) bool { return c == m })
	b.alive = slices.Clone(alive)
	return pick(cands, alive, cands[m].measuredObj, b.cfg.Tolerance), base, nil
}

// pick chooses among the edits the games could not tell apart: among
// those measured to improve on the package (objective below curObj) and
// measured within margin of the best of them (the band: a difference
// a designer would not care about), the designer's preference — the card
// most out of line with its side, then the smaller step, then the closer
// measurement; if none improved, the one measured closest (which the
// search then declines). The simultaneous intervals leave many edits in a
// race, so the preference must neither pick one its own games put behind
// the package as it is, nor one they put far behind the best edit (a
// suspect card's small step that barely moves the sides). Nor may the
// preference give up more than half the best edit's measured improvement:
// where edits move the sides by less than the band (the strong tier's
// price of a power point is a half to a third of greedy's), the band alone
// would let it choose an edit that does a fraction of the best's work.
func pick(cands []BalanceCandidate, alive []int, curObj, margin float64) int {
	lowest := math.Inf(1)
	for _, c := range alive {
		lowest = min(lowest, cands[c].measuredObj)
	}
	if lowest < curObj {
		margin = min(margin, (curObj-lowest)/2)
	}
	best := -1
	for _, c := range alive {
		if cands[c].measuredObj < curObj && cands[c].measuredObj <= lowest+margin && (best < 0 || better(&cands[c], &cands[best])) {
			best = c
		}
	}
	if best >= 0 {
		return best
	}
	for _, c := range alive {
		if best < 0 || cands[c].measuredObj < cands[best].measuredObj {
			best = c
		}
	}
	return best
}

// raceZ is the normal quantile of the race's intervals: Bonferroni over
// the m candidates' k sides at each of the stages, so that with 95%
// probability every interval the race decides on covers its side's true
// share at once, and the edit truly best of the shortlist is never
// dropped (docs/metrics.md, "Balance").
func raceZ(m, k, stages int) float64 {
	n := float64(max(1, m) * max(1, k) * max(1, stages))
	return distuv.UnitNormal.Quantile(1 - 0.05/(2*n))
}

// raceKeep says which candidates (their shares with simultaneous
// intervals) stay in the race: those whose smallest possible largest
// deviation does not exceed the smallest largest one another's allow;
// bestHi is that bound and los each candidate's smallest.
func raceKeep(dec [][]SideShare) (keep []bool, bestHi float64, los []float64) {
	bestHi = math.Inf(1)
	for _, s := range dec {
		_, hi := devBounds(s)
		bestHi = min(bestHi, hi)
	}
	for _, s := range dec {
		lo, _ := devBounds(s)
		keep = append(keep, lo <= bestHi)
		los = append(los, lo)
	}
	return keep, bestHi, los
}

// better orders the edits left in a race: the more out of line card
// (by at least a point of value), then the smaller step, then the lower
// measured objective.
func better(a, c *BalanceCandidate) bool {
	if math.Abs(a.outlier-c.outlier) >= 1 {
		return a.outlier > c.outlier
	}
	if sa, sc := absInt(a.Edit.To-a.Edit.From), absInt(c.Edit.To-c.Edit.From); sa != sc {
		return sa < sc
	}
	return a.measuredObj < c.measuredObj
}

// merge adds q's games to p.
func (p *pairAcc) merge(q *pairAcc) {
	p.n += q.n
	p.changed += q.changed
	p.pos += q.pos
	p.neg += q.neg
	p.sumA += q.sumA
	p.sumB += q.sumB
	p.sqA += q.sqA
	p.sqB += q.sqB
	p.sumD += q.sumD
	p.sqD += q.sqD
	for k := range p.posMag {
		p.posMag[k] += q.posMag[k]
		p.negMag[k] += q.negMag[k]
	}
}

// EditedFiles returns the ruleset's files with the package written in:
// each value changed where it is written (cards.SetInt), every other byte
// kept; it sets r.Diff to the change as a unified diff. Edits in one file are written from the bottom up, so a key
// inserted for a default value does not move the lines of the others.
func (r *BalanceResult) EditedFiles(g game.Ruleset) (map[string][]byte, error) {
	files := g.Info().Files
	if files == nil {
		return nil, errors.New("analysis: balance: the ruleset has no files to edit")
	}
	out := map[string][]byte{}
	for name, data := range files {
		out[name] = data
	}
	edits := slices.Clone(r.Package)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Line > edits[j].Line })
	for _, e := range edits {
		data, ok := out[e.File]
		if !ok {
			return nil, fmt.Errorf("analysis: balance: %s is not a file of the ruleset", e.File)
		}
		d, err := cards.SetInt(data, e.File, e.Line, e.Knob, e.From, e.To)
		if err != nil {
			return nil, err
		}
		out[e.File] = d
	}
	r.Diff = UnifiedDiff(files, out)
	return out, nil
}

// ReadBack is the value edit e's knob has in g (a ruleset written with
// the package, loaded again): what checks that the edit was written.
func (e *BalanceEdit) ReadBack(g game.Ruleset) (int, error) {
	if e.Rules {
		k, err := findKnob(g, game.OnRules, 0, e.Knob, nil)
		if err != nil {
			return 0, err
		}
		return k.Get(g, 0), nil
	}
	idx := slices.IndexFunc(g.Cards(), func(c game.Card) bool { return c.ID == e.Card })
	if idx < 0 {
		return 0, fmt.Errorf("analysis: balance: no card %s", e.Card)
	}
	c := g.Cards()[idx]
	k, err := findKnob(g, game.OnCard, idx, e.Knob, &c)
	if err != nil {
		return 0, err
	}
	return k.Get(g, idx), nil
}
