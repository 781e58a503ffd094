package spacetrace

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/cardlab/cardlab/game"
)

// The report's economy (brief §4a.4 and §4a.7): what the Counter counted
// of the run's games — MP gained, spent and expired, the 3-card discards,
// the reinforcements' share of the cards played — per player and game
// with 95% intervals, and whether the two scoring rules name the same
// winner. It reads results.json's raw per-game counts (Counter.Sections'
// game section), so a report rendered again from results.json shows it.

type economyView struct{}

func (economyView) ID() string { return "spacetrace-economy" }

// rawCounts is what the view reads of results.json's "raw".
type rawCounts struct {
	Games int64            `json:"games"`
	Game  map[string]int64 `json:"game"`
}

// econRow is one figure of the economy table.
type econRow struct {
	figure, doc  string
	mean, lo, hi float64
	share        bool // a share (0–1), not a count
}

// Render implements game.View.
func (economyView) Render(r *game.ReportInput) (*game.Part, error) {
	raw, ok := r.Result["raw"]
	if !ok {
		return nil, nil
	}
	var rc rawCounts
	if err := json.Unmarshal(raw, &rc); err != nil {
		return nil, fmt.Errorf("spacetrace: the result's raw counts: %w", err)
	}
	g := rc.Game
	if _, ok := g["mp_gained_sq"]; !ok || rc.Games < 2 {
		return nil, nil // an older result, or too few games for an interval
	}
	bots := "the run's bots"
	if c, ok := r.Result["config"]; ok {
		var cfg struct {
			Bots []string `json:"bots"`
		}
		if json.Unmarshal(c, &cfg) == nil && len(cfg.Bots) > 0 {
			bots = "the " + strings.Join(cfg.Bots, ", ") + " bot"
			if len(cfg.Bots) > 1 {
				bots += "s"
			}
		}
	}
	rows := economyRows(g, float64(rc.Games))
	counts := econSheet("Economy", "0.00", "its mean over the run's games, per player (a game's count halved)")
	shares := econSheet("Economy shares", "0.0%", "the ratio of the totals over the run's games (the agreement: the share of games)")
	for _, e := range rows {
		sh := &counts
		if e.share {
			sh = &shares
		}
		sh.Rows = append(sh.Rows, []game.SheetCell{{Value: e.figure}, {Value: round4(e.mean)}, {Value: round4(e.lo)}, {Value: round4(e.hi)}, {Value: e.doc}})
	}
	note := fmt.Sprintf("From the report's %d games of %s (not the card-value experiment's).", rc.Games, bots)
	sec := &game.PageSection{ID: "economy", Title: "Economy and scoring",
		Tables: []game.PageTable{
			{Title: "Economy per player and game", Note: note + " Per player is a game's count halved: both seats averaged.", Sheet: counts},
			{Title: "Shares of the economy, and do the scoring rules agree?", Note: note + " The agreement reads the other scoring rule off each game's final table.", Sheet: shares}},
		MethodsTitle: "Economy and scoring",
		Methods: []game.Span{{Text: "The economy", Bold: true},
			{Text: " counts every game of the run: MP gained (reinforcements and 3-card discards for MP), spent (cards paid for) and expired (left in a pool at the end of a turn, T1), the 3-card discards (T4) and the cards played. Each figure's interval is the normal one over games (each game's count and its square are kept); a share's — MP expired of MP gained, reinforcements of the cards played — by the delta method over the same games (a game's cross product is kept too). "},
			{Text: "Scoring agreement", Bold: true},
			{Text: " asks of each finished game whether the other scoring rule (E3 base damage against E4 wrecked ships) names the same winner or draw; its interval is Wilson's. The run plays one rule; the other is only read off the same final table, so a game played for the other rule may have gone differently."}},
	}
	return &game.Part{Section: sec, Sheets: []game.Sheet{counts, shares}}, nil
}

