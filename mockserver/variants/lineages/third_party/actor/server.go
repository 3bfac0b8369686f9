package actor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	basePath    = "/api/v1.0"
	aliasPath   = "/api/v1"
	maxBodySize = 1 << 20
)

// Options configures a server.
type Options struct {
	Pairs int
	Fault string
}

// Account is a seeded user's credentials.
type Account struct {
	Email, Password, APIKey string
}

// Server is the Pricing Service: one actor goroutine owns all state.
type Server struct {
	fault    string
	timeout  time.Duration
	mux      *http.ServeMux
	cmds     chan command
	st       *state
	seed     string
	accounts [][2]Account
}

// New builds a server with seeded accounts and starts its actor.
func New(opts Options) (*Server, error) {
	if opts.Fault != "" && !knownFault(opts.Fault) {
		return nil, fmt.Errorf("unknown fault %q", opts.Fault)
	}
	pairs := opts.Pairs
	if pairs == 0 {
		pairs = 1
	}
	if pairs < 0 || pairs > 500 {
		return nil, fmt.Errorf("pairs must be between 0 and 500, got %d", opts.Pairs)
	}
	s := &Server{
		fault:   opts.Fault,
		timeout: 5 * time.Second,
		cmds:    make(chan command),
		st:      newState(),
		seed:    randHex(8),
	}
	if s.is("deadline-in-nanoseconds") {
		s.timeout = time.Duration(5) // meant to be seconds
	}
	s.seedAccounts(pairs)
	s.routes()
	go s.loop()
	return s, nil
}

func (s *Server) is(name string) bool { return s.fault == name }

// BasePath is the base URL path including the version segment.
func (s *Server) BasePath() string { return basePath }

// Accounts returns the seeded pairs (A, B).
func (s *Server) Accounts() [][2]Account {
	out := make([][2]Account, len(s.accounts))
	copy(out, s.accounts)
	return out
}

