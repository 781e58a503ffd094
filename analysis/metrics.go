package analysis

import (
	"cmp"
	"strconv"

	"github.com/cardlab/cardlab/game"
)

// WinUnit is how many units one victory is worth in the raw counts. A
// victory shared by k players gives each WinUnit/k units; 12 makes 1/2, 1/3
// and 1/4 whole numbers, so win counts stay integers and merge exactly.
const WinUnit = 12

// Counts are the raw integer accumulators of a run. Every figure of a Report
// is computed from them, and two Counts of the same ruleset and config add up
// (Add) to the Counts of the combined games, whatever the split. The core
// counts what every game has; Sections are the game's own (game.Counter),
// which MarshalJSON writes after Seats and inside Game (sections.go).
type Counts struct {
	WinUnit  int64           `json:"win_unit"`
	Games    int64           `json:"games"`
	Factions []FactionCounts `json:"factions"` // the sides of the run, in ruleset order
	Lineups  []LineupCounts  `json:"lineups"`  // in config order
	Seats    []SeatCounts    `json:"seats"`    // one per table size, ascending
	// Sections are the game's counts (Alpha Tactics: "targets", "cards" and
	// its columns of "game"), in the order its Counter gives them.
	Sections []game.Section `json:"-"`
	Game     GameCounts     `json:"game"`
	// Quality is the game-quality sample (quality.go), written after Game
	// as "quality"; nil in counts made before it was counted.
	Quality *QualityCounts `json:"-"`
	// game is the counts' game (registry ID; "" is the default game):
	// the layout their sections are read with.
	game string
}

// FactionCounts count one faction's games.
type FactionCounts struct {
	ID       string `json:"id"`
	Games    int64  `json:"games"`
	WinUnits int64  `json:"win_units"`
	VPSum    int64  `json:"vp_sum"` // final victory points, summed over games
	VPSq     int64  `json:"vp_sq"`  // their squares, summed
}

// LineupCounts count the games of one lineup (its seat rotations together).
type LineupCounts struct {
	Lineup   []string `json:"lineup"`
	Games    int64    `json:"games"`
	WinUnits []int64  `json:"win_units"` // by position in Lineup
}

// SeatCounts count the games at tables of one size.
type SeatCounts struct {
	Players  int     `json:"players"`
	Games    int64   `json:"games"`
	SeatWins []int64 `json:"seat_win_units"` // by seat index
	// StartWins is by turn order counted from the seat that began round 1.
	StartWins []int64 `json:"start_win_units"`
	// RandomGames and RandomStartWins count the same as Games and StartWins
	// over the games whose round-1 starter was drawn at random (no faction
	// at the table is the rules' starting faction): only there is the start
	// apart from the factions.
	RandomGames     int64   `json:"random_start_games,omitempty"`
	RandomStartWins []int64 `json:"random_start_win_units,omitempty"`
}

// TargetCounts count what happened to one target card: a row of Alpha
// Tactics' "targets" section (Counts.Targets).
type TargetCounts struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Laid       int64  `json:"laid"`       // times laid out at the head of a row
	Won        int64  `json:"won"`        // taken at scoring
	Negotiated int64  `json:"negotiated"` // taken by Negotiations
	Unclaimed  int64  `json:"unclaimed"`  // the row had no cards at scoring
	Ties       int64  `json:"ties"`       // taken at scoring on a tie (tie_top_card, combo_tie_top_card)
	MarginSum  int64  `json:"margin_sum"` // winner's power − runner-up's, over Won
	MarginSq   int64  `json:"margin_sq"`
	// Captures is by faction, in Counts.Factions order (won + negotiated).
	Captures []int64 `json:"captures"`
}

// CardCounts count one player card definition (all its copies): a row of
// Alpha Tactics' "cards" section (Counts.Cards).
type CardCounts struct {
	ID      string `json:"id"`
	Faction string `json:"faction"`
	Name    string `json:"name"`
	Copies  int64  `json:"copies"`
	// Games the card's faction took part in.
	Games int64 `json:"games"`
	// Drawn and Played count games in which at least one copy was drawn /
	// played; the win units are the owner's in those games.
	Drawn            int64 `json:"drawn"`
	Played           int64 `json:"played"`
	DrawnWinUnits    int64 `json:"drawn_win_units"`
	NotDrawnWinUnits int64 `json:"not_drawn_win_units"`
	PlayedWinUnits   int64 `json:"played_win_units"`
	// Opening counts games with a copy in the opening hand (dealt before
	// round 1); the win units are the owner's with and without one.
	Opening            int64 `json:"opening"`
	OpeningWinUnits    int64 `json:"opening_win_units"`
	NotOpeningWinUnits int64 `json:"not_opening_win_units"`
	// Placed counts copies placed in a row (shields included: they lie on a
	// card of the row); PlacedRowWon those whose row went to their owner.
	Placed       int64 `json:"placed"`
	PlacedRowWon int64 `json:"placed_row_won"`
	// Scored counts copies lying in a row when it was scored; PowerSum their
	// counted combat power.
	Scored   int64 `json:"scored"`
	PowerSum int64 `json:"power_sum"`
	Fired    int64 `json:"fired"`
	Blocked  int64 `json:"blocked"`
	Fizzled  int64 `json:"fizzled"`
}

