package printing

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/faces"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// slotOf returns the slot (0..8) whose cut box holds the point, or -1.
func slotOf(sh Sheet, x, y float64, mirrored bool) int {
	for i := 0; i < perPage; i++ {
		sx, sy := sh.Slot(i, mirrored)
		if x >= sx && x <= sx+sh.CardW && y >= sy && y <= sy+sh.CardH {
			return i
		}
	}
	return -1
}

// inField reports whether a word's centre lies in field f of the card
// whose cut box starts at (sx, sy).
func inField(w word, f Field, sx, sy float64) bool {
	cx, cy := (w.X0+w.X1)/2, (w.Y0+w.Y1)/2
	return cx >= sx+f.X-0.5 && cx <= sx+f.X+f.W+0.5 && cy >= sy+f.Y-0.5 && cy <= sy+f.Y+f.H+0.5
}

// fieldText joins the words of a field in reading order.
func fieldText(words []word) string {
	sort.SliceStable(words, func(i, j int) bool {
		if math.Abs(words[i].Y0-words[j].Y0) > 1 {
			return words[i].Y0 < words[j].Y0
		}
		return words[i].X0 < words[j].X0
	})
	var parts []string
	for _, w := range words {
		parts = append(parts, w.Text)
	}
	return strings.Join(parts, " ")
}

// Every card name is printed as often as its copies, each in the name box
// of a slot on the page where the deck order puts it; nine to a full page;
// pages of A4 and Letter size; backs follow each page of faces.
func TestPDFNamesAsOftenAsCopies(t *testing.T) {
	needPoppler(t)
	dir := printedDefault(t)
	rs := rules.Default()
	lay := DefaultLayout()
	st := mustSet(t, faces.New(rs, nil), lay)
	sty, err := newStyle(lay)
	if err != nil {
		t.Fatal(err)
	}
	pages := st.facePages()
	want := map[string]int{}
	for _, f := range st.faces {
		want[cleanText(f.Name, sty.title, false)] += f.Copies
	}
	if n := len(st.faces); n != 145 {
		t.Fatalf("the default set has %d card definitions, want 145 (121 player cards and 24 targets)", n)
	}
	for _, p := range Papers {
		t.Run(p.Name, func(t *testing.T) {
			file := filepath.Join(dir, "print-"+p.Name+".pdf")
			info := string(run(t, "pdfinfo", file))
			m := regexp.MustCompile(`Page size:\s+([\d.]+) x ([\d.]+) pts`).FindStringSubmatch(info)
			if m == nil {
				t.Fatalf("pdfinfo shows no page size:\n%s", info)
			}
			w, _ := strconv.ParseFloat(m[1], 64)
			h, _ := strconv.ParseFloat(m[2], 64)
			if math.Abs(w*25.4/72-p.Width) > 0.2 || math.Abs(h*25.4/72-p.Height) > 0.2 {
				t.Errorf("page size %.1f × %.1f mm, want %g × %g", w*25.4/72, h*25.4/72, p.Width, p.Height)
			}
			// Page 1 lists the decks with their sizes.
			listing := strings.Join(strings.Fields(string(run(t, "pdftotext", "-f", "1", "-l", "1", "-layout", file, "-"))), " ")
			for _, d := range st.decks {
				row := fmt.Sprintf("%s %d %d", d.Name, len(d.Faces), d.size(st))
				if !strings.Contains(listing, row) {
					t.Errorf("the first page does not list %q:\n%s", row, listing)
				}
			}
			if !strings.Contains(listing, "All decks 156") {
				t.Errorf("the first page does not total 156 cards:\n%s", listing)
			}
			wantPages := 1 + 2*len(pages)
			if !strings.Contains(info, fmt.Sprintf("Pages:           %d\n", wantPages)) {
				t.Errorf("want %d pages (a listing, then faces and backs):\n%s", wantPages, info)
			}
			sh, err := NewSheet(p, lay, false)
			if err != nil {
				t.Fatal(err)
			}
			// Words of the name boxes, by PDF page and slot.
			names := map[[2]int][]word{}
			for _, w := range pdfWords(t, file) {
				if w.Page < 2 || w.Page%2 != 0 {
					continue // the listing and the back pages
				}
				s := slotOf(sh, (w.X0+w.X1)/2, (w.Y0+w.Y1)/2, false)
				if s < 0 {
					continue
				}
				sx, sy := sh.Slot(s, false)
				if inField(w, lay.Fields.Name, sx, sy) {
					names[[2]int{w.Page, s}] = append(names[[2]int{w.Page, s}], w)
				}
			}
			got := map[string]int{}
			for pi, page := range pages {
				pdfPage := 2 + 2*pi
				if len(page) != perPage && pi+1 < len(pages) && st.faces[page[0]].Back == st.faces[pages[pi+1][0]].Back {
					t.Errorf("page %d holds %d cards; only a deck's last page may hold fewer than 9", pdfPage, len(page))
				}
				for s := 0; s < perPage; s++ {
					text := fieldText(names[[2]int{pdfPage, s}])
					if s >= len(page) {
						if text != "" {
							t.Errorf("page %d slot %d should be empty, shows %q", pdfPage, s+1, text)
						}
						continue
					}
					wantName := cleanText(st.faces[page[s]].Name, sty.title, false)
					if text != wantName {
						t.Errorf("page %d slot %d: name box reads %q, want %q", pdfPage, s+1, text, wantName)
					}
					got[text]++
				}
			}
			for name, n := range want {
				if got[name] != n {
					t.Errorf("%q printed %d times, want %d (its copies)", name, got[name], n)
				}
			}
		})
	}
}

