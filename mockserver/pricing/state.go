package pricing

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
)

// State is the document of GET and PUT /__admin/state and of --state FILE:
// every user, client, app and session of one store. The catalogues
// (platforms, currencies, plans, phone countries, marketplace apps) are not
// in it: they belong to the fixtures, and the references of a state are
// checked against them.
//
// The store keeps no secret in plain text, so an export carries the HMACs
// of passwords (salted), API keys and session tokens under the store's
// Secret, and that secret's id. An import takes those when the id is the
// importing store's own, or plain "password", "apiKeys" and "token" values,
// which it hashes: a developer can write a state by hand with known
// credentials.
//
// The fixtures' users.json, clients.json and apps.json are lists of the same
// entries (StateUser, StateClient, StateApp), checked by the same checkState.
type State struct {
	// SecretID names the Secret of the document's hashes (Secret.ID); a
	// document without hashes needs none.
	SecretID string         `json:"secretId,omitempty"`
	Users    []StateUser    `json:"users"`
	Clients  []StateClient  `json:"clients"`
	Apps     []StateApp     `json:"apps"`
	Sessions []StateSession `json:"sessions"`
	// Next holds the ids the store gives to the next user, client, app and
	// session; an import may leave it out (or give lower numbers) and gets
	// one past the highest id in use.
	Next StateNext `json:"next"`
	// Generation is a --state file's own: how many times its log was
	// superseded whole (an import, a reset, a fold), which the log's
	// header names, so that a log is never replayed over a snapshot that
	// replaced it. An export leaves it out; an import ignores it.
	Generation int64 `json:"generation,omitempty"`
}

// StateNext is the next id of each kind.
type StateNext struct {
	User    int64 `json:"user"`
	Client  int64 `json:"client"`
	App     int64 `json:"app"`
	Session int64 `json:"session"`
}

// StateUser is a user with its credentials.
type StateUser struct {
	ID                  int64     `json:"id"`
	Created             time.Time `json:"created"`
	Email               string    `json:"email"`
	Password            string    `json:"password,omitempty"`
	PasswordSalt        string    `json:"passwordSalt,omitempty"`
	PasswordHash        string    `json:"passwordHash,omitempty"`
	PasswordLastChanged time.Time `json:"passwordLastChanged"`
	APIKeys             []string  `json:"apiKeys,omitempty"`
	APIKeyHashes        []string  `json:"apiKeyHashes,omitempty"`
	UserDetails
	ClientIDs []int64 `json:"clientIds"`
	// PrimaryClientID defaults to the first of ClientIDs.
	PrimaryClientID int64 `json:"primaryClientId"`
}

// StateClient is a client.
type StateClient struct {
	ID              int64     `json:"id"`
	CreatedDate     time.Time `json:"createdDate"`
	Name            string    `json:"name"`
	AddressLine1    string    `json:"addressLine1"`
	AddressLine2    *string   `json:"addressLine2"`
	AddressCity     string    `json:"addressCity"`
	AddressPostcode string    `json:"addressPostcode"`
	AddressCountry  string    `json:"addressCountry"`
	VAT             *string   `json:"vat"`
	CurrencyID      int64     `json:"currencyId"`
}

// StateApp is an app.
type StateApp struct {
	ID            int64     `json:"id"`
	Created       time.Time `json:"created"`
	ClientID      int64     `json:"clientId"`
	Name          string    `json:"name"`
	PlatformID    int64     `json:"platformId"`
	PlanID        int64     `json:"planId"`
	MarketappHash *string   `json:"marketappHash"`
	// WriteKey is a secret of the app: the admin API exports it only
	// under its token; a state without it gets a new one on import.
	WriteKey string `json:"writeKey"`
}

// StateSession is an open session, by the hash of its token (or, on import,
// the token itself).
type StateSession struct {
	ID        int64     `json:"id"`
	Created   time.Time `json:"created"`
	UserID    int64     `json:"userId"`
	ClientID  int64     `json:"clientId"` // 0: none
	Token     string    `json:"token,omitempty"`
	TokenHash string    `json:"tokenHash,omitempty"`
}

