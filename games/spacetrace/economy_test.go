package spacetrace

import (
	"encoding/json"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cardlab/cardlab/game"
)

// greedyGames plays n greedy games of rs into a fresh Counter and returns
// it with each game's MP gained and reinforcements played, counted apart.
func greedyGames(t *testing.T, rs *Ruleset, n int) (*Counter, []int64, []int64) {
	t.Helper()
	c := rs.NewCounter([]int{0}).(*Counter)
	st, err := rs.NewState([]int{0, 0}, 1)
	if err != nil {
		t.Fatal(err)
	}
	c.Attach(st)
	s := st.(*State)
	var buf []game.Action
	var gained, reinf []int64
	for i := 0; i < n; i++ {
		s.Reset(uint64(i))
		g, r := int64(0), int64(0)
		for !s.IsTerminal() {
			buf = s.LegalActions(buf)
			a := Greedy{}.Choose(s, buf)
			mp := s.P[s.Active].MP
			if int(a>>16) == actPlay && s.rs.Defs[a&0xffff].Type == Reinforcement {
				r++
				g += int64(s.rs.Defs[a&0xffff].Effect(MP).Amount)
			}
			s.Apply(a)
			if int(a>>16) == actDiscardPick && s.phase == phMain && !s.discDraw {
				g += int64(s.P[s.Active].MP - mp)
			}
		}
		c.Finish(s, [game.MaxSeats]int64{})
		gained, reinf = append(gained, g), append(reinf, r)
	}
	return c, gained, reinf
}

// TestCounterPerGame: the economy's per-game squares and cross products
// are those of each game's own figures (counted here apart), and every
// game is read by both scoring rules once.
func TestCounterPerGame(t *testing.T) {
	rs := First()
	c, gained, reinf := greedyGames(t, rs, 60)
	var sq, rsq, sum int64
	for i := range gained {
		sq += gained[i] * gained[i]
		rsq += reinf[i] * reinf[i]
		sum += gained[i]
	}
	if c.t.gained != sum || c.t.sq[econGained] != sq || c.t.sq[econReinf] != rsq {
		t.Fatalf("gained %d, squares %d, reinforcements' squares %d; counted apart %d, %d, %d",
			c.t.gained, c.t.sq[econGained], c.t.sq[econReinf], sum, sq, rsq)
	}
	if c.t.agree+c.t.disagree != 60 || c.t.agree == 0 {
		t.Fatalf("scoring agreement %d + %d over 60 games", c.t.agree, c.t.disagree)
	}
}

// TestWinnerBy: a destroyed Base decides both rules alike; without one the
// rules can differ (less Base damage, but more wrecks).
func TestWinnerBy(t *testing.T) {
	s := table(t, nil, 5)
	DamageBase(s.P[1].Army.Base(), 300)
	s.P[0].WreckMP = 400 // seat 1 scores 400 under wrecked
	if a, b := s.winnerBy(ScoreBaseDamage), s.winnerBy(ScoreWrecked); a != 0 || b != 1 {
		t.Fatalf("base damage names %d, wrecked %d; want 0 and 1", a, b)
	}
	DamageBase(s.P[1].Army.Base(), 1000)
	if a, b := s.winnerBy(ScoreBaseDamage), s.winnerBy(ScoreWrecked); a != 0 || b != 0 {
		t.Fatalf("a destroyed Base: base damage names %d, wrecked %d", a, b)
	}
}

