package representation

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The error array of 7.1 and the codes of 7.3.
var errorsServers = []variants.Server{
	{Name: "error-body-object", Rule: "7.1", Why: `a 400 body is an object {"errors": [...]} instead of an array`, Origin: variants.BuiltIn,
		Answer: variants.OnBadRequest(func(errs []any) any { return map[string]any{"errors": errs} }),
	},
	{Name: "error-fieldname-missing", Rule: "7.1", Why: "the errors of a 400 have no fieldName", Origin: variants.BuiltIn,
		Answer: variants.OnBadRequest(func(errs []any) any {
			for _, e := range errs {
				if o, ok := e.(map[string]any); ok {
					delete(o, "fieldName")
				}
			}
			return errs
		}),
	},
	{Name: "error-code-misspelt", Rule: "7.3", Why: "the code InvalidFirstName is answered as InvalidFirstname", Origin: variants.BuiltIn,
		Answer: variants.OnBadRequest(func(errs []any) any {
			for _, e := range errs {
				if o, ok := e.(map[string]any); ok && o["error"] == pricing.CodeInvalidFirstName.String() {
					o["error"] = strings.Replace(pricing.CodeInvalidFirstName.String(), "Name", "name", 1)
				}
			}
			return errs
		}),
	},
	{Name: "only-first-error", Rule: "7.3", Why: "a 400 answers only the first of several errors", Origin: variants.BuiltIn,
		Answer: variants.OnBadRequest(func(errs []any) any { return errs[:min(len(errs), 1)] }),
	},
	{Name: "error-for-valid-field", Rule: "7.1", Why: "a 400 also has an element for a field that was valid (the validator reports the field after each offending one)", Origin: variants.FaultClasses,
		Request: variants.KeepBody, Answer: namedFieldToo,
	},
	{Name: "error-message-empty", Rule: "7.1", Why: "the message of every error is an empty string", Origin: variants.FaultClasses,
		Answer: variants.OnErrors(func(e map[string]any) { e["message"] = "" }),
	},
	{Name: "error-message-not-string", Rule: "7.1", Why: `the message of every error is an object of translations ({"en": "..."}), not a string`, Origin: variants.FaultClasses,
		Answer: variants.OnErrors(func(e map[string]any) { e["message"] = map[string]any{"en": e["message"]} }),
	},
	{Name: "error-fieldname-empty", Rule: "7.1", Why: "the fieldName of every error is an empty string", Origin: variants.FaultClasses,
		Answer: variants.OnErrors(func(e map[string]any) { e["fieldName"] = "" }),
	},
	{Name: "error-fieldname-snake-case", Rule: "7.1", Why: "fieldName names another field than the body's: first_name for firstName", Origin: variants.FaultClasses,
		Answer: variants.OnErrors(func(e map[string]any) {
			if f, ok := e["fieldName"].(string); ok {
				e["fieldName"] = snakeCase(f)
			}
		}),
	},
	{Name: "error-fieldname-is-code", Rule: "7.1", Why: "fieldName and error are swapped: the field's name is in error, the code in fieldName", Origin: variants.FaultClasses,
		Answer: variants.OnErrors(func(e map[string]any) { e["fieldName"], e["error"] = e["error"], e["fieldName"] }),
	},
	{
		Name:   "single-error-as-object",
		Rule:   "7.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.1: "A 400 response ... has a body that is a JSON array"; a 400 with a single error answers the bare error object`,
		Wrap: variants.EditAnswersWhen(func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
			return variants.EditErrors(a, func(errs []any) (any, bool) {
				if len(errs) != 1 {
					return errs, false
				}
				return errs[0], true
			})
		}),
	},
	{
		Name:   "errors-without-message-on-post-apps",
		Rule:   "7.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.1: each element of a 400 array has fieldName, error and message; POST /apps leaves message out`,
		Wrap: variants.EditAnswersWhen(variants.PostApps, func(a *rewrite.Answer, _ map[string]any) bool {
			return variants.EditErrors(a, func(errs []any) (any, bool) {
				for _, e := range errs {
					if o, ok := e.(map[string]any); ok {
						delete(o, "message")
					}
				}
				return errs, len(errs) > 0
			})
		}),
	},
	{
		Name:   "error-code-key-on-put-clients",
		Rule:   "7.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.1: the error code of a 400 element is in the field "error"; PUT /clients names it "code"`,
		Wrap: variants.EditAnswersWhen(variants.PutClient, func(a *rewrite.Answer, _ map[string]any) bool {
			return variants.EditErrors(a, func(errs []any) (any, bool) {
				for _, e := range errs {
					if o, ok := e.(map[string]any); ok {
						o["code"] = o["error"]
						delete(o, "error")
					}
				}
				return errs, len(errs) > 0
			})
		}),
	},
	{
		Name:   "validation-422-on-post-clients",
		Rule:   "7.2",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.2: a validation failure is 400; POST /clients answers it with 422 Unprocessable Entity`,
		Wrap:   variants.StatusOf("POST", "/clients", http.StatusBadRequest, http.StatusUnprocessableEntity, false),
	},
	{
		Name:   "errors-reordered",
		Legal:  true,
		Rule:   "7.1, 7.3",
		Origin: variants.BuiltIn,
		Why:    "§7.1, §7.3: a 400 is an array of {fieldName, error, message}; the order, the message texts and further members are not specified",
		Wrap: variants.EditErrorArrays(func(errs []any) (any, bool) {
			slices.Reverse(errs)
			for i, e := range errs {
				if o, ok := e.(map[string]any); ok {
					o["message"] = fmt.Sprintf("Problem %d of %d with this request.", i+1, len(errs))
					o["x-detail"] = map[string]any{"index": i}
				}
			}
			return errs, true
		}),
	},
	{
		Name:   "errors-two-per-field",
		Legal:  true,
		Rule:   "7.1",
		Origin: variants.FaultClasses,
		Why: "§7.1: each element names \"the offending body field\"; the spec does not say that a field has one element: " +
			"this target answers a second element, with a code of its own, for every field it names",
		Wrap: variants.EditErrorArrays(func(errs []any) (any, bool) {
			for _, e := range slices.Clone(errs) {
				if o, ok := e.(map[string]any); ok && o["fieldName"] != "" {
					errs = append(errs, map[string]any{"fieldName": o["fieldName"], "error": "SeeAbove", "message": "This field has another problem too."})
				}
			}
			return errs, len(errs) > 0
		}),
	},
	{
		Name:   "nested-fieldnames-bracketed",
		Legal:  true,
		Rule:   "7.1",
		Origin: variants.BuiltIn,
		Why:    "§7.1: fieldName is the \"Name of the offending body field\"; how a nested field is named is not shown (here app[marketapp][hash])",
		Wrap: variants.EditErrorArrays(func(errs []any) (any, bool) {
			changed := false
			for _, e := range errs {
				if o, ok := e.(map[string]any); ok {
					if f, ok := o["fieldName"].(string); ok && strings.Contains(f, ".") {
						parts := strings.Split(f, ".")
						o["fieldName"], changed = parts[0]+"["+strings.Join(parts[1:], "][")+"]", true
					}
				}
			}
			return errs, changed
		}),
	},
	{
		Name:   "legal-other-error-messages",
		Legal:  true,
		Rule:   "7.1",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§7.1: message is "Human-readable text", free; every error element has a message of its own wording`,
		Wrap: variants.EditAnswersWhen(func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
			if a.Status < 400 {
				return false
			}
			return a.EditJSON(func(v any) (any, bool) {
				errs, ok := v.([]any)
				for _, e := range errs {
					if o := variants.Obj(e); o != nil {
						f, _ := variants.Str(o, "fieldName")
						c, _ := variants.Str(o, "error")
						o["message"] = "Request refused (" + c + ") " + f
					}
				}
				return v, ok && len(errs) > 0
			})
		}),
	},
	{
		Name:   "legal-errors-last-field-first",
		Legal:  true,
		Rule:   "7.1",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§7.1: a 400 body is a JSON array of errors; the spec fixes no order of its elements, so they are answered last field first`,
		Wrap: variants.EditAnswersWhen(func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
			return variants.EditErrors(a, func(errs []any) (any, bool) {
				if len(errs) < 2 {
					return errs, false
				}
				out := make([]any, len(errs))
				for i, e := range errs {
					out[len(errs)-1-i] = e
				}
				return out, true
			})
		}),
	},
	{
		Name:   "legal-non-400-errors-as-object",
		Legal:  true,
		Rule:   "7.1, 7.2",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§7.1 gives the shape of "A 400 response" only; the bodies of 401, 403 and 404 (§7.2) are not specified, so they answer one object {"error", "message"}`,
		Wrap: variants.EditAnswersWhen(func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
			if a.Status != http.StatusUnauthorized && a.Status != http.StatusForbidden && a.Status != http.StatusNotFound {
				return false
			}
			return a.EditJSON(func(v any) (any, bool) {
				errs, ok := v.([]any)
				if !ok || len(errs) != 1 || variants.Obj(errs[0]) == nil {
					return v, false
				}
				o := variants.Obj(errs[0])
				return map[string]any{"error": o["error"], "message": o["message"]}, true
			})
		}),
	},
}

// namedFieldToo is the answer rewrite of error-for-valid-field: each
// element that names a top-level field of the body gets a twin for the
// field after it, in the order of the names, when that one was valid.
func namedFieldToo(a *rewrite.Answer) {
	body, ok := variants.DecodeObject(variants.SentBody(a.Request))
	if a.Status != http.StatusBadRequest || !ok {
		return
	}
	keys := slices.Sorted(maps.Keys(body))
	a.EditJSON(func(v any) (any, bool) {
		errs, ok := v.([]any)
		if !ok {
			return v, false
		}
		named := map[string]bool{}
		for _, e := range errs {
			f, _ := variants.Str(variants.Obj(e), "fieldName")
			named[f] = true
		}
		var twins []any
		twinned := map[string]bool{}
		for i, k := range keys {
			if !named[k] || i+1 == len(keys) || named[keys[i+1]] || twinned[keys[i+1]] {
				continue
			}
			next := keys[i+1]
			twinned[next] = true
			twins = append(twins, map[string]any{"fieldName": next, "error": "Invalid" + strings.ToUpper(next[:1]) + next[1:], "message": next + " is invalid."})
		}
		return append(errs, twins...), len(twins) > 0
	})
}

// snakeCase writes firstName as first_name.
func snakeCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
