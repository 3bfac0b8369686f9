package incoming

import (
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// representationServers break the rules of every answer (1, 2, 7.1).
var representationServers = []variants.Server{
	{
		Name: "b2-repr-single-error-object", Area: variants.Representation, Rule: "7.1",
		Why:    "A 400 with one error answers that error object alone instead of an array of one element.",
		Origin: origin,
		Answer: variants.OnBadRequest(func(errs []any) any {
			if len(errs) == 1 {
				return errs[0]
			}
			return errs
		}),
	},
	{
		Name: "b2-repr-client-date-day-first", Area: variants.Representation, Rule: "1, 2.2",
		Why:    "The client's createdDate is written day first (06/01/2025 09:00:00), not as an ISO 8601 date.",
		Origin: origin,
		Answer: variants.OnObjects(func(_ string, o map[string]any) {
			if s, ok := variants.Str(o, "createdDate"); ok {
				if t, err := time.Parse(time.RFC3339, s); err == nil {
					o["createdDate"] = t.UTC().Format("02/01/2006 15:04:05")
				}
			}
		}),
	},
	{
		Name: "b2-repr-nested-error-no-message", Area: variants.Representation, Rule: "7.1",
		Why:    "Errors of nested fields (currency.id, app.marketapp.hash) carry no message member.",
		Origin: origin,
		Answer: variants.OnErrors(func(e map[string]any) {
			if f, _ := variants.Str(e, "fieldName"); strings.Contains(f, ".") {
				delete(e, "message")
			}
		}),
	},
}
