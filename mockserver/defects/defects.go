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
	"html"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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

	// Behaviour over time: what was answered stays true afterwards.
	{Defect: Defect{"user-created-changes-on-update", "2.1", "PUT /users/:userId answers created as the time of the update"},
		answer: answerTo(putUser, func(o map[string]any) { o["created"] = now() })},
	{Defect: Defect{"passwordLastChanged-on-every-update", "2.1", `every PUT /users/:userId answers passwordLastChanged as the time of the update, "password": null included`},
		answer: answerTo(putUser, func(o map[string]any) { o["passwordLastChanged"] = now() })},
	{Defect: Defect{"password-change-undated", "2.1", "a new password leaves passwordLastChanged as it was"},
		deviate: func(d *pricing.Deviations) { d.PasswordChangeUndated = true }},
	{Defect: Defect{"client-createdDate-changes-on-update", "2.2", "PUT /clients/:clientId answers createdDate as the time of the update"},
		answer: answerTo(putClient, func(o map[string]any) { o["createdDate"] = now() })},
	{Defect: Defect{"client-createdDate-unset", "2.2", "POST /clients answers createdDate 0001-01-01T00:00:00Z, a date never set"},
		answer: answerTo(postTo(clientsPath), func(o map[string]any) { o["createdDate"] = unsetDate })},
	{Defect: Defect{"app-created-unset", "2.3", "POST /apps answers created 0001-01-01T00:00:00Z, a date never set"},
		answer: answerTo(postTo(appsPath), func(o map[string]any) { o["created"] = unsetDate })},
	{Defect: Defect{"app-ids-repeat", "2.3", "every app POST /apps creates answers the id 1"},
		answer: answerTo(postTo(appsPath), func(o map[string]any) { o["id"] = json.Number("1") })},
	{Defect: Defect{"client-ids-repeat", "2.2", "every client POST /clients creates answers the id 1"},
		answer: answerTo(postTo(clientsPath), func(o map[string]any) { o["id"] = json.Number("1") })},
	{Defect: Defect{"writekey-shared", "2.3", "every app POST /apps creates answers the same writeKey"},
		answer: answerTo(postTo(appsPath), func(o map[string]any) { o["writeKey"] = "0123456789abcdef0123456789abcdef" })},
	{Defect: Defect{"old-email-still-logs-in", "4.1", "after an email change the old address still logs in"},
		deviate: func(d *pricing.Deviations) { d.OldEmailKept = true }},
	{Defect: Defect{"new-email-not-logging-in", "4.1", "an email change is stored, but the login still knows only the old address"},
		deviate: func(d *pricing.Deviations) { d.LoginEmailStale = true }},
	{Defect: Defect{"user-profile-not-stored", "4.1", "PUT /users/:userId answers the new names, subscribe flags and timezone but does not store them"},
		deviate: func(d *pricing.Deviations) { d.UserProfileNotStored = true }},
	{Defect: Defect{"client-update-not-stored", "4.4", "PUT /clients/:clientId answers the new values but does not store them"},
		deviate: func(d *pricing.Deviations) { d.ClientUpdateNotStored = true }},
	{Defect: Defect{"session-token-acts-as-last-login", "5", "every session token acts as the user who logged in last"},
		deviate: func(d *pricing.Deviations) { d.LastSessionWins = true }},
	{Defect: Defect{"rejected-password-stored", "4.1", "a PUT /users/:userId answered 400 still stores its valid new password"},
		deviate: func(d *pricing.Deviations) { d.RejectedPasswordStored = true }},
	{Defect: Defect{"unauthenticated-update-applied", "5", "a PUT /users/:userId without credentials is applied to the user, then answered 401"},
		request: func(r *http.Request) {
			if r.Method == http.MethodPut && userPath.MatchString(r.URL.Path) && !hasCredentials(r) {
				r.Header.Set("Authorization", "api-key "+nobodyKey)
				r.Header.Set(anonymousMark, "1")
			}
		},
		deviate: func(d *pricing.Deviations) { d.NobodyAPIKey, d.NobodyMayActOnUsers = nobodyKey, true },
		answer: func(a *rewrite.Answer) {
			if a.Request.Header.Get(anonymousMark) != "" {
				setError(a, http.StatusUnauthorized, pricing.CodeUnauthorized, "Authentication is required.")
			}
		}},
	{Defect: Defect{"forbidden-update-applied", "5", "a PUT /users/:userId or /clients/:clientId the caller may not make is applied, then answered 403"},
		deviate: func(d *pricing.Deviations) { d.PermissionCheckedAfterWrite = true },
		answer: func(a *rewrite.Answer) {
			// The store refuses the update it stored (ErrRefusedAfterWrite),
			// which the mock, knowing no such refusal, answers 500.
			if (putUser(a.Request) || putClient(a.Request)) && a.Status == http.StatusInternalServerError {
				setError(a, http.StatusForbidden, pricing.CodeForbidden, "You may not modify this resource.")
			}
		}},

	// Rules with a second half.
	{Defect: Defect{"client-app-dropped", "4.3", "POST /clients ignores its app: the client is created, the app is not"},
		request: editBody(postTo(clientsPath), func(b map[string]any) bool { return drop(b, "app") })},
	{Defect: Defect{"client-app-to-primary", "4.3", "the app of POST /clients joins the caller's first client, and the new client has none"},
		deviate: func(d *pricing.Deviations) { d.ClientAppToPrimary = true }},
	{Defect: Defect{"put-users-client-dropped", "4.1", "PUT /users/:userId ignores client: answered 200, and no client is created"},
		request: editBody(putUser, func(b map[string]any) bool { return drop(b, "client") })},
	{Defect: Defect{"put-users-creates-client", "4.1", "PUT /users/:userId without a client creates one, as POST /users does"},
		request: editBody(putUser, func(b map[string]any) bool {
			if _, ok := b["client"]; ok {
				return false
			}
			b["client"] = map[string]any{"name": "Default client", "addressLine1": "1 Default Street", "addressCity": "London",
				"addressPostcode": "EC1A 1BB", "addressCountry": "United Kingdom", "currency": map[string]any{"id": json.Number("1")}, "terms": "I agree"}
			return true
		})},
	{Defect: Defect{"app-name-replaced", "4.2", "an app made from name and platform.id is named Untitled app, not the name sent"},
		answer: answerTo(postTo(appsPath), func(o map[string]any) {
			if m, ok := o["marketapp"].(map[string]any); ok && m["hash"] == nil {
				o["name"] = "Untitled app"
			}
		})},
	{Defect: Defect{"unknown-hash-ignored", "4.2", "a well-formed hash of no marketplace app is ignored, and the app made from name and platform.id"},
		deviate: func(d *pricing.Deviations) { d.UnknownHashIgnored = true }},
	{Defect: Defect{"password-echoed-by-sessions", "2.1", "POST /sessions answers the password it was sent"},
		request: notePassword(postTo(sessionsPath)),
		answer: func(a *rewrite.Answer) {
			if pw := a.Request.Header.Get(passwordMark); pw != "" {
				answerTo(postTo(sessionsPath), func(o map[string]any) { o["password"] = pw })(a)
			}
		}},
	{Defect: Defect{"password-in-error-message", "2.1", "the InvalidPassword message quotes the password it refused"},
		request: notePassword(putUser),
		answer: func(a *rewrite.Answer) {
			pw := a.Request.Header.Get(passwordMark)
			if pw == "" {
				return
			}
			onBadRequest(func(errs []any) any {
				for _, e := range errs {
					if o, ok := e.(map[string]any); ok && o["fieldName"] == "password" {
						o["message"] = "The password " + strconv.Quote(pw) + " is too short."
					}
				}
				return errs
			})(a)
		}},
	{Defect: Defect{"client-members-leaked", "2.1", "a client answer lists its members with their password hashes"},
		answer: answerTo(func(r *http.Request) bool { return postTo(clientsPath)(r) || putClient(r) }, func(o map[string]any) {
			o["users"] = []any{map[string]any{"id": json.Number("1"), "passwordHash": "$2y$10$" + strings.Repeat("Q", 53)}}
		})},

	{Defect: Defect{"app-creator-leaked", "2.1", "an app answer carries the user who created it, password hash included"},
		answer: answerTo(postTo(appsPath), func(o map[string]any) {
			o["creator"] = map[string]any{"id": json.Number("1"), "passwordHash": "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"}
		})},

	// Valid but unusual input.
	{Defect: Defect{"firstname-limit-in-bytes", "8", "firstName is limited to 255 bytes of UTF-8, not 255 characters"},
		request: editBody(putUser, overBytes("firstName"))},
	{Defect: Defect{"client-name-limit-in-bytes", "8", "the name of a client is limited to 255 bytes of UTF-8, not 255 characters"},
		request: editBody(toClients, overBytes("name"))},
	{Defect: Defect{"addressline1-limit-in-bytes", "8", "addressLine1 is limited to 255 bytes of UTF-8, not 255 characters"},
		request: editBody(toClients, overBytes("addressLine1"))},
	{Defect: Defect{"names-ascii-only", "2.1", "firstName and lastName refuse letters outside ASCII"},
		request: editBody(putUser, func(b map[string]any) bool {
			return refuseIf(b, "firstName", "", notASCII) || refuseIf(b, "lastName", "", notASCII)
		})},
	{Defect: Defect{"one-character-name-refused", "7.3", "a first name of one character is refused as not provided"},
		request: editBody(putUser, func(b map[string]any) bool {
			return refuseIf(b, "firstName", "", func(s string) bool { return utf8.RuneCountInString(s) == 1 })
		})},
	{Defect: Defect{"names-html-escaped", "2.1", "firstName and lastName are stored HTML-escaped (O&#39;Brien)"},
		request: editBody(putUser, func(b map[string]any) bool {
			changed := false
			for _, k := range []string{"firstName", "lastName"} {
				if s, ok := b[k].(string); ok && html.EscapeString(s) != s {
					b[k], changed = html.EscapeString(s), true
				}
			}
			return changed
		})},
	{Defect: Defect{"json-quotes-unescaped", "1", `a " inside a string is written unescaped, so the answer is not JSON`},
		answer: func(a *rewrite.Answer) { a.Body = bytes.ReplaceAll(a.Body, []byte(`\"`), []byte(`"`)) }},
	{Defect: Defect{"email-plus-refused", "7.3", "an email with a + in its local part is refused as invalid"},
		request: editBody(putUser, func(b map[string]any) bool {
			return refuseIf(b, "email", "not-an-email", func(s string) bool { local, _, _ := strings.Cut(s, "@"); return strings.Contains(local, "+") })
		})},
	{Defect: Defect{"email-dots-refused", "7.3", "an email with a dot in its local part is refused as invalid"},
		request: editBody(putUser, func(b map[string]any) bool {
			return refuseIf(b, "email", "not-an-email", func(s string) bool { local, _, _ := strings.Cut(s, "@"); return strings.Contains(local, ".") })
		})},
	{Defect: Defect{"email-subdomain-refused", "7.3", "an email whose domain has more than two labels is refused as invalid"},
		request: editBody(putUser, func(b map[string]any) bool {
			return refuseIf(b, "email", "not-an-email", func(s string) bool { _, domain, _ := strings.Cut(s, "@"); return strings.Count(domain, ".") > 1 })
		})},
	{Defect: Defect{"timezone-hyphen-refused", "2.1", "a timezone whose city has a hyphen (America/Port-au-Prince) is refused"},
		request: editBody(putUser, func(b map[string]any) bool {
			return refuseIf(b, "timezone", "Invalid", func(s string) bool { return strings.Contains(s, "-") })
		})},
	{Defect: Defect{"password-minimum-in-bytes", "8", "the password minimum of 6 counts bytes: 5 characters of two bytes each pass"},
		request: editBody(putUser, func(b map[string]any) bool {
			pw, ok := b["password"].(string)
			if !ok || utf8.RuneCountInString(pw) >= pricing.MinPassword || len(pw) < pricing.MinPassword {
				return false
			}
			b["password"] = pw + strings.Repeat("x", pricing.MinPassword)
			return true
		})},
	{Defect: Defect{"password-ascii-only", "8", "a password with characters outside ASCII is refused"},
		request: editBody(putUser, func(b map[string]any) bool { return refuseIf(b, "password", "", notASCII) })},
	{Defect: Defect{"uppercase-hash-refused", "8", "a marketapp hash in upper-case hexadecimal is refused"},
		request: editBody(postTo(appsPath), func(b map[string]any) bool {
			m, ok := b["marketapp"].(map[string]any)
			return ok && refuseIf(m, "hash", "not-hexadecimal", func(s string) bool { return strings.ContainsAny(s, "ABCDEF") })
		})},
	{Defect: Defect{"currency-id-ignored", "2.2", "currency.id is ignored: every client bills in the first currency"},
		request: editBody(toClients, func(b map[string]any) bool { return setID(b, "currency", "1") })},
	{Defect: Defect{"nextplan-id-ignored", "4.2", "nextplan.id is ignored: every app gets the first plan"},
		request: editBody(postTo(appsPath), func(b map[string]any) bool { return setID(b, "nextplan", "1") })},
	{Defect: Defect{"platform-id-ignored", "4.2", "without a hash, platform.id is ignored: every app is on the first platform"},
		request: editBody(postTo(appsPath), func(b map[string]any) bool {
			if m, ok := b["marketapp"].(map[string]any); ok && m["hash"] != nil {
				return false
			}
			return setID(b, "platform", "1")
		})},

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

