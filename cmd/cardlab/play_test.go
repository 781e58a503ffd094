package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update rewrites golden files: go test ./cmd/cardlab/ -run Golden -update
var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/cardlab/ -run Golden -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\ngot:  %s\nwant: %s\n(after an intended change run go test ./cmd/cardlab/ -run Golden -update)", name, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: %d lines, want %d", name, len(gl), len(wl))
	}
}

func TestPlayGolden(t *testing.T) {
	tests := []struct{ file, players string }{
		{"play-2p.golden", "starfleet,klingon"},
		{"play-3p.golden", "starfleet,romulan,klingon"},
		{"play-4p.golden", "starfleet,vulcan,romulan,klingon"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			code, stdout, stderr := cardlab(t, "play", "--players", tt.players, "--seed", "1")
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			golden(t, tt.file, stdout)
		})
	}
}

func TestPlayDeterministic(t *testing.T) {
	args := []string{"play", "--players", "vulcan,klingon,romulan", "--seed", "42", "--reveal-all"}
	_, a, _ := cardlab(t, args...)
	_, b, _ := cardlab(t, args...)
	if a == "" || a != b {
		t.Fatal("the same seed gave different games")
	}
	_, c, _ := cardlab(t, "play", "--players", "vulcan,klingon,romulan", "--seed", "43", "--reveal-all")
	if c == a {
		t.Error("seeds 42 and 43 gave the same game")
	}
	// One spec for all seats is the same as one per seat.
	_, d, _ := cardlab(t, append(args, "--bots", "random,random,random")...)
	if strings.SplitN(d, "\n", 2)[1] != strings.SplitN(a, "\n", 2)[1] {
		t.Error("--bots random and --bots random,random,random differ")
	}
}

func TestPlayText(t *testing.T) {
	code, out, _ := cardlab(t, "play", "--players", "starfleet,klingon", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"starfleet vs klingon, seed 3, bots random, random\n",
		"\nRound 1: starfleet begins\n", "  row 1: ", "  turn 1: starfleet places a face-down card in row ",
		"is revealed", "Reveal Phase", "  Scoring\n", " wins (", "\nFinal score\n", "TARGET VP", "PLANET BONUS",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q", want)
		}
	}
	if !strings.Contains(out, "\nWinner: ") && !strings.Contains(out, "\nShared victory: ") {
		t.Error("no winner line")
	}
	if strings.Contains(out, " face down in row") {
		t.Error("a face-down card is named without --reveal-all")
	}
	_, all, _ := cardlab(t, "play", "--players", "starfleet,klingon", "--seed", "3", "--reveal-all")
	if !strings.Contains(all, " face down in row") || strings.Contains(all, "a face-down card in row") {
		t.Error("--reveal-all does not name the face-down cards")
	}
}

type playJSON struct {
	Seed    uint64   `json:"seed"`
	Players []string `json:"players"`
	Bots    []string `json:"bots"`
	Events  []struct {
		Kind   string  `json:"kind"`
		Round  int     `json:"round"`
		Player *string `json:"player"`
		Row    *int    `json:"row"`
		Pos    *int    `json:"pos"`
		Card   *string `json:"card"`
		Target *string `json:"target"`
		Value  int     `json:"value"`
		Reason *string `json:"reason"`
		FaceUp bool    `json:"face_up"`
	} `json:"events"`
	Final []struct {
		Player      string   `json:"player"`
		TargetVP    int      `json:"target_vp"`
		BonusVP     int      `json:"bonus_vp"`
		PlanetBonus int      `json:"planet_bonus"`
		Total       int      `json:"total"`
		Planets     int      `json:"planets"`
		Targets     []string `json:"targets"`
		Share       float64  `json:"share"`
	} `json:"final"`
	Winners []string `json:"winners"`
}

func playJSONOf(t *testing.T, args ...string) playJSON {
	t.Helper()
	code, out, stderr := cardlab(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var g playJSON
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		t.Fatalf("JSON: %v\n%.500s", err, out)
	}
	return g
}

