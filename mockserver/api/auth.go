package api

import (
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// authenticate is the check of the three schemes of spec section 5:
// "Authorization: api-key <KEY>", header "session-token: <TOKEN>" and query
// "sessionToken=<TOKEN>". Every credential present must be valid and all
// must name the same user; otherwise, or when none is present, the answer
// is 401. It reports whether the checks go on.
func (c *call) authenticate() bool {
	id, rule, msg := caller(c.st, c.r)
	if msg != "" {
		return c.refuseWith(rule, pricing.CodeUnauthorized, msg)
	}
	c.p.Caller, c.authed = id, true
	return true
}

// Authenticate is the user a request's credentials authenticate, by the
// rules of section 5, whether or not its endpoint needs them.
func Authenticate(st *pricing.Store, r Request) (int64, bool) {
	id, _, msg := caller(st, r)
	return id, msg == ""
}

// caller is the user a request's credentials name, or the rule that refuses
// them and why.
func caller(st *pricing.Store, r Request) (int64, Rule, string) {
	var ids []int64
	for _, v := range r.Header.Values("Authorization") {
		key, ok := APIKey(v)
		if !ok {
			return 0, RuleUnauthenticated, "The Authorization header must be \"api-key <API_KEY>\"."
		}
		id, ok := st.UserIDForAPIKey(key)
		if !ok {
			return 0, RuleUnauthenticated, "The API key is not valid."
		}
		ids = append(ids, id)
	}
	tokens := append(r.Header.Values("session-token"), r.Query["sessionToken"]...)
	for _, t := range tokens {
		if t == "" {
			return 0, RuleUnauthenticated, "The session token is empty."
		}
		id, ok := st.UserIDForToken(t)
		if !ok {
			return 0, RuleUnauthenticated, "The session token is not valid."
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return 0, RuleUnauthenticated, "Authentication is required: an api-key Authorization header, a session-token header or a sessionToken query argument."
	}
	for _, id := range ids[1:] {
		if id != ids[0] {
			return 0, RuleMixedCallers, "The credentials of this request name different users."
		}
	}
	return ids[0], "", ""
}

// APIKey parses "api-key <KEY>": the scheme word in any case, one or more
// spaces, and a key without white space.
func APIKey(header string) (string, bool) {
	const scheme = "api-key"
	if len(header) <= len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) || header[len(scheme)] != ' ' {
		return "", false
	}
	key := strings.TrimLeft(header[len(scheme):], " ")
	if key == "" || strings.ContainsAny(key, " \t\r\n") {
		return "", false
	}
	return key, true
}
