package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/game"
	// Every game cardlab knows registers itself: rules.yaml's game: key
	// and 'cardlab games' find them in package game.
	_ "github.com/cardlab/cardlab/games/all"
	"github.com/cardlab/cardlab/internal/bug"
	"github.com/cardlab/cardlab/internal/terminal"
)

// version is the cardlab release; set at build time with
// -ldflags "-X main.version=1.2.3".
var version = "0.1.0-dev"

// Exit codes: the rule every command follows (README.md, "Exit status").
// A request that is malformed on its own terms — an unknown command or flag,
// wrong arguments, a flag value that is not what the flag takes (not a
// number, out of its range, empty, an unknown bot or format), flags that
// exclude each other — is a usage error, 2. A well-formed request that the
// ruleset, the input files or the file system cannot satisfy — an unknown
// faction or card, a lineup the rules do not allow, as many bots as seats
// not matching, a bad or edited input file, an output that cannot be
// written — or a run that was interrupted, is an error, 1.
const (
	exitOK    = 0
	exitError = 1 // a well-formed request that cannot be satisfied, bad input files, an interrupted run
	exitUsage = 2 // a malformed request: unknown command or flag, wrong arguments, bad flag values
)

// usageError is an error in how cardlab was invoked. It exits with code 2 and
// the command's usage is printed after it.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// runError marks an error returned by a command's run function: the command
// was invoked correctly and failed, so it exits with code 1 without usage.
// Every other error cobra returns (flag parsing, argument checks, unknown
// commands) happened before a command ran and is a usage error.
type runError struct{ err error }

func (e *runError) Error() string { return e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

// errReported is returned by a run function that has already printed what
// went wrong (validate prints every ruleset error): exit 1, print nothing more.
var errReported = errors.New("errors reported")

// globalOptions are the persistent flags of the root command.
type globalOptions struct {
	// RulesDir is the ruleset directory; "" means the embedded default.
	RulesDir string
	// Game is --game: the game whose default set a command uses without
	// --rules ("" for Alpha Tactics'), on the commands that take it.
	Game string
}

// NewCmdRoot builds the cardlab command tree.
func NewCmdRoot() *cobra.Command {
	g := &globalOptions{}
	root := &cobra.Command{
		Use:   "cardlab",
		Short: "Simulate card games from YAML and report their balance",
		Long: `cardlab is a toolkit for card-game designers. You edit card values in YAML
(a "ruleset": rules.yaml, targets.yaml and one deck file per faction);
cardlab checks them and simulates games to report balance.

Without --rules, commands use the embedded default ruleset: the reconstructed
Star Trek Conquest – Alpha Tactics v1.2.4 set. Start your own with
'cardlab init DIR' and point commands at it with --rules DIR. rules.yaml's
'game:' key says which game a ruleset is for ('cardlab games' lists them;
without the key, Alpha Tactics).

Exit codes: 0 success; 2 a malformed request (an unknown command or
flag, wrong arguments, a flag value that is not what the flag takes);
1 a well-formed request that cannot be satisfied (an unknown faction, a
lineup the rules do not allow, a bad input file, an output that cannot
be written) or an interrupted run.`,
		Example: `  cardlab init mygame            # copy the default ruleset into ./mygame
  cardlab validate --rules mygame
  cardlab cards --rules mygame --faction klingon
  cardlab games                  # the games cardlab can model
  cardlab play --game goofspiel  # one game of another game, move by move
  cardlab effects                # what an effect: line can name
  cardlab schema --out mygame/.schemas`,
		Version:       versionString(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetVersionTemplate("cardlab {{.Version}}\n")
	root.PersistentFlags().StringVar(&g.RulesDir, "rules", "",
		"read the ruleset from `DIR` (default: the embedded Alpha Tactics v1.2.4 set)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &usageError{flagError(err)}
	})

	root.AddCommand(
		NewCmdValidate(g, nil),
		NewCmdCards(g, nil),
		NewCmdEffects(g, nil),
		NewCmdInit(g, nil),
		NewCmdGames(g, nil),
		NewCmdSchema(g, nil),
		NewCmdPlay(g, nil),
		NewCmdScore(g, nil),
		NewCmdSimulate(g, nil),
		NewCmdMerge(g, nil),
		NewCmdLadder(g, nil),
		NewCmdReport(g, nil),
		NewCmdImpact(g, nil),
		NewCmdSweep(g, nil),
		NewCmdDiff(g, nil),
		NewCmdSkill(g, nil),
		NewCmdWatch(g, nil),
		NewCmdPrint(g, nil),
		NewCmdStudy(g, nil),
		NewCmdBalance(g, nil),
	)
	for _, c := range root.Commands() {
		markRunErrors(c)
	}
	return root
}

// markRunErrors wraps the RunE of c and its subcommands so that errors from
// running a command can be told apart from cobra's usage errors.
func markRunErrors(c *cobra.Command) {
	if f := c.RunE; f != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			err := f(cmd, args)
			var ue *usageError
			if err == nil || errors.As(err, &ue) {
				return err
			}
			// A malformed bot spec is a malformed flag value, whichever
			// command found it (the exit-code rule in README.md).
			var se *bots.SpecError
			if errors.As(err, &se) {
				return &usageError{err}
			}
			return &runError{err}
		}
	}
	for _, sub := range c.Commands() {
		markRunErrors(sub)
	}
}

