package mockserver_test

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// fuzzEndpoints are the requests that carry a body; the fuzzer picks one by index.
var fuzzEndpoints = []struct {
	method, path, ctype string
}{
	{"PUT", "/v1/users/1", "application/json"},
	{"PUT", "/v1/users/2", "application/json"},
	{"POST", "/v1/users", "application/json"},
	{"POST", "/v1/apps", "application/json"},
	{"POST", "/v1/clients", "application/json"},
	{"PUT", "/v1/clients/1", "application/json"},
	{"POST", "/v1/sessions", "application/json"},
	{"POST", "/v1/sessions", "application/x-www-form-urlencoded"},
	{"PUT", "/v1.0/users/1", "text/plain"},
	{"POST", "/v1/platforms", "application/json"},
}

// fuzzAuths are the credentials the fuzzer picks from by index.
var fuzzAuths = []auth{
	nil,
	asA,
	asB,
	apiKey("not-a-key"),
	header("Authorization", "Bearer x"),
	sessionHeader(""),
	sessionQuery("0123456789abcdef"),
}

// checkAnswer holds for every answer of the mock to any request: no 5xx, a
// JSON body with a JSON Content-Type, and every error status in the README's
// error shape.
func checkAnswer(t *testing.T, method, target string, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.Bytes()
	if rec.Code >= 500 {
		t.Fatalf("%s %s: status %d; body %s", method, target, rec.Code, body)
	}
	if mt, _, err := mime.ParseMediaType(rec.Header().Get("Content-Type")); err != nil || mt != "application/json" {
		t.Fatalf("%s %s: status %d, Content-Type %q; body %s", method, target, rec.Code, rec.Header().Get("Content-Type"), body)
	}
	if !json.Valid(body) {
		t.Fatalf("%s %s: status %d, body is not JSON: %q", method, target, rec.Code, body)
	}
	if rec.Code < 400 {
		return
	}
	errs := gjson.ParseBytes(body)
	if !errs.IsArray() || len(errs.Array()) == 0 {
		t.Fatalf("%s %s: status %d, body is not a non-empty error array: %s", method, target, rec.Code, body)
	}
	for i, e := range errs.Array() {
		n := 0
		e.ForEach(func(_, _ gjson.Result) bool { n++; return true })
		if !e.IsObject() || n != 3 ||
			e.Get("fieldName").Type != gjson.String ||
			e.Get("error").Type != gjson.String || e.Get("error").String() == "" ||
			e.Get("message").Type != gjson.String || e.Get("message").String() == "" {
			t.Fatalf("%s %s: status %d, error element %d is not {fieldName, error, message} strings: %s", method, target, rec.Code, i, body)
		}
	}
}

