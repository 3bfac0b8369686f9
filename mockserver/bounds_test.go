package mockserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/mockserver"
)

// The tests of README's "Limits and security", one or more per finding of
// issue 11: each shows the new behaviour, and for memory a bound on what the
// mock keeps (its own accounts of it, GET /__admin/namespaces), not the
// process's size.

func newLimited(t testing.TB, lim mockserver.Limits) *mockserver.Server {
	t.Helper()
	srv, err := mockserver.New(mockserver.Options{Limits: lim})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// usage reads what the mock says it holds.
func usage(t testing.TB, h http.Handler) gjson.Result {
	t.Helper()
	r := send(t, h, "GET", "/__admin/namespaces", nil, nil)
	mustStatus(t, r, http.StatusOK, "GET /__admin/namespaces")
	return r.json
}

// Finding "fault rules": a 1 MiB glob took 315 MB; now a rule's path and
// body are bounded, and so are the rules of a namespace and of the mock.
func TestFaultRulesBounded(t *testing.T) {
	t.Parallel()
	srv := newLimited(t, mockserver.Limits{Rules: 5, AllRules: 12})
	refused := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"a 1 MiB glob", map[string]any{"path": "/" + strings.Repeat("*", 1<<20-64), "status": 500}, "path"},
		{"a path of 129 bytes", map[string]any{"path": "/" + strings.Repeat("a", 128), "status": 500}, "path"},
		{"a body over 8 KiB", map[string]any{"path": "/v1/plans", "status": 500, "body": strings.Repeat("x", 8<<10)}, "body"},
	}
	for _, tc := range refused {
		r := send(t, srv, "POST", "/__admin/faults", nil, tc.body)
		mustStatus(t, r, http.StatusBadRequest, "POST /__admin/faults with "+tc.name)
		wantErrors(t, r.json, fe{tc.field, "InvalidRule"})
	}
	longest := "/" + strings.Repeat("?", 127)
	mustStatus(t, send(t, srv, "POST", "/__admin/faults", nil, map[string]any{"path": longest, "status": 500}), http.StatusCreated, "a path of 128 bytes")
	wantEq(t, "the rule of 128 bytes applies", send(t, srv, "GET", "/"+strings.Repeat("x", 127), nil, nil).status, 500)

	for i := range 4 {
		mustStatus(t, send(t, srv, "POST", "/__admin/faults", nil, map[string]any{"path": "/v1/plans", "status": 500 + i}), http.StatusCreated, "rule")
	}
	wantError(t, send(t, srv, "POST", "/__admin/faults", nil, map[string]any{"path": "/v1/plans", "status": 500}), http.StatusBadRequest, "TooManyRules")
	for _, ns := range []string{"a", "b"} {
		for range 3 {
			mustStatus(t, send(t, srv, "POST", "/__admin/faults", inNamespace(ns), map[string]any{"path": "/x", "status": 500}), http.StatusCreated, "rule in "+ns)
		}
	}
	// 5 in the default namespace, 3 in a, 3 in b: the 12th in c is the
	// last the mock keeps.
	mustStatus(t, send(t, srv, "POST", "/__admin/faults", inNamespace("c"), map[string]any{"path": "/x", "status": 500}), http.StatusCreated, "the 12th rule")
	wantError(t, send(t, srv, "POST", "/__admin/faults", inNamespace("c"), map[string]any{"path": "/x", "status": 500}), http.StatusBadRequest, "TooManyRules")
	wantEq(t, "rules kept", usage(t, srv).Get("usage.rules").Int(), 12)

	// Removing rules, or a namespace, frees room.
	mustStatus(t, send(t, srv, "DELETE", "/__admin/namespaces/a", nil, nil), http.StatusOK, "DELETE /__admin/namespaces/a")
	wantEq(t, "rules kept after the delete", usage(t, srv).Get("usage.rules").Int(), 9)
	mustStatus(t, send(t, srv, "POST", "/__admin/faults", inNamespace("c"), map[string]any{"path": "/x", "status": 500}), http.StatusCreated, "a rule after the delete")
}

