package pricing

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"strings"
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

// User is a user account. The password is not part of it: the store keeps
// only a salted HMAC of it (secret.go), out of reach of every reader.
type User struct {
	ID                  int64
	Created             time.Time
	Email               string
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
	// ClientIDs are the clients the user is a member of, in the order joined.
	ClientIDs []int64
	// PrimaryClientID is the client POST /apps attaches to and a session's
	// clientId; 0 when the user has no client.
	PrimaryClientID int64
}

// Client is a client (app publisher) account.
type Client struct {
	ID              int64
	CreatedDate     time.Time
	Name            string
	AddressLine1    string
	AddressLine2    *string
	AddressCity     string
	AddressPostcode string
	AddressCountry  string
	VAT             *string
	CurrencyID      int64
}

// App is a mobile app of a client.
type App struct {
	ID            int64
	Created       time.Time
	ClientID      int64
	Name          string
	PlatformID    int64
	PlanID        int64
	MarketappHash *string // nil: created from a name and a platform
	WriteKey      string
}

// Session is the answer of POST /sessions. Token is filled only in the value
// CreateSession returns: the store keeps a hash of it.
type Session struct {
	ID            int64
	Created       time.Time
	CreatorUserID int64
	UserID        int64
	ClientID      int64 // 0: the user had no client
	Token         string
}

// Platform, Currency, Plan, PhoneCountry and Marketapp are the catalogues;
// they come from the seed and never change.
type (
	Platform struct {
		ID            int64
		Created       time.Time
		CreatorUserID int64
		Name          string
	}
	Currency struct {
		ID   int64
		Code string
	}
	Plan struct {
		ID                                    int64
		Name                                  string
		IsLite, IsPro, IsDynamic, NeedBilling bool
	}
	PhoneCountry struct {
		ID       int64
		Name     string
		DialCode string
	}
	Marketapp struct {
		Hash       string
		Name       string
		PlatformID int64
	}
)

// UserInput is a validated body of PUT /users/:userId or POST /users.
type UserInput struct {
	Email, FirstName, LastName, Timezone                                 string
	SubscribeWelcome, SubscribeBlog, SubscribeHowto, SubscribeOnboarding bool
	// Password nil keeps the current password (required by CreateUser).
	Password *string
	// PhoneCountryID 0 and PhoneNumber nil keep the stored value (both are
	// required by CreateUser).
	PhoneCountryID int64
	PhoneNumber    *string
	// SetPhoneExtension false keeps the stored extension; true replaces it
	// with PhoneExtension, nil clearing it.
	SetPhoneExtension bool
	PhoneExtension    *string
	// Client, when set, is created with the user as a member.
	Client *ClientInput
}

// ClientInput is a validated body of POST /clients or PUT /clients/:clientId.
type ClientInput struct {
	Name, AddressLine1                           string
	AddressLine2                                 *string
	AddressCity, AddressPostcode, AddressCountry string
	VAT                                          *string
	CurrencyID                                   int64
	// App, when set, is created in the new client (not accepted by UpdateClient).
	App *AppInput
}

// AppInput is a validated, resolved body of POST /apps: with a marketplace
// app, Name and PlatformID are already the marketplace app's.
type AppInput struct {
	Name          string
	PlatformID    int64
	PlanID        int64
	MarketappHash *string
}

type userRecord struct {
	User
	salt, hash []byte
}

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

	mu       sync.RWMutex
	users    map[int64]*userRecord
	emails   map[string]int64   // lower-cased email -> user id
	apiKeys  map[[32]byte]int64 // Secret.apiKeyHash -> user id
	sessions map[[32]byte]Session
	// sessionOrder holds the sessions' keys, oldest first from
	// sessionHead: the one dropped when a new session needs room.
	sessionOrder   [][32]byte
	sessionHead    int
	clients        map[int64]Client
	apps           map[int64]App
	platforms      map[int64]Platform
	currencies     map[int64]Currency
	plans          map[int64]Plan
	phoneCountries map[int64]PhoneCountry
	marketapps     []Marketapp // fixture order
	litePlanID     int64
	catalogue      *Seed // the seed of the catalogues
	// The catalogues sorted by id, once per install: they are read on
	// every request to a collection, and never change.
	platformList     []Platform
	currencyList     []Currency
	planList         []Plan
	phoneCountryList []PhoneCountry
	nextUser         int64
	nextClient       int64
	nextApp          int64
	nextSession      int64
	// gen counts writes; pristine is true from a reset to the first write.
	gen      uint64
	pristine bool
	track    *changeSet // what was written since TakeChanges; nil: not tracked

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

