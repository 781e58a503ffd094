package printing

import (
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
	steps := int((size-minSize)*4 + 0.5)
	layout := func(step int) (*canvas.Text, float64) {
		sz := size - float64(step)/4
		return canvas.NewTextBox(f.Face(sz, col), s, w, 0, halign, canvas.Top, opts), sz
	}
	if t, sz := layout(0); fits(t) {
		return fitted{text: t, size: sz}
	}
	lo, hi := 1, steps // the answer is the smallest step that fits
	var best *canvas.Text
	bestSize := 0.0
	for lo <= hi {
		mid := (lo + hi) / 2
		t, sz := layout(mid)
		if fits(t) {
			best, bestSize = t, sz
			hi = mid - 1
		} else {
			lo = mid + 1
		}
	}
	if best != nil {
		return fitted{text: best, size: bestSize}
	}
	return fitted{text: clipText(f.Face(minSize, col), s, w, h, maxLines, halign, opts), size: minSize, clipped: true}
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
	// Keep the longest prefix (in runes) that fits with an ellipsis.
	runes := []rune(s)
	lo, hi := 0, len(runes)
	var best *canvas.Text
	for lo <= hi {
		mid := (lo + hi) / 2
		cand := canvas.NewTextBox(face, strings.TrimRight(string(runes[:mid]), " \u200B")+"…", w, 0, halign, canvas.Top, opts)
		if fits(cand) {
			best = cand
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	if best == nil {
		return canvas.NewTextLine(face, "", halign)
	}
	return best
}

// breakLongWords allows a line break after every character of a word wider
// than w (a zero-width space between them), so a 60-letter name wraps or is
// cut instead of running off the card.
func breakLongWords(face *canvas.FontFace, s string, w float64) string {
	words := strings.Split(s, " ")
	for i, word := range words {
		if word == "" || face.TextWidth(word) <= w {
			continue
		}
		var b strings.Builder
		for j, r := range word {
			if j > 0 {
				b.WriteRune('\u200B')
			}
			b.WriteRune(r)
		}
		words[i] = b.String()
	}
	return strings.Join(words, " ")
}
