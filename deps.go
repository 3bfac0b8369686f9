//go:build tools

// Package deps pins the dependencies the design names until code imports them all.
package deps
