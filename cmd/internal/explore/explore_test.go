package explore_test

import (
	"context"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// The explorer finds nothing against the reference implementation.
func TestExploreFindsNoDivergenceInTheMock(t *testing.T) {
	m := mocktest.MustStart(t, mocktest.Options{})
	res, err := explore.Run(context.Background(), m.Profile, explore.Config{Runs: 60, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range append(res.Divergences, res.Dropped...) {
		t.Errorf("a divergence against the mock: %s\n%s\n%s", d.Reason, d.Feature, d.Proof)
	}
	cov := res.Coverage()
	t.Logf("%d sequences, %d requests, %d of %d cells", res.Sequences, res.Steps, cov.Exercised, cov.Cells)
}
