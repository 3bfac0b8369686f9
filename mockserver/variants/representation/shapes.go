package representation

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// shapeServers write errors, dates or collections in another shape: wrong
// ones break 1, 2 or 7.1, legal ones read where those sections are silent.
var shapeServers = []variants.Server{
	{
		Name: "repr-single-error-object", Rule: "7.1",
		Why:    "A 400 with one error answers that error object alone instead of an array of one element.",
		Origin: variants.BlindAudit2("caught"),
		Answer: variants.OnBadRequest(func(errs []any) any {
			if len(errs) == 1 {
				return errs[0]
			}
			return errs
		}),
	},
	{
		Name: "repr-client-date-day-first", Rule: "1, 2.2",
		Why:    "The client's createdDate is written day first (06/01/2025 09:00:00), not as an ISO 8601 date.",
		Origin: variants.BlindAudit2("caught"),
		Answer: variants.OnObjects(func(_ string, o map[string]any) {
			if s, ok := variants.Str(o, "createdDate"); ok {
				if t, err := time.Parse(time.RFC3339, s); err == nil {
					o["createdDate"] = t.UTC().Format("02/01/2006 15:04:05")
				}
			}
		}),
	},
	{
		Name: "repr-nested-error-no-message", Rule: "7.1",
		Why:    "Errors of nested fields (currency.id, app.marketapp.hash) carry no message member.",
		Origin: variants.BlindAudit2("caught"),
		Answer: variants.OnErrors(func(e map[string]any) {
			if f, _ := variants.Str(e, "fieldName"); strings.Contains(f, ".") {
				delete(e, "message")
			}
		}),
	},
	{
		Name: "legal-collection-total", Legal: true, Rule: "2.5",
		Why:    "2.5: \"Some collections may add other properties, such as a page number or the size of the result set.\"",
		Origin: variants.BlindAudit2("passed"),
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
		Name: "legal-error-messages", Legal: true, Rule: "7.1",
		Why:    "7.1 says message is a String of \"Human-readable text\"; its wording is not given.",
		Origin: variants.BlindAudit2("passed"),
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
		Name: "legal-errors-reversed", Legal: true, Rule: "7.1",
		Why:    "7.1 says a 400 body is a JSON array of error objects; it states no order of its elements.",
		Origin: variants.BlindAudit2("passed"),
		Answer: variants.OnBadRequest(func(errs []any) any {
			slices.Reverse(errs)
			return errs
		}),
	},
	{
		Name: "legal-dates-milliseconds", Legal: true, Rule: "1, 2",
		Why:    "1: \"Dates are ISO 8601 strings.\" A date-time with milliseconds (2025-01-06T09:00:00.000Z) is one.",
		Origin: variants.BlindAudit2("passed"),
		Wrap: variants.EditDates(func(d string) string {
			return strings.TrimSuffix(d, "Z") + ".000Z"
		}),
	},
}
