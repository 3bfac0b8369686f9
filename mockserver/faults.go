package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Faults are deliberate defects the mock can be started with
// (Options.Faults, pricing-mock --fault NAME). Each breaks one rule of the
// spec the way a real implementation might, so that the contract suite can
// be shown to catch it: a fault the suite does not fail on is a gap in the
// suite (cmd/pricing-mutation).
//
// A fault is injected by one of three mechanisms, so that no handler grows a
// branch per fault:
//   - a rewrite of the answer on its way out (status, body, headers);
//   - a Deviations value handed to the domain (validation and the store);
//   - a named check at one of a few hook points in auth and the route map.

// Fault describes one fault.
type Fault struct {
	Name        string // what --fault takes
	Area        string // the section of the spec whose rule it breaks
	Description string
}

// check names a fault that a hook point tests with faultSet.on.
type check int

const (
	noCheck check = iota
	checkAuthSkipped
	checkAPIKeySchemeIgnored
	checkTokenHeaderIgnored
	checkTokenQueryIgnored
	checkNoV10
	checkAnyVersion
)

type faultDef struct {
	Fault
	deviate func(*pricing.Deviations) // mechanism 2
	rewrite func(*answer)             // mechanism 1
	check   check                     // mechanism 3
}

// faultDefs is every fault, grouped by mechanism.
var faultDefs = []faultDef{
	// Answers rewritten on the way out.
	{Fault: Fault{"unauthorized-as-403", "7.2", "a request that is not authenticated is answered 403 instead of 401"},
		rewrite: remapStatus(http.StatusUnauthorized, http.StatusForbidden)},
	{Fault: Fault{"forbidden-as-404", "7.2", "another user's or client's resource is answered 404 instead of 403"},
		rewrite: remapStatus(http.StatusForbidden, http.StatusNotFound)},
	{Fault: Fault{"post-answers-201", "4", "a successful POST is answered 201 Created instead of 200"},
		rewrite: func(a *answer) {
			if a.req.Method == http.MethodPost && a.status == http.StatusOK {
				a.status = http.StatusCreated
			}
		}},
	{Fault: Fault{"error-body-object", "7.1", `a 400 body is an object {"errors": [...]} instead of an array`},
		rewrite: onBadRequest(func(errs []any) any { return map[string]any{"errors": errs} })},
	{Fault: Fault{"error-fieldname-missing", "7.1", "the errors of a 400 have no fieldName"},
		rewrite: onBadRequest(func(errs []any) any {
			for _, e := range errs {
				if o, ok := e.(map[string]any); ok {
					delete(o, "fieldName")
				}
			}
			return errs
		})},
	{Fault: Fault{"error-code-misspelt", "7.3", "the code InvalidFirstName is answered as InvalidFirstname"},
		rewrite: onBadRequest(func(errs []any) any {
			for _, e := range errs {
				if o, ok := e.(map[string]any); ok && o["error"] == pricing.CodeInvalidFirstName.String() {
					o["error"] = strings.Replace(pricing.CodeInvalidFirstName.String(), "Name", "name", 1)
				}
			}
			return errs
		})},
	{Fault: Fault{"only-first-error", "7.3", "a 400 answers only the first of several errors"},
		rewrite: onBadRequest(func(errs []any) any { return errs[:min(len(errs), 1)] })},
	{Fault: Fault{"password-leaked", "2.1", "the user object carries the password hash"},
		rewrite: onObjects(func(key string, o map[string]any) {
			if _, isUser := o["passwordLastChanged"]; isUser {
				o["password"] = "$2y$10$leakedleakedleakedleakedleakedleakedleakedleakedlea"
			}
		})},
	{Fault: Fault{"user-without-passwordLastChanged", "2.1", "the user object has no passwordLastChanged"},
		rewrite: dropField("passwordLastChanged")},
	{Fault: Fault{"client-without-createdDate", "2.2", "the client object has no createdDate"},
		rewrite: dropField("createdDate")},
	{Fault: Fault{"app-without-writeKey", "2.3", "the app object has no writeKey"},
		rewrite: dropField("writeKey")},
	{Fault: Fault{"session-without-creatorUserId", "2.4", "the session object has no creatorUserId"},
		rewrite: onObjects(func(key string, o map[string]any) {
			if _, isSession := o["token"]; isSession {
				delete(o, "creatorUserId")
			}
		})},
	{Fault: Fault{"ids-as-strings", "2", `ids are strings ("1") instead of numbers`},
		rewrite: onObjects(func(key string, o map[string]any) {
			for k, v := range o {
				if n, ok := v.(json.Number); ok && (k == "id" || strings.HasSuffix(k, "Id")) {
					o[k] = string(n)
				}
			}
		})},
	{Fault: Fault{"dates-not-iso8601", "1", "dates are in the HTTP format (Mon, 02 Jan 2006 15:04:05 GMT), not ISO 8601"},
		rewrite: onObjects(func(key string, o map[string]any) {
			for _, k := range []string{"created", "createdDate", "passwordLastChanged"} {
				if s, ok := o[k].(string); ok {
					if t, err := time.Parse(time.RFC3339, s); err == nil {
						o[k] = t.Format(http.TimeFormat)
					}
				}
			}
		})},
	{Fault: Fault{"writekey-uuid", "2.3", "the writeKey is a hyphenated UUID, not 32 hexadecimal characters"},
		rewrite: onObjects(func(key string, o map[string]any) {
			if k, ok := o["writeKey"].(string); ok && len(k) == 32 {
				o["writeKey"] = k[:8] + "-" + k[8:12] + "-" + k[12:16] + "-" + k[16:20] + "-" + k[20:]
			}
		})},
	{Fault: Fault{"content-type-text", "1", "answers are labelled text/plain instead of application/json"},
		rewrite: func(a *answer) { a.header.Set("Content-Type", "text/plain; charset=utf-8") }},
	{Fault: Fault{"collection-bare-array", "2.5", "a collection is answered as a bare array, not a wrapper object"},
		rewrite: func(a *answer) {
			if a.req.Method != http.MethodGet || a.status != http.StatusOK {
				return
			}
			a.editJSON(func(v any) any {
				if o, ok := v.(map[string]any); ok && len(o) == 1 {
					for _, items := range o {
						if arr, ok := items.([]any); ok {
							return arr
						}
					}
				}
				return v
			})
		}},
	{Fault: Fault{"currency-code-numeric", "2.2", "currency.code is the ISO 4217 number (826), not the letters (GBP)"},
		rewrite: onObjects(func(key string, o map[string]any) {
			numeric := map[string]string{"GBP": "826", "EUR": "978", "USD": "840"}
			if key == "currency" || key == "currencies" {
				if n, ok := numeric[fmt.Sprint(o["code"])]; ok {
					o["code"] = n
				}
			}
		})},
	{Fault: Fault{"platform-name-lowercase", "2.3", "platform.name is android or ios, not Android or iOS"},
		rewrite: onObjects(func(key string, o map[string]any) {
			if s, ok := o["name"].(string); ok && (key == "platform" || key == "platforms") {
				o["name"] = strings.ToLower(s)
			}
		})},
	{Fault: Fault{"dialcode-without-plus", "2.1", "phoneCountry.dialCode has no leading plus sign"},
		rewrite: onObjects(func(key string, o map[string]any) {
			if s, ok := o["dialCode"].(string); ok {
				o["dialCode"] = strings.TrimPrefix(s, "+")
			}
		})},

	// Deviations of the domain.
	{Fault: Fault{"addresscity-limit-254", "8", "addressCity refuses 255 characters (the limit is off by one, low)"},
		deviate: func(d *pricing.Deviations) { d.MaxLen = map[string]int{"addressCity": pricing.MaxLen - 1} }},
	{Fault: Fault{"vat-limit-256", "8", "vat accepts 256 characters (the limit is off by one, high)"},
		deviate: func(d *pricing.Deviations) { d.MaxLen = map[string]int{"vat": pricing.MaxLen + 1} }},
	{Fault: Fault{"password-minimum-5", "8", "a password of 5 characters is accepted"},
		deviate: func(d *pricing.Deviations) { d.MinPassword = pricing.MinPassword - 1 }},
	{Fault: Fault{"password-minimum-7", "8", "a password of 6 characters is refused"},
		deviate: func(d *pricing.Deviations) { d.MinPassword = pricing.MinPassword + 1 }},
	{Fault: Fault{"password-null-changes", "4.1", `"password": null sets an empty password instead of keeping it`},
		deviate: func(d *pricing.Deviations) { d.NullPasswordClears = true }},
	{Fault: Fault{"terms-not-checked", "4.3", `terms is accepted whatever it says, not only "I agree"`},
		deviate: func(d *pricing.Deviations) { d.TermsUnchecked = true }},
	{Fault: Fault{"app-on-put-accepted", "4.4", "PUT /clients/:clientId accepts (and ignores) an app"},
		deviate: func(d *pricing.Deviations) { d.AppOnUpdateIgnored = true }},
	{Fault: Fault{"invalid-app-client-created", "4.3", "POST /clients with an invalid app creates the client anyway, answers 200 and drops the app"},
		deviate: func(d *pricing.Deviations) { d.InvalidAppDropped = true }},
	{Fault: Fault{"app-name-not-required", "4.2", "POST /apps with neither a marketapp hash nor a name creates an app without a name"},
		deviate: func(d *pricing.Deviations) { d.AppNameOptional = true }},
	{Fault: Fault{"marketapp-platform-ignored", "4.2", "with a marketapp hash, platform.id of the body overrides the marketplace app's platform"},
		deviate: func(d *pricing.Deviations) { d.BodyPlatformWins = true }},
	{Fault: Fault{"malformed-hash-ignored", "8", "a marketapp hash that is not 40 hexadecimal characters (39, say) is ignored, and the app made from name and platform.id"},
		deviate: func(d *pricing.Deviations) { d.MalformedHashIgnored = true }},
	{Fault: Fault{"hash-truncated-to-40", "8", "a marketapp hash longer than 40 characters is cut to 40 and accepted"},
		deviate: func(d *pricing.Deviations) { d.HashTruncated = true }},
	{Fault: Fault{"wrong-password-accepted", "5", "POST /sessions accepts any password for a known email"},
		deviate: func(d *pricing.Deviations) { d.AnyPassword = true }},
	{Fault: Fault{"user-permission-skipped", "5", "a user may modify another user (answered 200, not 403)"},
		deviate: func(d *pricing.Deviations) { d.AnyUserMayAct = true }},
	{Fault: Fault{"client-permission-skipped", "5", "a user may modify a client it is not a member of (answered 200, not 403)"},
		deviate: func(d *pricing.Deviations) { d.AnyoneMayActOnClients = true }},
	{Fault: Fault{"user-update-not-stored", "4.1", "PUT /users/:userId answers the new values but does not store them"},
		deviate: func(d *pricing.Deviations) { d.UpdateNotStored = true }},

	// Named checks at the hook points.
	{Fault: Fault{"auth-not-enforced-put-clients", "5", "PUT /clients/:clientId runs without authentication"},
		check: checkAuthSkipped},
	{Fault: Fault{"api-key-scheme-ignored", "5", `the Authorization header's last word is taken as the key, with or without "api-key"`},
		check: checkAPIKeySchemeIgnored},
	{Fault: Fault{"session-token-header-ignored", "5", "the session-token header is not read"},
		check: checkTokenHeaderIgnored},
	{Fault: Fault{"session-token-query-ignored", "5", "the sessionToken query argument is not read"},
		check: checkTokenQueryIgnored},
	{Fault: Fault{"v1.0-not-served", "9", "the base path v1.0 is not routed, only v1"},
		check: checkNoV10},
	{Fault: Fault{"unknown-version-served", "9", "the base path v2 serves the v1 API instead of 404"},
		check: checkAnyVersion},
}

