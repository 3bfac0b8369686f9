package users

import (
	"net/http"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// checkServers check a field of PUT /users/:userId wrong, or store what
// they refuse (4.1, 7.3, 8).
var checkServers = []variants.Server{
	{
		Name: "users-password-five-characters", Rule: "4.1, 8",
		Why:     "A password of 5 characters is accepted: the minimum is checked as more than 4 instead of at least 6.",
		Origin:  variants.BlindAudit2("caught"),
		Deviate: func(d *pricing.Deviations) { d.MinPassword = 5 },
	},
	{
		Name: "users-empty-password-keeps", Rule: "4.1, 7.3",
		Why:    "An empty string password is treated like null (keeps the password, 200) instead of being refused with InvalidPassword.",
		Origin: variants.BlindAudit2("caught"),
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			if s, ok := b["password"].(string); ok && s == "" {
				b["password"] = nil
				return true
			}
			return false
		}),
	},
	{
		Name: "users-refused-email-stored", Rule: "4.1, 7.1",
		Why:    "A PUT refused with 400 for another field still stores its valid new email address.",
		Origin: variants.BlindAudit2("caught"),
		Wrap: variants.StoreRefused("/users/*", variants.UserBody, func(body map[string]any) (map[string]any, bool) {
			e, ok := variants.Str(body, "email")
			if !ok || e == "" {
				return nil, false
			}
			return map[string]any{"email": e}, true
		}),
	},
	{
		Name: "users-last-name-code-case", Rule: "7.3",
		Why:    "A missing last name is refused with the code InvalidLastname instead of InvalidLastName.",
		Origin: variants.BlindAudit2("caught"),
		Answer: variants.OnErrors(func(e map[string]any) {
			if e["error"] == pricing.CodeInvalidLastName.String() {
				e["error"] = "InvalidLastname"
			}
		}),
	},
	{
		Name: "users-first-name-truncated", Rule: "4.1, 8",
		Why:    "A firstName over 255 characters is cut to 255 and stored (200) instead of being refused with 400.",
		Origin: variants.BlindAudit2("caught"),
		Wrap:   variants.TruncateField(http.MethodPut, "/users/*", "firstName"),
	},
}
