package cards

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// SetInt returns data with the integer of key written on line changed
// from `from` to `to`, and nothing else: the value is found in the parsed
// node tree (the key on that line, or, when line is where a mapping
// begins, the key in that mapping), and only its scalar's bytes are
// replaced, so comments, key order, quoting and layout stay as the
// designer wrote them. key is the YAML key ("power"; "params.amount" is
// the key amount). The result is parsed again to check that the value read
// back is `to`.
func SetInt(data []byte, file string, line int, key string, from, to int) ([]byte, error) {
	if i := bytes.LastIndexByte([]byte(key), '.'); i >= 0 {
		key = key[i+1:]
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("cards: %s: %v", file, err)
	}
	v, m := findIntValue(&doc, line, key)
	if v == nil && m != nil && m.Style&yaml.FlowStyle == 0 && len(m.Content) >= 2 {
		return insertKey(data, file, line, m, key, from, to)
	}
	if v == nil {
		return nil, fmt.Errorf("cards: %s:%d: no %s: to edit", file, line, key)
	}
	if n, err := strconv.Atoi(v.Value); err != nil || n != from {
		return nil, fmt.Errorf("cards: %s:%d: %s is %q, not %d", file, v.Line, key, v.Value, from)
	}
	off := lineOffset(data, v.Line)
	if off < 0 {
		return nil, fmt.Errorf("cards: %s:%d: no such line", file, v.Line)
	}
	// Column is 1-based and counts characters; the lines that hold an
	// integer value are ASCII up to it in every ruleset we write, but a
	// name before it on the same line ({name: Śa, power: 3}) need not be.
	start := off + runeOffset(data[off:], v.Column-1)
	if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		start++ // keep the quote
	}
	if !bytes.HasPrefix(data[start:], []byte(v.Value)) {
		return nil, fmt.Errorf("cards: %s:%d: %s is not written as %q", file, v.Line, key, v.Value)
	}
	out := make([]byte, 0, len(data)+4)
	out = append(out, data[:start]...)
	out = append(out, strconv.Itoa(to)...)
	out = append(out, data[start+len(v.Value):]...)
	return readBack(out, file, line, key, to)
}

// insertKey writes `key: to` on a line of its own after the first entry of
// the block mapping m (the value not written: a default, which from must
// be), indented as that entry.
func insertKey(data []byte, file string, line int, m *yaml.Node, key string, from, to int) ([]byte, error) {
	first := m.Content[1]
	if first.Kind != yaml.ScalarNode || first.Line != m.Content[0].Line {
		return nil, fmt.Errorf("cards: %s:%d: no %s: to edit", file, line, key)
	}
	off := lineOffset(data, first.Line+1)
	if off < 0 {
		off = len(data)
		if off > 0 && data[off-1] != '\n' {
			data = append(bytes.Clone(data), '\n')
			off++
		}
	}
	ins := fmt.Sprintf("%s%s: %d\n", bytes.Repeat([]byte(" "), m.Content[0].Column-1), key, to)
	out := make([]byte, 0, len(data)+len(ins))
	out = append(out, data[:off]...)
	out = append(out, ins...)
	out = append(out, data[off:]...)
	_ = from
	return readBack(out, file, line, key, to)
}

// readBack parses the edited file and checks that key reads back as to.
func readBack(out []byte, file string, line int, key string, to int) ([]byte, error) {
	var check yaml.Node
	if err := yaml.Unmarshal(out, &check); err != nil {
		return nil, fmt.Errorf("cards: %s:%d: the edit does not parse: %v", file, line, err)
	}
	w, _ := findIntValue(&check, line, key)
	if w == nil {
		// An inserted key is on a line of its own, in the mapping that
		// begins on line.
		w, _ = findIntValueIn(&check, line, key)
	}
	if w == nil || w.Value != strconv.Itoa(to) {
		return nil, fmt.Errorf("cards: %s:%d: %s does not read back as %d", file, line, key, to)
	}
	return out, nil
}

// findIntValue is the scalar value of key whose key is on line, else of
// key in the innermost mapping that begins on line; m is that mapping.
func findIntValue(n *yaml.Node, line int, key string) (v, m *yaml.Node) {
	var onLine, inMap *yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if n.Line == line && n.Content[0].Line == line {
					m = n
				}
				if k.Value == key && v.Kind == yaml.ScalarNode {
					if k.Line == line && onLine == nil {
						onLine = v
					}
					if n.Line == line {
						inMap = v
					}
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	if onLine != nil {
		return onLine, m
	}
	return inMap, m
}

// findIntValueIn is findIntValue's value of key in the mapping beginning
// on line.
func findIntValueIn(n *yaml.Node, line int, key string) (*yaml.Node, *yaml.Node) {
	_, m := findIntValue(n, line, key)
	if m == nil {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1], m
		}
	}
	return nil, m
}

// lineOffset is the byte offset of line (1-based) in data, or -1.
func lineOffset(data []byte, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}

// runeOffset is the byte offset of the n-th character of b.
func runeOffset(b []byte, n int) int {
	off := 0
	for ; n > 0 && off < len(b); n-- {
		_, size := utf8.DecodeRune(b[off:])
		off += size
	}
	return off
}
