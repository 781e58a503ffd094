//go:build race

package rules

// raceSlowdown scales the time bounds of the tests that guard against a
// blow-up (TestLoadHuge): the race detector makes the loader ~10× slower.
const raceSlowdown = 10
