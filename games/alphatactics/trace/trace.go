// Package trace shows Alpha Tactics games to a designer: the trace of one
// game between bots (cardlab play, through the Game's game.Tracer) and a
// scenario's Reveal Phase played and its rows scored (cardlab score,
// through game.Scenarios). It moved out of cmd/cardlab unchanged, so every
// trace, score and message is byte for byte what it was.
package trace

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cardlab/cardlab/games/alphatactics/ai"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Play plays one game of rs between agents, players being the factions'
// ids in seat order and specs the bots' as the header names them, and
// writes its trace to w: text, or JSON with asJSON. revealAll shows
// face-down cards, drawn cards and bids. Nothing is written if the game
// fails.
func Play(w io.Writer, rs *rules.Ruleset, players []string, agents []ai.Agent, specs []string, seed uint64, asJSON, revealAll bool) error {
	tr := newTracer(rs, players, revealAll, asJSON)
	if !asJSON {
		fmt.Fprintf(&tr.buf, "%s %s: %s, seed %d, bots %s\n", rs.Name, rs.Version,
			strings.Join(players, " vs "), seed, strings.Join(specs, ", "))
	}
	s, err := engine.New(rs, engine.Config{Factions: players, Seed: seed, Observer: tr})
	if err != nil {
		return err
	}
	if err := runBots(s, agents, tr, func() bool { return s.IsTerminal() }); err != nil {
		return err
	}
	var out bytes.Buffer
	if asJSON {
		if err := writeJSON(&out, tr.gameJSON(s, seed, specs)); err != nil {
			return err
		}
	} else {
		out.Write(tr.buf.Bytes())
		if err := tr.writeFinal(&out, s); err != nil {
			return err
		}
	}
	_, err = w.Write(out.Bytes())
	return err
}

// runBots lets the agents decide until done reports true or nobody has a
// decision left. Before each Deployment turn it tells the tracer (if any), so
// that the trace can number the turns.
func runBots(s *engine.State, agents []ai.Agent, tr *tracer, done func() bool) error {
	buf := make([]engine.Action, 0, 256)
	for steps := 0; !done(); steps++ {
		p := s.CurrentPlayer()
		if p < 0 {
			return nil
		}
		if steps > 1_000_000 {
			return fmt.Errorf("the game did not end after %d decisions (an engine bug: please report it with the seed)", steps)
		}
		buf = s.LegalActions(buf)
		if len(buf) == 0 {
			return fmt.Errorf("no legal action for %s in the %s phase (an engine bug: please report it with the seed)",
				s.Ruleset().Factions[s.Faction(p)].ID, s.Phase())
		}
		a := agents[p].Choose(s, buf)
		if tr != nil && buf[len(buf)-1].Kind() == engine.ActPass {
			tr.turn++
			tr.turnPending = true
		}
		s.Apply(a)
	}
	return nil
}

// --- the trace ----------------------------------------------------------------

// tracer observes a game and writes a readable trace (and, for --json, keeps
// the events). It shows only what the table sees unless revealAll.
type tracer struct {
	rs        *rules.Ruleset
	players   []string
	revealAll bool
	keepJSON  bool
	// quiet suppresses the text trace (until the Reveal Phase of a scenario).
	quiet bool
	// sub is the indentation of lines within a turn or phase.
	sub int

	buf         bytes.Buffer
	events      []eventJSON
	scratch     handlers.RowScore
	turn        int
	turnPending bool
	deferred    []string // lines waiting for the turn's first line
	scoring     bool     // the round's Scoring header is written
}

func newTracer(rs *rules.Ruleset, players []string, revealAll, keepJSON bool) *tracer {
	return &tracer{rs: rs, players: players, revealAll: revealAll, keepJSON: keepJSON, sub: 6}
}

func (t *tracer) player(p int8) string {
	if p < 0 || int(p) >= len(t.players) {
		return "nobody"
	}
	return t.players[p]
}

func (t *tracer) cardName(def int16) string {
	if def < 0 || int(def) >= len(t.rs.Cards) {
		return "a card"
	}
	return oneLine(t.rs.Cards[def].Name)
}

// cardOf is "Galaxy (starfleet)".
func (t *tracer) cardOf(e engine.Event) string {
	return t.cardName(e.Card) + " (" + t.player(e.Player) + ")"
}

