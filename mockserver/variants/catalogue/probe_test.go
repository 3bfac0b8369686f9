package catalogue_test

import (
	"sync/atomic"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// TestProbes serves each server that has a probe, and the plain mock, the
// probe's requests: the server answers what it should, the mock does not,
// and the server says it acted. Every server of a blind audit has a probe,
// so that each is shown to differ from the mock before the suite is asked
// to catch it (cmd/pricing-mutation's TestCatalogue).
func TestProbes(t *testing.T) {
	probes := catalogue.Probes()
	probed := 0
	for _, s := range catalogue.All() {
		p, ok := probes[s.Name]
		if !ok {
			if s.Origin.Author == variants.Blind {
				t.Errorf("%s: no probe", s.Name)
			}
			continue
		}
		probed++
		t.Run(string(s.Area)+"/"+s.Name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int64
			m := mocktest.MustStart(t, mocktest.Options{Servers: []variants.Server{s}, Hit: func() { hits.Add(1) }})
			plain := mocktest.MustStart(t, mocktest.Options{})
			got := p.Run(probe.Client{T: t, Base: m.URL})
			ref := p.Run(probe.Client{T: t, Base: plain.URL})
			if got != p.Want {
				t.Errorf("the server: %q, want %q (the mock: %q)", got, p.Want, ref)
			}
			if ref == p.Want {
				t.Errorf("the mock answers %q too: the probe does not tell the server apart", ref)
			}
			if s.Wrap != nil && hits.Load() == 0 {
				t.Errorf("hit was never called")
			}
		})
	}
	if probed == 0 {
		t.Fatal("no probe ran")
	}
}

// TestEveryProbeHasItsServer: a probe names a server of the catalogue.
func TestEveryProbeHasItsServer(t *testing.T) {
	for name := range catalogue.Probes() {
		if _, err := catalogue.Find([]string{name}); err != nil {
			t.Errorf("probe %s: %v", name, err)
		}
	}
}
