package sessions

import (
	"mime"
	"net/http"
	"strings"
	"sync"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
)

// POST /sessions: who logs in, with what, and which user a token acts as (5).
var loginServers = []variants.Server{
	{Name: "wrong-password-accepted", Rule: "5", Why: "POST /sessions accepts any password for a known email", Origin: variants.BuiltIn,
		Deviate: func(d *pricing.Deviations) { d.AnyPassword = true },
	},
	{Name: "session-token-acts-as-last-login", Rule: "5", Why: "every session token acts as the user who logged in last", Origin: variants.FaultClasses,
		Deviate: func(d *pricing.Deviations) { d.LastSessionWins = true },
	},
	{
		Name:   "session-token-of-last-login",
		Rule:   "5",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§5: a session obtained "with the credentials of the account to use" acts as that account; here every known token acts as the account of the latest login, so the first account's token becomes the second's after a second login`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			var mu sync.Mutex
			known := map[string]bool{}
			last := ""
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := variants.At(r, "POST", "/sessions"); ok {
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
				mu.Unlock()
				swapTokens(next, hit, w, r, func(t string) (string, bool) {
					mu.Lock()
					defer mu.Unlock()
					return l, t != "" && t != l && known[t]
				})
			})
		},
	},
	{
		Name:   "plus-email-login-fails",
		Rule:   "5",
		Origin: variants.BlindAudit1("caught"),
		Why:    `§5: POST /sessions opens a session "with the credentials of the account"; a JSON login whose email has a plus sign (qa+tag@example.com, a valid address) is URL-decoded, the plus becomes a space and the login fails`,
		Wrap: variants.RewriteWhen(variants.PostLogin, func(_ *http.Request, body map[string]any) bool {
			e, _ := variants.Str(body, "email")
			if !strings.Contains(e, "+") {
				return false
			}
			body["email"] = strings.ReplaceAll(e, "+", " ")
			return true
		}),
	},
	{
		Name:    "form-login-only",
		Legal:   true,
		Rule:    "5",
		Origin:  variants.BuiltIn,
		Why:     "§5: the body of POST /sessions is not shown; this target takes only a form, and its profile says so (PRICING_LOGIN_ENCODING=form)",
		Profile: map[string]string{"login_encoding": "form"},
		Wrap:    loginOnly("application/x-www-form-urlencoded"),
	},
	{
		Name:   "json-login-only",
		Legal:  true,
		Rule:   "5",
		Origin: variants.BuiltIn,
		Why:    "§5: \"Request body of POST /sessions: not shown\"; this target takes only JSON (the profile's default)",
		Wrap:   loginOnly("application/json"),
	},
	{
		Name:   "login-failure-400",
		Legal:  true,
		Rule:   "5, 7.2",
		Origin: variants.BuiltIn,
		Why: "§5: \"Request body of POST /sessions: not shown\"; §7.2: \"400 | Validation failure\": wrong credentials " +
			"are a validation failure of the body here, not 401",
		Wrap: variants.EditAnswersWhen(variants.EveryRequest, func(a *rewrite.Answer, _ map[string]any) bool {
			r := a.Request
			p, ok := variants.Parse(r.URL.Path)
			if r.Method != http.MethodPost || !ok || p.Resource != "sessions" || a.Status != http.StatusUnauthorized {
				return false
			}
			variants.SetError(a, http.StatusBadRequest, "InvalidCredentials", "The email address or the password is wrong.")
			return true
		}),
	},
	{
		Name:   "sessions-reused",
		Legal:  true,
		Rule:   "5",
		Origin: variants.FaultClasses,
		Why: "§5: \"A client obtains a session by POST /sessions\"; the token's lifetime is not shown: this target answers every " +
			"login of a user with the session it already has, the same token and the same created",
		Wrap: func(next http.Handler, hit func()) http.Handler {
			var (
				mu   sync.Mutex
				held = map[string]*rewrite.Answer{} // lower-cased email -> the first session's answer
			)
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				p, ok := variants.Parse(r.URL.Path)
				if r.Method != http.MethodPost || !ok || p.Resource != "sessions" || p.ID != "" {
					next.ServeHTTP(w, r)
					return
				}
				email := strings.ToLower(variants.LoginEmail(r))
				mu.Lock()
				a, ok := held[email]
				mu.Unlock()
				if ok {
					hit()
					// The password still decides: the mock answers a wrong one.
					if now := variants.Record(next, r); now.Status != http.StatusOK {
						variants.Write(w, now)
						return
					}
					variants.Write(w, a)
					return
				}
				a = variants.Record(next, r)
				if a.Status == http.StatusOK {
					mu.Lock()
					if first, ok := held[email]; ok {
						a = first
					} else {
						held[email] = a
					}
					mu.Unlock()
				}
				variants.Write(w, a)
			})
		},
	},
	{
		Name:   "legal-prefixed-session-tokens",
		Legal:  true,
		Rule:   "2.4, 5",
		Origin: variants.BlindAudit1("passed"),
		Why:    `§2.4: the session's token is typed only "String", and §5 sends back "<SESSION_TOKEN>" as POST /sessions gave it; tokens are handed out as "sess-<hex>" and taken back in that form`,
		Wrap: func(next http.Handler, hit func()) http.Handler {
			const prefix = "sess-"
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if _, ok := variants.At(r, "POST", "/sessions"); ok {
					rewrite.Answers(next, func(a *rewrite.Answer) {
						if a.Status == http.StatusOK && variants.EditObject(a, func(o map[string]any) bool {
							t, ok := variants.Str(o, "token")
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
				swapTokens(next, hit, w, r, func(t string) (string, bool) { return strings.CutPrefix(t, prefix) })
			})
		},
	},
}

// swapTokens serves r with next, its session token in the header and in
// the query argument each replaced by what swap makes of it where swap
// reports a change; hit is called when it did.
func swapTokens(next http.Handler, hit func(), w http.ResponseWriter, r *http.Request, swap func(token string) (string, bool)) {
	r = r.Clone(r.Context())
	changed := false
	if t, ok := swap(r.Header.Get("session-token")); ok {
		r.Header.Set("session-token", t)
		changed = true
	}
	if q := r.URL.Query(); q.Has("sessionToken") {
		if t, ok := swap(q.Get("sessionToken")); ok {
			q.Set("sessionToken", t)
			r.URL.RawQuery = q.Encode()
			r.RequestURI = r.URL.RequestURI()
			changed = true
		}
	}
	if changed {
		hit()
	}
	next.ServeHTTP(w, r)
}

// loginOnly takes the body of POST /sessions in one media type only and
// answers any other 400. hit is called for every login, whichever way it
// goes: each passes the check.
func loginOnly(mediaType string) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if variants.Routed(variants.ToCollection(http.MethodPost, "sessions"))(r) {
				hit()
				if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != mediaType {
					variants.WriteError(w, http.StatusBadRequest, pricing.CodeInvalidBody.String(), "Send the credentials as "+mediaType+".")
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}
