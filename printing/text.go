package printing

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tdewolff/canvas"
	"golang.org/x/text/unicode/norm"
)

// Card names and texts come from the designer's YAML and are printed as
// data: whatever they hold, they stay inside their box.

// cleanText prepares s for a card face: NFC (a combining accent becomes the
// precomposed letter the font has), no control characters, no explicit bidi
// controls (a right-to-left override would reverse the rest of the line,
// and could make a name read as another), no invisible joiners or
// variation selectors. Newlines are kept only when keepNewlines. Runes the
// font cannot draw become a white square, so a missing glyph shows as
// missing instead of silently vanishing.
func cleanText(s string, f *canvas.Font, keepNewlines bool) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = norm.NFC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '\n' && keepNewlines:
			b.WriteRune('\n')
			space = false
			continue
		case r == '\n' || r == '\t' || r == '\r' || unicode.IsSpace(r):
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		case unicode.IsControl(r), isBidiControl(r), isInvisible(r):
			continue
		}
		space = false
		if f != nil && f.GlyphIndex(r) == 0 {
			r = missingGlyph(f)
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

func isBidiControl(r rune) bool {
	return r == '\u061C' || r == '\u200E' || r == '\u200F' || (r >= '\u202A' && r <= '\u202E') || (r >= '\u2066' && r <= '\u2069')
}

// isInvisible: zero-width characters, variation selectors, tags and other
// format characters that change how neighbours join but draw nothing.
// Soft hyphens stay: they are break hints the line breaker understands.
func isInvisible(r rune) bool {
	if r == '\u00AD' {
		return false
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r)
}

func missingGlyph(f *canvas.Font) rune {
	if f.GlyphIndex('\u25A1') != 0 {
		return '\u25A1'
	}
	return '?'
}

// fitted is a text laid out in a box, with the size it got.
type fitted struct {
	text    *canvas.Text
	size    float64 // points
	clipped bool    // the text did not fit at the smallest size and was cut
}

// fitText lays s out in a box w × h mm, at the largest size from size down to
// minSize (points, in quarter points) at which it fits in at most maxLines
// lines (0: any). What does not fit even at minSize is broken inside words
// and cut with an ellipsis, so nothing is ever drawn outside the box.
func fitText(f *canvas.Font, col canvas.Paint, s string, w, h, size, minSize float64, maxLines int, halign canvas.TextAlign) fitted {
	if s == "" {
		return fitted{text: canvas.NewTextLine(f.Face(size, col), "", halign), size: size}
	}
	opts := &canvas.TextOptions{Linebreaker: canvas.GreedyLinebreaker{}}
	fits := func(t *canvas.Text) bool {
		return !t.Overflows && t.Height <= h+1e-6 && (maxLines == 0 || t.Lines() <= maxLines)
	}
	// Try the full size first (most cards), then search downwards: the
	// height is monotone enough in the size that bisection over quarter
	// points finds the largest size that fits in a handful of layouts.
	minSize = min(minSize, size)
	steps := int(math.Ceil((size - minSize) * 4))
	layout := func(step int) (*canvas.Text, float64) {
		sz := max(size-float64(step)/4, minSize) // the last step is minSize itself
		return canvas.NewTextBox(f.Face(sz, col), s, w, 0, halign, canvas.Top, opts), sz
	}
	if t, sz := layout(0); fits(t) {
		return fitted{text: t, size: sz}
	}
	if t, _ := layout(steps); !fits(t) {
		return fitted{text: clipText(f.Face(minSize, col), s, w, h, maxLines, halign, opts), size: minSize, clipped: true}
	}
	lo, hi := 1, steps // the answer is the smallest step that fits; steps does
	for lo < hi {
		mid := (lo + hi) / 2
		if t, _ := layout(mid); fits(t) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	t, sz := layout(lo)
	return fitted{text: t, size: sz}
}

// clipText lays s out at the smallest size, breaking words wider than the
// box anywhere and cutting the text with an ellipsis where the box ends.
func clipText(face *canvas.FontFace, s string, w, h float64, maxLines int, halign canvas.TextAlign, opts *canvas.TextOptions) *canvas.Text {
	s = breakLongWords(face, s, w)
	fits := func(t *canvas.Text) bool {
		return !t.Overflows && t.Height <= h+1e-6 && (maxLines == 0 || t.Lines() <= maxLines)
	}
	t := canvas.NewTextBox(face, s, w, 0, halign, canvas.Top, opts)
	if fits(t) {
		return t
	}
	// A box of height h keeps the lines that fit (Text.Text is what they
	// hold); then drop runes until the ellipsis fits too: one or two
	// layouts, even for a text of pages.
	boxH := h
	if maxLines > 0 {
		boxH = min(h, t.Height*float64(maxLines)/float64(max(t.Lines(), 1))+1e-3)
	}
	cut := canvas.NewTextBox(face, s, w, boxH, halign, canvas.Top, opts)
	runes := []rune(strings.TrimRight(cut.Text, " \n"))
	for n := len(runes); n >= 0; n -= max(1, n/50) {
		cand := canvas.NewTextBox(face, strings.TrimRight(string(runes[:n]), " \n")+"…", w, 0, halign, canvas.Top, opts)
		if fits(cand) {
			return cand
		}
	}
	return canvas.NewTextLine(face, "", halign)
}

// breakLongWords splits every word wider than w into pieces that fit, so
// a 60-letter name wraps or is cut instead of running off the card.
// (A zero-width space would be the gentler break hint, but fonts without
// that glyph give it a width.)
func breakLongWords(face *canvas.FontFace, s string, w float64) string {
	words := strings.Split(s, " ")
	for i, word := range words {
		if word == "" || face.TextWidth(word) <= w {
			continue
		}
		var pieces []string
		runes := []rune(word)
		for len(runes) > 0 {
			// The longest prefix that fits, at least one rune.
			lo, hi := 1, len(runes)
			for lo < hi {
				mid := (lo + hi + 1) / 2
				if face.TextWidth(string(runes[:mid])) <= w {
					lo = mid
				} else {
					hi = mid - 1
				}
			}
			pieces = append(pieces, string(runes[:lo]))
			runes = runes[lo:]
		}
		words[i] = strings.Join(pieces, " ")
	}
	return strings.Join(words, " ")
}
