package analysis

import (
	"bytes"
	"encoding/json"
	"github.com/cardlab/cardlab/game"
)

// Result types of the paired analyses: card impact (ablation), value sweeps,
// rule-version diffs and skill levels. cardlab writes them as JSON with
// --json and the reports read them; their keys are stable (new keys may be
// added, existing ones keep name, type and meaning). Rates are win shares in
// [0, 1] rounded to 6 decimals; a shared victory counts 1/k to each of its k
// winners. docs/metrics.md ("Paired comparisons") defines every figure and
// the tests behind them.

// Names of the tests and corrections reported in PairedTest.Test and the
// results' Correction fields.
const (
	// TestPairedT is Student's t on the per-game paired differences.
	TestPairedT = "paired-t"
	// TestSignExact is the exact two-sided sign test on the games whose
	// outcome differs between the arms (McNemar's exact test for binary
	// outcomes); used when too few games differ for the t approximation.
	TestSignExact = "sign-exact"
	// TestNone: nothing to test (no paired games, or every difference 0).
	TestNone = "none"

	// CorrectionHolm is Holm's step-down correction (family-wise error).
	CorrectionHolm = "holm"
	// CorrectionBH is Benjamini–Hochberg (false discovery rate).
	CorrectionBH = "benjamini-hochberg"
	// CorrectionNone: a single comparison, nothing to correct.
	CorrectionNone = "none"
)

// PairedTest is the comparison of one quantity (a faction's win share)
// between two arms played on the same per-game seeds. Delta is always
// "second arm − first arm"; each result type says which arm is which.
type PairedTest struct {
	// Games is the number of paired games (played in both arms).
	Games int64 `json:"games"`
	// Changed counts the paired games whose outcome for the faction differs
	// between the arms (the non-zero differences).
	Changed int64 `json:"changed"`
	// Delta is the mean per-game difference of win shares.
	Delta float64 `json:"delta"`
	// SD is the sample standard deviation of the per-game differences.
	SD float64 `json:"sd"`
	// CI95 is the paired 95% interval of Delta: Delta ± t(0.975, n−1)·SD/√n
	// when the t-test gives P, the inverted exact sign test when it does
	// (Test TestSignExact), and with no changed game the change n unchanged
	// games still allow (never [0, 0]). It excludes 0 exactly when P < 0.05.
	CI95 [2]float64 `json:"ci95"`
	// UnpairedCI95 is the interval the same two arms would give as
	// independent samples (Welch: Delta ± t·√(s₁²/n + s₂²/n)); shown so the
	// gain from pairing can be seen. WidthRatio is its width ÷ CI95's width
	// (0 when the paired width is 0).
	UnpairedCI95 [2]float64 `json:"unpaired_ci95"`
	WidthRatio   float64    `json:"width_ratio"`
	// P is the two-sided p-value of the test named by Test (TestPairedT,
	// TestSignExact or TestNone), before correction; PAdj after the
	// multiple-comparison correction the result names.
	P    float64 `json:"p"`
	PAdj float64 `json:"p_adj"`
	Test string  `json:"test"`
	// Significant is PAdj < alpha (the result's Alpha, 0.05 by default).
	Significant bool `json:"significant"`
	// MDE80 is the minimum detectable effect: the smallest true change
	// (either sign) this comparison would flag with 80% power after the
	// result's correction, from the paired standard deviation (SD) and the
	// number of games. A change smaller than MDE80 may well be missed.
	MDE80 float64 `json:"mde80"`
	// LowN: fewer paired games than the minimum sample.
	LowN bool `json:"low_n"`
}

// FactionDelta is one faction's win share in two arms and their paired
// difference (Delta = Variant − Base).
type FactionDelta struct {
	Faction string `json:"faction"`
	// Base and Variant are the win shares in the two arms over the paired
	// games, with Wilson 95% intervals.
	Base        float64    `json:"base"`
	BaseCI95    [2]float64 `json:"base_ci95"`
	Variant     float64    `json:"variant"`
	VariantCI95 [2]float64 `json:"variant_ci95"`
	PairedTest
}

// ArmInfo describes how the games of an analysis were played. Every arm of
// the analysis plays these lineups on the same per-game seeds: game j of
// lineup m has global index i = m·Games + j, seed engine.SeedFor(Seed, i) and
// its seats rotated by j mod (lineup size), exactly as `cardlab simulate`.
type ArmInfo struct {
	Matchups [][]string `json:"matchups"`
	Bots     []string   `json:"bots"`
	// Games per lineup.
	Games     int    `json:"games"`
	Seed      uint64 `json:"seed"`
	MinSample int    `json:"min_sample"`
}

