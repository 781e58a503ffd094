package printing

import (
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// The layout.yaml that cardlab init writes says what DefaultLayout says.
func TestDefaultLayoutFile(t *testing.T) {
	lay, err := LoadLayout(rules.DefaultFS(), "cards/default", at(rules.Default()))
	if err != nil {
		t.Fatal(err)
	}
	if want := DefaultLayout(); !reflect.DeepEqual(lay, want) {
		t.Errorf("cards/default/layout.yaml gives\n%+v\nDefaultLayout is\n%+v", lay, want)
	}
	// Without the file: the defaults.
	lay, err = LoadLayout(fstest.MapFS{}, "x", at(rules.Default()))
	if err != nil || !reflect.DeepEqual(lay, DefaultLayout()) {
		t.Errorf("no layout.yaml: %+v, %v", lay, err)
	}
}

func TestLayoutCardSizeMovesFields(t *testing.T) {
	lay, err := ParseLayout([]byte("card: {width: 70, height: 120}\nfields:\n  text: {x: 5, y: 30, w: 60, h: 80}\n"), "layout.yaml", nil, at(rules.Default()))
	if err != nil {
		t.Fatal(err)
	}
	if lay.Width != 70 || lay.Height != 120 {
		t.Fatalf("size %g × %g", lay.Width, lay.Height)
	}
	if f := lay.Fields.Footer; f.Y+f.H > 120 || f.Y < 100 {
		t.Errorf("footer not moved with the card size: %+v", f)
	}
	if f := lay.Fields.Text; f.X != 5 || f.Y != 30 || f.W != 60 || f.H != 80 {
		t.Errorf("a given field was changed: %+v", f)
	}
	for _, name := range fieldNames {
		f := lay.Fields.byName(name)
		if f.X+f.W > lay.Width || f.Y+f.H > lay.Height {
			t.Errorf("field %s %+v leaves the card", name, *f)
		}
	}
}

// Every mistake is reported at its file:line:col, with a "did you mean"
// where one helps.
func TestLayoutErrors(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"unknown top key", "cards: {width: 63}\n", `layout.yaml:1:1: unknown key "cards" in layout.yaml, did you mean "card"?`},
		{"unknown card key", "card:\n  widht: 63\n", `layout.yaml:2:3: unknown key "widht" in card, did you mean "width"?`},
		{"not a number", "card: {width: wide}\n", `layout.yaml:1:15: width: expected a number, got "wide"`},
		{"out of range", "card: {bleed: 40}\n", `layout.yaml:1:15: bleed: 40 is out of range (0..10)`},
		{"bad colour", "colors: {panel: blue}\n", `layout.yaml:1:17: panel: "blue" is not a colour; write it as "#rrggbb"`},
		{"unknown faction", "colors:\n  factions: {klingons: \"#000000\"}\n", `layout.yaml:2:14: unknown faction "klingons", did you mean "klingon"?`},
		{"unknown font", "fonts: {title: go-blod}\n", `layout.yaml:1:16: unknown font "go-blod", did you mean "go-bold"?`},
		{"missing font file", "fonts: {body: fonts/x.ttf}\n", `layout.yaml:1:15: font file "fonts/x.ttf" not found in the ruleset directory`},
		{"unknown field", "fields:\n  nmae: {x: 1}\n", `layout.yaml:2:3: unknown key "nmae" in fields, did you mean "name"?`},
		{"field off the card", "fields:\n  text: {x: 10, w: 60}\n", `layout.yaml:2:9: field text (x 10 + w 60, y 23 + h 51) reaches beyond the 63 × 88 mm card`},
		{"badge and its old name", "fields:\n  badge: {x: 40}\n  power: {x: 41}\n", `layout.yaml:2:10: fields: badge and power are one field (power is its old name); keep badge`},
		{"field power off the card", "fields:\n  power: {x: 60}\n", `layout.yaml:2:10: field power (x 60 + w 11, y 4.5 + h 11) reaches beyond the 63 × 88 mm card`},
		{"min over size", "fields:\n  name: {size: 8, min_size: 9}\n", `layout.yaml:2:29: min_size: 9 is larger than size 8`},
		{"syntax", "card: {width: 63\n", `layout.yaml:1: did not find expected ',' or '}'`},
		{"alias", "card: &a {width: 63}\nfonts: *a\n", `layout.yaml:1:7: anchors and aliases are not supported in layout.yaml`},
		{"not a mapping", "- 1\n", `layout.yaml:1:1: layout.yaml: expected a mapping of keys, got a list`},
		{"duplicate", "card: {}\ncard: {}\n", `layout.yaml:2:1: duplicate key "card" in layout.yaml`},
		{"not text", "\x00\x01", `layout.yaml: not a YAML text file`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLayout([]byte(tc.yaml), "layout.yaml", fstest.MapFS{}, at(rules.Default()))
			if err == nil {
				t.Fatalf("no error, want %s", tc.want)
			}
			var el cards.ErrorList
			if !errors.As(err, &el) {
				t.Fatalf("error %T, want cards.ErrorList", err)
			}
			if got := el[0].Error(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// fields.badge was fields.power before issue 27: a layout.yaml written
// then still reads, as the same field.
func TestLayoutOldBadgeKey(t *testing.T) {
	const box = ": {x: 40, y: 5, w: 12, h: 12, size: 14, min_size: 9}\n"
	old, err := ParseLayout([]byte("fields:\n  power"+box), "layout.yaml", nil, at(rules.Default()))
	if err != nil {
		t.Fatal(err)
	}
	now, err := ParseLayout([]byte("fields:\n  badge"+box), "layout.yaml", nil, at(rules.Default()))
	if err != nil {
		t.Fatal(err)
	}
	want := Field{X: 40, Y: 5, W: 12, H: 12, Size: 14, MinSize: 9}
	if old.Fields.Badge != want || !reflect.DeepEqual(old, now) {
		t.Errorf("power gives %+v, badge %+v; want both %+v", old.Fields.Badge, now.Fields.Badge, want)
	}
}

// A font file in the ruleset directory is used when it is a font, and
// reported when it is not.
func TestLayoutFontFile(t *testing.T) {
	fsys := fstest.MapFS{
		"fonts/mono.ttf": {Data: builtinFonts["go-mono"]},
		"fonts/bad.ttf":  {Data: []byte("not a font")},
	}
	lay, err := ParseLayout([]byte("fonts: {body: fonts/mono.ttf}\n"), "layout.yaml", fsys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newStyle(lay); err != nil {
		t.Fatal(err)
	}
	_, err = ParseLayout([]byte("fonts: {body: fonts/bad.ttf}\n"), "layout.yaml", fsys, nil)
	if err == nil || !strings.Contains(err.Error(), "layout.yaml:1:15: font file \"fonts/bad.ttf\": not a usable font") {
		t.Errorf("a broken font file: %v", err)
	}
	_, err = ParseLayout([]byte("fonts: {body: ../../etc/x.ttf}\n"), "layout.yaml", fsys, nil)
	if err == nil || !strings.Contains(err.Error(), "inside the ruleset directory") {
		t.Errorf("a path outside the ruleset: %v", err)
	}
}

// FuzzLayout: whatever layout.yaml holds, reading it never panics, and
// either gives a layout whose fields lie on the card or positioned errors.
func FuzzLayout(f *testing.F) {
	data, _ := fs.ReadFile(rules.DefaultFS(), "layout.yaml")
	f.Add(data)
	f.Add([]byte("card: {width: 20, height: 300, safe: 5}\nfields: {name: {x: 0, y: 0, w: 20, h: 300}}\n"))
	f.Add([]byte("colors: {factions: {klingon: \"#000000\", x: 1}}\nfonts: {title: 3}\n"))
	f.Add([]byte("a: &x [*x]\n"))
	rs := rules.Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		lay, err := ParseLayout(data, "layout.yaml", fstest.MapFS{}, at(rs))
		if err != nil {
			var el cards.ErrorList
			if !errors.As(err, &el) || len(el) == 0 {
				t.Fatalf("error %v is not a positioned ErrorList", err)
			}
			for _, e := range el {
				if !strings.HasPrefix(e.Error(), "layout.yaml") {
					t.Fatalf("error without the file name: %v", e)
				}
			}
			return
		}
		for _, name := range fieldNames {
			fl := lay.Fields.byName(name)
			if fl.X < 0 || fl.Y < 0 || fl.X+fl.W > lay.Width+1e-6 || fl.Y+fl.H > lay.Height+1e-6 || fl.MinSize > fl.Size {
				t.Fatalf("field %s %+v is not on the %g × %g card", name, *fl, lay.Width, lay.Height)
			}
		}
	})
}
