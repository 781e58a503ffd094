package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// cardlab runs the root command in-process.
func cardlab(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// writeDefault writes the embedded ruleset into a fresh directory.
func writeDefault(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "rules")
	if code, _, stderr := cardlab(t, "init", dir); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	return dir
}

// corrupt replaces old with new in the named file of dir.
func corrupt(t *testing.T, dir, file, old, new string) {
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

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // substring expected on stdout
		stderr     string // substring expected on stderr
		wantUsage  bool   // usage printed on stderr
		noStdout   bool
		extraCheck func(t *testing.T, stdout, stderr string)
	}{
		{name: "no args shows help", args: nil, code: 0, stdout: "Available Commands"},
		{name: "help", args: []string{"--help"}, code: 0, stdout: "cardlab init mygame"},
		{name: "version", args: []string{"--version"}, code: 0, stdout: "cardlab " + version},
		{name: "unknown command", args: []string{"validat"}, code: 2, stderr: `unknown command "validat"`, wantUsage: true, noStdout: true},
		{name: "unknown flag", args: []string{"validate", "--jsn"}, code: 2, stderr: "unknown flag: --jsn", wantUsage: true, noStdout: true},
		{name: "unknown root flag", args: []string{"--nope"}, code: 2, stderr: "unknown flag", wantUsage: true},
		{name: "validate extra arg", args: []string{"validate", "x"}, code: 2, stderr: "takes no arguments", wantUsage: true},
		{name: "init without dir", args: []string{"init"}, code: 2, stderr: "needs one argument", wantUsage: true},
		{name: "init with two dirs", args: []string{"init", "a", "b"}, code: 2, stderr: "needs one argument", wantUsage: true},
		{name: "init unknown game", args: []string{"init", "--game", "alphatactic", "a"}, code: 2,
			stderr: `invalid --game: unknown game "alphatactic"; did you mean "alphatactics"?`, wantUsage: true, noStdout: true},
		{name: "games", args: []string{"games"}, code: 0, stdout: "alphatactics"},
		{name: "games extra arg", args: []string{"games", "x"}, code: 2, stderr: "takes no arguments", wantUsage: true, noStdout: true},
		{name: "cards bad format", args: []string{"cards", "--format", "xml"}, code: 2, stderr: `invalid --format "xml"`, wantUsage: true},
		{name: "cards json and format", args: []string{"cards", "--json", "--format", "md"}, code: 2, stderr: "cannot be used together", wantUsage: true},
		{name: "schema without kind or out", args: []string{"schema"}, code: 2, stderr: "--kind", wantUsage: true},
		{name: "schema bad kind", args: []string{"schema", "--kind", "decks"}, code: 2, stderr: `invalid --kind "decks"`, wantUsage: true},
		{name: "unknown faction", args: []string{"cards", "--faction", "klingons"}, code: 1,
			stderr: `unknown faction "klingons"; did you mean "klingon"?`, noStdout: true},
		{name: "unknown effect", args: []string{"effects", "modify_powr"}, code: 1, stderr: `did you mean "modify_power"?`},
		{name: "missing rules dir", args: []string{"validate", "--rules", "/nonexistent/cardlab"}, code: 1, noStdout: true},
		{name: "completion", args: []string{"completion", "bash"}, code: 0, stdout: "bash completion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cardlab(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tt.stdout) {
				t.Errorf("stdout does not contain %q:\n%s", tt.stdout, stdout)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderr, stderr)
			}
			if got := strings.Contains(stderr, "Usage:"); got != tt.wantUsage {
				t.Errorf("usage printed: %v, want %v:\n%s", got, tt.wantUsage, stderr)
			}
			if tt.noStdout && stdout != "" {
				t.Errorf("unexpected stdout:\n%s", stdout)
			}
		})
	}
}

func TestValidateEmbedded(t *testing.T) {
	code, stdout, stderr := cardlab(t, "validate")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rs := rules.Default()
	want := "ok: " + rs.Name + " " + rs.Version + ": 4 factions, 132 player cards, 24 targets (hash " + rs.Hash[:8] + ")\n"
	if stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
}

