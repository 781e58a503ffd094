package game

import (
	"encoding/json"
	"fmt"
)

// A report (package reports) renders what every game has — sides, seats,
// matchups, cards, game length, findings — in the words of the game's
// Vocabulary, and asks the game's views for the rest (design
// game-neutral-core.md §3.9): Alpha Tactics' targets and effects, a
// Spacetrace cost curve. A view reads the result as results.json holds it
// and answers in the neutral shapes below (charts, sheets, notes), so a
// game's views import this package only, never reports or analysis, and
// reports draws them without knowing the game (as printing draws a Facer's
// faces).

// Viewer is a Game with report views of its own.
type Viewer interface {
	// Views are the game's views, in the order their parts appear.
	Views() []View
}

// View is one game-specific part of a report.
type View interface {
	// ID names the view (tests, errors).
	ID() string
	// Render makes the view's part of the report of r; a view with nothing
	// to show returns an empty Part. Its error is for a result it cannot
	// read (the report is then not written).
	Render(r *ReportInput) (*Part, error)
}

// ReportInput is what a view reads of one report.
type ReportInput struct {
	// Sides are the run's sides in the report's order, named and coloured
	// as the report shows them (a side missing from the ruleset is named by
	// its id).
	Sides []Side
	// Result is results.json's top level by key: the game's own keys (Alpha
	// Tactics: "targets"), "cards", "diff", and "report" with the catalog
	// ("catalog") as the report stores it. A view decodes the keys it
	// needs; a key absent from an older result is absent here.
	Result map[string]json.RawMessage
}

