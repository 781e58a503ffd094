// Package reports renders the result of a simulation run as reports people
// can publish: a workbook (balance.xlsx), one self-contained web page that
// works offline (index.html), a Markdown summary for a forum post or a pull
// request (summary.md) and the data they were made from (results.json).
//
// Every text that comes from a ruleset (card, faction and target names, rules
// texts) is data, never markup or a formula: the page escapes it (html/template
// and JSON), the workbook stores it as string cells, the Markdown escapes the
// characters Markdown and HTML give a meaning to.
//
// results.json is the simulate result of docs/metrics.md with its keys at the
// top level — so it is also an input of `cardlab merge` and `cardlab report
// --from` — plus the optional paired analyses ("impact", "sweep", "diff",
// "skill") and a "report" object: the command that reproduces the run, when
// it was made, the ruleset's cards as they are drawn in the gallery and the
// distributions of game lengths.
package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/files"
	"github.com/cardlab/cardlab/game"
)

// Data is everything a report is rendered from, and the content of
// results.json.
type Data struct {
	// Report is the simulate result (docs/metrics.md); its keys are written
	// at the top level of results.json.
	*analysis.Report
	Impact *analysis.ImpactResult `json:"impact,omitempty"`
	Sweep  *analysis.SweepResult  `json:"sweep,omitempty"`
	Diff   *analysis.DiffResult   `json:"diff,omitempty"`
	Skill  *analysis.SkillResult  `json:"skill,omitempty"`
	// Tiers is the skill check: the report's games replayed with the bots
	// of the other tier, and which verdicts change (docs/metrics.md,
	// "Skill-dependent verdicts"). Absent in results written before it.
	Tiers *analysis.TierCheck `json:"tier_check,omitempty"`
	// Meta says how the report was made. A plain `cardlab simulate --json`
	// result has none; the renderers then make do without it.
	Meta *Meta `json:"report,omitempty"`
	// DocumentChecksum is Sum(): the report's own checksum covers the
	// simulate result, this one everything else the report renders
	// (impact, sweep, diff, skill, the catalog, histograms and command).
	// Parse refuses a file whose content no longer matches either.
	DocumentChecksum string `json:"document_checksum,omitempty"`
}

// Sum is the checksum of everything d holds but DocumentChecksum, the
// timings and when the games were played (Meta.Generated) — analysis.JSONSum
// of the JSON of d as decoded. Timings and the time are left out as in
// analysis.Report.Sum: equivalent runs (a rerun, merged shards) differ only
// in them.
func (d *Data) Sum() string { return d.sum(false) }

// sum is Sum; withGenerated keeps Meta.Generated in, as the checksum of a
// results.json written before it was left out did (such a file still
// reads).
func (d *Data) sum(withGenerated bool) string {
	c := *d
	c.DocumentChecksum = ""
	if c.Meta != nil && !withGenerated {
		m := *c.Meta
		m.Generated = ""
		c.Meta = &m
	}
	if c.Report != nil {
		c.Report = c.Report.WithoutTiming()
	}
	c.Impact = untimed(c.Impact, func(x *analysis.ImpactResult) *analysis.Timing { return &x.Timing })
	c.Sweep = untimed(c.Sweep, func(x *analysis.SweepResult) *analysis.Timing { return &x.Timing })
	c.Diff = untimed(c.Diff, func(x *analysis.DiffResult) *analysis.Timing { return &x.Timing })
	c.Skill = untimed(c.Skill, func(x *analysis.SkillResult) *analysis.Timing { return &x.Timing })
	c.Tiers = untimed(c.Tiers, func(x *analysis.TierCheck) *analysis.Timing { return &x.Timing })
	if c.Tiers != nil && c.Tiers.CardDesign != nil {
		t := *c.Tiers
		t.CardDesign = untimed(t.CardDesign, func(x *analysis.CardValueDesign) *analysis.Timing { return &x.Timing })
		c.Tiers = &t
	}
	return analysis.JSONSum(&c)
}

