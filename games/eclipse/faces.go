package eclipse

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// The printed faces (game.Facer): playtest sheets of what the table needs
// for a battle. The part tiles, one of each, in the colour of their kind;
// each player's blueprint boards in the player's colour (seat 1 attacks,
// seat 2 defends), their slots with the printed parts and the ship's
// values as printed; the NPCs' fixed tiles. A part's badge is its energy
// (what building a blueprint adds up, validity rule 1), a player
// blueprint's its cost in material, an NPC's its initiative.

// Kinds of part tile, by what a part mainly does; the tile's colour.
const (
	kindCannon = iota
	kindMissile
	kindDrive
	kindShield
	kindHull
	kindComputer
	kindSource
	kindOther
	numKinds
)

var kindNames = [numKinds]string{"Cannon", "Missile", "Drive", "Shield", "Hull", "Computer", "Energy source", "Part"}

var kindColors = [numKinds]string{"#b22222", "#c45a12", "#6a1b9a", "#1f5fa8", "#7a6a1e", "#2e7d32", "#00838f", "#4d4d4d"}

// seatColors tell the players' blueprint boards apart on the table.
var seatColors = [2]string{"#1f5fa8", "#b22222"}

var seatNames = [2]string{"Player 1 (attacker)", "Player 2 (defender)"}

// npcColor is the NPC tiles' colour.
const npcColor = "#4d4d4d"

// facesCSV is cards.csv's header: a row per part tile, then per
// blueprint of each player and per NPC. Cannon and missile dice per
// colour, the stats (a blueprint's as printed: its parts and its own
// bonus), energy produced and used, research, and a blueprint's slots,
// printed parts, cost, maximum and reputation.
var facesCSV = []string{"id", "deck", "name", "kind",
	"yellow", "orange", "blue", "red", "missiles_yellow", "missiles_orange", "missiles_blue", "missiles_red",
	"computer", "shield", "hull", "init", "move", "energy_made", "energy_used",
	"track", "research", "research_min", "slots", "printed", "cost", "max", "reputation",
	"text", "copies", "color", "back"}

// Faces implements game.Facer.
func (Game) Faces(grs game.Ruleset) (*game.FaceSet, error) {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return nil, fmt.Errorf("eclipse: faces of a %s ruleset", grs.Game())
	}
	return rs.faces(nil), nil
}

// faces words rs's tiles; values (nil: none) are the parts' measured
// values by part index, printed on their tiles and in cards.csv.
func (rs *Ruleset) faces(values *partValues) *game.FaceSet {
	s := &game.FaceSet{Name: rs.Name, Version: rs.Version, CSV: facesCSV}
	if values != nil {
		s.CSV = append(slices.Clone(facesCSV), values.columns()...)
		s.ValueLegend = "The corner figure \"on " + values.ship + ": N hulls vs …\" is the part's value computed exactly by the report's battle study: the " + values.ship + " with the part wins as often against one ship of each field as with N extra hulls"
	}
	pids, bids := rs.fileIDs()
	parts := game.Deck{ID: "parts", Name: "Ship parts", Stem: "parts", Back: game.Back{Title: "Ship part", Color: kindColors[kindOther]}}
	for i := range rs.Parts {
		f := rs.partFace(i, pids[i])
		f.Copies = 1
		if values != nil {
			values.put(&f, i)
		}
		parts.Faces = append(parts.Faces, f)
	}
	s.Decks = append(s.Decks, parts)
	for seat := range seatNames {
		stem := "blueprints-" + strconv.Itoa(seat+1)
		d := game.Deck{ID: stem, Name: "Blueprints · " + seatNames[seat], Stem: stem,
			Back: game.Back{Title: "Blueprint", Color: seatColors[seat]}}
		for i := range rs.Blueprints {
			if !rs.Blueprints[i].NPC {
				f := rs.blueprintFace(i, bids[i], seat)
				f.Copies = 1
				d.Faces = append(d.Faces, f)
			}
		}
		if len(d.Faces) > 0 {
			s.Decks = append(s.Decks, d)
		}
	}
	npcs := game.Deck{ID: "npcs", Name: "NPCs", Stem: "npcs", Back: game.Back{Title: "NPC", Color: npcColor}}
	for i := range rs.Blueprints {
		if rs.Blueprints[i].NPC {
			f := rs.blueprintFace(i, bids[i], -1)
			f.Copies = 1
			npcs.Faces = append(npcs.Faces, f)
		}
	}
	if len(npcs.Faces) > 0 {
		s.Decks = append(s.Decks, npcs)
	}
	return s
}

