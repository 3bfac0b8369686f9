package pricing

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pricing-contract/pricing-contract/fixtures"
)

func newTestStore(t *testing.T, seed *int64) *Store {
	t.Helper()
	d, err := LoadSeed(fixtures.Seed())
	if err != nil {
		t.Fatalf("default seed: %v", err)
	}
	return NewStore(d, NewSource(seed), Deviations{})
}

func seedOf(n int64) *int64 { return &n }

// profile is the default seed's profile: its accounts A and B.
var profile = func() Profile {
	d, err := LoadSeed(fixtures.Seed())
	if err != nil {
		panic("the default seed: " + err.Error())
	}
	return d.Profile()
}()

var (
	hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)
	hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

func validClientInput() ClientInput {
	return ClientInput{
		Name: "Acme", AddressLine1: "1 Road", AddressCity: "Leeds", AddressPostcode: "LS1 1AA",
		AddressCountry: "United Kingdom", CurrencyID: 2,
	}
}

func validUserInput(email string) UserInput {
	return UserInput{
		Email: email, FirstName: "New", LastName: "User", Timezone: "Europe/Paris",
		Password: ptr("secret-1"), PhoneCountryID: 3, PhoneNumber: ptr("0102030405"),
	}
}

func TestStoreSeed(t *testing.T) {
	s := newTestStore(t, nil)

	for _, tt := range []struct {
		email, password string
		want            int64
	}{
		{profile.Email, profile.Password, 1},
		{strings.ToUpper(profile.Email), profile.Password, 1},
		{profile.OtherEmail, profile.OtherPassword, 2},
	} {
		u, err := s.Authenticate(tt.email, tt.password)
		if err != nil || u.ID != tt.want {
			t.Errorf("Authenticate(%q) = %d, %v; want %d", tt.email, u.ID, err, tt.want)
		}
	}
	for _, tt := range [][2]string{{profile.Email, profile.OtherPassword}, {profile.Email, ""}, {"nobody@example.com", profile.Password}} {
		if _, err := s.Authenticate(tt[0], tt[1]); !errors.Is(err, ErrBadCredentials) {
			t.Errorf("Authenticate(%q, %q) error = %v, want ErrBadCredentials", tt[0], tt[1], err)
		}
	}
	for key, want := range map[string]int64{profile.APIKey: 1, profile.OtherAPIKey: 2} {
		if id, ok := s.UserIDForAPIKey(key); !ok || id != want {
			t.Errorf("UserIDForAPIKey(%q) = %d, %v; want %d", key, id, ok, want)
		}
	}
	if _, ok := s.UserIDForAPIKey(strings.ToUpper(profile.APIKey)); ok {
		t.Error("API keys must match exactly")
	}

	// No plaintext password or API key anywhere in the store's records.
	for _, r := range s.users {
		for _, secret := range []string{profile.Password, profile.OtherPassword, profile.APIKey, profile.OtherAPIKey} {
			if bytes.Contains(r.hash, []byte(secret)) || strings.Contains(r.Email+r.FirstName+r.LastName, secret) {
				t.Errorf("user %d keeps %q in plain text", r.ID, secret)
			}
		}
		if len(r.salt) != 16 || len(r.hash) != 32 {
			t.Errorf("user %d: salt %d bytes, hash %d bytes", r.ID, len(r.salt), len(r.hash))
		}
	}

	u, err := s.User(1)
	if err != nil || u.Email != profile.Email || u.FirstName != "Quinn" || u.Timezone != "Europe/London" ||
		u.PhoneCountryID != 1 || u.PhoneNumber != "7700900123" || u.PhoneExtension != nil ||
		!slices.Equal(u.ClientIDs, []int64{1}) || u.PrimaryClientID != 1 || !u.SubscribeWelcome || u.SubscribeBlog {
		t.Errorf("User(1) = %+v, %v", u, err)
	}
	if _, err := s.User(3); !errors.Is(err, ErrNotFound) {
		t.Errorf("User(3) error = %v, want ErrNotFound", err)
	}
	if apps, _ := s.AppsOfClient(2); len(apps) != 1 || apps[0].ID != 2 || apps[0].ClientID != 2 {
		t.Errorf("AppsOfClient(2) = %+v", apps)
	}

	ids := func(n int, id func(int) int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = id(i)
		}
		return out
	}
	p, c, pl, pc := s.Platforms(), s.Currencies(), s.Plans(), s.PhoneCountries()
	for name, got := range map[string][]int64{
		"platforms":      ids(len(p), func(i int) int64 { return p[i].ID }),
		"currencies":     ids(len(c), func(i int) int64 { return c[i].ID }),
		"plans":          ids(len(pl), func(i int) int64 { return pl[i].ID }),
		"phoneCountries": ids(len(pc), func(i int) int64 { return pc[i].ID }),
	} {
		if !slices.IsSorted(got) || len(got) < 2 {
			t.Errorf("%s ids = %v, want sorted", name, got)
		}
	}
	if p[0].Name != "Android" || p[1].Name != "iOS" || c[0].Code != "GBP" || c[2].Code != "USD" {
		t.Errorf("catalogues: %+v %+v", p, c)
	}
	if ms := s.Marketapps(); len(ms) != 6 || ms[0].Hash != profile.MarketappHash {
		t.Errorf("marketapps = %+v", ms)
	}
	if s.DefaultPlanID() != 1 {
		t.Errorf("DefaultPlanID = %d, want the lite plan 1", s.DefaultPlanID())
	}
}

