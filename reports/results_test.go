package reports

import (
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestDocumentChecksumLeavesOutGenerated: two runs of one report a minute
// apart (or its shards merged later) have one document checksum; any other
// field of Meta still changes it.
func TestDocumentChecksumLeavesOutGenerated(t *testing.T) {
	d := verifiedData(t, rules.Default())
	if d.Meta == nil {
		d.Meta = &Meta{}
	}
	c := *d
	m := *d.Meta
	m.Generated = "2030-01-01T00:00:00Z"
	c.Meta = &m
	if c.Sum() != d.Sum() {
		t.Error("when the games were played changes the document checksum")
	}
	m.Command = m.Command + " --seed 2"
	if c.Sum() == d.Sum() {
		t.Error("the command does not change the document checksum")
	}
	if _, err := Parse("results.json", resultsJSON(t, &c)); err != nil {
		t.Errorf("a results.json of another time is refused: %v", err)
	}
}
