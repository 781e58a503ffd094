package cards

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cardlab/cardlab/effects"
)

// EffectsGuide is how a game words its effect handlers for a designer
// (cardlab effects): the registry says what each handler is, the guide how
// a card of the game binds one. A zero field takes the plain default.
type EffectsGuide struct {
	// Intro is printed before the list of every handler (n of them).
	Intro func(n int) string
	// Titles head each timing's group of handlers.
	Titles map[*effects.Timing]string
	// Binding is the YAML that binds s, before its params: block, and the
	// indentation of that block ("effect: NAME\n" and "" by default).
	Binding func(s *effects.Spec) (yaml, indent string)
	// Refs words a reference parameter of each kind the registry declares,
	// with an id of the game's default set for the example.
	Refs map[string]RefExample
}

// RefExample words one reference kind: What ("a player card id") and an ID
// to show.
type RefExample struct{ What, ID string }

// ParamString formats a parameter value as it is written in YAML.
func ParamString(p effects.Param, v effects.Value) string {
	switch x := ParamValue(p, v).(type) {
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return ""
}

// WriteEffects explains specs, handlers of one registry whose timings are
// timings (Registry.Timings, the order of the groups), as cardlab effects
// prints them: grouped by timing, then in the order given, each with its
// parameters and a YAML example. all is set when specs is the whole
// registry: the intro and the group titles are printed then.
func WriteEffects(w io.Writer, specs []*effects.Spec, timings []*effects.Timing, all bool, g EffectsGuide) {
	if all {
		if g.Intro != nil {
			fmt.Fprint(w, g.Intro(len(specs)))
		} else {
			fmt.Fprintf(w, "%d effect handlers. Omitted parameters take their defaults.\n", len(specs))
		}
	}
	for _, t := range timings {
		var group []*effects.Spec
		for _, s := range specs {
			if s.Timing == t {
				group = append(group, s)
			}
		}
		if len(group) == 0 {
			continue
		}
		if all {
			title, ok := g.Titles[t]
			if !ok {
				title = "Handlers of timing " + t.String()
			}
			fmt.Fprintf(w, "\n== %s\n", title)
		}
		for _, s := range group {
			writeEffect(w, s, g)
		}
	}
}

func writeEffect(w io.Writer, s *effects.Spec, g EffectsGuide) {
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
				req = "default " + ParamString(p, p.Default)
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", p.Name, paramType(p), req, p.Doc)
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "  example:")
	for _, line := range strings.Split(strings.TrimRight(exampleYAML(s, g), "\n"), "\n") {
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

// exampleYAML is a snippet showing how a card uses s: required parameters
// with an example value, optional ones with their default, each commented.
func exampleYAML(s *effects.Spec, g EffectsGuide) string {
	var b strings.Builder
	head, indent := "effect: "+s.Name+"\n", ""
	if g.Binding != nil {
		head, indent = g.Binding(s)
	}
	b.WriteString(head)
	if len(s.Params) == 0 {
		return b.String()
	}
	b.WriteString(indent + "params:\n")
	lines := make([]string, len(s.Params))
	comments := make([]string, len(s.Params))
	width := 0
	for i, p := range s.Params {
		v, c := exampleValue(p, g), "default"
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
			what := g.Refs[p.RefKind].What
			if what == "" {
				what = "a " + p.RefKind + " id"
			}
			c += "; " + what
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
func exampleValue(p effects.Param, g EffectsGuide) string {
	if !p.Required {
		return ParamString(p, p.Default)
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
		if id := g.Refs[p.RefKind].ID; id != "" {
			return id
		}
		return "some-" + p.RefKind
	}
	return `""`
}

// EffectsJSON is cardlab effects --json: {"effects": [{"name", "timing",
// "kind", "doc", "params": [{"name", "type", "required", "min", "max",
// "values", "default", "doc"}]}]}.
func EffectsJSON(specs []*effects.Spec) any {
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
				pj.Default = ParamValue(p, p.Default)
			}
			e.Params = append(e.Params, pj)
		}
		out.Effects = append(out.Effects, e)
	}
	return out
}

type effectJSON struct {
	Name   string      `json:"name"`
	Timing string      `json:"timing"`
	Kind   string      `json:"kind"` // "" for a timing no card prints (a target bonus)
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
