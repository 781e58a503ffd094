package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFloatFlagsRefuseNonFinite walks every command's flags and checks
// that each float flag is a finiteFloat and refuses NaN and ±Inf (in any
// spelling, and numbers beyond a float64) with exit 2 (issue 24: `report
// --tolerance NaN` called a faction winning 100% balanced, `sweep --target
// NaN` aimed at 0%, `print --dpi NaN` failed while drawing). A float flag
// declared any other way fails here.
func TestFloatFlagsRefuseNonFinite(t *testing.T) {
	var walk func(c *cobra.Command, path []string)
	found := 0
	walk = func(c *cobra.Command, path []string) {
		check := func(f *pflag.Flag) {
			typ := f.Value.Type()
			if !strings.Contains(typ, "float") {
				return
			}
			found++
			name := strings.Join(path, " ") + " --" + f.Name
			if _, ok := f.Value.(*finiteFloat); !ok {
				t.Errorf("%s is a %s flag not declared with floatVar: it takes NaN and ±Inf", name, typ)
				return
			}
			for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "-Infinity", "1e309", "-1e309"} {
				args := append(append([]string{}, path...), "--"+f.Name, v)
				code, _, stderr := cardlab(t, args...)
				if code != exitUsage || !strings.Contains(stderr, "--"+f.Name+" must be a finite number, got \""+v+"\"") {
					t.Errorf("%s %s: exit %d, want %d and a message; stderr:\n%s", name, v, code, exitUsage, firstLine(stderr))
				}
			}
		}
		c.LocalFlags().VisitAll(check)
		for _, sub := range c.Commands() {
			walk(sub, append(path, sub.Name()))
		}
	}
	walk(NewCmdRoot(), nil)
	if found < 8 {
		t.Errorf("found %d float flags; the commands declare at least 8 (--precision, --tolerance, --target, --dpi)", found)
	}
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
