package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/alphatactics/rules/cardstest"
)

// TestCommandsPlayAtLimits runs every command that plays games on rulesets
// at the loader's limits (issue 24: `init`, rounds: 16 and 64 targets
// validated, then play, simulate, report, impact, sweep, diff, skill,
// ladder and score crashed with exit 2). watch plays through the same
// report code as report.
func TestCommandsPlayAtLimits(t *testing.T) {
	limits := map[string]cardstest.Params{}
	for _, c := range cardstest.Limits() {
		limits[c.Name] = c.Params
	}
	for _, name := range []string{"max-targets", "min-all", "max-all"} {
		t.Run(name, func(t *testing.T) {
			files, err := cardstest.FS(limits[name])
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "rules")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for n, f := range files {
				if err := os.WriteFile(filepath.Join(dir, n), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rs, err := rules.Load(files, ".")
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			card := "sf-sovereign" // the first card of the first deck, kept by every cut
			scen := filepath.Join(out, "scenario.yaml")
			data := "players: [starfleet, vulcan]\nrows:\n  - target: " + rs.Targets[len(rs.Targets)-1].ID +
				"\n    cards: [{card: " + card + "}]\n"
			if err := os.WriteFile(scen, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			runs := [][]string{
				{"validate"},
				{"play", "--players", "starfleet,vulcan", "--seed", "3", "--json"},
				{"score", scen},
				{"simulate", "--games", "2", "--workers", "2", "--bots", "ismcts:iters=5"},
				{"report", "--games", "4", "--bots", "random", "--check-bots", "greedy", "--values=false", "--workers", "2", "--out", filepath.Join(out, "report")},
				{"impact", "--bots", "greedy", "--method", "ablation", "--cards", card, "--games", "4", "--workers", "2"},
				{"sweep", "--bots", "greedy", "--card", card, "--values", "0,4", "--games", "4", "--workers", "2"},
				{"diff", "--bots", "greedy", "--base", dir, "--games", "4", "--workers", "2"},
				{"skill", "--players", "starfleet,vulcan", "--games", "4", "--workers", "2"},
				{"ladder", "--bots", "random,greedy", "--games", "4", "--workers", "2"},
			}
			for _, args := range runs {
				code, _, stderr := cardlab(t, append(args, "--rules", dir)...)
				if code != 0 {
					t.Errorf("%v: exit %d\n%s", args, code, stderr)
				}
			}
		})
	}
}
