package reports

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/game"
)

// A game's own counts (game.Counter) are sections of named integer tables;
// what its views do not show (game.Part.Covers) the report shows as they
// are: a table on the page and a sheet in the workbook for each section, and
// the per-game section (game.GameSection) as means per game among the game
// figures. So a game without views has all its counts in its report.

// covered reports whether a view of the game shows the section key itself.
func (m *model) covered(key string) bool {
	for _, p := range m.parts {
		if slices.Contains(p.Covers, key) {
			return true
		}
	}
	return false
}

// countSections are the result's count sections no view shows, the
// per-game one apart.
func (m *model) countSections() []*game.Section {
	var out []*game.Section
	if m.rep.Raw == nil {
		return nil
	}
	for i := range m.rep.Raw.Sections {
		s := &m.rep.Raw.Sections[i]
		if s.Key != game.GameSection && !m.covered(s.Key) {
			out = append(out, s)
		}
	}
	return out
}

// perGame are the per-game section's counts as means per game ("" keys
// for none): nil when a view shows them or the result has none.
func (m *model) perGame() []kvRow {
	if m.covered(game.GameSection) || m.rep.Raw == nil || m.rep.Games == 0 {
		return nil
	}
	s := m.rep.Raw.Section(game.GameSection)
	if s == nil || len(s.Rows) != 1 {
		return nil
	}
	var out []kvRow
	v := 0
	for _, c := range s.Columns {
		if c.PerSide {
			continue
		}
		x := s.Rows[0].Values[v]
		v++
		if c.Squares {
			continue
		}
		out = append(out, kvRow{strings.ReplaceAll(c.Key, "_", " ") + " per game", float64(x) / float64(m.rep.Games), fmtDec2})
	}
	return out
}

// roundBins are h's rounds, nil when the game's records count none (a
// game without rounds: every game in the bin of 0).
func (m *model) roundBins(h *Histograms) []Bin {
	if len(h.Rounds) == 1 && h.Rounds[0].From == 0 && h.Rounds[0].To == 0 {
		return nil
	}
	return h.Rounds
}

// sectionColumn is one column of a section's table: a count, or one side's
// count of a per-side column.
type sectionColumn struct {
	// head is the workbook's (the key, as results.json names it); name
	// the page's (the game's label, else the key in words).
	head, name, doc string
	label           int // index among the labels, or -1
	value           int // index among Values, or -1
	side            [2]int
	squares         bool
}

// sectionColumns are s's columns as a table shows them: the labels, then
// every count (a per-side count once per side of the run).
func (m *model) sectionColumns(s *game.Section) []sectionColumn {
	var out []sectionColumn
	for i, l := range s.Labels {
		out = append(out, sectionColumn{head: l, name: l, doc: "the " + s.Entity + "'s " + l, label: i, value: -1})
	}
	v, p := 0, 0
	for _, c := range s.Columns {
		if c.PerSide {
			for j, id := range m.sectionSides() {
				out = append(out, sectionColumn{head: c.Key + " " + id, name: countName(c) + " " + id, doc: c.Doc + " (" + m.facName(id) + ")", label: -1, value: -1, side: [2]int{p, j}, squares: c.Squares})
			}
			p++
			continue
		}
		out = append(out, sectionColumn{head: c.Key, name: countName(c), doc: c.Doc, label: -1, value: v, squares: c.Squares})
		v++
	}
	return out
}

// countName is a count's name on the page: the game's label, else its key
// in words.
func countName(c game.Count) string {
	if c.Label != "" {
		return c.Label
	}
	return strings.ReplaceAll(c.Key, "_", " ")
}

// sectionSides are the ids of the run's sides in the counts' order.
func (m *model) sectionSides() []string {
	var ids []string
	for _, f := range m.rep.Raw.Factions {
		ids = append(ids, f.ID)
	}
	return ids
}

// cell is row's value in column c (nil where the row lacks it).
func (c sectionColumn) cell(r *game.Row) any {
	switch {
	case c.label >= 0:
		if c.label < len(r.Labels) {
			return r.Labels[c.label]
		}
	case c.value >= 0:
		if c.value < len(r.Values) {
			return r.Values[c.value]
		}
	default:
		if c.side[0] < len(r.Sides) && c.side[1] < len(r.Sides[c.side[0]]) {
			return r.Sides[c.side[0]][c.side[1]]
		}
	}
	return nil
}

// countTable is a section as the page shows it (sums of squares left to
// the workbook).
type countTable struct {
	Title, Doc string
	Heads      []countHead
	Rows       [][]string
}

type countHead struct{ Name, Doc string }

// countTables are the sections no view shows, as tables of the page.
func (m *model) countTables() []countTable {
	var out []countTable
	for _, s := range m.countSections() {
		t := countTable{Title: upperFirst(strings.ReplaceAll(s.Key, "_", " ")), Doc: s.Doc}
		cols := m.sectionColumns(s)
		cols = slices.DeleteFunc(cols, func(c sectionColumn) bool { return c.squares })
		for _, c := range cols {
			t.Heads = append(t.Heads, countHead{c.name, c.doc})
		}
		for i := range s.Rows {
			var row []string
			for _, c := range cols {
				if v := c.cell(&s.Rows[i]); v != nil {
					row = append(row, fmt.Sprint(v))
				} else {
					row = append(row, "")
				}
			}
			t.Rows = append(t.Rows, row)
		}
		out = append(out, t)
	}
	return out
}

