package typed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type resp struct {
	Code int
	Body []byte
	Hdr  http.Header
}

func (r resp) obj() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

func (r resp) arr() []map[string]any {
	var a []map[string]any
	_ = json.Unmarshal(r.Body, &a)
	return a
}

func (r resp) str(path string) string {
	var v any = r.obj()
	for _, p := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return "<none>"
		}
		v, ok = m[p]
		if !ok {
			return "<absent>"
		}
	}
	return fmt.Sprint(v)
}

// codes summarises a 400 body as "field:code,field:code".
func (r resp) codes() string {
	var parts []string
	for _, e := range r.arr() {
		parts = append(parts, fmt.Sprintf("%v:%v", e["fieldName"], e["error"]))
	}
	return strings.Join(parts, ",")
}

type api struct {
	t  testing.TB
	s  *Server
	A  Account
	B  Account
	ts *httptest.Server // only when started with live()
}

func newAPI(t testing.TB, fault string) *api {
	t.Helper()
	s, err := New(Options{Pairs: 2, Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	p := s.Accounts()[0]
	return &api{t: t, s: s, A: p[0], B: p[1]}
}

func (a *api) live() *api {
	a.ts = httptest.NewServer(a.s)
	a.t.Cleanup(a.ts.Close)
	return a
}

func key(acc Account) map[string]string {
	return map[string]string{"Authorization": "api-key " + acc.APIKey}
}

// do sends a request through ServeHTTP. body: nil, string (raw) or any (JSON).
func (a *api) do(method, path string, body any, hdr map[string]string) resp {
	a.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			a.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, a.s.BasePath()+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	w := httptest.NewRecorder()
	a.s.ServeHTTP(w, req)
	return resp{w.Code, w.Body.Bytes(), w.Result().Header}
}

func (a *api) as(acc Account, method, path string, body any) resp {
	a.t.Helper()
	return a.do(method, path, body, key(acc))
}

func (a *api) me(acc Account) resp {
	a.t.Helper()
	r := a.do("POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password}, nil)
	if r.Code != 200 {
		a.t.Fatalf("login %s: %d %s", acc.Email, r.Code, r.Body)
	}
	return a.as(acc, "GET", "/users/"+r.str("userId"), nil)
}

func (a *api) userID(acc Account) string {
	a.t.Helper()
	r := a.do("POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password}, nil)
	if r.Code != 200 {
		a.t.Fatalf("login %s: %d %s", acc.Email, r.Code, r.Body)
	}
	return r.str("userId")
}

func (a *api) clientID(acc Account) string {
	a.t.Helper()
	r := a.do("POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password}, nil)
	return r.str("clientId")
}

func (a *api) login(email, pw string) resp {
	a.t.Helper()
	return a.do("POST", "/sessions", map[string]any{"email": email, "password": pw}, nil)
}

// userBody is a full, valid PUT /users body for acc, password null.
func userBody(acc Account, over map[string]any) map[string]any {
	b := map[string]any{
		"email": acc.Email, "firstName": "First", "lastName": "Last",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false,
		"timezone": "Europe/Paris", "password": nil,
	}
	for k, v := range over {
		if v == "<delete>" {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}

const hashPuzzle = "3b1f0c6a9d2e4f5a8b7c6d5e4f3a2b1c0d9e8f7a"

func appBody(over map[string]any) map[string]any {
	b := map[string]any{"marketapp": map[string]any{"hash": hashPuzzle}, "nextplan": map[string]any{"id": 1}}
	for k, v := range over {
		if v == "<delete>" {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}

func clientBody(over map[string]any) map[string]any {
	b := map[string]any{
		"name": "Acme Ltd", "addressLine1": "1 Main Road", "addressCity": "Leeds", "addressPostcode": "LS1 1AA",
		"addressCountry": "United Kingdom", "currency": map[string]any{"id": 1}, "terms": "I agree",
	}
	for k, v := range over {
		if v == "<delete>" {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}