// CatalogEntry decodes the game's own entry key of the report's catalog
// (what its game.Catalogued put there) into v; false, and v untouched, when
// the result has no report or an older one lacks the entry. The error names
// what was unreadable; the caller prefixes its package.
func (r *ReportInput) CatalogEntry(key string, v any) (bool, error) {
	raw, ok := r.Result["report"]
	if !ok {
		return false, nil
	}
	var meta struct {
		Catalog map[string]json.RawMessage `json:"catalog"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		return false, fmt.Errorf("the report's catalog: %w", err)
	}
	data, ok := meta.Catalog[key]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("the report's %s: %w", key, err)
	}
	return true, nil
}

// Part is a view's contribution to a report; every field is optional.
type Part struct {
	// Section is a section of the web page, after the seats.
	Section *PageSection
	// Sheets are workbook sheets, after the seats' sheet; DiffSheets after
	// the core's diff sheets when the result holds a diff (--base).
	Sheets, DiffSheets []Sheet
	// Names are display names of the ruleset's definitions by id (Alpha
	// Tactics: its targets), for the list of changes against --base.
	Names map[string]string
	// Length is what the rules say of a game's length, where the report
	// shows it; nil says nothing.
	Length *LengthNote
	// Covers are the keys of the game's count sections (Counter.Sections)
	// the view shows itself; the report shows every other section as a
	// table and a sheet of its counts (GameSection: as figures per game).
	Covers []string
}

// PageSection is a section of the report's web page: a heading, charts,
// and its paragraph in the page's Methods.
type PageSection struct {
	// ID is the section's anchor ("targets"): lower-case letters and '-'.
	ID, Title string
	Charts    []Chart
	// Tables are tables of the section, after its charts.
	Tables []PageTable
	// MethodsTitle and Methods define the section's figures in Methods
	// (none when MethodsTitle is empty).
	MethodsTitle string
	Methods      []Span
}

// PageTable is a table of the web page: a Sheet drawn as HTML, each head's
// tooltip its column's Doc, a number formatted by its column's Format (a
// spreadsheet code: "0.0%" in percent with one decimal, "0.00" with two), a
// cell with a Mark in bold with the Mark as its tooltip, a Low cell greyed.
type PageTable struct {
	Title string
	// Note says where the figures come from (which policy or bot, exact or
	// sampled, what the marks mean): every table states its provenance.
	Note  string
	Sheet Sheet
	// Folded shows the table closed (a long listing): a click opens it.
	Folded bool
}

// Span is a run of text; Bold marks a term being defined.
type Span struct {
	Text string
	Bold bool
}

// Chart is a chart of the web page. Exactly one kind is set.
type Chart struct {
	// ID is the chart's element id ("chart-targets"), unique in the page.
	ID, Title, Note string
	Shares          *Shares
	Grid            *Grid
	Points          *Points
}

// Points is a scatter plot of named points, one colour per series, each
// point labelled with its name: a price curve (each part's value against
// what it costs).
type Points struct {
	// XAxis and YAxis name the axes with their units ("energy used",
	// "value in hulls").
	XAxis, YAxis string
	Series       []PointSeries
}

// PointSeries is one series of a Points chart.
type PointSeries struct {
	Name string
	// Names[i] names point i, at (X[i], Y[i]); YLo[i] and YHi[i] are the
	// 95% interval of Y[i] (Y[i] itself where exact). A point with a NaN
	// or infinite coordinate is left out.
	Names    []string
	X, Y     []float64
	YLo, YHi []float64
}

// Grid is a heat map of a matrix: one coloured cell per row and column,
// labelled with its figure in percent (a blueprint matrix: the row attacking
// the column).
type Grid struct {
	// RowAxis and ColAxis name the axes ("attacker", "defender").
	RowAxis, ColAxis string
	Rows, Cols       []string
	// Values[i][j] is the figure (a fraction) of row i in column j, NaN for
	// an empty cell; Lo and Hi its 95% interval (the value itself where
	// exact).
	Values, Lo, Hi [][]float64
	// Marked[i][j] marks a cell as Mark says ("exact"): its label is bold,
	// its tooltip says Mark; the others' tooltips give their interval.
	Marked [][]bool
	Mark   string
	// Mid is the figure drawn white (0.5: even); High and Low name the
	// colour scale's ends ("attacker wins", "defender wins").
	Mid       float64
	High, Low string
}

// Shares is one horizontal bar per category, split into each side's share
// of it (stacked to 100%), with each share's 95% interval in the tooltip:
// Alpha Tactics' "who takes each target".
type Shares struct {
	// Axis names the value axis ("share of captures %"); Stack names the
	// stack.
	Axis, Stack string
	Categories  []string
	// Values[i][j] is the share (a fraction) of ReportInput.Sides[i] in
	// category j; CI[i][j] its 95% interval.
	Values [][]float64
	CI     [][][2]float64
}

// Sheet is a workbook sheet holding one table: a header row, an
// autofilter, every column defined on the Read me sheet.
type Sheet struct {
	Name    string
	Columns []SheetColumn
	Rows    [][]SheetCell
}

// SheetColumn is one column of a Sheet.
type SheetColumn struct {
	Head string
	// Width in characters (0: the default); Format the number format of
	// its cells (a spreadsheet format code, "0.0%"; "" for none).
	Width  float64
	Format string
	// Doc is the column's line on the Read me sheet.
	Doc string
}

// SheetCell is one cell: Value is a string (always written as text, never a
// formula), an int64, a float64 or nil (an empty cell, for a figure that is
// undefined); Low marks a figure resting on too few games.
type SheetCell struct {
	Value any
	Low   bool
	// Mark is a short word a page table shows the cell with (PageTable).
	Mark string `json:",omitempty"`
}

// LengthNote is what the rules say of a game's length (Alpha Tactics: "the
// rules give 4 rounds", and why games run longer), worded for each place
// the report shows the length.
type LengthNote struct {
	// Short follows the mean length: "the rules give 4, more when targets
	// return".
	Short string
	// Chart ends the note of the length histogram, Methods the Methods'
	// paragraph on game length, Sheet the workbook's definition of the
	// histogram: each one or more whole sentences, starting with a space.
	Chart, Methods, Sheet string
}

// Catalogued is a Ruleset with definitions beyond its sides and cards that
// its views read: the report stores them in its catalog (results.json,
// "report" → "catalog"), so a report rendered again from results.json shows
// them without the ruleset.
type Catalogued interface {
	Catalog() Catalog
}

// Catalog is a ruleset's part of the report's catalog.
type Catalog struct {
	// Length is how long a game is by the rules, in the Vocabulary's Length
	// (Alpha Tactics: rounds); 0 when the rules fix none.
	Length int
	// StartingSide is the id of the side that begins whenever it plays; ""
	// when none does.
	StartingSide string
	// Extra are further definitions by key, in order (Alpha Tactics:
	// "targets"), each JSON its views decode.
	Extra []KeyJSON
}

// KeyJSON is one key of a JSON object with its value.
type KeyJSON struct {
	Key  string
	JSON json.RawMessage
}
