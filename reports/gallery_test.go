package reports

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/eclipse"
	"github.com/cardlab/cardlab/games/goofspiel"
	"github.com/cardlab/cardlab/games/spacetrace"
	"github.com/cardlab/cardlab/internal/browser"
)

// gameData plays a few games of rs's first lineup (its first two sides, or
// its first side twice where it mirrors) for the gallery's figures.
func gameData(t *testing.T, rs game.Ruleset, games int) *Data {
	t.Helper()
	sides := rs.Sides()
	lineup := []string{sides[0].ID, sides[0].ID}
	if !rs.Mirror() && len(sides) > 1 {
		lineup[1] = sides[1].ID
	}
	res, err := analysis.Run(context.Background(), analysis.Config{Game: rs, Matchups: [][]string{lineup},
		Games: games, Seed: 5, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return &Data{Report: res.Report("test"), Meta: &Meta{Command: "cardlab report", Catalog: CatalogOf(rs)}}
}

// atRows are Alpha Tactics' own card figures: rows, power and effects.
var atRows = []string{"Row won", "Mean power", "Fired / blocked / fizzled", "Rows scored in effect / blocked",
	"Scored applications / blocked", "Used / to no effect"}

// The gallery of every game: the face its game prints (badge, type line,
// text), rows only for figures the game records, under the names of the
// Counts tables as a mean a game; Alpha Tactics' own figures on Alpha
// Tactics' cards alone.
func TestGalleryRowsPerGame(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    func(t *testing.T) *Data
		// card is a card of the gallery, its badge, badge word and type
		// line; rows are figures it must show, with their values.
		card, badge, sub, typeline string
		rows                       map[string]string
		atRows                     bool
	}{
		{name: "alphatactics", d: func(t *testing.T) *Data { return testData(t, rules.Default(), 40) },
			card: "Vor'Cha", atRows: true},
		{name: "spacetrace", d: func(t *testing.T) *Data { return gameData(t, spacetrace.Default(), 200) },
			card: "Fighters", badge: "100", sub: "MP", typeline: "Ship · class I · 100 × 1/1 (100/100)",
			rows: map[string]string{"Played a game": "", "Wrecked a game": "", "Discarded (3 cards) a game": "", "MP paid or gained a game": ""}},
		{name: "goofspiel", d: func(t *testing.T) *Data { return gameData(t, goofspiel.Default(), 200) },
			card: "Bid 1", badge: "1", typeline: "Bid card · Player 1 · hand of 13",
			// every bid card is bid once by each of the two players in
			// every game
			rows: map[string]string{"Bid a game": "2.00", "Took the prize a game": "", "Points taken a game": "", "Prize values bid on a game": ""}},
		{name: "eclipse", d: func(t *testing.T) *Data { return gameData(t, eclipse.Default(), 100) },
			// a part tile's badge is its energy, as printed
			card: "Ion Cannon", badge: "−1", sub: "energy", typeline: "Cannon · 1 yellow die"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d(t)
			var page bytes.Buffer
			if err := WriteGallery(&page, d, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			m := newModel(d, Options{Now: testNow})
			gal := m.gallery()
			if !slices.ContainsFunc(m.rep.Cards, func(k analysis.CardStats) bool { return k.Games > 0 }) {
				gal = m.catalogGallery()
			}
			if len(gal) == 0 {
				t.Fatal("the gallery is empty")
			}
			var found *galleryCard
			for _, g := range gal {
				if len(g.Pages) == 0 {
					t.Errorf("%q: a heading without cards", g.Name)
				}
				for _, p := range g.Pages {
					for i := range p {
						gc := &p[i]
						if gc.Name == tc.card && found == nil {
							found = gc
						}
						if !gc.HasPower && tc.name != "alphatactics" {
							t.Errorf("%s: no badge, though its game prints one", gc.Name)
						}
						for _, f := range gc.Figures {
							if slices.Contains(atRows, f.Label) != tc.atRows && slices.Contains(atRows, f.Label) {
								t.Errorf("%s shows %q = %q, a figure this game does not record", gc.Name, f.Label, f.Value)
							}
							if strings.Contains(f.Label, "_") {
								t.Errorf("%s: the row %q is named by a raw key", gc.Name, f.Label)
							}
						}
					}
				}
			}
			if tc.card == "" {
				return
			}
			if found == nil {
				t.Fatalf("no card %q in the gallery", tc.card)
			}
			if tc.atRows {
				if !slices.ContainsFunc(found.Figures, func(f figure) bool { return f.Label == "Row won" }) {
					t.Errorf("%s: Alpha Tactics' card lost its row figures: %v", found.Name, found.Figures)
				}
				return
			}
			if found.Badge != tc.badge || found.BadgeSub != tc.sub || found.TypeLine != tc.typeline {
				t.Errorf("%s: badge %q %q, type line %q; want %q %q, %q", found.Name, found.Badge, found.BadgeSub, found.TypeLine, tc.badge, tc.sub, tc.typeline)
			}
			for label, want := range tc.rows {
				i := slices.IndexFunc(found.Figures, func(f figure) bool { return f.Label == label })
				switch {
				case i < 0:
					t.Errorf("%s: no row %q in %v", found.Name, label, found.Figures)
				case want != "" && found.Figures[i].Value != want:
					t.Errorf("%s: %s %q, want %q", found.Name, label, found.Figures[i].Value, want)
				}
			}
			// The gallery's names are the Counts tables' heads.
			heads := map[string]bool{}
			for _, ct := range m.countTables() {
				for _, h := range ct.Heads {
					heads[upperFirst(h.Name)+" a game"] = true
				}
			}
			for label := range tc.rows {
				if !heads[label] {
					t.Errorf("the row %q is not a head of the Counts tables (%v)", label, heads)
				}
			}
			if !strings.Contains(page.String(), tc.typeline) && !strings.Contains(page.String(), strings.ReplaceAll(tc.typeline, "×", "&times;")) {
				t.Errorf("cards.html does not show the type line %q", tc.typeline)
			}
		})
	}
}

// A card with a value but no counts of its own (another game's) shows no
// row, power or effect figures: they were not measured, and zeros would
// say they were.
func TestGalleryCardUnmeasuredRows(t *testing.T) {
	d := gameData(t, spacetrace.Default(), 50)
	m := newModel(d, Options{Now: testNow})
	if len(m.factions) == 0 || len(d.Meta.Catalog.Cards) == 0 {
		t.Fatal("no sides or cards")
	}
	for _, ci := range d.Meta.Catalog.Cards {
		c := &cardView{Info: ci, Fac: m.factions[0], HasFace: true, Value: &analysis.CardValue{}}
		c.ID, c.Copies = ci.ID, int64(ci.Copies)
		for _, f := range m.galleryCard(c).Figures {
			if slices.Contains(atRows, f.Label) {
				t.Errorf("%s shows %q = %q", c.ID, f.Label, f.Value)
			}
		}
	}
}

// meanAGame: a run's total read as a mean a game.
func TestMeanAGame(t *testing.T) {
	for _, tc := range []struct {
		total, games int64
		want         string
	}{{0, 7, "0"}, {2000, 1000, "2.00"}, {2328300, 2000, "1164"}, {23283, 2000, "11.6"}, {57, 2000, "0.03"}, {-30, 20, "-1.50"}} {
		if got := meanAGame(tc.total, tc.games); got != tc.want {
			t.Errorf("meanAGame(%d, %d) = %q, want %q", tc.total, tc.games, got, tc.want)
		}
	}
}

// Another game's gallery in the browser at 1400 and 360 px: each card wears
// its game's printed face (type line, badge and its word), no Alpha
// Tactics figure is drawn, nothing scrolls sideways or goes wrong in the
// console.
func TestGalleryBrowserFaces(t *testing.T) {
	browser.Path(t)
	for _, tc := range []struct {
		name string
		rs   game.Ruleset
		sub  string
	}{{"spacetrace", spacetrace.Default(), "MP"}, {"goofspiel", goofspiel.Default(), "pts"}} {
		d := gameData(t, tc.rs, 60)
		dir := filepath.Join(t.TempDir(), "report")
		if err := Write(dir, d, Options{Now: testNow}); err != nil {
			t.Fatal(err)
		}
		for _, width := range []int{1400, 360} {
			t.Run(fmt.Sprintf("%s/%dpx", tc.name, width), func(t *testing.T) {
				p := browser.OpenFile(t, filepath.Join(dir, "cards.html"), width)
				p.WaitFor(t, `document.readyState === "complete"`, 30*time.Second)
				lines := browser.Eval[[]string](t, p, `Array.from(document.querySelectorAll(".face .typeline")).map(function (f) { return f.textContent; })`)
				if len(lines) != len(d.Meta.Catalog.Cards) {
					t.Errorf("%d faces, the ruleset has %d cards", len(lines), len(d.Meta.Catalog.Cards))
				}
				// Every card has its face: Spacetrace's cards in no deck
				// through its game.CardFacer.
				printed := map[string]bool{}
				for _, c := range d.Meta.Catalog.Cards {
					if c.Face == nil {
						t.Fatalf("%s: no printed face in the catalog", c.ID)
					}
					printed[c.Face.TypeLine] = true
				}
				for _, l := range lines {
					if !printed[l] {
						t.Errorf("a face's type line %q is none the game prints", l)
					}
				}
				if n := browser.Eval[int](t, p, `Array.from(document.querySelectorAll(".face .power small")).filter(function (s) { return s.textContent === "`+tc.sub+`"; }).length`); n == 0 {
					t.Errorf("no badge says %q", tc.sub)
				}
				dts := browser.Eval[[]string](t, p, `Array.from(document.querySelectorAll(".figs dt")).map(function (d) { return d.textContent; })`)
				for _, l := range dts {
					if slices.Contains(atRows, l) {
						t.Errorf("a card shows %q, a figure this game does not record", l)
					}
				}
				if !slices.ContainsFunc(dts, func(l string) bool { return strings.HasSuffix(l, " a game") }) {
					t.Errorf("no card shows its counts a game: %v", dts)
				}
				p.NoPageScroll(t)
				p.Screenshot(t, fmt.Sprintf("cards-%s-%d.png", tc.name, width))
				p.CheckClean(t)
			})
		}
	}
}