// Reset replaces every datum with the seed's. The seed has been checked by
// LoadSeed, so every reference in it resolves.
func (s *Store) Reset(seed *Seed) {
	d := s.seeded(seed)
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.install(d, true)
}

// ResetIfPristine is reset, but only when nothing has changed the store since
// its last reset: a developer's data is never replaced by a fixture reload.
func (s *Store) ResetIfPristine(seed *Seed) bool {
	d := s.seeded(seed)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pristine {
		return false
	}
	_ = s.install(d, true)
	return true
}

// data is every datum of a Store; a reset or an import builds one outside the
// lock (hashing passwords takes a while) and installs it under the lock.
type data struct {
	users          map[int64]*userRecord
	emails         map[string]int64
	apiKeys        map[[32]byte]int64
	sessions       map[[32]byte]Session
	sessionOrder   [][32]byte
	clients        map[int64]Client
	apps           map[int64]App
	platforms      map[int64]Platform
	currencies     map[int64]Currency
	plans          map[int64]Plan
	phoneCountries map[int64]PhoneCountry
	marketapps     []Marketapp
	litePlanID     int64
	catalogue      *Seed
	nextUser       int64
	nextClient     int64
	nextApp        int64
	nextSession    int64
	pristine       bool
}

func (s *Store) seeded(seed *Seed) data {
	d := seed.catalogues()
	s.build(&d, seed.state())
	d.pristine = true
	return d
}

// catalogues is the part of a store that only the seed sets. The maps are
// built once per seed and shared by every store made from it: nothing
// writes to them.
func (seed *Seed) catalogues() data {
	seed.catOnce.Do(func() { seed.cat = buildCatalogues(seed) })
	return seed.cat
}

func buildCatalogues(seed *Seed) data {
	d := data{catalogue: seed}
	d.platforms = make(map[int64]Platform)
	for _, p := range seed.platforms {
		d.platforms[p.ID] = Platform(p)
	}
	d.currencies = make(map[int64]Currency)
	for _, c := range seed.currencies {
		d.currencies[c.ID] = Currency(c)
	}
	d.plans = make(map[int64]Plan)
	for _, p := range seed.plans {
		d.plans[p.ID] = Plan(p)
		if p.IsLite && (d.litePlanID == 0 || p.ID < d.litePlanID) {
			d.litePlanID = p.ID
		}
	}
	d.phoneCountries = make(map[int64]PhoneCountry)
	for _, p := range seed.phoneCountries {
		d.phoneCountries[p.ID] = PhoneCountry(p)
	}
	for _, m := range seed.marketapps {
		d.marketapps = append(d.marketapps, Marketapp(m))
	}
	return d
}

// install replaces the store's data, unless the Pool has no room for it
// (force: even then); the caller holds the write lock.
func (s *Store) install(d data, force bool) error {
	n := d.bytes()
	if force && s.lim.Pool != nil && !s.closed {
		s.lim.Pool.force(n - s.bytes)
		s.bytes = n
	} else if err := s.charge(n - s.bytes); err != nil {
		return err
	}
	s.users, s.emails, s.apiKeys, s.sessions = d.users, d.emails, d.apiKeys, d.sessions
	s.sessionOrder, s.sessionHead = d.sessionOrder, 0
	s.clients, s.apps = d.clients, d.apps
	s.platforms, s.currencies, s.plans, s.phoneCountries = d.platforms, d.currencies, d.plans, d.phoneCountries
	s.marketapps, s.litePlanID, s.catalogue = d.marketapps, d.litePlanID, d.catalogue
	s.platformList, s.currencyList = sortedValues(d.platforms), sortedValues(d.currencies)
	s.planList, s.phoneCountryList = sortedValues(d.plans), sortedValues(d.phoneCountries)
	s.nextUser, s.nextClient, s.nextApp, s.nextSession = d.nextUser, d.nextClient, d.nextApp, d.nextSession
	s.pristine = d.pristine
	s.gen++
	s.markFull()
	return nil
}

