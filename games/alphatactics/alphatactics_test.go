package alphatactics

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/game"
	"github.com/cardlab/cardlab/games/alphatactics/engine"
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

func TestRegistered(t *testing.T) {
	g, ok := game.Lookup(ID)
	if !ok {
		t.Fatal("alphatactics is not registered")
	}
	if v := g.Vocabulary(); v.Side != "faction" || v.Score != "VP" {
		t.Fatalf("vocabulary %+v", v)
	}
	if g.Effects() == nil || len(g.Effects().Names()) == 0 {
		t.Fatal("no effect handlers")
	}
}

// The adapter describes the ruleset the engine plays: the same files and
// hash, the factions in order, every card with its columns.
func TestDefaultDescribed(t *testing.T) {
	r, fsys := Game{}.Default()
	rs := rules.Default()
	if r.Game() != ID || r.Info().Hash != rs.Hash || fsys == nil {
		t.Fatalf("info %+v", r.Info())
	}
	var ids []string
	for _, s := range r.Sides() {
		ids = append(ids, s.ID)
	}
	if !slices.Equal(ids, rs.FactionIDs()) {
		t.Fatalf("sides %v, want %v", ids, rs.FactionIDs())
	}
	if lo, hi := r.Seats(); lo != rs.Rules.MinPlayers || hi != rs.Rules.MaxPlayers || r.Mirror() {
		t.Fatalf("seats %d..%d, mirror %v", lo, hi, r.Mirror())
	}
	cs := r.Cards()
	if len(cs) != len(rs.Cards) {
		t.Fatalf("%d cards, want %d", len(cs), len(rs.Cards))
	}
	for i, c := range cs {
		d := &rs.Cards[i]
		if c.ID != d.ID || c.Side != d.Faction || c.Copies != d.Copies || c.Columns[0].Int != d.Power || c.Columns[1].Text != d.Kind.String() {
			t.Fatalf("card %d: %+v, want %+v", i, c, *d)
		}
		if (d.Effect == nil) != (len(c.Effects) == 0) {
			t.Fatalf("card %s: effects %v", c.ID, c.Effects)
		}
	}
}

// Load reads a ruleset folder as rules.Load does, and a broken one's errors
// are the loader's positioned list.
func TestLoad(t *testing.T) {
	root := os.DirFS("../../testdata")
	r, err := Game{}.Load(root, "rulesets/minimal")
	if err != nil {
		t.Fatal(err)
	}
	want, err := rules.LoadDir("../../testdata/rulesets/minimal")
	if err != nil {
		t.Fatal(err)
	}
	if r.Info().Hash != want.Hash {
		t.Fatal("Load and rules.LoadDir read different rulesets")
	}
	_, err = Game{}.Load(root, "broken/unknown-key")
	if _, ok := err.(cards.ErrorList); !ok {
		t.Fatalf("broken ruleset: error %T %v, want cards.ErrorList", err, err)
	}
}

func TestSchemas(t *testing.T) {
	got, err := Game{}.Schemas()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range rules.SchemaKinds {
		want, _ := rules.Schema(kind)
		if !bytes.Equal(got[rules.SchemaFile(kind)], want) {
			t.Errorf("%s differs from rules.Schema", kind)
		}
	}
}