func (t *tracer) targetName(i int16) string {
	if i < 0 || int(i) >= len(t.rs.Targets) {
		return "no target"
	}
	return oneLine(t.rs.Targets[i].Name)
}

// targetDesc is "Earth (planet, federation, 4 VP)".
func targetDesc(tg *rules.Target) string {
	return fmt.Sprintf("%s (%s, %s, %d VP)", oneLine(tg.Name), tg.Type, tg.Affiliation, tg.VP)
}

// where is "row 2, card 3" (1-based).
func where(e engine.Event) string {
	return fmt.Sprintf("row %d, card %d", e.Row+1, e.Pos+1)
}

// hidden reports whether e's card is hidden from the table: drawn cards,
// sealed bids and cards placed face down. (A face-down card that is removed
// lands face up on its owner's discard pile, so the table sees it then.)
func (t *tracer) hidden(e engine.Event) bool {
	if t.revealAll {
		return false
	}
	switch e.Kind {
	case engine.EvBid:
		return true // no bid is sealed too
	case engine.EvDrawn:
		return e.Card >= 0
	case engine.EvPlaced:
		return e.Card >= 0 && !e.FaceUp
	}
	return false
}

// reasonText explains a blocked effect or how a row was won.
func reasonText(r string) string {
	switch r {
	case "deactivated":
		return "a Deactivated marker covers it"
	case "under_blocker":
		return "a blocker ship lies above it"
	case "scout":
		return "revealed without effect by a scout ship"
	case "power":
		return "highest combat power"
	case "combo":
		return "a Diplomat combination wins regardless of power"
	case "tie_top_card":
		return "tied on power; their card lies highest"
	case "combo_tie_top_card":
		return "several Diplomat combinations; their card lies highest"
	case "negotiated":
		return "took the target by Negotiations during the Reveal Phase"
	case "none":
		return "nobody has a card in this row"
	}
	return r
}

func (t *tracer) line(indent int, format string, args ...any) {
	if t.quiet {
		return
	}
	t.buf.WriteString(strings.Repeat(" ", indent))
	fmt.Fprintf(&t.buf, format, args...)
	t.buf.WriteByte('\n')
}

// act writes an event line: the first one after a Deployment turn began
// carries the turn number; the others are indented beneath it.
func (t *tracer) act(format string, args ...any) {
	if t.turnPending {
		t.turnPending = false
		t.line(2, "turn %d: "+format, append([]any{t.turn}, args...)...)
		for _, d := range t.deferred {
			t.line(t.sub, "%s", d)
		}
		t.deferred = t.deferred[:0]
		return
	}
	t.line(t.sub, format, args...)
}

// note is an event line that follows the turn's first line even when it
// happens before it (a reshuffle while drawing back up).
func (t *tracer) note(format string, args ...any) {
	if t.turnPending {
		t.deferred = append(t.deferred, fmt.Sprintf(format, args...))
		return
	}
	t.line(t.sub, format, args...)
}

