package main

import (
	"strings"
	"testing"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/goofspiel"
)

// Every analysis command defaults to the same bot (simulate, the raw
// figures, to greedy), and its --help says so.
func TestDefaultBotsEverywhere(t *testing.T) {
	root := NewCmdRoot()
	for _, c := range []struct{ cmd, want string }{
		{"simulate", simulateDefaultBots},
		{"impact", defaultBots},
		{"sweep", defaultBots},
		{"diff", defaultBots},
		{"watch", defaultBots},
		{"report", reportDefaultBots},
		// skill compares levels: its strongest default level is the default bot.
		{"skill", "greedy," + defaultBots},
	} {
		sub, _, err := root.Find([]string{c.cmd})
		if err != nil || sub.Name() != c.cmd {
			t.Fatalf("%s: no such command (%v)", c.cmd, err)
		}
		f := sub.Flags().Lookup("bots")
		if f == nil {
			t.Fatalf("%s has no --bots flag", c.cmd)
		}
		if f.DefValue != c.want {
			t.Errorf("%s --bots defaults to %q, want %q", c.cmd, f.DefValue, c.want)
		}
		code, stdout, stderr := cardlab(t, c.cmd, "--help")
		if code != 0 || !strings.Contains(stdout, `(default "`+c.want+`")`) {
			t.Errorf("%s --help: exit %d, does not state the default %q:\n%s%s", c.cmd, code, c.want, stdout, stderr)
		}
		if c.cmd != "report" && c.cmd != "impact" && c.cmd != "watch" && !strings.Contains(stdout, defaultBots+" is the bot every other") &&
			!strings.Contains(stdout, "Bots default to "+c.want) {
			t.Errorf("%s --help does not explain the shared default:\n%s", c.cmd, stdout)
		}
	}
}

// A game's default tier: the bot it names (game.DefaultBotter), else strong
// where it has it.
func TestDefaultBotFor(t *testing.T) {
	for id, want := range map[string]string{"goofspiel": goofspiel.DefaultBot, "alphatactics": defaultBots} {
		g, ok := game.Lookup(id)
		if !ok {
			t.Fatalf("no game %s", id)
		}
		rs, _ := g.Default()
		if got := defaultBotFor(rs); got != want {
			t.Errorf("%s: default bot %q, want %q", id, got, want)
		}
		if _, err := bots.ParseFor(rs, defaultBotFor(rs), 1); err != nil {
			t.Errorf("%s: its default bot does not parse: %v", id, err)
		}
	}
}
