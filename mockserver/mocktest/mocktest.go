// Package mocktest serves the reference mock on 127.0.0.1 for a run of the
// contract suite, and points the suite at it through the PRICING_*
// variables a user would set (pricing-mock --print-env prints the same).
// The suite's tests, the OpenAPI check and cmd/pricing-mutation start their
// mocks here.
package mocktest

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/defects"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps"
)

// Options shape the mock; the zero value is the mock of the default seed,
// as the spec says.
type Options struct {
	// Defects are served with (mockserver/defects); none: the spec.
	Defects []defects.Defect
	// Wrap, when set, puts a middleware in front of the mock and its
	// defects: another implementation made from the mock.
	Wrap func(http.Handler) http.Handler
	// Pairs, above 1, serves that many pairs of accounts A and B and puts
	// them in the profile (pricing-mock --accounts), so that a run can
	// change several accounts at once.
	Pairs int
	// Fixtures is the seed (fixtures.Foreign(), a folder); nil: the
	// embedded default seed.
	Fixtures fs.FS
}

// Mock is a mock served on 127.0.0.1.
type Mock struct {
	Server  *mockserver.Server
	URL     string        // the API's base URL, http://127.0.0.1:PORT/v1
	Profile steps.Profile // the suite's target profile for this mock
	http    *httptest.Server
}

// Start serves a fresh mock. Close stops it.
func Start(opts Options) (*Mock, error) {
	mo := mockserver.Options{Fixtures: opts.Fixtures}
	if opts.Pairs > 1 {
		seed := opts.Fixtures
		if seed == nil {
			seed = fixtures.Seed()
		}
		mo.Fixtures = pricing.AccountPairs(seed, opts.Pairs)
	}
	srv, h, err := defects.New(mo, opts.Defects)
	if err != nil {
		return nil, err
	}
	if opts.Wrap != nil {
		h = opts.Wrap(h)
	}
	m := &Mock{Server: srv, http: httptest.NewServer(h)}
	m.URL = m.http.URL + "/v1"
	env := map[string]string{}
	for _, kv := range srv.Profile().Env(m.URL) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	m.Profile = steps.ProfileFromEnv(func(k string) string { return env[k] })
	if err := m.Profile.Validate(); err != nil {
		m.Close()
		return nil, fmt.Errorf("the mock's profile: %w", err)
	}
	return m, nil
}

// MustStart is Start for a test: a mock that cannot start fails tb, and the
// mock stops when tb ends.
func MustStart(tb testing.TB, opts Options) *Mock {
	tb.Helper()
	m, err := Start(opts)
	if err != nil {
		tb.Fatalf("mocktest: %v", err)
	}
	tb.Cleanup(m.Close)
	return m
}

// Close stops serving and closes the Server.
func (m *Mock) Close() {
	m.http.Close()
	m.Server.Close()
}
