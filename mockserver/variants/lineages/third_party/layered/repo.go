package layered

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Domain records. Records held by a snapshot are never modified: a write stores a new record.
type User struct {
	ID                  int64
	Created             time.Time
	Email               string
	Password            string
	PasswordLastChanged time.Time
	FirstName           string
	LastName            string
	SubscribeWelcome    bool
	SubscribeBlog       bool
	SubscribeHowto      bool
	SubscribeOnboarding bool
	PhoneCountryID      int64
	PhoneNumber         string
	PhoneExtension      *string
	Timezone            string
	APIKey              string
	ClientIDs           []int64 // memberships; the first one is the default client
}

type Client struct {
	ID              int64
	Created         time.Time
	Name            string
	AddressLine1    string
	AddressLine2    *string
	AddressCity     string
	AddressPostcode string
	AddressCountry  string
	Vat             *string
	CurrencyID      int64
}

type App struct {
	ID            int64
	ClientID      int64
	Created       time.Time
	Name          string
	PlatformID    int64
	WriteKey      string
	PlanID        int64
	MarketappHash *string
}

type Session struct {
	ID            int64
	Created       time.Time
	CreatorUserID int64
	UserID        int64
	ClientID      int64
	Token         string
}

// snapshot is one immutable version of every table. Readers load it without locking.
type snapshot struct {
	users    map[int64]*User
	clients  map[int64]*Client
	apps     map[int64]*App
	sessions map[string]*Session // by token
	emails   map[string]int64    // lower-cased email -> user id
	apiKeys  map[string]int64    // api key -> user id
}

type repo struct {
	mu  sync.Mutex // serialises writers
	cur atomic.Pointer[snapshot]

	userSeq, clientSeq, appSeq, sessionSeq atomic.Int64
}

func newRepo() *repo {
	r := &repo{}
	r.cur.Store(&snapshot{
		users: map[int64]*User{}, clients: map[int64]*Client{}, apps: map[int64]*App{},
		sessions: map[string]*Session{}, emails: map[string]int64{}, apiKeys: map[string]int64{},
	})
	r.userSeq.Store(1000)
	r.clientSeq.Store(500)
	r.appSeq.Store(9000)
	return r
}

func (r *repo) snap() *snapshot { return r.cur.Load() }

// tx is a copy-on-write view: each table is copied on its first write.
type tx struct {
	s                                      *snapshot
	users, clients, apps, sessions, emails bool
	apiKeys                                bool
	staleIndex                             bool // fault email-change-login-stale-index
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func newTx(base *snapshot) *tx {
	cp := *base
	return &tx{s: &cp}
}

// update runs fn under the writer lock on a fresh copy of the current snapshot and swaps it in
// only if fn succeeds: either every write of fn is visible or none.
func (r *repo) update(fn func(*tx) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := newTx(r.cur.Load())
	if err := fn(t); err != nil {
		return err
	}
	r.cur.Store(t.s)
	return nil
}

// updateFrom is update on a base snapshot taken before the lock (fault clients-map-lost-update).
func (r *repo) updateFrom(base *snapshot, fn func(*tx) error) error {
	t := newTx(base)
	if err := fn(t); err != nil {
		return err
	}
	time.Sleep(5 * time.Millisecond)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cur.Store(t.s)
	return nil
}

func (t *tx) user(id int64) (*User, bool)     { u, ok := t.s.users[id]; return u, ok }
func (t *tx) client(id int64) (*Client, bool) { c, ok := t.s.clients[id]; return c, ok }

func (t *tx) emailOwner(email string) (int64, bool) {
	id, ok := t.s.emails[strings.ToLower(email)]
	return id, ok
}

func (t *tx) putUser(u *User) {
	if !t.users {
		t.s.users = cloneMap(t.s.users)
		t.users = true
	}
	if !t.emails {
		t.s.emails = cloneMap(t.s.emails)
		t.emails = true
	}
	if !t.apiKeys {
		t.s.apiKeys = cloneMap(t.s.apiKeys)
		t.apiKeys = true
	}
	old, existed := t.s.users[u.ID]
	if existed && !t.staleIndex {
		delete(t.s.emails, strings.ToLower(old.Email))
	}
	if !existed || !t.staleIndex {
		t.s.emails[strings.ToLower(u.Email)] = u.ID
	}
	t.s.apiKeys[u.APIKey] = u.ID
	t.s.users[u.ID] = u
}

func (t *tx) putClient(c *Client) {
	if !t.clients {
		t.s.clients = cloneMap(t.s.clients)
		t.clients = true
	}
	t.s.clients[c.ID] = c
}

func (t *tx) putApp(a *App) {
	if !t.apps {
		t.s.apps = cloneMap(t.s.apps)
		t.apps = true
	}
	t.s.apps[a.ID] = a
}

func (t *tx) putSession(se *Session) {
	if !t.sessions {
		t.s.sessions = cloneMap(t.s.sessions)
		t.sessions = true
	}
	t.s.sessions[se.Token] = se
}

// cloneUser copies a user deeply enough to be modified.
func cloneUser(u *User) *User {
	c := *u
	c.ClientIDs = append([]int64(nil), u.ClientIDs...)
	if u.PhoneExtension != nil {
		e := *u.PhoneExtension
		c.PhoneExtension = &e
	}
	return &c
}

func isMember(u *User, clientID int64) bool {
	for _, id := range u.ClientIDs {
		if id == clientID {
			return true
		}
	}
	return false
}
