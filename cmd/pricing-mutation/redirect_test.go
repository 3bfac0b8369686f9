package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The mutation runner's client is the tools' one (steps' default,
// target.NewClient): a server that redirects every request to another host
// gets its 3xx as the answer, the run fails, and the other listener
// receives 0 bytes of the accounts' passwords, keys or anything else.
func TestRedirectingServerGetsNoSecret(t *testing.T) {
	testenv.SkipShort(t, "runs the spec scenarios against a redirecting server")
	for _, host := range []string{"127.0.0.2", "127.0.0.1"} {
		t.Run(host, func(t *testing.T) {
			rec := mocktest.StartRecorder(t, host)
			wrap := func(http.Handler) http.Handler { return rec.Redirect() }
			o := runSpec(variants.Server{}, nil, wrap, true)
			got := rec.Received()
			t.Logf("%s: %d bytes reached %s; the run failed: %v (%d scenarios, %.200s)", host, len(got), rec.URL, o.failedRun(), o.ran, strings.Join(o.failed, "; "))
			if len(got) > 0 {
				t.Errorf("%d bytes reached the other listener:\n%.2000s", len(got), got)
			}
			if !o.failedRun() {
				t.Errorf("the run passed against a server that only redirects: %+v", o)
			}
		})
	}
}
