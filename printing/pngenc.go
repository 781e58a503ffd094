package printing

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"
)

// writePNG encodes an opaque image as an 8-bit RGB PNG. image/png tries
// all five row filters on every row and scans for transparency; for flat
// card art the "up" filter alone compresses about as well, and this
// encoder is several times faster — it is most of the time the full set
// takes to print.
func writePNG(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits per sample, truecolour
	writeChunk(bw, "IHDR", ihdr[:])

	idat := &chunkWriter{w: bw, typ: "IDAT"}
	zw, err := zlib.NewWriterLevel(idat, zlib.BestSpeed)
	if err != nil {
		return err
	}
	prev := make([]byte, 3*width)
	cur := make([]byte, 3*width)
	row := make([]byte, 1+3*width)
	row[0] = 2 // filter: up
	for y := 0; y < height; y++ {
		pix := img.Pix[(y+b.Min.Y-img.Rect.Min.Y)*img.Stride+(b.Min.X-img.Rect.Min.X)*4:]
		for x := 0; x < width; x++ {
			cur[3*x], cur[3*x+1], cur[3*x+2] = pix[4*x], pix[4*x+1], pix[4*x+2]
		}
		for i := range cur {
			row[1+i] = cur[i] - prev[i]
		}
		if _, err := zw.Write(row); err != nil {
			return err
		}
		prev, cur = cur, prev
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := idat.flush(); err != nil {
		return err
	}
	writeChunk(bw, "IEND", nil)
	return bw.Flush()
}

func writeChunk(w *bufio.Writer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	w.WriteString(typ)
	w.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

// chunkWriter cuts a stream into chunks of up to 256 KiB.
type chunkWriter struct {
	w   *bufio.Writer
	typ string
	buf []byte
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	for len(c.buf) >= 1<<18 {
		writeChunk(c.w, c.typ, c.buf[:1<<18])
		c.buf = c.buf[1<<18:]
	}
	return len(p), nil
}

func (c *chunkWriter) flush() error {
	if len(c.buf) > 0 {
		writeChunk(c.w, c.typ, c.buf)
		c.buf = nil
	}
	return nil
}
