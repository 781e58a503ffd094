package printing

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"sync"

	"github.com/tdewolff/canvas"
	"github.com/tdewolff/canvas/renderers/pdf"
)

// Paper is a sheet size in millimetres.
type Paper struct {
	Name          string // "a4", "letter": file names and messages
	Title         string // "A4", "US Letter": on the page
	Width, Height float64
}

// Papers are the print-and-play PDFs written, one file each.
var Papers = []Paper{
	{Name: "a4", Title: "A4", Width: 210, Height: 297},
	{Name: "letter", Title: "US Letter", Width: 215.9, Height: 279.4},
}

const (
	perRow, perCol = 3, 3
	perPage        = perRow * perCol
	// markOffset is the gap between the printed area and a crop mark, and
	// markMinLen the shortest mark worth drawing; the page keeps at least
	// minMargin clear around the cards for them (and for printers that
	// cannot print to the edge).
	markOffset = 1.5
	markLen    = 5.0
	minMargin  = 6.0
	markWidth  = 0.25 // mm
)

// Sheet is the geometry of a 3 × 3 page: where each card's cut lines are.
type Sheet struct {
	Paper
	CardW, CardH float64 // trimmed card
	Bleed        float64 // printed around each card; the gutter is twice this
	// X0, Y0 is the top-left corner of the first card's cut lines, from
	// the page's top-left corner, y down.
	X0, Y0 float64
}

// NewSheet lays out 3 × 3 cards of lay on paper, with the layout's bleed
// when bleed is true. The bleed shrinks when the cards with it would not
// fit the paper (Letter is too short for 3 × 88 mm plus 3 mm of bleed
// around each card); Reduced says so.
func NewSheet(p Paper, lay *Layout, bleed bool) (Sheet, error) {
	s := Sheet{Paper: p, CardW: lay.Width, CardH: lay.Height}
	if bleed {
		s.Bleed = lay.Bleed
	}
	// perRow cards and a gutter of 2b between them plus b outside: 2·perRow·b.
	fit := func(page, card float64, n int) float64 {
		return (page - 2*minMargin - float64(n)*card) / (2 * float64(n))
	}
	maxB := math.Min(fit(p.Width, s.CardW, perRow), fit(p.Height, s.CardH, perCol))
	if maxB < 0 {
		return s, fmt.Errorf("printing: 3 × 3 cards of %g × %g mm do not fit on %s paper (%g × %g mm); leave out the PDFs (--formats tts,png,svg,csv) or make the cards smaller in layout.yaml", s.CardW, s.CardH, p.Title, p.Width, p.Height)
	}
	if s.Bleed > maxB {
		s.Bleed = math.Floor(maxB*10) / 10
	}
	pitchX, pitchY := s.CardW+2*s.Bleed, s.CardH+2*s.Bleed
	s.X0 = (p.Width-perRow*pitchX)/2 + s.Bleed
	s.Y0 = (p.Height-perCol*pitchY)/2 + s.Bleed
	return s, nil
}

// Reduced reports whether the bleed is less than the layout asked for.
func (s Sheet) Reduced(lay *Layout, bleed bool) bool { return bleed && s.Bleed < lay.Bleed }

// Slot is the top-left corner of slot i's cut lines (0..8, row by row).
// Mirrored slots are those of the back page: a sheet printed on both sides
// and flipped on its long edge shows each back behind its face.
func (s Sheet) Slot(i int, mirrored bool) (x, y float64) {
	col, row := i%perRow, i/perRow
	x = s.X0 + float64(col)*(s.CardW+2*s.Bleed)
	y = s.Y0 + float64(row)*(s.CardH+2*s.Bleed)
	if mirrored {
		x = s.Width - x - s.CardW
	}
	return x, y
}

// CutLines are the x positions of the vertical cut lines and the y
// positions of the horizontal ones, in ascending order; crop marks stand
// on their extensions outside the cards.
func (s Sheet) CutLines() (xs, ys []float64) {
	add := func(list []float64, v float64) []float64 {
		if len(list) > 0 && math.Abs(list[len(list)-1]-v) < 1e-6 {
			return list // cards without bleed share their cut lines
		}
		return append(list, v)
	}
	for c := 0; c < perRow; c++ {
		x := s.X0 + float64(c)*(s.CardW+2*s.Bleed)
		xs = add(add(xs, x), x+s.CardW)
	}
	for r := 0; r < perCol; r++ {
		y := s.Y0 + float64(r)*(s.CardH+2*s.Bleed)
		ys = add(add(ys, y), y+s.CardH)
	}
	return xs, ys
}

