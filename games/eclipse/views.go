package eclipse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/cardlab/cardlab/game"
)

// The neutral report's Eclipse part: the exact study's tables (the
// blueprint matrix with every battle's figures, and the NPC table) as
// workbook sheets. The ruleset computes them into the report's catalog
// (game.Catalogued, results.json "report" → "catalog" → "eclipse_study"),
// so a report rendered again from results.json shows them without the
// ruleset, and the view (game.Viewer) turns them into sheets.

// catalogKey is the catalog key of the study's tables.
const catalogKey = "eclipse_study"

// reportGames are the engine battles of a cell above the state budget in
// the report's tables (the study's own default is 20000).
const reportGames = 4000

// reportBudget caps the exact study's state budget for the report's
// tables (a battle that size solves in about a second).
const reportBudget = 200_000

// maxReportFleets bounds the player fleets of the report's tables.
const maxReportFleets = 12

// Catalog implements game.Catalogued.
func (rs *Ruleset) Catalog() game.Catalog {
	var stop atomic.Bool
	// A report's tables must not hold it up: battles beyond reportBudget
	// are played by the engine.
	params := map[string]string{"games": fmt.Sprint(reportGames), "budget": fmt.Sprint(min(rs.Rules.StateBudget, reportBudget))}
	var tables []game.Sheet
	var notes, skipped []string
	// A matrix past a dozen fleets is unreadable and its battles grow as
	// the square: the report's tables take the first maxReportFleets.
	if len(rs.SideFleets) > maxReportFleets {
		var ids []string
		for _, f := range rs.SideFleets[:maxReportFleets] {
			ids = append(ids, rs.Fleets[f].ID)
		}
		params["fleets"] = strings.Join(ids, ",")
	}
	for _, name := range []string{"matrix", "npc", "initiative"} {
		res, err := rs.Study(name, params, &stop)
		if err != nil {
			// No NPC fleet: no NPC table. A battle above the budget that
			// the policy cannot leave to the engine (optimal): said, not
			// played by another policy.
			if errors.Is(err, ErrTooLarge) {
				skipped = append(skipped, fmt.Sprintf("The %s study is not shown: %v.", name, err))
			}
			continue
		}
		tables = append(tables, res.Tables...)
		notes = res.Notes
	}
	// The matrix at equal material (design brief §3.1), at the cost of the
	// dearest player fleet: the brief's budget 16 in both editions.
	if m := rs.dearestFleet(); m > 0 {
		p := map[string]string{"games": params["games"], "budget": params["budget"], "material": fmt.Sprint(m)}
		if res, err := rs.Study("matrix", p, &stop); err == nil {
			res.Tables[0].Name, res.Tables[1].Name = "material matrix", "material battles"
			tables = append(tables, res.Tables...)
		} else if errors.Is(err, ErrTooLarge) {
			skipped = append(skipped, fmt.Sprintf("The equal-material matrix is not shown: %v.", err))
		}
	}
	// Part values of the first player blueprint against one ship of each
	// of the first two (the brief's Interceptor against Interceptor and
	// Cruiser, §3.2).
	players := rs.mobilePlayers()
	for i := 0; i < len(players) && i < 2; i++ {
		p := map[string]string{"games": params["games"], "ship": players[0], "field": players[i]}
		res, err := rs.Study("parts", p, &stop)
		if errors.Is(err, ErrTooLarge) {
			skipped = append(skipped, fmt.Sprintf("The part values against %s are not shown: %v.", players[i], err))
		}
		if err == nil {
			t := res.Tables[0]
			t.Name = "parts vs " + players[i]
			tables = append(tables, t)
			if i == 0 && len(res.Tables) > 1 {
				tables = append(tables, res.Tables[1]) // the price curve against the first field
			}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(studyCatalog{Tables: tables, Notes: append(notes, skipped...)}); err != nil {
		panic(err) // strings and numbers always encode
	}
	return game.Catalog{Extra: []game.KeyJSON{{Key: catalogKey, JSON: bytes.TrimRight(b.Bytes(), "\n")}}}
}

// mobilePlayers are the ids of the player blueprints with a drive, in
// blueprints.yaml's order: the report values parts on the first against
// one ship of each of the first two.
func (rs *Ruleset) mobilePlayers() []string {
	var out []string
	for i := range rs.Blueprints {
		if !rs.Blueprints[i].NPC && rs.Blueprints[i].Stats.Drives > 0 {
			out = append(out, rs.Blueprints[i].ID)
		}
	}
	return out
}

// dearestFleet is the material of the ruleset's dearest player fleet (0
// without one): the report's equal-material budget.
func (rs *Ruleset) dearestFleet() int {
	m := 0
	for _, f := range rs.SideFleets {
		m = max(m, rs.Fleets[f].Cost(rs))
	}
	return m
}

type studyCatalog struct {
	Tables []game.Sheet `json:"tables"`
	Notes  []string     `json:"notes"`
}

// Views implements game.Viewer.
func (Game) Views() []game.View { return []game.View{studyView{}} }

type studyView struct{}

func (studyView) ID() string { return "eclipse-study" }

// sheetNames are the workbook names of the study's tables: prefixed, so
// they never take the name of a core sheet.
var sheetNames = map[string]string{
	"matrix": "Exact matrix", "battles": "Exact battles", "npc": "NPC table", "material lost": "NPC material lost",
	"initiative": "Initiative flips", "price curve": "Price curve", "material matrix": "Equal-material matrix", "material battles": "Equal-material battles",
}

// Render implements game.View.
func (studyView) Render(r *game.ReportInput) (*game.Part, error) {
	var sc studyCatalog
	ok, err := r.CatalogEntry(catalogKey, &sc)
	if err != nil {
		return nil, fmt.Errorf("eclipse: %w", err)
	}
	if !ok {
		return nil, nil // no report, or a result from before the study joined the catalog
	}
	p := &game.Part{Section: pageSection(sc)}
	for _, t := range sc.Tables {
		name, ok := sheetNames[t.Name]
		if strings.HasPrefix(t.Name, "parts vs ") {
			name, ok = "Part values vs "+cutTo(strings.TrimPrefix(t.Name, "parts vs "), 16), true
		}
		if !ok {
			continue
		}
		t.Name = name
		for i := range t.Columns {
			if i == 0 && len(sc.Notes) > 0 {
				t.Columns[i].Doc += ". " + joinNotes(sc.Notes)
			}
		}
		p.Sheets = append(p.Sheets, t)
	}
	return p, nil
}

// cutTo makes an id part of a sheet name: at most n characters, none of
// those a workbook refuses in a sheet name (: \ / ? * [ ]).
func cutTo(s string, n int) string {
	r := []rune(strings.Map(func(c rune) rune {
		if strings.ContainsRune(`:\/?*[]'`, c) {
			return '-'
		}
		return c
	}, s))
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

func joinNotes(notes []string) string {
	var b bytes.Buffer
	for i, n := range notes {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n)
	}
	return b.String()
}

// pageTitles are the page's headings of the study's tables, and whether
// the table is shown folded (the battles: one row per pair).
var pageTitles = map[string]struct {
	title, note string
	folded      bool
}{
	"matrix": {"Blueprint matrix: P(the row's fleet, attacking, eliminates the column's) in %",
		"The last column is the row fleet's win share over every pairing, attacking and defending.", false},
	"battles":       {"Every battle of the matrix", "Each pair's four outcomes, rounds, material left, and what the assignment policy is worth against kill_largest.", true},
	"npc":           {"NPC table: P(the column's fleet, attacking, clears the row's NPC) in %", "NPCs always defend and assign their hits by their own rule.", false},
	"material lost": {"NPC table: material the column's fleet loses", "Expected build cost of the ships lost attacking the NPC.", false},
	"price curve": {"Price curve: each part's hulls against its energy and research cost",
		"The part values against the first field (the table above), cheapest in hulls first, with hulls per energy used and per research point (research: 2E only).", false},
	"material matrix": {"Blueprint matrix at equal material: P(the row's fleet, attacking, eliminates the column's) in %",
		"Each mobile player blueprint's largest fleet costing at most the dearest player fleet's material (within its max), and the ruleset's mixed fleets that leave less than the cheapest ship unspent; the material column gives each fleet's cost, the last column its win share over both roles.", false},
	"material battles": {"Every battle of the equal-material matrix", "Each pair's four outcomes, rounds, material left, and what the assignment policy is worth against kill_largest.", true},
	"initiative": {"Initiative flips: what ±1 initiative on a blueprint changes",
		"Initiative is a step function: a change is worth something only where it flips the firing order against another blueprint (ties go to the defender); the share change is over the matrix's pairings, both roles.", false},
}

// pageSection is the study's section of the report's web page: the
// matrix as a heat map, then every table with where its figures come
// from.
func pageSection(sc studyCatalog) *game.PageSection {
	if len(sc.Tables) == 0 {
		return nil
	}
	prov := joinNotes(sc.Notes)
	s := &game.PageSection{ID: "battle-study", Title: "Battle study", MethodsTitle: "Battle study (exact)"}
	s.Methods = []game.Span{{Text: "The blueprint matrix, NPC table and part values", Bold: true}, {Text: " are computed from the rules, not from the run's games; a cell in bold is exact. " + prov}}
	const cellNote = "Each cell: P(the row's fleet, attacking, eliminates the column's fleet) in %. Bold: exact; a sampled cell gives ± the half-width of its 95% interval. Blue: the attacker wins more often than not; red: less."
	for _, t := range sc.Tables {
		switch t.Name {
		case "battles":
			if g := matrixGrid(t); g != nil {
				s.Charts = append(s.Charts, game.Chart{ID: "chart-battle-matrix", Title: "Blueprint matrix",
					Note: cellNote + " " + prov, Grid: g})
			}
		case "material battles":
			if g := matrixGrid(t); g != nil {
				s.Charts = append(s.Charts, game.Chart{ID: "chart-material-matrix", Title: "Blueprint matrix at equal material",
					Note: cellNote + " Each fleet costs at most the dearest player fleet's material (the equal-material matrix's table gives each one's cost). Policy, exactness and budget as the first figure's note says.", Grid: g})
			}
		case "price curve":
			s.Charts = append(s.Charts, priceCharts(t)...)
		}
	}
	for _, t := range sc.Tables {
		pt, ok := pageTitles[t.Name]
		if strings.HasPrefix(t.Name, "parts vs ") {
			ship := strings.TrimPrefix(t.Name, "parts vs ")
			pt.title, ok = "Part values in hulls against one "+ship, true
			pt.note = "One ship with a part tile or a stat unit beside its printed parts, against one " + ship + ": the extra hulls that give the same win share."
		}
		if !ok {
			continue
		}
		// The full provenance once, under the first figure; the others
		// point to it.
		note := pt.note + " " + prov
		if len(s.Charts) > 0 || len(s.Tables) > 0 {
			note = pt.note + " Policy, exactness and budget as the note under this section's first figure says."
		}
		switch {
		case tableHasMarks(t) && (t.Name == "price curve" || strings.HasPrefix(t.Name, "parts vs ")):
			note = "Bold: exact. " + note // a sampled part value has no interval to give; its table is not bold
		case tableHasMarks(t):
			note = "Bold: exact; a sampled cell gives its 95% interval. " + note
		}
		s.Tables = append(s.Tables, game.PageTable{Title: pt.title, Note: note, Sheet: t, Folded: pt.folded})
	}
	return s
}

func tableHasMarks(t game.Sheet) bool {
	for _, r := range t.Rows {
		for _, c := range r {
			if c.Mark != "" {
				return true
			}
		}
	}
	return false
}

// matrixGrid is the heat map of the battles table: the attackers as rows,
// the defenders as columns in the order they first appear; nil when the
// table is not the study's.
func matrixGrid(t game.Sheet) *game.Grid {
	col := map[string]int{}
	for i, c := range t.Columns {
		col[c.Head] = i
	}
	for _, h := range []string{"attacker", "defender", "mode", "attacker eliminates", "low", "high"} {
		if _, ok := col[h]; !ok {
			return nil
		}
	}
	g := &game.Grid{RowAxis: "attacker", ColAxis: "defender", Mid: 0.5, High: "attacker wins", Low: "defender holds", Mark: "exact"}
	ri, ci := map[string]int{}, map[string]int{}
	type cell struct {
		r, c      int
		v, lo, hi float64
		exact     bool
	}
	var cells []cell
	for _, r := range t.Rows {
		if len(r) != len(t.Columns) {
			return nil
		}
		a, ok1 := r[col["attacker"]].Value.(string)
		d, ok2 := r[col["defender"]].Value.(string)
		v, ok3 := game.CellNumber(r[col["attacker eliminates"]].Value)
		lo, ok4 := game.CellNumber(r[col["low"]].Value)
		hi, ok5 := game.CellNumber(r[col["high"]].Value)
		if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
			return nil
		}
		if _, ok := ri[a]; !ok {
			ri[a] = len(g.Rows)
			g.Rows = append(g.Rows, a)
		}
		if _, ok := ci[d]; !ok {
			ci[d] = len(g.Cols)
			g.Cols = append(g.Cols, d)
		}
		cells = append(cells, cell{ri[a], ci[d], v, lo, hi, r[col["mode"]].Value == "exact"})
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
	g.Values, g.Lo, g.Hi = nan(), nan(), nan()
	g.Marked = make([][]bool, len(g.Rows))
	for i := range g.Marked {
		g.Marked[i] = make([]bool, len(g.Cols))
	}
	for _, c := range cells {
		g.Values[c.r][c.c], g.Lo[c.r][c.c], g.Hi[c.r][c.c], g.Marked[c.r][c.c] = c.v, c.lo, c.hi, c.exact
	}
	return g
}

// priceCharts are the price curve (design brief §3.2: energy and research
// cost against hulls) as two scatter plots, each part tile a named point:
// hulls against energy used, and against research cost where the ruleset
// gives one (2E). Only exact figures are drawn (the hulls' mark); a
// value past the largest hull count valued ("> 8") is left out.
func priceCharts(t game.Sheet) []game.Chart {
	col := map[string]int{}
	for i, c := range t.Columns {
		col[c.Head] = i
	}
	for _, h := range []string{"part", "hulls", "energy used", "research"} {
		if _, ok := col[h]; !ok {
			return nil
		}
	}
	energy := game.PointSeries{Name: "part tiles"}
	research := game.PointSeries{Name: "part tiles"}
	for _, r := range t.Rows {
		if len(r) != len(t.Columns) {
			return nil
		}
		name, ok1 := r[col["part"]].Value.(string)
		h, ok2 := game.CellNumber(r[col["hulls"]].Value)
		if !ok1 || !ok2 || r[col["hulls"]].Mark != "exact" {
			continue
		}
		add := func(s *game.PointSeries, x float64) {
			s.Names, s.X, s.Y, s.YLo, s.YHi = append(s.Names, name), append(s.X, x), append(s.Y, h), append(s.YLo, h), append(s.YHi, h)
		}
		if e, ok := game.CellNumber(r[col["energy used"]].Value); ok {
			add(&energy, e)
		}
		if c, ok := game.CellNumber(r[col["research"]].Value); ok {
			add(&research, c)
		}
	}
	const note = "Each point a part tile: its value in hulls (both roles, exact) against the first field of the part values, the price curve's table below. Up and to the left is cheap for what it does."
	var out []game.Chart
	if len(energy.Names) > 0 {
		out = append(out, game.Chart{ID: "chart-price-energy", Title: "Price curve: hulls against energy used",
			Note:   note + " Negative energy: the part produces energy.",
			Points: &game.Points{XAxis: "energy used", YAxis: "value in hulls", Series: []game.PointSeries{energy}}})
	}
	if len(research.Names) > 0 {
		out = append(out, game.Chart{ID: "chart-price-research", Title: "Price curve: hulls against research cost",
			Note:   note + " Research cost before discounts; the table gives each minimum.",
			Points: &game.Points{XAxis: "research cost", YAxis: "value in hulls", Series: []game.PointSeries{research}}})
	}
	return out
}
