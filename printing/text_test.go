package printing

import (
	"strings"
	"testing"
	"unicode"

	"github.com/tdewolff/canvas"
	"pgregory.net/rapid"
)

func goRegular(t testing.TB) *canvas.Font {
	t.Helper()
	f, err := loadFont("go-regular", builtinFonts["go-regular"])
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestCleanText(t *testing.T) {
	f := goRegular(t)
	for _, tc := range []struct{ in, want string }{
		{"Negh'Var", "Negh'Var"},
		{"Ka\u0308mpfer Ce\u0301dille", "Kämpfer Cédille"}, // combining accents become the precomposed letters
		{"\u202eevil\u202c name", "evil name"},             // no bidi overrides
		{"a\x00b\x07c\u200bd\u2066e", "abcde"},
		{"  many   spaces\tand\ttabs\n", "many spaces and tabs"},
		{"rocket 🚀!", "rocket \u25a1!"}, // no glyph: a visible white square
		{"ok\uFE0F", "ok"},
		{"<script>alert(1)</script>", "<script>alert(1)</script>"}, // drawn as text, harmless
	} {
		if got := cleanText(tc.in, f, false); got != tc.want {
			t.Errorf("cleanText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := cleanText("line one\nline two", f, true); got != "line one\nline two" {
		t.Errorf("newlines in rules text: %q", got)
	}
}

// Whatever the text, fitText's result lies inside its box: no line wider
// than the box, no more lines than it holds.
func TestFitTextStaysInBox(t *testing.T) {
	f := goRegular(t)
	black := canvas.Paint{Color: canvas.Black}
	rapid.Check(t, func(t *rapid.T) {
		// Words of Latin letters, Hebrew, symbols and emoji, up to 40
		// runes: long enough to need breaking inside a narrow box.
		word := rapid.StringOfN(rapid.RuneFrom([]rune("aWm1'-éß"), unicode.Latin, unicode.Hebrew, unicode.So), 1, 40, -1)
		s := strings.Join(rapid.SliceOfN(word, 0, 30).Draw(t, "words"), " ")
		s = cleanText(s, f, true)
		w := rapid.Float64Range(8, 60).Draw(t, "w")
		h := rapid.Float64Range(3, 60).Draw(t, "h")
		size := rapid.Float64Range(5, 14).Draw(t, "size")
		maxLines := rapid.IntRange(0, 2).Draw(t, "maxLines")
		ft := fitText(f, black, s, w, h, size, 4, maxLines, canvas.Left)
		if ft.size < 4-1e-9 || ft.size > size+1e-9 {
			t.Fatalf("size %g outside [4, %g]", ft.size, size)
		}
		if ft.text.Height > h+1e-6 && ft.text.Lines() > 0 {
			t.Fatalf("%d lines %.2f mm high in a %.2f mm box (%q)", ft.text.Lines(), ft.text.Height, h, s)
		}
		if maxLines > 0 && ft.text.Lines() > maxLines {
			t.Fatalf("%d lines, at most %d allowed", ft.text.Lines(), maxLines)
		}
		ft.text.WalkLines(func(_ float64, spans []canvas.TextSpan) {
			for _, sp := range spans {
				if sp.X < -1e-6 || sp.X+sp.Width > w+1e-6 {
					t.Fatalf("a line reaches %.2f–%.2f mm in a %.2f mm box (%q)", sp.X, sp.X+sp.Width, w, s)
				}
			}
		})
	})
}
