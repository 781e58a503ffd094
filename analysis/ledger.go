package analysis

// Sharded analyses. A command that plays games in several phases (impact,
// diff, sweep, report: runs, paired arms, the card-value experiment) is
// split into shards by a Ledger carried in its context. Recording, every
// phase plays only the games of shard k of n (global index i with
// i mod n = k−1, the rule of Run) and keeps what the games gave: per-game
// outcomes (paired arms, card-value records) and integer counts (runs, arms
// that count). Replaying, the same command is run again with the records of
// every shard and plays nothing: each phase takes its games from the shards,
// so every statistic is computed from exactly the numbers the unsharded run
// computes it from, and the result is the unsharded one byte for byte but
// for its timing.
//
// A phase is named by a key over everything that chooses its games
// (rulesets, lineups, bots, games, seed): a replay that asks for a phase the
// shards did not record — another ruleset, other flags — fails instead of
// pairing the wrong games.

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cardlab/cardlab/game"
)

// Phase kinds.
const (
	phaseRun    = "run"
	phaseArms   = "arms"
	phaseValues = "values"
)

// Phase is what one shard's games of one phase gave.
type Phase struct {
	Kind string `json:"kind"`
	// Key names the phase's games (phaseKey); Rulesets are the hashes of
	// the rulesets it played, for a clear message when they differ.
	Key      string   `json:"key"`
	Rulesets []string `json:"rulesets"`
	// Games is the number of games the shard played in this phase, in
	// Seconds: a merge's timing is the shards' summed, as simulate's is.
	Games   int64   `json:"games"`
	Seconds float64 `json:"seconds"`
	// Counts are a run's summable counts.
	Counts *Counts `json:"counts,omitempty"`
	// Records are a run's game records, when its caller reads them (the
	// report's histograms).
	Records []GameRecord `json:"records,omitempty"`
	// Arms are the paired arms' outcomes, in the order they were given.
	Arms []ArmPhase `json:"arms,omitempty"`
	// Values are the card-value experiment's records: the int32s of each
	// of the shard's games (in game order), little-endian.
	Values []byte `json:"values,omitempty"`
	// partial: the shard was interrupted in this phase (never written).
	partial bool
}

// ArmPhase is one paired arm's share of a phase: Units holds, per game of
// the shard (in game order), the win units of each lineup position
// (game.MaxSeats bytes, −1 for a game the arm does not play); Starts, per
// game, the seat that began it (game.Starter; 0 for a game without one or
// not played), which the starting seat's comparisons pair.
type ArmPhase struct {
	Units  []byte  `json:"units"`
	Starts []byte  `json:"starts"`
	Counts *Counts `json:"counts,omitempty"`
}

// Ledger records the phases of shard k of n, or replays the phases of all
// n shards.
type Ledger struct {
	mu    sync.Mutex
	shard Shard
	// replaying: l replays (a run of no phases has an empty replay).
	replaying bool
	replay    [][]*Phase // replay[p][k-1]: phase p of shard k
	phases    []*Phase   // recorded
	next      int        // replay: the phase taken next
}

// NewShardLedger records the phases of shard sh.
func NewShardLedger(sh Shard) *Ledger { return &Ledger{shard: sh} }

// NewReplayLedger replays the phases of shards 1…n: phases[k-1] are shard
// k's, as recorded. The shards must have recorded the same phases (kinds
// and keys), which the replay checks as each is taken.
func NewReplayLedger(phases [][]Phase) (*Ledger, error) {
	n := len(phases)
	if n == 0 {
		return nil, fmt.Errorf("analysis: no shards to replay")
	}
	l := &Ledger{shard: Shard{1, n}, replaying: true}
	for k, ps := range phases {
		if len(ps) != len(phases[0]) {
			return nil, fmt.Errorf("shards 1/%d and %d/%d recorded %d and %d phases: they are not shards of one run", n, k+1, n, len(phases[0]), len(ps))
		}
	}
	for p := range phases[0] {
		row := make([]*Phase, n)
		for k := range phases {
			row[k] = &phases[k][p]
			if row[k].Kind != row[0].Kind || row[k].Key != row[0].Key {
				return nil, fmt.Errorf("shards 1/%d and %d/%d differ in phase %d (%s %s vs %s %s): they are not shards of one run",
					n, k+1, n, p+1, row[0].Kind, short(row[0].Key), row[k].Kind, short(row[k].Key))
			}
		}
		l.replay = append(l.replay, row)
	}
	return l, nil
}

