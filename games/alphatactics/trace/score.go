package trace

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cardlab/cardlab/games/alphatactics/ai"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/handlers"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
	"github.com/cardlab/cardlab/games/alphatactics/scenario"
)

// Score runs the scenario's Reveal Phase with agents making every choice,
// scores each row and writes the rows to w (as JSON with asJSON). The
// results are what sc.Check compares with the scenario's expect: list.
func Score(w io.Writer, sc *scenario.Scenario, agents []ai.Agent, asJSON bool) ([]scenario.Result, error) {
	rows, reveal, err := scoreScenario(sc, agents)
	if err != nil {
		return nil, err
	}
	var out strings.Builder
	if asJSON {
		err = writeJSON(&out, struct {
			Rows []scoredRow `json:"rows"`
		}{rows})
	} else {
		err = writeScoreText(&out, sc, rows, reveal)
	}
	if err != nil {
		return nil, err
	}
	if _, err := io.WriteString(w, out.String()); err != nil {
		return nil, err
	}
	results := make([]scenario.Result, len(rows))
	for i, r := range rows {
		win := "none"
		if r.Winner != nil {
			win = *r.Winner
		}
		results[i] = scenario.Result{Row: r.Row, Winner: win, Reason: r.Reason, Power: r.Power}
	}
	return results, nil
}

// writeJSON writes v indented, HTML characters as they are: the commands'
// JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// scoredRow is one row of `cardlab score`.
type scoredRow struct {
	Row        int            `json:"row"`
	Target     string         `json:"target"`
	Winner     *string        `json:"winner"`
	Reason     string         `json:"reason"`
	Power      map[string]int `json:"power"`
	Cards      []scoredCard   `json:"cards"`
	targetIdx  int
	negotiated int32 // winning bid when negotiated
}

type scoredCard struct {
	Pos              int     `json:"pos"`
	Card             string  `json:"card"`
	Name             string  `json:"name"`
	Owner            string  `json:"owner"`
	Base             int     `json:"base"`
	Power            int     `json:"power"`
	Effect           string  `json:"effect"`
	Blocked          *string `json:"blocked"`
	Stolen           bool    `json:"stolen"`
	Weakened         int     `json:"weakened"`
	PowerDeactivated bool    `json:"power_deactivated"`
}

// scoreScenario runs the scenario's Reveal Phase with the agents making every
// choice and scores each row. It returns the rows and the Reveal Phase trace.
func scoreScenario(sc *scenario.Scenario, agents []ai.Agent) ([]scoredRow, string, error) {
	rs := sc.Ruleset
	tr := newTracer(rs, sc.Players, true, false)
	tr.quiet, tr.sub = true, 2
	negotiated := map[int]engine.Event{}
	obs := engine.ObserverFunc(func(s *engine.State, e engine.Event) {
		switch e.Kind {
		case engine.EvShieldsRemoved:
			tr.quiet = false
			return // the header is written by the caller
		case engine.EvNegotiated:
			negotiated[int(e.Row)] = e
		}
		tr.OnEvent(s, e)
	})
	su := sc.Setup()
	su.Observer = obs
	s, err := engine.NewSetup(rs, su)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", sc.Name, err)
	}
	if err := runBots(s, agents, nil, func() bool { return s.Phase() == engine.Scoring || s.IsTerminal() }); err != nil {
		return nil, "", err
	}
	if s.Phase() != engine.Scoring {
		return nil, "", fmt.Errorf("%s: the Reveal Phase did not stop before scoring (phase %s)", sc.Name, s.Phase())
	}

	scratch := new(handlers.RowScore)
	rows := make([]scoredRow, 0, s.NumRows())
	for r := 0; r < s.NumRows(); r++ {
		res := s.ScoreRow(r, scratch)
		row := scoredRow{Row: r + 1, Power: map[string]int{}, Cards: []scoredCard{}, targetIdx: res.Target}
		for p, id := range sc.Players {
			row.Power[id] = res.Power[p]
		}
		for k := 0; k < s.RowLen(r); k++ {
			in := s.Slot(engine.Omniscient, r, k)
			c := &rs.Cards[in.Card]
			sc := &scratch.Cards[k]
			card := scoredCard{
				Pos: k + 1, Card: c.ID, Name: c.Name, Owner: tr.players[in.Owner], Base: c.Power,
				Power: max(0, sc.Base+sc.Mod+sc.Bonus), Effect: "none", Stolen: sc.Stolen,
				Weakened: in.Weakened, PowerDeactivated: in.PowerCover,
			}
			switch {
			case c.Effect == nil:
			case in.Active:
				card.Effect = "active"
			default:
				card.Effect = "blocked"
				card.Blocked = ptr(in.Blocked.String())
			}
			row.Cards = append(row.Cards, card)
		}
		switch ev, ok := negotiated[r]; {
		case res.Target < 0 && ok:
			row.targetIdx = int(ev.Target)
			row.Winner = ptr(sc.Players[ev.Player])
			row.Reason = "negotiated"
			row.negotiated = ev.Value
		case res.Winner >= 0:
			row.Winner = ptr(sc.Players[res.Winner])
			row.Reason = res.Reason.String()
		default:
			row.Reason = "none"
		}
		if row.targetIdx >= 0 {
			row.Target = rs.Targets[row.targetIdx].ID
		}
		rows = append(rows, row)
	}
	return rows, tr.buf.String(), nil
}

