package typed

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
)

var (
	errNotFound   = errors.New("not found")
	errEmailTaken = errors.New("email address already in use")
)

// raceWindow is the pause a concurrency fault puts between its check and its act.
const raceWindow = 25 * time.Millisecond

type UserRepo interface {
	Get(id int64) (User, bool)
	ByEmail(email string) (User, bool)
	ByAPIKey(key string) (User, bool)
	ByAPIKeyPrefix(prefix string) (User, bool)
	EmailTaken(email string, except int64) bool
	Create(u User) (User, error)
	Update(id int64, fn func(*User) error) (User, error)
	Save(u User) (User, error)
}

type ClientRepo interface {
	Get(id int64) (Client, bool)
	Create(c Client) Client
	Update(id int64, fn func(*Client) error) (Client, error)
	ListByMember(userID int64) []Client
}

type AppRepo interface {
	Get(id int64) (App, bool)
	Create(a App) App
	ListByClient(clientID int64) []App
}

type SessionRepo interface {
	Create(s Session) Session
	ByToken(token string) (Session, bool)
}

// ---- users ------------------------------------------------------------------

type memUserRepo struct {
	mu      sync.RWMutex
	next    int64
	byID    map[int64]User
	byEmail map[string]int64 // lower-cased email -> id (the login index)
	byKey   map[string]int64

	checkUnique     bool // false only under fault email-unique-check-race
	staleEmailIndex bool // fault login-index-stale-after-email-change
}

func newUserRepo() *memUserRepo {
	return &memUserRepo{byID: map[int64]User{}, byEmail: map[string]int64{}, byKey: map[string]int64{}, checkUnique: true}
}

func (r *memUserRepo) Get(id int64) (User, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	u, ok := r.byID[id]
	return u, ok
}

func (r *memUserRepo) ByEmail(email string) (User, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	id, ok := r.byEmail[strings.ToLower(email)]
	if !ok {
		return User{}, false
	}
	u, ok := r.byID[id]
	return u, ok
}

func (r *memUserRepo) ByAPIKey(key string) (User, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	id, ok := r.byKey[key]
	if !ok {
		return User{}, false
	}
	u, ok := r.byID[id]
	return u, ok
}

func (r *memUserRepo) ByAPIKeyPrefix(prefix string) (User, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if prefix == "" {
		return User{}, false
	}
	for k, id := range r.byKey {
		if strings.HasPrefix(k, prefix) {
			return r.byID[id], true
		}
	}
	return User{}, false
}

func (r *memUserRepo) emailTakenLocked(email string, except int64) bool {
	for id, u := range r.byID {
		if id != except && strings.EqualFold(u.Email, email) {
			return true
		}
	}
	return false
}

func (r *memUserRepo) EmailTaken(email string, except int64) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.emailTakenLocked(email, except)
}

func (r *memUserRepo) Create(u User) (User, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.emailTakenLocked(u.Email, 0) {
		return User{}, errEmailTaken
	}
	r.next++
	u.ID = r.next
	r.byID[u.ID] = u
	r.byEmail[strings.ToLower(u.Email)] = u.ID
	if u.APIKey != "" {
		r.byKey[u.APIKey] = u.ID
	}
	return u, nil
}

func (r *memUserRepo) storeLocked(old, u User) error {
	if r.checkUnique && !strings.EqualFold(old.Email, u.Email) && r.emailTakenLocked(u.Email, u.ID) {
		return errEmailTaken
	}
	if !r.staleEmailIndex && old.Email != u.Email {
		delete(r.byEmail, strings.ToLower(old.Email))
		r.byEmail[strings.ToLower(u.Email)] = u.ID
	}
	r.byID[u.ID] = u
	return nil
}

// Update is the atomic read-modify-write used by the correct server.
func (r *memUserRepo) Update(id int64, fn func(*User) error) (User, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, ok := r.byID[id]
	if !ok {
		return User{}, errNotFound
	}
	u := old
	if err := fn(&u); err != nil {
		return User{}, err
	}
	u.ID = id
	if err := r.storeLocked(old, u); err != nil {
		return User{}, err
	}
	return u, nil
}

// Save replaces the whole record with u (last writer wins).
func (r *memUserRepo) Save(u User) (User, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, ok := r.byID[u.ID]
	if !ok {
		return User{}, errNotFound
	}
	if err := r.storeLocked(old, u); err != nil {
		return User{}, err
	}
	return u, nil
}

// ---- clients ----------------------------------------------------------------

type memClientRepo struct {
	mu   sync.RWMutex
	next int64
	m    map[int64]Client
}

func newClientRepo() *memClientRepo { return &memClientRepo{m: map[int64]Client{}} }

func cloneClient(c Client) Client {
	c.Members = slices.Clone(c.Members)
	return c
}

func (r *memClientRepo) Get(id int64) (Client, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, ok := r.m[id]
	return cloneClient(c), ok
}

func (r *memClientRepo) Create(c Client) Client {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	c.ID = r.next
	c = cloneClient(c)
	r.m[c.ID] = c
	return cloneClient(c)
}

func (r *memClientRepo) Update(id int64, fn func(*Client) error) (Client, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.m[id]
	if !ok {
		return Client{}, errNotFound
	}
	c = cloneClient(c)
	if err := fn(&c); err != nil {
		return Client{}, err
	}
	c.ID = id
	r.m[id] = c
	return cloneClient(c), nil
}

func (r *memClientRepo) ListByMember(userID int64) []Client {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []Client
	for _, c := range r.m {
		if slices.Contains(c.Members, userID) {
			out = append(out, cloneClient(c))
		}
	}
	slices.SortFunc(out, func(a, b Client) int { return int(a.ID - b.ID) })
	return out
}

// ---- apps -------------------------------------------------------------------

type memAppRepo struct {
	mu      sync.RWMutex
	next    int64
	m       map[int64]App
	racyIDs bool // fault app-id-counter-race
}

func newAppRepo() *memAppRepo { return &memAppRepo{m: map[int64]App{}} }

func (r *memAppRepo) Get(id int64) (App, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	a, ok := r.m[id]
	return a, ok
}

func (r *memAppRepo) Create(a App) App {
	if r.racyIDs {
		r.mu.RLock()
		id := r.next + 1
		r.mu.RUnlock()
		time.Sleep(raceWindow)
		r.mu.Lock()
		r.next = id
		a.ID = id
		r.m[id] = a
		r.mu.Unlock()
		return a
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	a.ID = r.next
	r.m[a.ID] = a
	return a
}

func (r *memAppRepo) ListByClient(clientID int64) []App {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []App
	for _, a := range r.m {
		if a.ClientID == clientID {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b App) int { return int(a.ID - b.ID) })
	return out
}

// ---- sessions ---------------------------------------------------------------

type memSessionRepo struct {
	mu      sync.RWMutex
	next    int64
	byToken map[string]Session
}

func newSessionRepo() *memSessionRepo { return &memSessionRepo{byToken: map[string]Session{}} }

func (r *memSessionRepo) Create(s Session) Session {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	s.ID = r.next
	r.byToken[s.Token] = s
	return s
}

func (r *memSessionRepo) ByToken(token string) (Session, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.byToken[token]
	return s, ok
}
