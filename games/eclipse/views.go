package eclipse

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	var notes []string
	// A matrix past a dozen fleets is unreadable and its battles grow as
	// the square: the report's tables take the first maxReportFleets.
	if len(rs.SideFleets) > maxReportFleets {
		var ids []string
		for _, f := range rs.SideFleets[:maxReportFleets] {
			ids = append(ids, rs.Fleets[f].ID)
		}
		params["fleets"] = strings.Join(ids, ",")
	}
	for _, name := range []string{"matrix", "npc"} {
		res, err := rs.Study(name, params, &stop)
		if err != nil {
			continue // no NPC fleet: no NPC table
		}
		tables = append(tables, res.Tables...)
		notes = res.Notes
	}
	// Part values of the first player blueprint against one ship of each
	// of the first two (the brief's Interceptor against Interceptor and
	// Cruiser, §3.2).
	var players []string
	for i := range rs.Blueprints {
		if !rs.Blueprints[i].NPC && rs.Blueprints[i].Stats.Drives > 0 {
			players = append(players, rs.Blueprints[i].ID)
		}
	}
	for i := 0; i < len(players) && i < 2; i++ {
		p := map[string]string{"games": params["games"], "ship": players[0], "field": players[i]}
		if res, err := rs.Study("parts", p, &stop); err == nil {
			t := res.Tables[0]
			t.Name = "parts vs " + players[i]
			tables = append(tables, t)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(studyCatalog{Tables: tables, Notes: notes}); err != nil {
		panic(err) // strings and numbers always encode
	}
	return game.Catalog{Extra: []game.KeyJSON{{Key: catalogKey, JSON: bytes.TrimRight(b.Bytes(), "\n")}}}
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
}

// Render implements game.View.
func (studyView) Render(r *game.ReportInput) (*game.Part, error) {
	raw, ok := r.Result["report"]
	if !ok {
		return nil, nil
	}
	var meta struct {
		Catalog map[string]json.RawMessage `json:"catalog"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		return nil, fmt.Errorf("eclipse: the report's catalog: %w", err)
	}
	data, ok := meta.Catalog[catalogKey]
	if !ok {
		return nil, nil // a result from before the study joined the catalog
	}
	var sc studyCatalog
	if err := json.Unmarshal(data, &sc); err != nil {
		return nil, fmt.Errorf("eclipse: the report's %s: %w", catalogKey, err)
	}
	p := &game.Part{}
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