// GameCounts count whole games (the core's part of raw.game; a game's own
// per-game columns are its game.GameSection).
type GameCounts struct {
	Decisions   int64 `json:"decisions"`
	DecisionsSq int64 `json:"decisions_sq"`
	Margin      int64 `json:"margin"` // winner's total − best other total
	MarginSq    int64 `json:"margin_sq"`
	Shared      int64 `json:"shared"` // games with a shared victory
}

// --- adding -------------------------------------------------------------------

func (a *FactionCounts) add(b *FactionCounts) {
	a.Games += b.Games
	a.WinUnits += b.WinUnits
	a.VPSum += b.VPSum
	a.VPSq += b.VPSq
}

func (a *LineupCounts) add(b *LineupCounts) {
	a.Games += b.Games
	addInts(a.WinUnits, b.WinUnits)
}

func (a *SeatCounts) add(b *SeatCounts) {
	a.Games += b.Games
	addInts(a.SeatWins, b.SeatWins)
	addInts(a.StartWins, b.StartWins)
	a.RandomGames += b.RandomGames
	if len(a.RandomStartWins) == 0 && len(b.RandomStartWins) > 0 {
		a.RandomStartWins = make([]int64, len(b.RandomStartWins))
	}
	addInts(a.RandomStartWins, b.RandomStartWins)
}

func (a *GameCounts) add(b *GameCounts) {
	a.Decisions += b.Decisions
	a.DecisionsSq += b.DecisionsSq
	a.Margin += b.Margin
	a.MarginSq += b.MarginSq
	a.Shared += b.Shared
}

func addInts(a, b []int64) {
	for i := range a {
		if i < len(b) {
			a[i] += b[i]
		}
	}
}

// Add adds the counts of b to c. Both must come from the same ruleset and
// config (Merge checks that before adding).
func (c *Counts) Add(b *Counts) {
	c.Games += b.Games
	addEach(c.Factions, b.Factions)
	addEach(c.Lineups, b.Lineups)
	addEach(c.Seats, b.Seats)
	_, _ = c.bind(), b.bind() // which columns are constant; Check reports errors
	addSections(c.Sections, b.Sections, false)
	c.Game.add(&b.Game)
	if c.Quality != nil && b.Quality != nil {
		c.Quality.add(b.Quality)
	}
}

// addEach adds b's counts into a's, element by element; Counts.Add and the
// workers' acc.merge share it.
func addEach[T any, P interface {
	*T
	add(*T)
}](a, b []T) {
	for i := range a {
		P(&a[i]).add(&b[i])
	}
}

// --- the worker's accumulator -------------------------------------------------

// acc is one worker's accumulator: the core's counts, indexed by side and
// lineup so that the hot path does no lookups, and the game's Counter
// (nil for a ruleset without one); counts() turns it into Counts.
type acc struct {
	p *plan

	games   int64
	fac     []FactionCounts // by side index
	lineups []LineupCounts  // by lineup index
	seats   [game.MaxSeats + 1]SeatCounts
	g       GameCounts
	q       QualityCounts
	ctr     game.Counter
}

func newAcc(p *plan) *acc {
	a := &acc{
		p:       p,
		fac:     make([]FactionCounts, len(p.g.Sides())),
		lineups: make([]LineupCounts, len(p.lineups)),
		q:       QualityCounts{Every: int64(cmp.Or(p.qualityEvery, QualityEvery))},
	}
	for i, l := range p.lineups {
		a.lineups[i] = LineupCounts{Lineup: l.ids, WinUnits: make([]int64, len(l.ids))}
	}
	for n := range a.seats {
		a.seats[n] = SeatCounts{Players: n, SeatWins: make([]int64, n), StartWins: make([]int64, n), RandomStartWins: make([]int64, n)}
	}
	if c, ok := p.g.(game.Counted); ok {
		a.ctr = c.NewCounter(p.factions)
	}
	return a
}

// attach makes s count into the game's Counter as it plays.
func (a *acc) attach(s game.State) {
	if _, ok := s.(game.Lengther); ok {
		a.q.Measured = 1
	}
	if a.ctr != nil {
		a.ctr.Attach(s)
	}
}

