package goofspiel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cardlab/cardlab/game"
)

// What the command line asks of Goofspiel: the trace of one game (cardlab
// play) and the card list (cardlab cards). It has no scenarios — a position
// is two hands of numbers and a prize — and no effect handlers.
var (
	_ game.Tracer     = Game{}
	_ game.Cataloger  = Game{}
	_ game.ValueFacer = Game{}
)

// seatName is how traces name seat p: every seat plays the one side, so
// seats go by number.
func seatName(p int) string { return "player " + strconv.Itoa(p+1) }

// tieText says what a tie for the highest bid does under rs's rule.
func tieText(rs *Ruleset) string {
	if rs.Ties == Carry {
		return "a tie for the highest bid carries the prize's points to the next prize"
	}
	return "a tie for the highest bid discards the prize"
}

// tracedTurn is one settled turn of a trace.
type tracedTurn struct {
	Turn   int     `json:"turn"`
	Prize  int     `json:"prize"`
	Pot    int     `json:"pot"` // the prize and the points carried to it
	Bids   []int   `json:"bids"`
	Winner *string `json:"winner"` // null on a tie for the highest bid
	Points int     `json:"points"` // what the winner took (0 on a tie)
	scores []int   // every seat's points after the turn
	high   int     // the highest bid
}

// Trace implements game.Tracer: each turn's prize (and any points carried
// to it), the bids once they are shown — all at once, as the table sees
// them — who takes the prize or the tie that discards or carries it, and
// the points so far; then the final score. The prize deck's order is
// hidden from the table; t.RevealAll shows it first.
func (Game) Trace(w io.Writer, grs game.Ruleset, t game.TraceRequest) error {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return fmt.Errorf("goofspiel: a trace of a %s ruleset", grs.Game())
	}
	if len(t.Agents) != len(t.Seats) {
		return fmt.Errorf("goofspiel: %d agents for %d seats", len(t.Agents), len(t.Seats))
	}
	gs, err := rs.NewState(t.Seats, t.Seed)
	if err != nil {
		return err
	}
	s := gs.(*State)
	n := s.NumSeats()
	var deck []int
	for i := 0; i < s.turns; i++ {
		deck = append(deck, rs.Prizes[s.deck[i]])
	}
	var turns []tracedTurn
	legal := make([]game.Action, 0, MaxCards)
	for steps := 0; !s.IsTerminal(); steps++ {
		if steps > game.MaxDecisions {
			return fmt.Errorf("goofspiel: the game did not end after %d decisions (a bug: please report it with the seed)", steps)
		}
		turn, prize, pot := s.Turn(), s.Prize(), s.Pot()
		for p := 0; p < n; p++ { // one bid a seat, in seat order
			legal = s.LegalActions(legal)
			if len(legal) == 0 {
				return fmt.Errorf("goofspiel: no legal bid for %s (a bug: please report it with the seed)", seatName(p))
			}
			a := t.Agents[p].Choose(s, legal)
			if !containsAction(legal, a) {
				return fmt.Errorf("goofspiel: the bot of %s (%s) bid %d, which it does not hold", seatName(p), botOf(t, p), a)
			}
			s.Apply(a)
		}
		tt := tracedTurn{Turn: turn + 1, Prize: prize, Pot: pot, Bids: make([]int, n), scores: make([]int, n)}
		last := s.LastBids()
		winner := -1
		for p := 0; p < n; p++ {
			b := int(last[p])
			tt.Bids[p] = b
			switch {
			case b > tt.high:
				tt.high, winner = b, p
			case b == tt.high:
				winner = -1
			}
			tt.scores[p] = s.Score(p)
		}
		if winner >= 0 {
			tt.Winner, tt.Points = ptr(seatName(winner)), pot
		}
		turns = append(turns, tt)
	}
	var out bytes.Buffer
	if t.JSON {
		err = traceJSON(&out, s, t, deck, turns)
	} else {
		err = traceText(&out, rs, s, t, deck, turns)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(out.Bytes())
	return err
}

func containsAction(legal []game.Action, a game.Action) bool {
	for _, b := range legal {
		if a == b {
			return true
		}
	}
	return false
}

func botOf(t game.TraceRequest, p int) string {
	if p < len(t.Bots) {
		return t.Bots[p]
	}
	return "?"
}

