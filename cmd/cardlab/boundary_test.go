package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestCommandImportsOnlyGamesAll: cmd/cardlab links the games through the
// blank import of games/all, which registers them, and reaches each one
// through the registry and the contracts of package game (issue 27; design
// game-neutral-core.md §3.14): none of its files but its tests imports a
// games/ package itself. (analysis, reports, printing and bots import none
// at all: cards' TestNeutralImportsNoGame.)
func TestCommandImportsOnlyGamesAll(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the imports with (go list)")
	}
	const module = "github.com/cardlab/cardlab/"
	out, err := exec.Command(goTool, "list", "-f", `{{join .Imports " "}}`, module+"cmd/cardlab").Output()
	if err != nil {
		t.Fatalf("go list cmd/cardlab: %v", err)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, module+"game") || !slices.Contains(imports, module+"games/all") {
		t.Fatalf("cmd/cardlab's imports %v: want game and games/all among them", imports)
	}
	for _, p := range imports {
		if strings.HasPrefix(p, module+"games/") && p != module+"games/all" {
			t.Errorf("cmd/cardlab imports %s; it may import only games/all (its tests may import any game)", p)
		}
	}
}