// finish counts the finished game s of lineup li, played with rotation rot
// (seat q holds the lineup's side at position (q+rot) mod n) in decisions
// decisions; st is s as a game.Starter, nil if it is none (seat 0 began).
// The core counts sides' games, win units and scores, the lineup's and
// seats' win units, turn order, decisions, the margin and shared wins;
// then the game's Counter counts. It returns the win units by seat.
func (a *acc) finish(s game.State, st game.Starter, li, rot, decisions int) [game.MaxSeats]int64 {
	n := s.NumSeats()
	ret := s.Returns()
	fac := a.p.lineups[li].fac
	winners := 0
	for q := 0; q < n; q++ {
		if ret[q] > 0 {
			winners++
		}
	}
	var units [game.MaxSeats]int64
	best, other := -1<<31, -1<<31
	a.games++
	lc := &a.lineups[li]
	lc.Games++
	sc := &a.seats[n]
	sc.Games++
	start, random := 0, false
	if st != nil {
		start, random = st.Starter()
	}
	if random {
		sc.RandomGames++
	}
	for q := 0; q < n; q++ {
		var u int64
		score := s.Score(q)
		if ret[q] > 0 {
			u = WinUnit / int64(winners)
			best = max(best, score)
		} else {
			other = max(other, score)
		}
		units[q] = u
		k := (q + rot) % n
		fc := &a.fac[fac[k]]
		fc.Games++
		fc.WinUnits += u
		fc.VPSum += int64(score)
		fc.VPSq += int64(score) * int64(score)
		lc.WinUnits[k] += u
		sc.SeatWins[q] += u
		sc.StartWins[(q-start+n)%n] += u
		if random {
			sc.RandomStartWins[(q-start+n)%n] += u
		}
	}
	g := &a.g
	g.Decisions += int64(decisions)
	g.DecisionsSq += int64(decisions) * int64(decisions)
	if winners > 1 {
		g.Shared++
	} else if other > -1<<31 {
		m := int64(best - other)
		g.Margin += m
		g.MarginSq += m * m
	}
	if a.ctr != nil {
		a.ctr.Finish(s, units)
	}
	return units
}

// merge adds worker b's counts to a.
func (a *acc) merge(b *acc) {
	a.games += b.games
	addEach(a.fac, b.fac)
	addEach(a.lineups, b.lineups)
	addEach(a.seats[:], b.seats[:])
	a.g.add(&b.g)
	a.q.add(&b.q)
	if a.ctr != nil {
		a.ctr.Add(b.ctr)
	}
}

// counts turns the accumulator into Counts: only the sides and table sizes
// of the run, with their ids, and the game's sections.
func (a *acc) counts() *Counts {
	p := a.p
	c := &Counts{WinUnit: WinUnit, Games: a.games, Game: a.g, game: p.g.Game()}
	if p.quality {
		q := a.q
		c.Quality = &q
	}
	sides := p.g.Sides()
	for _, f := range p.factions {
		fc := a.fac[f]
		fc.ID = sides[f].ID
		c.Factions = append(c.Factions, fc)
	}
	for _, l := range a.lineups {
		c.Lineups = append(c.Lineups, LineupCounts{Lineup: l.Lineup, Games: l.Games, WinUnits: append([]int64(nil), l.WinUnits...)})
	}
	for _, n := range p.sizes {
		s := a.seats[n]
		c.Seats = append(c.Seats, SeatCounts{Players: n, Games: s.Games,
			SeatWins: append([]int64(nil), s.SeatWins...), StartWins: append([]int64(nil), s.StartWins...),
			RandomGames: s.RandomGames, RandomStartWins: append([]int64(nil), s.RandomStartWins...)})
	}
	if a.ctr != nil {
		c.Sections = a.ctr.Sections()
	}
	return c
}

// Targets are Alpha Tactics' "targets" section as typed rows, nil for
// another game: the report's target figures read them until its Alpha
// Tactics parts are the game's views (issue 27 step 7).
func (c *Counts) Targets() []TargetCounts {
	s := c.Section("targets")
	if s == nil {
		return nil
	}
	get := sectionGetter(s)
	var out []TargetCounts
	for i, r := range s.Rows {
		t := TargetCounts{Laid: get(i, "laid"), Won: get(i, "won"), Negotiated: get(i, "negotiated"),
			Unclaimed: get(i, "unclaimed"), Ties: get(i, "ties"), MarginSum: get(i, "margin_sum"), MarginSq: get(i, "margin_sq")}
		if len(r.Labels) >= 2 {
			t.ID, t.Name = r.Labels[0], r.Labels[1]
		}
		if k, per, ok := s.Column("captures"); ok && per && k < len(r.Sides) {
			t.Captures = r.Sides[k]
		}
		out = append(out, t)
	}
	return out
}

