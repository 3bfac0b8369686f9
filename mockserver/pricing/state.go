package pricing

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

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

// A problem is one broken rule of a state: the entry (a list and an index in
// it, with the entry's id), the field of the entry, and what is wrong. An
// import answers it as a FieldError, a fixture as an error naming the file.
type problem struct {
	list  string // users, clients, apps or sessions; "" for the document
	index int
	id    int64
	field string // such as "email" or "clientIds[0]"
	msg   string
}

type problems []problem

// in returns the function that records the problems of one entry. Past
// maxStateErrors, the most an answer shows, it records none: a document
// with millions of bad references costs no more than its first ones.
func (ps *problems) in(list string, index int, id int64) report {
	return func(field, format string, args ...any) {
		if len(*ps) < maxStateErrors {
			*ps = append(*ps, problem{list: list, index: index, id: id, field: field, msg: fmt.Sprintf(format, args...)})
		}
	}
}

// fieldErrors are the first maxStateErrors problems, as an import answers them.
func (ps problems) fieldErrors() []FieldError {
	errs := make([]FieldError, 0, min(len(ps), maxStateErrors))
	for _, p := range ps[:min(len(ps), maxStateErrors)] {
		name := p.field
		if p.list != "" {
			name = fmt.Sprintf("%s[%d].%s", p.list, p.index, p.field)
		}
		errs = append(errs, FieldError{FieldName: name, Error: CodeInvalidState, Message: p.msg})
	}
	return errs
}

// fixtureError names the fixture file and its entry (1-based, with its id).
func (p problem) fixtureError() error {
	return seedError(p.list+".json", p.index, p.id, "%s", p.msg)
}

func decodeHex(s string, n int) ([]byte, bool) {
	b, err := hex.DecodeString(s)
	return b, err == nil && len(b) == n
}

// checkState checks every field and reference of st against cat's
// catalogues. It is the one check of users, clients, apps and sessions: of a
// state import and of the fixtures alike (LoadSeed). Hashed credentials are
// taken only under secret, and only when the document names it; the
// fixtures (secret nil) must give them plain.
func checkState(st State, cat *data, secret *Secret) problems {
	c := stateCheck{cat: cat, secret: secret, clients: map[int64]bool{}, users: map[int64]bool{}, emails: map[string]bool{},
		apiKeys: map[string]int64{}, apps: map[int64]bool{}, tokens: map[string]bool{}}
	if p, ok := checkSecretID(st, secret); !ok {
		c.ps = append(c.ps, p)
	}
	// Clients first: users and apps refer to them, sessions to users.
	for i, cl := range st.Clients {
		c.client(c.ps.in("clients", i, cl.ID), cl)
	}
	for i, u := range st.Users {
		c.user(c.ps.in("users", i, u.ID), u)
	}
	for i, a := range st.Apps {
		c.app(c.ps.in("apps", i, a.ID), a)
	}
	for i, ss := range st.Sessions {
		c.session(c.ps.in("sessions", i, ss.ID), ss)
	}
	return c.ps
}

// stateCheck is checkState under way: the problems found and the ids, emails,
// keys and tokens seen so far.
type stateCheck struct {
	cat     *data
	secret  *Secret
	ps      problems
	clients map[int64]bool
	users   map[int64]bool
	emails  map[string]bool  // lower case
	apiKeys map[string]int64 // by credentialID
	apps    map[int64]bool
	tokens  map[string]bool // by credentialID
}

// hasHashes reports whether a state gives any credential hashed.
func (st State) hasHashes() bool {
	for _, u := range st.Users {
		if u.PasswordHash != "" || u.PasswordSalt != "" || len(u.APIKeyHashes) > 0 {
			return true
		}
	}
	return slices.ContainsFunc(st.Sessions, func(ss StateSession) bool { return ss.TokenHash != "" })
}

