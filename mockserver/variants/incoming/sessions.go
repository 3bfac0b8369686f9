package incoming

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// sessionServers break the rules of POST /sessions and the session object
// (2.4, 5).
var sessionServers = []variants.Server{
	{
		Name: "b2-sessions-password-any-case", Area: variants.Sessions, Rule: "5",
		Why:    "Passwords are lower-cased before they are stored and compared, so a login with the password in another case succeeds.",
		Origin: origin,
		Request: variants.EditBody(func(r *http.Request) bool { return variants.PostLogin(r) || variants.PutUser(r) }, func(b map[string]any) bool {
			if s, ok := b["password"].(string); ok && s != strings.ToLower(s) {
				b["password"] = strings.ToLower(s)
				return true
			}
			return false
		}),
	},
	{
		Name: "b2-sessions-user-id-string", Area: variants.Sessions, Rule: "2.4",
		Why:    "The session's userId is a string (\"1\") instead of a Number.",
		Origin: origin,
		Answer: variants.AnswerTo(variants.PostLogin, func(o map[string]any) {
			if v, ok := o["userId"]; ok {
				o["userId"] = fmt.Sprint(v)
			}
		}),
	},
	{
		Name: "b2-sessions-created-date-only", Area: variants.Sessions, Rule: "2.4",
		Why:    "The session's created is a date without a time (2026-11-26) where the spec says an ISO 8601 date-time.",
		Origin: origin,
		Answer: variants.AnswerTo(variants.PostLogin, func(o map[string]any) {
			if s, ok := variants.Str(o, "created"); ok && len(s) > 10 {
				o["created"] = s[:10]
			}
		}),
	},
}
