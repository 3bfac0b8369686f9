package sessions

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The session object of 2.4.
var sessionServers = []variants.Server{
	{Name: "session-without-creatorUserId", Rule: "2.4", Why: "the session object has no creatorUserId", Origin: variants.BuiltIn,
		Answer: variants.OnObjectsWith("token", func(o map[string]any) { delete(o, "creatorUserId") }),
	},
	{Name: "session-created-epoch", Rule: "2.4", Why: "a session's created is 1970-01-01T00:00:00Z", Origin: variants.Gate3,
		Answer: variants.AnswerTo(variants.PostLogin, func(o map[string]any) { o["created"] = "1970-01-01T00:00:00Z" }),
	},
	{
		Name:   "session-user-id-of-first-login",
		Rule:   "2.4, 5",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.4/§5: the session of POST /sessions is the session of the account whose credentials were sent, its userId that user; here userId is cached from the first login, so the second account gets the first one's id`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			var mu sync.Mutex
			var first any
			return variants.EditAnswersTo(variants.PostLogin, func(o map[string]any) bool {
				mu.Lock()
				defer mu.Unlock()
				if first == nil {
					first = o["userId"]
					return false
				}
				if o["userId"] == first {
					return false
				}
				o["userId"] = first
				return true
			})(next, hit)
		},
	},
	{
		Name:   "session-without-client-id",
		Rule:   "2.4",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.4: the session returned by POST /sessions has the fields id, created, creatorUserId, userId, clientId and token; clientId is left out`,
		Wrap:   variants.EditAnswersTo(variants.PostLogin, func(o map[string]any) bool { return variants.Drop(o, "clientId") }),
	},
	{
		Name:   "session-created-date-only",
		Rule:   "2.4",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.4: the session's created is "String, ISO 8601 date-time"; it is answered as a bare date (2025-01-06) without the time`,
		Wrap: variants.EditAnswersTo(variants.PostLogin, func(o map[string]any) bool {
			return variants.Replace(o, "created", func(c string) string { return c[:min(len(c), 10)] })
		}),
	},
	{
		Name:   "legal-large-session-ids",
		Legal:  true,
		Rule:   "2.4",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§2.4: the session's id is a Number with no stated range or sequence; sessions are numbered from 1000001`,
		Wrap: variants.EditAnswersTo(variants.PostLogin, func(o map[string]any) bool {
			n, ok := o["id"].(json.Number)
			i, err := n.Int64()
			if !ok || err != nil {
				return false
			}
			o["id"] = variants.Number(i + 1000000)
			return true
		}),
	},
}
