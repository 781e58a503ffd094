package reports

import (
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
)

// The findings: worst first, the tolerance band decides what counts as
// balanced, and the verdict names the worst faction with its cards.
func TestFindings(t *testing.T) {
	d := fixtureData(false)
	m := newModel(d, Options{})
	if len(m.found) == 0 || !strings.HasPrefix(m.found[0].Text, "Romulan wins 59.3%") {
		t.Fatalf("the worst finding is not first: %+v", m.found)
	}
	for i := 1; i < len(m.found); i++ {
		if m.found[i].Sev > m.found[i-1].Sev {
			t.Errorf("finding %d (%q) is worse than the one before it", i, m.found[i].Text)
		}
	}
	text := func(o Options) string {
		var b strings.Builder
		for _, f := range newModel(d, o).found {
			b.WriteString(f.Text + "\n")
		}
		return b.String()
	}
	if s := text(Options{}); !strings.Contains(s, "Vulcan wins 47.0% of its games: 3.0 points below") {
		t.Errorf("with ±2 points Vulcan (−3.0) is not out of balance:\n%s", s)
	}
	if s := text(Options{Tolerance: 0.05}); strings.Contains(s, "Vulcan wins") || !strings.Contains(s, "Balanced (within ±5 points of the fair share): Starfleet, Klingon, Vulcan.") {
		t.Errorf("with ±5 points Vulcan and Klingon should count as balanced:\n%s", s)
	}
	if s := text(Options{Tolerance: -1}); !strings.Contains(s, "Starfleet wins 48.2% of its games: 1.8 points below") {
		t.Errorf("without a band Starfleet (−1.8, significant) should be out of balance:\n%s", s)
	}
	if v := m.verdict(); !strings.HasPrefix(v, "Romulan is 9.3 points above fair share [+8.0, +10.6]; its strongest cards for their slot: Thalaron Pulse (+3.1 pts), ") {
		t.Errorf("verdict %q", v)
	}
	// Correlational figures never make a card finding.
	old := fixtureData(false)
	for i := range old.Cards {
		old.Cards[i].Value = nil
	}
	om := newModel(old, Options{})
	if om.metric.Causal {
		t.Fatalf("without values the metric is %q", om.metric.Key)
	}
	for _, f := range om.found {
		if f.Kind == "card" {
			t.Errorf("a correlational card finding: %q", f.Text)
		}
	}
	if !strings.Contains(om.verdict(), "Romulan is 9.3 points above fair share") || strings.Contains(om.verdict(), "cards") {
		t.Errorf("verdict without values: %q", om.verdict())
	}
}

// Holm: a family's p-values are adjusted together, so a deviation that
// passes alone can fail among many.
func TestHolmFamily(t *testing.T) {
	w := func(rate float64) analysis.WinStats {
		return analysis.WinStats{Games: 400, WinRate: rate, CI95: [2]float64{rate - 0.049, rate + 0.049}}
	}
	one := []*deviation{newDeviation(w(0.55), 0.5)}
	holm(one)
	many := []*deviation{newDeviation(w(0.55), 0.5)}
	for i := 0; i < 9; i++ {
		many = append(many, newDeviation(w(0.5), 0.5))
	}
	holm(many)
	if !one[0].sig() || many[0].sig() {
		t.Errorf("p alone %.4f (adjusted %.4f), among ten %.4f: want significant alone only", one[0].p, one[0].pAdj, many[0].pAdj)
	}
}
