// Package printing draws a ruleset's cards for the table: print-and-play
// PDFs with crop marks, Tabletop Simulator deck sheets, one PNG and SVG per
// card, and a data sheet for nanDECK and Squib, all from one drawing per
// card (tdewolff/canvas renders the same drawing to PDF, SVG and pixels)
// with the Go fonts embedded, so every machine prints the same cards.
//
// The faces come from the ruleset's game (game.Facer): printing knows no
// game, only a face's fields, its colour and its deck.
//
// The layout (card size, bleed, fonts, colours, field positions) comes from
// the ruleset's optional layout.yaml (LoadLayout); docs/printing.md
// describes it.
package printing

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
)

// Formats are the kinds of output Print can write.
var Formats = []string{"pdf", "tts", "png", "svg", "csv"}

// Options say what to print.
type Options struct {
	Ruleset game.Ruleset
	// Faces, when set, are printed instead of the faces Ruleset's game
	// words (Alpha Tactics' with measured values: print --with-values).
	Faces  *game.FaceSet
	Layout *Layout // nil: DefaultLayout()
	Out    string  // the output directory
	// Formats selects outputs (nil: all of Formats).
	Formats []string
	Backs   bool    // PDFs: a mirrored page of backs after each page of faces
	Bleed   bool    // PDFs: print the layout's bleed around each card
	DPI     float64 // per-card PNGs (0: 300)
	// ValuesFrom is the file the faces' measured values came from, named
	// on the first PDF page.
	ValuesFrom string
	// Log receives progress and notes (nil: none).
	Log io.Writer
}

// DefaultDPI is the resolution of the per-card PNGs, MinDPI and MaxDPI
// the range Print accepts (cardlab print --dpi checks the same).
const (
	DefaultDPI = 300
	MinDPI     = 30
	MaxDPI     = 1200
)

// Result lists what Print wrote.
type Result struct {
	Out     string   `json:"out"`
	Files   []string `json:"files"` // relative to Out, sorted
	Cards   int      `json:"cards"` // definitions printed
	Copies  int      `json:"copies"`
	Decks   []Deck   `json:"decks"`
	Seconds float64  `json:"seconds"`
	Notes   []string `json:"notes,omitempty"`
}

// Deck summarises one printed deck.
type Deck struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Cards  int    `json:"cards"`  // definitions
	Copies int    `json:"copies"` // cards, copies counted
}

