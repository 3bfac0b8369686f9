package clients

import (
	"encoding/json"
	"maps"
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// numericCurrency is the ISO 4217 numeric code of the seed's currencies.
var numericCurrency = map[string]string{"GBP": "826", "EUR": "978", "USD": "840"}

// checkServers check a field of the client endpoints wrong, or keep what
// they refuse, or write a field of the client otherwise (2.2, 4.3, 4.4, 8).
var checkServers = []variants.Server{
	{
		Name: "clients-terms-any-case", Rule: "4.3",
		Why:    "terms is compared case-insensitively, so \"i agree\" is accepted where the spec requires the literal \"I agree\".",
		Origin: variants.BlindAudit2("caught"),
		Request: variants.EditBody(variants.ToClients, func(b map[string]any) bool {
			if s, ok := b["terms"].(string); ok && s != "I agree" && strings.EqualFold(s, "I agree") {
				b["terms"] = "I agree"
				return true
			}
			return false
		}),
	},
	{
		Name: "clients-invalid-app-keeps-client", Rule: "4.3",
		Why:    "POST /clients whose app is invalid answers 400 but has created the client anyway, instead of creating neither.",
		Origin: variants.BlindAudit2("caught"),
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return variants.Answers(next, hit, variants.PostClients, func(a *rewrite.Answer, body map[string]any) bool {
				if a.Status != http.StatusBadRequest || body == nil || !variants.OnlyErrorsUnder(a, "app.") {
					return false
				}
				b := maps.Clone(body)
				delete(b, "app")
				st, _ := variants.Call(next, a.Request, http.MethodPost, "/clients", b)
				return st == http.StatusOK
			})
		},
	},
	{
		Name: "clients-city-256", Rule: "2.2, 8",
		Why:     "addressCity accepts 256 characters: the ..255 limit is checked one too high.",
		Origin:  variants.BlindAudit2("caught"),
		Deviate: func(d *pricing.Deviations) { d.MaxLen = map[string]int{"addressCity": 256} },
	},
	{
		Name: "clients-update-without-name-kept", Rule: "4.4, 7.3",
		Why:    "PUT /clients/:clientId without a name keeps the stored name and answers 200 instead of 400 InvalidName.",
		Origin: variants.BlindAudit2("caught"),
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return variants.RewriteWhen(variants.PutClient, func(r *http.Request, body map[string]any) bool {
				if body == nil || body["name"] != nil {
					return false
				}
				st, cur := variants.Call(next, r, http.MethodGet, "/clients/"+variants.PathID(r), nil)
				name, ok := variants.Str(variants.Obj(cur), "name")
				if st != http.StatusOK || !ok {
					return false
				}
				body["name"] = name
				return true
			})(next, hit)
		},
	},
	{
		Name: "clients-currency-code-numeric", Rule: "2.2",
		Why:    "The client's currency.code is the ISO 4217 numeric code (826) instead of the three-letter alphabetic code.",
		Origin: variants.BlindAudit2("caught"),
		Answer: variants.OnObjects(func(key string, o map[string]any) {
			if key != "currency" {
				return
			}
			if s, ok := o["code"].(string); ok && numericCurrency[s] != "" {
				o["code"] = json.Number(numericCurrency[s])
			}
		}),
	},
}
