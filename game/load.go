package game

// DirLoader is a Game that reads a ruleset from a directory of the
// operating system with its own loader, naming the files in its messages
// as dir joins them. The command line prefers it to Load over os.DirFS, so
// a game whose loader was written before the contracts keeps its messages
// byte for byte (Alpha Tactics: rules.LoadDir, whose messages the
// broken-ruleset goldens pin). Without it the command line calls Load and
// puts dir in front of the file names of its positioned messages.
type DirLoader interface {
	// LoadDir reads the ruleset in dir ("" or "." for the working
	// directory); its error is a cards.ErrorList of positioned messages
	// where the files are at fault.
	LoadDir(dir string) (Ruleset, error)
}

// Summarizer is a Ruleset that says in a few words what it holds, for
// `cardlab validate`'s line on a valid ruleset (Alpha Tactics: "4
// factions, 120 player cards, 9 targets"). Without it validate says the
// game, its seats, its sides and its cards' copies.
type Summarizer interface {
	Summary() string
}
