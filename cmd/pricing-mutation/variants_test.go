package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	_ "time/tzdata" // timezone-iana needs the IANA database wherever the test runs

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/defects"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/steps"
)

// TestMutation proves that the spec scenarios fail against implementations
// the spec forbids. This is the other half: they pass against
// implementations that made a different legal choice wherever the spec is
// silent. Each variant is a middleware in front of the mock that rewrites
// its requests or answers into another correct implementation; a spec
// scenario that fails against one asserts more than the spec states.
//
// The same run shows that /openapi.json describes the API, not the mock's
// choices: every exchange with a legal variant (other ISO 8601 dates,
// upper-case hex, extra fields, optional fields left out, 400 for wrong
// credentials, ...) validates against the document, as the mock's own
// exchanges do in mockserver's TestContractAgainstOpenAPI.
func TestSuitePassesLegalVariants(t *testing.T) {
	mock, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mock.Close() })
	for _, v := range raceSample(t, legalVariants) {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			validator := documentFor(t, mock, v.name)
			var rewrites atomic.Int64
			wrap := func(next http.Handler) http.Handler {
				return validator.Wrap(v.wrap(next, func() { rewrites.Add(1) }))
			}
			o := runSpec(defects.Defect{}, wrap, v.tune)
			switch {
			case o.err != nil:
				t.Fatalf("could not run: %v", o.err)
			case o.ran == 0:
				t.Fatal("no scenario ran")
			case rewrites.Load() == 0:
				t.Fatalf("the variant never acted on a request or an answer, so it proves nothing (%s)", v.legal)
			case o.failedRun():
				var b strings.Builder
				for _, s := range o.failed {
					fmt.Fprintf(&b, "\n--- %s\n%s\n", s, o.reasons[s])
				}
				t.Errorf("%d of %d spec scenarios failed (godog status %d) against a legal variant: %s%s",
					len(o.failed), o.ran, o.status, v.legal, b.String())
			}
			checked, violations := validator.Result()
			// The spec scenarios send several hundred requests; far fewer
			// would mean the validator saw little of the run.
			if checked < 300 {
				t.Errorf("only %d exchanges were checked against /openapi.json", checked)
			}
			if len(violations) > 0 {
				t.Errorf("of %d exchanges with a legal variant, these disagree with /openapi.json (%s):\n%s",
					checked, v.legal, strings.Join(violations, "\n"))
			}
			t.Logf("%d spec scenarios passed; the variant acted %d times; %d exchanges validated", o.ran, rewrites.Load(), checked)
		})
	}
}

// legalVariant is a correct implementation that differs from the mock where
// the spec allows it. wrap puts it in front of the mock and calls hit for
// every request or answer it acts on (rewrites, refuses or, for a check,
// vets), so that a variant the suite never reaches cannot pass; tune, when set, is what the target's
// profile says about it.
type legalVariant struct {
	name  string
	legal string // why the spec allows it
	wrap  func(next http.Handler, hit func()) http.Handler
	tune  func(*steps.Profile)
}

