package bots_test

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/cardlab/cardlab/bots"
)

// A seat list keeps the commas inside one spec's parameters.
func TestSplitList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"greedy, ismcts:iters=500,rollout=greedy,random", []string{"greedy", "ismcts:iters=500,rollout=greedy", "random"}},
		{"random", []string{"random"}},
		{"ismcts:iters=5,time=1ms, strong:k=3", []string{"ismcts:iters=5,time=1ms", "strong:k=3"}},
	} {
		if got := bots.SplitList(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("SplitList(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The spec syntax every game's bots share: a lower-cased name, then
// key=value parameters, each once.
func TestSplitSpec(t *testing.T) {
	for _, tc := range []struct {
		in     string
		name   string
		params map[string]string
		err    string
	}{
		{" ISMCTS:Iters=20,rollout=greedy ", "ismcts", map[string]string{"iters": "20", "rollout": "greedy"}, ""},
		{"random", "random", map[string]string{}, ""},
		{"ismcts:iters", "", nil, `bots: bad parameter "iters" in "ismcts:iters" (want key=value)`},
		{"ismcts:iters=1,iters=2", "", nil, `bots: parameter "iters" given twice in "ismcts:iters=1,iters=2"`},
		{"ismcts:=3", "", nil, `bots: bad parameter "=3" in "ismcts:=3" (want key=value)`},
	} {
		name, params, err := bots.SplitSpec(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("SplitSpec(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || name != tc.name || !maps.Equal(params, tc.params) {
			t.Errorf("SplitSpec(%q) = %q, %v, %v; want %q, %v", tc.in, name, params, err, tc.name, tc.params)
		}
	}
}

// SearchParam takes iters and time, refuses bad values, and leaves every
// other key to the game.
func TestSearchParam(t *testing.T) {
	iters, budget := bots.DefaultIterations, time.Duration(0)
	for _, tc := range []struct {
		k, v     string
		core, ok bool
	}{
		{"iters", "2000", true, true}, {"iterations", "7", true, true}, {"time", "50ms", true, true},
		{"iters", "0", true, false}, {"iters", "10000001", true, false}, {"time", "-1s", true, false},
		{"time", "soon", true, false}, {"rollout", "greedy", false, true},
	} {
		core, err := bots.SearchParam(tc.k, tc.v, &iters, &budget)
		if core != tc.core || (err == nil) != tc.ok {
			t.Errorf("SearchParam(%q, %q) = %v, %v; want core %v, ok %v", tc.k, tc.v, core, err, tc.core, tc.ok)
		}
	}
	if iters != 7 || budget != 50*time.Millisecond {
		t.Errorf("after the table iters = %d, budget = %v; want 7 and 50ms", iters, budget)
	}
}
