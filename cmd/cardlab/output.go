package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cardlab/cardlab/analysis"
	"github.com/cardlab/cardlab/files"
	"github.com/cardlab/cardlab/internal/terminal"
)

// Limits of the count flags: far beyond any run (10^12 games is decades on
// one core) and small enough that games × lineups, shard arithmetic and the
// counts cannot overflow. Values outside them are usage errors (exit 2).
const (
	maxGames     = 1_000_000_000_000
	maxWorkers   = 4096
	maxShards    = analysis.MaxShards
	maxMinSample = 1_000_000_000_000
)

// checkCount range-checks a count flag: a value outside [lo, hi] is a usage
// error, never wrapped around or clamped.
func checkCount(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return usageErrorf("--%s must be at least %d and at most %d, got %d", flag, lo, hi, v)
	}
	return nil
}

// writesFile reports whether --out names a file rather than standard
// output. A result written to a file is always JSON: files are read back
// by merge and report --from, and tables are for reading on a terminal.
func writesFile(outFile string) bool { return outFile != "" && outFile != files.Stdout }

// openResult starts the result output: --out FILE, or standard output when
// outFile is "". Opening it checks it, so commands call it before playing.
func openResult(stdout io.Writer, outFile string) (*files.Output, error) {
	if outFile == "" {
		outFile = files.Stdout
	}
	return files.Create(outFile, stdout)
}

// finishOutput completes an output and says where it went. A partial result
// (an interrupted run) never replaces a file: it goes beside it as
// NAME.partial.EXT. Standard output, devices and FIFOs are written through.
func finishOutput(o *files.Output, partial bool) (string, error) {
	switch {
	case o.Name() == files.Stdout:
		return "standard output", o.Commit()
	case o.Direct() || !partial:
		return o.Name(), o.Commit()
	}
	// Beside the file itself: --out may reach it through a link to
	// another folder.
	p := files.PartialName(o.Path())
	return p, o.CommitAs(p)
}

// writeResult writes a whole result to --out FILE (or standard output) and
// says where it went.
func writeResult(stdout io.Writer, outFile string, data []byte, partial bool) (string, error) {
	o, err := openResult(stdout, outFile)
	if err != nil {
		return "", err
	}
	if _, err := o.Write(data); err != nil {
		o.Abort()
		return "", err
	}
	return finishOutput(o, partial)
}

// partialNote explains where an interrupted run's result went.
func partialNote(where, outFile string) string {
	if outFile == "" || where == outFile {
		return "the result on " + where + " is marked partial"
	}
	return "the partial result is in " + where + " (" + outFile + " is left as it was)"
}

// Bounds of the orderly stop after Ctrl-C or SIGTERM: a write to standard
// output, a device or a FIFO blocked longer than stuckWrite (its reader
// stopped reading), or a stop still running after stopLimit, is given up:
// the process removes its temporaries and exits at once, as on a second
// signal — `timeout` and a service manager's single SIGTERM end it.
var (
	stuckWrite = time.Second
	stopLimit  = 10 * time.Second
)

// interruptible is ctx (Background if nil) cancelled also by Ctrl-C or
// SIGTERM: the games in play are abandoned at once (bots' searches
// included) and what was finished is written. A second Ctrl-C, or an
// orderly stop that cannot finish (stuckWrite, stopLimit), removes our
// temporaries and exits at once with status 128+signal (130 for Ctrl-C).
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return interruptibleSaying(ctx, func() string { return interruptNote(true) })
}

// interruptNote is what the first Ctrl-C prints: whether games were in play
// (watch sits idle between saves, and then has none to stop).
func interruptNote(playing bool) string {
	if playing {
		return "cardlab: interrupted: stopping the games in play (press Ctrl-C again to quit at once)"
	}
	return "cardlab: interrupted: stopping (no games in play; press Ctrl-C again to quit at once)"
}

// interruptibleSaying is interruptible with the first Ctrl-C's message
// asked of note when it comes.
func interruptibleSaying(ctx context.Context, note func() string) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	handled := files.HandleSignals() // a folder's swap need not send them again
	done := make(chan struct{})
	go func() {
		var first os.Signal
		select {
		case first = <-sig:
			fmt.Fprintln(os.Stderr, note())
			cancel()
		case <-done:
			return
		}
		quit := func(why string) {
			files.RemoveTemporaries()
			fmt.Fprintln(os.Stderr, "cardlab: "+terminal.Clean(why)+": quitting without writing") // why may name a file
			code := 130
			if s, ok := first.(syscall.Signal); ok {
				code = 128 + int(s)
			}
			os.Exit(code)
		}
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		limit := time.After(stopLimit)
		for {
			select {
			case <-sig:
				quit("interrupted again")
			case <-limit:
				quit(fmt.Sprintf("still stopping after %v", stopLimit))
			case <-tick.C:
				if name, d := files.Stuck(); d > stuckWrite {
					quit(fmt.Sprintf("%s is not being read (a write has waited %v)", name, d.Round(100*time.Millisecond)))
				}
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		handled()
		cancel()
		close(done)
	}
}
