package incoming

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// tokenPrefix starts every session token of b2-legal-token-prefixed.
const tokenPrefix = "st_"

// legalServers choose otherwise where the spec is silent.
var legalServers = []variants.Server{
	{
		Name: "b2-legal-session-id-offset", Area: variants.Sessions, Legal: true, Rule: "2.4",
		Why:    "2.4 gives the session id only as a Number; nothing states where ids start.",
		Origin: origin,
		Answer: variants.AnswerTo(variants.PostLogin, func(o map[string]any) {
			if n, ok := o["id"].(json.Number); ok {
				if v, err := n.Int64(); err == nil {
					o["id"] = variants.Number(v + 1000000)
				}
			}
		}),
	},
	{
		Name: "b2-legal-collection-total", Area: variants.Representation, Legal: true, Rule: "2.5",
		Why:    "2.5: \"Some collections may add other properties, such as a page number or the size of the result set.\"",
		Origin: origin,
		Answer: func(a *rewrite.Answer) {
			if a.Status != http.StatusOK || a.Request.Method != http.MethodGet {
				return
			}
			variants.EditObject(a, func(o map[string]any) bool {
				l, ok := o["clients"].([]any)
				if !ok {
					l, ok = o["apps"].([]any)
				}
				if ok {
					o["total"] = variants.Number(int64(len(l)))
				}
				return ok
			})
		},
	},
	{
		Name: "b2-legal-error-messages", Area: variants.Representation, Legal: true, Rule: "7.1",
		Why:    "7.1 says message is a String of \"Human-readable text\"; its wording is not given.",
		Origin: origin,
		Answer: variants.OnErrors(func(e map[string]any) {
			f, _ := variants.Str(e, "fieldName")
			code, _ := variants.Str(e, "error")
			if f == "" {
				e["message"] = "The request was rejected (" + code + ")."
				return
			}
			e["message"] = "Field " + strconv.Quote(f) + " was rejected (" + code + ")."
		}),
	},
	{
		Name: "b2-legal-errors-reversed", Area: variants.Representation, Legal: true, Rule: "7.1",
		Why:    "7.1 says a 400 body is a JSON array of error objects; it states no order of its elements.",
		Origin: origin,
		Answer: variants.OnBadRequest(func(errs []any) any {
			slices.Reverse(errs)
			return errs
		}),
	},
	{
		Name: "b2-legal-dates-milliseconds", Area: variants.Representation, Legal: true, Rule: "1, 2",
		Why:    "1: \"Dates are ISO 8601 strings.\" A date-time with milliseconds (2025-01-06T09:00:00.000Z) is one.",
		Origin: origin,
		Wrap: variants.EditDates(func(d string) string {
			return strings.TrimSuffix(d, "Z") + ".000Z"
		}),
	},
	{
		Name: "b2-legal-token-prefixed", Area: variants.Sessions, Legal: true, Rule: "2.4, 5",
		Why:    "2.4 types token only as a String, and 5 says it is sent back as given; its form is not stated.",
		Origin: origin,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			answers := variants.Answers(next, hit, variants.PostLogin, func(a *rewrite.Answer, _ map[string]any) bool {
				return a.Status == http.StatusOK && variants.EditObject(a, func(o map[string]any) bool {
					t, ok := variants.Str(o, "token")
					if ok {
						o["token"] = tokenPrefix + t
					}
					return ok
				})
			})
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
