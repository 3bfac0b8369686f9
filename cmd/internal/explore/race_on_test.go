//go:build race

package explore

// raceEnabled: the race detector makes each sequence several times slower,
// so the rate runs on a fixed sample under it.
const raceEnabled = true
