package pricing

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Errors of the store. Handlers map them to statuses; callers test them with
// errors.Is.
var (
	ErrNotFound         = errors.New("not found")
	ErrBadCredentials   = errors.New("wrong email or password")
	ErrEmailTaken       = errors.New("email address already in use")
	ErrUnknownReference = errors.New("unknown catalogue reference")
	ErrIncompleteInput  = errors.New("incomplete input")
	// ErrRefusedAfterWrite is what the store answers, under the deviation
	// PermissionCheckedAfterWrite, to an update it stored for a caller who
	// may not make it.
	ErrRefusedAfterWrite = errors.New("the update was stored, then refused")
)

// Store is the in-memory data of the mock: users, clients, apps, sessions,
// API keys and the catalogues. It knows nothing of HTTP. Every method is safe
// for concurrent use; values handed in and out are copies, and listings are
// sorted by id.
//
// Passwords, API keys and session tokens are kept only as HMACs under the
// Source's Secret (secret.go); what it keeps is bounded by its Limits
// (limits.go).
type Store struct {
	src    *Source
	secret *Secret
	dev    Deviations
	lim    Limits

	mu sync.RWMutex
	data
	// sessionHead is where data.sessionOrder starts: the session dropped
	// when a new session needs room.
	sessionHead int
	// The catalogues sorted by id, once per install: they are read on
	// every request to a collection, and never change.
	platformList     []Platform
	currencyList     []Currency
	planList         []Plan
	phoneCountryList []PhoneCountry
	// gen counts writes (data.pristine is true from a reset to the first
	// write).
	gen   uint64
	track *changeSet // what was written since TakeChanges; nil: not tracked

	// Only under Deviations: the user of the newest session
	// (LastSessionWins), and whether the latest permission check of each
	// user refused its caller (PermissionCheckedAfterWrite).
	lastSessionUser int64
	refused         map[string]bool // "user 1", "client 2"
	// bytes is the estimated size of the data, charged to lim.Pool until
	// Close; closed, the store charges nothing more.
	bytes  int64
	closed bool
}

// NewStore returns a store holding the seed, within DefaultLimits.
func NewStore(seed *Seed, src *Source, dev Deviations) *Store {
	s, _ := NewLimitedStore(seed, src, dev, Limits{Users: DefaultLimits.Users, Clients: DefaultLimits.Clients,
		Apps: DefaultLimits.Apps, Sessions: DefaultLimits.Sessions})
	return s
}

// NewLimitedStore returns a store holding the seed, within lim; a
// *LimitError when lim.Pool has no room for the seed. Once made, a store
// always takes its seed back (Reset), room or not.
func NewLimitedStore(seed *Seed, src *Source, dev Deviations, lim Limits) (*Store, error) {
	s := &Store{src: src, secret: src.Secret(), dev: dev, lim: lim}
	d := s.seeded(seed)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.install(d, false); err != nil {
		return nil, err
	}
	return s, nil
}

// Close gives the store's share of the Pool back. The store still answers
// afterwards, but charges nothing: it is being dropped.
func (s *Store) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed && s.lim.Pool != nil {
		s.lim.Pool.give(s.bytes)
	}
	s.closed = true
}

// Stats counts what a store holds.
type Stats struct {
	Users, Clients, Apps, Sessions int
	Bytes                          int64 // estimated, as charged to the Pool
}

// Stats counts what the store holds now.
func (s *Store) Stats() Stats {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return Stats{Users: len(s.users), Clients: len(s.clients), Apps: len(s.apps), Sessions: len(s.sessions), Bytes: s.bytes}
}

// changedLocked records a write; the caller holds the write lock.
func (s *Store) changedLocked() {
	s.pristine = false
	s.gen++
}

// Generation counts the writes to the store (resets and imports included):
// a different number means different data.
func (s *Store) Generation() uint64 {
	return readLocked(s, func() uint64 { return s.gen })
}

// Pristine reports whether the store holds its seed, untouched since the
// last reset.
func (s *Store) Pristine() bool {
	return readLocked(s, func() bool { return s.pristine })
}

func maxKey[V any](m map[int64]V) int64 {
	var n int64
	for k := range m {
		n = max(n, k)
	}
	return n
}

func ptr[T any](v T) *T { return &v }

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	return ptr(*p)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func sortedValues[V any](m map[int64]V) []V {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]V, 0, len(keys))
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out
}

// generated holds the values a write needs from the source, drawn before the
// lock is taken so that the lock is never held across the generator's.
type generated struct {
	now        time.Time
	salt, hash []byte
	writeKey   string
	hasPW      bool
}

func (s *Store) generate(password *string, withApp bool) generated {
	g := generated{now: s.src.now()}
	if password != nil {
		g.salt, g.hash = s.hashPassword(*password)
		g.hasPW = true
	}
	if withApp {
		g.writeKey = s.src.hex(16)
	}
	return g
}

// record reads a user, client or app by id (table picks its map, kind names
// it in the error) under the store's read lock, as a copy the caller may
// keep.
func record[R interface{ copy() V }, V any](s *Store, table func(*Store) map[int64]R, kind string, id int64) (V, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := table(s)[id]
	if !ok {
		var zero V
		return zero, fmt.Errorf("%s %d: %w", kind, id, ErrNotFound)
	}
	return r.copy(), nil
}

// readLocked is what read returns, read under the store's read lock.
func readLocked[T any](s *Store, read func() T) T {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return read()
}
