// Package mocktest serves the reference mock on 127.0.0.1 for a test, with
// the PRICING_* variables that point a client at it (pricing-mock
// --print-env prints the same). It knows nothing of the contract suite:
// cmd/internal/mocktarget turns those variables into the suite's profile.
package mocktest

import (
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

// Options shape the mock; the zero value is the mock of the default seed,
// as the spec says.
type Options struct {
	// Servers are served (catalogue.Serve): the mock made into them; none:
	// the spec.
	Servers []variants.Server
	// Hit is handed to the Servers' Wraps: called each time one acts.
	Hit func()
	// Wrap, when set, puts a middleware in front of the mock and its
	// Servers: another implementation made from the mock.
	Wrap func(http.Handler) http.Handler
	// Pairs, above 1, serves that many pairs of accounts A and B and puts
	// them in Env (pricing-mock --accounts), so that a run can change
	// several accounts at once.
	Pairs int
	// Fixtures is the seed (fixtures.Foreign(), a folder); nil: the
	// embedded default seed.
	Fixtures fs.FS
}

// Mock is a mock served on 127.0.0.1.
type Mock struct {
	Server *mockserver.Server
	URL    string // the API's base URL, http://127.0.0.1:PORT/v1
	// Env is the PRICING_* variables that point a client at this mock and
	// its seed's accounts.
	Env  map[string]string
	http *httptest.Server
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
	srv, h, err := catalogue.Serve(mo, opts.Hit, opts.Servers...)
	if err != nil {
		return nil, err
	}
	if opts.Wrap != nil {
		h = opts.Wrap(h)
	}
	m := &Mock{Server: srv, http: httptest.NewServer(h), Env: map[string]string{}}
	m.URL = m.http.URL + "/v1"
	for _, kv := range srv.Profile().Env(m.URL) {
		k, v, _ := strings.Cut(kv, "=")
		m.Env[k] = v
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

// Getenv reads Env, as os.Getenv reads the environment.
func (m *Mock) Getenv(key string) string { return m.Env[key] }

// EnvWith is Env with other values over it.
func (m *Mock) EnvWith(over map[string]string) map[string]string {
	env := maps.Clone(m.Env)
	maps.Copy(env, over)
	return env
}

// Origin is the mock's scheme, host and port, without the base path.
func (m *Mock) Origin() string { return m.http.URL }

// Close stops serving and closes the Server.
func (m *Mock) Close() {
	m.http.Close()
	m.Server.Close()
}
