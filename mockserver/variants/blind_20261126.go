package variants

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

// Blind20261126 are the implementations of the blind audit of 2026-11-26,
// written from the spec alone: Wrong ones each break one rule of it, Legal
// ones differ from the mock only where the spec leaves the choice open.
var Blind20261126 = struct{ Wrong, Legal []Variant }{Wrong: bl26Wrong, Legal: bl26Legal}

var bl26Token = regexp.MustCompile(`^[0-9a-f]{64}$`)

var bl26Wrong = []Variant{
	// --- authentication ---
	{
		Name: "blind26-authorization-bare-key",
		Why:  `§5: the Authorization header carries "api-key <API_KEY>"; a bare key is not authenticated correctly and must get 401`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, _ map[string]any) bool {
				v := r.Header.Get("Authorization")
				if v == "" || strings.Contains(v, " ") {
					return false
				}
				r.Header.Set("Authorization", "api-key "+v)
				return true
			})
		},
	},
	{
		Name: "blind26-bearer-session-token",
		Why:  `§5: the session token goes in the header "session-token" or the query argument "sessionToken"; "Authorization: Bearer <token>" is not a scheme of the spec and must get 401`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, _ map[string]any) bool {
				v := r.Header.Get("Authorization")
				if len(v) < 7 || !strings.EqualFold(v[:7], "bearer ") {
					return false
				}
				r.Header.Del("Authorization")
				r.Header.Set("session-token", strings.TrimSpace(v[7:]))
				return true
			})
		},
	},
	{
		Name: "blind26-api-key-in-session-token-header",
		Why:  `§5: the "session-token" header carries a session token obtained by POST /sessions, not an API key ("Authorization: api-key <API_KEY>"); an API key there is not authenticated correctly (401)`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, _ map[string]any) bool {
				v := r.Header.Get("session-token")
				if v == "" || bl26Token.MatchString(v) || r.Header.Get("Authorization") != "" {
					return false
				}
				r.Header.Del("session-token")
				r.Header.Set("Authorization", "api-key "+v)
				return true
			})
		},
	},
	{
		Name: "blind26-query-session-token-ignored",
		Why:  `§5: the token is sent "either in the header session-token ... or in the query-string argument sessionToken=<SESSION_TOKEN>"; the query form is ignored (401)`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, _ map[string]any) bool {
				q := r.URL.Query()
				if !q.Has("sessionToken") {
					return false
				}
				q.Del("sessionToken")
				r.URL.RawQuery = q.Encode()
				return true
			})
		},
	},
	{
		Name: "blind26-session-header-ignored-on-put-clients",
		Why:  `§5: a session token in the "session-token" header authenticates every endpoint; PUT /clients/:clientId forgets it and answers 401`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, _ map[string]any) bool {
				if _, ok := bl26At(r, "PUT", "/clients/*"); !ok || r.Header.Get("session-token") == "" {
					return false
				}
				r.Header.Del("session-token")
				return true
			})
		},
	},
	{
		Name: "blind26-api-key-in-query-accepted",
		Why:  `§5: the API key is sent in the header "Authorization: api-key <API_KEY>"; a request carrying it only as ?apiKey= is not authenticated correctly and must get 401`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, _ map[string]any) bool {
				k := r.URL.Query().Get("apiKey")
				if k == "" || r.Header.Get("Authorization") != "" {
					return false
				}
				r.Header.Set("Authorization", "api-key "+k)
				return true
			})
		},
	},
	{
		Name: "blind26-no-credentials-403",
		Why:  `§5/§7.2: a request that is not authenticated gets 401 (Unauthorized); with no credentials at all this one answers 403`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				if _, login := bl26At(r, "POST", "/sessions"); login {
					return false
				}
				return r.Header.Get("Authorization") == "" && r.Header.Get("session-token") == "" && !r.URL.Query().Has("sessionToken")
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusUnauthorized {
					return false
				}
				a.Status = http.StatusForbidden
				return true
			})
		},
	},
	{
		Name: "blind26-bad-api-key-403-on-post-apps",
		Why:  `§5: "When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401"; POST /apps answers a wrong API key with 403`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "POST", "/apps")
				return ok && r.Header.Get("Authorization") != ""
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusUnauthorized {
					return false
				}
				a.Status = http.StatusForbidden
				return true
			})
		},
	},
	{
		Name: "blind26-validation-before-auth-on-post-clients",
		Why:  `§5: an endpoint that needs authentication answers an unauthenticated request with 401; POST /clients validates the body first and answers 400 InvalidName`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "POST", "/clients"); ok && r.Header.Get("Authorization") == "" && r.Header.Get("session-token") == "" && !r.URL.Query().Has("sessionToken") {
					_, body := bl26Peek(r)
					if name, _ := bl26Str(body, "name"); body != nil && strings.TrimSpace(name) == "" {
						hit()
						bl26Fail(w, "name", pricing.CodeInvalidName.String(), "name is required.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-session-token-of-last-login",
		Why:  `§5: a session obtained "with the credentials of the account to use" acts as that account; here every known token acts as the account of the latest login, so the first account's token becomes the second's after a second login`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			var mu sync.Mutex
			known := map[string]bool{}
			last := ""
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "POST", "/sessions"); ok {
					rewrite.Answers(next, func(a *rewrite.Answer) {
						var tok string
						a.EditJSON(func(v any) (any, bool) {
							if o, ok := v.(map[string]any); ok {
								tok, _ = o["token"].(string)
							}
							return v, false
						})
						if a.Status == http.StatusOK && tok != "" {
							mu.Lock()
							known[tok], last = true, tok
							mu.Unlock()
						}
					}).ServeHTTP(w, r)
					return
				}
				mu.Lock()
				l := last
				swap := func(t string) bool { return t != "" && t != l && known[t] }
				mu.Unlock()
				changed := false
				if t := r.Header.Get("session-token"); swap(t) {
					r = r.Clone(r.Context())
					r.Header.Set("session-token", l)
					changed = true
				}
				if q := r.URL.Query(); swap(q.Get("sessionToken")) {
					if !changed {
						r = r.Clone(r.Context())
					}
					q.Set("sessionToken", l)
					r.URL.RawQuery = q.Encode()
					r.RequestURI = r.URL.RequestURI()
					changed = true
				}
				if changed {
					hit()
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	// --- sessions ---
	{
		Name: "blind26-session-user-id-of-first-login",
		Why:  `§2.4/§5: the session of POST /sessions is the session of the account whose credentials were sent, its userId that user; here userId is cached from the first login, so the second account gets the first one's id`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			var mu sync.Mutex
			var first any
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "POST", "/sessions")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusOK {
					return false
				}
				return bl26Obj(a, func(o map[string]any) bool {
					mu.Lock()
					defer mu.Unlock()
					if first == nil {
						first = o["userId"]
						return false
					}
					if o["userId"] == first {
						return false
					}
					o["userId"] = first
					return true
				})
			})
		},
	},
	{
		Name: "blind26-session-without-client-id",
		Why:  `§2.4: the session returned by POST /sessions has the fields id, created, creatorUserId, userId, clientId and token; clientId is left out`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "POST", "/sessions")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusOK {
					return false
				}
				return bl26Obj(a, func(o map[string]any) bool {
					if !bl26Has(o, "clientId") {
						return false
					}
					delete(o, "clientId")
					return true
				})
			})
		},
	},
	{
		Name: "blind26-session-created-date-only",
		Why:  `§2.4: the session's created is "String, ISO 8601 date-time"; it is answered as a bare date (2025-01-06) without the time`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "POST", "/sessions")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusOK {
					return false
				}
				return bl26Obj(a, func(o map[string]any) bool {
					c, ok := bl26Str(o, "created")
					if !ok || len(c) <= 10 {
						return false
					}
					o["created"] = c[:10]
					return true
				})
			})
		},
	},
	{
		Name: "blind26-plus-email-login-fails",
		Why:  `§5: POST /sessions opens a session "with the credentials of the account"; a JSON login whose email has a plus sign (qa+tag@example.com, a valid address) is URL-decoded, the plus becomes a space and the login fails`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "POST", "/sessions"); !ok || body == nil {
					return false
				}
				e, _ := bl26Str(body, "email")
				if !strings.Contains(e, "+") {
					return false
				}
				body["email"] = strings.ReplaceAll(e, "+", " ")
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-new-email-login-fails",
		Why:  `§4.1: PUT /users "updates a user, for example the email address"; after the change the login index is not updated, so POST /sessions with the new email address (and the right password) answers 401`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			var mu sync.Mutex
			changed := map[string]bool{}
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "POST", "/sessions"); ok {
					_, body := bl26Peek(r)
					e, _ := bl26Str(body, "email")
					mu.Lock()
					refuse := changed[strings.ToLower(e)]
					mu.Unlock()
					if refuse {
						hit()
						bl26Write(w, http.StatusUnauthorized, []any{map[string]any{"fieldName": "", "error": pricing.CodeUnauthorized.String(), "message": "The email address or the password is wrong."}})
						return
					}
					next.ServeHTTP(w, r)
					return
				}
				ids, ok := bl26At(r, "PUT", "/users/*")
				if !ok {
					next.ServeHTTP(w, r)
					return
				}
				_, body := bl26Peek(r)
				_, before := bl26Call(next, r, "GET", "/users/"+ids[0], nil)
				old, _ := bl26Str(asObj(before), "email")
				rewrite.Answers(next, func(a *rewrite.Answer) {
					e, _ := bl26Str(body, "email")
					if a.Status == http.StatusOK && old != "" && e != "" && !strings.EqualFold(e, old) {
						mu.Lock()
						changed[strings.ToLower(e)] = true
						mu.Unlock()
					}
				}).ServeHTTP(w, r)
			})
		},
	},
	// --- passwords ---
	{
		Name: "blind26-password-ignored-on-update",
		Why:  `§4.1: "A String of at least 6 characters replaces the password"; PUT /users answers 200 but keeps the old password`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "PUT", "/users/*"); !ok || body == nil {
					return false
				}
				pw, ok := bl26Str(body, "password")
				if !ok || bl26Runes(pw) < 6 {
					return false
				}
				body["password"] = nil
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-null-password-refused",
		Why:  `§4.1: password "null keeps the existing password"; PUT /users answers a null password with 400 InvalidPassword`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "PUT", "/users/*"); ok {
					_, body := bl26Peek(r)
					if pw, has := body["password"]; has && pw == nil {
						hit()
						bl26Fail(w, "password", pricing.CodeInvalidPassword.String(), "password must be a string of at least 6 characters.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-password-of-six-refused",
		Why:  `§8: "A password is a String of at least 6 characters"; a password of exactly 6 characters is refused (the check is > 6, not >= 6)`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "PUT", "/users/*"); ok {
					_, body := bl26Peek(r)
					if pw, ok := bl26Str(body, "password"); ok && bl26Runes(pw) == 6 {
						hit()
						bl26Fail(w, "password", pricing.CodeInvalidPassword.String(), "password is too short.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-password-last-changed-frozen",
		Why:  `§2.1: passwordLastChanged is the "ISO 8601 date the password last changed"; PUT /users answers the account's creation date there even after it replaced the password`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "PUT", "/users/*")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusOK {
					return false
				}
				return bl26Obj(a, func(o map[string]any) bool {
					c, ok := bl26Str(o, "created")
					if !ok || o["passwordLastChanged"] == c {
						return false
					}
					o["passwordLastChanged"] = c
					return true
				})
			})
		},
	},
	{
		Name: "blind26-password-echoed",
		Why:  `§2.1: "The password is never returned"; PUT /users that changes the password echoes it in the answer`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "PUT", "/users/*")
				return ok
			}, func(a *rewrite.Answer, body map[string]any) bool {
				pw, ok := bl26Str(body, "password")
				if a.Status != http.StatusOK || !ok {
					return false
				}
				return bl26Obj(a, func(o map[string]any) bool {
					o["password"] = pw
					return true
				})
			})
		},
	},
	{
		Name: "blind26-refused-put-users-stores-password",
		Why:  `§7.1/§4.1: a PUT /users refused with 400 changes nothing; here a valid new password in a body refused for another field (the email) is stored anyway`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ids, ok := bl26At(r, "PUT", "/users/*")
				if !ok {
					next.ServeHTTP(w, r)
					return
				}
				_, body := bl26Peek(r)
				rewrite.Answers(next, func(a *rewrite.Answer) {
					pw, ok := bl26Str(body, "password")
					if a.Status != http.StatusBadRequest || !ok || bl26Runes(pw) < 6 || bl26ErrorOn(a, "password") {
						return
					}
					st, u := bl26Call(next, r, "GET", "/users/"+ids[0], nil)
					if st != http.StatusOK {
						return
					}
					b := bl26UserBody(asObj(u))
					b["password"] = pw
					if st, _ := bl26Call(next, r, "PUT", "/users/"+ids[0], b); st == http.StatusOK {
						hit()
					}
				}).ServeHTTP(w, r)
			})
		},
	},
	// --- user fields ---
	{
		Name: "blind26-plus-email-refused",
		Why:  `§7.3: InvalidEmail is for an invalid address; a plus-addressed email (qa+tag@example.com) is valid but PUT /users refuses it`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "PUT", "/users/*"); ok {
					_, body := bl26Peek(r)
					if e, ok := bl26Str(body, "email"); ok && strings.Contains(strings.SplitN(e, "@", 2)[0], "+") {
						hit()
						bl26Fail(w, "email", pricing.CodeInvalidEmail.String(), "email must be a valid email address.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-email-display-name-accepted",
		Why:  `§7.3: InvalidEmail when "the email address is invalid"; "Quinn <qa3@example.com>" is not an email address, but it is parsed as a mail header and its address stored`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "PUT", "/users/*"); !ok || body == nil {
					return false
				}
				e, ok := bl26Str(body, "email")
				if !ok {
					return false
				}
				a, err := mail.ParseAddress(e)
				if err != nil || a.Address == e {
					return false
				}
				body["email"] = a.Address
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-own-email-case-change-refused",
		Why:  `§7.3: InvalidEmail is for an invalid address; changing one's own email only in case (QA@example.com) is refused as taken, because the uniqueness check does not exclude the user himself`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if ids, ok := bl26At(r, "PUT", "/users/*"); ok {
					_, body := bl26Peek(r)
					if e, ok := bl26Str(body, "email"); ok {
						if st, u := bl26Call(next, r, "GET", "/users/"+ids[0], nil); st == http.StatusOK {
							old, _ := bl26Str(asObj(u), "email")
							if old != e && strings.EqualFold(old, e) {
								hit()
								bl26Fail(w, "email", pricing.CodeInvalidEmail.String(), "email is already used by another account.")
								return
							}
						}
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-first-name-of-255-refused",
		Why:  `§4.1/§8: firstName is ..255, "at most 255 characters long"; a first name of exactly 255 characters is refused (< 255 instead of <= 255)`,
		Wrap: bl26Refuse("PUT", "/users/*", "firstName", pricing.CodeInvalidFirstName.String(), func(n int) bool { return n == 255 }),
	},
	{
		Name: "blind26-last-name-truncated",
		Why:  `§4.1/§8: lastName is ..255; a longer last name is silently cut to 255 characters and accepted instead of refused with 400`,
		Wrap: bl26Truncated("PUT", "/users/*", "lastName"),
	},
	{
		Name: "blind26-first-name-error-coded-last-name",
		Why:  `§7.3: a missing first name is InvalidFirstName; PUT /users names it InvalidLastName (copy-paste of the last-name check)`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "PUT", "/users/*")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				return bl26Errors(a, func(errs []any) (any, bool) {
					changed := false
					for _, e := range errs {
						if o, ok := e.(map[string]any); ok && o["error"] == pricing.CodeInvalidFirstName.String() {
							o["error"] = pricing.CodeInvalidLastName.String()
							changed = true
						}
					}
					return errs, changed
				})
			})
		},
	},
	{
		Name: "blind26-unknown-phone-country-ignored",
		Why:  `§7.3: PUT /users answers InvalidPhoneCountryId when "the country ID does not match an allowed value"; an unknown phoneCountry.id is silently dropped and the update answers 200`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "PUT", "/users/*"); !ok || body == nil || !bl26Has(body, "phoneCountry") {
					return false
				}
				id := bl26Sub(body, "phoneCountry")["id"]
				_, cat := bl26Call(next, r, "GET", "/phoneCountries", nil)
				known := false
				bl26Each(cat, func(key string, o map[string]any) bool {
					if key == "phoneCountries" && o["id"] == id {
						known = true
					}
					return false
				})
				if known {
					return false
				}
				delete(body, "phoneCountry")
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-empty-phone-number-ignored",
		Why:  `§7.3: InvalidPhoneNumber when "no phone number was provided"; an empty phoneNumber is dropped and PUT /users answers 200`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "PUT", "/users/*"); !ok || body == nil {
					return false
				}
				if s, ok := bl26Str(body, "phoneNumber"); !ok || strings.TrimSpace(s) != "" {
					return false
				}
				delete(body, "phoneNumber")
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-dial-code-without-plus",
		Why:  `§2.1: phoneCountry.dialCode is the "dial code of the country, with a leading plus sign"; it is answered without it ("44")`,
		Wrap: bl26UserAnswer(func(o map[string]any) bool {
			pc := bl26Sub(o, "phoneCountry")
			d, ok := bl26Str(pc, "dialCode")
			if !ok || !strings.HasPrefix(d, "+") {
				return false
			}
			pc["dialCode"] = d[1:]
			return true
		}),
	},
	{
		Name: "blind26-phone-country-name-without-dial-code",
		Why:  `§2.1: phoneCountry.name "includes the dial code in brackets"; it is answered as the bare country name`,
		Wrap: bl26UserAnswer(func(o map[string]any) bool {
			pc := bl26Sub(o, "phoneCountry")
			n, ok := bl26Str(pc, "name")
			i := strings.Index(n, " (")
			if !ok || i < 0 {
				return false
			}
			pc["name"] = n[:i]
			return true
		}),
	},
	{
		Name: "blind26-user-id-as-string",
		Why:  `§2.1: the user's id is a Number; PUT /users answers it as a string ("1")`,
		Wrap: bl26UserAnswer(func(o map[string]any) bool {
			id, ok := o["id"]
			if !ok {
				return false
			}
			if _, isStr := id.(string); isStr {
				return false
			}
			o["id"] = jsonString(id)
			return true
		}),
	},
	{
		Name: "blind26-user-answer-wrapped",
		Why:  `§4.1: "Response 200: the user object of section 2.1"; PUT /users answers {"user": {...}} instead`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "PUT", "/users/*")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusOK {
					return false
				}
				return a.EditJSON(func(v any) (any, bool) { return map[string]any{"user": v}, true })
			})
		},
	},
	// --- clients ---
	{
		Name: "blind26-post-clients-201",
		Why:  `§4: "Every endpoint below returns HTTP 200 on success"; POST /clients answers 201 Created`,
		Wrap: bl26Status("POST", "/clients", http.StatusOK, http.StatusCreated, false),
	},
	{
		Name: "blind26-put-clients-204",
		Why:  `§4.4: "Response 200: the client object of section 2.2"; PUT /clients answers 204 with no body`,
		Wrap: bl26Status("PUT", "/clients/*", http.StatusOK, http.StatusNoContent, true),
	},
	{
		Name: "blind26-client-name-limit-forgotten-on-put",
		Why:  `§4.4/§8: PUT /clients takes "the same fields as POST /clients", name ..255; the update cuts a longer name to 255 characters and accepts it (POST checks it)`,
		Wrap: bl26Truncated("PUT", "/clients/*", "name"),
	},
	{
		Name: "blind26-address-city-limit-in-bytes",
		Why:  `§8: ..255 is "at most 255 characters"; PUT /clients counts addressCity in bytes, so a city of 200 non-ASCII characters (400 bytes) is refused`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "PUT", "/clients/*"); ok {
					_, body := bl26Peek(r)
					if s, ok := bl26Str(body, "addressCity"); ok && len(s) > 255 && bl26Runes(s) <= 255 {
						hit()
						bl26Fail(w, "addressCity", pricing.CodeInvalidAddressCity.String(), "addressCity must be at most 255 characters long.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-terms-case-insensitive",
		Why:  "§4.3: terms \"must equal the literal `I agree`\"; POST /clients accepts \"i agree\" in any case",
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "POST", "/clients"); !ok || body == nil {
					return false
				}
				t, ok := bl26Str(body, "terms")
				if !ok || t == "I agree" || !strings.EqualFold(t, "I agree") {
					return false
				}
				body["terms"] = "I agree"
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-terms-unchecked-in-user-client",
		Why:  "§4.1: the client of PUT /users is created \"with the body of POST /clients\", whose terms \"must equal the literal `I agree`\"; the nested client's terms are not checked",
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "PUT", "/users/*"); !ok {
					return false
				}
				c := bl26Sub(body, "client")
				if c == nil || c["terms"] == "I agree" {
					return false
				}
				c["terms"] = "I agree"
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-app-accepted-on-put-clients",
		Why:  "§4.4: \"The `app` property must not be given to this endpoint ... the rule is that it is not accepted\"; PUT /clients ignores it and answers 200",
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "PUT", "/clients/*"); !ok || !bl26Has(body, "app") {
					return false
				}
				delete(body, "app")
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-post-clients-bad-app-keeps-client",
		Why:  `§4.3: with an app, POST /clients "either creates both or returns an error and creates neither"; an invalid app answers 400 but the client is created`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "POST", "/clients"); !ok {
					next.ServeHTTP(w, r)
					return
				}
				_, body := bl26Peek(r)
				rewrite.Answers(next, func(a *rewrite.Answer) {
					if a.Status != http.StatusBadRequest || body == nil || !bl26OnlyErrorsUnder(a, "app.") {
						return
					}
					without := map[string]any{}
					for k, v := range body {
						if k != "app" {
							without[k] = v
						}
					}
					if st, _ := bl26Call(next, r, "POST", "/clients", without); st == http.StatusOK {
						hit()
					}
				}).ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-user-client-errors-ignored",
		Why:  `§4.1/§7.3: the client of PUT /users takes "the body of POST /clients", which answers 400 InvalidName without a name; PUT /users drops an invalid client and answers 200`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ids, ok := bl26At(r, "PUT", "/users/*")
				if !ok {
					next.ServeHTTP(w, r)
					return
				}
				_, body := bl26Peek(r)
				if bl26Sub(body, "client") == nil {
					next.ServeHTTP(w, r)
					return
				}
				held := rewrite.Answers(next, func(a *rewrite.Answer) {
					if a.Status != http.StatusBadRequest || !bl26OnlyErrorsUnder(a, "client.") {
						return
					}
					delete(body, "client")
					st, u := bl26Call(next, r, "PUT", "/users/"+ids[0], body)
					if st != http.StatusOK {
						return
					}
					hit()
					a.Status = st
					a.Body = bl26Encode(u)
				})
				held.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-user-client-not-created",
		Why:  `§4.1: client: "If provided, a client account is created too"; PUT /users ignores it and creates no client`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "PUT", "/users/*"); !ok || bl26Sub(body, "client") == nil {
					return false
				}
				delete(body, "client")
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-currency-not-updated",
		Why:  `§4.4: PUT /clients "updates the details or settings of a client, including name, address and currency"; the currency keeps its old value`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				ids, ok := bl26At(r, "PUT", "/clients/*")
				if !ok || bl26Sub(body, "currency") == nil {
					return false
				}
				st, c := bl26Call(next, r, "GET", "/clients/"+ids[0], nil)
				cur := bl26Sub(asObj(c), "currency")
				if st != http.StatusOK || cur == nil || bl26Sub(body, "currency")["id"] == cur["id"] {
					return false
				}
				body["currency"] = map[string]any{"id": cur["id"]}
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-null-client-name-keeps-old",
		Why:  `§7.3: PUT /clients answers InvalidName when "the name was not provided"; a null name keeps the stored one and answers 200`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				ids, ok := bl26At(r, "PUT", "/clients/*")
				if n, has := body["name"]; !ok || !has || n != nil {
					return false
				}
				st, c := bl26Call(next, r, "GET", "/clients/"+ids[0], nil)
				if st != http.StatusOK {
					return false
				}
				body["name"] = asObj(c)["name"]
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-refused-put-clients-stores-name",
		Why:  `§7.1/§4.4: a PUT /clients refused with 400 changes nothing; here the new name of a body refused for another field (terms) is stored`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ids, ok := bl26At(r, "PUT", "/clients/*")
				if !ok {
					next.ServeHTTP(w, r)
					return
				}
				_, body := bl26Peek(r)
				rewrite.Answers(next, func(a *rewrite.Answer) {
					name, ok := bl26Str(body, "name")
					if a.Status != http.StatusBadRequest || !ok || strings.TrimSpace(name) == "" || bl26Runes(name) > 255 || bl26ErrorOn(a, "name") {
						return
					}
					st, c := bl26Call(next, r, "GET", "/clients/"+ids[0], nil)
					if st != http.StatusOK {
						return
					}
					b := bl26ClientBody(asObj(c))
					b["name"] = name
					if st, _ := bl26Call(next, r, "PUT", "/clients/"+ids[0], b); st == http.StatusOK {
						hit()
					}
				}).ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-currency-code-numeric",
		Why:  `§2.2: currency.code: "The response shows a three-letter alphabetic code, so treat it as a string of letters"; the ISO 4217 numeric code ("826") is answered`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			numeric := map[string]string{"GBP": "826", "EUR": "978", "USD": "840", "JPY": "392", "CHF": "756"}
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, rest, ok := bl26Path(r)
				return ok && (strings.HasPrefix(rest, "/clients") || strings.HasSuffix(rest, "/clients"))
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusOK {
					return false
				}
				return a.EditJSON(func(v any) (any, bool) {
					return v, bl26Each(v, func(key string, o map[string]any) bool {
						c, _ := bl26Str(o, "code")
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
		Name: "blind26-foreign-user-404",
		Why:  `§5/§7.2: "When the authenticated caller may not view or modify the resource, the response is HTTP 403"; PUT /users on another existing user answers 404`,
		Wrap: bl26Status("PUT", "/users/*", http.StatusForbidden, http.StatusNotFound, false),
	},
	// --- apps ---
	{
		Name: "blind26-upper-case-hash-refused",
		Why:  `§4.2/§8: marketapp.hash is "40 hexadecimal characters"; upper-case hex digits are hexadecimal too, but POST /apps refuses them`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "POST", "/apps"); ok {
					_, body := bl26Peek(r)
					if h, ok := bl26Str(bl26Sub(body, "marketapp"), "hash"); ok && h != strings.ToLower(h) {
						hit()
						bl26Fail(w, "marketapp.hash", pricing.CodeInvalidMarketappHash.String(), "marketapp.hash must be 40 hexadecimal characters.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-long-hash-truncated",
		Why:  `§8: "A marketapp hash is 40 hexadecimal characters long"; POST /apps cuts a longer hash to its first 40 characters and accepts it`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "POST", "/apps"); !ok {
					return false
				}
				m := bl26Sub(body, "marketapp")
				h, ok := bl26Str(m, "hash")
				if !ok || len(h) <= 40 {
					return false
				}
				m["hash"] = h[:40]
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-app-name-required-with-hash",
		Why:  `§4.2/§7.3: name is "used when marketapp.hash is not given", and InvalidName is "the case where neither a marketapp hash nor a name is given"; POST /apps with a hash and no name answers InvalidName`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "POST", "/apps"); ok {
					_, body := bl26Peek(r)
					_, hasHash := bl26Str(bl26Sub(body, "marketapp"), "hash")
					if n, _ := bl26Str(body, "name"); body != nil && hasHash && strings.TrimSpace(n) == "" {
						hit()
						bl26Fail(w, "name", pricing.CodeInvalidName.String(), "name is required.")
						return
					}
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-app-name-wins-over-hash",
		Why:  `§4.2: name and platform.id are "used when marketapp.hash is not given"; when a body gives all three, the app is made from the name and platform and the marketplace app is dropped`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "POST", "/apps"); !ok {
					return false
				}
				_, hasHash := bl26Str(bl26Sub(body, "marketapp"), "hash")
				n, _ := bl26Str(body, "name")
				if !hasHash || strings.TrimSpace(n) == "" || bl26Sub(body, "platform")["id"] == nil {
					return false
				}
				delete(body, "marketapp")
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-no-name-no-hash-wrong-code",
		Why:  `§7.3: POST /apps: InvalidName "No app name was provided (the case where neither a marketapp hash nor a name is given)"; it is answered as InvalidMarketappHash on marketapp.hash`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "POST", "/apps")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				return bl26Errors(a, func(errs []any) (any, bool) {
					changed := false
					for _, e := range errs {
						if o, ok := e.(map[string]any); ok && o["error"] == pricing.CodeInvalidName.String() {
							o["error"], o["fieldName"] = pricing.CodeInvalidMarketappHash.String(), "marketapp.hash"
							changed = true
						}
					}
					return errs, changed
				})
			})
		},
	},
	{
		Name: "blind26-nextplan-ignored",
		Why:  `§4.2: nextplan.id is the "ID of the subscription plan" of the new app; POST /apps ignores it and gives every app the default plan`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
				if _, ok := bl26At(r, "POST", "/apps"); !ok || !bl26Has(body, "nextplan") {
					return false
				}
				delete(body, "nextplan")
				bl26SetBody(r, body)
				return true
			})
		},
	},
	{
		Name: "blind26-platform-name-lower-case",
		Why:  "§2.3: platform.name is \"One of `Android` or `iOS`\"; the app's platform name is answered in lower case (\"android\")",
		Wrap: bl26AppAnswer(func(o map[string]any) bool {
			p := bl26Sub(o, "platform")
			n, ok := bl26Str(p, "name")
			if !ok || n == strings.ToLower(n) {
				return false
			}
			p["name"] = strings.ToLower(n)
			return true
		}),
	},
	{
		Name: "blind26-write-key-uuid",
		Why:  `§2.3: writeKey is "a 32-hexadecimal-character value"; it is answered as a dashed UUID of 36 characters`,
		Wrap: bl26AppAnswer(func(o map[string]any) bool {
			k, ok := bl26Str(o, "writeKey")
			if !ok || len(k) != 32 {
				return false
			}
			o["writeKey"] = k[:8] + "-" + k[8:12] + "-" + k[12:16] + "-" + k[16:20] + "-" + k[20:]
			return true
		}),
	},
	// --- collections and errors ---
	{
		Name: "blind26-platforms-bare-array",
		Why:  `§2.5: "A collection endpoint returns a wrapper object, not a bare array"; GET /platforms answers the bare array`,
		Wrap: bl26Platforms(func(o map[string]any) (any, bool) { return o["platforms"], o["platforms"] != nil }),
	},
	{
		Name: "blind26-platforms-under-data",
		Why:  "§2.5: \"The wrapper has a property named after the collection (for example `platforms`)\"; GET /platforms puts them under \"data\"",
		Wrap: bl26Platforms(func(o map[string]any) (any, bool) {
			p, ok := o["platforms"]
			if !ok {
				return o, false
			}
			delete(o, "platforms")
			o["data"] = p
			return o, true
		}),
	},
	{
		Name: "blind26-single-error-as-object",
		Why:  `§7.1: "A 400 response ... has a body that is a JSON array"; a 400 with a single error answers the bare error object`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
				return bl26Errors(a, func(errs []any) (any, bool) {
					if len(errs) != 1 {
						return errs, false
					}
					return errs[0], true
				})
			})
		},
	},
	{
		Name: "blind26-errors-without-message-on-post-apps",
		Why:  `§7.1: each element of a 400 array has fieldName, error and message; POST /apps leaves message out`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "POST", "/apps")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				return bl26Errors(a, func(errs []any) (any, bool) {
					for _, e := range errs {
						if o, ok := e.(map[string]any); ok {
							delete(o, "message")
						}
					}
					return errs, len(errs) > 0
				})
			})
		},
	},
	{
		Name: "blind26-error-code-key-on-put-clients",
		Why:  `§7.1: the error code of a 400 element is in the field "error"; PUT /clients names it "code"`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "PUT", "/clients/*")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				return bl26Errors(a, func(errs []any) (any, bool) {
					for _, e := range errs {
						if o, ok := e.(map[string]any); ok {
							o["code"] = o["error"]
							delete(o, "error")
						}
					}
					return errs, len(errs) > 0
				})
			})
		},
	},
	{
		Name: "blind26-validation-422-on-post-clients",
		Why:  `§7.2: a validation failure is 400; POST /clients answers it with 422 Unprocessable Entity`,
		Wrap: bl26Status("POST", "/clients", http.StatusBadRequest, http.StatusUnprocessableEntity, false),
	},
}

