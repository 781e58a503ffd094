package analysis

import (
	"context"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/cardlab/cardlab/cards"
)

func TestZZCardValues(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	rs := cards.Default()
	if d := os.Getenv("ZZRULES"); d != "" {
		var err error
		if rs, err = cards.LoadDir(d); err != nil {
			t.Fatal(err)
		}
	}
	var lineups [][]string
	ids := rs.FactionIDs()
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			lineups = append(lineups, []string{ids[i], ids[j]})
		}
	}
	t0 := time.Now()
	res, err := CardValues(context.Background(), CardValueConfig{Ruleset: rs, Matchups: lineups, Bots: []string{"greedy"}, Seed: 1, Games: 14400, Precision: -1})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("elapsed", time.Since(t0), "games", res.Games, "median hw", res.MedianPowerHalfWidth)
	fmt.Println(res.Price)
	type kv struct {
		id string
		v  CardValue
	}
	var l []kv
	for id, v := range res.Values {
		l = append(l, kv{id, v})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].v.VsFaction > l[j].v.VsFaction })
	for k, x := range l {
		if k > 12 && k < len(l)-12 && x.id != "kl-warriors" {
			continue
		}
		c, _ := rs.CardByID(x.id)
		fmt.Printf("%3d %-28s p=%d pts=%6.2f %v power=%6.2f %v vs=%6.2f %v %v eff=%.2f %v\n", k+1, x.id, c.Power, x.v.Pts, x.v.PtsCI95, x.v.Power, x.v.PowerCI95, x.v.VsFaction, x.v.VsFactionCI95, x.v.Flagged, x.v.EffectPower, x.v.EffectPowerCI95)
	}
}
