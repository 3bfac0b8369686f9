package mockserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver"
)

func inNamespace(name string) auth { return header(mockserver.NamespaceHeader, name) }

// renameA changes account A's first name through the API.
func renameA(t *testing.T, h http.Handler, ns auth, name string) {
	t.Helper()
	r := send(t, h, "PUT", "/v1/users/1", all(asA, ns), with(userBodyA(), "firstName", name))
	mustStatus(t, r, http.StatusOK, "PUT /v1/users/1")
}

func firstNameA(t *testing.T, h http.Handler, ns auth) string {
	t.Helper()
	r := send(t, h, "GET", "/v1/users/1", all(asA, ns), nil)
	mustStatus(t, r, http.StatusOK, "GET /v1/users/1")
	return r.json.Get("firstName").String()
}

// noAuth is an empty credential, for requests that need none.
func noAuth(*http.Request) {}

// POST /__admin/reset puts the store back to the seed.
func TestAdminReset(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	renameA(t, srv, noAuth, "Changed")
	r := send(t, srv, "POST", "/__admin/reset", nil, nil)
	mustStatus(t, r, http.StatusOK, "POST /__admin/reset")
	wantEq(t, "reset namespace", r.json.Get("namespace").String(), "default")
	wantEq(t, "firstName after reset", firstNameA(t, srv, noAuth), "Quinn")
}

// GET /__admin/state exports the store; PUT imports it back, credentials
// included (hashed under the mock's secret), and the API then serves the
// imported data; another namespace of the mock takes it too. Another mock,
// with another secret, refuses it: its hashes could never match.
func TestAdminStateRoundTrip(t *testing.T) {
	t.Parallel()
	src := newServer(t)
	renameA(t, src, noAuth, "Exported")
	token := login(t, src, emailA, passA)
	r := send(t, src, "GET", "/__admin/state", nil, nil)
	mustStatus(t, r, http.StatusOK, "GET /__admin/state")
	if strings.Contains(string(r.body), passA) || strings.Contains(string(r.body), keyA) || strings.Contains(string(r.body), token) {
		t.Fatalf("the export carries a secret in plain text: %s", r.body)
	}
	wantEq(t, "users exported", len(r.json.Get("users").Array()), 2)
	wantEq(t, "sessions exported", len(r.json.Get("sessions").Array()), 1)

	for _, ns := range []auth{noAuth, inNamespace("other")} {
		mustStatus(t, send(t, src, "POST", "/__admin/reset", ns, nil), http.StatusOK, "POST /__admin/reset")
		put := send(t, src, "PUT", "/__admin/state", ns, raw(r.body))
		mustStatus(t, put, http.StatusOK, "PUT /__admin/state")
		wantEq(t, "imported firstName (api key)", firstNameA(t, src, ns), "Exported")
		got := send(t, src, "GET", "/v1/users/1", all(sessionHeader(token), ns), nil)
		mustStatus(t, got, http.StatusOK, "GET /v1/users/1 with the exported session's token")
		got = send(t, src, "POST", "/v1/sessions", ns, map[string]any{"email": emailA, "password": passA})
		mustStatus(t, got, http.StatusOK, "POST /v1/sessions with the exported password")
	}

	dst := newServer(t)
	before := send(t, dst, "GET", "/__admin/state", nil, nil)
	put := send(t, dst, "PUT", "/__admin/state", nil, raw(r.body))
	mustStatus(t, put, http.StatusBadRequest, "PUT /__admin/state of another mock")
	wantErrors(t, put.json, fe{"secretId", "InvalidState"})
	wantEq(t, "refused import changes nothing", string(send(t, dst, "GET", "/__admin/state", nil, nil).body), string(before.body))
}

