package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/printing"
	"github.com/cardlab/cardlab/reports"
)

// PrintOptions are the inputs of `cardlab print`.
type PrintOptions struct {
	Out, ErrOut io.Writer
	RulesDir    string
	OutDir      string
	Formats     []string
	Backs       bool
	Bleed       bool
	DPI         float64
	ValuesFile  string
	JSON        bool
}

// NewCmdPrint parses the flags of `cardlab print`; runF replaces printRun in
// tests.
func NewCmdPrint(g *globalOptions, runF func(*PrintOptions) error) *cobra.Command {
	opts := &PrintOptions{}
	cmd := &cobra.Command{
		Use:   "print --out DIR",
		Short: "Draw the cards: print-and-play PDFs, Tabletop Simulator decks, PNG/SVG, CSV",
		Long: `Draw every card of the ruleset (of any game: the game says what a card shows)
and write into DIR:

  print-a4.pdf, print-letter.pdf   print-and-play sheets: a first page listing the
                                   decks, then 3 × 3 cards a page with crop marks,
                                   every card as often as its copies, each deck
                                   from a new page
  tts/DECK-faces.png, -back.png,   Tabletop Simulator: a 10 × 7 sheet per deck (the
  tts/DECK.json                    last cell is the hidden-card image), its back,
                                   and a saved object (Objects → Saved Objects);
                                   its image URLs are local file:// paths: upload
                                   the images and replace them to share the deck
  cards/DECK/ID.png, .svg          one image per card with bleed (PNG at --dpi),
  cards/DECK.back.png, .svg        and each deck's back, for print shops and pages
  cards.csv                        one row per card definition with its copies, the
                                   data sheet nanDECK and Squib read
  FONTS-LICENSE.txt                the licence of the embedded Go fonts

The ruleset's optional layout.yaml sets the card size (default poker, 63 × 88
mm), bleed, safe margin, fonts, colours and where each field goes; 'cardlab init'
writes the default one, and docs/printing.md describes it. Errors in it are
reported as file:line:col.

DIR is created if needed. Files already there are replaced only when they are
regular files of yours, and only after every output rendered; other files in DIR
are left alone.`,
		Example: `  cardlab print --out cards-print
  cardlab print --rules mygame --out print --backs --bleed
  cardlab print --out print --formats pdf,csv
  cardlab print --out playtest --with-values report/results.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir = g.RulesDir
			if opts.OutDir == "" {
				return usageErrorf("print needs --out DIR (the directory to write)")
			}
			for _, f := range opts.Formats {
				if !slices.Contains(printing.Formats, f) {
					hint := ""
					if s := cards.Suggest(f, printing.Formats); s != "" {
						hint = fmt.Sprintf("; did you mean %q?", s)
					}
					return usageErrorf("invalid --formats %q%s (formats: %s)", f, hint, strings.Join(printing.Formats, ", "))
				}
			}
			if !(opts.DPI >= printing.MinDPI && opts.DPI <= printing.MaxDPI) {
				return usageErrorf("invalid --dpi %g (%d..%d)", opts.DPI, printing.MinDPI, printing.MaxDPI)
			}
			if runF != nil {
				return runF(opts)
			}
			return printRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.OutDir, "out", "", "write the outputs into `DIR` (required)")
	fl.StringSliceVar(&opts.Formats, "formats", nil, "write only these outputs: "+strings.Join(printing.Formats, ", ")+" (default all)")
	fl.BoolVar(&opts.Backs, "backs", false, "PDFs: follow each page of faces with its backs, mirrored for double-sided printing")
	fl.BoolVar(&opts.Bleed, "bleed", false, "PDFs: print the layout's bleed around each card (cards are spaced apart)")
	floatVar(fl, &opts.DPI, "dpi", printing.DefaultDPI, "resolution of the per-card PNGs")
	fl.StringVar(&opts.ValuesFile, "with-values", "", "print each card's measured value from a report's `results.json` in a corner")
	fl.BoolVar(&opts.JSON, "json", false, "print what was written as JSON on standard output")
	return cmd
}

// loadLayout reads the print layout of the ruleset rs in dir (its game's
// embedded default's when dir is ""); errors name dir/layout.yaml like the
// loader's.
func loadLayout(dir string, rs game.Ruleset) (*printing.Layout, error) {
	if dir == "" {
		g, ok := game.Lookup(rs.Game())
		if !ok {
			return nil, fmt.Errorf("game %s is not linked into this program", rs.Game())
		}
		_, fsys := g.Default()
		return printing.LoadLayout(fsys, "", rs)
	}
	prefix := filepath.ToSlash(filepath.Clean(dir))
	if prefix == "." {
		prefix = ""
	}
	return printing.LoadLayout(os.DirFS(dir), prefix, rs)
}

func printRun(opts *PrintOptions) error {
	// print plays no game, so it takes any game's ruleset.
	g, grs, err := loadGame(opts.RulesDir)
	if err != nil {
		return err
	}
	vf, _ := g.(game.ValueFacer)
	if opts.ValuesFile != "" && vf == nil {
		return fmt.Errorf("cardlab print --with-values: %s prints no measured card values (its game has no game.ValueFacer); this ruleset is %s", g.Name(), grs.Game())
	}
	lay, err := loadLayout(opts.RulesDir, grs)
	if err != nil {
		return err
	}
	po := printing.Options{Ruleset: grs, Layout: lay, Out: opts.OutDir, Formats: opts.Formats,
		Backs: opts.Backs, Bleed: opts.Bleed, DPI: opts.DPI, Log: opts.ErrOut}
	if opts.ValuesFile != "" {
		// The same checks as report --from: a value edited by hand after
		// the report never reaches a card face.
		if _, err := reports.ReadFile(opts.ValuesFile); err != nil {
			return err
		}
		set, v, err := vf.FacesWithValues(grs, opts.ValuesFile)
		if err != nil {
			return err
		}
		if !v.HashMatches {
			fmt.Fprintf(opts.ErrOut, "note: %s was made from other card files than these; values are printed by card id for the cards not edited since\n", opts.ValuesFile)
		}
		if len(v.Stale) > 0 {
			fmt.Fprintf(opts.ErrOut, "note: %d cards were edited since %s measured them (e.g. %q): their faces say %q; run the report again for their values\n",
				len(v.Stale), opts.ValuesFile, v.Stale[0], v.StaleLine)
		}
		if len(v.Unknown) > 0 {
			fmt.Fprintf(opts.ErrOut, "note: %d cards of %s are not in this ruleset (e.g. %q)\n", len(v.Unknown), opts.ValuesFile, v.Unknown[0])
		}
		po.Faces, po.ValuesFrom = set, filepath.Base(opts.ValuesFile)
	}
	res, err := printing.Print(po)
	if err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintf(opts.ErrOut, "note: %s\n", n)
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(opts.ErrOut, "wrote %d files to %s in %.1f s: %d cards (%d different) in %d decks\n",
		len(res.Files), opts.OutDir, res.Seconds, res.Copies, res.Cards, len(res.Decks))
	return nil
}
