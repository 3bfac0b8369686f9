package defects

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

// The defects of the third gate-accuracy round: rules that wrong servers
// written from the spec alone broke and the suite did not see.
func init() { catalogue = append(catalogue, gate3...) }

var gate3 = []defect{
	// Authentication comes first (5, 7.2).
	{Defect: Defect{"unknown-id-404-before-auth", "5", "PUT /users/:userId or /clients/:clientId without credentials is answered 404 when the id names nothing, before authenticating"},
		answer: func(a *rewrite.Answer) {
			if a.Status == http.StatusUnauthorized && (putUser(a.Request) || putClient(a.Request)) && !knownID(a.Request.URL.Path) {
				setError(a, http.StatusNotFound, pricing.CodeNotFound, "There is no such resource.")
			}
		}},
	{Defect: Defect{"invalid-body-400-before-auth", "5", "a request with a body that fails validation is answered 400 before its credentials are checked"},
		request: func(r *http.Request) {
			if r.Method != http.MethodGet && obviouslyInvalid(r) {
				r.Header.Set(invalidMark, "1")
			}
		},
		answer: func(a *rewrite.Answer) {
			if a.Status == http.StatusUnauthorized && a.Request.Header.Get(invalidMark) != "" {
				setError(a, http.StatusBadRequest, pricing.CodeInvalidBody, "The body is invalid.")
				a.Body, _ = json.Marshal([]map[string]string{{"fieldName": "email", "error": pricing.CodeInvalidEmail.String(), "message": "The body is invalid."}})
			}
		}},
	// The schemes are not interchangeable (5).
	{Defect: Defect{"session-token-as-api-key", "5", `a session token is accepted in "Authorization: api-key TOKEN"`},
		request: func(r *http.Request) {
			if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "api-key "); ok && hex64.MatchString(v) {
				r.Header.Del("Authorization")
				r.Header.Set("session-token", v)
			}
		}},
	{Defect: Defect{"api-key-as-session-token", "5", "an API key is accepted in the session-token header and the sessionToken query"},
		request: func(r *http.Request) {
			v := r.Header.Get("session-token")
			if v == "" {
				v = r.URL.Query().Get("sessionToken")
			}
			if v != "" && !hex64.MatchString(v) {
				r.Header.Del("session-token")
				dropTokenQuery(r)
				r.Header.Set("Authorization", "api-key "+v)
			}
		}},
	// No client mistake earns a 5xx, a large body included (7.2).
	{Defect: Defect{"large-body-500", "7.2", "a body over the size limit is answered 500 instead of 413"},
		answer: remapStatus(http.StatusRequestEntityTooLarge, http.StatusInternalServerError)},
	{Defect: Defect{"long-field-500", "7.2", "a body with a text of over 64 KiB is answered 502 when it is refused: the validation's error report overflows"},
		answer: func(a *rewrite.Answer) {
			if a.Status == http.StatusBadRequest && a.Request.ContentLength > 64<<10 {
				setError(a, http.StatusBadGateway, pricing.CodeInternal, "The upstream failed.")
			}
		}},
	// A refused request changes nothing, all of it (4.1, 4.4, 7.2).
	{Defect: Defect{"refused-user-update-stores-names", "4.1", "a PUT /users/:userId answered 400 for one field still stores the valid first and last names it carried"},
		deviate: func(d *pricing.Deviations) { d.RejectedUserNamesStored = true }},
	{Defect: Defect{"refused-client-update-stores-address", "4.4", "a PUT /clients/:clientId answered 400 for one field still stores the valid address it carried"},
		deviate: func(d *pricing.Deviations) { d.RejectedClientAddressStored = true }},
	// An app belongs to its creator's client (1, 4.2).
	{Defect: Defect{"app-to-lowest-other-client", "4.2", "POST /apps attaches the app to the client of lowest id that none of the caller's clients' users belongs to"},
		deviate: func(d *pricing.Deviations) { d.AppToOtherClient = 1 }},
	{Defect: Defect{"app-to-newest-other-client", "4.2", "POST /apps attaches the app to the newest client that is none of the caller's"},
		deviate: func(d *pricing.Deviations) { d.AppToOtherClient = 2 }},
	// Every validation code of 7.3, the phone's included.
	{Defect: Defect{"phone-country-unchecked", "7.3", "an unknown phoneCountry.id is accepted (and stored) instead of InvalidPhoneCountryId"},
		request: editBody(putUser, func(b map[string]any) bool {
			pc, ok := b["phoneCountry"].(map[string]any)
			if id, isNum := pc["id"].(json.Number); ok && isNum && len(id) > 6 {
				delete(b, "phoneCountry")
				return true
			}
			return false
		})},
	{Defect: Defect{"phone-codes-generic", "7.3", "the phone errors carry the code InvalidPhone instead of InvalidPhoneCountryId, InvalidPhoneNumber, InvalidPhoneExtension"},
		answer: onErrors(func(e map[string]any) {
			if c, _ := e["error"].(string); strings.HasPrefix(c, "InvalidPhone") {
				e["error"] = "InvalidPhone"
			}
		})},
	// Every ..255 field on every endpoint (8).
	{Defect: Defect{"app-name-truncated-post-apps", "8", "POST /apps cuts an app name of over 255 characters to 255 and makes the app"},
		request: editBody(postTo(appsPath), truncateAt("name"))},
	{Defect: Defect{"app-name-truncated-in-client", "8", "POST /clients cuts the name of its app to 255 characters and makes both"},
		request: editBody(postTo(clientsPath), func(b map[string]any) bool {
			app, ok := b["app"].(map[string]any)
			return ok && truncateAt("name")(app)
		})},
	// The marketplace app wins (4.2).
	{Defect: Defect{"hash-app-named-from-body", "4.2", "an app made with a marketapp hash is named after the body's name, not the marketplace app's"},
		request: func(r *http.Request) {
			if !postTo(appsPath)(r) {
				return
			}
			var b map[string]any
			if json.Unmarshal(readRequestBody(r), &b) == nil {
				if name, ok := b["name"].(string); ok && name != "" {
					r.Header.Set(nameMark, name)
				}
			}
		},
		answer: func(a *rewrite.Answer) {
			if name := a.Request.Header.Get(nameMark); name != "" {
				answerTo(postTo(appsPath), func(o map[string]any) { o["name"] = name })(a)
			}
		}},
	{Defect: Defect{"hash-app-platform-from-body", "4.2", "an app made with a marketapp hash is placed on the body's platform.id, not the marketplace app's"},
		request: func(r *http.Request) {
			if !postTo(appsPath)(r) {
				return
			}
			var b map[string]any
			if json.Unmarshal(readRequestBody(r), &b) == nil {
				if p, ok := b["platform"].(map[string]any); ok && p["id"] != nil {
					r.Header.Set(platformMark, fmt.Sprint(p["id"]))
				}
			}
		},
		answer: func(a *rewrite.Answer) {
			if id := a.Request.Header.Get(platformMark); id != "" {
				answerTo(postTo(appsPath), func(o map[string]any) {
					if p, ok := o["platform"].(map[string]any); ok {
						p["id"] = json.Number(id)
					}
				})(a)
			}
		}},
	// Answers agree with themselves (2.1, 2.3).
	{Defect: Defect{"phone-country-name-wrong-dial-code", "2.1", "phoneCountry.name carries another country's dial code in brackets: (+1) whatever dialCode says"},
		answer: onObjects(func(key string, o map[string]any) {
			if name, ok := o["name"].(string); ok && key == "phoneCountry" {
				if i := strings.LastIndex(name, "("); i >= 0 {
					o["name"] = name[:i] + "(+1)"
					if o["dialCode"] == "+1" {
						o["name"] = name[:i] + "(+44)"
					}
				}
			}
		})},
	{Defect: Defect{"app-platform-name-swapped", "2.3", "an app's platform.name is the other platform's: Android for iOS and iOS for Android"},
		answer: onObjects(func(key string, o map[string]any) {
			if name, ok := o["name"].(string); ok && key == "platform" {
				switch name {
				case "Android":
					o["name"] = "iOS"
				case "iOS":
					o["name"] = "Android"
				}
			}
		})},
	// More of the third round's classes, each a variation a server shows.
	{Defect: Defect{"malformed-id-400-before-auth", "5", "PUT /users/:userId without credentials and with a path id that is no number is answered 400"},
		answer: func(a *rewrite.Answer) {
			if a.Status == http.StatusUnauthorized && (putUser(a.Request) || putClient(a.Request)) {
				if _, err := strconv.ParseInt(a.Request.URL.Path[strings.LastIndexByte(a.Request.URL.Path, '/')+1:], 10, 64); err != nil {
					setError(a, http.StatusBadRequest, pricing.CodeInvalidBody, "The id is not a number.")
				}
			}
		}},
	{Defect: Defect{"api-key-in-token-query", "5", "an API key is accepted as the sessionToken query argument"},
		request: func(r *http.Request) {
			if v := r.URL.Query().Get("sessionToken"); v != "" && !hex64.MatchString(v) {
				dropTokenQuery(r)
				r.Header.Set("Authorization", "api-key "+v)
			}
		}},
	{Defect: Defect{"dates-an-hour-ahead", "2", "every date is an hour ahead (a time zone's summer time applied twice), labelled Z"},
		answer: shiftDates(func(t time.Time) time.Time { return t.Add(time.Hour) })},
	{Defect: Defect{"session-created-epoch", "2.4", "a session's created is 1970-01-01T00:00:00Z"},
		answer: answerTo(postTo(sessionsPath), func(o map[string]any) { o["created"] = "1970-01-01T00:00:00Z" })},
	{Defect: Defect{"password-bcrypt-in-session", "2.1", "POST /sessions answers the user's bcrypt password hash ($2b$)"},
		answer: answerTo(postTo(sessionsPath), func(o map[string]any) {
			o["passwordHash"] = "$2b$12$" + strings.Repeat("Ab1.", 13) + "x"
		})},
	{Defect: Defect{"password-sha256-base64-leaked", "2.1", "the answer to a password change carries the base64 SHA-256 of the new password"},
		request: notePassword(putUser),
		answer: func(a *rewrite.Answer) {
			if pw := a.Request.Header.Get(passwordMark); pw != "" {
				sum := sha256.Sum256([]byte(pw))
				answerTo(putUser, func(o map[string]any) { o["checksum"] = base64.StdEncoding.EncodeToString(sum[:]) })(a)
			}
		}},
	{Defect: Defect{"phone-extension-unchecked", "7.3", "a phoneExtension of another JSON type is ignored instead of InvalidPhoneExtension"},
		request: editBody(putUser, func(b map[string]any) bool {
			if _, isObj := b["phoneExtension"].(map[string]any); isObj {
				delete(b, "phoneExtension")
				return true
			}
			return false
		})},
	{Defect: Defect{"large-body-503", "7.2", "a body over the size limit is answered 503 Service Unavailable"},
		answer: remapStatus(http.StatusRequestEntityTooLarge, http.StatusServiceUnavailable)},
	// Dates are real (1, 2): of events that just happened.
	{Defect: Defect{"dates-local-time-as-utc", "2", "every date is the server's local time (UTC-5) labelled Z: five hours off, consistent with itself"},
		answer: shiftDates(func(t time.Time) time.Time { return t.Add(-5 * time.Hour) })},
	{Defect: Defect{"new-dates-epoch", "2", "created, createdDate and passwordLastChanged of what a request makes or changes are 1970-01-01"},
		answer: func(a *rewrite.Answer) {
			if a.Request.Method == http.MethodGet {
				return
			}
			shiftDates(func(time.Time) time.Time { return time.Unix(0, 0).UTC() })(a)
		}},
	// A password never comes back, in any hash form (2.1).
	{Defect: Defect{"password-sha-crypt-leaked", "2.1", "the user object carries the password as a SHA-512 crypt string ($6$salt$…)"},
		answer: onObjects(func(key string, o map[string]any) {
			if _, isUser := o["passwordLastChanged"]; isUser {
				o["passwordHash"] = "$6$rounds=5000$contractsalt$" + strings.Repeat("Ab1/", 21) + "xy"
			}
		})},
	{Defect: Defect{"password-sha512-hex-leaked", "2.1", "the answer to a password change carries the unsalted SHA-512 of the new password, in upper-case hex"},
		request: notePassword(putUser),
		answer: func(a *rewrite.Answer) {
			if pw := a.Request.Header.Get(passwordMark); pw != "" {
				sum := sha512.Sum512([]byte(pw))
				answerTo(putUser, func(o map[string]any) { o["passwordDigest"] = strings.ToUpper(hex.EncodeToString(sum[:])) })(a)
			}
		}},
}

