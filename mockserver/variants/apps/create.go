package apps

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// POST /apps: the marketplace app, the name, the platform and the plan (4.2, 8).
var createServers = []variants.Server{
	{Name: "app-name-not-required", Rule: "4.2", Why: "POST /apps with neither a marketapp hash nor a name creates an app without a name", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.AppNameOptional = true },
	},
	{Name: "marketapp-platform-ignored", Rule: "4.2", Why: "with a marketapp hash, platform.id of the body overrides the marketplace app's platform", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.BodyPlatformWins = true },
	},
	{Name: "malformed-hash-ignored", Rule: "8", Why: "a marketapp hash that is not 40 hexadecimal characters (39, say) is ignored, and the app made from name and platform.id", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.MalformedHashIgnored = true },
	},
	{Name: "hash-truncated-to-40", Rule: "8", Why: "a marketapp hash longer than 40 characters is cut to 40 and accepted", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.HashTruncated = true },
	},
	{Name: "app-name-replaced", Rule: "4.2", Why: "an app made from name and platform.id is named Untitled app, not the name sent", Origin: variants.FaultClasses,
		Answer: variants.AnswerTo(variants.PostApps, func(o map[string]any) {
			if m, ok := o["marketapp"].(map[string]any); ok && m["hash"] == nil {
				o["name"] = "Untitled app"
			}
		}),
	},
	{Name: "unknown-hash-ignored", Rule: "4.2", Why: "a well-formed hash of no marketplace app is ignored, and the app made from name and platform.id", Origin: variants.FaultClasses,
		Deviate: func(d *pricing.Deviations) { d.UnknownHashIgnored = true },
	},
	{Name: "uppercase-hash-refused", Rule: "8", Why: "a marketapp hash in upper-case hexadecimal is refused", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PostApps, func(b map[string]any) bool {
			m, ok := b["marketapp"].(map[string]any)
			return ok && variants.RefuseIf(m, "hash", "not-hexadecimal", func(s string) bool { return strings.ContainsAny(s, "ABCDEF") })
		}),
	},
	{Name: "nextplan-id-ignored", Rule: "4.2", Why: "nextplan.id is ignored: every app gets the first plan", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PostApps, func(b map[string]any) bool { return variants.SetID(b, "nextplan", "1") }),
	},
	{Name: "platform-id-ignored", Rule: "4.2", Why: "without a hash, platform.id is ignored: every app is on the first platform", Origin: variants.FaultClasses,
		Request: variants.EditBody(variants.PostApps, func(b map[string]any) bool {
			if m, ok := b["marketapp"].(map[string]any); ok && m["hash"] != nil {
				return false
			}
			return variants.SetID(b, "platform", "1")
		}),
	},
	{Name: "app-to-lowest-other-client", Rule: "4.2", Why: "POST /apps attaches the app to the client of lowest id that none of the caller's clients' users belongs to", Origin: variants.Gate3,
		Deviate: func(d *pricing.Deviations) { d.AppToOtherClient = 1 },
	},
	{Name: "app-to-newest-other-client", Rule: "4.2", Why: "POST /apps attaches the app to the newest client that is none of the caller's", Origin: variants.Gate3,
		Deviate: func(d *pricing.Deviations) { d.AppToOtherClient = 2 },
	},
	{Name: "app-name-truncated-post-apps", Rule: "8", Why: "POST /apps cuts an app name of over 255 characters to 255 and makes the app", Origin: variants.Gate3,
		Request: variants.EditBody(variants.PostApps, variants.TruncateAt("name")),
	},
	{Name: "app-name-truncated-in-client", Rule: "8", Why: "POST /clients cuts the name of its app to 255 characters and makes both", Origin: variants.Gate3,
		Request: variants.EditBody(variants.PostClients, func(b map[string]any) bool {
			app, ok := b["app"].(map[string]any)
			return ok && variants.TruncateAt("name")(app)
		}),
	},
	{Name: "hash-app-named-from-body", Rule: "4.2", Why: "an app made with a marketapp hash is named after the body's name, not the marketplace app's", Origin: variants.Gate3,
		Request: variants.NoteBody(variants.PostApps, nameMark, func(b map[string]any) (string, bool) {
			name, ok := b["name"].(string)
			return name, ok && name != ""
		}),
		Answer: variants.AnswerNoted(nameMark, variants.PostApps, func(o map[string]any, name string) { o["name"] = name }),
	},
	{Name: "hash-app-platform-from-body", Rule: "4.2", Why: "an app made with a marketapp hash is placed on the body's platform.id, not the marketplace app's", Origin: variants.Gate3,
		Request: variants.NoteBody(variants.PostApps, platformMark, func(b map[string]any) (string, bool) {
			p, ok := b["platform"].(map[string]any)
			return fmt.Sprint(p["id"]), ok && p["id"] != nil
		}),
		Answer: variants.AnswerNoted(platformMark, variants.PostApps, func(o map[string]any, id string) {
			if p, ok := o["platform"].(map[string]any); ok {
				p["id"] = json.Number(id)
			}
		}),
	},
	{
		Name:   "upper-case-hash-refused",
		Rule:   "4.2, 8",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.2/§8: marketapp.hash is "40 hexadecimal characters"; upper-case hex digits are hexadecimal too, but POST /apps refuses them`,
		Wrap: variants.RefuseWhen(variants.PostApps, "marketapp.hash", pricing.CodeInvalidMarketappHash.String(), "marketapp.hash must be 40 hexadecimal characters.", func(_ *http.Request, body map[string]any) bool {
			h, ok := variants.Str(variants.Sub(body, "marketapp"), "hash")
			return ok && h != strings.ToLower(h)
		}),
	},
	{
		Name:   "long-hash-truncated",
		Rule:   "8",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§8: "A marketapp hash is 40 hexadecimal characters long"; POST /apps cuts a longer hash to its first 40 characters and accepts it`,
		Wrap: variants.RewriteWhen(variants.PostApps, func(_ *http.Request, body map[string]any) bool {
			return variants.Replace(variants.Sub(body, "marketapp"), "hash", func(h string) string { return h[:min(len(h), 40)] })
		}),
	},
	{
		Name:   "app-name-required-with-hash",
		Rule:   "4.2, 7.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.2/§7.3: name is "used when marketapp.hash is not given", and InvalidName is "the case where neither a marketapp hash nor a name is given"; POST /apps with a hash and no name answers InvalidName`,
		Wrap: variants.RefuseWhen(variants.PostApps, "name", pricing.CodeInvalidName.String(), "name is required.", func(_ *http.Request, body map[string]any) bool {
			_, hasHash := variants.Str(variants.Sub(body, "marketapp"), "hash")
			n, _ := variants.Str(body, "name")
			return body != nil && hasHash && strings.TrimSpace(n) == ""
		}),
	},
	{
		Name:   "app-name-wins-over-hash",
		Rule:   "4.2",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.2: name and platform.id are "used when marketapp.hash is not given"; when a body gives all three, the app is made from the name and platform and the marketplace app is dropped`,
		Wrap: variants.RewriteWhen(variants.PostApps, func(_ *http.Request, body map[string]any) bool {
			_, hasHash := variants.Str(variants.Sub(body, "marketapp"), "hash")
			n, _ := variants.Str(body, "name")
			if !hasHash || strings.TrimSpace(n) == "" || variants.Sub(body, "platform")["id"] == nil {
				return false
			}
			delete(body, "marketapp")
			return true
		}),
	},
	{
		Name:   "no-name-no-hash-wrong-code",
		Rule:   "7.3",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§7.3: POST /apps: InvalidName "No app name was provided (the case where neither a marketapp hash nor a name is given)"; it is answered as InvalidMarketappHash on marketapp.hash`,
		Wrap: variants.EditAnswersWhen(variants.PostApps, func(a *rewrite.Answer, _ map[string]any) bool {
			return variants.EditErrors(a, func(errs []any) (any, bool) {
				changed := false
				for _, e := range errs {
					if o, ok := e.(map[string]any); ok && o["error"] == pricing.CodeInvalidName.String() {
						o["error"], o["fieldName"] = pricing.CodeInvalidMarketappHash.String(), "marketapp.hash"
						changed = true
					}
				}
				return errs, changed
			})
		}),
	},
	{
		Name:   "nextplan-ignored",
		Rule:   "4.2",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§4.2: nextplan.id is the "ID of the subscription plan" of the new app; POST /apps ignores it and gives every app the default plan`,
		Wrap: variants.RewriteWhen(variants.PostApps, func(_ *http.Request, body map[string]any) bool {
			return variants.Drop(body, "nextplan")
		}),
	},
	{
		Name:   "one-app-per-marketapp",
		Legal:  true,
		Rule:   "7.3",
		Origin: variants.BuiltIn,
		Why: "§7.3: \"Further validation codes for POST /apps ... not shown\": this target refuses a second app of a " +
			"marketplace app (the seed's app already uses the profile's) with 400 on marketapp.hash",
		Profile: map[string]string{"apps_per_marketapp": "one"},
		Wrap:    oneAppPerMarketapp,
	},
	{
		Name:   "conflicting-platform-refused",
		Legal:  true,
		Rule:   "4.2",
		Origin: variants.BuiltIn,
		Why: "§4.2: platform.id is \"used when marketapp.hash is not given\", and \"Further validation codes for " +
			"POST /apps ... not shown\": this target refuses a platform.id that contradicts the marketplace app's platform",
		Wrap: variants.Validates(platformRule("", variants.ToCollection(http.MethodPost, "apps")), platformRule("app.", variants.ToCollection(http.MethodPost, "clients"))),
	},
	{
		Name:   "apps-from-a-store-only",
		Legal:  true,
		Rule:   "1, 4.2, 7.3",
		Origin: variants.FaultClasses,
		Why: "§1: \"An app is created from a marketplace app ... Creating an app that does not exist in a store is not supported " +
			"through the API\": this target refuses a body with a name and no marketapp hash (400 on marketapp.hash), although §4.2 " +
			"describes name and platform.id; a body with neither still answers InvalidName (§7.3)",
		Wrap: variants.Validates(storeOnlyRule("", variants.ToCollection(http.MethodPost, "apps")), storeOnlyRule("app.", variants.ToCollection(http.MethodPost, "clients"))),
	},
	{
		Name:   "nextplan-deferred",
		Legal:  true,
		Rule:   "4.2, 2.3",
		Origin: variants.FaultClasses,
		Why: "§4.2: nextplan.id is the ID of the subscription plan, the next one; §2.3's flags are the plan the app is on: this " +
			"target starts every app on the lite plan and moves it to its next plan later, and its profile says so (plans 1:lite,2:lite,3:lite)",
		Profile: map[string]string{"plans": "1:lite,2:lite,3:lite"},
		Wrap: variants.EditJSONAnswers(func(r *http.Request, status int, v any) (any, bool) {
			p, isAPI := variants.Parse(r.URL.Path)
			app, ok := v.(map[string]any)
			if r.Method != http.MethodPost || !isAPI || p.Resource != "apps" || status != http.StatusOK || !ok {
				return v, false
			}
			app["plan"] = map[string]any{"isLite": true, "isPro": false, "isDynamic": false, "needBilling": false}
			return v, true
		}),
	},
	{
		Name:   "unknown-marketapp-404",
		Legal:  true,
		Rule:   "4.2, 1",
		Origin: variants.FaultClasses,
		Why: "§4.2 names 404 among the errors of POST /apps, and §1 says an app that does not exist in a store cannot be created: " +
			"this target answers a well-formed hash of no marketplace app 404, a malformed one 400",
		Wrap: variants.Intercept(variants.Routed(variants.ToCollection(http.MethodPost, "apps")), func(next http.Handler, hit func(), w http.ResponseWriter, r *http.Request) {
			body, _ := variants.DecodeObject(variants.PeekBody(r))
			h, _ := variants.BodyPath(body, "marketapp.hash")
			hash, _ := h.(string)
			a := variants.Record(next, r)
			var errs []variants.FieldError
			if hash40.MatchString(hash) && a.Status == http.StatusBadRequest && json.Unmarshal(a.Body, &errs) == nil &&
				len(errs) == 1 && errs[0].FieldName == "marketapp.hash" {
				hit()
				variants.SetError(a, http.StatusNotFound, pricing.CodeNotFound.String(), "There is no marketplace app with this hash.")
			}
			variants.Write(w, a)
		}),
	},
}

// nameMark and platformMark carry what the body of a POST /apps asked for
// to the answer of the hash-app servers.
const (
	nameMark     = "X-Defect-Body-Name"
	platformMark = "X-Defect-Body-Platform"
)

// hash40 is a well-formed marketapp hash.
var hash40 = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)

// oneAppPerMarketapp refuses an app of a marketplace app that an app
// already has (POST /apps, and the app of POST /clients and of the client
// of PUT /users), with 400 on the hash. It knows the seed's apps and learns
// every app created through it.
func oneAppPerMarketapp(next http.Handler, hit func()) http.Handler {
	var (
		mu   sync.Mutex
		used = map[string]bool{}
	)
	for _, a := range variants.SeedList("apps.json") {
		used[strings.ToLower(fmt.Sprint(a["marketappHash"]))] = true
	}
	rule := func(prefix string, applies func(*http.Request, variants.Path) bool) variants.Rule {
		field := prefix + "marketapp.hash"
		return variants.Rule{
			Applies: applies,
			Owns:    []string{field},
			Check: func(_ *http.Request, b map[string]any) []variants.FieldError {
				h, _ := variants.BodyPath(b, field)
				s, ok := h.(string)
				mu.Lock()
				defer mu.Unlock()
				if ok && hash40.MatchString(s) && used[strings.ToLower(s)] {
					return []variants.FieldError{{FieldName: field, Error: "DuplicateMarketapp", Message: "An app of this marketplace app exists already."}}
				}
				return nil
			},
			Fix:    func(b map[string]any) { variants.SetBodyPath(b, field, nil) },
			Broken: map[string]any{field: "x"},
		}
	}
	checked := variants.Validates(rule("client.app.", variants.ToMember(http.MethodPut, "users")), rule("app.", variants.ToCollection(http.MethodPost, "clients")), rule("", variants.ToCollection(http.MethodPost, "apps")))(next, hit)
	// Learn the hash of every app created.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := variants.DecodeObject(variants.PeekBody(r))
		a := variants.Record(checked, r)
		if a.Status == http.StatusOK && r.Method != http.MethodGet {
			for _, field := range []string{"marketapp.hash", "app.marketapp.hash", "client.app.marketapp.hash"} {
				if h, ok := variants.BodyPath(body, field); ok {
					if s, ok := h.(string); ok && hash40.MatchString(s) {
						mu.Lock()
						used[strings.ToLower(s)] = true
						mu.Unlock()
					}
				}
			}
		}
		variants.Write(w, a)
	})
}

// platformRule refuses, in the app body at prefix ("" or "app."), a
// platform.id that is not the platform of the marketplace app of the hash.
func platformRule(prefix string, applies func(*http.Request, variants.Path) bool) variants.Rule {
	platformOf := map[string]string{}
	for _, m := range variants.SeedList("marketapps.json") {
		platformOf[strings.ToLower(fmt.Sprint(m["hash"]))] = fmt.Sprint(m["platformId"])
	}
	field := prefix + "platform.id"
	return variants.Rule{
		Applies: applies,
		Owns:    []string{field},
		Check: func(_ *http.Request, b map[string]any) []variants.FieldError {
			h, _ := variants.BodyPath(b, prefix+"marketapp.hash")
			hs, _ := h.(string)
			want, known := platformOf[strings.ToLower(hs)]
			got, ok := variants.BodyPath(b, field)
			if n, isNumber := got.(json.Number); known && ok && isNumber && n.String() != want {
				return []variants.FieldError{{FieldName: field, Error: pricing.CodeInvalidPlatformID.String(), Message: "The marketplace app is on platform " + want + "."}}
			}
			return nil
		},
		Fix:    func(b map[string]any) { variants.SetBodyPath(b, field, nil) },
		Broken: map[string]any{field: 999999999},
	}
}

// storeOnlyRule refuses, in the app body at prefix ("" or "app."), a name
// without a marketapp hash.
func storeOnlyRule(prefix string, applies func(*http.Request, variants.Path) bool) variants.Rule {
	field := prefix + "marketapp.hash"
	return variants.Rule{
		Applies: applies,
		Owns:    []string{field},
		Check: func(_ *http.Request, b map[string]any) []variants.FieldError {
			app := b
			if prefix != "" {
				a, _ := variants.BodyPath(b, strings.TrimSuffix(prefix, "."))
				if app, _ = a.(map[string]any); app == nil {
					return nil
				}
			}
			name, _ := app["name"].(string)
			if _, hashed := variants.BodyPath(app, "marketapp.hash"); hashed || strings.TrimSpace(name) == "" {
				return nil // a hash, or no name: the mock's own rules
			}
			return []variants.FieldError{{FieldName: field, Error: pricing.CodeInvalidMarketappHash.String(), Message: "Apps are made from a marketplace app: give marketapp.hash."}}
		},
		Fix:    func(b map[string]any) { variants.SetBodyPath(b, field, "fecaf482f29181490ae5ecfb2790186ce7f82078") },
		Broken: map[string]any{field: "x"},
	}
}
