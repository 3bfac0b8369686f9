package snapshots

import (
	"hash/maphash"
	"slices"
	"time"
)

// The whole service state is one immutable value. Readers load it from an
// atomic pointer and never lock; a writer copies the small root struct, swaps
// in new versions of the maps it touches and publishes the result in one
// store. Records reachable from a published state are never mutated: a change
// copies the record first.

const shardCount = 32

var shardSeed = maphash.MakeSeed()

// pmap is a persistent map: set and del return a new map and leave the
// receiver untouched. Only the shard holding the key is copied, so a write
// costs about 1/shardCount of the map instead of all of it.
type pmap[K comparable, V any] struct {
	shards *[shardCount]map[K]V
}

func shardOf[K comparable](k K) int {
	return int(maphash.Comparable(shardSeed, k) % shardCount)
}

func (m pmap[K, V]) get(k K) (V, bool) {
	if m.shards == nil {
		var zero V
		return zero, false
	}
	v, ok := m.shards[shardOf(k)][k]
	return v, ok
}

func (m pmap[K, V]) set(k K, v V) pmap[K, V] {
	var ns [shardCount]map[K]V
	if m.shards != nil {
		ns = *m.shards
	}
	i := shardOf(k)
	old := ns[i]
	nm := make(map[K]V, len(old)+1)
	for kk, vv := range old {
		nm[kk] = vv
	}
	nm[k] = v
	ns[i] = nm
	return pmap[K, V]{shards: &ns}
}

func (m pmap[K, V]) del(k K) pmap[K, V] {
	if m.shards == nil {
		return m
	}
	i := shardOf(k)
	old := m.shards[i]
	if _, ok := old[k]; !ok {
		return m
	}
	ns := *m.shards
	nm := make(map[K]V, len(old))
	for kk, vv := range old {
		if kk != k {
			nm[kk] = vv
		}
	}
	ns[i] = nm
	return pmap[K, V]{shards: &ns}
}

type user struct {
	id        int64
	created   time.Time
	pwChanged time.Time
	userDetails
	pwSalt    []byte
	pwHash    []byte
	apiKey    string
	clientIDs []int64  // first entry is the user's home client
	sessions  []string // tokens, oldest first
}

// userDetails are the fields of a user a body sets, each of them: a PUT
// replaces the whole user.
type userDetails struct {
	email          string
	firstName      string
	lastName       string
	subs           [4]bool
	timezone       string
	phoneCountryID int64
	phoneNumber    string
	phoneExt       *string // nil is the JSON null
}

type session struct {
	id       int64
	created  time.Time
	userID   int64
	clientID int64
	token    string
}

type client struct {
	id      int64
	created time.Time
	clientDetails
	members []int64
	appIDs  []int64
}

// clientDetails are the fields of a client a body sets, each of them:
// optional fields left out of the body are cleared, because the body is
// the whole new client.
type clientDetails struct {
	name       string
	line1      string
	line2      *string
	city       string
	postcode   string
	country    string
	vat        *string
	currencyID int64
}

type app struct {
	id         int64
	created    time.Time
	clientID   int64
	name       string
	platformID int64
	writeKey   string
	planID     int64
	hash       string
}

// marketapp is what the server knows of a store app: once a hash has been
// seen its name and platform never change, so the same hash always yields
// the same app description.
type marketapp struct {
	name       string
	platformID int64
}

type state struct {
	seq      uint64
	users    pmap[int64, *user]
	emails   pmap[string, int64]
	apiKeys  pmap[string, int64]
	sessions pmap[string, *session]
	clients  pmap[int64, *client]
	apps     pmap[int64, *app]
	market   pmap[string, marketapp]

	// Creation counters bound memory no matter what clients send.
	createdUsers   int
	createdClients int
	createdApps    int
}

// Bounds that keep memory finite under abuse.
const (
	maxSessionsPerUser = 256
	maxClientsPerUser  = 200
	maxMembersOfClient = 200
	maxAppsPerClient   = 1000
	maxCreatedUsers    = 5000
	maxCreatedClients  = 20000
	maxCreatedApps     = 50000
)

// idFor maps a sequence number to an id in [2^52, 2^53). Multiplying by an
// odd constant modulo 2^52 is a bijection, so ids never collide, yet they are
// neither small nor consecutive, and every one is still exactly representable
// as an IEEE double.
func idFor(n uint64) int64 {
	const lo = uint64(1) << 52
	const mult = uint64(0x9E3779B97F4A7) | 1
	return int64(lo + (n*mult)&(lo-1))
}

func (st *state) nextID() int64 {
	st.seq++
	return idFor(st.seq)
}

// addSession stores a new session, evicting the user's oldest ones beyond
// the per-user cap.
func (st *state) addSession(u *user, now time.Time) *session {
	tok := newToken(48)
	for {
		if _, taken := st.sessions.get(tok); !taken {
			break
		}
		tok = newToken(48)
	}
	sess := &session{id: st.nextID(), created: now, userID: u.id, clientID: u.clientIDs[0], token: tok}
	nu := *u
	list := slices.Clone(u.sessions)
	for len(list) >= maxSessionsPerUser {
		st.sessions = st.sessions.del(list[0])
		list = list[1:]
	}
	nu.sessions = append(list, tok)
	st.sessions = st.sessions.set(tok, sess)
	st.users = st.users.set(u.id, &nu)
	return sess
}

// revokeSessionsExcept drops every session of nu except keep; nu is a private
// copy that the caller will store.
func (st *state) revokeSessionsExcept(nu *user, keep string) {
	var kept []string
	for _, tok := range nu.sessions {
		if tok == keep {
			kept = append(kept, tok)
			continue
		}
		st.sessions = st.sessions.del(tok)
	}
	nu.sessions = kept
}
