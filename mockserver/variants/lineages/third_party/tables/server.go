// Package tables is an independent implementation of the Pricing Service API,
// written from the specification alone. Its store is shaped like relational
// tables behind one RWMutex, and every write is validated completely before
// it is applied as one transaction. Faults() lists deliberate bugs that can
// be switched on to check that a contract-test suite notices them.
package tables

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"
)

// Account is one login: a user of a client, with its password and api key.
type Account = lineage.Account

// Options configure a server: Options.Fault names one of Faults().
type Options = lineage.Options

const (
	basePath     = "/api/v1.0"
	maxPairs     = 1000
	sessionLife  = 24 * time.Hour
	dateLayout   = "2006-01-02T15:04:05.000Z"
	jsonType     = "application/json; charset=utf-8"
	allowedMajor = "v1"
)

// Server is one independent instance of the service with its own data.
type Server struct {
	mu       sync.RWMutex
	t        *tables
	fault    string
	accounts [][2]Account
	mux      *http.ServeMux
}

// New builds a server seeded with opts.Pairs pairs of accounts.
func New(opts Options) (*Server, error) {
	if opts.Fault != "" {
		known := false
		for _, f := range Faults() {
			known = known || f.Name == opts.Fault
		}
		if !known {
			return nil, fmt.Errorf("tables: unknown fault %q", opts.Fault)
		}
	}
	switch {
	case opts.Pairs == 0:
		opts.Pairs = 1
	case opts.Pairs < 0 || opts.Pairs > maxPairs:
		return nil, fmt.Errorf("tables: Pairs must be between 1 and %d, not %d", maxPairs, opts.Pairs)
	}
	s := &Server{t: newTables(), fault: opts.Fault}
	s.accounts = s.seed(opts.Pairs, now())
	s.routes()
	return s, nil
}

// BasePath is the path part of {base_url}.
func (s *Server) BasePath() string { return basePath }

// Accounts returns the seeded pairs of accounts.
func (s *Server) Accounts() [][2]Account { return slices.Clone(s.accounts) }

func (s *Server) is(fault string) bool { return s.fault == fault }

// now is truncated to the millisecond because dates are answered with
// milliseconds, and a stored date must be exactly the date answered.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

func date(t time.Time) string { return t.UTC().Format(dateLayout) }

type bodyKey struct{}

// ServeHTTP does what a reverse proxy in front of the application would:
// route on the version segment and refuse oversized or over-deep bodies,
// all before any credential is looked at. The rest is the ServeMux's.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		// A panic is a bug of this server, but a client must still get an
		// answer rather than a dropped connection.
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			writeJSON(w, http.StatusInternalServerError, errorBody{"InternalError", fmt.Sprint(v)})
		}
	}()

	rest, ok := s.stripVersion(r.URL.Path)
	// An unclean path would make the ServeMux redirect to a location
	// without the base path; it names no resource here.
	if !ok || path.Clean(rest) != rest {
		writeJSON(w, http.StatusNotFound, errorBody{"NotFound", "no such version or resource"})
		return
	}
	if r.ContentLength > maxBodyBytes {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorBody{"PayloadTooLarge", "the request body is larger than 64 KiB"})
		return
	}
	var body []byte
	if r.Body != nil {
		var err error
		body, err = io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
		if err != nil {
			s.write(w, invalid([]apiError{{"", "MalformedBody", "the request body could not be read"}}))
			return
		}
	}
	if len(body) > maxBodyBytes {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorBody{"PayloadTooLarge", "the request body is larger than 64 KiB"})
		return
	}
	if tooDeep(body, maxDepth) {
		s.write(w, invalid([]apiError{{"", "BodyTooDeep", "the JSON body nests deeper than 20 levels"}}))
		return
	}

	r2 := r.Clone(context.WithValue(r.Context(), bodyKey{}, body))
	r2.URL.Path, r2.URL.RawPath = rest, ""
	r2.Body = io.NopCloser(bytes.NewReader(body))
	s.mux.ServeHTTP(w, r2)
}

// stripVersion serves v1 and v1.0, the two spellings of the one version.
func (s *Server) stripVersion(p string) (string, bool) {
	const api = "/api/"
	if !strings.HasPrefix(p, api) {
		return "", false
	}
	version, rest, found := strings.Cut(p[len(api):], "/")
	if !found {
		return "", false
	}
	if version != allowedMajor && version != allowedMajor+".0" &&
		!(s.is(fAnyVersionServed) && strings.HasPrefix(version, "v") && len(version) > 1) {
		return "", false
	}
	return "/" + rest, true
}

func bodyOf(r *http.Request) []byte {
	b, _ := r.Context().Value(bodyKey{}).([]byte)
	return b
}

// reply is what a handler answers; write turns it into HTTP.
type reply struct {
	status int
	body   any
}

type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

func success(body any) reply { return reply{http.StatusOK, body} }

func invalid(errs []apiError) reply { return reply{http.StatusBadRequest, errs} }

func unauthorized() reply {
	return reply{http.StatusUnauthorized, errorBody{"Unauthorized", "the request is not authenticated"}}
}

func forbidden(msg string) reply {
	return reply{http.StatusForbidden, errorBody{"Forbidden", msg}}
}

func notFound(msg string) reply { return reply{http.StatusNotFound, errorBody{"NotFound", msg}} }