// gridBox is the printed area of the cards, bleed included.
func (s Sheet) gridBox() (x0, y0, x1, y1 float64) {
	x0, y0 = s.X0-s.Bleed, s.Y0-s.Bleed
	x1 = x0 + perRow*(s.CardW+2*s.Bleed)
	y1 = y0 + perCol*(s.CardH+2*s.Bleed)
	return
}

// drawCropMarks draws the marks of every cut line in the page margins.
// ctx is y down from the page's top-left corner.
func (s Sheet) drawCropMarks(ctx *canvas.Context) {
	x0, y0, x1, y1 := s.gridBox()
	lenX := math.Min(markLen, x0-markOffset-1)
	lenY := math.Min(markLen, y0-markOffset-1)
	ctx.SetFillColor(canvas.Transparent)
	ctx.SetStrokeColor(canvas.Black)
	ctx.SetStrokeWidth(markWidth)
	xs, ys := s.CutLines()
	line := func(ax, ay, bx, by float64) {
		ctx.MoveTo(ax, ay)
		ctx.LineTo(bx, by)
		ctx.Stroke()
	}
	for _, x := range xs {
		line(x, y0-markOffset-lenY, x, y0-markOffset)
		line(x, y1+markOffset, x, y1+markOffset+lenY)
	}
	for _, y := range ys {
		line(x0-markOffset-lenX, y, x0-markOffset, y)
		line(x1+markOffset, y, x1+markOffset+lenX, y)
	}
	ctx.SetStrokeColor(canvas.Transparent)
}

// facePages lists the pages of faces: every deck from a new page, every
// card as often as its copies, in deck order.
func (st *set) facePages() [][]int {
	var pages [][]int
	for _, d := range st.decks {
		var cur []int
		for _, fi := range d.Faces {
			for k := 0; k < st.faces[fi].Copies; k++ {
				cur = append(cur, fi)
				if len(cur) == perPage {
					pages = append(pages, cur)
					cur = nil
				}
			}
		}
		if len(cur) > 0 {
			pages = append(pages, cur)
		}
	}
	return pages
}

// pdfInfo is what the listing page says about a run.
type pdfInfo struct {
	backs, bleedAsked bool
	values            string // the results file the values came from, or ""
	legend            string // what the corner figure is (game.FaceSet.ValueLegend)
}

