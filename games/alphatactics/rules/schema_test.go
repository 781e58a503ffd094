package rules

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
)

func schemaOf(t *testing.T, kind string) map[string]any {
	t.Helper()
	data, err := Schema(kind)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s schema is not JSON: %v", kind, err)
	}
	return s
}

func TestSchemaKinds(t *testing.T) {
	for _, kind := range SchemaKinds {
		s := schemaOf(t, kind)
		if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema %v", kind, s["$schema"])
		}
		checkKeywords(t, kind, s)
	}
	if _, err := Schema("decks"); err == nil || !strings.Contains(err.Error(), `"decks"`) {
		t.Errorf("Schema(decks) error %v", err)
	}
}

func TestSchemaDeterministic(t *testing.T) {
	for _, kind := range SchemaKinds {
		a, _ := Schema(kind)
		b, _ := Schema(kind)
		if string(a) != string(b) {
			t.Errorf("%s schema differs between calls", kind)
		}
	}
}

// The effect enums and per-handler clauses come from the registry.
func TestSchemaFollowsRegistry(t *testing.T) {
	var player, bonus []string
	for _, s := range handlers.All() {
		if s.Timing == handlers.TargetBonus {
			bonus = append(bonus, s.Name)
		} else {
			player = append(player, s.Name)
		}
	}
	card := dig(t, schemaOf(t, "deck"), "properties", "cards", "items")
	checkBindings(t, "deck", card, player)
	b := dig(t, schemaOf(t, "targets"), "properties", "targets", "items", "properties", "bonuses", "items")
	checkBindings(t, "targets", b, bonus)
}

func checkBindings(t *testing.T, kind string, s map[string]any, names []string) {
	t.Helper()
	enum := toStrings(dig(t, s, "properties", "effect")["enum"])
	if !reflect.DeepEqual(enum, names) {
		t.Errorf("%s: effect enum %v, want %v", kind, enum, names)
	}
	clauses := map[string]map[string]any{}
	for _, c := range s["allOf"].([]any) {
		c := c.(map[string]any)
		if e, ok := dig(t, c, "if", "properties")["effect"]; ok {
			clauses[e.(map[string]any)["const"].(string)] = dig(t, c, "then", "properties", "params")
		}
	}
	for _, n := range names {
		params, ok := clauses[n]
		if !ok {
			t.Errorf("%s: no params clause for %s", kind, n)
			continue
		}
		spec, _ := handlers.Lookup(n)
		props := params["properties"].(map[string]any)
		if len(props) != len(spec.Params) {
			t.Errorf("%s: %s params %v, want %v", kind, n, props, spec.ParamNames())
		}
		for _, p := range spec.Params {
			if _, ok := props[p.Name]; !ok {
				t.Errorf("%s: %s lacks param %s", kind, n, p.Name)
			}
		}
	}
}

// Every file of the embedded default satisfies its schema: editors must not
// flag what the loader accepts.
func TestSchemaAcceptsDefault(t *testing.T) {
	fsys := DefaultFS()
	rs := Default()
	check := func(kind, file string) {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if errs := validateSchema(schemaOf(t, kind), doc, file); len(errs) > 0 {
			t.Errorf("%s does not satisfy the %s schema:\n%s", file, kind, strings.Join(errs, "\n"))
		}
	}
	check("rules", "rules.yaml")
	check("targets", "targets.yaml")
	for _, f := range rs.Factions {
		check("deck", f.File)
	}
}