func TestValidateBroken(t *testing.T) {
	dir := writeDefault(t)
	corrupt(t, dir, "rules.yaml", "hand_size:", "hand_sise:")

	code, stdout, stderr := cardlab(t, "validate", "--rules", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout: %s", stdout)
	}
	if !strings.Contains(stderr, "rules.yaml:") || !strings.Contains(stderr, "hand_sise") {
		t.Errorf("stderr does not point at rules.yaml and hand_sise:\n%s", stderr)
	}
	if strings.Contains(stderr, "Usage:") {
		t.Errorf("usage printed for a user error:\n%s", stderr)
	}

	code, stdout, _ = cardlab(t, "validate", "--rules", dir, "--json")
	if code != 1 {
		t.Errorf("--json: exit %d, want 1", code)
	}
	var res struct {
		Valid  bool
		Errors []jsonError
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if res.Valid || len(res.Errors) == 0 {
		t.Fatalf("--json: %+v", res)
	}
	e := res.Errors[0]
	if !strings.HasSuffix(e.File, "rules.yaml") || e.Line == 0 || e.Message == "" {
		t.Errorf("--json error %+v", e)
	}
}

func TestValidateJSONValid(t *testing.T) {
	code, stdout, _ := cardlab(t, "validate", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got, want := strings.TrimSpace(stdout), "{\n  \"valid\": true,\n  \"errors\": []\n}"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestCardsJSON(t *testing.T) {
	code, stdout, stderr := cardlab(t, "cards", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Cards []struct {
			ID, Name, Faction, Type, Kind, Text string
			Power, Copies                       int
			Effect                              *struct {
				Handler string
				Params  map[string]any
			}
			Tags []string
		}
		Targets []struct {
			ID, Name, Type, Affiliation, Quadrant, Text string
			VP                                          int
			Bonuses                                     []struct {
				Handler string
				Params  map[string]any
			}
		}
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatal(err)
	}
	perFaction := map[string]int{}
	for _, c := range res.Cards {
		perFaction[c.Faction] += c.Copies
		if (c.Kind == "N") != (c.Effect == nil) {
			t.Errorf("card %s: kind %s, effect %+v", c.ID, c.Kind, c.Effect)
		}
		if c.Effect != nil {
			spec, ok := handlers.Lookup(c.Effect.Handler)
			if !ok {
				t.Errorf("card %s: unknown handler %s", c.ID, c.Effect.Handler)
				continue
			}
			if len(c.Effect.Params) != len(spec.Params) {
				t.Errorf("card %s: params %v, want every one of %v", c.ID, c.Effect.Params, spec.ParamNames())
			}
		}
		if c.Tags == nil {
			t.Errorf("card %s: tags null", c.ID)
		}
	}
	if len(perFaction) != 4 {
		t.Errorf("factions %v, want 4", perFaction)
	}
	for f, n := range perFaction {
		if n != 33 {
			t.Errorf("faction %s has %d cards, want 33", f, n)
		}
	}
	if len(res.Targets) != 24 {
		t.Errorf("%d targets, want 24", len(res.Targets))
	}
	// The params object keeps the declaration order.
	if i := strings.Index(stdout, `"amount"`); i >= 0 && strings.Contains(stdout, `"handler": "modify_power"`) {
		if j := strings.Index(stdout[i:], `"who"`); j < 0 {
			t.Errorf("modify_power params out of order")
		}
	}
}

func TestCardsFormats(t *testing.T) {
	rs := rules.Default()
	kl, _ := rs.FactionByID("klingon")
	sf, _ := rs.FactionByID("starfleet")
	klCard := rs.Cards[kl.Deck[0]].ID
	sfCard := rs.Cards[sf.Deck[0]].ID

	code, stdout, _ := cardlab(t, "cards")
	if code != 0 || !strings.Contains(stdout, klCard) || !strings.Contains(stdout, sfCard) || !strings.Contains(stdout, "Targets: 24") {
		t.Errorf("cards: exit %d\n%s", code, stdout)
	}
	for _, f := range []string{"klingon", "Klingon"} {
		code, stdout, _ = cardlab(t, "cards", "--faction", f)
		if code != 0 || !strings.Contains(stdout, klCard) || strings.Contains(stdout, sfCard) || strings.Contains(stdout, "Targets") {
			t.Errorf("cards --faction %s: exit %d\n%s", f, code, stdout)
		}
	}
	code, stdout, _ = cardlab(t, "cards", "--format", "md")
	if code != 0 || !strings.Contains(stdout, "| id | name |") || !strings.Contains(stdout, "`"+klCard+"`") {
		t.Errorf("cards --format md: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = cardlab(t, "cards", "--faction", "vulcan", "--json")
	var res struct {
		Cards   []struct{ Faction string }
		Targets []any
	}
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil {
		t.Fatalf("cards --faction vulcan --json: exit %d, %v", code, err)
	}
	for _, c := range res.Cards {
		if c.Faction != "vulcan" {
			t.Errorf("card of faction %s", c.Faction)
		}
	}
	if len(res.Cards) == 0 || res.Targets == nil || len(res.Targets) != 0 {
		t.Errorf("cards %d, targets %v", len(res.Cards), res.Targets)
	}
}

// embeddedFiles lists the default ruleset's files with their contents.
func embeddedFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := fs.WalkDir(rules.DefaultFS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files[p], err = fs.ReadFile(rules.DefaultFS(), p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no embedded files")
	}
	return files
}

// dirFiles lists the regular files under dir with their contents.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestInit(t *testing.T) {
	want := embeddedFiles(t)
	dir := filepath.Join(t.TempDir(), "new", "game")

	code, stdout, stderr := cardlab(t, "init", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout: %s", stdout)
	}
	for _, next := range []string{"cardlab validate --rules " + dir, "cardlab cards --rules " + dir} {
		if !strings.Contains(stderr, next) {
			t.Errorf("next steps lack %q:\n%s", next, stderr)
		}
	}
	if got := dirFiles(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("written files differ from the embedded ones: %v", slices.Sorted(maps.Keys(got)))
	}

	// The written ruleset is valid.
	if code, stdout, stderr := cardlab(t, "validate", "--rules", dir); code != 0 || !strings.HasPrefix(stdout, "ok: ") {
		t.Errorf("validate --rules %s: exit %d\n%s%s", dir, code, stdout, stderr)
	}

	// A second init refuses and changes nothing, edits included.
	corrupt(t, dir, "rules.yaml", "hand_size: 4", "hand_size: 5")
	before := dirFiles(t, dir)
	code, stdout, stderr = cardlab(t, "init", dir)
	if code != 1 {
		t.Errorf("second init: exit %d, want 1", code)
	}
	if !strings.Contains(stderr, "not overwriting") || !strings.Contains(stderr, "rules.yaml") || strings.Contains(stderr, "Usage:") {
		t.Errorf("second init stderr:\n%s", stderr)
	}
	if stdout != "" {
		t.Errorf("second init stdout: %s", stdout)
	}
	if after := dirFiles(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("second init changed the directory")
	}
}

func TestInitRefusesWhenAnyFileExists(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "targets.yaml"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cardlab(t, "init", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	got := dirFiles(t, dir)
	if len(got) != 1 || string(got["targets.yaml"]) != "mine\n" {
		t.Errorf("init wrote into a directory with a file in the way: %v", slices.Sorted(maps.Keys(got)))
	}
}

func TestSchema(t *testing.T) {
	for _, kind := range rules.SchemaKinds {
		code, stdout, stderr := cardlab(t, "schema", "--kind", kind)
		if code != 0 {
			t.Fatalf("schema --kind %s: exit %d: %s", kind, code, stderr)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(stdout), &v); err != nil {
			t.Fatalf("schema --kind %s: %v", kind, err)
		}
		if v["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("schema --kind %s: $schema %v", kind, v["$schema"])
		}
	}

	dir := filepath.Join(t.TempDir(), ".schemas")
	for range 2 { // the second run replaces the files
		code, stdout, stderr := cardlab(t, "schema", "--out", dir)
		if code != 0 || stdout != "" {
			t.Fatalf("schema --out: exit %d\n%s%s", code, stdout, stderr)
		}
	}
	got := dirFiles(t, dir)
	if len(got) != 3 {
		t.Errorf("files %v, want the 3 schemas and nothing else", slices.Sorted(maps.Keys(got)))
	}
	for _, kind := range rules.SchemaKinds {
		want, err := rules.Schema(kind)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got[kind+".schema.json"], want) {
			t.Errorf("%s.schema.json differs from cards.Schema", kind)
		}
	}
}

func TestEffects(t *testing.T) {
	code, stdout, stderr := cardlab(t, "effects")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, n := range handlers.Names() {
		if !strings.Contains(stdout, "\n"+n+" (") || !strings.Contains(stdout, "effect: "+n+"\n") {
			t.Errorf("effects output lacks handler %s or its example", n)
		}
	}

	code, stdout, _ = cardlab(t, "effects", "--json")
	var res struct {
		Effects []struct {
			Name   string
			Params []struct {
				Name     string
				Required bool
				Default  any
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil {
		t.Fatalf("effects --json: exit %d, %v", code, err)
	}
	var names []string
	for _, e := range res.Effects {
		names = append(names, e.Name)
		for _, p := range e.Params {
			if !p.Required && p.Default == nil {
				t.Errorf("%s.%s: optional without default", e.Name, p.Name)
			}
		}
	}
	if !reflect.DeepEqual(names, handlers.Names()) {
		t.Errorf("effects --json names %v, want %v", names, handlers.Names())
	}

	code, stdout, _ = cardlab(t, "effects", "bomb")
	if code != 0 || !strings.Contains(stdout, "bomb (one-time, kind O)") || strings.Contains(stdout, "armada") {
		t.Errorf("effects bomb: exit %d\n%s", code, stdout)
	}
}

// The flag parsing of each command is tested apart from its behaviour.
func TestFlagParsing(t *testing.T) {
	g := &globalOptions{}
	var got *CardsOptions
	root := &cobra.Command{Use: "cardlab"}
	root.PersistentFlags().StringVar(&g.RulesDir, "rules", "", "")
	root.AddCommand(NewCmdCards(g, func(o *CardsOptions) error { got = o; return nil }))
	root.SetArgs([]string{"cards", "--rules", "x", "--faction", "vulcan", "--format", "md"})
	root.SetOut(&bytes.Buffer{})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.RulesDir != "x" || got.Faction != "vulcan" || got.Format != "md" || got.JSON {
		t.Errorf("options %+v", got)
	}

	var sch *SchemaOptions
	cmd := NewCmdSchema(g, func(o *SchemaOptions) error { sch = o; return nil })
	cmd.SetArgs([]string{"--out", "d"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if sch == nil || sch.OutDir != "d" || sch.Kind != "" {
		t.Errorf("schema options %+v", sch)
	}
}

func TestSuggest(t *testing.T) {
	factions := []string{"starfleet", "vulcan", "romulan", "klingon"}
	for in, want := range map[string][]string{
		"klingons": {"klingon"},
		"Vulcan":   {"vulcan"},
		"rom":      {"romulan"},
		"borg":     nil,
	} {
		if got := suggest(in, factions); !reflect.DeepEqual(got, want) {
			t.Errorf("suggest(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"mygame":   "mygame",
		"/tmp/a-b": "/tmp/a-b",
		"my game":  "'my game'",
		"it's":     `'it'\''s'`,
		"":         "''",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestInitResumesAfterInterruption: an init interrupted after some of its
// files (which hold exactly what init writes) is run again and completes;
// a file with other content still stops it.
func TestInitResumesAfterInterruption(t *testing.T) {
	full := filepath.Join(t.TempDir(), "full")
	if code, _, stderr := cardlab(t, "init", full); code != 0 {
		t.Fatal(stderr)
	}
	want := dirFiles(t, full)
	dir := t.TempDir()
	n := 0
	for name, b := range want {
		if n++; n%2 == 0 {
			p := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, b, 0o644)
		}
	}
	if code, _, stderr := cardlab(t, "init", dir); code != 0 {
		t.Fatalf("init after an interrupted one: exit %d: %s", code, stderr)
	}
	if got := dirFiles(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("files differ: %v", slices.Sorted(maps.Keys(got)))
	}
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left: %s", e.Name())
		}
	}
}