func writeScoreText(w io.Writer, sc *scenario.Scenario, rows []scoredRow, reveal string) error {
	rs := sc.Ruleset
	fmt.Fprintf(w, "%s: %s", sc.Name, strings.Join(sc.Players, " vs "))
	if sc.HasSeed {
		fmt.Fprintf(w, ", seed %d", sc.Seed)
	}
	fmt.Fprintln(w)
	if reveal == "" {
		fmt.Fprintln(w, "\nReveal Phase: every card is face up already")
	} else {
		fmt.Fprintf(w, "\nReveal Phase\n%s", reveal)
	}
	for _, row := range rows {
		target := "(no target)"
		if row.targetIdx >= 0 {
			target = targetDesc(&rs.Targets[row.targetIdx])
		}
		fmt.Fprintf(w, "\nRow %d: %s\n", row.Row, target)
		if len(row.Cards) == 0 {
			fmt.Fprintln(w, "  no cards")
		} else {
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  #\tOWNER\tCARD\tBASE\tPOWER\tEFFECT")
			for _, c := range row.Cards {
				fmt.Fprintf(tw, "  %d\t%s\t%s\t%d\t%d\t%s\n", c.Pos, c.Owner, oneLine(c.Name), c.Base, c.Power, cardNotes(rs, c))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		// Players with a card in the row (all of them for an empty row).
		var powers []string
		for _, id := range sc.Players {
			in := len(row.Cards) == 0
			for _, c := range row.Cards {
				in = in || c.Owner == id
			}
			if in {
				powers = append(powers, fmt.Sprintf("%s %d", id, row.Power[id]))
			}
		}
		fmt.Fprintf(w, "  power: %s\n", strings.Join(powers, ", "))
		switch {
		case row.Reason == "negotiated":
			fmt.Fprintf(w, "  winner: %s (negotiated: took the target by Negotiations with a bid of power %d during the Reveal Phase)\n", *row.Winner, row.negotiated)
		case row.Winner == nil:
			fmt.Fprintf(w, "  winner: none (%s)\n", reasonText(row.Reason))
		default:
			fmt.Fprintf(w, "  winner: %s (%s: %s)\n", *row.Winner, row.Reason, reasonText(row.Reason))
		}
	}
	return nil
}

// cardNotes describes a card's effect state and what changed its power.
func cardNotes(rs *rules.Ruleset, c scoredCard) string {
	var notes []string
	switch c.Effect {
	case "active":
		def, _ := rs.CardByID(c.Card)
		notes = append(notes, "active ("+def.Effect.Handler+")")
	case "blocked":
		notes = append(notes, "blocked: "+reasonText(*c.Blocked))
	}
	if c.Stolen {
		notes = append(notes, "base power taken by a deflector")
	}
	if c.Weakened > 0 {
		notes = append(notes, fmt.Sprintf("weakened by %d", c.Weakened))
	}
	if c.PowerDeactivated {
		notes = append(notes, "power deactivated")
	}
	if len(notes) == 0 {
		return "-"
	}
	return strings.Join(notes, "; ")
}
