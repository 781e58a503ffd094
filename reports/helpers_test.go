package reports

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/cards"
)

// Hostile names and texts a ruleset may hold; a report must show them as
// text.
const (
	hostileScript  = `<script>alert(1)</script>`
	hostileImg     = `<img src=x onerror=alert(2)>`
	hostileFormula = `=HYPERLINK("http://x","y")`
	hostileUnicode = "Ωμέγα 🚀 中文 עברית \u202e ñ"
	hostileFaction = `Klingon </script><b id="inj">Empire</b> & "Co"`
	hostileTarget  = `Andoria <svg onload=alert(3)>`
)

// hostileText is a very long rules text with markup in it.
var hostileText = strings.Repeat("Qapla'! <i>glory</i> & \"honour\" ", 300) + "</textarea></style></script>" + hostileUnicode

var testNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// testData plays a small run (random bots) of rs and returns it as a
// report's data with the catalog and the histograms.
func testData(t testing.TB, rs *cards.Ruleset, games int) *Data {
	t.Helper()
	var lineups [][]string
	ids := rs.FactionIDs()
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			lineups = append(lineups, []string{ids[i], ids[j]})
		}
	}
	res, err := analysis.Run(context.Background(), analysis.Config{Ruleset: rs, Matchups: lineups,
		Bots: []string{"random"}, Games: games, Seed: 7, Workers: 2, KeepGames: true})
	if err != nil {
		t.Fatal(err)
	}
	return &Data{Report: res.Report("test"), Meta: &Meta{
		Command:    "cardlab report --bots random --games 40 --seed 7 --out report",
		Generated:  "2026-01-02T03:04:05Z",
		Catalog:    CatalogOf(rs),
		Histograms: HistogramsOf(res.Records),
	}}
}

// hostileRuleset is the default ruleset with names and texts that are
// markup, formulas, very long or in many scripts.
func hostileRuleset(t testing.TB) *cards.Ruleset {
	t.Helper()
	dir := t.TempDir()
	err := fs.WalkDir(cards.DefaultFS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(cards.DefaultFS(), path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	edit := func(file, old, new string) {
		t.Helper()
		p := filepath.Join(dir, file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s does not contain %q", file, old)
		}
		if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := func(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }
	edit("klingon.yaml", `name: "Negh'Var"`, "name: "+q(hostileScript))
	edit("klingon.yaml", `name: Raptor`, "name: "+q(hostileFormula))
	edit("klingon.yaml", `name: Bird of Prey`, "name: "+q(hostileImg))
	edit("starfleet.yaml", `name: Galaxy`, "name: "+q(hostileUnicode))
	edit("klingon.yaml", `text: "Remove any one card, face down or face up, from any row."`, "text: "+q(hostileText))
	edit("rules.yaml", "    name: Klingon\n", "    name: "+q(hostileFaction)+"\n")
	edit("targets.yaml", "name: Andoria", "name: "+q(hostileTarget))
	rs, err := cards.LoadDir(dir)
	if err != nil {
		t.Fatalf("hostile ruleset: %v", err)
	}
	return rs
}
