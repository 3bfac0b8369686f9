//go:build race

package replay

// raceEnabled: the race detector makes the stream of a GiB recording
// minutes long; .ci/run reads it again without -race, by name.
const raceEnabled = true
