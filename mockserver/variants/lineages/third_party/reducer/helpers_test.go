package reducer

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type harness struct {
	t     *testing.T
	s     *Server
	A, B  Account
	clock atomic.Int64 // seconds added to t0
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func newH(t *testing.T, fault string) *harness {
	t.Helper()
	s, err := New(Options{Pairs: 1, Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, s: s}
	// a deterministic clock: every read advances one second
	s.now = func() time.Time { return t0.Add(time.Duration(h.clock.Add(1)) * time.Second) }
	acc := s.Accounts()
	h.A, h.B = acc[0][0], acc[0][1]
	return h
}

type resp struct {
	code int
	body any
	raw  string
	hdr  http.Header
}

// do sends a request. body: nil, a string (sent raw) or a value (JSON
// encoded). hdr: name, value pairs; a name "chunked" sends the body with
// unknown length.
func (h *harness) do(method, path string, body any, hdr ...string) resp {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = strings.NewReader(string(buf))
	}
	if !strings.HasPrefix(path, "/v") {
		path = h.s.BasePath() + path
	}
	req := httptest.NewRequest(method, path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		switch hdr[i] {
		case "chunked":
			req.ContentLength = -1
			req.TransferEncoding = []string{"chunked"}
		case "-Content-Type":
			req.Header.Del("Content-Type")
		default:
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	rec := httptest.NewRecorder()
	h.s.ServeHTTP(rec, req)
	r := resp{code: rec.Code, raw: rec.Body.String(), hdr: rec.Header()}
	if r.raw != "" {
		if err := json.Unmarshal(rec.Body.Bytes(), &r.body); err != nil {
			h.t.Fatalf("%s %s: response is not JSON: %q", method, path, r.raw)
		}
	}
	return r
}

func key(a Account) []string { return []string{"Authorization", "api-key " + a.APIKey} }

func (h *harness) login(email, pw string, extra ...any) resp {
	h.t.Helper()
	b := map[string]any{"email": email, "password": pw}
	for i := 0; i+1 < len(extra); i += 2 {
		b[extra[i].(string)] = extra[i+1]
	}
	return h.do("POST", "/sessions", b)
}

func (h *harness) token(email, pw string) string {
	h.t.Helper()
	r := h.login(email, pw)
	if r.code != 200 {
		h.t.Fatalf("login %s: %d %s", email, r.code, r.raw)
	}
	return get(r.body, "token").(string)
}

// get walks a dotted path through decoded JSON.
func get(v any, path string) any {
	for _, p := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func has(v any, k string) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m[k]
	return ok
}

func num(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

func userBody(email string, pw any) map[string]any {
	return map[string]any{
		"email": email, "firstName": "Ann", "lastName": "Lee",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false,
		"timezone": "Europe/Paris", "password": pw,
	}
}

func clientBody(name string) map[string]any {
	return map[string]any{
		"name": name, "addressLine1": "2 Rue de Rivoli", "addressCity": "Paris", "addressPostcode": "75001",
		"addressCountry": "France", "currency": map[string]any{"id": 1}, "terms": "I agree",
	}
}

const (
	hashPuzzleAndroid = "7ebe8545aa88b3d1cd02f8d5bae25c67fb085577"
	hashWeatherIOS    = "cdf4f65a6e0114daecac63b69177af1777f38fb6"
)

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
		if kv[i+1] == absent {
			delete(out, k)
		} else {
			out[k] = kv[i+1]
		}
	}
	return out
}

type absentT struct{}

var absent = absentT{}

// parallel runs the functions at the same moment and waits for all.
func parallel(fs ...func()) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, f := range fs {
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

func codes(rs ...resp) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, r.code)
	}
	return b.String()
}

func errCodes(r resp) []string {
	arr, _ := r.body.([]any)
	var out []string
	for _, e := range arr {
		out = append(out, fmt.Sprint(get(e, "fieldName"), ":", get(e, "error")))
	}
	return out
}
