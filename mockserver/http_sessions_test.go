package mockserver_test

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// POST /sessions takes a JSON or a form body (README 5) and answers the
// session object of spec 2.4, whose token then authenticates both ways.
func TestSessionCreate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name         string
		prefix       string // version segment; "" is /v1
		body         any
		ctype        string // replaces the body's Content-Type when set; "-" removes it
		user, client int64
	}{
		{name: "JSON for A", body: map[string]any{"email": emailA, "password": passA}, user: 1, client: 1},
		{name: "JSON for B", body: map[string]any{"email": emailB, "password": passB}, user: 2, client: 2},
		{name: "form for A", body: url.Values{"email": {emailA}, "password": {passA}}, user: 1, client: 1},
		{name: "form with a charset", body: url.Values{"email": {emailB}, "password": {passB}},
			ctype: "application/x-www-form-urlencoded; charset=utf-8", user: 2, client: 2},
		{name: "JSON without a Content-Type", body: map[string]any{"email": emailA, "password": passA}, ctype: "-", user: 1, client: 1},
		{name: "JSON sent as text/plain", body: map[string]any{"email": emailA, "password": passA}, ctype: "text/plain", user: 1, client: 1},
		{name: "email in another case", body: map[string]any{"email": "QA@Example.COM", "password": passA}, user: 1, client: 1},
		{name: "under v1.0", prefix: "/v1.0", body: map[string]any{"email": emailA, "password": passA}, user: 1, client: 1},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			var a auth
			switch tc.ctype {
			case "":
			case "-":
				a = func(r *http.Request) { r.Header.Del("Content-Type") }
			default:
				a = header("Content-Type", tc.ctype)
			}
			prefix := cmp.Or(tc.prefix, "/v1")
			own := prefix + "/users/" + strconv.FormatInt(tc.user, 10)
			other := prefix + "/users/" + strconv.FormatInt(3-tc.user, 10)

			r := send(t, srv, "POST", prefix+"/sessions", a, tc.body)
			mustStatus(t, r, http.StatusOK, "POST /sessions")
			s := r.json
			checkSession(t, s)
			wantEq(t, "userId", s.Get("userId").Int(), tc.user)
			wantEq(t, "clientId", s.Get("clientId").Int(), tc.client)
			tok := s.Get("token").String()

			for _, scheme := range []struct {
				name string
				a    auth
			}{{"session-token header", sessionHeader(tok)}, {"sessionToken query", sessionQuery(tok)}} {
				r := send(t, srv, "GET", own, scheme.a, nil)
				if r.status != http.StatusOK {
					t.Errorf("GET %s with the %s: status %d; body %s", own, scheme.name, r.status, r.body)
				}
				wantEq(t, "user id by "+scheme.name, r.json.Get("id").Int(), tc.user)
				wantError(t, send(t, srv, "GET", other, scheme.a, nil), http.StatusForbidden, "Forbidden")
			}
			// A second session is a different one with a different token, and
			// the first token keeps working (README: tokens do not expire).
			s2 := send(t, srv, "POST", "/v1/sessions", nil, map[string]any{"email": strings.ToLower(emailOf(tc.user)), "password": passOf(tc.user)})
			mustStatus(t, s2, http.StatusOK, "second POST /sessions")
			if s2.json.Get("token").String() == tok || s2.json.Get("id").Int() == s.Get("id").Int() {
				t.Errorf("second session repeats the first: %s vs %s", s2.body, r.body)
			}
			mustStatus(t, send(t, srv, "GET", own, sessionHeader(tok), nil), http.StatusOK, "first token after the second login")
		})
	}
}

func emailOf(user int64) string {
	if user == 1 {
		return emailA
	}
	return emailB
}

func passOf(user int64) string {
	if user == 1 {
		return passA
	}
	return passB
}

