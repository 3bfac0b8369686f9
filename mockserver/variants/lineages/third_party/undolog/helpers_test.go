package undolog

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const (
	hashAndroid = "3f7a9c2e5b8d1f4a6c0e9b2d7f5a3c8e1b4d6f90"
	hashIOS     = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"
	hashUnknown = "1111111111111111111111111111111111111111"
)

type resp struct {
	code int
	raw  string
	hdr  http.Header
}

func (r resp) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.raw), &m); err != nil {
		t.Fatalf("body is not an object (%d): %s", r.code, r.raw)
	}
	return m
}

func (r resp) errs(t *testing.T) []map[string]any {
	t.Helper()
	var a []map[string]any
	if err := json.Unmarshal([]byte(r.raw), &a); err != nil {
		t.Fatalf("body is not an error array (%d): %s", r.code, r.raw)
	}
	return a
}

// codes lists "fieldName:error" of an error array.
func (r resp) codes(t *testing.T) []string {
	var out []string
	for _, e := range r.errs(t) {
		out = append(out, fmt.Sprintf("%v:%v", e["fieldName"], e["error"]))
	}
	return out
}

type H map[string]string

type env struct {
	t *testing.T
	s *Server
}

func newEnv(t *testing.T, fault string) *env {
	t.Helper()
	s, err := New(Options{Pairs: 3, Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, s: s}
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// do sends a request to path (relative to the base path unless it starts with "!").
func (e *env) do(method, path, body string, h H) resp {
	e.t.Helper()
	target := e.s.BasePath() + path
	if strings.HasPrefix(path, "!") {
		target = path[1:]
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range h {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	rec := httptest.NewRecorder()
	e.s.ServeHTTP(rec, req)
	return resp{code: rec.Code, raw: rec.Body.String(), hdr: rec.Header()}
}

func (e *env) acc(i int) Account { return e.s.Accounts()[0][i] }

func key(a Account) H { return H{"Authorization": "api-key " + a.APIKey} }

func (e *env) login(email, pw string) resp {
	return e.do("POST", "/sessions", js(map[string]any{"email": email, "password": pw}), nil)
}

// ids returns the user id and primary client id of an account.
func (e *env) ids(a Account) (int64, int64) {
	e.t.Helper()
	r := e.login(a.Email, a.Password)
	if r.code != 200 {
		e.t.Fatalf("login %s: %d %s", a.Email, r.code, r.raw)
	}
	m := r.obj(e.t)
	return int64(m["userId"].(float64)), int64(m["clientId"].(float64))
}

func (e *env) token(a Account) string {
	e.t.Helper()
	return e.login(a.Email, a.Password).obj(e.t)["token"].(string)
}

func userBody(over map[string]any) map[string]any {
	m := map[string]any{
		"email": "ann.lee@example.org", "firstName": "Ann", "lastName": "Lee",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": false, "subscribeOnboarding": true,
		"timezone": "Europe/Paris", "password": nil,
	}
	for k, v := range over {
		if v == "<absent>" {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return m
}

func clientBody(over map[string]any) map[string]any {
	m := map[string]any{
		"name": "Acme Games", "addressLine1": "1 Rue de Rivoli", "addressCity": "Paris",
		"addressPostcode": "75001", "addressCountry": "France", "currency": map[string]any{"id": 2},
		"terms": "I agree",
	}
	for k, v := range over {
		if v == "<absent>" {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return m
}

func appBody(hash string) map[string]any {
	return map[string]any{"marketapp": map[string]any{"hash": hash}, "nextplan": map[string]any{"id": 1}}
}

func path(format string, a ...any) string { return fmt.Sprintf(format, a...) }