// checkSecretID is the problem of a state whose hashes were not made under
// secret: they could never match a credential, so they are refused rather
// than imported as accounts nobody can use.
func checkSecretID(st State, secret *Secret) (problem, bool) {
	hint := "give plain password, apiKeys and token values instead (they are hashed on import)"
	switch {
	case !st.hasHashes():
		return problem{}, true
	case secret == nil:
		return problem{field: "secretId", msg: "hashed credentials belong to the secret of one mock; " + hint}, false
	case st.SecretID == "":
		return problem{field: "secretId", msg: "the document has hashed credentials but no secretId: an older pricing-mock wrote them " +
			"(unkeyed SHA-256), and they cannot be checked; " + hint}, false
	case st.SecretID != secret.ID():
		return problem{field: "secretId", msg: fmt.Sprintf("the hashed credentials were made under another secret (secretId %s; "+
			"this mock's is %s): import the state into the mock that exported it (with --state, its key file), or %s",
			st.SecretID, secret.ID(), hint)}, false
	}
	return problem{}, true
}

// credentialID identifies an API key or a token given plain or hashed, so
// that a duplicate is found either way: its hash in hex under the secret;
// without one (the fixtures, which give them plain), the text itself.
func (c *stateCheck) credentialID(plain, hashed string, hash func(*Secret, string) [32]byte) string {
	switch {
	case hashed != "":
		return strings.ToLower(hashed)
	case c.secret == nil:
		return "plain:" + plain
	}
	h := hash(c.secret, plain)
	return hex.EncodeToString(h[:])
}

// report records a problem of one entry: a field and what is wrong with it.
type report = func(field, format string, args ...any)

// checkID checks an entry's id: positive and not seen before in its list.
func checkID(bad report, what string, id int64, seen map[int64]bool) {
	switch {
	case id <= 0:
		bad("id", "id must be a positive number")
	case seen[id]:
		bad("id", "duplicate %s id %d", what, id)
	}
	seen[id] = true
}

func (c *stateCheck) client(bad report, cl StateClient) {
	checkID(bad, "client", cl.ID, c.clients)
	if n := ClientBody.Field("name").Max; cl.Name == "" || utf8.RuneCountInString(cl.Name) > n {
		bad("name", "name must be 1 to %d characters", n)
	}
	if cl.CreatedDate.IsZero() {
		bad("createdDate", "createdDate is missing")
	}
	if _, ok := c.cat.currencies[cl.CurrencyID]; !ok {
		bad("currencyId", "unknown currencyId %d", cl.CurrencyID)
	}
}

func (c *stateCheck) user(bad report, u StateUser) {
	checkID(bad, "user", u.ID, c.users)
	switch {
	case !validEmail(u.Email):
		bad("email", "email %q is not a valid address", u.Email)
	case c.emails[strings.ToLower(u.Email)]:
		bad("email", "duplicate email %q", u.Email)
	}
	c.emails[strings.ToLower(u.Email)] = true
	if u.FirstName == "" || u.LastName == "" {
		bad("firstName", "firstName and lastName are required")
	}
	if u.Created.IsZero() || u.PasswordLastChanged.IsZero() {
		bad("created", "created and passwordLastChanged are required")
	}
	if _, ok := c.cat.phoneCountries[u.PhoneCountryID]; !ok {
		bad("phoneCountryId", "unknown phoneCountryId %d", u.PhoneCountryID)
	}
	userPassword(bad, u)
	c.userKeys(bad, u)
	c.userClients(bad, u)
}

// userPassword checks that a user has a password: plain, or salted and
// hashed as an export gives it.
func userPassword(bad report, u StateUser) {
	switch {
	case u.Password != "" && (u.PasswordSalt != "" || u.PasswordHash != ""):
		bad("password", "give either password or passwordSalt and passwordHash, not both")
	case u.Password != "":
		if n := UserBody.Field("password").Min; utf8.RuneCountInString(u.Password) < n {
			bad("password", "password is shorter than %d characters", n)
		}
	default:
		_, ok1 := decodeHex(u.PasswordSalt, saltSize)
		_, ok2 := decodeHex(u.PasswordHash, 32)
		if !ok1 || !ok2 {
			bad("passwordHash", "a user needs a password, or passwordSalt (32 hex characters) and passwordHash (64 hex characters)")
		}
	}
}

