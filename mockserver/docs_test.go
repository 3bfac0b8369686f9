package mockserver

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
)

// engineRoutes lists what the engine of a default server serves, as
// "METHOD /path" with gin's :params.
func engineRoutes(t *testing.T) []string {
	t.Helper()
	s, err := New(Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var out []string
	for _, r := range s.engine.Routes() {
		out = append(out, r.Method+" "+r.Path)
	}
	sort.Strings(out)
	return out
}

// TestOpenAPIDescribesEveryRoute: every route of the engine is in the
// document and every operation of the document is a route of the engine.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	var documented []string
	for _, r := range docRoutes() {
		documented = append(documented, r.String())
	}
	sort.Strings(documented)
	served := engineRoutes(t)
	for _, r := range served {
		if _, found := slices.BinarySearch(documented, r); !found {
			t.Errorf("%s is served but not in openapi.json", r)
		}
	}
	for _, r := range documented {
		if _, found := slices.BinarySearch(served, r); !found {
			t.Errorf("%s is in openapi.json but not served", r)
		}
	}
}

// TestDocRoutesNeedCredentials checks the small parser behind docRoutes on
// the operations' security (the package reads its own document without
// kin-openapi at run time).
func TestDocRoutesNeedCredentials(t *testing.T) {
	auth := map[string]bool{}
	for _, r := range docRoutes() {
		auth[r.String()] = r.Auth
	}
	for _, tt := range []struct {
		route string
		auth  bool
	}{
		{"PUT /v1/users/:userId", true},
		{"GET /v1.0/apps/:appId", true},
		{"POST /v1/clients", true},
		{"POST /v1/sessions", false},
		{"POST /v1/users", false},
		{"GET /v1/platforms", false},
		{"POST /__admin/reset", false},
		{"GET /", false},
	} {
		if got, ok := auth[tt.route]; !ok || got != tt.auth {
			t.Errorf("%s: auth %v (listed %v), want %v", tt.route, got, ok, tt.auth)
		}
	}
}

func TestClosestRoute(t *testing.T) {
	tests := []struct {
		method, path, want string
	}{
		{"GET", "/v1/platform", "GET /v1/platforms"},
		{"GET", "/v1/Platforms", "GET /v1/platforms"},
		{"GET", "/v1/platforms/", "GET /v1/platforms"},
		{"GET", "/v2/platforms", "GET /v1/platforms"},
		{"GET", "/v1.1/platforms", "GET /v1.0/platforms"},
		{"GET", "/platforms", "GET /v1/platforms"},
		{"GET", "/v1/phonecountries", "GET /v1/phoneCountries"},
		{"GET", "/v1/user/7", "GET /v1/users/:userId"},
		{"PUT", "/v1/user/7", "PUT /v1/users/:userId"},
		{"GET", "/v1/users/7/client", "GET /v1/users/:userId/clients"},
		{"GET", "/v1/client/12/apps", "GET /v1/clients/:clientId/apps"},
		{"POST", "/v1/app", "POST /v1/apps"},
		{"POST", "/v1/session", "POST /v1/sessions"},
		{"GET", "/v1/session", "POST /v1/sessions"}, // only POST exists: the other method still helps
		{"GET", "/v1.0/marketapp", "GET /v1.0/marketapps"},
		{"GET", "/__admin/request", "GET /__admin/requests"},
		{"DELETE", "/__admin/request", "DELETE /__admin/requests"},
		{"GET", "/openapi.jsn", "GET /openapi.json"},
		{"GET", "/favicon.ico", ""},
		{"GET", "/v1/nothing-like-it", ""},
		{"GET", "/v1/users/abc/clients/def/apps", ""},
		{"GET", "/" + strings.Repeat("a", 5000), ""},
	}
	for _, tt := range tests {
		if got := closestRoute(tt.method, tt.path); got != tt.want {
			t.Errorf("closestRoute(%s, %q) = %q, want %q", tt.method, tt.path, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"/v1/plans", "/v1/plan", 1}, {"héllo", "hello", 1},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDocsAreServed(t *testing.T) {
	// The docs stay with --no-admin; only the journal they show goes.
	for _, opts := range []Options{{}, {NoAdmin: true}} {
		t.Run(fmt.Sprintf("NoAdmin=%v", opts.NoAdmin), func(t *testing.T) {
			testDocsAreServed(t, opts)
		})
	}
}

func testDocsAreServed(t *testing.T, opts Options) {
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("GET %s: reading the body: %v", path, err)
		}
		return resp, string(b)
	}

	resp, body := get("/openapi.json")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Errorf("GET /openapi.json: %d %q, want 200 application/json", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if body != string(openapiJSON) {
		t.Errorf("GET /openapi.json does not answer the embedded document (%d bytes, want %d)", len(body), len(openapiJSON))
	}

	resp, body = get("/")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %q, want 200 text/html", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	p := s.Profile()
	want := []string{
		`<a href="/openapi.json">`, "/__admin/requests", "journal off", "setInterval(poll, 2000)",
		p.Email, p.OtherEmail,
	}
	// The demo passwords and keys only where the admin API is on.
	secrets := []string{p.Password, p.APIKey, p.OtherPassword, p.OtherAPIKey, srv.URL + "/v1/sessions"}
	if opts.NoAdmin {
		for _, secret := range secrets {
			if strings.Contains(body, secret) {
				t.Errorf("with the admin API off, the home page shows %q", secret)
			}
		}
		want = append(want, `id="secrets-hidden"`)
	} else {
		want = append(want, secrets...)
	}
	for _, r := range docRoutes() {
		if !strings.HasPrefix(r.Path, "/v1.0/") {
			want = append(want, r.Path)
		}
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("the home page does not contain %q", w)
		}
	}
	if api, admin := strings.Index(body, ">/v1/users/:userId<"), strings.Index(body, ">/__admin/reset<"); api < 0 || admin < 0 || api > admin {
		t.Errorf("the home page should list the API (at %d) before the admin API (at %d)", api, admin)
	}
	if strings.Contains(body, "/v1.0/users") {
		t.Errorf("the home page lists the /v1.0 routes again; /v1 is enough")
	}

	// The page's script shows "journal off" on this 404.
	resp, _ = get("/__admin/requests")
	if want := map[bool]int{false: http.StatusOK, true: http.StatusNotFound}[opts.NoAdmin]; resp.StatusCode != want {
		t.Errorf("GET /__admin/requests: %d, want %d", resp.StatusCode, want)
	}
}