// Paths of the API under any base path, and the requests to them.
var (
	userPath     = regexp.MustCompile(`^/[^/]+/users/[^/]+$`)
	appsPath     = regexp.MustCompile(`^/[^/]+/apps$`)
	clientsPath  = regexp.MustCompile(`^/[^/]+/clients$`)
	sessionsPath = regexp.MustCompile(`^/[^/]+/sessions$`)
)

func putUser(r *http.Request) bool {
	return r.Method == http.MethodPut && userPath.MatchString(r.URL.Path)
}
func putClient(r *http.Request) bool {
	return r.Method == http.MethodPut && clientPath.MatchString(r.URL.Path)
}

func postTo(path *regexp.Regexp) func(*http.Request) bool {
	return func(r *http.Request) bool { return r.Method == http.MethodPost && path.MatchString(r.URL.Path) }
}

// toClients is a request whose body is a client's: POST /clients and PUT
// /clients/:clientId.
func toClients(r *http.Request) bool { return postTo(clientsPath)(r) || putClient(r) }

// Headers a request rewrite leaves for the answer rewrite of the same
// defect. The mock ignores them.
const (
	anonymousMark = "X-Defect-Anonymous"
	passwordMark  = "X-Defect-Password"
)

// unsetDate is what a date field that was never set looks like in Go.
const unsetDate = "0001-01-01T00:00:00Z"

