package handlers

import (
	"fmt"

	"github.com/cardlab/cardlab/cards"
	"github.com/cardlab/cardlab/effects"
)

// Guide words Alpha Tactics' handlers for a designer (cardlab effects): a
// player card names one in effect: with the kind letter its timing prints,
// a target card lists target bonuses under bonuses:.
func Guide() cards.EffectsGuide {
	return cards.EffectsGuide{
		Intro: func(n int) string {
			return fmt.Sprintf(`%d effect handlers. A player card names one in "effect:" and sets its parameters in
"params:"; its kind must match the handler (O one-time, P permanent, X special, S scoring;
kind N has no effect). A target card lists target-bonus handlers under "bonuses:".
Omitted parameters take their defaults.
`, n)
		},
		Titles: map[*effects.Timing]string{
			OneTime:     "One-time handlers (kind O): run once, right after the card is revealed",
			Permanent:   "Permanent handlers (kind P): act throughout the round while the card is active",
			Special:     "Special handlers (kind X): change how the card is played",
			Scoring:     "Scoring handlers (kind S): apply in the Scoring Phase",
			TargetBonus: "Target-bonus handlers (targets.yaml, under bonuses:): victory points at the end of the game",
		},
		Binding: func(s *effects.Spec) (string, string) {
			if s.Timing == TargetBonus {
				return "bonuses:\n  - effect: " + s.Name + "\n", "    "
			}
			return "kind: " + s.Timing.Kind() + "\neffect: " + s.Name + "\n", ""
		},
		// An id of the default set to show for each reference kind.
		Refs: map[string]cards.RefExample{
			RefCard:   {What: "a player card id", ID: "sf-galaxy"},
			RefTarget: {What: "a target card id", ID: "earth"},
		},
	}
}
