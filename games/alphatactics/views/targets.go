package views

import (
	"fmt"

	"github.com/cardlab/cardlab/game"
)

// Targets is the view of who takes each target: the Targets section of the
// page (a chart of the capture shares by faction), the Targets sheet, the
// Diff targets sheet, the targets' names for the list of changes, and the
// rules' rounds (every target laid out once) where the report shows a
// game's length.
type Targets struct{}

// ID implements game.View.
func (Targets) ID() string { return "targets" }

// targetStats is one target's figures in results.json ("targets").
type targetStats struct {
	ID          string                  `json:"id"`
	Name        string                  `json:"name"`
	Laid        int64                   `json:"laid"`
	Won         int64                   `json:"won"`
	Negotiated  int64                   `json:"negotiated"`
	Unclaimed   int64                   `json:"unclaimed"`
	Captured    int64                   `json:"captured"`
	CaptureRate float64                 `json:"capture_rate"`
	Captures    map[string]captureShare `json:"captures"`
	MeanMargin  float64                 `json:"mean_margin"`
	MarginSD    float64                 `json:"margin_sd"`
	TieRate     float64                 `json:"tie_rate"`
	LowN        bool                    `json:"low_n"`
}

type captureShare struct {
	Share float64    `json:"share"`
	CI95  [2]float64 `json:"ci95"`
}

// targetDelta is one target of results.json's "diff" → "targets".
type targetDelta struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	Changed     bool       `json:"changed"`
	CaptureRate valueDelta `json:"capture_rate"`
	MeanMargin  valueDelta `json:"mean_margin"`
	TieRate     valueDelta `json:"tie_rate"`
	LaidPerGame valueDelta `json:"laid_per_game"`
}

type valueDelta struct {
	Delta float64 `json:"delta"`
}

// Render implements game.View.
func (Targets) Render(r *game.ReportInput) (*game.Part, error) {
	var ts []targetStats
	if _, err := decode(r, "targets", &ts); err != nil {
		return nil, err
	}
	cat, err := readCatalog(r)
	if err != nil {
		return nil, err
	}
	info := map[string]TargetInfo{}
	// The targets' counts; the per-game ones (rounds, passes, reshuffles,
	// deployment turns) the report's Games table shows from the result's
	// game figures.
	p := &game.Part{Covers: []string{"targets", game.GameSection}}
	if cat != nil {
		for _, t := range cat.Target {
			info[t.ID] = t
		}
		if len(cat.Target) > 0 {
			p.Names = map[string]string{}
			for _, t := range cat.Target {
				p.Names[t.ID] = t.Name
			}
		}
		if n := cat.Rounds; n > 0 {
			p.Length = &game.LengthNote{
				Short:   fmt.Sprintf("the rules give %d, more when targets return", n),
				Chart:   fmt.Sprintf(" The rules give %d rounds (every target laid out once). A target whose row ends a round with no card in it goes back under the target pile and is fought over again in a later round, so some games run longer (docs/rules.md, \"Empty rows\").", n),
				Methods: fmt.Sprintf(" The rules give %d rounds (every target laid out once); a target whose row ends a round with no card in it goes back under the target pile and is fought over again, so some games run longer (docs/rules.md, \"Empty rows\").", n),
				Sheet:   fmt.Sprintf(" The rules give %d rounds; a target whose row ends a round empty returns under the target pile and is fought over again, so some games run longer (docs/rules.md, \"Empty rows\").", n),
			}
		}
	}
	p.Section = &game.PageSection{ID: "targets", Title: "Targets", Charts: []game.Chart{captureChart(r, ts)},
		MethodsTitle: "Targets", Methods: []game.Span{
			{Text: "Capture rate", Bold: true},
			{Text: ": captures (won at scoring or taken by Negotiations) per time the target was laid out. "},
			{Text: "Share of captures", Bold: true},
			{Text: ": who took it. A faction that takes more than its share of a planet usually owns it (planet bonus) or fights harder for it."}}}
	p.Sheets = []game.Sheet{targetSheet(r, ts, info)}
	var diff struct {
		Targets []targetDelta `json:"targets"`
	}
	if ok, err := decode(r, "diff", &diff); err != nil {
		return nil, err
	} else if ok {
		p.DiffSheets = []game.Sheet{diffSheet(diff.Targets)}
	}
	return p, nil
}

