//go:build race

package main

// raceEnabled: the race detector makes each run of the suite several times
// slower, and the data races are in the code every run shares, not in one
// server's; so TestCatalogue skips itself under it and .ci/run runs the
// catalogue once without it.
const raceEnabled = true
