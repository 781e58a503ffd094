package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestRulesDocNamesRealTests keeps docs/rules.md honest: every test it cites
// must exist, and every TestRule… must be cited.
func TestRulesDocNamesRealTests(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*_test.go")
	defined := map[string]bool{}
	def := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range def.FindAllSubmatch(b, -1) {
			defined[string(m[1])] = true
		}
	}
	cited := map[string]bool{}
	for _, m := range regexp.MustCompile("`(Test\\w+)`").FindAllSubmatch(doc, -1) {
		name := string(m[1])
		cited[name] = true
		if !defined[name] {
			t.Errorf("docs/rules.md cites %s, which does not exist", name)
		}
	}
	for name := range defined {
		if regexp.MustCompile(`^TestRule`).MatchString(name) && !cited[name] && name != "TestRulesDocNamesRealTests" {
			t.Errorf("%s is not cited in docs/rules.md", name)
		}
	}
}