// writePDF renders the print-and-play document for one paper size.
func (r *renderer) writePDF(w io.Writer, sh Sheet, info pdfInfo) error {
	st := r.set
	pages := st.facePages()
	var buf bytes.Buffer
	doc := pdf.New(&buf, sh.Width, sh.Height, &pdf.Options{Compress: true, SubsetFonts: true, ImageEncoding: canvas.Lossless})
	doc.SetInfo(cleanText(st.name, nil, false)+" – print and play", "playtest cards", "cardlab", "", "cardlab print")

	// Page 1: what is in the document and how to print it.
	r.listingPage(doc, sh, pages, info)

	pageNo := 1
	for _, page := range pages {
		pageNo++
		doc.NewPage(sh.Width, sh.Height)
		r.cardPage(doc, sh, page, false, pageNo)
		if info.backs {
			pageNo++
			doc.NewPage(sh.Width, sh.Height)
			r.cardPage(doc, sh, page, true, pageNo)
		}
	}
	if err := closePDF(doc); err != nil {
		return err
	}
	out, err := fixFontDates(fixCreationDate(buf.Bytes()))
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// cardPage draws one page of faces, or of their backs mirrored.
func (r *renderer) cardPage(doc *pdf.PDF, sh Sheet, page []int, backs bool, pageNo int) {
	ctx := canvas.NewContext(doc)
	ctx.SetCoordSystem(canvas.CartesianIV)
	for i, fi := range page {
		x, y := sh.Slot(i, backs)
		var c *canvas.Canvas
		if backs {
			c = r.back(r.set.faces[fi].Back, sh.Bleed)
		} else {
			c = r.face(fi, sh.Bleed)
		}
		// The drawing's own coordinates are y up from its bottom-left
		// corner (bleed included); the page's are too.
		c.RenderViewTo(doc, canvas.Identity.Translate(x-sh.Bleed, sh.Height-(y+sh.CardH+sh.Bleed)))
	}
	sh.drawCropMarks(ctx)
	// A small page label outside the marks tells pages apart when sorting
	// a printed stack.
	side := "faces"
	if backs {
		side = "backs"
	}
	d := r.deckOf(page[0])
	label := fmt.Sprintf("%s · page %d · %s", d.Name, pageNo, side)
	// It stands just below the cards, between the middle crop marks, where
	// every printer reaches (the page's edge may not be printable).
	w := sh.CardW - 4
	_, _, _, gridBottom := sh.gridBox()
	t := fitText(r.style.small, paint(r.lay.Colors.Muted), cleanText(label, r.style.small, false), w, 3, 6, 4, 1, canvas.Center)
	ctx.DrawText(sh.Width/2-w/2, gridBottom+markOffset, t.text)
}

func (r *renderer) deckOf(fi int) *deck {
	for i := range r.set.decks {
		for _, f := range r.set.decks[i].Faces {
			if f == fi {
				return &r.set.decks[i]
			}
		}
	}
	return &r.set.decks[0]
}

// listingPage is the first page: the decks, what the document holds, how
// to print it.
func (r *renderer) listingPage(doc *pdf.PDF, sh Sheet, pages [][]int, info pdfInfo) {
	st, lay := r.set, r.lay
	ctx := canvas.NewContext(doc)
	ctx.SetCoordSystem(canvas.CartesianIV)
	ink, muted := paint(lay.Colors.Ink), paint(lay.Colors.Muted)
	title, body, small := r.style.title, r.style.body, r.style.small
	left := 20.0
	width := sh.Width - 2*left
	y := 22.0
	line := func(f *canvas.Font, size float64, col canvas.Paint, s string) {
		t := fitText(f, col, cleanText(s, f, true), width, 60, size, size*0.7, 0, canvas.Left)
		ctx.DrawText(left, y, t.text)
		y += t.text.Height + size*0.35*0.3528*2
	}
	game := st.name
	if st.version != "" {
		game += " " + st.version
	}
	line(title, 20, ink, game)
	line(body, 11, muted, fmt.Sprintf("Print-and-play cards · %s paper · %d pages of cards · made by cardlab print", sh.Title, len(pages)*map[bool]int{true: 2, false: 1}[info.backs]))
	y += 6

	// The decks as a table: colour swatch, name, definitions, cards, pages.
	pageOf := map[int][2]int{}
	for pi, p := range pages {
		d := r.deckOf(p[0])
		span, ok := pageOf[d.Back]
		if !ok {
			span = [2]int{pi, pi}
		}
		span[1] = pi
		pageOf[d.Back] = span
	}
	// cell draws s with its top at y, so every column lines up.
	cell := func(x float64, f *canvas.Font, size float64, col canvas.Paint, s string) {
		t := fitText(f, col, cleanText(s, f, false), 60, 8, size, size*0.7, 1, canvas.Left)
		ctx.DrawText(x, y, t.text)
	}
	cols := []float64{left, left + 70, left + 110, left + 140}
	head := []string{"Deck", "Different cards", "Cards", "Pages"}
	for i, h := range head {
		cell(cols[i], small, 9, muted, h)
	}
	y += 6.5
	total := 0
	for _, d := range st.decks {
		n := d.size(st)
		total += n
		ctx.SetFillColor(hexColor(st.backs[d.Back].Color))
		ctx.DrawPath(left, y+0.3, canvas.RoundedRectangle(4, 4, 0.8))
		cell(left+6, title, 11, ink, d.Name)
		span := pageOf[d.Back]
		mult := 1
		if info.backs {
			mult = 2
		}
		pagesText := fmt.Sprintf("%d–%d", 2+span[0]*mult, 2+span[1]*mult+mult-1)
		if span[0] == span[1] && mult == 1 {
			pagesText = fmt.Sprint(2 + span[0])
		}
		for i, s := range []string{fmt.Sprint(len(d.Faces)), fmt.Sprint(n), pagesText} {
			cell(cols[i+1], body, 11, ink, s)
		}
		y += 7
	}
	ctx.SetStrokeColor(hexColor(lay.Colors.Muted))
	ctx.SetStrokeWidth(0.2)
	ctx.MoveTo(left, y)
	ctx.LineTo(left+width, y)
	ctx.Stroke()
	ctx.SetStrokeColor(canvas.Transparent)
	y += 1.5
	cell(cols[0], body, 11, ink, "All decks")
	cell(cols[2], title, 11, ink, fmt.Sprint(total))
	y += 14

	bleedNote := "Cards are printed edge to edge without bleed: cut along the crop marks."
	if sh.Bleed > 0 {
		bleedNote = fmt.Sprintf("Each card has %.1f mm of bleed; cut along the crop marks, not the colour edge.", sh.Bleed)
		if sh.Reduced(lay, info.bleedAsked) {
			bleedNote += fmt.Sprintf(" (The layout asks for %.1f mm; that much does not fit 3 × 3 cards on %s paper.)", lay.Bleed, sh.Title)
		}
	}
	steps := []string{
		fmt.Sprintf("Print at 100%% (\"actual size\", not \"fit to page\"): the bar below must measure 50 mm, and each card %g × %g mm.", lay.Width, lay.Height),
		bleedNote,
	}
	if info.backs {
		steps = append(steps, "Every page of faces is followed by its backs, mirrored: print double-sided, flipping on the long edge.")
	} else {
		steps = append(steps, "No backs in this file (cardlab print --backs adds them, for double-sided printing).")
	}
	if info.values != "" {
		// The game words its own values ("plays like a 106-MP card", a
		// part's hulls from an exact study); printing knows none of them.
		legend := info.legend
		if legend == "" {
			legend = "The corner figure is the card's measured value"
		}
		steps = append(steps, legend+" ("+info.values+").")
	}
	for _, s := range steps {
		line(body, 10, ink, "•  "+s)
		y += 1
	}
	y += 4
	ctx.SetFillColor(hexColor(lay.Colors.Ink))
	ctx.DrawPath(left, y, canvas.Rectangle(50, 1.2))
	y -= 0.9
	cell(left+52, small, 8, muted, "50 mm")
	y += 0.9
	y += 12
	line(small, 7, muted, "Set in the Go fonts by Bigelow & Holmes, embedded under their BSD-style licence (FONTS-LICENSE.txt beside this file).")
}

var reCreationDate = regexp.MustCompile(`/CreationDate\s*\(D:`)

// fixCreationDate replaces the creation time the PDF writer stamps with a
// fixed one of the same length, so the same cards give the same bytes
// (and the cross-reference offsets stay right).
func fixCreationDate(b []byte) []byte {
	loc := reCreationDate.FindIndex(b)
	if loc == nil {
		return b
	}
	start := loc[1]
	end := bytes.IndexByte(b[start:], ')')
	if end < 0 {
		return b
	}
	const fixed = "20000101000000+000000000000" // digits and a zone, cut to length
	v := b[start : start+end]
	for j := range v {
		switch {
		case j < 14:
			v[j] = fixed[j]
		case j == 14:
			if v[j] != 'Z' {
				v[j] = '+'
			}
		default:
			if v[j] >= '0' && v[j] <= '9' {
				v[j] = '0'
			}
		}
	}
	return b
}

// fixFontDates sets the "modified" time of every embedded TrueType font to
// a fixed one: the PDF writer stamps each font program with the time of
// writing, which would make every run's bytes differ. The font streams are
// compressed, so patching one changes its length: the objects are copied
// in file order and the cross-reference table is written anew.
func fixFontDates(b []byte) ([]byte, error) {
	xref := bytes.LastIndex(b, []byte("\nxref\n"))
	if xref < 0 {
		return nil, errors.New("printing: PDF without a cross-reference table")
	}
	xref++
	var first, count int
	if _, err := fmt.Sscanf(string(b[xref:min(len(b), xref+40)]), "xref\n%d %d\n", &first, &count); err != nil || first != 0 {
		return nil, errors.New("printing: unexpected PDF cross-reference table")
	}
	table := xref + len(fmt.Sprintf("xref\n0 %d\n", count))
	if table+20*count > len(b) {
		return nil, errors.New("printing: truncated PDF cross-reference table")
	}
	type obj struct{ num, off int }
	objs := make([]obj, 0, count)
	for k := 1; k < count; k++ {
		off, err := strconv.Atoi(string(b[table+20*k : table+20*k+10]))
		if err != nil {
			return nil, errors.New("printing: unexpected PDF cross-reference entry")
		}
		objs = append(objs, obj{k, off})
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].off < objs[j].off })
	if len(objs) == 0 {
		return b, nil
	}
	var out bytes.Buffer
	out.Write(b[:objs[0].off])
	newOff := make([]int, count)
	for i, o := range objs {
		end := xref
		if i+1 < len(objs) {
			end = objs[i+1].off
		}
		newOff[o.num] = out.Len()
		out.Write(fixFontObject(b[o.off:end]))
	}
	xrefAt := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", count)
	for k := 1; k < count; k++ {
		fmt.Fprintf(&out, "%010d 00000 n \n", newOff[k])
	}
	trailer := b[table+20*count:]
	sx := bytes.Index(trailer, []byte("startxref\n"))
	if sx < 0 {
		return nil, errors.New("printing: PDF without startxref")
	}
	out.Write(trailer[:sx])
	fmt.Fprintf(&out, "startxref\n%d\n%%%%EOF\n", xrefAt)
	return out.Bytes(), nil
}

