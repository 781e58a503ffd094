package printing

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"net/url"
	"path/filepath"
	"sync"

	"github.com/tdewolff/canvas"
	"github.com/tdewolff/canvas/renderers/rasterizer"
	"github.com/tdewolff/canvas/renderers/svg"
)

// renderer draws a set's cards once per bleed and reuses the drawings for
// every output: a canvas.Canvas records paths and shaped text, and replays
// them into PDF, SVG or pixels.
type renderer struct {
	set   *set
	lay   *Layout
	style *style
	mu    sync.Mutex                    // guards the caches: files render in parallel
	faces map[[2]float64]*canvas.Canvas // (face index, bleed) → drawing
	backs map[[2]float64]*canvas.Canvas
}

func newRenderer(st *set, lay *Layout) (*renderer, error) {
	sty, err := newStyle(lay)
	if err != nil {
		return nil, err
	}
	return &renderer{set: st, lay: lay, style: sty, faces: map[[2]float64]*canvas.Canvas{}, backs: map[[2]float64]*canvas.Canvas{}}, nil
}

func (r *renderer) face(i int, bleed float64) *canvas.Canvas {
	return r.cached(r.faces, i, bleed, func() *canvas.Canvas { return r.style.drawFace(&r.set.faces[i], bleed) })
}

func (r *renderer) back(i int, bleed float64) *canvas.Canvas {
	return r.cached(r.backs, i, bleed, func() *canvas.Canvas { return r.style.drawBack(&r.set.backs[i], bleed) })
}

// cached draws card i at bleed once and keeps the drawing in m: every
// output (PDF pages, PNG, SVG, TTS sheets) replays the same one.
func (r *renderer) cached(m map[[2]float64]*canvas.Canvas, i int, bleed float64, draw func() *canvas.Canvas) *canvas.Canvas {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := [2]float64{float64(i), bleed}
	if c, ok := m[k]; ok {
		return c
	}
	c := draw()
	m[k] = c
	return c
}

// rasterize draws c at dpmm pixels per millimetre onto white.
func rasterize(c *canvas.Canvas, dpmm float64) *image.RGBA {
	return rasterizeSize(c, int(math.Round(c.W*dpmm)), int(math.Round(c.H*dpmm)))
}

// rasterizeSize draws c scaled to exactly w × h pixels onto white.
func rasterizeSize(c *canvas.Canvas, w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	ras := rasterizer.FromImage(img, canvas.DPMM(float64(w)/c.W), canvas.DefaultColorSpace)
	c.RenderViewTo(ras, canvas.Identity.Scale(1, (float64(h)/c.H)/(float64(w)/c.W)))
	ras.Close()
	return img
}

// writeSVG writes c as a standalone SVG. Text is drawn as outlines: an SVG
// viewer would otherwise substitute its own fonts, and the embedding
// canvas offers stamps each font with the time it was written.
func writeSVG(w io.Writer, c *canvas.Canvas) error {
	opts := svg.DefaultOptions
	opts.EmbedFonts = false
	s := svg.New(w, c.W, c.H, &opts)
	c.RenderTo(outlined{s})
	return s.Close()
}

// outlined is a renderer that draws text as paths.
type outlined struct{ canvas.Renderer }

func (o outlined) RenderText(t *canvas.Text, m canvas.Matrix) {
	t.RenderAsPath(o.Renderer, m, 0)
}

// Tabletop Simulator reads a deck as one image of 10 × 7 cards, the last
// cell showing the card as others see it in a player's hand, and warns
// about sheets wider or taller than 4096 pixels.
const (
	ttsCols, ttsRows = 10, 7
	ttsMaxPixels     = 4096
)

// ttsScale is the sheet resolution in pixels per millimetre and the cell
// size in pixels.
func ttsScale(lay *Layout) (dpmm float64, cellW, cellH int) {
	dpmm = math.Min(ttsMaxPixels/(ttsCols*lay.Width), ttsMaxPixels/(ttsRows*lay.Height))
	cellW = int(math.Floor(lay.Width * dpmm))
	cellH = int(math.Floor(lay.Height * dpmm))
	return dpmm, cellW, cellH
}

