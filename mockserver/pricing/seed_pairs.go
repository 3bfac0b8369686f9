package pricing

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"
)

// checkPairs checks the pairs of profile.json after the first: each
// account logs in with its password and key, and no user or client is in
// two places of the pool, since the suite runs scenarios on two pairs at
// once.
func (d *Seed) checkPairs(account func(what, email, password, key string) error) error {
	p := d.profile
	if len(p.Pairs) == 0 {
		return nil
	}
	type place struct{ what, email string }
	places := []place{{"email", p.Email}, {"otherEmail", p.OtherEmail}}
	for i, pr := range p.Pairs {
		what := fmt.Sprintf("pairs[%d]", i)
		if err := account(what+".email's", pr.Email, pr.Password, pr.APIKey); err != nil {
			return err
		}
		if err := account(what+".otherEmail's", pr.OtherEmail, pr.OtherPassword, pr.OtherAPIKey); err != nil {
			return err
		}
		places = append(places, place{what + ".email", pr.Email}, place{what + ".otherEmail", pr.OtherEmail})
	}
	users, clients := map[string]string{}, map[int64]string{}
	for _, pl := range places {
		email := strings.ToLower(pl.email)
		if other, ok := users[email]; ok {
			return fmt.Errorf("fixture profile.json: %s and %s name the same user %s: every account of the pool must be a user of its own", other, pl.what, pl.email)
		}
		users[email] = pl.what
		for _, u := range d.users {
			if !strings.EqualFold(u.Email, pl.email) {
				continue
			}
			c := primaryClient(u)
			if other, ok := clients[c]; ok && c != 0 {
				return fmt.Errorf("fixture profile.json: the users of %s and %s share client %d: every account of the pool needs a client of its own", other, pl.what, c)
			}
			clients[c] = pl.what
		}
	}
	return nil
}

// primaryClient is the id of the user's primary client, 0 for none.
func primaryClient(u StateUser) int64 {
	switch {
	case u.PrimaryClientID != 0:
		return u.PrimaryClientID
	case len(u.ClientIDs) > 0:
		return u.ClientIDs[0]
	}
	return 0
}

// AccountPairs is the seed folder fsys with n pairs of accounts in its
// profile (pricing-mock --accounts N), for a contract suite that runs the
// scenarios changing an account at once, each on a pair of its own. Each
// pair the folder lacks is a copy of its first pair: two new users, each
// with a copy of the original's primary client and of that client's apps,
// and the credentials of the first pair with -N added (qa-2@example.com,
// qa-password-2, qa-api-key-2). The files it changes (users.json,
// clients.json, apps.json, profile.json) are made on every read, so the
// folder may be watched; an error shows when the seed is loaded.
func AccountPairs(fsys fs.FS, n int) fs.FS { return pairsFS{fsys, n} }

type pairsFS struct {
	fsys fs.FS
	n    int
}

// pairFiles are the files AccountPairs changes.
var pairFiles = []string{"users.json", "clients.json", "apps.json", "profile.json"}

func (f pairsFS) Open(name string) (fs.File, error) {
	if !slices.Contains(pairFiles, name) {
		return f.fsys.Open(name)
	}
	data, err := f.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return &memFile{Reader: bytes.NewReader(data), name: name, size: int64(len(data))}, nil
}

func (f pairsFS) ReadFile(name string) ([]byte, error) {
	if !slices.Contains(pairFiles, name) {
		return fs.ReadFile(f.fsys, name)
	}
	var (
		users   []StateUser
		clients []StateClient
		apps    []StateApp
		p       seedProfile
	)
	for _, file := range []struct {
		name string
		v    any
	}{{"users.json", &users}, {"clients.json", &clients}, {"apps.json", &apps}, {"profile.json", &p}} {
		if err := readFixture(f.fsys, file.name, file.v); err != nil {
			return nil, err
		}
	}
	s := pairSeed{users: users, clients: clients, apps: apps}
	for k := len(p.Pairs) + 2; k <= f.n; k++ {
		a, err := s.copyAccount(p.Email, p.Password, p.APIKey, k)
		if err != nil {
			return nil, err
		}
		b, err := s.copyAccount(p.OtherEmail, p.OtherPassword, p.OtherAPIKey, k)
		if err != nil {
			return nil, err
		}
		p.Pairs = append(p.Pairs, seedPair{a[0], a[1], a[2], b[0], b[1], b[2]})
	}
	out := map[string]any{"users.json": s.users, "clients.json": s.clients, "apps.json": s.apps, "profile.json": p}[name]
	return json.MarshalIndent(out, "", "  ")
}

// pairSeed is the seed's users, clients and apps, growing by copies.
type pairSeed struct {
	users   []StateUser
	clients []StateClient
	apps    []StateApp
}

// copyAccount adds pair k's copy of the user of email, with its primary
// client and that client's apps, and returns its email, password and key.
func (s *pairSeed) copyAccount(email, password, key string, k int) ([3]string, error) {
	i := slices.IndexFunc(s.users, func(u StateUser) bool { return strings.EqualFold(u.Email, email) })
	if i < 0 {
		return [3]string{}, fmt.Errorf("fixture profile.json: email %q is not a user in users.json", email)
	}
	suffix := "-" + strconv.Itoa(k)
	u := s.users[i]
	local, domain, _ := strings.Cut(u.Email, "@")
	u.ID = nextID(s.users, func(u StateUser) int64 { return u.ID })
	u.Email = local + suffix + "@" + domain
	u.Password, u.PasswordSalt, u.PasswordHash = password+suffix, "", ""
	u.APIKeys, u.APIKeyHashes = []string{key + suffix}, nil
	u.ClientIDs, u.PrimaryClientID = nil, 0
	if c := primaryClient(s.users[i]); c != 0 {
		j := slices.IndexFunc(s.clients, func(cl StateClient) bool { return cl.ID == c })
		if j < 0 {
			return [3]string{}, fmt.Errorf("fixture users.json: user %d: unknown client id %d", s.users[i].ID, c)
		}
		cl := s.clients[j]
		cl.ID = nextID(s.clients, func(c StateClient) int64 { return c.ID })
		for _, a := range s.apps {
			if a.ClientID != c {
				continue
			}
			sum := sha256.Sum256([]byte(a.WriteKey + suffix))
			a.ID = nextID(s.apps, func(a StateApp) int64 { return a.ID })
			a.ClientID, a.WriteKey = cl.ID, hex.EncodeToString(sum[:16])
			s.apps = append(s.apps, a)
		}
		s.clients = append(s.clients, cl)
		u.ClientIDs, u.PrimaryClientID = []int64{cl.ID}, cl.ID
	}
	s.users = append(s.users, u)
	return [3]string{u.Email, u.Password, u.APIKeys[0]}, nil
}

// nextID is one more than the largest id of items.
func nextID[T any](items []T, id func(T) int64) int64 {
	var most int64
	for _, it := range items {
		most = max(most, id(it))
	}
	return most + 1
}

// memFile is a file made by AccountPairs.
type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f, nil }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Name() string               { return f.name }
func (f *memFile) Size() int64                { return f.size }
func (f *memFile) Mode() fs.FileMode          { return 0o444 }
func (f *memFile) ModTime() time.Time         { return time.Time{} }
func (f *memFile) IsDir() bool                { return false }
func (f *memFile) Sys() any                   { return nil }

var _ fs.ReadFileFS = pairsFS{}