// OnEvent implements engine.Observer.
func (t *tracer) OnEvent(s *engine.State, e engine.Event) {
	if t.keepJSON {
		t.events = append(t.events, t.eventJSON(e))
		return
	}
	switch e.Kind {
	case engine.EvRoundStart:
		t.scoring, t.turn = false, 0
		t.line(0, "\nRound %d: %s begins", int(e.Round)+1, t.player(e.Player))
	case engine.EvTargetLaid:
		t.line(2, "row %d: %s", e.Row+1, targetDesc(&t.rs.Targets[e.Target]))
	case engine.EvDrawn:
		// Hands are private; drawing is not traced (JSON has it).
	case engine.EvReshuffle:
		t.note("%s shuffles the discard pile into a new draw pile (%d cards)", t.player(e.Player), e.Value)
	case engine.EvPlaced:
		t.placed(s, e)
	case engine.EvShielded:
		t.act("%s protects it with %s", t.player(e.Player), t.cardName(e.Card))
	case engine.EvRevealed:
		t.act("%s: %s is revealed", where(e), t.cardOf(e))
	case engine.EvFired:
		t.act("%s: effect of %s fires", where(e), t.cardOf(e))
	case engine.EvBlocked:
		t.act("%s: effect of %s is blocked: %s", where(e), t.cardOf(e), reasonText(e.Reason.String()))
	case engine.EvFizzled:
		t.act("%s: effect of %s fizzles (it could do nothing)", where(e), t.cardOf(e))
	case engine.EvRemoved:
		if !e.FaceUp {
			t.act("%s: %s is removed face down (to the discard pile)", where(e), t.cardOf(e))
		} else {
			t.act("%s: %s is removed", where(e), t.cardOf(e))
		}
	case engine.EvMoved:
		t.act("%s moves from row %d to row %d, card %d", t.cardOf(e), e.Value+1, e.Row+1, e.Pos+1)
	case engine.EvPass:
		t.act("%s passes", t.player(e.Player))
	case engine.EvDiscarded:
		t.act("%s discards %s", t.player(e.Player), t.cardName(e.Card))
	case engine.EvSpied:
		t.act("%s sees every opponent's hand", t.player(e.Player))
	case engine.EvBid:
		// Sealed: whether a player takes part is hidden until all have
		// decided, as much as the card (the rulebook: revealed
		// simultaneously).
		switch {
		case !t.revealAll:
			t.act("%s decides on a sealed bid", t.player(e.Player))
		case e.Card < 0:
			t.act("%s decides to make no bid (sealed)", t.player(e.Player))
		default:
			t.act("%s bids %s (power %d), sealed", t.player(e.Player), t.cardName(e.Card), t.rs.Cards[e.Card].Power)
		}
	case engine.EvBidRevealed:
		if e.Card < 0 {
			t.act("%s made no bid", t.player(e.Player))
			break
		}
		t.act("%s's bid is shown: %s (power %d)", t.player(e.Player), t.cardName(e.Card), t.rs.Cards[e.Card].Power)
	case engine.EvNegotiated:
		t.act("%s takes %s (row %d) by Negotiations with a bid of power %d", t.player(e.Player), t.targetName(e.Target), e.Row+1, e.Value)
	case engine.EvDeploymentEnd:
		t.turnPending = false
		t.line(2, "the Deployment Phase ends (%s's turn)", t.player(e.Player))
	case engine.EvShieldsRemoved:
		t.turnPending = false
		switch e.Value {
		case 0:
			t.line(2, "Reveal Phase")
		case 1:
			t.line(2, "Reveal Phase: 1 shield removed")
		default:
			t.line(2, "Reveal Phase: %d shields removed", e.Value)
		}
	case engine.EvRowWon, engine.EvRowUnclaimed:
		t.rowScored(s, e)
	case engine.EvRoundEnd, engine.EvGameEnd:
	}
}

func (t *tracer) placed(s *engine.State, e engine.Event) {
	who := t.player(e.Player)
	if e.Row < 0 {
		t.act("%s plays %s", who, t.cardName(e.Card))
		return
	}
	at := fmt.Sprintf("row %d", e.Row+1)
	if int(e.Pos) != s.RowLen(int(e.Row))-1 {
		at += fmt.Sprintf(" at card %d", e.Pos+1) // inserted (Teleport, Gravitational Wave)
	}
	switch {
	case t.hidden(e):
		t.act("%s places a face-down card in %s", who, at)
	case !e.FaceUp:
		t.act("%s places %s face down in %s", who, t.cardName(e.Card), at)
	case e.Value == 1:
		t.act("%s places %s face up and without effect in %s", who, t.cardName(e.Card), at)
	default:
		t.act("%s places %s face up in %s", who, t.cardName(e.Card), at)
	}
}

// rowScored writes a row's outcome at scoring; the row is still on the table,
// so ScoreRow gives every player's combat power.
func (t *tracer) rowScored(s *engine.State, e engine.Event) {
	if !t.scoring {
		t.scoring = true
		t.line(2, "Scoring")
	}
	r := int(e.Row)
	res := s.ScoreRow(r, &t.scratch)
	var powers []string
	for p := range t.players {
		if res.HasCards[p] {
			powers = append(powers, fmt.Sprintf("%s %d", t.players[p], res.Power[p]))
		}
	}
	name := t.targetName(e.Target)
	if e.Kind == engine.EvRowUnclaimed {
		what := "it stays unclaimed"
		if e.Value == 1 {
			what = "the target goes back under the target pile"
		}
		t.line(4, "row %d, %s: no cards; %s", r+1, name, what)
		return
	}
	t.line(4, "row %d, %s: %s -> %s wins (%s)", r+1, name, strings.Join(powers, ", "), t.player(e.Player), reasonText(e.Reason.String()))
}