// Cards are Alpha Tactics' "cards" section as typed rows, nil for another
// game (as Targets).
func (c *Counts) Cards() []CardCounts {
	s := c.Section("cards")
	if s == nil {
		return nil
	}
	get := sectionGetter(s)
	var out []CardCounts
	for i, r := range s.Rows {
		k := CardCounts{Copies: get(i, "copies"), Games: get(i, "games"), Drawn: get(i, "drawn"), Played: get(i, "played"),
			DrawnWinUnits: get(i, "drawn_win_units"), NotDrawnWinUnits: get(i, "not_drawn_win_units"),
			PlayedWinUnits: get(i, "played_win_units"), Opening: get(i, "opening"),
			OpeningWinUnits: get(i, "opening_win_units"), NotOpeningWinUnits: get(i, "not_opening_win_units"),
			Placed: get(i, "placed"), PlacedRowWon: get(i, "placed_row_won"), Scored: get(i, "scored"),
			PowerSum: get(i, "power_sum"), Fired: get(i, "fired"), Blocked: get(i, "blocked"), Fizzled: get(i, "fizzled")}
		if len(r.Labels) >= 3 {
			k.ID, k.Faction, k.Name = r.Labels[0], r.Labels[1], r.Labels[2]
		}
		out = append(out, k)
	}
	return out
}

// GameInt is the game's per-game column key (0 when it has none).
func (c *Counts) GameInt(key string) int64 {
	s := c.Section(game.GameSection)
	if s == nil || len(s.Rows) == 0 {
		return 0
	}
	return sectionGetter(s)(0, key)
}

// sectionGetter reads row i's count key of s (0 when s has no such count).
func sectionGetter(s *game.Section) func(i int, key string) int64 {
	return func(i int, key string) int64 {
		k, per, ok := s.Column(key)
		if !ok || per || k >= len(s.Rows[i].Values) {
			return 0
		}
		return s.Rows[i].Values[k]
	}
}

// --- the report ---------------------------------------------------------------

// DefaultMinSample is the sample size below which a figure is flagged low_n.
const DefaultMinSample = 30

// Report is the result of a run as cardlab writes it in JSON (the contract
// is docs/metrics.md). Every figure is computed from Raw; Timing is the only
// field that differs between equivalent runs.
type Report struct {
	ToolVersion string                  `json:"tool_version"`
	Ruleset     RulesetInfo             `json:"ruleset"`
	Config      ConfigInfo              `json:"config"`
	Games       int64                   `json:"games"`
	Partial     bool                    `json:"partial"`
	Factions    map[string]FactionStats `json:"factions"`
	Seats       []SeatStats             `json:"seats"`
	Matchups    []MatchupStats          `json:"matchups"`
	Targets     []TargetStats           `json:"targets"`
	Cards       []CardStats             `json:"cards"`
	// PriceOfPower is each faction's win-share gain (points) from +1 combat
	// power on one copy of a card: the unit card values are read in as
	// power (CardValueDesign.PowerUnitFrom says whose ruleset's it is).
	// Absent when the run did not estimate card values.
	PriceOfPower map[string]PowerPrice `json:"price_of_power,omitempty"`
	// CardValueDesign says how the card values were estimated (absent
	// without them).
	CardValueDesign *CardValueDesign `json:"card_value_design,omitempty"`
	Game            GameStats        `json:"game"`
	// Quality are the game-quality figures (docs/metrics.md, "Game
	// quality"); absent from results made before they were counted.
	Quality *QualityStats `json:"quality,omitempty"`
	Timing  Timing        `json:"timing"`
	Raw     *Counts       `json:"raw"`
	// Checksum is Sum(): merge and report --from refuse a result whose
	// counts were edited after cardlab wrote them.
	Checksum string `json:"checksum"`
}

// RulesetInfo identifies the ruleset.
type RulesetInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Hash    string `json:"hash"`
	// Game is the ruleset's game (its registry ID), absent for Alpha
	// Tactics, the default game, so its results stay as they were.
	Game string `json:"game,omitempty"`
}

// ConfigInfo is what was asked for.
type ConfigInfo struct {
	Matchups  [][]string `json:"matchups"`
	Bots      []string   `json:"bots"`
	Games     int        `json:"games"` // per matchup, over all shards
	Seed      uint64     `json:"seed"`
	Shard     ShardInfo  `json:"shard"`
	MinSample int        `json:"min_sample"`
}

// ShardInfo says which shards of how many a report holds: {"n": 1, "k": [1]}
// for a whole run, {"n": 4, "k": [2]} for one shard, {"n": 4, "k": [1, 2, 3,
// 4]} after merging all four.
type ShardInfo struct {
	N int   `json:"n"`
	K []int `json:"k"`
}

// Timing is how long the games took (summed over shards after a merge).
type Timing struct {
	Seconds        float64 `json:"seconds"`
	GamesPerSecond float64 `json:"games_per_second"`
}