var legalVariants = []legalVariant{
	{
		name:  "extra-fields",
		legal: "§2.5: a wrapper may add properties such as a page number or the size of the result set; no section closes an object",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, status int, v any) (any, bool) {
				if top, ok := v.(map[string]any); ok {
					for _, m := range top {
						if items, ok := m.([]any); ok {
							top["page"], top["total"] = 1, len(items)
							break
						}
					}
				}
				changed := false
				eachObject(v, "", func(_ string, o map[string]any) {
					o["x-extra"] = 1
					changed = true
				})
				return v, changed
			}, hit)
		},
	},
	{
		name:  "errors-reordered",
		legal: "§7.1, §7.3: a 400 is an array of {fieldName, error, message}; the order, the message texts and further members are not specified",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, status int, v any) (any, bool) {
				errs, ok := v.([]any)
				if status != http.StatusBadRequest || !ok {
					return v, false
				}
				slices.Reverse(errs)
				for i, e := range errs {
					if o, ok := e.(map[string]any); ok {
						o["message"] = fmt.Sprintf("Problem %d of %d with this request.", i+1, len(errs))
						o["x-detail"] = map[string]any{"index": i}
					}
				}
				return errs, true
			}, hit)
		},
	},
	{
		name:  "dates-other-iso8601",
		legal: "§1, §2: dates are ISO 8601 strings; neither the zone, the offset form nor fractions of a second are specified",
		wrap: func(next http.Handler, hit func()) http.Handler {
			zone := time.FixedZone("", 5*3600+30*60)
			return editJSON(next, func(_ *http.Request, _ int, v any) (any, bool) {
				changed := false
				eachObject(v, "", func(_ string, o map[string]any) {
					for k, x := range o {
						s, ok := x.(string)
						if !ok || !rfc3339Z.MatchString(s) {
							continue
						}
						if t, err := time.Parse(time.RFC3339, s); err == nil {
							o[k] = t.In(zone).Format("2006-01-02T15:04:05.000-07:00")
							changed = true
						}
					}
				})
				return v, changed
			}, hit)
		},
	},
	{
		name:  "hex-uppercase",
		legal: "§2.3, §8: writeKey and the marketapp hash are hexadecimal; the letter case is not specified",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, _ int, v any) (any, bool) {
				changed := false
				eachObject(v, "", func(key string, o map[string]any) {
					if s, ok := o["writeKey"].(string); ok {
						o["writeKey"], changed = strings.ToUpper(s), true
					}
					if s, ok := o["hash"].(string); ok && key == "marketapp" {
						o["hash"], changed = strings.ToUpper(s), true
					}
				})
				return v, changed
			}, hit)
		},
	},
	{
		name:  "currency-lowercase",
		legal: "§2.2: currency.code is a three-letter alphabetic code, a string of letters; the case is not specified",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, _ int, v any) (any, bool) {
				changed := false
				eachObject(v, "", func(key string, o map[string]any) {
					if s, ok := o["code"].(string); ok && (key == "currency" || key == "currencies") {
						o["code"], changed = strings.ToLower(s), true
					}
				})
				return v, changed
			}, hit)
		},
	},
	{
		name:  "permission-first",
		legal: "§5, §7.2: 403 and 404 are both named and their order is not; an implementation may refuse a caller before it looks the id up",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editAnswer(next, func(r *http.Request, a *answer) bool {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				if r.Method != http.MethodPut || a.status != http.StatusNotFound || m == nil ||
					(m[2] != "users" && m[2] != "clients") || m[4] != "" || !plainID.MatchString(m[3]) {
					return false
				}
				a.setErrors(http.StatusForbidden, "Forbidden", "You may not modify this resource.")
				return true
			}, hit)
		},
	},
	{
		name:  "form-login-only",
		legal: "§5: the body of POST /sessions is not shown; this target takes only a form, and its profile says so (PRICING_LOGIN_ENCODING=form)",
		tune:  func(p *steps.Profile) { p.LoginEncoding = "form" },
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				if r.Method == http.MethodPost && m != nil && m[2] == "sessions" && m[3] == "" {
					hit() // every login passes this check, whichever way it goes
					if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
						writeErrors(w, http.StatusBadRequest, "InvalidBody", "Send the credentials as application/x-www-form-urlencoded.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		name:  "content-type-plain-json",
		legal: "§1: bodies are JSON; a charset parameter is not required (RFC 8259 JSON is UTF-8)",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editAnswer(next, func(_ *http.Request, a *answer) bool {
				if mt, _, _ := mime.ParseMediaType(a.header.Get("Content-Type")); mt != "application/json" || a.header.Get("Content-Type") == mt {
					return false
				}
				a.header.Set("Content-Type", "application/json")
				return true
			}, hit)
		},
	},
	{
		name: "no-extensions",
		legal: "§4, §4.5: GET of a user, client or app, the catalogues other than platforms and the body of POST /users are not specified; " +
			"an implementation need not have them",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if m := resourcePath.FindStringSubmatch(r.URL.Path); m != nil && isExtension(r.Method, m[2], m[3], m[4]) {
					hit()
					writeErrors(w, http.StatusNotFound, "NotFound", "There is no such endpoint.")
					return
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		name:  "ids-large",
		legal: "§2: ids are Numbers; their values are the server's (here the ids of users, clients, apps and sessions start at 1000001)",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if m := resourcePath.FindStringSubmatch(r.URL.Path); m != nil && m[3] != "" && plainID.MatchString(m[3]) &&
					(m[2] == "users" || m[2] == "clients" || m[2] == "apps") {
					// An id at or under the offset names nothing here: send the
					// mock an id it cannot have, still well formed.
					id := strconv.FormatInt(1<<63-1, 10)
					if n, err := strconv.ParseInt(m[3], 10, 64); err == nil && n > idOffset {
						id = strconv.FormatInt(n-idOffset, 10)
					}
					r = r.Clone(r.Context())
					r.URL.Path = m[1] + "/" + m[2] + "/" + id + m[4]
					r.URL.RawPath = ""
					r.RequestURI = r.URL.RequestURI()
					hit()
				}
				editJSON(next, offsetIDs, hit).ServeHTTP(w, r)
			})
		},
	},
	{
		name: "optional-fields-omitted",
		legal: "§2: \"`optional` means the field may be omitted\"; §2.2: addressLine2 and vat are \"optional String\" " +
			"(this target never answers them)",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, _ int, v any) (any, bool) {
				changed := false
				eachObject(v, "", func(_ string, o map[string]any) {
					if _, client := o["addressLine1"]; !client {
						return
					}
					for _, k := range []string{"addressLine2", "vat"} {
						if _, ok := o[k]; ok {
							delete(o, k)
							changed = true
						}
					}
				})
				return v, changed
			}, hit)
		},
	},
	{
		name: "phone-fields-required",
		legal: "§7.3: PUT /users/:userId answers InvalidPhoneNumber when \"No phone number was provided\" " +
			"(and InvalidPhoneCountryId for the country): this target requires both in every body",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return validating(next, hit, extraRule{
				applies: func(r *http.Request, m []string) bool {
					return r.Method == http.MethodPut && m[2] == "users" && m[3] != "" && m[4] == ""
				},
				owns: []string{"phoneNumber", "phoneCountry.id"},
				check: func(_ *http.Request, b map[string]any) []fieldErr {
					var errs []fieldErr
					if _, ok := b["phoneNumber"]; !ok {
						errs = append(errs, fieldErr{"phoneNumber", "InvalidPhoneNumber", "No phone number was provided."})
					}
					if _, ok := bodyPath(b, "phoneCountry.id"); !ok {
						errs = append(errs, fieldErr{"phoneCountry.id", "InvalidPhoneCountryId", "No phone country was provided."})
					}
					return errs
				},
				fix: func(b map[string]any) {
					b["phoneNumber"] = "7700900123"
					b["phoneCountry"] = map[string]any{"id": 1}
				},
				broken: map[string]any{"phoneNumber": ""},
			})
		},
	},
	{
		name: "one-client-per-user",
		legal: "§1: \"A client can have several users who manage the same apps\" says nothing of a user with several clients; " +
			"§7.2: 403 when \"The caller may not view or modify the resource\": a user who has a client may not create another " +
			"(POST /clients, PUT /users with a client), refused before the body is looked at",
		tune: func(p *steps.Profile) { p.ClientsPerUser = "one" },
		wrap: oneClientPerUser(http.StatusForbidden, "Forbidden"),
	},
	{
		name: "one-client-per-user-400",
		legal: "§1 (as one-client-per-user), refused as a validation failure: §7.2 \"400 | Validation failure\"; " +
			"§4.3 names no code for it, and §7.3's codes for the client endpoints are not all shown",
		tune: func(p *steps.Profile) { p.ClientsPerUser = "one" },
		wrap: oneClientPerUser(http.StatusBadRequest, "ClientLimitReached"),
	},
	{
		name: "one-app-per-marketapp",
		legal: "§7.3: \"Further validation codes for POST /apps ... not shown\": this target refuses a second app of a " +
			"marketplace app (the seed's app already uses the profile's) with 400 on marketapp.hash",
		tune: func(p *steps.Profile) { p.AppsPerMarketapp = "one" },
		wrap: oneAppPerMarketapp,
	},
	{
		name: "login-failure-400",
		legal: "§5: \"Request body of POST /sessions: not shown\"; §7.2: \"400 | Validation failure\": wrong credentials " +
			"are a validation failure of the body here, not 401",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editAnswer(next, func(r *http.Request, a *answer) bool {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				if r.Method != http.MethodPost || m == nil || m[2] != "sessions" || a.status != http.StatusUnauthorized {
					return false
				}
				a.setErrors(http.StatusBadRequest, "InvalidCredentials", "The email address or the password is wrong.")
				return true
			}, hit)
		},
	},
	{
		name:  "json-login-only",
		legal: "§5: \"Request body of POST /sessions: not shown\"; this target takes only JSON (the profile's default)",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				if r.Method == http.MethodPost && m != nil && m[2] == "sessions" && m[3] == "" {
					hit()
					if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
						writeErrors(w, http.StatusBadRequest, "InvalidBody", "Send the credentials as application/json.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		name: "email-deliverability",
		legal: "§7.3: InvalidEmail when \"The email address is invalid\": this target holds an address it cannot " +
			"deliver to invalid, such as one at a reserved domain (RFC 2606: example.com, .test, .invalid), but keeps the " +
			"addresses its users had before the rule; the profile names a domain it delivers to",
		tune: func(p *steps.Profile) { p.EmailDomain = "qa.pricing-contract.dev" },
		wrap: func(next http.Handler, hit func()) http.Handler {
			before := map[string]string{} // user id -> the address it had before the rule
			for _, u := range seedList("users.json") {
				before[fmt.Sprint(u["id"])] = fmt.Sprint(u["email"])
			}
			return validating(next, hit, extraRule{
				applies: func(r *http.Request, m []string) bool {
					return r.Method == http.MethodPut && m[2] == "users" && m[3] != "" && m[4] == ""
				},
				owns: []string{"email"},
				check: func(r *http.Request, b map[string]any) []fieldErr {
					email, ok := b["email"].(string)
					_, domain, found := strings.Cut(email, "@")
					if !ok || !found || !reservedDomain(domain) {
						return nil
					}
					if old, ok := before[resourcePath.FindStringSubmatch(r.URL.Path)[3]]; ok && strings.EqualFold(old, email) {
						return nil
					}
					return []fieldErr{{"email", "InvalidEmail", "No mail can be delivered to " + domain + "."}}
				},
				fix:    func(b map[string]any) { b["email"] = "contract-probe@qa.pricing-contract.dev" },
				broken: map[string]any{"email": "not-an-email"},
			})
		},
	},
	{
		name: "email-rfc5321",
		legal: "§7.3: InvalidEmail when \"The email address is invalid\"; §8 caps the field at 255, and RFC 5321 " +
			"(a path of at most 256 octets, angle brackets included) caps an address at 254: this target refuses 255",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return validating(next, hit, extraRule{
				applies: func(r *http.Request, m []string) bool {
					return r.Method == http.MethodPut && m[2] == "users" && m[3] != "" && m[4] == ""
				},
				owns: []string{"email"},
				check: func(_ *http.Request, b map[string]any) []fieldErr {
					if email, ok := b["email"].(string); ok && len(email) > 254 {
						return []fieldErr{{"email", "InvalidEmail", "An email address has at most 254 characters."}}
					}
					return nil
				},
				fix:    func(b map[string]any) { b["email"] = "contract-probe@example.com" },
				broken: map[string]any{"email": "not-an-email"},
			})
		},
	},
	{
		name: "address-validation",
		legal: "§7.3: \"Further validation codes for ... the address ... fields of the client endpoints: not shown\": this " +
			"target knows a few countries and checks the postcode and VAT number by the country's form; the profile gives a German address",
		tune: func(p *steps.Profile) {
			p.AddressLine1, p.AddressLine2, p.AddressCity = "Unter den Linden 1", "Aufgang B", "Berlin"
			p.AddressPostcode, p.AddressCountry, p.VAT = "10117", "Germany", "DE123456789"
		},
		wrap: func(next http.Handler, hit func()) http.Handler {
			clients := addressRule("", func(r *http.Request, m []string) bool {
				return m[2] == "clients" && m[4] == "" &&
					((r.Method == http.MethodPost && m[3] == "") || (r.Method == http.MethodPut && m[3] != ""))
			})
			users := addressRule("client.", func(r *http.Request, m []string) bool {
				return r.Method == http.MethodPut && m[2] == "users" && m[3] != "" && m[4] == ""
			})
			return validating(validating(next, hit, users), hit, clients)
		},
	},
	{
		name: "timezone-iana",
		legal: "§2.1: timezone is a \"Timezone name in the form Area/City\": this target takes only names of the IANA " +
			"time zone database",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return validating(next, hit, extraRule{
				applies: func(r *http.Request, m []string) bool {
					return r.Method == http.MethodPut && m[2] == "users" && m[3] != "" && m[4] == ""
				},
				owns: []string{"timezone"},
				check: func(_ *http.Request, b map[string]any) []fieldErr {
					tz, ok := b["timezone"].(string)
					if !ok || !strings.Contains(tz, "/") {
						return nil // the mock's own rule answers these
					}
					if _, err := time.LoadLocation(tz); err != nil {
						return []fieldErr{{"timezone", "InvalidTimezone", tz + " is not a time zone."}}
					}
					return nil
				},
				fix:    func(b map[string]any) { b["timezone"] = "Europe/London" },
				broken: map[string]any{"timezone": ""},
			})
		},
	},
	{
		name: "conflicting-platform-refused",
		legal: "§4.2: platform.id is \"used when marketapp.hash is not given\", and \"Further validation codes for " +
			"POST /apps ... not shown\": this target refuses a platform.id that contradicts the marketplace app's platform",
		wrap: func(next http.Handler, hit func()) http.Handler {
			apps := platformRule("", func(r *http.Request, m []string) bool {
				return r.Method == http.MethodPost && m[2] == "apps" && m[3] == ""
			})
			clients := platformRule("app.", func(r *http.Request, m []string) bool {
				return r.Method == http.MethodPost && m[2] == "clients" && m[3] == ""
			})
			return validating(validating(next, hit, clients), hit, apps)
		},
	},
	{
		name:  "v1-only",
		legal: "§9: \"The endpoint pages show the form v1.0, and the overview describes the form v1. One version is currently available.\" This target serves it as v1 only",
		tune:  func(p *steps.Profile) { p.VersionForms = "v1" },
		wrap:  onlyVersion("/v1"),
	},
	{
		name:  "v1.0-only",
		legal: "§9 (as v1-only): this target serves the one version as v1.0 only, and its profile's base URL says so",
		tune: func(p *steps.Profile) {
			p.BaseURL = strings.TrimSuffix(p.BaseURL, "/v1") + "/v1.0"
			p.VersionForms = "v1.0"
		},
		wrap: onlyVersion("/v1.0"),
	},
	{
		name: "platforms-elsewhere",
		legal: "§4.5: for the platforms collection, \"Its path, parameters and item fields: not shown\"; §2.5: \"not shown " +
			"beyond the identifiers given above\": this target serves it at /catalogue/platforms, items with their id only",
		tune: func(p *steps.Profile) { p.PlatformsPath = "/catalogue/platforms" },
		wrap: func(next http.Handler, hit func()) http.Handler {
			slim := editJSON(next, func(_ *http.Request, _ int, v any) (any, bool) {
				top, ok := v.(map[string]any)
				items, _ := top["platforms"].([]any)
				if !ok || items == nil {
					return v, false
				}
				for i, it := range items {
					if o, ok := it.(map[string]any); ok {
						items[i] = map[string]any{"id": o["id"]}
					}
				}
				top["total"] = len(items)
				return v, true
			}, hit)
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				switch {
				case m != nil && m[2] == "platforms":
					hit()
					writeErrors(w, http.StatusNotFound, "NotFound", "There is no such endpoint.")
				case m != nil && m[2] == "catalogue" && m[3] == "platforms" && m[4] == "":
					r = r.Clone(r.Context())
					r.URL.Path, r.URL.RawPath = m[1]+"/platforms", ""
					r.RequestURI = r.URL.RequestURI()
					slim.ServeHTTP(w, r)
				default:
					next.ServeHTTP(w, r)
				}
			})
		},
	},
	{
		name: "dates-calendar",
		legal: "§2.1-§2.3: created, passwordLastChanged and createdDate are each an \"ISO 8601 date\"; only §2.4's session " +
			"created is a \"date-time\": this target answers calendar dates (2026-01-02) but for sessions",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(r *http.Request, _ int, v any) (any, bool) {
				if m := resourcePath.FindStringSubmatch(r.URL.Path); m == nil || m[2] == "sessions" {
					return v, false
				}
				changed := false
				eachObject(v, "", func(_ string, o map[string]any) {
					for _, k := range []string{"created", "createdDate", "passwordLastChanged"} {
						if s, ok := o[k].(string); ok && rfc3339Z.MatchString(s) {
							o[k], changed = s[:len("2006-01-02")], true
						}
					}
				})
				return v, changed
			}, hit)
		},
	},
	{
		name: "platforms-authenticated",
		legal: "§4.5: the platforms collection's \"path, parameters and item fields: not shown\", nor whether it needs " +
			"authentication; §5: \"When a request to an endpoint that needs authentication is not authenticated correctly, " +
			"the response is HTTP 401\"",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				if r.Method != http.MethodGet || m == nil || m[2] != "platforms" || m[3] != "" {
					next.ServeHTTP(w, r)
					return
				}
				hit()
				// Credentials are valid when the mock lets them reach a body check.
				if a := probe(next, r, http.MethodPost, m[1]+"/apps", []byte(`{"marketapp":{"hash":"x"}}`)); a.status == http.StatusUnauthorized {
					writeErrors(w, http.StatusUnauthorized, "Unauthorized", "Authenticate to read the platforms.")
					return
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		name: "client-mistakes-other-4xx",
		legal: "§7.2 gives 400 to a validation failure and 404 to a resource not found, but no status to a body that is no " +
			"JSON object or a path id that is no number (§4: \"Requests carrying a body use JSON\", \":userId (Number)\"): " +
			"this target answers 415 to a body that is not JSON, 422 to JSON that is no object, and 400 to a path id that is no whole number",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body := bytes.TrimSpace(readBody(r))
				editAnswer(next, func(r *http.Request, a *answer) bool {
					m := resourcePath.FindStringSubmatch(r.URL.Path)
					var errs []fieldErr
					switch {
					case a.status == http.StatusBadRequest && json.Unmarshal(a.body, &errs) == nil && len(errs) == 1 && errs[0].Error == "InvalidBody":
						if len(body) == 0 || !json.Valid(body) {
							a.setErrors(http.StatusUnsupportedMediaType, "UnsupportedBody", "Send the body as a JSON object.")
						} else {
							a.setErrors(http.StatusUnprocessableEntity, "BodyNotAnObject", "The body must be a JSON object.")
						}
						return true
					case a.status == http.StatusNotFound && m != nil && (m[2] == "users" || m[2] == "clients") &&
						m[3] != "" && m[4] == "" && strings.Trim(m[3], "0123456789") != "":
						a.setErrors(http.StatusBadRequest, "InvalidId", "The id in the path is not a whole number.")
						return true
					}
					return false
				}, hit).ServeHTTP(w, r)
			})
		},
	},
	{
		name: "errors-two-per-field",
		legal: "§7.1: each element names \"the offending body field\"; the spec does not say that a field has one element: " +
			"this target answers a second element, with a code of its own, for every field it names",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, status int, v any) (any, bool) {
				errs, ok := v.([]any)
				if status != http.StatusBadRequest || !ok {
					return v, false
				}
				for _, e := range slices.Clone(errs) {
					if o, ok := e.(map[string]any); ok && o["fieldName"] != "" {
						errs = append(errs, map[string]any{"fieldName": o["fieldName"], "error": "SeeAbove", "message": "This field has another problem too."})
					}
				}
				return errs, len(errs) > 0
			}, hit)
		},
	},
	{
		name:  "nested-fieldnames-bracketed",
		legal: "§7.1: fieldName is the \"Name of the offending body field\"; how a nested field is named is not shown (here app[marketapp][hash])",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(_ *http.Request, status int, v any) (any, bool) {
				errs, ok := v.([]any)
				if status != http.StatusBadRequest || !ok {
					return v, false
				}
				changed := false
				for _, e := range errs {
					if o, ok := e.(map[string]any); ok {
						if f, ok := o["fieldName"].(string); ok && strings.Contains(f, ".") {
							parts := strings.Split(f, ".")
							o["fieldName"], changed = parts[0]+"["+strings.Join(parts[1:], "][")+"]", true
						}
					}
				}
				return v, changed
			}, hit)
		},
	},
}

