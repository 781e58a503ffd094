package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
)

func TestSkillCommand(t *testing.T) {
	code, stdout, stderr := cardlab(t, "skill", "--players", "starfleet,klingon", "--games", "40", "--workers", "2", "--json")
	if code != 0 {
		t.Fatalf("skill: exit %d: %s", code, stderr)
	}
	var res analysis.SkillResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Levels, ",") != "greedy,strong" || len(res.Factions) != 2 || len(res.Steps) != 1 {
		t.Errorf("skill result: levels %v, %d factions, %d steps", res.Levels, len(res.Factions), len(res.Steps))
	}
	if res.SettleTolerance != 0.03 {
		t.Errorf("settle tolerance %v, want 0.03", res.SettleTolerance)
	}
	for _, f := range res.Factions {
		if s := f.Settle.State; s != analysis.SettleSettled && s != analysis.SettleMoving && s != analysis.SettleUnresolved {
			t.Errorf("%s: settle state %q", f.Faction, s)
		}
	}
	code, stdout, _ = cardlab(t, "skill", "--players", "starfleet,klingon", "--games", "20")
	if code != 0 || !strings.Contains(stdout, "greedy → strong") || !strings.Contains(stdout, "Rank changes") ||
		!strings.Contains(stdout, "Where each faction's share stops moving (a step within ±3 points") {
		t.Errorf("skill tables: exit %d\n%s", code, stdout)
	}
}

func TestSkillErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"skill", "--bots", "greedy"}, 2, "at least two levels"},
		{[]string{"skill", "--bots", "greedy,greedy"}, 2, "twice"},
		{[]string{"skill", "--bots", "greedy,wizard"}, 2, "unknown bot"},
		{[]string{"skill", "--settle", "0"}, 2, "--settle 0: a band in points"},
		{[]string{"skill", "--settle", "100"}, 2, "--settle 100: a band in points"},
	} {
		code, _, stderr := cardlab(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, stderr, c.msg)
		}
	}
	if rankOrdinal(1) != "1st" || rankOrdinal(12) != "12th" || rankOrdinal(22) != "22nd" || rankOrdinal(31) != "31st" {
		t.Error("rankOrdinal")
	}
}

// TestSkillGoofspiel: skill takes another game's ruleset, compares its
// seats (every seat plays the one side), defaults to random and the game's
// own default bot, and refuses a bot the game has not got.
func TestSkillGoofspiel(t *testing.T) {
	dir := initGoofspiel(t)
	code, stdout, stderr := cardlab(t, "skill", "--rules", dir, "--bots", "random,greedy", "--games", "40", "--json")
	if code != 0 {
		t.Fatalf("skill: exit %d: %s", code, stderr)
	}
	var res analysis.SkillResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Ruleset.Game != "goofspiel" || len(res.Factions) != 2 || res.Factions[1].Faction != "seat 2" ||
		len(res.Steps) != 1 || res.Factions[0].Levels[1].WinRate != 0.5 {
		t.Errorf("skill result: %+v", res)
	}
	code, stdout, stderr = cardlab(t, "skill", "--rules", dir, "--games", "10")
	if code != 0 || !strings.Contains(stdout, "Skill levels random → ismcts:iters=300") ||
		!strings.Contains(stdout, "Seats: win % [95% CI]") || !strings.Contains(stdout, "Where each seat's share") ||
		strings.Contains(stdout, "faction") || strings.Contains(stdout, "oh_iwd") {
		t.Errorf("skill tables: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = cardlab(t, "skill", "--rules", dir, "--bots", "random,strong", "--games", "2")
	if code != 2 || !strings.Contains(stderr, `unknown bot "strong" for Goofspiel`) {
		t.Errorf("strong for Goofspiel: exit %d, %s", code, stderr)
	}
}

// TestSkillSpacetraceTurnOrder: on a mirror whose games say who began,
// skill compares the starting seat with the seat after it (seat 1 against
// seat 2 would average the drawn starter's advantage away), and says so.
func TestSkillSpacetraceTurnOrder(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := cardlab(t, "init", "--game", "spacetrace", "--ruleset", "spacetrace-first", dir+"/st"); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	code, stdout, stderr := cardlab(t, "skill", "--rules", dir+"/st", "--bots", "random,greedy", "--games", "60")
	if code != 0 || !strings.Contains(stdout, "Seats in turn order (the starting seat: the seat that began each game)") ||
		!strings.Contains(stdout, "  starting seat  ") || !strings.Contains(stdout, "  2nd in turn  ") || strings.Contains(stdout, "seat 1") {
		t.Errorf("skill tables: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = cardlab(t, "skill", "--rules", dir+"/st", "--bots", "random,greedy", "--games", "60", "--json")
	var res analysis.SkillResult
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil || res.Compared != analysis.ComparedTurnOrder {
		t.Errorf("skill --json: exit %d, %v, compared %q", code, err, res.Compared)
	}
}
