// Package defects is the catalogue of deliberate breaches of the spec the
// mock can serve with (pricing-mock --fault NAME, cmd/pricing-mutation).
// Each breaks one rule the way a real implementation might, so that the
// contract suite can be shown to catch it: a defect the suite passes
// against is a gap in the suite.
//
// A defect acts from outside the reference implementation, so that no
// handler grows a branch per defect and a request to a mock without
// defects runs no code of this package:
//   - a rewrite of the request before the mock reads it;
//   - a rewrite of the answer after the mock wrote it;
//   - a field of pricing.Deviations, the one value through which the domain
//     departs from the spec, for what no rewrite can express (a limit, a
//     permission, the password check).
//
// They are not the fault rules of the admin API (/__admin/faults): those
// rehearse a bad day of a correct server, defects make an incorrect one.
// The command-line flag keeps its name, --fault.
package defects

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

// Defect describes one defect.
type Defect struct {
	Name        string // what --fault takes
	Area        string // the section of the spec whose rule it breaks
	Description string
}

// defect is a Defect with what it does: one or more of a rewrite of the
// request, a rewrite of the answer, and a deviation of the domain.
type defect struct {
	Defect
	request func(*http.Request)
	answer  func(*rewrite.Answer)
	deviate func(*pricing.Deviations)
}

