package reports

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
)

// TestChartPlaysLikeDiagonal: the dashed diagonal the chart's note promises
// is drawn — echarts drops a markLine whose end lies outside an axis, so
// both axes must reach its end (issue 25 item 3) — and the note states the
// price each faction's power is read at.
func TestChartPlaysLikeDiagonal(t *testing.T) {
	for _, tweak := range []func(d *Data){
		func(*Data) {},
		// A card that plays far above every printed power.
		func(d *Data) { d.Cards[0].Value.Power = 11.4 },
		func(d *Data) { d.Cards[0].Value.Power = -2.6 },
	} {
		d := fixtureData(false)
		tweak(d)
		m := newModel(d, Options{})
		cv, err := m.chartPlaysLike()
		if err != nil {
			t.Fatal(err)
		}
		var opt struct {
			XAxis  []map[string]any `json:"xAxis"`
			YAxis  []map[string]any `json:"yAxis"`
			Series []struct {
				Data     []struct{ Value []float64 } `json:"data"`
				MarkLine struct {
					Data [][]struct {
						Coord []float64 `json:"coord"`
					} `json:"data"`
				} `json:"markLine"`
			} `json:"series"`
		}
		if err := json.Unmarshal([]byte(cv.Option), &opt); err != nil {
			t.Fatal(err)
		}
		line := opt.Series[0].MarkLine.Data
		if len(line) != 1 || len(line[0]) != 2 {
			t.Fatalf("no diagonal: %+v", opt.Series[0].MarkLine)
		}
		xmax, okx := opt.XAxis[0]["max"].(float64)
		ymax, oky := opt.YAxis[0]["max"].(float64)
		ymin, _ := opt.YAxis[0]["min"].(float64)
		for _, end := range line[0] {
			if !okx || !oky || end.Coord[0] > xmax || end.Coord[1] > ymax || end.Coord[1] < ymin {
				t.Fatalf("the diagonal ends at %v, outside the axes (x up to %v, y %v to %v)", end.Coord, opt.XAxis[0]["max"], ymin, opt.YAxis[0]["max"])
			}
		}
		for _, s := range opt.Series {
			for _, p := range s.Data {
				if p.Value[0] > xmax || p.Value[1] > ymax || p.Value[1] < ymin {
					t.Fatalf("a card at %v lies outside the axes", p.Value)
				}
			}
		}
		if !strings.Contains(cv.Note, "1 power = 1.30 pts [1.10, 1.50] for Starfleet") || !strings.Contains(cv.Note, "at this ruleset's price") {
			t.Errorf("the note does not state the price of power: %s", cv.Note)
		}
	}
}

// TestPowerReadingSaysItsUnit: a card's power is said with its conversion
// and whose price it is (the base's with --base), next to it.
func TestPowerReadingSaysItsUnit(t *testing.T) {
	d := fixtureData(true)
	d.CardValueDesign = &analysis.CardValueDesign{PowerUnitFrom: map[string]string{"romulan": "base ruleset Fixture 0.9", "klingon": analysis.UnitHere}}
	m := newModel(d, Options{})
	got := map[string]string{}
	for _, c := range m.cards {
		if c.Value != nil {
			got[c.Faction] = m.powerReading(c)
		}
	}
	if !strings.Contains(got["romulan"], "1 power = 1.30 pts at the price of the base ruleset Fixture 0.9") ||
		!strings.Contains(got["klingon"], "1 power = 1.30 pts at this ruleset's price") {
		t.Fatalf("power readings: %q", got)
	}
}

// TestPowerReadingInCurrency: a game whose unit of value is a step of its
// currency (a step of 10 MP, say) has its cards read in the currency — "plays
// like a 106-MP card" — the price of the step said as "10 MP = …", and the
// plays-like chart drawn in the currency on both axes (issue 28).
func TestPowerReadingInCurrency(t *testing.T) {
	d := fixtureData(false)
	d.CardValueDesign = &analysis.CardValueDesign{Unit: &analysis.ValueUnit{Name: "step of 10 MP", Plural: "steps of 10 MP", Short: "MP/10", Scale: 10, Currency: "MP"}}
	d.Cards[0].Value.Power, d.Cards[0].Value.PowerCI95 = 10.63, [2]float64{6.42, 14.71}
	m := newModel(d, Options{})
	var c0 *cardView
	for _, c := range m.cards {
		if c.ID == d.Cards[0].ID {
			c0 = c
		}
	}
	got := m.powerReading(c0)
	want := fmt.Sprintf("a 106-MP card [64, 147] (printed %d MP), 10 MP = 1.30 pts at this ruleset's price", c0.Info.Power*10)
	if got != want {
		t.Errorf("reading %q, want %q", got, want)
	}
	if n := m.priceNote(); !strings.HasPrefix(n, "10 MP = 1.30 pts") || strings.Contains(n, "×") {
		t.Errorf("price note %q", n)
	}
	cv, err := m.chartPlaysLike()
	if err != nil {
		t.Fatal(err)
	}
	opt := string(cv.Option)
	if !strings.Contains(cv.Title, "Printed MP against the MP") || !strings.Contains(opt, `"printed MP"`) || !strings.Contains(opt, `"plays like, MP"`) {
		t.Errorf("chart title %q, option %s", cv.Title, opt)
	}
	if gc := m.galleryCard(c0); gc.Power != c0.Info.Power*10 {
		t.Errorf("the gallery's badge %d, want the printed %d MP", gc.Power, c0.Info.Power*10)
	}
	if !strings.Contains(opt, "106.3") {
		t.Errorf("the chart does not draw 10.63 steps as 106.3 MP: %s", cv.Option)
	}
	// A step that rounds the printed value (a 63-MP card is 6 steps of
	// 10): the exact figure the game gives (game.PrintedColumn) is what
	// the reading, the badge and the chart's x say.
	c0.Info.Printed = 63
	if got := m.powerReading(c0); !strings.Contains(got, "(printed 63 MP)") {
		t.Errorf("reading %q: want the exact printed 63 MP", got)
	}
	if gc := m.galleryCard(c0); gc.Power != 63 || gc.Badge != "63" {
		t.Errorf("the gallery's badge %d %q, want 63", gc.Power, gc.Badge)
	}
	if cv, err := m.chartPlaysLike(); err != nil || !strings.Contains(string(cv.Option), ",63]") {
		t.Errorf("the chart does not place the card at 63 MP: %v %s", err, cv.Option)
	}
}
