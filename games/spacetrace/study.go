package spacetrace

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cardlab/cardlab/game"
)

// The class-matrix study (design brief §4a.2): pure fleets of each ship
// card against each other at equal MP. Battles have no dice, so every
// figure is exact and takes microseconds.

// Studies implements game.Studier.
func (rs *Ruleset) Studies() []game.StudyInfo {
	return []game.StudyInfo{{
		Name: "costs",
		Doc:  "each ship card's cost against the cost model √(total AP × total LP) and how its pure fleet fares against every other at equal MP (exact)",
		Params: []game.StudyParam{
			{Key: "cards", Doc: "comma-separated ship card ids (default: every ship card)"},
			{Key: "battles", Doc: "the most battles of the war of attrition (default 100)"},
		},
	}, {
		Name: "classes",
		Doc:  "pure fleets of each ship card against each other at equal MP: MP each loses in one battle, and who wins battle after battle (exact: battles have no dice)",
		Params: []game.StudyParam{
			{Key: "cards", Doc: "comma-separated ship card ids (default: every ship card)"},
			{Key: "battles", Doc: "the most battles of the war of attrition (default 100)"},
		},
	}, {
		Name: "first_player",
		Doc:  "how much the player who begins round 1 wins, with the first-turn attack ban as the ruleset has it and flipped, on the same deals (paired)",
		Params: []game.StudyParam{
			{Key: "games", Doc: "games per setting (default 2000)"},
			{Key: "bots", Doc: "the bot spec both seats play (default greedy)"},
			{Key: "seed", Doc: "the master seed (default 1)"},
		},
	}, {
		Name: "errata",
		Doc:  "a ship card's cost as a paired diff: the deck with the card at each cost against the deck as written, on the same deals with the seats swapped (Interceptors at 60 MP, Dreadnought at 300 against 400)",
		Params: []game.StudyParam{
			{Key: "card", Doc: "the ship card's id (default dreadnought)"},
			{Key: "costs", Doc: "comma-separated MP to try (default: interceptors 40,50,70,80,100; dreadnought 400)"},
			{Key: "games", Doc: "deals per cost, each played twice (default 1000)"},
			{Key: "bots", Doc: "the bot spec both seats play (default greedy)"},
			{Key: "seed", Doc: "the master seed (default 1)"},
		},
	}}
}

// Study implements game.Studier.
func (rs *Ruleset) Study(name string, params map[string]string, stop *atomic.Bool) (*game.StudyResult, error) {
	switch name {
	case "first_player":
		return rs.firstPlayerStudy(params, stop)
	case "errata":
		return rs.errataStudy(params, stop)
	}
	if name != "classes" && name != "costs" {
		return nil, fmt.Errorf("spacetrace: no study %q (costs, classes, first_player, errata)", name)
	}
	for k := range params {
		if k != "cards" && k != "battles" {
			return nil, fmt.Errorf("spacetrace: study %s takes cards and battles, not %q", name, k)
		}
	}
	ships, err := rs.studyCards(params["cards"])
	if err != nil {
		return nil, err
	}
	battles := 100
	if v, ok := params["battles"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return nil, fmt.Errorf("spacetrace: battles %q: expected a whole number 1..10000", v)
		}
		battles = n
	}
	var rows []ClassMatchup
	for _, a := range ships {
		for _, b := range ships {
			if stop.Load() {
				return nil, game.ErrStopped
			}
			rows = append(rows, rs.Matchup(a, b, battles))
		}
	}
	if name == "costs" {
		return rs.costTable(ships, rows, battles), nil
	}
	return rs.classTables(ships, rows, battles), nil
}

