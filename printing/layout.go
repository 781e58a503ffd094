package printing

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// Layout says how cards are drawn. Lengths are millimetres, font sizes
// points; field positions are measured from the top-left corner of the
// trimmed card.
type Layout struct {
	Width, Height float64 // the trimmed card
	Bleed         float64 // printed beyond the cut line on every side
	Safe          float64 // the coloured frame inside the cut line; text stays inside it
	Radius        float64 // corner radius of the white panel
	Fonts         Fonts
	Colors        Colors
	Fields        Fields
	// fontData holds font files named by the layout, read from the ruleset
	// directory, by the name given.
	fontData map[string][]byte
}

// Fonts names the font of each role: a built-in Go font (see FontNames) or
// a .ttf/.otf file in the ruleset directory.
type Fonts struct {
	Title string // card name, badge, backs
	Body  string // rules text
	Small string // type line, footer, value
}

// Colors are "#rrggbb" colours. Factions overrides the colours of the
// ruleset's sides by side id (layout.yaml's key is "factions" in every game).
type Colors struct {
	Factions map[string]string
	Targets  string // cards of no side: Alpha Tactics' targets whose affiliation is no faction's
	Panel    string // the panel the text is printed on
	Ink      string // body text
	Muted    string // type line and small print
}

// Field is a box on the card face.
type Field struct {
	X, Y, W, H float64
	Size       float64 // font size in points
	MinSize    float64 // the text shrinks down to this size to fit, then is clipped
}

// Fields are the boxes of a card face, the same for every card of a game
// (an Alpha Tactics target's badge holds its victory points, type its type
// line, text its bonus). Badge is the disc in the top corner: combat power in
// Alpha Tactics, a card's value in Goofspiel; layout.yaml calls it badge, or
// power as before issue 27.
type Fields struct {
	Name, Badge, Type, Text, Value, Footer Field
}

// Poker size, the default.
const (
	defaultWidth  = 63.0
	defaultHeight = 88.0
)

// DefaultLayout is the layout of a ruleset without layout.yaml; the
// layout.yaml that `cardlab init` writes says the same (a test checks).
func DefaultLayout() *Layout {
	return &Layout{
		Width: defaultWidth, Height: defaultHeight, Bleed: 3, Safe: 3, Radius: 2.5,
		Fonts: Fonts{Title: "go-bold", Body: "go-regular", Small: "go-regular"},
		Colors: Colors{Factions: map[string]string{}, Targets: "#4d4d4d", Panel: "#ffffff",
			Ink: "#1a1a1a", Muted: "#5c5c5c"},
		Fields: defaultFields(),
	}
}

func defaultFields() Fields {
	return Fields{
		Name:   Field{X: 5, Y: 5, W: 40, H: 10, Size: 11, MinSize: 7},
		Badge:  Field{X: 47, Y: 4.5, W: 11, H: 11, Size: 16, MinSize: 10},
		Type:   Field{X: 5, Y: 16.5, W: 53, H: 4, Size: 6.5, MinSize: 5},
		Text:   Field{X: 5, Y: 23, W: 53, H: 51, Size: 10, MinSize: 5},
		Value:  Field{X: 5, Y: 75, W: 53, H: 4, Size: 6.5, MinSize: 5},
		Footer: Field{X: 5, Y: 80, W: 53, H: 4, Size: 6, MinSize: 4.5},
	}
}

// scaled returns f moved and sized for a card of w × h mm instead of poker
// size, so a layout that sets only the card size still looks right.
func (f Field) scaled(w, h float64) Field {
	sx, sy := w/defaultWidth, h/defaultHeight
	s := math.Min(sx, sy)
	return Field{X: f.X * sx, Y: f.Y * sy, W: f.W * sx, H: f.H * sy, Size: f.Size * s, MinSize: f.MinSize * s}
}

// field names as written in layout.yaml, in order.
var fieldNames = []string{"name", "badge", "type", "text", "value", "footer"}

// oldBadgeName is badge's name in layout.yaml before issue 27, still read.
const oldBadgeName = "power"

func (fs *Fields) byName(name string) *Field {
	switch name {
	case "name":
		return &fs.Name
	case "badge", oldBadgeName:
		return &fs.Badge
	case "type":
		return &fs.Type
	case "text":
		return &fs.Text
	case "value":
		return &fs.Value
	case "footer":
		return &fs.Footer
	}
	return nil
}

// Keys allowed in each mapping of layout.yaml.
var (
	layoutKeys = []string{"card", "fonts", "colors", "fields"}
	cardKeys   = []string{"width", "height", "bleed", "safe", "radius"}
	fontKeys   = []string{"title", "body", "small"}
	colorKeys  = []string{"factions", "targets", "panel", "ink", "muted"}
	fieldKeys  = []string{"x", "y", "w", "h", "size", "min_size"}
)

var reColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// maxLayoutSize caps layout.yaml and font files read from the ruleset.
const (
	maxLayoutSize = 1 << 20
	maxFontSize   = 16 << 20
)

// LoadLayout reads layout.yaml from the ruleset directory fsys (prefix names
// it in messages, as for a game's Load), checked against rs (nil: not
// checked): colors.factions names rs's sides. Without the file
// it returns DefaultLayout(). Errors are a cards.ErrorList with
// file:line:col positions.
func LoadLayout(fsys fs.FS, prefix string, rs game.Ruleset) (lay *Layout, err error) {
	name := cards.LayoutFile
	if prefix = strings.TrimSuffix(prefix, "/"); prefix != "" {
		name = prefix + "/" + cards.LayoutFile
	}
	l := &layoutLoader{file: name, fsys: fsys, rs: rs}
	defer func() {
		if r := recover(); r != nil {
			l.errs = append(l.errs, &cards.Error{Pos: cards.Pos{File: name}, Msg: fmt.Sprintf("internal error while reading the layout (please report this bug): %v", r)})
			lay, err = nil, l.errs
		}
	}()
	if fsys == nil {
		return DefaultLayout(), nil
	}
	data, ok, err := readLimited(fsys, cards.LayoutFile, maxLayoutSize)
	if err != nil {
		return nil, cards.ErrorList{{Pos: cards.Pos{File: name}, Msg: err.Error()}}
	}
	if !ok {
		return DefaultLayout(), nil
	}
	lay = l.parse(data)
	if len(l.errs) > 0 {
		l.errs.Sort()
		return nil, l.errs
	}
	return lay, nil
}

// ParseLayout reads a layout from data, named file in messages; fonts named
// by file are looked up in fsys (nil: none).
func ParseLayout(data []byte, file string, fsys fs.FS, rs game.Ruleset) (*Layout, error) {
	l := &layoutLoader{file: file, fsys: fsys, rs: rs}
	lay := l.parse(data)
	if len(l.errs) > 0 {
		l.errs.Sort()
		return nil, l.errs
	}
	return lay, nil
}

// readLimited reads name from fsys; ok is false when it does not exist.
func readLimited(fsys fs.FS, name string, limit int64) (data []byte, ok bool, err error) {
	info, err := fs.Stat(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cannot read file: %v", unwrapPath(err))
	}
	if !info.Mode().IsRegular() {
		return nil, false, errors.New("not a regular file")
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, false, fmt.Errorf("cannot read file: %v", unwrapPath(err))
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, fmt.Errorf("cannot read file: %v", unwrapPath(err))
	}
	if int64(len(data)) > limit {
		return nil, false, fmt.Errorf("file is too large (more than %d KiB)", limit>>10)
	}
	return data, true, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

type layoutLoader struct {
	file string
	fsys fs.FS
	rs   game.Ruleset
	errs cards.ErrorList
	lay  *Layout
}

func (l *layoutLoader) errorf(n *yaml.Node, format string, args ...any) {
	p := cards.Pos{File: l.file}
	if n != nil {
		p.Line, p.Col = n.Line, n.Column
	}
	l.errs = append(l.errs, &cards.Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

var reYAMLLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func (l *layoutLoader) parse(data []byte) *Layout {
	lay := DefaultLayout()
	l.lay = lay
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		l.errorf(nil, "not a YAML text file")
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := err.Error()
		if m := reYAMLLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			l.errs = append(l.errs, &cards.Error{Pos: cards.Pos{File: l.file, Line: line}, Msg: m[2]})
		} else {
			l.errorf(nil, "%s", strings.TrimPrefix(msg, "yaml: "))
		}
		return nil
	}
	if len(doc.Content) == 0 {
		return lay // an empty file: every default
	}
	root := doc.Content[0]
	if l.hasAlias(root) {
		return nil
	}
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return lay
	}
	m := l.object(root, cards.LayoutFile, layoutKeys)
	if m == nil {
		return nil
	}
	if n := m["card"]; n != nil {
		l.card(n)
	}
	// Fields follow the card size unless given; given fields are checked
	// against it, so the card comes first.
	if lay.Width != defaultWidth || lay.Height != defaultHeight {
		for _, name := range fieldNames {
			f := lay.Fields.byName(name)
			*f = f.scaled(lay.Width, lay.Height)
		}
	}
	if n := m["fonts"]; n != nil {
		l.fonts(n)
	}
	if n := m["colors"]; n != nil {
		l.colors(n)
	}
	if n := m["fields"]; n != nil {
		l.fields(n)
	}
	return lay
}

