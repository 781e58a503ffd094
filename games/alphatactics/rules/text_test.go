package rules

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestLoadRejectsDecodedControlCharacters: YAML escapes decode to control
// characters the raw-byte check cannot see (issue 14 item 10); they are
// refused with the position of the string, and the message never prints
// them raw.
func TestLoadRejectsDecodedControlCharacters(t *testing.T) {
	base := minimalFS(t)
	tests := []struct {
		name, old, new, want string
	}{
		{"terminal title and clear", "name: Disruptor", `name: "\e]0;X\a\e[2J"`, `klingon.yaml:11:11: control character U+001B is not allowed in a value (here "\x1b]0;X\a\x1b[2J")`},
		{"bell", "name: Disruptor", `name: "Disr\auptor"`, `klingon.yaml:11:11: control character U+0007`},
		{"C1 CSI", "name: Disruptor", `name: "a\u009b2J"`, `control character U+009B`},
		{"carriage return", "name: Disruptor", `name: "a\rb"`, `control character U+000D`},
		{"in a key", "name: Disruptor", "name: Disruptor\n    \"t\\x1bx\": 1", `control character U+001B`},
		// Issue 24 item 11: bidi controls reorder what a terminal or a
		// page shows around them; they are refused like control
		// characters, escaped or raw.
		{"bidi override escaped", "name: Disruptor", `name: "Disr\u202euptor"`, `klingon.yaml:11:11: bidi control U+202E is not allowed in a value`},
		{"bidi override raw", "name: Disruptor", "name: Disr\u202euptor", `bidi control U+202E`},
		{"bidi isolate", "name: Disruptor", "text: \"a\u2067b\"", `bidi control U+2067`},
		{"right-to-left mark", "name: Disruptor", "name: \"a\u200fb\"", `bidi control U+200F`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(edit(t, base, "klingon.yaml", tt.old, tt.new), "")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if strings.ContainsAny(err.Error(), "\x1b\x07\r\u009b\u202e\u2067\u200f") {
				t.Errorf("the message holds the control character raw: %q", err.Error())
			}
		})
	}
	// Newlines and tabs in texts stay allowed, and so does right-to-left
	// script without controls.
	if _, err := Load(edit(t, base, "klingon.yaml", "name: Disruptor", `name: "עברית Disruptor"`), ""); err != nil {
		t.Fatalf("a name in Hebrew: %v", err)
	}
	if _, err := Load(edit(t, base, "klingon.yaml", "name: Disruptor", `name: "Disr\tuptor\nMk II"`), ""); err != nil {
		t.Fatalf("a text with a newline and a tab: %v", err)
	}
}

func TestLoadPositionsOfBadBytes(t *testing.T) {
	base := minimalFS(t)
	for _, c := range []struct{ in, want string }{
		{"Disr\x00uptor", "klingon.yaml:11:15: not a YAML text file: a NUL byte at byte offset 203"},
		{"Disr\xc3uptor", "klingon.yaml:11:15: not a YAML text file: invalid UTF-8 (byte 0xc3 at byte offset 203)"},
	} {
		_, err := Load(edit(t, base, "klingon.yaml", "Disruptor", c.in), "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

func TestLoadDeckFolder(t *testing.T) {
	fsys := fstest.MapFS{}
	for k, v := range minimalFS(t) {
		if k != "klingon.yaml" {
			fsys[k] = v
		}
	}
	fsys["klingon.yaml/x"] = &fstest.MapFile{Data: []byte("x")}
	_, err := Load(fsys, "")
	if err == nil || !strings.Contains(err.Error(), `deck file "klingon.yaml" is a folder, not a file`) {
		t.Fatalf("got %v", err)
	}
}

func TestLoadManyEmptyDocuments(t *testing.T) {
	base := minimalFS(t)
	data := string(base["targets.yaml"].Data) + strings.Repeat("---\n", 1100) + "targets: []\n"
	_, err := Load(with(base, "targets.yaml", data), "")
	if err == nil || !strings.Contains(err.Error(), "more than 1000 YAML documents") {
		t.Fatalf("a document after 1,100 empty ones: %v", err)
	}
}