// asObj is a decoded answer as an object (nil when it is not one).
func asObj(v any) map[string]any {
	o, _ := v.(map[string]any)
	return o
}

// jsonString is a JSON value written as a string.
func jsonString(v any) string {
	b := bl26Encode(v)
	return strings.Trim(strings.TrimSpace(string(b)), `"`)
}

// bl26Encode encodes v without its line end.
func bl26Encode(v any) []byte {
	b, err := jsonio.Encode(v)
	if err != nil {
		panic("variants: an answer does not encode: " + err.Error())
	}
	return bytes.TrimRight(b, "\n")
}

// bl26ErrorOn reports whether a 400 answer names field.
func bl26ErrorOn(a *rewrite.Answer, field string) bool {
	found := false
	a.EditJSON(func(v any) (any, bool) {
		bl26Each(v, func(_ string, o map[string]any) bool {
			if o["fieldName"] == field {
				found = true
			}
			return false
		})
		return v, false
	})
	return found
}

// bl26OnlyErrorsUnder reports whether a 400 answer has errors and all of
// them name fields under prefix.
func bl26OnlyErrorsUnder(a *rewrite.Answer, prefix string) bool {
	n, under := 0, 0
	a.EditJSON(func(v any) (any, bool) {
		errs, _ := v.([]any)
		for _, e := range errs {
			n++
			if f, _ := bl26Str(asObj(e), "fieldName"); strings.HasPrefix(f, prefix) {
				under++
			}
		}
		return v, false
	})
	return n > 0 && n == under
}