// ttsSheet draws deck d's faces, one cell per card definition in deck
// order, and its back in the last cell.
func (r *renderer) ttsSheet(d *deck) *image.RGBA {
	_, cw, ch := ttsScale(r.lay)
	img := image.NewRGBA(image.Rect(0, 0, ttsCols*cw, ttsRows*ch))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	cell := func(i int, c *canvas.Canvas) {
		col, row := i%ttsCols, i/ttsCols
		// Each drawing is scaled to its cell exactly, so no cell shows a
		// seam of its neighbour.
		draw.Draw(img, image.Rect(col*cw, row*ch, (col+1)*cw, (row+1)*ch), rasterizeSize(c, cw, ch), image.Point{}, draw.Src)
	}
	for i, fi := range d.Faces {
		if i >= ttsCols*ttsRows-1 {
			break // decks are capped well below 69 definitions
		}
		cell(i, r.face(fi, 0))
	}
	cell(ttsCols*ttsRows-1, r.back(d.Back, 0))
	return img
}

// ttsBack is the back image: one card at the sheet's resolution.
func (r *renderer) ttsBack(d *deck) *image.RGBA {
	_, cw, ch := ttsScale(r.lay)
	return rasterizeSize(r.back(d.Back, 0), cw, ch)
}

// TTS saved-object JSON: just what Tabletop Simulator needs to spawn a
// custom deck (Objects → Saved Objects).
type ttsSave struct {
	SaveName     string      `json:"SaveName"`
	ObjectStates []ttsObject `json:"ObjectStates"`
}

type ttsTransform struct {
	PosX   float64 `json:"posX"`
	PosY   float64 `json:"posY"`
	PosZ   float64 `json:"posZ"`
	RotX   float64 `json:"rotX"`
	RotY   float64 `json:"rotY"`
	RotZ   float64 `json:"rotZ"`
	ScaleX float64 `json:"scaleX"`
	ScaleY float64 `json:"scaleY"`
	ScaleZ float64 `json:"scaleZ"`
}

type ttsObject struct {
	Name             string                   `json:"Name"`
	Nickname         string                   `json:"Nickname"`
	Description      string                   `json:"Description,omitempty"`
	GMNotes          string                   `json:"GMNotes,omitempty"`
	Transform        ttsTransform             `json:"Transform"`
	CardID           int                      `json:"CardID,omitempty"`
	DeckIDs          []int                    `json:"DeckIDs,omitempty"`
	CustomDeck       map[string]ttsCustomDeck `json:"CustomDeck"`
	ContainedObjects []ttsObject              `json:"ContainedObjects,omitempty"`
	SidewaysCard     bool                     `json:"SidewaysCard"`
	HideWhenFaceDown bool                     `json:"HideWhenFaceDown"`
}

type ttsCustomDeck struct {
	FaceURL      string `json:"FaceURL"`
	BackURL      string `json:"BackURL"`
	NumWidth     int    `json:"NumWidth"`
	NumHeight    int    `json:"NumHeight"`
	BackIsHidden bool   `json:"BackIsHidden"`
	UniqueBack   bool   `json:"UniqueBack"`
	Type         int    `json:"Type"`
}

// fileURL makes a file:// URL of an absolute path, the form Tabletop
// Simulator loads local images from.
func fileURL(abs string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	if len(u.Path) > 0 && u.Path[0] != '/' {
		u.Path = "/" + u.Path // Windows: file:///C:/...
	}
	return u.String()
}

// ttsDeckJSON writes deck d (custom deck number key) as a saved object;
// faceURL and backURL point at its images.
func (r *renderer) ttsDeckJSON(w io.Writer, d *deck, key int, faceURL, backURL string) error {
	cd := map[string]ttsCustomDeck{fmt.Sprint(key): {FaceURL: faceURL, BackURL: backURL,
		NumWidth: ttsCols, NumHeight: ttsRows, BackIsHidden: false, UniqueBack: false, Type: 0}}
	deckObj := ttsObject{Name: "DeckCustom", Nickname: d.Name, CustomDeck: cd,
		Transform: ttsTransform{PosY: 1, RotY: 180, RotZ: 180, ScaleX: 1, ScaleY: 1, ScaleZ: 1}, HideWhenFaceDown: true}
	for i, fi := range d.Faces {
		f := &r.set.faces[fi]
		id := key*100 + i
		for k := 0; k < f.Copies; k++ {
			deckObj.DeckIDs = append(deckObj.DeckIDs, id)
			deckObj.ContainedObjects = append(deckObj.ContainedObjects, ttsObject{
				Name: "Card", Nickname: f.Name, Description: f.Text, GMNotes: f.ID, CardID: id, CustomDeck: cd,
				Transform: ttsTransform{RotY: 180, RotZ: 180, ScaleX: 1, ScaleY: 1, ScaleZ: 1}, HideWhenFaceDown: true,
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(ttsSave{SaveName: d.Name, ObjectStates: []ttsObject{deckObj}})
}
