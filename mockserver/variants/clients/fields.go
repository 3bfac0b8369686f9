package clients

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// The fields of a client: limits, terms, currency, address (2.2, 4.3, 8).
var fieldsServers = []variants.Server{
	{Name: "addresscity-limit-254", Rule: "8", Why: "addressCity refuses 255 characters (the limit is off by one, low)", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) {
			d.MaxLen = map[string]int{"addressCity": pricing.ClientBody.Field("addressCity").Max - 1}
		},
	},
	{Name: "vat-limit-256", Rule: "8", Why: "vat accepts 256 characters (the limit is off by one, high)", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.MaxLen = map[string]int{"vat": pricing.ClientBody.Field("vat").Max + 1} },
	},
	{Name: "terms-not-checked", Rule: "4.3", Why: `terms is accepted whatever it says, not only "I agree"`, Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.TermsUnchecked = true },
	},
	{Name: "client-name-limit-in-bytes", Rule: "8", Why: "the name of a client is limited to 255 bytes of UTF-8, not 255 characters", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.ToClients, variants.OverBytes("name")),
	},
	{Name: "addressline1-limit-in-bytes", Rule: "8", Why: "addressLine1 is limited to 255 bytes of UTF-8, not 255 characters", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.ToClients, variants.OverBytes("addressLine1")),
	},
	{Name: "currency-id-ignored", Rule: "2.2", Why: "currency.id is ignored: every client bills in the first currency", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.ToClients, func(b map[string]any) bool { return variants.SetID(b, "currency", "1") }),
	},
	{Name: "currency-code-numeric", Rule: "2.2", Why: "currency.code is the ISO 4217 number (826), not the letters (GBP)", Origin: variants.BuiltIn,
		Answer: variants.OnObjects(func(key string, o map[string]any) {
			numeric := map[string]string{"GBP": "826", "EUR": "978", "USD": "840"}
			if key == "currency" || key == "currencies" {
				if n, ok := numeric[fmt.Sprint(o["code"])]; ok {
					o["code"] = n
				}
			}
		}),
	},
	{Name: "client-without-createdDate", Rule: "2.2", Why: "the client object has no createdDate", Origin: variants.BuiltIn,
		Answer: variants.DropField("createdDate"),
	},
	{
		Name:   "client-name-limit-forgotten-on-put",
		Rule:   "4.4, 8",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.4/§8: PUT /clients takes "the same fields as POST /clients", name ..255; the update cuts a longer name to 255 characters and accepts it (POST checks it)`,
		Wrap:   variants.TruncateField("PUT", "/clients/*", "name"),
	},
	{
		Name:   "address-city-limit-in-bytes",
		Rule:   "8",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§8: ..255 is "at most 255 characters"; PUT /clients counts addressCity in bytes, so a city of 200 non-ASCII characters (400 bytes) is refused`,
		Wrap: variants.RefuseWhen(variants.PutClient, "addressCity", pricing.CodeInvalidAddressCity.String(), "addressCity must be at most 255 characters long.", func(_ *http.Request, body map[string]any) bool {
			s, ok := variants.Str(body, "addressCity")
			return ok && len(s) > 255 && variants.Runes(s) <= 255
		}),
	},
	{
		Name:   "terms-case-insensitive",
		Rule:   "4.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    "§4.3: terms \"must equal the literal `I agree`\"; POST /clients accepts \"i agree\" in any case",
		Wrap: variants.RewriteWhen(variants.PostClients, func(_ *http.Request, body map[string]any) bool {
			return variants.Replace(body, "terms", func(t string) string {
				if strings.EqualFold(t, "I agree") {
					return "I agree"
				}
				return t
			})
		}),
	},
	{
		Name:   "currency-not-updated",
		Rule:   "4.4",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.4: PUT /clients "updates the details or settings of a client, including name, address and currency"; the currency keeps its old value`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return variants.RewriteWhen(variants.PutClient, func(r *http.Request, body map[string]any) bool {
				if variants.Sub(body, "currency") == nil {
					return false
				}
				st, c := variants.Call(next, r, "GET", "/clients/"+variants.PathID(r), nil)
				cur := variants.Sub(variants.Obj(c), "currency")
				if st != http.StatusOK || cur == nil || variants.Sub(body, "currency")["id"] == cur["id"] {
					return false
				}
				body["currency"] = map[string]any{"id": cur["id"]}
				return true
			})(next, hit)
		},
	},
	{
		Name:   "null-client-name-keeps-old",
		Rule:   "7.3",
		Origin: variants.BlindAudit1("missed"),
		Why:    `§7.3: PUT /clients answers InvalidName when "the name was not provided"; a null name keeps the stored one and answers 200`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return variants.RewriteWhen(variants.PutClient, func(r *http.Request, body map[string]any) bool {
				if n, has := body["name"]; !has || n != nil {
					return false
				}
				st, c := variants.Call(next, r, "GET", "/clients/"+variants.PathID(r), nil)
				if st != http.StatusOK {
					return false
				}
				body["name"] = variants.Obj(c)["name"]
				return true
			})(next, hit)
		},
	},
	{
		Name:   "currency-code-numeric-on-client-routes",
		Rule:   "2.2",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§2.2: currency.code: "The response shows a three-letter alphabetic code, so treat it as a string of letters"; the ISO 4217 numeric code ("826") is answered`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			numeric := map[string]string{"GBP": "826", "EUR": "978", "USD": "840", "JPY": "392", "CHF": "756"}
			return variants.Answers(next, hit, func(r *http.Request) bool {
				_, rest, ok := variants.Below(r.URL.Path)
				return ok && (strings.HasPrefix(rest, "/clients") || strings.HasSuffix(rest, "/clients"))
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusOK {
					return false
				}
				return a.EditJSON(func(v any) (any, bool) {
					return v, variants.Each(v, func(key string, o map[string]any) bool {
						c, _ := variants.Str(o, "code")
						if key != "currency" || numeric[c] == "" {
							return false
						}
						o["code"] = numeric[c]
						return true
					})
				})
			})
		},
	},
	{
		Name:   "address-validation",
		Legal:  true,
		Rule:   "7.3",
		Origin: variants.BuiltIn,
		Why: "§7.3: \"Further validation codes for ... the address ... fields of the client endpoints: not shown\": this " +
			"target knows a few countries and checks the postcode and VAT number by the country's form; the profile gives a German address",
		Profile: map[string]string{
			"address_line1": "Unter den Linden 1", "address_line2": "Aufgang B", "address_city": "Berlin",
			"address_postcode": "10117", "address_country": "Germany", "vat": "DE123456789",
		},
		Wrap: variants.Validates(
			addressRule("", func(r *http.Request, p variants.Path) bool {
				return p.Resource == "clients" && p.Rest == "" &&
					((r.Method == http.MethodPost && p.ID == "") || (r.Method == http.MethodPut && p.ID != ""))
			}),
			addressRule("client.", variants.ToMember(http.MethodPut, "users")),
		),
	},
	{
		Name:   "currency-lowercase",
		Legal:  true,
		Rule:   "2.2",
		Origin: variants.BuiltIn,
		Why:    "§2.2: currency.code is a three-letter alphabetic code, a string of letters; the case is not specified",
		Wrap: variants.EditObjects(func(key string, o map[string]any) bool {
			s, ok := o["code"].(string)
			if !ok || key != "currency" && key != "currencies" {
				return false
			}
			o["code"] = strings.ToLower(s)
			return true
		}),
	},
	{
		Name:   "optional-fields-omitted",
		Legal:  true,
		Rule:   "2, 2.2",
		Origin: variants.BuiltIn,
		Why: "§2: \"`optional` means the field may be omitted\"; §2.2: addressLine2 and vat are \"optional String\" " +
			"(this target never answers them)",
		Wrap: variants.EditObjects(func(_ string, o map[string]any) bool {
			if _, client := o["addressLine1"]; !client {
				return false
			}
			changed := false
			for _, f := range pricing.ClientObject.Fields {
				if _, ok := o[f.Path]; ok && f.Optional {
					delete(o, f.Path)
					changed = true
				}
			}
			return changed
		}),
	},
	{
		Name:   "vat-of-255-refused",
		Legal:  true,
		Rule:   "4.3, 8",
		Origin: variants.BlindAudit1("passed"),
		Why:    `README, where the spec is silent (7.3, the VAT number): a server may check the form of a VAT number, and no VAT number has 255 characters; written as wrong by the audit, a legal reading of this project (the audit's reason: §4.3/§8: vat is an optional String ..255, "at most 255 characters"; a VAT number of exactly 255 characters is refused on POST /clients)`,
		Wrap:   variants.Lengthen("POST", "/clients", "vat", 255),
	},
}

