//go:build race

package main

// raceEnabled: the race detector makes each run of the suite several times
// slower, so the whole-catalogue tests run a fixed sample under it (every
// raceStride-th fault and variant); .ci/run runs them whole without it.
const raceEnabled = true