// A hand-written state with plain credentials is hashed on import and works.
func TestAdminStatePlainCredentials(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	doc := `{"users":[{"id":7,"created":"2026-01-01T00:00:00Z","passwordLastChanged":"2026-01-01T00:00:00Z",
	  "email":"dev@example.com","password":"dev-password","apiKeys":["dev-key"],"firstName":"Dev","lastName":"Eloper",
	  "phoneCountryId":1,"phoneNumber":"7700900000","phoneExtension":null,"timezone":"UTC","clientIds":[3]}],
	 "clients":[{"id":3,"createdDate":"2026-01-01T00:00:00Z","name":"Dev Ltd","addressLine1":"1 Road","addressCity":"Leeds",
	  "addressPostcode":"LS1","addressCountry":"GB","currencyId":2}],
	 "apps":[], "sessions":[{"id":1,"created":"2026-01-01T00:00:00Z","userId":7,"clientId":3,"token":"known-token"}]}`
	r := send(t, srv, "PUT", "/__admin/state", nil, raw(doc))
	mustStatus(t, r, http.StatusOK, "PUT /__admin/state")
	if strings.Contains(string(r.body), "dev-password") || strings.Contains(string(r.body), "known-token") {
		t.Errorf("the answer carries a plain secret: %s", r.body)
	}
	wantEq(t, "user via api key", send(t, srv, "GET", "/v1/users/7", apiKey("dev-key"), nil).json.Get("firstName").String(), "Dev")
	wantEq(t, "user via known token", send(t, srv, "GET", "/v1/users/7", sessionHeader("known-token"), nil).status, http.StatusOK)
	login(t, srv, "dev@example.com", "dev-password")
	// The seed's users are gone.
	wantError(t, send(t, srv, "GET", "/v1/users/1", asA, nil), http.StatusUnauthorized, "Unauthorized")
	// New ids continue after the imported ones.
	created := send(t, srv, "POST", "/v1/clients", apiKey("dev-key"), clientBody())
	mustStatus(t, created, http.StatusOK, "POST /v1/clients")
	wantEq(t, "next client id", created.json.Get("id").Int(), 4)
}

// A bad state document is refused with the error array and changes nothing.
func TestAdminStateRefused(t *testing.T) {
	t.Parallel()
	user := func(edit string) string {
		u := `{"id":1,"created":"2026-01-01T00:00:00Z","passwordLastChanged":"2026-01-01T00:00:00Z","email":"a@example.com",
		  "password":"password1","firstName":"A","lastName":"B","phoneCountryId":1,"phoneNumber":"1","timezone":"UTC","clientIds":[]` + edit + `}`
		return `{"users":[` + u + `],"clients":[],"apps":[],"sessions":[]}`
	}
	cases := []struct {
		name, doc, field string
	}{
		{"not JSON", `{"users":`, ""},
		{"empty", ``, ""},
		{"an array", `[]`, ""},
		{"unknown field", `{"userz":[]}`, ""},
		{"two values", `{} {}`, ""},
		{"unknown phone country", strings.Replace(user(""), `"phoneCountryId":1`, `"phoneCountryId":99`, 1), "users[0].phoneCountryId"},
		{"unknown client", strings.Replace(user(""), `"clientIds":[]`, `"clientIds":[5]`, 1), "users[0].clientIds[0]"},
		{"bad email", strings.Replace(user(""), `a@example.com`, `nope`, 1), "users[0].email"},
		{"no password", strings.Replace(user(""), `"password":"password1",`, ``, 1), "users[0].passwordHash"},
		{"short password", strings.Replace(user(""), `password1`, `pw`, 1), "users[0].password"},
		{"session of nobody", `{"users":[],"clients":[],"apps":[],"sessions":[{"id":1,"created":"2026-01-01T00:00:00Z","userId":9,"token":"t"}]}`, "sessions[0].userId"},
		{"app of no client", `{"users":[],"clients":[],"sessions":[],"apps":[{"id":1,"created":"2026-01-01T00:00:00Z","clientId":4,"name":"X","platformId":1,"planId":1,"marketappHash":null,"writeKey":"00000000000000000000000000000000"}]}`, "apps[0].clientId"},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			before := send(t, srv, "GET", "/__admin/state", nil, nil)
			r := send(t, srv, "PUT", "/__admin/state", nil, raw(tc.doc))
			mustStatus(t, r, http.StatusBadRequest, "PUT /__admin/state")
			errs := r.json.Array()
			if len(errs) == 0 {
				t.Fatalf("answer %s is not a non-empty error array", r)
			}
			wantEq(t, "error code", errs[0].Get("error").String(), "InvalidState")
			if errs[0].Get("message").String() == "" {
				t.Errorf("error without a message: %s", r)
			}
			if tc.field != "" && !strings.Contains(r.json.Raw, `"fieldName":"`+tc.field+`"`) {
				t.Errorf("errors %s do not name %s", r, tc.field)
			}
			after := send(t, srv, "GET", "/__admin/state", nil, nil)
			if string(after.body) != string(before.body) {
				t.Errorf("a refused state changed the store:\nbefore %s\nafter  %s", before.body, after.body)
			}
			wantEq(t, "firstName", firstNameA(t, srv, noAuth), "Quinn")
		})
	}
}

