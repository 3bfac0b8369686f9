package snapshots

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"
)

// tokenAlphabet is the set of URI "unreserved" characters. Tokens and keys
// use all of it, dots and tildes included, so they go into a query string
// or a header unescaped but do not look like hex or base64.
const tokenAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"

func newToken(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, 2*n)
	for len(out) < n {
		rand.Read(buf)
		for _, b := range buf {
			// Rejection sampling keeps every character equally likely.
			if int(b) < 256-256%len(tokenAlphabet) && len(out) < n {
				out = append(out, tokenAlphabet[int(b)%len(tokenAlphabet)])
			}
		}
	}
	return string(out)
}

func newWriteKey() string {
	const hex = "0123456789ABCDEF"
	var b [16]byte
	rand.Read(b[:])
	out := make([]byte, 32)
	for i, x := range b {
		out[2*i] = hex[x>>4]
		out[2*i+1] = hex[x&15]
	}
	return string(out)
}

func hashPassword(pw string) (salt, hash []byte) {
	salt = make([]byte, 16)
	rand.Read(salt)
	return salt, digest(salt, pw)
}

func digest(salt []byte, pw string) []byte {
	h := sha256.New()
	h.Write(salt)
	h.Write([]byte(pw))
	return h.Sum(nil)
}

func passwordMatches(u *user, pw string) bool {
	return subtle.ConstantTimeCompare(digest(u.pwSalt, pw), u.pwHash) == 1
}

// principal is the authenticated caller of one request.
type principal struct {
	userID   int64
	clientID int64
	token    string // the session token the request carried, if any
}

// authenticate resolves every credential the request carries against st.
// Every credential present must be valid and all must name the same user:
// a request that mixes a good key with a bad token is not "authenticated
// correctly", so it is refused rather than half-trusted.
func authenticate(r *http.Request, st *state) (principal, bool) {
	var p principal
	found := false
	merge := func(uid int64) bool {
		if found && uid != p.userID {
			return false
		}
		p.userID, found = uid, true
		return true
	}
	if vals := r.Header.Values("Authorization"); len(vals) > 0 {
		if len(vals) != 1 {
			return p, false
		}
		// The scheme is matched exactly as the spec writes it.
		key, ok := strings.CutPrefix(vals[0], "api-key ")
		if !ok || key == "" {
			return p, false
		}
		uid, ok := st.apiKeys.get(key)
		if !ok || !merge(uid) {
			return p, false
		}
	}
	var tokens []string
	if vals := r.Header.Values("Session-Token"); len(vals) > 0 {
		if len(vals) != 1 {
			return p, false
		}
		tokens = append(tokens, vals[0])
	}
	q, _ := url.ParseQuery(r.URL.RawQuery)
	if vals := q["sessionToken"]; len(vals) > 0 {
		if len(vals) != 1 {
			return p, false
		}
		tokens = append(tokens, vals[0])
	}
	for _, tok := range tokens {
		sess, ok := st.sessions.get(tok)
		if !ok || !merge(sess.userID) {
			return p, false
		}
		p.token, p.clientID = tok, sess.clientID
	}
	if !found {
		return p, false
	}
	u, ok := st.users.get(p.userID)
	if !ok {
		return p, false
	}
	if p.clientID == 0 {
		p.clientID = u.clientIDs[0]
	}
	return p, true
}
