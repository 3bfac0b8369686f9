package undolog

import (
	"net/http"
	"strings"
)

func (c *Ctx) unauthorized(msg string) bool {
	c.fail(http.StatusUnauthorized, "", "Unauthorized", msg)
	return false
}

func (c *Ctx) setCaller(tx *Tx, uid int64) bool {
	if _, ok := get(tx, tx.s.users, uid); !ok {
		return c.unauthorized("the credentials do not match any user")
	}
	c.caller = &Caller{UserID: uid, ClientID: primaryClient(tx, uid)}
	return true
}

func authNone(c *Ctx, tx *Tx) bool { return true }

// authAPIKey: Authorization: api-key <API_KEY> (scheme compared case-insensitively).
func authAPIKey(c *Ctx, tx *Tx) bool {
	v := strings.TrimSpace(c.r.Header.Get("Authorization"))
	scheme, key, found := strings.Cut(v, " ")
	key = strings.TrimSpace(key)
	if !found || !strings.EqualFold(scheme, "api-key") || key == "" {
		if c.s.is("api-key-without-scheme-accepted") && !found {
			key = v
		} else {
			return c.unauthorized("expected Authorization: api-key <API_KEY>")
		}
	}
	if uid, ok := tx.s.byAPIKey[key]; ok {
		return c.setCaller(tx, uid)
	}
	if c.s.is("api-key-index-includes-session-tokens") {
		if sid, ok := tx.s.byToken[key]; ok {
			if sess, ok := get(tx, tx.s.sessions, sid); ok {
				return c.setCaller(tx, sess.UserID)
			}
		}
	}
	return c.unauthorized("unknown api key")
}

// authSession: header session-token, else query argument sessionToken.
func authSession(c *Ctx, tx *Tx) bool {
	tok, ok := sessionToken(c)
	if !ok {
		return c.unauthorized("a session token is required")
	}
	sid, ok := tx.s.byToken[tok]
	if !ok {
		return c.unauthorized("unknown session token")
	}
	sess, ok := get(tx, tx.s.sessions, sid)
	if !ok {
		return c.unauthorized("unknown session token")
	}
	return c.setCaller(tx, sess.UserID)
}

func sessionToken(c *Ctx) (string, bool) {
	if vs := c.r.Header.Values("Session-Token"); len(vs) > 0 {
		return strings.TrimSpace(vs[0]), true
	}
	if c.s.is("session-token-query-ignored") {
		return "", false
	}
	q := c.r.URL.Query()
	if q.Has("sessionToken") {
		return q.Get("sessionToken"), true
	}
	return "", false
}

// authEither uses the first credential present: Authorization header, then
// session-token header, then sessionToken query argument.
func authEither(c *Ctx, tx *Tx) bool {
	if len(c.r.Header.Values("Authorization")) > 0 {
		return authAPIKey(c, tx)
	}
	if _, ok := sessionToken(c); ok {
		return authSession(c, tx)
	}
	return c.unauthorized("authentication is required")
}
