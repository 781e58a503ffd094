package cards

import (
	"strings"
	"testing"
)

func TestSetInt(t *testing.T) {
	const doc = `# a deck
cards:
  - id: a   # first
    name: "A"
    power: 5 # keep this comment
    copies: '2'
  - id: b
    name: Śa
    power: 3
    params: {amount: 2, card_type: ship}
  - {id: c, name: Ça, power: 7}
  - id: d
    name: D
`
	tests := []struct {
		name      string
		line      int
		key       string
		from, to  int
		want      string // the line edited or inserted, as written
		wantLines int    // lines of the result
		err       string
	}{
		{"power", 5, "power", 5, 6, "    power: 6 # keep this comment", 13, ""},
		{"quoted", 6, "copies", 2, 3, "    copies: '3'", 13, ""},
		{"flow param", 10, "params.amount", 2, 10, "    params: {amount: 10, card_type: ship}", 13, ""},
		{"flow card after a non-ASCII name", 11, "power", 7, 6, "  - {id: c, name: Ça, power: 6}", 13, ""},
		{"negative", 9, "power", 3, -1, "    power: -1", 13, ""},
		{"default inserted", 12, "copies", 1, 2, "    copies: 2", 14, ""},
		{"wrong from", 5, "power", 4, 6, "", 0, "power is \"5\", not 4"},
		{"no such key", 4, "power", 5, 4, "", 0, "no power: to edit"},
		{"mapping begins on the line", 7, "power", 3, 4, "    power: 4", 13, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := SetInt([]byte(doc), "d.yaml", tt.line, tt.key, tt.from, tt.to)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("no error; got\n%s", out)
				}
				if !strings.HasPrefix(err.Error(), "cards: d.yaml:") || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %q", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Split(string(out), "\n")
			if len(got)-1 != tt.wantLines {
				t.Fatalf("%d lines, want %d:\n%s", len(got)-1, tt.wantLines, out)
			}
			// Every other line unchanged.
			old := strings.Split(doc, "\n")
			diff := 0
			for i, j := 0, 0; i < len(got) && j < len(old); i, j = i+1, j+1 {
				if got[i] != old[j] {
					diff++
					if got[i] != tt.want {
						t.Fatalf("line %d: %q, want %q", i+1, got[i], tt.want)
					}
					if len(got) > len(old) {
						j-- // the inserted line
					}
				}
			}
			if diff != 1 {
				t.Fatalf("%d lines changed, want 1:\n%s", diff, out)
			}
		})
	}
}

func FuzzSetInt(f *testing.F) {
	f.Add([]byte("a: 1\nb: {c: 2}\n"), 1, "a", 1, 2)
	f.Add([]byte("- id: x\n  power: 3\n"), 1, "power", 3, 4)
	f.Fuzz(func(t *testing.T, data []byte, line int, key string, from, to int) {
		out, err := SetInt(data, "f.yaml", line, key, from, to)
		if err != nil {
			return
		}
		// An edit that succeeds reads back as to (SetInt checks it) and
		// leaves the file parseable.
		if _, err := SetInt(out, "f.yaml", line, key, to, to); err != nil && !strings.Contains(err.Error(), "no "+key) {
			t.Fatalf("the edited file does not edit again: %v", err)
		}
	})
}
