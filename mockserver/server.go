package mockserver

import (
	"context"
	"fmt"
	"io/fs"
	"log"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/api"
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
	// zero value, the spec. Set them through mockserver/variants/catalogue,
	// which also rewrites requests and answers around the Server.
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
	// restarts: New checks its folder and loads it when it exists (a corrupt
	// file is an error, and is never overwritten); a change is appended to
	// its log and synced before it is answered, and the log is folded into
	// the file in the background and by Close (state_log.go). The secret of
	// its credential hashes is kept beside it, in StateFile+".key".
	StateFile string
	// StateCompactBytes is the size of the state file's log past which it
	// is folded into the file; 0 is 16 MiB. The crash tests make it small,
	// so that kills land in compactions too.
	StateCompactBytes int64

	// AdminToken, when set, is required of every admin call, as
	// "Authorization: Bearer TOKEN"; a call that has it is answered
	// whatever its Host.
	AdminToken string
	// AdminHosts are host names (or addresses) besides the loopback ones
	// whose requests the admin API answers without AdminToken; "*" is any.
	// The loopback names are localhost, 127.0.0.0/8 and ::1. Other hosts
	// get 403: a page of another site that a DNS name leads to the mock
	// (DNS rebinding) cannot drive the admin API.
	AdminHosts []string
	// Limits bound what the mock keeps; a zero field takes its default.
	Limits Limits

	// stateStep, for the tests, is called at each step of the writes of
	// the state file (persister.at), from the start on.
	stateStep func(name string)
}

// Limits bound what the mock keeps, whatever the requests (README, "Limits
// and security"). A write past a count or the data bound is refused with
// 409 LimitReached; sessions and journal entries make room by dropping the
// oldest; a fault rule past its bounds is refused with 400.
type Limits struct {
	// Namespaces bounds the named namespaces; one unused for NamespaceIdle
	// is dropped, and when Namespaces are held, a new name takes the place
	// of the one unused longest if it was unused for NamespaceEvictIdle.
	// A client (an address) makes at most NamespaceRate new ones a minute.
	Namespaces         int
	NamespaceIdle      time.Duration
	NamespaceEvictIdle time.Duration
	NamespaceRate      int
	// Users, Clients, Apps and Sessions bound each namespace's store.
	Users, Clients, Apps, Sessions int
	// DataBytes bounds the estimated size of all stores together.
	DataBytes int64
	// JournalEntries and JournalBytes bound the journals of all namespaces
	// together.
	JournalEntries int
	JournalBytes   int64
	// Rules bounds a namespace's fault rules, AllRules those of all.
	Rules, AllRules int
}

// DefaultLimits are the bounds of a Server whose Options.Limits are zero.
// With the bounds of a fault rule (admin_faults.go: about 32 KiB each with
// its compiled pattern), the mock keeps at most DataBytes + JournalBytes +
// 32 MiB of rules: 224 MiB, inside the 256 MiB the README states.
var DefaultLimits = Limits{
	Namespaces:         1000,
	NamespaceIdle:      time.Hour,
	NamespaceEvictIdle: 5 * time.Minute,
	NamespaceRate:      100,
	Users:              pricing.DefaultLimits.Users,
	Clients:            pricing.DefaultLimits.Clients,
	Apps:               pricing.DefaultLimits.Apps,
	Sessions:           pricing.DefaultLimits.Sessions,
	DataBytes:          160 << 20,
	JournalEntries:     10_000,
	JournalBytes:       32 << 20,
	Rules:              100,
	AllRules:           1000,
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.Namespaces, d.Namespaces)
	set(&l.NamespaceRate, d.NamespaceRate)
	set(&l.Users, d.Users)
	set(&l.Clients, d.Clients)
	set(&l.Apps, d.Apps)
	set(&l.Sessions, d.Sessions)
	set(&l.JournalEntries, d.JournalEntries)
	set(&l.Rules, d.Rules)
	set(&l.AllRules, d.AllRules)
	if l.NamespaceIdle <= 0 {
		l.NamespaceIdle = d.NamespaceIdle
	}
	if l.NamespaceEvictIdle <= 0 {
		l.NamespaceEvictIdle = min(d.NamespaceEvictIdle, l.NamespaceIdle)
	}
	if l.DataBytes <= 0 {
		l.DataBytes = d.DataBytes
	}
	if l.JournalBytes <= 0 {
		l.JournalBytes = d.JournalBytes
	}
	return l
}

