package cards

import (
	"fmt"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/internal/terminal"
)

// CheckText finds the first byte sequence of data (a YAML file named file)
// that is not text YAML accepts — a NUL, invalid UTF-8, a control character
// YAML forbids — and returns it as a positioned error (nil if none).
// yaml.v3 reports these without a position, or not at all.
func CheckText(file string, data []byte) *Error {
	line, col := 1, 1
	for off := 0; off < len(data); {
		r, size := utf8.DecodeRune(data[off:])
		at := Pos{File: file, Line: line, Col: col}
		switch {
		case r == utf8.RuneError && size == 1:
			return &Error{Pos: at, Msg: fmt.Sprintf("not a YAML text file: invalid UTF-8 (byte 0x%02x at byte offset %d)", data[off], off)}
		case r == 0:
			return &Error{Pos: at, Msg: fmt.Sprintf("not a YAML text file: a NUL byte at byte offset %d", off)}
		case r == '\n':
			line++
			col = 0
		case r == '\t', r == '\r', r >= 0x20 && r <= 0x7e, r == 0x85,
			r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= 0x10ffff:
		default:
			return &Error{Pos: at, Msg: fmt.Sprintf("control character %U is not allowed in YAML", r)}
		}
		col++
		off += size
	}
	return nil
}

// CheckStrings finds the first string of the tree under n whose decoded
// value holds a character that must never reach a terminal or a page raw:
// a control character other than newline and tab (YAML escapes such as
// "\e]0;X\a" decode to them) or a bidi control (U+202E reverses what
// follows it). Card, faction and target names
// are printed by cards, play and validate, so they are checked where they
// are read.
func CheckStrings(file string, n *yaml.Node) *Error {
	var first *Error
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || first != nil {
			return
		}
		if n.Kind == yaml.ScalarNode {
			for _, r := range n.Value {
				if unsafeRune(r) {
					what := "control character"
					if terminal.Bidi(r) {
						what = "bidi control"
					}
					first = &Error{Pos: Pos{File: file, Line: n.Line, Col: n.Column},
						Msg: fmt.Sprintf("%s %U is not allowed in a value (here %s)", what, r, Truncate(fmt.Sprintf("%q", n.Value)))}
					return
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return first
}

// unsafeRune reports whether r must not appear in a decoded string: what
// must never reach a terminal raw (terminal.Unsafe) — control characters
// but newline and tab, and bidi controls, which reorder the text around
// them on a terminal or a page.
func unsafeRune(r rune) bool { return terminal.Unsafe(r) }