func (s *Server) seedAccounts(pairs int) {
	st := s.st
	now := s.now()
	for i := 1; i <= pairs; i++ {
		var pair [2]Account
		for j, tag := range []string{"a", "b"} {
			u := &user{
				ID:              st.nextUser,
				Created:         now,
				Email:           fmt.Sprintf("user-%s%d@example.com", tag, i),
				Password:        fmt.Sprintf("secret-%s%d", tag, i),
				PasswordChanged: now,
				FirstName:       strings.ToUpper(tag) + "-first",
				LastName:        fmt.Sprintf("Last%d", i),
				PhoneCountry:    1,
				PhoneNumber:     "7700900" + fmt.Sprintf("%03d", i),
				Timezone:        "Europe/London",
				APIKey:          randHex(16),
			}
			st.nextUser++
			c := &client{
				ID:       st.nextClient,
				Created:  now,
				Name:     fmt.Sprintf("Client %s%d", strings.ToUpper(tag), i),
				Line1:    fmt.Sprintf("%d High Street", i),
				City:     "London",
				Postcode: "SW1A 1AA",
				Country:  "United Kingdom",
				Currency: 1,
				Members:  map[int64]bool{},
			}
			st.nextClient++
			st.users[u.ID] = u
			st.clients[c.ID] = c
			st.keys[u.APIKey] = u.ID
			st.addMembership(u, c)
			pair[j] = Account{Email: u.Email, Password: u.Password, APIKey: u.APIKey}
		}
		s.accounts = append(s.accounts, pair)
	}
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	for _, b := range []string{basePath, aliasPath} {
		s.mux.HandleFunc("POST "+b+"/sessions", s.postSession)
		s.mux.HandleFunc("POST "+b+"/users", s.postUser)
		s.mux.HandleFunc("GET "+b+"/users/{userId}", s.getUser)
		s.mux.HandleFunc("PUT "+b+"/users/{userId}", s.putUser)
		s.mux.HandleFunc("POST "+b+"/clients", s.postClient)
		s.mux.HandleFunc("GET "+b+"/clients/{clientId}", s.getClient)
		s.mux.HandleFunc("PUT "+b+"/clients/{clientId}", s.putClient)
		if s.is("apps-pattern-trailing-slash") {
			s.mux.HandleFunc("POST "+b+"/apps/", s.postApp)
		} else {
			s.mux.HandleFunc("POST "+b+"/apps", s.postApp)
		}
		s.mux.HandleFunc("GET "+b+"/apps/{appId}", s.getApp)
		s.mux.HandleFunc("GET "+b+"/platforms", s.catalogue("platforms", platforms))
		s.mux.HandleFunc("GET "+b+"/plans", s.catalogue("plans", plans))
		s.mux.HandleFunc("GET "+b+"/currencies", s.catalogue("currencies", currencies))
		s.mux.HandleFunc("GET "+b+"/phonecountries", s.catalogue("phoneCountries", phoneCountries))
		s.mux.HandleFunc("GET "+b+"/marketapps", s.catalogue("marketapps", marketApps))
	}
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.is("accept-exact-match") {
		if a := r.Header.Get("Accept"); a != "" && a != "application/json" {
			s.fail(w, http.StatusNotAcceptable, "", "NotAcceptable", "only application/json is produced")
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// ---- writing --------------------------------------------------------------

func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) writeErrs(w http.ResponseWriter, status int, errs []apiError) {
	if s.is("error-keys-capitalized") {
		out := make([]apiErrorNoTags, len(errs))
		for i, e := range errs {
			out[i] = apiErrorNoTags(e)
		}
		s.writeJSON(w, status, out)
		return
	}
	s.writeJSON(w, status, errs)
}

func (s *Server) fail(w http.ResponseWriter, status int, field, code, msg string) {
	s.writeErrs(w, status, []apiError{{FieldName: field, Error: code, Message: msg}})
}

func (s *Server) finish(w http.ResponseWriter, res result, err error) {
	if err != nil {
		s.fail(w, http.StatusServiceUnavailable, "", "Timeout", "the request did not complete in time")
		return
	}
	if res.errs != nil {
		s.writeErrs(w, res.status, res.errs)
		return
	}
	s.writeJSON(w, res.status, res.body)
}

func okRes(body any) result { return result{status: http.StatusOK, body: body} }

func bad(errs []apiError) result { return result{status: http.StatusBadRequest, errs: errs} }

func errResult(status int, code, msg string) result {
	return result{status: status, errs: []apiError{{FieldName: "", Error: code, Message: msg}}}
}

func notFound(what string) result {
	return errResult(http.StatusNotFound, "NotFound", what+" not found")
}

func forbidden(what string) result {
	return errResult(http.StatusForbidden, "Forbidden", "you may not view or modify this "+what)
}

// ---- reading --------------------------------------------------------------

func (s *Server) ctx(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), s.timeout)
}

// readBody decodes the request body into a JSON object.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if s.is("content-type-params-rejected") && ct != "application/json" {
			s.fail(w, http.StatusUnsupportedMediaType, "", "UnsupportedMediaType", "Content-Type must be application/json")
			return nil, false
		}
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			s.fail(w, http.StatusUnsupportedMediaType, "", "UnsupportedMediaType", "Content-Type must be application/json")
			return nil, false
		}
	}
	if s.is("chunked-body-rejected") && r.ContentLength < 0 {
		s.fail(w, http.StatusLengthRequired, "", "LengthRequired", "Content-Length is required")
		return nil, false
	}
	var body io.Reader = http.MaxBytesReader(w, r.Body, maxBodySize)
	if s.is("leading-whitespace-body-rejected") {
		br := bufio.NewReader(body)
		if b, err := br.Peek(1); err != nil || b[0] != '{' {
			s.fail(w, http.StatusBadRequest, "body", "InvalidBody", "the body must be a JSON object")
			return nil, false
		}
		body = br
	}
	dec := json.NewDecoder(body)
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("trailing data after the JSON value")
		}
	}
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.fail(w, http.StatusRequestEntityTooLarge, "body", "BodyTooLarge", "the body is larger than 1 MiB")
			return nil, false
		}
		if s.is("malformed-json-500") {
			s.fail(w, http.StatusInternalServerError, "", "InternalError", err.Error())
			return nil, false
		}
		s.fail(w, http.StatusBadRequest, "body", "InvalidBody", "the body is not valid JSON: "+err.Error())
		return nil, false
	}
	m, isObj := v.(map[string]any)
	if !isObj {
		s.fail(w, http.StatusBadRequest, "body", "InvalidBody", "the body must be a JSON object")
		return nil, false
	}
	return m, true
}

