package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// MaxResultsSize caps a results file a game reads its card values from.
const MaxResultsSize = 256 << 20

// ResultCard is one card of a report's results.json: its id and its
// measured value as the file holds it (nil: none measured).
type ResultCard struct {
	ID    string
	Value json.RawMessage
}

// ValuesOf is a game's source of card values for its faces
// (ValueFacer): the game's package prefix, ID and name for messages, and
// what a value depends on ("a card's", "a bid card's").
type ValuesOf struct {
	Prefix, ID, Name, Whose string
}

// ResultFile is what a ValueFacer reads of a checked results file.
type ResultFile struct {
	Cards []ResultCard
	// Catalog is the report's catalog by key (results.json
	// report.catalog, what a game's Catalog wrote), each entry as the file
	// holds it; nil for a result without one ('cardlab simulate --json').
	Catalog map[string]json.RawMessage
}

// ReadResultCards reads a report's results.json (or a simulate --json
// result) for a ValueFacer: its cards, after checking that the file is
// one, of this game, measured on the ruleset of hash — a card's value
// depends on the whole ruleset, so values of other files are refused
// rather than printed by card id.
func (w ValuesOf) ReadResultCards(file, hash string) ([]ResultCard, error) {
	r, _, err := w.read(file, hash)
	if err != nil {
		return nil, err
	}
	return r.Cards, nil
}

// ReadResult reads and checks a results file as ReadResultCards does,
// and returns its cards and the report's catalog: a game whose measured
// values are the report's own study (its catalog entry) rather than the
// card-value experiment reads them there.
func (w ValuesOf) ReadResult(file, hash string) (*ResultFile, error) {
	r, report, err := w.read(file, hash)
	if err != nil {
		return nil, err
	}
	if len(report) > 0 && string(report) != "null" {
		var meta struct {
			Catalog map[string]json.RawMessage `json:"catalog"`
		}
		if err := json.Unmarshal(report, &meta); err != nil {
			return nil, fmt.Errorf("%s: %s: not a results.json: report: %v", w.Prefix, file, err)
		}
		r.Catalog = meta.Catalog
	}
	return r, nil
}

// read checks the results file and reads its cards; report is its
// "report" as the file holds it (what ReadResultCards's callers never
// read, so a broken one does not refuse their values).
func (w ValuesOf) read(file, hash string) (_ *ResultFile, report json.RawMessage, _ error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: reading values: %w", w.Prefix, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxResultsSize+1))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: reading values: %w", w.Prefix, err)
	}
	if len(data) > MaxResultsSize {
		return nil, nil, fmt.Errorf("%s: %s: too large for a results file", w.Prefix, file)
	}
	var res struct {
		ToolVersion string `json:"tool_version"`
		Ruleset     struct {
			Game, Hash string
		} `json:"ruleset"`
		Cards []struct {
			ID    string          `json:"id"`
			Value json.RawMessage `json:"value"`
		} `json:"cards"`
		Report json.RawMessage `json:"report"`
	}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&res); err != nil {
		return nil, nil, fmt.Errorf("%s: %s: not a results.json: %v", w.Prefix, file, err)
	}
	if res.ToolVersion == "" || res.Cards == nil {
		return nil, nil, fmt.Errorf("%s: %s: no tool_version or cards: not a results.json or 'cardlab simulate --json' result", w.Prefix, file)
	}
	if res.Ruleset.Game != w.ID {
		g := res.Ruleset.Game
		if g == "" {
			g = DefaultID
		}
		return nil, nil, fmt.Errorf("%s: %s holds a %s ruleset's results, not %s's", w.Prefix, file, g, w.Name)
	}
	if res.Ruleset.Hash != hash {
		return nil, nil, fmt.Errorf("%s: %s was measured on other files than these (ruleset %.8s, these %.8s): %s value depends on the whole ruleset; run the report on these files", w.Prefix, file, res.Ruleset.Hash, hash, w.Whose)
	}
	out := &ResultFile{Cards: make([]ResultCard, len(res.Cards))}
	seen := make(map[string]bool, len(res.Cards))
	for i, c := range res.Cards {
		if seen[c.ID] {
			// Two values of one card: neither can be trusted to be the
			// one the report printed.
			return nil, nil, fmt.Errorf("%s: %s: card %q appears twice: not a results.json cardlab wrote", w.Prefix, file, c.ID)
		}
		seen[c.ID] = true
		out.Cards[i] = ResultCard{ID: c.ID}
		if len(c.Value) > 0 && string(c.Value) != "null" {
			out.Cards[i].Value = c.Value
		}
	}
	return out, res.Report, nil
}
