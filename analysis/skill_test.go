package analysis

import (
	"context"
	"testing"
)

func TestSkillLevels(t *testing.T) {
	rs := loadDefault(t)
	games := 60
	if testing.Short() {
		games = 20
	}
	res, err := Skill(context.Background(), SkillConfig{Ruleset: rs, Levels: []string{"random", "greedy"},
		PairedConfig: PairedConfig{Matchups: allPairs(rs), Games: games, Seed: 2, Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Factions) != 4 || len(res.Steps) != 1 || len(res.Cards) != len(rs.Cards) {
		t.Fatalf("factions %d steps %d cards %d", len(res.Factions), len(res.Steps), len(res.Cards))
	}
	for _, f := range res.Factions {
		if len(f.Levels) != 2 || f.Levels[0].Games != int64(3*games) || f.Levels[0].Rank < 1 {
			t.Errorf("faction %+v", f)
		}
	}
	for _, d := range res.Steps[0].Factions {
		if d.Games != int64(3*games) {
			t.Errorf("step %+v", d)
		}
	}
	for _, rc := range res.RankChanges {
		if rc.RankFrom == rc.RankTo || rc.Note == "" {
			t.Errorf("rank change %+v", rc)
		}
	}
	if _, err := Skill(context.Background(), SkillConfig{Ruleset: rs, Levels: []string{"greedy"},
		PairedConfig: PairedConfig{Matchups: allPairs(rs), Games: 1}}); err == nil {
		t.Error("one level accepted")
	}
}