// Finding "journal": a 1 MB header per request took 1.7 GB; now an entry
// keeps at most 1 KiB of a header, 64 KiB of a body, says it was cut, and
// the journals of all namespaces keep a bounded number of bytes.
func TestJournalBounded(t *testing.T) {
	t.Parallel()
	const budget = 2 << 20
	srv := newLimited(t, mockserver.Limits{JournalBytes: budget})
	huge := strings.Repeat("h", 1<<20)
	for i := range 40 {
		r := send(t, srv, "PUT", "/v1/users/1", all(asA, header("X-Huge", huge), inNamespace(fmt.Sprintf("ns-%d", i%4))),
			raw(`{"firstName":"`+strings.Repeat("b", 512<<10)+`"}`))
		mustStatus(t, r, http.StatusBadRequest, "PUT /v1/users/1 with a huge header and body")
		u := usage(t, srv).Get("usage")
		if got := u.Get("journalBytes").Int(); got > budget {
			t.Fatalf("after %d requests the journals hold %d bytes, more than the %d they keep", i+1, got, budget)
		}
	}
	reqs := send(t, srv, "GET", "/__admin/requests", inNamespace("ns-3"), nil).json.Get("requests").Array()
	if len(reqs) == 0 || len(reqs) >= 10 {
		t.Fatalf("namespace ns-3 shows %d entries; want some, and fewer than its 10 requests (2 MiB hold about 30)", len(reqs))
	}
	e := reqs[0]
	wantEq(t, "truncated", e.Get("truncated").Bool(), true)
	if got := len(e.Get("headers.X-Huge").String()); got != 1024 {
		t.Errorf("the 1 MB header is kept as %d bytes, want 1024", got)
	}
	if got := len(e.Get("requestBody").String()); got < 60<<10 || got > 64<<10 {
		t.Errorf("the 512 KiB body is kept as %d bytes, want 64 KiB", got)
	}
}

// Finding "growth": 100k logins were all kept; now a namespace keeps its
// newest sessions (10,000 by default; 50 here), and users, clients and apps
// up to a count, past which a write is refused with 409 and changes nothing.
func TestSessionsBounded(t *testing.T) {
	t.Parallel()
	const kept = 50
	srv := newLimited(t, mockserver.Limits{Sessions: kept})
	first := login(t, srv, emailA, passA)
	second := login(t, srv, emailB, passB)
	for range kept - 2 {
		login(t, srv, emailA, passA)
	}
	wantEq(t, "the first session at the bound", send(t, srv, "GET", "/v1/users/1", sessionHeader(first), nil).status, http.StatusOK)
	newest := login(t, srv, emailA, passA)
	wantError(t, send(t, srv, "GET", "/v1/users/1", sessionHeader(first), nil), http.StatusUnauthorized, "Unauthorized")
	wantEq(t, "the second session", send(t, srv, "GET", "/v1/users/2", sessionHeader(second), nil).status, http.StatusOK)
	wantEq(t, "the newest session", send(t, srv, "GET", "/v1/users/1", sessionHeader(newest), nil).status, http.StatusOK)
	wantEq(t, "sessions kept", usage(t, srv).Get("namespaces.0.sessions").Int(), kept)
	wantEq(t, "the default bound", mockserver.DefaultLimits.Sessions, 10_000)
}

