package undolog

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// probe runs a request sequence and returns an observation; a wrong fault
// must make the observation differ from the correct server's.
type probe func(e *env) string

func code(r resp) string { return fmt.Sprint(r.code) }

// fixture helpers
func (e *env) userPath(i int) string   { u, _ := e.ids(e.acc(i)); return path("/users/%d", u) }
func (e *env) clientPath(i int) string { _, c := e.ids(e.acc(i)); return path("/clients/%d", c) }

func putClient(e *env, over map[string]any, h H) resp {
	return e.do("PUT", e.clientPath(0), js(clientBody(over)), h)
}

// concurrently runs fns at the same time.
func concurrently(fns ...func()) {
	var wg sync.WaitGroup
	for _, f := range fns {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
}

var probes = map[string]probe{
	// ---- 1
	"max-length-off-by-one": func(e *env) string {
		return code(putClient(e, map[string]any{"name": strings.Repeat("n", 256)}, key(e.acc(0))))
	},
	"length-counted-in-bytes": func(e *env) string {
		return code(putClient(e, map[string]any{"name": strings.Repeat("é", 255)}, key(e.acc(0))))
	},
	"password-null-rejected": func(e *env) string {
		return code(e.do("PUT", e.userPath(0), js(userBody(nil)), key(e.acc(0))))
	},
	"put-client-app-ignored": func(e *env) string {
		return code(putClient(e, map[string]any{"app": appBody(hashIOS)}, key(e.acc(0))))
	},
	"booleans-accept-strings": func(e *env) string {
		return code(e.do("PUT", e.userPath(0), js(userBody(map[string]any{"subscribeBlog": "true"})), key(e.acc(0))))
	},
	// ---- 2
	"api-key-without-scheme-accepted": func(e *env) string {
		return code(e.do("GET", "/clients", "", H{"Authorization": e.acc(0).APIKey}))
	},
	"session-token-query-ignored": func(e *env) string {
		return code(e.do("GET", "/clients?sessionToken="+e.token(e.acc(0)), "", nil))
	},
	"login-absent-password-accepted": func(e *env) string {
		return code(e.do("POST", "/sessions", js(map[string]any{"email": e.acc(0).Email}), nil))
	},
	"put-client-auth-declared-none": func(e *env) string {
		return code(putClient(e, nil, nil))
	},
	"api-key-index-includes-session-tokens": func(e *env) string {
		return code(e.do("GET", "/clients", "", H{"Authorization": "api-key " + e.token(e.acc(0))}))
	},
	// ---- 3
	"put-user-owner-not-checked": func(e *env) string {
		return code(e.do("PUT", e.userPath(0), js(userBody(nil)), key(e.acc(1))))
	},
	"put-client-membership-not-checked": func(e *env) string {
		return code(putClient(e, nil, key(e.acc(1))))
	},
	"user-render-includes-password": func(e *env) string {
		r := e.do("PUT", e.userPath(0), js(userBody(nil)), key(e.acc(0)))
		_, has := r.obj(e.t)["password"]
		return fmt.Sprint(has)
	},
	"put-user-permission-after-write": func(e *env) string {
		p := e.userPath(0)
		r := e.do("PUT", p, js(userBody(map[string]any{"firstName": "Hacked"})), key(e.acc(1)))
		return code(r) + " " + e.do("GET", p, "", key(e.acc(0))).obj(e.t)["firstName"].(string)
	},
	// ---- 4
	"put-user-commits-before-client": func(e *env) string {
		p := e.userPath(0)
		r := e.do("PUT", p, js(userBody(map[string]any{"email": e.acc(0).Email, "firstName": "Changed", "client": map[string]any{}})), key(e.acc(0)))
		return code(r) + " " + e.do("GET", p, "", key(e.acc(0))).obj(e.t)["firstName"].(string)
	},
	"rollback-skips-email-index": func(e *env) string {
		a := e.acc(0)
		r := e.do("PUT", e.userPath(0), js(userBody(map[string]any{"email": "moved@example.org", "client": map[string]any{}})), key(a))
		return code(r) + " " + code(e.login(a.Email, a.Password))
	},
	"post-client-keeps-client-when-app-fails": func(e *env) string {
		a := e.acc(0)
		r := e.do("POST", "/clients", js(clientBody(map[string]any{"app": map[string]any{"name": "X"}})), key(a))
		n := len(e.do("GET", "/clients", "", key(a)).obj(e.t)["clients"].([]any))
		return fmt.Sprint(r.code, n)
	},
	"post-users-keeps-user-when-client-fails": func(e *env) string {
		body := userBody(map[string]any{"email": "half@example.org", "password": "hunter22", "client": map[string]any{"name": "C"}})
		r := e.do("POST", "/users", js(body), nil)
		return code(r) + " " + code(e.login("half@example.org", "hunter22"))
	},
	// ---- 5
	"email-unique-check-outside-tx": func(e *env) string {
		ua, ub := e.userPath(0), e.userPath(1)
		for i := 0; i < 10; i++ {
			email := path("race%d@example.org", i)
			var c1, c2 int
			concurrently(
				func() { c1 = e.do("PUT", ua, js(userBody(map[string]any{"email": email})), key(e.acc(0))).code },
				func() { c2 = e.do("PUT", ub, js(userBody(map[string]any{"email": email})), key(e.acc(1))).code },
			)
			if c1 == 200 && c2 == 200 {
				return "both took the email"
			}
		}
		return "unique"
	},
	"put-user-load-outside-tx": func(e *env) string {
		a := e.acc(0)
		p := e.userPath(0)
		for i := 0; i < 10; i++ {
			pw := path("changed-%d", i)
			concurrently(
				func() { e.do("PUT", p, js(userBody(map[string]any{"email": a.Email, "password": pw})), key(a)) },
				func() {
					time.Sleep(3 * time.Millisecond)
					e.do("PUT", p, js(userBody(map[string]any{"email": a.Email, "firstName": "Other"})), key(a))
				},
			)
			if e.login(a.Email, pw).code != 200 {
				return "password change lost"
			}
		}
		return "kept"
	},
	"app-id-allocated-outside-tx": func(e *env) string {
		for i := 0; i < 10; i++ {
			var r1, r2 resp
			concurrently(
				func() { r1 = e.do("POST", "/apps", js(appBody(hashIOS)), key(e.acc(0))) },
				func() { r2 = e.do("POST", "/apps", js(appBody(hashIOS)), key(e.acc(1))) },
			)
			if r1.obj(e.t)["id"] == r2.obj(e.t)["id"] {
				return "same id"
			}
		}
		return "distinct"
	},
	// ---- 6
	"content-type-params-rejected": func(e *env) string {
		h := key(e.acc(0))
		h["Content-Type"] = "application/json; charset=utf-8"
		return code(putClient(e, nil, h))
	},
	"chunked-body-ignored": func(e *env) string {
		req := httptest.NewRequest("PUT", e.s.BasePath()+e.clientPath(0), strings.NewReader(js(clientBody(nil))))
		req.ContentLength = -1
		req.TransferEncoding = []string{"chunked"}
		req.Header.Set("Authorization", "api-key "+e.acc(0).APIKey)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		e.s.ServeHTTP(rec, req)
		return fmt.Sprint(rec.Code)
	},
	"route-matches-escaped-path": func(e *env) string {
		u, _ := e.ids(e.acc(0))
		enc := ""
		for _, ch := range fmt.Sprint(u) {
			enc += "%3" + string(ch)
		}
		return code(e.do("GET", "/users/"+enc, "", key(e.acc(0))))
	},
	"string-escapes-not-decoded": func(e *env) string {
		body := strings.Replace(js(clientBody(nil)), `"Acme Games"`, `"Caf\u00e9"`, 1)
		return e.do("PUT", e.clientPath(0), body, key(e.acc(0))).obj(e.t)["name"].(string)
	},
	"integral-float-ids-rejected": func(e *env) string {
		return code(putClient(e, map[string]any{"currency": map[string]any{"id": 2.5}}, key(e.acc(0)))) +
			code(e.do("PUT", e.clientPath(0), strings.Replace(js(clientBody(nil)), `{"id":2}`, `{"id":2.0}`, 1), key(e.acc(0))))
	},
	// ---- 7
	"email-index-stale-after-update": func(e *env) string {
		a := e.acc(0)
		e.do("PUT", e.userPath(0), js(userBody(map[string]any{"email": "renamed@example.org"})), key(a))
		return code(e.login("renamed@example.org", a.Password))
	},
	"password-update-not-stored": func(e *env) string {
		a := e.acc(0)
		e.do("PUT", e.userPath(0), js(userBody(map[string]any{"email": a.Email, "password": "brand-new-pw"})), key(a))
		return code(e.login(a.Email, "brand-new-pw"))
	},
	"password-trimmed-on-set": func(e *env) string {
		a := e.acc(0)
		e.do("PUT", e.userPath(0), js(userBody(map[string]any{"email": a.Email, "password": " spaced pw "})), key(a))
		return code(e.login(a.Email, " spaced pw "))
	},
	"names-trimmed-on-store": func(e *env) string {
		return putClient(e, map[string]any{"name": " Acme "}, key(e.acc(0))).obj(e.t)["name"].(string)
	},
	// ---- 8
	"single-error-not-array": func(e *env) string {
		return putClient(e, map[string]any{"name": "<absent>"}, key(e.acc(0))).raw[:1]
	},
	"foreign-resource-404": func(e *env) string {
		return code(putClient(e, nil, key(e.acc(1))))
	},
	"unknown-user-403": func(e *env) string {
		return code(e.do("PUT", "/users/99999999", js(userBody(nil)), key(e.acc(0))))
	},
	"validation-status-422": func(e *env) string {
		return code(putClient(e, map[string]any{"name": "<absent>"}, key(e.acc(0))))
	},
	"malformed-json-500": func(e *env) string {
		return code(e.do("PUT", e.clientPath(0), `{"name":`, key(e.acc(0))))
	},
}

func TestWrongFaultsAreObservable(t *testing.T) {
	for _, f := range Faults() {
		if f.Legal {
			if _, ok := probes[f.Name]; ok {
				t.Errorf("legal reading %s has a wrong-fault probe", f.Name)
			}
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			p, ok := probes[f.Name]
			if !ok {
				t.Fatalf("no probe for %s", f.Name)
			}
			want := p(newEnv(t, ""))
			got := p(newEnv(t, f.Name))
			if want == got {
				t.Errorf("fault %s not observable: both %q", f.Name, got)
			}
			t.Logf("correct %q, fault %q", want, got)
		})
	}
	for name := range probes {
		found := false
		for _, f := range Faults() {
			found = found || (f.Name == name && !f.Legal)
		}
		if !found {
			t.Errorf("probe %s has no wrong fault", name)
		}
	}
}