// changedLocked records a write; the caller holds the write lock.
func (s *Store) changedLocked() {
	s.pristine = false
	s.gen++
}

// Generation counts the writes to the store (resets and imports included):
// a different number means different data.
func (s *Store) Generation() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.gen
}

// Pristine reports whether the store holds its seed, untouched since the
// last reset.
func (s *Store) Pristine() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.pristine
}

func maxKey[V any](m map[int64]V) int64 {
	var n int64
	for k := range m {
		n = max(n, k)
	}
	return n
}

// saltSize is the length of a password's salt, in bytes.
const saltSize = 16

// hashPassword returns a fresh salt and the password's HMAC with it.
func (s *Store) hashPassword(password string) (salt, hash []byte) {
	salt = make([]byte, saltSize)
	s.src.read(salt)
	h := s.secret.passwordHash(salt, password)
	return salt, h[:]
}

// dummySalt makes a failed lookup by email cost one hash, like a found one.
var dummySalt = make([]byte, saltSize)

// Authenticate returns the user whose email (case-insensitive) and password
// match, or ErrBadCredentials.
func (s *Store) Authenticate(email, password string) (User, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.users[s.emails[strings.ToLower(email)]]
	if !ok {
		s.secret.passwordHash(dummySalt, password)
		return User{}, ErrBadCredentials
	}
	if h := s.secret.passwordHash(r.salt, password); subtle.ConstantTimeCompare(h[:], r.hash) != 1 && !s.dev.AnyPassword {
		return User{}, ErrBadCredentials
	}
	return r.copy(), nil
}

// CreateSession opens a session for a user. The returned Session is the only
// place its token appears. When the store holds Limits.Sessions sessions,
// the oldest one is dropped to make room.
func (s *Store) CreateSession(userID int64) (Session, error) {
	token := s.src.hex(32)
	key := s.secret.tokenHash(token)
	created := s.src.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.users[userID]
	if !ok {
		return Session{}, fmt.Errorf("user %d: %w", userID, ErrNotFound)
	}
	if s.lim.Sessions > 0 && len(s.sessions) >= s.lim.Sessions {
		s.dropOldestSessionLocked()
	} else if err := s.charge(sessionBytes); err != nil {
		return Session{}, err
	}
	sess := Session{
		ID:            s.nextSession,
		Created:       created,
		CreatorUserID: userID,
		UserID:        userID,
		ClientID:      r.PrimaryClientID,
	}
	s.nextSession++
	s.lastSessionUser = userID
	s.sessions[key] = sess
	s.sessionOrder = append(s.sessionOrder, key)
	s.markSession(key)
	s.changedLocked()
	sess.Token = token
	return sess, nil
}

// dropOldestSessionLocked forgets the oldest session; its token no longer
// authenticates. The caller holds the write lock.
func (s *Store) dropOldestSessionLocked() {
	for s.sessionHead < len(s.sessionOrder) {
		key := s.sessionOrder[s.sessionHead]
		s.sessionOrder[s.sessionHead] = [32]byte{}
		s.sessionHead++
		if _, ok := s.sessions[key]; ok {
			delete(s.sessions, key)
			s.markSession(key)
			break
		}
	}
	// The dropped keys are compacted away once they are half the queue, so
	// that the queue stays within twice the sessions it orders.
	if s.sessionHead > len(s.sessionOrder)/2 {
		s.sessionOrder = append([][32]byte(nil), s.sessionOrder[s.sessionHead:]...)
		s.sessionHead = 0
	}
}

// UserIDForAPIKey returns the user an API key belongs to.
func (s *Store) UserIDForAPIKey(key string) (int64, bool) {
	if s.dev.NobodyAPIKey != "" && key == s.dev.NobodyAPIKey {
		return 0, true
	}
	h := s.secret.apiKeyHash(key)
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, ok := s.apiKeys[h]
	return id, ok
}

// UserIDForToken returns the user of a session token. Tokens do not expire;
// a session is forgotten only when Limits.Sessions newer ones push it out.
func (s *Store) UserIDForToken(token string) (int64, bool) {
	h := s.secret.tokenHash(token)
	s.mu.RLock()
	defer s.mu.RUnlock()
	sess, ok := s.sessions[h]
	if ok && s.dev.LastSessionWins {
		return s.lastSessionUser, true
	}
	return sess.UserID, ok
}

