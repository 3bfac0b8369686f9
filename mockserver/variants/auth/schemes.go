package auth

import (
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The credential schemes of section 5, each in its own place and not interchangeable.
var schemesServers = []variants.Server{
	{Name: "api-key-scheme-ignored", Rule: "5", Why: `the Authorization header's last word is taken as the key, with or without "api-key"`, Origin: variants.BuiltIn,
		Request: func(r *http.Request) {
			var keys []string
			for _, v := range r.Header.Values("Authorization") {
				if words := strings.Fields(v); len(words) > 0 {
					v = "api-key " + words[len(words)-1]
				}
				keys = append(keys, v)
			}
			if keys != nil {
				r.Header["Authorization"] = keys
			}
		},
	},
	{Name: "session-token-header-ignored", Rule: "5", Why: "the session-token header is not read", Origin: variants.BuiltIn,
		Request: func(r *http.Request) { r.Header.Del("session-token") },
	},
	{Name: "session-token-query-ignored", Rule: "5", Why: "the sessionToken query argument is not read", Origin: variants.BuiltIn,
		Request: variants.DropTokenQuery,
	},
	{Name: "session-token-as-api-key", Rule: "5", Why: `a session token is accepted in "Authorization: api-key TOKEN"`, Origin: variants.Gate3,
		Request: func(r *http.Request) {
			if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "api-key "); ok && variants.SessionToken.MatchString(v) {
				r.Header.Del("Authorization")
				r.Header.Set("session-token", v)
			}
		},
	},
	{Name: "api-key-as-session-token", Rule: "5", Why: "an API key is accepted in the session-token header and the sessionToken query", Origin: variants.Gate3,
		Request: func(r *http.Request) {
			v := r.Header.Get("session-token")
			if v == "" {
				v = r.URL.Query().Get("sessionToken")
			}
			if v != "" && !variants.SessionToken.MatchString(v) {
				r.Header.Del("session-token")
				variants.DropTokenQuery(r)
				r.Header.Set("Authorization", "api-key "+v)
			}
		},
	},
	{Name: "api-key-in-token-query", Rule: "5", Why: "an API key is accepted as the sessionToken query argument", Origin: variants.Gate3,
		Request: func(r *http.Request) {
			if v := r.URL.Query().Get("sessionToken"); v != "" && !variants.SessionToken.MatchString(v) {
				variants.DropTokenQuery(r)
				r.Header.Set("Authorization", "api-key "+v)
			}
		},
	},
	{
		Name:   "authorization-bare-key",
		Rule:   "5",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§5: the Authorization header carries "api-key <API_KEY>"; a bare key is not authenticated correctly and must get 401`,
		Wrap: variants.EditRequests(func(r *http.Request, _ map[string]any) bool {
			v := r.Header.Get("Authorization")
			if v == "" || strings.Contains(v, " ") {
				return false
			}
			r.Header.Set("Authorization", "api-key "+v)
			return true
		}),
	},
	{
		Name:   "bearer-session-token",
		Rule:   "5",
		Origin: variants.BlindAudit1("missed"),
		Why:    `§5: the session token goes in the header "session-token" or the query argument "sessionToken"; "Authorization: Bearer <token>" is not a scheme of the spec and must get 401`,
		Wrap: variants.EditRequests(func(r *http.Request, _ map[string]any) bool {
			v := r.Header.Get("Authorization")
			if len(v) < 7 || !strings.EqualFold(v[:7], "bearer ") {
				return false
			}
			r.Header.Del("Authorization")
			r.Header.Set("session-token", strings.TrimSpace(v[7:]))
			return true
		}),
	},
	{
		Name:   "api-key-in-session-token-header",
		Rule:   "5",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§5: the "session-token" header carries a session token obtained by POST /sessions, not an API key ("Authorization: api-key <API_KEY>"); an API key there is not authenticated correctly (401)`,
		Wrap: variants.EditRequests(func(r *http.Request, _ map[string]any) bool {
			v := r.Header.Get("session-token")
			if v == "" || variants.SessionToken.MatchString(v) || r.Header.Get("Authorization") != "" {
				return false
			}
			r.Header.Del("session-token")
			r.Header.Set("Authorization", "api-key "+v)
			return true
		}),
	},
	{
		Name:   "query-session-token-ignored",
		Rule:   "5",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§5: the token is sent "either in the header session-token ... or in the query-string argument sessionToken=<SESSION_TOKEN>"; the query form is ignored (401)`,
		Wrap: variants.EditRequests(func(r *http.Request, _ map[string]any) bool {
			q := r.URL.Query()
			if !q.Has("sessionToken") {
				return false
			}
			q.Del("sessionToken")
			r.URL.RawQuery = q.Encode()
			return true
		}),
	},
	{
		Name:   "session-header-ignored-on-put-clients",
		Rule:   "5",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§5: a session token in the "session-token" header authenticates every endpoint; PUT /clients/:clientId forgets it and answers 401`,
		Wrap: variants.EditRequests(func(r *http.Request, _ map[string]any) bool {
			if _, ok := variants.At(r, "PUT", "/clients/*"); !ok || r.Header.Get("session-token") == "" {
				return false
			}
			r.Header.Del("session-token")
			return true
		}),
	},
	{
		Name:   "api-key-in-query-accepted",
		Rule:   "5",
		Origin: variants.BlindAudit1("missed"),
		Why:    `§5: the API key is sent in the header "Authorization: api-key <API_KEY>"; a request carrying it only as ?apiKey= is not authenticated correctly and must get 401`,
		Wrap: variants.EditRequests(func(r *http.Request, _ map[string]any) bool {
			k := r.URL.Query().Get("apiKey")
			if k == "" || r.Header.Get("Authorization") != "" {
				return false
			}
			r.Header.Set("Authorization", "api-key "+k)
			return true
		}),
	},
}
