package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// corsEngine is a small engine built like the mock's (405 for a wrong method,
// JSON 404, authentication as route middleware) with corsMiddleware first, so
// that the table below checks the middleware's place in a chain as well as
// its headers.
func corsEngine(origins []string) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.HandleMethodNotAllowed = true
	e.Use(corsMiddleware(origins, adminPrefix))
	e.NoRoute(func(c *gin.Context) { abortWith(c, pricing.CodeNotFound, "There is no such endpoint.") })
	e.NoMethod(func(c *gin.Context) {
		abortWith(c, pricing.CodeMethodNotAllowed, "wrong method")
	})
	requireToken := func(c *gin.Context) {
		if c.GetHeader("session-token") == "" {
			abortWith(c, pricing.CodeUnauthorized, "no credentials")
		}
	}
	ok := func(c *gin.Context) { writeJSON(c, http.StatusOK, map[string]string{"ok": "yes"}) }
	e.GET("/v1/platforms", ok)
	e.PUT("/v1/users/:userId", requireToken, ok)
	return e
}

func TestCORSMiddleware(t *testing.T) {
	const page = "http://localhost:5173"
	preflight := func(method string) map[string]string {
		return map[string]string{
			"Origin":                         page,
			"Access-Control-Request-Method":  method,
			"Access-Control-Request-Headers": "content-type,session-token",
		}
	}
	withOrigin := func(origin string) map[string]string { return map[string]string{"Origin": origin} }
	allHeaders := []string{"Authorization", "session-token", "Content-Type", "X-Mock-Namespace", "X-Mock-Delay", "X-Mock-Status"}
	allMethods := []string{"GET", "POST", "PUT", "DELETE", "OPTIONS"}

	tests := []struct {
		name     string
		origins  []string
		method   string
		path     string
		header   map[string]string
		status   int
		allowed  string       // Access-Control-Allow-Origin, "" for absent
		isPre    bool         // a preflight answer: methods, headers and max-age set
		errCode  pricing.Code // the error array's code when the body is one
		emptyRes bool         // no body at all
	}{
		{name: "preflight, any origin, needs no credentials", method: "OPTIONS", path: "/v1/users/1",
			header: preflight("PUT"), status: 204, allowed: page, isPre: true, emptyRes: true},
		{name: "preflight of a POST", method: "OPTIONS", path: "/v1/platforms",
			header: preflight("POST"), status: 204, allowed: page, isPre: true, emptyRes: true},
		{name: "preflight of an unknown path is answered, the request then 404s readably", method: "OPTIONS", path: "/v1/nowhere",
			header: preflight("GET"), status: 204, allowed: page, isPre: true, emptyRes: true},
		{name: "simple GET from any origin", method: "GET", path: "/v1/platforms",
			header: withOrigin(page), status: 200, allowed: page},
		{name: "the origin is echoed as sent", method: "GET", path: "/v1/platforms",
			header: withOrigin("null"), status: 200, allowed: "null"},
		{name: "a 401 is readable by the page", method: "PUT", path: "/v1/users/1",
			header: withOrigin(page), status: 401, allowed: page, errCode: pricing.CodeUnauthorized},
		{name: "a 404 is readable by the page", method: "GET", path: "/v1/nowhere",
			header: withOrigin(page), status: 404, allowed: page, errCode: pricing.CodeNotFound},
		{name: "OPTIONS that is not a preflight is an ordinary wrong method", method: "OPTIONS", path: "/v1/platforms",
			header: withOrigin(page), status: 405, allowed: page, errCode: pricing.CodeMethodNotAllowed},
		{name: "no Origin, no CORS headers", method: "GET", path: "/v1/platforms",
			status: 200},
		{name: "no Origin, OPTIONS is a wrong method", method: "OPTIONS", path: "/v1/users/1",
			header: map[string]string{"Access-Control-Request-Method": "PUT"}, status: 405, errCode: pricing.CodeMethodNotAllowed},

		{name: "restricted: listed origin preflight", origins: []string{"http://other.test", page},
			method: "OPTIONS", path: "/v1/users/1", header: preflight("PUT"), status: 204, allowed: page, isPre: true, emptyRes: true},
		{name: "restricted: the list is matched as a browser serialises origins", origins: []string{" HTTP://LocalHost:5173/ "},
			method: "GET", path: "/v1/platforms", header: withOrigin(page), status: 200, allowed: page},
		{name: "restricted: another port is another origin", origins: []string{"http://localhost:3000"},
			method: "OPTIONS", path: "/v1/users/1", header: preflight("PUT"), status: 403, errCode: pricing.CodeForbidden},
		{name: "restricted: another scheme is another origin", origins: []string{"https://localhost:5173"},
			method: "OPTIONS", path: "/v1/users/1", header: preflight("PUT"), status: 403, errCode: pricing.CodeForbidden},
		{name: "restricted: unlisted simple request is served without CORS headers", origins: []string{"http://other.test"},
			method: "GET", path: "/v1/platforms", header: withOrigin(page), status: 200},
		{name: "restricted: no Origin is not a browser, served", origins: []string{"http://other.test"},
			method: "GET", path: "/v1/platforms", status: 200},
		{name: "a star in the list means any origin", origins: []string{"http://other.test", "*"},
			method: "OPTIONS", path: "/v1/users/1", header: preflight("PUT"), status: 204, allowed: page, isPre: true, emptyRes: true},
		{name: "blank entries are ignored, so the list is still any", origins: []string{"", " "},
			method: "GET", path: "/v1/platforms", header: withOrigin(page), status: 200, allowed: page},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, nil)
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			corsEngine(tt.origins).ServeHTTP(rec, req)
			res := rec.Result()
			h := res.Header

			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d; body %s", res.StatusCode, tt.status, rec.Body)
			}
			if got := h.Get("Access-Control-Allow-Origin"); got != tt.allowed {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", got, tt.allowed)
			}
			if !slices.Contains(h.Values("Vary"), "Origin") {
				t.Errorf("Vary %q, want Origin in it", h.Values("Vary"))
			}
			wantCred := ""
			if tt.allowed != "" {
				wantCred = "true"
			}
			if got := h.Get("Access-Control-Allow-Credentials"); got != wantCred {
				t.Errorf("Access-Control-Allow-Credentials %q, want %q", got, wantCred)
			}

			methods, headers := splitList(h.Get("Access-Control-Allow-Methods")), splitList(h.Get("Access-Control-Allow-Headers"))
			if tt.isPre {
				for _, m := range allMethods {
					if !slices.Contains(methods, m) {
						t.Errorf("Access-Control-Allow-Methods %q lacks %s", methods, m)
					}
				}
				for _, name := range allHeaders {
					if !slices.ContainsFunc(headers, func(s string) bool { return strings.EqualFold(s, name) }) {
						t.Errorf("Access-Control-Allow-Headers %q lacks %s", headers, name)
					}
				}
				if got := h.Get("Access-Control-Max-Age"); got != "600" {
					t.Errorf("Access-Control-Max-Age %q, want 600", got)
				}
				if got := h.Get("Access-Control-Expose-Headers"); got != "" {
					t.Errorf("a preflight answer exposes %q; exposing is for the actual answer", got)
				}
			} else {
				for _, k := range []string{"Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Max-Age"} {
					if got := h.Get(k); got != "" {
						t.Errorf("%s %q on an answer that is not a preflight", k, got)
					}
				}
				wantExpose := tt.allowed != ""
				if got := splitList(h.Get("Access-Control-Expose-Headers")); slices.Contains(got, "Allow") != wantExpose {
					t.Errorf("Access-Control-Expose-Headers %q, want Allow exposed: %v", got, wantExpose)
				}
			}

			if tt.emptyRes && rec.Body.Len() != 0 {
				t.Errorf("body %q, want none", rec.Body)
			}
			if tt.errCode != (pricing.Code{}) {
				var errs []pricing.FieldError
				if err := json.Unmarshal(rec.Body.Bytes(), &errs); err != nil {
					t.Fatalf("body %q is not an error array: %v", rec.Body, err)
				}
				if len(errs) != 1 || errs[0].Error != tt.errCode || errs[0].FieldName != "" || errs[0].Message == "" {
					t.Errorf("errors %+v, want one %s with a message", errs, tt.errCode)
				}
				if ct := h.Get("Content-Type"); ct != contentTypeJSON {
					t.Errorf("Content-Type %q, want %q", ct, contentTypeJSON)
				}
			}
		})
	}
}