// The journal records API requests, newest first, with secrets masked.
func TestAdminJournalMasks(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	token := login(t, srv, emailA, passA)
	send(t, srv, "POST", "/v1/sessions", nil, url.Values{"email": {emailA}, "password": {passA}})
	send(t, srv, "POST", "/v1/sessions", nil, raw(`{"email":"x@example.com","password":"broken-`+passA))
	send(t, srv, "PUT", "/v1/users/1", all(sessionHeader(token), asA), with(userBodyA(), "password", "new-password1"))
	send(t, srv, "GET", "/v1/users/1?sessionToken="+token+"&x=1", nil, nil)
	send(t, srv, "GET", "/__admin/faults", nil, nil) // admin calls are not journaled

	r := send(t, srv, "GET", "/__admin/requests", nil, nil)
	mustStatus(t, r, http.StatusOK, "GET /__admin/requests")
	for _, secret := range []string{passA, token, keyA, "new-password1"} {
		if strings.Contains(string(r.body), secret) {
			t.Errorf("the journal shows the secret %q: %s", secret, r.body)
		}
	}
	reqs := r.json.Get("requests").Array()
	if len(reqs) != 5 {
		t.Fatalf("%d journal entries, want 5: %s", len(reqs), r.body)
	}
	last := reqs[0]
	wantEq(t, "newest method", last.Get("method").String(), "GET")
	wantEq(t, "newest path", last.Get("path").String(), "/v1/users/1")
	wantEq(t, "newest query", last.Get("query").String(), "sessionToken=***&x=1")
	wantEq(t, "newest status", last.Get("status").Int(), 200)
	wantEq(t, "newest response firstName", last.Get("responseBody.firstName").String(), "Quinn")
	if !last.Get("durationMs").Exists() || last.Get("durationMs").Float() < 0 {
		t.Errorf("no durationMs in %s", last.Raw)
	}
	put := reqs[1]
	wantEq(t, "PUT password", put.Get("requestBody.password").String(), "***")
	wantEq(t, "PUT firstName kept", put.Get("requestBody.firstName").String(), "Quinn")
	wantEq(t, "PUT Authorization", put.Get("headers.Authorization").String(), "api-key ***")
	wantEq(t, "PUT session-token", put.Get("headers.Session-Token").String(), "***")
	wantEq(t, "broken JSON body masked", strings.Contains(reqs[2].Get("requestBody").String(), `"password":"***"`), true)
	wantEq(t, "form body masked", reqs[3].Get("requestBody").String(), "email=qa%40example.com&password=***")
	login := reqs[4]
	wantEq(t, "login password", login.Get("requestBody.password").String(), "***")
	wantEq(t, "login token", login.Get("responseBody.token").String(), "***")
	wantEq(t, "login response id kept", login.Get("responseBody.userId").Int(), 1)

	cleared := send(t, srv, "DELETE", "/__admin/requests", nil, nil)
	mustStatus(t, cleared, http.StatusOK, "DELETE /__admin/requests")
	wantEq(t, "deleted", cleared.json.Get("deleted").Int(), 5)
	wantEq(t, "entries after DELETE", len(send(t, srv, "GET", "/__admin/requests", nil, nil).json.Get("requests").Array()), 0)
}

// The journal keeps the last 1000 requests.
func TestAdminJournalBounded(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	for range 1005 {
		send(t, srv, "GET", "/v1/plans", nil, nil)
	}
	reqs := send(t, srv, "GET", "/__admin/requests", nil, nil).json.Get("requests").Array()
	wantEq(t, "entries", len(reqs), 1000)
	wantEq(t, "newest id", reqs[0].Get("id").Int(), 1005)
	wantEq(t, "oldest id", reqs[999].Get("id").Int(), 6)
}

