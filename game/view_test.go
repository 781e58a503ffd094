package game

import (
	"testing"
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
