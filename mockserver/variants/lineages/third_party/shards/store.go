package shards

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds on collections, so that no client input can grow memory without limit.
const (
	maxSignups        = 2000 // users created through POST /users
	maxClients        = 20000
	maxClientsPerUser = 20
	maxAppsPerClient  = 100
	maxSessionsPer    = 100 // per user; the oldest session is dropped beyond it
)

// userData is the mutable part of a user; guarded by userRec.mu.
type userData struct {
	created, pwChanged time.Time
	email, first, last string
	timezone           string
	subs               [4]bool
	salt, hash         []byte
	pwVersion          int64
	phoneCountry       int64
	phoneNumber        string
	phoneExt           *string
}

type userRec struct {
	id      int64
	apiKey  string
	mu      sync.Mutex
	d       userData
	clients []int64 // memberships, oldest first; guarded by mu
}

// clientData is the mutable part of a client; guarded by clientRec.mu.
type clientData struct {
	name, addr1, city, postcode, country string
	addr2, vat                           *string
	currency                             int64
}

type clientRec struct {
	id      int64
	created time.Time
	mu      sync.Mutex
	d       clientData
	members map[int64]bool
}

// appRec is immutable once stored.
type appRec struct {
	id, clientID, platform, plan int64
	created                      time.Time
	name, writeKey, hash         string
}

// session is immutable once stored.
type session struct {
	id, userID, clientID, pwVersion int64
	created                         time.Time
	token                           string
}

type store struct {
	userSeq, clientSeq, appSeq, sessionSeq atomic.Int64
	signups                                atomic.Int64

	usersMu sync.RWMutex
	users   map[int64]*userRec

	clientsMu sync.RWMutex
	clients   map[int64]*clientRec

	emailMu sync.RWMutex
	byEmail map[string]int64 // lower-cased email -> user id

	keyMu sync.RWMutex
	byKey map[string]int64 // api key -> user id

	tokenMu    sync.RWMutex
	byToken    map[string]*session
	userTokens map[int64][]string

	clientAppsMu sync.RWMutex
	clientApps   map[int64][]*appRec
}

func newStore() *store {
	return &store{
		users:      map[int64]*userRec{},
		clients:    map[int64]*clientRec{},
		byEmail:    map[string]int64{},
		byKey:      map[string]int64{},
		byToken:    map[string]*session{},
		userTokens: map[int64][]string{},
		clientApps: map[int64][]*appRec{},
	}
}

func (st *store) user(id int64) *userRec {
	st.usersMu.RLock()
	defer st.usersMu.RUnlock()
	return st.users[id]
}

func (st *store) putUser(u *userRec) {
	st.usersMu.Lock()
	st.users[u.id] = u
	st.usersMu.Unlock()
}

func (st *store) dropUser(id int64) {
	st.usersMu.Lock()
	delete(st.users, id)
	st.usersMu.Unlock()
}

func (st *store) client(id int64) *clientRec {
	st.clientsMu.RLock()
	defer st.clientsMu.RUnlock()
	return st.clients[id]
}

func (st *store) clientCount() int {
	st.clientsMu.RLock()
	defer st.clientsMu.RUnlock()
	return len(st.clients)
}

func (st *store) putClient(c *clientRec) {
	st.clientsMu.Lock()
	st.clients[c.id] = c
	st.clientsMu.Unlock()
}

func (st *store) userByEmail(email string) *userRec {
	st.emailMu.RLock()
	id, ok := st.byEmail[emailKey(email)]
	st.emailMu.RUnlock()
	if !ok {
		return nil
	}
	return st.user(id)
}

func (st *store) userByKey(key string) *userRec {
	st.keyMu.RLock()
	id, ok := st.byKey[key]
	st.keyMu.RUnlock()
	if !ok {
		return nil
	}
	return st.user(id)
}

func (st *store) putKey(key string, id int64) {
	st.keyMu.Lock()
	st.byKey[key] = id
	st.keyMu.Unlock()
}

func (st *store) session(token string) *session {
	st.tokenMu.RLock()
	defer st.tokenMu.RUnlock()
	return st.byToken[token]
}

// addSession stores a session and drops the user's oldest beyond the cap.
func (st *store) addSession(se *session) {
	st.tokenMu.Lock()
	defer st.tokenMu.Unlock()
	st.byToken[se.token] = se
	toks := append(st.userTokens[se.userID], se.token)
	for len(toks) > maxSessionsPer {
		delete(st.byToken, toks[0])
		toks = toks[1:]
	}
	st.userTokens[se.userID] = append([]string(nil), toks...)
}

// firstClient is the user's oldest membership, 0 when none.
func (u *userRec) firstClient() int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.clients) == 0 {
		return 0
	}
	return u.clients[0]
}

func (u *userRec) clientCount() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.clients)
}

func (u *userRec) addClient(id int64) {
	u.mu.Lock()
	u.clients = append(u.clients, id)
	u.mu.Unlock()
}

func (u *userRec) checkPassword(pw string) bool {
	u.mu.Lock()
	salt, hash := u.d.salt, u.d.hash
	u.mu.Unlock()
	got := sha256.Sum256(append(append([]byte(nil), salt...), pw...))
	return subtle.ConstantTimeCompare(got[:], hash) == 1
}

func (u *userRec) pwVersion() int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.d.pwVersion
}

func (c *clientRec) isMember(uid int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.members[uid]
}

func hashPassword(pw string) (salt, hash []byte) {
	salt = []byte(randHex(8))
	sum := sha256.Sum256(append(append([]byte(nil), salt...), pw...))
	return salt, sum[:]
}

func emailKey(email string) string { return strings.ToLower(email) }

func randHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("shards: crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b)
}

func iso(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