func (r *userRecord) copy() User {
	u := r.User
	u.ClientIDs = slices.Clone(u.ClientIDs)
	if u.PhoneExtension != nil {
		u.PhoneExtension = ptr(*u.PhoneExtension)
	}
	return u
}

func ptr[T any](v T) *T { return &v }

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	return ptr(*p)
}

func (c Client) copy() Client {
	c.AddressLine2, c.VAT = clonePtr(c.AddressLine2), clonePtr(c.VAT)
	return c
}

func (a App) copy() App {
	a.MarketappHash = clonePtr(a.MarketappHash)
	return a
}

// User returns a user by id.
func (s *Store) User(id int64) (User, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.users[id]
	if !ok {
		return User{}, fmt.Errorf("user %d: %w", id, ErrNotFound)
	}
	return r.copy(), nil
}

// Client returns a client by id.
func (s *Store) Client(id int64) (Client, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.clients[id]
	if !ok {
		return Client{}, fmt.Errorf("client %d: %w", id, ErrNotFound)
	}
	return c.copy(), nil
}

// App returns an app by id.
func (s *Store) App(id int64) (App, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a, ok := s.apps[id]
	if !ok {
		return App{}, fmt.Errorf("app %d: %w", id, ErrNotFound)
	}
	return a.copy(), nil
}

// Validator checks bodies against the store's catalogues, under its
// deviations.
func (s *Store) Validator() Validator { return Validator{Catalog: s, Deviations: s.dev} }

// MayActOnUser reports whether the caller may read and modify a user: only
// its own (spec section 5).
func (s *Store) MayActOnUser(callerID, userID int64) bool {
	if s.dev.PermissionCheckedAfterWrite {
		s.noteRefusal(fmt.Sprint("user ", userID), callerID != userID)
		return true
	}
	return callerID == userID || s.dev.AnyUserMayAct || (callerID == 0 && s.dev.NobodyMayActOnUsers)
}

// noteRefusal records the outcome of the latest permission check of a
// resource, under Deviations.PermissionCheckedAfterWrite: the write that
// follows is stored, then refused.
func (s *Store) noteRefusal(resource string, refused bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused == nil {
		s.refused = map[string]bool{}
	}
	s.refused[resource] = refused
}

// MayActOnClient reports whether the caller may read and modify a client:
// only one it is a member of (spec section 5).
func (s *Store) MayActOnClient(callerID, clientID int64) bool {
	if s.dev.PermissionCheckedAfterWrite {
		s.noteRefusal(fmt.Sprint("client ", clientID), !s.IsMember(callerID, clientID))
		return true
	}
	return s.IsMember(callerID, clientID) || s.dev.AnyoneMayActOnClients
}

// IsMember reports whether a user is a member of a client.
func (s *Store) IsMember(userID, clientID int64) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.users[userID]
	return ok && slices.Contains(r.ClientIDs, clientID)
}

// ClientsOfUser lists the clients a user is a member of.
func (s *Store) ClientsOfUser(userID int64) ([]Client, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.users[userID]
	if !ok {
		return nil, fmt.Errorf("user %d: %w", userID, ErrNotFound)
	}
	out := make([]Client, 0, len(r.ClientIDs))
	for _, id := range r.ClientIDs {
		out = append(out, s.clients[id].copy())
	}
	slices.SortFunc(out, func(a, b Client) int { return cmpInt(a.ID, b.ID) })
	return out, nil
}

// AppsOfClient lists the apps of a client.
func (s *Store) AppsOfClient(clientID int64) ([]App, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, ok := s.clients[clientID]; !ok {
		return nil, fmt.Errorf("client %d: %w", clientID, ErrNotFound)
	}
	out := []App{}
	for _, a := range s.apps {
		if a.ClientID == clientID {
			out = append(out, a.copy())
		}
	}
	slices.SortFunc(out, func(a, b App) int { return cmpInt(a.ID, b.ID) })
	return out, nil
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

// Platforms lists the platforms.
func (s *Store) Platforms() []Platform {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.platformList)
}

// Currencies lists the billing currencies.
func (s *Store) Currencies() []Currency {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.currencyList)
}

// Plans lists the subscription plans.
func (s *Store) Plans() []Plan {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.planList)
}