// A fault rule answers its status for the next N matching requests, then
// the API answers again; other methods and paths are untouched.
func TestAdminFaultRuleCount(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	r := send(t, srv, "POST", "/__admin/faults", nil, map[string]any{"method": "GET", "path": "/v1*/users/*", "status": 503, "times": 2})
	mustStatus(t, r, http.StatusCreated, "POST /__admin/faults")
	id := r.json.Get("id").Int()
	wantEq(t, "remaining", r.json.Get("remaining").Int(), 2)

	wantEq(t, "other method", send(t, srv, "PUT", "/v1/users/1", asA, userBodyA()).status, http.StatusOK)
	wantEq(t, "other path", send(t, srv, "GET", "/v1/users/1/clients", asA, nil).status, http.StatusOK)
	first := send(t, srv, "GET", "/v1.0/users/1", asA, nil)
	wantError(t, first, http.StatusServiceUnavailable, "InjectedFault")
	list := send(t, srv, "GET", "/__admin/faults", nil, nil).json.Get("faults").Array()
	if len(list) != 1 || list[0].Get("id").Int() != id || list[0].Get("remaining").Int() != 1 || list[0].Get("matched").Int() != 1 {
		t.Fatalf("rules after one match: %v", list)
	}
	wantError(t, send(t, srv, "GET", "/v1/users/2", asA, nil), http.StatusServiceUnavailable, "InjectedFault")
	wantEq(t, "after the count", send(t, srv, "GET", "/v1/users/1", asA, nil).status, http.StatusOK)
	wantEq(t, "rules left", len(send(t, srv, "GET", "/__admin/faults", nil, nil).json.Get("faults").Array()), 0)
}

// A rule without a count lasts until it is removed, and answers its body.
func TestAdminFaultRuleBodyAndRemoval(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	body := []map[string]string{{"fieldName": "", "error": "Unauthorized", "message": "token expired"}}
	r := send(t, srv, "POST", "/__admin/faults", nil, map[string]any{"path": "/v1/**", "status": 401, "body": body})
	mustStatus(t, r, http.StatusCreated, "POST /__admin/faults")
	for range 3 {
		got := send(t, srv, "GET", "/v1/clients/1/apps", asA, nil)
		wantEq(t, "status", got.status, http.StatusUnauthorized)
		wantEq(t, "message", got.json.Get("0.message").String(), "token expired")
	}
	id := r.json.Get("id").String()
	wantEq(t, "DELETE the rule", send(t, srv, "DELETE", "/__admin/faults/"+id, nil, nil).status, http.StatusOK)
	wantError(t, send(t, srv, "DELETE", "/__admin/faults/"+id, nil, nil), http.StatusNotFound, "NotFound")
	wantEq(t, "after removal", send(t, srv, "GET", "/v1/clients/1/apps", asA, nil).status, http.StatusOK)

	send(t, srv, "POST", "/__admin/faults", nil, map[string]any{"path": "/v1/plans", "status": 500})
	send(t, srv, "POST", "/__admin/faults", nil, map[string]any{"path": "/v1/platforms", "status": 500})
	wantError(t, send(t, srv, "GET", "/v1/plans", nil, nil), http.StatusInternalServerError, "InternalError")
	cleared := send(t, srv, "DELETE", "/__admin/faults", nil, nil)
	wantEq(t, "deleted", cleared.json.Get("deleted").Int(), 2)
	wantEq(t, "after DELETE all", send(t, srv, "GET", "/v1/plans", nil, nil).status, http.StatusOK)
}

func TestAdminFaultRuleRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		body  any
		field string
	}{
		{"no path", map[string]any{"status": 500}, "path"},
		{"relative path", map[string]any{"path": "v1/users", "status": 500}, "path"},
		{"neither status nor delay", map[string]any{"path": "/v1/users"}, "status"},
		{"status out of range", map[string]any{"path": "/v1/users", "status": 99}, "status"},
		{"delay beyond the cap", map[string]any{"path": "/v1/users", "delay": "61s"}, "delay"},
		{"delay not a duration", map[string]any{"path": "/v1/users", "delay": "soon"}, "delay"},
		{"negative times", map[string]any{"path": "/v1/users", "status": 500, "times": -1}, "times"},
		{"unknown field", map[string]any{"path": "/v1/users", "status": 500, "count": 1}, ""},
		{"body without status", map[string]any{"path": "/v1/users", "delay": "1s", "body": "x"}, "body"},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			r := send(t, srv, "POST", "/__admin/faults", nil, tc.body)
			mustStatus(t, r, http.StatusBadRequest, "POST /__admin/faults")
			if !r.json.IsArray() || len(r.json.Array()) == 0 {
				t.Fatalf("answer %s is not an error array", r)
			}
			if tc.field != "" && !strings.Contains(r.json.Raw, `"fieldName":"`+tc.field+`"`) {
				t.Errorf("errors %s do not name %s", r, tc.field)
			}
			wantEq(t, "rules", len(send(t, srv, "GET", "/__admin/faults", nil, nil).json.Get("faults").Array()), 0)
		})
	}
}

