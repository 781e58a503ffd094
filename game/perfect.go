package game

// PerfectInformer is a Ruleset whose games hide nothing from any seat
// (Eclipse ship combat: both fleets and every die are on the table), so
// Determinize is the identity and no bot can peek. The never-peek tests,
// which need twins differing in hidden information, skip such a game
// instead of failing it for having nothing to hide.
type PerfectInformer interface {
	PerfectInformation() bool
}

// IsPerfectInformation reports whether rs declares that it hides nothing.
func IsPerfectInformation(rs Ruleset) bool {
	p, ok := rs.(PerfectInformer)
	return ok && p.PerfectInformation()
}