func TestStoreReturnsCopies(t *testing.T) {
	s := newTestStore(t, nil)
	u, _ := s.User(2)
	u.ClientIDs[0] = 99
	*u.PhoneExtension = "999"
	c, _ := s.Client(1)
	*c.AddressLine2 = "changed"
	a, _ := s.App(1)
	*a.MarketappHash = "changed"
	ms := s.Marketapps()
	ms[0].Name = "changed"

	u, _ = s.User(2)
	c, _ = s.Client(1)
	a, _ = s.App(1)
	if u.ClientIDs[0] != 2 || *u.PhoneExtension != "42" || *c.AddressLine2 != "Floor 2" ||
		*a.MarketappHash != profile.MarketappHash || s.Marketapps()[0].Name != "Puzzle Quest" {
		t.Errorf("a returned value shares memory with the store: %+v %+v %+v", u, c, a)
	}
}

func TestStoreCreatesWithSequentialIDs(t *testing.T) {
	s := newTestStore(t, nil)
	in := validUserInput("new@example.com")
	in.Client = &ClientInput{Name: "New Ltd", AddressLine1: "a", AddressCity: "b", AddressPostcode: "c", AddressCountry: "d", CurrencyID: 1,
		App: &AppInput{Name: "First", PlatformID: 2, PlanID: 3}}
	u, err := s.CreateUser(in)
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != 3 || !slices.Equal(u.ClientIDs, []int64{3}) || u.PrimaryClientID != 3 || u.Created.IsZero() || !u.Created.Equal(u.PasswordLastChanged) {
		t.Errorf("CreateUser = %+v, want user 3 on client 3", u)
	}
	apps, _ := s.AppsOfClient(3)
	if len(apps) != 1 || apps[0].ID != 3 || apps[0].Name != "First" || apps[0].PlanID != 3 || !hex32.MatchString(apps[0].WriteKey) || apps[0].MarketappHash != nil {
		t.Errorf("apps of client 3 = %+v", apps)
	}
	if got, err := s.Authenticate("NEW@example.com", "secret-1"); err != nil || got.ID != 3 {
		t.Errorf("new user cannot log in: %d, %v", got.ID, err)
	}

	c, err := s.CreateClient(1, validClientInput())
	if err != nil || c.ID != 4 || c.CurrencyID != 2 || c.AddressLine2 != nil || c.VAT != nil {
		t.Errorf("CreateClient = %+v, %v", c, err)
	}
	// A user who has a client keeps it as primary.
	if u, _ := s.User(1); u.PrimaryClientID != 1 || !slices.Equal(u.ClientIDs, []int64{1, 4}) || !s.IsMember(1, 4) {
		t.Errorf("user 1 after CreateClient = %+v", u)
	}
	if cs, _ := s.ClientsOfUser(1); len(cs) != 2 || cs[0].ID != 1 || cs[1].ID != 4 {
		t.Errorf("ClientsOfUser(1) = %+v", cs)
	}
	hash := "41cc95107d02f0a55079d23d8dcf2b2852ef397d"
	a, err := s.CreateApp(4, AppInput{Name: "Puzzle Quest", PlatformID: 2, PlanID: 1, MarketappHash: &hash})
	if err != nil || a.ID != 4 || a.ClientID != 4 || *a.MarketappHash != hash {
		t.Errorf("CreateApp = %+v, %v", a, err)
	}
	for i, want := range []int64{1, 2} {
		sess, err := s.CreateSession(1)
		if err != nil || sess.ID != want || sess.UserID != 1 || sess.CreatorUserID != 1 || sess.ClientID != 1 || !hex64.MatchString(sess.Token) {
			t.Errorf("session %d = %+v, %v", i, sess, err)
		}
		if id, ok := s.UserIDForToken(sess.Token); !ok || id != 1 {
			t.Errorf("token of session %d does not authenticate", want)
		}
	}
	if _, ok := s.UserIDForToken(""); ok {
		t.Error("an empty token authenticates")
	}
}