// Faults lists every fault the mock knows, in a stable order.
func Faults() []Fault {
	out := make([]Fault, len(faultDefs))
	for i, d := range faultDefs {
		out[i] = d.Fault
	}
	return out
}

// faultSet is the faults a Server runs with; the nil *faultSet is none.
type faultSet struct {
	checks   map[check]bool
	dev      pricing.Deviations
	rewrites []func(*answer)
}

// newFaultSet resolves fault names; no names give nil.
func newFaultSet(names []string) (*faultSet, error) {
	if len(names) == 0 {
		return nil, nil
	}
	f := &faultSet{checks: map[check]bool{}}
	for _, name := range names {
		i := slices.IndexFunc(faultDefs, func(d faultDef) bool { return d.Name == name })
		if i < 0 {
			known := make([]string, len(faultDefs))
			for j, d := range faultDefs {
				known[j] = d.Name
			}
			return nil, fmt.Errorf("mockserver: unknown fault %q (known: %s)", name, strings.Join(known, ", "))
		}
		d := faultDefs[i]
		switch {
		case d.deviate != nil:
			d.deviate(&f.dev)
		case d.rewrite != nil:
			f.rewrites = append(f.rewrites, d.rewrite)
		default:
			f.checks[d.check] = true
		}
	}
	return f, nil
}

