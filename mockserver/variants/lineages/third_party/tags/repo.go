package tags

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

var errEmailTaken = errors.New("email already in use")
var errNotFound = errors.New("not found")

// User is the stored user record.
type User struct {
	ID                  int
	Created             time.Time
	Email               string
	Salt                string
	PasswordHash        string
	PasswordLastChanged time.Time
	FirstName           string
	LastName            string
	SubscribeWelcome    bool
	SubscribeBlog       bool
	SubscribeHowto      bool
	SubscribeOnboarding bool
	PhoneCountryID      int
	PhoneNumber         string
	PhoneExtension      *string
	Timezone            string
	APIKey              string
	PrimaryClientID     int
}

type Client struct {
	ID              int
	Created         time.Time
	Name            string
	AddressLine1    string
	AddressLine2    *string
	AddressCity     string
	AddressPostcode string
	AddressCountry  string
	Vat             *string
	CurrencyID      int
	Members         []int
}

type App struct {
	ID         int
	Created    time.Time
	ClientID   int
	Name       string
	PlatformID int
	WriteKey   string
	PlanID     int
	MarketHash string
}

type Session struct {
	ID       int
	Created  time.Time
	Expires  time.Time
	UserID   int
	ClientID int
	Token    string
}

// UserRepo stores users.
type UserRepo interface {
	Get(id int) (User, bool)
	GetLive(id int) (*User, bool) // hands out the stored record (used by a fault)
	ByEmail(email string) (User, bool)
	ByAPIKey(key string) (User, bool)
	ByAPIKeyPrefix(prefix string) (User, bool)
	EmailTaken(email string, except int) bool
	Create(u User) (User, error)
	// Update applies fn to a copy and stores it; with checkEmail it refuses
	// (errEmailTaken) an email used by another user, in the same locked step.
	Update(id int, checkEmail bool, fn func(*User)) (User, error)
}

type ClientRepo interface {
	Get(id int) (Client, bool)
	Create(c Client) Client
	Update(id int, fn func(*Client)) (Client, bool)
	Put(c Client)
	MemberOf(userID int) map[int]bool
}

type AppRepo interface {
	Get(id int) (App, bool)
	Create(a App) App
	PeekID() int
	PutWithID(a App)
	List(filter func(App) bool) []App
}

type SessionRepo interface {
	Create(s Session) Session
	ByToken(tok string) (Session, bool)
	DeleteForUser(userID int)
}

// ---- in-memory implementations, one RWMutex each

type memUsers struct {
	mu         sync.RWMutex
	next       int
	byID       map[int]*User
	emailIndex map[string]int // lower-cased email -> id
	staleIndex bool           // fault: index not maintained on update
}

func newMemUsers(stale bool) *memUsers {
	return &memUsers{next: 101, byID: map[int]*User{}, emailIndex: map[string]int{}, staleIndex: stale}
}

func emailKey(e string) string { return strings.ToLower(e) }

func (r *memUsers) Get(id int) (User, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	u, ok := r.byID[id]
	if !ok {
		return User{}, false
	}
	return *u, true
}

func (r *memUsers) GetLive(id int) (*User, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	u, ok := r.byID[id]
	return u, ok
}

func (r *memUsers) ByEmail(email string) (User, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	id, ok := r.emailIndex[emailKey(email)]
	if !ok {
		return User{}, false
	}
	return *r.byID[id], true
}

func (r *memUsers) ByAPIKey(key string) (User, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, u := range r.byID {
		if constantEq(u.APIKey, key) {
			return *u, true
		}
	}
	return User{}, false
}

func (r *memUsers) ByAPIKeyPrefix(prefix string) (User, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, u := range r.byID {
		if strings.HasPrefix(u.APIKey, prefix) {
			return *u, true
		}
	}
	return User{}, false
}

func (r *memUsers) takenLocked(email string, except int) bool {
	id, ok := r.emailIndex[emailKey(email)]
	return ok && id != except
}