func TestStoreUpdateUser(t *testing.T) {
	s := newTestStore(t, nil)
	before, _ := s.User(1)

	in := UserInput{Email: "Quinn@Example.com", FirstName: "Q", LastName: "A", Timezone: "Europe/Dublin", SubscribeBlog: true}
	u, err := s.UpdateUser(1, in)
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "Quinn@Example.com" || u.FirstName != "Q" || !u.SubscribeBlog || u.SubscribeWelcome ||
		u.PhoneCountryID != 1 || u.PhoneNumber != "7700900123" || !u.PasswordLastChanged.Equal(before.PasswordLastChanged) {
		t.Errorf("UpdateUser without password or phone = %+v", u)
	}
	if _, err := s.Authenticate("quinn@example.com", profile.Password); err != nil {
		t.Errorf("null password must keep the password, and the new email must log in: %v", err)
	}
	if s.EmailTaken(profile.Email, 0) {
		t.Error("the old email is still taken")
	}

	in.Password, in.SetPhoneExtension, in.PhoneExtension = ptr("brand-new"), true, ptr("7")
	in.Client = &ClientInput{Name: "Second", AddressLine1: "a", AddressCity: "b", AddressPostcode: "c", AddressCountry: "d", CurrencyID: 3}
	u, err = s.UpdateUser(1, in)
	if err != nil {
		t.Fatal(err)
	}
	if u.PasswordLastChanged.Equal(before.PasswordLastChanged) || *u.PhoneExtension != "7" || u.PrimaryClientID != 1 || !slices.Equal(u.ClientIDs, []int64{1, 3}) {
		t.Errorf("UpdateUser with password and client = %+v", u)
	}
	if _, err := s.Authenticate("quinn@example.com", profile.Password); !errors.Is(err, ErrBadCredentials) {
		t.Errorf("old password still works: %v", err)
	}
	if _, err := s.Authenticate("quinn@example.com", "brand-new"); err != nil {
		t.Errorf("new password does not work: %v", err)
	}

	if _, err := s.UpdateUser(99, in); !errors.Is(err, ErrNotFound) {
		t.Errorf("UpdateUser(99) error = %v, want ErrNotFound", err)
	}
}

func TestStoreUserWithoutClient(t *testing.T) {
	s := newTestStore(t, nil)
	u, err := s.CreateUser(validUserInput("solo@example.com"))
	if err != nil || u.PrimaryClientID != 0 || len(u.ClientIDs) != 0 {
		t.Fatalf("CreateUser without client = %+v, %v", u, err)
	}
	if sess, _ := s.CreateSession(u.ID); sess.ClientID != 0 {
		t.Errorf("session of a user without client has clientId %d", sess.ClientID)
	}
	if cs, err := s.ClientsOfUser(u.ID); err != nil || len(cs) != 0 {
		t.Errorf("ClientsOfUser = %+v, %v", cs, err)
	}
	// The first client a user gets becomes its primary client.
	c, err := s.CreateClient(u.ID, validClientInput())
	if err != nil {
		t.Fatal(err)
	}
	if u, _ = s.User(u.ID); u.PrimaryClientID != c.ID {
		t.Errorf("primary client = %d, want %d", u.PrimaryClientID, c.ID)
	}
}

