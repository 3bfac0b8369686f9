//go:build !race

package ociimage

const raceEnabled = false
