package engine

import (
	"github.com/cardlab/cardlab/games/alphatactics/rules"
)

// Rebind makes s a new game of rs between cfg's factions, as New(rs, cfg)
// would, but builds the game's fixed tables in s's own memory instead of
// allocating them: a runner that plays every game on a variant ruleset of
// its own (the card-value experiment) then allocates nothing per game for
// them. Every state copied from s shares those tables, so none may be used
// after Rebind; neither may s if Rebind fails.
func (s *State) Rebind(rs *rules.Ruleset, cfg Config) error {
	fx := s.fx
	if err := fx.build(rs, cfg.Factions); err != nil {
		return err
	}
	*s = State{core: core{fx: fx, rng: NewRNG(cfg.Seed), obs: cfg.Observer, epoch: newEpoch(), scratch: s.scratch}}
	s.setup()
	return nil
}