// Shard is the shard l records (1/n replaying n shards).
func (l *Ledger) Shard() Shard { return l.shard }

// Phases returns the phases recorded.
func (l *Ledger) Phases() []Phase {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Phase, len(l.phases))
	for i, p := range l.phases {
		out[i] = *p
	}
	return out
}

// Partial reports whether a phase recorded was interrupted: such a shard
// is not written (it would hold fewer games than its merge needs).
func (l *Ledger) Partial() bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.phases {
		if p.partial {
			return true
		}
	}
	return false
}

// Replaying reports whether l replays recorded shards.
func (l *Ledger) Replaying() bool { return l != nil && l.replaying }

// Recording reports whether l records a shard.
func (l *Ledger) Recording() bool { return l != nil && !l.replaying }

// Done reports an error if a replay left phases untaken: the shards
// recorded more than the command played.
func (l *Ledger) Done() error {
	if !l.Replaying() {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.next != len(l.replay) {
		return fmt.Errorf("the shards recorded %d phases of games, the command played %d: they are not shards of this run", len(l.replay), l.next)
	}
	return nil
}

type ledgerKey struct{}

// WithLedger returns ctx carrying l: the analyses run under it play (or
// replay) their shard.
func WithLedger(ctx context.Context, l *Ledger) context.Context {
	return context.WithValue(ctx, ledgerKey{}, l)
}

// LedgerFrom returns the ledger ctx carries (nil: none).
func LedgerFrom(ctx context.Context) *Ledger { return ledgerFrom(ctx) }

func ledgerFrom(ctx context.Context) *Ledger {
	if ctx == nil {
		return nil
	}
	l, _ := ctx.Value(ledgerKey{}).(*Ledger)
	return l
}

// phaseKey names a phase by what chooses its games.
func phaseKey(kind string, parts ...any) string {
	return JSONSum(append([]any{kind}, parts...))
}

func (l *Ledger) record(p *Phase) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.phases = append(l.phases, p)
}

// take returns every shard's record of the next phase, which must be of
// kind and key.
func (l *Ledger) take(kind, key string, rulesets []string) ([]*Phase, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.next >= len(l.replay) {
		return nil, fmt.Errorf("the shards recorded %d phases of games, the command plays more: they are not shards of this run", len(l.replay))
	}
	row := l.replay[l.next]
	l.next++
	p := row[0]
	if p.Kind == kind && !slices.Equal(p.Rulesets, rulesets) {
		return nil, fmt.Errorf("phase %d: the shards played the ruleset(s) %s, this merge has %s: merge with the rulesets the shards played (--rules)",
			l.next, shortAll(p.Rulesets), shortAll(rulesets))
	}
	if p.Kind != kind || p.Key != key {
		return nil, fmt.Errorf("phase %d: the shards recorded other games (%s %s, here %s %s): they are not shards of this run", l.next, p.Kind, short(p.Key), kind, short(key))
	}
	return row, nil
}

func shortAll(hs []string) string {
	out := ""
	for i, h := range hs {
		if i > 0 {
			out += ", "
		}
		out += short(h)
	}
	return out
}

// maxSeconds bounds a phase's Seconds (a hundred years), as Timing.check
// bounds a result's: a forged figure is refused, not summed into nonsense.
const maxSeconds = 100 * 365.25 * 24 * 3600