// on reports whether the fault checked at a hook point is on.
func (f *faultSet) on(c check) bool { return f != nil && f.checks[c] }

// deviations is what the faults change in the domain; none: the spec.
func (f *faultSet) deviations() pricing.Deviations {
	if f == nil {
		return pricing.Deviations{}
	}
	return f.dev
}

// versions are the base-path segments routed.
func (f *faultSet) versions(vs []string) []string {
	if f.on(checkNoV10) {
		vs = slices.DeleteFunc(slices.Clone(vs), func(v string) bool { return v == "/v1.0" })
	}
	if f.on(checkAnyVersion) {
		vs = append(slices.Clone(vs), "/v2")
	}
	return vs
}

// authSkipped reports whether the request is let through authenticate
// unauthenticated.
func (f *faultSet) authSkipped(c *gin.Context) bool {
	return f.on(checkAuthSkipped) && c.Request.Method == http.MethodPut && strings.HasSuffix(c.FullPath(), "/clients/:clientId")
}

// authorization is the Authorization header as the parser sees it: with the
// scheme ignored, its last word becomes the key whatever came before it.
func (f *faultSet) authorization(header string) string {
	if !f.on(checkAPIKeySchemeIgnored) {
		return header
	}
	words := strings.Fields(header)
	if len(words) == 0 {
		return header
	}
	return "api-key " + words[len(words)-1]
}