// --- impact -----------------------------------------------------------------

// ImpactResult is `cardlab impact`: the causal effect of each card on its
// faction's win share, measured by ablation — the same games played with the
// card replaced (Mode "blank": same type, kind N, no effect, power 0;
// "effect-off": only its effect removed, kind N).
type ImpactResult struct {
	ToolVersion string      `json:"tool_version"`
	Ruleset     RulesetInfo `json:"ruleset"`
	Mode        string      `json:"mode"`
	ArmInfo
	// Alpha is the significance level; Correction is CorrectionBH across
	// the cards tested.
	Alpha      float64 `json:"alpha"`
	Correction string  `json:"correction"`
	// BaselineGames is the number of games of the shared baseline arm;
	// VariantGames the games played with some card ablated, over all cards.
	BaselineGames int64 `json:"baseline_games"`
	VariantGames  int64 `json:"variant_games"`
	// Cards are ranked by their impact (Delta), largest first (rank 1 = the
	// card whose removal costs its faction most); skipped cards come last.
	Cards   []CardImpact `json:"cards"`
	Partial bool         `json:"partial"`
	Timing  Timing       `json:"timing"`
}

// CardImpact is one card's ablation result. Its PairedTest compares the
// ablated arm (first) with the real card (second): Delta is the card's
// impact, WithCard − Ablated, positive when the card helps its faction.
type CardImpact struct {
	Rank    int    `json:"rank"`
	ID      string `json:"id"`
	Name    string `json:"name"`
	Faction string `json:"faction"`
	Type    string `json:"type"`
	Kind    string `json:"kind"`
	Power   int    `json:"power"`
	Copies  int    `json:"copies"`
	// File and Line locate the card in the ruleset.
	File string `json:"file"`
	Line int    `json:"line"`
	// Variant says what the ablated arm changed, e.g. "blank (power 3 → 0,
	// kind P → N, effect removed)".
	Variant string `json:"variant"`
	// WithCard and Ablated are the faction's win shares in the baseline and
	// ablated arms over the card's paired games.
	WithCard float64 `json:"with_card"`
	Ablated  float64 `json:"ablated"`
	PairedTest
	// Skipped, when set, says why the card was not tested (e.g. effect-off
	// on a card without an effect); its figures are then zero here and
	// null in JSON (MarshalJSON).
	Skipped string `json:"skipped,omitempty"`
}

// skippedFigures are the keys of a CardImpact that a skipped card has no
// value for.
var skippedFigures = map[string]bool{"with_card": true, "ablated": true, "delta": true, "sd": true,
	"ci95": true, "unpaired_ci95": true, "width_ratio": true, "p": true, "p_adj": true, "mde80": true}

// MarshalJSON writes a skipped card's figures as null: it was never
// played, and zeros, or an interval of [0, 0], would read as measured.
func (c CardImpact) MarshalJSON() ([]byte, error) {
	type plain CardImpact // without this method
	b, err := json.Marshal(plain(c))
	if err != nil || c.Skipped == "" {
		return b, err
	}
	return nullKeys(b, skippedFigures)
}

// nullKeys rewrites the JSON object obj with the values of the given keys
// replaced by null, keeping the keys' order.
func nullKeys(obj []byte, keys map[string]bool) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(t)
		out.Write(k)
		out.WriteByte(':')
		if keys[t.(string)] {
			v = json.RawMessage("null")
		}
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// --- sweep ------------------------------------------------------------------

