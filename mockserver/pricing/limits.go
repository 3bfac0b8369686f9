package pricing

import (
	"fmt"
	"sync/atomic"
	"unsafe"
)

// Limits bound what one store keeps, so that no sequence of requests makes
// the mock grow without end. A write that would pass a count (users,
// clients, apps) or the shared Pool fails with a *LimitError and changes
// nothing; a session past Sessions makes room by dropping the oldest one.
type Limits struct {
	Users, Clients, Apps int
	Sessions             int
	// Pool is the memory every store of a server shares; nil: no shared
	// bound, only the counts.
	Pool *Pool
}

// DefaultLimits are the counts of one store. At the longest values the
// fields take (255 characters, 4 bytes each), 10,000 users, clients and
// apps estimate at about 130 MiB; the Pool holds the sum of all stores
// below its own bound.
var DefaultLimits = Limits{Users: 10_000, Clients: 10_000, Apps: 10_000, Sessions: 10_000}

// LimitError is a write refused because a store, or all of them together,
// already holds the most it keeps.
type LimitError struct {
	What string // "users", "clients", "apps", or "data" for the Pool
	Max  int64  // a count, or bytes for "data"
}

func (e *LimitError) Error() string {
	if e.What == "data" {
		return fmt.Sprintf("the mock already holds %d MiB of data, the most it keeps", e.Max>>20)
	}
	return fmt.Sprintf("the namespace already holds %d %s, the most it keeps", e.Max, e.What)
}

// Pool is a memory bound shared by stores: each charges it the estimated
// size of what it keeps (see the sizes below) and gives it back when it
// drops data or is closed. Safe for concurrent use.
type Pool struct {
	max  int64
	used atomic.Int64
}

// NewPool returns a pool of max bytes.
func NewPool(max int64) *Pool { return &Pool{max: max} }

// Max is the pool's bound in bytes.
func (p *Pool) Max() int64 { return p.max }

// Used is what the stores hold now, in bytes.
func (p *Pool) Used() int64 { return p.used.Load() }

// take charges n bytes unless that passes the bound.
func (p *Pool) take(n int64) bool {
	for {
		used := p.used.Load()
		if used+n > p.max {
			return false
		}
		if p.used.CompareAndSwap(used, used+n) {
			return true
		}
	}
}

// force charges n bytes even past the bound: a reset to the seed must
// succeed whatever the other stores hold (it seldom grows a store).
func (p *Pool) force(n int64) { p.used.Add(n) }

// give returns n bytes.
func (p *Pool) give(n int64) { p.used.Add(-n) }

// The estimated sizes of what a store keeps, in bytes: each Go value with
// its map entry, plus the bytes of its strings, counted twice for the email
// (the record and the index by email). They are deliberate overestimates,
// so that the Pool bounds more than the heap it stands for; a test compares
// them with the heap.
var (
	storeBytes   = int64(unsafe.Sizeof(Store{})) + 4<<10 // the store and its empty maps
	userBytes    = int64(unsafe.Sizeof(userRecord{})) + 256
	apiKeyBytes  = int64(128)
	clientBytes  = int64(unsafe.Sizeof(Client{})) + 192
	appBytes     = int64(unsafe.Sizeof(App{})) + 192
	sessionBytes = int64(unsafe.Sizeof(Session{})) + 32 + 160 // value, key, map entry and queue slot
)

// strBytes is what strings take on the heap: their bytes, rounded up to
// the allocator's size classes (at most an eighth more), and a header.
func strBytes(ss ...string) int64 {
	n := 0
	for _, s := range ss {
		n += len(s) + len(s)/8 + 16
	}
	return int64(n)
}

func ptrBytes(p *string) int64 {
	if p == nil {
		return 0
	}
	return 16 + strBytes(*p)
}

func (r *userRecord) bytes() int64 {
	return userBytes + 2*strBytes(r.Email) + r.UserDetails.bytes() +
		16*int64(len(r.ClientIDs)) + int64(len(r.salt)+len(r.hash))
}

func (c *Client) bytes() int64 {
	return clientBytes + strBytes(c.Name, c.AddressLine1, c.AddressCity, c.AddressPostcode, c.AddressCountry) +
		ptrBytes(c.AddressLine2) + ptrBytes(c.VAT)
}

func (a *App) bytes() int64 {
	return appBytes + strBytes(a.Name, a.WriteKey) + ptrBytes(a.MarketappHash)
}

// bytes is the estimated size of the client a ClientInput makes (its app
// aside).
func (in *ClientInput) bytes() int64 {
	c := Client{}
	c.apply(*in)
	return c.bytes() + 16 // the id in the member's ClientIDs
}

// bytes is the estimated size of the app an AppInput makes.
func (in *AppInput) bytes() int64 {
	a := App{Name: in.Name, MarketappHash: in.MarketappHash, WriteKey: "0123456789abcdef0123456789abcdef"}
	return a.bytes()
}

// bytes is the estimated size of a store's data, catalogues aside (they
// are the seed's, shared by every store).
func (d *data) bytes() int64 {
	n := storeBytes
	for _, r := range d.users {
		n += r.bytes()
	}
	n += apiKeyBytes * int64(len(d.apiKeys))
	for _, c := range d.clients {
		n += c.bytes()
	}
	for _, a := range d.apps {
		n += a.bytes()
	}
	return n + sessionBytes*int64(len(d.sessions))
}

// charge accounts for delta bytes more (or fewer) in the store; past the
// Pool's bound it fails and changes nothing. The caller holds the write
// lock.
func (s *Store) charge(delta int64) error {
	if s.lim.Pool != nil && !s.closed {
		switch {
		case delta > 0 && !s.lim.Pool.take(delta):
			return &LimitError{What: "data", Max: s.lim.Pool.Max()}
		case delta < 0:
			s.lim.Pool.give(-delta)
		}
	}
	s.bytes += delta
	return nil
}

// room fails when adding users, clients and apps to the store would pass
// its counts. The caller holds a lock.
func (s *Store) room(users, clients, apps int) error {
	switch {
	case users > 0 && s.lim.Users > 0 && len(s.users)+users > s.lim.Users:
		return &LimitError{What: "users", Max: int64(s.lim.Users)}
	case clients > 0 && s.lim.Clients > 0 && len(s.clients)+clients > s.lim.Clients:
		return &LimitError{What: "clients", Max: int64(s.lim.Clients)}
	case apps > 0 && s.lim.Apps > 0 && len(s.apps)+apps > s.lim.Apps:
		return &LimitError{What: "apps", Max: int64(s.lim.Apps)}
	}
	return nil
}

// makeRoom checks the counts and charges the Pool for a write that adds
// users (0 or 1), a client and its app, and grows what exists by delta
// bytes. The caller holds the write lock.
func (s *Store) makeRoom(delta int64, users int, client *ClientInput) error {
	clients, apps := 0, 0
	if client != nil {
		clients, delta = 1, delta+client.bytes()
		if client.App != nil {
			apps, delta = 1, delta+client.App.bytes()
		}
	}
	if err := s.room(users, clients, apps); err != nil {
		return err
	}
	return s.charge(delta)
}