// truncateAt cuts the string at key to pricing.MaxLen characters.
func truncateAt(key string) func(b map[string]any) bool {
	return func(b map[string]any) bool {
		s, ok := b[key].(string)
		if !ok || len([]rune(s)) <= pricing.MaxLen {
			return false
		}
		b[key] = string([]rune(s)[:pricing.MaxLen])
		return true
	}
}

// shiftDates rewrites every date of an answer (created, createdDate,
// passwordLastChanged) with move.
func shiftDates(move func(time.Time) time.Time) func(*rewrite.Answer) {
	return onObjects(func(_ string, o map[string]any) {
		for _, k := range []string{"created", "createdDate", "passwordLastChanged"} {
			if s, ok := o[k].(string); ok {
				if t, err := time.Parse(time.RFC3339, s); err == nil {
					o[k] = move(t).UTC().Format(time.RFC3339)
				}
			}
		}
	})
}

// nameMark and platformMark carry what the body of a POST /apps asked for
// to the answer of the hash-app defects.
const (
	nameMark     = "X-Defect-Body-Name"
	platformMark = "X-Defect-Body-Platform"
)

// invalidMark tells the answer of invalid-body-400-before-auth that the
// body was invalid: the handler has read it by then.
const invalidMark = "X-Defect-Invalid-Body"