// seconds is the phase's time summed over the shards.
func seconds(row []*Phase) (time.Duration, error) {
	sum := 0.0
	for k, p := range row {
		if !(p.Seconds >= 0 && p.Seconds <= maxSeconds) {
			return 0, fmt.Errorf("shard %d/%d: %g seconds is no time a phase takes", k+1, len(row), p.Seconds)
		}
		sum += p.Seconds
	}
	if sum > maxSeconds {
		return 0, fmt.Errorf("the shards took %g seconds together, more than a hundred years", sum)
	}
	return time.Duration(sum * float64(time.Second)), nil
}

func secondsOf(d time.Duration) float64 { return d.Seconds() }

// shardGameCount is the number of games i in [0, all) with i mod n = k−1.
func shardGameCount(all, k, n int) int {
	if k-1 >= all {
		return 0
	}
	return (all-1-(k-1))/n + 1
}

// sumCounts adds the shards' counts of one phase, checked against the
// layout want (the counts the replaying run would have started from).
func sumCounts(want *Counts, parts []*Counts, games []int64) (*Counts, error) {
	sum := cloneCounts(want)
	for k, c := range parts {
		if c == nil {
			return nil, fmt.Errorf("shard %d/%d holds no counts", k+1, len(parts))
		}
		c.game = want.game // a shard file's counts are of the replaying run's game
		if err := sameLayout(want, c); err != nil {
			return nil, fmt.Errorf("shard %d/%d: %v", k+1, len(parts), err)
		}
		if err := c.Check(); err != nil {
			return nil, fmt.Errorf("shard %d/%d: %v", k+1, len(parts), err)
		}
		if c.Games != games[k] {
			return nil, fmt.Errorf("shard %d/%d: its counts hold %d games, it played %d", k+1, len(parts), c.Games, games[k])
		}
		if err := addChecked(sum, c); err != nil {
			return nil, fmt.Errorf("shard %d/%d: %v", k+1, len(parts), err)
		}
	}
	if err := sum.Check(); err != nil {
		return nil, fmt.Errorf("the shards' counts together: %v", err)
	}
	return sum, nil
}

// --- paired arms ----------------------------------------------------------------

func armsKey(cfg *PairedConfig, arms []*arm) (string, []string) {
	type armKey struct {
		Ruleset string
		Bots    []string
		Lineups []int
		Counts  bool
		Salt    uint64
	}
	var ks []armKey
	var hashes []string
	for _, a := range arms {
		h := a.g.Info().Hash
		id := h
		if a.variant && a.blank >= 0 {
			// Another game's impact arm: its ruleset with one card's copy
			// blanked (Alpha Tactics' variants have hashes of their own).
			id = fmt.Sprintf("%s/blank-%d", h, a.blank)
		}
		ks = append(ks, armKey{id, a.bots, a.lineups, a.counts, a.botSalt})
		if !slices.Contains(hashes, h) {
			hashes = append(hashes, h)
		}
	}
	return phaseKey(phaseArms, cfg.Matchups, cfg.Bots, cfg.Games, cfg.Seed, ks), hashes
}

// recordArms keeps the outcomes of the shard's games of every arm.
func (l *Ledger) recordArms(cfg *PairedConfig, arms []*arm, partial bool, elapsed time.Duration) {
	key, hashes := armsKey(cfg, arms)
	all := len(cfg.Matchups) * cfg.Games
	p := &Phase{Kind: phaseArms, Key: key, Rulesets: hashes, partial: partial, Seconds: secondsOf(elapsed)}
	for _, a := range arms {
		ap := ArmPhase{Counts: a.Counts}
		for i := l.shard.K - 1; i < all; i += l.shard.N {
			for k := range game.MaxSeats {
				ap.Units = append(ap.Units, byte(a.units[i*game.MaxSeats+k]))
			}
			ap.Starts = append(ap.Starts, byte(a.starts[i]))
			if a.units[i*game.MaxSeats] >= 0 {
				p.Games++
			}
		}
		p.Arms = append(p.Arms, ap)
	}
	l.record(p)
}

