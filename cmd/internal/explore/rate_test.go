package explore

import (
	"context"
	"flag"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/defects"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

var rateRuns = flag.Int("explore.rate", 0, "measure the explorer's rate over every built-in defect with `N` sequences each (make explore-rate)")

// TestExploreRate is the measurement of make explore-rate: the share of the
// built-in defects a fixed seed finds. It is a long run, so go test runs it
// only when asked for.
func TestExploreRate(t *testing.T) {
	if *rateRuns == 0 {
		t.Skip("a measurement: make explore-rate (go test ./cmd/internal/explore -run TestExploreRate -v -args -explore.rate=100)")
	}
	found, refused := 0, 0
	all := defects.All()
	for _, d := range all {
		m := mocktest.MustStart(t, mocktest.Options{Defects: []defects.Defect{d}})
		res, err := Run(context.Background(), m.Profile, *rateRuns, 7)
		m.Close()
		switch {
		case err != nil:
			refused++ // the preflight refused the target: exit 3, not a divergence
		case res.divergence != nil:
			found++
		default:
			t.Logf("not found: %s (%s)", d.Name, d.Description)
		}
	}
	t.Logf("rate: %d of %d defects found with %d sequences each, seed 7 (%d refused by the preflight)", found, len(all), *rateRuns, refused)
}