func TestPlayJSON(t *testing.T) {
	g := playJSONOf(t, "play", "--players", "starfleet,romulan", "--seed", "5", "--json")
	if g.Seed != 5 || strings.Join(g.Players, ",") != "starfleet,romulan" || strings.Join(g.Bots, ",") != "random,random" {
		t.Errorf("header %d %v %v", g.Seed, g.Players, g.Bots)
	}
	if len(g.Final) != 2 || len(g.Winners) == 0 {
		t.Fatalf("final %+v winners %v", g.Final, g.Winners)
	}
	targets, share := 0, 0.0
	for _, f := range g.Final {
		if f.Total != f.TargetVP+f.BonusVP+f.PlanetBonus {
			t.Errorf("%s: total %d is not the sum of its parts", f.Player, f.Total)
		}
		targets += len(f.Targets)
		share += f.Share
	}
	if targets == 0 || share < 0.999 || share > 1.001 {
		t.Errorf("%d targets won, shares sum to %v", targets, share)
	}
	kinds := map[string]int{}
	hiddenPlaced := 0
	for _, e := range g.Events {
		kinds[e.Kind]++
		if e.Round < 1 {
			t.Errorf("event %s in round %d", e.Kind, e.Round)
		}
		if e.Row != nil && *e.Row < 1 || e.Pos != nil && *e.Pos < 1 {
			t.Errorf("event %s with row/pos not counted from 1", e.Kind)
		}
		switch e.Kind {
		case "drawn", "bid":
			if e.Card != nil {
				t.Errorf("%s event shows card %s", e.Kind, *e.Card)
			}
		case "placed":
			if !e.FaceUp {
				hiddenPlaced++
				if e.Card != nil {
					t.Errorf("face-down placement shows card %s", *e.Card)
				}
			}
		case "revealed", "discarded":
			if e.Card == nil {
				t.Errorf("%s event without its card", e.Kind)
			}
		case "target_laid", "row_won":
			if e.Target == nil || e.Row == nil {
				t.Errorf("%s event without target or row", e.Kind)
			}
		}
	}
	for _, k := range []string{"round_start", "target_laid", "drawn", "placed", "revealed", "row_won", "round_end", "game_end"} {
		if kinds[k] == 0 {
			t.Errorf("no %s event", k)
		}
	}
	if hiddenPlaced == 0 {
		t.Error("no face-down placement")
	}

	all := playJSONOf(t, "play", "--players", "starfleet,romulan", "--seed", "5", "--json", "--reveal-all")
	if len(all.Events) != len(g.Events) {
		t.Fatalf("--reveal-all changed the game: %d events, %d without", len(all.Events), len(g.Events))
	}
	for _, e := range all.Events {
		if (e.Kind == "placed" || e.Kind == "drawn") && e.Card == nil {
			t.Errorf("--reveal-all: %s event without its card", e.Kind)
		}
	}
}

func TestPlayErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown faction", []string{"--players", "starfleet,klingons"}, 1, `unknown faction "klingons"; did you mean "klingon"?`},
		{"faction twice", []string{"--players", "klingon,klingon"}, 1, `faction "klingon" is listed twice in --players`},
		{"too few", []string{"--players", "klingon"}, 1, "--players names 1 faction; the rules allow 2 to 4 players"},
		{"too many", []string{"--players", "starfleet,vulcan,romulan,klingon,klingon"}, 1, "listed twice"},
		{"unknown bot", []string{"--players", "starfleet,klingon", "--bots", "mcts"}, 2, `unknown bot "mcts" for Star Trek Conquest – Alpha Tactics (its bots: greedy, ismcts, random, strong)`},
		{"bots count", []string{"--players", "starfleet,klingon", "--bots", "random,random,random"}, 1, "names 3 bots for 2 players"},
		{"no players", nil, 2, "play needs --players"},
		{"empty faction", []string{"--players", "starfleet,,klingon"}, 2, "empty side name"},
		{"bad seed", []string{"--players", "starfleet,klingon", "--seed", "-1"}, 2, `--seed must be a whole number of 0 or more, got "-1"`},
		{"argument", []string{"--players", "starfleet,klingon", "extra"}, 2, "takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cardlab(t, append([]string{"play"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderr, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout: %.200s", stdout)
			}
		})
	}
}
