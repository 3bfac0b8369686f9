package pricing

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/fixtures"
)

func limitedStore(t *testing.T, lim Limits) *Store {
	t.Helper()
	d, err := LoadSeed(fixtures.Seed())
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewLimitedStore(d, NewSource(nil), Deviations{}, lim)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wantLimit(t *testing.T, err error, what string) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.What != what {
		t.Errorf("error %v, want a LimitError of %s", err, what)
	}
}

// Past a count, a write fails and changes nothing; sessions past theirs
// push out the oldest.
func TestStoreCounts(t *testing.T) {
	s := limitedStore(t, Limits{Users: 3, Clients: 3, Apps: 3, Sessions: 3})
	if _, err := s.CreateUser(validUserInput("u1@example.com")); err != nil {
		t.Fatal(err)
	}
	_, err := s.CreateUser(validUserInput("u2@example.com"))
	wantLimit(t, err, "users")
	if _, err := s.CreateClient(1, validClientInput()); err != nil {
		t.Fatal(err)
	}
	withApp := validClientInput()
	withApp.App = &AppInput{Name: "A", PlatformID: 1, PlanID: 1}
	gen := s.Generation()
	_, err = s.CreateClient(1, withApp)
	wantLimit(t, err, "clients")
	if _, err := s.CreateApp(1, AppInput{Name: "A", PlatformID: 1, PlanID: 1}); err != nil {
		t.Fatal(err)
	}
	_, err = s.CreateApp(1, AppInput{Name: "B", PlatformID: 1, PlanID: 1})
	wantLimit(t, err, "apps")
	if st := s.Stats(); st.Users != 3 || st.Clients != 3 || st.Apps != 3 || s.Generation() != gen+1 {
		t.Errorf("stats %+v, generation %d (from %d); want 3 of each and one write", st, s.Generation(), gen)
	}

	var tokens []string
	for range 5 {
		sess, err := s.CreateSession(1)
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, sess.Token)
	}
	for i, tok := range tokens {
		if _, ok := s.UserIDForToken(tok); ok != (i >= 2) {
			t.Errorf("session %d of 5 authenticates: %v; want the newest 3 only", i+1, ok)
		}
	}
	if st := s.Stats(); st.Sessions != 3 || len(s.sessionOrder)-s.sessionHead != 3 {
		t.Errorf("%d sessions, %d in the queue; want 3", st.Sessions, len(s.sessionOrder)-s.sessionHead)
	}
	// The queue of sessions stays within twice what it orders.
	for range 1000 {
		s.CreateSession(2)
	}
	if len(s.sessionOrder) > 2*3+1 {
		t.Errorf("the session queue holds %d keys for 3 sessions", len(s.sessionOrder))
	}
}

// The Pool holds the stores that share it to its bound; a store gives its
// share back when it drops data or closes.
func TestStorePool(t *testing.T) {
	pool := NewPool(64 << 10)
	a := limitedStore(t, Limits{Pool: pool})
	b := limitedStore(t, Limits{Pool: pool})
	seeded := pool.Used()
	if seeded != a.Stats().Bytes+b.Stats().Bytes || seeded <= 0 {
		t.Fatalf("pool %d, stores %d + %d", seeded, a.Stats().Bytes, b.Stats().Bytes)
	}
	long := strings.Repeat("é", UserBody.Field("firstName").Max)
	var err error
	n := 0
	for ; err == nil; n++ {
		in := validUserInput(fmt.Sprintf("u%d@example.com", n))
		in.FirstName, in.LastName = long, long
		_, err = a.CreateUser(in)
	}
	wantLimit(t, err, "data")
	for err = nil; err == nil; {
		_, err = b.CreateSession(1)
	}
	wantLimit(t, err, "data")
	if pool.Used() > pool.Max() {
		t.Errorf("the pool holds %d, past its %d", pool.Used(), pool.Max())
	}

	a.Reset(a.seedForTest(t))
	if pool.Used() != a.Stats().Bytes+b.Stats().Bytes || a.Stats().Bytes != seeded/2 {
		t.Errorf("after a reset the pool holds %d, store a %d; want a back at its seed's %d", pool.Used(), a.Stats().Bytes, seeded/2)
	}
	a.Close()
	if pool.Used() != b.Stats().Bytes {
		t.Errorf("after a store closed the pool holds %d, want the other's %d", pool.Used(), b.Stats().Bytes)
	}
	if _, err := b.CreateSession(1); err != nil {
		t.Errorf("a session after room was made: %v", err)
	}
	// A new store needs room for its seed.
	d := a.seedForTest(t)
	for err = nil; err == nil; {
		_, err = b.CreateSession(2)
	}
	if _, err := NewLimitedStore(d, NewSource(nil), Deviations{}, Limits{Pool: pool}); err == nil {
		t.Error("a store was made in a full pool")
	}
}