// The game key: Alpha Tactics' id, or none at all.
func TestSchemaGameKey(t *testing.T) {
	data, err := fs.ReadFile(DefaultFS(), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for prefix, ok := range map[string]bool{"": true, "game: alphatactics\n": true, "game: goofspiel\n": false, "game: 1\n": false} {
		var doc any
		if err := yaml.Unmarshal(append([]byte(prefix), data...), &doc); err != nil {
			t.Fatal(err)
		}
		if errs := validateSchema(schemaOf(t, "rules"), doc, "rules.yaml"); (len(errs) == 0) != ok {
			t.Errorf("rules.yaml after %q: errors %v, want ok=%v", prefix, errs, ok)
		}
	}
}

// The schema catches the mistakes an editor should flag as they are typed.
func TestSchemaRejects(t *testing.T) {
	card := `{id: c1, name: C, type: ship, kind: P, power: 2, effect: modify_power, params: {amount: 1}}`
	target := `{id: t1, name: T, type: planet, affiliation: neutral, quadrant: alpha, vp: 2}`
	deck := func(c string) string { return "faction: starfleet\ncards: [" + c + "]\n" }
	targets := func(t string) string { return "targets: [" + t + "]\n" }
	tests := []struct {
		kind, doc string
		ok        bool
	}{
		{"deck", deck(card), true},
		{"deck", deck(`{id: c1, name: C, type: ship, kind: N, power: 2}`), true},
		{"deck", deck(strings.Replace(card, "power:", "powr:", 1)), false},                     // unknown key
		{"deck", deck(strings.Replace(card, "kind: P", "kind: O", 1)), false},                  // kind does not match handler
		{"deck", deck(strings.Replace(card, "modify_power", "modify_powr", 1)), false},         // unknown handler
		{"deck", deck(strings.Replace(card, "{amount: 1}", "{amount: 11}", 1)), false},         // out of range
		{"deck", deck(strings.Replace(card, "{amount: 1}", "{amont: 1}", 1)), false},           // unknown param
		{"deck", deck(strings.Replace(card, "{amount: 1}", "{amount: 1, who: me}", 1)), false}, // bad enum
		{"deck", deck(strings.Replace(card, ", params: {amount: 1}", "", 1)), false},           // required param missing
		{"deck", deck(`{id: c1, name: C, type: ship, kind: N, power: 2, effect: bomb}`), false},
		{"deck", deck(`{id: c1, name: C, type: ship, kind: O, power: 2}`), false}, // effect missing
		{"deck", deck(`{id: C1, name: C, type: ship, kind: N, power: 2}`), false}, // id pattern
		{"deck", deck(`{id: c1, name: C, type: ship, kind: N, power: 2, tags: [a, a]}`), false},
		{"targets", targets(target), true},
		{"targets", targets(strings.Replace(target, ", quadrant: alpha", "", 1)), false},
		{"targets", targets(strings.Replace(target, "type: planet", "type: sector", 1)), false},
		{"targets", targets(strings.Replace(target, "vp: 2", "vp: 2, bonuses: [{effect: vp_if_held, params: {vp: 1, target: earth}}]", 1)), true},
		{"targets", targets(strings.Replace(target, "vp: 2", "vp: 2, bonuses: [{effect: vp_if_held, params: {vp: 1}}]", 1)), false},
		{"targets", targets(strings.Replace(target, "vp: 2", "vp: 2, bonuses: [{effect: bomb}]", 1)), false},
		{"rules", "name: x\nversion: 1.2\n", false},
	}
	for _, tt := range tests {
		var doc any
		if err := yaml.Unmarshal([]byte(tt.doc), &doc); err != nil {
			t.Fatalf("%s: %v", tt.doc, err)
		}
		errs := validateSchema(schemaOf(t, tt.kind), doc, "doc")
		if (len(errs) == 0) != tt.ok {
			t.Errorf("%s schema on %q: errors %v, want ok=%v", tt.kind, tt.doc, errs, tt.ok)
		}
	}
}

func dig(t *testing.T, m map[string]any, path ...string) map[string]any {
	t.Helper()
	for _, p := range path {
		next, ok := m[p].(map[string]any)
		if !ok {
			t.Fatalf("no object at %s in %v", p, m)
		}
		m = next
	}
	return m
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// annotations are keywords without effect on validation.
var annotations = []string{"$schema", "$id", "$comment", "title", "description", "default", "enumDescriptions"}

// assertions are the keywords validateSchema implements.
var assertions = []string{"type", "properties", "additionalProperties", "required", "enum", "const", "pattern",
	"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "maxProperties", "items", "allOf", "anyOf", "not",
	"if", "then", "else"}

// checkKeywords fails on keywords the test validator does not know, so that
// it never silently passes a keyword the generator starts using.
func checkKeywords(t *testing.T, where string, s map[string]any) {
	t.Helper()
	for k, v := range s {
		if !slices.Contains(annotations, k) && !slices.Contains(assertions, k) {
			t.Errorf("%s: keyword %s unknown to the test validator", where, k)
		}
		switch k {
		case "properties":
			for name, sub := range v.(map[string]any) {
				checkKeywords(t, where+"."+name, sub.(map[string]any))
			}
		case "items", "if", "then", "else", "not":
			checkKeywords(t, where+"/"+k, v.(map[string]any))
		case "allOf", "anyOf":
			for _, sub := range v.([]any) {
				checkKeywords(t, where+"/"+k, sub.(map[string]any))
			}
		}
	}
}

// validateSchema is a minimal JSON Schema validator for the keywords the
// generator uses, enough to check YAML documents against the schemas.
func validateSchema(s map[string]any, v any, at string) []string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, args...)) }
	if typ, ok := s["type"].(string); ok && !hasType(v, typ) {
		fail("%v is not %s", v, typ)
		return errs
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return jsonEqual(x, v) }) {
		fail("%v not in %v", v, e)
	}
	if c, ok := s["const"]; ok && !jsonEqual(c, v) {
		fail("%v is not %v", v, c)
	}
	if p, ok := s["pattern"].(string); ok {
		if str, ok := v.(string); ok && !regexp.MustCompile(p).MatchString(str) {
			fail("%q does not match %s", str, p)
		}
	}
	if n, ok := toFloat(v); ok {
		if m, ok := s["minimum"].(float64); ok && n < m {
			fail("%v < minimum %v", n, m)
		}
		if m, ok := s["maximum"].(float64); ok && n > m {
			fail("%v > maximum %v", n, m)
		}
	}
	if str, ok := v.(string); ok {
		if m, ok := s["minLength"].(float64); ok && float64(len([]rune(str))) < m {
			fail("too short")
		}
		if m, ok := s["maxLength"].(float64); ok && float64(len([]rune(str))) > m {
			fail("too long")
		}
	}
	if arr, ok := v.([]any); ok {
		if m, ok := s["minItems"].(float64); ok && float64(len(arr)) < m {
			fail("fewer than %v items", m)
		}
		if m, ok := s["maxItems"].(float64); ok && float64(len(arr)) > m {
			fail("more than %v items", m)
		}
		if s["uniqueItems"] == true {
			for i := range arr {
				for j := range i {
					if jsonEqual(arr[i], arr[j]) {
						fail("item %d repeats item %d", i, j)
					}
				}
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, x := range arr {
				errs = append(errs, validateSchema(items, x, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for k, x := range obj {
			if sub, ok := props[k].(map[string]any); ok {
				errs = append(errs, validateSchema(sub, x, at+"."+k)...)
			} else if s["additionalProperties"] == false {
				fail("unknown key %s", k)
			}
		}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, ok := obj[r.(string)]; !ok {
					fail("missing %s", r)
				}
			}
		}
		if m, ok := s["maxProperties"].(float64); ok && float64(len(obj)) > m {
			fail("more than %v properties", m)
		}
	}
	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			errs = append(errs, validateSchema(sub.(map[string]any), v, at)...)
		}
	}
	if anyOf, ok := s["anyOf"].([]any); ok {
		if !slices.ContainsFunc(anyOf, func(sub any) bool { return len(validateSchema(sub.(map[string]any), v, at)) == 0 }) {
			fail("matches none of anyOf")
		}
	}
	if not, ok := s["not"].(map[string]any); ok && len(validateSchema(not, v, at)) == 0 {
		fail("matches not")
	}
	if cond, ok := s["if"].(map[string]any); ok {
		branch := "else"
		if len(validateSchema(cond, v, at)) == 0 {
			branch = "then"
		}
		if sub, ok := s[branch].(map[string]any); ok {
			errs = append(errs, validateSchema(sub, v, at)...)
		}
	}
	return errs
}

func hasType(v any, typ string) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		n, ok := toFloat(v)
		return ok && n == math.Trunc(n)
	}
	panic("unknown type " + typ)
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// jsonEqual compares a value decoded from JSON with one decoded from YAML.
func jsonEqual(a, b any) bool {
	if x, ok := toFloat(a); ok {
		y, ok := toFloat(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}