// writeFinal writes the end-of-game breakdown and the winners.
func (t *tracer) writeFinal(w io.Writer, s *engine.State) error {
	fmt.Fprintf(w, "\nFinal score\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  PLAYER\tTARGETS\tTARGET VP\tBONUS VP\tPLANET BONUS\tTOTAL\tPLANETS")
	for p, id := range t.players {
		f := s.FinalScore(p)
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%d\t%d\t%d\n", id, f.Targets, f.TargetVP, f.BonusVP, f.PlanetBonus, f.Total, f.Planets)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for p, id := range t.players {
		var names []string
		for _, ti := range s.Won(p) {
			names = append(names, oneLine(t.rs.Targets[ti].Name))
		}
		if len(names) == 0 {
			names = []string{"none"}
		}
		fmt.Fprintf(w, "  %s: %s\n", id, strings.Join(names, ", "))
	}
	winners := t.winners(s)
	if len(winners) == 1 {
		_, err := fmt.Fprintf(w, "Winner: %s\n", winners[0])
		return err
	}
	_, err := fmt.Fprintf(w, "Shared victory: %s\n", strings.Join(winners, ", "))
	return err
}

func (t *tracer) winners(s *engine.State) []string {
	ret := s.Returns()
	out := []string{}
	for p, id := range t.players {
		if ret[p] > 0 {
			out = append(out, id)
		}
	}
	return out
}

// --- JSON ---------------------------------------------------------------------

type eventJSON struct {
	Kind   string  `json:"kind"`
	Round  int     `json:"round"`
	Player *string `json:"player"`
	Row    *int    `json:"row"`
	Pos    *int    `json:"pos"`
	Card   *string `json:"card"`
	Target *string `json:"target"`
	Value  int32   `json:"value"`
	Reason *string `json:"reason"`
	FaceUp bool    `json:"face_up"`
}

type finalJSON struct {
	Player      string   `json:"player"`
	TargetVP    int      `json:"target_vp"`
	BonusVP     int      `json:"bonus_vp"`
	PlanetBonus int      `json:"planet_bonus"`
	Total       int      `json:"total"`
	Planets     int      `json:"planets"`
	Targets     []string `json:"targets"`
	Share       float64  `json:"share"`
}

type gameJSON struct {
	Seed    uint64      `json:"seed"`
	Players []string    `json:"players"`
	Bots    []string    `json:"bots"`
	Events  []eventJSON `json:"events"`
	Final   []finalJSON `json:"final"`
	Winners []string    `json:"winners"`
}

func ptr[T any](v T) *T { return &v }

func (t *tracer) eventJSON(e engine.Event) eventJSON {
	j := eventJSON{Kind: e.Kind.String(), Round: int(e.Round) + 1, Value: e.Value, FaceUp: e.FaceUp}
	if e.Player >= 0 && int(e.Player) < len(t.players) {
		j.Player = ptr(t.players[e.Player])
	}
	if e.Row >= 0 {
		j.Row = ptr(int(e.Row) + 1)
	}
	if e.Pos >= 0 {
		j.Pos = ptr(int(e.Pos) + 1)
	}
	if e.Card >= 0 && int(e.Card) < len(t.rs.Cards) && !t.hidden(e) {
		j.Card = ptr(t.rs.Cards[e.Card].ID)
	}
	if e.Target >= 0 && int(e.Target) < len(t.rs.Targets) {
		j.Target = ptr(t.rs.Targets[e.Target].ID)
	}
	if e.Reason != engine.ReasonNone {
		j.Reason = ptr(e.Reason.String())
	}
	return j
}

func (t *tracer) gameJSON(s *engine.State, seed uint64, bots []string) gameJSON {
	out := gameJSON{Seed: seed, Players: t.players, Bots: bots, Events: t.events, Winners: t.winners(s)}
	if out.Events == nil {
		out.Events = []eventJSON{}
	}
	for p, id := range t.players {
		f := s.FinalScore(p)
		fj := finalJSON{Player: id, TargetVP: f.TargetVP, BonusVP: f.BonusVP, PlanetBonus: f.PlanetBonus,
			Total: f.Total, Planets: f.Planets, Targets: []string{}, Share: s.Returns()[p]}
		for _, ti := range s.Won(p) {
			fj.Targets = append(fj.Targets, t.rs.Targets[ti].ID)
		}
		out.Final = append(out.Final, fj)
	}
	return out
}

// oneLine replaces line breaks and tabs so free text cannot break a line or
// a table.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