const idOffset = 1000000

var (
	rfc3339Z = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	plainID  = regexp.MustCompile(`^[1-9][0-9]*$`)
	// resourcePath splits an API path: version, resource, id, the rest.
	resourcePath = regexp.MustCompile(`^(/v1(?:\.0)?)/([A-Za-z]+)(?:/([^/]+))?(/.*)?$`)
)

// isExtension reports whether a request goes to one of the mock's documented
// extensions rather than to an endpoint the spec names.
func isExtension(method, resource, id, rest string) bool {
	switch resource {
	case "currencies", "plans", "phoneCountries", "marketapps":
		return true
	case "users":
		return (id == "" && method == http.MethodPost) || rest != "" || (id != "" && method == http.MethodGet)
	case "clients":
		return rest != "" || (id != "" && method == http.MethodGet)
	case "apps":
		return id != "" || rest != ""
	}
	return false
}

// offsetIDs adds idOffset to the ids the server assigns: the top-level id of
// a user, client, app or session, the ids of the items of a users, clients or
// apps collection, and every userId, clientId and creatorUserId. Catalogue
// ids (currency, plan, platform, phone country) are left alone.
func offsetIDs(r *http.Request, _ int, v any) (any, bool) {
	m := resourcePath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		return v, false
	}
	changed := false
	add := func(o map[string]any, k string) {
		if n, ok := o[k].(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				o[k], changed = json.Number(strconv.FormatInt(i+idOffset, 10)), true
			}
		}
	}
	if top, ok := v.(map[string]any); ok && m[4] == "" && slices.Contains([]string{"users", "clients", "apps", "sessions"}, m[2]) {
		add(top, "id")
	}
	eachObject(v, "", func(key string, o map[string]any) {
		if key == "users" || key == "clients" || key == "apps" {
			add(o, "id")
		}
		add(o, "userId")
		add(o, "clientId")
		add(o, "creatorUserId")
	})
	return v, changed
}