// sessionTokens are the session-token headers read.
func (f *faultSet) sessionTokens(h http.Header) []string {
	if f.on(checkTokenHeaderIgnored) {
		return nil
	}
	return h.Values("session-token")
}

// --- mechanism 1: answers rewritten on the way out ---

// answer is a buffered response, open to rewrites before it is sent.
type answer struct {
	req    *http.Request
	status int
	header http.Header
	body   bytes.Buffer
}

func (a *answer) Header() http.Header         { return a.header }
func (a *answer) Write(b []byte) (int, error) { return a.body.Write(b) }
func (a *answer) WriteHeader(status int)      { a.status = status }

// editJSON replaces a JSON body with edit's result; other bodies are left.
func (a *answer) editJSON(edit func(any) any) {
	dec := json.NewDecoder(bytes.NewReader(a.body.Bytes()))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(edit(v)) != nil {
		return
	}
	a.body = buf
}

// wrap returns next with the rewrites applied to its answers; without
// rewrites, next itself.
func (f *faultSet) wrap(next http.Handler) http.Handler {
	if f == nil || len(f.rewrites) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := &answer{req: r, status: http.StatusOK, header: http.Header{}}
		next.ServeHTTP(a, r)
		for _, rw := range f.rewrites {
			rw(a)
		}
		for k, v := range a.header {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(a.body.Len()))
		w.WriteHeader(a.status)
		w.Write(a.body.Bytes())
	})
}

func remapStatus(from, to int) func(*answer) {
	return func(a *answer) {
		if a.status == from {
			a.status = to
		}
	}
}

// onBadRequest edits the error array of a 400.
func onBadRequest(edit func([]any) any) func(*answer) {
	return func(a *answer) {
		if a.status != http.StatusBadRequest {
			return
		}
		a.editJSON(func(v any) any {
			if errs, ok := v.([]any); ok {
				return edit(errs)
			}
			return v
		})
	}
}

// onObjects calls edit on every object of a JSON answer, with the key it sits
// under (the items of an array sit under the array's key; the body under "").
func onObjects(edit func(key string, o map[string]any)) func(*answer) {
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			edit(key, x)
			for k, e := range x {
				walk(k, e)
			}
		case []any:
			for _, e := range x {
				walk(key, e)
			}
		}
	}
	return func(a *answer) {
		a.editJSON(func(v any) any {
			walk("", v)
			return v
		})
	}
}

func dropField(name string) func(*answer) {
	return onObjects(func(_ string, o map[string]any) { delete(o, name) })
}