// bl26Refuse refuses with 400 code a body whose string field's length in
// characters bad reports.
func bl26Refuse(method, pattern, field, code string, bad func(int) bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, ok := bl26At(r, method, pattern); ok {
				_, body := bl26Peek(r)
				if s, ok := bl26Str(body, field); ok && bad(bl26Runes(s)) {
					hit()
					bl26Fail(w, field, code, field+" is too long.")
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// bl26Lengthened refuses a string field of exactly n characters as the
// mock refuses one over its limit, together with every other offending
// field of the body (7.3: several invalid fields are answered together): it
// hands the mock the field one character longer.
func bl26Lengthened(method, pattern, field string, n int) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
			if _, ok := bl26At(r, method, pattern); !ok {
				return false
			}
			s, ok := bl26Str(body, field)
			if !ok || bl26Runes(s) != n {
				return false
			}
			body[field] = "e" + s
			bl26SetBody(r, body)
			return true
		})
	}
}

// bl26Truncated cuts a string field to 255 characters before next reads it.
func bl26Truncated(method, pattern, field string) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return bl26Requests(next, hit, func(r *http.Request, body map[string]any) bool {
			if _, ok := bl26At(r, method, pattern); !ok {
				return false
			}
			s, ok := bl26Str(body, field)
			if !ok || bl26Runes(s) <= 255 {
				return false
			}
			body[field] = bl26Truncate(s, 255)
			bl26SetBody(r, body)
			return true
		})
	}
}

