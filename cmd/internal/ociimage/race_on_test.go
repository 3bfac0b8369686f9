//go:build race

package ociimage

// raceEnabled: the image test builds a static mock, which shares no
// compiled package with a -race build; .ci/run runs it without -race.
const raceEnabled = true