// WinStats is a win share with its sample size and Wilson interval.
type WinStats struct {
	Games   int64      `json:"games"`
	Wins    float64    `json:"wins"` // shared victories count as shares
	WinRate float64    `json:"win_rate"`
	CI95    [2]float64 `json:"ci95"`
	LowN    bool       `json:"low_n"`
}

// FactionStats are one faction's results over all its games.
type FactionStats struct {
	WinStats
	MeanVP float64 `json:"mean_vp"`
	VPSD   float64 `json:"vp_sd"`
}

// SeatStats are win shares by seat at tables of one size.
type SeatStats struct {
	Players int   `json:"players"`
	Games   int64 `json:"games"`
	// Expected is the share every seat would have in a balanced game: 1/players.
	Expected float64 `json:"expected"`
	// Seats is by seat index (1 = first in the lineup as rotated).
	Seats []SeatWin `json:"seats"`
	// StartOrder is by turn order from the seat that began round 1 (1 = the
	// starting player).
	StartOrder []SeatWin `json:"start_order"`
	// RandomStartGames and RandomStartOrder are the same over the games
	// whose starter was drawn at random: the starter's advantage apart
	// from the faction that always begins (empty in results made before
	// they were counted).
	RandomStartGames int64     `json:"random_start_games"`
	RandomStartOrder []SeatWin `json:"random_start_order"`
}

// SeatWin is the win share of one seat or turn-order position.
type SeatWin struct {
	Seat int `json:"seat"`
	WinStats
}

// TurnOrderLabel names turn-order position pos of StartOrder (1-based) the
// way every report does: "began round 1", "2nd in turn", ….
func TurnOrderLabel(pos int) string {
	switch pos {
	case 1:
		return "began round 1"
	case 2:
		return "2nd in turn"
	case 3:
		return "3rd in turn"
	}
	return strconv.Itoa(pos) + "th in turn"
}

// MatchupStats are one lineup's results, all its seat rotations together.
type MatchupStats struct {
	Lineup   []string            `json:"lineup"`
	Games    int64               `json:"games"`
	Factions map[string]WinStats `json:"factions"`
}

// TargetStats describe how one target card was fought over.
type TargetStats struct {
	ID          string                  `json:"id"`
	Name        string                  `json:"name"`
	Laid        int64                   `json:"laid"`
	Won         int64                   `json:"won"`
	Negotiated  int64                   `json:"negotiated"`
	Unclaimed   int64                   `json:"unclaimed"`
	Captured    int64                   `json:"captured"`
	CaptureRate float64                 `json:"capture_rate"`
	Captures    map[string]CaptureShare `json:"captures"`
	MeanMargin  float64                 `json:"mean_margin"`
	MarginSD    float64                 `json:"margin_sd"`
	TieRate     float64                 `json:"tie_rate"`
	LowN        bool                    `json:"low_n"`
}

// CaptureShare is how many captures of a target went to one faction.
type CaptureShare struct {
	Captures int64      `json:"captures"`
	Share    float64    `json:"share"`
	CI95     [2]float64 `json:"ci95"`
}

// CardStats are one card's figures (17lands-style; see docs/metrics.md).
type CardStats struct {
	ID       string  `json:"id"`
	Faction  string  `json:"faction"`
	Name     string  `json:"name"`
	Copies   int64   `json:"copies"`
	Games    int64   `json:"games"`
	Drawn    int64   `json:"drawn"`
	NotDrawn int64   `json:"not_drawn"`
	Played   int64   `json:"played"`
	PlayRate float64 `json:"play_rate"`
	// The correlational figures (docs/metrics.md, "Cards") are null where
	// they are undefined: a win share of no games, or a difference with an
	// empty side — never 0.
	GIHWR      *float64    `json:"gih_wr"`
	GNSWR      *float64    `json:"gns_wr"`
	IWD        *float64    `json:"iwd"`
	IWDCI95    *[2]float64 `json:"iwd_ci95"`
	PlayedWR   *float64    `json:"played_wr"`
	Opening    int64       `json:"opening"`
	NotOpening int64       `json:"not_opening"`
	OHWR       *float64    `json:"oh_wr"`
	NotOHWR    *float64    `json:"not_oh_wr"`
	OHIWD      *float64    `json:"oh_iwd"`
	OHIWDCI95  *[2]float64 `json:"oh_iwd_ci95"`
	OHLowN     bool        `json:"oh_low_n"`
	Placed     int64       `json:"placed"`
	RowWinRate float64     `json:"row_win_rate"`
	Scored     int64       `json:"scored"`
	MeanPower  float64     `json:"mean_power"`
	Fired      int64       `json:"fired"`
	Blocked    int64       `json:"blocked"`
	Fizzled    int64       `json:"fizzled"`
	LowN       bool        `json:"low_n"`
	// Value is the card's causal value (docs/metrics.md, "Card value");
	// nil when the run did not estimate it.
	Value *CardValue `json:"value,omitempty"`
}