// run executes cardlab with args and returns the exit code. Everything it
// prints goes through terminal.Writer: names and values from rulesets,
// results and shards reach tables, notes and error messages, and none of
// their control characters or bidi overrides may reach a terminal raw.
func run(args []string, stdout, stderr io.Writer) int {
	out, errOut := terminal.NewWriter(stdout), terminal.NewWriter(stderr)
	defer errOut.Flush()
	defer out.Flush()
	return execute(NewCmdRoot(), args, out, errOut)
}

// execute runs the command tree root with args and returns the exit code.
func execute(root *cobra.Command, args []string, stdout, stderr io.Writer) int {
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	var cmd *cobra.Command
	err := func() (err error) {
		// A panic is a bug in cardlab: exit 1 with the stack, never Go's
		// exit status 2, which means a usage error here.
		defer bug.Catch(&err)
		cmd, err = root.ExecuteC()
		return err
	}()
	return exitCode(cmd, err, stderr)
}

// exitCode reports err on stderr and maps it to an exit code.
func exitCode(cmd *cobra.Command, err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var be *bug.Error
	if errors.As(err, &be) {
		var re *runError
		if errors.As(err, &re) {
			err = re.err
		}
		fmt.Fprintf(stderr, "cardlab: %v\n\n%s", err, be.Stack)
		return exitError
	}
	var ue *usageError
	var re *runError
	if !errors.As(err, &ue) && errors.As(err, &re) {
		if !errors.Is(err, errReported) {
			fmt.Fprintf(stderr, "cardlab: %v\n", re.err)
		}
		return exitError
	}
	fmt.Fprintf(stderr, "cardlab: %v\n", err)
	if cmd != nil {
		fmt.Fprintf(stderr, "\n%s", cmd.UsageString())
	}
	return exitUsage
}

// versionString is the version with the VCS revision the binary was built
// from, when the Go toolchain recorded one.
func versionString() string {
	v := version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v += " (revision " + rev
	if modified == "true" {
		v += ", modified"
	}
	return v + ")"
}

// noArgs and exactArgs check positional arguments, reporting usage errors.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("%s takes no arguments, got %q", cmd.Name(), args[0])
	}
	return nil
}

func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErrorf("%s needs %s, got %d", cmd.Name(), what, len(args))
		}
		return nil
	}
}

// loadRuleset loads the ruleset in dir with g's loader (the game
// detectGame found there), or g's embedded default if dir is "": a loader
// of its own where g has one (game.DirLoader; Alpha Tactics'
// rules.LoadDir), else loadGameRuleset.
func loadRuleset(g game.Game, dir string) (game.Ruleset, error) {
	if dir == "" {
		rs, _ := g.Default()
		if rs == nil {
			return nil, fmt.Errorf("game %s has no default ruleset", g.ID())
		}
		return rs, nil
	}
	return loadGameRuleset(g, dir)
}

// rulesetFS is the ruleset in dir as a file system and the prefix its
// messages name files with, as the loaders name them; dir "" is the
// default game's embedded ruleset (nil when it is not linked, which
// game.Detect reports).
func rulesetFS(dir string) (fs.FS, string) {
	if dir == "" {
		if g, ok := game.Lookup(game.DefaultID); ok {
			_, fsys := g.Default()
			return fsys, ""
		}
		return nil, ""
	}
	prefix := filepath.Clean(dir)
	if prefix == "." {
		prefix = ""
	}
	return os.DirFS(dir), filepath.ToSlash(prefix)
}

// detectGame is the game of the ruleset in dir, by rules.yaml's `game:` key
// (game.Detect).
func detectGame(dir string) (game.Game, error) {
	fsys, prefix := rulesetFS(dir)
	return game.Detect(fsys, prefix)
}

// loadGame loads the ruleset in dir for command, a command other than
// validate, with its game's loader: the embedded default game's when dir
// is "". An invalid ruleset is reported with a pointer to validate.
func loadGame(dir string) (game.Game, game.Ruleset, error) {
	g, err := detectGame(dir)
	var rs game.Ruleset
	if err == nil {
		rs, err = loadRuleset(g, dir)
	}
	if err != nil {
		where := "the embedded ruleset"
		hint := "cardlab validate"
		if dir != "" {
			where = "ruleset " + dir
			hint += " --rules " + shellQuote(dir)
		}
		return nil, nil, fmt.Errorf("%s is invalid (run '%s' for every error):\n%v", where, hint, err)
	}
	return g, rs, nil
}

// loadRulesetDir is loadGame's ruleset alone: every command that plays
// loads its ruleset, of any game, with it.
func loadRulesetDir(dir string) (game.Ruleset, error) {
	_, rs, err := loadGame(dir)
	return rs, err
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

// suggest returns the candidates closest to s (edit distance at most 2, or a
// case-insensitive or prefix match), for "did you mean" messages.
func suggest(s string, candidates []string) []string {
	var out []string
	best := 3
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		if d > 2 && len(s) >= 3 && strings.HasPrefix(strings.ToLower(c), strings.ToLower(s)) {
			d = 2
		}
		switch {
		case d < best:
			best, out = d, []string{c}
		case d == best:
			out = append(out, c)
		}
	}
	return out
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// didYouMean formats an unknown-name error: `unknown faction "x"; did you
// mean "y"? (valid: a, b, c)`.
func didYouMean(what, got string, valid []string) error {
	msg := fmt.Sprintf("unknown %s %q", what, got)
	if s := suggest(got, valid); len(s) > 0 {
		msg += "; did you mean " + strings.Join(quoteAll(s), " or ") + "?"
	}
	return fmt.Errorf("%s (valid: %s)", msg, strings.Join(valid, ", "))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
