package users

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// minPassword is the fewest characters of a password (8).
var minPassword = pricing.UserBody.Field("password").Min

// The password: its limits, its change, and its date (2.1, 4.1, 8).
var passwordServers = []variants.Server{
	{Name: "password-minimum-5", Rule: "8", Why: "a password of 5 characters is accepted", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.MinPassword = minPassword - 1 },
	},
	{Name: "password-minimum-7", Rule: "8", Why: "a password of 6 characters is refused", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.MinPassword = minPassword + 1 },
	},
	{Name: "password-null-changes", Rule: "4.1", Why: `"password": null sets an empty password instead of keeping it`, Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.NullPasswordClears = true },
	},
	{Name: "password-change-undated", Rule: "2.1", Why: "a new password leaves passwordLastChanged as it was", Origin: variants.FaultClasses,
		Deviate: func(d *pricing.Deviations) { d.PasswordChangeUndated = true },
	},
	{Name: "rejected-password-stored", Rule: "4.1", Why: "a PUT /users/:userId answered 400 still stores its valid new password", Origin: variants.FaultClasses,
		// The blind audit wrote the same server
		// (refused-put-users-stores-password): one implementation serves
		// both names.
		Wrap: storesRefusedPassword},
	{Name: "password-minimum-in-bytes", Rule: "8", Why: "the password minimum of 6 counts bytes: 5 characters of two bytes each pass", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			pw, ok := b["password"].(string)
			if !ok || utf8.RuneCountInString(pw) >= minPassword || len(pw) < minPassword {
				return false
			}
			b["password"] = pw + strings.Repeat("x", minPassword)
			return true
		}),
	},
	{Name: "password-ascii-only", Rule: "8", Why: "a password with characters outside ASCII is refused", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool { return variants.RefuseIf(b, "password", "", notASCII) }),
	},
	{Name: "passwordLastChanged-on-every-update", Rule: "2.1", Why: `every PUT /users/:userId answers passwordLastChanged as the time of the update, "password": null included`, Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PutUser, func(o map[string]any) { o["passwordLastChanged"] = variants.Now() }),
	},
	{
		Name:   "password-ignored-on-update",
		Rule:   "4.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.1: "A String of at least 6 characters replaces the password"; PUT /users answers 200 but keeps the old password`,
		Wrap: variants.RewriteWhen(variants.PutUser, func(_ *http.Request, body map[string]any) bool {
			pw, ok := variants.Str(body, "password")
			if !ok || variants.Runes(pw) < 6 {
				return false
			}
			body["password"] = nil
			return true
		}),
	},
	{
		Name:   "null-password-refused",
		Rule:   "4.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.1: password "null keeps the existing password"; PUT /users answers a null password with 400 InvalidPassword`,
		Wrap: variants.RefuseWhen(variants.PutUser, "password", pricing.CodeInvalidPassword.String(), "password must be a string of at least 6 characters.", func(_ *http.Request, body map[string]any) bool {
			pw, has := body["password"]
			return has && pw == nil
		}),
	},
	{
		Name:   "password-of-six-refused",
		Rule:   "8",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§8: "A password is a String of at least 6 characters"; a password of exactly 6 characters is refused (the check is > 6, not >= 6)`,
		Wrap: variants.RefuseWhen(variants.PutUser, "password", pricing.CodeInvalidPassword.String(), "password is too short.", func(_ *http.Request, body map[string]any) bool {
			pw, ok := variants.Str(body, "password")
			return ok && variants.Runes(pw) == 6
		}),
	},
	{
		Name:   "password-last-changed-frozen",
		Rule:   "2.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.1: passwordLastChanged is the "ISO 8601 date the password last changed"; PUT /users answers the account's creation date there even after it replaced the password`,
		Wrap: variants.EditUserAnswers(func(o map[string]any) bool {
			c, ok := variants.Str(o, "created")
			return ok && variants.Set(o, "passwordLastChanged", c)
		}),
	},
	{
		Name:   "refused-put-users-stores-password",
		Rule:   "7.1, 4.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.1/§4.1: a PUT /users refused with 400 changes nothing; here a valid new password in a body refused for another field (the email) is stored anyway`,
		Wrap:   storesRefusedPassword,
	},
}

// storesRefusedPassword stores the valid new password of a PUT /users the
// mock refused for another field.
var storesRefusedPassword = variants.StoreRefused("/users/*", variants.UserBody, func(b map[string]any) (map[string]any, bool) {
	pw, ok := variants.Str(b, "password")
	return map[string]any{"password": pw}, ok && variants.Runes(pw) >= minPassword
})