// TestCORSRefusalNamesOrigin: the 403 a developer sees in the browser's
// network tab must say which origin was refused and how to allow it.
func TestCORSRefusalNamesOrigin(t *testing.T) {
	req := httptest.NewRequest("OPTIONS", "/v1/users/1", nil)
	req.Header.Set("Origin", "http://localhost:4200")
	req.Header.Set("Access-Control-Request-Method", "PUT")
	rec := httptest.NewRecorder()
	corsEngine([]string{"http://localhost:5173"}).ServeHTTP(rec, req)

	var errs []pricing.FieldError
	if err := json.Unmarshal(rec.Body.Bytes(), &errs); err != nil || len(errs) != 1 {
		t.Fatalf("body %q: want one error (%v)", rec.Body, err)
	}
	for _, want := range []string{"http://localhost:4200", "--cors-origins"} {
		if !strings.Contains(errs[0].Message, want) {
			t.Errorf("message %q does not mention %q", errs[0].Message, want)
		}
	}
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// corsRouteParam turns a route template into a concrete path.
var corsRouteParam = regexp.MustCompile(`[:*][A-Za-z]+`)

// TestCORSOnTheMock: on the mock itself, corsMiddleware runs before
// authentication, namespaces, fault rules and latency, so every route of the
// API and the documentation answers a browser's preflight without
// credentials, and an actual answer, a 401 included, is readable by the
// page. The admin API answers no page of another origin unless
// --cors-origins names it: then it does, like the rest.
func TestCORSOnTheMock(t *testing.T) {
	const page = "http://localhost:5173"
	for _, origins := range [][]string{nil, {"*"}, {page}} {
		s := mustNew(t, Options{CORSOrigins: origins})
		routes := s.engine.Routes()
		if len(routes) < 20 {
			t.Fatalf("the engine has %d routes; want the whole API", len(routes))
		}
		adminReadable := len(origins) == 1 && origins[0] == page
		for _, r := range routes {
			path := corsRouteParam.ReplaceAllString(r.Path, "1")
			t.Run(fmt.Sprintf("origins %v %s %s", origins, r.Method, r.Path), func(t *testing.T) {
				req := httptest.NewRequest(http.MethodOptions, path, nil)
				req.Header.Set("Origin", page)
				req.Header.Set("Access-Control-Request-Method", r.Method)
				req.Header.Set("Access-Control-Request-Headers", "authorization,content-type,session-token,x-mock-namespace")
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				status, allow := http.StatusNoContent, page
				if strings.HasPrefix(r.Path, adminPrefix+"/") && !adminReadable {
					status, allow = http.StatusForbidden, ""
				}
				if rec.Code != status || rec.Header().Get("Access-Control-Allow-Origin") != allow {
					t.Errorf("preflight of %s %s: status %d, Allow-Origin %q; want %d and %q; body %s",
						r.Method, path, rec.Code, rec.Header().Get("Access-Control-Allow-Origin"), status, allow, rec.Body)
				}
			})
		}
	}
	s := mustNew(t, Options{})

	req := httptest.NewRequest(http.MethodGet, "/v1/users/1", nil)
	req.Header.Set("Origin", page)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusUnauthorized || rec.Header().Get("Access-Control-Allow-Origin") != page {
		t.Errorf("GET /v1/users/1 without credentials: status %d, Allow-Origin %q; want 401 readable by %s",
			rec.Code, rec.Header().Get("Access-Control-Allow-Origin"), page)
	}
}

// TestCORSOriginsOption: Options.CORSOrigins reaches the middleware.
func TestCORSOriginsOption(t *testing.T) {
	s := mustNew(t, Options{CORSOrigins: []string{"http://localhost:3000"}})
	for origin, want := range map[string]int{"http://localhost:3000": 204, "http://localhost:5173": 403} {
		req := httptest.NewRequest(http.MethodOptions, "/v1/sessions", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("preflight from %s: status %d, want %d", origin, rec.Code, want)
		}
	}
}
