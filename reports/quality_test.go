package reports

import (
	"bytes"
	"context"
	"html"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/goofspiel"
	"github.com/xuri/excelize/v2"
)

// The "Game quality" section in the page, summary.md and the workbook, in
// each game's words; a result made before it has none anywhere.
func TestQualitySection(t *testing.T) {
	g := goofspiel.Default()
	res, err := analysis.Run(context.Background(), analysis.Config{Game: g, Matchups: [][]string{{"player", "player"}},
		Games: 512, Seed: 3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	gs := &Data{Report: res.Report("test"), Meta: &Meta{Command: "cardlab report", Catalog: CatalogOf(g)}}
	for _, tc := range []struct {
		name  string
		d     *Data
		words []string
	}{
		{"alphatactics", testData(t, rules.Default(), 130), []string{" rounds (sd ", " VP (sd ", "4 sampled games (every 256th game)"}},
		{"goofspiel", gs, []string{"13.00 turns (sd 0.00)", " points (sd ", "2 sampled games (every 256th game)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var md, page, book bytes.Buffer
			if err := WriteMarkdown(&md, tc.d, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			if err := WriteHTML(&page, tc.d, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			if err := WriteXLSX(&book, tc.d, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			sec := md.String()
			i := strings.Index(sec, "## Game quality")
			if i < 0 {
				t.Fatalf("summary.md has no Game quality section:\n%s", sec)
			}
			sec = sec[i:]
			for _, fig := range []string{"game length", "decisions per game", "starter's advantage (2 players)", "draws (shared victories)",
				"score margin", "lead changes per game", "lead change (Ludii)", "decisiveness (Ludii)"} {
				if !strings.Contains(sec, "- "+mdStart(fig)+": ") {
					t.Errorf("summary.md: no %q", fig)
				}
				if !strings.Contains(page.String(), ">"+html.EscapeString(fig)+"</td>") {
					t.Errorf("index.html: no %q", fig)
				}
			}
			for _, w := range tc.words {
				if !strings.Contains(page.String(), w) {
					t.Errorf("index.html: no %q", w)
				}
			}
			f, err := excelize.OpenReader(&book)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := f.GetRows(SheetQuality)
			if err != nil || len(rows) != 9 {
				t.Fatalf("sheet %q: %d rows, %v", SheetQuality, len(rows), err)
			}
			if rows[1][0] != "game length" || rows[2][0] != "decisions per game" {
				t.Errorf("sheet rows %q", rows[1:3])
			}
		})
	}
	old := fixtureData(false)
	if old.Report.Quality != nil {
		t.Fatal("the fixture has quality figures")
	}
	var md, page, book bytes.Buffer
	if err := WriteMarkdown(&md, old, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&page, old, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if err := WriteXLSX(&book, old, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "Game quality") || strings.Contains(page.String(), "Game quality") {
		t.Error("a result without the figures shows a Game quality section")
	}
	f, err := excelize.OpenReader(&book)
	if err != nil {
		t.Fatal(err)
	}
	if i, _ := f.GetSheetIndex(SheetQuality); i >= 0 {
		t.Error("a result without the figures has a Game quality sheet")
	}
}