// Print renders the outputs into o.Out. The destination is checked before
// anything is drawn, and files are moved into place only when all are
// complete (see writeDir).
func Print(o Options) (*Result, error) {
	start := time.Now()
	if o.Ruleset == nil && o.Faces == nil {
		return nil, errors.New("printing: no ruleset")
	}
	if o.Out == "" {
		return nil, errors.New("printing: no output directory")
	}
	lay := o.Layout
	if lay == nil {
		lay = DefaultLayout()
	}
	formats, err := pickFormats(o.Formats)
	if err != nil {
		return nil, err
	}
	dpi := o.DPI
	if dpi == 0 {
		dpi = DefaultDPI
	}
	if !(dpi >= MinDPI && dpi <= MaxDPI) { // NaN fails it too
		return nil, fmt.Errorf("printing: --dpi %g is out of range (%d..%d)", dpi, MinDPI, MaxDPI)
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", args...)
		}
	}
	fs := o.Faces
	if fs == nil {
		if fs, err = Faces(o.Ruleset); err != nil {
			return nil, err
		}
	}
	st, err := newSet(fs, lay)
	if err != nil {
		return nil, err
	}
	r, err := newRenderer(st, lay)
	if err != nil {
		return nil, err
	}
	res := &Result{Out: o.Out}
	for _, d := range st.decks {
		n := d.size(st)
		res.Decks = append(res.Decks, Deck{ID: d.ID, Name: d.Name, Cards: len(d.Faces), Copies: n})
		res.Cards += len(d.Faces)
		res.Copies += n
	}

	// Plan every file first: the destination is checked against the whole
	// list before the first card is drawn.
	var files []outFile
	add := func(name string, render func(io.Writer) error) {
		files = append(files, outFile{name: name, render: render})
	}
	absOut, err := filepath.Abs(o.Out)
	if err != nil {
		return nil, err
	}
	if formats["pdf"] {
		info := pdfInfo{backs: o.Backs, bleedAsked: o.Bleed, values: o.ValuesFrom, legend: fs.ValueLegend}
		for _, p := range Papers {
			sh, err := NewSheet(p, lay, o.Bleed)
			if err != nil {
				return nil, err
			}
			if sh.Reduced(lay, o.Bleed) {
				res.Notes = append(res.Notes, fmt.Sprintf("%s: bleed reduced from %.1f to %.1f mm to fit 3 × 3 cards on the page", p.Name, lay.Bleed, sh.Bleed))
			}
			add("print-"+p.Name+".pdf", func(w io.Writer) error { return r.writePDF(w, sh, info) })
		}
	}
	if formats["tts"] {
		for i := range st.decks {
			d := &st.decks[i]
			faces, back := "tts/"+d.Stem+"-faces.png", "tts/"+d.Stem+"-back.png"
			add(faces, func(w io.Writer) error { return writePNG(w, r.ttsSheet(d)) })
			add(back, func(w io.Writer) error { return writePNG(w, r.ttsBack(d)) })
			faceURL := fileURL(filepath.Join(absOut, filepath.FromSlash(faces)))
			backURL := fileURL(filepath.Join(absOut, filepath.FromSlash(back)))
			key := i + 1
			add("tts/"+d.Stem+".json", func(w io.Writer) error { return r.ttsDeckJSON(w, d, key, faceURL, backURL) })
		}
	}
	dpmm := dpi / 25.4
	for _, kind := range []string{"png", "svg"} {
		if !formats[kind] {
			continue
		}
		for _, d := range st.decks {
			for _, fi := range d.Faces {
				fi := fi
				name := "cards/" + d.Stem + "/" + st.faces[fi].ID + "." + kind
				if kind == "png" {
					add(name, func(w io.Writer) error { return writePNG(w, rasterize(r.face(fi, lay.Bleed), dpmm)) })
				} else {
					add(name, func(w io.Writer) error { return writeSVG(w, r.face(fi, lay.Bleed)) })
				}
			}
			bi := d.Back
			name := "cards/" + d.Stem + ".back." + kind
			if kind == "png" {
				add(name, func(w io.Writer) error { return writePNG(w, rasterize(r.back(bi, lay.Bleed), dpmm)) })
			} else {
				add(name, func(w io.Writer) error { return writeSVG(w, r.back(bi, lay.Bleed)) })
			}
		}
	}
	if formats["csv"] {
		add("cards.csv", st.writeCSV)
	}
	if formats["pdf"] || formats["svg"] {
		add(FontsLicenseFile, func(w io.Writer) error { _, err := w.Write(goFontsLicense); return err })
	}

	seen := map[string]bool{}
	for _, f := range files {
		if seen[f.name] {
			return nil, fmt.Errorf("printing: two outputs would be %s (a deck's file name and another's cards clash)", f.name)
		}
		seen[f.name] = true
	}
	if err := checkDir(o.Out, files); err != nil {
		return nil, err
	}
	logf("printing %d cards (%d definitions, %d decks) into %s …", res.Copies, res.Cards, len(st.decks), o.Out)
	if err := writeDir(o.Out, files, func(done, total int, name string) {
		if o.Log != nil && (done == total || done%50 == 0) {
			logf("  %d/%d files (%s)", done, total, name)
		}
	}); err != nil {
		return nil, err
	}
	for _, f := range files {
		res.Files = append(res.Files, f.name)
	}
	sort.Strings(res.Files)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// Faces are the faces rs's game words for printing (its game.Facer).
func Faces(rs game.Ruleset) (*game.FaceSet, error) {
	g, ok := game.Lookup(rs.Game())
	if !ok {
		return nil, fmt.Errorf("printing: game %q is not registered", rs.Game())
	}
	f, ok := g.(game.Facer)
	if !ok {
		return nil, fmt.Errorf("printing: %s's cards have no printed faces yet (its game has no Facer)", g.Name())
	}
	return f.Faces(rs)
}

func pickFormats(list []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(list) == 0 {
		list = Formats
	}
	for _, f := range list {
		f = strings.ToLower(strings.TrimSpace(f))
		if !contains(Formats, f) {
			msg := fmt.Sprintf("printing: unknown format %q", f)
			if s := cards.Suggest(f, Formats); s != "" {
				msg += fmt.Sprintf(", did you mean %q?", s)
			}
			return nil, fmt.Errorf("%s (formats: %s)", msg, strings.Join(Formats, ", "))
		}
		out[f] = true
	}
	return out, nil
}