// xlsxSections writes a sheet for each section no view shows.
func (m *model) xlsxSections(b *book) {
	for _, s := range m.countSections() {
		name := upperFirst(strings.ReplaceAll(s.Key, "_", " "))
		if idx, _ := b.f.GetSheetIndex(name); idx >= 0 || len(name) > 24 {
			name = "Counts " + s.Key
			if len(name) > 31 {
				name = name[:31]
			}
		}
		cols := m.sectionColumns(s)
		tc := make([]col[*game.Row], len(cols))
		for i, c := range cols {
			tc[i] = col[*game.Row]{head: c.head, doc: c.doc, val: c.cell}
			if c.label >= 0 {
				tc[i].width = 16
			}
		}
		rows := make([]*game.Row, len(s.Rows))
		for i := range s.Rows {
			rows[i] = &s.Rows[i]
		}
		table(b.sheet(name), tc, rows)
	}
}

// catalogGallery lays out the catalog's cards for a result without
// figures by card: by side in the run's order, then the cards of no side,
// each with the counts of its row (by id) in the sections no view shows.
func (m *model) catalogGallery() []galleryFaction {
	if m.d.Meta == nil || m.d.Meta.Catalog == nil {
		return nil
	}
	cards := m.d.Meta.Catalog.Cards
	type group struct {
		id, name, color string
	}
	var groups []group
	known := map[string]bool{}
	for _, f := range m.factions {
		groups = append(groups, group{f.ID, f.Name, f.Color})
		known[f.ID] = true
	}
	if slices.ContainsFunc(cards, func(c CardInfo) bool { return !known[c.Faction] }) {
		groups = append(groups, group{"", "Cards of no " + m.vocab.Side, "#777777"})
	}
	var out []galleryFaction
	for i, g := range groups {
		gf := galleryFaction{Name: g.name, Color: g.color, Anchor: fmt.Sprintf("faction-%d", i+1)}
		var gcs []galleryCard
		for _, c := range cards {
			if (g.id == "" && known[c.Faction]) || (g.id != "" && c.Faction != g.id) {
				continue
			}
			// A badge only where the game prints one (its face, below):
			// a card's first number is not a printed value in every game
			// (a ship part's first number may be a cannon's damage).
			gc := galleryCard{Name: c.Name, Text: c.Text, Color: g.color, Copies: fmt.Sprintf("×%d", c.Copies), Power: m.printedValue(&c)}
			gc.Badge = strconv.Itoa(gc.Power)
			if g.id != "" {
				gc.Faction = g.name
			}
			var counts []figure
			gc.TypeLine, counts = m.cardCounts(c.ID)
			if f := c.Face; f != nil {
				// The face the game prints (cardlab print): its badge, type
				// line and text as a player reads them.
				gc.Badge, gc.BadgeSub, gc.HasPower = f.Badge, f.BadgeSub, f.Badge != ""
				gc.TypeLine, gc.Text = f.TypeLine, f.Text
			}
			if i := slices.IndexFunc(m.cards, func(k *cardView) bool { return k.ID == c.ID }); i >= 0 && m.cards[i].Value != nil {
				gc.Figures = m.galleryCard(m.cards[i]).Figures // its value first
			}
			gc.Figures = append(gc.Figures, counts...)
			gcs = append(gcs, gc)
		}
		if len(gcs) == 0 {
			continue // a side without cards of its own (fleets built from shared parts): no empty heading
		}
		for len(gcs) > 0 {
			n := min(cardsPerPage, len(gcs))
			gf.Pages = append(gf.Pages, gcs[:n])
			gcs = gcs[n:]
		}
		out = append(out, gf)
	}
	return out
}

// cardCounts are the counts of the rows whose id is the card's, in the
// sections no view shows, with the entity of the first such section: each
// under the name the Counts tables give it, as a mean a game of the run
// (the tables hold the run's totals; a designer reads a game).
func (m *model) cardCounts(id string) (entity string, figs []figure) {
	for _, s := range m.countSections() {
		at := slices.Index(s.Labels, "id")
		if at < 0 {
			continue
		}
		for r := range s.Rows {
			row := &s.Rows[r]
			if at >= len(row.Labels) || row.Labels[at] != id {
				continue
			}
			if entity == "" {
				entity = s.Entity
			}
			v := 0
			for _, c := range s.Columns {
				if c.PerSide {
					continue
				}
				if !c.Const && !c.Squares && v < len(row.Values) && m.rep.Games > 0 {
					figs = append(figs, figure{Label: upperFirst(countName(c)) + " a game",
						Value: meanAGame(row.Values[v], m.rep.Games), Doc: c.Doc + ", a game of the run on average"})
				}
				v++
			}
		}
	}
	return entity, figs
}

// meanAGame is a run's total as a mean a game, with two decimals where
// it is small.
func meanAGame(total, games int64) string {
	x := float64(total) / float64(games)
	switch {
	case x == 0:
		return "0"
	case math.Abs(x) >= 100:
		return fmt.Sprintf("%.0f", x)
	case math.Abs(x) >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}
