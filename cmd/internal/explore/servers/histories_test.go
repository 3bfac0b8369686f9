package servers

import (
	"context"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
)

// A server that answers an update with the user as it reads it back a
// moment later differs from the mock only when two updates overlap: the
// explorer's sequences, one request after the other, never see it; its
// batches of requests at once do, by the linearizability check.
func TestOnlyHistoriesFindARace(t *testing.T) {
	testenv.SkipShort(t, "explores a server twice, 400 sequences each")
	found := testenv.Variants(t, "update-answered-with-the-latest-record")
	srv := Of(found[0], 1)
	run := func(noConcurrent bool) *explore.Result {
		t.Helper()
		tg, err := srv.Start()
		if err != nil {
			t.Fatal(err)
		}
		defer tg.Close()
		res, err := explore.Run(context.Background(), tg.Profile, explore.Config{Runs: 400, Seed: 11, NoConcurrent: noConcurrent})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run(true); res.Diverged() {
		t.Fatalf("without requests at once, a divergence: %s", res.Reason())
	}
	res := run(false)
	if !res.Diverged() {
		t.Fatalf("requests at once found nothing in %d sequences (dropped: %d)", res.Sequences, len(res.Dropped))
	}
	for _, d := range res.Divergences {
		if d.Check != policy.CheckLinearizable.ID && d.Check != policy.CheckID.ID {
			t.Errorf("a divergence of another check, %s: %s", d.Check, d.Reason)
		}
	}
	t.Logf("found: %s\n%s", res.Reason(), res.Divergences[0].Feature)
}
