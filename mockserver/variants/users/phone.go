package users

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The phone fields (2.1, 7.3).
var phoneServers = []variants.Server{
	{Name: "dialcode-without-plus", Rule: "2.1", Why: "phoneCountry.dialCode has no leading plus sign", Origin: variants.BuiltIn,
		Answer: variants.OnObjects(func(_ string, o map[string]any) {
			variants.Replace(o, "dialCode", func(s string) string { return strings.TrimPrefix(s, "+") })
		}),
	},
	{Name: "phone-country-unchecked", Rule: "7.3", Why: "an unknown phoneCountry.id is accepted (and stored) instead of InvalidPhoneCountryId", Origin: variants.Gate3,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			pc, ok := b["phoneCountry"].(map[string]any)
			if id, isNum := pc["id"].(json.Number); ok && isNum && len(id) > 6 {
				delete(b, "phoneCountry")
				return true
			}
			return false
		}),
	},
	{Name: "phone-codes-generic", Rule: "7.3", Why: "the phone errors carry the code InvalidPhone instead of InvalidPhoneCountryId, InvalidPhoneNumber, InvalidPhoneExtension", Origin: variants.Gate3,
		Answer: variants.OnErrors(func(e map[string]any) {
			if c, _ := e["error"].(string); strings.HasPrefix(c, "InvalidPhone") {
				e["error"] = "InvalidPhone"
			}
		}),
	},
	{Name: "phone-country-name-wrong-dial-code", Rule: "2.1", Why: "phoneCountry.name carries another country's dial code in brackets: (+1) whatever dialCode says", Origin: variants.Gate3,
		Answer: variants.OnObjects(func(key string, o map[string]any) {
			if name, ok := o["name"].(string); ok && key == "phoneCountry" {
				if i := strings.LastIndex(name, "("); i >= 0 {
					o["name"] = name[:i] + "(+1)"
					if o["dialCode"] == "+1" {
						o["name"] = name[:i] + "(+44)"
					}
				}
			}
		}),
	},
	{Name: "phone-extension-unchecked", Rule: "7.3", Why: "a phoneExtension of another JSON type is ignored instead of InvalidPhoneExtension", Origin: variants.Gate3,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			if _, isObj := b["phoneExtension"].(map[string]any); isObj {
				delete(b, "phoneExtension")
				return true
			}
			return false
		}),
	},
	{
		Name:   "unknown-phone-country-ignored",
		Rule:   "7.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.3: PUT /users answers InvalidPhoneCountryId when "the country ID does not match an allowed value"; an unknown phoneCountry.id is silently dropped and the update answers 200`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return variants.RewriteWhen(variants.PutUser, func(r *http.Request, body map[string]any) bool {
				if !variants.Has(body, "phoneCountry") {
					return false
				}
				id := variants.Sub(body, "phoneCountry")["id"]
				_, cat := variants.Call(next, r, "GET", "/phoneCountries", nil)
				known := false
				variants.Each(cat, func(key string, o map[string]any) bool {
					if key == "phoneCountries" && o["id"] == id {
						known = true
					}
					return false
				})
				return !known && variants.Drop(body, "phoneCountry")
			})(next, hit)
		},
	},
	{
		Name:   "empty-phone-number-ignored",
		Rule:   "7.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.3: InvalidPhoneNumber when "no phone number was provided"; an empty phoneNumber is dropped and PUT /users answers 200`,
		Wrap: variants.RewriteWhen(variants.PutUser, func(_ *http.Request, body map[string]any) bool {
			s, ok := variants.Str(body, "phoneNumber")
			return ok && strings.TrimSpace(s) == "" && variants.Drop(body, "phoneNumber")
		}),
	},
	{
		Name:   "dial-code-without-plus",
		Rule:   "2.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.1: phoneCountry.dialCode is the "dial code of the country, with a leading plus sign"; it is answered without it ("44")`,
		Wrap: variants.EditUserAnswers(func(o map[string]any) bool {
			pc := variants.Sub(o, "phoneCountry")
			d, ok := variants.Str(pc, "dialCode")
			if !ok || !strings.HasPrefix(d, "+") {
				return false
			}
			pc["dialCode"] = d[1:]
			return true
		}),
	},
	{
		Name:   "phone-country-name-without-dial-code",
		Rule:   "2.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.1: phoneCountry.name "includes the dial code in brackets"; it is answered as the bare country name`,
		Wrap: variants.EditUserAnswers(func(o map[string]any) bool {
			pc := variants.Sub(o, "phoneCountry")
			n, ok := variants.Str(pc, "name")
			i := strings.Index(n, " (")
			if !ok || i < 0 {
				return false
			}
			pc["name"] = n[:i]
			return true
		}),
	},
	{
		Name:   "phone-fields-required",
		Legal:  true,
		Rule:   "7.3",
		Origin: variants.BuiltIn,
		Why: "§7.3: PUT /users/:userId answers InvalidPhoneNumber when \"No phone number was provided\" " +
			"(and InvalidPhoneCountryId for the country): this target requires both in every body",
		Wrap: variants.Validates(variants.Rule{
			Applies: variants.ToMember(http.MethodPut, "users"),
			Owns:    []string{"phoneNumber", "phoneCountry.id"},
			// The rule owns the two fields: when it refuses a body, the
			// mock's errors on them are dropped, so it judges a value
			// that is there as the mock does (an empty phone number is
			// no phone number, 7.3), not only one that is missing.
			Check: func(_ *http.Request, b map[string]any) []variants.FieldError {
				var errs []variants.FieldError
				number, present := b["phoneNumber"]
				if s, ok := number.(string); !present || !ok || strings.TrimSpace(s) == "" || utf8.RuneCountInString(s) > 255 {
					errs = append(errs, variants.FieldError{FieldName: "phoneNumber", Error: pricing.CodeInvalidPhoneNumber.String(), Message: "No phone number was provided."})
				}
				if id, ok := variants.BodyPath(b, "phoneCountry.id"); !ok || !knownPhoneCountry(id) {
					errs = append(errs, variants.FieldError{FieldName: "phoneCountry.id", Error: pricing.CodeInvalidPhoneCountryID.String(), Message: "No phone country was provided."})
				}
				return errs
			},
			Fix: func(b map[string]any) {
				b["phoneNumber"] = "7700900123"
				b["phoneCountry"] = map[string]any{"id": 1}
			},
			Broken: map[string]any{"phoneNumber": ""},
		}),
	},
}

// knownPhoneCountry reports whether id is a number that names a phone
// country of the seed.
func knownPhoneCountry(id any) bool {
	n, ok := id.(json.Number)
	if !ok {
		return false
	}
	for _, c := range variants.SeedList("phoneCountries.json") {
		if fmt.Sprint(c["id"]) == n.String() {
			return true
		}
	}
	return false
}
