package mockserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// State is the document of GET and PUT /__admin/state and of --state FILE:
// every user, client, app and session of one store. The catalogues
// (platforms, currencies, plans, phone countries, marketplace apps) are not
// in it: they belong to the fixtures, and the references of a state are
// checked against them.
//
// The store keeps no secret in plain text, so an export carries salted
// password hashes, and SHA-256 hashes of API keys and session tokens. An
// import takes those, or plain "password", "apiKeys" and "token" values,
// which it hashes: a developer can write a state by hand with known
// credentials.
type State struct {
	Users    []StateUser    `json:"users"`
	Clients  []StateClient  `json:"clients"`
	Apps     []StateApp     `json:"apps"`
	Sessions []StateSession `json:"sessions"`
	// Next holds the ids the store gives to the next user, client, app and
	// session; an import may leave it out (or give lower numbers) and gets
	// one past the highest id in use.
	Next StateNext `json:"next"`
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
	FirstName           string    `json:"firstName"`
	LastName            string    `json:"lastName"`
	SubscribeWelcome    bool      `json:"subscribeWelcome"`
	SubscribeBlog       bool      `json:"subscribeBlog"`
	SubscribeHowto      bool      `json:"subscribeHowto"`
	SubscribeOnboarding bool      `json:"subscribeOnboarding"`
	PhoneCountryID      int64     `json:"phoneCountryId"`
	PhoneNumber         string    `json:"phoneNumber"`
	PhoneExtension      *string   `json:"phoneExtension"`
	Timezone            string    `json:"timezone"`
	ClientIDs           []int64   `json:"clientIds"`
	PrimaryClientID     int64     `json:"primaryClientId"`
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
	WriteKey      string    `json:"writeKey"`
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
		Users: []StateUser{}, Clients: []StateClient{}, Apps: []StateApp{}, Sessions: []StateSession{},
		Next: StateNext{User: s.nextUser, Client: s.nextClient, App: s.nextApp, Session: s.nextSession},
	}
	keys := map[int64][]string{}
	for h, id := range s.apiKeys {
		keys[id] = append(keys[id], hex.EncodeToString(h[:]))
	}
	for _, r := range sortedValues(s.users) {
		u := r.copy()
		hashes := keys[u.ID]
		slices.Sort(hashes)
		st.Users = append(st.Users, StateUser{
			ID: u.ID, Created: u.Created, Email: u.Email,
			PasswordSalt: hex.EncodeToString(r.salt), PasswordHash: hex.EncodeToString(r.hash),
			PasswordLastChanged: u.PasswordLastChanged, APIKeyHashes: hashes,
			FirstName: u.FirstName, LastName: u.LastName,
			SubscribeWelcome: u.SubscribeWelcome, SubscribeBlog: u.SubscribeBlog,
			SubscribeHowto: u.SubscribeHowto, SubscribeOnboarding: u.SubscribeOnboarding,
			PhoneCountryID: u.PhoneCountryID, PhoneNumber: u.PhoneNumber, PhoneExtension: u.PhoneExtension,
			Timezone: u.Timezone, ClientIDs: u.ClientIDs, PrimaryClientID: u.PrimaryClientID,
		})
	}
	for _, c := range sortedValues(s.clients) {
		c = c.copy()
		st.Clients = append(st.Clients, StateClient{
			ID: c.ID, CreatedDate: c.CreatedDate, Name: c.Name, AddressLine1: c.AddressLine1,
			AddressLine2: c.AddressLine2, AddressCity: c.AddressCity, AddressPostcode: c.AddressPostcode,
			AddressCountry: c.AddressCountry, VAT: c.VAT, CurrencyID: c.CurrencyID,
		})
	}
	for _, a := range sortedValues(s.apps) {
		a = a.copy()
		st.Apps = append(st.Apps, StateApp{
			ID: a.ID, Created: a.Created, ClientID: a.ClientID, Name: a.Name, PlatformID: a.PlatformID,
			PlanID: a.PlanID, MarketappHash: a.MarketappHash, WriteKey: a.WriteKey,
		})
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
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return st, fmt.Errorf("the document is not a valid state: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return st, errors.New("the document holds more than one JSON value")
	}
	return st, nil
}

