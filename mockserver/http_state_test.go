package mockserver_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver"
)

// Nothing invalid changes state (issue 2): a request refused for any reason
// leaves every readable resource as it was, creates no account, and uses up
// no id, so the next valid create gets the id a fresh server would give.
func TestRefusedRequestsChangeNothing(t *testing.T) {
	t.Parallel()
	badApp := with(appBody(), "marketapp.hash", strings.Repeat("0", 40))
	cases := []struct {
		name, method, path string
		as                 auth
		body               any
		status             int
	}{
		{"POST /clients with a valid client and an invalid app", "POST", "/v1/clients", asA, with(clientBody(), "app", badApp), 400},
		{"POST /users with a valid user and client and an invalid app", "POST", "/v1/users", nil,
			with(signUpBody("ghost@example.com"), "client", with(clientBody(), "app", badApp)), 400},
		{"POST /users with a valid user and an invalid client", "POST", "/v1/users", nil,
			with(signUpBody("ghost@example.com"), "client", with(clientBody(), "currency.id", 7)), 400},
		{"PUT /users with valid changes and one invalid field", "PUT", "/v1/users/1", asA,
			with(with(with(userBodyA(), "firstName", "Changed"), "password", "new-password"), "phoneExtension", "x"), 400},
		{"PUT /users with a valid user and an invalid client", "PUT", "/v1/users/1", asA,
			with(with(userBodyA(), "lastName", "Changed"), "client", with(clientBody(), "terms", "")), 400},
		{"PUT /users with a valid user, client and an invalid app", "PUT", "/v1/users/1", asA,
			with(with(userBodyA(), "lastName", "Changed"), "client", with(clientBody(), "app", badApp)), 400},
		{"PUT /clients with valid changes and an app", "PUT", "/v1/clients/1", asA, with(clientBody1(), "app", appBody()), 400},
		{"POST /apps with an unknown plan", "POST", "/v1/apps", asA, with(appBody(), "nextplan.id", 9), 400},
		{"PUT /users of another user", "PUT", "/v1/users/2", asA, with(userBodyB(), "firstName", "Changed"), 403},
		{"PUT /clients of another client", "PUT", "/v1/clients/1", asB, with(clientBody1(), "name", "Changed"), 403},
		{"POST /clients unauthenticated", "POST", "/v1/clients", apiKey("bad"), with(clientBody(), "app", appBody()), 401},
		{"POST /apps unauthenticated", "POST", "/v1/apps", nil, appBody(), 401},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			before := snapshot(t, srv)
			r := send(t, srv, tc.method, tc.path, tc.as, tc.body)
			mustStatus(t, r, tc.status, tc.method+" "+tc.path)
			wantSnapshot(t, srv, before)
			login(t, srv, emailA, passA)
			wantError(t, send(t, srv, "POST", "/v1/sessions", nil, url.Values{"email": {"ghost@example.com"}, "password": {"nina-password"}}),
				http.StatusUnauthorized, "Unauthorized")

			// The next creates get the ids they would get on an untouched server.
			fresh := newServer(t)
			for _, next := range []struct {
				method, path string
				as           auth
				body         any
			}{
				{"POST", "/v1/users", nil, with(signUpBody("ghost@example.com"), "client", with(clientBody(), "app", appBody()))},
				{"POST", "/v1/clients", asA, clientBody()},
				{"POST", "/v1/apps", asA, appBody()},
			} {
				got := send(t, srv, next.method, next.path, next.as, next.body)
				want := send(t, fresh, next.method, next.path, next.as, next.body)
				mustStatus(t, got, http.StatusOK, next.method+" "+next.path+" after the refusal")
				wantEq(t, next.method+" "+next.path+" id", got.json.Get("id").Int(), want.json.Get("id").Int())
			}
		})
	}
}

// Options.Seed: two servers with the same seed answer the same sequence of
// requests byte for byte (ids, write keys, tokens, dates); another seed gives
// other tokens and write keys.
func TestSeedDeterminism(t *testing.T) {
	t.Parallel()
	steps := []struct {
		method, path string
		as           auth
		body         any
	}{
		{"POST", "/v1/sessions", nil, map[string]any{"email": emailA, "password": passA}},
		{"POST", "/v1/sessions", nil, url.Values{"email": {emailB}, "password": {passB}}},
		{"GET", "/v1/platforms", nil, nil},
		{"POST", "/v1/apps", asA, appBody()},
		{"POST", "/v1/clients", asA, with(clientBody(), "app", appBody())},
		{"POST", "/v1/users", nil, with(signUpBody("seeded@example.com"), "client", with(clientBody(), "app", appBody()))},
		{"PUT", "/v1/users/1", asA, with(userBodyA(), "password", "changed-password")},
		{"PUT", "/v1/clients/1", asA, clientBody1()},
		{"POST", "/v1/sessions", nil, map[string]any{"email": emailA, "password": "changed-password"}},
		{"GET", "/v1/users/1", asA, nil},
		{"GET", "/v1/clients/1/apps", asA, nil},
	}
	run := func(seed int64) []string {
		srv := newSeeded(t, seed)
		var out []string
		for _, s := range steps {
			r := send(t, srv, s.method, s.path, s.as, s.body)
			mustStatus(t, r, http.StatusOK, s.method+" "+s.path)
			out = append(out, string(r.body))
		}
		return out
	}
	first, second, other := run(42), run(42), run(43)
	for i := range steps {
		if first[i] != second[i] {
			t.Errorf("step %d (%s %s) differs under the same seed:\n%s\n%s", i, steps[i].method, steps[i].path, first[i], second[i])
		}
	}
	// Step 0 carries a token, step 3 a write key.
	for _, i := range []int{0, 3} {
		if first[i] == other[i] {
			t.Errorf("step %d (%s %s) is the same under seeds 42 and 43: %s", i, steps[i].method, steps[i].path, first[i])
		}
	}
}

