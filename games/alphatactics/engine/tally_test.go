package engine

import (
	"reflect"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// eventTally derives a Tally from events, the way the metrics observer did
// before the engine counted itself (rescoring each won row when its event
// arrives). The engine's own Tally must agree with it exactly.
type eventTally struct {
	t      Tally
	places []tallyPlace
	rs     handlers.RowScore
}

func (o *eventTally) OnEvent(s *State, e Event) {
	t := &o.t
	switch e.Kind {
	case EvRoundStart:
		if t.Start < 0 {
			t.Start = e.Player
		}
	case EvTargetLaid:
		t.Laid[e.Target]++
	case EvDrawn:
		setBit(&t.Drawn, uint8(e.Card))
		if t.Start < 0 {
			setBit(&t.Opening, uint8(e.Card))
		}
	case EvPlaced, EvShielded:
		setBit(&t.Played, uint8(e.Card))
		if e.Row >= 0 {
			t.Placed[e.Card]++
			o.places = append(o.places, tallyPlace{def: uint8(e.Card), row: e.Row, owner: e.Player})
		}
		// Special cards fire when used (docs/metrics.md, "Cards").
		switch pl := s.fx.defPlace[uint8(e.Card)]; {
		case e.Kind == EvShielded:
			t.Fired[e.Card]++
		case pl == handlers.PlaceInsertOther && e.Row < 0:
			t.Fired[e.Card]++ // played as a Wave, not placed as a card
		case pl == handlers.PlaceAnywhere:
			t.Fired[e.Card]++
			if int(e.Pos) == int(s.rows[e.Row].n)-1 {
				t.Fizzled[e.Card]++
			}
		case pl == handlers.PlaceScout && e.Value == 0:
			t.Fired[e.Card]++
			if e.Pos == 0 || s.protected(int(e.Row), int(e.Pos)-1) {
				t.Fizzled[e.Card]++
			}
		}
	case EvFired:
		t.Fired[e.Card]++
	case EvBlocked:
		// Only one-time effects are blocked when revealed; permanent and
		// scoring ones are counted per scored row.
		if s.fx.defOne[uint8(e.Card)] != nil {
			t.Blocked[e.Card]++
		}
	case EvFizzled:
		t.Fizzled[e.Card]++
	case EvNegotiated:
		t.Negotiated[e.Target]++
		t.Captures[int(e.Target)*len(s.fx.rs.Factions)+s.Faction(int(e.Player))]++
		o.taken(e.Row, e.Player)
	case EvRowWon:
		t.Won[e.Target]++
		if e.Reason == ReasonTieTop || e.Reason == ReasonComboTie {
			t.Ties[e.Target]++
		}
		w := int(e.Player)
		t.Captures[int(e.Target)*len(s.fx.rs.Factions)+s.Faction(w)]++
		res := s.ScoreRow(int(e.Row), &o.rs)
		runnerUp, first := 0, true
		for q := 0; q < s.NumPlayers(); q++ {
			if q != w && res.HasCards[q] && (first || res.Power[q] > runnerUp) {
				runnerUp, first = res.Power[q], false
			}
		}
		m := int64(res.Power[w] - runnerUp)
		t.MarginSum[e.Target] += m
		t.MarginSq[e.Target] += m * m
		for k := 0; k < o.rs.N; k++ {
			c := &o.rs.Cards[k]
			t.Scored[c.Def]++
			t.PowerSum[c.Def] += int64(max(0, c.Base+c.Mod+c.Bonus))
			if d := uint8(c.Def); s.fx.defSpec[d] != nil && s.fx.defOne[d] == nil && s.fx.defPlace[d] == handlers.PlaceNormal {
				if c.Active {
					t.Fired[d]++
				} else {
					t.Blocked[d]++
				}
			}
		}
		o.taken(e.Row, e.Player)
	case EvRowUnclaimed:
		t.Unclaimed[e.Target]++
		o.taken(e.Row, -1)
	case EvRoundEnd:
		o.places = o.places[:0]
	}
}

func (o *eventTally) taken(r, winner int8) {
	for k := range o.places {
		if pl := &o.places[k]; pl.row == r {
			if pl.owner == winner {
				o.t.PlacedRowWon[pl.def]++
			}
			pl.row = -1
		}
	}
}

// TestTallyMatchesEvents: the counters the engine keeps agree with those
// derived from its events, over whole games of every table size, and a
// game's per-game fields are cleared by Reset.
func TestTallyMatchesEvents(t *testing.T) {
	rs := rules.Default()
	for n := 2; n <= 4; n++ {
		obs := &eventTally{}
		obs.t.Captures = make([]int64, 64*len(rs.Factions))
		var tally Tally
		s, err := New(rs, Config{Factions: allFactions[:n], Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		s.SetObserver(obs)
		s.SetTally(&tally)
		var buf []Action
		for seed := uint64(0); seed < 400; seed++ {
			obs.t.newGame()
			obs.places = obs.places[:0]
			s.Reset(seed)
			bot := NewRNG(seed ^ 0x7a11)
			for !s.IsTerminal() {
				buf = s.LegalActions(buf)
				s.Apply(buf[bot.Intn(len(buf))])
			}
			if tally.Drawn != obs.t.Drawn || tally.Played != obs.t.Played || tally.Opening != obs.t.Opening || tally.Start != obs.t.Start {
				t.Fatalf("%dp seed %d: per-game fields differ from the events", n, seed)
			}
		}
		got, want := tally, obs.t
		got.places, want.places = nil, nil
		gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
		for i := 0; i < gv.NumField(); i++ {
			if gv.Type().Field(i).IsExported() && !reflect.DeepEqual(gv.Field(i).Interface(), wv.Field(i).Interface()) {
				t.Errorf("%dp: the engine's %s differs from its events", n, gv.Type().Field(i).Name)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%dp: the engine's tally differs from its events:\n got %+v\nwant %+v", n, got, want)
		}
		if got.Fired == [256]int64{} || got.Won == [64]int64{} || got.PlacedRowWon == [256]int64{} {
			t.Fatal("the tally counted nothing")
		}
		if s.Clone().tally != nil {
			t.Fatal("a clone carries the tally")
		}
	}
}