func TestLegalReadings(t *testing.T) {
	t.Run("base-path-v1", func(t *testing.T) {
		e := newEnv(t, "base-path-v1")
		if e.s.BasePath() != "/v1" {
			t.Fatal(e.s.BasePath())
		}
		if r := e.do("GET", "/clients", "", key(e.acc(0))); r.code != 200 {
			t.Errorf("/v1/clients: %d", r.code)
		}
		if r := e.do("GET", "!/v1.0/clients", "", key(e.acc(0))); r.code != 404 {
			t.Errorf("/v1.0/clients: %d", r.code)
		}
	})
	t.Run("catalogues-require-auth", func(t *testing.T) {
		c, l := newEnv(t, ""), newEnv(t, "catalogues-require-auth")
		for _, p := range []string{"/platforms", "/currencies", "/plans", "/phone-countries", "/marketapps"} {
			if c.do("GET", p, "", nil).code != 200 || l.do("GET", p, "", nil).code != 401 || l.do("GET", p, "", key(l.acc(0))).code != 200 {
				t.Errorf("%s", p)
			}
		}
	})
	t.Run("email-match-case-sensitive", func(t *testing.T) {
		c, l := newEnv(t, ""), newEnv(t, "email-match-case-sensitive")
		for _, x := range []struct {
			e    *env
			want int
		}{{c, 200}, {l, 401}} {
			a := x.e.acc(0)
			if r := x.e.login(strings.ToUpper(a.Email), a.Password); r.code != x.want {
				t.Errorf("login upper: %d want %d", r.code, x.want)
			}
		}
		b := l.acc(1)
		r := l.do("PUT", l.userPath(0), js(userBody(map[string]any{"email": strings.ToUpper(b.Email)})), key(l.acc(0)))
		if r.code != 200 {
			t.Errorf("case variant of another email: %d", r.code)
		}
	})
	t.Run("app-without-hash-refused", func(t *testing.T) {
		c, l := newEnv(t, ""), newEnv(t, "app-without-hash-refused")
		body := `{"name":"My App","platform":{"id":1},"nextplan":{"id":1}}`
		if r := c.do("POST", "/apps", body, key(c.acc(0))); r.code != 200 {
			t.Errorf("correct: %d", r.code)
		}
		if r := l.do("POST", "/apps", body, key(l.acc(0))); r.code != 400 || r.codes(t)[0] != "marketapp.hash:InvalidMarketappHash" {
			t.Errorf("legal: %s", r.raw)
		}
		if r := l.do("POST", "/apps", `{"nextplan":{"id":1}}`, key(l.acc(0))); r.code != 400 || r.codes(t)[0] != "name:InvalidName" {
			t.Errorf("legal neither: %s", r.raw)
		}
		if r := l.do("POST", "/apps", js(appBody(hashAndroid)), key(l.acc(0))); r.code != 200 {
			t.Errorf("legal with hash: %d", r.code)
		}
	})
	t.Run("put-client-keeps-omitted-optionals", func(t *testing.T) {
		c, l := newEnv(t, ""), newEnv(t, "put-client-keeps-omitted-optionals")
		for _, x := range []struct {
			e    *env
			want any
		}{{c, nil}, {l, "FR9"}} {
			putClient(x.e, map[string]any{"vat": "FR9"}, key(x.e.acc(0)))
			if got := putClient(x.e, nil, key(x.e.acc(0))).obj(t)["vat"]; got != x.want {
				t.Errorf("vat after omission: %v want %v", got, x.want)
			}
			if got := putClient(x.e, map[string]any{"vat": nil}, key(x.e.acc(0))).obj(t)["vat"]; got != nil {
				t.Errorf("vat after null: %v", got)
			}
		}
	})
}
