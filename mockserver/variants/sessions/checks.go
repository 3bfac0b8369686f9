package sessions

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// tokenPrefix starts every session token of legal-token-prefixed.
const tokenPrefix = "st_"

// checkServers compare a password otherwise, write a field of the session
// otherwise, or choose ids and tokens of their own (2.4, 5).
var checkServers = []variants.Server{
	{
		Name: "sessions-password-any-case", Rule: "5",
		Why:    "Passwords are lower-cased before they are stored and compared, so a login with the password in another case succeeds.",
		Origin: variants.BlindAudit2("caught"),
		Request: variants.EditBody(func(r *http.Request) bool { return variants.PostLogin(r) || variants.PutUser(r) }, func(b map[string]any) bool {
			return variants.Replace(b, "password", strings.ToLower)
		}),
	},
	{
		Name: "sessions-user-id-string", Rule: "2.4",
		Why:    "The session's userId is a string (\"1\") instead of a Number.",
		Origin: variants.BlindAudit2("caught"),
		Answer: variants.AnswerTo(variants.PostLogin, func(o map[string]any) {
			if v, ok := o["userId"]; ok {
				o["userId"] = fmt.Sprint(v)
			}
		}),
	},
	{
		Name: "sessions-created-date-only", Rule: "2.4",
		Why:    "The session's created is a date without a time (2026-11-26) where the spec says an ISO 8601 date-time.",
		Origin: variants.BlindAudit2("caught"),
		Answer: variants.AnswerTo(variants.PostLogin, func(o map[string]any) {
			if s, ok := variants.Str(o, "created"); ok && len(s) > 10 {
				o["created"] = s[:10]
			}
		}),
	},
	{
		Name: "legal-session-id-offset", Legal: true, Rule: "2.4",
		Why:    "2.4 gives the session id only as a Number; nothing states where ids start.",
		Origin: variants.BlindAudit2("passed"),
		Answer: variants.AnswerTo(variants.PostLogin, func(o map[string]any) {
			if n, ok := o["id"].(json.Number); ok {
				if v, err := n.Int64(); err == nil {
					o["id"] = variants.Number(v + 1000000)
				}
			}
		}),
	},
	{
		Name: "legal-token-prefixed", Legal: true, Rule: "2.4, 5",
		Why:    "2.4 types token only as a String, and 5 says it is sent back as given; its form is not stated.",
		Origin: variants.BlindAudit2("passed"),
		Wrap: func(next http.Handler, hit func()) http.Handler {
			answers := variants.EditAnswersTo(variants.PostLogin, func(o map[string]any) bool {
				t, ok := variants.Str(o, "token")
				if ok {
					o["token"] = tokenPrefix + t
				}
				return ok
			})(next, hit)
			return variants.Requests(answers, hit, func(r *http.Request, _ map[string]any) bool {
				// A token of this server is the mock's behind the prefix;
				// anything else is no token of it.
				own := func(t string) string {
					if raw, ok := strings.CutPrefix(t, tokenPrefix); ok {
						return raw
					}
					return "not-" + t
				}
				changed := false
				if t := r.Header.Get("session-token"); t != "" {
					r.Header.Set("session-token", own(t))
					changed = true
				}
				q := r.URL.Query()
				if t := q.Get("sessionToken"); t != "" {
					q.Set("sessionToken", own(t))
					r.URL.RawQuery = q.Encode()
					changed = true
				}
				return changed
			})
		},
	},
}
