package pricing

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// The check of a state (checkState): every field and reference of its
// users, clients, apps and sessions, as an import and the fixtures take
// them, each broken rule a problem.

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

// checkName checks the name of a client or an app against the bound of the
// body that writes it, so that a state holds no name the API would refuse.
func checkName(bad report, body *Table, name string) {
	if n := body.Field("name").Max; name == "" || utf8.RuneCountInString(name) > n {
		bad("name", "name must be 1 to %d characters", n)
	}
}

func (c *stateCheck) client(bad report, cl StateClient) {
	checkID(bad, "client", cl.ID, c.clients)
	checkName(bad, ClientBody, cl.Name)
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
	checkName(bad, AppBody, a.Name)
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
