package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/internal/bug"
	"github.com/cardlab/cardlab/reports"
)

// watchDefaultGames is smaller than the report's default: a save should be
// answered in seconds, and the comparison is paired. watchCostlyGames is
// the default with a costly bot such as strong (a save plays the edited
// ruleset and both arms of the comparison, 3 × 6 × 150 games of about 9 ms).
const (
	watchDefaultGames = 500
	watchCostlyGames  = 150
)

// watchDefaultPrecision is coarser than the report's: the card values are
// measured in seconds (about a quarter of the report's games).
const watchDefaultPrecision = 5.0

// watchValueGames starts the card values with fewer games than the report;
// watchCostlyValueGames is all they play with a costly bot.
const (
	watchValueGames       = 2048
	watchCostlyValueGames = 256
)

// WatchOptions are the inputs of `cardlab watch`.
type WatchOptions struct {
	Out, ErrOut io.Writer
	// Context is cancelled on Ctrl-C (SIGINT) or SIGTERM by watchRun.
	Context context.Context
	// RulesDir is the ruleset directory watched; BaseDir the baseline
	// (default: the ruleset as it was when watch started).
	RulesDir, BaseDir string
	Matchups          []string
	Bots              string
	Games             int
	Seed              uint64
	Workers           int
	// Values measures the cards' values in every comparison, to
	// Precision (the median 95% half-width of the values, in win-share
	// points).
	Values    bool
	Precision float64
	// Port of the live page on 127.0.0.1 (0: any free port).
	Port int
	// Debounce waits this long after the last change before a run, so one
	// save that writes several events starts one run.
	Debounce time.Duration
	// Ready, if set, is called with the live page's URL once it is served
	// (tests).
	Ready func(url string)
	// BotsSet, GamesSet, ValuesSet: the flags were given (a game without
	// strong plays its own default bot with the cheap tier's defaults).
	BotsSet, GamesSet, ValuesSet bool
}

