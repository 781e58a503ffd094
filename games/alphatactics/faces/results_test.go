package faces_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/games/alphatactics/faces"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// ReadValues decodes results.json by its JSON names, not with analysis's
// types (analysis imports the game): a report analysis writes must read
// back with every value, interval and play hash the face and cards.csv
// print.
func TestReadsAnalysisResults(t *testing.T) {
	rs, err := rules.LoadDir("../../../testdata/rulesets/minimal")
	if err != nil {
		t.Fatal(err)
	}
	c := &rs.Cards[0]
	want := analysis.CardValue{Power: 9.43, PowerCI95: [2]float64{7.91, 10.84}, Pts: 3.1, CardHash: rs.PlayHash(c)}
	rep := analysis.Report{ToolVersion: "test", Ruleset: analysis.RulesetInfo{Hash: rs.Hash},
		Cards: []analysis.CardStats{{ID: c.ID, Value: &want}, {ID: rs.Cards[1].ID}}}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "results.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := faces.ReadValues(file, rs)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := v.Cards[c.ID]
	if !ok || got.Power != want.Power || got.PowerCI95 != want.PowerCI95 || got.CardHash != want.CardHash ||
		!v.HashMatches || v.Found != 1 || len(v.Stale) != 0 || v.Lines[c.ID] != "plays like 9.4 power [7.9, 10.8]" {
		t.Errorf("read back %+v (found %d, stale %v, hash matches %v, line %q); want %+v",
			got, v.Found, v.Stale, v.HashMatches, v.Lines[c.ID], want)
	}
}
