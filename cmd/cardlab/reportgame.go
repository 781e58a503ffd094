package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/reports"
)

// Another game than Alpha Tactics on `cardlab report` (issue 27 step 7):
// the games of its sides' lineups with its bots, rendered from what every
// game has (sides, seats, turn order, game length and margins, the game's
// count sections as tables and sheets) in the game's words, and card values
// in the game's unit where its ruleset is a game.Valuer (step 5d), with
// impact (the ablation through the Valuer) where asked. A game without a
// Valuer refuses the card values and impact by name.

// alphaOnlyFlags are report's flags of the analyses another game's ruleset
// cannot have yet.
var alphaOnlyFlags = []string{"values", "precision", "value-games", "value-max-games", "impact", "impact-games", "base", "check-bots", "card-tolerance"}

// valueFlags are the flags of the card values, which a game with a
// game.Valuer takes.
var valueFlags = []string{"--values", "--precision", "--value-games", "--value-max-games", "--card-tolerance", "--impact", "--impact-games"}

// reportPlayGame plays the games of a report on rs, another game's ruleset.
func reportPlayGame(opts *ReportOptions, rs game.Ruleset) (*reports.Data, error) {
	_, valued := rs.(game.Valuer)
	refused := slices.DeleteFunc(slices.Clone(opts.AlphaOnly), func(f string) bool { return f == "--base" || f == "--check-bots" })
	if valued {
		refused = slices.DeleteFunc(refused, func(f string) bool { return slices.Contains(valueFlags, f) })
	}
	if len(refused) > 0 {
		what := "card values and impact measure"
		return nil, fmt.Errorf("%s: %s only Alpha Tactics rulesets so far (issue 27); this ruleset is %s, whose report has the games alone", strings.Join(refused, ", "), what, rs.Game())
	}
	var base game.Ruleset
	if opts.BaseDir != "" {
		b, err := loadOtherGame(opts.BaseDir)
		if err != nil {
			return nil, fmt.Errorf("--base: %w", err)
		}
		if b == nil || b.Game() != rs.Game() {
			return nil, fmt.Errorf("--base: a report compares two versions of one game; the base is %s, this ruleset %s", gameOfDir(b), rs.Game())
		}
		base = b
	}
	lineups, err := resolveLineups(rs, nil, opts.Matchups)
	if err != nil {
		return nil, err
	}
	if !opts.BotsSet && opts.Bots == reportDefaultBots {
		opts.Bots = defaultBotFor(rs)
	}
	specs, err := checkBotSpecs(rs, opts.Bots, lineups)
	if err != nil {
		return nil, err
	}
	check, err := gameCheckBots(rs, opts.CheckBots, specs, lineups)
	if err != nil {
		return nil, err
	}
	tierDefaults(opts, specs)
	// What the report plays, as its command says: card values and impact
	// where the game has a Valuer, no check.
	opts.Values, opts.Impact = opts.Values && valued, opts.Impact && valued
	ctx, stop := interruptible(opts.Context)
	defer stop()
	minSample := opts.MinSample
	if minSample == 0 {
		minSample = -1 // 0 asked for: nothing is low_n
	}
	d, err := playGameReport(ctx, gameReport{rs: rs, base: base, baseName: opts.BaseDir, lineups: lineups, specs: specs,
		check: check, games: opts.Games, seed: opts.Seed, workers: opts.Workers, minSample: minSample, phases: &phaseBar{opts: opts},
		impact: opts.Impact, impactGames: opts.ImpactGames,
		values: opts.Values, valueGames: opts.ValueGames, valueMaxGames: opts.ValueMaxGames, precision: opts.Precision})
	if err != nil {
		return nil, err
	}
	d.Meta.Command = reportCommand(opts, specs, check)
	return d, nil
}

// gameCheckBots is the skill check's tier on another game's report: spec,
// or when "" the game's other cheap bot — greedy, or random when the report
// plays greedy (or the game has no greedy) — and nil for none (noCheck, or
// a default that is the report's own tier).
func gameCheckBots(rs game.Ruleset, spec string, specs []string, lineups [][]string) ([]string, error) {
	given := spec != ""
	switch spec {
	case noCheck:
		return nil, nil
	case "":
		spec = "random"
		if slices.Contains(bots.NamesFor(rs), "greedy") && strings.Join(specs, ",") != "greedy" {
			spec = "greedy"
		}
	}
	check, err := checkBotSpecs(rs, spec, lineups)
	if err != nil {
		return nil, err
	}
	if strings.Join(check, ",") == strings.Join(specs, ",") {
		if !given {
			return nil, nil
		}
		return nil, fmt.Errorf("--check-bots %s is the report's own tier (--bots): give another bot, or %s", spec, noCheck)
	}
	return check, nil
}

// gameReport is what another game's report plays (as reportGames is Alpha
// Tactics'): `cardlab report` and `cardlab watch` both call playGameReport.
type gameReport struct {
	rs, base      game.Ruleset // base: nil, or the version compared against
	baseName      string
	lineups       [][]string
	specs         []string
	check         []string // the skill check's tier; nil for none
	games         int
	seed          uint64
	workers       int
	minSample     int
	phases        phases
	values        bool
	impact        bool
	impactGames   int
	valueGames    int
	valueMaxGames int
	precision     float64
}

