package incoming

import (
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// TestProbes runs every server's probe against the server and the plain
// mock: the server must give Want, the mock must not.
func TestProbes(t *testing.T) {
	for _, s := range Servers() {
		t.Run(s.Name, func(t *testing.T) {
			p, ok := Probes[s.Name]
			if !ok {
				t.Fatalf("%s has no probe", s.Name)
			}
			server := mocktest.MustStart(t, mocktest.Options{Servers: []variants.Server{s}})
			mock := mocktest.MustStart(t, mocktest.Options{})
			if got := p.Run(probe.Client{T: t, Base: server.URL}); got != p.Want {
				t.Errorf("server: got %q, want %q", got, p.Want)
			}
			if got := p.Run(probe.Client{T: t, Base: mock.URL}); got == p.Want {
				t.Errorf("the plain mock also gives %q", got)
			}
		})
	}
}

// TestCatalogue checks that every server is described, and that servers
// and probes match one to one.
func TestCatalogue(t *testing.T) {
	names := map[string]bool{}
	legal := 0
	for _, s := range Servers() {
		if names[s.Name] {
			t.Errorf("%s is listed twice", s.Name)
		}
		names[s.Name] = true
		if _, ok := Probes[s.Name]; !ok {
			t.Errorf("%s has no probe", s.Name)
		}
		if s.Rule == "" || s.Why == "" || s.Origin.Round != "blind-2" || !s.Acts() {
			t.Errorf("%s is not fully described or does nothing", s.Name)
		}
		if s.Legal {
			legal++
		}
	}
	for name := range Probes {
		if !names[name] {
			t.Errorf("probe %s has no server", name)
		}
	}
	t.Logf("%d servers, %d legal", len(names), legal)
}
