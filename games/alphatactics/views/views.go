// Package views is Alpha Tactics' part of a report (game.View): who takes
// each target (the Targets section, its chart and sheet, and the Diff
// targets sheet), the effects as they fired, were blocked and fizzled (the
// Effects and Effect handlers sheets), and what the rules say of a game's
// length in rounds. It reads the result as results.json holds it, so it
// imports no report or analysis package: reports draws what it returns.
package views

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// All are Alpha Tactics' views in the order their parts appear.
func All() []game.View { return []game.View{Targets{}, Effects{}} }

// TargetInfo is one target card as the report's catalog stores it
// (results.json, "report" → "catalog" → "targets").
type TargetInfo struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Type        string `json:"type"`
	Affiliation string `json:"affiliation"`
	VP          int    `json:"vp"`
	Text        string `json:"text,omitempty"`
}

// Catalog is what the report's catalog holds of rs beyond its factions and
// cards: the rounds and starting faction of its rules and its targets.
func Catalog(rs *rules.Ruleset) game.Catalog {
	ts := []TargetInfo{}
	for i := range rs.Targets {
		t := &rs.Targets[i]
		ts = append(ts, TargetInfo{ID: t.ID, Name: t.Name, Type: t.Type.String(), Affiliation: t.Affiliation, VP: t.VP, Text: t.Text})
	}
	// HTML characters as they are: results.json's encoder decides.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ts); err != nil {
		panic(err) // strings and ints always encode
	}
	return game.Catalog{Length: rs.Rules.Rounds, StartingSide: rs.Rules.StartingFaction,
		Extra: []game.KeyJSON{{Key: "targets", JSON: bytes.TrimRight(b.Bytes(), "\n")}}}
}

// catalog is the part of results.json's catalog the views read.
type catalog struct {
	Rounds int          `json:"rounds"`
	Cards  []cardInfo   `json:"cards"`
	Target []TargetInfo `json:"targets"`
}

type cardInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Effect string `json:"effect"`
}

// readCatalog decodes the catalog of r's result, nil when it has none.
func readCatalog(r *game.ReportInput) (*catalog, error) {
	raw, ok := r.Result["report"]
	if !ok {
		return nil, nil
	}
	var meta struct {
		Catalog *catalog `json:"catalog"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		return nil, fmt.Errorf("views: the report's catalog: %w", err)
	}
	return meta.Catalog, nil
}

// decode decodes r's key into v; false when the result has no such key.
func decode(r *game.ReportInput, key string, v any) (bool, error) {
	raw, ok := r.Result[key]
	if !ok || string(raw) == "null" {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("views: %s: %w", key, err)
	}
	return true, nil
}

// yes is a flag as the workbook shows it.
func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// Number formats of the sheets (as the report's own).
const (
	fmtPct  = "0.0%"
	fmtPts  = "+0.0%;-0.0%;0.0%"
	fmtDec2 = "0.00"
	fmtDec3 = "0.000"
)