// playGameReport plays another game's report: the games, the card values
// where asked (the ruleset is a game.Valuer), and with base the paired
// diff for "What changed".
func playGameReport(ctx context.Context, g gameReport) (*reports.Data, error) {
	rs, lineups, specs, bar := g.rs, g.lineups, g.specs, g.phases
	began := reportTime()
	var hist reports.HistogramCounter
	var outs *analysis.Outcomes
	if g.check != nil {
		outs = analysis.NewOutcomes(lineups, g.games)
	}
	cfg := analysis.Config{Game: rs, Matchups: lineups, Bots: specs, Games: g.games, Seed: g.seed,
		Workers: g.workers, MinSample: g.minSample, Progress: bar.progress("simulating (" + strings.Join(specs, ",") + ")"),
		Record: func(r *analysis.GameRecord) error {
			hist.Add(r)
			if outs != nil {
				return outs.Record(r)
			}
			return nil
		}}
	res, err := analysis.Run(ctx, cfg)
	bar.finish()
	if err != nil {
		return nil, err
	}
	if res.Partial {
		return nil, fmt.Errorf("interrupted after %d of %d games: no report written", res.Counts.Games, res.Total)
	}
	rep := res.Report(versionString())
	if g.values {
		vc := analysis.CardValueConfig{Game: rs, Matchups: lineups, Bots: specs, Seed: g.seed, Workers: g.workers,
			Precision: valuePrecision(g.precision), Games: g.valueGames, MaxGames: g.valueMaxGames}
		if g.base != nil {
			// As Alpha Tactics': the values are read at the base's price of
			// a unit, so an edit of one card moves no other card's reading.
			bc := vc
			bc.Game, bc.Progress = g.base, bar.progress("the price of a unit in --base")
			br, err := analysis.CardValues(ctx, bc)
			bar.finish()
			if err != nil {
				return nil, fmt.Errorf("the price of a unit in --base %s: %w", g.baseName, err)
			}
			if br.Partial {
				return nil, errors.New("interrupted during the card values of --base: no report written")
			}
			vc.Unit, vc.UnitFrom = br.Price, analysis.UnitFromInfo(g.base.Info())
		}
		vc.Progress = bar.progress("card values (" + strings.Join(specs, ",") + ")")
		vr, err := analysis.CardValues(ctx, vc)
		bar.finish()
		if err != nil {
			return nil, err
		}
		if vr.Partial {
			return nil, errors.New("interrupted during the card values: no report written")
		}
		analysis.AttachCardValues(rep, vr, vc)
	}
	var im *analysis.ImpactResult
	if g.impact {
		// The ablation through the game's Valuer: one copy blanked (in a
		// mirror, the lineup's first seat's), as impact --method ablation.
		im, err = analysis.Impact(ctx, analysis.ImpactConfig{Game: rs, Mode: analysis.ModeBlankCopy, PairedConfig: analysis.PairedConfig{
			Matchups: lineups, Bots: specs, Games: g.impactGames, Seed: g.seed, Workers: g.workers,
			MinSample: g.minSample, Progress: bar.progress("impact")}})
		bar.finish()
		if err != nil {
			return nil, err
		}
		if im.Partial {
			return nil, errors.New("interrupted during the impact analysis: no report written")
		}
		im.ToolVersion = versionString()
	}
	var df *analysis.DiffResult
	if g.base != nil {
		// What changed since the base, on paired games (as Alpha Tactics').
		df, err = analysis.Diff(ctx, analysis.DiffConfig{Base: g.base, Variant: rs, PairedConfig: analysis.PairedConfig{
			Matchups: lineups, Bots: specs, Games: g.games, Seed: g.seed, Workers: g.workers,
			MinSample: g.minSample, Progress: bar.progress("comparing with --base")}})
		bar.finish()
		if err != nil {
			return nil, fmt.Errorf("comparing with --base %s: %w", g.baseName, err)
		}
		if df.Partial {
			return nil, errors.New("interrupted during the comparison with --base: no report written")
		}
		df.ToolVersion = versionString()
	}
	var tc *analysis.TierCheck
	if g.check != nil {
		// The report's games again with the check tier's bots, compared
		// side by side and seat by seat (as Alpha Tactics' check, without
		// its card values at the check tier so far).
		began := time.Now()
		chk := analysis.NewOutcomes(lineups, g.games)
		cr, err := analysis.Run(ctx, analysis.Config{Game: rs, Matchups: lineups, Bots: g.check, Games: g.games, Seed: g.seed,
			Workers: g.workers, MinSample: g.minSample, Progress: bar.progress("skill check (" + strings.Join(g.check, ",") + ")"),
			Record: chk.Record})
		bar.finish()
		if err != nil {
			return nil, err
		}
		if cr.Partial {
			return nil, errors.New("interrupted during the skill check: no report written")
		}
		tc = analysis.CompareTiers(rs, lineups, g.games, specs, g.check, outs, chk, g.minSample)
		tc.Timing = analysis.Timing{Seconds: math.Round(time.Since(began).Seconds()*1000) / 1000}
		if s := time.Since(began).Seconds(); s > 0 {
			tc.Timing.GamesPerSecond = math.Round(float64(cr.Counts.Games)/s*10) / 10
		}
	}
	return &reports.Data{Report: rep, Diff: df, Tiers: tc, Impact: im, Meta: &reports.Meta{
		Generated:  began.Format(time.RFC3339),
		Catalog:    reports.CatalogOf(rs),
		Histograms: hist.Histograms(),
	}}, nil
}