// addressForms are the countries the address-validation server knows, by
// name and ISO code, with the forms of their postcodes and VAT numbers.
var addressForms = map[string]struct{ postcode, vat *regexp.Regexp }{
	"united kingdom": {regexp.MustCompile(`(?i)^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$`), regexp.MustCompile(`^GB[0-9]{9}$`)},
	"germany":        {regexp.MustCompile(`^[0-9]{5}$`), regexp.MustCompile(`^DE[0-9]{9}$`)},
	"france":         {regexp.MustCompile(`^[0-9]{5}$`), regexp.MustCompile(`^FR[0-9A-Z]{2}[0-9]{9}$`)},
	"united states":  {regexp.MustCompile(`^[0-9]{5}(-[0-9]{4})?$`), nil},
}

var countryCodes = map[string]string{"gb": "united kingdom", "de": "germany", "fr": "france", "us": "united states"}

// addressRule checks the country, postcode and VAT number of the client
// body at prefix ("" or "client.").
func addressRule(prefix string, applies func(*http.Request, variants.Path) bool) variants.Rule {
	country, postcode, vat := prefix+"addressCountry", prefix+"addressPostcode", prefix+"vat"
	return variants.Rule{
		Applies: func(r *http.Request, p variants.Path) bool {
			if !applies(r, p) {
				return false
			}
			if prefix == "" {
				return true
			}
			body, _ := variants.DecodeObject(variants.PeekBody(r))
			_, ok := variants.BodyPath(body, strings.TrimSuffix(prefix, "."))
			return ok
		},
		Owns: []string{country, postcode, vat},
		Check: func(_ *http.Request, b map[string]any) []variants.FieldError {
			c, _ := variants.BodyPath(b, country)
			cs, ok := c.(string)
			if !ok {
				return nil // absent or not a string: the mock's own rule
			}
			name := strings.ToLower(cs)
			if n, ok := countryCodes[name]; ok {
				name = n
			}
			form, known := addressForms[name]
			if !known {
				return []variants.FieldError{{FieldName: country, Error: pricing.CodeInvalidAddressCountry.String(), Message: cs + " is not a country we bill in."}}
			}
			var errs []variants.FieldError
			if p, _ := variants.BodyPath(b, postcode); p != nil {
				if ps, ok := p.(string); ok && !form.postcode.MatchString(ps) {
					errs = append(errs, variants.FieldError{FieldName: postcode, Error: pricing.CodeInvalidAddressPostcode.String(), Message: "not a postcode of " + cs})
				}
			}
			if v, _ := variants.BodyPath(b, vat); v != nil && form.vat != nil {
				if vs, ok := v.(string); ok && vs != "" && !form.vat.MatchString(vs) {
					errs = append(errs, variants.FieldError{FieldName: vat, Error: pricing.CodeInvalidVat.String(), Message: "not a VAT number of " + cs})
				}
			}
			return errs
		},
		Fix: func(b map[string]any) {
			variants.SetBodyPath(b, country, "United Kingdom")
			variants.SetBodyPath(b, postcode, "EC1A 1BB")
			variants.SetBodyPath(b, vat, "GB123456789")
		},
		Broken: map[string]any{country: ""},
	}
}