// bl26Status turns the status from of an endpoint's answers into to; empty
// drops the body.
func bl26Status(method, pattern string, from, to int, empty bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return bl26Answers(next, hit, func(r *http.Request) bool {
			_, ok := bl26At(r, method, pattern)
			return ok
		}, func(a *rewrite.Answer, _ map[string]any) bool {
			if a.Status != from {
				return false
			}
			a.Status = to
			if empty {
				a.Body = nil
				a.Header.Del("Content-Type")
			}
			return true
		})
	}
}

// bl26UserAnswer edits the 200 answers of PUT /users.
func bl26UserAnswer(fn func(o map[string]any) bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return bl26Answers(next, hit, func(r *http.Request) bool {
			_, ok := bl26At(r, "PUT", "/users/*")
			return ok
		}, func(a *rewrite.Answer, _ map[string]any) bool {
			return a.Status == http.StatusOK && bl26Obj(a, fn)
		})
	}
}

// bl26AppAnswer edits every app of the 200 answers of the app routes and of
// the apps of a client.
func bl26AppAnswer(fn func(o map[string]any) bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return bl26Answers(next, hit, func(r *http.Request) bool {
			_, rest, ok := bl26Path(r)
			return ok && (strings.HasPrefix(rest, "/apps") || strings.HasSuffix(rest, "/apps"))
		}, func(a *rewrite.Answer, _ map[string]any) bool {
			if a.Status != http.StatusOK {
				return false
			}
			return a.EditJSON(func(v any) (any, bool) {
				return v, bl26Each(v, func(key string, o map[string]any) bool {
					if key != "" && key != "apps" {
						return false
					}
					return fn(o)
				})
			})
		})
	}
}

