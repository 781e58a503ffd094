package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

// EffectsOptions are the inputs of `cardlab effects`.
type EffectsOptions struct {
	Out, ErrOut io.Writer
	Names       []string // handlers to show; empty for all
	JSON        bool
}

// NewCmdEffects parses the flags of `cardlab effects`; runF replaces
// effectsRun in tests.
func NewCmdEffects(_ *globalOptions, runF func(*EffectsOptions) error) *cobra.Command {
	opts := &EffectsOptions{}
	cmd := &cobra.Command{
		Use:   "effects [HANDLER...]",
		Short: "List the effect handlers a card's effect can name, with their parameters",
		Long: `List every registered effect handler: when it runs, its card kind letter, what
it does, and its parameters (type, range or allowed values, required or the
default), each with a YAML example to copy into a deck or targets file.

A player card names a handler in 'effect:' and sets its parameters in
'params:'. The card's kind must match the handler's timing: O one-time,
P permanent, X special, S scoring; kind N cards have no effect. Target cards
list target-bonus handlers under 'bonuses:'. Omitted parameters take their
defaults.

Give handler names to show only those. --json prints
{"effects": [{"name", "timing", "kind", "doc", "params": [{"name", "type",
"required", "min", "max", "values", "default", "doc"}]}]}.`,
		Example: `  cardlab effects
  cardlab effects modify_power bomb
  cardlab effects --json | jq -r '.effects[].name'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.Names = args
			if runF != nil {
				return runF(opts)
			}
			return effectsRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the handlers as JSON")
	return cmd
}

func effectsRun(opts *EffectsOptions) error {
	specs := handlers.All()
	if len(opts.Names) > 0 {
		specs = specs[:0:0]
		for _, n := range opts.Names {
			s, ok := handlers.Lookup(n)
			if !ok {
				return didYouMean("effect handler", n, handlers.Names())
			}
			specs = append(specs, s)
		}
	}
	var buf bytes.Buffer
	if opts.JSON {
		if err := writeJSON(&buf, effectsJSON(specs)); err != nil {
			return err
		}
	} else {
		writeEffects(&buf, specs, len(opts.Names) == 0)
	}
	_, err := opts.Out.Write(buf.Bytes())
	return err
}

// --- JSON -----------------------------------------------------------------

type effectJSON struct {
	Name   string      `json:"name"`
	Timing string      `json:"timing"`
	Kind   string      `json:"kind"` // "" for target bonuses
	Doc    string      `json:"doc"`
	Params []paramJSON `json:"params"`
}

type paramJSON struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Required bool     `json:"required"`
	Min      *int     `json:"min,omitempty"`
	Max      *int     `json:"max,omitempty"`
	Values   []string `json:"values,omitempty"`
	Default  any      `json:"default"` // null when required
	Doc      string   `json:"doc"`
}

func effectsJSON(specs []*effects.Spec) any {
	out := struct {
		Effects []effectJSON `json:"effects"`
	}{Effects: []effectJSON{}}
	for _, s := range specs {
		e := effectJSON{Name: s.Name, Timing: s.Timing.String(), Kind: s.Timing.Kind(), Doc: s.Doc, Params: []paramJSON{}}
		for _, p := range s.Params {
			pj := paramJSON{Name: p.Name, Type: p.TypeName(), Required: p.Required, Values: p.Values, Doc: p.Doc}
			if p.Type == effects.Int {
				pj.Min, pj.Max = &p.Min, &p.Max
			}
			if !p.Required {
				pj.Default = cards.ParamValue(p, p.Default)
			}
			e.Params = append(e.Params, pj)
		}
		out.Effects = append(out.Effects, e)
	}
	return out
}

// --- text -----------------------------------------------------------------

// timingGroups orders the handlers for reading: by timing, then by name.
var timingGroups = []struct {
	timing *effects.Timing
	title  string
}{
	{handlers.OneTime, "One-time handlers (kind O): run once, right after the card is revealed"},
	{handlers.Permanent, "Permanent handlers (kind P): act throughout the round while the card is active"},
	{handlers.Special, "Special handlers (kind X): change how the card is played"},
	{handlers.Scoring, "Scoring handlers (kind S): apply in the Scoring Phase"},
	{handlers.TargetBonus, "Target-bonus handlers (targets.yaml, under bonuses:): victory points at the end of the game"},
}

func writeEffects(w io.Writer, specs []*effects.Spec, intro bool) {
	if intro {
		fmt.Fprintf(w, `%d effect handlers. A player card names one in "effect:" and sets its parameters in
"params:"; its kind must match the handler (O one-time, P permanent, X special, S scoring;
kind N has no effect). A target card lists target-bonus handlers under "bonuses:".
Omitted parameters take their defaults.
`, len(specs))
	}
	for _, g := range timingGroups {
		var group []*effects.Spec
		for _, s := range specs {
			if s.Timing == g.timing {
				group = append(group, s)
			}
		}
		if len(group) == 0 {
			continue
		}
		if intro {
			fmt.Fprintf(w, "\n== %s\n", g.title)
		}
		for _, s := range group {
			writeEffect(w, s)
		}
	}
}

func writeEffect(w io.Writer, s *effects.Spec) {
	kind := ""
	if k := s.Timing.Kind(); k != "" {
		kind = ", kind " + k
	}
	fmt.Fprintf(w, "\n%s (%s%s)\n", s.Name, s.Timing, kind)
	fmt.Fprintf(w, "  %s\n", s.Doc)
	if len(s.Params) == 0 {
		fmt.Fprintln(w, "  parameters: none")
	} else {
		fmt.Fprintln(w, "  parameters:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, p := range s.Params {
			req := "required"
			if !p.Required {
				req = "default " + paramString(p, p.Default)
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", p.Name, paramType(p), req, p.Doc)
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "  example:")
	for _, line := range strings.Split(strings.TrimRight(exampleYAML(s), "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
}

// paramType describes a parameter's type and allowed values.
func paramType(p effects.Param) string {
	switch p.Type {
	case effects.Int:
		return fmt.Sprintf("int %d..%d", p.Min, p.Max)
	case effects.Enum:
		return strings.Join(p.Values, "|")
	case effects.Tag:
		return "tag"
	case effects.Ref:
		return p.RefKind + " id"
	}
	return p.TypeName()
}

// exampleYAML is a snippet showing how a card (or a target bonus) uses s:
// required parameters with an example value, optional ones with their
// default, each commented.
func exampleYAML(s *effects.Spec) string {
	var b strings.Builder
	indent := ""
	if s.Timing == handlers.TargetBonus {
		b.WriteString("bonuses:\n  - effect: " + s.Name + "\n")
		indent = "    "
	} else {
		b.WriteString("kind: " + s.Timing.Kind() + "\neffect: " + s.Name + "\n")
	}
	if len(s.Params) == 0 {
		return b.String()
	}
	b.WriteString(indent + "params:\n")
	lines := make([]string, len(s.Params))
	comments := make([]string, len(s.Params))
	width := 0
	for i, p := range s.Params {
		v, c := exampleValue(p), "default"
		if p.Required {
			c = "required"
		}
		switch p.Type {
		case effects.Int:
			c += fmt.Sprintf("; %d..%d", p.Min, p.Max)
		case effects.Enum:
			c += "; one of " + strings.Join(p.Values, ", ")
		case effects.Tag:
			c += "; a tag carried by some card"
		case effects.Ref:
			c += "; " + refExample[p.RefKind].what
		}
		lines[i] = indent + "  " + p.Name + ": " + v
		comments[i] = c
		width = max(width, len(lines[i]))
	}
	for i := range lines {
		fmt.Fprintf(&b, "%-*s  # %s\n", width, lines[i], comments[i])
	}
	return b.String()
}

// exampleValue is a plausible YAML value for p: its default when it has
// one, else a value in range or a sample identifier.
func exampleValue(p effects.Param) string {
	if !p.Required {
		return paramString(p, p.Default)
	}
	switch p.Type {
	case effects.Int:
		v := 1
		if v < p.Min || v > p.Max {
			v = p.Min
		}
		return strconv.Itoa(v)
	case effects.Bool:
		return "true"
	case effects.Enum:
		return p.Values[0]
	case effects.Tag:
		return "diplomat"
	case effects.Ref:
		return refExample[p.RefKind].id
	}
	return `""`
}

// refExample words a reference parameter of each kind Alpha Tactics'
// registry declares, with an id of the default set to show.
var refExample = map[string]struct{ what, id string }{
	handlers.RefCard:   {"a player card id", "sf-galaxy"},
	handlers.RefTarget: {"a target card id", "earth"},
}