// SweepResult is `cardlab sweep`: every faction's win share as one value (a
// card's field or a rule parameter) takes each of Values, every value on the
// same seeds.
type SweepResult struct {
	ToolVersion string      `json:"tool_version"`
	Ruleset     RulesetInfo `json:"ruleset"`
	// Card is the swept card (nil for a rule parameter).
	Card *SweepCard `json:"card,omitempty"`
	// Field is the card field ("power", "copies"), an integer parameter of
	// the card's effect ("params.amount"), or the rule parameter
	// ("hand_size", "planet_bonus", "cards_to_end", …) swept.
	Field string `json:"field"`
	// Current is the value in the ruleset.
	Current int   `json:"current"`
	Values  []int `json:"values"`
	ArmInfo
	// Compared says what the entries of Points[].Factions are in a mirror:
	// ComparedTurnOrder ("starting seat", "2nd in turn", …: the seat that
	// began each game, game.Starter, and those after it) or ComparedSeats
	// ("seat 1", …); empty (omitted) where they are the sides.
	Compared string `json:"compared,omitempty"`
	// Faction is the faction whose share is steered towards Target (the
	// card's faction; for a rule parameter the --faction given, or "" to
	// bring every faction closest to Target: least squares).
	Faction string `json:"faction"`
	// Target is the win share aimed at (default 1/players: the fair share).
	Target float64 `json:"target"`
	Alpha  float64 `json:"alpha"`
	// Points are in Values order.
	Points []SweepPoint `json:"points"`
	// Best is the value bringing Faction (or every faction) closest to
	// Target; Suggestion is the YAML change it means (nil when Best is
	// Current).
	Best int `json:"best"`
	// Plausible lists the values whose 95% interval of the steered share
	// (of every faction's share, steering all) contains Target, ascending:
	// the uncertainty of Best. Empty when none does; it includes Current
	// when the games cannot tell the current value from the target.
	Plausible  []int       `json:"plausible"`
	Suggestion *Suggestion `json:"suggestion,omitempty"`
	Partial    bool        `json:"partial"`
	Timing     Timing      `json:"timing"`
}

// SweepCard identifies the card a sweep changes.
type SweepCard struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Faction string `json:"faction"`
	File    string `json:"file"`
	Line    int    `json:"line"`
}

// SweepPoint is the outcome at one value. Its factions' PairedTest compare
// the ruleset as it is (first arm: Current) with this value (second arm);
// at Current itself every Delta is 0.
type SweepPoint struct {
	Value    int            `json:"value"`
	Games    int64          `json:"games"`
	Factions []FactionDelta `json:"factions"` // ruleset order
	// Distance is how far the steered share is from Target: |share −
	// Target| for one faction, the root mean square over factions otherwise.
	Distance float64 `json:"distance"`
}

// Suggestion is a proposed edit of a ruleset file; cardlab prints it and
// never applies it.
type Suggestion struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Field string `json:"field"`
	From  int    `json:"from"`
	To    int    `json:"to"`
	// Text is the human form with the plausible values: "klingon.yaml:41
	// (kl-bop, Bird-of-Prey): power: 5 → 3 (values whose 95% interval
	// contains the target 50.0%: 2 to 4)".
	Text string `json:"text"`
}

// --- diff -------------------------------------------------------------------

// DiffResult is `cardlab diff`: what changed between two rulesets and what
// the change does to the game, measured on paired games (Base first,
// Variant second).
type DiffResult struct {
	ToolVersion string      `json:"tool_version"`
	Base        RulesetInfo `json:"base"`
	Variant     RulesetInfo `json:"variant"`
	// Changes lists the definition differences, in ruleset order: rules
	// first, then factions, cards and targets.
	Changes []Change `json:"changes"`
	ArmInfo
	Alpha      float64 `json:"alpha"`
	Correction string  `json:"correction"` // CorrectionHolm across factions
	// Compared says what the entries of Factions are in a mirror, as
	// SweepResult's.
	Compared string `json:"compared,omitempty"`
	// Factions are the paired win-share differences of every faction
	// played (ruleset order of Base).
	Factions []FactionDelta `json:"factions"`
	// Cards and Targets compare the descriptive metrics of each arm's
	// simulate report (cards and targets present in both).
	Cards   []CardDelta   `json:"cards"`
	Targets []TargetDelta `json:"targets"`
	// Significant is true when any faction's Delta is significant after the
	// correction (cardlab diff --fail-on-significant then exits 1).
	Significant bool   `json:"significant"`
	Verdict     string `json:"verdict"`
	Partial     bool   `json:"partial"`
	Timing      Timing `json:"timing"`
}

// Change is one difference between two rulesets' definitions (game.Change).
type Change = game.Change

// ValueDelta is one metric in both arms.
type ValueDelta struct {
	Base    float64 `json:"base"`
	Variant float64 `json:"variant"`
	Delta   float64 `json:"delta"`
}

// CardDelta compares one card's simulate metrics (docs/metrics.md, "Cards")
// between the arms. These are descriptive (correlational) figures.
type CardDelta struct {
	ID      string `json:"id"`
	Faction string `json:"faction"`
	Name    string `json:"name"`
	// Changed: the card's definition differs between the rulesets.
	Changed    bool       `json:"changed"`
	PlayRate   ValueDelta `json:"play_rate"`
	PlayedWR   ValueDelta `json:"played_wr"`
	OHWR       ValueDelta `json:"oh_wr"`
	RowWinRate ValueDelta `json:"row_win_rate"`
	MeanPower  ValueDelta `json:"mean_power"`
	// FiredPerGame is effects fired per game of its faction.
	FiredPerGame ValueDelta `json:"fired_per_game"`
}

