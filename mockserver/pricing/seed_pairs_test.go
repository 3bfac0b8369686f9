package pricing

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pricing-contract/pricing-contract/fixtures"
)

// TestAccountPairs: the seed with eight pairs keeps the default seed's
// accounts and adds six users, clients and apps that copy them; every
// account logs in with the profile's password and key, as its own user of
// its own client.
func TestAccountPairs(t *testing.T) {
	d, err := LoadSeed(AccountPairs(fixtures.Seed(), 8))
	if err != nil {
		t.Fatalf("LoadSeed: %v", err)
	}
	p := d.Profile()
	if len(p.Pairs) != 7 {
		t.Fatalf("%d pairs after the first, want 7: %+v", len(p.Pairs), p.Pairs)
	}
	want2 := AccountPair{"qa-2@example.com", "qa-password-2", "qa-api-key-2", "other-2@example.com", "other-password-2", "other-api-key-2"}
	if p.Pairs[0] != want2 {
		t.Errorf("pair 2 = %+v, want %+v", p.Pairs[0], want2)
	}
	first := p
	first.Pairs = nil
	if !reflect.DeepEqual(first, profile) {
		t.Errorf("pair 1 and the ids = %+v, want the default seed's %+v", first, profile)
	}
	if len(d.users) != 16 || len(d.clients) != 16 || len(d.apps) != 16 {
		t.Errorf("%d users, %d clients, %d apps; want 16 of each", len(d.users), len(d.clients), len(d.apps))
	}

	s := NewStore(d, NewSource(seedOf(1)), Deviations{})
	users, clients := map[int64]bool{}, map[int64]bool{}
	accounts := [][3]string{{p.Email, p.Password, p.APIKey}, {p.OtherEmail, p.OtherPassword, p.OtherAPIKey}}
	for _, pr := range p.Pairs {
		accounts = append(accounts, [3]string{pr.Email, pr.Password, pr.APIKey}, [3]string{pr.OtherEmail, pr.OtherPassword, pr.OtherAPIKey})
	}
	for _, a := range accounts {
		u, err := s.Authenticate(a[0], a[1])
		if err != nil {
			t.Errorf("%s cannot log in: %v", a[0], err)
			continue
		}
		if id, ok := s.UserIDForAPIKey(a[2]); !ok || id != u.ID {
			t.Errorf("api key %s: user %d %v, want %d", a[2], id, ok, u.ID)
		}
		if users[u.ID] || clients[u.PrimaryClientID] || u.PrimaryClientID == 0 {
			t.Errorf("%s: user %d of client %d is not a user of its own client", a[0], u.ID, u.PrimaryClientID)
		}
		users[u.ID], clients[u.PrimaryClientID] = true, true
		apps, err := s.AppsOfClient(u.PrimaryClientID)
		if err != nil || len(apps) != 1 {
			t.Errorf("%s: client %d has apps %v (%v), want a copy of the seed's one", a[0], u.PrimaryClientID, apps, err)
		}
	}
	if got, _ := s.User(userID(t, s, "qa-3@example.com")); got.FirstName != "Quinn" || got.Timezone != "Europe/London" {
		t.Errorf("the copy of account A is %+v, want Quinn Assurance's names", got)
	}
}

func userID(t *testing.T, s *Store, email string) int64 {
	t.Helper()
	for id := int64(1); id < 100; id++ {
		if u, err := s.User(id); err == nil && u.Email == email {
			return id
		}
	}
	t.Fatalf("no user %s", email)
	return 0
}

