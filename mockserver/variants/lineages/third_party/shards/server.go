// Package shards is an independent implementation of the pricing-management
// HTTP API described in pricing-api.md. Resources live in maps; every user
// and client record carries its own mutex, the indexes (email -> user,
// api key -> user, token -> session, client -> apps) have their own
// RWMutexes and ids come from atomic counters.
//
// A Server can be built with one switchable fault (see Faults) that turns a
// single behaviour wrong, or selects an alternative legal reading.
package shards

import (
	"fmt"
	"net/http"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"
)

// Server is the pricing API server.
type Server struct {
	fault    string
	mux      *http.ServeMux
	st       *store
	accounts [][2]Account
	window   time.Duration // race window used by the concurrency faults
}

const (
	basePath = "/api/v1"
	maxPairs = 500
)

// basePaths are the served version prefixes: v1 and its spelling v1.0.
var basePaths = []string{"/api/v1", "/api/v1.0"}

// Options configures a Server; it seeds at most 500 pairs of accounts.
type Options = lineage.Options

// New builds a seeded server.
func New(opts Options) (*Server, error) {
	if opts.Pairs < 0 || opts.Pairs > maxPairs {
		return nil, fmt.Errorf("shards: Pairs must be between 0 and %d, got %d", maxPairs, opts.Pairs)
	}
	if opts.Pairs == 0 {
		opts.Pairs = 1
	}
	if opts.Fault != "" && !knownFault(opts.Fault) {
		return nil, fmt.Errorf("shards: unknown fault %q", opts.Fault)
	}
	s := &Server{fault: opts.Fault, st: newStore(), window: 40 * time.Millisecond}
	if err := s.seed(opts.Pairs); err != nil {
		return nil, err
	}
	s.routes()
	return s, nil
}

// BasePath is the version prefix every endpoint path is relative to.
func (s *Server) BasePath() string { return basePath }

// Account is a seeded credential set.
type Account = lineage.Account

// Accounts returns the seeded pairs (account A, account B).
func (s *Server) Accounts() [][2]Account {
	out := make([][2]Account, len(s.accounts))
	copy(out, s.accounts)
	return out
}

// ServeHTTP dispatches to the route table.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

func (s *Server) is(name string) bool { return s.fault == name }

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	for _, b := range basePaths {
		s.mux.HandleFunc("POST "+b+"/sessions", s.postSession)
		s.mux.HandleFunc("POST "+b+"/users", s.postUser)
		s.mux.HandleFunc("PUT "+b+"/users/{userId}", s.putUser)
		s.mux.HandleFunc("POST "+b+"/clients", s.postClient)
		s.mux.HandleFunc("PUT "+b+"/clients/{clientId}", s.putClient)
		s.mux.HandleFunc("POST "+b+"/apps", s.postApp)
		s.mux.HandleFunc("GET "+b+"/platforms", s.getPlatforms)
		s.mux.HandleFunc("GET "+b+"/plans", s.getPlans)
		s.mux.HandleFunc("GET "+b+"/currencies", s.getCurrencies)
		s.mux.HandleFunc("GET "+b+"/phonecountries", s.getPhoneCountries)
		s.mux.HandleFunc("GET "+b+"/marketapps", s.getMarketApps)
	}
	s.mux.HandleFunc("/", s.fallback)
}

// fallback answers 405 for a known path with another method, else 404.
func (s *Server) fallback(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pat := s.mux.Handler(probe); pat != "/" && pat != "" {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) > 0 {
		for _, m := range allowed {
			w.Header().Add("Allow", m)
		}
		s.fail(w, http.StatusMethodNotAllowed, "MethodNotAllowed", "method not allowed on this resource")
		return
	}
	s.fail(w, http.StatusNotFound, "NotFound", "no such resource")
}