// CardValue is the causal value of one copy of a card against a blank in its
// place (same type, power 0, no effect), estimated by a designed experiment.
// Pts — percentage points of the faction's win share — are the headline;
// Power is the same read in combat-power points at one price per faction
// (Report.PriceOfPower; CardValueDesign.PowerUnitFrom says whose price).
type CardValue struct {
	Pts     float64    `json:"pts"`
	PtsCI95 [2]float64 `json:"pts_ci95"`
	// VsFactionPts is Pts minus the median Pts of the faction's other
	// cards: what cards are ranked by.
	VsFactionPts     float64    `json:"vs_faction_pts"`
	VsFactionPtsCI95 [2]float64 `json:"vs_faction_pts_ci95"`
	// EffectPts is Pts minus what a plain card of the card's printed power
	// is worth to the faction, on the basis EffectBasis names (one of the
	// Effect* constants): what the card's text adds.
	EffectPts     float64    `json:"effect_pts"`
	EffectPtsCI95 [2]float64 `json:"effect_pts_ci95"`
	EffectBasis   string     `json:"effect_basis"`
	// Power, VsFaction and EffectPower are Pts, VsFactionPts and EffectPts
	// in power points at the faction's price.
	Power         float64    `json:"power"`
	PowerCI95     [2]float64 `json:"power_ci95"`
	VsFaction     float64    `json:"vs_faction"`
	VsFactionCI95 [2]float64 `json:"vs_faction_ci95"`
	EffectPower   float64    `json:"effect_power"`
	// EffectPowerCI95 is EffectPower's 95% interval.
	EffectPowerCI95 [2]float64 `json:"effect_power_ci95"`
	// Flag is what a designer would act on (docs/metrics.md, "Flags"):
	// FlagDead, FlagStrongText, FlagWeakText or "" (none); Flagged is
	// Flag != "".
	Flag    string `json:"flag,omitempty"`
	Flagged bool   `json:"flagged"`
	// PossiblyDead: not a flag — Pts lies below DeadMargin but its
	// interval reaches above it, so more games would tell (docs/metrics.md,
	// "Flags"). Never with a Flag.
	PossiblyDead bool `json:"possibly_dead,omitempty"`
	// CardHash is the card's rules.Ruleset.PlayHash as it was measured: a
	// value belongs to that card, and `cardlab print --with-values` prints
	// none for a card edited since.
	CardHash string `json:"card_hash,omitempty"`
}

// Card flags (CardValue.Flag).
const (
	// FlagDead: one copy adds less than DeadMargin points over a blank,
	// with 95% confidence — the card plays no better than a blank.
	FlagDead = "dead"
	// FlagStrongText, FlagWeakText: what the text adds over a plain card
	// of the printed power lies above +tolerance, or below −tolerance,
	// over its whole 95% interval.
	FlagStrongText = "strong_text"
	FlagWeakText   = "weak_text"
)

// PlayRateInforms is the play rate below which it says something about a
// card: at or above it a card is played in nearly every game it is drawn
// in, like almost every card of the default ruleset, and its played win
// share is its faction's. Reports show the play rate only below it.
const PlayRateInforms = 0.95

// DefaultCardTolerance is the card tolerance band in win-share points: a
// card whose text is worth within ± this over a plain card of its printed
// power counts as priced right. About three power points at the default
// ruleset's price (2.6–2.8 points per power point with greedy bots): at
// ±6 the 0-power shields, worth 8–10 points, flip between seeds on the
// band's edge (docs/metrics.md, "Flags").
const DefaultCardTolerance = 8.0

// DeadMargin is the gain over a blank, in win-share points per copy, below
// which a card is dead: well under half a power point.
const DeadMargin = 1.0

// SetFlag flags v against the card tolerance band tol (win-share points):
// dead when its whole interval lies below DeadMargin, else strong or weak
// text when the text value's whole interval lies beyond ±tol — only where
// the text has a measured reference (EffectBlank, EffectFit): never for a
// card without text, nor on an interpolated or extrapolated plain line,
// which reads the text high or guesses. tol ≤ 0 means
// DefaultCardTolerance. A card left unflagged whose point estimate lies
// below DeadMargin is PossiblyDead: near a blank, the estimates of a
// continuum of weak cards straddle any margin, and only the interval says
// which side a card is on.
func (v *CardValue) SetFlag(tol float64) {
	if !(tol > 0) {
		tol = DefaultCardTolerance
	}
	v.Flag = ""
	switch {
	case v.PtsCI95[1] < DeadMargin:
		v.Flag = FlagDead
	case v.EffectBasis != EffectBlank && v.EffectBasis != EffectFit:
	case v.EffectPtsCI95[0] > tol:
		v.Flag = FlagStrongText
	case v.EffectPtsCI95[1] < -tol:
		v.Flag = FlagWeakText
	}
	v.Flagged = v.Flag != ""
	v.PossiblyDead = !v.Flagged && v.Pts < DeadMargin
}

