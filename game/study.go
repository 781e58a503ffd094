package game

import "sync/atomic"

// Studier is a Ruleset with studies of its own: results computed from the
// rules rather than measured by playing games — exact where the game
// allows (Eclipse's battle odds by dynamic programming over damage
// states), analytic or by the game's own sampling where it does not (design
// game-neutral-core.md §3.13, "Study"). `cardlab study` runs them and
// prints their tables; it knows nothing of the game.
type Studier interface {
	// Studies lists what Study can run, in the order help shows them.
	Studies() []StudyInfo
	// Study runs the study name (one of Studies) with params (key=value
	// pairs from the command line, keys among its StudyInfo.Params). It
	// checks stop between units of work and returns ErrStopped once it is
	// set; stop must not be nil. An error is the request's fault (a bad
	// parameter value, an unknown id), worded for the user.
	Study(name string, params map[string]string, stop *atomic.Bool) (*StudyResult, error)
}

// StudyInfo describes one study.
type StudyInfo struct {
	Name string
	// Doc is one line on what it computes.
	Doc string
	// Params are the parameters it takes, each "key: what it is".
	Params []StudyParam
}

// StudyParam is one parameter of a study.
type StudyParam struct {
	Key, Doc string
}

// StudyResult is a study's answer: tables in the workbook's neutral shape
// (Sheet, each column with its definition), and notes on how the figures
// were obtained — which policy or bot, which were exact and which sampled
// (with what intervals) — so no figure is shown without its provenance.
type StudyResult struct {
	Title  string
	Tables []Sheet
	Notes  []string
}

// CellNumber reads a number cell of a study's table as results.json holds
// it (float64) or as the study made it (int64): what a game's views read
// back from a report.
func CellNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	}
	return 0, false
}