// NewCmdWatch parses the flags of `cardlab watch`; runF replaces watchRun
// in tests.
func NewCmdWatch(g *globalOptions, runF func(*WatchOptions) error) *cobra.Command {
	opts := &WatchOptions{}
	cmd := &cobra.Command{
		Use:   "watch --rules DIR [--base DIR] [--games N] [--port P]",
		Short: "Re-simulate on every save: what your edit does to each faction and card, live",
		Long: `Watch the ruleset directory DIR. On every save cardlab checks the ruleset
(errors at once, as file:line:col) and plays the paired comparison with the
baseline again: the same games under the baseline and under your edit. It
shows the change of every faction's win share with its 95% interval, and
the cards whose value moved, on standard output and on a live page served
on 127.0.0.1 that updates itself (the address is printed; --port fixes it;
it answers only to localhost, 127.0.0.1 and [::1] with its port).

The baseline is the ruleset as it was when watch started, or --base DIR.
A save while a comparison runs cancels it and starts again. Ctrl-C stops.

Each comparison plays --games games per lineup (` + fmt.Sprint(watchCostlyGames) + ` with a costly bot such as
the default --bots ` + defaultBots + `, ` + fmt.Sprint(watchDefaultGames) + ` with greedy or random), as 'cardlab report' would;
more games give narrower intervals and take longer. The card values are
measured in each version as the report does (--values; off by default with a
costly bot, whose games would take minutes), to a coarser --precision
(` + fmt.Sprint(watchDefaultPrecision) + ` win-share points) so that a save is answered in seconds. A card is shown when you edited it, or when its value
against its faction moved by more than the two runs' 95% intervals allow,
at 5% after Benjamini–Hochberg over all cards (when nothing changed, a
card shows by chance in at most one save in twenty).`,
		Example: `  cardlab init mygame && cardlab watch --rules mygame
  cardlab watch --rules mygame --base released --games 1000 --port 8017`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Out, opts.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			opts.RulesDir = g.RulesDir
			opts.Context = cmd.Context()
			if opts.RulesDir == "" {
				return usageErrorf("watch needs --rules DIR, the ruleset directory you edit ('cardlab init DIR' writes one)")
			}
			if len(opts.Matchups) == 0 {
				opts.Matchups = []string{"all"}
			}
			if opts.Games < 1 {
				return usageErrorf("--games must be at least 1, got %d", opts.Games)
			}
			f := cmd.Flags()
			opts.BotsSet, opts.GamesSet, opts.ValuesSet = f.Changed("bots"), f.Changed("games"), f.Changed("values")
			if costly(strings.Split(opts.Bots, ",")) {
				// A costly bot answers a save in seconds only with fewer
				// games, and without card values unless asked for.
				if !cmd.Flags().Changed("games") {
					opts.Games = watchCostlyGames
				}
				if !cmd.Flags().Changed("values") {
					opts.Values = false
				}
			}
			if opts.Workers < 0 {
				return usageErrorf("--workers must be 0 (one per CPU) or more, got %d", opts.Workers)
			}
			if !(opts.Precision >= analysis.MinPrecision) {
				return usageErrorf("--precision must be at least %g (a half-width in win-share points), got %g", analysis.MinPrecision, opts.Precision)
			}
			if opts.Port < 0 || opts.Port > 65535 {
				return usageErrorf("--port must be 0 (any free port) to 65535, got %d", opts.Port)
			}
			if opts.Debounce == 0 {
				opts.Debounce = 200 * time.Millisecond
			}
			if runF != nil {
				return runF(opts)
			}
			return watchRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.BaseDir, "base", "", "compare with the ruleset in `DIR` (default: the ruleset as it was when watch started)")
	fl.StringArrayVar(&opts.Matchups, "matchups", nil, "the lineups to play: all (every pair), all:N, or `LINEUPS` like a,b;c,d (default all)")
	fl.StringVar(&opts.Bots, "bots", defaultBots, "the bot `SPEC` for every seat, or one per seat comma-separated")
	fl.IntVar(&opts.Games, "games", watchDefaultGames, "games per lineup `N` in each comparison")
	tierDefault(fl, "games", watchCostlyGames)
	fl.Uint64Var(&opts.Seed, "seed", 1, "master seed `S`")
	fl.IntVar(&opts.Workers, "workers", 0, "play on `W` goroutines (default: one per CPU)")
	fl.BoolVar(&opts.Values, "values", true, "measure the cards' values in every comparison (--values=false: factions only, faster; off by default with a costly bot)")
	floatVar(fl, &opts.Precision, "precision", watchDefaultPrecision, "card values: the median 95% half-width of a card's value to play for, in `P` win-share points")
	fl.IntVar(&opts.Port, "port", 0, "serve the live page on 127.0.0.1:`P` (default: any free port)")
	return cmd
}

// watcher runs the comparisons of `cardlab watch`.
type watcher struct {
	opts    *WatchOptions
	live    *reports.LiveServer
	base    game.Ruleset
	lineups [][]string
	specs   []string
	// baseData is the baseline's own report, for the card values before
	// the edit; made once, by the first run that needs it.
	mu       sync.Mutex
	baseData *reports.Data
	outMu    sync.Mutex
	// playing counts the runs in play, for what Ctrl-C says.
	playing *atomic.Int32
	// valueGames, valueMaxGames: the card values' first stage and budget
	// per lineup (smaller with a costly bot).
	valueGames, valueMaxGames int
}

