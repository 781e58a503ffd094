package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/game"
)

// SweepOptions are the inputs of `cardlab sweep`.
type SweepOptions struct {
	BatchOptions
	// Card and Field name a card field; Param a rule parameter instead.
	Card, Field, Param string
	Values             []int
	// Faction is steered towards Target (0: the fair share).
	Faction string
	Target  float64
	SequentialOptions
}

// NewCmdSweep parses the flags of `cardlab sweep`; runF replaces sweepRun in
// tests.
func NewCmdSweep(g *globalOptions, runF func(*SweepOptions) error) *cobra.Command {
	opts := &SweepOptions{}
	var players, values, shard string
	cmd := &cobra.Command{
		Use:   "sweep (--card CARD [--field power|copies|PARAM] | --param NAME) --values 0..8 [--games N]",
		Short: "Play the games at every value of a card field, effect parameter or rule parameter",
		Long: `Set one value — a card's power or copies (--card CARD --field F), an integer
parameter of the card's effect (--field amount, or params.amount: 'cardlab
effects HANDLER' lists them and their ranges), or a rule parameter (--param
` + strings.Join(defaultKnobNames(game.OnRules), ", ") + `)
— to each of --values in turn and play the same games (same seeds, same
deals) at every value. --card takes the card's id or its name ("Klingon
Warriors"). Every value is checked against the field's range before any game
is played; a rule parameter's values by the validator of 'cardlab validate'
(the ruleset's files loaded with the value written in), which says why it
refuses one. For every faction: its win share at each value with a 95% Wilson
interval, and its paired change from the ruleset's own value (* significant,
Holm-corrected over the sweep). On a mirror, where every seat plays the one
side (Spacetrace, Goofspiel), the seats take the factions' place: in turn
order — the starting seat, the one that began each game, then the seats after
it — where the game says who began (Spacetrace), else seat 1, seat 2, ….

The value that brings a faction closest to a target share is printed as a
suggested YAML change (file:line, "power: 5 → 3"); nothing is edited. It
carries its uncertainty: the values whose 95% interval contains the target,
which these games cannot tell apart. The faction is the card's own (or
--faction F); for a rule parameter without --faction every faction is brought
closest to the target together (least squares). The target is --target, a
win share in percent (--target 48), or the fair share 100/players %.

--values takes FROM..TO (inclusive), FROM..TO..STEP or a list 1,3,5.
--games is per lineup, as for 'cardlab simulate'.

` + defaultBotsHelp,
		Example: `  cardlab sweep --card kl-d7 --field power --values 0..8 --games 2000
  cardlab sweep --card "Klingon Warriors" --field amount --values 0..3
  cardlab sweep --param planet_bonus --values 0..5 --bots greedy
  cardlab sweep --param hand_size --values 3,4,5 --faction romulan --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBatchFlags(cmd, g, &opts.BatchOptions, players); err != nil {
				return err
			}
			if err := opts.SequentialOptions.check(opts.Games); err != nil {
				return err
			}
			if err := opts.checkShard(cmd, shard, &opts.BatchOptions); err != nil {
				return err
			}
			f := cmd.Flags()
			switch {
			case opts.Card == "" && opts.Param == "":
				return usageErrorf("give --card ID (with --field) or --param NAME")
			case opts.Card != "" && opts.Param != "":
				return usageErrorf("--card and --param cannot be used together")
			case opts.Param != "" && f.Changed("field"):
				return usageErrorf("--field goes with --card; a rule parameter is named by --param alone")
			}
			if !f.Changed("values") {
				return usageErrorf("--values is required (e.g. 0..8 or 1,3,5)")
			}
			v, err := analysis.ParseValues(values)
			if err != nil {
				return usageErrorf("--values: %v", err)
			}
			opts.Values = v
			// In percent, as every win share the command prints (a share
			// of 0..1 here was the one figure of another scale).
			if !(opts.Target >= 0 && opts.Target < 100) {
				return usageErrorf("--target must be a win share in percent, at least 0 and below 100 (0: the fair share), got %v", opts.Target)
			}
			if opts.Target > 0 && opts.Target < 1 {
				return usageErrorf("--target %v reads as %v%%: give the win share in percent (--target %v)", opts.Target, opts.Target, 100*opts.Target)
			}
			opts.Field = strings.ToLower(strings.TrimSpace(opts.Field))
			opts.Param = strings.ToLower(strings.TrimSpace(opts.Param))
			if runF != nil {
				return runF(opts)
			}
			return sweepRun(opts)
		},
	}
	batchFlags(cmd, &opts.BatchOptions, &players, defaultGames, "games `N` per lineup at every value", defaultBots)
	tierDefault(cmd.Flags(), "games", costlyGames)
	sequentialFlags(cmd, &opts.SequentialOptions, "every faction's interval at every value: its")
	fl := cmd.Flags()
	fl.StringVar(&opts.Card, "card", "", "the card whose field is swept: its `ID` or its name (\"Klingon Warriors\")")
	fl.StringVar(&opts.Field, "field", "power", "the card `FIELD`: "+strings.Join(defaultKnobNames(game.OnCard), " or ")+", or an integer parameter of its effect (amount, params.amount)")
	fl.StringVar(&opts.Param, "param", "", "sweep the rule parameter `NAME` ("+strings.Join(defaultKnobNames(game.OnRules), ", ")+")")
	fl.StringVar(&values, "values", "", "the `VALUES`: FROM..TO, FROM..TO..STEP or a list 1,3,5")
	fl.StringVar(&opts.Faction, "faction", "", "steer faction `F` towards the target (default: the card's faction)")
	floatVar(fl, &opts.Target, "target", 0, "the win share aimed at, in `PERCENT` like every share printed (50: half the games; default: the fair share, 100/players)")
	shardFlag(cmd, &shard)
	return cmd
}

// defaultKnobNames names the default game's knobs of scope in --help,
// from its embedded ruleset (game.Knobbed), in its order: those on every
// entity of the scope (Alpha Tactics' power and copies on a card, not an
// effect's parameter, which only the cards binding it have).
func defaultKnobNames(scope game.Scope) []string {
	g, ok := game.Lookup(game.DefaultID)
	if !ok {
		return nil
	}
	rs, _ := g.Default()
	var names []string
	for _, k := range game.KnobsOf(rs) {
		if k.Scope == scope && k.Applies == nil {
			names = append(names, k.Name)
		}
	}
	return names
}

func sweepRun(opts *SweepOptions) error {
	rs, err := loadRulesetDir(opts.RulesDir)
	if err != nil {
		return err
	}
	lineups, specs, err := pairedBatch(&opts.BatchOptions, rs)
	if err != nil {
		return err
	}
	cfg := analysis.SweepConfig{Game: rs, Values: opts.Values, Target: opts.Target / 100}
	return sweepPlay(opts, cfg, rs, lineups, specs)
}

// sweepPlay plays the sweep cfg names: --card (an id or a name,
// resolveCardRefs), --param and --faction resolved in rs, the knob itself
// by analysis (game.KnobsOf).
func sweepPlay(opts *SweepOptions, cfg analysis.SweepConfig, rs game.Ruleset, lineups [][]string, specs []string) error {
	if opts.Card != "" {
		ids, err := resolveCardRefs(rs, []string{opts.Card})
		if err != nil {
			return err
		}
		cfg.Card, cfg.Field = ids[0], opts.Field
	} else {
		cfg.Field = opts.Param
	}
	if opts.Faction != "" {
		i := findSide(rs, opts.Faction)
		if i < 0 {
			return didYouMean(sideWord(rs), opts.Faction, sideIDs(rs))
		}
		cfg.Faction = rs.Sides()[i].ID
	}
	ctx, stop := interruptible(opts.Context)
	defer stop()
	ctx, _ = startShard(ctx, opts.Shard)
	res, cut, err := playStages(opts.SequentialOptions, opts.Games, opts.ErrOut, func(games int) (*analysis.SweepResult, bool, float64, error) {
		bo := opts.BatchOptions
		bo.Games = games
		pc, finish := pairedConfig(&bo, lineups, specs, "sweep")
		cfg.PairedConfig = pc
		r, err := analysis.Sweep(ctx, cfg)
		finish()
		if err != nil {
			return nil, false, 0, err
		}
		w := 0.0
		for _, p := range r.Points {
			w = max(w, widest(p.Factions))
		}
		return r, r.Partial, w, nil
	})
	if err != nil {
		return err
	}
	if handled, err := shardDone(ctx, &opts.BatchOptions, "sweep"); handled || err != nil {
		return err
	}
	res.ToolVersion = versionString()
	var games int64
	for _, p := range res.Points {
		games += p.Games
	}
	if err := writePaired(&opts.BatchOptions, res, func(w io.Writer) error { return writeSweepTables(w, res) }, res.Partial, games); err != nil {
		return err
	}
	return cut
}

func writeSweepTables(w io.Writer, r *analysis.SweepResult) error {
	fmt.Fprintln(w, rulesetLine(r.Ruleset))
	subject := r.Field
	if r.Card != nil && r.Card.Faction == "" {
		subject = fmt.Sprintf("%s (%s) %s", r.Card.ID, r.Card.Name, r.Field)
	} else if r.Card != nil {
		subject = fmt.Sprintf("%s (%s, %s) %s", r.Card.ID, r.Card.Name, r.Card.Faction, r.Field)
	}
	// The entities compared are the game's sides, or its seats in a mirror
	// (in turn order from the starter where the game says who began).
	side := sideOfGame(r.Ruleset.Game)
	if r.Compared != "" {
		side = "seat"
	}
	each, every := "each "+side, "every "+side
	if r.Compared == analysis.ComparedTurnOrder {
		each += " in turn order"
	}
	fmt.Fprintf(w, "Sweep of %s, now %d: %s\n", subject, r.Current, armLine(r.ArmInfo))
	if r.Partial {
		fmt.Fprintln(w, "PARTIAL (interrupted)")
	}
	steer := every
	if r.Faction != "" {
		steer = r.Faction
	}
	fmt.Fprintf(w, "Win %% [95%% CI] of %s at each value; (Δ) paired change from %d in points, * significant (Holm);\n", each, r.Current)
	if r.Compared == analysis.ComparedTurnOrder {
		fmt.Fprintln(w, turnOrderNote(r.ArmInfo))
	}
	fmt.Fprintf(w, "DIST: how far %s is from the target share %s%%\n\n", steer, pct(r.Target))
	t := &table{align: "r"}
	head := []string{"VALUE"}
	if len(r.Points) > 0 {
		for _, f := range r.Points[0].Factions {
			head = append(head, strings.ToUpper(f.Faction))
			t.align += "l"
		}
	}
	head = append(head, "DIST")
	t.align += "r"
	t.add(head...)
	for _, p := range r.Points {
		v := strconv.Itoa(p.Value)
		if p.Value == r.Current {
			v += " (now)"
		}
		cells := []string{v}
		for _, f := range p.Factions {
			c := fmt.Sprintf("%s %s", pct(f.Variant), ci(f.VariantCI95))
			if p.Value != r.Current {
				c += fmt.Sprintf(" (%s%s)", points(f.Delta), star(f.Significant))
			}
			cells = append(cells, c)
		}
		d := fmt.Sprintf("%.1f", 100*p.Distance)
		if p.Value == r.Best {
			d += " ←"
		}
		cells = append(cells, d)
		t.add(cells...)
	}
	if err := t.write(w); err != nil {
		return err
	}
	if r.Suggestion == nil {
		fmt.Fprintf(w, "\nThe current value %d is already the closest to the target %s.\n", r.Current, r.PlausibleNote())
		return nil
	}
	fmt.Fprintf(w, "\nSuggested change (not applied):\n  %s\n", r.Suggestion.Text)
	return nil
}

// turnOrderNote says what a mirror's turn-order figures are and which bot
// played them: "STARTING SEAT: the seat that began each game …; every seat
// played by greedy".
func turnOrderNote(a analysis.ArmInfo) string {
	bot := "every seat played by " + a.Bots[0]
	if !allSame(a.Bots) {
		var by []string
		for q, b := range a.Bots {
			by = append(by, fmt.Sprintf("seat %d %s", q+1, b))
		}
		bot = "the seats' bots differ (" + strings.Join(by, ", ") + "): each figure mixes them by which seat began"
	}
	seats := 0
	for _, l := range a.Matchups {
		seats = max(seats, len(l))
	}
	after := fmt.Sprintf("%s: the other seat", strings.ToUpper(analysis.TurnOrderName(1)))
	if seats > 2 {
		after = fmt.Sprintf("%s to %s: the seats after it in turn", strings.ToUpper(analysis.TurnOrderName(1)), strings.ToUpper(analysis.TurnOrderName(seats-1)))
	}
	return fmt.Sprintf("%s: the seat that began each game (the game says which; each version's own); %s; %s",
		strings.ToUpper(analysis.StarterSide), after, bot)
}

func allSame(xs []string) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}
