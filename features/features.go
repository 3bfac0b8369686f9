// Package features embeds the Gherkin feature files, so that
// `go install .../cmd/pricing-contract` is all a pipeline needs.
package features

import "embed"

// FS holds every *.feature file of this folder.
//
//go:embed *.feature
var FS embed.FS
