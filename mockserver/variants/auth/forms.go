package auth

import (
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// formServers are credentials in forms the spec does not name, and what a
// refused credential is answered (5, 7.2).
var formServers = []variants.Server{
	{
		Name: "auth-bearer-accepted", Rule: "5",
		Why:    "It takes `Authorization: Bearer <API_KEY>` as well as `api-key <API_KEY>`, a credential form the spec does not have.",
		Origin: variants.BlindAudit2("missed"),
		Request: func(r *http.Request) {
			h := r.Header.Get("Authorization")
			if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
				r.Header.Set("Authorization", "api-key "+strings.TrimSpace(h[7:]))
			}
		},
	},
	{
		Name: "auth-token-query-snake-case", Rule: "5",
		Why:    "It reads the session token from the query argument session_token too, not only sessionToken.",
		Origin: variants.BlindAudit2("missed"),
		Request: func(r *http.Request) {
			q := r.URL.Query()
			if t := q.Get("session_token"); t != "" && !q.Has("sessionToken") {
				q.Del("session_token")
				q.Set("sessionToken", t)
				r.URL.RawQuery = q.Encode()
			}
		},
	},
	{
		Name: "auth-session-token-in-authorization", Rule: "5",
		Why:    "It takes a session token in `Authorization: session-token <TOKEN>`, where the spec has it only in the session-token header or the sessionToken query argument.",
		Origin: variants.BlindAudit2("missed"),
		Request: func(r *http.Request) {
			h := r.Header.Get("Authorization")
			if t, ok := strings.CutPrefix(h, "session-token "); ok && r.Header.Get("session-token") == "" {
				r.Header.Del("Authorization")
				r.Header.Set("session-token", strings.TrimSpace(t))
			}
		},
	},
	{
		Name: "auth-unknown-key-forbidden", Rule: "5, 7.2",
		Why:    "An Authorization header with an unknown API key is answered 403 instead of 401, as if the caller were authenticated but not allowed.",
		Origin: variants.BlindAudit2("caught"),
		Answer: func(a *rewrite.Answer) {
			if a.Status == http.StatusUnauthorized && a.Request.Header.Get("Authorization") != "" {
				variants.SetError(a, http.StatusForbidden, pricing.CodeForbidden.String(), "The API key does not grant access.")
			}
		},
	},
	{
		Name: "auth-other-user-not-found", Rule: "5, 7.2",
		Why:    "PUT /users/:userId of an existing user who is not the caller answers 404 instead of 403.",
		Origin: variants.BlindAudit2("caught"),
		Answer: func(a *rewrite.Answer) {
			if a.Status == http.StatusForbidden && variants.PutUser(a.Request) {
				variants.SetError(a, http.StatusNotFound, pricing.CodeNotFound.String(), "There is no such user.")
			}
		},
	},
}
