package mockserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// emailOfLength builds a well-formed address of exactly n characters whose parts
// stay within the RFC 5321 limits (64-character local part, 63-character labels),
// so that only its total length can make it invalid.
func emailOfLength(n int) string {
	local := strings.Repeat("a", 64)
	tail := ".com"
	rest := n - len(local) - 1 - len(tail) // characters left for the labels and their dots
	var labels []string
	for rest > 0 {
		l := min(63, rest)
		if rest-l == 1 { // a lone dot cannot end the domain; shorten this label
			l--
		}
		labels = append(labels, strings.Repeat(string(rune('b'+len(labels))), l))
		rest -= l + 1
	}
	return local + "@" + strings.Join(labels, ".") + tail
}

// Spec 8: every ..255 field takes 255 characters and refuses 256, counted in
// characters, not bytes.
func TestStringLimits(t *testing.T) {
	t.Parallel()
	type endpoint struct {
		method, path string
		body         func() map[string]any
	}
	putUser := endpoint{"PUT", "/v1/users/1", userBodyA}
	postClient := endpoint{"POST", "/v1/clients", clientBody}
	putClient := endpoint{"PUT", "/v1/clients/1", clientBody1}
	postApp := endpoint{"POST", "/v1/apps", func() map[string]any {
		return map[string]any{"name": "x", "platform": map[string]any{"id": 1}}
	}}
	a := func(n int) string { return strings.Repeat("a", n) }
	e := func(n int) string { return strings.Repeat("é", n) }
	type limitCase struct {
		name     string
		ep       endpoint
		field    string
		ok, long string // 255 and 256 characters
		code     string
	}
	cases := []limitCase{
		{"PUT /users email", putUser, "email", emailOfLength(255), emailOfLength(256), "InvalidEmail"},
		{"PUT /users firstName", putUser, "firstName", a(255), a(256), "InvalidFirstName"},
		{"PUT /users firstName in two-byte characters", putUser, "firstName", e(255), e(256), "InvalidFirstName"},
		{"PUT /users lastName", putUser, "lastName", a(255), a(256), "InvalidLastName"},
		{"PUT /users timezone", putUser, "timezone", "Europe/" + a(248), "Europe/" + a(249), "InvalidTimezone"},
		{"PUT /users phoneNumber", putUser, "phoneNumber", strings.Repeat("7", 255), strings.Repeat("7", 256), "InvalidPhoneNumber"},
		{"POST /apps name", postApp, "name", a(255), a(256), "InvalidName"},
		{"POST /apps name in two-byte characters", postApp, "name", e(255), e(256), "InvalidName"},
		{"POST /clients terms", postClient, "terms", "I agree", "I agree" + a(249), "InvalidTerms"},
		{"PUT /clients terms", putClient, "terms", "I agree", "I agree" + a(249), "InvalidTerms"},
	}
	for _, ep := range []struct {
		name string
		ep   endpoint
	}{{"POST /clients", postClient}, {"PUT /clients", putClient}} {
		for _, f := range []struct{ field, code string }{
			{"name", "InvalidName"}, {"addressLine1", "InvalidAddressLine1"}, {"addressLine2", "InvalidAddressLine2"},
			{"addressCity", "InvalidAddressCity"}, {"addressPostcode", "InvalidAddressPostcode"},
			{"addressCountry", "InvalidAddressCountry"}, {"vat", "InvalidVat"},
		} {
			cases = append(cases, limitCase{ep.name + " " + f.field, ep.ep, f.field, a(255), a(256), f.code})
		}
		cases = append(cases, limitCase{ep.name + " name in two-byte characters", ep.ep, "name", e(255), e(256), "InvalidName"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if n := utf8.RuneCountInString(tc.ok); n != 255 && tc.field != "terms" {
				t.Fatalf("test bug: the accepted value has %d characters", n)
			}
			if n := utf8.RuneCountInString(tc.long); n != 256 {
				t.Fatalf("test bug: the refused value has %d characters", n)
			}
			srv := newServer(t)
			before := snapshot(t, srv)
			r := send(t, srv, tc.ep.method, tc.ep.path, asA, with(tc.ep.body(), tc.field, tc.long))
			if r.status != http.StatusBadRequest {
				t.Fatalf("256 characters: status %d, want 400; body %s", r.status, r.body)
			}
			wantErrors(t, r.json, fe{tc.field, tc.code})
			wantSnapshot(t, srv, before)

			r = send(t, srv, tc.ep.method, tc.ep.path, asA, with(tc.ep.body(), tc.field, tc.ok))
			mustStatus(t, r, http.StatusOK, "255 characters")
			if tc.field != "terms" {
				wantEq(t, tc.field+" echoed", r.json.Get(tc.field).String(), tc.ok)
			}
		})
	}
}