// Export returns a copy of the store's users, clients, apps and sessions,
// sorted by id.
func (s *Store) Export() State {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := State{
		SecretID: s.secret.ID(),
		Users:    []StateUser{}, Clients: []StateClient{}, Apps: []StateApp{}, Sessions: []StateSession{},
		Next: StateNext{User: s.nextUser, Client: s.nextClient, App: s.nextApp, Session: s.nextSession},
	}
	keys := map[int64][]string{}
	for h, id := range s.apiKeys {
		keys[id] = append(keys[id], hex.EncodeToString(h[:]))
	}
	for _, r := range sortedValues(s.users) {
		st.Users = append(st.Users, stateUser(r, keys[r.ID]))
	}
	for _, c := range sortedValues(s.clients) {
		st.Clients = append(st.Clients, StateClient(c.copy()))
	}
	for _, a := range sortedValues(s.apps) {
		st.Apps = append(st.Apps, StateApp(a.copy()))
	}
	for h, sess := range s.sessions {
		st.Sessions = append(st.Sessions, StateSession{
			ID: sess.ID, Created: sess.Created, UserID: sess.UserID, ClientID: sess.ClientID,
			TokenHash: hex.EncodeToString(h[:]),
		})
	}
	slices.SortFunc(st.Sessions, func(a, b StateSession) int {
		if c := cmpInt(a.ID, b.ID); c != 0 {
			return c
		}
		return strings.Compare(a.TokenHash, b.TokenHash)
	})
	return st
}

// maxStateErrors bounds the errors an import answers; the first ones are
// enough to fix a document.
const maxStateErrors = 20

// ParseState decodes a state document strictly: unknown fields and trailing
// data are errors, so that a typo is not silently dropped.
func ParseState(b []byte) (State, error) {
	var st State
	if len(bytes.TrimSpace(b)) == 0 {
		return st, errors.New("the document is empty, not a JSON state object")
	}
	switch err := jsonio.Decode(b, &st); {
	case errors.Is(err, jsonio.ErrTrailingData):
		return st, errors.New("the document holds more than one JSON value")
	case err != nil:
		return st, fmt.Errorf("the document is not a valid state: %v", err)
	}
	return st, nil
}

// Import replaces the store's users, clients, apps and sessions with the
// state's, after checking every field and reference against the catalogues.
// A state with any problem changes nothing; the answer lists the problems
// (fieldName is a path such as "users[0].email"). A state with more users,
// clients or apps than the Limits, or more data than the Pool has room
// for, is refused with CodeLimitReached; sessions past Limits.Sessions are
// dropped, oldest first, as they would have been.
func (s *Store) Import(st State) []FieldError {
	if errs := s.lim.check(st); len(errs) > 0 {
		return errs
	}
	s.mu.RLock()
	d := data{
		platforms: s.platforms, currencies: s.currencies, plans: s.plans,
		phoneCountries: s.phoneCountries, marketapps: s.marketapps, litePlanID: s.litePlanID, catalogue: s.catalogue,
	}
	s.mu.RUnlock()
	if ps := checkState(st, &d, s.secret); len(ps) > 0 {
		return ps.fieldErrors()
	}
	s.build(&d, st)
	s.mu.Lock()
	defer s.mu.Unlock()
	// The catalogues may have been reloaded meanwhile (--watch); the state
	// was checked against the ones it is installed with.
	d.platforms, d.currencies, d.plans = s.platforms, s.currencies, s.plans
	d.phoneCountries, d.marketapps, d.litePlanID, d.catalogue = s.phoneCountries, s.marketapps, s.litePlanID, s.catalogue
	if err := s.install(d, false); err != nil {
		return []FieldError{{Error: CodeLimitReached, Message: "The state was not imported: " + err.Error() + "."}}
	}
	s.pristine = false
	return nil
}

// check refuses a state with more users, clients or apps than the limits.
func (l Limits) check(st State) []FieldError {
	var errs []FieldError
	for _, c := range []struct {
		list string
		n    int
		max  int
	}{{"users", len(st.Users), l.Users}, {"clients", len(st.Clients), l.Clients}, {"apps", len(st.Apps), l.Apps}} {
		if c.max > 0 && c.n > c.max {
			errs = append(errs, FieldError{FieldName: c.list, Error: CodeLimitReached,
				Message: fmt.Sprintf("The state holds %d %s; a namespace keeps at most %d.", c.n, c.list, c.max)})
		}
	}
	return errs
}

