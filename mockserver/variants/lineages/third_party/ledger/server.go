// Package ledger is an independent implementation of the Pricing Service
// API, built from the API specification alone. All state lives in an
// append-only ledger of events owned by one writer goroutine; readers take
// consistent snapshots (see ledger.go). Faults() lists switchable wrong
// behaviours and legal readings.
package ledger

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"
)

// Options configures a server.
type Options = lineage.Options

// Account is a seeded account's credentials.
type Account = lineage.Account

// Server is the Pricing Service.
type Server struct {
	fault    string
	secret   string
	cmds     chan cmdReq
	snap     atomic.Pointer[view]
	ledgerMu sync.Mutex
	base     *view
	ledger   []event
	accounts [][2]Account

	clockMu sync.Mutex
	last    time.Time

	cacheMu     sync.Mutex
	clientCache map[int64][]byte // stale-client-read fault only
}

const (
	maxBody     = 64 << 10
	maxUsers    = 20000
	maxClients  = 20000
	maxApps     = 50000
	maxSessions = 50000
	maxPairs    = 500
)

// New builds a seeded server.
func New(opts Options) (*Server, error) {
	if opts.Fault != "" {
		ok := false
		for _, f := range Faults() {
			if f.Name == opts.Fault {
				ok = true
			}
		}
		if !ok {
			return nil, fmt.Errorf("ledger: unknown fault %q", opts.Fault)
		}
	}
	pairs := opts.Pairs
	if pairs == 0 {
		pairs = 1
	}
	if pairs < 0 || pairs > maxPairs {
		return nil, fmt.Errorf("ledger: Pairs must be between 0 and %d", maxPairs)
	}
	s := &Server{
		fault:       opts.Fault,
		secret:      randHex(16),
		cmds:        make(chan cmdReq),
		clientCache: map[int64][]byte{},
	}
	s.base = emptyView()
	s.snap.Store(s.base)
	go s.writer()

	for i := 1; i <= pairs; i++ {
		var pair [2]Account
		for j, side := range []string{"a", "b"} {
			acc := Account{
				Email:    fmt.Sprintf("ledger.%s%d@example.test", side, i),
				Password: "Pw-" + randHex(6),
				APIKey:   "ldg_" + randHex(16),
			}
			pair[j] = acc
			name := strings.ToUpper(side)
			_, err := s.exec(func(v *view, now time.Time) ([]event, any, *apiError) {
				u := &userRec{
					ID: v.NextUser, Created: now, Email: acc.Email,
					PasswordLastChanged: now,
					FirstName:           "Ledger" + name, LastName: fmt.Sprintf("Pair%d", i),
					SubWelcome: true, PhoneCountryID: 1,
					PhoneNumber: fmt.Sprintf("7700 900%03d", i*2+j), Timezone: "Europe/London",
					APIKey: acc.APIKey,
				}
				s.setPassword(u, acc.Password, now)
				c := &clientRec{
					ID: v.NextClient, Created: now, Name: fmt.Sprintf("Ledger %s%d Ltd", name, i),
					AddressLine1: fmt.Sprintf("%d Ledger Street", i), AddressCity: "London",
					AddressPostcode: "EC1A 1BB", AddressCountry: "United Kingdom", CurrencyID: 2,
				}
				return []event{
					{Kind: evUserPut, User: u},
					{Kind: evClientPut, Client: c},
					{Kind: evMemberAdd, UserID: u.ID, ClientID: c.ID},
				}, nil, nil
			})
			if err != nil {
				return nil, fmt.Errorf("ledger: seeding: %s", err.msg)
			}
		}
		s.accounts = append(s.accounts, pair)
	}
	return s, nil
}

// BasePath is the path of the base URL, with the version segment.
func (s *Server) BasePath() string { return "/api/v1" }

// Accounts returns the seeded pairs, A then B.
func (s *Server) Accounts() [][2]Account {
	out := make([][2]Account, len(s.accounts))
	copy(out, s.accounts)
	return out
}

func (s *Server) is(name string) bool { return s.fault == name }

// now returns a strictly increasing millisecond-precision UTC time.
func (s *Server) now() time.Time {
	s.clockMu.Lock()
	defer s.clockMu.Unlock()
	t := time.Now().UTC().Truncate(time.Millisecond)
	if !t.After(s.last) {
		t = s.last.Add(time.Millisecond)
	}
	s.last = t
	return t
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *Server) hashPassword(salt, pw string) string {
	h := sha256.Sum256([]byte(s.secret + "\x00" + salt + "\x00" + pw))
	return hex.EncodeToString(h[:])
}

