package views

import (
	"slices"

	"github.com/cardlab/cardlab/game"
)

// Effects is the view of the cards' effects as they ran: the Effects sheet
// (every card with an effect, or whose effect ever ran: fired, blocked,
// fizzled) and the Effect handlers sheet (the same by handler).
type Effects struct{}

// ID implements game.View.
func (Effects) ID() string { return "effects" }

// cardCounts is one card's effect counts in results.json ("cards").
type cardCounts struct {
	ID      string `json:"id"`
	Faction string `json:"faction"`
	Name    string `json:"name"`
	Games   int64  `json:"games"`
	Fired   int64  `json:"fired"`
	Blocked int64  `json:"blocked"`
	Fizzled int64  `json:"fizzled"`
}

// effectRow is a card of the Effects sheet.
type effectRow struct {
	cardCounts
	kind, handler string
}

// Render implements game.View.
func (Effects) Render(r *game.ReportInput) (*game.Part, error) {
	var cs []cardCounts
	if _, err := decode(r, "cards", &cs); err != nil {
		return nil, err
	}
	cat, err := readCatalog(r)
	if err != nil {
		return nil, err
	}
	info := map[string]cardInfo{}
	if cat != nil {
		for _, c := range cat.Cards {
			info[c.ID] = c
		}
	}
	// The cards in the result's order; kind and handler as printed, none
	// for a card the catalog lacks.
	var rows []effectRow
	for _, c := range cs {
		in, known := info[c.ID]
		if c.Name == "" && known {
			c.Name = in.Name
		}
		if in.Kind != "N" || c.Fired+c.Blocked+c.Fizzled > 0 {
			rows = append(rows, effectRow{c, in.Kind, in.Effect})
		}
	}
	// The cards' counts: here and in the report's own card figures.
	return &game.Part{Covers: []string{"cards"}, Sheets: []game.Sheet{effectSheet(rows), handlerSheet(rows)}}, nil
}

// share is n/of, or an empty cell when of is 0.
func share(n, of int64) game.SheetCell {
	if of == 0 {
		return game.SheetCell{}
	}
	return game.SheetCell{Value: float64(n) / float64(of)}
}

// Column definitions the two sheets share.
var (
	colFired   = game.SheetColumn{Head: "fired", Doc: "in the kind's own terms: one-time, times its effect ran when revealed; permanent and scoring, rows scored with it in effect; special, times used (a shield played, a Wave played, a Teleport placed, a scout placed face up)"}
	colBlocked = game.SheetColumn{Head: "blocked", Doc: "one-time: times revealed without effect (Deactivated marker, a blocker ship above, a scout beneath); permanent and scoring: rows scored with its effect blocked (fired + blocked = scored)"}
	colFizzled = game.SheetColumn{Head: "fizzled", Doc: "one-time: times it fired but could do nothing; special: uses to no effect (a Teleport at the bottom, a scout with nothing above)"}
	colBShare  = game.SheetColumn{Head: "blocked share", Format: fmtPct, Doc: "blocked ÷ (fired + blocked)"}
	colFShare  = game.SheetColumn{Head: "fizzled share of fired", Format: fmtPct, Doc: "fizzled ÷ fired"}
	colHandler = "the effect handler the card binds to (cardlab effects NAME explains it)"
)

func effectSheet(rows []effectRow) game.Sheet {
	s := game.Sheet{Name: "Effects", Columns: []game.SheetColumn{
		{Head: "card", Width: 20, Doc: "the card's id in the ruleset's YAML"},
		{Head: "name", Width: 24, Doc: "the name as printed"},
		{Head: "faction", Doc: "the faction's id"},
		{Head: "kind", Width: 6, Doc: "the effect kind: N none, O one-time, P permanent, X special, S scoring"},
		{Head: "handler", Width: 20, Doc: colHandler},
		colFired, colBlocked, colFizzled,
		{Head: "fired per game", Format: fmtDec3, Doc: "fired ÷ games of the card's faction"},
		colBShare, colFShare,
	}}
	for _, c := range rows {
		s.Rows = append(s.Rows, []game.SheetCell{{Value: c.ID}, {Value: c.Name}, {Value: c.Faction}, {Value: c.kind},
			{Value: c.handler}, {Value: c.Fired}, {Value: c.Blocked}, {Value: c.Fizzled},
			share(c.Fired, c.Games), share(c.Blocked, c.Fired+c.Blocked), share(c.Fizzled, c.Fired)})
	}
	return s
}

func handlerSheet(rows []effectRow) game.Sheet {
	type agg struct {
		handler                string
		cards                  int64
		fired, blocked, fizzle int64
	}
	byH := map[string]*agg{}
	var order []string
	for _, c := range rows {
		h := c.handler
		if h == "" {
			h = "(unknown)"
		}
		a := byH[h]
		if a == nil {
			a = &agg{handler: h}
			byH[h] = a
			order = append(order, h)
		}
		a.cards++
		a.fired += c.Fired
		a.blocked += c.Blocked
		a.fizzle += c.Fizzled
	}
	slices.Sort(order)
	s := game.Sheet{Name: "Effect handlers", Columns: []game.SheetColumn{
		{Head: "handler", Width: 22, Doc: colHandler},
		{Head: "cards", Doc: "cards bound to the handler"},
		colFired, colBlocked, colFizzled, colBShare, colFShare,
	}}
	for _, h := range order {
		a := byH[h]
		s.Rows = append(s.Rows, []game.SheetCell{{Value: a.handler}, {Value: a.cards}, {Value: a.fired}, {Value: a.blocked},
			{Value: a.fizzle}, share(a.blocked, a.fired+a.blocked), share(a.fizzle, a.fired)})
	}
	return s
}