func now() string { return time.Now().UTC().Truncate(time.Second).Format(time.RFC3339) }

func hasCredentials(r *http.Request) bool {
	return r.Header.Get("Authorization") != "" || r.Header.Get("session-token") != "" || r.URL.Query().Has("sessionToken")
}

// answerTo edits the JSON object of a 200 to the requests that match.
func answerTo(match func(*http.Request) bool, edit func(o map[string]any)) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		if a.Status != http.StatusOK || !match(a.Request) {
			return
		}
		editJSON(a, func(v any) any {
			if o, ok := v.(map[string]any); ok {
				edit(o)
			}
			return v
		})
	}
}

// setError replaces an answer with the error array of one code.
func setError(a *rewrite.Answer, status int, code pricing.Code, message string) {
	a.Status = status
	a.Header.Set("Content-Type", "application/json; charset=utf-8")
	a.Body, _ = json.Marshal([]map[string]string{{"fieldName": "", "error": code.String(), "message": message}})
}

// editBody rewrites the JSON object body of the requests that match; edit
// reports whether it changed the body.
func editBody(match func(*http.Request) bool, edit func(b map[string]any) bool) func(*http.Request) {
	return func(r *http.Request) {
		if !match(r) {
			return
		}
		rewrite.EditRequestJSON(r, func(v any) (any, bool) {
			b, ok := v.(map[string]any)
			return v, ok && edit(b)
		})
	}
}

