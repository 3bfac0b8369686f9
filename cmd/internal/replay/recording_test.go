package replay

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// A journal is read in the order its requests were made, whatever order
// its pages come in (newest first, as GET /__admin/requests answers), and
// says when it holds older entries than those saved.
func TestParseJournal(t *testing.T) {
	newer := `{"limit":1000,"next":3,"requests":[
	  {"id":4,"time":"2026-01-01T00:00:04Z","method":"PUT","path":"/v1/users/1","query":"","headers":{"Authorization":"api-key ***","Content-Type":"application/json"},"status":200,"requestBody":{"firstName":"Q","password":"***"},"responseBody":{"id":1}},
	  {"id":3,"time":"2026-01-01T00:00:03Z","method":"POST","path":"/v1/sessions","query":"","headers":{"Content-Type":"application/x-www-form-urlencoded"},"status":200,"requestBody":"email=qa%40example.com&password=***","responseBody":{"userId":1,"token":"***"}}]}`
	older := `[{"id":2,"time":"2026-01-01T00:00:02Z","method":"GET","path":"/v1/platforms","query":"sessionToken=***","headers":{},"status":200,"requestBody":null,"responseBody":{"platforms":[]},"truncated":true}]`
	rec, err := Parse([]byte(newer + "\n" + older))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Format != "journal" || len(rec.Requests) != 3 {
		t.Fatalf("format %s, %d requests", rec.Format, len(rec.Requests))
	}
	var got []string
	for _, r := range rec.Requests {
		got = append(got, fmt.Sprintf("%d %s %s %q %v", r.N, r.Method, r.URL.Path, r.Body, r.Truncated))
	}
	want := []string{`1 GET /v1/platforms "" true`, `2 POST /v1/sessions "email=qa%40example.com&password=***" false`, `3 PUT /v1/users/1 "{\"firstName\":\"Q\",\"password\":\"***\"}" false`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rec.Requests[2].Header.Get("Authorization") != "api-key ***" || rec.Requests[0].URL.Query().Get("sessionToken") != maskedSecret {
		t.Errorf("headers or query lost: %v %v", rec.Requests[2].Header, rec.Requests[0].URL)
	}
	if len(rec.Notes) != 0 {
		t.Errorf("notes %v: the older page was saved too", rec.Notes)
	}
	rec, _ = Parse([]byte(newer))
	if len(rec.Notes) != 1 || !strings.Contains(rec.Notes[0], "before=3") {
		t.Errorf("a journal with older entries unsaved says %v", rec.Notes)
	}
}

// A HAR is read in the order its entries started, its answers decoded, its
// pseudo-headers left out, a form's params made a body.
func TestParseHAR(t *testing.T) {
	answer := base64.StdEncoding.EncodeToString([]byte(`{"token":"t"}`))
	har := `{"log":{"version":"1.2","entries":[
	  {"startedDateTime":"2026-01-01T00:00:02Z","request":{"method":"get","url":"https://api.example.com/v1/platforms","headers":[{"name":":authority","value":"api.example.com"}]},"response":{"status":200,"content":{"mimeType":"application/json","text":"{}"}}},
	  {"startedDateTime":"2026-01-01T00:00:01Z","request":{"method":"POST","url":"https://api.example.com/v1/sessions","headers":[],"postData":{"mimeType":"application/x-www-form-urlencoded","params":[{"name":"email","value":"a@b.c"}]}},"response":{"status":200,"content":{"mimeType":"application/json","text":"` + answer + `","encoding":"base64"}}}]}}`
	rec, err := Parse([]byte(har))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Format != "HAR" || len(rec.Requests) != 2 {
		t.Fatalf("format %s, %d requests", rec.Format, len(rec.Requests))
	}
	login, platforms := rec.Requests[0], rec.Requests[1]
	if login.N != 1 || login.Method != "POST" || string(login.Body) != "email=a%40b.c" || string(login.Answer) != `{"token":"t"}` {
		t.Errorf("the login: %d %s %q %q", login.N, login.Method, login.Body, login.Answer)
	}
	if login.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("the login's type: %v", login.Header)
	}
	if platforms.Method != "GET" || len(platforms.Header) != 0 {
		t.Errorf("the platforms: %s %v", platforms.Method, platforms.Header)
	}
	for _, bad := range []string{"", "not json", `{"other":1}`, `[{"id":1}]`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) is no error", bad)
		}
	}
}