// fileIDs are the parts' and blueprints' ids as printing names their
// files (lower-case letters, digits, '-' and '_'): the id itself where it
// is one, else a name made of it, kept unique among the parts and among
// the blueprints. blueprints.yaml may name a ship "Cruiser" or "ship 2";
// its tile still prints.
func (rs *Ruleset) fileIDs() (parts, blueprints []string) {
	ids := func(n int, id func(int) string) []string {
		out := make([]string, n)
		taken := map[string]bool{}
		for i := range out {
			if fileID(id(i)) {
				out[i] = id(i)
				taken[out[i]] = true
			}
		}
		for i := range out {
			if out[i] != "" {
				continue
			}
			base := slug(id(i))
			name := base
			for k := 2; taken[name]; k++ {
				name = base + "-" + strconv.Itoa(k)
			}
			out[i] = name
			taken[name] = true
		}
		return out
	}
	return ids(len(rs.Parts), func(i int) string { return rs.Parts[i].ID }),
		ids(len(rs.Blueprints), func(i int) string { return rs.Blueprints[i].ID })
}

// maxFileID bounds a printed file name (printing refuses longer ones).
const maxFileID = cards.MaxIDLen

// fileID reports whether id can name a card's files as it is.
func fileID(id string) bool {
	if id == "" || len(id) > maxFileID {
		return false
	}
	for i, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || i > 0 && (r == '-' || r == '_')
		if !ok {
			return false
		}
	}
	return true
}

// slug makes id a file name: lower case, every other character a '-',
// at most maxFileID-4 bytes (room for a "-NNN" to keep it unique), never
// empty.
func slug(id string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(id) {
		if b.Len() >= maxFileID-4 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-_")
	if s == "" {
		s = "x"
	}
	return s
}

// kindOf is the kind a part's tile shows: its weapon, else its drive,
// shield, hull, computer, else an energy source.
func kindOf(st *Stats) int {
	switch {
	case st.Cannons.Total() > 0:
		return kindCannon
	case st.Missiles.Total() > 0:
		return kindMissile
	case st.Move > 0:
		return kindDrive
	case st.Shield != 0:
		return kindShield
	case st.Hull != 0:
		return kindHull
	case st.Computer != 0:
		return kindComputer
	case st.Energy > 0:
		return kindSource
	}
	return kindOther
}

// signed writes n with its sign, a typographic minus for a negative
// number ("+2", "−1", "0").
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}

// plural is n and the noun, "1 die", "2 dice".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// diceText words dice per colour with each colour's damage: "1 yellow die
// (1 damage a hit)", "1 red and 2 orange dice" each with its damage.
func (rs *Ruleset) diceText(d Dice) string {
	var parts []string
	for c := Colour(0); c < NumColours; c++ {
		if d[c] > 0 {
			parts = append(parts, fmt.Sprintf("%s (%s a hit)", plural(d[c], c.String()+" die", c.String()+" dice"), plural(rs.Rules.Damage[c], "damage", "damage")))
		}
	}
	return strings.Join(parts, ", ")
}

// hitRule is the ruleset's hit rule as a reminder on a weapon (R7).
func (rs *Ruleset) hitRule() string {
	r := &rs.Rules
	s := fmt.Sprintf("Hits when roll + computers − shields ≥ %d", r.HitTarget)
	switch {
	case r.AlwaysHit == 6:
		s += "; a 6 always hits"
	case r.AlwaysHit < 6:
		s += fmt.Sprintf("; %d or more always hits", r.AlwaysHit)
	}
	switch {
	case r.AlwaysMiss == 1:
		s += "; a 1 always misses"
	case r.AlwaysMiss > 1:
		s += fmt.Sprintf("; %d or less always misses", r.AlwaysMiss)
	}
	return s + "."
}

