package printing

import (
	"crypto/sha256"
	_ "embed"
	"fmt"
	"sync"

	"github.com/tdewolff/canvas"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomediumitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/gofont/gosmallcaps"
)

// The Go fonts are embedded so that every machine prints the same cards:
// no system font lookup, no substitution. Their licence asks that binary
// redistributions reproduce the notice, and a PDF or SVG that embeds the
// font is one: Print writes it beside the outputs (FontsLicenseFile).
//
//go:embed GO-FONTS-LICENSE
var goFontsLicense []byte

// FontsLicenseFile is the name of the font licence written into --out.
const FontsLicenseFile = "FONTS-LICENSE.txt"

var builtinFonts = map[string][]byte{
	"go-regular":       goregular.TTF,
	"go-bold":          gobold.TTF,
	"go-italic":        goitalic.TTF,
	"go-bold-italic":   gobolditalic.TTF,
	"go-medium":        gomedium.TTF,
	"go-medium-italic": gomediumitalic.TTF,
	"go-mono":          gomono.TTF,
	"go-mono-bold":     gomonobold.TTF,
	"go-smallcaps":     gosmallcaps.TTF,
}

var builtinFontNames = []string{"go-regular", "go-bold", "go-italic", "go-bold-italic", "go-medium",
	"go-medium-italic", "go-mono", "go-mono-bold", "go-smallcaps"}

// fontCache shares parsed fonts between renders: parsing a TTF and building
// its shaper costs more than drawing a card.
var fontCache sync.Map // name + hash → *canvas.Font

// loadFont parses a font file. Parsing untrusted font files is canvas's
// job; a panic in it is turned into an error.
func loadFont(name string, data []byte) (f *canvas.Font, err error) {
	sum := sha256.Sum256(data) // a font file may change under the same name
	key := name + "\x00" + string(sum[:])
	if v, ok := fontCache.Load(key); ok {
		return v.(*canvas.Font), nil
	}
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("not a usable font: %v", r)
		}
	}()
	f, err = canvas.LoadFont(data, 0, canvas.FontRegular)
	if err != nil {
		return nil, fmt.Errorf("not a usable font: %v", err)
	}
	v, _ := fontCache.LoadOrStore(key, f)
	return v.(*canvas.Font), nil
}

// font returns the font named by the layout (built in or read from the
// ruleset directory by LoadLayout).
func (lay *Layout) font(name string) (*canvas.Font, error) {
	if data, ok := builtinFonts[name]; ok {
		return loadFont(name, data)
	}
	if data, ok := lay.fontData[name]; ok {
		return loadFont(name, data)
	}
	return nil, fmt.Errorf("printing: font %q is not loaded", name)
}
