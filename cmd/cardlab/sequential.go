package main

import (
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"

	"github.com/cardlab/cardlab/analysis"
)

// untilPrecise runs a paired analysis with more and more games per lineup
// until the widest 95% half-width of interest (in the analysis's own unit)
// is at most precision, or most games per lineup were played (precision
// <= 0: one run of first games). run plays a whole analysis with the games
// given and returns its widest half-width.
//
// Why this keeps the error rates: the decision to go on looks only at the
// intervals' widths — the games' variance — never at the estimates, so it
// cannot select a lucky estimate (a fixed-width sequential interval in the
// sense of Chow and Robbins; its coverage tends to the nominal 95%).
// docs/metrics.md ("Sequential stopping") has the argument. Game seeds
// depend on the games per lineup, so each stage replays from the first
// game; stages grow at least 1.5-fold, so all stages together cost at most
// three times the last one.
func untilPrecise(first, most int, precision float64, log io.Writer, run func(games int) (widest float64, err error)) (int, error) {
	games := first
	for {
		widest, err := run(games)
		if err != nil || precision <= 0 || widest <= precision || games >= most {
			if err == nil && precision > 0 && widest > precision {
				fmt.Fprintf(log, "note: the widest half-width is %.2f, above --precision %.2f, at --max-games %d per lineup\n", widest, precision, most)
			}
			return games, err
		}
		// need is compared as a float before it becomes an int: a precision
		// far below the half-width asks for more games than an int holds.
		need := float64(games) * math.Pow(widest/precision, 2) * 1.1
		next := most
		if need < float64(most) {
			next = min(max(int(math.Ceil(need)), games+games/2), most)
		}
		fmt.Fprintf(log, "widest half-width %.2f > %.2f: playing again with %d games per lineup\n", widest, precision, next)
		games = next
	}
}

// playStages plays a paired analysis in stages (untilPrecise) and returns
// the result to write. run plays one stage and says whether it was
// interrupted and its widest half-width. A first stage interrupted is
// returned as it is (written as partial); a later one interrupted gives way
// to the last complete stage — a whole result of its own — and cut says so,
// to be reported after writing it.
func playStages[R any](o SequentialOptions, first int, log io.Writer, run func(games int) (r R, partial bool, widest float64, err error)) (res R, cut, err error) {
	have, done := false, 0
	_, err = untilPrecise(first, o.MaxGames, o.Precision, log, func(games int) (float64, error) {
		r, partial, widest, err := run(games)
		switch {
		case err != nil:
			return 0, err
		case partial && have:
			cut = fmt.Errorf("interrupted while playing more games for --precision: the result written is the last complete stage, %d games per lineup", done)
			return 0, nil
		}
		res, have, done = r, true, games
		if partial {
			return 0, nil
		}
		return widest, nil
	})
	return res, cut, err
}

// SequentialOptions are the flags of sequential stopping (diff, sweep).
type SequentialOptions struct {
	// Precision is the widest 95% half-width of interest, in win-share
	// points, to play for (0: play --games exactly); MaxGames caps the
	// games per lineup.
	Precision float64
	MaxGames  int
}

func sequentialFlags(cmd *cobra.Command, o *SequentialOptions, what string) {
	fl := cmd.Flags()
	floatVar(fl, &o.Precision, "precision", 0, "play until "+what+" 95% interval is within ±`P` win-share points, starting from --games and replaying with more (0: play --games exactly, as --shard needs)")
	fl.IntVar(&o.MaxGames, "max-games", 100000, "with --precision, at most `N` games per lineup")
}

func (o *SequentialOptions) check(games int) error {
	if !(o.Precision == 0 || o.Precision >= analysis.MinPrecision) {
		return usageErrorf("--precision must be 0 (off) or at least %g points, got %g", analysis.MinPrecision, o.Precision)
	}
	if o.Precision > 0 && o.MaxGames < games {
		return usageErrorf("--max-games (%d) must be at least --games (%d)", o.MaxGames, games)
	}
	return nil
}

// widest is the widest half-width, in points, of the factions' intervals.
func widest(fs []analysis.FactionDelta) float64 {
	w := 0.0
	for _, f := range fs {
		w = max(w, 100*(f.CI95[1]-f.CI95[0])/2)
	}
	return w
}

// checkShard reads --shard into o.Shard: a sharded run plays --games
// exactly, since stopping when precise enough needs every shard's games.
func (s *SequentialOptions) checkShard(cmd *cobra.Command, spec string, o *BatchOptions) error {
	if err := parseShardFlag(cmd, spec, &o.Shard, &o.ShardArgs); err != nil {
		return err
	}
	if o.Shard.N > 0 && s.Precision != 0 {
		return usageErrorf("--shard needs a fixed number of games: drop --precision (--games per lineup are played exactly); stopping when precise enough needs every shard's games in one place")
	}
	return nil
}
