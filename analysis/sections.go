package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/cardlab/cardlab/game"
)

// A game's own counts (game.Counter) are sections: named tables of
// integers that results.json holds beside the core's counts. Counts writes
// them at fixed places — the tables after "seats", the per-game columns
// (game.GameSection) inside "game" after the decisions — so Alpha Tactics'
// targets, cards, passes and rounds keep the keys and the order results
// had before the split, byte for byte, checksums included (design
// game-neutral-core.md §3.7). Read back, a section takes its column
// descriptions from its game's layout (game.CountRules), which the file
// must match.

// MarshalJSON writes the core's counts and the game's sections in their
// places.
func (c Counts) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	size := 512 + 64*len(c.Factions) + 96*len(c.Lineups) + 128*len(c.Seats)
	for _, s := range c.Sections {
		size += len(s.Rows) * (16 + 24*len(s.Labels) + 20*len(s.Columns))
	}
	b.Grow(size)
	field := func(key string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		writeKey(&b, key)
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		err := enc.Encode(v)
		b.Write(bytes.TrimSuffix(out.Bytes(), []byte("\n")))
		return err
	}
	b.WriteByte('{')
	if err := errors.Join(field("win_unit", c.WinUnit), field("games", c.Games), field("factions", c.Factions),
		field("lineups", c.Lineups), field("seats", c.Seats)); err != nil {
		return nil, err
	}
	var per *game.Section
	for i := range c.Sections {
		s := &c.Sections[i]
		if s.Key == game.GameSection {
			per = s
			continue
		}
		b.WriteByte(',')
		writeKey(&b, s.Key)
		if err := writeRows(&b, s); err != nil {
			return nil, err
		}
	}
	g := c.Game
	b.WriteString(`,"game":{"decisions":`)
	b.WriteString(strconv.FormatInt(g.Decisions, 10))
	b.WriteString(`,"decisions_sq":`)
	b.WriteString(strconv.FormatInt(g.DecisionsSq, 10))
	if per != nil {
		var row game.Row
		if len(per.Rows) > 0 {
			row = per.Rows[0]
		}
		v := 0
		for _, col := range per.Columns {
			b.WriteByte(',')
			writeKey(&b, col.Key)
			var x int64
			if v < len(row.Values) {
				x = row.Values[v]
			}
			v++
			b.WriteString(strconv.FormatInt(x, 10))
		}
	}
	fmt.Fprintf(&b, `,"margin":%d,"margin_sq":%d,"shared":%d}`, g.Margin, g.MarginSq, g.Shared)
	if c.Quality != nil {
		if err := field("quality", c.Quality); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeKey(b *bytes.Buffer, key string) {
	writeString(b, key)
	b.WriteByte(':')
}

// writeString writes s as encoding/json writes a string without its HTML
// escaping, which encoding/json applies to a Marshaler's output itself
// when it is on (json.Marshal, the checksum) and not when it is off
// (cardlab's files): so a name with "<" or "&" comes out as a struct's
// field would. Printable ASCII is written as is: the counts hold thousands
// of keys and labels, and an encoder each would allocate that many times at
// the end of every run.
func writeString(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b.Write(marshalNoHTML(s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// marshalNoHTML is v's JSON without HTML escaping (see writeString).
func marshalNoHTML(v any) []byte {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null")
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// writeRows writes s's rows as a JSON array of objects: labels, then the
// counts in column order.
func writeRows(b *bytes.Buffer, s *game.Section) error {
	if s.Rows == nil {
		b.WriteString("null")
		return nil
	}
	b.WriteByte('[')
	for i, r := range s.Rows {
		if i > 0 {
			b.WriteByte(',')
		}
		if len(r.Labels) != len(s.Labels) {
			return fmt.Errorf("analysis: section %s row %d has %d labels for %d", s.Key, i, len(r.Labels), len(s.Labels))
		}
		b.WriteByte('{')
		for k, l := range s.Labels {
			if k > 0 {
				b.WriteByte(',')
			}
			writeKey(b, l)
			writeString(b, r.Labels[k])
		}
		v, p := 0, 0
		for k, col := range s.Columns {
			if k > 0 || len(s.Labels) > 0 {
				b.WriteByte(',')
			}
			writeKey(b, col.Key)
			if col.PerSide {
				if p >= len(r.Sides) {
					return fmt.Errorf("analysis: section %s row %d lacks column %s", s.Key, i, col.Key)
				}
				writeInts(b, r.Sides[p])
				p++
				continue
			}
			if v >= len(r.Values) {
				return fmt.Errorf("analysis: section %s row %d lacks column %s", s.Key, i, col.Key)
			}
			var num [20]byte
			b.Write(strconv.AppendInt(num[:0], r.Values[v], 10))
			v++
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return nil
}

// writeInts writes xs as a JSON array (null when nil, as encoding/json).
func writeInts(b *bytes.Buffer, xs []int64) {
	if xs == nil {
		b.WriteString("null")
		return
	}
	b.WriteByte('[')
	var num [20]byte
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(strconv.AppendInt(num[:0], x, 10))
	}
	b.WriteByte(']')
}

// UnmarshalJSON reads what MarshalJSON writes: the core's keys into their
// fields, any other key of the object into a section (an array of objects
// whose strings are labels, numbers counts and arrays per-side counts, in
// the first row's order), any other key of "game" into a column of the
// game section. Which game the sections belong to is known only from the
// report around them; Check binds them to its layout.
func (c *Counts) UnmarshalJSON(data []byte) error {
	*c = Counts{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	seen := map[string]bool{}
	for dec.More() {
		key, err := keyToken(dec)
		if err != nil {
			return err
		}
		if seen[key] {
			return fmt.Errorf("raw: key %q twice", key)
		}
		seen[key] = true
		switch key {
		case "win_unit":
			err = dec.Decode(&c.WinUnit)
		case "games":
			err = dec.Decode(&c.Games)
		case "factions":
			err = dec.Decode(&c.Factions)
		case "lineups":
			err = dec.Decode(&c.Lineups)
		case "seats":
			err = dec.Decode(&c.Seats)
		case "game":
			err = c.decodeGame(dec)
		case "quality":
			c.Quality = new(QualityCounts)
			err = dec.Decode(c.Quality)
		default:
			var s *game.Section
			if s, err = decodeSection(dec, key); err == nil {
				c.Sections = append(c.Sections, *s)
			}
		}
		if err != nil {
			return fmt.Errorf("raw.%s: %w", key, err)
		}
	}
	// The game section is written last of the sections (inside "game").
	if i := slices.IndexFunc(c.Sections, func(s game.Section) bool { return s.Key == game.GameSection }); i >= 0 {
		s := c.Sections[i]
		c.Sections = append(slices.Delete(c.Sections, i, i+1), s)
	}
	return nil
}

func (c *Counts) decodeGame(dec *json.Decoder) error {
	var per *game.Section
	g := &c.Game
	return eachKey(dec, func(key string) error {
		switch key {
		case "decisions":
			return dec.Decode(&g.Decisions)
		case "decisions_sq":
			return dec.Decode(&g.DecisionsSq)
		case "margin":
			return dec.Decode(&g.Margin)
		case "margin_sq":
			return dec.Decode(&g.MarginSq)
		case "shared":
			return dec.Decode(&g.Shared)
		}
		var x int64
		if err := dec.Decode(&x); err != nil {
			return err
		}
		if per == nil {
			c.Sections = append(c.Sections, game.Section{Key: game.GameSection, Rows: []game.Row{{}}})
			per = &c.Sections[len(c.Sections)-1]
		}
		per.Columns = append(per.Columns, game.Count{Key: key})
		per.Rows[0].Values = append(per.Rows[0].Values, x)
		return nil
	})
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t != d {
		return fmt.Errorf("want %v, got %v", d, t)
	}
	return nil
}

func keyToken(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	k, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("want a key, got %v", t)
	}
	return k, nil
}

// cell is one key of a row as read: a label, a count or per-side counts.
type cell struct {
	key   string
	label *string
	x     int64
	xs    []int64
	per   bool
}

// decodeSection reads a section's rows: null, or an array of objects with
// the same keys, in any order: the rows take the first row's (bind then
// puts them in the layout's).
func decodeSection(dec *json.Decoder, key string) (*game.Section, error) {
	s := &game.Section{Key: key}
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if t == nil {
		return s, nil
	}
	if t != json.Delim('[') {
		return nil, fmt.Errorf("want an array of rows or null, got %v", t)
	}
	s.Rows = []game.Row{}
	for i := 0; dec.More(); i++ {
		cells, err := decodeRow(dec)
		if err != nil {
			return nil, fmt.Errorf("[%d]%w", i, err)
		}
		if i == 0 {
			for _, c := range cells {
				if c.label != nil {
					s.Labels = append(s.Labels, c.key)
				} else {
					s.Columns = append(s.Columns, game.Count{Key: c.key, PerSide: c.per})
				}
			}
		}
		byKey := make(map[string]*cell, len(cells))
		for k := range cells {
			byKey[cells[k].key] = &cells[k]
		}
		if len(byKey) != len(s.Labels)+len(s.Columns) {
			return nil, fmt.Errorf("[%d]: the row's keys differ from the first row's", i)
		}
		var r game.Row
		for _, l := range s.Labels {
			c := byKey[l]
			if c == nil || c.label == nil {
				return nil, fmt.Errorf("[%d]: the row's keys differ from the first row's", i)
			}
			r.Labels = append(r.Labels, *c.label)
		}
		for _, col := range s.Columns {
			c := byKey[col.Key]
			if c == nil || c.label != nil || c.per != col.PerSide {
				return nil, fmt.Errorf("[%d]: the row's keys differ from the first row's", i)
			}
			if c.per {
				r.Sides = append(r.Sides, c.xs)
			} else {
				r.Values = append(r.Values, c.x)
			}
		}
		s.Rows = append(s.Rows, r)
	}
	if _, err := dec.Token(); err != nil { // ']'
		return nil, err
	}
	return s, nil
}

// decodeRow reads one row's object.
func decodeRow(dec *json.Decoder) ([]cell, error) {
	if err := expectDelim(dec, '{'); err != nil {
		return nil, fmt.Errorf(": %w", err)
	}
	var cells []cell
	seen := map[string]bool{}
	for dec.More() {
		k, err := keyToken(dec)
		if err != nil {
			return nil, fmt.Errorf(": %w", err)
		}
		if seen[k] {
			return nil, fmt.Errorf(".%s: key twice", k)
		}
		seen[k] = true
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf(".%s: %w", k, err)
		}
		c := cell{key: k}
		switch v := t.(type) {
		case string:
			c.label = &v
		case json.Number:
			if c.x, err = v.Int64(); err != nil {
				return nil, fmt.Errorf(".%s: %v is not an integer count", k, v)
			}
		case json.Delim:
			if v != '[' {
				return nil, fmt.Errorf(".%s: want a count or a list of counts", k)
			}
			c.per, c.xs = true, []int64{}
			for dec.More() {
				var x int64
				if err := dec.Decode(&x); err != nil {
					return nil, fmt.Errorf(".%s: %w", k, err)
				}
				c.xs = append(c.xs, x)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf(".%s: want a label, a count or a list of counts", k)
		}
		cells = append(cells, c)
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, err
	}
	return cells, nil
}

// --- binding, checking, adding ---------------------------------------------------

// gameID is the registry ID of the counts' game.
func (c *Counts) gameID() string {
	if c.game == "" {
		return game.DefaultID
	}
	return c.game
}

// bind gives the sections read from a file their game's column
// descriptions: every section of the game's layout must be there, with the
// layout's labels and columns in its order (a section of no rows may have
// none), and no other.
func (c *Counts) bind() error {
	id := c.gameID()
	g, ok := game.Lookup(id)
	if !ok {
		return fmt.Errorf("raw: counts of game %q, which this cardlab does not know", id)
	}
	var layout []game.Section
	if cr, ok := g.(game.CountRules); ok {
		layout = cr.CountLayout()
	}
	for i := range c.Sections {
		s := &c.Sections[i]
		j := slices.IndexFunc(layout, func(l game.Section) bool { return l.Key == s.Key })
		if j < 0 {
			return fmt.Errorf("raw.%s: not a count of game %s", s.Key, id)
		}
		l := layout[j]
		if len(s.Rows) > 0 && (!slices.Equal(s.Labels, l.Labels) || !sameColumns(s.Columns, l.Columns)) {
			if err := reorder(s, &l); err != nil {
				return fmt.Errorf("raw.%s: %v", s.Key, err)
			}
		}
		s.Entity, s.Doc, s.Labels, s.Columns = l.Entity, l.Doc, l.Labels, l.Columns
	}
	for _, l := range layout {
		if !slices.ContainsFunc(c.Sections, func(s game.Section) bool { return s.Key == l.Key }) {
			return fmt.Errorf("raw: no %s counts (game %s counts them)", l.Key, id)
		}
	}
	// In the layout's order, whatever the file's.
	slices.SortStableFunc(c.Sections, func(a, b game.Section) int {
		at := func(key string) int {
			return slices.IndexFunc(layout, func(l game.Section) bool { return l.Key == key })
		}
		return at(a.Key) - at(b.Key)
	})
	return nil
}

// reorder puts the rows of s, read in another order of keys, into l's.
func reorder(s, l *game.Section) error {
	bad := fmt.Errorf("its columns differ from what its game counts")
	if len(s.Labels) != len(l.Labels) || len(s.Columns) != len(l.Columns) {
		return bad
	}
	lab := make([]int, len(l.Labels))
	for k, key := range l.Labels {
		if lab[k] = slices.Index(s.Labels, key); lab[k] < 0 {
			return bad
		}
	}
	val, side := []int{}, []int{}
	for _, col := range l.Columns {
		i, per, ok := s.Column(col.Key)
		if !ok || per != col.PerSide {
			return bad
		}
		if per {
			side = append(side, i)
		} else {
			val = append(val, i)
		}
	}
	for k := range s.Rows {
		r := &s.Rows[k]
		var n game.Row
		for _, i := range lab {
			n.Labels = append(n.Labels, r.Labels[i])
		}
		for _, i := range val {
			n.Values = append(n.Values, r.Values[i])
		}
		for _, i := range side {
			n.Sides = append(n.Sides, r.Sides[i])
		}
		*r = n
	}
	s.Labels, s.Columns = l.Labels, l.Columns
	return nil
}

func sameColumns(a, b []game.Count) bool {
	return slices.EqualFunc(a, b, func(x, y game.Count) bool { return x.Key == y.Key && x.PerSide == y.PerSide })
}

// checkSections checks the sections' shape and ranges, then the game's own
// consistency rules.
func (c *Counts) checkSections() error {
	if err := c.bind(); err != nil {
		return err
	}
	nf := len(c.Factions)
	for _, s := range c.Sections {
		nv, np := 0, 0
		for _, col := range s.Columns {
			if col.PerSide {
				np++
			} else {
				nv++
			}
		}
		if s.Key == game.GameSection && len(s.Rows) != 1 {
			return fmt.Errorf("raw.game: %d rows of game counts", len(s.Rows))
		}
		for i, r := range s.Rows {
			where := fmt.Sprintf("raw.%s[%d]", s.Key, i)
			if len(r.Labels) != len(s.Labels) || len(r.Values) != nv || len(r.Sides) != np {
				return fmt.Errorf("%s: not the section's columns", where)
			}
			v, p := 0, 0
			for _, col := range s.Columns {
				var xs []int64
				if col.PerSide {
					xs = r.Sides[p]
					if len(xs) != nf {
						return fmt.Errorf("raw counts disagree: %s.%s has %d counts for %d factions", where, col.Key, len(xs), nf)
					}
					p++
				} else {
					xs = r.Values[v : v+1]
					v++
				}
				for _, x := range xs {
					switch {
					case col.Signed && (x < -maxCount || x > maxCount):
						return fmt.Errorf("%s.%s is %d: it must lie between %d and %d", where, col.Key, x, -int64(maxCount), int64(maxCount))
					case col.Squares && x < 0:
						return fmt.Errorf("%s.%s is %d: a sum of squares cannot be negative", where, col.Key, x)
					case !col.Signed && !col.Squares && (x < 0 || x > maxCount):
						return fmt.Errorf("%s.%s is %d: a count must lie between 0 and %d", where, col.Key, x, int64(maxCount))
					}
				}
			}
		}
	}
	g, _ := game.Lookup(c.gameID())
	if cr, ok := g.(game.CountRules); ok {
		sides := make([]game.SideTotal, len(c.Factions))
		for i, f := range c.Factions {
			sides[i] = game.SideTotal{ID: f.ID, Games: f.Games, WinUnits: f.WinUnits}
		}
		if err := cr.CheckCounts(c.Sections, sides, c.WinUnit); err != nil {
			return fmt.Errorf("raw counts disagree: %v", err)
		}
	}
	return nil
}

// sameSections reports whether b's sections can be added to a's: the same
// sections with the same rows (labels and constant columns equal) and
// shapes.
func sameSections(a, b []game.Section, nf int) error {
	if len(a) != len(b) {
		return errors.New("raw sections differ (a damaged or edited file?)")
	}
	for i := range a {
		x, y := &a[i], &b[i]
		bad := fmt.Errorf("raw %s differ (a damaged or edited file?)", x.Key)
		if x.Key != y.Key || len(x.Rows) != len(y.Rows) || !sameColumns(x.Columns, y.Columns) {
			return bad
		}
		for k := range x.Rows {
			rx, ry := &x.Rows[k], &y.Rows[k]
			if !slices.Equal(rx.Labels, ry.Labels) || len(rx.Values) != len(ry.Values) || len(rx.Sides) != len(ry.Sides) {
				return bad
			}
			v := 0
			for ci, col := range x.Columns {
				if col.PerSide {
					continue
				}
				if (col.Const || y.Columns[ci].Const) && rx.Values[v] != ry.Values[v] {
					return bad
				}
				v++
			}
			for p := range rx.Sides {
				if len(rx.Sides[p]) != nf || len(ry.Sides[p]) != nf {
					return bad
				}
			}
		}
	}
	return nil
}

// addSections adds b's counts into a's, constant columns left; with check
// it adds nothing, but fails when a sum would leave int64.
func addSections(a, b []game.Section, check bool) error {
	for pass := 0; pass < 2; pass++ {
		if pass == 0 && !check || pass == 1 && check {
			continue
		}
		for i := range a {
			if i >= len(b) {
				break
			}
			x, y := &a[i], &b[i]
			for k := range x.Rows {
				if k >= len(y.Rows) {
					break
				}
				rx, ry := &x.Rows[k], &y.Rows[k]
				v := 0
				for ci, col := range x.Columns {
					if col.PerSide {
						continue
					}
					if ci < len(y.Columns) && y.Columns[ci].Const {
						col.Const = true
					}
					if !col.Const && v < len(ry.Values) {
						if pass == 0 {
							if overflowsAdd(rx.Values[v], ry.Values[v]) {
								return errors.New("a sum of counts overflows")
							}
						} else {
							rx.Values[v] += ry.Values[v]
						}
					}
					v++
				}
				for p := range rx.Sides {
					if p >= len(ry.Sides) {
						break
					}
					for q := range rx.Sides[p] {
						if q >= len(ry.Sides[p]) {
							break
						}
						if pass == 0 {
							if overflowsAdd(rx.Sides[p][q], ry.Sides[p][q]) {
								return errors.New("a sum of counts overflows")
							}
						} else {
							rx.Sides[p][q] += ry.Sides[p][q]
						}
					}
				}
			}
		}
	}
	return nil
}

func overflowsAdd(x, y int64) bool {
	return y > 0 && x > math.MaxInt64-y || y < 0 && x < math.MinInt64-y
}

// cloneSections copies secs deeply (the layout is shared: never changed).
func cloneSections(secs []game.Section) []game.Section {
	if secs == nil {
		return nil
	}
	out := slices.Clone(secs)
	for i := range out {
		if out[i].Rows == nil {
			continue
		}
		rows := make([]game.Row, len(out[i].Rows))
		for k, r := range out[i].Rows {
			rows[k] = game.Row{Labels: r.Labels, Values: slices.Clone(r.Values)}
			if r.Sides != nil {
				rows[k].Sides = make([][]int64, len(r.Sides))
				for p, xs := range r.Sides {
					rows[k].Sides[p] = slices.Clone(xs)
				}
			}
		}
		out[i].Rows = rows
	}
	return out
}

// Section is the game's section with key, or nil.
func (c *Counts) Section(key string) *game.Section {
	for i := range c.Sections {
		if c.Sections[i].Key == key {
			return &c.Sections[i]
		}
	}
	return nil
}
