// Package mocktarget starts the reference mock as the target of a run of
// the contract suite: a mock of mockserver/mocktest and the suite's profile
// of it, read from the PRICING_* variables the mock gives by the loader of
// steps/target, as pricing-contract reads them from the environment. It
// lives above both the mock and the suite so that neither knows the other:
// the suite's tests, the features' test, cmd/pricing-mutation and the other
// commands' tests start their mocks here.
package mocktarget

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// Mock is a mock served on 127.0.0.1 and the suite's profile of it.
type Mock struct {
	*mocktest.Mock
	Profile steps.Profile
}

// Start serves a fresh mock. Close stops it.
func Start(opts mocktest.Options) (*Mock, error) {
	m, err := mocktest.Start(opts)
	if err != nil {
		return nil, err
	}
	p, err := Profile(m, nil)
	if err != nil {
		m.Close()
		return nil, err
	}
	return &Mock{Mock: m, Profile: p}, nil
}

// MustStart is Start for a test: a mock that cannot start fails tb, and the
// mock stops when tb ends.
func MustStart(tb testing.TB, opts mocktest.Options) *Mock {
	tb.Helper()
	m, err := Start(opts)
	if err != nil {
		tb.Fatalf("mocktarget: %v", err)
	}
	tb.Cleanup(m.Close)
	return m
}

// Profile is the suite's profile of m, with over on top: profile-file keys
// and their values, as a variant's Profile says of it
// (variants.Server.Profile); a base_url that is a path is that path on m's
// origin. It is checked as pricing-contract checks a profile.
func Profile(m *mocktest.Mock, over map[string]string) (steps.Profile, error) {
	vars := map[string]string{}
	for key, v := range over {
		f, ok := target.Lookup(key)
		if !ok {
			return steps.Profile{}, fmt.Errorf("profile key %q: no such key (%s)", key, target.KnownKeys())
		}
		if key == "base_url" && strings.HasPrefix(v, "/") {
			v = m.Origin() + v
		}
		vars[f.Env] = v
	}
	env := m.EnvWith(vars)
	p := steps.ProfileFromEnv(func(k string) string { return env[k] })
	if err := p.Validate(); err != nil {
		return steps.Profile{}, fmt.Errorf("the mock's profile: %w", err)
	}
	return p, nil
}
