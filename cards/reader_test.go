package cards

import (
	"strings"
	"testing"
	"testing/fstest"
)

// A format that is not Alpha Tactics' reads through the neutral Reader with
// the same messages: a game's loader needs only the Reader, its own keys
// and its own checks.
func TestReaderReadsAnotherFormat(t *testing.T) {
	fsys := fstest.MapFS{
		"rules.yaml":  {Data: []byte("game: goofspiel\nhand: [1, 2, 3]\nprize_deck: 13\nscorng: sum\n")},
		"extra.yaml":  {Data: []byte("a: 1\n\tb: 2\n")},
		"layout.yaml": {Data: []byte("not: [read\n")},
		"notes.txt":   {Data: []byte("ignored")},
	}
	r := NewReader(fsys, "mygame/")
	if !r.ReadDir() {
		t.Fatalf("ReadDir: %v", r.Errs)
	}
	if got := strings.Join(r.Files, " "); got != "extra.yaml rules.yaml" {
		t.Fatalf("files %q (layout.yaml and non-YAML files are not the game's)", got)
	}
	for _, name := range r.Files {
		if root := r.Parse(name, r.Data[name]); root != nil {
			r.Roots[name] = root
		}
	}
	m := r.Object("rules.yaml", r.Roots["rules.yaml"], "rules.yaml", []string{"game", "hand", "prize_deck", "scoring"})
	m.Require("game", "hand", "scoring")
	if game, ok := m.Str("game", false); !ok || game != "goofspiel" {
		t.Errorf("game %q %v", game, ok)
	}
	if n, ok := m.Int("prize_deck", 1, 10); ok {
		t.Errorf("prize_deck 13 accepted as %d", n)
	}
	if !m.Suggested("scoring") || m.Key("hand") == nil || m.What() != "rules.yaml" {
		t.Errorf("map accessors: suggested %v, key %v, what %q", m.Suggested("scoring"), m.Key("hand"), m.What())
	}
	r.Errs.Sort()
	want := []string{
		"mygame/extra.yaml:2:1: tab character in indentation; YAML indents with spaces only",
		"mygame/rules.yaml:3:13: prize_deck: 13 is out of range (1..10)",
		`mygame/rules.yaml:4:1: unknown key "scorng" in rules.yaml, did you mean "scoring"?`,
	}
	if got := strings.Split(r.Errs.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", r.Errs.Error(), strings.Join(want, "\n"))
	}
	if h := HashFiles(map[string][]byte{"a": []byte("x")}); h != HashFiles(map[string][]byte{"a": []byte("x")}) || h == HashFiles(map[string][]byte{"a\x00": []byte("x")}) || len(h) != 64 {
		t.Errorf("HashFiles %s", h)
	}
}