// eachObject calls fn for every object in v, depth first, with the key it
// sits under (an array's items sit under the array's key; the top under
// the key given, always "").
func eachObject(v any, _ string, fn func(key string, o map[string]any)) {
	rewrite.EachObject(v, fn)
}

// answer is the mock's answer, held so that a variant may rewrite it.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a *answer) setErrors(status int, code, message string) {
	a.status = status
	a.header.Set("Content-Type", "application/json; charset=utf-8")
	a.body, _ = json.Marshal([]map[string]string{{"fieldName": "", "error": code, "message": message}})
}

func writeErrors(w http.ResponseWriter, status int, code, message string) {
	a := answer{header: w.Header()}
	a.setErrors(status, code, message)
	w.WriteHeader(a.status)
	w.Write(a.body)
}

// editAnswer serves r with next and lets edit rewrite the answer; hit is
// called when edit reports a change.
func editAnswer(next http.Handler, edit func(r *http.Request, a *answer) bool, hit func()) http.Handler {
	return rewrite.Answers(next, func(held *rewrite.Answer) {
		a := &answer{status: held.Status, header: held.Header, body: held.Body}
		if edit(held.Request, a) {
			hit()
		}
		held.Status, held.Body = a.status, a.body
	})
}

// editJSON is editAnswer for a JSON answer, decoded with numbers kept as
// written; an answer that is not JSON passes unchanged.
func editJSON(next http.Handler, edit func(r *http.Request, status int, v any) (any, bool), hit func()) http.Handler {
	return rewrite.Answers(next, func(a *rewrite.Answer) {
		mt, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type"))
		if mt == "application/json" && a.EditJSON(func(v any) (any, bool) { return edit(a.Request, a.Status, v) }) {
			hit()
		}
	})
}