// hasAlias rejects anchors and aliases: a layout has no use for them, and
// refusing them rules out alias bombs.
func (l *layoutLoader) hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		l.errorf(n, "anchors and aliases are not supported in %s", cards.LayoutFile)
		return true
	}
	for _, c := range n.Content {
		if l.hasAlias(c) {
			return true
		}
	}
	return false
}

// object reads mapping n; unknown keys get a "did you mean".
func (l *layoutLoader) object(n *yaml.Node, what string, allowed []string) map[string]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "%s: expected a mapping of keys, got %s", what, cards.Describe(n))
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!null" {
			l.errorf(k, "expected a key name, got %s", cards.Describe(k))
			continue
		}
		if _, dup := out[k.Value]; dup {
			l.errorf(k, "duplicate key %q in %s", cards.Truncate(k.Value), what)
			continue
		}
		// fields' old key is read but not offered in "did you mean".
		if allowed != nil && !contains(allowed, k.Value) && !(what == "fields" && k.Value == oldBadgeName) {
			if s := cards.Suggest(k.Value, allowed); s != "" {
				l.errorf(k, "unknown key %q in %s, did you mean %q?", cards.Truncate(k.Value), what, s)
			} else {
				l.errorf(k, "unknown key %q in %s (allowed: %s)", cards.Truncate(k.Value), what, strings.Join(allowed, ", "))
			}
			continue
		}
		out[k.Value] = v
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// number reads a length or size in [lo, hi].
func (l *layoutLoader) number(n *yaml.Node, key string, lo, hi float64) (float64, bool) {
	tag := n.ShortTag()
	if n.Kind != yaml.ScalarNode || (tag != "!!int" && tag != "!!float") {
		l.errorf(n, "%s: expected a number, got %s", key, cards.Describe(n))
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
	if err != nil || math.IsNaN(v) || v < lo || v > hi {
		l.errorf(n, "%s: %s is out of range (%g..%g)", key, cards.Truncate(n.Value), lo, hi)
		return 0, false
	}
	return v, true
}

func (l *layoutLoader) str(n *yaml.Node, key string) (string, bool) {
	return cards.StringValue(n, key, false, func(n *yaml.Node, msg string) { l.errorf(n, "%s", msg) })
}

func (l *layoutLoader) card(n *yaml.Node) {
	m := l.object(n, "card", cardKeys)
	lay := l.lay
	set := func(key string, dst *float64, lo, hi float64) {
		if v := m[key]; v != nil {
			if x, ok := l.number(v, key, lo, hi); ok {
				*dst = x
			}
		}
	}
	set("width", &lay.Width, 20, 300)
	set("height", &lay.Height, 20, 300)
	set("bleed", &lay.Bleed, 0, 10)
	short := math.Min(lay.Width, lay.Height)
	set("safe", &lay.Safe, 0, short/4)
	set("radius", &lay.Radius, 0, short/4)
}

func (l *layoutLoader) fonts(n *yaml.Node) {
	m := l.object(n, "fonts", fontKeys)
	for _, role := range fontKeys {
		v := m[role]
		if v == nil {
			continue
		}
		name, ok := l.str(v, role)
		if !ok {
			continue
		}
		if !l.font(v, name) {
			continue
		}
		switch role {
		case "title":
			l.lay.Fonts.Title = name
		case "body":
			l.lay.Fonts.Body = name
		case "small":
			l.lay.Fonts.Small = name
		}
	}
}

// font checks a font name: built-in, or a font file in the ruleset
// directory that can be loaded.
func (l *layoutLoader) font(n *yaml.Node, name string) bool {
	if _, ok := builtinFonts[name]; ok {
		return true
	}
	ext := strings.ToLower(path.Ext(name))
	if ext != ".ttf" && ext != ".otf" {
		hint := ""
		if s := cards.Suggest(name, builtinFontNames); s != "" {
			hint = fmt.Sprintf(", did you mean %q?", s)
		} else {
			hint = fmt.Sprintf(" (built-in: %s; or a .ttf or .otf file in the ruleset directory)", strings.Join(builtinFontNames, ", "))
		}
		l.errorf(n, "unknown font %q%s", cards.Truncate(name), hint)
		return false
	}
	if l.fsys == nil || !fs.ValidPath(name) {
		l.errorf(n, "font file %q: give a path inside the ruleset directory, with forward slashes", cards.Truncate(name))
		return false
	}
	data, ok, err := readLimited(l.fsys, name, maxFontSize)
	switch {
	case err != nil:
		l.errorf(n, "font file %q: %v", cards.Truncate(name), err)
		return false
	case !ok:
		l.errorf(n, "font file %q not found in the ruleset directory", cards.Truncate(name))
		return false
	}
	if _, err := loadFont(name, data); err != nil {
		l.errorf(n, "font file %q: %v", cards.Truncate(name), err)
		return false
	}
	if l.lay.fontData == nil {
		l.lay.fontData = map[string][]byte{}
	}
	l.lay.fontData[name] = data
	return true
}

func (l *layoutLoader) color(n *yaml.Node, key string) (string, bool) {
	s, ok := l.str(n, key)
	if !ok {
		return "", false
	}
	if !reColor.MatchString(s) {
		l.errorf(n, "%s: %q is not a colour; write it as \"#rrggbb\"", key, cards.Truncate(s))
		return "", false
	}
	return strings.ToLower(s), true
}

func (l *layoutLoader) colors(n *yaml.Node) {
	m := l.object(n, "colors", colorKeys)
	c := &l.lay.Colors
	for key, dst := range map[string]*string{"targets": &c.Targets, "panel": &c.Panel, "ink": &c.Ink, "muted": &c.Muted} {
		if v := m[key]; v != nil {
			if s, ok := l.color(v, key); ok {
				*dst = s
			}
		}
	}
	fn := m["factions"]
	if fn == nil {
		return
	}
	var ids []string
	side, sides := "side", "sides"
	if l.rs != nil {
		for _, sd := range l.rs.Sides() {
			ids = append(ids, sd.ID)
		}
		if g, ok := game.Lookup(l.rs.Game()); ok {
			side, sides = g.Vocabulary().Side, g.Vocabulary().Sides
		}
	}
	fm := l.object(fn, "colors.factions", nil)
	for i := 0; fm != nil && i+1 < len(fn.Content); i += 2 {
		k, v := fn.Content[i], fn.Content[i+1]
		if fm[k.Value] != v {
			continue // reported by object
		}
		if l.rs != nil && !contains(ids, k.Value) {
			hint := ""
			if s := cards.Suggest(k.Value, ids); s != "" {
				hint = fmt.Sprintf(", did you mean %q?", s)
			} else {
				hint = " (" + sides + ": " + strings.Join(ids, ", ") + ")"
			}
			l.errorf(k, "unknown %s %q%s", side, cards.Truncate(k.Value), hint)
			continue
		}
		if s, ok := l.color(v, k.Value); ok {
			c.Factions[k.Value] = s
		}
	}
}

func (l *layoutLoader) fields(n *yaml.Node) {
	m := l.object(n, "fields", fieldNames)
	if m != nil && m["badge"] != nil && m[oldBadgeName] != nil {
		l.errorf(m["badge"], "fields: badge and %s are one field (%s is its old name); keep badge", oldBadgeName, oldBadgeName)
		return
	}
	for i := 0; m != nil && i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if m[k.Value] != v {
			continue
		}
		l.field(k.Value, v)
	}
}

