// Package tags is an in-memory implementation of the Pricing Service API
// (spec: pricing-api.md) written the way many standard-library Go services
// are: typed request structs validated by struct tags, repositories behind
// an interface, and a middleware chain. Options.Fault switches on one
// deliberate deviation (see Faults and choices.md).
package tags

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

type Options struct {
	Pairs int
	Fault string
}

type Account struct {
	Email, Password, APIKey string
}

const (
	basePath      = "/api/v1.0"
	aliasPath     = "/api/v1"
	maxBodyBytes  = 1 << 20
	sessionTTL    = 24 * time.Hour
	raceWindow    = 5 * time.Millisecond
	defaultTZ     = "Europe/London"
	defaultPhone  = 1
	termsLiteral  = "I agree"
	apiKeyScheme  = "api-key"
	sessionHeader = "Session-Token"
	sessionQuery  = "sessionToken"
)

type Server struct {
	fault    string
	users    UserRepo
	clients  ClientRepo
	apps     AppRepo
	sessions SessionRepo
	accounts [][2]Account
	now      func() time.Time
	handler  http.Handler

	credMu    sync.Mutex
	credCache map[string]string // lower email -> password hash; only the stale-cache fault reads it
}

func New(opts Options) (*Server, error) {
	pairs := opts.Pairs
	if pairs == 0 {
		pairs = 1
	}
	if pairs < 0 || pairs > 500 {
		return nil, fmt.Errorf("tags: Pairs must be between 0 and 500, got %d", opts.Pairs)
	}
	if opts.Fault != "" && !knownFault(opts.Fault) {
		return nil, fmt.Errorf("tags: unknown fault %q", opts.Fault)
	}
	s := &Server{
		fault:     opts.Fault,
		users:     newMemUsers(opts.Fault == fEmailIndexStale),
		clients:   newMemClients(),
		apps:      newMemApps(),
		sessions:  newMemSessions(),
		now:       func() time.Time { return time.Now().UTC() },
		credCache: map[string]string{},
	}
	for i := 1; i <= pairs; i++ {
		var pair [2]Account
		for j, tag := range []string{"a", "b"} {
			acc, err := s.seed(i, tag)
			if err != nil {
				return nil, err
			}
			pair[j] = acc
		}
		s.accounts = append(s.accounts, pair)
	}
	s.handler = s.recoverMW(s.requestIDMW(s.negotiateMW(http.HandlerFunc(s.route))))
	return s, nil
}

func (s *Server) seed(i int, tag string) (Account, error) {
	now := s.now().Truncate(time.Second)
	acc := Account{
		Email:    fmt.Sprintf("%s%d@example.com", tag, i),
		Password: fmt.Sprintf("Secret-%s%d", tag, i),
	}
	u := User{
		Created: now, Email: acc.Email, PasswordLastChanged: now,
		FirstName: strings.ToUpper(tag) + "First", LastName: fmt.Sprintf("Pair%d", i),
		SubscribeWelcome: true,
		PhoneCountryID:   defaultPhone, PhoneNumber: "07700900000", Timezone: defaultTZ,
	}
	s.setPassword(&u, acc.Password)
	u, err := s.users.Create(u)
	if err != nil {
		return Account{}, err
	}
	key := fmt.Sprintf("pk_%08x_%s", u.ID, randHex(16))
	c := s.clients.Create(Client{
		Created: now, Name: fmt.Sprintf("Client %s%d", strings.ToUpper(tag), i),
		AddressLine1: "1 Example Street", AddressCity: "London", AddressPostcode: "EC1A 1AA",
		AddressCountry: "United Kingdom", CurrencyID: 1, Members: []int{u.ID},
	})
	if _, err := s.users.Update(u.ID, false, func(x *User) { x.APIKey = key; x.PrimaryClientID = c.ID }); err != nil {
		return Account{}, err
	}
	acc.APIKey = key
	s.cacheCredential(u.Email, u.Salt+":"+u.PasswordHash)
	return acc, nil
}

func (s *Server) BasePath() string { return basePath }

func (s *Server) Accounts() [][2]Account {
	out := make([][2]Account, len(s.accounts))
	copy(out, s.accounts)
	return out
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// ---- helpers

func randHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func constantEq(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

func hashPassword(salt, pw string) string {
	h := sha256.Sum256([]byte(salt + "\x00" + pw))
	return hex.EncodeToString(h[:])
}

func (s *Server) setPassword(u *User, pw string) {
	if s.fault == fPasswordTrimmed {
		pw = strings.TrimSpace(pw)
	}
	u.Salt = randHex(8)
	u.PasswordHash = hashPassword(u.Salt, pw)
}

func (s *Server) cacheCredential(email, hash string) {
	s.credMu.Lock()
	defer s.credMu.Unlock()
	s.credCache[emailKey(email)] = hash
}

func (s *Server) cachedCredential(email string) string {
	s.credMu.Lock()
	defer s.credMu.Unlock()
	return s.credCache[emailKey(email)]
}

func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) writeValidation(w http.ResponseWriter, errs []FieldError) {
	if s.fault == fErrorObject {
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": errs})
		return
	}
	writeJSON(w, http.StatusBadRequest, errs)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, []FieldError{{FieldName: "", Error: code, Message: msg}})
}

func (s *Server) unauthorized(w http.ResponseWriter) {
	if s.fault == fUnauth403 {
		writeError(w, http.StatusForbidden, "Forbidden", "not allowed")
		return
	}
	w.Header().Set("WWW-Authenticate", `api-key`)
	writeError(w, http.StatusUnauthorized, "Unauthorized", "the request is not authenticated")
}