// Server is the mock as an http.Handler. It is safe for concurrent use;
// Close stops what Watch and StateFile started.
type Server struct {
	opts    Options
	limits  Limits
	engine  *gin.Engine
	src     *pricing.Source
	logger  *slog.Logger
	spaces  *namespaces
	pool    *pricing.Pool // the stores' share of the memory budget
	journal *journal      // every namespace's requests
	rules   ruleCount     // fault rules of every namespace
	admin   adminGuard
	// docPaths are the paths of the documentation (home page, OpenAPI
	// document): no journal, latency or fault rule applies to them.
	docPaths map[string]bool
	// sleep waits out a delay; tests replace it to see the delays asked for.
	sleep func(ctx context.Context, d time.Duration) error

	seedMu sync.RWMutex
	seed   *pricing.Seed
	// kind is the SeedHeader value of the current seed.
	kind atomic.Pointer[string]
	// api answers every request of the API.
	api *api.API

	persist   *persister // nil without StateFile
	stateLock *stateLock // StateFile's, held from New to Close
	bodies    *budget    // the bytes of request bodies in flight (boundBodies)
	importMu  sync.Mutex // one state import at a time
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
	lim := opts.Limits.withDefaults()
	s := &Server{
		opts: opts, limits: lim, src: pricing.NewSource(opts.Seed),
		logger: opts.Logger, seed: seed, sleep: sleep, stop: make(chan struct{}),
		pool:    pricing.NewPool(lim.DataBytes),
		journal: &journal{maxEntries: lim.JournalEntries, maxBytes: lim.JournalBytes},
		admin:   newAdminGuard(opts),
		bodies:  newBudget(bodyBudget, anonBudget),
	}
	s.rules.max = lim.AllRules
	s.setSeedKind(seed)
	s.api = api.New(api.Options{Suggest: closestRoute})
	if opts.StateFile != "" {
		// The lock first: nothing of the file is read, folded or deleted
		// while another mock serves it (state_lock.go).
		if s.stateLock, err = lockState(opts.StateFile); err != nil {
			return nil, err
		}
		defer func() {
			if s.persist == nil {
				s.stateLock.release()
			}
		}()
		// Before any store: the secret of the file's hashes is the first
		// thing the file needs.
		secret, err := openSecret(opts.StateFile)
		if err != nil {
			return nil, err
		}
		s.src.UseSecret(secret)
	}
	if s.spaces, err = newNamespaces(lim, s.newNamespace, s.dropNamespace); err != nil {
		return nil, fmt.Errorf("mockserver: the seed does not fit in the data bound: %w", err)
	}
	if opts.StateFile != "" {
		if s.persist, err = openState(opts.StateFile, s.spaces.def.store, s.logger, opts.stateStep); err != nil {
			return nil, err
		}
		if opts.StateCompactBytes > 0 {
			s.persist.compactAt = opts.StateCompactBytes
		}
	}
	s.engine = s.routes()
	if opts.Watch {
		s.startWatch()
	}
	return s, nil
}

func (s *Server) newNamespace(name string, id uint64) (*namespace, error) {
	store, err := pricing.NewLimitedStore(s.currentSeed(), s.src, s.opts.Deviations, pricing.Limits{
		Users: s.limits.Users, Clients: s.limits.Clients, Apps: s.limits.Apps, Sessions: s.limits.Sessions, Pool: s.pool,
	})
	if err != nil {
		return nil, err
	}
	return &namespace{name: name, id: id, store: store, rules: &faultRules{all: &s.rules, max: s.limits.Rules}}, nil
}

// dropNamespace frees what a namespace held once it is no longer reachable:
// its share of the data bound, its rules and its journal entries.
func (s *Server) dropNamespace(ns *namespace) {
	ns.store.Close()
	ns.rules.clear()
	s.journal.clear(ns.id)
}

// setSeedKind records the SeedHeader value of a new seed.
func (s *Server) setSeedKind(seed *pricing.Seed) {
	k := seedKind(seed)
	s.kind.Store(&k)
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

// Close stops watching the fixtures, commits what is left to the state
// file and folds its log into the snapshot. The server still answers
// afterwards, but a change is answered 503, as it can no longer be saved.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		s.done.Wait()
		if s.persist != nil {
			s.closeErr = s.persist.close()
			s.stateLock.release()
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

// Timeouts are the bounds of the http.Server that serves a mock: how long a
// client may take to send its request and read the answer, how long an idle
// connection stays open, how large the request head may be. A zero field
// takes its default.
type Timeouts struct {
	ReadHeader, Read, Write, Idle time.Duration
	MaxHeaderBytes                int
}

// DefaultTimeouts: a request has 30 s to arrive, body included, and its
// answer 90 s to leave (a delay may hold it 60 s, MaxDelay); a connection
// idle for 30 s is closed; a request head over 64 KiB answers 431.
var DefaultTimeouts = Timeouts{
	ReadHeader:     10 * time.Second,
	Read:           30 * time.Second,
	Write:          MaxDelay + 30*time.Second,
	Idle:           30 * time.Second,
	MaxHeaderBytes: 64 << 10,
}

func (t Timeouts) withDefaults() Timeouts {
	d := DefaultTimeouts
	for _, f := range []struct{ v, def *time.Duration }{{&t.ReadHeader, &d.ReadHeader}, {&t.Read, &d.Read}, {&t.Write, &d.Write}, {&t.Idle, &d.Idle}} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	if t.MaxHeaderBytes <= 0 {
		t.MaxHeaderBytes = d.MaxHeaderBytes
	}
	return t
}

// NewHTTPServer returns the http.Server that serves h with the bounds of t;
// errorLog (nil: the log package's) receives its connection errors.
func NewHTTPServer(h http.Handler, t Timeouts, errorLog *log.Logger) *http.Server {
	t = t.withDefaults()
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    t.MaxHeaderBytes,
		ErrorLog:          errorLog,
	}
}
