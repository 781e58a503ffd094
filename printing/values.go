package printing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/cards"
)

// maxResultsSize caps the results file read for --with-values.
const maxResultsSize = 256 << 20

// Values are the measured card values of a report, worded for the face.
type Values struct {
	Lines map[string]string // card id → "plays like 9.4 power [7.9, 10.8]"
	// Cards holds the values themselves, for cards.csv.
	Cards map[string]analysis.CardValue
	// Cards that have a value, and the report's cards that are not in the
	// ruleset (a report of another version of the cards).
	Found   int
	Unknown []string
	// HashMatches is false when the report was made from other files than
	// the ruleset being printed.
	HashMatches bool
}

// ReadValues reads a report's results.json (or a `cardlab simulate --json`
// result) and words each card's measured value. Cards without a value
// (the run did not estimate it) print none.
func ReadValues(name string, rs *cards.Ruleset) (*Values, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("printing: reading values: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxResultsSize+1))
	if err != nil {
		return nil, fmt.Errorf("printing: reading values: %w", err)
	}
	if len(data) > maxResultsSize {
		return nil, fmt.Errorf("printing: %s: too large for a results file", name)
	}
	var rep analysis.Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("printing: %s: not a results.json: %v", name, err)
	}
	if rep.ToolVersion == "" || rep.Cards == nil {
		return nil, fmt.Errorf("printing: %s: no tool_version or cards: not a results.json or 'cardlab simulate --json' result", name)
	}
	v := &Values{Lines: map[string]string{}, Cards: map[string]analysis.CardValue{}, HashMatches: rep.Ruleset.Hash == "" || rep.Ruleset.Hash == rs.Hash}
	for _, c := range rep.Cards {
		if _, ok := rs.CardByID(c.ID); !ok {
			v.Unknown = append(v.Unknown, c.ID)
			continue
		}
		if c.Value == nil {
			continue
		}
		v.Lines[c.ID] = ValueLine(c.Value)
		v.Cards[c.ID] = *c.Value
		v.Found++
	}
	if v.Found == 0 {
		return v, errors.New("printing: " + name + " has no card values (cards[].value, docs/metrics.md \"Card value\"): it comes from a run that did not estimate them")
	}
	return v, nil
}

// ValueLine words a card value for the face's corner, with its 95%
// interval when the report has one: a playtester should see how sure the
// simulation is, not only what it thinks.
func ValueLine(cv *analysis.CardValue) string {
	s := fmt.Sprintf("plays like %.1f power", cv.Power)
	if ci := cv.PowerCI95; ci[0] != 0 || ci[1] != 0 {
		s += fmt.Sprintf(" [%.1f, %.1f]", ci[0], ci[1])
	}
	return s
}

// line is card id's value line, "" without one.
func (v *Values) line(id string) string {
	if v == nil {
		return ""
	}
	return v.Lines[id]
}