func TestSessionRejected(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		body   any
		status int
		want   []fe
	}{
		{"wrong password", map[string]any{"email": emailA, "password": "wrong-password"}, 401, []fe{{"", "Unauthorized"}}},
		{"password of another account", map[string]any{"email": emailA, "password": passB}, 401, []fe{{"", "Unauthorized"}}},
		{"password in another case", map[string]any{"email": emailA, "password": strings.ToUpper(passA)}, 401, []fe{{"", "Unauthorized"}}},
		{"unknown email", map[string]any{"email": "nobody@example.com", "password": passA}, 401, []fe{{"", "Unauthorized"}}},
		{"api key as password", map[string]any{"email": emailA, "password": keyA}, 401, []fe{{"", "Unauthorized"}}},
		{"form with a wrong password", url.Values{"email": {emailA}, "password": {"nope"}}, 401, []fe{{"", "Unauthorized"}}},
		{"email missing", map[string]any{"password": passA}, 400, []fe{{"email", "InvalidEmail"}}},
		{"email empty", map[string]any{"email": "", "password": passA}, 400, []fe{{"email", "InvalidEmail"}}},
		{"email a number", map[string]any{"email": 1, "password": passA}, 400, []fe{{"email", "InvalidEmail"}}},
		{"password missing", map[string]any{"email": emailA}, 400, []fe{{"password", "InvalidPassword"}}},
		{"password null", map[string]any{"email": emailA, "password": nil}, 400, []fe{{"password", "InvalidPassword"}}},
		{"both missing", map[string]any{}, 400, []fe{{"email", "InvalidEmail"}, {"password", "InvalidPassword"}}},
		{"form without password", url.Values{"email": {emailA}}, 400, []fe{{"password", "InvalidPassword"}}},
		{"empty form", url.Values{}, 400, []fe{{"email", "InvalidEmail"}, {"password", "InvalidPassword"}}},
		{"malformed JSON", raw(`{"email":`), 400, []fe{{"", "InvalidBody"}}},
		{"JSON array", raw(`[{"email":"qa@example.com","password":"qa-password"}]`), 400, []fe{{"", "InvalidBody"}}},
		{"no body", nil, 400, nil}, // either InvalidBody or both field codes; checked below
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			r := send(t, srv, "POST", "/v1/sessions", nil, tc.body)
			mustStatus(t, r, tc.status, "POST /v1/sessions")
			if tc.want == nil {
				// An empty body is both "malformed JSON" and "missing fields";
				// either reading is in the README's error shape.
				if r.json.Get("0.error").String() == "InvalidBody" {
					wantErrors(t, r.json, fe{"", "InvalidBody"})
				} else {
					wantErrors(t, r.json, fe{"email", "InvalidEmail"}, fe{"password", "InvalidPassword"})
				}
				return
			}
			wantErrors(t, r.json, tc.want...)
		})
	}
}

