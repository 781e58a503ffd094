package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
)

// defaultBots is the bot the analysis commands play with unless --bots says
// otherwise: report, impact, sweep, diff and watch, and the strongest level
// of skill's default. One skill level for all of them keeps their figures
// comparable, and the strong tier is the one whose verdicts hold under
// skilled play (issue 26; the report checks them against greedy play).
const defaultBots = "strong"

// simulateDefaultBots is simulate's default: the raw figures of many games
// at greedy's cost (a hundredth of strong's), as before the strong tier.
const simulateDefaultBots = "greedy"

// costlyGames is --games of diff and sweep (per lineup, each arm) when the
// bots cost more than greedy and --games is not given: 1000 games of the
// strong bot take about 9 s of CPU per lineup and arm.
const costlyGames = 1000

// tierDefault makes --help state a flag's default for both tiers: the
// flag's own default is greedy's and random's, a costly bot (strong, the
// default) plays costly instead when the flag is not given. pflag prints
// DefValue, so the flag line no longer shows the greedy figure alone.
func tierDefault(fl *pflag.FlagSet, name string, costly int) {
	f := fl.Lookup(name)
	f.DefValue = fmt.Sprintf("%d with a costly bot such as the default strong, %s with greedy or random", costly, f.DefValue)
}

// botsFlagUsage is the --bots help of the commands that default to
// defaultBots.
const botsFlagUsage = "the bot `SPEC` for every seat, or one per seat comma-separated (the analysis commands and 'cardlab report' default to " + defaultBots + "; greedy is a hundred times cheaper and weaker)"

// defaultBotsHelp is the sentence each analysis command's --help gives
// about its default bot.
const defaultBotsHelp = `Bots default to ` + defaultBots + ` — the same skill level in impact, sweep, diff,
watch, skill (its strongest level) and report, so their figures agree; with a
costly bot such as strong, --games defaults to ` + "1000" + ` (and the screening's
games to a budget). --bots greedy is about a hundred times faster but plays
like a beginner: its verdicts can change under skilled play.`

// defaultBotFor is a game's default tier bot: the one it names
// (game.DefaultBotter: Goofspiel's search), else defaultBots (strong) where
// the game has it, else its greedy rule of thumb, else random.
func defaultBotFor(rs game.Ruleset) string {
	if d, ok := rs.(game.DefaultBotter); ok {
		return d.DefaultBot()
	}
	names := bots.NamesFor(rs)
	for _, b := range []string{defaultBots, "greedy"} {
		if slices.Contains(names, b) {
			return b
		}
	}
	return "random"
}

// gameDefaults puts another game's default bot in place of strong when
// --bots was not given, and --games back to defaultGames when strong's
// costly default had raised it and the game's bot is cheap.
func gameDefaults(o *BatchOptions, rs game.Ruleset) {
	if o.BotsGiven {
		return
	}
	o.Bots = defaultBotFor(rs)
	if !o.GamesGiven && o.Games == costlyGames && !costly(strings.Split(o.Bots, ",")) {
		o.Games = defaultGames
	}
}