// TestIDsLargeVariant checks that ids-large is a consistent implementation
// rather than one the suite happens not to notice: the ids it answers are
// the ids it takes, and the mock's own small ids name nothing.
func TestIDsLargeVariant(t *testing.T) {
	i := slices.IndexFunc(legalVariants, func(v legalVariant) bool { return v.name == "ids-large" })
	m := mocktest.MustStart(t, mocktest.Options{Wrap: func(h http.Handler) http.Handler { return legalVariants[i].wrap(h, func() {}) }})
	p := m.Profile

	do := func(method, path, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(method, m.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "api-key "+p.APIKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v map[string]any
		json.NewDecoder(res.Body).Decode(&v)
		return res.StatusCode, v
	}
	status, sess := do(http.MethodPost, "/sessions", fmt.Sprintf(`{"email":%q,"password":%q}`, p.Email, p.Password))
	userID, _ := sess["userId"].(float64)
	clientID, _ := sess["clientId"].(float64)
	if status != http.StatusOK || userID <= idOffset || clientID <= idOffset || sess["id"].(float64) <= idOffset {
		t.Fatalf("POST /sessions: %d %v; want ids over %d", status, sess, idOffset)
	}
	if status, u := do(http.MethodGet, fmt.Sprintf("/users/%.0f", userID), ""); status != http.StatusOK || u["id"] != userID {
		t.Errorf("GET /users/%.0f: %d %v", userID, status, u)
	}
	if status, c := do(http.MethodGet, fmt.Sprintf("/clients/%.0f", clientID), ""); status != http.StatusOK || c["id"] != clientID {
		t.Errorf("GET /clients/%.0f: %d %v", clientID, status, c)
	}
	if status, _ := do(http.MethodGet, fmt.Sprintf("/users/%.0f", userID-idOffset), ""); status != http.StatusNotFound {
		t.Errorf("GET /users/%.0f (the mock's own id): %d, want 404", userID-idOffset, status)
	}
}

// The helpers below build variants that add a rule to the mock's own: a
// validation, a limit, a refusal. Each first lets the mock decide whether
// the caller is authenticated and may touch the resource, so that the
// variant answers 401, 403 and 404 exactly where the mock does.

// fieldErr is one element of a 400 body (spec 7.1).
type fieldErr struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

// extraRule is a validation a variant adds in front of the mock. It owns
// the fields it checks: check returns their errors for a body, fix makes a
// body pass the rule, and broken holds values (by dotted path) that the mock
// itself refuses, so that a probe carrying them creates nothing.
type extraRule struct {
	applies func(r *http.Request, m []string) bool // m: resourcePath's match
	owns    []string
	check   func(r *http.Request, body map[string]any) []fieldErr
	fix     func(body map[string]any)
	broken  map[string]any
}

// validating serves r with next, unless rule finds errors in the body. Then
// it sends the mock a probe, the body fixed for the rule and broken on one
// of its fields: an answer other than 400 (401, 403, 404) is the answer;
// a 400 is answered with the mock's errors on the fields the rule does not
// own and the rule's errors, as one implementation checking the body at
// once would. hit is called for every body the rule vets.
func validating(next http.Handler, hit func(), rule extraRule) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := resourcePath.FindStringSubmatch(r.URL.Path)
		if m == nil || !rule.applies(r, m) {
			next.ServeHTTP(w, r)
			return
		}
		raw := readBody(r)
		body, ok := decodeObject(raw)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		hit()
		errs := rule.check(r, body)
		if len(errs) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		rule.fix(body)
		for path, v := range rule.broken {
			setBodyPath(body, path, v)
		}
		probeBody, _ := json.Marshal(body)
		a := probe(next, r, r.Method, r.URL.Path, probeBody)
		if a.status != http.StatusBadRequest {
			copyAnswer(w, a)
			return
		}
		var mock []fieldErr
		if err := json.Unmarshal(a.body, &mock); err != nil {
			copyAnswer(w, a)
			return
		}
		for _, e := range mock {
			if !slices.Contains(rule.owns, e.FieldName) {
				errs = append(errs, e)
			}
		}
		writeFieldErrors(w, errs)
	})
}

// probe sends next a request with r's credentials (headers and query) to
// another method, path or body, and returns the answer; nothing reaches w.
func probe(next http.Handler, r *http.Request, method, path string, body []byte) *answer {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.URL.RawQuery = r.URL.RawQuery
	req.RequestURI = req.URL.RequestURI()
	req.Header = r.Header.Clone()
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req = req.WithContext(r.Context())
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, req)
	return &answer{status: rec.Code, header: rec.Header().Clone(), body: rec.Body.Bytes()}
}

func copyAnswer(w http.ResponseWriter, a *answer) {
	for k, vs := range a.header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(a.body)))
	w.WriteHeader(a.status)
	w.Write(a.body)
}

