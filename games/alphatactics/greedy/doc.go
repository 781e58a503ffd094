// Package greedy is Alpha Tactics' rule-of-thumb agent, Greedy: one
// decision of look-ahead over per-row summaries, fast enough to be the
// rollout policy of ISMCTS and the strong bot. The bots package seats it
// (ai.Parse "greedy"), and ai.Decide calls its Decide directly.
package greedy
