package game

// A batch run counts every game twice over: the core counts what every game
// has (sides' games, win units and scores, lineups, seats, turn order,
// decisions, margins, shared wins), and a ruleset may add its own counts
// through a Counter (Alpha Tactics: targets, cards, rounds; Goofspiel:
// prizes and bids). A Counter's counts are named integer tables (Sections)
// that results.json holds beside the core's, merge adds and a report can
// render without knowing the game (design game-neutral-core.md §3.7).

// Counted is implemented by a Ruleset that has counts of its own.
type Counted interface {
	// NewCounter makes an empty Counter for a run whose lineups seat the
	// sides listed (side indices, ascending): per-side columns count those.
	NewCounter(sides []int) Counter
}

// Counter is a ruleset's own mergeable counts of a batch run. One worker
// owns one Counter; the runner merges them in worker order, and since every
// count is an integer sum the result is independent of the split.
type Counter interface {
	// Attach makes s, a state of the counter's ruleset, count into the
	// counter as it plays (Alpha Tactics' engine adds in place, without
	// events). The runner attaches each of its states once.
	Attach(s State)
	// Finish counts the finished game s once; units[seat] are the win
	// units the core gave the seats (a victory's units split among its
	// winners).
	Finish(s State, units [MaxSeats]int64)
	// Add adds o, a Counter of the same ruleset and sides.
	Add(o Counter)
	// Sub takes o's counts back out: an abandoned game's in-game counts are
	// taken back by replaying its moves into a fresh Counter attached to
	// the state, which is subtracted.
	Sub(o Counter)
	// Sections are the counts as tables, in the order results.json writes
	// them; their columns are those of the game's CountRules.
	Sections() []Section
}

// CountRules is implemented by a Game whose rulesets count (Counted): the
// layout of its sections and their consistency. They are the Game's, not a
// Counter's, because merge and report --from hold a results file, not the
// ruleset a Counter is made from.
type CountRules interface {
	// CountLayout is every section a Counter of the game writes, with its
	// columns and no rows.
	CountLayout() []Section
	// CheckCounts reports the first inconsistency of sections read from a
	// file (already of the layout: columns, labels and per-side lengths
	// checked, every count in range) against the core's sides; unit is
	// the win units of one victory.
	CheckCounts(secs []Section, sides []SideTotal, unit int64) error
}

// SideTotal is the core's count of one side of a run, for CheckCounts.
type SideTotal struct {
	ID              string
	Games, WinUnits int64
}

// GameSection is the Key of a section of one row whose columns are per
// game: results.json writes them into the core's "game" object.
const GameSection = "game"

// Section is a named table of integer counts over one kind of entity.
type Section struct {
	// Key is the section's key in results.json's raw counts (GameSection:
	// inside the core's per-game object).
	Key string
	// Entity is what a row counts: "target", "card", "prize", "game".
	Entity string
	// Doc says what the table is, in one line.
	Doc string
	// Labels are the keys of the text columns that name a row ("id",
	// "name"); results.json writes them before the counts.
	Labels []string
	// Columns are the counts, in the order results.json writes them.
	Columns []Count
	// Rows are the entities; nil writes null (none in the run).
	Rows []Row
}

// Count describes one integer column of a Section.
type Count struct {
	Key string
	// Label is the column's name as a designer reads it ("MP paid"): the
	// Counts tables' head and, per game, the gallery's row of an entity
	// that is a card. "" reads the key with spaces for underscores.
	Label string
	Doc   string // one line: what is counted, over what
	// PerSide: one count per side of the run, in the run's side order.
	PerSide bool
	// Const: a property of the entity (a card's copies), the same in every
	// shard, never added.
	Const bool
	// Signed: may be negative (a sum of margins).
	Signed bool
	// Squares: a sum of squares, which outgrows a count's bound.
	Squares bool
}

// Row is one entity of a Section.
type Row struct {
	Labels []string
	// Values holds the columns that are not PerSide, in column order;
	// Sides the PerSide ones, in column order.
	Values []int64
	Sides  [][]int64
}

// Starter is implemented by a State whose seats take turns from a starting
// seat that is not always seat 0 (Alpha Tactics: the rules' starting
// faction, else a seat drawn at random): the counts' turn-order columns
// count from it, and count the games with a drawn starter apart, where the
// start is independent of the sides. A game without it begins with seat 0.
type Starter interface {
	// Starter is the seat that began the game, set up by Reset, and
	// whether it was drawn at random.
	Starter() (seat int, drawn bool)
}

// Recorder is implemented by a State whose game records (simulate
// --games-out) carry more than each seat's score.
type Recorder interface {
	// SeatRecord appends seat's named integers, its score (State.Score)
	// among them as "total", to buf; the game is over.
	SeatRecord(seat int, buf []Named) []Named
	// GameRecord appends the game's own named integers (Alpha Tactics:
	// "rounds") to buf.
	GameRecord(buf []Named) []Named
}

// Named is one named integer of a game record.
type Named struct {
	Key   string
	Value int
}

// Column is the index of the column key among s's Values (perSide false)
// or Sides (perSide true); ok false when s has no such column.
func (s *Section) Column(key string) (i int, perSide, ok bool) {
	var v, p int
	for _, c := range s.Columns {
		if c.Key == key {
			if c.PerSide {
				return p, true, true
			}
			return v, false, true
		}
		if c.PerSide {
			p++
		} else {
			v++
		}
	}
	return 0, false, false
}