func TestUsersClientsAppsBounded(t *testing.T) {
	t.Parallel()
	// The seed has 2 users, 2 clients and 2 apps.
	srv := newLimited(t, mockserver.Limits{Users: 4, Clients: 4, Apps: 4})
	for i := range 2 {
		mustStatus(t, send(t, srv, "POST", "/v1/users", nil, signUpBody(fmt.Sprintf("new%d@example.com", i))), http.StatusOK, "POST /v1/users")
	}
	before := snapshot(t, srv)
	full := send(t, srv, "POST", "/v1/users", nil, signUpBody("one-more@example.com"))
	wantError(t, full, http.StatusConflict, "LimitReached")
	if msg := full.json.Get("0.message").String(); !strings.Contains(msg, "4 users") || !strings.Contains(msg, "/__admin/reset") {
		t.Errorf("message %q does not say which bound and how to free it", msg)
	}
	// The refused sign-up changed nothing.
	wantSnapshot(t, srv, before)
	login(t, srv, "new0@example.com", "nina-password")

	mustStatus(t, send(t, srv, "POST", "/v1/clients", asA, clientBody()), http.StatusOK, "POST /v1/clients")
	mustStatus(t, send(t, srv, "POST", "/v1/apps", asA, appBody()), http.StatusOK, "POST /v1/apps")
	// A client with its app: both or neither, at 3 clients and 3 apps.
	withApp := with(clientBody(), "app", appBody())
	mustStatus(t, send(t, srv, "POST", "/v1/clients", asA, withApp), http.StatusOK, "POST /v1/clients with an app")
	before = snapshot(t, srv)
	wantError(t, send(t, srv, "POST", "/v1/clients", asA, clientBody()), http.StatusConflict, "LimitReached")
	wantError(t, send(t, srv, "POST", "/v1/apps", asA, appBody()), http.StatusConflict, "LimitReached")
	wantError(t, send(t, srv, "PUT", "/v1/users/1", asA, with(userBodyA(), "client", clientBody())), http.StatusConflict, "LimitReached")
	wantSnapshot(t, srv, before)
	u := usage(t, srv).Get("namespaces.0")
	wantEq(t, "users kept", u.Get("users").Int(), 4)
	wantEq(t, "clients kept", u.Get("clients").Int(), 4)
	wantEq(t, "apps kept", u.Get("apps").Int(), 4)

	// A reset frees them; so does an import of fewer, and a bigger one is
	// refused.
	mustStatus(t, send(t, srv, "POST", "/__admin/reset", nil, nil), http.StatusOK, "POST /__admin/reset")
	mustStatus(t, send(t, srv, "POST", "/v1/clients", asA, clientBody()), http.StatusOK, "POST /v1/clients after the reset")
	users := make([]string, 5)
	for i := range users {
		users[i] = fmt.Sprintf(`{"id":%d,"created":"2026-01-01T00:00:00Z","passwordLastChanged":"2026-01-01T00:00:00Z","email":"u%d@example.com",
		  "password":"password1","firstName":"A","lastName":"B","phoneCountryId":1,"phoneNumber":"1","timezone":"UTC","clientIds":[]}`, i+1, i)
	}
	imp := send(t, srv, "PUT", "/__admin/state", nil, raw(`{"users":[`+strings.Join(users, ",")+`],"clients":[],"apps":[],"sessions":[]}`))
	mustStatus(t, imp, http.StatusConflict, "PUT /__admin/state of 5 users")
	wantErrors(t, imp.json, fe{"users", "LimitReached"})
}

// The data of all namespaces together is bounded too: a namespace's
// counts cannot add up past it, however many namespaces there are.
func TestDataBounded(t *testing.T) {
	t.Parallel()
	const budget = 96 << 10
	srv := newLimited(t, mockserver.Limits{DataBytes: budget})
	long := strings.Repeat("é", 255)
	refused := false
	for i := 0; i < 200 && !refused; i++ {
		body := with(with(signUpBody(fmt.Sprintf("u%d@example.com", i)), "firstName", long), "lastName", long)
		r := send(t, srv, "POST", "/v1/users", inNamespace(fmt.Sprintf("ns-%d", i%3)), body)
		switch r.status {
		case http.StatusOK:
		case http.StatusConflict:
			wantError(t, r, http.StatusConflict, "LimitReached")
			refused = true
		default:
			t.Fatalf("POST /v1/users: %s", r)
		}
		if used := usage(t, srv).Get("usage.dataBytes").Int(); used > budget {
			t.Fatalf("the stores hold %d bytes, more than the %d they keep", used, budget)
		}
	}
	if !refused {
		t.Fatal("200 sign-ups of 2 KiB each fit in 96 KiB")
	}
	// Nor does another namespace's seed; the ones that exist still answer.
	wantError(t, send(t, srv, "GET", "/v1/plans", inNamespace("one-more"), nil), http.StatusConflict, "LimitReached")
	wantEq(t, "a namespace that exists", send(t, srv, "GET", "/v1/plans", inNamespace("ns-0"), nil).status, http.StatusOK)
	// Dropping a namespace gives its share back.
	used := usage(t, srv).Get("usage.dataBytes").Int()
	mustStatus(t, send(t, srv, "DELETE", "/__admin/namespaces/ns-1", nil, nil), http.StatusOK, "DELETE ns-1")
	if after := usage(t, srv).Get("usage.dataBytes").Int(); after >= used {
		t.Errorf("after deleting a namespace the stores hold %d bytes, not less than %d", after, used)
	}
}

// The memory budget the README states holds by construction: the bounds
// of the stores, the journals and the fault rules add up within it.
func TestMemoryBudget(t *testing.T) {
	const budget = 256 << 20
	l := mockserver.DefaultLimits
	const ruleBytes = 32 << 10 // a rule at its bounds, its compiled pattern included (see TestRuleSize)
	if sum := l.DataBytes + l.JournalBytes + int64(l.AllRules)*ruleBytes; sum > budget {
		t.Errorf("the bounds add up to %d MiB, past the %d MiB the README states", sum>>20, budget>>20)
	}
}