// replayArms fills every arm's outcomes (and counts) from the shards. The
// arms' plans and empty units are set up as runArms does.
func (l *Ledger) replayArms(cfg *PairedConfig, arms []*arm) (elapsed time.Duration, err error) {
	key, hashes := armsKey(cfg, arms)
	row, err := l.take(phaseArms, key, hashes)
	if err != nil {
		return 0, err
	}
	if elapsed, err = seconds(row); err != nil {
		return 0, err
	}
	n := len(row)
	all := len(cfg.Matchups) * cfg.Games
	played := make([]int64, n) // per shard, over the arms
	defer func() {
		for k, p := range row {
			if err == nil && played[k] != p.Games {
				err = fmt.Errorf("shard %d/%d says it played %d paired games and holds %d", k+1, n, p.Games, played[k])
			}
		}
	}()
	for ai, a := range arms {
		in := make([]bool, len(cfg.Matchups))
		for _, li := range a.lineups {
			in[li] = true
		}
		var parts []*Counts
		games := make([]int64, n)
		for k, p := range row {
			if len(p.Arms) != len(arms) {
				return 0, fmt.Errorf("shard %d/%d holds %d arms, want %d", k+1, n, len(p.Arms), len(arms))
			}
			u, st := p.Arms[ai].Units, p.Arms[ai].Starts
			if len(u) != shardGameCount(all, k+1, n)*game.MaxSeats {
				return 0, fmt.Errorf("shard %d/%d holds %d bytes of outcomes for arm %d, want %d", k+1, n, len(u), ai+1, shardGameCount(all, k+1, n)*game.MaxSeats)
			}
			if len(st) != shardGameCount(all, k+1, n) {
				return 0, fmt.Errorf("shard %d/%d holds %d starting seats for arm %d, want %d (one a game)", k+1, n, len(st), ai+1, shardGameCount(all, k+1, n))
			}
			for t, i := 0, k; i < all; t, i = t+1, i+n {
				li := i / cfg.Games
				size := len(cfg.Matchups[li])
				got := u[t*game.MaxSeats : (t+1)*game.MaxSeats]
				if !in[li] {
					if int8(got[0]) != -1 || st[t] != 0 {
						return 0, fmt.Errorf("shard %d/%d: arm %d has an outcome for game %d, which it does not play", k+1, n, ai+1, i)
					}
					continue
				}
				if int(st[t]) >= size {
					return 0, fmt.Errorf("shard %d/%d: arm %d, game %d: seat %d began a game of %d seats", k+1, n, ai+1, i, int(st[t])+1, size)
				}
				total := 0
				for q, b := range got {
					v := int(int8(b))
					if q >= size && v != 0 || v < 0 || v > WinUnit {
						return 0, fmt.Errorf("shard %d/%d: arm %d, game %d: outcome %d at position %d is impossible", k+1, n, ai+1, i, v, q+1)
					}
					total += v
				}
				if total > WinUnit {
					return 0, fmt.Errorf("shard %d/%d: arm %d, game %d: %d win units given out, at most %d", k+1, n, ai+1, i, total, WinUnit)
				}
				for q, b := range got {
					a.units[i*game.MaxSeats+q] = int8(b)
				}
				a.starts[i] = int8(st[t])
				games[k]++
				played[k]++
			}
			parts = append(parts, p.Arms[ai].Counts)
		}
		if a.counts {
			sum, err := sumCounts(newAcc(a.plan).counts(), parts, games)
			if err != nil {
				return 0, fmt.Errorf("arm %d: %v", ai+1, err)
			}
			a.Counts = sum
		}
	}
	return elapsed, nil
}

// --- runs ----------------------------------------------------------------------