// TestSessionContentTypes: `curl -d '{"email":…}'` types its JSON body as a
// form; such a body is read as JSON (README 5), a real form as a form, in
// any case of the media type and with any parameters. A body that is neither
// says what POST /sessions takes. Whatever the type, the journal never keeps
// the password in clear.
func TestSessionContentTypes(t *testing.T) {
	t.Parallel()
	const (
		form   = "application/x-www-form-urlencoded"
		wrong  = "wrong-password-42"
		hintRE = `takes \{"email": "\.\.\.", "password": "\.\.\."\} as JSON, or email=\.\.\.&password=\.\.\. with Content-Type application/x-www-form-urlencoded`
	)
	jsonA := fmt.Sprintf(`{"email":%q,"password":%q}`, emailA, passA)
	formA := url.Values{"email": {emailA}, "password": {passA}}.Encode()
	cases := []struct {
		name   string
		ctype  string // "" sends no Content-Type
		body   string
		status int
		want   []fe   // the errors of a 400 or 401
		hint   bool   // the 400's message says what to send
		secret string // must not be journaled in clear; passA when empty
	}{
		{name: "JSON typed as a form, as curl -d sends it", ctype: form, body: jsonA, status: 200},
		{name: "JSON typed as a form after blank lines", ctype: form, body: "\r\n \t" + jsonA, status: 200},
		{name: "JSON typed as a form with a charset", ctype: form + "; charset=utf-8", body: jsonA, status: 200},
		{name: "JSON typed as a form in upper case", ctype: "APPLICATION/X-WWW-FORM-URLENCODED; Charset=UTF-8", body: jsonA, status: 200},
		{name: "JSON typed as a form, wrong password", ctype: form, status: 401, want: []fe{{"", "Unauthorized"}}, secret: wrong,
			body: fmt.Sprintf(`{"email":%q,"password":%q}`, emailA, wrong)},
		{name: "JSON typed as a form, no password", ctype: form, body: fmt.Sprintf(`{"email":%q}`, emailA),
			status: 400, want: []fe{{"password", "InvalidPassword"}}},
		{name: "malformed JSON typed as a form", ctype: form, body: `{"email":"qa@example.com","password":"` + passA,
			status: 400, want: []fe{{"", "InvalidBody"}}, hint: true},
		{name: "a JSON array typed as a form", ctype: form, body: "[" + jsonA + "]", status: 400, want: []fe{{"", "InvalidBody"}}, hint: true},
		{name: "a real form", ctype: form, body: formA, status: 200},
		{name: "a form with a charset", ctype: form + ";charset=UTF-8", body: formA, status: 200},
		{name: "a form typed in mixed case", ctype: "Application/X-WWW-Form-URLEncoded", body: formA, status: 200},
		{name: "a form with a wrong password", ctype: form, body: url.Values{"email": {emailA}, "password": {wrong}}.Encode(),
			status: 401, want: []fe{{"", "Unauthorized"}}, secret: wrong},
		{name: "a form with a broken escape", ctype: form, body: "email=qa%4&password=" + passA, status: 400,
			want: []fe{{"", "InvalidBody"}}, hint: true},
		{name: "an empty body typed as a form", ctype: form, body: "", status: 400,
			want: []fe{{"email", "InvalidEmail"}, {"password", "InvalidPassword"}}},
		{name: "JSON typed as JSON", ctype: "application/json", body: jsonA, status: 200},
		{name: "JSON typed as JSON with a charset", ctype: "application/json; charset=utf-8", body: jsonA, status: 200},
		{name: "JSON typed as JSON in mixed case", ctype: "Application/JSON", body: jsonA, status: 200},
		{name: "JSON with no Content-Type", body: jsonA, status: 200},
		{name: "a form typed as JSON", ctype: "application/json", body: formA, status: 400, want: []fe{{"", "InvalidBody"}}, hint: true},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			var a auth
			if tc.ctype != "" {
				a = header("Content-Type", tc.ctype)
			}
			r := send(t, srv, "POST", "/v1/sessions", a, raw(tc.body))
			if tc.ctype == "" {
				// send types a raw body as JSON; this case has none.
				r = send(t, srv, "POST", "/v1/sessions", func(r *http.Request) { r.Header.Del("Content-Type") }, raw(tc.body))
			}
			mustStatus(t, r, tc.status, "POST /v1/sessions")
			if tc.status == http.StatusOK {
				checkSession(t, r.json)
				wantEq(t, "userId", r.json.Get("userId").Int(), 1)
			} else {
				wantErrors(t, r.json, tc.want...)
			}
			if msg := r.json.Get("0.message").String(); tc.hint != regexp.MustCompile(hintRE).MatchString(msg) {
				t.Errorf("the message %q should say what POST /sessions takes: %v", msg, tc.hint)
			}

			journal := send(t, srv, "GET", "/__admin/requests", nil, nil)
			mustStatus(t, journal, http.StatusOK, "GET /__admin/requests")
			if n := len(journal.json.Get("requests").Array()); n == 0 {
				t.Fatalf("the login is not journaled: %s", journal.body)
			}
			if secret := cmp.Or(tc.secret, passA); strings.Contains(string(journal.body), secret) {
				t.Errorf("the journal keeps the password in clear: %s", journal.body)
			}
		})
	}
}
