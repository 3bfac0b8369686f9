package main

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"

	"github.com/pricing-contract/pricing-contract/steps"
)

// The legal variants of the checks that look at a server over time, at
// rules with a second half and at unusual input: each is a reading of the
// spec those checks must accept.
func init() { legalVariants = append(legalVariants, gateVariants...) }

var gateVariants = []legalVariant{
	{
		name: "apps-from-a-store-only",
		legal: "§1: \"An app is created from a marketplace app ... Creating an app that does not exist in a store is not supported " +
			"through the API\": this target refuses a body with a name and no marketapp hash (400 on marketapp.hash), although §4.2 " +
			"describes name and platform.id; a body with neither still answers InvalidName (§7.3)",
		wrap: func(next http.Handler, hit func()) http.Handler {
			apps := storeOnlyRule("", func(r *http.Request, m []string) bool {
				return r.Method == http.MethodPost && m[2] == "apps" && m[3] == ""
			})
			clients := storeOnlyRule("app.", func(r *http.Request, m []string) bool {
				return r.Method == http.MethodPost && m[2] == "clients" && m[3] == ""
			})
			return validating(validating(next, hit, clients), hit, apps)
		},
	},
	{
		name: "nextplan-deferred",
		legal: "§4.2: nextplan.id is the ID of the subscription plan, the next one; §2.3's flags are the plan the app is on: this " +
			"target starts every app on the lite plan and moves it to its next plan later, and its profile says so (plans 1:lite,2:lite,3:lite)",
		tune: func(p *steps.Profile) { p.Plans = "1:lite,2:lite,3:lite" },
		wrap: func(next http.Handler, hit func()) http.Handler {
			return editJSON(next, func(r *http.Request, status int, v any) (any, bool) {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				app, ok := v.(map[string]any)
				if r.Method != http.MethodPost || m == nil || m[2] != "apps" || status != http.StatusOK || !ok {
					return v, false
				}
				app["plan"] = map[string]any{"isLite": true, "isPro": false, "isDynamic": false, "needBilling": false}
				return v, true
			}, hit)
		},
	},
	{
		name: "sessions-reused",
		legal: "§5: \"A client obtains a session by POST /sessions\"; the token's lifetime is not shown: this target answers every " +
			"login of a user with the session it already has, the same token and the same created",
		wrap: func(next http.Handler, hit func()) http.Handler {
			var (
				mu   sync.Mutex
				held = map[string]*answer{} // lower-cased email -> the first session's answer
			)
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				if r.Method != http.MethodPost || m == nil || m[2] != "sessions" || m[3] != "" {
					next.ServeHTTP(w, r)
					return
				}
				email := strings.ToLower(loginEmail(r))
				mu.Lock()
				a, ok := held[email]
				mu.Unlock()
				if ok {
					hit()
					// The password still decides: the mock answers a wrong one.
					rec := httptest.NewRecorder()
					next.ServeHTTP(rec, r)
					if rec.Code == http.StatusOK {
						copyAnswer(w, a)
						return
					}
					copyAnswer(w, &answer{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()})
					return
				}
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				a = &answer{status: rec.Code, header: rec.Header().Clone(), body: rec.Body.Bytes()}
				if rec.Code == http.StatusOK {
					mu.Lock()
					if first, ok := held[email]; ok {
						a = first
					} else {
						held[email] = a
					}
					mu.Unlock()
				}
				copyAnswer(w, a)
			})
		},
	},
	{
		name: "unknown-marketapp-404",
		legal: "§4.2 names 404 among the errors of POST /apps, and §1 says an app that does not exist in a store cannot be created: " +
			"this target answers a well-formed hash of no marketplace app 404, a malformed one 400",
		wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				m := resourcePath.FindStringSubmatch(r.URL.Path)
				if r.Method != http.MethodPost || m == nil || m[2] != "apps" || m[3] != "" {
					next.ServeHTTP(w, r)
					return
				}
				body, _ := decodeObject(readBody(r))
				h, _ := bodyPath(body, "marketapp.hash")
				hash, _ := h.(string)
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				a := &answer{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
				var errs []fieldErr
				if hash40.MatchString(hash) && rec.Code == http.StatusBadRequest && json.Unmarshal(rec.Body.Bytes(), &errs) == nil &&
					len(errs) == 1 && errs[0].FieldName == "marketapp.hash" {
					hit()
					a.setErrors(http.StatusNotFound, "NotFound", "There is no marketplace app with this hash.")
				}
				copyAnswer(w, a)
			})
		},
	},
}

// storeOnlyRule refuses, in the app body at prefix ("" or "app."), a name
// without a marketapp hash.
func storeOnlyRule(prefix string, applies func(*http.Request, []string) bool) extraRule {
	field := prefix + "marketapp.hash"
	return extraRule{
		applies: applies,
		owns:    []string{field},
		check: func(_ *http.Request, b map[string]any) []fieldErr {
			app := b
			if prefix != "" {
				a, _ := bodyPath(b, strings.TrimSuffix(prefix, "."))
				if app, _ = a.(map[string]any); app == nil {
					return nil
				}
			}
			name, _ := app["name"].(string)
			if _, hashed := bodyPath(app, "marketapp.hash"); hashed || strings.TrimSpace(name) == "" {
				return nil // a hash, or no name: the mock's own rules
			}
			return []fieldErr{{field, "InvalidMarketappHash", "Apps are made from a marketplace app: give marketapp.hash."}}
		},
		fix:    func(b map[string]any) { setBodyPath(b, field, "fecaf482f29181490ae5ecfb2790186ce7f82078") },
		broken: map[string]any{field: "x"},
	}
}

// loginEmail is the email of a POST /sessions body, JSON or form.
func loginEmail(r *http.Request) string {
	raw := readBody(r)
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/x-www-form-urlencoded" {
		form, _ := url.ParseQuery(string(raw))
		return form.Get("email")
	}
	var b struct{ Email string }
	_ = json.NewDecoder(bytes.NewReader(raw)).Decode(&b)
	return b.Email
}
