package printing

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// writeCSV writes cards.csv, one row per face, decks in order, with the
// game's columns (game.FaceSet.CSV): the data sheet nanDECK and Squib
// read (a header row, then one row per card definition with its copies).
// The deck, color and back columns are printing's.
func (st *set) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(st.csv); err != nil {
		return err
	}
	row := make([]string, len(st.csv))
	for _, d := range st.decks {
		for _, fi := range d.Faces {
			f := &st.faces[fi]
			for i, key := range st.csv {
				switch key {
				case "deck":
					row[i] = csvCell(d.Stem)
				case "color":
					row[i] = csvCell(f.Color)
				case "back":
					row[i] = csvCell(st.backs[d.Back].File)
				default:
					row[i] = ""
					for _, c := range f.Cells {
						if c.Key == key {
							row[i] = csvCell(c.Text)
							if _, err := strconv.ParseFloat(c.Text, 64); c.Number && err == nil {
								row[i] = c.Text // a number; csvCell would quote "-1"
							}
							break
						}
					}
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