// PhoneCountries lists the phone countries.
func (s *Store) PhoneCountries() []PhoneCountry {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.phoneCountryList)
}

// Marketapps lists the marketplace apps in the order of the fixture file
// (they have no numeric id to sort by).
func (s *Store) Marketapps() []Marketapp {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.marketapps)
}

// Platform returns a platform by id.
func (s *Store) Platform(id int64) (Platform, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, ok := s.platforms[id]
	return p, ok
}

// Currency returns a currency by id.
func (s *Store) Currency(id int64) (Currency, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c, ok := s.currencies[id]
	return c, ok
}

// Plan returns a subscription plan by id.
func (s *Store) Plan(id int64) (Plan, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, ok := s.plans[id]
	return p, ok
}

// PhoneCountry returns a phone country by id.
func (s *Store) PhoneCountry(id int64) (PhoneCountry, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, ok := s.phoneCountries[id]
	return p, ok
}

// Marketapp returns a marketplace app by hash (case-insensitive).
func (s *Store) Marketapp(hash string) (Marketapp, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, m := range s.marketapps {
		if strings.EqualFold(m.Hash, hash) {
			return m, true
		}
	}
	return Marketapp{}, false
}

// Catalogues is the seed whose catalogues the store serves: the same
// pointer for stores that serve the same catalogues. A store's catalogues
// change with a reset to another seed only, and seeds only get newer.
func (s *Store) Catalogues() *Seed {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.catalogue
}

// DefaultPlanID is the plan of an app created without nextplan: the lite plan.
func (s *Store) DefaultPlanID() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.litePlanID
}

// EmailTaken reports whether a user other than exceptUserID has the email
// (case-insensitive). exceptUserID 0 checks every user.
func (s *Store) EmailTaken(email string, exceptUserID int64) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.emailTakenLocked(email, exceptUserID)
}

func (s *Store) emailTakenLocked(email string, exceptUserID int64) bool {
	id, ok := s.emails[strings.ToLower(email)]
	return ok && id != exceptUserID
}

// checkUserLocked re-checks, under the write lock, what validation checked
// before it: the catalogues never change, but another request may have taken
// the email in between.
func (s *Store) checkUserLocked(in UserInput, userID int64) error {
	if s.emailTakenLocked(in.Email, userID) {
		return ErrEmailTaken
	}
	if in.PhoneCountryID != 0 {
		if _, ok := s.phoneCountries[in.PhoneCountryID]; !ok {
			return fmt.Errorf("phone country %d: %w", in.PhoneCountryID, ErrUnknownReference)
		}
	}
	if in.Client != nil {
		return s.checkClientLocked(*in.Client)
	}
	return nil
}

func (s *Store) checkClientLocked(in ClientInput) error {
	if _, ok := s.currencies[in.CurrencyID]; !ok {
		return fmt.Errorf("currency %d: %w", in.CurrencyID, ErrUnknownReference)
	}
	if in.App != nil {
		return s.checkAppLocked(*in.App)
	}
	return nil
}

