package users

import (
	"fmt"
	"net/http"
	"net/mail"
	"strings"
	"sync"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The email address: its form, its uniqueness, and the login that follows it (4.1, 7.3).
var emailServers = []variants.Server{
	{Name: "old-email-still-logs-in", Rule: "4.1", Why: "after an email change the old address still logs in", Origin: variants.FaultClasses,
		Deviate: func(d *pricing.Deviations) { d.OldEmailKept = true },
	},
	{Name: "new-email-not-logging-in", Rule: "4.1", Why: "an email change is stored, but the login still knows only the old address", Origin: variants.FaultClasses,
		Deviate: func(d *pricing.Deviations) { d.LoginEmailStale = true },
	},
	{Name: "email-plus-refused", Rule: "7.3", Why: "an email with a + in its local part is refused as invalid", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			return variants.RefuseIf(b, "email", "not-an-email", func(s string) bool { local, _, _ := strings.Cut(s, "@"); return strings.Contains(local, "+") })
		}),
	},
	{Name: "email-dots-refused", Rule: "7.3", Why: "an email with a dot in its local part is refused as invalid", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			return variants.RefuseIf(b, "email", "not-an-email", func(s string) bool { local, _, _ := strings.Cut(s, "@"); return strings.Contains(local, ".") })
		}),
	},
	{Name: "email-subdomain-refused", Rule: "7.3", Why: "an email whose domain has more than two labels is refused as invalid", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PutUser, func(b map[string]any) bool {
			return variants.RefuseIf(b, "email", "not-an-email", func(s string) bool { _, domain, _ := strings.Cut(s, "@"); return strings.Count(domain, ".") > 1 })
		}),
	},
	{
		Name:   "new-email-login-fails",
		Rule:   "4.1",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.1: PUT /users "updates a user, for example the email address"; after the change the login index is not updated, so POST /sessions with the new email address (and the right password) answers 401`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			var mu sync.Mutex
			changed := map[string]bool{}
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := variants.At(r, "POST", "/sessions"); ok {
					body := variants.PeekJSON(r)
					e, _ := variants.Str(body, "email")
					mu.Lock()
					refuse := changed[strings.ToLower(e)]
					mu.Unlock()
					if refuse {
						hit()
						variants.WriteError(w, http.StatusUnauthorized, pricing.CodeUnauthorized.String(), "The email address or the password is wrong.")
						return
					}
					next.ServeHTTP(w, r)
					return
				}
				ids, ok := variants.At(r, "PUT", "/users/*")
				if !ok {
					next.ServeHTTP(w, r)
					return
				}
				body := variants.PeekJSON(r)
				_, before := variants.Call(next, r, "GET", "/users/"+ids[0], nil)
				old, _ := variants.Str(variants.Obj(before), "email")
				rewrite.Answers(next, func(a *rewrite.Answer) {
					e, _ := variants.Str(body, "email")
					if a.Status == http.StatusOK && old != "" && e != "" && !strings.EqualFold(e, old) {
						mu.Lock()
						changed[strings.ToLower(e)] = true
						mu.Unlock()
					}
				}).ServeHTTP(w, r)
			})
		},
	},
	{
		Name:   "plus-email-refused",
		Rule:   "7.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.3: InvalidEmail is for an invalid address; a plus-addressed email (qa+tag@example.com) is valid but PUT /users refuses it`,
		Wrap: variants.RefuseWhen(variants.PutUser, "email", pricing.CodeInvalidEmail.String(), "email must be a valid email address.", func(_ *http.Request, body map[string]any) bool {
			e, ok := variants.Str(body, "email")
			return ok && strings.Contains(strings.SplitN(e, "@", 2)[0], "+")
		}),
	},
	{
		Name:   "email-display-name-accepted",
		Rule:   "7.3",
		Origin: variants.BlindAudit1("missed"),
		Why:    `§7.3: InvalidEmail when "the email address is invalid"; "Quinn <qa3@example.com>" is not an email address, but it is parsed as a mail header and its address stored`,
		Wrap: variants.RewriteWhen(variants.PutUser, func(_ *http.Request, body map[string]any) bool {
			e, ok := variants.Str(body, "email")
			if !ok {
				return false
			}
			a, err := mail.ParseAddress(e)
			if err != nil || a.Address == e {
				return false
			}
			body["email"] = a.Address
			return true
		}),
	},
	{
		Name:   "own-email-case-change-refused",
		Rule:   "7.3",
		Origin: variants.BlindAudit1("missed"),
		Why:    `§7.3: InvalidEmail is for an invalid address; changing one's own email only in case (QA@example.com) is refused as taken, because the uniqueness check does not exclude the user himself`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return variants.RefuseWhen(variants.PutUser, "email", pricing.CodeInvalidEmail.String(), "email is already used by another account.", func(r *http.Request, body map[string]any) bool {
				e, ok := variants.Str(body, "email")
				if !ok {
					return false
				}
				st, u := variants.Call(next, r, "GET", "/users/"+variants.PathID(r), nil)
				old, _ := variants.Str(variants.Obj(u), "email")
				return st == http.StatusOK && old != e && strings.EqualFold(old, e)
			})(next, hit)
		},
	},
	{
		Name:   "email-deliverability",
		Legal:  true,
		Rule:   "7.3",
		Origin: variants.BuiltIn,
		Why: "§7.3: InvalidEmail when \"The email address is invalid\": this target holds an address it cannot " +
			"deliver to invalid, such as one at a reserved domain (RFC 2606: example.com, .test, .invalid), but keeps the " +
			"addresses its users had before the rule; the profile names a domain it delivers to",
		Profile: map[string]string{"email_domain": "qa.pricing-contract.dev"},
		Wrap: func(next http.Handler, hit func()) http.Handler {
			before := map[string]string{} // user id -> the address it had before the rule
			for _, u := range variants.SeedList("users.json") {
				before[fmt.Sprint(u["id"])] = fmt.Sprint(u["email"])
			}
			return variants.Validating(next, hit, variants.Rule{
				Applies: variants.ToMember(http.MethodPut, "users"),
				Owns:    []string{"email"},
				Check: func(r *http.Request, b map[string]any) []variants.FieldError {
					email, ok := b["email"].(string)
					_, domain, found := strings.Cut(email, "@")
					if !ok || !found || !reservedDomain(domain) {
						return nil
					}
					if p, _ := variants.Parse(r.URL.Path); strings.EqualFold(before[p.ID], email) {
						return nil
					}
					return []variants.FieldError{{FieldName: "email", Error: pricing.CodeInvalidEmail.String(), Message: "No mail can be delivered to " + domain + "."}}
				},
				Fix:    func(b map[string]any) { b["email"] = "contract-probe@qa.pricing-contract.dev" },
				Broken: map[string]any{"email": "not-an-email"},
			})
		},
	},
	{
		Name:   "email-rfc5321",
		Legal:  true,
		Rule:   "7.3, 8",
		Origin: variants.BuiltIn,
		Why: "§7.3: InvalidEmail when \"The email address is invalid\"; §8 caps the field at 255, and RFC 5321 " +
			"(a path of at most 256 octets, angle brackets included) caps an address at 254: this target refuses 255",
		Wrap: variants.Validates(variants.Rule{
			Applies: variants.ToMember(http.MethodPut, "users"),
			Owns:    []string{"email"},
			Check: func(_ *http.Request, b map[string]any) []variants.FieldError {
				if email, ok := b["email"].(string); ok && len(email) > 254 {
					return []variants.FieldError{{FieldName: "email", Error: pricing.CodeInvalidEmail.String(), Message: "An email address has at most 254 characters."}}
				}
				return nil
			},
			Fix:    func(b map[string]any) { b["email"] = "contract-probe@example.com" },
			Broken: map[string]any{"email": "not-an-email"},
		}),
	},
	{
		Name:   "email-of-255-refused",
		Legal:  true,
		Rule:   "8",
		Origin: variants.BlindAudit1("passed"),
		Why:    `README, where the spec is silent (2.1, 8, the longest email): RFC 5321 allows 254 characters, so a server may refuse 255; written as wrong by the audit, a legal reading of this project (the audit's reason: §8: "Every string field marked ..255 is at most 255 characters long" (email ..255); an email of exactly 255 characters is refused)`,
		Wrap:   variants.Lengthen("PUT", "/users/*", "email", 255),
	},
}

// reservedDomain reports whether no mail can be delivered to a domain:
// the names RFC 2606 and RFC 6761 reserve, and everything below them.
func reservedDomain(domain string) bool {
	d := strings.ToLower(strings.TrimSuffix(domain, "."))
	for _, r := range []string{"example.com", "example.net", "example.org", "example", "test", "invalid", "localhost"} {
		if d == r || strings.HasSuffix(d, "."+r) {
			return true
		}
	}
	return false
}
