package shards

import (
	"net/http"
	"strings"
	"time"
)

// caller is an authenticated request's identity.
type caller struct {
	uid      int64
	clientID int64 // session client; 0 for api keys or client-less sessions
}

type authState int

const (
	authOK authState = iota
	authMissing
	authInvalid
)

// authenticate checks every credential the request presents; all must be
// valid and name the same user.
func (s *Server) authenticate(r *http.Request) (caller, authState) {
	var found []caller
	bad := false
	check := func(c caller, ok bool) {
		if ok {
			found = append(found, c)
		} else {
			bad = true
		}
	}
	if vals := r.Header.Values("Authorization"); len(vals) > 0 {
		check(s.byAPIKeyHeader(vals))
	}
	if vals := r.Header.Values("Session-Token"); len(vals) > 0 {
		check(s.byTokens(vals))
	}
	if vals, ok := r.URL.Query()["sessionToken"]; ok && s.readsQueryToken(r) {
		check(s.byTokens(vals))
	}
	if bad {
		return caller{}, authInvalid
	}
	if len(found) == 0 {
		return caller{}, authMissing
	}
	for _, c := range found[1:] {
		if c.uid != found[0].uid {
			return caller{}, authInvalid
		}
	}
	return found[0], authOK
}

func (s *Server) readsQueryToken(r *http.Request) bool {
	return !s.is(faultQueryTokenWrites) || r.Method == http.MethodGet || r.Method == http.MethodHead
}

func (s *Server) byAPIKeyHeader(vals []string) (caller, bool) {
	if len(vals) != 1 {
		return caller{}, false
	}
	scheme, key, ok := strings.Cut(strings.TrimSpace(vals[0]), " ")
	key = strings.TrimLeft(key, " ")
	if !ok || key == "" || strings.ContainsAny(key, " \t") {
		return caller{}, false
	}
	if s.is(faultAPIKeySchemeCase) {
		ok = scheme == "api-key"
	} else {
		ok = strings.EqualFold(scheme, "api-key")
	}
	u := s.st.userByKey(key)
	if !ok || u == nil {
		return caller{}, false
	}
	return caller{uid: u.id}, true
}

func (s *Server) byTokens(vals []string) (caller, bool) {
	if len(vals) != 1 || vals[0] == "" {
		return caller{}, false
	}
	se := s.st.session(vals[0])
	if se == nil {
		return caller{}, false
	}
	u := s.st.user(se.userID)
	if u == nil {
		return caller{}, false
	}
	if s.is(legalPasswordRevokes) && u.pwVersion() != se.pwVersion {
		return caller{}, false
	}
	return caller{uid: se.userID, clientID: se.clientID}, true
}

// requireAuth answers 401 (or the faulty 403) when the request is not
// authenticated.
func (s *Server) requireAuth(w http.ResponseWriter, r *http.Request) (caller, bool) {
	c, st := s.authenticate(r)
	switch {
	case st == authOK:
		return c, true
	case st == authMissing && s.is(faultMissingCredentials403):
		s.fail(w, http.StatusForbidden, "Forbidden", "no credentials")
	case st == authMissing:
		s.fail(w, http.StatusUnauthorized, "Unauthorized", "authentication required: Authorization: api-key <key>, session-token header or sessionToken query argument")
	default:
		s.fail(w, http.StatusUnauthorized, "Unauthorized", "invalid credentials")
	}
	return caller{}, false
}

// actingClient is the client an authenticated call acts for.
func (s *Server) actingClient(c caller) int64 {
	if c.clientID != 0 {
		return c.clientID
	}
	if u := s.st.user(c.uid); u != nil {
		return u.firstClient()
	}
	return 0
}

type sessionJSON struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	UserID        int64  `json:"userId"`
	ClientID      *int64 `json:"clientId"`
	Token         string `json:"token"`
}

// postSession handles POST /sessions with {"email", "password"}.
func (s *Server) postSession(w http.ResponseWriter, r *http.Request) {
	m, ok := s.readBody(w, r)
	if !ok {
		return
	}
	f := s.newFields(m)
	email := f.reqString("email", "InvalidEmail")
	password, isStr := m["password"].(string)
	if !isStr {
		f.fail("password", "InvalidPassword", "password must be given as a string")
	}
	if len(*f.errs) > 0 {
		s.validation(w, *f.errs)
		return
	}
	u := s.st.userByEmail(email)
	if u == nil || !u.checkPassword(password) {
		s.fail(w, http.StatusUnauthorized, "Unauthorized", "unknown email or wrong password")
		return
	}
	se := &session{
		id: s.st.sessionSeq.Add(1), userID: u.id, clientID: u.firstClient(),
		pwVersion: u.pwVersion(), created: time.Now(), token: randHex(32),
	}
	s.st.addSession(se)
	out := sessionJSON{ID: se.id, Created: iso(se.created), CreatorUserID: u.id, UserID: u.id, Token: se.token}
	if se.clientID != 0 {
		out.ClientID = &se.clientID
	}
	s.writeJSON(w, http.StatusOK, out)
}