// statLines words what st does, a line each, in the order a battle reads
// them: weapons, computer, shield, hull, initiative, move, energy.
func (rs *Ruleset) statLines(st *Stats, energy bool) []string {
	var out []string
	if st.Cannons.Total() > 0 {
		out = append(out, "Cannons: "+rs.diceText(st.Cannons)+", every round.")
	}
	if st.Missiles.Total() > 0 {
		out = append(out, "Missiles: "+rs.diceText(st.Missiles)+", once, before the first round.")
	}
	if st.Computer != 0 {
		out = append(out, fmt.Sprintf("Computer %s: added to each of its rolls.", signed(st.Computer)))
	}
	if st.Shield != 0 {
		out = append(out, fmt.Sprintf("Shield %s: taken from each enemy roll at it.", signed(st.Shield)))
	}
	if st.Hull != 0 {
		out = append(out, fmt.Sprintf("Hull %s: absorbs %s.", signed(st.Hull), plural(st.Hull, "damage", "damage")))
	}
	if st.Move != 0 {
		out = append(out, fmt.Sprintf("Move %d: a drive.", st.Move))
	}
	if st.Init != 0 {
		out = append(out, "Initiative "+signed(st.Init)+".")
	}
	if energy {
		switch {
		case st.Energy > 0:
			out = append(out, fmt.Sprintf("Energy: produces %d.", st.Energy))
		case st.Energy < 0:
			out = append(out, fmt.Sprintf("Energy: uses %d.", -st.Energy))
		default:
			out = append(out, "Energy: uses none.")
		}
	}
	return out
}

// totalLines word a ship's values (its parts and its board's own): its
// weapons, then computer, shield and hull, then initiative and move, zeros
// included, so the table reads every base value off the tile.
func (rs *Ruleset) totalLines(st *Stats) []string {
	var out []string
	if st.Cannons.Total() > 0 {
		out = append(out, "Cannons: "+rs.diceText(st.Cannons)+".")
	}
	if st.Missiles.Total() > 0 {
		out = append(out, "Missiles: "+rs.diceText(st.Missiles)+", once, before the first round.")
	}
	if st.Cannons.Total()+st.Missiles.Total() == 0 {
		out = append(out, "No weapons.")
	}
	out = append(out, fmt.Sprintf("Computer %s · shield %d · hull %d.", signed(st.Computer), st.Shield, st.Hull))
	init := fmt.Sprintf("Initiative %d", st.Init)
	if st.Move > 0 {
		init += fmt.Sprintf(" · move %d", st.Move)
	}
	return append(out, init+".")
}

// summary is a part's effect in a few words for its type line: "1 yellow
// die", "computer +2 · initiative +1".
func (rs *Ruleset) summary(st *Stats) string {
	var out []string
	dice := func(d Dice, what string) {
		for c := Colour(0); c < NumColours; c++ {
			if d[c] > 0 {
				out = append(out, plural(d[c], c.String()+" "+what, c.String()+" "+what+"s"))
			}
		}
	}
	dice(st.Cannons, "die")
	dice(st.Missiles, "missile")
	if st.Move != 0 {
		out = append(out, "move "+strconv.Itoa(st.Move))
	}
	for _, x := range []struct {
		n    int
		name string
	}{{st.Computer, "computer"}, {st.Shield, "shield"}, {st.Hull, "hull"}, {st.Init, "initiative"}} {
		if x.n != 0 {
			out = append(out, x.name+" "+signed(x.n))
		}
	}
	return strings.Join(out, " · ")
}

// cells are st's columns of cards.csv.
func statCells(st *Stats) []game.Cell {
	num := func(k string, n int) game.Cell { return game.Cell{Key: k, Text: strconv.Itoa(n), Number: true} }
	var out []game.Cell
	for c := Colour(0); c < NumColours; c++ {
		out = append(out, num(c.String(), st.Cannons[c]), num("missiles_"+c.String(), st.Missiles[c]))
	}
	return append(out, num("computer", st.Computer), num("shield", st.Shield), num("hull", st.Hull),
		num("init", st.Init), num("move", st.Move), num("energy_made", st.EnergyMade), num("energy_used", st.EnergyUsed))
}

