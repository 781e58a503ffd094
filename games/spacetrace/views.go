package spacetrace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/cardlab/cardlab/game"
)

// The neutral report's Spacetrace part (issue 28, brief §4a.1–2): the cost
// curve and the class matrix, both exact, on the report's page (the matrix
// as a heat map) and as workbook sheets. The ruleset computes the studies
// into the report's catalog (game.Catalogued, results.json "report" →
// "catalog" → "spacetrace_study"), so a report rendered again from
// results.json shows them without the ruleset; the view (game.Viewer)
// reads them from there.

// catalogKey is the catalog key of the studies' tables.
const catalogKey = "spacetrace_study"

// studyCatalog is what the catalog holds: each study's tables and notes.
type studyCatalog struct {
	Tables []game.Sheet `json:"tables"`
	// Notes are each study's notes by the name of its first table.
	Notes map[string][]string `json:"notes"`
}

// Catalog implements game.Catalogued. Both studies take about a
// millisecond on the reconstructed set (battles have no dice).
func (rs *Ruleset) Catalog() game.Catalog {
	var stop atomic.Bool
	sc := studyCatalog{Notes: map[string][]string{}}
	for _, name := range []string{"costs", "classes"} {
		res, err := rs.Study(name, nil, &stop)
		if err != nil || len(res.Tables) == 0 {
			continue // a ruleset without a priced ship card has nothing to show
		}
		sc.Tables = append(sc.Tables, res.Tables...)
		sc.Notes[res.Tables[0].Name] = res.Notes
	}
	if len(sc.Tables) == 0 {
		return game.Catalog{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sc); err != nil {
		panic(err) // strings and numbers always encode
	}
	return game.Catalog{Extra: []game.KeyJSON{{Key: catalogKey, JSON: bytes.TrimRight(b.Bytes(), "\n")}}}
}

// Views implements game.Viewer.
func (Game) Views() []game.View { return []game.View{studyView{}, economyView{}} }

type studyView struct{}

func (studyView) ID() string { return "spacetrace-study" }

// sheetNames are the workbook names of the studies' tables (none is a core
// sheet's name).
var sheetNames = map[string]string{
	"Cost curve": "Cost curve", "Class matrix": "Class matrix", "Class matchups": "Class matchups",
}

// pageTitles are the page's headings of the tables and what each shows.
var pageTitles = map[string]struct {
	title, note string
	folded      bool
}{
	"Cost curve": {"Cost curve: printed MP against the cost model √(AP·LP)",
		"Cost index 1.00 is on the model; margin per 100 MP and wins come from the class matrix (each card's pure fleet against every other's at equal MP).", false},
	"Class matrix": {"Class matrix: MP the row's fleet gains in one battle at equal MP",
		"Each cell is the MP the column's fleet lost minus the MP the row's fleet lost; an empty cell needs more cards than a fleet holds.", false},
	"Class matchups": {"Every matchup of the class matrix",
		"Copies, MP lost on each side in one battle, and who is left when battles are repeated.", true},
}

// Render implements game.View.
func (studyView) Render(r *game.ReportInput) (*game.Part, error) {
	var sc studyCatalog
	ok, err := r.CatalogEntry(catalogKey, &sc)
	if err != nil {
		return nil, fmt.Errorf("spacetrace: %w", err)
	}
	if !ok {
		return nil, nil // no report, or a result from before the studies joined the catalog
	}
	p := &game.Part{Section: pageSection(sc)}
	for _, t := range sc.Tables {
		name, ok := sheetNames[t.Name]
		if !ok {
			continue
		}
		t.Name = name
		if len(t.Columns) > 0 {
			t.Columns[0].Doc += ". " + strings.Join(notesOf(sc, t.Name), " ")
		}
		p.Sheets = append(p.Sheets, t)
	}
	return p, nil
}

// notesOf is the provenance of a table: its study's notes (the class
// matrix's for the matchups, which come from the same study).
func notesOf(sc studyCatalog, table string) []string {
	if table == "Class matchups" {
		table = "Class matrix"
	}
	return sc.Notes[table]
}

// sentence joins a study's notes into one sentence with a capital and a
// full stop.
func sentence(notes []string) string {
	s := strings.Join(notes, "; ")
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// pageSection is the studies' section of the page: the class matrix as a
// heat map of the exchange, then the cost curve and the matrix's tables,
// each with where its figures come from.
func pageSection(sc studyCatalog) *game.PageSection {
	if len(sc.Tables) == 0 {
		return nil
	}
	s := &game.PageSection{ID: "fleet-study", Title: "Cost curve and class matrix", MethodsTitle: "Cost curve and class matrix (exact)"}
	s.Methods = []game.Span{{Text: "The cost curve and the class matrix", Bold: true},
		{Text: " are computed from the rules, not from the run's games: pure fleets of one ship card each, without a Base, fight at equal MP (the least common multiple of the two cards' MP); battles have no dice, so every figure is exact. The cost model √(total AP × total LP) is the reconstruction's pricing rule, not a fact of the game. " +
			sentence(sc.Notes["Class matrix"])}}
	for _, t := range sc.Tables {
		if t.Name == "Class matchups" {
			if g := exchangeGrid(t); g != nil {
				s.Charts = append(s.Charts, game.Chart{ID: "chart-class-matrix", Title: "Class matrix: who wins the exchange",
					Note: "Each cell: the column fleet's share of the MP both fleets lost in one battle at equal MP, in %: above 50 (blue) the row's fleet destroys more MP than it loses; an empty cell lost nothing on either side or needs more cards than a fleet holds. Every cell is exact and in bold. " + sentence(sc.Notes["Class matrix"]),
					Grid: g})
			}
		}
	}
	for _, t := range sc.Tables {
		pt, ok := pageTitles[t.Name]
		if !ok {
			continue
		}
		note := pt.note + " " + sentence(notesOf(sc, t.Name))
		s.Tables = append(s.Tables, game.PageTable{Title: pt.title, Note: note, Sheet: t, Folded: pt.folded})
	}
	return s
}

// exchangeGrid is the heat map of the matchups table: B's share of the MP
// lost in one battle, for each card A (rows) against each card B
// (columns); nil when the table is not the study's.
func exchangeGrid(t game.Sheet) *game.Grid {
	col := map[string]int{}
	for i, c := range t.Columns {
		col[c.Head] = i
	}
	for _, h := range []string{"card A", "card B", "A lost MP", "B lost MP"} {
		if _, ok := col[h]; !ok {
			return nil
		}
	}
	g := &game.Grid{RowAxis: "fleet", ColAxis: "against", Mid: 0.5, High: "row wins the exchange", Low: "column wins", Mark: "exact"}
	ri, ci := map[string]int{}, map[string]int{}
	type cell struct {
		r, c int
		v    float64
	}
	var cells []cell
	for _, r := range t.Rows {
		if len(r) != len(t.Columns) {
			return nil
		}
		a, ok1 := r[col["card A"]].Value.(string)
		b, ok2 := r[col["card B"]].Value.(string)
		if !ok1 || !ok2 {
			return nil
		}
		if _, ok := ri[a]; !ok {
			ri[a] = len(g.Rows)
			g.Rows = append(g.Rows, a)
		}
		if _, ok := ci[b]; !ok {
			ci[b] = len(g.Cols)
			g.Cols = append(g.Cols, b)
		}
		v := math.NaN()
		la, okA := game.CellNumber(r[col["A lost MP"]].Value)
		lb, okB := game.CellNumber(r[col["B lost MP"]].Value)
		if okA && okB && la+lb > 0 {
			v = lb / (la + lb)
		}
		cells = append(cells, cell{ri[a], ci[b], v})
	}
	nan := func() [][]float64 {
		m := make([][]float64, len(g.Rows))
		for i := range m {
			m[i] = make([]float64, len(g.Cols))
			for j := range m[i] {
				m[i][j] = math.NaN()
			}
		}
		return m
	}
	g.Values = nan()
	g.Marked = make([][]bool, len(g.Rows))
	for i := range g.Marked {
		g.Marked[i] = make([]bool, len(g.Cols))
	}
	for _, c := range cells {
		g.Values[c.r][c.c] = c.v
		g.Marked[c.r][c.c] = !math.IsNaN(c.v)
	}
	// Exact: the interval is the figure itself.
	g.Lo, g.Hi = g.Values, g.Values
	return g
}