// untimed is a copy of *p with the timing that timing points to zeroed,
// nil for nil.
func untimed[T any](p *T, timing func(*T) *analysis.Timing) *T {
	if p == nil {
		return nil
	}
	c := *p
	*timing(&c) = analysis.Timing{}
	return &c
}

// hasExtras says whether d holds more than a simulate result.
func (d *Data) hasExtras() bool {
	return d.Impact != nil || d.Sweep != nil || d.Diff != nil || d.Skill != nil || d.Tiers != nil || d.Meta != nil
}

// verify checks d as read from a file before it is rendered: the simulate
// result (Report.Verify: checksum and counts) and, when d holds more than
// that, the document checksum over the rest.
func (d *Data) verify() error {
	if err := d.Report.Verify(); err != nil {
		return err
	}
	switch {
	case d.DocumentChecksum == "" && d.hasExtras():
		return errors.New("no document_checksum over its report, impact, sweep, diff or skill (written by an older cardlab, or edited)")
	case d.DocumentChecksum != "" && d.DocumentChecksum != d.Sum() && d.DocumentChecksum != d.sum(true):
		return errors.New("the document_checksum does not match its content: the file was edited or damaged after cardlab wrote it")
	}
	return nil
}

// Meta describes how a report was made.
type Meta struct {
	// Command reproduces the run, e.g. "cardlab report --bots greedy
	// --games 2000 --seed 1 --out report".
	Command string `json:"command"`
	// Generated is when the games were played (RFC 3339, UTC).
	Generated string `json:"generated"`
	// Catalog holds the ruleset's factions, cards and targets as the
	// gallery shows them.
	Catalog *Catalog `json:"catalog,omitempty"`
	// Histograms are the distributions of game lengths and margins.
	Histograms *Histograms `json:"histograms,omitempty"`
	// Tolerance is the band of the findings and verdict, in points of win
	// share around the fair share (0: no band), as the report was rendered:
	// it changes what they say, so `report --from` renders with it again
	// unless told otherwise. Absent in results.json before it was stored
	// (then the default applies).
	Tolerance *float64 `json:"tolerance_points,omitempty"`
	// CardTolerance is the card tolerance band the cards were flagged
	// against (points of win share), stored and used again the same way.
	CardTolerance *float64 `json:"card_tolerance_points,omitempty"`
}

// Catalog is what a report shows of a ruleset's definitions: its sides and
// cards through the contracts (game.Ruleset) and what else its game's views
// read (game.Catalogued). The JSON names are the first game's ("rounds",
// "starting_faction", "factions"), kept so that every results.json reads
// and checks as before (design game-neutral-core.md §3.7).
type Catalog struct {
	// Rounds is how long a game is by the rules, in the game's length unit
	// (Alpha Tactics: rounds, every target laid out once; games run longer
	// when targets return); 0 when the rules fix none.
	Rounds int `json:"rounds,omitempty"`
	// StartingFaction is the side that begins whenever it plays (else a
	// random seat does), by the rules; "" when none.
	StartingFaction string        `json:"starting_faction,omitempty"`
	Factions        []FactionInfo `json:"factions"`
	Cards           []CardInfo    `json:"cards"`
	// Extra are the game's further definitions by key, in order, as its
	// views read them (Alpha Tactics: "targets"); results.json writes them
	// after the cards.
	Extra []game.KeyJSON `json:"-"`
}

// catalogFields are the Catalog's own JSON keys.
type catalogFields struct {
	Rounds          int           `json:"rounds,omitempty"`
	StartingFaction string        `json:"starting_faction,omitempty"`
	Factions        []FactionInfo `json:"factions"`
	Cards           []CardInfo    `json:"cards"`
}

// MarshalJSON writes the catalog's keys and then the game's (Extra). HTML
// characters are left as they are: the encoder of results.json decides.
func (c Catalog) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(catalogFields{c.Rounds, c.StartingFaction, c.Factions, c.Cards}); err != nil {
		return nil, err
	}
	out := bytes.TrimRight(b.Bytes(), "\n")
	out = append([]byte(nil), out[:len(out)-1]...) // without the closing brace
	for _, x := range c.Extra {
		b.Reset()
		if err := enc.Encode(x.Key); err != nil {
			return nil, err
		}
		if !json.Valid(x.JSON) {
			return nil, fmt.Errorf("reports: the catalog's %q is not JSON", x.Key)
		}
		out = append(out, ',')
		out = append(out, bytes.TrimRight(b.Bytes(), "\n")...)
		out = append(out, ':')
		out = append(out, x.JSON...)
	}
	return append(out, '}'), nil
}