func runKey(cfg *Config, p *plan) string {
	var ls [][]string
	for _, l := range p.lineups {
		ls = append(ls, l.ids)
	}
	return phaseKey(phaseRun, ls, p.bots, p.games, p.seed, p.botSalt, cfg.Record != nil || cfg.KeepGames)
}

// replayRun is Run of the shards' games: their counts added, their records
// (if the caller reads them) handed on in game order.
func (l *Ledger) replayRun(cfg Config, p *plan) (*Result, error) {
	row, err := l.take(phaseRun, runKey(&cfg, p), []string{p.g.Info().Hash})
	if err != nil {
		return nil, err
	}
	elapsed, err := seconds(row)
	if err != nil {
		return nil, err
	}
	n := len(row)
	all := len(p.lineups) * p.games
	parts := make([]*Counts, n)
	games := make([]int64, n)
	for k, ph := range row {
		parts[k], games[k] = ph.Counts, int64(shardGameCount(all, k+1, n))
	}
	sum, err := sumCounts(newAcc(p).counts(), parts, games)
	if err != nil {
		return nil, err
	}
	var keep []GameRecord
	if cfg.Record != nil || cfg.KeepGames {
		for k, ph := range row {
			if int64(len(ph.Records)) != games[k] {
				return nil, fmt.Errorf("shard %d/%d holds %d game records, it played %d games", k+1, n, len(ph.Records), games[k])
			}
		}
		for i := range all {
			g := &row[i%n].Records[i/n]
			if err := p.checkRecord(g, i); err != nil {
				return nil, fmt.Errorf("shard %d/%d: %v", i%n+1, n, err)
			}
			if cfg.Record != nil {
				if err := cfg.Record(g); err != nil {
					return nil, err
				}
			}
			if cfg.KeepGames {
				keep = append(keep, *g)
			}
		}
	}
	return finishResult(cfg, p, sum, elapsed, false, keep), nil
}

// checkRecord checks that g can be the record of game i of the plan: its
// index, seed, seats and bots, and figures within the engine's bounds.
func (p *plan) checkRecord(g *GameRecord, i int) error {
	li, j := i/p.games, i%p.games
	ids := p.lineups[li].ids
	n := len(ids)
	bad := func(what string) error { return fmt.Errorf("the record of game %d: %s", i, what) }
	if g.Index != i || g.Seed != game.SeedFor(p.seed, uint64(i)) {
		return bad(fmt.Sprintf("index %d, seed %d", g.Index, g.Seed))
	}
	if len(g.Factions) != n || len(g.Bots) != n || len(g.VP) != n {
		return bad("not one faction, bot and score per seat")
	}
	for q := range n {
		if f := ids[(q+j%n)%n]; g.Factions[q] != f || g.VP[q].Faction != f || g.Bots[q] != p.botFor(q) {
			return bad("seats differ from the lineup's")
		}
		v := g.VP[q]
		if v.Total < -1<<20 || v.Total > 1<<20 {
			return bad("a score out of bounds")
		}
		for _, x := range v.Named {
			if x.Value < -1<<20 || x.Value > 1<<20 {
				return bad("a score out of bounds")
			}
		}
	}
	for _, x := range g.Game {
		if x.Value < 0 || x.Value > maxDecisions {
			return bad("winners, start seat, rounds or decisions out of bounds")
		}
	}
	if len(g.Winners) > n || g.StartSeat < 0 || g.StartSeat > n ||
		g.Decisions < 0 || g.Decisions > maxDecisions+1 {
		return bad("winners, start seat, rounds or decisions out of bounds")
	}
	for _, w := range g.Winners {
		if !slices.Contains(g.Factions, w) {
			return bad("a winner not at the table")
		}
	}
	return nil
}

// --- card values ----------------------------------------------------------------