// costTable is the cost curve's exact half (brief §4a.1): each card's MP
// against √(total AP × total LP), the Lanchester fighting value the
// reconstruction priced by, and what its pure fleet does against every
// other card's at equal MP.
func (rs *Ruleset) costTable(ships []int, rows []ClassMatchup, battles int) *game.StudyResult {
	sh := game.Sheet{Name: "Cost curve", Columns: []game.SheetColumn{
		{Head: "card", Doc: "the ship card"},
		{Head: "class", Doc: "its class"},
		{Head: "MP", Doc: "its printed cost"},
		{Head: "total AP", Doc: "ships × AP"},
		{Head: "total LP", Doc: "ships × LP"},
		{Head: "√(AP·LP)", Format: "0.0", Doc: "the cost model's price: √(total AP × total LP)"},
		{Head: "cost index", Format: "0.00", Doc: "MP / √(AP·LP): 1.00 on the model; above it the card pays for its abilities (or is overpriced), below it is cheap"},
		{Head: "margin per 100 MP", Format: "0.0", Doc: "the mean, over every other card, of the MP its fleet gains in one battle at equal MP (B lost − A lost), per 100 MP of fleet"},
		{Head: "wins", Doc: "opponents whose fleet it outlasts in the war of attrition"},
		{Head: "losses", Doc: "opponents whose fleet outlasts it"},
	}}
	n := len(ships)
	for i, a := range ships {
		c := &rs.Defs[a]
		ta, tl := c.Ships*c.AP, c.Ships*c.LP
		model := math.Sqrt(float64(ta) * float64(tl))
		var margin float64
		wins, losses, k := 0, 0, 0
		for j := 0; j < n; j++ {
			m := rows[i*n+j]
			if j == i || !m.Fits {
				continue
			}
			margin += float64(m.LostB-m.LostA) / float64(m.MP) * 100
			k++
			switch m.Winner {
			case 0:
				wins++
			case 1:
				losses++
			}
		}
		ci := any(nil)
		if model > 0 {
			ci = float64(c.MP) / model
		}
		mean := any(nil)
		if k > 0 {
			mean = margin / float64(k)
		}
		sh.Rows = append(sh.Rows, []game.SheetCell{{Value: c.ID}, {Value: int64(c.Class)}, {Value: int64(c.MP)},
			{Value: int64(ta)}, {Value: int64(tl)}, {Value: model}, {Value: ci}, {Value: mean},
			{Value: int64(wins)}, {Value: int64(losses)}})
	}
	return &game.StudyResult{
		Title:  "Spacetrace cost curve: printed MP, the cost model, and battle at equal MP",
		Tables: []game.Sheet{sh},
		Notes: []string{
			"exact: battles have no dice; no bot is involved",
			"the cost model √(total AP × total LP) is the reconstruction's pricing rule (design brief §3.1), not a fact of the game",
			"margin and wins come from the class matrix (study classes): pure fleets without a Base, copies of one card at the least common multiple of the two costs",
			fmt.Sprintf("war of attrition: at most %d battles, the end-of-turn restoration between them", battles),
		},
	}
}

func (rs *Ruleset) studyCards(list string) ([]int, error) {
	var out []int
	if list == "" {
		for i := range rs.Defs {
			if rs.Defs[i].Type == Ship && rs.Defs[i].MP > 0 {
				out = append(out, i)
			}
		}
		return out, nil
	}
	var ids []string
	for i := range rs.Defs {
		if rs.Defs[i].Type == Ship {
			ids = append(ids, rs.Defs[i].ID)
		}
	}
	for _, id := range strings.Split(list, ",") {
		id = strings.TrimSpace(id)
		ci := rs.CardIndex(id)
		if ci < 0 || rs.Defs[ci].Type != Ship {
			return nil, fmt.Errorf("spacetrace: no ship card %q (ship cards: %s)", id, strings.Join(ids, ", "))
		}
		if rs.Defs[ci].MP == 0 {
			return nil, fmt.Errorf("spacetrace: %q costs 0 MP; no fleet of it has a price", id)
		}
		out = append(out, ci)
	}
	return out, nil
}