// TargetDelta compares one target's metrics between the arms.
type TargetDelta struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	Changed     bool       `json:"changed"`
	CaptureRate ValueDelta `json:"capture_rate"`
	MeanMargin  ValueDelta `json:"mean_margin"`
	TieRate     ValueDelta `json:"tie_rate"`
	// LaidPerGame is times laid out per game.
	LaidPerGame ValueDelta `json:"laid_per_game"`
}

// --- skill ------------------------------------------------------------------

// SkillResult is `cardlab skill`: faction win shares with every seat played
// by the same bot, at each skill level, on the same seeds.
type SkillResult struct {
	ToolVersion string      `json:"tool_version"`
	Ruleset     RulesetInfo `json:"ruleset"`
	// Levels are the bot specs in the order given (weakest first by
	// convention); ArmInfo.Bots repeats them.
	Levels []string `json:"levels"`
	ArmInfo
	Alpha      float64 `json:"alpha"`
	Correction string  `json:"correction"` // CorrectionHolm across factions × level steps
	// Factions are in ruleset order.
	Factions []SkillFaction `json:"factions"`
	// SettleTolerance is the band (win share, ±) within which a step counts
	// as no movement (SkillFaction.Settle).
	SettleTolerance float64 `json:"settle_tolerance"`
	// Steps compare consecutive levels: Steps[k] is Levels[k] → Levels[k+1].
	Steps []SkillStep `json:"steps"`
	// Cards are the cards of the factions played, with their figures at
	// every level.
	Cards []SkillCard `json:"cards"`
	// RankChanges lists the factions whose rank differs between consecutive
	// levels (and between the first and the last, with more than two
	// levels), and the cards whose rank within their faction differs with a
	// significant change of oh_iwd; significant ones first, then by the size
	// of the change.
	RankChanges []RankChange `json:"rank_changes"`
	// Compared says what the entries of Factions are in a mirror, as
	// SweepResult's does ("" where they are the sides).
	Compared string `json:"compared,omitempty"`
	Partial  bool   `json:"partial"`
	Timing   Timing `json:"timing"`
}

// SkillFaction is one faction at every level.
type SkillFaction struct {
	Faction string `json:"faction"`
	// Levels is in SkillResult.Levels order.
	Levels []SkillShare `json:"levels"`
	// Settle says where the share stops moving as play gets stronger.
	Settle SkillSettle `json:"settle"`
}

// SkillShare is a win share at one level and its rank among the factions
// (1 = highest share).
type SkillShare struct {
	Level string `json:"level"`
	WinStats
	Rank int `json:"rank"`
}

// SkillStep is the paired comparison of two consecutive levels (From first,
// To second) for every faction.
type SkillStep struct {
	From     string         `json:"from"`
	To       string         `json:"to"`
	Factions []FactionDelta `json:"factions"`
}

// SkillCard is a card's opening-hand improvement (oh_iwd, docs/metrics.md)
// at every level, with its rank within its faction (1 = highest oh_iwd).
type SkillCard struct {
	ID      string           `json:"id"`
	Faction string           `json:"faction"`
	Name    string           `json:"name"`
	Levels  []SkillCardLevel `json:"levels"`
}

// SkillCardLevel is a card's figures at one level.
type SkillCardLevel struct {
	Level    string     `json:"level"`
	PlayRate float64    `json:"play_rate"`
	OHIWD    float64    `json:"oh_iwd"`
	OHIWDCI  [2]float64 `json:"oh_iwd_ci95"`
	LowN     bool       `json:"low_n"`
	Rank     int        `json:"rank"`
}

// RankChange is a faction or card ranked differently at two levels.
type RankChange struct {
	// Kind is "faction" or "card".
	Kind    string `json:"kind"`
	ID      string `json:"id"`
	Faction string `json:"faction"`
	From    string `json:"from"`
	To      string `json:"to"`
	// RankFrom and RankTo are the ranks at From and To (factions among
	// factions, cards within their faction).
	RankFrom int `json:"rank_from"`
	RankTo   int `json:"rank_to"`
	// Significant: for a faction, its win-share change between the levels
	// is significant (paired, Holm); for a card, its oh_iwd differs
	// significantly between the levels (z-test on the two estimates with
	// standard errors from their intervals, Holm over the cards). Cards are
	// listed only when significant.
	Significant bool `json:"significant"`
	// Note is the plain reading, e.g. "strong only against weak play".
	Note string `json:"note"`
}
