// Package scenario loads scenario files: a position at the start of the
// Reveal Phase — the players, the rows with their targets and cards — and
// optionally the expected outcome of each row. `cardlab score` plays the
// Reveal Phase of a scenario and explains the scoring of every row; with
// --check it compares the outcome with the expectations. docs/scenarios.md
// describes the format.
package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Scenario is a loaded, validated scenario.
type Scenario struct {
	// Name is the name the scenario was loaded under (its file name), used
	// in messages.
	Name string
	// Players are faction ids in seat order.
	Players []string
	// Seed seeds the shuffles of the cards the scenario does not name and
	// the choices bots make; 0 when not given.
	Seed    uint64
	HasSeed bool
	// Ruleset is the ruleset the scenario plays with: the one passed to Load,
	// or a copy of it with the scenario's extra cards added.
	Ruleset *rules.Ruleset
	// Extra lists the ids of the cards the scenario defines inline.
	Extra  []string
	Rows   []Row
	Expect []Expect
}

// Row is one row: its target and its cards from top to bottom.
type Row struct {
	Target string
	Cards  []Card
	Pos    cards.Pos
}

// Card is a card in a row.
type Card struct {
	Card   string // card id
	Owner  int    // seat
	FaceUp bool
	Pos    cards.Pos
}

// Expect is the expected outcome of one row. Fields left out of the file are
// not checked.
type Expect struct {
	Row int // 1-based
	// Winner is a faction id or "none"; "" when not checked.
	Winner string
	// Reason is one of Reasons; "" when not checked.
	Reason string
	// Power maps faction ids to combat power; nil when not checked. Only the
	// factions listed are checked.
	Power map[string]int

	Pos                  cards.Pos
	WinnerPos, ReasonPos cards.Pos
	PowerPos             map[string]cards.Pos
}

// Reasons are the ways a row can be decided, as scenario files and
// `cardlab score` name them: the engine's scoring reasons, "negotiated" for a
// target taken by Negotiations during the Reveal Phase, and "none" for a row
// nobody has a card in.
var Reasons = []string{
	engine.ReasonPower.String(), engine.ReasonCombo.String(), engine.ReasonTieTop.String(),
	engine.ReasonComboTie.String(), "negotiated", "none",
}

// Setup is the scenario as a game setup: the Reveal Phase starts at once and
// the game pauses before the Scoring Phase, so that each row can be scored
// and explained with State.ScoreRow.
func (sc *Scenario) Setup() engine.Setup {
	su := engine.Setup{
		Factions:           append([]string(nil), sc.Players...),
		Seed:               sc.Seed,
		Phase:              engine.Reveal,
		PauseBeforeScoring: true,
		Rows:               make([]engine.SetupRow, len(sc.Rows)),
	}
	for i, r := range sc.Rows {
		sr := engine.SetupRow{Target: r.Target, Cards: make([]engine.SetupCard, len(r.Cards))}
		for k, c := range r.Cards {
			sr.Cards[k] = engine.SetupCard{Card: c.Card, Owner: c.Owner, FaceUp: c.FaceUp}
		}
		su.Rows[i] = sr
	}
	return su
}

// Result is the outcome of one row, as `cardlab score` reports it.
type Result struct {
	Row    int    // 1-based
	Winner string // faction id, or "none"
	Reason string // one of Reasons
	Power  map[string]int
}

// Check compares results with the expectations and returns one error per
// mismatch, each as "name:line:col: row N: …", in file order.
func (sc *Scenario) Check(results []Result) []error {
	byRow := map[int]*Result{}
	for i := range results {
		byRow[results[i].Row] = &results[i]
	}
	var errs cards.ErrorList
	add := func(p cards.Pos, row int, format string, args ...any) {
		errs = append(errs, &cards.Error{Pos: p, Msg: fmt.Sprintf("row %d: ", row) + fmt.Sprintf(format, args...)})
	}
	for _, e := range sc.Expect {
		got, ok := byRow[e.Row]
		if !ok {
			add(e.Pos, e.Row, "no result")
			continue
		}
		if e.Winner != "" && e.Winner != got.Winner {
			add(e.WinnerPos, e.Row, "winner is %s, expected %s", got.Winner, e.Winner)
		}
		if e.Reason != "" && e.Reason != got.Reason {
			add(e.ReasonPos, e.Row, "reason is %s, expected %s", got.Reason, e.Reason)
		}
		for _, f := range slices.Sorted(maps.Keys(e.Power)) {
			if want, have := e.Power[f], got.Power[f]; want != have {
				add(e.PowerPos[f], e.Row, "power of %s is %d, expected %d", f, have, want)
			}
		}
	}
	errs.Sort()
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return out
}

// String summarises the scenario: "starfleet vs klingon, 3 rows".
func (sc *Scenario) String() string {
	rows := "rows"
	if len(sc.Rows) == 1 {
		rows = "row"
	}
	return fmt.Sprintf("%s, %d %s", strings.Join(sc.Players, " vs "), len(sc.Rows), rows)
}