// Finding "namespaces": a name was never freed, and "default" was a second
// store; now names are deleted or dropped when idle, and "default" is the
// default store.
func TestNamespaceDefaultAndDelete(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	renameA(t, srv, inNamespace("default"), "ViaHeader")
	wantEq(t, "the default store", firstNameA(t, srv, noAuth), "ViaHeader")
	list := usage(t, srv).Get("namespaces").Array()
	if len(list) != 1 || list[0].Get("name").String() != "default" || list[0].Get("lastUsed").Type != gjson.Null {
		t.Fatalf("namespaces %v; want the default one only", list)
	}

	renameA(t, srv, inNamespace("alice"), "Alice")
	send(t, srv, "GET", "/v1/plans", inNamespace("alice"), nil)
	send(t, srv, "POST", "/__admin/faults", inNamespace("alice"), map[string]any{"path": "/nowhere", "status": 500})
	mustStatus(t, send(t, srv, "DELETE", "/__admin/namespaces/alice", nil, nil), http.StatusOK, "DELETE alice")
	wantEq(t, "a fresh alice", firstNameA(t, srv, inNamespace("alice")), "Quinn")
	wantEq(t, "alice's journal", len(send(t, srv, "GET", "/__admin/requests", inNamespace("alice"), nil).json.Get("requests").Array()), 1)
	wantEq(t, "alice's rules", len(send(t, srv, "GET", "/__admin/faults", inNamespace("alice"), nil).json.Get("faults").Array()), 0)

	wantError(t, send(t, srv, "DELETE", "/__admin/namespaces/nobody", nil, nil), http.StatusNotFound, "NotFound")
	wantError(t, send(t, srv, "DELETE", "/__admin/namespaces/default", nil, nil), http.StatusBadRequest, "InvalidNamespace")
	wantError(t, send(t, srv, "DELETE", "/__admin/namespaces/b%20ad", nil, nil), http.StatusBadRequest, "InvalidNamespace")
	wantEq(t, "the default store after all that", firstNameA(t, srv, noAuth), "ViaHeader")
}

// Finding "journal masking", through the mock: every form of credential
// the issue found leaking is masked in GET /__admin/requests.
func TestJournalMasksEveryForm(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	token := login(t, srv, emailA, passA)
	form := func(ctype string) auth { return header("Content-Type", ctype) }
	multipart := "--XyZ\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\n" + emailA + "\r\n" +
		"--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n" + passA + "\r\n--XyZ--\r\n"
	send(t, srv, "POST", "/v1/sessions", form("Application/X-WWW-Form-Urlencoded"), raw("email=qa%40example.com&password="+passA))
	send(t, srv, "POST", "/v1/sessions", form("multipart/form-data; boundary=XyZ"), raw(multipart))
	send(t, srv, "POST", "/v1/sessions", form("text/plain"), raw(`{"email":"`+emailA+`","password":"`+passA+`"}`))
	send(t, srv, "POST", "/v1/sessions", form("text/plain"), raw("email="+emailA+"&password="+passA))
	send(t, srv, "POST", "/v1/sessions", nil, raw(`{"email":"`+emailA+`","pass\u0077ord":"`+passA))
	send(t, srv, "GET", "/v1/users/1?a=1;sessionToken="+token, nil, nil)
	send(t, srv, "GET", "/v1/users/1", all(header("X-Api-Key", keyA), header("Authorization", "Bearer "+keyA), header("Cookie", "t="+token)), nil)
	r := send(t, srv, "GET", "/__admin/requests", nil, nil)
	mustStatus(t, r, http.StatusOK, "GET /__admin/requests")
	wantEq(t, "entries", len(r.json.Get("requests").Array()), 8)
	for _, secret := range []string{passA, keyA, token} {
		if strings.Contains(string(r.body), secret) {
			t.Errorf("the journal shows the secret %q: %s", secret, r.body)
		}
	}
	wantEq(t, "the query", r.json.Get("requests.1.query").String(), "a=1;sessionToken=***")
	wantEq(t, "the Authorization scheme", r.json.Get("requests.0.headers.Authorization").String(), "Bearer ***")
}

