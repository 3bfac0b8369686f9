package main

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// The explorer grants every legal variant its reading too: a fixed seed
// finds no divergence against any of them (the hand-written scenarios
// prove the same in TestSuitePassesLegalVariants).
func TestExplorerPassesLegalVariants(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("runs the explorer against every legal variant; .ci/run runs it without -race")
	}
	for _, v := range legalVariants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			m := mocktest.MustStart(t, mocktest.Options{Wrap: func(h http.Handler) http.Handler { return v.wrap(h, func() {}) }})
			p := m.Profile
			if v.tune != nil {
				v.tune(&p)
			}
			res, err := explore.Run(context.Background(), p, explore.Config{Runs: 30, Seed: 1, Budget: time.Minute})
			if err != nil {
				t.Fatalf("the explorer refuses the target: %v", err)
			}
			if res.Diverged() {
				t.Errorf("a divergence against a legal variant (%s): %s\n%s", v.legal, res.Reason(), res.Feature())
			}
		})
	}
}