// pgm reads a binary PGM (pdftoppm -gray).
func pgm(t *testing.T, data []byte) *image.Gray {
	t.Helper()
	var w, h, maxv int
	fields := bytes.Fields(data[:min(len(data), 64)])
	if len(fields) < 4 || string(fields[0]) != "P5" {
		t.Fatalf("not a PGM")
	}
	w, _ = strconv.Atoi(string(fields[1]))
	h, _ = strconv.Atoi(string(fields[2]))
	maxv, _ = strconv.Atoi(string(fields[3]))
	n := len(data) - w*h
	if maxv != 255 || n < 0 {
		t.Fatalf("unexpected PGM %dx%d max %d", w, h, maxv)
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	copy(img.Pix, data[n:])
	return img
}

// Crop marks stand on the extensions of every cut line, in the margins,
// and nowhere else in the margins.
func TestPDFCropMarks(t *testing.T) {
	needPoppler(t)
	dir := printedDefault(t)
	lay := DefaultLayout()
	const dpi = 150
	px := func(mm float64) int { return int(mm * dpi / 25.4) }
	for _, p := range Papers {
		sh, _ := NewSheet(p, lay, false)
		img := pgm(t, run(t, "pdftoppm", "-r", fmt.Sprint(dpi), "-gray", "-f", "2", "-l", "2", "-singlefile",
			filepath.Join(dir, "print-"+p.Name+".pdf")))
		if b := img.Bounds(); math.Abs(float64(b.Dx())-p.Width*dpi/25.4) > 2 {
			t.Fatalf("%s: page is %d px wide, want %.0f", p.Name, b.Dx(), p.Width*dpi/25.4)
		}
		// darkest pixel within ±1 px across the line at (x, y).
		dark := func(x, y float64, vertical bool) uint8 {
			m := uint8(255)
			for d := -1; d <= 1; d++ {
				X, Y := px(x), px(y)
				if vertical {
					X += d
				} else {
					Y += d
				}
				m = min(m, img.GrayAt(X, Y).Y)
			}
			return m
		}
		x0, y0, x1, y1 := sh.gridBox()
		xs, ys := sh.CutLines()
		if len(xs) != 4 || len(ys) != 4 {
			t.Fatalf("%s: %d vertical and %d horizontal cut lines, want 4 and 4 (3 × 3 cards edge to edge)", p.Name, len(xs), len(ys))
		}
		above, below := y0-markOffset-1.5, y1+markOffset+1.5
		left, right := x0-markOffset-1.5, x1+markOffset+1.5
		for _, x := range xs {
			for _, y := range []float64{above, below} {
				if v := dark(x, y, true); v > 128 {
					t.Errorf("%s: no crop mark at x = %.1f mm, y = %.1f mm (grey %d)", p.Name, x, y, v)
				}
			}
		}
		for _, y := range ys {
			for _, x := range []float64{left, right} {
				if v := dark(x, y, false); v > 128 {
					t.Errorf("%s: no crop mark at y = %.1f mm, x = %.1f mm (grey %d)", p.Name, y, x, v)
				}
			}
		}
		// Between the marks the margin is blank.
		for i := 0; i+1 < len(xs); i++ {
			mid := (xs[i] + xs[i+1]) / 2
			if v := img.GrayAt(px(mid), px(above)).Y; v < 240 {
				t.Errorf("%s: ink at x = %.1f mm in the top margin, between crop marks (grey %d)", p.Name, mid, v)
			}
		}
		// The cards fill their cut boxes: the frame colour reaches the cut line.
		if v := img.GrayAt(px(xs[0]+0.7), px(ys[0]+0.7)).Y; v > 200 {
			t.Errorf("%s: the first card's corner is not printed (grey %d)", p.Name, v)
		}
	}
}

// A mirrored back page puts each back behind its face when the sheet is
// flipped on the long edge: the minimal set's 4 targets fill slots 1–4 on
// the face page, and slots 3, 2, 1 and 6 (counting from 1) on the back.
func TestPDFBacksMirrored(t *testing.T) {
	needPoppler(t)
	rs, err := rules.LoadDir("../testdata/rulesets/minimal")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Print(Options{Ruleset: at(rs), Out: out, Backs: true, Formats: []string{"pdf"}}); err != nil {
		t.Fatal(err)
	}
	lay := DefaultLayout()
	sh, _ := NewSheet(Papers[0], lay, false)
	words := pdfWords(t, filepath.Join(out, "print-a4.pdf"))
	last := 0
	for _, w := range words {
		last = max(last, w.Page)
	}
	got := map[int]bool{}
	for _, w := range words {
		if w.Page == last && w.Text == "TARGET" {
			got[slotOf(sh, (w.X0+w.X1)/2, (w.Y0+w.Y1)/2, false)] = true
		}
	}
	want := map[int]bool{2: true, 1: true, 0: true, 5: true}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("target backs in slots %v, want %v (mirrored)", got, want)
	}
	for i := 0; i < perPage; i++ {
		fx, fy := sh.Slot(i, false)
		bx, by := sh.Slot(i, true)
		if math.Abs(bx-(sh.Width-fx-sh.CardW)) > 1e-9 || by != fy {
			t.Errorf("slot %d: back at (%g, %g), face at (%g, %g): not mirrored about the page's centre", i, bx, by, fx, fy)
		}
	}
}