func writeFieldErrors(w http.ResponseWriter, errs []fieldErr) {
	body, _ := json.Marshal(errs)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusBadRequest)
	w.Write(body)
}

// readBody reads r's body and puts it back for the next reader.
func readBody(r *http.Request) []byte {
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b
}

// decodeObject decodes a JSON object with numbers kept as written.
func decodeObject(raw []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var o map[string]any
	if err := dec.Decode(&o); err != nil || o == nil {
		return nil, false
	}
	return o, true
}

// bodyPath returns the value at a dotted path of a body; absent and null
// are both "not there".
func bodyPath(body map[string]any, path string) (any, bool) {
	var cur any = body
	for _, seg := range strings.Split(path, ".") {
		o, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = o[seg]; !ok || cur == nil {
			return nil, false
		}
	}
	return cur, true
}

// setBodyPath sets a dotted path, creating objects on the way.
func setBodyPath(body map[string]any, path string, v any) {
	segs := strings.Split(path, ".")
	o := body
	for _, seg := range segs[:len(segs)-1] {
		child, ok := o[seg].(map[string]any)
		if !ok {
			child = map[string]any{}
			o[seg] = child
		}
		o = child
	}
	o[segs[len(segs)-1]] = v
}

// oneClientPerUser refuses a second client, with status and code: POST
// /clients, and PUT /users with a client, from a user who has a client.
// The mock says who is authenticated and who may change the user (a probe
// with an invalid email), and whether the caller has a client (POST /apps
// with a malformed hash: 400 with a client, 403 NoClient without).
func oneClientPerUser(status int, code string) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			m := resourcePath.FindStringSubmatch(r.URL.Path)
			postClient := m != nil && r.Method == http.MethodPost && m[2] == "clients" && m[3] == ""
			putUser := m != nil && r.Method == http.MethodPut && m[2] == "users" && m[3] != "" && m[4] == ""
			if putUser {
				body, _ := decodeObject(readBody(r))
				_, putUser = bodyPath(body, "client")
			}
			if !postClient && !putUser {
				next.ServeHTTP(w, r)
				return
			}
			hit()
			if putUser {
				if a := probe(next, r, http.MethodPut, r.URL.Path, []byte(`{"email":"not-an-email"}`)); a.status != http.StatusBadRequest {
					copyAnswer(w, a)
					return
				}
			}
			switch a := probe(next, r, http.MethodPost, m[1]+"/apps", []byte(`{"marketapp":{"hash":"x"}}`)); a.status {
			case http.StatusBadRequest: // authenticated, with a client
				writeErrors(w, status, code, "You have a client already; a user may hold only one.")
			case http.StatusUnauthorized:
				copyAnswer(w, a)
			default: // no client yet
				next.ServeHTTP(w, r)
			}
		})
	}
}

// oneAppPerMarketapp refuses an app of a marketplace app that an app
// already has (POST /apps, and the app of POST /clients and of the client
// of PUT /users), with 400 on the hash. It knows the seed's apps and learns
// every app created through it.
func oneAppPerMarketapp(next http.Handler, hit func()) http.Handler {
	var (
		mu   sync.Mutex
		used = map[string]bool{}
	)
	for _, a := range seedList("apps.json") {
		used[strings.ToLower(fmt.Sprint(a["marketappHash"]))] = true
	}
	rule := func(prefix string, applies func(*http.Request, []string) bool) extraRule {
		field := prefix + "marketapp.hash"
		return extraRule{
			applies: applies,
			owns:    []string{field},
			check: func(_ *http.Request, b map[string]any) []fieldErr {
				h, _ := bodyPath(b, field)
				s, ok := h.(string)
				mu.Lock()
				defer mu.Unlock()
				if ok && hash40.MatchString(s) && used[strings.ToLower(s)] {
					return []fieldErr{{field, "DuplicateMarketapp", "An app of this marketplace app exists already."}}
				}
				return nil
			},
			fix:    func(b map[string]any) { setBodyPath(b, field, nil) },
			broken: map[string]any{field: "x"},
		}
	}
	post := func(resource string) func(*http.Request, []string) bool {
		return func(r *http.Request, m []string) bool {
			return r.Method == http.MethodPost && m[2] == resource && m[3] == ""
		}
	}
	putUser := func(r *http.Request, m []string) bool {
		return r.Method == http.MethodPut && m[2] == "users" && m[3] != "" && m[4] == ""
	}
	checked := validating(validating(validating(next, hit, rule("", post("apps"))), hit, rule("app.", post("clients"))), hit, rule("client.app.", putUser))
	// Learn the hash of every app created.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := decodeObject(readBody(r))
		rec := httptest.NewRecorder()
		checked.ServeHTTP(rec, r)
		if rec.Code == http.StatusOK && r.Method != http.MethodGet {
			for _, field := range []string{"marketapp.hash", "app.marketapp.hash", "client.app.marketapp.hash"} {
				if h, ok := bodyPath(body, field); ok {
					if s, ok := h.(string); ok && hash40.MatchString(s) {
						mu.Lock()
						used[strings.ToLower(s)] = true
						mu.Unlock()
					}
				}
			}
		}
		copyAnswer(w, &answer{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()})
	})
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

// addressForms are the countries the address-validation variant knows, by
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
func addressRule(prefix string, applies func(*http.Request, []string) bool) extraRule {
	country, postcode, vat := prefix+"addressCountry", prefix+"addressPostcode", prefix+"vat"
	return extraRule{
		applies: func(r *http.Request, m []string) bool {
			if !applies(r, m) {
				return false
			}
			if prefix == "" {
				return true
			}
			body, _ := decodeObject(readBody(r))
			_, ok := bodyPath(body, strings.TrimSuffix(prefix, "."))
			return ok
		},
		owns: []string{country, postcode, vat},
		check: func(_ *http.Request, b map[string]any) []fieldErr {
			c, _ := bodyPath(b, country)
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
				return []fieldErr{{country, "InvalidAddressCountry", cs + " is not a country we bill in."}}
			}
			var errs []fieldErr
			if p, _ := bodyPath(b, postcode); p != nil {
				if ps, ok := p.(string); ok && !form.postcode.MatchString(ps) {
					errs = append(errs, fieldErr{postcode, "InvalidAddressPostcode", "not a postcode of " + cs})
				}
			}
			if v, _ := bodyPath(b, vat); v != nil && form.vat != nil {
				if vs, ok := v.(string); ok && vs != "" && !form.vat.MatchString(vs) {
					errs = append(errs, fieldErr{vat, "InvalidVat", "not a VAT number of " + cs})
				}
			}
			return errs
		},
		fix: func(b map[string]any) {
			setBodyPath(b, country, "United Kingdom")
			setBodyPath(b, postcode, "EC1A 1BB")
			setBodyPath(b, vat, "GB123456789")
		},
		broken: map[string]any{country: ""},
	}
}