func (s *Server) write(w http.ResponseWriter, rep reply) {
	if errs, isErrs := rep.body.([]apiError); isErrs && s.is(fErrorObjectNotArray) && len(errs) > 0 {
		rep.body = errs[0]
	}
	if rep.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `api-key, session-token`)
	}
	writeJSON(w, rep.status, rep.body)
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	// Names such as "Gannet & Lumen" are sent as they are, not as \u0026.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":"InternalError","message":"the response could not be encoded"}` + "\n")
	}
	w.Header().Set("Content-Type", jsonType)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// A handler runs with the store lock held (shared for reads, exclusive for
// writes), so everything it reads and writes is one consistent snapshot.
func (s *Server) reader(h func(*http.Request) reply) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rep := func() reply {
			s.mu.RLock()
			defer s.mu.RUnlock() // released even if h panics
			return h(r)
		}()
		s.write(w, rep)
	}
}

func (s *Server) writer(h func(*http.Request) reply) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rep := func() reply {
			s.mu.Lock()
			defer s.mu.Unlock()
			return h(r)
		}()
		s.write(w, rep)
	}
}

func (s *Server) routes() {
	m := http.NewServeMux()
	type route struct {
		method, path string
		h            http.HandlerFunc
	}
	routes := []route{
		{"POST", "/users", s.writer(s.postUser)},
		{"GET", "/users/{userId}", s.reader(s.getUser)},
		{"PUT", "/users/{userId}", s.writer(s.putUser)},
		{"POST", "/sessions", s.writer(s.postSession)},
		{"GET", "/clients", s.reader(s.listClients)},
		{"POST", "/clients", s.writer(s.postClient)},
		{"GET", "/clients/{clientId}", s.reader(s.getClient)},
		{"PUT", "/clients/{clientId}", s.writer(s.putClient)},
		{"GET", "/clients/{clientId}/apps", s.reader(s.listApps)},
		{"POST", "/apps", s.writer(s.postApp)},
		{"GET", "/platforms", s.reader(s.listPlatforms)},
		{"GET", "/currencies", s.reader(s.listCurrencies)},
		{"GET", "/plans", s.reader(s.listPlans)},
		{"GET", "/phonecountries", s.reader(s.listPhoneCountries)},
		{"GET", "/marketapps", s.reader(s.listMarketapps)},
	}
	allow := map[string][]string{}
	var paths []string
	for _, rt := range routes {
		m.Handle(rt.method+" "+rt.path, rt.h)
		if _, seen := allow[rt.path]; !seen {
			paths = append(paths, rt.path)
		}
		allow[rt.path] = append(allow[rt.path], rt.method)
	}
	// A method-less pattern per path answers 405 in this API's own JSON
	// shape; the method patterns above are more specific and win.
	for _, p := range paths {
		methods := strings.Join(allow[p], ", ")
		m.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", methods)
			writeJSON(w, http.StatusMethodNotAllowed, errorBody{"MethodNotAllowed", "this resource answers " + methods})
		})
	}
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, errorBody{"NotFound", "no such resource"})
	})
	s.mux = m
}

// caller is who an authenticated request comes from.
type caller struct {
	userID  int64
	session *sessionRow // nil when authenticated with an api key
}

// currentClient is the client that a request acts for when the endpoint
// does not name one: the session's client, or else the user's home client.
func (s *Server) currentClient(c caller) int64 {
	if c.session != nil && c.session.clientID != 0 {
		return c.session.clientID
	}
	return s.t.homeClient(c.userID)
}

// authenticate checks every credential that the request presents. Each one
// must be valid, and all must name the same user: a request that carries a
// bad credential next to a good one is not "authenticated correctly".
func (s *Server) authenticate(r *http.Request) (caller, bool) {
	var found []caller
	if vals := r.Header.Values("Authorization"); len(vals) > 0 {
		if len(vals) > 1 {
			return caller{}, false
		}
		scheme, key, _ := strings.Cut(strings.TrimSpace(vals[0]), " ")
		uid, known := s.t.byAPIKey[strings.TrimSpace(key)]
		if !strings.EqualFold(scheme, "api-key") || !known {
			return caller{}, false
		}
		found = append(found, caller{userID: uid})
	}
	tokens := r.Header.Values("Session-Token")
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil && strings.Contains(r.URL.RawQuery, "sessionToken") && !s.is(fQueryTokenIgnored) {
		return caller{}, false // a token that cannot even be decoded
	}
	if q, present := query["sessionToken"]; present && !s.is(fQueryTokenIgnored) {
		if len(q) > 1 {
			return caller{}, false
		}
		tokens = append(tokens, q...)
	}
	for _, tok := range tokens {
		sess, valid := s.session(tok)
		if !valid {
			return caller{}, false
		}
		found = append(found, caller{userID: sess.userID, session: &sess})
	}
	if len(found) == 0 {
		return caller{}, false
	}
	for _, c := range found[1:] {
		if c.userID != found[0].userID {
			return caller{}, false
		}
	}
	// A session, when present, says which client the request acts for.
	for _, c := range found {
		if c.session != nil {
			return c, true
		}
	}
	return found[0], true
}

func (s *Server) session(token string) (sessionRow, bool) {
	id, known := s.t.byToken[token]
	if !known && s.is(fTokenPrefixMatch) && len(token) >= 32 {
		for t, sid := range s.t.byToken {
			if strings.HasPrefix(t, token[:32]) {
				id, known = sid, true
				break
			}
		}
	}
	if !known {
		return sessionRow{}, false
	}
	sess := s.t.sessions[id]
	if !time.Now().Before(sess.expires) {
		return sessionRow{}, false
	}
	if _, userExists := s.t.users[sess.userID]; !userExists {
		return sessionRow{}, false
	}
	return sess, true
}

// body parses the request body as one JSON object.
func body(r *http.Request) (*object, []apiError) { return parseObject(bodyOf(r)) }
