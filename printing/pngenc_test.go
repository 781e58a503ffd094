package printing

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// writePNG's files decode to the image drawn, pixel for pixel.
func TestWritePNGRoundTrip(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for y := 0; y < 200; y++ {
		for x := 0; x < 300; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	sub := img.SubImage(image.Rect(10, 20, 110, 70)).(*image.RGBA)
	for _, m := range []*image.RGBA{img, sub} {
		var b bytes.Buffer
		if err := writePNG(&b, m); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		if got.Bounds().Size() != m.Bounds().Size() {
			t.Fatalf("size %v, want %v", got.Bounds().Size(), m.Bounds().Size())
		}
		for y := 0; y < m.Bounds().Dy(); y++ {
			for x := 0; x < m.Bounds().Dx(); x++ {
				r1, g1, b1, _ := got.At(x, y).RGBA()
				r2, g2, b2, _ := m.At(m.Bounds().Min.X+x, m.Bounds().Min.Y+y).RGBA()
				if r1 != r2 || g1 != g2 || b1 != b2 {
					t.Fatalf("pixel (%d, %d) differs", x, y)
				}
			}
		}
	}
}
