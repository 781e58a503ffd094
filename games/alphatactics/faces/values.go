package faces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// maxResultsSize caps the results file read for --with-values.
const maxResultsSize = 256 << 20

// Values are the measured card values of a report, worded for the face.
type Values struct {
	Lines map[string]string // card id → "plays like 9.4 power [7.9, 10.8]"
	// Cards holds the values themselves, for cards.csv.
	Cards map[string]CardValue
	// Cards that have a value, and the report's cards that are not in the
	// ruleset (a report of another version of the cards).
	Found   int
	Unknown []string
	// HashMatches is false when the report was made from other files than
	// the ruleset being printed.
	HashMatches bool
	// Stale lists the cards edited since their value was measured (their
	// play hash, or in an older results.json their printed power, copies,
	// type, kind or effect, differs): their faces say so instead of
	// printing a value of another card.
	Stale []string
}

// StaleLine is printed on the face of a card edited since its value was
// measured.
const StaleLine = "edited since measured: no value"

// CardValue is what a face prints of a card's measured value: results.json's
// cards[].value (analysis.CardValue, docs/metrics.md "Card value"), read
// here by its JSON names because analysis imports the game
// (TestReadsAnalysisResults keeps the two in step).
type CardValue struct {
	Power     float64    `json:"power"`
	PowerCI95 [2]float64 `json:"power_ci95"`
	CardHash  string     `json:"card_hash"`
}

// results is the part of a results.json (or a 'cardlab simulate --json'
// result, analysis.Report) that printing values needs.
type results struct {
	ToolVersion string `json:"tool_version"`
	Ruleset     struct {
		Hash string `json:"hash"`
	} `json:"ruleset"`
	Cards []struct {
		ID    string     `json:"id"`
		Value *CardValue `json:"value"`
	} `json:"cards"`
}

// catalogCard is what an older results.json (without card_hash) recorded
// of a card's face, to compare with the card now.
type catalogCard struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Kind   string `json:"kind"`
	Power  int    `json:"power"`
	Copies int    `json:"copies"`
	Effect string `json:"effect"`
}

// edited reports whether card c was changed since v was measured: by the
// stored play hash, else by the report's catalog entry, else (neither
// recorded) not known to be.
func edited(rs *rules.Ruleset, c *rules.Card, v *CardValue, cat *catalogCard) bool {
	if v.CardHash != "" {
		return v.CardHash != rs.PlayHash(c)
	}
	if cat == nil {
		return false
	}
	eff := ""
	if c.Effect != nil {
		eff = c.Effect.Handler
	}
	return cat.Type != c.Type.String() || cat.Kind != c.Kind.String() || cat.Power != c.Power ||
		cat.Copies != c.Copies || cat.Effect != eff
}

// ReadValues reads a report's results.json (or a `cardlab simulate --json`
// result) and words each card's measured value. Cards without a value
// (the run did not estimate it) print none.
func ReadValues(name string, rs *rules.Ruleset) (*Values, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("faces: reading values: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxResultsSize+1))
	if err != nil {
		return nil, fmt.Errorf("faces: reading values: %w", err)
	}
	if len(data) > maxResultsSize {
		return nil, fmt.Errorf("faces: %s: too large for a results file", name)
	}
	var rep results
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("faces: %s: not a results.json: %v", name, err)
	}
	if rep.ToolVersion == "" || rep.Cards == nil {
		return nil, fmt.Errorf("faces: %s: no tool_version or cards: not a results.json or 'cardlab simulate --json' result", name)
	}
	var meta struct {
		Report struct {
			Catalog struct {
				Cards []catalogCard `json:"cards"`
			} `json:"catalog"`
		} `json:"report"`
	}
	_ = json.Unmarshal(data, &meta) // decoded above; a catalog is optional
	printed := map[string]*catalogCard{}
	for i := range meta.Report.Catalog.Cards {
		printed[meta.Report.Catalog.Cards[i].ID] = &meta.Report.Catalog.Cards[i]
	}
	v := &Values{Lines: map[string]string{}, Cards: map[string]CardValue{}, HashMatches: rep.Ruleset.Hash == "" || rep.Ruleset.Hash == rs.Hash}
	seen := map[string]bool{}
	for _, c := range rep.Cards {
		if seen[c.ID] {
			// Two values of one card: neither can be trusted to be the one
			// the report printed.
			return nil, fmt.Errorf("faces: %s: card %q appears twice: not a results.json cardlab wrote", name, c.ID)
		}
		seen[c.ID] = true
		card, ok := rs.CardByID(c.ID)
		if !ok {
			v.Unknown = append(v.Unknown, c.ID)
			continue
		}
		if c.Value == nil {
			continue
		}
		if edited(rs, card, c.Value, printed[c.ID]) {
			v.Stale = append(v.Stale, c.ID)
			v.Lines[c.ID] = StaleLine
			continue
		}
		v.Lines[c.ID] = ValueLine(c.Value)
		v.Cards[c.ID] = *c.Value
		v.Found++
	}
	if v.Found == 0 && len(v.Stale) == 0 {
		return v, errors.New("faces: " + name + " has no card values (cards[].value, docs/metrics.md \"Card value\"): it comes from a run that did not estimate them")
	}
	return v, nil
}

// ValueLine words a card value for the face's corner, with its 95%
// interval when the report has one: a playtester should see how sure the
// simulation is, not only what it thinks.
func ValueLine(cv *CardValue) string {
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

// card is card id's measured value, if it has one.
func (v *Values) card(id string) (CardValue, bool) {
	if v == nil {
		return CardValue{}, false
	}
	c, ok := v.Cards[id]
	return c, ok
}