// X-Mock-Status answers that status instead of the API's answer.
func TestMockStatusHeader(t *testing.T) {
	t.Parallel()
	cases := []struct {
		value  string
		status int
		code   string
	}{
		{"503", 503, "InjectedFault"},
		{"500", 500, "InternalError"},
		{"401", 401, "Unauthorized"},
		{"oops", 400, "InvalidMockHeader"},
		{"700", 400, "InvalidMockHeader"},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.value, func(t *testing.T, srv http.Handler) {
			r := send(t, srv, "PUT", "/v1/users/1", all(asA, header(mockserver.StatusHeader, tc.value)), with(userBodyA(), "firstName", "Never"))
			wantError(t, r, tc.status, tc.code)
			wantEq(t, "firstName not changed", firstNameA(t, srv, noAuth), "Quinn")
		})
	}
}

// With NoAdmin there is no /__admin, no journal, and X-Mock-* are ignored.
func TestNoAdmin(t *testing.T) {
	t.Parallel()
	srv, err := mockserver.New(mockserver.Options{NoAdmin: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/__admin/requests", "/__admin/state", "/__admin/faults"} {
		wantError(t, send(t, srv, "GET", p, nil, nil), http.StatusNotFound, "NotFound")
	}
	wantError(t, send(t, srv, "POST", "/__admin/reset", nil, nil), http.StatusNotFound, "NotFound")
	r := send(t, srv, "GET", "/v1/plans", all(header(mockserver.StatusHeader, "503"), header(mockserver.DelayHeader, "59s")), nil)
	wantEq(t, "X-Mock-Status ignored", r.status, http.StatusOK)
}

// Each namespace has its own store, seeded on first use, and its own
// journal and rules; admin calls act on the namespace of their header.
func TestNamespacesIsolated(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	renameA(t, srv, inNamespace("alice"), "Alice")
	wantEq(t, "alice sees her change", firstNameA(t, srv, inNamespace("alice")), "Alice")
	wantEq(t, "bob starts from the seed", firstNameA(t, srv, inNamespace("bob")), "Quinn")
	wantEq(t, "default untouched", firstNameA(t, srv, noAuth), "Quinn")
	// A session opened in one namespace is unknown in another.
	token := login(t, srv, emailA, passA)
	wantError(t, send(t, srv, "GET", "/v1/users/1", all(sessionHeader(token), inNamespace("alice")), nil), http.StatusUnauthorized, "Unauthorized")

	send(t, srv, "POST", "/__admin/faults", inNamespace("bob"), map[string]any{"path": "/v1/plans", "status": 500})
	wantEq(t, "bob's rule", send(t, srv, "GET", "/v1/plans", inNamespace("bob"), nil).status, 500)
	wantEq(t, "not alice's", send(t, srv, "GET", "/v1/plans", inNamespace("alice"), nil).status, 200)

	state := send(t, srv, "GET", "/__admin/state", inNamespace("alice"), nil)
	wantEq(t, "alice's state", state.json.Get(`users.#(id==1).firstName`).String(), "Alice")
	journal := send(t, srv, "GET", "/__admin/requests", inNamespace("bob"), nil).json.Get("requests").Array()
	for _, e := range journal {
		if e.Get("headers.X-Mock-Namespace").String() != "bob" {
			t.Errorf("bob's journal holds a request of another namespace: %s", e.Raw)
		}
	}
	wantEq(t, "bob's journal", len(journal), 2)

	send(t, srv, "POST", "/__admin/reset", inNamespace("alice"), nil)
	wantEq(t, "alice after her reset", firstNameA(t, srv, inNamespace("alice")), "Quinn")
}

func TestNamespaceNameRefused(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"has space", "slash/y", strings.Repeat("n", 65), "é"} {
		onOwnServer(t, name, func(t *testing.T, srv http.Handler) {
			wantError(t, send(t, srv, "GET", "/v1/plans", inNamespace(name), nil), http.StatusBadRequest, "InvalidNamespace")
			wantError(t, send(t, srv, "GET", "/__admin/state", inNamespace(name), nil), http.StatusBadRequest, "InvalidNamespace")
		})
	}
	srv := newServer(t)
	wantEq(t, "64 characters", send(t, srv, "GET", "/v1/plans", inNamespace(strings.Repeat("n", 64)), nil).status, http.StatusOK)
}

