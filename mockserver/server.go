// Package mockserver is the reference implementation of the Pricing Service
// API (../shared/spec/pricing-api.md): a Gin engine over an in-memory store,
// seeded from JSON fixtures.
//
// The package is layered so that each part can be read and tested alone:
// store.go holds the data and its invariants (no HTTP), validate.go turns a
// decoded request body into typed input or a list of field errors (no HTTP,
// no store), and routes.go with handlers.go are the only files that know Gin.
package mockserver

import (
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/fixtures"
)

// Options configures a Server. The zero value serves the embedded default
// seed with crypto/rand values, wall-clock dates and no request log.
type Options struct {
	// Fixtures is the seed folder; nil means fixtures.Seed() (embedded default).
	Fixtures fs.FS
	// Seed, when set, makes every generated value (write keys, tokens, salts,
	// dates) come from a generator seeded with it, so that the same seed gives
	// the same values. nil: crypto/rand and the wall clock.
	Seed *int64
	// Logger receives one line per request (method, path without query,
	// status, duration); nil means silent.
	Logger *slog.Logger
	// Faults are the names of deliberate defects to serve with (Faults()
	// lists them); nil: none, the mock follows the spec.
	Faults []string
}

// Server is the mock as an http.Handler. It is safe for concurrent use.
type Server struct {
	engine  *gin.Engine
	handler http.Handler // engine, or engine behind the faults' rewrites
	faults  *faultSet    // nil: none
	rules   Rules
	store   *Store
	seed    *seedData
	profile Profile
	logger  *slog.Logger
}

var _ http.Handler = (*Server)(nil)

// New loads and validates the fixtures and builds the route map. An error
// names the fixture file and the problem.
func New(opts Options) (*Server, error) {
	faults, err := newFaultSet(opts.Faults)
	if err != nil {
		return nil, err
	}
	fsys := opts.Fixtures
	if fsys == nil {
		fsys = fixtures.Seed()
	}
	src := newSource(opts.Seed)
	seed, err := loadSeed(fsys)
	if err != nil {
		return nil, err
	}
	store := newStore(seed, src)
	store.faults = faults
	s := &Server{store: store, seed: seed, profile: seed.profile, logger: opts.Logger, faults: faults, rules: faults.validation()}
	s.engine = s.routes()
	s.handler = faults.wrap(s.engine)
	return s, nil
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// Reset puts the store back to the seed it was loaded from: every user,
// client, app and session created since New is forgotten. Generated values
// continue from where the generator was, they do not repeat.
func (s *Server) Reset() {
	s.store.reset(s.seed)
}

// Store gives direct access to the data, for tests and tools that need to
// arrange state without going through HTTP.
func (s *Server) Store() *Store { return s.store }

// Profile is the target profile of the seed: the credentials and catalogue ids
// the contract suite needs to run against this server.
type Profile struct {
	Email, Password, APIKey, OtherEmail, OtherPassword, OtherAPIKey string
	CurrencyID, PlanID, PlatformID, PhoneCountryID                  int64
	MarketappHash                                                   string
}

// Profile returns the seed's target profile (profile.json of the fixtures).
func (s *Server) Profile() Profile { return s.profile }

// Env renders the profile as PRICING_* variables ("NAME=value", unquoted),
// PRICING_BASE_URL first, then the order of the suite's documented table.
func (p Profile) Env(baseURL string) []string {
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	return []string{
		"PRICING_BASE_URL=" + baseURL,
		"PRICING_EMAIL=" + p.Email,
		"PRICING_PASSWORD=" + p.Password,
		"PRICING_API_KEY=" + p.APIKey,
		"PRICING_OTHER_EMAIL=" + p.OtherEmail,
		"PRICING_OTHER_PASSWORD=" + p.OtherPassword,
		"PRICING_OTHER_API_KEY=" + p.OtherAPIKey,
		"PRICING_CURRENCY_ID=" + i(p.CurrencyID),
		"PRICING_PLAN_ID=" + i(p.PlanID),
		"PRICING_PLATFORM_ID=" + i(p.PlatformID),
		"PRICING_PHONE_COUNTRY_ID=" + i(p.PhoneCountryID),
		"PRICING_MARKETAPP_HASH=" + p.MarketappHash,
	}
}