// partFace words part i, whose files are named id.
func (rs *Ruleset) partFace(i int, id string) game.Face {
	p := &rs.Parts[i]
	st := &p.Stats
	k := kindOf(st)
	lines := rs.statLines(st, true)
	if st.Cannons.Total()+st.Missiles.Total() > 0 {
		lines = append(lines, rs.hitRule())
	}
	if p.Tech.Track != "" {
		lines = append(lines, fmt.Sprintf("Research: %s track, cost %d (at least %d).", p.Tech.Track, p.Tech.Cost, p.Tech.Min))
	}
	// "Computer +2 · initiative +1", "Cannon · 1 yellow die": the kind
	// once.
	typeLine := kindNames[k]
	if sm := rs.summary(st); strings.HasPrefix(sm, strings.ToLower(typeLine)+" ") {
		typeLine = typeLine + sm[len(typeLine):]
	} else if sm != "" {
		typeLine += " · " + sm
	}
	f := game.Face{ID: id, Name: p.Name, Badge: signed(st.Energy), BadgeSub: "energy", TypeLine: typeLine,
		Text: strings.Join(lines, "\n"), Footer: "Ship part", Color: kindColors[k]}
	f.Cells = append([]game.Cell{{Key: "id", Text: p.ID}, {Key: "name", Text: p.Name}, {Key: "kind", Text: strings.ToLower(kindNames[k])}},
		statCells(st)...)
	if p.Tech.Track != "" {
		f.Cells = append(f.Cells, game.Cell{Key: "track", Text: p.Tech.Track},
			game.Cell{Key: "research", Text: strconv.Itoa(p.Tech.Cost), Number: true},
			game.Cell{Key: "research_min", Text: strconv.Itoa(p.Tech.Min), Number: true})
	}
	f.Cells = append(f.Cells, game.Cell{Key: "text", Text: f.Text}, game.Cell{Key: "copies", Text: "1", Number: true})
	return f
}

// blueprintFace words blueprint i, whose files are named id, as seat's
// board (-1: an NPC's tile).
func (rs *Ruleset) blueprintFace(i int, id string, seat int) game.Face {
	b := &rs.Blueprints[i]
	st := &b.Stats
	var lines []string
	if b.Slots > 0 {
		var slots []string
		for s := 0; s < b.Slots; s++ {
			name := "empty"
			if s < len(b.Printed) && b.Printed[s] >= 0 {
				name = rs.Parts[b.Printed[s]].Name
			}
			slots = append(slots, fmt.Sprintf("%d %s", s+1, name))
		}
		lines = append(lines, "Slots: "+strings.Join(slots, " · ")+".")
	}
	if !b.NPC {
		bonus := rs.summary(&b.Bonus)
		if b.Bonus.Energy != 0 {
			bonus = strings.TrimPrefix(bonus+" · energy "+signed(b.Bonus.Energy), " · ")
		}
		if bonus != "" {
			lines = append(lines, "Board: "+bonus+".")
		}
		lines = append(lines, "As printed:")
	}
	lines = append(lines, rs.totalLines(st)...)
	if !b.NPC {
		drive := "needs a drive"
		if !b.Mobile {
			drive = "takes no drive"
		}
		lines = append(lines, fmt.Sprintf("Energy %d produced, %d used; %s.", st.EnergyMade, st.EnergyUsed, drive))
	} else {
		lines = append(lines, "Always defends; assigns its hits by "+npcRuleText[rs.Rules.NPCPolicy]+".")
	}
	lines = append(lines, fmt.Sprintf("Destroying one draws %s.", plural(b.Reputation, "reputation tile", "reputation tiles")))
	text := strings.Join(lines, "\n")
	f := game.Face{ID: id, Name: b.Name, Text: text}
	kind := "blueprint"
	if b.NPC {
		kind = "npc"
		f.Badge, f.BadgeSub = strconv.Itoa(st.Init), "init"
		f.TypeLine = fmt.Sprintf("NPC · size %d · at most %d", b.Size, b.Max)
		f.Footer, f.Color = "NPC", npcColor
	} else {
		f.Badge, f.BadgeSub = strconv.Itoa(b.Cost), "material"
		f.TypeLine = fmt.Sprintf("Blueprint · size %d · %s · at most %d ships", b.Size, plural(b.Slots, "slot", "slots"), b.Max)
		f.Footer, f.Color = seatNames[seat], seatColors[seat]
	}
	var printed []string
	for s := 0; s < b.Slots; s++ {
		if s < len(b.Printed) && b.Printed[s] >= 0 {
			printed = append(printed, rs.Parts[b.Printed[s]].ID)
		} else {
			printed = append(printed, "")
		}
	}
	f.Cells = append([]game.Cell{{Key: "id", Text: b.ID}, {Key: "name", Text: b.Name}, {Key: "kind", Text: kind}}, statCells(st)...)
	num := func(k string, n int) game.Cell { return game.Cell{Key: k, Text: strconv.Itoa(n), Number: true} }
	f.Cells = append(f.Cells, num("slots", b.Slots), game.Cell{Key: "printed", Text: strings.Join(printed, ";")})
	if !b.NPC {
		f.Cells = append(f.Cells, num("cost", b.Cost))
	}
	f.Cells = append(f.Cells, num("max", b.Max), num("reputation", b.Reputation),
		game.Cell{Key: "text", Text: text}, num("copies", 1))
	return f
}

