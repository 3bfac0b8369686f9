// Package documents is an in-memory server of the pricing-management API
// (users, clients, apps, sessions) built on a document store: every user,
// client, app and session is one JSON document guarded by its own lock.
//
// Options.Fault switches on one departure from the correct server, either a
// bug or another reading the specification allows; see Faults.
package documents

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"
)

// Account is one login of the seed: a user with its own client.
type Account = lineage.Account

// Options configures New. Pairs is how many pairs of accounts to seed: 0
// means 1; < 0 or > 1000 is refused. Fault "" is the correct server;
// otherwise one of Faults()[i].Name.
type Options = lineage.Options

// Server is the API. It is safe for concurrent use.
type Server struct {
	fault string

	users    *collection
	clients  *collection
	apps     *collection
	sessions *collection

	// idx guards the secondary indexes. Lock order everywhere: a user
	// document, then a client document, then an app or session document,
	// then idx. Nothing is locked while idx is held.
	idx     sync.Mutex
	emails  map[string]int64 // lower-cased email -> user id; 0 while a sign-up is pending
	apiKeys map[string]int64 // api key -> user id
	tokens  map[string]int64 // session token -> session id

	signups atomic.Int64

	// lastApp only serves the app-response-from-shared-slot fault.
	lastAppMu sync.Mutex
	lastApp   []byte

	accounts [][2]Account
}

const (
	basePath = "/v1"
	// The endpoint pages write the version as v1.0; both name the one version.
	basePathLong = "/v1.0"

	// Bounds on what clients can make, so that memory stays bounded.
	maxPairs           = 1000
	maxSignups         = 2000
	maxClientsPerUser  = 50
	maxClients         = 20000
	maxAppsPerClient   = 500
	maxApps            = 50000
	maxSessionsPerUser = 100
)

// New builds a seeded server.
func New(opts Options) (*Server, error) {
	pairs := opts.Pairs
	if pairs == 0 {
		pairs = 1
	}
	if pairs < 0 || pairs > maxPairs {
		return nil, fmt.Errorf("documents: Pairs must be between 0 and %d, got %d", maxPairs, opts.Pairs)
	}
	if opts.Fault != "" && !knownFault(opts.Fault) {
		return nil, fmt.Errorf("documents: unknown fault %q", opts.Fault)
	}
	s := &Server{
		fault:    opts.Fault,
		users:    newCollection(100001),
		clients:  newCollection(200001),
		apps:     newCollection(300001),
		sessions: newCollection(400001),
		emails:   map[string]int64{},
		apiKeys:  map[string]int64{},
		tokens:   map[string]int64{},
	}
	s.seed(pairs)
	return s, nil
}

// BasePath is the path part of the API's base URL, version segment included.
func (s *Server) BasePath() string { return basePath }

// Accounts are the seeded pairs: Accounts()[i] = (account A, account B) of pair i.
func (s *Server) Accounts() [][2]Account { return slices.Clone(s.accounts) }

func (s *Server) is(name string) bool { return s.fault == name }

func (s *Server) bases() []string {
	if s.is(fOnlyV1BasePath) {
		return []string{basePath}
	}
	return []string{basePath, basePathLong}
}

// endpoint is one method of one route.
type endpoint struct {
	public bool
	run    func(s *Server, r *http.Request, p principal, arg string) reply
}

type route map[string]endpoint

func (s *Server) match(segs []string) (route, string) {
	switch len(segs) {
	case 1:
		switch segs[0] {
		case "sessions":
			return route{http.MethodPost: {public: true, run: (*Server).postSession}}, ""
		case "users":
			return route{http.MethodPost: {public: true, run: (*Server).postUser}}, ""
		case "clients":
			return route{http.MethodGet: {run: (*Server).listClients}, http.MethodPost: {run: (*Server).postClient}}, ""
		case "apps":
			return route{http.MethodGet: {run: (*Server).listApps}, http.MethodPost: {run: (*Server).postApp}}, ""
		case "platforms", "currencies", "plans", "phonecountries":
			return route{http.MethodGet: {public: s.is(fReferencePublic), run: (*Server).listCatalog}}, segs[0]
		}
	case 2:
		if segs[1] == "" {
			return nil, ""
		}
		switch segs[0] {
		case "users":
			return route{http.MethodGet: {run: (*Server).getUser}, http.MethodPut: {run: (*Server).putUser}}, segs[1]
		case "clients":
			return route{http.MethodGet: {run: (*Server).getClient}, http.MethodPut: {run: (*Server).putClient}}, segs[1]
		case "apps":
			return route{http.MethodGet: {run: (*Server).getApp}}, segs[1]
		}
	}
	return nil, ""
}

func (rt route) allow() string {
	var ms []string
	for m := range rt {
		ms = append(ms, m)
		if m == http.MethodGet {
			ms = append(ms, http.MethodHead)
		}
	}
	ms = append(ms, http.MethodOptions)
	sort.Strings(ms)
	return strings.Join(ms, ", ")
}

// ServeHTTP answers one request of the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.send(w, r, s.handle(r))
}

func (s *Server) handle(r *http.Request) reply {
	base, rest, ok := s.stripBase(r.URL.Path)
	if !ok {
		return notFound("no such resource")
	}
	if s.is(fAcceptWildcard406) {
		if a := r.Header.Get("Accept"); a != "" && !strings.HasPrefix(a, "application/json") {
			return failure(http.StatusNotAcceptable, "NotAcceptable", "only application/json is served")
		}
	}
	if rest == "" || rest == "/" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return reply{status: http.StatusMethodNotAllowed, body: oneError("", "MethodNotAllowed", "method not allowed"), header: map[string]string{"Allow": "GET, HEAD"}}
		}
		return reply{status: http.StatusOK, body: s.index(base)}
	}
	rt, arg := s.match(strings.Split(rest[1:], "/"))
	if rt == nil {
		return notFound("no such resource")
	}
	method := r.Method
	if method == http.MethodOptions {
		return reply{status: http.StatusNoContent, header: map[string]string{"Allow": rt.allow()}}
	}
	if method == http.MethodHead {
		method = http.MethodGet
	}
	ep, ok := rt[method]
	if !ok {
		return reply{status: http.StatusMethodNotAllowed, body: oneError("", "MethodNotAllowed", "method not allowed on this resource"), header: map[string]string{"Allow": rt.allow()}}
	}
	var p principal
	if !ep.public {
		if p, ok = s.authenticate(r); !ok {
			return unauthorized()
		}
	}
	return ep.run(s, r, p, arg)
}

func (s *Server) stripBase(path string) (base, rest string, ok bool) {
	for _, b := range s.bases() {
		if path == b {
			return b, "", true
		}
		if strings.HasPrefix(path, b+"/") {
			return b, path[len(b):], true
		}
	}
	return "", "", false
}

// index lets a client discover the collections without guessing paths.
func (s *Server) index(base string) map[string]any {
	res := map[string]string{}
	for _, n := range []string{"sessions", "users", "clients", "apps", "platforms", "currencies", "plans", "phonecountries"} {
		res[n] = base + "/" + n
	}
	return map[string]any{"version": "v1", "resources": res}
}
