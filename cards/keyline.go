package cards

import "bytes"

// FindKeyLine returns the line (1-based) of "key:" in data at or after line
// start; inItem stops at the end of the list item beginning at start.
func FindKeyLine(data []byte, start int, key string, inItem bool) int {
	if len(data) == 0 || start < 1 {
		return 0
	}
	lines := bytes.Split(data, []byte("\n"))
	if start > len(lines) {
		return 0
	}
	indent := func(l []byte) int { return len(l) - len(bytes.TrimLeft(l, " ")) }
	first := lines[start-1]
	itemIndent := indent(first)
	for i := start - 1; i < len(lines); i++ {
		l := lines[i]
		t := bytes.TrimLeft(l, " ")
		if inItem && i > start-1 && len(t) > 0 && t[0] != '#' && (indent(l) < itemIndent || indent(l) == itemIndent && bytes.HasPrefix(t, []byte("- "))) {
			return 0
		}
		t = bytes.TrimPrefix(t, []byte("- "))
		if !inItem && indent(l) != 0 {
			continue
		}
		if bytes.HasPrefix(t, []byte(key+":")) {
			return i + 1
		}
	}
	return 0
}
