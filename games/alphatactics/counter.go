package alphatactics

import (
	"fmt"

	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Alpha Tactics' counts (game.Counter): what happened to every target and
// card, and the rounds, passes, reshuffles and deployment turns of the
// games. What happens inside a game — draws, placements, effects, rows won
// — the engine counts into the attached engine.Tally as it plays (no
// events, each won row scored once, by the Scoring Phase itself); flush
// adds those counters in. Its sections are results.json's "targets",
// "cards" and the middle of "game" (docs/metrics.md), in the order and
// under the keys results written before the split hold.

// tgtCounts count one target (the "targets" columns but captures).
type tgtCounts struct {
	laid, won, negotiated, unclaimed, ties, marginSum, marginSq int64
}

// cardCounts count one card definition (the "cards" columns but copies).
type cardCounts struct {
	games, drawn, played, drawnWU, notDrawnWU, playedWU          int64
	opening, openingWU, notOpeningWU                             int64
	placed, placedRowWon, scored, powerSum, fired, blocked, fizz int64
}

// gameCounts count whole games (the middle of "game").
type gameCounts struct {
	passes, reshuffles, deployTurns, rounds, roundsSq int64
}

// Counter is Alpha Tactics' game.Counter.
type Counter struct {
	rs    *rules.Ruleset
	sides []int // the run's factions, ascending
	tally engine.Tally
	tgt   []tgtCounts  // by target index
	capt  []int64      // [target*factions + faction], as the tally's
	card  []cardCounts // by card definition
	g     gameCounts
}

// NewCounter implements game.Counted.
func (r Ruleset) NewCounter(sides []int) game.Counter {
	rs := r.RS
	return &Counter{rs: rs, sides: sides, tgt: make([]tgtCounts, len(rs.Targets)),
		capt: make([]int64, len(rs.Targets)*len(rs.Factions)), card: make([]cardCounts, len(rs.Cards))}
}

// Attach implements game.Counter: s's engine counts into the counter's
// tally (its Reset clears the per-game fields).
func (c *Counter) Attach(s game.State) { s.(*State).S.SetTally(&c.tally) }

// Finish implements game.Counter.
func (c *Counter) Finish(s game.State, units [game.MaxSeats]int64) {
	e := s.(*State).S
	t := &c.tally
	for p := 0; p < e.NumPlayers(); p++ {
		u := units[p]
		for _, d := range c.rs.Factions[e.Faction(p)].Deck {
			cc := &c.card[d]
			cc.games++
			if engine.HasBit(&t.Drawn, d) {
				cc.drawn++
				cc.drawnWU += u
			} else {
				cc.notDrawnWU += u
			}
			if engine.HasBit(&t.Played, d) {
				cc.played++
				cc.playedWU += u
			}
			if engine.HasBit(&t.Opening, d) {
				cc.opening++
				cc.openingWU += u
			} else {
				cc.notOpeningWU += u
			}
		}
	}
	st := e.Stats()
	g := &c.g
	g.passes += int64(st.Passes)
	g.reshuffles += int64(st.Reshuffles)
	g.deployTurns += int64(st.DeployTurns)
	g.rounds += int64(st.Rounds)
	g.roundsSq += int64(st.Rounds) * int64(st.Rounds)
}

// flush adds the engine's counters into the counts and clears them, the
// per-game fields kept for the game in play.
func (c *Counter) flush() {
	t := &c.tally
	for d := range c.card {
		cc := &c.card[d]
		cc.placed += t.Placed[d]
		cc.placedRowWon += t.PlacedRowWon[d]
		cc.scored += t.Scored[d]
		cc.powerSum += t.PowerSum[d]
		cc.fired += t.Fired[d]
		cc.blocked += t.Blocked[d]
		cc.fizz += t.Fizzled[d]
	}
	for i := range c.tgt {
		tc := &c.tgt[i]
		tc.laid += t.Laid[i]
		tc.won += t.Won[i]
		tc.negotiated += t.Negotiated[i]
		tc.unclaimed += t.Unclaimed[i]
		tc.ties += t.Ties[i]
		tc.marginSum += t.MarginSum[i]
		tc.marginSq += t.MarginSq[i]
	}
	for i := range c.capt {
		if i < len(t.Captures) {
			c.capt[i] += t.Captures[i]
		}
	}
	captures := t.Captures
	clear(captures)
	*t = engine.Tally{Captures: captures, Drawn: t.Drawn, Played: t.Played, Opening: t.Opening, Start: t.Start}
}

// Add implements game.Counter.
func (c *Counter) Add(o game.Counter) { c.addSigned(o.(*Counter), 1) }

// Sub implements game.Counter.
func (c *Counter) Sub(o game.Counter) { c.addSigned(o.(*Counter), -1) }

func (c *Counter) addSigned(o *Counter, k int64) {
	c.flush()
	o.flush()
	for i := range c.tgt {
		a, b := &c.tgt[i], &o.tgt[i]
		a.laid += k * b.laid
		a.won += k * b.won
		a.negotiated += k * b.negotiated
		a.unclaimed += k * b.unclaimed
		a.ties += k * b.ties
		a.marginSum += k * b.marginSum
		a.marginSq += k * b.marginSq
	}
	for i := range c.capt {
		c.capt[i] += k * o.capt[i]
	}
	for i := range c.card {
		a, b := &c.card[i], &o.card[i]
		a.games += k * b.games
		a.drawn += k * b.drawn
		a.played += k * b.played
		a.drawnWU += k * b.drawnWU
		a.notDrawnWU += k * b.notDrawnWU
		a.playedWU += k * b.playedWU
		a.opening += k * b.opening
		a.openingWU += k * b.openingWU
		a.notOpeningWU += k * b.notOpeningWU
		a.placed += k * b.placed
		a.placedRowWon += k * b.placedRowWon
		a.scored += k * b.scored
		a.powerSum += k * b.powerSum
		a.fired += k * b.fired
		a.blocked += k * b.blocked
		a.fizz += k * b.fizz
	}
	c.g.passes += k * o.g.passes
	c.g.reshuffles += k * o.g.reshuffles
	c.g.deployTurns += k * o.g.deployTurns
	c.g.rounds += k * o.g.rounds
	c.g.roundsSq += k * o.g.roundsSq
}

// The layout of Alpha Tactics' sections (docs/metrics.md, "Raw counts").
var (
	targetColumns = []game.Count{
		{Key: "laid", Doc: "times laid out at the head of a row"},
		{Key: "won", Doc: "times taken at scoring"},
		{Key: "negotiated", Doc: "times taken by Negotiations"},
		{Key: "unclaimed", Doc: "times its row held no cards at scoring"},
		{Key: "ties", Doc: "times taken at scoring on a tie (tie_top_card, combo_tie_top_card)"},
		{Key: "margin_sum", Doc: "winner's combat power minus the runner-up's, summed over the times won", Signed: true},
		{Key: "margin_sq", Doc: "their squares, summed", Squares: true},
		{Key: "captures", Doc: "times taken (won or negotiated) by each faction of the run", PerSide: true},
	}
	cardColumns = []game.Count{
		{Key: "copies", Doc: "copies in the faction's deck", Const: true},
		{Key: "games", Doc: "games the card's faction played"},
		{Key: "drawn", Doc: "games in which a copy was drawn"},
		{Key: "played", Doc: "games in which a copy was played"},
		{Key: "drawn_win_units", Doc: "the owner's win units in the games a copy was drawn"},
		{Key: "not_drawn_win_units", Doc: "the owner's win units in the games none was drawn"},
		{Key: "played_win_units", Doc: "the owner's win units in the games a copy was played"},
		{Key: "opening", Doc: "games with a copy in the opening hand (dealt before round 1)"},
		{Key: "opening_win_units", Doc: "the owner's win units in those games"},
		{Key: "not_opening_win_units", Doc: "the owner's win units in the other games"},
		{Key: "placed", Doc: "copies placed in a row (a shield on its card's row)"},
		{Key: "placed_row_won", Doc: "placed copies whose row went to their owner"},
		{Key: "scored", Doc: "copies lying in a row when it was scored"},
		{Key: "power_sum", Doc: "their counted combat power, summed"},
		{Key: "fired", Doc: "effects in effect (per reveal, per row scored or per use, by kind)"},
		{Key: "blocked", Doc: "effects blocked"},
		{Key: "fizzled", Doc: "effects run without doing anything"},
	}
	gameColumns = []game.Count{
		{Key: "passes", Doc: "passes, summed over games"},
		{Key: "reshuffles", Doc: "discard piles shuffled into a draw pile"},
		{Key: "deploy_turns", Doc: "Deployment Phase turns"},
		{Key: "rounds", Doc: "rounds played"},
		{Key: "rounds_sq", Doc: "rounds per game, squared and summed", Squares: true},
	}
)

// CountLayout implements game.CountRules.
func (Game) CountLayout() []game.Section {
	return []game.Section{
		{Key: "targets", Entity: "target", Doc: "what happened to each target card, every target in ruleset order",
			Labels: []string{"id", "name"}, Columns: targetColumns},
		{Key: "cards", Entity: "card", Doc: "each player card definition of the run's factions (all its copies), in ruleset order",
			Labels: []string{"id", "faction", "name"}, Columns: cardColumns},
		{Key: game.GameSection, Entity: "game", Doc: "whole games", Columns: gameColumns},
	}
}

// Sections implements game.Counter: every target, the cards of the run's
// factions, and the game columns.
func (c *Counter) Sections() []game.Section {
	c.flush()
	rs := c.rs
	secs := Game{}.CountLayout()
	tg, cd, gm := &secs[0], &secs[1], &secs[2]
	nf := len(rs.Factions)
	for t := range rs.Targets {
		x := c.tgt[t]
		capt := make([]int64, len(c.sides))
		for k, f := range c.sides {
			capt[k] = c.capt[t*nf+f]
		}
		tg.Rows = append(tg.Rows, game.Row{Labels: []string{rs.Targets[t].ID, rs.Targets[t].Name},
			Values: []int64{x.laid, x.won, x.negotiated, x.unclaimed, x.ties, x.marginSum, x.marginSq},
			Sides:  [][]int64{capt}})
	}
	in := make([]bool, nf)
	for _, f := range c.sides {
		in[f] = true
	}
	for d := range rs.Cards {
		k := &rs.Cards[d]
		if !in[k.Faction] {
			continue
		}
		x := c.card[d]
		cd.Rows = append(cd.Rows, game.Row{Labels: []string{k.ID, rs.Factions[k.Faction].ID, k.Name},
			Values: []int64{int64(k.Copies), x.games, x.drawn, x.played, x.drawnWU, x.notDrawnWU, x.playedWU,
				x.opening, x.openingWU, x.notOpeningWU, x.placed, x.placedRowWon, x.scored, x.powerSum,
				x.fired, x.blocked, x.fizz}})
	}
	g := c.g
	gm.Rows = []game.Row{{Values: []int64{g.passes, g.reshuffles, g.deployTurns, g.rounds, g.roundsSq}}}
	return secs
}

// CheckCounts implements game.CountRules: a target is not taken more often
// than laid, nor won on a tie more often than won, and its captures are
// its takings; a card belongs to a faction of the run, plays its games,
// and its win units with and without it add up to its faction's.
func (Game) CheckCounts(secs []game.Section, sides []game.SideTotal, unit int64) error {
	byID := make(map[string]game.SideTotal, len(sides))
	for _, s := range sides {
		byID[s.ID] = s
	}
	for i := range secs {
		s := &secs[i]
		col := func(key string) int { i, _, _ := s.Column(key); return i }
		switch s.Key {
		case "targets":
			laid, won, neg, uncl, ties := col("laid"), col("won"), col("negotiated"), col("unclaimed"), col("ties")
			for _, r := range s.Rows {
				v := r.Values
				var capt int64
				for _, x := range r.Sides[0] {
					capt += x
				}
				if v[won]+v[neg]+v[uncl] > v[laid] || v[ties] > v[won] || capt != v[won]+v[neg] {
					return fmt.Errorf("target %s: laid %d, won %d, negotiated %d, unclaimed %d, ties %d, captures %d",
						r.Labels[0], v[laid], v[won], v[neg], v[uncl], v[ties], capt)
				}
			}
		case "cards":
			games, drawn, played, opening := col("games"), col("drawn"), col("played"), col("opening")
			dwu, ndwu, pwu, owu, nowu := col("drawn_win_units"), col("not_drawn_win_units"), col("played_win_units"),
				col("opening_win_units"), col("not_opening_win_units")
			placed, rowWon := col("placed"), col("placed_row_won")
			for _, r := range s.Rows {
				v, id := r.Values, r.Labels[0]
				f, ok := byID[r.Labels[1]]
				switch {
				case !ok:
					return fmt.Errorf("card %s belongs to faction %q, which the counts do not list", id, r.Labels[1])
				case v[games] != f.Games:
					return fmt.Errorf("card %s: %d games, its faction %d", id, v[games], f.Games)
				case v[drawn] > v[games] || v[played] > v[games] || v[opening] > v[games]:
					return fmt.Errorf("card %s: drawn %d, played %d, in the opening hand %d of %d games", id, v[drawn], v[played], v[opening], v[games])
				case v[dwu]+v[ndwu] != f.WinUnits || v[owu]+v[nowu] != f.WinUnits:
					return fmt.Errorf("card %s: win units with and without it do not add up to its faction's %d", id, f.WinUnits)
				case v[dwu] > v[drawn]*unit || v[pwu] > v[played]*unit || v[owu] > v[opening]*unit:
					return fmt.Errorf("card %s: more win units than games", id)
				case v[rowWon] > v[placed]:
					return fmt.Errorf("card %s: %d rows won of %d placed", id, v[rowWon], v[placed])
				}
			}
		}
	}
	return nil
}

// Starter implements game.Starter: round 1's starting seat.
func (s *State) Starter() (int, bool) { return s.S.Starter() }

// SeatRecord implements game.Recorder: seat's final score breakdown.
func (s *State) SeatRecord(seat int, buf []game.Named) []game.Named {
	f := s.S.FinalScore(seat)
	return append(buf, game.Named{Key: "target_vp", Value: f.TargetVP}, game.Named{Key: "bonus_vp", Value: f.BonusVP},
		game.Named{Key: "planet_bonus", Value: f.PlanetBonus}, game.Named{Key: "total", Value: f.Total},
		game.Named{Key: "planets", Value: f.Planets}, game.Named{Key: "targets", Value: f.Targets})
}

// GameRecord implements game.Recorder: the rounds played.
func (s *State) GameRecord(buf []game.Named) []game.Named {
	return append(buf, game.Named{Key: "rounds", Value: int(s.S.Stats().Rounds)})
}
