package printing

import (
	"bytes"
	"flag"
	"fmt"
	"html"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

var update = flag.Bool("update", false, "rewrite golden files")

// tmpRoot holds outputs shared by several tests (printing the full set
// takes seconds; once is enough).
var tmpRoot string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "cardlab-printing-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmpRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	defaultOnce sync.Once
	defaultDir  string
	defaultErr  error
)

// printedDefault prints the embedded set once, every format, with backs.
func printedDefault(t *testing.T) string {
	t.Helper()
	defaultOnce.Do(func() {
		defaultDir = filepath.Join(tmpRoot, "default")
		_, defaultErr = Print(Options{Ruleset: at(rules.Default()), Out: defaultDir, Backs: true, DPI: 100})
	})
	if defaultErr != nil {
		t.Fatal(defaultErr)
	}
	return defaultDir
}

// needPoppler skips a test when poppler-utils is missing, unless
// CARDLAB_PDF_TESTS=1 (CI) makes it required.
func needPoppler(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"pdftotext", "pdfinfo", "pdftoppm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CARDLAB_PDF_TESTS") == "1" {
				t.Fatalf("%s not found and CARDLAB_PDF_TESTS=1: install poppler-utils", tool)
			}
			t.Skipf("%s not found: install Debian's poppler-utils to run the PDF tests (CI requires them)", tool)
		}
	}
}

func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr)
	}
	return out
}

// word is a word of a PDF page, in millimetres from the top-left corner.
type word struct {
	Page                  int
	X0, Y0, X1, Y1        float64
	Text                  string
	PageWidth, PageHeight float64
}

var (
	rePage = regexp.MustCompile(`<page width="([\d.]+)" height="([\d.]+)">`)
	reWord = regexp.MustCompile(`<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>`)
)

// pdfWords reads every word with its box (pdftotext -bbox).
func pdfWords(t *testing.T, file string) []word {
	t.Helper()
	out := run(t, "pdftotext", "-bbox", file, "-")
	const pt = 25.4 / 72
	var words []word
	page := 0
	var pw, ph float64
	for _, line := range bytes.Split(out, []byte("\n")) {
		if m := rePage.FindSubmatch(line); m != nil {
			page++
			pw, _ = strconv.ParseFloat(string(m[1]), 64)
			ph, _ = strconv.ParseFloat(string(m[2]), 64)
			continue
		}
		if m := reWord.FindSubmatch(line); m != nil {
			var v [4]float64
			for i := range v {
				v[i], _ = strconv.ParseFloat(string(m[i+1]), 64)
			}
			words = append(words, word{Page: page, X0: v[0] * pt, Y0: v[1] * pt, X1: v[2] * pt, Y1: v[3] * pt,
				Text: html.UnescapeString(string(m[5])), PageWidth: pw * pt, PageHeight: ph * pt})
		}
	}
	return words
}

// hostileRuleset is the default ruleset with names and texts that are
// markup, very long, right-to-left overrides, emoji and accents.
func hostileRuleset(t testing.TB) (*rules.Ruleset, string) {
	t.Helper()
	dir := t.TempDir()
	err := fs.WalkDir(rules.DefaultFS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(rules.DefaultFS(), path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }
	for _, e := range hostileEdits {
		p := filepath.Join(dir, e.file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(e.old)) {
			t.Fatalf("%s does not contain %q", e.file, e.old)
		}
		repl := e.key + q(e.value)
		if strings.HasSuffix(e.old, "\n") {
			repl += "\n"
		}
		if err := os.WriteFile(p, bytes.Replace(data, []byte(e.old), []byte(repl), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := rules.LoadDir(dir)
	if err != nil {
		t.Fatalf("hostile ruleset: %v", err)
	}
	return rs, dir
}

const (
	hostileLong    = "Supercalifragilisticexpialidocious-Battle-Cruiser-Of-The-Klingon-Empire-With-A-Very-Long-Name"
	hostileRTL     = "עברית evil right-to-left" // bidi controls are refused when a ruleset loads
	hostileEmoji   = "Armada 🚀🖖 中文 עברית"
	hostileAccents = "Kämpfer Çédille Ñandú Zoë"
)

var hostileText = strings.Repeat("Qapla'! <i>glory</i> & \"honour\" ", 120)

var hostileEdits = []struct{ file, old, key, value string }{
	{"klingon.yaml", "name: Raptor", "name: ", "<script>alert(1)</script>"},
	{"klingon.yaml", "name: Bird of Prey", "name: ", hostileLong},
	{"klingon.yaml", "name: Armada", "name: ", hostileEmoji},
	{"starfleet.yaml", "name: Galaxy", "name: ", hostileRTL},
	{"starfleet.yaml", "name: Prometheus", "name: ", hostileAccents},
	{"klingon.yaml", `text: "Remove any one card, face down or face up, from any row."`, "text: ", hostileText},
	{"rules.yaml", "    name: Klingon\n", "    name: ", "Klingon </script><b>Empire</b> & a faction name far too long for a footer"},
	{"targets.yaml", "name: Andoria", "name: ", "Andoria <svg onload=alert(3)>"},
}

// at is an Alpha Tactics ruleset as the game.Ruleset printing takes: the
// tests print Alpha Tactics' cards, whose faces the goldens fix.
func at(rs *rules.Ruleset) game.Ruleset { return alphatactics.Ruleset{RS: rs} }

// mustSet is newSet that fails the test on an error.
func mustSet(t testing.TB, fs *game.FaceSet, lay *Layout) *set {
	t.Helper()
	st, err := newSet(fs, lay)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