var reStreamLength = regexp.MustCompile(`^(\d+ 0 obj\n<<(?:/Filter/FlateDecode)?/Length )(\d+)(>>stream\n)`)

// fixFontObject returns the object unchanged unless it is a compressed
// TrueType font program, whose head table then gets the fixed date.
func fixFontObject(o []byte) []byte {
	m := reStreamLength.FindSubmatchIndex(o)
	if m == nil || !bytes.Contains(o[:m[1]], []byte("FlateDecode")) {
		return o
	}
	n, _ := strconv.Atoi(string(o[m[4]:m[5]]))
	if m[1]+n > len(o) {
		return o
	}
	zr, err := zlib.NewReader(bytes.NewReader(o[m[1] : m[1]+n]))
	if err != nil {
		return o
	}
	font, err := io.ReadAll(zr)
	if err != nil || !bytes.HasPrefix(font, []byte{0, 1, 0, 0}) || !setFontDate(font) {
		return o
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(font)
	zw.Close()
	var res bytes.Buffer
	res.Write(o[:m[4]])
	res.WriteString(strconv.Itoa(z.Len()))
	res.Write(o[m[5]:m[1]])
	res.Write(z.Bytes())
	res.Write(o[m[1]+n:])
	return res.Bytes()
}

// setFontDate sets a TrueType font's head.modified to 2000-01-01 and
// updates the checksums that cover it.
func setFontDate(font []byte) bool {
	const fixedModified = 3029529600 // 2000-01-01 in seconds since 1904
	be := binary.BigEndian
	if len(font) < 12 {
		return false
	}
	n := int(be.Uint16(font[4:]))
	if 12+16*n > len(font) {
		return false
	}
	for k := 0; k < n; k++ {
		rec := font[12+16*k:]
		off, length := int(be.Uint32(rec[8:])), int(be.Uint32(rec[12:]))
		if string(rec[:4]) != "head" || length < 54 || off+length > len(font) {
			continue
		}
		be.PutUint64(font[off+28:], fixedModified)
		be.PutUint32(font[off+8:], 0)
		be.PutUint32(rec[4:], sfntChecksum(font[off:off+length]))
		be.PutUint32(font[off+8:], 0xB1B0AFBA-sfntChecksum(font))
		return true
	}
	return false
}

// sfntChecksum is the sum of the big-endian 32-bit words of b, the last
// one padded with zeros.
func sfntChecksum(b []byte) uint32 {
	var sum uint32
	for k := 0; k < len(b); k += 4 {
		var w [4]byte
		copy(w[:], b[k:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}

// subsetMu serialises the PDF writer's font subsetting. tdewolff/font's
// SFNT.Subset copies the maxp table's pointer instead of the table and
// writes the subset's glyph count into it: into the font parsed once and
// shared by every render (fontCache), which print renders in parallel
// (go test -race found two PDFs subsetting one font at once).
var subsetMu sync.Mutex

// closePDF closes doc (which subsets and embeds its fonts) with the fonts'
// glyph counts put back as they were parsed.
func closePDF(doc *pdf.PDF) error {
	subsetMu.Lock()
	defer subsetMu.Unlock()
	type saved struct {
		f *canvas.Font
		n uint16
	}
	var keep []saved
	fontCache.Range(func(_, v any) bool {
		if f := v.(*canvas.Font); f.SFNT != nil && f.SFNT.Maxp != nil {
			keep = append(keep, saved{f, f.SFNT.Maxp.NumGlyphs})
		}
		return true
	})
	defer func() {
		for _, k := range keep {
			k.f.SFNT.Maxp.NumGlyphs = k.n
		}
	}()
	return doc.Close()
}