func (s *Server) forbidden(w http.ResponseWriter) {
	if s.fault == fForeign404 {
		notFound(w)
		return
	}
	writeError(w, http.StatusForbidden, "Forbidden", "the caller may not view or modify this resource")
}

func notFound(w http.ResponseWriter) {
	writeError(w, http.StatusNotFound, "NotFound", "resource not found")
}

// ---- middleware

type ctxKey int

const (
	ctxBody ctxKey = iota
	ctxAuth
)

func (s *Server) recoverMW(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				writeError(w, http.StatusInternalServerError, "InternalError", "internal server error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

var requestIDRe = regexp.MustCompile(`^[A-Za-z0-9._\-]{1,64}$`)

func (s *Server) requestIDMW(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !requestIDRe.MatchString(id) {
			id = randHex(8)
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r)
	})
}

// acceptsJSON reads the Accept header(s): absent, */*, application/* and
// application/json with q>0 are acceptable.
func acceptsJSON(values []string) bool {
	joined := strings.TrimSpace(strings.Join(values, ","))
	if joined == "" {
		return true
	}
	wild := false
	for _, part := range strings.Split(joined, ",") {
		mt, params, _ := strings.Cut(part, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch mt {
		case "application/json":
			return q > 0
		case "application/*", "*/*":
			if q > 0 {
				wild = true
			}
		}
	}
	return wild
}

func (s *Server) negotiateMW(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok := acceptsJSON(r.Header.Values("Accept"))
		if s.fault == fAcceptExact {
			a := r.Header.Get("Accept")
			ok = a == "" || a == "application/json"
		}
		if !ok {
			writeError(w, http.StatusNotAcceptable, "NotAcceptable", "responses are application/json")
			return
		}
		if r.Method == http.MethodPost || r.Method == http.MethodPut {
			if ct := r.Header.Get("Content-Type"); ct != "" {
				mt, _, err := mime.ParseMediaType(ct)
				good := err == nil && mt == "application/json"
				if s.fault == fContentTypeParams {
					good = ct == "application/json"
				}
				if !good {
					writeError(w, http.StatusUnsupportedMediaType, "UnsupportedMediaType", "request bodies must be application/json")
					return
				}
			}
			var body []byte
			if s.fault != fChunkedEmpty || r.ContentLength > 0 {
				b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
				if err != nil {
					var mbe *http.MaxBytesError
					if errors.As(err, &mbe) {
						writeError(w, http.StatusRequestEntityTooLarge, "PayloadTooLarge", "request body larger than 1 MiB")
						return
					}
					writeError(w, http.StatusBadRequest, "InvalidJson", "could not read the request body")
					return
				}
				body = b
			}
			r = r.WithContext(context.WithValue(r.Context(), ctxBody, body))
		}
		next.ServeHTTP(w, r)
	})
}

func bodyOf(r *http.Request) []byte {
	b, _ := r.Context().Value(ctxBody).([]byte)
	return b
}

// ---- authentication

type authInfo struct {
	User      User
	ClientID  int
	SessionID int
}

func authOf(r *http.Request) (authInfo, bool) {
	a, ok := r.Context().Value(ctxAuth).(authInfo)
	return a, ok
}

func (s *Server) authenticate(r *http.Request) (authInfo, bool) {
	var found []authInfo
	if vals := r.Header.Values("Authorization"); len(vals) > 0 {
		if len(vals) > 1 {
			return authInfo{}, false
		}
		u, ok := s.userForAuthorization(vals[0])
		if !ok {
			return authInfo{}, false
		}
		found = append(found, authInfo{User: u, ClientID: u.PrimaryClientID})
	}
	var tokens []string
	if vals := r.Header.Values(sessionHeader); len(vals) > 0 {
		tokens = append(tokens, vals...)
	}
	if s.fault != fQueryTokenIgnored {
		if vals, ok := r.URL.Query()[sessionQuery]; ok {
			tokens = append(tokens, vals...)
		}
	}
	for _, tok := range tokens {
		tok = strings.TrimSpace(tok)
		sess, ok := s.sessions.ByToken(tok)
		if !ok || tok == "" || !s.now().Before(sess.Expires) {
			return authInfo{}, false
		}
		u, ok := s.users.Get(sess.UserID)
		if !ok {
			return authInfo{}, false
		}
		found = append(found, authInfo{User: u, ClientID: sess.ClientID, SessionID: sess.ID})
	}
	if len(found) == 0 {
		return authInfo{}, false
	}
	for _, f := range found[1:] {
		if f.User.ID != found[0].User.ID {
			return authInfo{}, false
		}
	}
	// a session fixes the client; otherwise the user's primary client
	for _, f := range found {
		if f.SessionID != 0 {
			return f, true
		}
	}
	return found[0], true
}

func (s *Server) userForAuthorization(v string) (User, bool) {
	var key string
	if s.fault == fAPIKeyAnyScheme {
		f := strings.Fields(v)
		if len(f) == 0 {
			return User{}, false
		}
		key = f[len(f)-1]
	} else {
		scheme, rest, ok := strings.Cut(strings.TrimSpace(v), " ")
		if !ok {
			return User{}, false
		}
		match := strings.EqualFold(scheme, apiKeyScheme)
		if s.fault == lSchemeCaseSens {
			match = scheme == apiKeyScheme
		}
		if !match {
			return User{}, false
		}
		key = strings.TrimSpace(rest)
	}
	if key == "" {
		return User{}, false
	}
	if s.fault == fAPIKeyPrefixOnly {
		// pk_<8 hex>_ identifies the key; the secret was meant to be checked later.
		if len(key) < 12 || !strings.HasPrefix(key, "pk_") {
			return User{}, false
		}
		return s.users.ByAPIKeyPrefix(key[:12])
	}
	return s.users.ByAPIKey(key)
}
