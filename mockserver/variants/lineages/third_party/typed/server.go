package typed

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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

const (
	maxBody     = 1 << 20
	defaultBase = "/api/v1.0"
)

type Server struct {
	fault    string
	base     string
	cat      *catalogue
	users    UserRepo
	clients  ClientRepo
	apps     AppRepo
	sessions SessionRepo
	accounts [][2]Account
	handler  http.Handler
	reqSeq   atomic.Int64

	tokMu  sync.RWMutex // fault session-token-counter-race
	tokCtr int64
}

func New(opts Options) (*Server, error) {
	if opts.Pairs < 0 || opts.Pairs > 500 {
		return nil, fmt.Errorf("tags: Pairs must be between 0 and 500, got %d", opts.Pairs)
	}
	if opts.Pairs == 0 {
		opts.Pairs = 1
	}
	if opts.Fault != "" {
		known := false
		for _, f := range faultList {
			if f.Name == opts.Fault {
				known = true
			}
		}
		if !known {
			return nil, fmt.Errorf("tags: unknown fault %q", opts.Fault)
		}
	}
	ur := newUserRepo()
	ar := newAppRepo()
	s := &Server{fault: opts.Fault, base: defaultBase, cat: newCatalogue(),
		users: ur, clients: newClientRepo(), apps: ar, sessions: newSessionRepo()}
	if s.is(LBasePathV1) {
		s.base = "/api/v1"
	}
	ur.checkUnique = !s.is(FEmailUniqueRace)
	ur.staleEmailIndex = s.is(FLoginIndexStale)
	ar.racyIDs = s.is(FAppIDRace)

	for i := 1; i <= opts.Pairs; i++ {
		a, err := s.seed(i, "a", "Alice")
		if err != nil {
			return nil, err
		}
		b, err := s.seed(i, "b", "Bob")
		if err != nil {
			return nil, err
		}
		s.accounts = append(s.accounts, [2]Account{a, b})
	}
	s.handler = s.recoverMW(s.requestIDMW(http.HandlerFunc(s.dispatch)))
	return s, nil
}

func (s *Server) seed(i int, side, first string) (Account, error) {
	now := s.now()
	acc := Account{
		Email:    fmt.Sprintf("%s%d@pairs.example.com", side, i),
		Password: fmt.Sprintf("secret-%s-%d", side, i),
		APIKey:   randHex(16),
	}
	ext := (*string)(nil)
	u := User{Created: now, Email: acc.Email, FirstName: first, LastName: fmt.Sprintf("Pair%d", i),
		PhoneCountryID: 44, PhoneNumber: fmt.Sprintf("7700900%03d", i%1000), PhoneExtension: ext,
		Timezone: "Europe/London", APIKey: acc.APIKey}
	s.setPassword(&u, acc.Password, now)
	u, err := s.users.Create(u)
	if err != nil {
		return Account{}, err
	}
	c := s.clients.Create(Client{Created: now, Name: fmt.Sprintf("Client %s%d", strings.ToUpper(side), i),
		AddressLine1: fmt.Sprintf("%d High Street", i), AddressCity: "London", AddressPostcode: "SW1A 1AA",
		AddressCountry: "United Kingdom", CurrencyID: 3, Members: []int64{u.ID}})
	if _, err := s.users.Update(u.ID, func(u *User) error { u.PrimaryClientID = c.ID; return nil }); err != nil {
		return Account{}, err
	}
	return acc, nil
}

func (s *Server) BasePath() string { return s.base }

func (s *Server) Accounts() [][2]Account {
	out := make([][2]Account, len(s.accounts))
	copy(out, s.accounts)
	return out
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Server) is(name string) bool { return s.fault == name }

func (s *Server) now() time.Time { return time.Now().UTC().Truncate(time.Second) }

func randHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func (s *Server) hashPassword(salt, pw string) string {
	h := sha256.Sum256([]byte(salt + "\x00" + pw))
	return hex.EncodeToString(h[:])
}

func (s *Server) setPassword(u *User, pw string, now time.Time) {
	if s.is(FPasswordTrimmed) {
		pw = strings.TrimSpace(pw)
	}
	u.PasswordSalt = randHex(8)
	u.PasswordHash = s.hashPassword(u.PasswordSalt, pw)
	u.PasswordLastChanged = now
}

func (s *Server) checkPassword(u User, pw string) bool {
	return s.hashPassword(u.PasswordSalt, pw) == u.PasswordHash
}

