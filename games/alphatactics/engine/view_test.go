package engine

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// publicOf renders what seat v can see of s, to compare a state with its
// determinizations.
func publicOf(s *State, v int) []int {
	var out []int
	out = append(out, int(s.phase), int(s.round), s.CurrentPlayer(), s.NumRows(), s.TargetsLeft())
	for r := 0; r < s.NumRows(); r++ {
		out = append(out, s.RowTarget(r), s.RowLen(r))
		for k := 0; k < s.RowLen(r); k++ {
			in := s.Slot(v, r, k)
			b := 0
			if in.FaceUp {
				b = 1
			}
			out = append(out, in.Card, in.Owner, b)
		}
	}
	for p := 0; p < s.NumPlayers(); p++ {
		out = append(out, s.HandLen(p), s.DrawLen(p), s.DiscardLen(p), len(s.Won(p)))
		for k := 0; k < s.HandLen(p); k++ {
			out = append(out, s.HandCard(v, p, k))
		}
		for k := 0; k < s.DiscardLen(p); k++ {
			out = append(out, s.DiscardCard(p, k))
		}
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A determinization keeps everything the viewer can see, changes what it
// cannot, keeps every card in one place, and can be played to the end.
func TestDeterminize(t *testing.T) {
	rs := buildRS()
	changed := 0
	for seed := uint64(0); seed < 300; seed++ {
		s, _ := New(rs, Config{Factions: allFactions[:3], Seed: seed})
		bot := NewRNG(seed)
		var buf []Action
		steps := bot.Intn(300)
		for i := 0; i < steps && !s.IsTerminal(); i++ {
			buf = s.LegalActions(buf)
			s.Apply(buf[bot.Intn(len(buf))])
		}
		if s.IsTerminal() {
			continue
		}
		v := s.CurrentPlayer()
		d := s.Clone()
		r := NewRNG(seed * 7)
		d.Determinize(v, &r)
		if err := d.CheckInvariants(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !equalInts(publicOf(s, v), publicOf(d, v)) {
			t.Fatalf("seed %d: determinization changed what seat %d sees", seed, v)
		}
		la, lb := s.LegalActions(nil), d.LegalActions(nil)
		if len(la) != len(lb) {
			t.Fatalf("seed %d: legal actions differ for the viewer: %v vs %v", seed, la, lb)
		}
		if !equalInts(publicOf(s, Omniscient), publicOf(d, Omniscient)) {
			changed++
		}
		for !d.IsTerminal() {
			buf = d.LegalActions(buf)
			d.Apply(buf[bot.Intn(len(buf))])
		}
	}
	if changed < 100 {
		t.Fatalf("only %d determinizations changed hidden cards", changed)
	}
}

// rowViewByScan is RowView computed the plain way, as the definition the
// branch-free ViewRows must agree with.
func rowViewByScan(s *State, viewer, r int) RowView {
	rv := RowView{Len: int32(s.RowLen(r)), Target: int32(s.RowTarget(r)), Open: s.canPlace(r), Bottom: -1,
		Top: [maxPlayers]int32{-1, -1, -1, -1}}
	for k := 0; k < s.RowLen(r); k++ {
		sl := &s.rows[r].s[k]
		o := s.ownerOf(sl.inst)
		if rv.Top[o] < 0 {
			rv.Top[o] = int32(k)
		}
		if sl.flags&fFaceUp != 0 || o == viewer {
			p := s.card(s.defOf(sl.inst)).Power - int(sl.weaken)
			if p < 0 || sl.flags&fDeactPower != 0 {
				p = 0
			}
			rv.Known[o] += int32(p)
		} else {
			rv.Hidden[o]++
		}
		if k == s.RowLen(r)-1 {
			rv.BottomDown = sl.flags&fFaceUp == 0
			if !rv.BottomDown || o == viewer {
				rv.Bottom = int32(s.defOf(sl.inst))
			}
		}
	}
	return rv
}

// TestViewRowsMatchScan: ViewRows agrees with the plain definition after
// every action and effect of random games, and on determinized clones, for
// every viewer.
func TestViewRowsMatchScan(t *testing.T) {
	rs := buildRS()
	bot := NewRNG(5)
	var views [maxRows]RowView
	buf := make([]Action, 0, 256)
	for _, n := range []int{2, 3, 4} {
		s, err := New(rs, Config{Factions: allFactions[:n], Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for g := 0; g < 300; g++ {
			s.Reset(uint64(g))
			for step := 0; !s.IsTerminal(); step++ {
				check := s
				if step%7 == 3 {
					check = s.Clone()
					r := NewRNG(uint64(step))
					check.Determinize(check.CurrentPlayer(), &r)
				}
				for v := -1; v < n; v++ {
					check.ViewRows(v, &views)
					for r := 0; r < check.NumRows(); r++ {
						if want := rowViewByScan(check, v, r); views[r] != want {
							t.Fatalf("%d players, game %d, step %d, viewer %d, row %d:\n got %+v\nwant %+v", n, g, step, v, r, views[r], want)
						}
					}
				}
				buf = s.LegalActions(buf)
				s.Apply(buf[bot.Intn(len(buf))])
			}
		}
	}
}

// ViewRowsSince, fed the same array and stamp decision after decision, must
// show exactly what ViewRows shows: every row change bumps its version, and
// a copy or a redeal starts a new line of play. Each viewer keeps its own
// array (as greedy does), and one array shared by all viewers must not leak
// one seat's view into another's.
func TestViewRowsSinceMatchesViewRows(t *testing.T) {
	rs := rules.Default()
	for n := 2; n <= 4; n++ {
		var per [maxPlayers][rules.MaxRows]RowView
		var perStamp [maxPlayers]ViewStamp
		var shared [rules.MaxRows]RowView
		var sharedStamp ViewStamp
		for seed := uint64(0); seed < 150; seed++ {
			s, err := New(rs, Config{Factions: allFactions[:n], Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			bot := NewRNG(seed ^ 0x51ce)
			var buf []Action
			for step := 0; !s.IsTerminal(); step++ {
				if step%37 == 36 { // a redeal, or a switch to a copy, in the middle
					if step%2 == 0 {
						s.Determinize(s.CurrentPlayer(), &bot)
					} else {
						s = s.Clone()
					}
				}
				var want [rules.MaxRows]RowView
				for v := 0; v < n; v++ {
					s.ViewRows(v, &want)
					s.ViewRowsSince(v, &per[v], &perStamp[v])
					s.ViewRowsSince(v, &shared, &sharedStamp)
					for r := 0; r < s.NumRows(); r++ {
						if per[v][r] != want[r] || shared[r] != want[r] {
							t.Fatalf("%dp seed %d step %d viewer %d row %d: since %+v / %+v, ViewRows %+v",
								n, seed, step, v, r, per[v][r], shared[r], want[r])
						}
					}
				}
				buf = s.LegalActions(buf)
				s.Apply(buf[bot.Intn(len(buf))])
			}
		}
	}
}

// HeldTargets is the set ProvisionalScore counts, through whole random games.
func TestHeldTargets(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		s, err := New(rules.Default(), Config{Factions: allFactions[:3], Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		rng := NewRNG(seed)
		var buf []Action
		seen := false
		for !s.IsTerminal() {
			for p := 0; p < s.NumPlayers(); p++ {
				h := s.HeldTargets(p)
				if got, want := bits.OnesCount64(h), s.ProvisionalScore(p).Targets; got != want {
					t.Fatalf("seed %d seat %d: %d targets held, ProvisionalScore counts %d", seed, p, got, want)
				}
				seen = seen || h != 0
			}
			a, _ := s.RandomAction(&rng, 20, &buf)
			s.Apply(a)
		}
		if !seen {
			t.Fatalf("seed %d: nobody ever held a target", seed)
		}
	}
}

// CopyInto copies only the rows, seats and frames in use: a copy into a
// state that held another game (more seats, rows and frames, later
// rounds) plays on exactly as a fresh clone does, whatever point it is
// taken at.
func TestCopyIntoReusedState(t *testing.T) {
	rs := rules.Default()
	for seed := uint64(1); seed <= 4; seed++ {
		src, err := New(rs, Config{Factions: allFactions[:2], Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		other, err := New(rs, Config{Factions: allFactions[:4], Seed: seed + 100})
		if err != nil {
			t.Fatal(err)
		}
		rng := NewRNG(seed)
		var buf []Action
		for step := 0; !src.IsTerminal(); step++ {
			if step%7 == 0 {
				// The reference copies every byte; the reused state is
				// the other game's, byte for byte, before the copy.
				fresh, reused := new(State), new(State)
				*fresh, *reused = *src, *other
				src.CopyInto(reused)
				prng, qrng := NewRNG(seed+uint64(step)), NewRNG(seed+uint64(step))
				for !fresh.IsTerminal() {
					a, _ := fresh.RandomAction(&prng, 20, &buf)
					b, _ := reused.RandomAction(&qrng, 20, &buf)
					if a != b {
						t.Fatalf("seed %d step %d: fresh clone plays %v, reused copy %v", seed, step, a, b)
					}
					fresh.Apply(a)
					reused.Apply(b)
					for v := 0; v < 2; v++ {
						if f, r := publicOf(fresh, v), publicOf(reused, v); !slices.Equal(f, r) {
							t.Fatalf("seed %d step %d: seat %d sees %v in the clone, %v in the reused copy", seed, step, v, f, r)
						}
					}
				}
				if fresh.Returns() != reused.Returns() {
					t.Fatalf("seed %d step %d: returns %v, reused %v", seed, step, fresh.Returns(), reused.Returns())
				}
			}
			a, _ := src.RandomAction(&rng, 20, &buf)
			src.Apply(a)
			// Keep the other game ahead, so it has later rounds' rows.
			if !other.IsTerminal() {
				b, _ := other.RandomAction(&rng, 20, &buf)
				other.Apply(b)
			}
		}
	}
}
