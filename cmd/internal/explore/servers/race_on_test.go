//go:build race

package servers

// raceEnabled: the race detector makes each sequence several times slower;
// under it the rate's sample is left to the run without it (.ci/run).
const raceEnabled = true
