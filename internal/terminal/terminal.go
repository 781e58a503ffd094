// Package terminal keeps text from files harmless on a terminal: every
// string cardlab prints (tables, notes, errors) can hold names and values
// read from a ruleset, a result or a shard, and a control character or a
// bidi override in one could retitle the window, clear the screen or
// reorder what the reader sees. Writer escapes them on the way out, so no
// printing site has to remember to.
package terminal

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Unsafe reports whether r must not reach a terminal raw: a C0 control
// other than newline and tab (escape, bell, carriage return, backspace…),
// DEL, a C1 control (U+0080–U+009F: 8-bit CSI and OSC on some terminals)
// or a bidi control (U+061C, U+200E, U+200F, U+202A–U+202E,
// U+2066–U+2069), which reorders the text around it.
func Unsafe(r rune) bool {
	switch {
	case r == '\n', r == '\t':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	}
	return Bidi(r)
}

// Bidi reports whether r is a bidi control: an override, embedding,
// isolate or directional mark.
func Bidi(r rune) bool {
	return r == '\u061C' || r == '\u200E' || r == '\u200F' || (r >= '\u202A' && r <= '\u202E') || (r >= '\u2066' && r <= '\u2069')
}

// escape is the visible form of an unsafe rune: its JSON escape, so a JSON
// document sent through a Writer decodes to the same text.
func escape(r rune) string { return fmt.Sprintf(`\u%04x`, r) }

// Clean returns s with every unsafe rune (Unsafe) written as its \uXXXX
// escape, and every byte that is not UTF-8 as \xNN.
func Clean(s string) string {
	if !needsCleaning(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Unsafe(r):
			b.WriteString(escape(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsCleaning(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f {
			// Only bytes from DEL up can start an unsafe multi-byte rune.
			for _, r := range s {
				if r == utf8.RuneError || Unsafe(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// Writer passes text to W with every unsafe rune escaped (Clean). A rune
// split between two writes is held until its end arrives (or Flush). It is
// safe for concurrent use.
type Writer struct {
	W       io.Writer
	mu      sync.Mutex
	pending []byte // the start of a rune split by the last write
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{W: w} }

// Write escapes p's unsafe runes and writes the result to W. It reports
// len(p) written when W took everything.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data := p
	if len(w.pending) > 0 {
		data = append(w.pending, p...)
		w.pending = nil
	}
	// Hold back an incomplete rune at the end for the next write.
	if cut := incompleteTail(data); cut < len(data) {
		w.pending = append([]byte(nil), data[cut:]...)
		data = data[:cut]
	}
	s := Clean(string(data))
	if _, err := io.WriteString(w.W, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a held partial rune (escaped as the bytes it is).
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return nil
	}
	s := Clean(string(w.pending))
	w.pending = nil
	_, err := io.WriteString(w.W, s)
	return err
}

// Unwrap is the writer underneath: for a progress bar, which draws with
// carriage returns of its own, and to tell whether it is a terminal.
func (w *Writer) Unwrap() io.Writer { return w.W }

// incompleteTail is the index where a UTF-8 sequence begun but not
// finished at the end of b starts (len(b) when there is none).
func incompleteTail(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax+1; i-- {
		c := b[i]
		if c < 0x80 {
			return len(b)
		}
		if c >= 0xc0 { // a leading byte
			if !utf8.FullRune(b[i:]) {
				return i
			}
			return len(b)
		}
	}
	return len(b)
}

// Unwrap returns the writer underneath w's Writers.
func Unwrap(w io.Writer) io.Writer {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}
