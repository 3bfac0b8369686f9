package contract_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// targetFake is a target whose answers to the preflight can be bent: who
// logs in as which user and client, what an api key is worth. It answers
// GET /platforms like a correct server and counts those requests, so a test
// can tell whether any scenario ran.
type targetFake struct {
	sessions  map[string]string // email -> session JSON; absent: 401
	keys      map[string]string // api key -> the user id it authenticates
	form      bool              // logins must be form-encoded
	platforms atomic.Int64
	delay     time.Duration // before every answer
}

func newTargetFake() *targetFake {
	return &targetFake{
		sessions: map[string]string{
			"qa@example.com":    `{"id":1,"created":"2026-01-02T03:04:05Z","creatorUserId":1,"userId":1,"clientId":1,"token":"ta"}`,
			"other@example.com": `{"id":2,"created":"2026-01-02T03:04:05Z","creatorUserId":2,"userId":2,"clientId":2,"token":"tb"}`,
			// Pair 2 of a pool (poolEnv).
			"qa-2@example.com":    `{"id":3,"created":"2026-01-02T03:04:05Z","creatorUserId":3,"userId":3,"clientId":3,"token":"ta2"}`,
			"other-2@example.com": `{"id":4,"created":"2026-01-02T03:04:05Z","creatorUserId":4,"userId":4,"clientId":4,"token":"tb2"}`,
		},
		keys: map[string]string{"qa-api-key": "1", "other-api-key": "2", "qa-api-key-2": "3", "other-api-key-2": "4"},
	}
}

func (f *targetFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Pricing-Mock-Seed", "default") // it serves the default seed's accounts
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/platforms":
		f.platforms.Add(1)
		io.WriteString(w, `{"platforms":[{"id":1,"name":"Android"}]}`)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/sessions":
		var email string
		if f.form {
			if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, `[{"fieldName":"email","error":"InvalidEmail","message":"email is required"}]`)
				return
			}
			r.ParseForm()
			email = r.PostForm.Get("email")
		} else {
			var creds struct{ Email string }
			json.NewDecoder(r.Body).Decode(&creds)
			email = creds.Email
		}
		if s, ok := f.sessions[email]; ok {
			io.WriteString(w, s)
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `[{"fieldName":"","error":"Unauthorized","message":"wrong credentials"}]`)
	case r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, "/v1/users/"):
		user, ok := f.keys[strings.TrimPrefix(r.Header.Get("Authorization"), "api-key ")]
		switch {
		case !ok:
			w.WriteHeader(http.StatusUnauthorized)
		case user != strings.TrimPrefix(r.URL.Path, "/v1/users/"):
			w.WriteHeader(http.StatusForbidden)
		default:
			w.WriteHeader(http.StatusBadRequest)
		}
		io.WriteString(w, `[{"fieldName":"","error":"X","message":"x"}]`)
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `[{"fieldName":"","error":"NotFound","message":"no such endpoint"}]`)
	}
}

// poolEnv is the environment of a pool of two pairs that the fake knows,
// with the variables of set changed.
func poolEnv(set map[string]string) map[string]string {
	env := map[string]string{
		"PRICING_EMAIL_2": "qa-2@example.com", "PRICING_PASSWORD_2": "qa-password-2", "PRICING_API_KEY_2": "qa-api-key-2",
		"PRICING_OTHER_EMAIL_2": "other-2@example.com", "PRICING_OTHER_PASSWORD_2": "other-password-2", "PRICING_OTHER_API_KEY_2": "other-api-key-2",
	}
	for k, v := range set {
		env[k] = v
	}
	return env
}

// closedURL is a base URL where nothing listens.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