// hex64 is the form of the mock's session tokens.
var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// knownID reports whether the id of a path to one user or client is one a
// seed could hold: a small positive number.
func knownID(path string) bool {
	id, err := strconv.ParseInt(path[strings.LastIndexByte(path, '/')+1:], 10, 64)
	return err == nil && id > 0 && id < 100000
}

// obviouslyInvalid reports whether a request's JSON body holds a value no
// body of the API takes: an email without @, an empty name, a number for an
// email, a string for a plan id.
func obviouslyInvalid(r *http.Request) bool {
	var b map[string]any
	raw := readRequestBody(r)
	if json.Unmarshal(raw, &b) != nil {
		return false
	}
	if e, ok := b["email"]; ok {
		if s, isStr := e.(string); !isStr || !strings.Contains(s, "@") {
			return true
		}
	}
	for _, k := range []string{"firstName", "name"} {
		if s, ok := b[k].(string); ok && s == "" {
			return true
		}
	}
	if _, ok := b["nextplan"].(string); ok {
		return true
	}
	return false
}

// readRequestBody reads a request's body and puts it back.
func readRequestBody(r *http.Request) []byte {
	if r.Body == nil {
		return nil
	}
	raw, _ := io.ReadAll(r.Body)
	r.Body.Close()
	r.Body = io.NopCloser(strings.NewReader(string(raw)))
	return raw
}