// snapshot is everything a failed write must leave unchanged.
type snapshot struct {
	users, clients, apps                 int
	nextUser, nextClient, nextApp, email int64
	user1Email, user1Clients             string
	user1Primary                         int64
}

func snap(s *Store) snapshot {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return snapshot{
		users: len(s.users), clients: len(s.clients), apps: len(s.apps),
		nextUser: s.nextUser, nextClient: s.nextClient, nextApp: s.nextApp,
		email:      int64(len(s.emails)),
		user1Email: s.users[1].Email, user1Clients: fmt.Sprint(s.users[1].ClientIDs), user1Primary: s.users[1].PrimaryClientID,
	}
}

func TestStoreWritesAreAllOrNothing(t *testing.T) {
	badApp := &AppInput{Name: "A", PlatformID: 1, PlanID: 42}
	tests := []struct {
		name  string
		write func(*Store) error
		want  error
	}{
		{"user with client of unknown currency", func(s *Store) error {
			in := validUserInput("new@example.com")
			in.Client = &ClientInput{Name: "x", CurrencyID: 9}
			_, err := s.CreateUser(in)
			return err
		}, ErrUnknownReference},
		{"user with client with app of unknown plan", func(s *Store) error {
			in := validUserInput("new@example.com")
			c := validClientInput()
			c.App = badApp
			in.Client = &c
			_, err := s.CreateUser(in)
			return err
		}, ErrUnknownReference},
		{"user with taken email", func(s *Store) error {
			_, err := s.CreateUser(validUserInput("OTHER@example.com"))
			return err
		}, ErrEmailTaken},
		{"user with unknown phone country", func(s *Store) error {
			in := validUserInput("new@example.com")
			in.PhoneCountryID = 6
			_, err := s.CreateUser(in)
			return err
		}, ErrUnknownReference},
		{"user without password", func(s *Store) error {
			in := validUserInput("new@example.com")
			in.Password = nil
			_, err := s.CreateUser(in)
			return err
		}, ErrIncompleteInput},
		{"update to another user's email", func(s *Store) error {
			in := validUserInput(profile.OtherEmail)
			in.Client = ptr(validClientInput())
			_, err := s.UpdateUser(1, in)
			return err
		}, ErrEmailTaken},
		{"update with client with bad app", func(s *Store) error {
			in := validUserInput(profile.Email)
			c := validClientInput()
			c.App = &AppInput{Name: "A", PlatformID: 3, PlanID: 1}
			in.Client = &c
			_, err := s.UpdateUser(1, in)
			return err
		}, ErrUnknownReference},
		{"client with app of unknown marketapp", func(s *Store) error {
			c := validClientInput()
			c.App = &AppInput{Name: "A", PlatformID: 1, PlanID: 1, MarketappHash: ptr(strings.Repeat("0", 40))}
			_, err := s.CreateClient(1, c)
			return err
		}, ErrUnknownReference},
		{"client update with app", func(s *Store) error {
			c := validClientInput()
			c.App = &AppInput{Name: "A", PlatformID: 1, PlanID: 1}
			_, err := s.UpdateClient(1, c)
			return err
		}, ErrIncompleteInput},
		{"client update of unknown client", func(s *Store) error {
			_, err := s.UpdateClient(7, validClientInput())
			return err
		}, ErrNotFound},
		{"app of unknown client", func(s *Store) error {
			_, err := s.CreateApp(7, AppInput{Name: "A", PlatformID: 1, PlanID: 1})
			return err
		}, ErrNotFound},
		{"app of unknown plan", func(s *Store) error {
			_, err := s.CreateApp(1, *badApp)
			return err
		}, ErrUnknownReference},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t, nil)
			before := snap(s)
			if err := tt.write(s); !errors.Is(err, tt.want) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
			if after := snap(s); before != after {
				t.Errorf("state changed:\nbefore %+v\nafter  %+v", before, after)
			}
			if s.EmailTaken("new@example.com", 0) {
				t.Error("the failed user's email is taken")
			}
			if c, _ := s.Client(1); c.Name != "QA Client Ltd" {
				t.Errorf("client 1 changed: %+v", c)
			}
		})
	}
}