func TestPreflight(t *testing.T) {
	dir := writeFeatures(t, map[string]string{"platforms.feature": platformsFeature})
	tests := []struct {
		name  string
		bend  func(f *targetFake)
		env   map[string]string
		args  []string
		base  func(t *testing.T, srv string) string
		code  int
		first string // in the first line on stderr after the announcement
	}{
		{name: "a usable target and profile", code: 0},
		{name: "login form-encoded as the profile says", bend: func(f *targetFake) { f.form = true },
			env: map[string]string{"PRICING_LOGIN_ENCODING": "form"}, code: 0},
		{name: "nothing listens", base: func(t *testing.T, _ string) string { return closedURL(t) },
			code: 3, first: "the target does not answer: GET http://"},
		{name: "base URL without the API", base: func(_ *testing.T, srv string) string { return srv + "/v2" },
			code: 3, first: "answered 404: is the base URL"},
		{name: "wrong password of account B", env: map[string]string{"PRICING_OTHER_PASSWORD": "wrong"},
			bend: func(f *targetFake) { delete(f.sessions, "other@example.com") },
			code: 3, first: "account B cannot log in: POST /sessions answered 401 for PRICING_OTHER_EMAIL=other@example.com and PRICING_OTHER_PASSWORD (login encoding json)"},
		{name: "JSON login where the target wants a form", bend: func(f *targetFake) { f.form = true },
			code: 3, first: "account A cannot log in: POST /sessions answered 400"},
		{name: "api key of account A refused", bend: func(f *targetFake) { delete(f.keys, "qa-api-key") },
			code: 3, first: "the api key of account A (PRICING_API_KEY) is not accepted: PUT /users/1 with it answered 401"},
		{name: "account B's key is account A's", env: map[string]string{"PRICING_OTHER_API_KEY": "qa-api-key"},
			code: 3, first: "the api key of account B (PRICING_OTHER_API_KEY) is not the key of other@example.com (user 2)"},
		{name: "A and B are one user", env: map[string]string{"PRICING_OTHER_EMAIL": "qa@example.com", "PRICING_OTHER_PASSWORD": "qa-password"},
			code: 3, first: "accounts A and B are the same user (userId 1)"},
		{name: "A and B of one client", bend: func(f *targetFake) {
			f.sessions["other@example.com"] = strings.Replace(f.sessions["other@example.com"], `"clientId":2`, `"clientId":1`, 1)
		}, code: 3, first: "accounts A and B are users of the same client (clientId 1)"},
		{name: "A without a client", bend: func(f *targetFake) {
			f.sessions["qa@example.com"] = strings.Replace(f.sessions["qa@example.com"], `"clientId":1`, `"clientId":null`, 1)
		}, code: 3, first: "account A (qa@example.com) belongs to no client"},
		{name: "a target that never answers, under --timeout", bend: func(f *targetFake) { f.delay = 2 * time.Second },
			args: []string{"--timeout", "200ms"}, code: 3, first: "the target does not answer: GET http://"},
		{name: "--no-preflight runs the scenarios anyway", bend: func(f *targetFake) { delete(f.keys, "qa-api-key") },
			args: []string{"--no-preflight"}, code: 0},

		{name: "a pool of two pairs", env: poolEnv(nil), code: 0},
		{name: "wrong password of account A of pair 2", env: poolEnv(map[string]string{"PRICING_PASSWORD_2": "wrong"}),
			bend: func(f *targetFake) { delete(f.sessions, "qa-2@example.com") },
			code: 3, first: "account A of pair 2 cannot log in: POST /sessions answered 401 for PRICING_EMAIL_2=qa-2@example.com and PRICING_PASSWORD_2 (login encoding json)"},
		{name: "api key of account B of pair 2 refused", bend: func(f *targetFake) { delete(f.keys, "other-api-key-2") },
			env:  poolEnv(nil),
			code: 3, first: "the api key of account B of pair 2 (PRICING_OTHER_API_KEY_2) is not accepted: PUT /users/4 with it answered 401"},
		{name: "pair 2 is pair 1's user under another spelling", bend: func(f *targetFake) {
			f.sessions["QA@example.com"] = f.sessions["qa@example.com"]
		}, env: poolEnv(map[string]string{"PRICING_EMAIL_2": "QA@example.com"}),
			code: 3, first: "account A (PRICING_EMAIL) and account A of pair 2 (PRICING_EMAIL_2) are the same user (userId 1): every account of the pool must be a user of its own"},
		{name: "pair 2's B is pair 1's A", env: poolEnv(map[string]string{"PRICING_OTHER_EMAIL_2": "qa@example.com"}),
			code: 3, first: "account A (PRICING_EMAIL) and account B of pair 2 (PRICING_OTHER_EMAIL_2) are the same user (userId 1)"},
		{name: "pair 2's A is a user of pair 1's client B", bend: func(f *targetFake) {
			f.sessions["qa-2@example.com"] = strings.Replace(f.sessions["qa-2@example.com"], `"clientId":3`, `"clientId":2`, 1)
		}, env: poolEnv(nil),
			code: 3, first: "account B (other@example.com) and account A of pair 2 (qa-2@example.com) are users of the same client (clientId 2): every account of the pool needs a client of its own"},
		{name: "A and B of pair 2 are one user", env: poolEnv(map[string]string{"PRICING_OTHER_EMAIL_2": "qa-2@example.com"}),
			code: 3, first: "accounts A and B of pair 2 are the same user (userId 3): PRICING_EMAIL_2 and PRICING_OTHER_EMAIL_2 must be two users"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newTargetFake()
			if tt.bend != nil {
				tt.bend(f)
			}
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			base := srv.URL + "/v1"
			if tt.base != nil {
				base = tt.base(t, srv.URL)
			}
			start := time.Now()
			r := runSuite(t, context.Background(), tt.env, append([]string{"--features", dir, "--base-url", base}, tt.args...)...)
			if r.code != tt.code {
				t.Fatalf("want exit %d, got %s", tt.code, r)
			}
			if elapsed := time.Since(start); elapsed > 3*time.Second {
				t.Errorf("took %v: a preflight must fail fast", elapsed)
			}
			if tt.code == 0 {
				// One identifies the target (Identify), one is the scenario's.
				if f.platforms.Load() != 2 {
					t.Errorf("the run sent %d requests to /platforms, want 2", f.platforms.Load())
				}
				return
			}
			said := false
			for _, l := range strings.Split(r.stderr, "\n") {
				said = said || strings.HasPrefix(l, "pricing-contract: target or profile not usable, no scenario was run: ") && strings.Contains(l, tt.first)
			}
			if !said {
				t.Errorf("no line of stderr says %q:\n%s", tt.first, r.stderr)
			}
			if strings.Contains(r.stderr, "qa-password") || strings.Contains(r.stderr, "qa-api-key") {
				t.Errorf("a secret in the message:\n%s", r.stderr)
			}
			// At most one: the request that identifies the target.
			if n := f.platforms.Load(); n > 1 {
				t.Errorf("%d scenario requests were sent after a failed preflight", n-1)
			}
		})
	}
}

