package actor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

const (
	hashPQAndroid = "c3ab11b55aae7f3dfc125d9396cab66771b6216e"
	hashNoteIOS   = "64acd7092a89594247154cae3c891126fc9a8d87"
	unknownHash   = "0123456789abcdef0123456789abcdef01234567"
)

type harness struct {
	t      *testing.T
	srv    *Server
	ts     *httptest.Server
	client *http.Client
	base   string
	a, b   Account
}

func newHarness(t *testing.T, fault string) *harness {
	t.Helper()
	srv, err := New(Options{Pairs: 1, Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c := ts.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	acc := srv.Accounts()
	return &harness{t: t, srv: srv, ts: ts, client: c, base: ts.URL + srv.BasePath(), a: acc[0][0], b: acc[0][1]}
}

type resp struct {
	status int
	body   []byte
	header http.Header
}

func (r resp) json() any {
	var v any
	_ = json.Unmarshal(r.body, &v)
	return v
}

func (r resp) obj() map[string]any {
	m, _ := r.json().(map[string]any)
	return m
}

func (r resp) str(key string) string {
	v := r.obj()[key]
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return fmt.Sprint(int64(x))
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// firstError returns "fieldName/error" of the first element of a 400 array.
func (r resp) firstError() string {
	arr, _ := r.json().([]any)
	if len(arr) == 0 {
		return "<no array>"
	}
	e, _ := arr[0].(map[string]any)
	return fmt.Sprintf("%v/%v", e["fieldName"], e["error"])
}

// req sends a request. body: nil, string (raw) or anything JSON-encodable.
// hdr are key/value pairs.
func (h *harness) req(method, path string, body any, hdr ...string) resp {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case io.Reader:
		rd = b
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	url := path
	if !strings.HasPrefix(path, "http") {
		url = h.base + path
	}
	r, err := http.NewRequest(method, url, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "<del>" {
			r.Header.Del(hdr[i])
			continue
		}
		r.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := h.client.Do(r)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, body: raw, header: res.Header}
}

func key(a Account) []string { return []string{"Authorization", "api-key " + a.APIKey} }

func (h *harness) login(email, password string) resp {
	return h.req("POST", "/sessions", map[string]any{"email": email, "password": password})
}

// ids returns the user id and client id of an account (via a session).
func (h *harness) ids(a Account) (int64, int64) {
	h.t.Helper()
	r := h.login(a.Email, a.Password)
	if r.status != 200 {
		h.t.Fatalf("login %s: %d %s", a.Email, r.status, r.body)
	}
	m := r.obj()
	return int64(m["userId"].(float64)), int64(m["clientId"].(float64))
}

func userBody(email string, password any) map[string]any {
	return map[string]any{
		"email": email, "firstName": "Ann", "lastName": "Lee",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": false, "subscribeOnboarding": true,
		"timezone": "Europe/Paris", "password": password,
	}
}

func clientBody(name any) map[string]any {
	return map[string]any{
		"name": name, "addressLine1": "1 Rue", "addressCity": "Paris", "addressPostcode": "75001",
		"addressCountry": "France", "currency": map[string]any{"id": 3}, "terms": "I agree",
	}
}

func appBody(hash string) map[string]any {
	return map[string]any{"marketapp": map[string]any{"hash": hash}, "nextplan": map[string]any{"id": 2}}
}

func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		if kv[i+1] == "<del>" {
			delete(out, k)
		} else {
			out[k] = kv[i+1]
		}
	}
	return out
}

// parallel runs fns at the same time and waits for all.
func parallel(fns ...func()) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, f := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			f()
		}()
	}
	close(start)
	wg.Wait()
}
