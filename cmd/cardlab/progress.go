package main

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/cardlab/cardlab/internal/terminal"
)

// gameBar is the progress bar of a long run of games, drawn on standard
// error only when that is a terminal (rate and time left included), so
// redirected output and tests stay clean.
type gameBar struct {
	w    io.Writer
	on   bool
	desc string
	bar  *progressbar.ProgressBar
}

// newGameBar draws on the writer under w's terminal.Writer: the bar moves
// with carriage returns, which that escapes, and shows only cardlab's text.
func newGameBar(w io.Writer, on bool, desc string) *gameBar {
	return &gameBar{w: terminal.Unwrap(w), on: on, desc: desc}
}

// progress returns the callback for a runner's Progress field, or nil when
// no bar is drawn.
func (b *gameBar) progress() func(done, total int) {
	if !b.on {
		return nil
	}
	return func(done, total int) {
		if b.bar == nil && done == 0 {
			return // no rate yet: the bar would start at "0 games/hr"
		}
		if b.bar == nil {
			b.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(b.w),
				progressbar.OptionSetDescription(b.desc), progressbar.OptionShowCount(),
				progressbar.OptionShowIts(), progressbar.OptionSetItsString("games"),
				progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionClearOnFinish(), progressbar.OptionSetWidth(30))
		}
		if int64(total) != b.bar.GetMax64() {
			b.bar.ChangeMax(total) // a staged run plans more games
		}
		_ = b.bar.Set(done)
	}
}

// done removes the bar; the next phase starts a fresh one.
func (b *gameBar) done() {
	if b.bar != nil {
		_ = b.bar.Finish()
		_ = b.bar.Clear()
		b.bar = nil
	}
}
