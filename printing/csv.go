package printing

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
)

// csvHeader is cards.csv's columns: one per field, as nanDECK and Squib
// read a data sheet (a header row, then one row per card definition with
// its copies). Player cards leave the target columns empty and targets the
// player-card columns.
var csvHeader = []string{"id", "deck", "name", "faction", "type", "kind", "kind_name", "power",
	"vp", "affiliation", "quadrant", "text", "copies", "color", "back", "value_power", "value_power_lo", "value_power_hi"}

// writeCSV writes every card definition of the set, decks in order.
func (st *set) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	rs := st.rs
	for _, d := range st.decks {
		for _, fi := range d.Faces {
			f := &st.faces[fi]
			var row []string
			if d.Back < len(rs.Factions) {
				c, _ := rs.CardByID(f.ID)
				fac := &rs.Factions[c.Faction]
				row = []string{c.ID, d.Stem, c.Name, fac.ID, c.Type.String(), c.Kind.String(), kindWords[c.Kind],
					fmt.Sprint(c.Power), "", "", "", c.Text, fmt.Sprint(c.Copies), f.Color, st.backs[d.Back].File}
				row = append(row, st.valueCells(c.ID)...)
			} else {
				t, _ := rs.TargetByID(f.ID)
				row = []string{t.ID, d.Stem, t.Name, "", t.Type.String(), "", "", "",
					fmt.Sprint(t.VP), t.Affiliation, t.Quadrant, t.Text, "1", f.Color, st.backs[d.Back].File, "", "", ""}
			}
			for i := range row {
				if !csvNumeric[csvHeader[i]] {
					row[i] = csvCell(row[i])
				}
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvNumeric marks the columns of cards.csv that cardlab writes as numbers
// (fmt of an int or float): every other column holds text from the ruleset
// or the report and goes through csvCell.
var csvNumeric = map[string]bool{"power": true, "vp": true, "copies": true,
	"value_power": true, "value_power_lo": true, "value_power_hi": true}

// csvCell keeps a text cell a string when a spreadsheet opens the file,
// following OWASP's CSV-injection rule: a cell whose first character is
// = + - @ tab or carriage return could be read as a formula, so it gets a
// leading apostrophe (the spreadsheet convention for "this is text") —
// "+1 power" and "-2+3" alike, since a spreadsheet evaluates both. Tabs
// and newlines become spaces and other control characters (and bidi
// controls) are dropped: data, not layout; leading spaces do not hide a
// formula from a spreadsheet that trims them on import.
func csvCell(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		if r < 0x20 || r == 0x7f || isBidiControl(r) {
			return -1
		}
		return r
	}, s)
	if t := strings.TrimLeft(s, " "); t != "" && strings.ContainsRune("=+-@\t\r", rune(t[0])) {
		return "'" + s
	}
	return s
}

// valueCells are a card's measured value and its 95% interval in combat
// power (--with-values), or empty cells.
func (st *set) valueCells(id string) []string {
	v, ok := st.values[id]
	if !ok {
		return []string{"", "", ""}
	}
	return []string{fmt.Sprintf("%.2f", v.Power), fmt.Sprintf("%.2f", v.PowerCI95[0]), fmt.Sprintf("%.2f", v.PowerCI95[1])}
}