// renderEconomy renders the economy view of a result holding c's counts
// over games games.
func renderEconomy(t *testing.T, c *Counter, games int64) *game.Part {
	t.Helper()
	g := map[string]int64{}
	for _, s := range c.Sections() {
		if s.Key != game.GameSection {
			continue
		}
		for i, col := range s.Columns {
			g[col.Key] = s.Rows[0].Values[i]
		}
	}
	raw, _ := json.Marshal(rawCounts{Games: games, Game: g})
	p, err := economyView{}.Render(&game.ReportInput{Result: map[string]json.RawMessage{
		"raw": raw, "config": json.RawMessage(`{"bots":["greedy"]}`)}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEconomyView: the page table and sheet hold each figure per player
// and game with an interval around it, the shares within 0–1, the bot
// named; a result from before the counts has no economy.
func TestEconomyView(t *testing.T) {
	c, gained, _ := greedyGames(t, First(), 200)
	p := renderEconomy(t, c, 200)
	if p == nil || p.Section == nil || len(p.Sheets) != 2 || len(p.Section.Tables) != 2 {
		t.Fatalf("part %+v", p)
	}
	if !strings.Contains(p.Section.Tables[0].Note, "greedy bot") || !strings.Contains(p.Section.Tables[0].Note, "200 games") {
		t.Errorf("note %q does not say the bot and the games", p.Section.Tables[0].Note)
	}
	rows := map[string][]game.SheetCell{}
	for _, sh := range p.Sheets {
		for _, r := range sh.Rows {
			rows[r[0].Value.(string)] = r
			m, lo, hi := r[1].Value.(float64), r[2].Value.(float64), r[3].Value.(float64)
			if !(lo <= m && m <= hi) || math.IsNaN(m) {
				t.Errorf("%s: %v outside [%v, %v]", r[0].Value, m, lo, hi)
			}
		}
	}
	sum := 0.0
	for _, g := range gained {
		sum += float64(g)
	}
	if r := rows["MP gained"]; r == nil || math.Abs(r[1].Value.(float64)-sum/200/2) > 0.01 || r[3].Value.(float64)-r[2].Value.(float64) <= 0 {
		t.Errorf("MP gained per player and game %v, want %.2f with an interval", r, sum/400)
	}
	for _, k := range []string{"MP expired, share of MP gained", "reinforcements, share of reinforcements and ships played", "scoring rules agree on the winner, share of games"} {
		r := rows[k]
		if r == nil || r[1].Value.(float64) <= 0 || r[3].Value.(float64) > 1 {
			t.Errorf("%s: %v", k, r)
		}
	}
	raw, _ := json.Marshal(rawCounts{Games: 200, Game: map[string]int64{"mp_gained": 5}})
	if p, err := (economyView{}).Render(&game.ReportInput{Result: map[string]json.RawMessage{"raw": raw}}); p != nil || err != nil {
		t.Errorf("an older result: %+v, %v", p, err)
	}
}

// TestFirstPlayerStudy: the same deals with the ban as the ruleset has it
// and flipped; the study is deterministic for a seed and says its bot, and
// bad parameters are refused.
func TestFirstPlayerStudy(t *testing.T) {
	rs := First()
	var stop atomic.Bool
	res, err := rs.Study("first_player", map[string]string{"games": "200"}, &stop)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := rs.Study("first_player", map[string]string{"games": "200"}, &stop)
	sh := res.Tables[0]
	if len(sh.Rows) != 2 || sh.Rows[0][0].Value != "true" || sh.Rows[1][0].Value != "false" || sh.Rows[1][1].Value != "flipped" {
		t.Fatalf("rows %v", sh.Rows)
	}
	for i, r := range sh.Rows {
		w := r[3].Value.(float64)
		if w < 0.5 || w > 0.8 || r[4].Value.(float64) > w || r[5].Value.(float64) < w {
			t.Errorf("row %d: starter wins %v [%v, %v]", i, w, r[4].Value, r[5].Value)
		}
		if again.Tables[0].Rows[i][3] != r[3] {
			t.Errorf("the same seed gave %v, then %v", r[3], again.Tables[0].Rows[i][3])
		}
	}
	if !strings.Contains(strings.Join(res.Notes, " "), "greedy bot") || !strings.Contains(strings.Join(res.Notes, " "), "the ban moves") {
		t.Errorf("notes %q", res.Notes)
	}
	for _, p := range []map[string]string{{"games": "1"}, {"bots": "nope"}, {"seed": "-3"}, {"cards": "fighters"}} {
		if _, err := rs.Study("first_player", p, &stop); err == nil || !strings.HasPrefix(err.Error(), "spacetrace: ") {
			t.Errorf("%v: error %v", p, err)
		}
	}
	stop.Store(true)
	if _, err := rs.Study("first_player", nil, &stop); err != game.ErrStopped {
		t.Errorf("a stopped study: %v", err)
	}
}
