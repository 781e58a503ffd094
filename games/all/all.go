// Package all links every game cardlab knows into a program: importing it
// registers each with package game, as a database/sql program imports its
// drivers.
package all

import (
	// Alpha Tactics registers as "alphatactics".
	_ "github.com/cardlab/cardlab/games/alphatactics"
	// Eclipse ship combat registers as "eclipse".
	_ "github.com/cardlab/cardlab/games/eclipse"
	// Goofspiel registers as "goofspiel".
	_ "github.com/cardlab/cardlab/games/goofspiel"
	// Spacetrace registers as "spacetrace".
	_ "github.com/cardlab/cardlab/games/spacetrace"
)
