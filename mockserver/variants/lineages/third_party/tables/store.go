package tables

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"time"
)

// The store is shaped like a small relational database: one map of rows per
// table keyed by primary key, plus secondary indexes. Rows are stored by
// value, so a staged row cannot alias the committed one, and a transaction
// (tx) is a list of whole rows to upsert. Handlers validate everything and
// stage every row before calling commit, which is the only code that mutates
// tables; a refused request therefore never reaches it.

type platformRow struct {
	id   int64
	name string
}

type currencyRow struct {
	id         int64
	code, name string
}

type planRow struct {
	id                         int64
	name                       string
	lite, pro, dynamic, billed bool
}

type phoneCountryRow struct {
	id                int64
	country, dialCode string
}

func (p phoneCountryRow) label() string { return p.country + " (" + p.dialCode + ")" }

type marketappRow struct {
	hash       string // 40 lower-case hexadecimal characters
	name       string
	platformID int64
}

type userRow struct {
	id             int64
	created        time.Time
	email          string
	pwSalt         [16]byte
	pwHash         [32]byte
	pwChanged      time.Time
	firstName      string
	lastName       string
	subscribe      [4]bool // welcome, blog, howto, onboarding
	phoneCountryID int64
	phoneNumber    string
	phoneExtension *string
	timezone       string
	apiKey         string
}

type clientRow struct {
	id           int64
	created      time.Time
	name         string
	addressLine1 string
	addressLine2 *string
	addressCity  string
	postcode     string
	country      string
	vat          *string
	currencyID   int64
	// currencyCode is denormalised from the currencies table, as a reporting
	// view would be, and so must be rewritten whenever currencyID changes.
	currencyCode string
}

type appRow struct {
	id         int64
	clientID   int64
	created    time.Time
	name       string
	platformID int64
	writeKey   string
	planID     int64
	hash       string
}

type sessionRow struct {
	id       int64
	created  time.Time
	expires  time.Time
	userID   int64
	creator  int64
	clientID int64 // 0 when the user is a user of no client
	token    string
}

type membership struct{ userID, clientID int64 }

type tables struct {
	platforms      map[int64]platformRow
	platformOrder  []int64
	currencies     map[int64]currencyRow
	currencyOrder  []int64
	plans          map[int64]planRow
	planOrder      []int64
	litePlanID     int64
	phoneCountries map[int64]phoneCountryRow
	phoneOrder     []int64
	marketapps     map[string]marketappRow
	marketOrder    []string

	users    map[int64]userRow
	clients  map[int64]clientRow
	apps     map[int64]appRow
	sessions map[int64]sessionRow
	// clientsOf lists, per user, the clients the user is a user of, in the
	// order joined; the first one is the user's home client.
	clientsOf map[int64][]int64
	appsOf    map[int64][]int64 // client id -> app ids in creation order

	byEmail  map[string]int64 // lower-cased email -> user id
	byToken  map[string]int64 // session token -> session id
	byAPIKey map[string]int64 // api key -> user id

	// retired holds replaced password hashes; only the old-password fault
	// reads it.
	retired map[int64][][32]byte

	ids map[int64]struct{} // every id handed out, whatever its table
}

func newTables() *tables {
	return &tables{
		platforms:      map[int64]platformRow{},
		currencies:     map[int64]currencyRow{},
		plans:          map[int64]planRow{},
		phoneCountries: map[int64]phoneCountryRow{},
		marketapps:     map[string]marketappRow{},
		users:          map[int64]userRow{},
		clients:        map[int64]clientRow{},
		apps:           map[int64]appRow{},
		sessions:       map[int64]sessionRow{},
		clientsOf:      map[int64][]int64{},
		appsOf:         map[int64][]int64{},
		byEmail:        map[string]int64{},
		byToken:        map[string]int64{},
		byAPIKey:       map[string]int64{},
		retired:        map[int64][][32]byte{},
		ids:            map[int64]struct{}{},
	}
}

func (t *tables) isMember(userID, clientID int64) bool {
	for _, c := range t.clientsOf[userID] {
		if c == clientID {
			return true
		}
	}
	return false
}

func (t *tables) homeClient(userID int64) int64 {
	if cs := t.clientsOf[userID]; len(cs) > 0 {
		return cs[0]
	}
	return 0
}