// ---- errors -----------------------------------------------------------------

type errorItem struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		log.Printf("tags: write response: %v", err)
	}
}

// writeErr answers a non-400 error: {"error": code, "message": text}.
func (s *Server) writeErr(w http.ResponseWriter, status int, code, msg string) {
	s.writeJSON(w, status, map[string]string{"error": code, "message": msg})
}

func (s *Server) writeValidation(w http.ResponseWriter, errs []fieldError) {
	if s.is(LFirstErrorOnly) && len(errs) > 1 {
		errs = errs[:1]
	}
	items := make([]errorItem, 0, len(errs))
	for _, e := range errs {
		name := e.Field
		if s.is(FErrorGoFieldName) {
			name = e.GoField
		}
		items = append(items, errorItem{FieldName: name, Error: e.Code, Message: e.Message})
	}
	if s.is(FErrorObject) && len(items) > 0 {
		s.writeJSON(w, http.StatusBadRequest, items[0])
		return
	}
	s.writeJSON(w, http.StatusBadRequest, items)
}

func (s *Server) unauthorized(w http.ResponseWriter) {
	if s.is(FUnauth403) {
		s.writeErr(w, http.StatusForbidden, "Forbidden", "authentication required")
		return
	}
	s.writeErr(w, http.StatusUnauthorized, "Unauthorized", "authentication required: Authorization: api-key <key>, session-token header or sessionToken query argument")
}

func (s *Server) notFound(w http.ResponseWriter, what string) {
	s.writeErr(w, http.StatusNotFound, "NotFound", what+" not found")
}

func (s *Server) forbidden(w http.ResponseWriter, what string) {
	if s.is(FForeign404) {
		s.notFound(w, what)
		return
	}
	s.writeErr(w, http.StatusForbidden, "Forbidden", "you may not view or modify this "+what)
}

// ---- middleware -------------------------------------------------------------

func (s *Server) recoverMW(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.Printf("tags: panic serving %s %s: %v", r.Method, r.URL.Path, v)
				s.writeErr(w, http.StatusInternalServerError, "InternalError", "internal server error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func (s *Server) requestIDMW(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 128 {
			id = fmt.Sprintf("req-%d", s.reqSeq.Add(1))
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r)
	})
}

type principal struct {
	user     User
	clientID int64
}

type reqCtx struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	params []string
	body   []byte
	who    *principal
}

// requireAuth returns the caller. In the correct server the auth middleware
// already ran; under FAuthAfterValidation it runs here, after the body.
func (c *reqCtx) requireAuth() (*principal, bool) {
	if c.who != nil {
		return c.who, true
	}
	p, ok := c.s.authenticate(c.r)
	if !ok {
		c.s.unauthorized(c.w)
		return nil, false
	}
	c.who = &p
	return c.who, true
}

func (s *Server) authenticate(r *http.Request) (principal, bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, key, ok := strings.Cut(strings.TrimSpace(h), " ")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return principal{}, false
		}
		if s.is(LAPIKeySchemeExact) {
			if scheme != "api-key" {
				return principal{}, false
			}
		} else if !strings.EqualFold(scheme, "api-key") {
			return principal{}, false
		}
		var u User
		if s.is(FAPIKeyPrefix) {
			u, ok = s.users.ByAPIKeyPrefix(key)
		} else {
			u, ok = s.users.ByAPIKey(key)
		}
		if !ok {
			return principal{}, false
		}
		return principal{user: u, clientID: u.PrimaryClientID}, true
	}
	tok := r.Header.Get("Session-Token")
	if tok == "" && !s.is(FSessionQueryIgnored) {
		tok = r.URL.Query().Get("sessionToken")
	}
	if tok == "" {
		return principal{}, false
	}
	sess, ok := s.sessions.ByToken(tok)
	if !ok {
		return principal{}, false
	}
	u, ok := s.users.Get(sess.UserID)
	if !ok {
		return principal{}, false
	}
	return principal{user: u, clientID: sess.ClientID}, true
}

// acceptsJSON reads an Accept header: absent, */*, application/* or
// application/json (any parameters, q > 0) anywhere in the list.
func (s *Server) acceptsJSON(h string) bool {
	if strings.TrimSpace(h) == "" {
		return true
	}
	if s.is(FAcceptListRejected) {
		h = strings.TrimSpace(h)
		return h == "application/json" || h == "*/*"
	}
	for _, part := range strings.Split(h, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		if q, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(q, 64); err != nil || f <= 0 {
				continue
			}
		}
		if mt == "*/*" || mt == "application/*" || mt == "application/json" {
			return true
		}
	}
	return false
}