func watchRun(opts *WatchOptions) error {
	playing := new(atomic.Int32)
	ctx, stop := interruptibleSaying(opts.Context, func() string { return interruptNote(playing.Load() > 0) })
	defer stop()
	dir := filepath.Clean(opts.RulesDir)
	baseDir := opts.BaseDir
	if baseDir == "" {
		baseDir = dir
	}
	base, err := loadRulesetDir(baseDir)
	if err != nil {
		if opts.BaseDir == "" {
			err = fmt.Errorf("%w\n(the baseline is the ruleset as watch finds it: fix it first, or give --base DIR)", err)
		}
		return err
	}
	watchGameDefaults(opts, base)
	lineups, err := resolveLineups(base, nil, opts.Matchups)
	if err != nil {
		return err
	}
	specs, err := checkBotSpecs(base, opts.Bots, lineups)
	if err != nil {
		return err
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watching %s: %w", dir, err)
	}
	defer fsw.Close()
	if err := fsw.Add(dir); err != nil {
		return fmt.Errorf("watching %s: %w", dir, err)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", opts.Port))
	if err != nil {
		return fmt.Errorf("serving the live page: %w", err)
	}
	title := strings.TrimSpace(base.Info().Name + " " + base.Info().Version)
	w := &watcher{opts: opts, live: reports.NewLiveServer(title),
		base: base, lineups: lineups, specs: specs, playing: playing, valueGames: watchValueGames}
	if costly(specs) {
		// --values with a costly bot: a small budget (the live page says
		// the precision reached through each value's interval).
		w.valueGames, w.valueMaxGames = watchCostlyValueGames, watchCostlyValueGames
	}
	srv := &http.Server{Handler: reports.LoopbackOnly(ln.Addr().String(), w.live), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	// Close, not Shutdown: the pages' event streams never end by themselves.
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/"
	what := "the ruleset as it is now"
	if opts.BaseDir != "" {
		what = opts.BaseDir
	}
	fmt.Fprintf(opts.Out, "watching %s (baseline: %s); live page: %s\nsave a file to compare; Ctrl-C stops\n", dir, what, url)
	if opts.Ready != nil {
		opts.Ready(url)
	}
	return w.loop(ctx, fsw, dir)
}

// loop waits for saves and runs one comparison at a time: a save during a
// run cancels it; the newest save always gets its run.
func (w *watcher) loop(ctx context.Context, fsw *fsnotify.Watcher, dir string) error {
	var (
		timer   *time.Timer
		fire    <-chan time.Time
		file    = ""
		cancel  context.CancelFunc
		running sync.WaitGroup
	)
	start := func(file string) {
		if cancel != nil {
			cancel()
		}
		var rctx context.Context
		rctx, cancel = context.WithCancel(ctx)
		running.Add(1)
		go func() {
			defer running.Done()
			defer func() {
				if err := bug.From(recover()); err != nil {
					w.publish(&reports.LiveState{Status: "failed", File: file, Message: err.Error()})
				}
			}()
			w.run(rctx, dir, file)
		}()
	}
	defer func() {
		if cancel != nil {
			cancel()
		}
		running.Wait()
	}()
	if w.opts.BaseDir != "" {
		start("") // the edit against --base, before any save
	} else {
		w.publish(&reports.LiveState{Status: "waiting", Message: "watching " + dir + ": save a file to compare it with the ruleset as it was when watch started"})
	}
	for {
		select {
		case <-ctx.Done():
			w.println("stopped")
			return nil
		case ev, ok := <-fsw.Events:
			if !ok {
				return nil
			}
			if !rulesetFile(ev.Name) || ev.Op == fsnotify.Chmod {
				continue
			}
			file = filepath.Base(ev.Name)
			if timer == nil {
				timer = time.NewTimer(w.opts.Debounce)
			} else {
				timer.Reset(w.opts.Debounce)
			}
			fire = timer.C
		case <-fire:
			fire = nil
			start(file)
		case err, ok := <-fsw.Errors:
			if !ok {
				return nil
			}
			w.println("watch: " + err.Error())
		}
	}
}

// rulesetFile: a YAML file of the ruleset, not an editor's swap or backup
// file.
func rulesetFile(name string) bool {
	b := filepath.Base(name)
	if strings.HasPrefix(b, ".") || strings.HasSuffix(b, "~") {
		return false
	}
	ext := strings.ToLower(filepath.Ext(b))
	return ext == ".yaml" || ext == ".yml"
}

// run validates the ruleset and compares it with the baseline; a cancelled
// run publishes nothing.
func (w *watcher) run(ctx context.Context, dir, file string) {
	// The baseline's game reads every save: a rules.yaml that now names
	// another game is its loader's error.
	var rs game.Ruleset
	var err error
	if g, ok := game.Lookup(w.base.Game()); ok {
		rs, err = loadGameRuleset(g, dir)
	} else {
		err = fmt.Errorf("game %s is not linked into this program", w.base.Game())
	}
	if err == nil && rs.Game() != w.base.Game() {
		err = fmt.Errorf("rules.yaml now names the game %s; watch compares versions of %s", rs.Game(), w.base.Game())
	}
	if err != nil {
		var list cards.ErrorList
		var msgs []string
		if errors.As(err, &list) {
			for _, e := range list {
				msgs = append(msgs, e.Error())
			}
		} else {
			msgs = []string{err.Error()}
		}
		w.publish(&reports.LiveState{Status: "invalid", File: file, Message: "the ruleset has errors", Errors: msgs})
		return
	}
	began := time.Now()
	w.playing.Add(1)
	defer w.playing.Add(-1)
	w.publish(&reports.LiveState{Status: "running", File: file, Message: "valid; comparing with the baseline…"})
	ph := &livePhases{w: w, file: file}
	baseData, err := w.baseline(ctx, ph)
	if err == nil {
		var cur *reports.Data
		cur, err = playReport(ctx, reportGames{rules: rs, base: w.base, baseName: "the baseline", lineups: w.lineups,
			specs: w.specs, games: w.opts.Games, seed: w.opts.Seed, workers: w.opts.Workers,
			minSample: analysis.DefaultMinSample, phases: ph,
			values: w.opts.Values, valueGames: w.valueGames, valueMaxGames: w.valueMaxGames, precision: w.opts.Precision})
		if err == nil {
			st := reports.LiveResult(cur, baseData, reports.Options{})
			st.File, st.Time = file, ""
			st.Seconds = time.Since(began).Seconds()
			w.publish(st)
			return
		}
	}
	if ctx.Err() != nil {
		return // cancelled by a newer save or by Ctrl-C
	}
	w.publish(&reports.LiveState{Status: "failed", File: file, Message: err.Error()})
}

// baseline is the baseline's own report, played once.
func (w *watcher) baseline(ctx context.Context, ph phases) (*reports.Data, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.baseData != nil {
		return w.baseData, nil
	}
	d, err := playReport(ctx, reportGames{rules: w.base, lineups: w.lineups, specs: w.specs, games: w.opts.Games,
		seed: w.opts.Seed, workers: w.opts.Workers, minSample: analysis.DefaultMinSample, phases: ph,
		values: w.opts.Values, valueGames: w.valueGames, valueMaxGames: w.valueMaxGames, precision: w.opts.Precision})
	if err != nil {
		return nil, err
	}
	w.baseData = d
	return d, nil
}

// publish shows st on the live page and, when it is news, on standard
// output.
func (w *watcher) publish(st *reports.LiveState) {
	if st.Time == "" {
		st.Time = time.Now().UTC().Format("15:04:05 UTC")
	}
	w.live.Publish(st)
	w.println(strings.TrimRight(st.Text(), "\n"))
}

func (w *watcher) println(s string) {
	w.outMu.Lock()
	defer w.outMu.Unlock()
	fmt.Fprintln(w.opts.Out, s)
}

// livePhases shows a run's progress on the live page (at most four times a
// second), not in the terminal, where the results go.
type livePhases struct {
	w    *watcher
	file string
	what string
	last time.Time
}

func (p *livePhases) progress(what string) func(done, total int) {
	p.what = what
	return func(done, total int) {
		if total <= 0 || time.Since(p.last) < 250*time.Millisecond {
			return
		}
		p.last = time.Now()
		p.w.live.Publish(&reports.LiveState{Status: "running", File: p.file, Time: time.Now().UTC().Format("15:04:05 UTC"),
			Message: fmt.Sprintf("%s: %d of %d games", p.what, done, total), Progress: float64(done) / float64(total)})
	}
}

func (p *livePhases) finish() {}

// watchGameDefaults: a game without strong plays its default bot
// (defaultBotFor) with the cheap tier's games and card values, unless the
// flags say otherwise; card values only where the game has a Valuer.
func watchGameDefaults(opts *WatchOptions, rs game.Ruleset) {
	if !opts.BotsSet {
		opts.Bots = defaultBotFor(rs)
		if !costly(strings.Split(opts.Bots, ",")) {
			if !opts.GamesSet {
				opts.Games = watchDefaultGames
			}
			if !opts.ValuesSet {
				opts.Values = true
			}
		}
	}
	if _, ok := rs.(game.Valuer); !ok {
		opts.Values = false
	}
}
