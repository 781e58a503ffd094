package printing

import (
	"image/color"
	"strconv"
	"strings"

	"github.com/tdewolff/canvas"
)

// style holds what drawing needs from the layout, resolved once.
type style struct {
	lay                *Layout
	title, body, small *canvas.Font
}

func newStyle(lay *Layout) (*style, error) {
	s := &style{lay: lay}
	var err error
	if s.title, err = lay.font(lay.Fonts.Title); err != nil {
		return nil, err
	}
	if s.body, err = lay.font(lay.Fonts.Body); err != nil {
		return nil, err
	}
	if s.small, err = lay.font(lay.Fonts.Small); err != nil {
		return nil, err
	}
	return s, nil
}

func hexColor(s string) color.RGBA {
	if len(s) != 7 || s[0] != '#' {
		return color.RGBA{0x80, 0x80, 0x80, 0xff}
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return color.RGBA{0x80, 0x80, 0x80, 0xff}
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

func paint(s string) canvas.Paint { return canvas.Paint{Color: hexColor(s)} }

var white = canvas.Paint{Color: color.RGBA{0xff, 0xff, 0xff, 0xff}}

// drawing returns a new canvas of the card with bleed b around it and a
// context on it whose origin is the canvas's top-left corner, y down.
func (s *style) drawing(b float64) (*canvas.Canvas, *canvas.Context) {
	lay := s.lay
	c := canvas.New(lay.Width+2*b, lay.Height+2*b)
	ctx := canvas.NewContext(c)
	ctx.SetCoordSystem(canvas.CartesianIV)
	return c, ctx
}

// drawFace draws a card face with bleed b.
func (s *style) drawFace(f *face, b float64) *canvas.Canvas {
	lay := s.lay
	c, ctx := s.drawing(b)
	col := hexColor(f.Color)
	// The frame colour runs into the bleed, so a cut a little off the line
	// still shows colour to the edge.
	ctx.SetFillColor(col)
	ctx.SetStrokeColor(canvas.Transparent)
	ctx.DrawPath(0, 0, canvas.Rectangle(lay.Width+2*b, lay.Height+2*b))
	ctx.SetFillColor(hexColor(lay.Colors.Panel))
	ctx.DrawPath(b+lay.Safe, b+lay.Safe, canvas.RoundedRectangle(lay.Width-2*lay.Safe, lay.Height-2*lay.Safe, lay.Radius))

	fs := &lay.Fields
	ink, muted := paint(lay.Colors.Ink), paint(lay.Colors.Muted)

	// Name: up to two lines, centred vertically in its box.
	name := cleanText(f.Name, s.title, false)
	s.text(ctx, b, fs.Name, s.title, ink, name, 2, canvas.Left, true)

	// The badge (power, VP, a value) in a disc of the card's colour.
	p := fs.Badge
	r := min(p.W, p.H) / 2
	cx, cy := b+p.X+p.W/2, b+p.Y+p.H/2
	ctx.SetFillColor(col)
	ctx.DrawPath(cx, cy, canvas.Circle(r))
	if f.BadgeSub == "" {
		s.text(ctx, b, Field{X: cx - r - b, Y: cy - r - b, W: 2 * r, H: 2 * r, Size: p.Size, MinSize: p.MinSize}, s.title, white, f.Badge, 1, canvas.Center, true)
	} else {
		top := Field{X: cx - r - b, Y: cy - r*0.85 - b, W: 2 * r, H: r * 1.15, Size: p.Size * 0.8, MinSize: p.MinSize * 0.6}
		s.text(ctx, b, top, s.title, white, f.Badge, 1, canvas.Center, true)
		sub := Field{X: cx - r - b, Y: cy + r*0.3 - b, W: 2 * r, H: r * 0.55, Size: p.Size * 0.35, MinSize: 3}
		s.text(ctx, b, sub, s.title, white, f.BadgeSub, 1, canvas.Center, true)
	}

	// Type line in small capitals, with a rule beneath.
	t := fs.Type
	s.text(ctx, b, t, s.small, muted, strings.ToUpper(cleanText(f.TypeLine, s.small, false)), 1, canvas.Left, true)
	ctx.SetStrokeColor(hexColor(lay.Colors.Muted))
	ctx.SetStrokeWidth(0.2)
	ctx.SetFillColor(canvas.Transparent)
	ry := b + t.Y + t.H + 0.6
	ctx.MoveTo(b+t.X, ry)
	ctx.LineTo(b+t.X+t.W, ry)
	ctx.Stroke()
	ctx.SetStrokeColor(canvas.Transparent)

	// Rules text: wrapped, shrunk to fit.
	s.text(ctx, b, fs.Text, s.body, ink, cleanText(f.Text, s.body, true), 0, canvas.Left, false)

	// Measured value, in the bottom-right corner above the footer.
	if f.Value != "" {
		s.text(ctx, b, fs.Value, s.small, paint(f.Color), cleanText(f.Value, s.small, false), 1, canvas.Right, true)
	}

	// Footer: the side (or "Target") on the left, the id in small print on
	// the right.
	ft := fs.Footer
	left, right := ft, ft
	left.W, right.W = ft.W*0.5, ft.W*0.48
	right.X = ft.X + ft.W - right.W
	s.text(ctx, b, left, s.title, paint(f.Color), cleanText(f.Footer, s.title, false), 1, canvas.Left, true)
	s.text(ctx, b, right, s.small, muted, cleanText(f.ID, s.small, false), 1, canvas.Right, true)
	return c
}

// text fits s into field (positions relative to the trim, b the bleed) and
// draws it; middle centres it vertically.
func (s *style) text(ctx *canvas.Context, b float64, fl Field, fnt *canvas.Font, col canvas.Paint, str string, maxLines int, align canvas.TextAlign, middle bool) {
	if str == "" {
		return
	}
	ft := fitText(fnt, col, str, fl.W, fl.H, fl.Size, fl.MinSize, maxLines, align)
	y := b + fl.Y
	if middle {
		y += (fl.H - ft.text.Height) / 2
	}
	ctx.DrawText(b+fl.X, y, ft.text)
}

// drawBack draws a deck's back with bleed b: the colour to the edge, a
// panel outline inside the safe margin, the deck's name across the middle.
func (s *style) drawBack(bk *back, b float64) *canvas.Canvas {
	lay := s.lay
	c, ctx := s.drawing(b)
	ctx.SetFillColor(hexColor(bk.Color))
	ctx.DrawPath(0, 0, canvas.Rectangle(lay.Width+2*b, lay.Height+2*b))
	inset := lay.Safe + 1
	ctx.SetFillColor(canvas.Transparent)
	ctx.SetStrokeColor(white.Color)
	ctx.SetStrokeWidth(0.6)
	ctx.DrawPath(b+inset, b+inset, canvas.RoundedRectangle(lay.Width-2*inset, lay.Height-2*inset, lay.Radius))
	ctx.SetStrokeWidth(0.25)
	inner := inset + 1.5
	ctx.DrawPath(b+inner, b+inner, canvas.RoundedRectangle(lay.Width-2*inner, lay.Height-2*inner, max(lay.Radius-1, 0)))
	ctx.SetStrokeColor(canvas.Transparent)

	w := lay.Width - 2*inner - 4
	title := Field{X: inner + 2, Y: lay.Height*0.5 - lay.Height*0.09, W: w, H: lay.Height * 0.12,
		Size: lay.Fields.Name.Size * 1.8, MinSize: lay.Fields.Name.MinSize}
	s.text(ctx, b, title, s.title, white, strings.ToUpper(cleanText(bk.Title, s.title, false)), 2, canvas.Center, true)
	sub := Field{X: inner + 2, Y: lay.Height*0.5 + lay.Height*0.05, W: w, H: lay.Height * 0.1,
		Size: lay.Fields.Type.Size * 1.1, MinSize: lay.Fields.Type.MinSize}
	s.text(ctx, b, sub, s.small, white, cleanText(bk.Subtitle, s.small, false), 2, canvas.Center, false)
	return c
}