// bl26Platforms edits the answer of GET /platforms.
func bl26Platforms(fn func(o map[string]any) (any, bool)) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return bl26Answers(next, hit, func(r *http.Request) bool {
			_, ok := bl26At(r, "GET", "/platforms")
			return ok
		}, func(a *rewrite.Answer, _ map[string]any) bool {
			if a.Status != http.StatusOK {
				return false
			}
			return a.EditJSON(func(v any) (any, bool) {
				o, ok := v.(map[string]any)
				if !ok {
					return v, false
				}
				return fn(o)
			})
		})
	}
}

var bl26Date = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// bl26Dates rewrites every date of the JSON answers with fn.
func bl26Dates(fn func(string) string) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return bl26Answers(next, hit, func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
			return a.EditJSON(func(v any) (any, bool) {
				return v, bl26Each(v, func(_ string, o map[string]any) bool {
					changed := false
					for _, k := range []string{"created", "createdDate", "passwordLastChanged"} {
						if d, ok := bl26Str(o, k); ok && bl26Date.MatchString(d) {
							o[k] = fn(d)
							changed = true
						}
					}
					return changed
				})
			})
		})
	}
}

var bl26Legal = []Variant{
	{
		Name: "blind26-unknown-client-403",
		Why:  `README, where the spec is silent (5, 7.2, the order of the checks): a server may check permission before existence, so an unknown id may be answered 403 or 404; written as wrong by the audit, a legal reading of this project (the audit's reason: §7.2: 404 "Resource not found"; PUT /clients/:clientId of a client that does not exist answers 403)`,
		Wrap: bl26Status("PUT", "/clients/*", http.StatusNotFound, http.StatusForbidden, false),
	},
	{
		Name: "blind26-email-of-255-refused",
		Why:  `README, where the spec is silent (2.1, 8, the longest email): RFC 5321 allows 254 characters, so a server may refuse 255; written as wrong by the audit, a legal reading of this project (the audit's reason: §8: "Every string field marked ..255 is at most 255 characters long" (email ..255); an email of exactly 255 characters is refused)`,
		Wrap: bl26Lengthened("PUT", "/users/*", "email", 255),
	},
	{
		Name: "blind26-vat-of-255-refused",
		Why:  `README, where the spec is silent (7.3, the VAT number): a server may check the form of a VAT number, and no VAT number has 255 characters; written as wrong by the audit, a legal reading of this project (the audit's reason: §4.3/§8: vat is an optional String ..255, "at most 255 characters"; a VAT number of exactly 255 characters is refused on POST /clients)`,
		Wrap: bl26Lengthened("POST", "/clients", "vat", 255),
	},
	{
		Name: "blind26-legal-alphabetical-properties",
		Why:  `§1: "Request and response bodies are JSON": the order of an object's properties carries no meaning and the spec's tables fix none; every object answers its properties in alphabetical order`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
				return a.EditJSON(func(v any) (any, bool) { return v, true })
			})
		},
	},
	{
		Name: "blind26-legal-pretty-json",
		Why:  `§1: "Request and response bodies are JSON"; white space between JSON tokens is not specified, so answers are indented`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
				var out bytes.Buffer
				if len(a.Body) == 0 || json.Indent(&out, a.Body, "", "  ") != nil {
					return false
				}
				a.Body = out.Bytes()
				return true
			})
		},
	},
	{
		Name: "blind26-legal-other-error-messages",
		Why:  `§7.1: message is "Human-readable text", free; every error element has a message of its own wording`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status < 400 {
					return false
				}
				return a.EditJSON(func(v any) (any, bool) {
					errs, ok := v.([]any)
					for _, e := range errs {
						if o := asObj(e); o != nil {
							f, _ := bl26Str(o, "fieldName")
							c, _ := bl26Str(o, "error")
							o["message"] = "Request refused (" + c + ") " + f
						}
					}
					return v, ok && len(errs) > 0
				})
			})
		},
	},
	{
		Name: "blind26-legal-errors-reversed",
		Why:  `§7.1: a 400 body is a JSON array of errors; the spec fixes no order of its elements, so they are answered last field first`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
				return bl26Errors(a, func(errs []any) (any, bool) {
					if len(errs) < 2 {
						return errs, false
					}
					out := make([]any, len(errs))
					for i, e := range errs {
						out[len(errs)-1-i] = e
					}
					return out, true
				})
			})
		},
	},
	{
		Name: "blind26-legal-non-400-errors-as-object",
		Why:  `§7.1 gives the shape of "A 400 response" only; the bodies of 401, 403 and 404 (§7.2) are not specified, so they answer one object {"error", "message"}`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
				if a.Status != http.StatusUnauthorized && a.Status != http.StatusForbidden && a.Status != http.StatusNotFound {
					return false
				}
				return a.EditJSON(func(v any) (any, bool) {
					errs, ok := v.([]any)
					if !ok || len(errs) != 1 || asObj(errs[0]) == nil {
						return v, false
					}
					o := asObj(errs[0])
					return map[string]any{"error": o["error"], "message": o["message"]}, true
				})
			})
		},
	},
	{
		Name: "blind26-legal-platforms-paged",
		Why:  `§2.5: "Some collections may add other properties, such as a page number or the size of the result set"; GET /platforms adds page, pageSize and total`,
		Wrap: bl26Platforms(func(o map[string]any) (any, bool) {
			ps, ok := o["platforms"].([]any)
			if !ok {
				return o, false
			}
			o["page"], o["pageSize"], o["total"] = bl26Number(1), bl26Number(int64(len(ps))), bl26Number(int64(len(ps)))
			return o, true
		}),
	},
	{
		Name: "blind26-legal-platforms-reversed",
		Why:  `§2.5/§4.5: the items and parameters of the platforms collection are "not shown"; no order is specified, so they are answered highest id first`,
		Wrap: bl26Platforms(func(o map[string]any) (any, bool) {
			ps, ok := o["platforms"].([]any)
			if !ok || len(ps) < 2 {
				return o, false
			}
			out := make([]any, len(ps))
			for i, p := range ps {
				out[len(ps)-1-i] = p
			}
			o["platforms"] = out
			return o, true
		}),
	},
	{
		Name: "blind26-legal-dates-with-milliseconds",
		Why:  `§1: "Dates are ISO 8601 strings"; 2025-01-06T09:00:00.000Z is ISO 8601 with a fraction of a second`,
		Wrap: bl26Dates(func(d string) string { return d[:len(d)-1] + ".000Z" }),
	},
	{
		Name: "blind26-legal-dates-with-offset",
		Why:  `§1: "Dates are ISO 8601 strings"; the UTC designator may be written as the offset +00:00`,
		Wrap: bl26Dates(func(d string) string { return d[:len(d)-1] + "+00:00" }),
	},
	{
		Name: "blind26-legal-upper-case-write-key",
		Why:  `§2.3: writeKey is "a 32-hexadecimal-character value"; hexadecimal digits may be upper case`,
		Wrap: bl26AppAnswer(func(o map[string]any) bool {
			k, ok := bl26Str(o, "writeKey")
			if !ok || k == strings.ToUpper(k) {
				return false
			}
			o["writeKey"] = strings.ToUpper(k)
			return true
		}),
	},
	{
		Name: "blind26-legal-prefixed-session-tokens",
		Why:  `§2.4: the session's token is typed only "String", and §5 sends back "<SESSION_TOKEN>" as POST /sessions gave it; tokens are handed out as "sess-<hex>" and taken back in that form`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			const prefix = "sess-"
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := bl26At(r, "POST", "/sessions"); ok {
					rewrite.Answers(next, func(a *rewrite.Answer) {
						if a.Status == http.StatusOK && bl26Obj(a, func(o map[string]any) bool {
							t, ok := bl26Str(o, "token")
							if ok {
								o["token"] = prefix + t
							}
							return ok
						}) {
							hit()
						}
					}).ServeHTTP(w, r)
					return
				}
				r = r.Clone(r.Context())
				changed := false
				if t := r.Header.Get("session-token"); strings.HasPrefix(t, prefix) {
					r.Header.Set("session-token", t[len(prefix):])
					changed = true
				}
				if q := r.URL.Query(); strings.HasPrefix(q.Get("sessionToken"), prefix) {
					q.Set("sessionToken", q.Get("sessionToken")[len(prefix):])
					r.URL.RawQuery = q.Encode()
					r.RequestURI = r.URL.RequestURI()
					changed = true
				}
				if changed {
					hit()
				}
				next.ServeHTTP(w, r)
			})
		},
	},
	{
		Name: "blind26-legal-large-session-ids",
		Why:  `§2.4: the session's id is a Number with no stated range or sequence; sessions are numbered from 1000001`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool {
				_, ok := bl26At(r, "POST", "/sessions")
				return ok
			}, func(a *rewrite.Answer, _ map[string]any) bool {
				return a.Status == http.StatusOK && bl26Obj(a, func(o map[string]any) bool {
					n, ok := o["id"].(json.Number)
					i, err := n.Int64()
					if !ok || err != nil {
						return false
					}
					o["id"] = bl26Number(i + 1000000)
					return true
				})
			})
		},
	},
	{
		Name: "blind26-legal-extra-user-field",
		Why:  `§2.1 lists the fields PUT /users returns and forbids only the password; an extra property ("locale") is not excluded`,
		Wrap: bl26UserAnswer(func(o map[string]any) bool {
			o["locale"] = "en-GB"
			return true
		}),
	},
	{
		Name: "blind26-legal-plain-json-content-type",
		Why:  `§1: "Request and response bodies are JSON"; answers are typed application/json without the optional charset parameter (UTF-8 is JSON's default)`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			return bl26Answers(next, hit, func(r *http.Request) bool { return true }, func(a *rewrite.Answer, _ map[string]any) bool {
				if !strings.HasPrefix(a.Header.Get("Content-Type"), "application/json;") {
					return false
				}
				a.Header.Set("Content-Type", "application/json")
				return true
			})
		},
	},
}