// PowerPrice is a faction's win-share gain in points from +1 power on one
// copy of a card, with its 95% interval.
type PowerPrice struct {
	Pts  float64    `json:"pts"`
	CI95 [2]float64 `json:"ci95"`
}

// GameStats describe whole games.
type GameStats struct {
	Games               int64   `json:"games"`
	DecisionsMean       float64 `json:"decisions_mean"`
	DecisionsSD         float64 `json:"decisions_sd"`
	PassesMean          float64 `json:"passes_mean"`
	ReshufflesMean      float64 `json:"reshuffles_mean"`
	RoundsMean          float64 `json:"rounds_mean"`
	RoundsSD            float64 `json:"rounds_sd"`
	DeployTurnsPerRound float64 `json:"deploy_turns_per_round"`
	MarginMean          float64 `json:"margin_mean"`
	MarginSD            float64 `json:"margin_sd"`
	SharedVictories     int64   `json:"shared_victories"`
	SharedRate          float64 `json:"shared_rate"`
}

// defined is x rounded, or nil where the figure is undefined (!ok).
func defined(x float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	v := round6(x)
	return &v
}

func definedCI(lo, hi float64, ok bool) *[2]float64 {
	if !ok {
		return nil
	}
	ci := interval(lo, hi)
	return &ci
}

