package bots

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultIterations is the search's budget per decision when a spec gives
// none (ismcts, every game's).
const DefaultIterations = 500

// SearchParam reads k=v into iters or budget when k is one of the search
// parameters every game's ismcts takes (iters, time); core is false for
// any other key.
func SearchParam(k, v string, iters *int, budget *time.Duration) (core bool, err error) {
	switch k {
	case "iters", "iterations":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10_000_000 {
			return true, fmt.Errorf("bots: ismcts iters must be a whole number from 1 to 10000000, got %q", v)
		}
		*iters = n
	case "time":
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return true, fmt.Errorf("bots: ismcts time must be a duration such as 50ms, got %q", v)
		}
		*budget = d
	default:
		return false, nil
	}
	return true, nil
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// SplitSpec splits a spec into its lower-cased name and its key=value
// parameters (name:k=v,k=v), the syntax of every game's bots.
func SplitSpec(spec string) (string, map[string]string, error) {
	spec = strings.ToLower(strings.TrimSpace(spec))
	name, rest, has := strings.Cut(spec, ":")
	params := map[string]string{}
	if has {
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			if !ok || k == "" || v == "" {
				return "", nil, fmt.Errorf("bots: bad parameter %q in %q (want key=value)", kv, spec)
			}
			if _, dup := params[k]; dup {
				return "", nil, fmt.Errorf("bots: parameter %q given twice in %q", k, spec)
			}
			params[k] = v
		}
	}
	return strings.TrimSpace(name), params, nil
}

// SplitList splits a comma list of specs, one per seat, keeping the commas
// inside one spec's parameters: "greedy,ismcts:iters=500,rollout=greedy" is
// two specs, because "rollout=greedy" continues the ismcts parameters.
func SplitList(list string) []string {
	var out []string
	for _, part := range strings.Split(list, ",") {
		p := strings.TrimSpace(part)
		if len(out) > 0 && strings.Contains(p, "=") && !strings.Contains(p, ":") {
			out[len(out)-1] += "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}