// TestRunStopsWhenTargetGoesDown: a target that dies during the run stops
// it after a few requests, with exit 3, one line saying why, and the rest
// of the scenarios not run; the reports say the same.
func TestRunStopsWhenTargetGoesDown(t *testing.T) {
	var feature strings.Builder
	feature.WriteString("Feature: platforms, again and again\n")
	for i := range 30 {
		fmt.Fprintf(&feature, "  Scenario: platforms %d\n    Given I am not authenticated\n    When I send \"GET\" to \"/platforms\"\n    Then the response status is 200\n", i)
	}
	dir := writeFeatures(t, map[string]string{"many.feature": feature.String()})

	f := newTargetFake()
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/platforms" && served.Add(1) > 3 {
			// From the fourth scenario on, the connection drops unanswered.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		// No connection is reused: net/http silently sends a request again
		// when a reused connection drops, and the count below is of the
		// suite's requests, not of the transport's second tries.
		w.Header().Set("Connection", "close")
		f.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	tmp := t.TempDir()
	junit := tmp + "/report.xml"
	start := time.Now()
	r := runSuite(t, context.Background(), nil, "--features", dir, "--base-url", srv.URL+"/v1", "--godog.format", "progress,junit:"+junit)
	if r.code != 3 {
		t.Fatalf("want exit 3, got %s", r)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("took %v to notice the target was down", elapsed)
	}
	last := strings.TrimSpace(r.stderr[strings.LastIndex(strings.TrimSpace(r.stderr), "\n")+1:])
	if !strings.HasPrefix(last, "pricing-contract: stopped early, ") || !strings.Contains(last, "of 30 scenarios not run: the target stopped answering: 5 requests in a row got no answer") {
		t.Errorf("last line of stderr %q does not say the run stopped early and why", last)
	}
	if n := served.Load(); n > 10 {
		t.Errorf("%d requests to /platforms: the run went on against a dead target", n)
	}
	rep := readJUnit(t, junit)
	if rep.Tests != 30 || rep.Skipped < 20 {
		t.Errorf("JUnit: tests=%d skipped=%d, want 30 with the scenarios not run skipped", rep.Tests, rep.Skipped)
	}
	// Also found: the console said "30 failed" and printed a failure for
	// every scenario not started. It counts them as not run, as the
	// reports do, and prints no failure for them.
	m := regexp.MustCompile(`(?m)^30 scenarios \((.*)\)$`).FindStringSubmatch(r.stdout)
	if m == nil || !regexp.MustCompile(`\b2[0-9] not run\b`).MatchString(m[1]) {
		t.Errorf("the console's count does not say the scenarios not started were not run:\n%s", r.stdout)
	}
	if n := strings.Count(r.stdout, "not started"); n > 0 {
		t.Errorf("the console prints %d failures for scenarios that were not started:\n%s", n, r.stdout)
	}
	if u, err := url.Parse(srv.URL); err == nil && strings.Contains(r.stderr, u.Host+"/v1/platforms?") {
		t.Errorf("a query string in the message: %s", r.stderr)
	}
}