func (l *layoutLoader) field(name string, n *yaml.Node) {
	m := l.object(n, "field "+name, fieldKeys)
	if m == nil {
		return
	}
	lay := l.lay
	f := lay.Fields.byName(name)
	nf := *f
	ok := true
	set := func(key string, dst *float64, lo, hi float64) {
		if v := m[key]; v != nil {
			x, good := l.number(v, key, lo, hi)
			if good {
				*dst = x
			}
			ok = ok && good
		}
	}
	set("x", &nf.X, 0, lay.Width)
	set("y", &nf.Y, 0, lay.Height)
	set("w", &nf.W, 1, lay.Width)
	set("h", &nf.H, 1, lay.Height)
	set("size", &nf.Size, 3, 72)
	set("min_size", &nf.MinSize, 3, 72)
	if !ok {
		return
	}
	// Whether a given field fits is judged on the field's own mapping.
	if nf.X+nf.W > lay.Width+1e-9 || nf.Y+nf.H > lay.Height+1e-9 {
		l.errorf(n, "field %s (x %g + w %g, y %g + h %g) reaches beyond the %g × %g mm card", name, nf.X, nf.W, nf.Y, nf.H, lay.Width, lay.Height)
		return
	}
	if m["min_size"] == nil && nf.MinSize > nf.Size {
		nf.MinSize = nf.Size
	}
	if nf.MinSize > nf.Size {
		l.errorf(m["min_size"], "min_size: %g is larger than size %g", nf.MinSize, nf.Size)
		return
	}
	*f = nf
}

// sideColor is the colour a card or back of side wears: layout.yaml's
// colors.factions for side, else the game's colour, else the colour of
// cards of no side (colors.targets).
func (lay *Layout) sideColor(side, color string) string {
	if c, ok := lay.Colors.Factions[side]; ok && side != "" {
		return c
	}
	if reColor.MatchString(color) {
		return strings.ToLower(color)
	}
	return lay.Colors.Targets
}