func (s *Store) checkAppLocked(in AppInput) error {
	if _, ok := s.platforms[in.PlatformID]; !ok {
		return fmt.Errorf("platform %d: %w", in.PlatformID, ErrUnknownReference)
	}
	if _, ok := s.plans[in.PlanID]; !ok {
		return fmt.Errorf("plan %d: %w", in.PlanID, ErrUnknownReference)
	}
	if in.MarketappHash != nil {
		found := false
		for _, m := range s.marketapps {
			if m.Hash == *in.MarketappHash {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("marketapp %s: %w", *in.MarketappHash, ErrUnknownReference)
		}
	}
	return nil
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

func userApp(in *ClientInput) bool { return in != nil && in.App != nil }

// UpdateUser applies a PUT /users/:userId body. With in.Client it also
// creates that client (and its app) with the user as a member; the user's
// primary client changes only if it had none. All of it happens or none.
func (s *Store) UpdateUser(id int64, in UserInput) (User, error) {
	if s.dev.UpdateNotStored {
		return s.updatedUser(id, in)
	}
	g := s.generate(in.Password, userApp(in.Client))
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.users[id]
	if !ok {
		return User{}, fmt.Errorf("user %d: %w", id, ErrNotFound)
	}
	if err := s.checkUserLocked(in, id); err != nil {
		return User{}, err
	}
	updated := *r
	updated.applyInput(in)
	if g.hasPW {
		updated.salt, updated.hash = g.salt, g.hash
		if !s.dev.PasswordChangeUndated {
			updated.PasswordLastChanged = g.now
		}
	}
	if err := s.makeRoom(updated.bytes()-r.bytes(), 0, in.Client); err != nil {
		return User{}, err
	}
	s.changedLocked()
	if !s.dev.LoginEmailStale {
		if !s.dev.OldEmailKept {
			delete(s.emails, strings.ToLower(r.Email))
		}
		s.emails[strings.ToLower(in.Email)] = id
	}
	kept := r.User
	*r = updated
	s.markUser(id)
	if in.Client != nil {
		s.addClientLocked(r, *in.Client, g)
	}
	answer := r.copy()
	if s.dev.UserProfileNotStored {
		r.FirstName, r.LastName, r.Timezone = kept.FirstName, kept.LastName, kept.Timezone
		r.SubscribeWelcome, r.SubscribeBlog = kept.SubscribeWelcome, kept.SubscribeBlog
		r.SubscribeHowto, r.SubscribeOnboarding = kept.SubscribeHowto, kept.SubscribeOnboarding
	}
	if s.dev.PermissionCheckedAfterWrite && s.refused[fmt.Sprint("user ", id)] {
		return User{}, ErrRefusedAfterWrite
	}
	return answer, nil
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

// updatedUser is the user as UpdateUser would leave it, without the update
// being stored (Deviations.UpdateNotStored).
func (s *Store) updatedUser(id int64, in UserInput) (User, error) {
	u, err := s.User(id)
	if err != nil {
		return User{}, err
	}
	r := userRecord{User: u}
	r.applyInput(in)
	return r.User, nil
}

func (r *userRecord) applyInput(in UserInput) {
	r.Email = in.Email
	r.FirstName, r.LastName, r.Timezone = in.FirstName, in.LastName, in.Timezone
	r.SubscribeWelcome, r.SubscribeBlog = in.SubscribeWelcome, in.SubscribeBlog
	r.SubscribeHowto, r.SubscribeOnboarding = in.SubscribeHowto, in.SubscribeOnboarding
	if in.PhoneCountryID != 0 {
		r.PhoneCountryID = in.PhoneCountryID
	}
	if in.PhoneNumber != nil {
		r.PhoneNumber = *in.PhoneNumber
	}
	if in.SetPhoneExtension {
		r.PhoneExtension = clonePtr(in.PhoneExtension)
	}
}

// CreateUser applies a POST /users body: the user, and with in.Client its
// client and that client's app, all or nothing. Password, PhoneCountryID and
// PhoneNumber are required.
func (s *Store) CreateUser(in UserInput) (User, error) {
	if in.Password == nil || in.PhoneCountryID == 0 || in.PhoneNumber == nil {
		return User{}, fmt.Errorf("password, phone country and phone number are required: %w", ErrIncompleteInput)
	}
	g := s.generate(in.Password, userApp(in.Client))
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkUserLocked(in, 0); err != nil {
		return User{}, err
	}
	r := &userRecord{
		User: User{ID: s.nextUser, Created: g.now, PasswordLastChanged: g.now},
		salt: g.salt, hash: g.hash,
	}
	r.applyInput(in)
	if err := s.makeRoom(r.bytes(), 1, in.Client); err != nil {
		return User{}, err
	}
	s.changedLocked()
	s.nextUser++
	s.users[r.ID] = r
	s.markUser(r.ID)
	s.emails[strings.ToLower(r.Email)] = r.ID
	if in.Client != nil {
		s.addClientLocked(r, *in.Client, g)
	}
	return r.copy(), nil
}

// addClientLocked creates a client (and its app) whose member is r. The input
// has been checked.
func (s *Store) addClientLocked(r *userRecord, in ClientInput, g generated) Client {
	c := Client{ID: s.nextClient, CreatedDate: g.now}
	s.nextClient++
	c.apply(in)
	s.clients[c.ID] = c
	s.markClient(c.ID)
	s.markUser(r.ID)
	r.ClientIDs = append(r.ClientIDs, c.ID)
	if r.PrimaryClientID == 0 {
		r.PrimaryClientID = c.ID
	}
	if in.App != nil {
		owner := c.ID
		if s.dev.ClientAppToPrimary && r.PrimaryClientID != c.ID {
			owner = r.PrimaryClientID
		}
		s.addAppLocked(owner, *in.App, g)
	}
	return c.copy()
}

func (c *Client) apply(in ClientInput) {
	c.Name, c.AddressLine1, c.AddressLine2 = in.Name, in.AddressLine1, clonePtr(in.AddressLine2)
	c.AddressCity, c.AddressPostcode, c.AddressCountry = in.AddressCity, in.AddressPostcode, in.AddressCountry
	c.VAT, c.CurrencyID = clonePtr(in.VAT), in.CurrencyID
}

func (s *Store) addAppLocked(clientID int64, in AppInput, g generated) App {
	a := App{
		ID: s.nextApp, Created: g.now, ClientID: clientID,
		Name: in.Name, PlatformID: in.PlatformID, PlanID: in.PlanID,
		MarketappHash: clonePtr(in.MarketappHash), WriteKey: g.writeKey,
	}
	s.nextApp++
	s.apps[a.ID] = a
	s.markApp(a.ID)
	return a.copy()
}

// CreateClient applies a POST /clients body: a new client whose member is
// the user, with its first app when in.App is set; both or neither.
func (s *Store) CreateClient(userID int64, in ClientInput) (Client, error) {
	g := s.generate(nil, in.App != nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.users[userID]
	if !ok {
		return Client{}, fmt.Errorf("user %d: %w", userID, ErrNotFound)
	}
	if err := s.checkClientLocked(in); err != nil {
		return Client{}, err
	}
	if err := s.makeRoom(0, 0, &in); err != nil {
		return Client{}, err
	}
	s.changedLocked()
	return s.addClientLocked(r, in, g), nil
}

// UpdateClient applies a PUT /clients/:clientId body, which may not carry an app.
func (s *Store) UpdateClient(id int64, in ClientInput) (Client, error) {
	if in.App != nil {
		return Client{}, fmt.Errorf("an app cannot be created by updating a client: %w", ErrIncompleteInput)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok {
		return Client{}, fmt.Errorf("client %d: %w", id, ErrNotFound)
	}
	if err := s.checkClientLocked(in); err != nil {
		return Client{}, err
	}
	updated := c
	updated.apply(in)
	if err := s.charge(updated.bytes() - c.bytes()); err != nil {
		return Client{}, err
	}
	s.changedLocked()
	if !s.dev.ClientUpdateNotStored {
		s.clients[id] = updated
		s.markClient(id)
	}
	if s.dev.PermissionCheckedAfterWrite && s.refused[fmt.Sprint("client ", id)] {
		return Client{}, ErrRefusedAfterWrite
	}
	return updated.copy(), nil
}

// CreateApp applies a POST /apps body: a new app of the client.
func (s *Store) CreateApp(clientID int64, in AppInput) (App, error) {
	g := s.generate(nil, true)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.clients[clientID]; !ok {
		return App{}, fmt.Errorf("client %d: %w", clientID, ErrNotFound)
	}
	if err := s.checkAppLocked(in); err != nil {
		return App{}, err
	}
	if err := s.room(0, 0, 1); err != nil {
		return App{}, err
	}
	if err := s.charge(in.bytes()); err != nil {
		return App{}, err
	}
	s.changedLocked()
	if s.dev.AppToOtherClient != 0 {
		clientID = s.otherClientLocked(clientID, s.dev.AppToOtherClient == 2)
	}
	return s.addAppLocked(clientID, in, g), nil
}

// otherClientLocked is the lowest (or highest) id of a client no member of
// client id belongs to (Deviations.AppToOtherClient); id when there is none.
func (s *Store) otherClientLocked(id int64, highest bool) int64 {
	mine := map[int64]bool{id: true}
	for _, u := range s.users {
		if slices.Contains(u.ClientIDs, id) {
			for _, c := range u.ClientIDs {
				mine[c] = true
			}
		}
	}
	other := id
	for cid := range s.clients {
		if mine[cid] {
			continue
		}
		if other == id || (highest && cid > other) || (!highest && cid < other) {
			other = cid
		}
	}
	return other
}
