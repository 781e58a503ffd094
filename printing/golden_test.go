package printing

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/faces"
)

const goldenDir = "../testdata/golden/printing"

// Card faces, a target and a back, compared with images a person looked
// at (go test ./printing -run Golden -update rewrites them; look at them
// before committing). Small differences are tolerated: a rasterizer or
// font-hinting change may move an edge pixel, not a word.
func TestGoldenImages(t *testing.T) {
	rs, _ := hostileRuleset(t)
	lay := DefaultLayout()
	st := mustSet(t, faces.New(rs, &faces.Values{Lines: map[string]string{"kl-neghvar": "plays like 9.4 power [7.9, 10.8]"}}), lay)
	r, err := newRenderer(st, lay)
	if err != nil {
		t.Fatal(err)
	}
	const dpmm = 100 / 25.4
	want := map[string]bool{"kl-neghvar": true, "kl-bird-of-prey": true, "kl-armada": true, "sf-galaxy": true, "earth": true, "kl-tygokor": true}
	images := map[string]image.Image{}
	for i, f := range st.faces {
		if want[f.ID] {
			images[f.ID] = rasterize(r.face(i, lay.Bleed), dpmm)
		}
	}
	images["back-klingon"] = rasterize(r.back(3, lay.Bleed), dpmm)
	images["back-targets"] = rasterize(r.back(len(st.backs)-1, lay.Bleed), dpmm)
	if len(images) != len(want)+2 {
		t.Fatalf("%d images, want %d", len(images), len(want)+2)
	}
	for name, img := range images {
		file := filepath.Join(goldenDir, name+".png")
		if *update {
			var b bytes.Buffer
			if err := png.Encode(&b, img); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(goldenDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatalf("%v (run go test ./printing -run Golden -update)", err)
		}
		gold, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if diff, frac := imageDiff(img, gold); diff != "" || frac > 0.005 {
			t.Errorf("%s: differs from %s: %s%.2f%% of the pixels", name, file, diff, 100*frac)
		}
	}
}

// imageDiff compares two images: a size mismatch, or the share of pixels
// whose colour differs by more than a faint anti-aliasing step.
func imageDiff(a, b image.Image) (string, float64) {
	if a.Bounds().Size() != b.Bounds().Size() {
		return "size " + a.Bounds().Size().String() + " against " + b.Bounds().Size().String() + "; ", 1
	}
	ab, bb := a.Bounds(), b.Bounds()
	differ := 0
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, _ := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			if absDiff(r1, r2) > 48<<8 || absDiff(g1, g2) > 48<<8 || absDiff(b1, b2) > 48<<8 {
				differ++
			}
		}
	}
	return "", float64(differ) / float64(ab.Dx()*ab.Dy())
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
