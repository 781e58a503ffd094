package cards

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// neutralFiles are the game-neutral files of cards and effects: what stays
// when Alpha Tactics' files move under games/alphatactics (design
// game-neutral-core.md, step 3). Every other non-test file of the two
// packages is Alpha Tactics'.
var neutralFiles = map[string][]string{
	"cards":   {"doc.go", "errors.go", "params.go", "reader.go", "schemabuild.go", "suggest.go", "text.go"},
	"effects": {"registry.go"},
}

var splitDirs = map[string]string{"cards": ".", "effects": filepath.Join("..", "effects")}

// neutralTests are the test files of cards that stay with the neutral
// files; the others move with Alpha Tactics'. (effects' registry_test.go
// tests both and is split at the move.)
var neutralTests = []string{"errors_test.go", "reader_test.go", "split_test.go"}

// TestNeutralFilesNameNoGame keeps the split of cards and effects into
// neutral and Alpha Tactics files honest until the move: a neutral file may
// name nothing that an Alpha Tactics file of either package declares, so the
// Alpha Tactics files can move with `git mv` and the neutral ones still
// compile; and an Alpha Tactics file (tests of cards included) uses only
// exported neutral names, so after the move it needs only the package
// qualifier.
func TestNeutralFilesNameNoGame(t *testing.T) {
	fset := token.NewFileSet()
	files := map[string]map[string]*ast.File{} // package → file name → AST
	game := map[string]map[string]string{}     // package → Alpha Tactics name → file declaring it
	neutral := map[string]map[string]bool{}    // package → name a neutral file declares
	for pkg, dir := range splitDirs {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files[pkg], game[pkg], neutral[pkg] = map[string]*ast.File{}, map[string]string{}, map[string]bool{}
		for _, path := range names {
			name := filepath.Base(path)
			if strings.HasSuffix(name, "_test.go") && (pkg != "cards" || slices.Contains(neutralTests, name)) {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, path, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			files[pkg][name] = f
			isTest := strings.HasSuffix(name, "_test.go")
			for _, n := range topLevelNames(f) {
				switch {
				case slices.Contains(neutralFiles[pkg], name):
					neutral[pkg][n] = true
				case !isTest:
					game[pkg][n] = name
				}
			}
		}
		for _, name := range neutralFiles[pkg] {
			if files[pkg][name] == nil {
				t.Errorf("%s: neutral file %s not found; update neutralFiles", pkg, name)
			}
		}
	}
	for pkg, names := range neutralFiles {
		for _, name := range names {
			if f := files[pkg][name]; f != nil {
				for _, v := range gameNames(f, game[pkg], game["effects"]) {
					t.Errorf("%s/%s names %s", pkg, name, v)
				}
			}
		}
	}
	for pkg, byName := range files {
		for name, f := range byName {
			if slices.Contains(neutralFiles[pkg], name) {
				continue
			}
			for _, id := range f.Unresolved {
				if neutral[pkg][id.Name] && !ast.IsExported(id.Name) {
					t.Errorf("%s/%s uses %s of a neutral file; export it, or the file cannot move", pkg, name, id.Name)
				}
			}
		}
	}
}

// The check finds a neutral helper that takes an Alpha Tactics type, and
// one that reaches Alpha Tactics' effect registry.
func TestGameNamesFindsViolations(t *testing.T) {
	src := `package cards
import "github.com/cardlab/cardlab/effects"
func f(rs *Ruleset) int { x := 1; _ = effects.Lookup; _ = effects.Int; return x }`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := gameNames(f, map[string]string{"Ruleset": "model.go", "x": "model.go"}, map[string]string{"Lookup": "declare.go"})
	if want := []string{"Ruleset (declared in model.go)", "effects.Lookup (declared in declare.go)"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// topLevelNames lists what f declares at package level (methods excluded:
// they are reached through a value of their type, whose name is caught).
func topLevelNames(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out = append(out, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}

// gameNames lists the Alpha Tactics names f uses: identifiers the file
// leaves to the package (the parser's unresolved ones; a local of the same
// name resolves and is not counted) declared by an Alpha Tactics file of
// its own package, and effects.X where X is declared by one of effects'.
func gameNames(f *ast.File, own, effects map[string]string) []string {
	var out []string
	for _, id := range f.Unresolved {
		if file, ok := own[id.Name]; ok {
			out = append(out, id.Name+" (declared in "+file+")")
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "effects" && x.Obj == nil {
				if file, ok := effects[sel.Sel.Name]; ok {
					out = append(out, "effects."+sel.Sel.Name+" (declared in "+file+")")
				}
			}
		}
		return true
	})
	return out
}