// npcRuleText words the NPCs' assignment rules (R11).
var npcRuleText = map[Policy]string{
	NPCRule:   "destroying the largest ships it can, else doing the most damage to the largest",
	MaxDamage: "doing the most damage",
}

// partValues are the parts' measured values a report's battle study
// gives (results.json report.catalog.eclipse_study, the parts study): a
// part tile on the ship's blueprint against one ship of each field, in
// hulls, exact only.
type partValues struct {
	ship   string   // the blueprint valued, its name
	fields []string // the fields' names
	// hulls[part][field] is the part's value in hulls, "" where the
	// study gives none (a source, a sampled table).
	hulls map[int][]string
}

func (v *partValues) columns() []string {
	out := []string{"value_ship"}
	for k := range v.fields {
		n := strconv.Itoa(k + 1)
		out = append(out, "value_field_"+n, "value_hulls_"+n)
	}
	return out
}

// put prints part i's values on f: the value line and cards.csv's cells.
func (v *partValues) put(f *game.Face, i int) {
	h := v.hulls[i]
	if h == nil {
		return
	}
	var line []string
	f.Cells = append(f.Cells, game.Cell{Key: "value_ship", Text: v.ship})
	for k, field := range v.fields {
		n := strconv.Itoa(k + 1)
		f.Cells = append(f.Cells, game.Cell{Key: "value_field_" + n, Text: field})
		if h[k] == "" {
			continue
		}
		f.Cells = append(f.Cells, game.Cell{Key: "value_hulls_" + n, Text: h[k], Number: !strings.HasPrefix(h[k], ">")})
		if len(line) == 0 {
			line = append(line, h[k]+" hulls vs "+field)
		} else {
			line = append(line, h[k]+" vs "+field)
		}
	}
	if len(line) > 0 {
		f.Value = "on " + v.ship + ": " + strings.Join(line, ", ")
	}
}

// FacesWithValues implements game.ValueFacer: the faces of Faces with
// each part's value in hulls from a report's battle study (results.json
// report.catalog.eclipse_study: the part on the first mobile player
// blueprint against one ship of each of the first two, "plays like 0.89
// hulls"), exact figures only. A part's value depends on the whole
// ruleset — the ship it is fitted to, the field, the hit rule — so values
// measured on other files than these are refused.
func (Game) FacesWithValues(grs game.Ruleset, file string) (*game.FaceSet, *game.ValueNotes, error) {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return nil, nil, fmt.Errorf("eclipse: faces of a %s ruleset", grs.Game())
	}
	res, err := (game.ValuesOf{Prefix: "eclipse", ID: ID, Name: "Eclipse ship combat", Whose: "a part's"}).ReadResult(file, rs.Hash)
	if err != nil {
		return nil, nil, err
	}
	values, err := rs.readPartValues(res.Catalog[catalogKey], file)
	if err != nil {
		return nil, nil, err
	}
	return rs.faces(values), &game.ValueNotes{HashMatches: true}, nil
}

