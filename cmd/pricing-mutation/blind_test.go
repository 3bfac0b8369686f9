package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/defects"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The blind audits: servers written from the spec alone by someone who
// never read the features. Every wrong one must fail the spec scenarios,
// every legal one pass them (README, "Blind audits").
func TestBlindAudits(t *testing.T) {
	if raceEnabled {
		t.Skip("each audit server is one run of the suite, several times slower under -race; .ci/run runs them all without it")
	}
	audits := []struct {
		date         string
		wrong, legal []variants.Variant
	}{
		{"2026-11-26", variants.Blind20261126.Wrong, variants.Blind20261126.Legal},
	}
	for _, a := range audits {
		for _, set := range []struct {
			legal bool
			vs    []variants.Variant
		}{{false, a.wrong}, {true, a.legal}} {
			for _, v := range set.vs {
				t.Run(a.date+"/"+v.Name, func(t *testing.T) {
					t.Parallel()
					var hits atomic.Int64
					wrap := func(next http.Handler) http.Handler { return v.Wrap(next, func() { hits.Add(1) }) }
					o := runSpec(defects.Defect{}, wrap, nil)
					switch {
					case o.err != nil:
						t.Fatalf("could not run: %v", o.err)
					case o.ran == 0:
						t.Fatal("no scenario ran")
					case hits.Load() == 0 && set.legal:
						// A reading the spec scenarios never meet: the
						// suite sends it only in @reference scenarios.
						t.Logf("never reached by a spec scenario (%s)", v.Why)
					case hits.Load() == 0:
						t.Errorf("BLIND-WRONG-SURVIVED the variant never acted, so the suite never sends what it breaks (%s)", v.Why)
					case set.legal && o.failedRun():
						var b strings.Builder
						for _, s := range o.failed {
							fmt.Fprintf(&b, "\n--- %s\n%s\n", s, o.reasons[s])
						}
						t.Errorf("BLIND-LEGAL-FAILED %d of %d spec scenarios failed against a correct server (%s)%s", len(o.failed), o.ran, v.Why, b.String())
					case !set.legal && !o.failedRun():
						t.Errorf("BLIND-WRONG-SURVIVED all %d spec scenarios pass against a wrong server: %s", o.ran, v.Why)
					case !set.legal:
						t.Logf("killed by %s", caughtBy(o.failed, o.status))
					}
				})
			}
		}
	}
}