func valuesKey(d *valueDesign, games int) (string, []string) {
	c := d.cfg
	var ls [][]string
	for _, l := range d.plan.lineups {
		ls = append(ls, l.ids)
	}
	h := d.plan.g.Info().Hash
	return phaseKey(phaseValues, h, ls, d.plan.bots, games, d.plan.seed, c.BlankRate, c.ShiftRate, int(c.model)), []string{h}
}

func int32Bytes(xs []int32) []byte {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

// replayValues reads every shard's card-value records of games [0, games)
// per lineup: one pool per shard and a ref per game t (game j of lineup li
// is t = j·nl + li), each record checked against the design so that no
// record can lead the fit out of its parameters.
func (l *Ledger) replayValues(d *valueDesign, games int) (pools [][]int32, refs []recordRef, elapsed time.Duration, err error) {
	key, hashes := valuesKey(d, games)
	row, err := l.take(phaseValues, key, hashes)
	if err != nil {
		return nil, nil, 0, err
	}
	if elapsed, err = seconds(row); err != nil {
		return nil, nil, 0, err
	}
	n := len(row)
	nl := len(d.plan.lineups)
	all := games * nl
	refs = make([]recordRef, all)
	for k, p := range row {
		if len(p.Values)%4 != 0 {
			return nil, nil, 0, fmt.Errorf("shard %d/%d: card-value records of %d bytes (not whole int32s)", k+1, n, len(p.Values))
		}
		pool := make([]int32, len(p.Values)/4)
		for i := range pool {
			pool[i] = int32(binary.LittleEndian.Uint32(p.Values[4*i:]))
		}
		off := 0
		for t := k; t < all; t += n {
			end, err := d.checkRecord(pool, off, t%nl, (t/nl)%len(d.plan.lineups[t%nl].ids))
			if err != nil {
				return nil, nil, 0, fmt.Errorf("shard %d/%d, card-value game %d: %v", k+1, n, t, err)
			}
			refs[t] = recordRef{int32(k), int32(off)}
			off = end
		}
		if off != len(pool) {
			return nil, nil, 0, fmt.Errorf("shard %d/%d: %d card-value numbers after its last game", k+1, n, len(pool)-off)
		}
		pools = append(pools, pool)
	}
	return pools, refs, elapsed, nil
}

// checkRecord checks the record at pool[off:] of a game of lineup li with
// rotation rot and returns where it ends.
func (d *valueDesign) checkRecord(pool []int32, off, li, rot int) (int, error) {
	if off >= len(pool) || off > 1<<31-1 {
		return 0, fmt.Errorf("record missing")
	}
	if pool[off] != int32(li)<<8|int32(rot) {
		return 0, fmt.Errorf("record of lineup %d rotation %d, want %d and %d", pool[off]>>8, pool[off]&0xff, li, rot)
	}
	at := off + 1
	total := int32(0)
	for range d.plan.lineups[li].fac {
		if at+2 > len(pool) {
			return 0, fmt.Errorf("record cut short")
		}
		units, cnt := pool[at], pool[at+1]
		if units < 0 || units > WinUnit {
			return 0, fmt.Errorf("win units %d", units)
		}
		total += units
		if cnt < 0 || int(cnt) > len(pool)-at-2 {
			return 0, fmt.Errorf("%d terms, beyond the record", cnt)
		}
		for _, tm := range pool[at+2 : at+2+int(cnt)] {
			if par := int(tm >> 8); par < 0 || par >= d.params {
				return 0, fmt.Errorf("parameter %d of %d", par, d.params)
			}
		}
		at += 2 + int(cnt)
	}
	if total > WinUnit {
		return 0, fmt.Errorf("%d win units given out", total)
	}
	return at, nil
}

// recordLen is the length of the record at the start of rec.
func (d *valueDesign) recordLen(rec []int32) int {
	at := 1
	for range d.plan.lineups[rec[0]>>8].fac {
		at += 2 + int(rec[at+1])
	}
	return at
}
