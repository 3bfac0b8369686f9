package ledger

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// principal is an authenticated caller.
type principal struct {
	UserID    int64
	ClientID  int64 // the client the caller acts for; 0 when none
	SessionID int64 // 0 for api-key callers
}

func errUnauthorized(msg string) *apiError {
	return &apiError{status: 401, code: "Unauthorized", msg: msg}
}

// authenticate checks every credential the request presents (the
// Authorization header, the session-token header and the sessionToken
// query argument). Each must be valid and all must name the same user.
func (s *Server) authenticate(r *http.Request) (*principal, *apiError) {
	v := s.view()
	var found []principal
	authz := r.Header.Values("Authorization")
	if len(authz) > 1 {
		return nil, errUnauthorized("more than one Authorization header")
	}
	if len(authz) == 1 {
		uid, ok := s.apiKeyUser(v, authz[0])
		if !ok {
			return nil, errUnauthorized("invalid api key")
		}
		found = append(found, principal{UserID: uid, ClientID: v.defaultClient(uid)})
	}
	st := r.Header.Values("Session-Token")
	if len(st) > 1 {
		return nil, errUnauthorized("more than one session-token header")
	}
	if len(st) == 1 {
		p, ok := s.sessionPrincipal(v, strings.TrimSpace(st[0]))
		if !ok {
			return nil, errUnauthorized("invalid session token")
		}
		found = append(found, p)
	}
	qs, present := s.queryTokens(r)
	if present {
		if len(qs) != 1 {
			return nil, errUnauthorized("more than one sessionToken argument")
		}
		p, ok := s.sessionPrincipal(v, qs[0])
		if !ok {
			return nil, errUnauthorized("invalid session token")
		}
		found = append(found, p)
	}
	if len(found) == 0 {
		return nil, errUnauthorized("authentication required")
	}
	out := found[0]
	for _, p := range found[1:] {
		if p.UserID != out.UserID {
			return nil, errUnauthorized("credentials name different users")
		}
		if out.SessionID == 0 && p.SessionID != 0 {
			out = p
		}
	}
	return &out, nil
}

func (s *Server) apiKeyUser(v *view, header string) (int64, bool) {
	h := strings.TrimSpace(header)
	scheme, key, _ := strings.Cut(h, " ")
	key = strings.TrimSpace(key)
	if s.is("apikey-any-scheme") {
		f := strings.Fields(h)
		if len(f) > 0 {
			key = f[len(f)-1]
		}
	} else if s.is("scheme-case-sensitive") {
		if scheme != "api-key" {
			return 0, false
		}
	} else if !strings.EqualFold(scheme, "api-key") {
		return 0, false
	}
	if s.is("empty-apikey-matches") {
		ids := make([]int64, 0, len(v.Users))
		for id := range v.Users {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			if v.Users[id].APIKey == key {
				return id, true
			}
		}
		return 0, false
	}
	if key == "" {
		return 0, false
	}
	uid, ok := v.APIKeys[key]
	return uid, ok
}

func (s *Server) sessionPrincipal(v *view, tok string) (principal, bool) {
	if tok == "" {
		return principal{}, false
	}
	if s.is("token-casefold") {
		tok = strings.ToLower(tok)
	}
	sid, ok := v.Tokens[tok]
	if !ok {
		return principal{}, false
	}
	sess := v.Sessions[sid]
	if sess == nil || v.Users[sess.UserID] == nil {
		return principal{}, false
	}
	return principal{UserID: sess.UserID, ClientID: sess.ClientID, SessionID: sess.ID}, true
}

// queryTokens returns the values of the sessionToken query argument and
// whether the argument is present.
func (s *Server) queryTokens(r *http.Request) ([]string, bool) {
	if s.is("query-raw") {
		var out []string
		found := false
		for _, kv := range strings.Split(r.URL.RawQuery, "&") {
			k, val, _ := strings.Cut(kv, "=")
			if k == "sessionToken" {
				found = true
				out = append(out, val)
			}
		}
		return out, found
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil && q == nil {
		return nil, false
	}
	vals, ok := q["sessionToken"]
	return vals, ok
}
