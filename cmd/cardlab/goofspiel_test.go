package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// initGoofspiel writes Goofspiel's default ruleset with cardlab init.
func initGoofspiel(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "gs")
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", dir); code != 0 {
		t.Fatalf("init --game goofspiel: exit %d: %s", code, stderr)
	}
	return dir
}

// The trace of a Goofspiel game, from a ruleset directory and from --game:
// go test ./cmd/cardlab/ -run Golden -update rewrites them.
func TestGoofspielPlayGolden(t *testing.T) {
	dir := initGoofspiel(t)
	tests := []struct {
		file string
		args []string
	}{
		{"play-goofspiel.golden", []string{"--rules", dir, "--bots", "greedy,random", "--seed", "1"}},
		{"play-goofspiel-3p.golden", []string{"--game", "goofspiel", "--seats", "3", "--bots", "random,greedy,ismcts:iters=50", "--seed", "4", "--reveal-all"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			code, stdout, stderr := cardlab(t, append([]string{"play"}, tt.args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			golden(t, tt.file, stdout)
		})
	}
	for _, tt := range []struct {
		file string
		args []string
	}{
		{"cards-goofspiel.golden", []string{"cards", "--rules", dir}},
		{"cards-goofspiel-md.golden", []string{"cards", "--game", "goofspiel", "--format", "md"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			code, stdout, stderr := cardlab(t, tt.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			golden(t, tt.file, stdout)
		})
	}
	// A ruleset directory and --game's default set are the same game.
	_, a, _ := cardlab(t, "play", "--rules", dir, "--seed", "9")
	_, b, _ := cardlab(t, "play", "--game", "goofspiel", "--players", "player,player", "--seed", "9")
	if a == "" || a != b {
		t.Errorf("--rules %s and --game goofspiel play different games:\n%s\n%s", dir, a, b)
	}
	if strings.Contains(a, "Prize deck") {
		t.Error("the prize deck's order is shown without --reveal-all")
	}
}

type goofspielPlay struct {
	Game      string   `json:"game"`
	Seed      uint64   `json:"seed"`
	Players   []string `json:"players"`
	Bots      []string `json:"bots"`
	PrizeDeck []int    `json:"prize_deck"`
	Turns     []struct {
		Turn   int     `json:"turn"`
		Prize  int     `json:"prize"`
		Pot    int     `json:"pot"`
		Bids   []int   `json:"bids"`
		Winner *string `json:"winner"`
		Points int     `json:"points"`
	} `json:"turns"`
	Final []struct {
		Player string  `json:"player"`
		Points int     `json:"points"`
		Prizes int     `json:"prizes"`
		Share  float64 `json:"share"`
	} `json:"final"`
	Winners []string `json:"winners"`
}

// The JSON trace adds up: every player bids each card once, the winner of
// a turn bid alone highest and took the pot, the points are the turns'.
func TestGoofspielPlayJSON(t *testing.T) {
	dir := initGoofspiel(t)
	for _, seats := range []string{"2", "3", "4"} {
		for _, ties := range []string{"discard", "carry"} {
			t.Run(seats+"-"+ties, func(t *testing.T) {
				corrupt(t, dir, "rules.yaml", "ties: discard", "ties: "+ties)
				defer corrupt(t, dir, "rules.yaml", "ties: "+ties, "ties: discard")
				code, stdout, stderr := cardlab(t, "play", "--rules", dir, "--seats", seats, "--bots", "greedy", "--seed", "11", "--json", "--reveal-all")
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				var g goofspielPlay
				dec := json.NewDecoder(strings.NewReader(stdout))
				dec.DisallowUnknownFields()
				if err := dec.Decode(&g); err != nil {
					t.Fatalf("%v\n%.300s", err, stdout)
				}
				n := len(g.Players)
				if g.Game != "goofspiel" || g.Seed != 11 || n != int(seats[0]-'0') || len(g.Bots) != n || len(g.Turns) != 13 || len(g.PrizeDeck) != 13 {
					t.Fatalf("header %s %d %v %v, %d turns, deck %v", g.Game, g.Seed, g.Players, g.Bots, len(g.Turns), g.PrizeDeck)
				}
				points := make([]int, n)
				used := make([][]int, n)
				carried := 0
				for i, tt := range g.Turns {
					if tt.Prize != g.PrizeDeck[i] || tt.Pot != tt.Prize+carried {
						t.Fatalf("turn %d: prize %d pot %d, deck %d, %d carried", tt.Turn, tt.Prize, tt.Pot, g.PrizeDeck[i], carried)
					}
					high, who := 0, -1
					for p, b := range tt.Bids {
						used[p] = append(used[p], b)
						switch {
						case b > high:
							high, who = b, p
						case b == high:
							who = -1
						}
					}
					carried = 0
					switch {
					case who >= 0:
						if tt.Winner == nil || *tt.Winner != g.Players[who] || tt.Points != tt.Pot {
							t.Fatalf("turn %d: bids %v, winner %v with %d", tt.Turn, tt.Bids, tt.Winner, tt.Points)
						}
						points[who] += tt.Pot
					case tt.Winner != nil || tt.Points != 0:
						t.Fatalf("turn %d: a tie (%v) won by %v", tt.Turn, tt.Bids, *tt.Winner)
					case ties == "carry":
						carried = tt.Pot
					}
				}
				share := 0.0
				for p, f := range g.Final {
					slices.Sort(used[p])
					for v := 1; v <= 13; v++ {
						if used[p][v-1] != v {
							t.Fatalf("%s bid %v", f.Player, used[p])
						}
					}
					if f.Points != points[p] {
						t.Errorf("%s: %d points, the turns give %d", f.Player, f.Points, points[p])
					}
					share += f.Share
				}
				if share < 0.999 || share > 1.001 || len(g.Winners) == 0 {
					t.Errorf("shares sum to %v, winners %v", share, g.Winners)
				}
			})
		}
	}
}

// Every command a Goofspiel ruleset goes through, its refusals and exit
// statuses.
func TestGoofspielCommands(t *testing.T) {
	dir := initGoofspiel(t)
	at := writeDefault(t)
	gs, _ := game.Lookup("goofspiel")
	schemas, err := gs.Schemas()
	if err != nil {
		t.Fatal(err)
	}
	scenario := scenarioPath("plain-power.yaml")
	broken := initGoofspiel(t)
	corrupt(t, broken, "rules.yaml", "cards: 13", "cardz: 13")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // in stdout
		stderr []string // in stderr
	}{
		{"play three seats by --players", []string{"play", "--rules", dir, "--players", "player,Player,player"}, 0, []string{": 3 players, seed 1, bots random, random, random\n", "\nWinner: ", "player 3"}, nil},
		{"play too many seats", []string{"play", "--rules", dir, "--seats", "5"}, 1, nil, []string{"--seats 5: the rules allow 2 to 4 players"}},
		{"play too many players", []string{"play", "--rules", dir, "--players", "player,player,player,player,player"}, 1, nil, []string{"--players names 5 players; the rules allow 2 to 4 players"}},
		{"play an unknown side", []string{"play", "--rules", dir, "--players", "starfleet,klingon"}, 1, nil, []string{`unknown player "starfleet" (valid: player)`}},
		{"play a bot Goofspiel lacks", []string{"play", "--rules", dir, "--bots", "strong"}, 2, nil, []string{`bots: unknown bot "strong" for Goofspiel (its bots: greedy, ismcts, random)`}},
		{"play --seats in Alpha Tactics", []string{"play", "--seats", "2"}, 1, nil, []string{"--seats plays a game whose every seat is the same side; Star Trek Conquest – Alpha Tactics has 4 factions: name them with --players"}},
		{"play --players and --seats", []string{"play", "--rules", dir, "--players", "player,player", "--seats", "2"}, 2, nil, []string{"--players and --seats cannot be used together"}},
		{"play --seats 0", []string{"play", "--rules", dir, "--seats", "0"}, 2, nil, []string{"--seats must be 1 or more"}},
		{"play an unknown game", []string{"play", "--game", "goofspeil"}, 2, nil, []string{`invalid --game: unknown game "goofspeil"; did you mean "goofspiel"?`}},
		{"play --game against the ruleset", []string{"play", "--game", "goofspiel", "--rules", at}, 1, nil, []string{"--game goofspiel, but ruleset " + at + " is a Star Trek Conquest – Alpha Tactics ruleset"}},
		{"play --game alphatactics", []string{"play", "--game", "alphatactics", "--players", "vulcan,romulan"}, 0, []string{"vulcan vs romulan, seed 1, bots random, random\n"}, nil},
		{"play a broken ruleset", []string{"play", "--rules", broken}, 1, nil, []string{"ruleset " + broken + " is invalid (run 'cardlab validate --rules " + broken + "' for every error):\n" + broken + "/rules.yaml:", `unknown key "cardz"`}},
		{"report --base of another game", []string{"report", "--rules", at, "--base", dir, "--out", filepath.Join(t.TempDir(), "r")}, 1, nil, []string{"--base: a report compares two versions of one game; the base is goofspiel, this ruleset alphatactics"}},
		{"score refuses", []string{"score", "--rules", dir, scenario}, 1, nil, []string{"cardlab score plays scenarios, and Goofspiel has none (a scenario is a position written down to score; 'cardlab play --rules " + dir + "' shows a whole game)"}},
		{"cards", []string{"cards", "--rules", dir}, 0, []string{"Goofspiel 1.0: 2 to 4 players; a tie for the highest bid discards the prize\n", "\nbid-13  Bid 13  13\n", "Prizes: 13 cards worth 91 points", "prize-13  Prize 13  13\n"}, nil},
		{"cards of the player", []string{"cards", "--game", "goofspiel", "--side", "player"}, 0, []string{"bid-1 "}, nil},
		{"cards md", []string{"cards", "--game", "goofspiel", "--format", "md"}, 0, []string{"# Goofspiel 1.0\n", "| `bid-7` | Bid 7 | 7 |\n", "## Prizes — 13 cards, 91 points\n"}, nil},
		{"cards of an unknown side", []string{"cards", "--rules", dir, "--faction", "klingon"}, 1, nil, []string{`unknown player "klingon" (valid: player)`}},
		{"cards --side and --faction", []string{"cards", "--side", "a", "--faction", "a"}, 2, nil, []string{"--faction and --side are the same flag"}},
		{"effects of a game without any", []string{"effects", "--rules", dir}, 0, []string{"Goofspiel has no effect handlers: its cards carry no effects, so a ruleset binds none.\n"}, nil},
		{"effects --json", []string{"effects", "--game", "goofspiel", "--json"}, 0, []string{"{\n  \"effects\": []\n}\n"}, nil},
		{"effects named", []string{"effects", "--game", "goofspiel", "bomb"}, 1, nil, []string{`unknown effect handler "bomb": Goofspiel has no effect handlers`}},
		{"effects of Alpha Tactics by --game", []string{"effects", "--game", "alphatactics", "bomb"}, 0, []string{"\nbomb ("}, nil},
		{"schema", []string{"schema", "--game", "goofspiel", "--kind", "rules"}, 0, []string{string(schemas["rules.schema.json"])}, nil},
		{"schema of a ruleset's game", []string{"schema", "--rules", dir, "--kind", "rules"}, 0, []string{`"urn:cardlab:schema:goofspiel-rules"`}, nil},
		{"effects of no folder", []string{"effects", "--rules", filepath.Join(dir, "nope")}, 1, nil, []string{"--rules " + filepath.Join(dir, "nope") + ": no such directory"}},
		{"schema of a folder without rules.yaml", []string{"schema", "--rules", t.TempDir(), "--kind", "rules"}, 1, nil, []string{": not a ruleset: rules.yaml not found"}},
		{"schema of a broken ruleset's game", []string{"schema", "--rules", broken, "--kind", "rules"}, 0, []string{`"urn:cardlab:schema:goofspiel-rules"`}, nil},
		{"schema kind Goofspiel lacks", []string{"schema", "--game", "goofspiel", "--kind", "deck"}, 2, nil, []string{`invalid --kind "deck" (want rules, the files of Goofspiel)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cardlab(t, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %.300s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if code != 0 && stdout != "" {
				t.Errorf("stdout: %.300s", stdout)
			}
			for _, w := range tt.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range tt.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}

	// schema --out writes the game's one schema, and only it.
	out := filepath.Join(t.TempDir(), "schemas")
	if code, _, stderr := cardlab(t, "schema", "--rules", dir, "--out", out); code != 0 {
		t.Fatalf("schema --out: exit %d: %s", code, stderr)
	}
	ents, err := os.ReadDir(out)
	if err != nil || len(ents) != 1 || ents[0].Name() != "rules.schema.json" {
		t.Fatalf("schema --out wrote %v (%v)", ents, err)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "rules.schema.json")); string(data) != string(schemas["rules.schema.json"]) {
		t.Error("schema --out wrote another schema")
	}

	// cards --json: everything, the side filter leaving out the prizes.
	for _, side := range []string{"", "player"} {
		args := []string{"cards", "--rules", dir, "--json"}
		if side != "" {
			args = append(args, "--side", side)
		}
		code, stdout, stderr := cardlab(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var res struct {
			Game, Name, Version, Ties string
			Players                   struct{ Min, Max int }
			Hand, Prizes              []struct {
				ID    string
				Value int
			}
			PrizeTotal int `json:"prize_total"`
		}
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatal(err)
		}
		wantPrizes := 13
		if side != "" {
			wantPrizes = 0
		}
		if res.Game != "goofspiel" || res.Ties != "discard" || res.Players.Min != 2 || res.Players.Max != 4 || len(res.Hand) != 13 ||
			res.Hand[12].Value != 13 || len(res.Prizes) != wantPrizes || res.PrizeTotal != 91 {
			t.Errorf("%v: %+v", args, res)
		}
	}
}

// TestSimulateGoofspielShardLine: another game's simulate summary says
// which shard it holds, as Alpha Tactics' does (one runLine for both).
func TestSimulateGoofspielShardLine(t *testing.T) {
	dir := t.TempDir() + "/gs"
	if code, _, stderr := cardlab(t, "init", "--game", "goofspiel", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := cardlab(t, "simulate", "--rules", dir, "--bots", "random", "--games", "20", "--shard", "2/2")
	if code != 0 || !strings.Contains(stdout, "10 games: 1 lineup × 20, bots random, seed 1, shard 2 of 2\n") {
		t.Errorf("exit %d: %s\n%s", code, stderr, stdout)
	}
}
