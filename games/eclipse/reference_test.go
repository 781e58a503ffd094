package eclipse

import (
	"math"
	"math/big"
	"testing"
)

// The seven published results of EclipseCPPBackEnd (design brief §3.6,
// source S8 src/main.cpp @d08dba2), with the ships exactly as S8 writes
// them: Ship(number, type, initiative, hull, computer, shield, cannons
// {yellow, orange, blue, red, pink}, missiles). The study must give each as
// the exact fraction (to 1e-12, and the fraction is the closest one with a
// denominator up to 10^7).

func ship(name string, n, size, init, hull, comp, shield int, cannons, missiles Dice) Type {
	return Type{Name: name, Count: n, Size: size, Init: init, Hull: hull, Computer: comp, Shield: shield,
		Cannons: cannons, Missiles: missiles, Cost: size}
}

// Sizes as S8's type codes rank them: INT < CRU < DRE.
const (
	sInt = 1
	sCru = 3
	sDre = 4
)

func referenceRules() Rules { return Default().Rules }

type referenceCase struct {
	name      string
	att, def  []Type
	npc       bool
	published float64 // percent, as printed
	num, den  int64
}

func referenceCases() []referenceCase {
	y := func(n int) Dice { return Dice{n, 0, 0, 0} }
	none := Dice{}
	interceptor := ship("Interceptor", 1, sInt, 3, 0, 0, 0, y(1), none)
	basecruiser := ship("Cruiser", 1, sCru, 2, 1, 1, 0, y(1), none)
	ancient := ship("Ancient", 1, sDre, 2, 1, 1, 0, y(2), none)
	cru0 := basecruiser
	cru0.Computer = 0
	missileInt := ship("missile Interceptor", 1, sInt, 3, 0, 2, 0, none, y(2))
	missileCru := ship("missile Cruiser", 1, sCru, 2, 1, 2, 0, none, Dice{0, 0, 0, 2})
	brick := ship("Dreadnought", 2, sDre, 1, 4, 1, 0, y(2), none)
	dummyDre := ship("dummy Dreadnought", 1, sDre, 1, 4, 1, 0, none, none)
	onlyMissile := ship("missile Interceptor", 1, sInt, 3, 0, 2, 0, none, y(1))
	return []referenceCase{
		{"Cruiser attacks Ancient", []Type{basecruiser}, []Type{ancient}, true, 17.03, 1168, 6859},
		{"Cruiser + Interceptor attack Interceptor", []Type{basecruiser, interceptor}, []Type{interceptor}, false, 97.57, 9026, 9251},
		{"same, Cruiser computer 0", []Type{cru0, interceptor}, []Type{interceptor}, false, 91.83, 10111, 11011},
		{"missile Interceptor + missile Cruiser vs 2 Dreadnoughts", []Type{missileInt, missileCru}, []Type{brick}, false, 6.25, 1, 16},
		{"dummy Dreadnought + Cruiser vs player Cruiser", []Type{dummyDre, basecruiser}, []Type{basecruiser}, false, 44.8, 56, 125},
		{"same, NPC defender", []Type{dummyDre, basecruiser}, []Type{basecruiser}, true, 98.33, 384097, 390625},
		{"missiles only, mirror", []Type{onlyMissile}, []Type{onlyMissile}, false, 25, 1, 4},
	}
}

func (c referenceCase) battle(t testing.TB) *Battle {
	b, err := NewBattle(Force{Name: "attacker", Types: c.att}, Force{Name: "defender", Types: c.def, NPC: c.npc}, referenceRules())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStudyReferenceResults(t *testing.T) {
	for _, c := range referenceCases() {
		t.Run(c.name, func(t *testing.T) {
			res, err := Solve(c.battle(t), Optimal, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			want := float64(c.num) / float64(c.den)
			got := res.AttackerWins
			if math.Abs(got-want) > 1e-12 {
				t.Fatalf("P(attacker wins) = %.15f, want %d/%d = %.15f (published %.2f%%)", got, c.num, c.den, want, c.published)
			}
			if math.Abs(100*got-c.published) > 0.005+1e-9 {
				t.Fatalf("%.4f%% does not round to the published %.2f%%", 100*got, c.published)
			}
			r := new(big.Rat).SetFloat64(got)
			if r == nil {
				t.Fatal("not finite")
			}
			if f := closest(got, 10_000_000); f.Cmp(big.NewRat(c.num, c.den)) != 0 {
				t.Fatalf("closest fraction %v, want %d/%d", f, c.num, c.den)
			}
			// E[survivors] = Σ_k P(at least k survive), per type.
			for side, ts := range [][]Type{c.att, c.def} {
				for ti, ty := range ts {
					sum := 0.0
					for j := 0; j < ty.Count; j++ {
						sum += res.AtLeast[side][ti][j]
					}
					if math.Abs(sum-res.Survivors[side][ti]) > 1e-12 {
						t.Fatalf("side %d type %d: Σ P(≥k) = %v, E[survivors] = %v", side, ti, sum, res.Survivors[side][ti])
					}
				}
			}
			sum := res.AttackerWins + res.DefenderWins + res.Stalemate
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("outcomes sum to %v", sum)
			}
			t.Logf("%s: %.4f%% = %d/%d (published %.2f%%), defender %.4f, stalemate %.4f, rounds %.3f", c.name, 100*got, c.num, c.den, c.published, res.DefenderWins, res.Stalemate, res.Rounds)
		})
	}
}

// closest is the best rational approximation of x with denominator at most
// maxDen (continued fractions).
func closest(x float64, maxDen int64) *big.Rat {
	var h0, h1, k0, k1 int64 = 0, 1, 1, 0
	v := x
	for {
		a := int64(math.Floor(v))
		h2, k2 := a*h1+h0, a*k1+k0
		if k2 > maxDen {
			break
		}
		h0, h1, k0, k1 = h1, h2, k1, k2
		frac := v - float64(a)
		if frac < 1e-13 {
			break
		}
		v = 1 / frac
	}
	return big.NewRat(h1, k1)
}
