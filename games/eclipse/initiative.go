package eclipse

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/cardlab/cardlab/game"
)

// Initiative's worth (design brief §3.3): initiative is a step function.
// +1 is worth nothing unless it changes the order against some enemy type,
// and ties already go to the defender. For each player blueprint and each
// change of ±1 the study lists the order relations that flip against the
// other blueprints of the ruleset (as attacker and as defender), and the
// change in win share of every fleet holding the blueprint over all
// pairings of the player fleets, both roles, exactly where the study fits.

func (rs *Ruleset) studyInitiative(params map[string]string, o studyOpts, stop *atomic.Bool) (*game.StudyResult, error) {
	fl, err := rs.fleetList(params, "fleets", false)
	if err != nil {
		return nil, err
	}
	base, exactBase, err := rs.fleetShares(rs, fl, o, stop)
	if err != nil {
		return nil, err
	}
	sheet := game.Sheet{Name: "initiative", Columns: []game.SheetColumn{
		{Head: "blueprint", Doc: "the player blueprint whose own initiative changes"},
		{Head: "change", Doc: "+1 or -1 initiative"},
		{Head: "initiative", Doc: "the ship's initiative after the change"},
		{Head: "flips", Doc: "the blueprints it now fires before (+) or after (-) of those it did not, as attacker (att) and defender (def); ties go to the defender"},
		{Head: "fleets", Doc: "the fleets holding the blueprint, of those studied"},
		{Head: "share change", Format: "0.00", Doc: "the mean change of those fleets' win shares over every pairing, both roles, in percentage points"},
	}}
	exactAll := exactBase
	for b := range rs.Blueprints {
		bp := &rs.Blueprints[b]
		if bp.NPC {
			continue
		}
		var holders []int
		var holderIDs []string
		for i, f := range fl {
			if rs.shipCount(rs.sideOf(f), b) > 0 {
				holders = append(holders, i)
				holderIDs = append(holderIDs, rs.Fleets[f].ID)
			}
		}
		for _, d := range []int{+1, -1} {
			now := bp.Stats.Init + d
			if now > MaxStat || now < -MaxStat {
				continue
			}
			x := rs.clone()
			x.Blueprints[b].Bonus.Init += d
			if err := x.derive(); err != nil {
				continue
			}
			var flips []string
			for o := range rs.Blueprints {
				if o == b {
					continue
				}
				oi := rs.Blueprints[o].Stats.Init
				name := rs.Blueprints[o].Name
				// As attacker b goes first iff its initiative is higher;
				// as defender iff it is at least as high.
				if (bp.Stats.Init > oi) != (now > oi) {
					flips = append(flips, sign(now > oi)+name+" att")
				}
				if !rs.Blueprints[o].NPC && (bp.Stats.Init >= oi) != (now >= oi) {
					flips = append(flips, sign(now >= oi)+name+" def")
				}
			}
			row := []game.SheetCell{{Value: bp.ID}, {Value: fmt.Sprintf("%+d", d)}, {Value: int64(now)},
				{Value: strings.Join(flips, ", ")}, {Value: strings.Join(holderIDs, " ")}}
			if len(holders) == 0 {
				row = append(row, game.SheetCell{})
			} else {
				shares, exact, err := rs.fleetShares(x, fl, o, stop)
				if err != nil {
					return nil, err
				}
				exactAll = exactAll && exact
				diff := 0.0
				for _, i := range holders {
					diff += shares[i] - base[i]
				}
				row = append(row, game.SheetCell{Value: 100 * diff / float64(len(holders))})
			}
			sheet.Rows = append(sheet.Rows, row)
		}
	}
	mode := "exact"
	if !exactAll {
		mode = "some battles played by the engine (see the notes)"
	}
	return &game.StudyResult{Title: "Initiative flips: what ±1 initiative changes (" + mode + ")", Tables: []game.Sheet{sheet}}, nil
}

func sign(before bool) string {
	if before {
		return "+"
	}
	return "-"
}

// sideOf is the side index of fleet f (a player fleet).
func (rs *Ruleset) sideOf(f int) int {
	for s, g := range rs.SideFleets {
		if g == f {
			return s
		}
	}
	return -1
}

// fleetShares are the fleets' mean win shares over every pairing among
// them, both roles, under the ruleset x.
func (rs *Ruleset) fleetShares(x *Ruleset, fl []int, o studyOpts, stop *atomic.Bool) ([]float64, bool, error) {
	out := make([]float64, len(fl))
	exact := true
	for i, a := range fl {
		for _, d := range fl {
			b, err := x.Battle(a, d)
			if err != nil {
				return nil, false, err
			}
			f, err := x.fight(b, o, stop)
			if err != nil {
				return nil, false, err
			}
			exact = exact && f.exact
			sh := f.AttackerShare(&x.Rules)
			out[i] += sh
			for j, e := range fl {
				if e == d {
					out[j] += 1 - sh
				}
			}
		}
	}
	for i := range out {
		out[i] /= float64(2 * len(fl))
	}
	return out, exact, nil
}
