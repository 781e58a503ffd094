package goofspiel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
	"gopkg.in/yaml.v3"
)

// Bounds of the ruleset format. A hand is a 64-bit set of bid cards, so
// MaxCards is 64; prizes above MaxPrize would let one prize dwarf a
// 64-prize game's total, which is no game to balance.
const (
	MaxCards = 64
	MaxPrize = 1000
	// RulesFile is the ruleset's one file.
	RulesFile = "rules.yaml"
)

// Ties says what happens to a prize when the highest bid is tied.
type Ties uint8

const (
	// Discard: the prize is lost (the design's choice, OpenSpiel's default).
	Discard Ties = iota
	// Carry: its points join the next prize's, and go to whoever takes
	// that; points still carried after the last turn are lost.
	Carry
)

var tieNames = []string{"discard", "carry"}

func (t Ties) String() string { return tieNames[t] }

// Ruleset is a loaded, validated Goofspiel ruleset; immutable once loaded
// (states and goroutines share it). It implements game.Ruleset.
type Ruleset struct {
	Name, Version          string
	MinPlayers, MaxPlayers int
	// HandSize is each player's hand: the bid cards 1..HandSize.
	HandSize int
	// Prizes are the prize cards' values in rules.yaml's order; a game
	// lasts len(Prizes) turns (at most HandSize).
	Prizes []int
	Ties   Ties
	Hash   string
	Files  map[string][]byte
	// PrizePos are the prize values' positions in rules.yaml (none when
	// the list was left out).
	PrizePos []cards.Pos
}

var ruleKeys = []string{"game", "name", "version", "players", "cards", "prizes", "ties"}

// Load reads and validates the ruleset directory that is fsys's root;
// prefix names it in messages (see cards.NewReader). Its error is a
// cards.ErrorList of every problem found, each at file:line:col.
func Load(fsys fs.FS, prefix string) (*Ruleset, error) {
	r := cards.NewReader(fsys, prefix)
	if !r.ReadDir() {
		return nil, r.Errs.Err()
	}
	for _, f := range r.Folders {
		r.FileErr(f, "a folder with a YAML name; a Goofspiel ruleset is the one file %s", RulesFile)
	}
	for _, f := range r.Files {
		if f != RulesFile {
			r.FileErr(f, "unknown ruleset file; a Goofspiel ruleset is the one file %s%s", RulesFile, r.DidYouMean(f, []string{RulesFile}))
		}
	}
	data, ok := r.Data[RulesFile]
	if !r.Has(RulesFile) {
		r.Errorf(cards.Pos{File: r.DirName()}, "no %s in the ruleset directory", RulesFile)
	}
	rs := &Ruleset{}
	if ok {
		if root := r.Parse(RulesFile, data); root != nil {
			readRules(r, root, rs)
		}
	}
	if err := r.Errs.Err(); err != nil {
		return nil, err
	}
	rs.Files = map[string][]byte{RulesFile: data}
	rs.Hash = cards.HashFiles(rs.Files)
	return rs, nil
}

func readRules(r *cards.Reader, root *yaml.Node, rs *Ruleset) {
	const f = RulesFile
	m := r.Object(f, root, f, ruleKeys)
	m.Require("game", "name", "version", "players", "cards")
	if g, ok := m.Str("game", false); ok && g != ID {
		r.Errorf(r.At(f, m.Get("game")), "game: %q is not %q; this ruleset is read as Goofspiel", cards.Truncate(g), ID)
	}
	if s, ok := m.Str("name", false); ok {
		r.CheckName(f, m.Get("name"), "ruleset", s)
		rs.Name = s
	}
	if s, ok := m.Str("version", false); ok {
		r.CheckName(f, m.Get("version"), "version", s)
		rs.Version = s
	}
	if n := m.Get("players"); n != nil {
		if pm := r.Object(f, n, "players", []string{"min", "max"}); pm != nil {
			pm.Require("min", "max")
			lo, okLo := pm.Int("min", 2, game.MaxSeats)
			hi, okHi := pm.Int("max", 2, game.MaxSeats)
			if okLo && okHi && lo > hi {
				r.Errorf(r.At(f, pm.Get("max")), "players: max %d is below min %d", hi, lo)
			}
			rs.MinPlayers, rs.MaxPlayers = lo, hi
		}
	}
	nc, okCards := m.Int("cards", 1, MaxCards)
	rs.HandSize = nc
	if n := m.Get("prizes"); n != nil {
		if n.Kind != yaml.SequenceNode {
			r.Errorf(r.At(f, n), "prizes: expected a list of prize values, got %s", cards.Describe(n))
		} else {
			if len(n.Content) == 0 {
				r.Errorf(r.At(f, n), "prizes: the list is empty; a game needs at least one prize")
			}
			if okCards && len(n.Content) > nc {
				r.Errorf(r.At(f, n.Content[nc]), "prizes: %d prizes but %d bid cards; each prize takes a bid card from every hand, so at most %d", len(n.Content), nc, nc)
			}
			sum := 0
			for i, item := range n.Content {
				v, ok := r.IntOf(f, item, "prizes["+strconv.Itoa(i)+"]", 0, MaxPrize)
				rs.Prizes = append(rs.Prizes, v)
				rs.PrizePos = append(rs.PrizePos, cards.ModelPos(f, item))
				if ok {
					sum += v
				}
			}
			if len(n.Content) > 0 && sum == 0 {
				r.Errorf(r.At(f, n), "prizes: every prize is worth 0; nobody could win a point")
			}
		}
	} else if okCards {
		for v := 1; v <= nc; v++ {
			rs.Prizes = append(rs.Prizes, v)
		}
	}
	if n := m.Get("ties"); n != nil {
		t, _ := r.EnumOf(f, n, "ties", "tie rule", tieNames)
		rs.Ties = Ties(t)
	}
}