// marketByName finds the marketplace app of a platform with the given name,
// ignoring case, among committed rows and those staged in x.
func (t *tables) marketByName(x *tx, platformID int64, name string) (marketappRow, bool) {
	for _, m := range x.marketapps {
		if m.platformID == platformID && strings.EqualFold(m.name, name) {
			return m, true
		}
	}
	for _, h := range t.marketOrder {
		m := t.marketapps[h]
		if m.platformID == platformID && strings.EqualFold(m.name, name) {
			return m, true
		}
	}
	return marketappRow{}, false
}

// tx is the set of rows a request will write. Nothing in it is visible until
// commit.
type tx struct {
	t          *tables
	users      []userRow
	clients    []clientRow
	apps       []appRow
	sessions   []sessionRow
	marketapps []marketappRow
	members    []membership
	ids        map[int64]struct{}
}

func (t *tables) begin() *tx { return &tx{t: t, ids: map[int64]struct{}{}} }

// newID hands out a fresh id: random, odd and above 2^53, so ids are sparse,
// say nothing of creation order, and cannot survive a trip through a float64.
func (x *tx) newID() int64 {
	for {
		v := int64(randUint64()>>1) | 1
		if v <= 1<<53 {
			continue
		}
		if _, used := x.t.ids[v]; used {
			continue
		}
		if _, used := x.ids[v]; used {
			continue
		}
		x.ids[v] = struct{}{}
		return v
	}
}

// commitOptions carry the faults that live in the storage layer.
type commitOptions struct {
	staleEmailIndex bool
	keepOldPassword bool
}

func (t *tables) commit(x *tx, o commitOptions) {
	for id := range x.ids {
		t.ids[id] = struct{}{}
	}
	for _, m := range x.marketapps {
		t.marketapps[m.hash] = m
		t.marketOrder = append(t.marketOrder, m.hash)
	}
	for _, u := range x.users {
		old, existed := t.users[u.id]
		switch {
		case !existed:
			t.byEmail[strings.ToLower(u.email)] = u.id
			t.byAPIKey[u.apiKey] = u.id
		case !strings.EqualFold(old.email, u.email) && !o.staleEmailIndex:
			delete(t.byEmail, strings.ToLower(old.email))
			t.byEmail[strings.ToLower(u.email)] = u.id
		}
		if existed && old.pwHash != u.pwHash && o.keepOldPassword {
			t.retired[u.id] = append(t.retired[u.id], old.pwHash)
		}
		t.users[u.id] = u
	}
	for _, c := range x.clients {
		t.clients[c.id] = c
	}
	for _, m := range x.members {
		t.clientsOf[m.userID] = append(t.clientsOf[m.userID], m.clientID)
	}
	for _, a := range x.apps {
		t.apps[a.id] = a
		t.appsOf[a.clientID] = append(t.appsOf[a.clientID], a.id)
	}
	for _, s := range x.sessions {
		t.sessions[s.id] = s
		t.byToken[s.token] = s.id
	}
}

func randBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return b
}

func randUint64() uint64 { return binary.BigEndian.Uint64(randBytes(8)) }

// newToken is 32 random bytes in unpadded base64url: 43 characters.
func newToken() string { return base64.RawURLEncoding.EncodeToString(randBytes(32)) }

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// newAPIKey is "pk_" and 40 alphanumerics.
func newAPIKey() string {
	b := randBytes(40)
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	return "pk_" + string(b)
}

func newWriteKey() string { return hex.EncodeToString(randBytes(16)) }

func newUUID() string {
	b := randBytes(16)
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func newHash() string { return hex.EncodeToString(randBytes(20)) }

func hashPassword(salt [16]byte, pw string) [32]byte {
	return sha256.Sum256(append(salt[:], pw...))
}

// setPassword keeps the user's salt once it has one, so that hashes of the
// same user stay comparable.
func (u *userRow) setPassword(pw string, at time.Time) {
	if u.pwSalt == [16]byte{} {
		copy(u.pwSalt[:], randBytes(16))
	}
	u.pwHash = hashPassword(u.pwSalt, pw)
	u.pwChanged = at
}

func (t *tables) passwordMatches(u userRow, pw string, acceptRetired bool) bool {
	h := hashPassword(u.pwSalt, pw)
	if subtle.ConstantTimeCompare(h[:], u.pwHash[:]) == 1 {
		return true
	}
	if acceptRetired {
		for _, old := range t.retired[u.id] {
			if old == h {
				return true
			}
		}
	}
	return false
}