func pathID(r *http.Request, name string) (int64, bool) {
	p := r.PathValue(name)
	if p == "" || len(p) > 18 {
		return 0, false
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	id, err := strconv.ParseInt(p, 10, 64)
	return id, err == nil && id > 0
}

// ---- authentication -------------------------------------------------------

type caller struct {
	userID   int64
	clientID int64 // 0: resolve to the user's primary client
}

// authenticate resolves the caller by asking the actor. It writes 401/503
// itself and reports false when the request must stop.
func (s *Server) authenticate(ctx context.Context, w http.ResponseWriter, r *http.Request) (caller, bool) {
	unauth := func(msg string) (caller, bool) {
		s.fail(w, http.StatusUnauthorized, "", "Unauthorized", msg)
		return caller{}, false
	}
	if vals := r.Header.Values("Authorization"); len(vals) > 0 {
		scheme, key, found := strings.Cut(strings.TrimSpace(vals[0]), " ")
		key = strings.TrimSpace(key)
		if !found || !strings.EqualFold(scheme, "api-key") || key == "" {
			return unauth("Authorization must be 'api-key <API_KEY>'")
		}
		prefix := s.is("api-key-prefix-match")
		res, err := s.do(ctx, func(st *state) result {
			id, found := st.keys[key]
			if !found && prefix {
				for k, uid := range st.keys {
					if strings.HasPrefix(k, key) {
						id, found = uid, true
						break
					}
				}
			}
			if u := st.users[id]; found && u != nil {
				return result{status: http.StatusOK, body: caller{userID: u.ID}}
			}
			return result{status: http.StatusUnauthorized}
		})
		if err != nil {
			s.finish(w, res, err)
			return caller{}, false
		}
		if res.status != http.StatusOK {
			return unauth("unknown api key")
		}
		return res.body.(caller), true
	}
	var token string
	var have bool
	if s.is("session-token-header-exact-key") {
		//lint:ignore SA1008 the fault: a key Go never stores, so the header is never seen
		if vals := r.Header["session-token"]; len(vals) > 0 {
			token, have = vals[0], true
		}
	} else if vals := r.Header.Values("Session-Token"); len(vals) > 0 {
		token, have = vals[0], true
	}
	if !have && !s.is("session-token-query-ignored") {
		if q := r.URL.Query(); q.Has("sessionToken") {
			token, have = q.Get("sessionToken"), true
		}
	}
	if !have {
		return unauth("authentication is required")
	}
	token = strings.TrimSpace(token)
	res, err := s.do(ctx, func(st *state) result {
		se := st.sessions[token]
		if token == "" || se == nil || st.users[se.UserID] == nil {
			return result{status: http.StatusUnauthorized}
		}
		return result{status: http.StatusOK, body: caller{userID: se.UserID, clientID: se.ClientID}}
	})
	if err != nil {
		s.finish(w, res, err)
		return caller{}, false
	}
	if res.status != http.StatusOK {
		return unauth("unknown session token")
	}
	return res.body.(caller), true
}

// notFoundBeforeAuth implements the not-found-before-auth fault: it looks the
// path resource up before authenticating.
func (s *Server) notFoundBeforeAuth(ctx context.Context, w http.ResponseWriter, r *http.Request, param string) bool {
	if !s.is("not-found-before-auth") {
		return false
	}
	id, _ := pathID(r, param)
	res, err := s.do(ctx, func(st *state) result {
		var exists bool
		switch param {
		case "userId":
			exists = st.users[id] != nil
		case "clientId":
			exists = st.clients[id] != nil
		case "appId":
			exists = st.apps[id] != nil
		}
		if !exists {
			return notFound("resource")
		}
		return okRes(nil)
	})
	if err != nil || res.status != http.StatusOK {
		s.finish(w, res, err)
		return true
	}
	return false
}

func (s *Server) catalogue(name string, items any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := map[string]any{name: items}
		if s.is("collection-adds-count") {
			body["page"] = 1
			body["count"] = countOf(items)
		}
		s.writeJSON(w, http.StatusOK, body)
	}
}

func countOf(items any) int {
	switch v := items.(type) {
	case []platform:
		return len(v)
	case []plan:
		return len(v)
	case []currency:
		return len(v)
	case []phoneCountry:
		return len(v)
	case []marketApp:
		return len(v)
	}
	return 0
}
