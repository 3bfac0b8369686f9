package users

import (
	"html"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// Names and timezone: limits in characters, unusual letters, the codes of 7.3 (2.1, 8).
var namesServers = []variants.Server{
	{Name: "firstname-limit-in-bytes", Rule: "8", Why: "firstName is limited to 255 bytes of UTF-8, not 255 characters", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, variants.OverBytes("firstName")),
	},
	{Name: "names-ascii-only", Rule: "2.1", Why: "firstName and lastName refuse letters outside ASCII", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			return variants.RefuseIf(b, "firstName", "", notASCII) || variants.RefuseIf(b, "lastName", "", notASCII)
		}),
	},
	{Name: "one-character-name-refused", Rule: "7.3", Why: "a first name of one character is refused as not provided", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			return variants.RefuseIf(b, "firstName", "", func(s string) bool { return utf8.RuneCountInString(s) == 1 })
		}),
	},
	{Name: "names-html-escaped", Rule: "2.1", Why: "firstName and lastName are stored HTML-escaped (O&#39;Brien)", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			changed := false
			for _, k := range []string{"firstName", "lastName"} {
				if s, ok := b[k].(string); ok && html.EscapeString(s) != s {
					b[k], changed = html.EscapeString(s), true
				}
			}
			return changed
		}),
	},
	{Name: "timezone-hyphen-refused", Rule: "2.1", Why: "a timezone whose city has a hyphen (America/Port-au-Prince) is refused", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			return variants.RefuseIf(b, "timezone", "Invalid", func(s string) bool { return strings.Contains(s, "-") })
		}),
	},
	{
		Name:   "first-name-of-255-refused",
		Rule:   "4.1, 8",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.1/§8: firstName is ..255, "at most 255 characters long"; a first name of exactly 255 characters is refused (< 255 instead of <= 255)`,
		Wrap:   variants.RefuseLength("PUT", "/users/*", "firstName", pricing.CodeInvalidFirstName.String(), func(n int) bool { return n == 255 }),
	},
	{
		Name:   "last-name-truncated",
		Rule:   "4.1, 8",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.1/§8: lastName is ..255; a longer last name is silently cut to 255 characters and accepted instead of refused with 400`,
		Wrap:   variants.TruncateField("PUT", "/users/*", "lastName"),
	},
	{
		Name:   "first-name-error-coded-last-name",
		Rule:   "7.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.3: a missing first name is InvalidFirstName; PUT /users names it InvalidLastName (copy-paste of the last-name check)`,
		Wrap: variants.EditAnswersWhen(variants.PutUser, func(a *rewrite.Answer, _ map[string]any) bool {
			return variants.EditErrors(a, func(errs []any) (any, bool) {
				changed := false
				for _, e := range errs {
					if o, ok := e.(map[string]any); ok && o["error"] == pricing.CodeInvalidFirstName.String() {
						o["error"] = pricing.CodeInvalidLastName.String()
						changed = true
					}
				}
				return errs, changed
			})
		}),
	},
	{
		Name:   "timezone-iana",
		Legal:  true,
		Rule:   "2.1",
		Origin: variants.BuiltIn,
		Why: "§2.1: timezone is a \"Timezone name in the form Area/City\": this target takes only names of the IANA " +
			"time zone database",
		Wrap: variants.Validates(variants.Rule{
			Applies: variants.ToMember(http.MethodPut, "users"),
			Owns:    []string{"timezone"},
			Check: func(_ *http.Request, b map[string]any) []variants.FieldError {
				tz, ok := b["timezone"].(string)
				if !ok || !strings.Contains(tz, "/") {
					return nil // the mock's own rule answers these
				}
				if _, err := time.LoadLocation(tz); err != nil {
					return []variants.FieldError{{FieldName: "timezone", Error: pricing.CodeInvalidTimezone.String(), Message: tz + " is not a time zone."}}
				}
				return nil
			},
			Fix:    func(b map[string]any) { b["timezone"] = "Europe/London" },
			Broken: map[string]any{"timezone": ""},
		}),
	},
}

// notASCII reports whether s has a letter outside ASCII.
func notASCII(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf {
			return true
		}
	}
	return false
}