// catalogue is every defect, in the order --list-faults and the mutation
// report show them, roughly by area; a comment heads each run of defects
// that act the same way.
var catalogue = []defect{
	// Answers rewritten on the way out.
	{Defect: Defect{"unauthorized-as-403", "7.2", "a request that is not authenticated is answered 403 instead of 401"},
		answer: remapStatus(http.StatusUnauthorized, http.StatusForbidden)},
	{Defect: Defect{"forbidden-as-404", "7.2", "another user's or client's resource is answered 404 instead of 403"},
		answer: remapStatus(http.StatusForbidden, http.StatusNotFound)},
	{Defect: Defect{"post-answers-201", "4", "a successful POST is answered 201 Created instead of 200"},
		answer: func(a *rewrite.Answer) {
			if a.Request.Method == http.MethodPost && a.Status == http.StatusOK {
				a.Status = http.StatusCreated
			}
		}},
	{Defect: Defect{"error-body-object", "7.1", `a 400 body is an object {"errors": [...]} instead of an array`},
		answer: onBadRequest(func(errs []any) any { return map[string]any{"errors": errs} })},
	{Defect: Defect{"error-fieldname-missing", "7.1", "the errors of a 400 have no fieldName"},
		answer: onBadRequest(func(errs []any) any {
			for _, e := range errs {
				if o, ok := e.(map[string]any); ok {
					delete(o, "fieldName")
				}
			}
			return errs
		})},
	{Defect: Defect{"error-code-misspelt", "7.3", "the code InvalidFirstName is answered as InvalidFirstname"},
		answer: onBadRequest(func(errs []any) any {
			for _, e := range errs {
				if o, ok := e.(map[string]any); ok && o["error"] == pricing.CodeInvalidFirstName.String() {
					o["error"] = strings.Replace(pricing.CodeInvalidFirstName.String(), "Name", "name", 1)
				}
			}
			return errs
		})},
	{Defect: Defect{"only-first-error", "7.3", "a 400 answers only the first of several errors"},
		answer: onBadRequest(func(errs []any) any { return errs[:min(len(errs), 1)] })},
	// The error array of 7.1, element by element (helpers in floor.go).
	{Defect: Defect{"error-for-valid-field", "7.1", "a 400 also has an element for a field that was valid (the validator reports the field after each offending one)"},
		request: keepBody, answer: namedFieldToo},
	{Defect: Defect{"error-message-empty", "7.1", "the message of every error is an empty string"},
		answer: onErrors(func(e map[string]any) { e["message"] = "" })},
	{Defect: Defect{"error-message-not-string", "7.1", `the message of every error is an object of translations ({"en": "..."}), not a string`},
		answer: onErrors(func(e map[string]any) { e["message"] = map[string]any{"en": e["message"]} })},
	{Defect: Defect{"error-fieldname-empty", "7.1", "the fieldName of every error is an empty string"},
		answer: onErrors(func(e map[string]any) { e["fieldName"] = "" })},
	{Defect: Defect{"error-fieldname-snake-case", "7.1", "fieldName names another field than the body's: first_name for firstName"},
		answer: onErrors(func(e map[string]any) {
			if f, ok := e["fieldName"].(string); ok {
				e["fieldName"] = snakeCase(f)
			}
		})},
	{Defect: Defect{"error-fieldname-is-code", "7.1", "fieldName and error are swapped: the field's name is in error, the code in fieldName"},
		answer: onErrors(func(e map[string]any) { e["fieldName"], e["error"] = e["error"], e["fieldName"] })},
	{Defect: Defect{"password-leaked", "2.1", "the user object carries the password hash"},
		answer: onObjects(func(key string, o map[string]any) {
			if _, isUser := o["passwordLastChanged"]; isUser {
				o["password"] = "$2y$10$leakedleakedleakedleakedleakedleakedleakedleakedlea"
			}
		})},
	{Defect: Defect{"user-without-passwordLastChanged", "2.1", "the user object has no passwordLastChanged"},
		answer: dropField("passwordLastChanged")},
	{Defect: Defect{"client-without-createdDate", "2.2", "the client object has no createdDate"},
		answer: dropField("createdDate")},
	{Defect: Defect{"app-without-writeKey", "2.3", "the app object has no writeKey"},
		answer: dropField("writeKey")},
	{Defect: Defect{"session-without-creatorUserId", "2.4", "the session object has no creatorUserId"},
		answer: onObjects(func(key string, o map[string]any) {
			if _, isSession := o["token"]; isSession {
				delete(o, "creatorUserId")
			}
		})},
	{Defect: Defect{"ids-as-strings", "2", `ids are strings ("1") instead of numbers`},
		answer: onObjects(func(key string, o map[string]any) {
			for k, v := range o {
				if n, ok := v.(json.Number); ok && (k == "id" || strings.HasSuffix(k, "Id")) {
					o[k] = string(n)
				}
			}
		})},
	{Defect: Defect{"dates-not-iso8601", "1", "dates are in the HTTP format (Mon, 02 Jan 2006 15:04:05 GMT), not ISO 8601"},
		answer: onObjects(func(key string, o map[string]any) {
			for _, k := range []string{"created", "createdDate", "passwordLastChanged"} {
				if s, ok := o[k].(string); ok {
					if t, err := time.Parse(time.RFC3339, s); err == nil {
						o[k] = t.Format(http.TimeFormat)
					}
				}
			}
		})},
	{Defect: Defect{"writekey-uuid", "2.3", "the writeKey is a hyphenated UUID, not 32 hexadecimal characters"},
		answer: onObjects(func(key string, o map[string]any) {
			if k, ok := o["writeKey"].(string); ok && len(k) == 32 {
				o["writeKey"] = k[:8] + "-" + k[8:12] + "-" + k[12:16] + "-" + k[16:20] + "-" + k[20:]
			}
		})},
	{Defect: Defect{"content-type-text", "1", "answers are labelled text/plain instead of application/json"},
		answer: func(a *rewrite.Answer) { a.Header.Set("Content-Type", "text/plain; charset=utf-8") }},
	{Defect: Defect{"collection-bare-array", "2.5", "a collection is answered as a bare array, not a wrapper object"},
		answer: func(a *rewrite.Answer) {
			if a.Request.Method != http.MethodGet || a.Status != http.StatusOK {
				return
			}
			editJSON(a, func(v any) any {
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
	{Defect: Defect{"currency-code-numeric", "2.2", "currency.code is the ISO 4217 number (826), not the letters (GBP)"},
		answer: onObjects(func(key string, o map[string]any) {
			numeric := map[string]string{"GBP": "826", "EUR": "978", "USD": "840"}
			if key == "currency" || key == "currencies" {
				if n, ok := numeric[fmt.Sprint(o["code"])]; ok {
					o["code"] = n
				}
			}
		})},
	{Defect: Defect{"platform-name-lowercase", "2.3", "platform.name is android or ios, not Android or iOS"},
		answer: onObjects(func(key string, o map[string]any) {
			if s, ok := o["name"].(string); ok && (key == "platform" || key == "platforms") {
				o["name"] = strings.ToLower(s)
			}
		})},
	{Defect: Defect{"dialcode-without-plus", "2.1", "phoneCountry.dialCode has no leading plus sign"},
		answer: onObjects(func(key string, o map[string]any) {
			if s, ok := o["dialCode"].(string); ok {
				o["dialCode"] = strings.TrimPrefix(s, "+")
			}
		})},

	// Deviations handed to the domain.
	{Defect: Defect{"addresscity-limit-254", "8", "addressCity refuses 255 characters (the limit is off by one, low)"},
		deviate: func(d *pricing.Deviations) { d.MaxLen = map[string]int{"addressCity": pricing.MaxLen - 1} }},
	{Defect: Defect{"vat-limit-256", "8", "vat accepts 256 characters (the limit is off by one, high)"},
		deviate: func(d *pricing.Deviations) { d.MaxLen = map[string]int{"vat": pricing.MaxLen + 1} }},
	{Defect: Defect{"password-minimum-5", "8", "a password of 5 characters is accepted"},
		deviate: func(d *pricing.Deviations) { d.MinPassword = pricing.MinPassword - 1 }},
	{Defect: Defect{"password-minimum-7", "8", "a password of 6 characters is refused"},
		deviate: func(d *pricing.Deviations) { d.MinPassword = pricing.MinPassword + 1 }},
	{Defect: Defect{"password-null-changes", "4.1", `"password": null sets an empty password instead of keeping it`},
		deviate: func(d *pricing.Deviations) { d.NullPasswordClears = true }},
	{Defect: Defect{"terms-not-checked", "4.3", `terms is accepted whatever it says, not only "I agree"`},
		deviate: func(d *pricing.Deviations) { d.TermsUnchecked = true }},
	{Defect: Defect{"app-on-put-accepted", "4.4", "PUT /clients/:clientId accepts (and ignores) an app"},
		deviate: func(d *pricing.Deviations) { d.AppOnUpdateIgnored = true }},
	{Defect: Defect{"invalid-app-client-created", "4.3", "POST /clients with an invalid app creates the client anyway, answers 200 and drops the app"},
		deviate: func(d *pricing.Deviations) { d.InvalidAppDropped = true }},
	{Defect: Defect{"app-name-not-required", "4.2", "POST /apps with neither a marketapp hash nor a name creates an app without a name"},
		deviate: func(d *pricing.Deviations) { d.AppNameOptional = true }},
	{Defect: Defect{"marketapp-platform-ignored", "4.2", "with a marketapp hash, platform.id of the body overrides the marketplace app's platform"},
		deviate: func(d *pricing.Deviations) { d.BodyPlatformWins = true }},
	{Defect: Defect{"malformed-hash-ignored", "8", "a marketapp hash that is not 40 hexadecimal characters (39, say) is ignored, and the app made from name and platform.id"},
		deviate: func(d *pricing.Deviations) { d.MalformedHashIgnored = true }},
	{Defect: Defect{"hash-truncated-to-40", "8", "a marketapp hash longer than 40 characters is cut to 40 and accepted"},
		deviate: func(d *pricing.Deviations) { d.HashTruncated = true }},

	// A client's mistake answered with a server error (helpers in floor.go):
	// the body is kept on the way in and the answer replaced on the way out.
	{Defect: Defect{"malformed-json-500", "4", "a body that is not JSON is answered 500 (the decoder's error is not mapped to a 4xx)"},
		request: keepBody, answer: crashWhen(func(r *http.Request, body []byte) bool {
			return bodyMethod(r) && sentJSON(r) && len(bytes.TrimSpace(body)) > 0 && !json.Valid(body)
		})},
	{Defect: Defect{"non-object-body-500", "4", "a JSON body that is no object (an array, a string, a number, null) is answered 500"},
		request: keepBody, answer: crashWhen(func(r *http.Request, body []byte) bool {
			body = bytes.TrimSpace(body)
			return bodyMethod(r) && sentJSON(r) && json.Valid(body) && body[0] != '{'
		})},
	{Defect: Defect{"empty-body-500", "4", "a PUT or POST with an empty body is answered 500 (EOF is not mapped to a 4xx)"},
		request: keepBody, answer: crashWhen(func(r *http.Request, body []byte) bool {
			return bodyMethod(r) && len(bytes.TrimSpace(body)) == 0
		})},
	{Defect: Defect{"name-number-500", "4.1", "PUT /users/:userId with a number in firstName or lastName is answered 500 (a string method called on a number)"},
		request: keepBody, answer: crashWhen(func(r *http.Request, body []byte) bool {
			o, ok := topLevel(body)
			return ok && r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/users/") && (isNumber(o["firstName"]) || isNumber(o["lastName"]))
		})},
	{Defect: Defect{"currency-not-object-500", "4.3", `a client body whose currency is no object ("GBP") is answered 500`},
		request: keepBody, answer: crashWhen(func(r *http.Request, body []byte) bool {
			o, ok := topLevel(body)
			c := bytes.TrimSpace(o["currency"])
			return ok && strings.Contains(r.URL.Path, "/clients") && len(c) > 0 && c[0] != '{' && string(c) != "null"
		})},
	{Defect: Defect{"flag-not-boolean-500", "4.1", `PUT /users/:userId with a subscribe flag that is no boolean ("true") is answered 500`},
		request: keepBody, answer: crashWhen(func(r *http.Request, body []byte) bool {
			o, ok := topLevel(body)
			if !ok || r.Method != http.MethodPut || !strings.Contains(r.URL.Path, "/users/") {
				return false
			}
			for _, k := range []string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"} {
				if v := string(bytes.TrimSpace(o[k])); v != "" && v != "true" && v != "false" {
					return true
				}
			}
			return false
		})},
	{Defect: Defect{"huge-path-id-500", "4.1", "a path id of digits past int64 (99999999999999999999) is answered 500 (the overflow is not mapped to 404)"},
		answer: crashWhen(func(r *http.Request, _ []byte) bool { return hugeID(pathID(r)) })},
	{Defect: Defect{"path-id-not-number-500", "4.4", "a path id that is not a whole number (abc, 1.5) is answered 500"},
		answer: crashWhen(func(r *http.Request, _ []byte) bool {
			id := pathID(r)
			return id != "" && strings.Trim(id, "0123456789") != ""
		})},
	{Defect: Defect{"unnamed-field-500", "4", "a body field the spec does not name is answered 500 (a strict decoder's error not mapped to a 4xx); the status of such a body is the server's choice, so only the floor check sees it"},
		request: keepBody, answer: crashWhen(func(r *http.Request, body []byte) bool {
			o, _ := topLevel(body)
			for k := range o {
				if bodyMethod(r) && !knownFields[k] {
					return true
				}
			}
			return false
		})},

	// Requests rewritten on the way in; the first also tells the domain of
	// the key it sends.
	{Defect: Defect{"auth-not-enforced-put-clients", "5", "PUT /clients/:clientId runs without authentication"},
		request: func(r *http.Request) {
			if r.Method == http.MethodPut && clientPath.MatchString(r.URL.Path) {
				dropCredentials(r)
				r.Header.Set("Authorization", "api-key "+nobodyKey)
			}
		},
		deviate: func(d *pricing.Deviations) { d.NobodyAPIKey = nobodyKey }},
	{Defect: Defect{"api-key-scheme-ignored", "5", `the Authorization header's last word is taken as the key, with or without "api-key"`},
		request: func(r *http.Request) {
			var keys []string
			for _, v := range r.Header.Values("Authorization") {
				if words := strings.Fields(v); len(words) > 0 {
					v = "api-key " + words[len(words)-1]
				}
				keys = append(keys, v)
			}
			if keys != nil {
				r.Header["Authorization"] = keys
			}
		}},
	{Defect: Defect{"session-token-header-ignored", "5", "the session-token header is not read"},
		request: func(r *http.Request) { r.Header.Del("session-token") }},
	{Defect: Defect{"session-token-query-ignored", "5", "the sessionToken query argument is not read"},
		request: dropTokenQuery},

	// Deviations handed to the domain.
	{Defect: Defect{"wrong-password-accepted", "5", "POST /sessions accepts any password for a known email"},
		deviate: func(d *pricing.Deviations) { d.AnyPassword = true }},
	{Defect: Defect{"user-permission-skipped", "5", "a user may modify another user (answered 200, not 403)"},
		deviate: func(d *pricing.Deviations) { d.AnyUserMayAct = true }},
	{Defect: Defect{"client-permission-skipped", "5", "a user may modify a client it is not a member of (answered 200, not 403)"},
		deviate: func(d *pricing.Deviations) { d.AnyoneMayActOnClients = true }},
	{Defect: Defect{"user-update-not-stored", "4.1", "PUT /users/:userId answers the new values but does not store them"},
		deviate: func(d *pricing.Deviations) { d.UpdateNotStored = true }},

	// Requests rewritten on the way in.
	{Defect: Defect{"v1.0-not-served", "9", "the base path v1.0 is not routed, only v1"},
		request: func(r *http.Request) {
			if under(r.URL.Path, "/v1.0") {
				// A path no route matches, so the mock answers as it does
				// any unknown path.
				rewrite.SetPath(r, "/not-routed"+r.URL.Path)
			}
		}},
	{Defect: Defect{"unknown-version-served", "9", "the base path v2 serves the v1 API instead of 404"},
		request: func(r *http.Request) {
			if under(r.URL.Path, "/v2") {
				rewrite.SetPath(r, "/v1"+strings.TrimPrefix(r.URL.Path, "/v2"))
			}
		}},
}

// All lists every defect, in a stable order.
func All() []Defect {
	out := make([]Defect, len(catalogue))
	for i, d := range catalogue {
		out[i] = d.Defect
	}
	return out
}

// UnknownError is the error of a name that is no defect's.
type UnknownError struct{ Name string }

func (e *UnknownError) Error() string {
	known := make([]string, len(catalogue))
	for i, d := range catalogue {
		known[i] = d.Name
	}
	return fmt.Sprintf("unknown fault %q (known: %s)", e.Name, strings.Join(known, ", "))
}

// Find returns the defects of names, in their order; an unknown name is an
// *UnknownError.
func Find(names []string) ([]Defect, error) {
	out := make([]Defect, 0, len(names))
	for _, name := range names {
		i := slices.IndexFunc(catalogue, func(d defect) bool { return d.Name == name })
		if i < 0 {
			return nil, &UnknownError{Name: name}
		}
		out = append(out, catalogue[i].Defect)
	}
	return out, nil
}

// Set is the defects one mock serves with; the zero Set has none.
type Set struct {
	requests []func(*http.Request)
	answers  []func(*rewrite.Answer)
	dev      pricing.Deviations
}

// NewSet gathers what the defects do; an unknown defect is an *UnknownError.
func NewSet(ds []Defect) (Set, error) {
	var s Set
	for _, want := range ds {
		i := slices.IndexFunc(catalogue, func(d defect) bool { return d.Name == want.Name })
		if i < 0 {
			return Set{}, &UnknownError{Name: want.Name}
		}
		d := catalogue[i]
		if d.request != nil {
			s.requests = append(s.requests, d.request)
		}
		if d.answer != nil {
			s.answers = append(s.answers, d.answer)
		}
		if d.deviate != nil {
			d.deviate(&s.dev)
		}
	}
	return s, nil
}

// Deviations is what the defects change in the domain; the zero value for
// none.
func (s Set) Deviations() pricing.Deviations { return s.dev }

// Wrap puts the defects' rewrites around h: requests are rewritten before
// h reads them and answers after h wrote them. Without rewrites it is h.
func (s Set) Wrap(h http.Handler) http.Handler {
	if len(s.answers) > 0 {
		h = rewrite.Answers(h, func(a *rewrite.Answer) {
			for _, rw := range s.answers {
				rw(a)
			}
		})
	}
	if len(s.requests) > 0 {
		h = rewrite.Requests(h, func(r *http.Request) {
			for _, rw := range s.requests {
				rw(r)
			}
		})
	}
	return h
}

// New builds a mock that serves with the defects ds: its domain deviates
// as they say (opts.Deviations is replaced), and the handler to serve is
// the mock behind their rewrites. The Server is for what is not serving:
// Close, Profile, Store.
func New(opts mockserver.Options, ds []Defect) (*mockserver.Server, http.Handler, error) {
	set, err := NewSet(ds)
	if err != nil {
		return nil, nil, err
	}
	opts.Deviations = set.Deviations()
	srv, err := mockserver.New(opts)
	if err != nil {
		return nil, nil, err
	}
	return srv, set.Wrap(srv), nil
}

// nobodyKey is the API key auth-not-enforced-put-clients sends instead of a
// request's credentials. Told of it by Deviations.NobodyAPIKey, the domain
// takes it for no user at all, so the handler runs as it would for a route
// registered without authentication.
const nobodyKey = "defect-no-authentication"

// clientPath is the path of one client under any base path.
var clientPath = regexp.MustCompile(`^/[^/]+/clients/[^/]+$`)

// under reports whether path is prefix or below it.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

func dropCredentials(r *http.Request) {
	r.Header.Del("Authorization")
	r.Header.Del("session-token")
	dropTokenQuery(r)
}

func dropTokenQuery(r *http.Request) {
	if q := r.URL.Query(); q.Has("sessionToken") {
		q.Del("sessionToken")
		r.URL.RawQuery = q.Encode()
	}
}

// editJSON replaces a JSON answer with edit's result.
func editJSON(a *rewrite.Answer, edit func(any) any) {
	a.EditJSON(func(v any) (any, bool) { return edit(v), true })
}

func remapStatus(from, to int) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		if a.Status == from {
			a.Status = to
		}
	}
}

// onBadRequest edits the error array of a 400.
func onBadRequest(edit func([]any) any) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		if a.Status != http.StatusBadRequest {
			return
		}
		editJSON(a, func(v any) any {
			if errs, ok := v.([]any); ok {
				return edit(errs)
			}
			return v
		})
	}
}

// onObjects calls edit on every object of a JSON answer, with the key it
// sits under (rewrite.EachObject).
func onObjects(edit func(key string, o map[string]any)) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		editJSON(a, func(v any) any {
			rewrite.EachObject(v, edit)
			return v
		})
	}
}

func dropField(name string) func(*rewrite.Answer) {
	return onObjects(func(_ string, o map[string]any) { delete(o, name) })
}