func TestStoreConcurrentWrites(t *testing.T) {
	s := newTestStore(t, nil)
	const n = 40
	var wg sync.WaitGroup
	clients := make([]int64, n)
	tokens := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := s.CreateClient(int64(1+i%2), validClientInput())
			if err != nil {
				t.Error(err)
				return
			}
			clients[i] = c.ID
			sess, _ := s.CreateSession(1)
			tokens[i] = sess.Token
			_ = s.Platforms()
			_, _ = s.ClientsOfUser(1)
		}()
	}
	wg.Wait()
	slices.Sort(clients)
	for i, id := range clients {
		if id != int64(3+i) {
			t.Fatalf("client ids = %v, want 3..%d each once", clients, n+2)
		}
	}
	slices.Sort(tokens)
	if len(slices.Compact(tokens)) != n {
		t.Error("two sessions got the same token")
	}
}

func TestSeededValuesRepeat(t *testing.T) {
	run := func(seed *int64) (Session, App) {
		s := newTestStore(t, seed)
		sess, _ := s.CreateSession(1)
		a, _ := s.CreateApp(1, AppInput{Name: "A", PlatformID: 1, PlanID: 1})
		return sess, a
	}
	s1, a1 := run(seedOf(42))
	s2, a2 := run(seedOf(42))
	s3, a3 := run(seedOf(43))
	if s1 != s2 || a1.WriteKey != a2.WriteKey || !a1.Created.Equal(a2.Created) {
		t.Errorf("same seed, different values: %+v %+v / %s %s", s1, s2, a1.WriteKey, a2.WriteKey)
	}
	if s1.Token == s3.Token || a1.WriteKey == a3.WriteKey {
		t.Error("different seeds gave the same token or write key")
	}
	if want := seededEpoch; !s1.Created.Equal(want) || !a1.Created.Equal(want.Add(time.Second)) {
		t.Errorf("seeded clock: session %v, app %v; want %v then one second later", s1.Created, a1.Created, want)
	}
	if !hex64.MatchString(s1.Token) || !hex32.MatchString(a1.WriteKey) {
		t.Errorf("token %q or write key %q malformed", s1.Token, a1.WriteKey)
	}

	u1, u2 := run(nil)
	if u1.Token == s1.Token || !hex64.MatchString(u1.Token) || !hex32.MatchString(u2.WriteKey) {
		t.Errorf("unseeded values: %q %q", u1.Token, u2.WriteKey)
	}
	if d := time.Since(u1.Created); d < 0 || d > time.Hour || u1.Created.Nanosecond() != 0 || u1.Created.Location() != time.UTC {
		t.Errorf("unseeded clock: %v", u1.Created)
	}
}

func TestStoreReset(t *testing.T) {
	d, err := LoadSeed(fixtures.Seed())
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(d, NewSource(nil), Deviations{})
	if _, err := s.CreateUser(validUserInput("new@example.com")); err != nil {
		t.Fatal(err)
	}
	sess, _ := s.CreateSession(1)
	s.Reset(d)
	if _, err := s.User(3); !errors.Is(err, ErrNotFound) {
		t.Error("reset kept a created user")
	}
	if _, ok := s.UserIDForToken(sess.Token); ok {
		t.Error("reset kept a session")
	}
	if u, err := s.CreateUser(validUserInput("new@example.com")); err != nil || u.ID != 3 {
		t.Errorf("after reset, CreateUser = %d, %v; want id 3", u.ID, err)
	}
}

// overlay is the default seed with the files of dir replacing its own.
func overlay(t *testing.T, dir string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(fixtures.Seed(), ".", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fixtures.Seed(), path)
		m[path] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[f.Name()] = &fstest.MapFile{Data: b}
	}
	return m
}

