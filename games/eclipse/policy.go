package eclipse

// The fixed hit-assignment policies rank the damage states a volley can
// leave of the enemy fleet (reacher.reach) by a key, largest first, ties
// broken by the states' fixed order (less). Ranking final states rather
// than placing dice one by one makes each policy one well-defined choice,
// the same in the study and the engine. Optimal is not a key: it ranks by
// the study's values (study.go).

const maxSize = 10

type policyKey [2*maxSize + 2]float64

func (a *policyKey) greater(b *policyKey) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

// firepower is a type's damage a round if every die hit.
func firepower(t *Type, r *Rules) float64 {
	f := 0
	for c, n := range t.Cannons {
		f += n * r.Damage[c]
	}
	return float64(f)
}

// keyOf is policy p's rank of after, the enemy state a volley leaves of
// before.
func keyOf(p Policy, f *Force, r *Rules, before, after *levels) policyKey {
	var k policyKey
	var kills, dmg [maxSize + 1]float64
	var total, damaged, killedFire, weighted, nkills, focus float64
	for t := range f.Types {
		ty := &f.Types[t]
		killed := float64(before.alive(t) - after.alive(t))
		d := killed * float64(ty.Hull+1)
		for lv := 0; lv <= ty.Hull; lv++ {
			d += float64(lv) * (float64(after[t][lv]) - float64(before[t][lv]))
			focus += float64(lv*lv) * float64(after[t][lv])
		}
		// Ships hit: the dead, plus the undamaged ones that are no longer.
		damaged += float64(before[t][0]) - float64(after[t][0])
		kills[ty.Size] += killed
		dmg[ty.Size] += d
		total += d
		nkills += killed
		fp := firepower(ty, r)
		killedFire += killed * fp
		weighted += d * fp / float64(ty.Hull+1)
	}
	switch p {
	case KillLargest, NPCRule:
		for s := maxSize; s >= 1; s-- {
			k[maxSize-s] = kills[s]
			k[2*maxSize-s] = dmg[s]
		}
		// Then the damage on as few ships as possible: "largest first"
		// read as finishing the ship already hurt most.
		k[2*maxSize] = focus
	case MaxDamage:
		k[0] = total
		for s := maxSize; s >= 1; s-- {
			k[1+maxSize-s] = kills[s]
			k[1+2*maxSize-s] = dmg[s]
		}
		k[2*maxSize+1] = focus
	case MostDangerous:
		k[0], k[1], k[2] = killedFire, weighted, total
	case Spread:
		k[0], k[1], k[2] = damaged, nkills, total
	}
	return k
}

// choose is policy p's pick among the reachable states (p is not Optimal).
func choose(p Policy, f *Force, r *Rules, before *levels, reach []levels) int {
	best := 0
	bk := keyOf(p, f, r, before, &reach[0])
	for i := 1; i < len(reach); i++ {
		k := keyOf(p, f, r, before, &reach[i])
		if k.greater(&bk) || (k == bk && less(&reach[i], &reach[best])) {
			best, bk = i, k
		}
	}
	return best
}