// Finding "admin API": any page could drive it, through any Host. Now a
// Host that is not the mock's own is refused (DNS rebinding), so is a page
// of another origin, null included, unless --cors-origins names it; with
// --admin-token, the token is needed, whatever the Host.
func TestAdminGuard(t *testing.T) {
	t.Parallel()
	open := newServer(t)
	listed, err := mockserver.New(mockserver.Options{CORSOrigins: []string{"http://localhost:3000"}, AdminHosts: []string{"mock.internal"}})
	if err != nil {
		t.Fatal(err)
	}
	token, err := mockserver.New(mockserver.Options{AdminToken: "s3cret-admin"})
	if err != nil {
		t.Fatal(err)
	}
	host := func(h string) auth { return func(r *http.Request) { r.Host = h } }
	origin := func(o string) auth { return header("Origin", o) }
	cases := []struct {
		name   string
		srv    http.Handler
		a      auth
		status int
	}{
		{"loopback address", open, nil, http.StatusOK},
		{"localhost", open, host("localhost:8080"), http.StatusOK},
		{"IPv6 loopback", open, host("[::1]:8080"), http.StatusOK},
		{"a name that rebinds to the mock", open, host("evil.example:8080"), http.StatusForbidden},
		{"no Host", open, host(""), http.StatusForbidden},
		{"a page of another origin", open, origin("http://evil.example"), http.StatusForbidden},
		{"a page of origin null", open, origin("null"), http.StatusForbidden},
		{"the mock's own page", open, origin("http://" + localHost), http.StatusOK},
		{"a listed host", listed, host("mock.internal:8080"), http.StatusOK},
		{"a listed origin", listed, origin("http://localhost:3000"), http.StatusOK},
		{"an origin not listed", listed, origin("http://localhost:5173"), http.StatusForbidden},
		{"no token", token, nil, http.StatusUnauthorized},
		{"a wrong token", token, header("Authorization", "Bearer wrong"), http.StatusUnauthorized},
		{"the token", token, header("Authorization", "Bearer s3cret-admin"), http.StatusOK},
		{"the token, the scheme in lower case", token, header("Authorization", "bearer s3cret-admin"), http.StatusOK},
		{"the API key of a user", token, header("Authorization", "api-key "+keyA), http.StatusUnauthorized},
		{"the token through another host", token, all(header("Authorization", "Bearer s3cret-admin"), host("mock.example.com")), http.StatusOK},
		{"the token from a page of another origin", token, all(header("Authorization", "Bearer s3cret-admin"), origin("http://evil.example")), http.StatusForbidden},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, call := range []struct{ method, path string }{{"GET", "/__admin/state"}, {"POST", "/__admin/reset"}, {"GET", "/__admin/namespaces"}} {
				r := send(t, tc.srv, call.method, call.path, tc.a, nil)
				if r.status != tc.status {
					t.Errorf("%s %s: %s, want %d", call.method, call.path, r, tc.status)
				}
				if r.status != http.StatusOK && r.header.Get("Access-Control-Allow-Origin") != "" {
					t.Errorf("%s %s refused, yet readable by %q", call.method, call.path, r.header.Get("Access-Control-Allow-Origin"))
				}
			}
		})
	}
	// The API itself answers any host and, by default, any origin.
	r := send(t, open, "GET", "/v1/plans", all(host("evil.example"), origin("null")), nil)
	mustStatus(t, r, http.StatusOK, "GET /v1/plans from anywhere")
	wantEq(t, "CORS of the API", r.header.Get("Access-Control-Allow-Origin"), "null")
}

// The home page shows the demo accounts' secrets only where the admin API
// answers: on the mock's own host, to no page of another origin.
func TestHomeShowsSecretsWhereAdminAnswers(t *testing.T) {
	t.Parallel()
	off, err := mockserver.New(mockserver.Options{NoAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	on := newServer(t)
	tokened, err := mockserver.New(mockserver.Options{AdminToken: "home-admin-token"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tokened.Close() })
	cases := []struct {
		name    string
		srv     http.Handler
		host    string
		origin  string
		secrets bool
	}{
		{"on its own host", on, localHost, "", true},
		{"through another name", on, "evil.example", "", false},
		{"read by a page of another origin", on, localHost, "http://evil.example", false},
		{"without the admin API", off, localHost, "", false},
		{"admin API behind a token, on its own host", tokened, localHost, "", false},
		{"admin API behind a token, on a shared address", tokened, "10.0.0.5:8080", "", false},
	}
	for _, tc := range cases {
		req := httptest.NewRequest("GET", "/", nil)
		req.Host = tc.host
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		rec := httptest.NewRecorder()
		tc.srv.ServeHTTP(rec, req)
		body := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.Contains(body, emailA) {
			t.Fatalf("%s: GET / answered %d without the demo emails", tc.name, rec.Code)
		}
		for _, secret := range []string{passA, keyA, passB, keyB} {
			if strings.Contains(body, secret) != tc.secrets {
				t.Errorf("%s: the page shows %q: %v, want %v", tc.name, secret, !tc.secrets, tc.secrets)
			}
		}
	}
}