// userKeys checks a user's API keys, plain or hashed: well formed, and no
// key of two users or twice of one.
func (c *stateCheck) userKeys(bad report, u StateUser) {
	key := func(field string, k string) {
		switch owner, taken := c.apiKeys[k]; {
		case taken && owner == u.ID:
			bad(field, "the API key is listed twice")
		case taken:
			bad(field, "the API key is also user %d's", owner)
		}
		c.apiKeys[k] = u.ID
	}
	for j, k := range u.APIKeys {
		field := fmt.Sprintf("apiKeys[%d]", j)
		if k == "" || strings.ContainsAny(k, " \t\r\n") {
			bad(field, "an API key may not be empty or contain white space")
			continue
		}
		key(field, c.credentialID(k, "", (*Secret).apiKeyHash))
	}
	for j, h := range u.APIKeyHashes {
		field := fmt.Sprintf("apiKeyHashes[%d]", j)
		if _, ok := decodeHex(h, 32); !ok {
			bad(field, "an API key hash is 64 hex characters")
			continue
		}
		key(field, c.credentialID("", h, nil))
	}
}

// userClients checks a user's memberships and primary client.
func (c *stateCheck) userClients(bad report, u StateUser) {
	seen := map[int64]bool{}
	for j, id := range u.ClientIDs {
		field := fmt.Sprintf("clientIds[%d]", j)
		if !c.clients[id] || id <= 0 {
			bad(field, "unknown client id %d", id)
		}
		if seen[id] {
			bad(field, "client id %d is listed twice", id)
		}
		seen[id] = true
	}
	if u.PrimaryClientID != 0 && !seen[u.PrimaryClientID] {
		bad("primaryClientId", "primaryClientId %d is not one of clientIds", u.PrimaryClientID)
	}
}

func (c *stateCheck) app(bad report, a StateApp) {
	checkID(bad, "app", a.ID, c.apps)
	if n := AppBody.Field("name").Max; a.Name == "" || utf8.RuneCountInString(a.Name) > n {
		bad("name", "name must be 1 to %d characters", n)
	}
	if a.Created.IsZero() {
		bad("created", "created is missing")
	}
	if !c.clients[a.ClientID] {
		bad("clientId", "unknown clientId %d", a.ClientID)
	}
	if _, ok := c.cat.platforms[a.PlatformID]; !ok {
		bad("platformId", "unknown platformId %d", a.PlatformID)
	}
	if _, ok := c.cat.plans[a.PlanID]; !ok {
		bad("planId", "unknown planId %d", a.PlanID)
	}
	if a.MarketappHash != nil && !slices.ContainsFunc(c.cat.marketapps, func(m Marketapp) bool { return strings.EqualFold(m.Hash, *a.MarketappHash) }) {
		bad("marketappHash", "unknown marketappHash %q", *a.MarketappHash)
	}
	// Absent: an export of the admin API without a token leaves it out,
	// and the import makes a new one.
	if a.WriteKey != "" && !writeKeyRE.MatchString(a.WriteKey) {
		bad("writeKey", "writeKey is not 32 lower-case hexadecimal characters")
	}
}

func (c *stateCheck) session(bad report, ss StateSession) {
	if ss.ID <= 0 {
		bad("id", "id must be a positive number")
	}
	if ss.Created.IsZero() {
		bad("created", "created is missing")
	}
	if !c.users[ss.UserID] {
		bad("userId", "unknown userId %d", ss.UserID)
	}
	if ss.ClientID != 0 && !c.clients[ss.ClientID] {
		bad("clientId", "unknown clientId %d", ss.ClientID)
	}
	_, hashOK := decodeHex(ss.TokenHash, 32)
	ok := ss.Token != "" || hashOK
	key := c.credentialID(ss.Token, ss.TokenHash, (*Secret).tokenHash)
	switch {
	case ss.Token != "" && ss.TokenHash != "":
		bad("token", "give either token or tokenHash, not both")
	case !ok:
		bad("tokenHash", "a session needs a token, or a tokenHash of 64 hex characters")
	case c.tokens[key]:
		bad("token", "two sessions have the same token")
	}
	if ok {
		c.tokens[key] = true
	}
}

// tokenKey is the hash the store keeps of the session's token, which
// checkState has found well formed.
func (ss StateSession) tokenKey(secret *Secret) [32]byte {
	if ss.Token != "" {
		return secret.tokenHash(ss.Token)
	}
	b, _ := decodeHex(ss.TokenHash, 32)
	return [32]byte(b)
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