// ClassMatchup is one cell of the class matrix: A copies of card A against
// B copies of card B, at equal MP.
type ClassMatchup struct {
	A, B         int // card indices
	CopiesA      int
	CopiesB      int
	MP           int  // each fleet's MP
	Fits         bool // both fleets fit a Fleet (MaxUnits)
	LostA, LostB int  // MP of cards destroyed in the first battle
	Winner       int  // the war of attrition: 0 A, 1 B, -1 neither
	Battles      int  // battles it took (or the cap)
	Stalemate    bool // a battle destroyed no card: the war cannot move
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Matchup fights A against B: copies so that both fleets cost lcm(MP_A,
// MP_B); one battle, then battles repeated with the end-of-turn
// restoration (E1) between them until a fleet is gone, a battle destroys
// no card, or battles runs out.
func (rs *Ruleset) Matchup(a, b, battles int) ClassMatchup {
	ma, mb := rs.Defs[a].MP, rs.Defs[b].MP
	l := ma / gcd(ma, mb) * mb
	m := ClassMatchup{A: a, B: b, CopiesA: l / ma, CopiesB: l / mb, MP: l, Winner: -1}
	if m.CopiesA > MaxUnits || m.CopiesB > MaxUnits {
		return m
	}
	m.Fits = true
	var fa, fb Fleet
	for i := 0; i < m.CopiesA; i++ {
		fa.U[fa.N] = ShipUnit(rs.Defs, a)
		fa.N++
	}
	for i := 0; i < m.CopiesB; i++ {
		fb.U[fb.N] = ShipUnit(rs.Defs, b)
		fb.N++
	}
	bt := Battle{R: &rs.Rules, Defs: rs.Defs}
	deadA, deadB := 0, 0
	for m.Battles < battles {
		bt.FleetBattle(&fa, &fb)
		m.Battles++
		da, db := dead(&fa), dead(&fb)
		if m.Battles == 1 {
			m.LostA, m.LostB = da*ma, db*mb
		}
		switch {
		case da == m.CopiesA && db == m.CopiesB:
			return m // both gone: neither wins
		case db == m.CopiesB:
			m.Winner = 0
			return m
		case da == m.CopiesA:
			m.Winner = 1
			return m
		case da == deadA && db == deadB:
			m.Stalemate = true
			return m
		}
		deadA, deadB = da, db
		for i := 0; i < fa.N; i++ {
			fa.U[i].Restore()
		}
		for i := 0; i < fb.N; i++ {
			fb.U[i].Restore()
		}
	}
	return m
}

func dead(f *Fleet) int {
	n := 0
	for i := 0; i < f.N; i++ {
		if f.U[i].Dead {
			n++
		}
	}
	return n
}

func (rs *Ruleset) classTables(ships []int, rows []ClassMatchup, battles int) *game.StudyResult {
	pairs := game.Sheet{Name: "Class matchups", Columns: []game.SheetColumn{
		{Head: "card A", Doc: "the first fleet's ship card"},
		{Head: "class A", Doc: "its class"},
		{Head: "card B", Doc: "the second fleet's ship card"},
		{Head: "class B", Doc: "its class"},
		{Head: "MP each", Doc: "each fleet's MP: the least common multiple of the two cards' MP"},
		{Head: "copies A", Doc: "cards in fleet A (MP each / A's MP)"},
		{Head: "copies B", Doc: "cards in fleet B"},
		{Head: "A lost MP", Doc: "MP of A's cards destroyed in one battle (a card that keeps a ship is restored at the end of the turn and costs nothing)"},
		{Head: "B lost MP", Doc: "MP of B's cards destroyed in one battle"},
		{Head: "margin A", Doc: "B lost MP − A lost MP: what fleet A gains in one battle, in MP"},
		{Head: "winner", Doc: "who is left after battles repeated with the end-of-turn restoration: A, B, none (both gone), stalemate (a battle destroyed no card), or open (the cap ran out)"},
		{Head: "battles", Doc: "battles fought until then"},
	}}
	matrix := game.Sheet{Name: "Class matrix", Columns: []game.SheetColumn{{Head: "A \\ B", Doc: "fleet A's card; each column is fleet B's card; each cell is margin A in MP, one battle at equal MP"}}}
	for _, b := range ships {
		matrix.Columns = append(matrix.Columns, game.SheetColumn{Head: rs.Defs[b].ID, Doc: "margin A in MP against a fleet of " + rs.Defs[b].Name})
	}
	for i, a := range ships {
		mrow := []game.SheetCell{{Value: rs.Defs[a].ID}}
		for j := range ships {
			m := rows[i*len(ships)+j]
			ca, cb := &rs.Defs[m.A], &rs.Defs[m.B]
			row := []game.SheetCell{{Value: ca.ID}, {Value: int64(ca.Class)}, {Value: cb.ID}, {Value: int64(cb.Class)},
				{Value: int64(m.MP)}, {Value: int64(m.CopiesA)}, {Value: int64(m.CopiesB)}}
			if !m.Fits {
				row = append(row, game.SheetCell{}, game.SheetCell{}, game.SheetCell{}, game.SheetCell{Value: "too many cards"}, game.SheetCell{})
				mrow = append(mrow, game.SheetCell{})
				pairs.Rows = append(pairs.Rows, row)
				continue
			}
			w := "open"
			switch {
			case m.Winner == 0:
				w = "A"
			case m.Winner == 1:
				w = "B"
			case m.Stalemate:
				w = "stalemate"
			case m.Battles < battles:
				w = "none"
			}
			row = append(row, game.SheetCell{Value: int64(m.LostA)}, game.SheetCell{Value: int64(m.LostB)},
				game.SheetCell{Value: int64(m.LostB - m.LostA)}, game.SheetCell{Value: w}, game.SheetCell{Value: int64(m.Battles)})
			pairs.Rows = append(pairs.Rows, row)
			mrow = append(mrow, game.SheetCell{Value: int64(m.LostB - m.LostA)})
		}
		matrix.Rows = append(matrix.Rows, mrow)
	}
	return &game.StudyResult{
		Title:  "Spacetrace class matrix: pure fleets at equal MP",
		Tables: []game.Sheet{matrix, pairs},
		Notes: []string{
			"exact: battles have no dice; no bot is involved (each fleet's cards fight in one order, copies of one card)",
			"fleets without a Base; fleet A attacks, but a fleet battle is symmetric (simultaneous volleys, B6)",
			"costs are printed MP only: a sacrifice cost (Penguins) and self-damage to the Base (Doomstar) are not priced here",
			fmt.Sprintf("war of attrition: battles repeated with the end-of-turn restoration between them, at most %d", battles),
		},
	}
}