// --- helpers ---

// Helpers of the blind audit of 2026-11-26 (blind_20261126.go).

// bl26Path splits an API path into its version segment and the rest.
func bl26Path(r *http.Request) (version, rest string, ok bool) {
	p := r.URL.Path
	for _, v := range []string{"/v1.0", "/v1"} {
		if strings.HasPrefix(p, v+"/") {
			return v, p[len(v):], true
		}
	}
	return "", "", false
}

// bl26At matches a request's method and the path below the version against
// pattern, where a segment "*" matches any one segment; it returns the
// segments "*" matched.
func bl26At(r *http.Request, method, pattern string) ([]string, bool) {
	if r.Method != method {
		return nil, false
	}
	_, rest, ok := bl26Path(r)
	if !ok {
		return nil, false
	}
	got := strings.Split(rest[1:], "/")
	want := strings.Split(pattern[1:], "/")
	if len(got) != len(want) {
		return nil, false
	}
	var vars []string
	for i, w := range want {
		switch {
		case w == "*":
			vars = append(vars, got[i])
		case w != got[i]:
			return nil, false
		}
	}
	return vars, true
}

// bl26Peek reads the request body, puts it back and decodes it when it is a
// JSON object.
func bl26Peek(r *http.Request) ([]byte, map[string]any) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	raw, _ := io.ReadAll(r.Body)
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(raw))
	var v any
	if jsonio.Decode(raw, &v) != nil {
		return raw, nil
	}
	obj, _ := v.(map[string]any)
	return raw, obj
}

