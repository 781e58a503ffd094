package terminal

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                 "plain",
		"a\tb\nc":               "a\tb\nc",
		"\x1b]0;x\a\x1b[2J":     `\u001b]0;x\u0007\u001b[2J`,
		"a\rb":                  `a\u000db`,
		"\u202eevil":            `\u202eevil`,
		"x\u2066y\u200fz\u061c": `x\u2066y\u200fz\u061c`,
		"\u009b2J":              `\u009b2J`,
		"del\x7f":               `del\u007f`,
		"bad\xffutf8":           `bad\xffutf8`,
		"Ωμέγα 🚀 中文 עברית \ufffd": "Ωμέγα 🚀 中文 עברית \ufffd",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWriterSplitsAnywhere: the output is the same however the text is cut
// into writes, a rune split between two writes included.
func TestWriterSplitsAnywhere(t *testing.T) {
	in := "name \u202eX\x1b[2J Ωμέγα 🚀\u009b end"
	want := Clean(in)
	for cut := range len(in) + 1 {
		var b bytes.Buffer
		w := NewWriter(&b)
		if n, err := w.Write([]byte(in[:cut])); err != nil || n != cut {
			t.Fatalf("Write = %d, %v", n, err)
		}
		w.Write([]byte(in[cut:]))
		w.Flush()
		if b.String() != want {
			t.Errorf("cut at %d: %q, want %q", cut, b.String(), want)
		}
	}
}

// FuzzWriter: nothing unsafe comes out of a Writer, and a JSON document
// sent through one decodes to the same value (its escapes are JSON's).
func FuzzWriter(f *testing.F) {
	f.Add("\x1b]0;x\a", 3)
	f.Add("{\"name\": \"a\u202eb\u009b\x7f\"}", 9)
	f.Add("🚀", 2)
	f.Fuzz(func(t *testing.T, s string, cut int) {
		var b bytes.Buffer
		w := NewWriter(&b)
		if cut < 0 || cut > len(s) {
			cut = len(s) / 2
		}
		w.Write([]byte(s[:cut]))
		w.Write([]byte(s[cut:]))
		w.Flush()
		out := b.String()
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out: %q", out)
		}
		for _, r := range out {
			if Unsafe(r) {
				t.Fatalf("%U came out of %q", r, s)
			}
		}
		if !utf8.ValidString(s) {
			return
		}
		doc, _ := json.Marshal(map[string]string{"v": s})
		var back, through map[string]string
		json.Unmarshal(doc, &back)
		var jb bytes.Buffer
		jw := NewWriter(&jb)
		jw.Write(doc)
		if err := json.Unmarshal(jb.Bytes(), &through); err != nil || through["v"] != back["v"] {
			t.Fatalf("JSON through a Writer: %v, %q != %q", err, through["v"], back["v"])
		}
		if strings.Contains(jb.String(), "\x1b") {
			t.Fatal("escape in JSON output")
		}
	})
}
