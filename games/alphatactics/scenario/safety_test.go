package scenario

import (
	"strings"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// TestLoadRefusesHiddenInput: what a plain YAML decoder would accept
// silently — a second document, control characters decoded from escapes —
// and bytes it reports without a position (issue 14 items 10 and 12).
func TestLoadRefusesHiddenInput(t *testing.T) {
	rs := rules.Default()
	const head = "players: [starfleet, klingon]\nrows:\n  - target: earth\n"
	tests := []struct{ name, src, want string }{
		{"second document", head + "---\nplayers: [romulan, vulcan]\n", "s.yaml:4:1: a second YAML document starts here"},
		{"escape in a string", "players: [starfleet, klingon]\nrows:\n  - target: \"\\e[2Jearth\"\n", `s.yaml:3:13: control character U+001B is not allowed in a value`},
		{"NUL byte", head + "seed: 1\x00\n", "s.yaml:4:8: not a YAML text file: a NUL byte at byte offset 61"},
		{"invalid UTF-8", head + "seed: \xff\n", "s.yaml:4:7: not a YAML text file: invalid UTF-8 (byte 0xff at byte offset 60)"},
		{"raw control character", head + "seed: \x1b\n", "s.yaml:4:7: control character U+001B is not allowed in YAML"},
		{"too large", head + strings.Repeat("#\n", MaxFileSize/2), "s.yaml: file is too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load([]byte(tt.src), "s.yaml", rs)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := Load([]byte(head+"---\n---\n"), "s.yaml", rs); err != nil {
		t.Fatalf("empty documents after the scenario: %v", err)
	}
}