// bl26SetBody replaces the request body with v encoded.
func bl26SetBody(r *http.Request, v any) {
	b, err := jsonio.Encode(v)
	if err != nil {
		panic("variants: a request body does not encode: " + err.Error())
	}
	b = bytes.TrimRight(b, "\n")
	r.Body = io.NopCloser(bytes.NewReader(b))
	r.ContentLength = int64(len(b))
	r.Header.Set("Content-Length", strconv.Itoa(len(b)))
}

// bl26Write answers status with v as JSON.
func bl26Write(w http.ResponseWriter, status int, v any) {
	b, _ := jsonio.Encode(v)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// bl26Fail answers 400 with one error of the spec's shape.
func bl26Fail(w http.ResponseWriter, field, code, message string) {
	bl26Write(w, http.StatusBadRequest, []any{map[string]any{"fieldName": field, "error": code, "message": message}})
}

// bl26Call serves an extra request of the variant's own through next, with
// the credentials (headers and query) of orig; rest is the path below the
// version. It returns the status and the decoded answer.
func bl26Call(next http.Handler, orig *http.Request, method, rest string, body any) (int, any) {
	version, _, _ := bl26Path(orig)
	var rd io.Reader = http.NoBody
	if body != nil {
		b, err := jsonio.Encode(body)
		if err != nil {
			panic("variants: a request body does not encode: " + err.Error())
		}
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequestWithContext(orig.Context(), method, version+rest, rd)
	req.Header = orig.Header.Clone()
	req.Header.Del("Content-Length")
	req.Header.Set("Content-Type", "application/json")
	req.URL.RawQuery = orig.URL.RawQuery
	req.RemoteAddr = orig.RemoteAddr
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, req)
	var v any
	_ = jsonio.Decode(rec.Body.Bytes(), &v)
	return rec.Code, v
}

// bl26Requests serves each request with next after edit, which gets a copy
// with its decoded body (nil when not a JSON object) and reports whether it
// changed anything.
func bl26Requests(next http.Handler, hit func(), edit func(r *http.Request, body map[string]any) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		_, body := bl26Peek(r)
		if edit(r, body) {
			hit()
			r.RequestURI = r.URL.RequestURI()
		}
		next.ServeHTTP(w, r)
	})
}