// setPassword replaces u's password (u must be a fresh copy).
func (s *Server) setPassword(u *userRec, pw string, now time.Time) {
	if s.is("old-password-valid") && u.PwHash != "" {
		u.PrevHashes = append(append([]string(nil), u.PrevHashes...), u.PwSalt+":"+u.PwHash)
	}
	u.PwSalt = randHex(8)
	u.PwHash = s.hashPassword(u.PwSalt, pw)
	u.PasswordLastChanged = now
}

func (s *Server) checkPassword(u *userRec, pw string) bool {
	if s.hashPassword(u.PwSalt, pw) == u.PwHash {
		return true
	}
	for _, p := range u.PrevHashes {
		salt, h, _ := strings.Cut(p, ":")
		if s.hashPassword(salt, pw) == h {
			return true
		}
	}
	return false
}

// ---- routing ----

type route struct {
	res    string // first segment
	withID bool
}

type endpoint struct {
	auth bool // needs authentication
	h    func(s *Server, w http.ResponseWriter, r *http.Request, p *principal, id int64)
}

var routes = map[route]map[string]endpoint{
	{"sessions", false}:       {"POST": {false, (*Server).postSession}},
	{"users", false}:          {"POST": {false, (*Server).postUser}},
	{"users", true}:           {"GET": {true, (*Server).getUser}, "PUT": {true, (*Server).putUser}},
	{"clients", false}:        {"GET": {true, (*Server).listClients}, "POST": {true, (*Server).postClient}},
	{"clients", true}:         {"GET": {true, (*Server).getClient}, "PUT": {true, (*Server).putClient}},
	{"apps", false}:           {"GET": {true, (*Server).listApps}, "POST": {true, (*Server).postApp}},
	{"apps", true}:            {"GET": {true, (*Server).getApp}},
	{"platforms", false}:      {"GET": {true, (*Server).listCatalogue}},
	{"currencies", false}:     {"GET": {true, (*Server).listCatalogue}},
	{"plans", false}:          {"GET": {true, (*Server).listCatalogue}},
	{"phonecountries", false}: {"GET": {true, (*Server).listCatalogue}},
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			writeErr(w, &apiError{status: 500, code: "InternalError", msg: "internal error"})
		}
	}()
	rest, ok := s.stripBase(r.URL.Path)
	if !ok {
		s.writeErr(w, errNotFound("no such resource"))
		return
	}
	segs := strings.Split(rest, "/")
	if len(segs) == 0 || len(segs) > 2 {
		s.writeErr(w, errNotFound("no such resource"))
		return
	}
	rt := route{res: segs[0], withID: len(segs) == 2}
	methods, ok := routes[rt]
	if !ok {
		s.writeErr(w, errNotFound("no such resource"))
		return
	}
	ep, ok := methods[r.Method]
	if !ok {
		allow := make([]string, 0, len(methods))
		for _, m := range []string{"GET", "POST", "PUT"} {
			if _, ok := methods[m]; ok {
				allow = append(allow, m)
			}
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.writeErr(w, &apiError{status: 405, code: "MethodNotAllowed", msg: "method not allowed on this resource"})
		return
	}
	var id int64 = -1
	if rt.withID {
		id = parsePathID(segs[1])
	}
	if s.is("lookup-before-auth") && rt.withID && !s.exists(rt.res, id) {
		s.writeErr(w, errNotFound(rt.res+" not found"))
		return
	}
	var p *principal
	needAuth := ep.auth
	if s.is("public-catalogues") && rt.res != "users" && rt.res != "clients" && rt.res != "apps" {
		needAuth = false
	}
	if needAuth {
		var aerr *apiError
		p, aerr = s.authenticate(r)
		if aerr != nil {
			s.writeErr(w, aerr)
			return
		}
	}
	ep.h(s, w, r, p, id)
}

func (s *Server) stripBase(path string) (string, bool) {
	prefixes := []string{"/api/v1/", "/api/v1.0/"}
	if s.is("v1-only") {
		prefixes = prefixes[:1]
	}
	for _, pre := range prefixes {
		if rest, ok := strings.CutPrefix(path, pre); ok && rest != "" {
			return rest, true
		}
	}
	return "", false
}

// parsePathID returns the id, or -1 when the segment is not a positive
// decimal number (such a resource cannot exist).
func parsePathID(seg string) int64 {
	if seg == "" || len(seg) > 18 {
		return -1
	}
	for _, c := range seg {
		if c < '0' || c > '9' {
			return -1
		}
	}
	n, err := strconv.ParseInt(seg, 10, 64)
	if err != nil || n <= 0 {
		return -1
	}
	return n
}

func (s *Server) exists(res string, id int64) bool {
	v := s.view()
	switch res {
	case "users":
		return v.Users[id] != nil
	case "clients":
		return v.Clients[id] != nil
	case "apps":
		return v.Apps[id] != nil
	}
	return false
}
