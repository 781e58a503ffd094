package game

import (
	"fmt"
	"io"
	"io/fs"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/cards"
)

// DefaultID is the game of a rules.yaml without a `game:` key: every ruleset
// written before cardlab knew a second game is an Alpha Tactics one, and
// keeps working unchanged.
const DefaultID = "alphatactics"

// RulesFile is the file of a ruleset that names its game.
const RulesFile = "rules.yaml"

// IDs are the registered games' IDs, sorted.
func IDs() []string {
	gs := Games()
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.ID()
	}
	return out
}

// Detect returns the game of the ruleset at fsys's root: the one rules.yaml's
// top-level `game:` key names, DefaultID without the key. prefix names the
// directory in messages, as in cards.NewReader.
//
// A rules.yaml that is missing, too large or not a YAML mapping is the
// default game's to report: Detect returns that game and its Load says
// what is wrong in its own words, so a broken ruleset reads as it did before
// the key existed. A `game:` that is not a registered game's ID is a
// positioned error (a cards.ErrorList) with a "did you mean".
func Detect(fsys fs.FS, prefix string) (Game, error) {
	id, err := readGameKey(fsys, prefix)
	if err != nil {
		return nil, err
	}
	if id.value == "" {
		g, ok := Lookup(DefaultID)
		if !ok {
			// A program that reads rulesets links its games (games/all).
			return nil, fmt.Errorf("game: the default game %q is not linked into this program", DefaultID)
		}
		return g, nil
	}
	if g, ok := Lookup(id.value); ok {
		return g, nil
	}
	ids := IDs()
	msg := fmt.Sprintf("unknown game %q", cards.Truncate(id.value))
	if s := cards.Suggest(id.value, ids); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	msg += " (registered games: " + strings.Join(ids, ", ") + ")"
	return nil, cards.ErrorList{{Pos: id.pos, Msg: msg}}
}

// gameKey is rules.yaml's `game:` value and where it stands; value "" when
// the key is absent or the file is not the game key's to judge.
type gameKey struct {
	value string
	pos   cards.Pos
}

func readGameKey(fsys fs.FS, prefix string) (gameKey, error) {
	if fsys == nil {
		return gameKey{}, nil
	}
	f, err := fsys.Open(RulesFile)
	if err != nil {
		return gameKey{}, nil
	}
	// One byte past the cap tells a file over it from one at it; the
	// loader reports the oversized file.
	data, err := io.ReadAll(io.LimitReader(f, cards.MaxFileSize+1))
	f.Close()
	if err != nil || len(data) > cards.MaxFileSize {
		return gameKey{}, nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return gameKey{}, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return gameKey{}, nil
	}
	file := RulesFile
	if p := strings.TrimSuffix(prefix, "/"); p != "" {
		file = p + "/" + RulesFile
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != "game" {
			continue
		}
		pos := cards.Pos{File: file, Line: v.Line, Col: v.Column}
		var bad error
		s, ok := cards.StringValue(v, "game", false, func(_ *yaml.Node, msg string) {
			bad = cards.ErrorList{{Pos: pos, Msg: msg + " (registered games: " + strings.Join(IDs(), ", ") + ")"}}
		})
		if !ok {
			if bad == nil {
				bad = cards.ErrorList{{Pos: pos, Msg: "game: expected a game's id"}}
			}
			return gameKey{}, bad
		}
		// A duplicate key is the loader's to report; the first one counts.
		return gameKey{value: s, pos: pos}, nil
	}
	return gameKey{}, nil
}