// readPartValues reads the parts study's tables of the report's catalog
// entry raw (nil: none).
func (rs *Ruleset) readPartValues(raw json.RawMessage, file string) (*partValues, error) {
	none := fmt.Errorf("eclipse: %s has no part values (the report's battle study, docs/rules-eclipse.md \"Printing\"): it comes from a run that did not compute them ('cardlab report' does)", file)
	if raw == nil {
		return nil, none
	}
	var sc studyCatalog
	if err := json.Unmarshal(raw, &sc); err != nil {
		return nil, fmt.Errorf("eclipse: %s: not a results.json: the battle study: %v", file, err)
	}
	ships := rs.mobilePlayers()
	if len(ships) == 0 {
		return nil, none
	}
	valued := rs.valuedParts()
	v := &partValues{ship: rs.Blueprints[rs.blueprintIndex(ships[0])].Name, hulls: map[int][]string{}}
	for _, t := range sc.Tables {
		fid, ok := strings.CutPrefix(t.Name, "parts vs ")
		if !ok {
			continue
		}
		fieldName := fid
		if b := rs.blueprintIndex(fid); b >= 0 {
			fieldName = rs.Blueprints[b].Name
		} else if fl := rs.FleetIndex(fid); fl >= 0 {
			fieldName = rs.Fleets[fl].Name
		}
		hcol := -1
		for c, col := range t.Columns {
			if col.Head == "hulls" {
				hcol = c
			}
		}
		// The parts' rows close the table, in valuedParts' order (the
		// study's rows before them are the stat units).
		if hcol < 0 || len(t.Rows) < len(valued) {
			return nil, fmt.Errorf("eclipse: %s: the part values against %s are not the parts study's table", file, fid)
		}
		rows := t.Rows[len(t.Rows)-len(valued):]
		k := len(v.fields)
		v.fields = append(v.fields, fieldName)
		for j, p := range valued {
			r := rows[j]
			if len(r) != len(t.Columns) || r[0].Value != "+"+rs.Parts[p].Name {
				return nil, fmt.Errorf("eclipse: %s: the part values against %s do not list these parts (row %d is not %q)", file, fid, len(t.Rows)-len(valued)+j+1, "+"+rs.Parts[p].Name)
			}
			c := r[hcol]
			if c.Mark != "exact" {
				continue // a sampled figure without its interval: not printed
			}
			var text string
			if h, ok := game.CellNumber(c.Value); ok && !math.IsNaN(h) && !math.IsInf(h, 0) {
				text = strconv.FormatFloat(h, 'f', 2, 64)
			} else if s, ok := c.Value.(string); ok && strings.HasPrefix(s, "> ") {
				if _, err := strconv.Atoi(s[2:]); err == nil {
					text = s
				}
			}
			if text == "" {
				continue
			}
			if v.hulls[p] == nil {
				v.hulls[p] = make([]string, 0, 2)
			}
			for len(v.hulls[p]) < k {
				v.hulls[p] = append(v.hulls[p], "")
			}
			v.hulls[p] = append(v.hulls[p], text)
		}
	}
	for p := range v.hulls {
		for len(v.hulls[p]) < len(v.fields) {
			v.hulls[p] = append(v.hulls[p], "")
		}
	}
	if len(v.hulls) == 0 {
		return nil, none
	}
	return v, nil
}

// blueprintIndex is the index of the blueprint id, or -1.
func (rs *Ruleset) blueprintIndex(id string) int {
	for i := range rs.Blueprints {
		if rs.Blueprints[i].ID == id {
			return i
		}
	}
	return -1
}

var _ game.ValueFacer = Game{}

// CardFace implements game.CardFacer: a part tile or a blueprint (as
// player 1's board) by its id, without copies.
func (Game) CardFace(grs game.Ruleset, id string) (game.Face, bool) {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return game.Face{}, false
	}
	pids, bids := rs.fileIDs()
	for i := range rs.Parts {
		if rs.Parts[i].ID == id {
			return rs.partFace(i, pids[i]), true
		}
	}
	for i := range rs.Blueprints {
		if rs.Blueprints[i].ID == id {
			seat := 0
			if rs.Blueprints[i].NPC {
				seat = -1
			}
			return rs.blueprintFace(i, bids[i], seat), true
		}
	}
	return game.Face{}, false
}

var _ game.CardFacer = Game{}