func (s *Store) seedForTest(t *testing.T) *Seed {
	d, err := LoadSeed(fixtures.Seed())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestStoreSizesBoundTheHeap: the sizes the Pool is charged are at least
// what the heap grows by for users, clients, apps and sessions at their
// longest. Not parallel: nothing else allocates meanwhile.
func TestStoreSizesBoundTheHeap(t *testing.T) {
	pool := NewPool(1 << 30)
	s := limitedStore(t, Limits{Pool: pool, Sessions: 1 << 20})
	// Each string is its own, as the JSON decoder of a request makes it;
	// every limit is 255 (8), the phone number's too.
	long := func() string { return strings.Repeat("é", 255) }
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	charged := pool.Used()
	const n = 2000
	for i := range n {
		in := validUserInput(fmt.Sprintf("%s%d@example.com", strings.Repeat("e", 200), i))
		in.FirstName, in.LastName, in.Timezone = long(), long(), "Europe/"+strings.Repeat("x", 240)
		in.PhoneNumber = ptr(strings.Repeat("7", UserBody.Field("phoneNumber").Max))
		c := validClientInput()
		c.Name, c.AddressLine1, c.AddressLine2, c.AddressCity = long(), long(), ptr(long()), long()
		c.AddressPostcode, c.AddressCountry, c.VAT = long(), long(), ptr(long())
		c.App = &AppInput{Name: long(), PlatformID: 1, PlanID: 1}
		in.Client = &c
		u, err := s.CreateUser(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateSession(u.ID); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	charged = pool.Used() - charged
	t.Logf("%d users with a client, an app and a session: the heap grew %d bytes, the pool was charged %d", n, grew, charged)
	if grew > charged {
		t.Errorf("the heap grew %d bytes, more than the %d the pool was charged", grew, charged)
	}
	runtime.KeepAlive(s)
}

// Finding "stored secrets": the export holds HMACs under the source's
// secret, and its id; not the plain values, nor their SHA-256.
func TestExportHoldsKeyedHashes(t *testing.T) {
	s := newTestStore(t, nil)
	sess, _ := s.CreateSession(1)
	st := s.Export()
	if st.SecretID == "" || st.SecretID != s.secret.ID() {
		t.Errorf("secretId %q, want %q", st.SecretID, s.secret.ID())
	}
	doc := fmt.Sprintf("%+v", st)
	for _, secret := range []string{profile.Password, profile.APIKey, sess.Token} {
		plain := sha256.Sum256([]byte(secret))
		if strings.Contains(doc, secret) || strings.Contains(doc, hex.EncodeToString(plain[:])) {
			t.Errorf("the export holds %q or its SHA-256", secret)
		}
	}
	// The same key under another secret hashes otherwise.
	if NewSecret().apiKeyHash(profile.APIKey) == s.secret.apiKeyHash(profile.APIKey) {
		t.Error("two secrets hash a key alike")
	}
	if s.secret.apiKeyHash("x") == s.secret.tokenHash("x") {
		t.Error("a key and a token of the same text hash alike")
	}
	text, _ := s.secret.MarshalText()
	back, err := ParseSecret(text)
	if err != nil || back.ID() != s.secret.ID() {
		t.Errorf("ParseSecret(MarshalText()): %v, id %v", err, back)
	}
	if _, err := ParseSecret([]byte("short")); err == nil {
		t.Error("ParseSecret took a short text")
	}
}

// An import takes hashes only under its own secret: another mock's, or an
// older mock's unkeyed ones, are refused with the field secretId.
func TestImportHashesOfAnotherSecret(t *testing.T) {
	src := newTestStore(t, nil)
	st := src.Export()
	dst := newTestStore(t, nil)
	before := dst.Export()
	for name, id := range map[string]string{"another secret": st.SecretID, "no secretId": ""} {
		st.SecretID = id
		errs := dst.Import(st)
		if len(errs) != 1 || errs[0].FieldName != "secretId" || errs[0].Error != CodeInvalidState {
			t.Errorf("%s: errors %v, want one on secretId", name, errs)
		}
	}
	b1, _ := json.Marshal(before)
	if b2, _ := json.Marshal(dst.Export()); string(b1) != string(b2) {
		t.Errorf("a refused import changed the store:\n%s\n%s", b1, b2)
	}
	// The same document with its own secret's id goes in.
	st.SecretID = dst.secret.ID()
	if errs := dst.Import(st); len(errs) != 0 {
		t.Errorf("an import under the store's own secret: %v", errs)
	}
}
