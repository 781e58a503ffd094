package rules

import (
	"embed"
	"io/fs"
	"sync"
)

// defaultFiles is the reconstructed Alpha Tactics v1.2.4 set. It is embedded
// so that every command works out of the box and `cardlab init` can write an
// editable copy without a separate download.
//
//go:embed default/*.yaml
var defaultFiles embed.FS

// DefaultFS returns the embedded default ruleset files, rooted at the ruleset
// directory, for callers that copy or re-load them (cardlab init, tests).
func DefaultFS() fs.FS {
	sub, err := fs.Sub(defaultFiles, "default")
	if err != nil {
		panic("cards: embedded default ruleset: " + err.Error()) // cannot happen: "default" is a valid path
	}
	return sub
}

// defaultRuleset loads the embedded set once: it is immutable and shared, so
// there is no reason to parse it on every call.
var defaultRuleset = sync.OnceValue(func() *Ruleset {
	rs, err := Load(DefaultFS(), "cards/default")
	if err != nil {
		// The embedded files are part of the program; TestDefault keeps them
		// valid, so reaching this is a build defect, not a user error.
		panic("cards: embedded default ruleset is invalid:\n" + err.Error())
	}
	return rs
})

// Default returns the embedded default ruleset, loaded on first use and
// cached. It panics only if the embedded files are invalid, which a test
// guards against.
func Default() *Ruleset { return defaultRuleset() }
