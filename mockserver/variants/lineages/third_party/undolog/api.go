// Package undolog is an implementation of the Pricing Service API built as a
// generic resource framework over an in-memory transactional store with an
// undo log. Faults (wrong and legal variants) are switched by name.
package undolog

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

type Options struct {
	Pairs int
	Fault string
}

type Account struct {
	Email, Password, APIKey string
}

type Fault struct {
	Name        string
	Legal       bool
	Rule        string
	Quote       string
	Description string
}

type Server struct {
	fault    string
	base     string
	store    *Store
	routes   []route
	accounts [][2]Account

	users   *Resource[userDraft]
	clients *Resource[clientDraft]
	apps    *Resource[appDraft]
}

func (s *Server) is(name string) bool { return s.fault == name }

func (s *Server) now() time.Time { return time.Now().UTC().Truncate(time.Second) }

func New(opts Options) (*Server, error) {
	if opts.Pairs < 0 || opts.Pairs > 500 {
		return nil, fmt.Errorf("undolog: Pairs must be between 0 and 500, got %d", opts.Pairs)
	}
	if opts.Pairs == 0 {
		opts.Pairs = 1
	}
	if opts.Fault != "" {
		found := false
		for _, f := range Faults() {
			if f.Name == opts.Fault {
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("undolog: unknown fault %q", opts.Fault)
		}
	}
	s := &Server{fault: opts.Fault, base: "/v1.0", store: newStore()}
	if s.is("base-path-v1") {
		s.base = "/v1"
	}
	s.store.emailNoUndo = s.is("rollback-skips-email-index")
	s.users = s.usersResource()
	s.clients = s.clientsResource()
	s.apps = s.appsResource()
	sessions := s.sessionsResource()

	s.routes = []route{
		{"POST", "/sessions", sessions, "create"},
		{"POST", "/users", s.users, "create"},
		{"GET", "/users/:userId", s.users, "get"},
		{"PUT", "/users/:userId", s.users, "update"},
		{"GET", "/clients", s.clients, "list"},
		{"POST", "/clients", s.clients, "create"},
		{"GET", "/clients/:clientId", s.clients, "get"},
		{"PUT", "/clients/:clientId", s.clients, "update"},
		{"GET", "/apps", s.apps, "list"},
		{"POST", "/apps", s.apps, "create"},
		{"GET", "/apps/:appId", s.apps, "get"},
		{"GET", "/platforms", s.catalogue("platform", "platforms", asAny(platforms, func(p Platform) any { return p })), "list"},
		{"GET", "/currencies", s.catalogue("currency", "currencies", asAny(currencies, func(p Currency) any { return p })), "list"},
		{"GET", "/plans", s.catalogue("plan", "plans", asAny(plans, func(p Plan) any { return p })), "list"},
		{"GET", "/phone-countries", s.catalogue("phone country", "phoneCountries", asAny(phoneCountries, func(p PhoneCountry) any { return p })), "list"},
		{"GET", "/marketapps", s.catalogue("marketapp", "marketapps", asAny(marketapps, func(m Marketapp) any {
			p, _ := platformByID(m.PlatformID)
			return marketappJSON{Hash: m.Hash, Name: m.Name, Platform: p}
		})), "list"},
	}
	s.seed(opts.Pairs)
	return s, nil
}

func (s *Server) seed(pairs int) {
	tx := s.store.Begin()
	defer tx.Commit()
	now := s.now()
	for i := 1; i <= pairs; i++ {
		var pair [2]Account
		for j, tag := range []string{"a", "b"} {
			acc := Account{
				Email:    fmt.Sprintf("user-%s%d@example.com", tag, i),
				Password: fmt.Sprintf("Passw0rd-%s%d", tag, i),
				APIKey:   randHex(16),
			}
			salt := randHex(8)
			ext := (*string)(nil)
			uid := insert(tx, s.store.users, 0, func(id int64) User {
				return User{
					ID: id, Created: now, Email: acc.Email, Salt: salt,
					PasswordHash: hashPassword(salt, acc.Password), PasswordChanged: now,
					FirstName: strings.ToUpper(tag) + "-First", LastName: fmt.Sprintf("Seed%d", i),
					PhoneCountryID: 2, PhoneNumber: fmt.Sprintf("7700 900%03d", i%1000),
					PhoneExtension: ext, Timezone: "Europe/London", APIKey: acc.APIKey,
				}
			})
			tx.idxSet(s.store.byEmail, s.emailKey(acc.Email), uid, true)
			tx.idxSet(s.store.byAPIKey, acc.APIKey, uid, true)
			insert(tx, s.store.clients, 0, func(id int64) Client {
				return Client{
					ID: id, Created: now, Name: fmt.Sprintf("Client %s%d", strings.ToUpper(tag), i),
					Line1: "1 Test Street", City: "London", Postcode: "SW1A 1AA", Country: "United Kingdom",
					CurrencyID: 3, Members: []int64{uid},
				}
			})
			pair[j] = acc
		}
		s.accounts = append(s.accounts, pair)
	}
}

func (s *Server) BasePath() string { return s.base }

func (s *Server) Accounts() [][2]Account {
	out := make([][2]Account, len(s.accounts))
	copy(out, s.accounts)
	return out
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if s.is("route-matches-escaped-path") {
		path = r.URL.EscapedPath()
	}
	c := &Ctx{s: s, w: w, r: r}
	defer func() {
		if c.status != 0 {
			s.writeErrors(w, c.status, c.errs)
		}
	}()
	if !strings.HasPrefix(path, s.base+"/") {
		c.fail(http.StatusNotFound, "", "NotFound", "no such endpoint")
		return
	}
	rest := path[len(s.base):]
	var allowed []string
	for _, rt := range s.routes {
		params, ok := matchPattern(rt.pattern, rest)
		if !ok {
			continue
		}
		if rt.method != r.Method {
			allowed = append(allowed, rt.method)
			continue
		}
		c.params = params
		rt.res.serve(c, rt.action)
		return
	}
	if len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		c.fail(http.StatusMethodNotAllowed, "", "MethodNotAllowed", "method not allowed")
		return
	}
	c.fail(http.StatusNotFound, "", "NotFound", "no such endpoint")
}