func TestLoadSeedErrors(t *testing.T) {
	// Each testdata/broken/<case> folder must have an entry here: the words
	// the error must contain.
	want := map[string][]string{
		"unknown-client":         {"users.json", "entry 2", "unknown client id 9"},
		"unknown-field":          {"clients.json", "unknown field", "nmae"},
		"bad-hash":               {"marketapps.json", "entry 3", "40 hexadecimal"},
		"bad-json":               {"currencies.json", "unexpected EOF"},
		"profile-wrong-password": {"profile.json", "password"},
		"duplicate-email":        {"users.json", "duplicate email"},
		"bad-write-key":          {"apps.json", "entry 2", "writeKey"},
		"unknown-currency":       {"clients.json", "entry 2", "unknown currencyId 4"},
		"no-lite-plan":           {"plans.json", "isLite"},
		"trailing-data":          {"platforms.json", "after the JSON value"},
		"unknown-creator":        {"platforms.json", "unknown creatorUserId 7"},
		"primary-not-member":     {"users.json", "primaryClientId 2"},
		"bad-platform-name":      {"platforms.json", "Android or iOS"},
	}
	dirs, err := os.ReadDir("testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		seen++
		t.Run(d.Name(), func(t *testing.T) {
			words, ok := want[d.Name()]
			if !ok {
				t.Fatalf("no expectation for testdata/broken/%s", d.Name())
			}
			_, err := LoadSeed(overlay(t, filepath.Join("testdata/broken", d.Name())))
			if err == nil {
				t.Fatal("LoadSeed accepted a broken seed")
			}
			for _, w := range words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	if seen != len(want) {
		t.Errorf("%d broken folders, %d expectations", seen, len(want))
	}

	t.Run("missing file", func(t *testing.T) {
		m := overlay(t, "testdata/broken/unknown-client")
		delete(m, "phoneCountries.json")
		if _, err := LoadSeed(m); err == nil || !strings.Contains(err.Error(), "phoneCountries.json") {
			t.Errorf("error = %v, want one naming phoneCountries.json", err)
		}
	})
}

func TestLoadSeedFromDirectory(t *testing.T) {
	d, err := LoadSeed(os.DirFS("../../fixtures/seed"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.profile, profile) {
		t.Errorf("profile from the folder = %+v, want the embedded seed's %+v", d.profile, profile)
	}
	p := d.profile
	if p.Email == "" || p.Password == "" || p.APIKey == "" || p.OtherEmail == "" || p.OtherPassword == "" || p.OtherAPIKey == "" ||
		p.CurrencyID == 0 || p.PlanID == 0 || p.PlatformID == 0 || p.PhoneCountryID == 0 || p.MarketappHash == "" {
		t.Errorf("profile.json left fields empty: %+v", p)
	}
	if len(d.users) != 2 || len(d.clients) != 2 || len(d.apps) != 2 || len(d.platforms) != 2 ||
		len(d.currencies) != 3 || len(d.plans) != 3 || len(d.phoneCountries) != 5 || len(d.marketapps) != 6 {
		t.Errorf("seed sizes: %d users %d clients %d apps %d platforms %d currencies %d plans %d phone countries %d marketapps",
			len(d.users), len(d.clients), len(d.apps), len(d.platforms), len(d.currencies), len(d.plans), len(d.phoneCountries), len(d.marketapps))
	}
}

func TestProfileEnv(t *testing.T) {
	p := Profile{
		Email: "a@example.com", Password: "pa", APIKey: "ka", OtherEmail: "b@example.com", OtherPassword: "pb", OtherAPIKey: "kb",
		CurrencyID: 2, PlanID: 3, PlatformID: 4, PhoneCountryID: 5, MarketappHash: "h",
	}
	got := p.Env("http://127.0.0.1:8080/v1")
	want := []string{
		"PRICING_BASE_URL=http://127.0.0.1:8080/v1",
		"PRICING_EMAIL=a@example.com", "PRICING_PASSWORD=pa", "PRICING_API_KEY=ka",
		"PRICING_OTHER_EMAIL=b@example.com", "PRICING_OTHER_PASSWORD=pb", "PRICING_OTHER_API_KEY=kb",
		"PRICING_CURRENCY_ID=2", "PRICING_PLAN_ID=3", "PRICING_PLATFORM_ID=4", "PRICING_PHONE_COUNTRY_ID=5",
		"PRICING_MARKETAPP_HASH=h",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Env =\n%q\nwant\n%q", got, want)
	}

	p.Pairs = []AccountPair{{"a2@example.com", "pa2", "ka2", "b2@example.com", "pb2", "kb2"}, {"a3@example.com", "pa3", "ka3", "b3@example.com", "pb3", "kb3"}}
	want = append(want,
		"PRICING_EMAIL_2=a2@example.com", "PRICING_PASSWORD_2=pa2", "PRICING_API_KEY_2=ka2",
		"PRICING_OTHER_EMAIL_2=b2@example.com", "PRICING_OTHER_PASSWORD_2=pb2", "PRICING_OTHER_API_KEY_2=kb2",
		"PRICING_EMAIL_3=a3@example.com", "PRICING_PASSWORD_3=pa3", "PRICING_API_KEY_3=ka3",
		"PRICING_OTHER_EMAIL_3=b3@example.com", "PRICING_OTHER_PASSWORD_3=pb3", "PRICING_OTHER_API_KEY_3=kb3")
	if got := p.Env("http://127.0.0.1:8080/v1"); !slices.Equal(got, want) {
		t.Errorf("Env of a pool =\n%q\nwant\n%q", got, want)
	}
}

// A seed of typed values makes a store that holds them, and a value a
// store cannot hold is named by its kind and id.
func TestNewSeed(t *testing.T) {
	ext := "12"
	v := SeedValues{
		Platforms:      []Platform{{ID: 1008, Name: "iOS"}},
		Currencies:     []Currency{{ID: 1015, Code: "CHF"}},
		Plans:          []Plan{{ID: 1050, Name: "lite", IsLite: true}},
		PhoneCountries: []PhoneCountry{{ID: 1071, Name: "Switzerland (+41)", DialCode: "+41"}},
		Marketapps:     []Marketapp{{Hash: strings.Repeat("AB", 20), Name: "An app", PlatformID: 1008}},
		Clients:        []StateClient{{ID: 9_007_199_254_740_993, Name: "c", CurrencyID: 1015}},
		Users: []StateUser{{ID: 9_007_199_254_740_995, Email: "u@example.com", Password: "secret-1", APIKeys: []string{"k"},
			UserDetails: UserDetails{FirstName: "", PhoneCountryID: 1071, PhoneExtension: &ext}, ClientIDs: []int64{9_007_199_254_740_993}}},
	}
	seed, err := NewSeed(v)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(seed, NewSource(nil), Deviations{})
	if id, ok := s.UserIDForAPIKey("k"); !ok || id != 9_007_199_254_740_995 {
		t.Errorf("the API key names user %d (%v)", id, ok)
	}
	if u, err := s.Authenticate("U@example.com", "secret-1"); err != nil || u.PrimaryClientID != 9_007_199_254_740_993 {
		t.Errorf("login: %+v %v", u, err)
	}
	if _, ok := s.Marketapp(strings.Repeat("ab", 20)); !ok {
		t.Error("the marketplace app is not found by its hash in lower case")
	}
	for _, c := range []struct {
		edit func(*SeedValues)
		want string
	}{
		{func(v *SeedValues) { v.Platforms = append(v.Platforms, Platform{ID: 1008}) }, "platform 1008: two platforms have this id"},
		{func(v *SeedValues) { v.Clients[0].CurrencyID = 7 }, "client 9007199254740993: currency 7 is not among the currencies"},
		{func(v *SeedValues) { v.Users[0].ClientIDs = []int64{3} }, "user 9007199254740995: client 3 is not among the clients"},
		{func(v *SeedValues) { v.Marketapps[0].PlatformID = 1 }, "platform 1 is not among the platforms"},
		{func(v *SeedValues) { v.Currencies[0].ID = 0 }, "currency 0: an id must be positive"},
	} {
		w := v
		w.Platforms, w.Clients, w.Users, w.Marketapps, w.Currencies = slices.Clone(v.Platforms), slices.Clone(v.Clients), slices.Clone(v.Users), slices.Clone(v.Marketapps), slices.Clone(v.Currencies)
		c.edit(&w)
		_, err := NewSeed(w)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "fixture") {
			t.Errorf("got %v, want an error with %q and no fixture file", err, c.want)
		}
	}
}