// platformRule refuses, in the app body at prefix ("" or "app."), a
// platform.id that is not the platform of the marketplace app of the hash.
func platformRule(prefix string, applies func(*http.Request, []string) bool) extraRule {
	platformOf := map[string]string{}
	for _, m := range seedList("marketapps.json") {
		platformOf[strings.ToLower(fmt.Sprint(m["hash"]))] = fmt.Sprint(m["platformId"])
	}
	field := prefix + "platform.id"
	return extraRule{
		applies: applies,
		owns:    []string{field},
		check: func(_ *http.Request, b map[string]any) []fieldErr {
			h, _ := bodyPath(b, prefix+"marketapp.hash")
			hs, _ := h.(string)
			want, known := platformOf[strings.ToLower(hs)]
			got, ok := bodyPath(b, field)
			if n, isNumber := got.(json.Number); known && ok && isNumber && n.String() != want {
				return []fieldErr{{field, "InvalidPlatformId", "The marketplace app is on platform " + want + "."}}
			}
			return nil
		},
		fix:    func(b map[string]any) { setBodyPath(b, field, nil) },
		broken: map[string]any{field: 999999999},
	}
}

// onlyVersion serves the API under one version segment: any other answers
// 404, as an unknown path does. hit is called for every API request vetted.
func onlyVersion(served string) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if m := resourcePath.FindStringSubmatch(r.URL.Path); m != nil {
				hit()
				if m[1] != served {
					writeErrors(w, http.StatusNotFound, "NotFound", "There is no such endpoint.")
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

var hash40 = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)

// seedList reads a list of objects from the mock's default seed.
func seedList(file string) []map[string]any {
	data, err := fs.ReadFile(fixtures.Seed(), file)
	var out []map[string]any
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		err = dec.Decode(&out)
	}
	if err != nil {
		panic(fmt.Sprintf("the seed's %s: %v", file, err)) // embedded at build time
	}
	return out
}