// Without a seed, tokens and write keys come from crypto/rand: two servers
// never agree.
func TestUnseededValuesDiffer(t *testing.T) {
	t.Parallel()
	a, b := newServer(t), newServer(t)
	wantDiff := func(what string, x, y string) {
		t.Helper()
		if x == y {
			t.Errorf("two unseeded servers give the same %s %q", what, x)
		}
	}
	wantDiff("token", login(t, a, emailA, passA), login(t, b, emailA, passA))
	_, appA := do(t, a, "POST", "/v1/apps", asA, appBody())
	_, appB := do(t, b, "POST", "/v1/apps", asA, appBody())
	wantDiff("write key", appA.Get("writeKey").String(), appB.Get("writeKey").String())
}

// records keeps every log record; it is safe for concurrent use.
type records struct {
	mu   sync.Mutex
	recs []map[string]string
}

func (h *records) Enabled(context.Context, slog.Level) bool { return true }
func (h *records) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *records) WithGroup(string) slog.Handler            { return h }
func (h *records) Handle(_ context.Context, r slog.Record) error {
	m := map[string]string{"msg": r.Message}
	r.Attrs(func(a slog.Attr) bool {
		m[a.Key] = a.Value.String()
		return true
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recs = append(h.recs, m)
	return nil
}

// Options.Logger: one line per request with method, path, status and
// duration; never a credential, a password or the query.
func TestRequestLog(t *testing.T) {
	t.Parallel()
	h := &records{}
	srv, err := mockserver.New(mockserver.Options{Logger: slog.New(h)})
	if err != nil {
		t.Fatal(err)
	}
	tok := login(t, srv, emailA, passA)
	send(t, srv, "GET", "/v1/users/1", sessionQuery(tok), nil)
	send(t, srv, "PUT", "/v1/users/1", all(asA, sessionHeader(tok)), with(userBodyA(), "password", "secret-new-pass"))
	send(t, srv, "POST", "/v1/sessions", nil, url.Values{"email": {emailB}, "password": {"wrong-password"}})
	send(t, srv, "GET", "/v2/nothing", nil, nil)

	want := []struct {
		method, path, status string
	}{
		{"POST", "/v1/sessions", "200"},
		{"GET", "/v1/users/1", "200"},
		{"PUT", "/v1/users/1", "200"},
		{"POST", "/v1/sessions", "401"},
		{"GET", "/v2/nothing", "404"},
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.recs) != len(want) {
		t.Fatalf("%d log records, want %d: %v", len(h.recs), len(want), h.recs)
	}
	secrets := []string{tok, passA, keyA, "secret-new-pass", "wrong-password", "sessionToken"}
	for i, w := range want {
		rec := h.recs[i]
		var values []string
		for _, v := range rec {
			values = append(values, v)
			for _, s := range secrets {
				if strings.Contains(v, s) {
					t.Errorf("log record %d carries %q: %v", i, s, rec)
				}
			}
		}
		for _, v := range []string{w.method, w.path, w.status} {
			if !slices.Contains(values, v) {
				t.Errorf("log record %d has no value %q: %v", i, v, rec)
			}
		}
		if _, ok := rec["duration"]; !ok {
			t.Errorf("log record %d has no duration: %v", i, rec)
		}
	}
}

// Also found: a mock started with --cors-origins logged nothing when it
// refused a browser's preflight, and the browser shows only "CORS error".
// The request log has the refusal and its reason.
func TestRequestLogSaysWhyAPreflightWasRefused(t *testing.T) {
	t.Parallel()
	h := &records{}
	srv, err := mockserver.New(mockserver.Options{Logger: slog.New(h), CORSOrigins: []string{"http://localhost:5173"}})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodOptions, "/v1/users/1", nil)
	req.Header.Set("Origin", "http://localhost:3000")
	req.Header.Set("Access-Control-Request-Method", "PUT")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("preflight from another origin: %d, want 403", rec.Code)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.recs {
		if r["method"] == "OPTIONS" && r["status"] == "403" && strings.Contains(r["refused"], "http://localhost:3000") &&
			strings.Contains(r["refused"], "--cors-origins") {
			return
		}
	}
	t.Errorf("no log record of the refused preflight with its origin and the flag to use: %v", h.recs)
}