// build fills d's users, clients, apps, sessions and next ids from st, which
// checkState has found sound against d's catalogues. Plain passwords are
// hashed with a fresh salt, plain keys and tokens under the secret.
func (s *Store) build(d *data, st State) {
	d.clients = make(map[int64]Client, len(st.Clients))
	for _, c := range st.Clients {
		c.CreatedDate = c.CreatedDate.UTC()
		d.clients[c.ID] = Client(c).copy()
	}

	d.users = make(map[int64]*userRecord, len(st.Users))
	d.emails = make(map[string]int64, len(st.Users))
	d.apiKeys = make(map[[32]byte]int64)
	for _, u := range st.Users {
		r := &userRecord{User: User{
			ID: u.ID, Created: u.Created.UTC(), Email: u.Email, PasswordLastChanged: u.PasswordLastChanged.UTC(),
			UserDetails: u.UserDetails.clone(), ClientIDs: slices.Clone(u.ClientIDs), PrimaryClientID: u.PrimaryClientID,
		}}
		if r.PrimaryClientID == 0 && len(r.ClientIDs) > 0 {
			r.PrimaryClientID = r.ClientIDs[0]
		}
		if u.Password != "" {
			r.salt, r.hash = s.hashPassword(u.Password)
		} else {
			r.salt, _ = decodeHex(u.PasswordSalt, saltSize)
			r.hash, _ = decodeHex(u.PasswordHash, 32)
		}
		for _, k := range u.APIKeys {
			d.apiKeys[s.secret.apiKeyHash(k)] = u.ID
		}
		for _, h := range u.APIKeyHashes {
			b, _ := decodeHex(h, 32)
			d.apiKeys[[32]byte(b)] = u.ID
		}
		d.users[u.ID] = r
		d.emails[strings.ToLower(u.Email)] = u.ID
	}

	d.apps = make(map[int64]App, len(st.Apps))
	for _, a := range st.Apps {
		a.Created = a.Created.UTC()
		if a.MarketappHash != nil {
			a.MarketappHash = ptr(strings.ToLower(*a.MarketappHash))
		}
		if a.WriteKey == "" {
			a.WriteKey = s.src.hex(16)
		}
		d.apps[a.ID] = App(a)
	}

	// Sessions are kept oldest first (by id), the newest Limits.Sessions.
	sessions := slices.Clone(st.Sessions)
	slices.SortStableFunc(sessions, func(a, b StateSession) int { return cmpInt(a.ID, b.ID) })
	var maxSession int64
	for _, ss := range sessions {
		maxSession = max(maxSession, ss.ID)
	}
	if n := s.lim.Sessions; n > 0 && len(sessions) > n {
		sessions = sessions[len(sessions)-n:]
	}
	d.sessions = make(map[[32]byte]Session, len(sessions))
	d.sessionOrder = make([][32]byte, 0, len(sessions))
	for _, ss := range sessions {
		key := ss.tokenKey(s.secret)
		d.sessions[key] = Session{
			ID: ss.ID, Created: ss.Created.UTC(), CreatorUserID: ss.UserID, UserID: ss.UserID, ClientID: ss.ClientID,
		}
		d.sessionOrder = append(d.sessionOrder, key)
	}
	d.nextUser = max(st.Next.User, maxKey(d.users)+1)
	d.nextClient = max(st.Next.Client, maxKey(d.clients)+1)
	d.nextApp = max(st.Next.App, maxKey(d.apps)+1)
	d.nextSession = max(st.Next.Session, maxSession+1)
}

// hasPassword reports whether password is u's (the fixtures give it plain).
func (u StateUser) hasPassword(password string) bool { return u.Password == password }

// hasAPIKey reports whether key is one of u's (the fixtures give them plain).
func (u StateUser) hasAPIKey(key string) bool { return slices.Contains(u.APIKeys, key) }