// The namespaces are bounded: past 1000, a new name is refused with 409,
// known ones still work, and deleting one makes room for another. (One
// client makes them all here: its rate is raised past 1000 a minute.)
func TestNamespacesBounded(t *testing.T) {
	t.Parallel()
	srv := newLimited(t, mockserver.Limits{NamespaceRate: 2000})
	for i := range 1000 {
		mustStatus(t, send(t, srv, "GET", "/v1/plans", inNamespace("ns-"+itoa(i)), nil), http.StatusOK, "namespace "+itoa(i))
	}
	wantError(t, send(t, srv, "GET", "/v1/plans", inNamespace("one-more"), nil), http.StatusConflict, "LimitReached")
	wantEq(t, "a known one", send(t, srv, "GET", "/v1/plans", inNamespace("ns-7"), nil).status, http.StatusOK)
	wantEq(t, "the default", send(t, srv, "GET", "/v1/plans", nil, nil).status, http.StatusOK)
	wantEq(t, "namespaces listed", len(send(t, srv, "GET", "/__admin/namespaces", nil, nil).json.Get("namespaces").Array()), 1001)

	mustStatus(t, send(t, srv, "DELETE", "/__admin/namespaces/ns-7", nil, nil), http.StatusOK, "DELETE /__admin/namespaces/ns-7")
	wantEq(t, "one more after a delete", send(t, srv, "GET", "/v1/plans", inNamespace("one-more"), nil).status, http.StatusOK)
	wantError(t, send(t, srv, "GET", "/v1/plans", inNamespace("two-more"), nil), http.StatusConflict, "LimitReached")
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// A wrong method answers 405 with an Allow header of the path's methods.
func TestMethodNotAllowedAllow(t *testing.T) {
	t.Parallel()
	cases := []struct{ method, path, allow string }{
		{"DELETE", "/v1/users/1", "GET, PUT"},
		{"GET", "/v1/sessions", "POST"},
		{"PUT", "/v1.0/apps", "POST"},
		{"POST", "/v1/platforms", "GET"},
	}
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			t.Parallel()
			r := send(t, newServer(t), tc.method, tc.path, asA, nil)
			wantError(t, r, http.StatusMethodNotAllowed, "MethodNotAllowed")
			wantEq(t, "Allow", r.header.Get("Allow"), tc.allow)
		})
	}
}

// An unknown route answers 404 naming the closest route when closestRoute
// finds one (docs.go); the message is the API's error array either way.
func TestUnknownRouteNamesClosest(t *testing.T) {
	t.Parallel()
	r := send(t, newServer(t), "GET", "/v1/platform", nil, nil)
	wantError(t, r, http.StatusNotFound, "NotFound")
	msg := r.json.Get("0.message").String()
	if !strings.HasPrefix(msg, "There is no such endpoint.") {
		t.Errorf("message %q", msg)
	}
	if strings.Contains(msg, "Did you mean") && !strings.Contains(msg, "/v1/platforms") {
		t.Errorf("message %q suggests another route than GET /v1/platforms", msg)
	}
}

// CORS runs first: a preflight to an authenticated route needs no
// credentials and escapes fault rules; CORSOrigins restricts the origins.
func TestCORSWiring(t *testing.T) {
	t.Parallel()
	srv, err := mockserver.New(mockserver.Options{CORSOrigins: []string{"http://localhost:3000"}})
	if err != nil {
		t.Fatal(err)
	}
	send(t, srv, "POST", "/__admin/faults", nil, map[string]any{"path": "/**", "status": 500})
	preflight := func(origin string) *http.Response {
		req := httptest.NewRequest("OPTIONS", "/v1/users/1", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "PUT")
		req.Header.Set("Access-Control-Request-Headers", "session-token, content-type")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Result()
	}
	ok := preflight("http://localhost:3000")
	if ok.StatusCode != http.StatusNoContent || ok.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" {
		t.Errorf("preflight from the allowed origin: %d %v", ok.StatusCode, ok.Header)
	}
	other := preflight("http://evil.example")
	if other.Header.Get("Access-Control-Allow-Origin") != "" || other.StatusCode == http.StatusNoContent {
		t.Errorf("preflight from another origin: %d %v", other.StatusCode, other.Header)
	}
	wantEq(t, "preflights journaled", len(send(t, srv, "GET", "/__admin/requests", nil, nil).json.Get("requests").Array()), 0)
}
