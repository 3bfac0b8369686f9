//go:build !race

package servers

const raceEnabled = false