func ptr[T any](v T) *T { return &v }

func traceText(w *bytes.Buffer, rs *Ruleset, s *State, t game.TraceRequest, deck []int, turns []tracedTurn) error {
	n := s.NumSeats()
	fmt.Fprintf(w, "%s %s: %d players, seed %d, bots %s\n", oneLine(rs.Name), oneLine(rs.Version), n, t.Seed, strings.Join(t.Bots, ", "))
	fmt.Fprintf(w, "Each holds the bid cards 1..%d; %d prizes worth %d points in all; %s.\n",
		rs.HandSize, len(rs.Prizes), sum(rs.Prizes), tieText(rs))
	if t.RevealAll {
		fmt.Fprintf(w, "Prize deck, top first (hidden from the players): %s\n", joinInts(deck, " "))
	}
	for _, tt := range turns {
		fmt.Fprintf(w, "\nTurn %d: prize %d", tt.Turn, tt.Prize)
		if tt.Pot != tt.Prize {
			fmt.Fprintf(w, " (+%d carried: %d at stake)", tt.Pot-tt.Prize, tt.Pot)
		}
		fmt.Fprintln(w)
		bids := make([]string, n)
		for p, b := range tt.Bids {
			bids[p] = fmt.Sprintf("%s bids %d", seatName(p), b)
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(bids, ", "))
		switch {
		case tt.Winner != nil:
			fmt.Fprintf(w, "  %s takes the prize, %d %s, with the highest bid (%d)\n", *tt.Winner, tt.Points, plural(tt.Points, "point", "points"), tt.high)
		case rs.Ties == Carry && tt.Turn < len(turns):
			fmt.Fprintf(w, "  tie at %d: the %d %s carry to the next prize\n", tt.high, tt.Pot, plural(tt.Pot, "point", "points"))
		case rs.Ties == Carry:
			fmt.Fprintf(w, "  tie at %d on the last prize: its %d %s go to nobody\n", tt.high, tt.Pot, plural(tt.Pot, "point", "points"))
		default:
			fmt.Fprintf(w, "  tie at %d: the prize is discarded\n", tt.high)
		}
		pts := make([]string, n)
		for p, v := range tt.scores {
			pts[p] = fmt.Sprintf("%s %d", seatName(p), v)
		}
		fmt.Fprintf(w, "  points: %s\n", strings.Join(pts, ", "))
	}
	fmt.Fprintf(w, "\nFinal score\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  PLAYER\tBOT\tPOINTS\tPRIZES")
	for p := 0; p < n; p++ {
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\n", seatName(p), botOf(t, p), s.Score(p), s.taken[p])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	win := winners(s)
	if len(win) == 1 {
		_, err := fmt.Fprintf(w, "Winner: %s\n", win[0])
		return err
	}
	_, err := fmt.Fprintf(w, "Shared victory: %s\n", strings.Join(win, ", "))
	return err
}

func winners(s *State) []string {
	ret := s.Returns()
	out := []string{}
	for p := 0; p < s.NumSeats(); p++ {
		if ret[p] > 0 {
			out = append(out, seatName(p))
		}
	}
	return out
}

func traceJSON(w io.Writer, s *State, t game.TraceRequest, deck []int, turns []tracedTurn) error {
	type final struct {
		Player string  `json:"player"`
		Points int     `json:"points"`
		Prizes int     `json:"prizes"`
		Share  float64 `json:"share"`
	}
	out := struct {
		Game      string       `json:"game"`
		Seed      uint64       `json:"seed"`
		Players   []string     `json:"players"`
		Bots      []string     `json:"bots"`
		PrizeDeck []int        `json:"prize_deck"` // null unless --reveal-all
		Turns     []tracedTurn `json:"turns"`
		Final     []final      `json:"final"`
		Winners   []string     `json:"winners"`
	}{Game: ID, Seed: t.Seed, Bots: t.Bots, Turns: turns, Winners: winners(s)}
	if t.RevealAll {
		out.PrizeDeck = deck
	}
	ret := s.Returns()
	for p := 0; p < s.NumSeats(); p++ {
		out.Players = append(out.Players, seatName(p))
		out.Final = append(out.Final, final{Player: seatName(p), Points: s.Score(p), Prizes: int(s.taken[p]), Share: ret[p]})
	}
	return writeJSON(w, out)
}

// writeJSON writes v indented, HTML characters as they are: the commands'
// JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func sum(v []int) int {
	t := 0
	for _, x := range v {
		t += x
	}
	return t
}

func joinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// oneLine keeps free text from the ruleset on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Catalog implements game.Cataloger: the bid cards every player holds and
// the prize deck in rules.yaml's order with its total; side 0 (the
// player's cards) lists the hand only.
func (Game) Catalog(w io.Writer, grs game.Ruleset, side int, format string) error {
	rs, ok := grs.(*Ruleset)
	if !ok {
		return fmt.Errorf("goofspiel: the cards of a %s ruleset", grs.Game())
	}
	if side > 0 {
		return fmt.Errorf("goofspiel: no side %d (the one side is 0, player)", side)
	}
	withPrizes := side < 0
	var hand, prizes []game.Card
	for _, c := range rs.Cards() {
		if c.Side == 0 {
			hand = append(hand, c)
		} else {
			prizes = append(prizes, c)
		}
	}
	var buf bytes.Buffer
	switch format {
	case "json":
		type card struct {
			ID    string `json:"id"`
			Value int    `json:"value"`
		}
		type players struct {
			Min int `json:"min"`
			Max int `json:"max"`
		}
		out := struct {
			Game       string  `json:"game"`
			Name       string  `json:"name"`
			Version    string  `json:"version"`
			Players    players `json:"players"`
			Ties       string  `json:"ties"`
			Hand       []card  `json:"hand"`
			Prizes     []card  `json:"prizes"`
			PrizeTotal int     `json:"prize_total"`
		}{Game: ID, Name: rs.Name, Version: rs.Version, Players: players{rs.MinPlayers, rs.MaxPlayers},
			Ties: tieNames[rs.Ties], Hand: []card{}, Prizes: []card{}}
		for _, c := range hand {
			out.Hand = append(out.Hand, card{c.ID, c.Columns[0].Int})
		}
		if withPrizes {
			for _, c := range prizes {
				out.Prizes = append(out.Prizes, card{c.ID, c.Columns[0].Int})
			}
		}
		out.PrizeTotal = sum(rs.Prizes) // the deck's, listed or not
		if err := writeJSON(&buf, out); err != nil {
			return err
		}
	case "md":
		fmt.Fprintf(&buf, "# %s %s\n\n%d to %d players; %s.\n", mdEscape(rs.Name), mdEscape(rs.Version), rs.MinPlayers, rs.MaxPlayers, tieText(rs))
		fmt.Fprintf(&buf, "\n## Hand — %d bid cards, each player\n\n| id | name | value |\n|---|---|--:|\n", len(hand))
		for _, c := range hand {
			fmt.Fprintf(&buf, "| `%s` | %s | %d |\n", c.ID, c.Name, c.Columns[0].Int)
		}
		if withPrizes {
			fmt.Fprintf(&buf, "\n## Prizes — %d cards, %d points\n\n| id | name | value |\n|---|---|--:|\n", len(prizes), sum(rs.Prizes))
			for _, c := range prizes {
				fmt.Fprintf(&buf, "| `%s` | %s | %d |\n", c.ID, c.Name, c.Columns[0].Int)
			}
		}
	case "table":
		fmt.Fprintf(&buf, "%s %s: %d to %d players; %s\n", oneLine(rs.Name), oneLine(rs.Version), rs.MinPlayers, rs.MaxPlayers, tieText(rs))
		fmt.Fprintf(&buf, "\nHand: every player holds these %d bid cards and bids each once\n", len(hand))
		if err := cardTable(&buf, hand); err != nil {
			return err
		}
		if withPrizes {
			fmt.Fprintf(&buf, "\nPrizes: %d cards worth %d points, shuffled and turned up one a turn\n", len(prizes), sum(rs.Prizes))
			if err := cardTable(&buf, prizes); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("goofspiel: no card list format %q (table, md, json)", format)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func cardTable(w io.Writer, cs []game.Card) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tVALUE")
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%s\t%d\n", c.ID, c.Name, c.Columns[0].Int)
	}
	return tw.Flush()
}

// mdEscape keeps free text from the ruleset (its name and version) text in
// Markdown, never markup.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '#', '~', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