// Or0 is *p, or 0 for an undefined (nil) figure: for sorting and
// descriptive differences only, never for showing.
func Or0(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// CIOr0 is *p, or [0, 0] for an undefined interval.
func CIOr0(p *[2]float64) [2]float64 {
	if p == nil {
		return [2]float64{}
	}
	return *p
}

// header is everything of a Report that does not come from the counts.
type header struct {
	tool    string
	ruleset RulesetInfo
	config  ConfigInfo
	partial bool
	timing  Timing
}

func winStats(units, games int64, unit int64, minN int) WinStats {
	wins := float64(units) / float64(unit)
	lo, hi := Wilson(wins, float64(games), Z95)
	return WinStats{Games: games, Wins: round6(wins), WinRate: round6(ratio(wins, float64(games))),
		CI95: interval(lo, hi), LowN: games < int64(minN)}
}

// summarize computes every figure of a Report from the counts.
func summarize(h header, c *Counts) *Report {
	minN := h.config.MinSample
	unit := c.WinUnit
	if unit <= 0 {
		unit = WinUnit
	}
	r := &Report{ToolVersion: h.tool, Ruleset: h.ruleset, Config: h.config, Games: c.Games,
		Partial: h.partial, Timing: h.timing, Raw: c,
		Factions: map[string]FactionStats{}, Seats: []SeatStats{}, Matchups: []MatchupStats{},
		Targets: []TargetStats{}, Cards: []CardStats{}}
	defer func() { r.Checksum = r.Sum() }()
	for _, f := range c.Factions {
		mean, sd := meanSD(f.Games, f.VPSum, f.VPSq)
		r.Factions[f.ID] = FactionStats{WinStats: winStats(f.WinUnits, f.Games, unit, minN),
			MeanVP: round6(mean), VPSD: round6(sd)}
	}
	for _, s := range c.Seats {
		ss := SeatStats{Players: s.Players, Games: s.Games, Expected: round6(1 / float64(s.Players)),
			Seats: []SeatWin{}, StartOrder: []SeatWin{}, RandomStartGames: s.RandomGames, RandomStartOrder: []SeatWin{}}
		for i, u := range s.SeatWins {
			ss.Seats = append(ss.Seats, SeatWin{Seat: i + 1, WinStats: winStats(u, s.Games, unit, minN)})
		}
		for i, u := range s.StartWins {
			ss.StartOrder = append(ss.StartOrder, SeatWin{Seat: i + 1, WinStats: winStats(u, s.Games, unit, minN)})
		}
		if s.RandomGames > 0 {
			for i, u := range s.RandomStartWins {
				ss.RandomStartOrder = append(ss.RandomStartOrder, SeatWin{Seat: i + 1, WinStats: winStats(u, s.RandomGames, unit, minN)})
			}
		}
		r.Seats = append(r.Seats, ss)
	}
	for _, l := range c.Lineups {
		m := MatchupStats{Lineup: l.Lineup, Games: l.Games, Factions: map[string]WinStats{}}
		for i, id := range l.Lineup {
			m.Factions[id] = winStats(l.WinUnits[i], l.Games, unit, minN)
		}
		r.Matchups = append(r.Matchups, m)
	}
	for _, t := range c.Targets() {
		captured := t.Won + t.Negotiated
		mean, sd := meanSD(t.Won, t.MarginSum, t.MarginSq)
		ts := TargetStats{ID: t.ID, Name: t.Name, Laid: t.Laid, Won: t.Won, Negotiated: t.Negotiated,
			Unclaimed: t.Unclaimed, Captured: captured, CaptureRate: round6(ratio(float64(captured), float64(t.Laid))),
			Captures: map[string]CaptureShare{}, MeanMargin: round6(mean), MarginSD: round6(sd),
			TieRate: round6(ratio(float64(t.Ties), float64(t.Won))), LowN: captured < int64(minN)}
		for i, f := range c.Factions {
			if i < len(t.Captures) {
				lo, hi := Wilson(float64(t.Captures[i]), float64(captured), Z95)
				ts.Captures[f.ID] = CaptureShare{Captures: t.Captures[i],
					Share: round6(ratio(float64(t.Captures[i]), float64(captured))), CI95: interval(lo, hi)}
			}
		}
		r.Targets = append(r.Targets, ts)
	}
	fu := float64(unit)
	for _, k := range c.Cards() {
		notDrawn := k.Games - k.Drawn
		dw, nw := float64(k.DrawnWinUnits)/fu, float64(k.NotDrawnWinUnits)/fu
		gih := ratio(dw, float64(k.Drawn))
		gns := ratio(nw, float64(notDrawn))
		lo, hi := NewcombeDiff(dw, float64(k.Drawn), nw, float64(notDrawn), Z95)
		notOpen := k.Games - k.Opening
		ow, now := float64(k.OpeningWinUnits)/fu, float64(k.NotOpeningWinUnits)/fu
		oh, noh := ratio(ow, float64(k.Opening)), ratio(now, float64(notOpen))
		olo, ohi := NewcombeDiff(ow, float64(k.Opening), now, float64(notOpen), Z95)
		drawnOK, notDrawnOK := k.Drawn > 0, notDrawn > 0
		openOK, notOpenOK := k.Opening > 0, notOpen > 0
		cs := CardStats{ID: k.ID, Faction: k.Faction, Name: k.Name, Copies: k.Copies, Games: k.Games,
			Drawn: k.Drawn, NotDrawn: notDrawn, Played: k.Played,
			PlayRate: round6(ratio(float64(k.Played), float64(k.Drawn))),
			GIHWR:    defined(gih, drawnOK), GNSWR: defined(gns, notDrawnOK),
			IWD: defined(gih-gns, drawnOK && notDrawnOK), IWDCI95: definedCI(lo, hi, drawnOK && notDrawnOK),
			PlayedWR: defined(ratio(float64(k.PlayedWinUnits)/fu, float64(k.Played)), k.Played > 0),
			Opening:  k.Opening, NotOpening: notOpen, OHWR: defined(oh, openOK), NotOHWR: defined(noh, notOpenOK),
			OHIWD: defined(oh-noh, openOK && notOpenOK), OHIWDCI95: definedCI(olo, ohi, openOK && notOpenOK),
			OHLowN:     k.Opening < int64(minN) || notOpen < int64(minN),
			Placed:     k.Placed,
			RowWinRate: round6(ratio(float64(k.PlacedRowWon), float64(k.Placed))),
			Scored:     k.Scored, MeanPower: round6(ratio(float64(k.PowerSum), float64(k.Scored))),
			Fired: k.Fired, Blocked: k.Blocked, Fizzled: k.Fizzled,
			LowN: k.Drawn < int64(minN) || notDrawn < int64(minN)}
		r.Cards = append(r.Cards, cs)
	}
	g := &c.Game
	rounds := c.GameInt("rounds")
	gs := GameStats{Games: c.Games, SharedVictories: g.Shared,
		PassesMean:          round6(ratio(float64(c.GameInt("passes")), float64(c.Games))),
		ReshufflesMean:      round6(ratio(float64(c.GameInt("reshuffles")), float64(c.Games))),
		DeployTurnsPerRound: round6(ratio(float64(c.GameInt("deploy_turns")), float64(rounds))),
		SharedRate:          round6(ratio(float64(g.Shared), float64(c.Games)))}
	m, sd := meanSD(c.Games, g.Decisions, g.DecisionsSq)
	gs.DecisionsMean, gs.DecisionsSD = round6(m), round6(sd)
	m, sd = meanSD(c.Games, rounds, c.GameInt("rounds_sq"))
	gs.RoundsMean, gs.RoundsSD = round6(m), round6(sd)
	m, sd = meanSD(c.Games, g.Margin, g.MarginSq)
	gs.MarginMean, gs.MarginSD = round6(m), round6(sd)
	r.Game = gs
	r.Quality = qualityStats(c, minN, unit)
	return r
}