// Spec 4.1 and 8: a password of 6 characters or more replaces the old one,
// null or no password keeps it, anything shorter is refused. POST /sessions
// shows which password is in force.
func TestPasswordLimits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		password any
		status   int
		works    string // the password that logs in afterwards
		fails    string // one that no longer (or never did) log in
	}{
		{"six characters replace it", "abcdef", 200, "abcdef", passA},
		{"a long one replaces it", "a much longer pass phrase with spaces", 200, "a much longer pass phrase with spaces", passA},
		{"six two-byte characters replace it", "éééééé", 200, "éééééé", passA},
		{"null keeps it", nil, 200, passA, "abcdef"},
		{"absent keeps it", absent, 200, passA, "abcdef"},
		{"five characters are refused", "abcde", 400, passA, "abcde"},
		{"an empty one is refused", "", 400, passA, ""},
		{"a number is refused", 123456, 400, passA, "123456"},
		{"a boolean is refused", true, 400, passA, "true"},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			_, before := do(t, srv, "GET", "/v1/users/1", asA, nil)
			r := send(t, srv, "PUT", "/v1/users/1", asA, with(userBodyA(), "password", tc.password))
			mustStatus(t, r, tc.status, "PUT /v1/users/1")
			if tc.status == 400 {
				wantErrors(t, r.json, fe{"password", "InvalidPassword"})
			} else {
				checkUser(t, r.json)
				if tc.works == passA {
					wantEq(t, "passwordLastChanged (kept)", r.json.Get("passwordLastChanged").String(), before.Get("passwordLastChanged").String())
				}
			}
			login(t, srv, emailA, tc.works)
			if tc.fails != "" { // an empty password may read as a missing one (400)
				wantError(t, send(t, srv, "POST", "/v1/sessions", nil, url.Values{"email": {emailA}, "password": {tc.fails}}),
					http.StatusUnauthorized, "Unauthorized")
			}
		})
	}
}

// README 7.1: a body over 1 MiB answers 413; a body of exactly 1 MiB is read.
func TestBodySizeLimit(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	endpoints := []struct {
		method, path string
		body         map[string]any
		pad          string // the string field that the padding goes into
		status       int    // the answer to exactly 1 MiB
		want         fe
	}{
		{"PUT", "/v1/users/1", userBodyA(), "firstName", 400, fe{"firstName", "InvalidFirstName"}},
		{"POST", "/v1/users", signUpBody("big@example.com"), "lastName", 400, fe{"lastName", "InvalidLastName"}},
		{"POST", "/v1/clients", clientBody(), "name", 400, fe{"name", "InvalidName"}},
		{"PUT", "/v1/clients/1", clientBody1(), "addressCity", 400, fe{"addressCity", "InvalidAddressCity"}},
		{"POST", "/v1/apps", map[string]any{"name": "x", "platform": map[string]any{"id": 1}}, "name", 400, fe{"name", "InvalidName"}},
		{"POST", "/v1/sessions", map[string]any{"email": emailA, "password": passA}, "password", 401, fe{"", "Unauthorized"}},
	}
	for _, ep := range endpoints {
		for _, size := range []int{mib, mib + 1} {
			name := ep.method + " " + ep.path + " " + map[bool]string{true: "1 MiB", false: "1 MiB + 1"}[size == mib]
			onOwnServer(t, name, func(t *testing.T, srv http.Handler) {
				before := snapshot(t, srv)
				body := padTo(t, ep.body, ep.pad, size)
				r := send(t, srv, ep.method, ep.path, asA, raw(body))
				if size > mib {
					wantError(t, r, http.StatusRequestEntityTooLarge, "BodyTooLarge")
				} else {
					if r.status != ep.status {
						t.Fatalf("status %d, want %d; body %.300s", r.status, ep.status, r.body)
					}
					wantErrors(t, r.json, ep.want)
				}
				wantSnapshot(t, srv, before)
			})
		}
	}
	onOwnServer(t, "a form of 1 MiB + 1 to POST /sessions", func(t *testing.T, srv http.Handler) {
		form := url.Values{"email": {emailA}, "password": {passA}}
		form.Set("padding", strings.Repeat("p", mib+1-len(form.Encode()+"&padding=")))
		if n := len(form.Encode()); n != mib+1 {
			t.Fatalf("test bug: form of %d bytes", n)
		}
		wantError(t, send(t, srv, "POST", "/v1/sessions", nil, form), http.StatusRequestEntityTooLarge, "BodyTooLarge")
	})
}