func (s *Server) jsonContentType(h string) bool {
	if h == "" {
		return true // a body without Content-Type is read as JSON
	}
	if s.is(FContentTypeParams) {
		return h == "application/json"
	}
	mt, _, err := mime.ParseMediaType(h)
	return err == nil && mt == "application/json"
}

func (s *Server) readBody(r *http.Request, w http.ResponseWriter) ([]byte, error) {
	if s.is(FChunkedBodyEmpty) {
		n := r.ContentLength
		if n < 0 {
			n = 0
		}
		if n > maxBody {
			return nil, &http.MaxBytesError{Limit: maxBody}
		}
		b := make([]byte, n)
		_, err := io.ReadFull(r.Body, b)
		return b, err
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
}

// ---- router -----------------------------------------------------------------

type route struct {
	method  string
	pattern []string // "*" matches one segment
	public  bool
	body    bool
	h       func(*reqCtx)
}

func (s *Server) routes() []route {
	return []route{
		{"GET", []string{"platforms"}, true, false, s.getPlatforms},
		{"GET", []string{"currencies"}, true, false, s.getCurrencies},
		{"GET", []string{"plans"}, true, false, s.getPlans},
		{"GET", []string{"phonecountries"}, true, false, s.getPhoneCountries},
		{"GET", []string{"marketapps"}, true, false, s.getMarketapps},
		{"POST", []string{"sessions"}, true, true, s.postSession},
		{"POST", []string{"users"}, true, true, s.postUser},
		{"GET", []string{"users", "*"}, false, false, s.getUser},
		{"PUT", []string{"users", "*"}, false, true, s.putUser},
		{"GET", []string{"clients"}, false, false, s.listClients},
		{"POST", []string{"clients"}, false, true, s.postClient},
		{"GET", []string{"clients", "*"}, false, false, s.getClient},
		{"PUT", []string{"clients", "*"}, false, true, s.putClient},
		{"GET", []string{"clients", "*", "apps"}, false, false, s.listClientApps},
		{"POST", []string{"apps"}, false, true, s.postApp},
		{"GET", []string{"apps", "*"}, false, false, s.getApp},
	}
}

func match(pattern, segs []string) ([]string, bool) {
	if len(pattern) != len(segs) {
		return nil, false
	}
	var params []string
	for i, p := range pattern {
		if p == "*" {
			if segs[i] == "" {
				return nil, false
			}
			params = append(params, segs[i])
		} else if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}

func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if !strings.HasPrefix(path, s.base+"/") {
		s.notFound(w, "resource")
		return
	}
	segs := strings.Split(path[len(s.base)+1:], "/")
	var allow []string
	var rt *route
	var params []string
	for _, cand := range s.routes() {
		p, ok := match(cand.pattern, segs)
		if !ok {
			continue
		}
		if cand.method == r.Method {
			c := cand
			rt, params = &c, p
			break
		}
		allow = append(allow, cand.method)
	}
	if rt == nil {
		if len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			s.writeErr(w, http.StatusMethodNotAllowed, "MethodNotAllowed", r.Method+" is not allowed here")
			return
		}
		s.notFound(w, "resource")
		return
	}
	c := &reqCtx{s: s, w: w, r: r, params: params}
	// auth
	if !rt.public && !s.is(FAuthAfterValidation) {
		p, ok := s.authenticate(r)
		if !ok {
			s.unauthorized(w)
			return
		}
		c.who = &p
	}
	// content negotiation
	if !s.acceptsJSON(r.Header.Get("Accept")) {
		s.writeErr(w, http.StatusNotAcceptable, "NotAcceptable", "this API answers application/json only")
		return
	}
	if rt.body {
		if !s.jsonContentType(r.Header.Get("Content-Type")) {
			s.writeErr(w, http.StatusUnsupportedMediaType, "UnsupportedMediaType", "request bodies must be application/json")
			return
		}
		b, err := s.readBody(r, w)
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				s.writeErr(w, http.StatusRequestEntityTooLarge, "RequestTooLarge", "request body exceeds 1 MiB")
				return
			}
			s.writeErr(w, http.StatusBadRequest, "InvalidBody", "could not read the request body")
			return
		}
		c.body = b
	}
	rt.h(c)
}

func parseID(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n > 0
}
