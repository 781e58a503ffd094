package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/game"
)

// StudyOptions are the inputs of `cardlab study`.
type StudyOptions struct {
	Out, ErrOut io.Writer
	RulesDir    string // "" for the embedded default of Game
	Game        string
	Name        string
	Params      map[string]string
	JSON        bool
}

// NewCmdStudy parses the flags of `cardlab study`; runF replaces studyRun in
// tests.
func NewCmdStudy(g *globalOptions, runF func(*StudyOptions) error) *cobra.Command {
	opts := &StudyOptions{}
	cmd := &cobra.Command{
		Use:   "study [NAME [KEY=VALUE...]]",
		Short: "Compute a game's exact or analytic results (its studies)",
		Long: `Run one of a game's studies: results computed from the rules rather than
measured by playing games, exact where the game allows. Without NAME it
lists the ruleset's studies and their parameters. Eclipse's are matrix (every
player fleet attacking every other), battle (one battle's odds, rounds and
survivors) and npc (the chance each fleet clears each NPC): a dynamic
programme over damage states, exact within a state budget and played by the
engine with the same policy and a 95% interval above it (the optimal policy,
which reads the exact study, is refused there); every table says which.

Parameters are KEY=VALUE arguments after the name. --json prints {"game",
"ruleset", "hash", "study", "params", "title", "notes", "tables": [{"name",
"columns": [{"head", "format", "doc"}], "rows": [[value]]}]}, chances as
fractions.`,
		Example: `  cardlab study --game eclipse
  cardlab study --game eclipse matrix fleets=5i,3c,2d,dci,2c2i
  cardlab study --rules myfleets battle attacker=2d defender=ancient2
  cardlab study --rules myfleets npc policy=kill_largest --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir, opts.Game = g.RulesDir, g.Game
			opts.Params = map[string]string{}
			if len(args) > 0 {
				opts.Name = args[0]
			}
			for _, a := range args[min(1, len(args)):] {
				k, v, ok := strings.Cut(a, "=")
				if !ok || k == "" {
					return usageErrorf("study: parameter %q is not KEY=VALUE", a)
				}
				if _, dup := opts.Params[k]; dup {
					return usageErrorf("study: parameter %s given twice", k)
				}
				opts.Params[k] = v
			}
			if runF != nil {
				return runF(opts)
			}
			return studyRun(opts)
		},
	}
	addGameFlag(cmd, g)
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the result as JSON on standard output")
	return cmd
}

func studyRun(opts *StudyOptions) error {
	g, rs, err := gameRuleset("study", opts.RulesDir, opts.Game)
	if err != nil {
		return err
	}
	st, ok := rs.(game.Studier)
	if !ok {
		return fmt.Errorf("%s has no studies (cardlab study needs a game with exact or analytic results of its own)", g.Name())
	}
	infos := st.Studies()
	if opts.Name == "" {
		return listStudies(opts, g, infos)
	}
	var info *game.StudyInfo
	var names []string
	for i := range infos {
		names = append(names, infos[i].Name)
		if infos[i].Name == opts.Name {
			info = &infos[i]
		}
	}
	if info == nil {
		return usageErrorf("study: %s", didYouMean("study", opts.Name, names))
	}
	var keys []string
	for _, p := range info.Params {
		keys = append(keys, p.Key)
	}
	for k := range opts.Params {
		found := false
		for _, p := range keys {
			found = found || p == k
		}
		if !found {
			return usageErrorf("study %s: %s", info.Name, didYouMean("parameter", k, keys))
		}
	}
	// Ctrl-C stops a long study between battles.
	var stop atomic.Bool
	ctx, cancel := interruptibleSaying(context.Background(), func() string { return "cardlab: interrupted: stopping the study" })
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-done:
		}
	}()
	res, err := st.Study(info.Name, opts.Params, &stop)
	if errors.Is(err, game.ErrStopped) {
		return fmt.Errorf("study %s interrupted: nothing written", info.Name)
	}
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeStudyJSON(opts, g, rs, res)
	}
	return writeStudyText(opts.Out, res)
}

func listStudies(opts *StudyOptions, g game.Game, infos []game.StudyInfo) error {
	if opts.JSON {
		type param struct {
			Key string `json:"key"`
			Doc string `json:"doc"`
		}
		type study struct {
			Name   string  `json:"name"`
			Doc    string  `json:"doc"`
			Params []param `json:"params"`
		}
		out := struct {
			Game    string  `json:"game"`
			Studies []study `json:"studies"`
		}{Game: g.ID(), Studies: []study{}}
		for _, s := range infos {
			row := study{Name: s.Name, Doc: s.Doc, Params: []param{}}
			for _, p := range s.Params {
				row.Params = append(row.Params, param(p))
			}
			out.Studies = append(out.Studies, row)
		}
		return writeJSON(opts.Out, out)
	}
	fmt.Fprintf(opts.Out, "Studies of %s:\n", g.Name())
	for _, s := range infos {
		fmt.Fprintf(opts.Out, "\n  %s: %s\n", s.Name, s.Doc)
		for _, p := range s.Params {
			fmt.Fprintf(opts.Out, "      %s=  %s\n", p.Key, p.Doc)
		}
	}
	return nil
}

func writeStudyJSON(opts *StudyOptions, g game.Game, rs game.Ruleset, res *game.StudyResult) error {
	type column struct {
		Head   string `json:"head"`
		Format string `json:"format,omitempty"`
		Doc    string `json:"doc"`
	}
	type table struct {
		Name    string   `json:"name"`
		Columns []column `json:"columns"`
		Rows    [][]any  `json:"rows"`
	}
	info := rs.Info()
	out := struct {
		Game    string            `json:"game"`
		Ruleset string            `json:"ruleset"`
		Hash    string            `json:"hash"`
		Study   string            `json:"study"`
		Params  map[string]string `json:"params"`
		Title   string            `json:"title"`
		Notes   []string          `json:"notes"`
		Tables  []table           `json:"tables"`
	}{Game: g.ID(), Ruleset: info.Name, Hash: info.Hash, Study: opts.Name, Params: opts.Params, Title: res.Title, Notes: res.Notes, Tables: []table{}}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	for _, s := range res.Tables {
		t := table{Name: s.Name, Columns: []column{}, Rows: [][]any{}}
		for _, c := range s.Columns {
			t.Columns = append(t.Columns, column{c.Head, c.Format, c.Doc})
		}
		for _, r := range s.Rows {
			row := make([]any, len(r))
			for i, c := range r {
				row[i] = c.Value
			}
			t.Rows = append(t.Rows, row)
		}
		out.Tables = append(out.Tables, t)
	}
	return writeJSON(opts.Out, out)
}

// writeStudyText prints each table aligned, figures formatted by their
// column's format ("0.0%": a fraction as a percentage), then the notes.
func writeStudyText(w io.Writer, res *game.StudyResult) error {
	fmt.Fprintln(w, res.Title)
	for _, s := range res.Tables {
		fmt.Fprintf(w, "\n%s\n", s.Name)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		var heads []string
		for _, c := range s.Columns {
			heads = append(heads, c.Head)
		}
		fmt.Fprintln(tw, strings.Join(heads, "\t")+"\t")
		for _, r := range s.Rows {
			cells := make([]string, len(r))
			for i, c := range r {
				format := ""
				if i < len(s.Columns) {
					format = s.Columns[i].Format
				}
				cells[i] = studyCell(c.Value, format)
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(res.Notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range res.Notes {
			fmt.Fprintln(w, n)
		}
	}
	return nil
}

func studyCell(v any, format string) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if strings.HasSuffix(format, "%") {
			return strconv.FormatFloat(100*x, 'f', decimals(format), 64)
		}
		if format != "" {
			return strconv.FormatFloat(x, 'f', decimals(format), 64)
		}
		return strconv.FormatFloat(x, 'g', 6, 64)
	}
	return fmt.Sprint(v)
}

// decimals is the number of decimals a number format shows ("0.00%": 2).
func decimals(format string) int {
	_, frac, ok := strings.Cut(strings.TrimSuffix(format, "%"), ".")
	if !ok {
		return 0
	}
	return len(frac)
}