// padTo marshals body with the field padded so that the JSON is size bytes.
func padTo(t *testing.T, body map[string]any, field string, size int) string {
	t.Helper()
	b := with(body, field, "")
	buf, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	b = with(body, field, strings.Repeat("x", size-len(buf)))
	buf, err = json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(buf) != size {
		t.Fatalf("test bug: padded body of %d bytes, want %d", len(buf), size)
	}
	return string(buf)
}

// README 7.1: a body that is not a JSON object answers InvalidBody with an
// empty fieldName, on every endpoint that takes a body.
func TestMalformedBodies(t *testing.T) {
	t.Parallel()
	endpoints := []struct{ method, path string }{
		{"PUT", "/v1/users/1"},
		{"POST", "/v1/users"},
		{"POST", "/v1/apps"},
		{"POST", "/v1/clients"},
		{"PUT", "/v1/clients/1"},
		{"POST", "/v1/sessions"},
		{"PUT", "/v1.0/users/1"},
	}
	userJSON, err := json.Marshal(userBodyA())
	if err != nil {
		t.Fatal(err)
	}
	bodies := []struct {
		name string
		body raw
	}{
		{"truncated object", `{"email":"qa@example.com",`},
		{"unclosed string", `{"email":"qa@example.com`},
		{"single quotes", `{'email':'qa@example.com'}`},
		{"trailing comma", `{"email":"qa@example.com",}`},
		{"bare word", `hello`},
		{"array", `[]`},
		{"array of the valid body", raw("[" + string(userJSON) + "]")},
		{"null", `null`},
		{"string", `"{}"`},
		{"number", `42`},
		{"boolean", `true`},
		{"whitespace only", " \n\t "},
		{"empty", ``},
		{"valid body followed by garbage", raw(string(userJSON) + " x")},
		{"two objects", raw(string(userJSON) + string(userJSON))},
		{"invalid UTF-8 outside strings", raw("{\xff}")},
		{"deep nesting", raw(strings.Repeat("[", 100000) + strings.Repeat("]", 100000))},
	}
	for _, ep := range endpoints {
		for _, b := range bodies {
			if ep.path == "/v1/sessions" && b.name == "empty" {
				continue // an empty POST /sessions may also read as missing fields; see TestSessionRejected
			}
			onOwnServer(t, ep.method+" "+ep.path+" "+b.name, func(t *testing.T, srv http.Handler) {
				wantRefused(t, srv, ep.method, ep.path, asA, b.body, fe{"", "InvalidBody"})
			})
		}
	}
}

// Finding "work in flight": a 1 MiB JSON array of zeros cost about 45 MB
// while it was decoded, and a hundred at once took the process to gigabytes.
// A body past what any body of the API holds is refused before decoding:
// its cost is a small multiple of its size.
func TestWorstCaseBodyCostsASmallMultipleOfItsSize(t *testing.T) {
	srv := newServer(t)
	// Each just under 1 MiB, the largest body read.
	zeros := "[" + strings.Repeat("0,", (1<<20)/2-2) + "0]"
	deep := strings.Repeat("[", 1<<19-1) + strings.Repeat("]", 1<<19-1)
	for name, body := range map[string]string{"an array of zeros": zeros, "nested arrays": deep} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		req := httptest.NewRequest("POST", "/v1/users", strings.NewReader(body))
		req.Header.Set("Content-Type", "text/plain")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		runtime.ReadMemStats(&after)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "InvalidBody") {
			t.Errorf("%s: %d %.200s, want 400 InvalidBody", name, rec.Code, rec.Body)
		}
		if cost := after.TotalAlloc - before.TotalAlloc; cost > 8*uint64(len(body)) {
			t.Errorf("%s of %d bytes allocated %d bytes, more than 8 times its size", name, len(body), cost)
		}
	}
}