// TestVariantsAreConsistent checks that the variants that add a rule are
// servers that keep it, rather than filters the suite happens to pass: each
// refuses what its rule refuses, with the mock's own errors beside its own
// where the body has more, and still answers 401, 403 and 404 where the mock
// does.
func TestVariantsAreConsistent(t *testing.T) {
	const (
		a      = "api-key qa-api-key"
		b      = "api-key other-api-key"
		seedA  = "fecaf482f29181490ae5ecfb2790186ce7f82078" // the seed's app of client A uses it
		unused = "ac16024432c03228d1db1ee6fad907840ee875ba" // no app uses it; platform 1
		onIOS  = "41cc95107d02f0a55079d23d8dcf2b2852ef397d" // platform 2
	)
	user := func(edit string) string {
		return `{"email":"qa@example.com","firstName":"Q","lastName":"A","timezone":"Europe/London","subscribeWelcome":true,` +
			`"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false,"password":null,` +
			`"phoneCountry":{"id":1},"phoneNumber":"7700900123","phoneExtension":null` + edit + `}`
	}
	client := func(edit string) string {
		return `{"name":"contract-c","addressLine1":"1 Road","addressCity":"London","addressPostcode":"EC1A 1BB",` +
			`"addressCountry":"United Kingdom","vat":"GB123456789","currency":{"id":1},"terms":"I agree"` + edit + `}`
	}
	type call struct {
		method, path, auth, body string
		status                   int
		errors                   []string // "fieldName error" of a 400, in any order
	}
	tests := []struct {
		variant string
		calls   []call
	}{
		{"phone-fields-required", []call{
			{"PUT", "/v1/users/1", a, `{"email":"qa@example.com","firstName":"","lastName":"A","timezone":"Europe/London","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":true,"subscribeOnboarding":false}`,
				400, []string{"phoneNumber InvalidPhoneNumber", "phoneCountry.id InvalidPhoneCountryId", "firstName InvalidFirstName"}},
			{"PUT", "/v1/users/1", "", `{"email":"qa@example.com"}`, 401, nil},
			{"PUT", "/v1/users/2", a, `{"email":"qa@example.com"}`, 403, nil},
			{"PUT", "/v1/users/1", a, user(""), 200, nil},
		}},
		{"one-client-per-user", []call{
			{"POST", "/v1/clients", a, client(""), 403, nil},
			{"POST", "/v1/clients", a, client(`,"name":""`), 403, nil}, // refused before the body is looked at
			{"POST", "/v1/clients", "", client(""), 401, nil},
			{"PUT", "/v1/users/1", a, user(`,"client":` + client("")), 403, nil},
			{"PUT", "/v1/users/2", a, user(`,"client":` + client("")), 403, nil},
			{"PUT", "/v1/users/1", a, user(""), 200, nil},
		}},
		{"one-client-per-user-400", []call{
			{"POST", "/v1/clients", b, client(""), 400, []string{" ClientLimitReached"}},
			{"POST", "/v1/clients", "", client(""), 401, nil},
		}},
		{"one-app-per-marketapp", []call{
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + seedA + `"},"nextplan":{"id":999}}`, 400,
				[]string{"marketapp.hash DuplicateMarketapp", "nextplan.id InvalidPlanId"}},
			{"POST", "/v1/apps", "", `{"marketapp":{"hash":"` + seedA + `"}}`, 401, nil},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + strings.ToUpper(unused) + `"}}`, 200, nil},
			{"POST", "/v1/apps", b, `{"marketapp":{"hash":"` + unused + `"}}`, 400, []string{"marketapp.hash DuplicateMarketapp"}},
			{"POST", "/v1/clients", a, client(`,"app":{"marketapp":{"hash":"` + seedA + `"}}`), 400, []string{"app.marketapp.hash DuplicateMarketapp"}},
		}},
		{"email-deliverability", []call{
			{"PUT", "/v1/users/1", a, user(`,"email":"someone@mail.example.com","lastName":""`), 400,
				[]string{"email InvalidEmail", "lastName InvalidLastName"}},
			{"PUT", "/v1/users/1", a, user(`,"email":"other@example.com"`), 400, []string{"email InvalidEmail"}}, // B's, not A's
			{"PUT", "/v1/users/1", a, user(`,"email":"QA@example.com"`), 200, nil},
			{"PUT", "/v1/users/1", a, user(`,"email":"qa@qa.pricing-contract.dev"`), 200, nil},
			{"PUT", "/v1/users/1", a, user(`,"email":"qa@example.com"`), 200, nil},
			{"PUT", "/v1/users/2", a, user(`,"email":"x@example.com"`), 403, nil},
		}},
		{"email-rfc5321", []call{
			{"PUT", "/v1/users/1", a, user(`,"email":"` + strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 58) + `.com"`), 400, []string{"email InvalidEmail"}},
			{"PUT", "/v1/users/1", a, user(`,"email":"` + strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 57) + `.com"`), 200, nil},
			{"PUT", "/v1/users/1", a, user(`,"email":"qa@example.com"`), 200, nil},
		}},
		{"address-validation", []call{
			{"PUT", "/v1/clients/1", a, client(`,"addressCountry":"England","name":""`), 400, []string{"addressCountry InvalidAddressCountry", "name InvalidName"}},
			{"POST", "/v1/clients", a, client(`,"addressCountry":"DE","addressPostcode":"EC1A 1BB"`), 400,
				[]string{"addressPostcode InvalidAddressPostcode", "vat InvalidVat"}},
			{"PUT", "/v1/users/1", a, user(`,"client":` + client(`,"addressCountry":"Germany","addressPostcode":"10117","vat":"GB1"`)), 400, []string{"client.vat InvalidVat"}},
			{"PUT", "/v1/clients/2", a, client(`,"addressCountry":"England"`), 403, nil},
			{"PUT", "/v1/clients/1", "", client(`,"addressCountry":"England"`), 401, nil},
			{"POST", "/v1/clients", a, client(`,"addressCountry":"Germany","addressPostcode":"10117","vat":"DE123456789"`), 200, nil},
		}},
		{"timezone-iana", []call{
			{"PUT", "/v1/users/1", a, user(`,"timezone":"Europe/Atlantis"`), 400, []string{"timezone InvalidTimezone"}},
			{"PUT", "/v1/users/1", a, user(`,"timezone":"Asia/Tokyo"`), 200, nil},
		}},
		{"conflicting-platform-refused", []call{
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + onIOS + `"},"platform":{"id":1}}`, 400, []string{"platform.id InvalidPlatformId"}},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + onIOS + `"},"platform":{"id":2}}`, 200, nil},
			{"POST", "/v1/apps", "", `{"marketapp":{"hash":"` + onIOS + `"},"platform":{"id":1}}`, 401, nil},
		}},
		{"login-failure-400", []call{
			{"POST", "/v1/sessions", "", `{"email":"qa@example.com","password":"wrong-password"}`, 400, []string{" InvalidCredentials"}},
			{"POST", "/v1/sessions", "", `{"email":"qa@example.com","password":"qa-password"}`, 200, nil},
		}},
		{"v1-only", []call{
			{"GET", "/v1.0/platforms", "", "", 404, nil},
			{"GET", "/v1/platforms", "", "", 200, nil},
		}},
		{"v1.0-only", []call{
			{"GET", "/v1/platforms", "", "", 404, nil},
			{"GET", "/v1.0/platforms", "", "", 200, nil},
		}},
		{"platforms-elsewhere", []call{
			{"GET", "/v1/platforms", a, "", 404, nil},
			{"GET", "/v1/catalogue/platforms", a, "", 200, nil},
		}},
		{"client-mistakes-other-4xx", []call{
			{"POST", "/v1/apps", a, `{"marketapp":`, 415, nil},
			{"POST", "/v1/apps", a, ``, 415, nil},
			{"PUT", "/v1/clients/1", a, `[]`, 422, nil},
			{"POST", "/v1/apps", "", `{"marketapp":`, 401, nil},
			{"PUT", "/v1/users/abc", a, user(""), 400, []string{" InvalidId"}},
			{"PUT", "/v1/users/1.5", a, user(""), 400, []string{" InvalidId"}},
			{"PUT", "/v1/users/99999999999999999999", a, user(""), 404, nil},
			{"PUT", "/v1/users/abc", "", user(""), 401, nil},
			{"PUT", "/v1/users/1", a, user(`,"firstName":""`), 400, []string{"firstName InvalidFirstName"}},
		}},
		{"platforms-authenticated", []call{
			{"GET", "/v1/platforms", "", "", 401, nil},
			{"GET", "/v1/platforms", "api-key nobody", "", 401, nil},
			{"GET", "/v1/platforms", b, "", 200, nil},
		}},
		{"apps-from-a-store-only", []call{
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":null},"name":"contract-x","platform":{"id":1},"nextplan":{"id":999}}`, 400,
				[]string{"marketapp.hash InvalidMarketappHash", "nextplan.id InvalidPlanId"}},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":null},"name":null,"platform":{"id":1}}`, 400, []string{"name InvalidName"}},
			{"POST", "/v1/apps", "", `{"name":"contract-x","platform":{"id":1}}`, 401, nil},
			{"POST", "/v1/clients", a, client(`,"app":{"name":"contract-x","platform":{"id":2}}`), 400, []string{"app.marketapp.hash InvalidMarketappHash"}},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + onIOS + `"},"name":"contract-x"}`, 200, nil},
		}},
		{"unknown-marketapp-404", []call{
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + strings.Repeat("0", 40) + `"}}`, 404, nil},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + strings.Repeat("0", 39) + `"}}`, 400, []string{"marketapp.hash InvalidMarketappHash"}},
			{"POST", "/v1/apps", a, `{"marketapp":{"hash":"` + onIOS + `"}}`, 200, nil},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.variant, func(t *testing.T) {
			i := slices.IndexFunc(legalVariants, func(v legalVariant) bool { return v.name == tt.variant })
			if i < 0 {
				t.Fatalf("no variant %q", tt.variant)
			}
			m := mocktest.MustStart(t, mocktest.Options{Wrap: func(h http.Handler) http.Handler { return legalVariants[i].wrap(h, func() {}) }})
			origin := strings.TrimSuffix(m.URL, "/v1")
			for _, c := range tt.calls {
				req, _ := http.NewRequest(c.method, origin+c.path, strings.NewReader(c.body))
				if c.auth != "" {
					req.Header.Set("Authorization", c.auth)
				}
				req.Header.Set("Content-Type", "application/json")
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != c.status {
					t.Errorf("%s %s (%.60s): %d %s, want %d", c.method, c.path, c.body, res.StatusCode, body, c.status)
					continue
				}
				if c.errors == nil {
					continue
				}
				var errs []fieldErr
				if err := json.Unmarshal(body, &errs); err != nil {
					t.Errorf("%s %s: the 400 is not the error array: %s", c.method, c.path, body)
					continue
				}
				var got []string
				for _, e := range errs {
					got = append(got, e.FieldName+" "+e.Error)
				}
				slices.Sort(got)
				want := slices.Sorted(slices.Values(c.errors))
				if !slices.Equal(got, want) {
					t.Errorf("%s %s (%.60s): errors %q, want %q", c.method, c.path, c.body, got, want)
				}
			}
		})
	}
}