// UnmarshalJSON reads the catalog's keys and keeps every other key, in
// order, as Extra.
func (c *Catalog) UnmarshalJSON(data []byte) error {
	var f catalogFields
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	*c = Catalog{Rounds: f.Rounds, StartingFaction: f.StartingFaction, Factions: f.Factions, Cards: f.Cards}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // '{', as Unmarshal found
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		switch key := t.(string); key {
		case "rounds", "starting_faction", "factions", "cards":
		default:
			c.Extra = append(c.Extra, game.KeyJSON{Key: key, JSON: raw})
		}
	}
	return nil
}

// FactionInfo is one side: its id, display name and colour ("#rrggbb").
type FactionInfo struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// CardInfo is one card definition as printed. Type and Kind are its
// columns "type" and "kind" where the game has them (the gallery's type
// line); Power is its first integer column, the printed value in the game's
// unit that the price curve reads (Alpha Tactics: combat power; Goofspiel:
// the card's value).
type CardInfo struct {
	ID      string `json:"id"`
	Faction string `json:"faction"`
	Name    string `json:"name"`
	Type    string `json:"type"`
	Kind    string `json:"kind"`
	Power   int    `json:"power"`
	// Printed is the printed value exactly in the game's currency where
	// its unit of value rounds it (game.PrintedColumn; 0: Power × scale).
	Printed int    `json:"printed,omitempty"`
	Copies  int    `json:"copies"`
	Effect  string `json:"effect,omitempty"` // the first handler bound, "" for none
	Text    string `json:"text"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	// Face is the card as its game prints it (game.Facer), nil for a game
	// without faces; the gallery draws it. Not in results.json: it is the
	// game's wording of the ruleset, read from the ruleset when there is one.
	Face *game.Face `json:"-"`
}

// Histograms are distributions over the games of a run.
type Histograms struct {
	// Rounds counts games by the number of rounds played.
	Rounds []Bin `json:"rounds"`
	// Decisions counts games by the number of decisions (every action a
	// bot chose), in bins of equal width.
	Decisions []Bin `json:"decisions"`
	// Margin counts games by the winner's lead in victory points (0 for a
	// shared victory).
	Margin []Bin `json:"margin"`
}

// Bin counts the games whose value lies in [From, To].
type Bin struct {
	From  int   `json:"from"`
	To    int   `json:"to"`
	Games int64 `json:"games"`
}

// Files are the names Write creates in the output directory, in the order
// they are written.
var Files = []string{"balance.xlsx", "index.html", "cards.html", "summary.md", "results.json"}

// Options adjust rendering.
type Options struct {
	// Now is the rendering time shown in the reports (zero: time.Now()).
	Now time.Time
	// Tolerance is the band around a fair share (a win-share fraction,
	// 0.02 = ±2 points) within which the findings call a faction, seat or
	// matchup balanced. 0 means DefaultTolerance; below 0, no band.
	Tolerance float64
	// CardTolerance is the card tolerance band in win-share points: a card
	// whose text is worth more than this over (or less than this under) a
	// plain card of its printed power is flagged. 0 means
	// analysis.DefaultCardTolerance.
	CardTolerance float64
}

func (o Options) cardTolerance() float64 {
	if o.CardTolerance > 0 {
		return o.CardTolerance
	}
	return analysis.DefaultCardTolerance
}

func (o Options) tolerance() float64 {
	switch {
	case o.Tolerance == 0:
		return DefaultTolerance
	case o.Tolerance < 0:
		return 0
	}
	return o.Tolerance
}

func (o Options) now() time.Time {
	if o.Now.IsZero() {
		return time.Now().UTC()
	}
	return o.Now.UTC()
}

// CatalogOf describes the sides and cards of rs, and what else its game's
// views read (game.Catalogued).
func CatalogOf(rs game.Ruleset) *Catalog {
	c := &Catalog{Factions: []FactionInfo{}, Cards: []CardInfo{}}
	if x, ok := rs.(game.Catalogued); ok {
		gc := x.Catalog()
		c.Rounds, c.StartingFaction, c.Extra = gc.Length, gc.StartingSide, gc.Extra
	}
	sides := rs.Sides()
	for _, f := range sides {
		c.Factions = append(c.Factions, FactionInfo{ID: f.ID, Name: f.Name, Color: f.Color})
	}
	for _, cd := range rs.Cards() {
		ci := CardInfo{ID: cd.ID, Name: cd.Name, Copies: cd.Copies, Text: cd.Text, File: cd.Pos.File, Line: cd.Pos.Line}
		if cd.Side >= 0 && cd.Side < len(sides) {
			ci.Faction = sides[cd.Side].ID
		}
		power := false
		for _, col := range cd.Columns {
			switch {
			case col.IsInt && col.Key == game.PrintedColumn:
				ci.Printed = col.Int
			case col.IsInt && !power:
				ci.Power, power = col.Int, true
			case col.Key == "type":
				ci.Type = col.Text
			case col.Key == "kind":
				ci.Kind = col.Text
			}
		}
		if len(cd.Effects) > 0 {
			ci.Effect = cd.Effects[0]
		}
		c.Cards = append(c.Cards, ci)
	}
	AddFaces(c, rs)
	return c
}

// AddFaces gives the catalog's cards the faces rs's game prints (its
// game.Facer), each card the first face of its id: a card printed in
// several decks (one per player) reads the same in each.
func AddFaces(c *Catalog, rs game.Ruleset) {
	g, ok := game.Lookup(rs.Game())
	if !ok {
		return
	}
	f, ok := g.(game.Facer)
	if !ok {
		return
	}
	fs, err := f.Faces(rs)
	if err != nil {
		return // a ruleset the game cannot word: the gallery's plain face
	}
	byID := map[string]*game.Face{}
	for d := range fs.Decks {
		for i := range fs.Decks[d].Faces {
			fc := &fs.Decks[d].Faces[i]
			if _, ok := byID[fc.ID]; !ok {
				byID[fc.ID] = fc
			}
		}
	}
	cf, _ := g.(game.CardFacer)
	for i := range c.Cards {
		c.Cards[i].Face = byID[c.Cards[i].ID]
		if c.Cards[i].Face == nil && cf != nil {
			// A card in no deck: worded alone where the game can.
			if fc, ok := cf.CardFace(rs, c.Cards[i].ID); ok {
				c.Cards[i].Face = &fc
			}
		}
	}
}

// HistogramsOf counts the games of records by rounds, decisions and margin
// of victory. It returns nil without records.
func HistogramsOf(records []analysis.GameRecord) *Histograms {
	var h HistogramCounter
	for i := range records {
		h.Add(&records[i])
	}
	return h.Histograms()
}

// HistogramCounter counts games for the Histograms as they finish (give
// Add to analysis.Config.Record): its memory depends on how many distinct
// lengths and margins occur, never on the number of games.
type HistogramCounter struct {
	rounds, decisions, margins map[int]int64
	games                      int64
}

// Add counts one game.
func (h *HistogramCounter) Add(g *analysis.GameRecord) {
	if h.rounds == nil {
		h.rounds, h.decisions, h.margins = map[int]int64{}, map[int]int64{}, map[int]int64{}
	}
	h.games++
	rounds, _ := g.Int("rounds") // Alpha Tactics' (0 for a game without rounds)
	h.rounds[rounds]++
	h.decisions[g.Decisions]++
	best, other := -1<<31, -1<<31
	mirror := false
	for i, v := range g.VP {
		mirror = mirror || slices.ContainsFunc(g.VP[:i], func(w analysis.VPRecord) bool { return w.Faction == v.Faction })
	}
	for _, v := range g.VP {
		switch {
		case mirror:
			// One side on several seats: the sole winner leads the
			// table, the margin is its lead over the next seat.
			if v.Total > best {
				best, other = v.Total, best
			} else {
				other = max(other, v.Total)
			}
		case slices.Contains(g.Winners, v.Faction):
			best = max(best, v.Total)
		default:
			other = max(other, v.Total)
		}
	}
	margin := 0
	if len(g.Winners) == 1 && best > -1<<31 && other > -1<<31 {
		margin = best - other
	}
	h.margins[margin]++
}

// Histograms are the distributions of the games counted; nil without any.
func (h *HistogramCounter) Histograms() *Histograms {
	if h.games == 0 {
		return nil
	}
	return &Histograms{Rounds: binCounts(h.rounds, 1), Decisions: binCounts(h.decisions, 0), Margin: binCounts(h.margins, 0)}
}

// bins counts values in bins of width w (0: a round width giving about 25
// bins), from the smallest value to the largest, empty bins included.
func bins(values []int, w int) []Bin {
	counts := map[int]int64{}
	for _, v := range values {
		counts[v]++
	}
	return binCounts(counts, w)
}

// binCounts is bins over values given with how often each occurs.
func binCounts(counts map[int]int64, w int) []Bin {
	values := slices.Sorted(maps.Keys(counts))
	lo, hi := values[0], values[len(values)-1]
	if w <= 0 {
		w = niceWidth(float64(hi-lo) / 25)
	}
	start := floorDiv(lo, w) * w
	n := floorDiv(hi, w) - floorDiv(lo, w) + 1
	out := make([]Bin, n)
	for i := range out {
		out[i] = Bin{From: start + i*w, To: start + (i+1)*w - 1}
	}
	for _, v := range values {
		out[floorDiv(v, w)-floorDiv(lo, w)].Games += counts[v]
	}
	return out
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// niceWidth rounds x up to 1, 2 or 5 times a power of ten (at least 1).
func niceWidth(x float64) int {
	if x <= 1 {
		return 1
	}
	p := 1
	for {
		for _, m := range []int{1, 2, 5} {
			if float64(m*p) >= x {
				return m * p
			}
		}
		p *= 10
	}
}

// Read decodes results.json or a `cardlab simulate --json` result (at most
// analysis.MaxReportSize bytes).
func Read(r io.Reader) (*Data, error) {
	data, err := io.ReadAll(io.LimitReader(r, analysis.MaxReportSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > analysis.MaxReportSize {
		return nil, fmt.Errorf("too large: more than %d MiB; a result is smaller", analysis.MaxReportSize>>20)
	}
	return decode("results.json", data)
}

func decode(name string, data []byte) (*Data, error) {
	var d Data
	if what := files.NotJSONObject(data); what != "" {
		return nil, fmt.Errorf("not a results.json or 'cardlab simulate --json' result: it %s", what)
	}
	if err := files.DecodeJSON(name, data, &d); err != nil {
		return nil, err
	}
	if d.Report == nil || d.Report.Raw == nil || d.Report.ToolVersion == "" {
		return nil, errors.New("no tool_version or raw counts: not a results.json or 'cardlab simulate --json' result")
	}
	return &d, nil
}

// ReadFile reads results.json or a `cardlab simulate --json` result, at
// most analysis.MaxReportSize bytes, and verifies it (Parse).
func ReadFile(name string) (*Data, error) {
	data, err := files.ReadCapped(name, analysis.MaxReportSize, "a results.json or 'cardlab simulate --json' result")
	if err != nil {
		return nil, err
	}
	return Parse(name, data)
}

// Parse decodes results.json or a `cardlab simulate --json` result read
// from the file name and verifies it: the report's checksum and counts
// (analysis.Report.Verify) and the document checksum over what else it
// holds. Every figure a report renders from it is covered by one of the
// two, so an edited or damaged result is refused, never rendered.
func Parse(name string, data []byte) (*Data, error) {
	d, err := decode(name, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if err := d.verify(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return d, nil
}

// WriteJSON writes d as results.json, with its document checksum.
func WriteJSON(w io.Writer, d *Data) error {
	c := *d
	if c.hasExtras() {
		c.DocumentChecksum = c.Sum()
	} else {
		c.DocumentChecksum = ""
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(&c)
}

// Write renders the report files (Files) into dir through files.ReplaceDir:
// they are rendered into a temporary folder first, and dir ends up holding
// either all the new files or, if anything fails, exactly what it held
// before (other files in it are left alone). A new dir is renamed into
// place whole.
func Write(dir string, d *Data, o Options) error {
	if d == nil || d.Report == nil {
		return errors.New("reports: no result to render")
	}
	d = withSettings(d, o)
	m := newModel(d, o)
	render := map[string]func(io.Writer) error{
		"balance.xlsx": m.writeXLSX,
		"index.html":   m.writeHTML,
		"cards.html":   m.writeGallery,
		"summary.md":   m.writeMarkdown,
		"results.json": func(w io.Writer) error { return WriteJSON(w, d) },
	}
	return files.ReplaceDir(dir, Files, func(tmp string) error {
		for _, name := range Files {
			r := render[name]
			if testFail != nil {
				if err := testFail(name); err != nil {
					r = func(io.Writer) error { return err }
				}
			}
			if err := files.Render(filepath.Join(tmp, name), r); err != nil {
				return fmt.Errorf("rendering %s: %w", name, err)
			}
		}
		return nil
	})
}

// withSettings is d with the rendering settings that change a figure
// recorded in its Meta (a copy: d is not changed), so that results.json
// stores them and "Reproduce with" names them.
func withSettings(d *Data, o Options) *Data {
	c := *d
	meta := Meta{}
	if d.Meta != nil {
		meta = *d.Meta
	}
	tol := 100 * o.tolerance()
	meta.Tolerance = &tol
	ctol := o.cardTolerance()
	meta.CardTolerance = &ctol
	c.Meta = &meta
	// The skill check's marks depend on both bands: stored as rendered.
	c.Tiers = markTiers(d.Tiers, o.tolerance(), ctol, reportValues(d.Report))
	return &c
}

// reportValues are the report tier's card values by card id.
func reportValues(r *analysis.Report) map[string]*analysis.CardValue {
	out := map[string]*analysis.CardValue{}
	for i := range r.Cards {
		if v := r.Cards[i].Value; v != nil {
			out[r.Cards[i].ID] = v
		}
	}
	return out
}

// CheckDir reports whether dir can receive a report, before any game is
// played: see files.CheckDir.
func CheckDir(dir string) error { return files.CheckDir(dir, Files) }

// testFail, set by tests, makes the rendering of a file fail.
var testFail func(name string) error

// WriteXLSX renders the workbook alone.
func WriteXLSX(w io.Writer, d *Data, o Options) error { return newModel(d, o).writeXLSX(w) }

// WriteHTML renders the web page alone.
func WriteHTML(w io.Writer, d *Data, o Options) error { return newModel(d, o).writeHTML(w) }

// WriteGallery renders the card gallery page alone.
func WriteGallery(w io.Writer, d *Data, o Options) error { return newModel(d, o).writeGallery(w) }

// WriteMarkdown renders the Markdown summary alone.
func WriteMarkdown(w io.Writer, d *Data, o Options) error { return newModel(d, o).writeMarkdown(w) }

// SimulateCommand is the `cardlab simulate` command line that reproduces a
// report's games, for results without a recorded command.
func SimulateCommand(rep *analysis.Report) string {
	c := rep.Config
	var ls []string
	for _, l := range c.Matchups {
		ls = append(ls, strings.Join(l, ","))
	}
	parts := []string{"cardlab simulate", "--matchups", shellQuote(strings.Join(ls, ";")),
		"--bots", shellQuote(strings.Join(c.Bots, ",")), "--games", fmt.Sprint(c.Games),
		"--seed", fmt.Sprint(c.Seed)}
	if c.MinSample != analysis.DefaultMinSample {
		parts = append(parts, "--min-sample", fmt.Sprint(c.MinSample))
	}
	return strings.Join(parts, " ") + " --json"
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=+,:@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