// econSheet is an economy table with its columns: figures in format.
func econSheet(name, format, meanDoc string) game.Sheet {
	return game.Sheet{Name: name, Columns: []game.SheetColumn{
		{Head: "figure", Width: 34, Doc: "what is counted"},
		{Head: "mean", Format: format, Doc: meanDoc},
		{Head: "ci95 low", Format: format, Doc: "the 95% interval's lower end (normal over games; a share's by the delta method, the agreement's by Wilson)"},
		{Head: "ci95 high", Format: format, Doc: "the 95% interval's upper end"},
		{Head: "how", Width: 60, Doc: "how the figure is counted"},
	}}
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// economyRows are the economy's figures from the game section's totals g
// over n games.
func economyRows(g map[string]int64, n float64) []econRow {
	var out []econRow
	stat := func(key string) (mean, varr float64) {
		s, q := float64(g[key]), float64(g[key+"_sq"])
		mean = s / n
		varr = max(0, (q-s*s/n)/(n-1))
		return mean, varr
	}
	perPlayer := func(figure, key, doc string) {
		m, v := stat(key)
		h := 1.96 * math.Sqrt(v/n) / 2
		out = append(out, econRow{figure: figure, doc: doc, mean: m / 2, lo: m/2 - h, hi: m/2 + h})
	}
	// ratio is the share sx/sy of two per-game counts with its delta-method
	// interval; cxy is the sum over games of their product.
	ratio := func(figure, doc string, sx, qx, sy, qy, cxy float64) {
		if sy <= 0 {
			return
		}
		mx, my := sx/n, sy/n
		vx, vy := (qx-sx*sx/n)/(n-1), (qy-sy*sy/n)/(n-1)
		cv := (cxy - sx*sy/n) / (n - 1)
		r := mx / my
		se := math.Sqrt(max(0, vx-2*r*cv+r*r*vy)/n) / my
		out = append(out, econRow{figure: figure, doc: doc, mean: r, lo: max(0, r-1.96*se), hi: min(1, r+1.96*se), share: true})
	}
	perPlayer("MP gained", "mp_gained", "reinforcements' MP and 3-card discards for MP")
	perPlayer("MP spent", "mp_spent", "MP paid for cards")
	perPlayer("MP expired", "mp_expired", "MP left in the pool at the end of a turn (T1)")
	ratio("MP expired, share of MP gained", "MP expired ÷ MP gained, over all games",
		float64(g["mp_expired"]), float64(g["mp_expired_sq"]), float64(g["mp_gained"]), float64(g["mp_gained_sq"]), float64(g["mp_gained_x_expired"]))
	perPlayer("3-card discards for MP", "discards_mp", "3-card discards for discard3.mp MP (T4)")
	perPlayer("3-card discards for a card", "discards_draw", "3-card discards for a card (T4)")
	perPlayer("reinforcements played", "reinforcements_played", "reinforcement cards played")
	perPlayer("ships played", "ships_played", "ship cards played")
	// The reinforcements' share of the cards played: y = reinforcements +
	// ships, so var(y) and cov(x, y) come from the two counts and their
	// cross product.
	sr, qr := float64(g["reinforcements_played"]), float64(g["reinforcements_played_sq"])
	ss, qs := float64(g["ships_played"]), float64(g["ships_played_sq"])
	crs := float64(g["reinforcements_x_ships"])
	ratio("reinforcements, share of reinforcements and ships played", "reinforcements played ÷ (reinforcements + ships played), over all games",
		sr, qr, sr+ss, qr+qs+2*crs, qr+crs)
	agree, dis := float64(g["scoring_agree"]), float64(g["scoring_disagree"])
	if t := agree + dis; t > 0 {
		lo, hi := wilson(agree, t)
		out = append(out, econRow{figure: "scoring rules agree on the winner, share of games",
			doc: "the other scoring rule (E3 base damage, E4 wrecked ships) names the same winner or draw on the game's final table", mean: agree / t, lo: lo, hi: hi, share: true})
	}
	return out
}

// wilson is the 95% Wilson score interval of k successes in n trials.
func wilson(k, n float64) (lo, hi float64) {
	const z = 1.959963984540054
	p := k / n
	d := 1 + z*z/n
	c := (p + z*z/(2*n)) / d
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / d
	return max(0, c-h), min(1, c+h)
}
