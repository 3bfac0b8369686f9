package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
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
	wantServedDocument(t, []byte(body), srv.URL)

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

// wantServedDocument checks that served is the embedded document with every
// server URL absolute on origin, and nothing else changed.
func wantServedDocument(t *testing.T, served []byte, origin string) {
	t.Helper()
	var got, want map[string]any
	if err := json.Unmarshal(served, &got); err != nil {
		t.Fatalf("the served document is not JSON: %v", err)
	}
	if err := json.Unmarshal(openapiJSON, &want); err != nil {
		t.Fatal(err)
	}
	absolute := func(servers any) {
		for _, s := range servers.([]any) {
			s := s.(map[string]any)
			s["url"] = origin + strings.TrimSuffix(s["url"].(string), "/")
		}
	}
	absolute(want["servers"])
	n := len(want["servers"].([]any))
	for _, item := range want["paths"].(map[string]any) {
		if servers, ok := item.(map[string]any)["servers"]; ok {
			absolute(servers)
			n += len(servers.([]any))
		}
	}
	if n < 3 {
		t.Fatalf("the embedded document has %d server URLs; want those of the API and of the paths outside it", n)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the served document is not the embedded one with its %d server URLs on %s:\n%.600s", n, origin, served)
	}
	// What redocly's server rules ask of the document served (.ci/run lints
	// the embedded one): absolute, no trailing slash, no variables.
	for _, u := range serverURLs(got) {
		if p, err := url.Parse(u); err != nil || !p.IsAbs() || p.Host == "" || strings.HasSuffix(u, "/") || strings.Contains(u, "{") {
			t.Errorf("server URL %q: want an absolute URL without a trailing slash or variables", u)
		}
	}
}

// serverURLs lists the server URLs of a decoded document, its own and its
// paths'.
func serverURLs(doc map[string]any) []string {
	var out []string
	add := func(servers any) {
		list, _ := servers.([]any)
		for _, s := range list {
			out = append(out, s.(map[string]any)["url"].(string))
		}
	}
	add(doc["servers"])
	for _, item := range doc["paths"].(map[string]any) {
		add(item.(map[string]any)["servers"])
	}
	return out
}

// TestOpenAPIServerURLs: /openapi.json names the mock that served it, with
// the scheme and host of the request (the listen address when the request
// has no Host), so that a tool importing it calls that mock.
func TestOpenAPIServerURLs(t *testing.T) {
	s := mustNew(t, Options{})
	t.Cleanup(func() { s.Close() })
	tests := []struct {
		name   string
		target string
		host   string // replaces the request's Host; "-" empties it
		local  net.Addr
		origin string
	}{
		{"the default address", "/openapi.json", "127.0.0.1:8080", nil, "http://127.0.0.1:8080"},
		{"another port", "/openapi.json", "127.0.0.1:9191", nil, "http://127.0.0.1:9191"},
		{"a name", "/openapi.json", "localhost:5173", nil, "http://localhost:5173"},
		{"IPv6", "/openapi.json", "[::1]:8080", nil, "http://[::1]:8080"},
		{"no port", "/openapi.json", "mock.test", nil, "http://mock.test"},
		{"TLS", "https://mock.test:8443/openapi.json", "", nil, "https://mock.test:8443"},
		{"no Host: the listen address", "/openapi.json", "-", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8181}, "http://127.0.0.1:8181"},
		{"neither: the paths as written", "/openapi.json", "-", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tt.target, nil)
			switch tt.host {
			case "":
			case "-":
				req.Host = ""
			default:
				req.Host = tt.host
			}
			if tt.local != nil {
				req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, tt.local))
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s: status %d", tt.target, rec.Code)
			}
			if tt.origin == "" {
				if !bytes.Equal(rec.Body.Bytes(), openapiJSON) {
					t.Errorf("without a Host or a listen address the document should be served as embedded")
				}
				return
			}
			wantServedDocument(t, rec.Body.Bytes(), tt.origin)
		})
	}

	// Through a real listener the servers name the address it listens on.
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	wantServedDocument(t, b, srv.URL)
}

func TestServerURLSpans(t *testing.T) {
	doc := []byte(`{"servers": [{"url": "/v1", "description": "url"}, {"description": "x", "url":"/v\u0031.0"}],
	 "paths": {"/a": {"servers": [{"url": "/"}], "get": {"servers": [{"url": "/op"}], "x": {"url": "/no"}}},
	  "/b": {"get": {"description": "{\"url\": \"/no\"}"}}},
	 "components": {"schemas": {"S": {"example": {"servers": [{"url": "/no"}]}}}}, "url": "/no"}`)
	spans, err := serverURLSpans(doc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sp := range spans {
		got = append(got, sp.url+"="+string(doc[sp.start:sp.end]))
	}
	want := []string{`/v1="/v1"`, `/v1.0="/v\u0031.0"`, `/="/"`}
	if !slices.Equal(got, want) {
		t.Errorf("spans %q, want %q", got, want)
	}
	if _, err := serverURLSpans([]byte(`{"servers": [`)); err == nil {
		t.Errorf("a truncated document gave no error")
	}
}

// Also found: Swagger UI, which the README recommends, fills in a
// parameter's example, so every "Try it out" sent X-Mock-Status: 503. An
// X-Mock-* header of the document may carry no example or default: a
// request built from the document alone must be served as the API.
func TestOpenAPIControlHeadersHaveNoExample(t *testing.T) {
	b, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	found := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if name, _ := v["name"].(string); v["in"] == "header" && strings.HasPrefix(strings.ToLower(name), "x-mock-") {
				found++
				schema, _ := v["schema"].(map[string]any)
				for _, o := range []map[string]any{v, schema} {
					for _, k := range []string{"example", "examples", "default"} {
						if _, ok := o[k]; ok {
							t.Errorf("the %s header has %q %v: a client that fills it in changes the answer", name, k, o[k])
						}
					}
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	if found < 3 {
		t.Errorf("found %d X-Mock-* header parameters, want X-Mock-Namespace, X-Mock-Delay and X-Mock-Status at least", found)
	}
}
