package ai

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cardlab/cardlab/bots"
	"github.com/cardlab/cardlab/games/alphatactics/greedy"
)

// Names lists the bot names Parse accepts.
func Names() []string { return []string{"random", "greedy", "strong", "ismcts"} }

// Parse builds the agent a spec names, seeded with seed:
//
//	random
//	greedy
//	ismcts                                  (500 iterations, random rollouts to the end of the round)
//	ismcts:iters=2000,rollout=greedy,depth=game
//	ismcts:time=50ms                        (a time budget per decision instead)
//	strong                                  (Greedy's best 10 actions halved by random rollouts on 3 new deals a round, cut after 5 decisions)
//	strong:search=race,k=16,z=1.5,eps=0.01,dmin=4,dmax=24
//	strong:k=6,ke=64,dets=8,d1=1,cand=diverse,h=4,sigma=3,margin=0.5,roll=greedy,search=flat
//	strong:leaf=fit,h=2                     (the leaf fitted per ruleset from self-play; h=now: no rollout)
//	strong:roll=gain,beta=2                 (rollouts' Deployment turns weighted by each placement's gain)
//	strong:roll=lean,lx=2,reps=1            (after lx engine decisions, the rollout goes on on a compact model of the rows)
//	strong:pol=cand                         (the candidates ranked by a policy imitating strong:k=64,dets=12, fitted per ruleset; pol=only plays its best unsearched)
//	strong:rdets=2/2/3/3/4/4,rk=8/8/10/10/12/14 (deals per round of halving, candidates, by the game's round; the last for later rounds)
//
// Names are case-insensitive.
func Parse(spec string, seed uint64) (_ Agent, err error) {
	defer func() {
		if err != nil {
			err = &bots.SpecError{Err: err}
		}
	}()
	name, params, err := bots.SplitSpec(spec)
	if err != nil {
		return nil, err
	}
	switch name {
	case "random", "greedy":
		if len(params) > 0 {
			return nil, fmt.Errorf("bots: %s takes no parameters (got %q)", name, spec)
		}
		if name == "random" {
			return NewRandom(seed), nil
		}
		return greedy.New(seed), nil
	case "strong":
		b := NewStrong(seed, DefaultStrongK, DefaultStrongDets)
		for _, k := range sortedKeys(params) {
			v := params[k]
			switch k {
			case "reps", "lx", "ls", "lk":
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 || n > 1000 {
					return nil, fmt.Errorf("bots: strong %s must be a whole number from 0 to 1000, got %q", k, v)
				}
				switch k {
				case "reps":
					b.Reps = n
				case "lx":
					b.LeanExact = n
				case "ls":
					b.ScreenDeals = n
				default:
					b.ScreenKeep = n
				}
			case "k", "ke", "dets", "h":
				if k == "h" && v == "now" {
					b.Horizon = -1 // the leaf right after the candidate
					continue
				}
				n, err := strconv.Atoi(v)
				lo := 1
				if k == "h" {
					lo = 0 // to the end of the round
				}
				if err != nil || n < lo || n > 64 {
					if k == "h" {
						return nil, fmt.Errorf("bots: strong h must be now or a whole number from 0 to 64, got %q", v)
					}
					return nil, fmt.Errorf("bots: strong %s must be a whole number from %d to 64, got %q", k, lo, v)
				}
				switch k {
				case "k":
					b.K = n
				case "h":
					b.Horizon = n
				case "ke":
					b.KE = n
				default:
					b.Dets = n
				}
			case "dmin", "dmax":
				n, err := strconv.Atoi(v)
				if err != nil || n < 2 || n > 64 {
					return nil, fmt.Errorf("bots: strong %s must be a whole number from 2 to 64, got %q", k, v)
				}
				if k == "dmin" {
					b.DMin = n
				} else {
					b.DMax = n
				}
			case "z", "eps":
				m, err := strconv.ParseFloat(v, 64)
				if err != nil || !(m >= 0 && m <= 10) {
					return nil, fmt.Errorf("bots: strong %s must be a number from 0 to 10, got %q", k, v)
				}
				if k == "z" {
					b.Z = m
				} else {
					b.Eps = m
				}
			case "rdets", "rk":
				// Deals per round of halving, or candidates, by the game's
				// round: "2/3/4" (the last for every later round).
				parts := strings.Split(v, "/")
				if len(parts) > 8 {
					return nil, fmt.Errorf("bots: strong %s takes at most 8 rounds' numbers, got %q", k, v)
				}
				var by []int
				for _, p := range parts {
					n, err := strconv.Atoi(p)
					if err != nil || n < 1 || n > 64 {
						return nil, fmt.Errorf("bots: strong %s must be whole numbers from 1 to 64 separated by /, got %q", k, v)
					}
					by = append(by, n)
				}
				if k == "rk" {
					b.RK = by
				} else {
					b.RDets = by
				}
			case "d1":
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 || n > 64 {
					return nil, fmt.Errorf("bots: strong d1 must be a whole number from 0 to 64, got %q", v)
				}
				b.D1 = n
			case "pol":
				if v != "greedy" && v != "cand" && v != "only" {
					return nil, fmt.Errorf("bots: strong pol must be greedy, cand or only, got %q", v)
				}
				b.Pol = map[string]int{"greedy": PolNone, "cand": PolCand, "only": PolOnly}[v]
			case "pg":
				n, err := strconv.Atoi(v)
				if err != nil || n < 5 || n > 5000 {
					return nil, fmt.Errorf("bots: strong pg must be a whole number from 5 to 5000, got %q", v)
				}
				b.PolGames = n
			case "ti":
				n, err := strconv.Atoi(v)
				if err != nil || n < 10 || n > 10000 {
					return nil, fmt.Errorf("bots: strong ti must be a whole number from 10 to 10000, got %q", v)
				}
				b.PolIters = n
			case "teach":
				if v != "strong" && v != "ismcts" {
					return nil, fmt.Errorf("bots: strong teach must be strong or ismcts, got %q", v)
				}
				b.PolTeach = map[bool]int{true: PolTeachISMCTS, false: PolTeachStrong}[v == "ismcts"]
			case "pf":
				if v != "all" && v != "noleaf" {
					return nil, fmt.Errorf("bots: strong pf must be all or noleaf, got %q", v)
				}
				b.PolNoLeaf = v == "noleaf"
			case "cand":
				if v != "greedy" && v != "diverse" {
					return nil, fmt.Errorf("bots: strong cand must be greedy or diverse, got %q", v)
				}
				b.Diverse = v == "diverse"
			case "search":
				if v != "halving" && v != "flat" && v != "race" {
					return nil, fmt.Errorf("bots: strong search must be halving, flat or race, got %q", v)
				}
				b.Flat, b.Race = v == "flat", v == "race"
			case "leaf":
				if v != "hand" && v != "fit" {
					return nil, fmt.Errorf("bots: strong leaf must be hand or fit, got %q", v)
				}
				b.Fit = v == "fit"
			case "roll":
				if v != "random" && v != "greedy" && v != "gain" && v != "lean" {
					return nil, fmt.Errorf("bots: strong roll must be random, greedy, gain or lean, got %q", v)
				}
				b.GreedyRoll, b.GainRoll, b.Lean = v == "greedy", v == "gain", v == "lean"
			case "beta":
				m, err := strconv.ParseFloat(v, 64)
				if err != nil || !(m >= 0 && m <= 1000) {
					return nil, fmt.Errorf("bots: strong beta must be a number from 0 to 1000, got %q", v)
				}
				b.Beta = m
			case "prior":
				m, err := strconv.ParseFloat(v, 64)
				if err != nil || !(m >= 0 && m <= 10) {
					return nil, fmt.Errorf("bots: strong prior must be a number from 0 to 10, got %q", v)
				}
				b.Prior = m
			case "margin", "sigma":
				// NaN fails both comparisons.
				m, err := strconv.ParseFloat(v, 64)
				if err != nil || !(m >= 0 && m <= 100) || k == "sigma" && m < 0.1 {
					return nil, fmt.Errorf("bots: strong %s must be a number from %s to 100, got %q", k, map[bool]string{true: "0.1", false: "0"}[k == "sigma"], v)
				}
				if k == "margin" {
					b.Margin = m
				} else {
					b.Sigma = m
				}
			default:
				return nil, fmt.Errorf("bots: unknown strong parameter %q (have k, ke, dets, rk, rdets, d1, cand, h, leaf, margin, sigma, roll, beta, lx, reps, ls, lk, search, z, eps, dmin, dmax, pol, teach, ti, pg, pf, prior)", k)
			}
		}
		return b, nil
	case "ismcts":
		iters, rollout, full := bots.DefaultIterations, "random", false
		var budget time.Duration
		for _, k := range sortedKeys(params) {
			v := params[k]
			if core, err := bots.SearchParam(k, v, &iters, &budget); core {
				if err != nil {
					return nil, err
				}
				continue
			}
			switch k {
			case "rollout":
				if v != "random" && v != "greedy" {
					return nil, fmt.Errorf("bots: ismcts rollout must be random or greedy, got %q", v)
				}
				rollout = v
			case "depth":
				if v != "round" && v != "game" {
					return nil, fmt.Errorf("bots: ismcts depth must be round or game, got %q", v)
				}
				full = v == "game"
			default:
				return nil, fmt.Errorf("bots: unknown ismcts parameter %q (have iters, rollout, depth, time)", k)
			}
		}
		b := NewISMCTS(seed, iters, rollout)
		b.Budget, b.FullGame = budget, full
		return b, nil
	}
	return nil, fmt.Errorf("bots: unknown bot %q (available: %s)", spec, strings.Join(Names(), ", "))
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