// The API base is the one most requests use, or --api-base; every other
// request says why it is not sent.
func TestScope(t *testing.T) {
	req := func(method, u string) *Request {
		p, _ := url.Parse(u)
		return &Request{Method: method, URL: p}
	}
	rec := &Recording{Requests: []*Request{
		req("GET", "https://cdn.example.com/app.js"),
		req("POST", "https://api.example.com/pricing/v1/sessions"),
		req("PUT", "https://api.example.com/pricing/v1/users/1"),
		req("GET", "https://other.example.com/v2/users/1"),
	}}
	b, err := findBase(rec, "")
	if err != nil || b.String() != "https://api.example.com/pricing/v1" {
		t.Fatalf("base %s, %v", b, err)
	}
	if g, err := findBase(rec, "https://other.example.com/v2"); err != nil || g.String() != "https://other.example.com/v2" {
		t.Errorf("--api-base: %s, %v", g, err)
	}
	if _, err := findBase(rec, "https://api.example.com/pricing"); err == nil {
		t.Error("an --api-base without a version segment is no error")
	}
	if _, err := findBase(&Recording{Requests: []*Request{req("GET", "https://cdn.example.com/app.js")}}, ""); err == nil {
		t.Error("a recording that names no API is no error")
	}
	for _, tc := range []struct {
		r       *Request
		version string
		why     string
	}{
		{req("PUT", "https://api.example.com/pricing/v1/users/1"), "v1", ""},
		{req("PUT", "https://api.example.com/pricing/v1.0/clients/2"), "v1.0", ""},
		{req("OPTIONS", "https://api.example.com/pricing/v1/users/1"), "", "a CORS preflight"},
		{req("GET", "https://cdn.example.com/app.js"), "", "another host than the API's (cdn.example.com)"},
		{req("GET", "https://api.example.com/__admin/requests"), "", "the mock's admin API"},
		{req("GET", "https://api.example.com/static/app.css"), "", "a static file (api.example.com/static/app.css)"},
		{req("GET", "https://api.example.com/"), "", "a static file"},
		{req("GET", "https://api.example.com/v1/users/1"), "", "not under the API base https://api.example.com/pricing/v1"},
		{req("GET", "data:image/png;base64,AAAA"), "", "not an HTTP request (data:)"},
	} {
		version, _, why := b.place(tc.r)
		if version != tc.version || !strings.HasPrefix(why, tc.why) || (tc.why == "") != (why == "") {
			t.Errorf("%s %s: version %q, why %q; want %q, %q", tc.r.Method, tc.r.URL, version, why, tc.version, tc.why)
		}
	}
}

// A credential is read from wherever the recording sent it.
func TestReadCredential(t *testing.T) {
	for _, tc := range []struct {
		header, query string
		want          credential
	}{
		{"", "", credential{scheme: "none"}},
		{"Authorization: api-key ***", "", credential{scheme: "api-key", op: "as-specified", masked: true}},
		{"Authorization: api-key K1", "", credential{scheme: "api-key", op: "as-specified", secret: "K1"}},
		{"Authorization: API-KEY K1", "", credential{scheme: "api-key", op: "scheme-word-case", secret: "K1"}},
		{"Authorization: api-key  K1", "", credential{scheme: "api-key", op: "scheme-spaces", secret: "K1"}},
		{"Authorization: Bearer T1", "", credential{scheme: "session-token", op: "unspecified-place", secret: "T1"}},
		{"Authorization: K1", "", credential{scheme: "api-key", op: "unspecified-place", secret: "K1"}},
		{"session-token: ***", "", credential{scheme: "session-token", op: "as-specified", masked: true}},
		{"", "sessionToken=T1", credential{scheme: "session-query", op: "as-specified", secret: "T1"}},
		{"", "apiKey=K1", credential{scheme: "session-query", op: "unspecified-place", secret: "K1"}},
		{"session-token: T1", "sessionToken=T1", credential{several: true}},
	} {
		u, _ := url.Parse("http://h/v1/apps?" + tc.query)
		r := &Request{Method: "POST", URL: u, Header: map[string][]string{}}
		if name, value, ok := strings.Cut(tc.header, ": "); ok {
			r.Header.Set(name, value)
		}
		if got := readCredential(r); got != tc.want {
			t.Errorf("%q %q: %+v, want %+v", tc.header, tc.query, got, tc.want)
		}
	}
}
