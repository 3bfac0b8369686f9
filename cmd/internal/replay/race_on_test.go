//go:build race

package replay

// raceEnabled: the race detector makes the stream of a GiB recording
// minutes long; .ci/run reads it in its leg without -race.
const raceEnabled = true