func drop(b map[string]any, key string) bool {
	_, ok := b[key]
	delete(b, key)
	return ok
}

// refuseIf replaces the string at key by a value the mock refuses when
// refused says so: how a server that refuses such a string answers.
func refuseIf(b map[string]any, key, refusal string, refused func(string) bool) bool {
	if s, ok := b[key].(string); ok && refused(s) {
		b[key] = refusal
		return true
	}
	return false
}

func notASCII(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// overBytes refuses a string of more than 255 bytes at key, as a limit
// counted in bytes does, by a string of 256 characters.
func overBytes(key string) func(b map[string]any) bool {
	return func(b map[string]any) bool {
		return refuseIf(b, key, strings.Repeat("x", pricing.MaxLen+1), func(s string) bool { return len(s) > pricing.MaxLen })
	}
}

// setID sets obj.id to id where the body has an id there.
func setID(b map[string]any, obj, id string) bool {
	o, ok := b[obj].(map[string]any)
	if !ok || o["id"] == nil || o["id"] == json.Number(id) {
		return false
	}
	o["id"] = json.Number(id)
	return true
}

// notePassword leaves the password of a matching request's body (JSON or
// form) in a header, for the answer to leak.
func notePassword(match func(*http.Request) bool) func(*http.Request) {
	return func(r *http.Request) {
		if !match(r) || r.Body == nil {
			return
		}
		raw, _ := io.ReadAll(r.Body)
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(raw))
		var pw string
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/x-www-form-urlencoded" {
			form, _ := url.ParseQuery(string(raw))
			pw = form.Get("password")
		} else {
			var b map[string]any
			if json.Unmarshal(raw, &b) == nil {
				pw, _ = b["password"].(string)
			}
		}
		if pw != "" {
			r.Header.Set(passwordMark, pw)
		}
	}
}