// Game implements game.Ruleset.
func (*Ruleset) Game() string { return ID }

// Info implements game.Ruleset.
func (rs *Ruleset) Info() game.Info {
	return game.Info{Name: rs.Name, Version: rs.Version, Hash: rs.Hash, Files: rs.Files}
}

// Seats implements game.Ruleset: rules.yaml's players range.
func (rs *Ruleset) Seats() (min, max int) { return rs.MinPlayers, rs.MaxPlayers }

// Sides implements game.Ruleset: one side, "player", which every seat plays.
func (*Ruleset) Sides() []game.Side { return []game.Side{{ID: "player", Name: "Player"}} }

// Mirror implements game.Ruleset: every seat plays the same side.
func (*Ruleset) Mirror() bool { return true }

// Cards implements game.Ruleset: the player's bid cards (side 0, valued at
// their face) and then the prize cards (the shared pile, side -1).
func (rs *Ruleset) Cards() []game.Card {
	out := make([]game.Card, 0, rs.HandSize+len(rs.Prizes))
	for v := 1; v <= rs.HandSize; v++ {
		s := strconv.Itoa(v)
		out = append(out, game.Card{Index: len(out), ID: "bid-" + s, Name: "Bid " + s, Side: 0, Copies: 1,
			Columns: []game.Column{{Key: "value", Text: s, Int: v, IsInt: true}}})
	}
	for i, v := range rs.Prizes {
		s := strconv.Itoa(v)
		c := game.Card{Index: len(out), ID: "prize-" + strconv.Itoa(i+1), Name: "Prize " + s, Side: -1, Copies: 1,
			Columns: []game.Column{{Key: "value", Text: s, Int: v, IsInt: true}}}
		if i < len(rs.PrizePos) {
			c.Pos = rs.PrizePos[i]
		}
		out = append(out, c)
	}
	return out
}

// NewState implements game.Ruleset: every seat plays side 0.
func (rs *Ruleset) NewState(seats []int, seed uint64) (game.State, error) {
	if len(seats) < rs.MinPlayers || len(seats) > rs.MaxPlayers {
		return nil, fmt.Errorf("goofspiel: %d seats, the ruleset allows %d..%d", len(seats), rs.MinPlayers, rs.MaxPlayers)
	}
	for i, sd := range seats {
		if sd != 0 {
			return nil, fmt.Errorf("goofspiel: seat %d plays side %d; the one side is 0 (player)", i, sd)
		}
	}
	return New(rs, len(seats), seed), nil
}

// Schema is the JSON Schema (draft 2020-12) of rules.yaml, for editors.
// The loader checks more (max ≥ min, prizes ≤ cards, a prize worth a
// point); a file it accepts always satisfies the schema.
func Schema() ([]byte, error) {
	intRange := func(min, max int, desc string) cards.JSONObject {
		return cards.JSONObject{{"type", "integer"}, {"minimum", min}, {"maximum", max}, {"description", desc}}
	}
	s := append(cards.SchemaHeader("goofspiel-rules", "Goofspiel rules.yaml",
		"A Goofspiel ruleset: the hand of bid cards, the prize deck and the tie rule."),
		cards.JSONField{"type", "object"},
		cards.JSONField{"additionalProperties", false},
		cards.JSONField{"required", []string{"game", "name", "version", "players", "cards"}},
		cards.JSONField{"properties", cards.JSONObject{
			{"game", cards.JSONObject{{"const", ID}, {"description", "the game this ruleset is for"}}},
			{"name", cards.JSONObject{{"type", "string"}, {"minLength", 1}, {"maxLength", cards.MaxNameLen}, {"description", "display name"}}},
			{"version", cards.JSONObject{{"type", "string"}, {"minLength", 1}, {"maxLength", cards.MaxNameLen}, {"description", "the ruleset's version (quote it: \"1.0\")"}}},
			{"players", cards.JSONObject{
				{"type", "object"}, {"additionalProperties", false}, {"required", []string{"min", "max"}},
				{"properties", cards.JSONObject{
					{"min", intRange(2, game.MaxSeats, "fewest players")},
					{"max", intRange(2, game.MaxSeats, "most players")},
				}},
			}},
			{"cards", intRange(1, MaxCards, "each player's hand: the bid cards 1..cards")},
			{"prizes", cards.JSONObject{{"type", "array"}, {"minItems", 1}, {"maxItems", MaxCards},
				{"items", intRange(0, MaxPrize, "a prize card's points")},
				{"description", "the prize deck, one value per card and turn (at most cards); default 1..cards"}}},
			{"ties", cards.JSONObject{{"enum", tieNames}, {"default", "discard"},
				{"description", "a tie for the highest bid: discard the prize, or carry its points to the next prize"}}},
		}},
	)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("goofspiel: encoding the rules schema: %w", err)
	}
	return buf.Bytes(), nil
}