// A game played through the contracts is the engine's game, decision for
// decision: the same legal actions in the same order, the same seats to
// move, the same returns and scores; at 2, 3 and 4 seats.
func TestPlaysAsEngine(t *testing.T) {
	r, _ := Game{}.Default()
	rs := rules.Default()
	ids := rs.FactionIDs()
	for n := 2; n <= 4; n++ {
		for seed := uint64(1); seed <= 5; seed++ {
			seats := make([]int, n)
			for i := range seats {
				seats[i] = (i + int(seed)) % len(ids)
			}
			s, err := r.NewState(seats, seed)
			if err != nil {
				t.Fatal(err)
			}
			fs := make([]string, n)
			for i, f := range seats {
				fs[i] = ids[f]
			}
			e, _ := engine.New(rs, engine.Config{Factions: fs, Seed: seed})
			rng := game.NewRNG(seed)
			var legal []game.Action
			var want []engine.Action
			for !e.IsTerminal() {
				legal, want = s.LegalActions(legal), e.LegalActions(want)
				if s.CurrentPlayer() != e.CurrentPlayer() || len(legal) != len(want) {
					t.Fatalf("%dp seed %d: seat %d with %d actions, engine seat %d with %d", n, seed, s.CurrentPlayer(), len(legal), e.CurrentPlayer(), len(want))
				}
				for i := range legal {
					if engine.Action(legal[i]) != want[i] {
						t.Fatalf("%dp seed %d: action %d is %s, engine %s", n, seed, i, s.ActionString(legal[i]), want[i])
					}
				}
				k := rng.Intn(len(legal))
				s.Apply(legal[k])
				e.Apply(want[k])
			}
			if !s.IsTerminal() || s.CurrentPlayer() != -1 || s.Returns() != e.Returns() {
				t.Fatalf("%dp seed %d: returns %v, engine %v", n, seed, s.Returns(), e.Returns())
			}
			for p := 0; p < n; p++ {
				if s.Score(p) != e.FinalScore(p).Total {
					t.Fatalf("seat %d scores %d, engine %d", p, s.Score(p), e.FinalScore(p).Total)
				}
			}
		}
	}
}

// A clone and a copy go their own ways: playing one leaves the other as it
// was, and a reset deals the seed's game again.
func TestCloneIndependent(t *testing.T) {
	r, _ := Game{}.Default()
	s, err := r.NewState([]int{0, 1}, 9)
	if err != nil {
		t.Fatal(err)
	}
	var buf []game.Action
	for range 20 {
		buf = s.LegalActions(buf)
		s.Apply(buf[len(buf)-1])
	}
	c := s.Clone()
	d := &State{}
	s.CopyInto(d)
	before := slices.Clone(s.LegalActions(nil))
	for !c.IsTerminal() {
		buf = c.LegalActions(buf)
		c.Apply(buf[0])
	}
	if !slices.Equal(s.LegalActions(nil), before) || !slices.Equal(d.LegalActions(nil), before) || s.IsTerminal() {
		t.Fatal("playing a clone changed the original or its copy")
	}
	viewer := s.CurrentPlayer()
	rng := game.NewRNG(3)
	d.Determinize(viewer, &rng)
	if err := d.S.CheckInvariants(); err != nil {
		t.Fatalf("determinized: %v", err)
	}
	s.Reset(9)
	fresh, _ := r.NewState([]int{0, 1}, 9)
	if !slices.Equal(s.LegalActions(nil), fresh.LegalActions(nil)) || s.CurrentPlayer() != fresh.CurrentPlayer() {
		t.Fatal("Reset(9) deals another game than NewState(…, 9)")
	}
}

func TestNewStateRefusesUnknownSide(t *testing.T) {
	r, _ := Game{}.Default()
	for _, seats := range [][]int{{0, 9}, {-1, 0}} {
		if _, err := r.NewState(seats, 1); err == nil {
			t.Errorf("seats %v: no error", seats)
		}
	}
	if _, err := r.NewState([]int{0, 0}, 1); err == nil {
		t.Error("one faction on two seats: no error (Mirror is false)")
	}
}

// LoadDir (game.DirLoader) is rules.LoadDir: the same ruleset, and the
// same messages naming the files under the directory as given, which the
// command line's broken-ruleset goldens pin. Summary counts what validate
// has always said.
func TestLoadDirAndSummary(t *testing.T) {
	dir := "../../testdata/rulesets/minimal"
	got, err := Game{}.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := rules.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Info().Hash != want.Hash {
		t.Fatalf("hash %s, want %s", got.Info().Hash, want.Hash)
	}
	if s, w := got.(game.Summarizer).Summary(), "2 factions, 12 player cards, 4 targets"; s != w {
		t.Fatalf("Summary() = %q, want %q", s, w)
	}
	broken := "../../testdata/broken/duplicate-id"
	_, err = Game{}.LoadDir(broken)
	_, werr := rules.LoadDir(broken)
	if err == nil || werr == nil || err.Error() != werr.Error() {
		t.Fatalf("LoadDir error %v, rules.LoadDir's %v", err, werr)
	}
}