// TestAccountPairsKeepsWhatIsThere: one pair is the seed itself, and a
// folder with pairs already gets only the ones it lacks.
func TestAccountPairsKeepsWhatIsThere(t *testing.T) {
	for _, n := range []int{0, 1} {
		d, err := LoadSeed(AccountPairs(fixtures.Seed(), n))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(d.Profile(), profile) || len(d.users) != 2 || len(d.clients) != 2 || len(d.apps) != 2 {
			t.Errorf("AccountPairs(seed, %d): %v, profile %+v, %d users; want the seed", n, err, d.Profile(), len(d.users))
		}
	}
	d, err := LoadSeed(AccountPairs(AccountPairs(fixtures.Seed(), 3), 5))
	if err != nil {
		t.Fatal(err)
	}
	var emails []string
	for _, pr := range d.Profile().Pairs {
		emails = append(emails, pr.Email)
	}
	if strings.Join(emails, " ") != "qa-2@example.com qa-3@example.com qa-4@example.com qa-5@example.com" {
		t.Errorf("pairs of a folder with two: %v", emails)
	}
	// The directory listing and the other files are the folder's own.
	entries, err := fs.ReadDir(AccountPairs(fixtures.Seed(), 4), ".")
	if err != nil || len(entries) != 9 {
		t.Errorf("ReadDir: %d entries, %v", len(entries), err)
	}
	f, err := AccountPairs(fixtures.Seed(), 4).Open("users.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Name() != "users.json" || fi.Size() == 0 || fi.IsDir() {
		t.Errorf("Stat of a made file: %v %v", fi, err)
	}
}

// TestSeedPairsAreChecked: the pairs of profile.json log in with their
// credentials, and no user or client is in two places of the pool.
func TestSeedPairsAreChecked(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(profile string) string
		words []string
	}{
		{"a wrong password", func(p string) string { return strings.Replace(p, `"other-password-2"`, `"nope"`, 1) },
			[]string{"profile.json", "pairs[0].otherEmail's password"}},
		{"an unknown user", func(p string) string { return strings.Replace(p, `"qa-3@example.com"`, `"nobody@example.com"`, 1) },
			[]string{"profile.json", "pairs[1].email's email", "nobody@example.com"}},
		{"a user in two pairs", func(p string) string {
			p = strings.Replace(p, `"qa-3@example.com"`, `"QA-2@example.com"`, 1)
			p = strings.Replace(p, `"qa-password-3"`, `"qa-password-2"`, 1)
			return strings.Replace(p, `"qa-api-key-3"`, `"qa-api-key-2"`, 1)
		}, []string{"profile.json", "pairs[0].email and pairs[1].email name the same user"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fstest.MapFS{}
			src := AccountPairs(fixtures.Seed(), 3)
			for _, name := range append(pairFiles, "platforms.json", "currencies.json", "plans.json", "phoneCountries.json", "marketapps.json") {
				b, err := fs.ReadFile(src, name)
				if err != nil {
					t.Fatal(err)
				}
				m[name] = &fstest.MapFile{Data: b}
			}
			m["profile.json"].Data = []byte(tt.edit(string(m["profile.json"].Data)))
			_, err := LoadSeed(m)
			if err == nil {
				t.Fatal("LoadSeed accepted it")
			}
			for _, w := range tt.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}

	t.Run("two accounts of one client", func(t *testing.T) {
		m := fstest.MapFS{}
		src := AccountPairs(fixtures.Seed(), 2)
		for _, name := range append(pairFiles, "platforms.json", "currencies.json", "plans.json", "phoneCountries.json", "marketapps.json") {
			b, _ := fs.ReadFile(src, name)
			m[name] = &fstest.MapFile{Data: b}
		}
		// The copy of account A joins client 1 instead of its own client 3.
		users := strings.Replace(string(m["users.json"].Data), `"clientIds": [
      3
    ],
    "primaryClientId": 3`, `"clientIds": [
      1
    ],
    "primaryClientId": 1`, 1)
		if users == string(m["users.json"].Data) {
			t.Fatalf("users.json has no user of client 3:\n%s", users)
		}
		m["users.json"].Data = []byte(users)
		_, err := LoadSeed(m)
		if err == nil || !strings.Contains(err.Error(), "share client 1") {
			t.Errorf("LoadSeed: %v, want an error on a shared client", err)
		}
	})
}