// Import replaces the store's users, clients, apps and sessions with the
// state's, after checking every field and reference against the catalogues.
// A state with any problem changes nothing; the answer lists the problems
// (fieldName is a path such as "users[0].email").
func (s *Store) Import(st State) []FieldError {
	s.mu.RLock()
	d := data{
		platforms: s.platforms, currencies: s.currencies, plans: s.plans,
		phoneCountries: s.phoneCountries, marketapps: s.marketapps, litePlanID: s.litePlanID,
	}
	s.mu.RUnlock()
	errs := s.build(&d, st)
	if len(errs) > 0 {
		return errs
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The catalogues may have been reloaded meanwhile (--watch); the state
	// was checked against the ones it is installed with.
	d.platforms, d.currencies, d.plans = s.platforms, s.currencies, s.plans
	d.phoneCountries, d.marketapps, d.litePlanID = s.phoneCountries, s.marketapps, s.litePlanID
	s.install(d)
	s.pristine = false
	return nil
}

type stateErrors []FieldError

func (e *stateErrors) add(field, format string, args ...any) {
	if len(*e) < maxStateErrors {
		*e = append(*e, FieldError{FieldName: field, Error: CodeInvalidState, Message: fmt.Sprintf(format, args...)})
	}
}

// CodeInvalidState is the error code of a refused state document.
const CodeInvalidState = "InvalidState"

func decodeHex(s string, n int) ([]byte, bool) {
	b, err := hex.DecodeString(s)
	return b, err == nil && len(b) == n
}

// build fills d's users, clients, apps and sessions from st, checking them
// against d's catalogues.
func (s *Store) build(d *data, st State) []FieldError {
	var errs stateErrors
	d.clients = make(map[int64]Client, len(st.Clients))
	for i, c := range st.Clients {
		f := fmt.Sprintf("clients[%d]", i)
		switch {
		case c.ID <= 0:
			errs.add(f+".id", "id must be a positive number")
		case d.clients[c.ID].ID != 0:
			errs.add(f+".id", "duplicate client id %d", c.ID)
		}
		if c.Name == "" || utf8.RuneCountInString(c.Name) > maxLen {
			errs.add(f+".name", "name must be 1 to %d characters", maxLen)
		}
		if c.CreatedDate.IsZero() {
			errs.add(f+".createdDate", "createdDate is missing")
		}
		if _, ok := d.currencies[c.CurrencyID]; !ok {
			errs.add(f+".currencyId", "unknown currencyId %d", c.CurrencyID)
		}
		d.clients[c.ID] = Client{
			ID: c.ID, CreatedDate: c.CreatedDate.UTC(), Name: c.Name, AddressLine1: c.AddressLine1,
			AddressLine2: clonePtr(c.AddressLine2), AddressCity: c.AddressCity, AddressPostcode: c.AddressPostcode,
			AddressCountry: c.AddressCountry, VAT: clonePtr(c.VAT), CurrencyID: c.CurrencyID,
		}
	}

	d.users = make(map[int64]*userRecord, len(st.Users))
	d.emails = make(map[string]int64, len(st.Users))
	d.apiKeys = make(map[[32]byte]int64)
	for i, u := range st.Users {
		f := fmt.Sprintf("users[%d]", i)
		switch {
		case u.ID <= 0:
			errs.add(f+".id", "id must be a positive number")
		case d.users[u.ID] != nil:
			errs.add(f+".id", "duplicate user id %d", u.ID)
		}
		switch {
		case !validEmail(u.Email):
			errs.add(f+".email", "email %q is not a valid address", u.Email)
		case d.emails[strings.ToLower(u.Email)] != 0:
			errs.add(f+".email", "email %q is used by two users", u.Email)
		}
		if u.FirstName == "" || u.LastName == "" {
			errs.add(f+".firstName", "firstName and lastName are required")
		}
		if u.Created.IsZero() || u.PasswordLastChanged.IsZero() {
			errs.add(f+".created", "created and passwordLastChanged are required")
		}
		if _, ok := d.phoneCountries[u.PhoneCountryID]; !ok {
			errs.add(f+".phoneCountryId", "unknown phoneCountryId %d", u.PhoneCountryID)
		}
		r := &userRecord{User: User{
			ID: u.ID, Created: u.Created.UTC(), Email: u.Email, PasswordLastChanged: u.PasswordLastChanged.UTC(),
			FirstName: u.FirstName, LastName: u.LastName,
			SubscribeWelcome: u.SubscribeWelcome, SubscribeBlog: u.SubscribeBlog,
			SubscribeHowto: u.SubscribeHowto, SubscribeOnboarding: u.SubscribeOnboarding,
			PhoneCountryID: u.PhoneCountryID, PhoneNumber: u.PhoneNumber, PhoneExtension: clonePtr(u.PhoneExtension),
			Timezone: u.Timezone, ClientIDs: slices.Clone(u.ClientIDs), PrimaryClientID: u.PrimaryClientID,
		}}
		switch {
		case u.Password != "" && (u.PasswordSalt != "" || u.PasswordHash != ""):
			errs.add(f+".password", "give either password or passwordSalt and passwordHash, not both")
		case u.Password != "":
			if utf8.RuneCountInString(u.Password) < minPassword {
				errs.add(f+".password", "password is shorter than %d characters", minPassword)
			}
			r.salt, r.hash = s.hashPassword(u.Password)
		default:
			salt, ok1 := decodeHex(u.PasswordSalt, 16)
			hash, ok2 := decodeHex(u.PasswordHash, sha256.Size)
			if !ok1 || !ok2 {
				errs.add(f+".passwordHash", "a user needs a password, or passwordSalt (32 hex characters) and passwordHash (64 hex characters)")
			}
			r.salt, r.hash = salt, hash
		}
		for j, k := range u.APIKeys {
			if k == "" || strings.ContainsAny(k, " \t\r\n") {
				errs.add(fmt.Sprintf("%s.apiKeys[%d]", f, j), "an API key may not be empty or contain white space")
			}
			u.APIKeyHashes = append(u.APIKeyHashes, hex.EncodeToString(sha256Sum(k)))
		}
		for j, h := range u.APIKeyHashes {
			b, ok := decodeHex(h, sha256.Size)
			if !ok {
				errs.add(fmt.Sprintf("%s.apiKeyHashes[%d]", f, j), "an API key hash is 64 hex characters")
				continue
			}
			key := [32]byte(b)
			if owner, taken := d.apiKeys[key]; taken && owner != u.ID {
				errs.add(fmt.Sprintf("%s.apiKeyHashes[%d]", f, j), "the API key is also user %d's", owner)
			}
			d.apiKeys[key] = u.ID
		}
		seen := map[int64]bool{}
		for j, id := range u.ClientIDs {
			if _, ok := d.clients[id]; !ok || id <= 0 {
				errs.add(fmt.Sprintf("%s.clientIds[%d]", f, j), "unknown client id %d", id)
			}
			if seen[id] {
				errs.add(fmt.Sprintf("%s.clientIds[%d]", f, j), "client id %d is listed twice", id)
			}
			seen[id] = true
		}
		if r.PrimaryClientID == 0 && len(r.ClientIDs) > 0 {
			r.PrimaryClientID = r.ClientIDs[0]
		}
		if r.PrimaryClientID != 0 && !seen[r.PrimaryClientID] {
			errs.add(f+".primaryClientId", "primaryClientId %d is not one of clientIds", r.PrimaryClientID)
		}
		d.users[u.ID] = r
		d.emails[strings.ToLower(u.Email)] = u.ID
	}

	d.apps = make(map[int64]App, len(st.Apps))
	for i, a := range st.Apps {
		f := fmt.Sprintf("apps[%d]", i)
		switch {
		case a.ID <= 0:
			errs.add(f+".id", "id must be a positive number")
		case d.apps[a.ID].ID != 0:
			errs.add(f+".id", "duplicate app id %d", a.ID)
		}
		if a.Name == "" || utf8.RuneCountInString(a.Name) > maxLen {
			errs.add(f+".name", "name must be 1 to %d characters", maxLen)
		}
		if a.Created.IsZero() {
			errs.add(f+".created", "created is missing")
		}
		if _, ok := d.clients[a.ClientID]; !ok {
			errs.add(f+".clientId", "unknown clientId %d", a.ClientID)
		}
		if _, ok := d.platforms[a.PlatformID]; !ok {
			errs.add(f+".platformId", "unknown platformId %d", a.PlatformID)
		}
		if _, ok := d.plans[a.PlanID]; !ok {
			errs.add(f+".planId", "unknown planId %d", a.PlanID)
		}
		var hash *string
		if a.MarketappHash != nil {
			hash = ptr(strings.ToLower(*a.MarketappHash))
			if !slices.ContainsFunc(d.marketapps, func(m Marketapp) bool { return m.Hash == *hash }) {
				errs.add(f+".marketappHash", "unknown marketappHash %q", *a.MarketappHash)
			}
		}
		if !writeKeyRE.MatchString(a.WriteKey) {
			errs.add(f+".writeKey", "writeKey is 32 lower-case hexadecimal characters")
		}
		d.apps[a.ID] = App{
			ID: a.ID, Created: a.Created.UTC(), ClientID: a.ClientID, Name: a.Name, PlatformID: a.PlatformID,
			PlanID: a.PlanID, MarketappHash: hash, WriteKey: a.WriteKey,
		}
	}

	d.sessions = make(map[[32]byte]Session, len(st.Sessions))
	var maxSession int64
	for i, ss := range st.Sessions {
		f := fmt.Sprintf("sessions[%d]", i)
		if ss.ID <= 0 {
			errs.add(f+".id", "id must be a positive number")
		}
		maxSession = max(maxSession, ss.ID)
		if ss.Created.IsZero() {
			errs.add(f+".created", "created is missing")
		}
		if d.users[ss.UserID] == nil {
			errs.add(f+".userId", "unknown userId %d", ss.UserID)
		}
		if _, ok := d.clients[ss.ClientID]; ss.ClientID != 0 && !ok {
			errs.add(f+".clientId", "unknown clientId %d", ss.ClientID)
		}
		var key []byte
		var ok bool
		switch {
		case ss.Token != "" && ss.TokenHash != "":
			errs.add(f+".token", "give either token or tokenHash, not both")
		case ss.Token != "":
			key, ok = sha256Sum(ss.Token), true
		default:
			if key, ok = decodeHex(ss.TokenHash, sha256.Size); !ok {
				errs.add(f+".tokenHash", "a session needs a token, or a tokenHash of 64 hex characters")
			}
		}
		if !ok {
			continue
		}
		if _, dup := d.sessions[[32]byte(key)]; dup {
			errs.add(f+".token", "two sessions have the same token")
		}
		d.sessions[[32]byte(key)] = Session{
			ID: ss.ID, Created: ss.Created.UTC(), CreatorUserID: ss.UserID, UserID: ss.UserID, ClientID: ss.ClientID,
		}
	}
	if len(errs) > 0 {
		return errs
	}
	d.nextUser = max(st.Next.User, maxKey(d.users)+1)
	d.nextClient = max(st.Next.Client, maxKey(d.clients)+1)
	d.nextApp = max(st.Next.App, maxKey(d.apps)+1)
	d.nextSession = max(st.Next.Session, maxSession+1)
	return nil
}

func sha256Sum(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}