// FuzzJSONBodies sends arbitrary bodies to every endpoint that takes one.
func FuzzJSONBodies(f *testing.F) {
	jsonOf := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	valid := [][]byte{
		jsonOf(userBodyA()),
		jsonOf(with(userBodyA(), "client", with(clientBody(), "app", appBody()))),
		jsonOf(with(signUpBody("fuzz@example.com"), "client", with(clientBody(), "app", appBody()))),
		jsonOf(appBody()),
		jsonOf(map[string]any{"name": "x", "platform": map[string]any{"id": 1}}),
		jsonOf(with(clientBody(), "app", appBody())),
		jsonOf(clientBody1()),
		jsonOf(map[string]any{"email": emailA, "password": passA}),
		[]byte(url.Values{"email": {emailA}, "password": {passA}}.Encode()),
	}
	broken := []string{
		``, ` `, `{`, `}`, `[]`, `[{}]`, `null`, `0`, `-1e400`, `"x"`, `{"a":}`, `{"email":"a"}x`,
		`{"email":5,"password":true}`, `{"password":null}`, `{"password":{}}`,
		`{"client":"x"}`, `{"client":{"app":"x"}}`, `{"client":{"app":{"marketapp":"x"}}}`,
		`{"client":null}`, `{"app":null}`, `{"app":[]}`,
		`{"marketapp":null,"name":null,"platform":null,"nextplan":null}`,
		`{"marketapp":{"hash":null},"name":null,"platform":{"id":null}}`,
		`{"marketapp":[],"platform":[],"nextplan":[]}`,
		`{"nextplan":{"id":9223372036854775808}}`, `{"nextplan":{"id":-9223372036854775809}}`,
		`{"nextplan":{"id":1.5}}`, `{"nextplan":{"id":1e2}}`, `{"platform":{"id":-1}}`,
		`{"phoneCountry":{"id":1.5},"phoneNumber":[],"phoneExtension":{}}`, `{"phoneCountry":[1]}`,
		`{"currency":{"id":18446744073709551616}}`, `{"currency":"GBP"}`,
		`{"email":"\u0000@x.io","firstName":"\ud800","timezone":"../../etc/passwd"}`,
		"{\"firstName\":\"\xff\xfe\"}",
		`{"email":"a@b.c","email":"dup@example.com"}`,
		`{"subscribeBlog":"no","subscribeHowto":{},"timezone":42}`, `{"nextplan":"pro","marketapp":true}`,
		`{"terms":true,"currency":{"id":true},"app":"app"}`, `{"name":42,"platform":"Android"}`, `{"email":"x"} x`,
		strings.Repeat(`{"client":`, 2000) + `{}` + strings.Repeat(`}`, 2000),
		strings.Repeat(`[`, 20000),
		`email=&password=`, `email=%zz&password=%`, `email=qa%40example.com&password=qa-password&email=x`,
	}
	for i, b := range valid {
		for a := range fuzzAuths {
			f.Add(uint8(i), uint8(a), b)
		}
	}
	for i, b := range broken {
		f.Add(uint8(i), uint8(i%len(fuzzAuths)), []byte(b))
		f.Add(uint8(i+3), uint8(1), []byte(b))
	}
	f.Fuzz(func(t *testing.T, endpoint, authChoice uint8, body []byte) {
		ep := fuzzEndpoints[int(endpoint)%len(fuzzEndpoints)]
		srv := newServer(t)
		req := httptest.NewRequest(ep.method, ep.path, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", ep.ctype)
		if a := fuzzAuths[int(authChoice)%len(fuzzAuths)]; a != nil {
			a(req)
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		checkAnswer(t, ep.method, ep.path, rec)
		if rec.Code == http.StatusOK && ep.path != "/v1/sessions" {
			// A body the mock accepted must have been a JSON object.
			var obj map[string]any
			if err := json.Unmarshal(body, &obj); err != nil {
				t.Fatalf("%s %s accepted a body that is not a JSON object (%v): %q", ep.method, ep.path, err, body)
			}
		}
	})
}

var fuzzMethods = []string{"GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT", "PROPFIND"}

// FuzzPathAndQuery sends body-less requests to arbitrary paths and queries.
func FuzzPathAndQuery(f *testing.F) {
	seeds := []struct {
		path, query string
	}{
		{"/v1/platforms", ""}, {"/v1.0/currencies", ""}, {"/v1/plans", ""}, {"/v1/phoneCountries", ""}, {"/v1/marketapps", ""},
		{"/v1/users/1", ""}, {"/v1/users/1/clients", ""}, {"/v1/clients/1", ""}, {"/v1/clients/1/apps", ""}, {"/v1/apps/1", ""},
		{"/v1/users/2", "sessionToken=x"}, {"/v1/users/1", "sessionToken="}, {"/v1/users/1", "sessionToken=a&sessionToken=b"},
		{"/v1/users/1", "sessionToken=%zz"}, {"/v1/users/1", "%"}, {"/v1/users/1", ";;&&=="},
		{"/v1/users/99999999999999999999", ""}, {"/v1/users/-0", ""}, {"/v1/users/0x1", ""}, {"/v1/users/1e3", ""},
		{"/v1/users/1.5", ""}, {"/v1/users/abc", ""}, {"/v1/clients/-1", ""}, {"/v1/clients/99999999999999999999", ""},
		{"/v1/users/%31", ""}, {"/v1/users/%2F", ""}, {"/v1/apps/ 1", ""}, {"/v1/apps/1%00", ""},
		{"/v2/platforms", ""}, {"/v1.1/platforms", ""}, {"/v1//users/1", ""}, {"/v1/users/1/", ""}, {"/v1/../v1/platforms", ""},
		{"/%2e%2e/v1/platforms", ""}, {"/", ""}, {"", ""}, {"*", ""}, {"/v1/sessions", "email=qa@example.com"},
	}
	for i, s := range seeds {
		f.Add(uint8(i), uint8(i), s.path, s.query)
	}
	f.Fuzz(func(t *testing.T, method, authChoice uint8, path, query string) {
		m := fuzzMethods[int(method)%len(fuzzMethods)]
		target := path
		if query != "" {
			target += "?" + query
		}
		// Only what net/http would hand to a handler: a request line has no
		// spaces or control characters, and its target parses as a request URI.
		if strings.ContainsFunc(target, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			t.Skip()
		}
		u, err := url.ParseRequestURI(target)
		if err != nil {
			t.Skip()
		}
		// The home page is HTML for a person, not an answer of the API.
		if u.Path == "/" && (m == "GET" || m == "HEAD") {
			t.Skip()
		}
		req := &http.Request{
			Method:     m,
			URL:        u,
			RequestURI: target,
			Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header:     http.Header{},
			Host:       "127.0.0.1",
			RemoteAddr: "127.0.0.1:1234",
			Body:       http.NoBody,
		}
		if a := fuzzAuths[int(authChoice)%len(fuzzAuths)]; a != nil {
			a(req)
		}
		rec := httptest.NewRecorder()
		newServer(t).ServeHTTP(rec, req)
		if m == "HEAD" && rec.Body.Len() == 0 {
			if rec.Code >= 500 {
				t.Fatalf("HEAD %s: status %d", target, rec.Code)
			}
			return
		}
		checkAnswer(t, m, target, rec)
	})
}