// captureChart: who takes each target (capture shares by faction, stacked).
func captureChart(r *game.ReportInput, ts []targetStats) game.Chart {
	c := game.Chart{ID: "chart-targets", Title: "Who takes each target",
		Note: "Share of each target's captures (won at scoring or by Negotiations) taken by each faction. After the name: its capture rate, how often it was taken per time it was laid out (not an interval); the tooltip gives each share's 95% interval."}
	sh := &game.Shares{Axis: "share of captures %", Stack: "captures"}
	for _, t := range ts {
		sh.Categories = append(sh.Categories, fmt.Sprintf("%s · %.0f%% captured", t.Name, 100*t.CaptureRate))
	}
	for _, s := range r.Sides {
		vals := make([]float64, len(ts))
		cis := make([][2]float64, len(ts))
		for j, t := range ts {
			vals[j], cis[j] = t.Captures[s.ID].Share, t.Captures[s.ID].CI95
		}
		sh.Values = append(sh.Values, vals)
		sh.CI = append(sh.CI, cis)
	}
	c.Shares = sh
	return c
}

// targetSheet is the Targets sheet: every target's counts and its capture
// shares by faction.
func targetSheet(r *game.ReportInput, ts []targetStats, info map[string]TargetInfo) game.Sheet {
	s := game.Sheet{Name: "Targets", Columns: []game.SheetColumn{
		{Head: "id", Width: 20, Doc: "the id in the ruleset's YAML"},
		{Head: "name", Width: 24, Doc: "the name as printed"},
		{Head: "type", Doc: "the card type"},
		{Head: "affiliation", Doc: "the target's affiliation"},
		{Head: "laid", Doc: "times laid out at the head of a row"},
		{Head: "won", Doc: "taken at scoring"},
		{Head: "negotiated", Doc: "taken by Negotiations"},
		{Head: "unclaimed", Doc: "times its row had no card at scoring (the target returns under the pile)"},
		{Head: "captured", Doc: "won + negotiated"},
		{Head: "capture rate", Format: fmtPct, Doc: "captured ÷ laid: how often it was taken when laid out (not an interval)"},
		{Head: "mean margin", Format: fmtDec2, Doc: "over rows won at scoring: the winner's power − the runner-up's"},
		{Head: "margin sd", Format: fmtDec2, Doc: "its standard deviation"},
		{Head: "tie rate", Format: fmtPct, Doc: "the share of rows won at scoring that a tie decided"},
		{Head: "low n", Width: 7, Doc: "yes when the figure rests on fewer games than the minimum sample"},
	}}
	for _, f := range r.Sides {
		s.Columns = append(s.Columns,
			game.SheetColumn{Head: f.ID + " share", Format: fmtPct, Doc: "the share of the target's captures " + f.Name + " took"},
			game.SheetColumn{Head: f.ID + " ci95 low", Format: fmtPct, Doc: "its 95% interval (Wilson), low end"},
			game.SheetColumn{Head: f.ID + " ci95 high", Format: fmtPct, Doc: "its 95% interval (Wilson), high end"})
	}
	for _, t := range ts {
		in := info[t.ID]
		row := []game.SheetCell{{Value: t.ID}, {Value: t.Name}, {Value: in.Type}, {Value: in.Affiliation},
			{Value: t.Laid}, {Value: t.Won}, {Value: t.Negotiated}, {Value: t.Unclaimed}, {Value: t.Captured, Low: t.LowN},
			{Value: t.CaptureRate}, {Value: t.MeanMargin}, {Value: t.MarginSD}, {Value: t.TieRate}, {Value: yes(t.LowN)}}
		for _, f := range r.Sides {
			c := t.Captures[f.ID]
			row = append(row, game.SheetCell{Value: c.Share}, game.SheetCell{Value: c.CI95[0]}, game.SheetCell{Value: c.CI95[1]})
		}
		s.Rows = append(s.Rows, row)
	}
	return s
}

// diffSheet is the Diff targets sheet: each target's figures, variant − base.
func diffSheet(ds []targetDelta) game.Sheet {
	s := game.Sheet{Name: "Diff targets", Columns: []game.SheetColumn{
		{Head: "target", Width: 20, Doc: "the target's id in the ruleset's YAML"},
		{Head: "name", Width: 24, Doc: "the name as printed"},
		{Head: "changed", Doc: "yes when the target's definition differs between the rulesets"},
		{Head: "capture rate Δ", Format: fmtPts, Doc: "capture rate, variant − base"},
		{Head: "mean margin Δ", Format: "+0.00;-0.00;0.00", Doc: "mean margin, variant − base"},
		{Head: "tie rate Δ", Format: fmtPts, Doc: "tie rate, variant − base"},
		{Head: "laid per game Δ", Format: "+0.00;-0.00;0.00", Doc: "times laid per game, variant − base"},
	}}
	for _, t := range ds {
		s.Rows = append(s.Rows, []game.SheetCell{{Value: t.ID}, {Value: t.Name}, {Value: yes(t.Changed)},
			{Value: t.CaptureRate.Delta}, {Value: t.MeanMargin.Delta}, {Value: t.TieRate.Delta}, {Value: t.LaidPerGame.Delta}})
	}
	return s
}