// Tabletop Simulator: a 10 × 7 sheet per deck, the back as large as one
// cell, and a saved object whose deck ids and counts match the deck.
func TestTTSDecks(t *testing.T) {
	dir := printedDefault(t)
	rs := rules.Default()
	lay := DefaultLayout()
	st := mustSet(t, faces.New(rs, nil), lay)
	_, cw, ch := ttsScale(lay)
	size := func(file string) image.Point {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cfg, err := png.DecodeConfig(f)
		if err != nil {
			t.Fatal(err)
		}
		return image.Pt(cfg.Width, cfg.Height)
	}
	for key, d := range st.decks {
		back := size(filepath.Join(dir, "tts", d.Stem+"-back.png"))
		sheet := size(filepath.Join(dir, "tts", d.Stem+"-faces.png"))
		if back != image.Pt(cw, ch) {
			t.Errorf("%s: back is %v, want one card %dx%d", d.Stem, back, cw, ch)
		}
		if sheet != image.Pt(10*back.X, 7*back.Y) {
			t.Errorf("%s: sheet is %v, want 10 × %d by 7 × %d", d.Stem, sheet, back.X, back.Y)
		}
		if sheet.X > 4096 || sheet.Y > 4096 {
			t.Errorf("%s: sheet %v is larger than Tabletop Simulator's 4096 px", d.Stem, sheet)
		}
		if key == 0 {
			// The last cell is the hidden-card image: the back, pixel for pixel.
			sheetImg, backImg := decodePNG(t, filepath.Join(dir, "tts", d.Stem+"-faces.png")), decodePNG(t, filepath.Join(dir, "tts", d.Stem+"-back.png"))
			last := image.Rect(9*cw, 6*ch, 10*cw, 7*ch)
			if diff, frac := imageDiff(sheetImg.(interface {
				SubImage(image.Rectangle) image.Image
			}).SubImage(last), backImg); diff != "" || frac > 0 {
				t.Errorf("%s: the last cell is not the back (%s%.2f%% differ)", d.Stem, diff, 100*frac)
			}
			// The cells after the deck's cards are blank.
			if c := sheetImg.At(len(d.Faces)%10*cw+cw/2, len(d.Faces)/10*ch+ch/2); c != (color.RGBA{255, 255, 255, 255}) && c != (color.NRGBA{255, 255, 255, 255}) {
				t.Errorf("%s: the cell after the last card is not blank: %v", d.Stem, c)
			}
		}
		data, err := os.ReadFile(filepath.Join(dir, "tts", d.Stem+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var save struct {
			ObjectStates []struct {
				Name       string
				DeckIDs    []int
				CustomDeck map[string]struct {
					FaceURL, BackURL    string
					NumWidth, NumHeight int
					BackIsHidden        bool
				}
				ContainedObjects []struct {
					Name     string
					Nickname string
					CardID   int
				}
			}
		}
		if err := json.Unmarshal(data, &save); err != nil {
			t.Fatal(err)
		}
		if len(save.ObjectStates) != 1 || save.ObjectStates[0].Name != "DeckCustom" {
			t.Fatalf("%s: want one DeckCustom object, got %+v", d.Stem, save.ObjectStates)
		}
		obj := save.ObjectStates[0]
		var wantIDs []int
		var wantNames []string
		for i, fi := range d.Faces {
			for k := 0; k < st.faces[fi].Copies; k++ {
				wantIDs = append(wantIDs, (key+1)*100+i)
				wantNames = append(wantNames, st.faces[fi].Name)
			}
		}
		if fmt.Sprint(obj.DeckIDs) != fmt.Sprint(wantIDs) {
			t.Errorf("%s: DeckIDs %v, want %v", d.Stem, obj.DeckIDs, wantIDs)
		}
		if len(obj.DeckIDs) != d.size(st) {
			t.Errorf("%s: %d cards in the deck object, the deck has %d", d.Stem, len(obj.DeckIDs), d.size(st))
		}
		if len(obj.ContainedObjects) != len(wantIDs) {
			t.Fatalf("%s: %d contained cards, want %d", d.Stem, len(obj.ContainedObjects), len(wantIDs))
		}
		for i, c := range obj.ContainedObjects {
			if c.CardID != wantIDs[i] || c.Nickname != wantNames[i] {
				t.Errorf("%s: card %d is %d %q, want %d %q", d.Stem, i, c.CardID, c.Nickname, wantIDs[i], wantNames[i])
			}
		}
		cd, ok := obj.CustomDeck[fmt.Sprint(key+1)]
		if !ok || cd.NumWidth != 10 || cd.NumHeight != 7 || cd.BackIsHidden {
			t.Errorf("%s: CustomDeck %+v, want key %d, 10 × 7, the hidden card in the sheet's last cell", d.Stem, obj.CustomDeck, key+1)
		}
		for _, u := range []string{cd.FaceURL, cd.BackURL} {
			p := strings.TrimPrefix(u, "file://")
			if _, err := os.Stat(p); !strings.HasPrefix(u, "file:///") || err != nil {
				t.Errorf("%s: image URL %q is not the file:// URL of the written image", d.Stem, u)
			}
		}
	}
}

func decodePNG(t *testing.T, file string) image.Image {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// cards.csv: one row per card definition, copies adding up to each deck.
func TestCSV(t *testing.T) {
	dir := printedDefault(t)
	rs := rules.Default()
	f, err := os.Open(filepath.Join(dir, "cards.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(rows[0]) != fmt.Sprint(faces.CSVHeader) {
		t.Fatalf("header %v, want %v", rows[0], faces.CSVHeader)
	}
	if n := len(rows) - 1; n != len(rs.Cards)+len(rs.Targets) {
		t.Errorf("%d rows, want one per card definition: %d", n, len(rs.Cards)+len(rs.Targets))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	copies := map[string]int{}
	for _, r := range rows[1:] {
		n, err := strconv.Atoi(r[col["copies"]])
		if err != nil {
			t.Fatalf("copies %q: %v", r[col["copies"]], err)
		}
		copies[r[col["deck"]]] += n
	}
	for i := range rs.Factions {
		fa := &rs.Factions[i]
		if copies[fa.ID] != fa.DeckCount(rs) || copies[fa.ID] != rs.Rules.DeckSize {
			t.Errorf("deck %s: copies add up to %d, the deck has %d", fa.ID, copies[fa.ID], fa.DeckCount(rs))
		}
	}
	if copies["targets"] != len(rs.Targets) {
		t.Errorf("targets: copies add up to %d, want %d", copies["targets"], len(rs.Targets))
	}
}

func TestCSVCellStaysText(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")",
		"@SUM(A1)":          "'@SUM(A1)",
		"+1 combat power":   "'+1 combat power",
		"-2 base power":     "'-2 base power",
		"+cmd":              "'+cmd",
		"a\tb\nc\x07d":      "a b cd",
		"\u202eevil":        "evil",
		// Issue 24 item 13: + or - followed by a digit or space was let
		// through, and a spreadsheet evaluates these.
		"-2+3":                       "'-2+3",
		"-1+HYPERLINK(\"http://x\")": "'-1+HYPERLINK(\"http://x\")",
		"+ 1":                        "'+ 1",
		"\t=1+1":                     "' =1+1",
		"\r@SUM(A1)":                 "'@SUM(A1)",
		"  =1":                       "'  =1",
		"Klingon -2":                 "Klingon -2",
		"":                           "",
	} {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// The same cards give the same bytes: fonts embedded, no dates, no map
// order.
func TestDeterministic(t *testing.T) {
	rs, err := rules.LoadDir("../testdata/rulesets/minimal")
	if err != nil {
		t.Fatal(err)
	}
	var outs [2]string
	for i := range outs {
		outs[i] = filepath.Join(t.TempDir(), "out")
		if _, err := Print(Options{Ruleset: at(rs), Out: outs[i], Backs: true, DPI: 50, Formats: []string{"pdf", "svg", "png", "tts"}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"print-a4.pdf", "print-letter.pdf", "tts/klingon-faces.png", "tts/klingon.json", "cards/starfleet/sf-galaxy.svg"} {
		a, errA := os.ReadFile(filepath.Join(outs[0], name))
		b, errB := os.ReadFile(filepath.Join(outs[1], name))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", name, errA, errB)
		}
		if name == "tts/klingon.json" {
			// The image URLs name the output directory.
			a = bytes.ReplaceAll(a, []byte(outs[0]), nil)
			b = bytes.ReplaceAll(b, []byte(outs[1]), nil)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// Hostile names and texts stay inside their cards: every word pdftotext
// finds on a page of faces lies inside a card's panel.
func TestHostileNamesStayInside(t *testing.T) {
	needPoppler(t)
	rs, _ := hostileRuleset(t)
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Print(Options{Ruleset: at(rs), Out: out, Formats: []string{"pdf", "png", "tts"}, DPI: 50}); err != nil {
		t.Fatal(err)
	}
	lay := DefaultLayout()
	sh, _ := NewSheet(Papers[0], lay, false)
	var sawRTL, sawLong, sawAccents bool
	for _, w := range pdfWords(t, filepath.Join(out, "print-a4.pdf")) {
		if w.Page < 2 {
			continue
		}
		if strings.ContainsAny(w.Text, "\u202e\u202d") {
			t.Errorf("page %d: a bidi control was printed: %q", w.Page, w.Text)
		}
		sawRTL = sawRTL || strings.Contains(w.Text, "evil")
		sawLong = sawLong || strings.HasPrefix(w.Text, "Supercalifragilistic")
		sawAccents = sawAccents || w.Text == "Çédille"
		if _, _, _, y1 := sh.gridBox(); w.Y0 > y1 {
			continue // the page label under the cards
		}
		s := slotOf(sh, w.X0+0.01, w.Y0+0.01, false)
		if s < 0 {
			t.Errorf("page %d: %q at (%.1f, %.1f) mm is outside every card", w.Page, w.Text, w.X0, w.Y0)
			continue
		}
		sx, sy := sh.Slot(s, false)
		in := lay.Safe - 0.3
		if w.X0 < sx+in || w.X1 > sx+sh.CardW-in || w.Y0 < sy+in || w.Y1 > sy+sh.CardH-in {
			t.Errorf("page %d: %q (%.1f–%.1f, %.1f–%.1f mm) spills out of its card's panel", w.Page, cutWord(w.Text), w.X0, w.X1, w.Y0, w.Y1)
		}
	}
	if !sawRTL || !sawLong || !sawAccents {
		t.Errorf("hostile names not found in the PDF (rtl %v, long %v, accents %v)", sawRTL, sawLong, sawAccents)
	}
}

func cutWord(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// --with-values prints each card's value in a corner.
func TestWithValues(t *testing.T) {
	needPoppler(t)
	rs, err := rules.LoadDir("../testdata/rulesets/minimal")
	if err != nil {
		t.Fatal(err)
	}
	id := rs.Cards[0].ID
	res := fmt.Sprintf(`{"tool_version":"test","ruleset":{"hash":%q},"cards":[{"id":%q,"value":{"pts":3.1,"power":9.43,"power_ci95":[7.91,10.84]}},{"id":"gone"},{"id":%q}]}`,
		rs.Hash, id, rs.Cards[1].ID)
	file := filepath.Join(t.TempDir(), "results.json")
	os.WriteFile(file, []byte(res), 0o644)
	v, err := faces.ReadValues(file, rs)
	if err != nil {
		t.Fatal(err)
	}
	if v.Found != 1 || !v.HashMatches || len(v.Unknown) != 1 || v.Lines[id] != "plays like 9.4 power [7.9, 10.8]" {
		t.Fatalf("values %+v", v)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Print(Options{Ruleset: at(rs), Out: out, Faces: faces.New(rs, v), ValuesFrom: "results.json", Formats: []string{"pdf"}}); err != nil {
		t.Fatal(err)
	}
	text := string(run(t, "pdftotext", "-f", "2", filepath.Join(out, "print-a4.pdf"), "-"))
	if n := strings.Count(text, "plays like 9.4 power [7.9, 10.8]"); n != rs.Cards[0].Copies {
		t.Errorf("the value is printed %d times, want %d (the card's copies):\n%s", n, rs.Cards[0].Copies, text)
	}
	// The first page says what the corner figure is in the game's words
	// (game.FaceSet.ValueLegend), or plainly where the game gives none.
	first := func() string {
		return strings.Join(strings.Fields(string(run(t, "pdftotext", "-l", "1", filepath.Join(out, "print-a4.pdf"), "-"))), " ")
	}
	if p := first(); !strings.Contains(p, `The corner figure "plays like N power" is the card's value measured by simulation (results.json).`) {
		t.Errorf("page 1 does not say what the values are:\n%s", p)
	}
	plain := faces.New(rs, v)
	plain.ValueLegend = ""
	if _, err := Print(Options{Ruleset: at(rs), Out: out, Faces: plain, ValuesFrom: "results.json", Formats: []string{"pdf"}}); err != nil {
		t.Fatal(err)
	}
	if p := first(); !strings.Contains(p, "The corner figure is the card's measured value (results.json).") || strings.Contains(p, "power") {
		t.Errorf("page 1 of faces without a legend:\n%s", p)
	}
	if _, err := Print(Options{Ruleset: at(rs), Out: out, Faces: faces.New(rs, v), Formats: []string{"csv"}}); err != nil {
		t.Fatal(err)
	}
	csvData, _ := os.ReadFile(filepath.Join(out, "cards.csv"))
	if !strings.Contains(string(csvData), ",9.43,7.91,10.84\n") {
		t.Errorf("cards.csv lacks the value columns of %s:\n%s", id, csvData)
	}
	os.WriteFile(file, []byte(`{"tool_version":"x","cards":[{"id":"a"}]}`), 0o644)
	if _, err := faces.ReadValues(file, rs); err == nil || !strings.Contains(err.Error(), "no card values") {
		t.Errorf("a report without values: err = %v", err)
	}
	os.WriteFile(file, []byte(`[1,2`), 0o644)
	if _, err := faces.ReadValues(file, rs); err == nil || !strings.Contains(err.Error(), "not a results.json") {
		t.Errorf("garbage: err = %v", err)
	}
}

// BenchmarkPrintDefault prints the full default set (132 player cards, 24
// targets) in every format: PDFs with backs, TTS sheets, a 300 dpi PNG
// and an SVG per card, the CSV. The budget is 5 s.
func BenchmarkPrintDefault(b *testing.B) {
	rs := rules.Default()
	for i := 0; i < b.N; i++ {
		out := filepath.Join(b.TempDir(), fmt.Sprint(i))
		if _, err := Print(Options{Ruleset: at(rs), Out: out, Backs: true}); err != nil {
			b.Fatal(err)
		}
	}
}