func (r *memUsers) EmailTaken(email string, except int) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.takenLocked(email, except)
}

func (r *memUsers) Create(u User) (User, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.takenLocked(u.Email, 0) {
		return User{}, errEmailTaken
	}
	u.ID = r.next
	r.next++
	c := u
	r.byID[u.ID] = &c
	r.emailIndex[emailKey(u.Email)] = u.ID
	return u, nil
}

func (r *memUsers) Update(id int, checkEmail bool, fn func(*User)) (User, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cur, ok := r.byID[id]
	if !ok {
		return User{}, errNotFound
	}
	c := *cur
	fn(&c)
	if checkEmail && r.takenLocked(c.Email, id) {
		return User{}, errEmailTaken
	}
	if !r.staleIndex && emailKey(c.Email) != emailKey(cur.Email) {
		if r.emailIndex[emailKey(cur.Email)] == id {
			delete(r.emailIndex, emailKey(cur.Email))
		}
		r.emailIndex[emailKey(c.Email)] = id
	}
	*cur = c
	return c, nil
}

type memClients struct {
	mu   sync.RWMutex
	next int
	byID map[int]*Client
}

func newMemClients() *memClients { return &memClients{next: 501, byID: map[int]*Client{}} }

func cloneClient(c Client) Client {
	c.Members = slices.Clone(c.Members)
	return c
}

func (r *memClients) Get(id int) (Client, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, ok := r.byID[id]
	if !ok {
		return Client{}, false
	}
	return cloneClient(*c), true
}

func (r *memClients) Create(c Client) Client {
	r.mu.Lock()
	defer r.mu.Unlock()
	c.ID = r.next
	r.next++
	s := cloneClient(c)
	r.byID[c.ID] = &s
	return cloneClient(c)
}

func (r *memClients) Update(id int, fn func(*Client)) (Client, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cur, ok := r.byID[id]
	if !ok {
		return Client{}, false
	}
	c := cloneClient(*cur)
	fn(&c)
	*cur = c
	return cloneClient(c), true
}

func (r *memClients) Put(c Client) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := cloneClient(c)
	r.byID[c.ID] = &s
}

func (r *memClients) MemberOf(userID int) map[int]bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := map[int]bool{}
	for id, c := range r.byID {
		if slices.Contains(c.Members, userID) {
			out[id] = true
		}
	}
	return out
}

type memApps struct {
	mu   sync.RWMutex
	next int
	byID map[int]*App
}

func newMemApps() *memApps { return &memApps{next: 1001, byID: map[int]*App{}} }

func (r *memApps) Get(id int) (App, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	a, ok := r.byID[id]
	if !ok {
		return App{}, false
	}
	return *a, true
}

func (r *memApps) Create(a App) App {
	r.mu.Lock()
	defer r.mu.Unlock()
	a.ID = r.next
	r.next++
	s := a
	r.byID[a.ID] = &s
	return a
}

func (r *memApps) PeekID() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.next
}

func (r *memApps) PutWithID(a App) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a.ID >= r.next {
		r.next = a.ID + 1
	}
	s := a
	r.byID[a.ID] = &s
}

func (r *memApps) List(filter func(App) bool) []App {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []App
	for _, a := range r.byID {
		if filter(*a) {
			out = append(out, *a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

type memSessions struct {
	mu      sync.RWMutex
	next    int
	byToken map[string]*Session
}

func newMemSessions() *memSessions { return &memSessions{next: 1, byToken: map[string]*Session{}} }

func (r *memSessions) Create(s Session) Session {
	r.mu.Lock()
	defer r.mu.Unlock()
	s.ID = r.next
	r.next++
	c := s
	r.byToken[s.Token] = &c
	return s
}

func (r *memSessions) ByToken(tok string) (Session, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.byToken[tok]
	if !ok {
		return Session{}, false
	}
	return *s, true
}

func (r *memSessions) DeleteForUser(userID int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, s := range r.byToken {
		if s.UserID == userID {
			delete(r.byToken, k)
		}
	}
}
