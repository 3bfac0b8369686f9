package mockserver

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Options configures a Server. The zero value serves the embedded default
// seed with crypto/rand values, wall-clock dates, no request log, and the
// admin API on.
type Options struct {
	// Fixtures is the seed folder; nil means fixtures.Seed() (embedded default).
	Fixtures fs.FS
	// Seed, when set, makes every generated value (write keys, tokens, salts,
	// dates) come from a generator seeded with it, so that the same seed gives
	// the same values. nil: crypto/rand and the wall clock.
	Seed *int64
	// Logger receives one line per request (method, path without query,
	// status, duration), and the problems of --watch and --state; nil means
	// silent.
	Logger *slog.Logger
	// Deviations are departures from the spec for mutation testing; the
	// zero value, the spec. Set them through mockserver/defects, which also
	// rewrites requests and answers around the Server.
	Deviations pricing.Deviations

	// NoAdmin turns off the admin API (/__admin/...), the request journal,
	// and the X-Mock-Delay and X-Mock-Status headers: a server that serves
	// only the API.
	NoAdmin bool
	// Latency delays every API request, plus a random part up to Jitter; the
	// sum may not pass MaxDelay.
	Latency, Jitter time.Duration
	// CORSOrigins are the origins browsers may call the mock from; empty:
	// any origin.
	CORSOrigins []string
	// Watch polls Fixtures every WatchInterval (default 500 ms) and reloads
	// the seed when a file changes and still loads; namespaces whose store
	// still holds the old seed, untouched, get the new one.
	Watch         bool
	WatchInterval time.Duration
	// StateFile, when set, holds the default namespace's data across
	// restarts: New loads it when it exists (a corrupt file is an error, and
	// is never overwritten), every change is written to it, and Close writes
	// it a last time.
	StateFile string
}

// Server is the mock as an http.Handler. It is safe for concurrent use;
// Close stops what Watch and StateFile started.
type Server struct {
	opts   Options
	engine *gin.Engine
	src    *pricing.Source
	logger *slog.Logger
	spaces *namespaces
	// docPaths are the paths of the documentation (home page, OpenAPI
	// document): no journal, latency or fault rule applies to them.
	docPaths map[string]bool
	// sleep waits out a delay; tests replace it to see the delays asked for.
	sleep func(ctx context.Context, d time.Duration) error

	seedMu sync.RWMutex
	seed   *pricing.Seed

	persist   *persister // nil without StateFile
	stop      chan struct{}
	done      sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

var _ http.Handler = (*Server)(nil)

// New loads and validates the fixtures (and the state file) and builds the
// route map. An error names the file and the problem.
func New(opts Options) (*Server, error) {
	if opts.Latency < 0 || opts.Jitter < 0 || opts.Latency+opts.Jitter > MaxDelay {
		return nil, fmt.Errorf("mockserver: latency %s and jitter %s must be positive and together at most %s", opts.Latency, opts.Jitter, MaxDelay)
	}
	if opts.Fixtures == nil {
		opts.Fixtures = fixtures.Seed()
	}
	if opts.WatchInterval <= 0 {
		opts.WatchInterval = 500 * time.Millisecond
	}
	seed, err := pricing.LoadSeed(opts.Fixtures)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts: opts, src: pricing.NewSource(opts.Seed),
		logger: opts.Logger, seed: seed, sleep: sleep, stop: make(chan struct{}),
	}
	s.spaces = &namespaces{named: map[string]*namespace{}, make: s.newNamespace}
	s.spaces.def = s.newNamespace("")
	if opts.StateFile != "" {
		if s.persist, err = openState(opts.StateFile, s.spaces.def.store, s.logger); err != nil {
			return nil, err
		}
	}
	s.engine = s.routes()
	if opts.Watch {
		s.startWatch()
	}
	return s, nil
}

func (s *Server) newNamespace(name string) *namespace {
	store := pricing.NewStore(s.currentSeed(), s.src, s.opts.Deviations)
	return &namespace{name: name, store: store, journal: &journal{}, rules: &faultRules{}}
}

func (s *Server) currentSeed() *pricing.Seed {
	s.seedMu.RLock()
	defer s.seedMu.RUnlock()
	return s.seed
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.engine.ServeHTTP(w, r)
}

// Close stops watching the fixtures and writes the state file a last time.
// The server still answers afterwards, without persisting.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		s.done.Wait()
		if s.persist != nil {
			s.closeErr = s.persist.write()
		}
	})
	return s.closeErr
}

// Store gives direct access to the default namespace's data, for tests and
// tools that need to arrange state without going through HTTP.
func (s *Server) Store() *pricing.Store { return s.spaces.def.store }

// Profile returns the seed's target profile (profile.json of the fixtures).
func (s *Server) Profile() pricing.Profile {
	return s.currentSeed().Profile()
}