// bl26Answers hands the answers of the requests match accepts to edit, with
// the request's decoded body; edit reports whether it changed the answer.
func bl26Answers(next http.Handler, hit func(), match func(r *http.Request) bool, edit func(a *rewrite.Answer, body map[string]any) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !match(r) {
			next.ServeHTTP(w, r)
			return
		}
		_, body := bl26Peek(r)
		rewrite.Answers(next, func(a *rewrite.Answer) {
			if edit(a, body) {
				hit()
			}
		}).ServeHTTP(w, r)
	})
}

// bl26Obj edits a JSON object answer.
func bl26Obj(a *rewrite.Answer, fn func(o map[string]any) bool) bool {
	return a.EditJSON(func(v any) (any, bool) {
		o, ok := v.(map[string]any)
		if !ok {
			return v, false
		}
		return o, fn(o)
	})
}

// bl26Errors edits the elements of a 400 answer.
func bl26Errors(a *rewrite.Answer, fn func(errs []any) (any, bool)) bool {
	if a.Status != http.StatusBadRequest {
		return false
	}
	return a.EditJSON(func(v any) (any, bool) {
		errs, ok := v.([]any)
		if !ok {
			return v, false
		}
		return fn(errs)
	})
}

// bl26Str reads a string member.
func bl26Str(o map[string]any, key string) (string, bool) {
	s, ok := o[key].(string)
	return s, ok
}

// bl26Sub reads an object member.
func bl26Sub(o map[string]any, key string) map[string]any {
	m, _ := o[key].(map[string]any)
	return m
}

// bl26Runes counts characters.
func bl26Runes(s string) int { return len([]rune(s)) }

// bl26Truncate keeps the first n characters.
func bl26Truncate(s string, n int) string {
	rs := []rune(s)
	if len(rs) > n {
		rs = rs[:n]
	}
	return string(rs)
}

// bl26UserBody is a PUT /users body that keeps a user as its wire form says.
func bl26UserBody(u map[string]any) map[string]any {
	b := map[string]any{"password": nil}
	for _, k := range []string{"email", "firstName", "lastName", "subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding", "timezone"} {
		b[k] = u[k]
	}
	return b
}

// bl26ClientBody is a PUT /clients body that keeps a client as its wire form
// says.
func bl26ClientBody(c map[string]any) map[string]any {
	b := map[string]any{"terms": "I agree"}
	for _, k := range []string{"name", "addressLine1", "addressLine2", "addressCity", "addressPostcode", "addressCountry", "vat"} {
		if v, ok := c[k]; ok {
			b[k] = v
		}
	}
	if cur := bl26Sub(c, "currency"); cur != nil {
		b["currency"] = map[string]any{"id": cur["id"]}
	}
	return b
}

// bl26Number is a JSON number of n.
func bl26Number(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

// bl26Each calls fn for every object of an answer, depth first.
func bl26Each(v any, fn func(key string, o map[string]any) bool) bool {
	changed := false
	rewrite.EachObject(v, func(key string, o map[string]any) {
		if fn(key, o) {
			changed = true
		}
	})
	return changed
}

// bl26Has reports whether a request body carries key.
func bl26Has(o map[string]any, key string) bool {
	_, ok := o[key]
	return ok
}
