package replay

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// session is a frontend's session against a mock, as a test drives it: a
// client of the API that keeps the token of its last login.
type session struct {
	t     *testing.T
	base  string // http://127.0.0.1:PORT/v1
	token string
	// ns, when set, is the mock's namespace the session acts in.
	ns string
	// client sends the requests; nil: http.DefaultClient.
	client *http.Client
}

// call sends one request and returns the answer's status and body.
func (s *session) call(method, path string, header map[string]string, body any) (int, gjson.Result) {
	s.t.Helper()
	h := map[string]string{}
	if s.ns != "" {
		h["X-Mock-Namespace"] = s.ns
	}
	maps.Copy(h, header)
	req, err := probe.NewRequest(method, s.base+path, h, body)
	if err != nil {
		s.t.Fatal(err)
	}
	client := s.client
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, gjson.ParseBytes(b)
}

// login logs in and keeps the token.
func (s *session) login(email, password string) int {
	s.t.Helper()
	status, a := s.call("POST", "/sessions", nil, map[string]any{"email": email, "password": password})
	if status == 200 {
		s.token = a.Get("token").String()
	}
	return status
}

// withToken is the session-token header of the last login.
func (s *session) withToken() map[string]string { return map[string]string{"session-token": s.token} }

// journal reads the mock's journal of the session's namespace, as a
// frontend developer saves it.
func (s *session) journal(origin string) []byte {
	s.t.Helper()
	req, _ := http.NewRequest("GET", origin+"/__admin/requests", nil)
	if s.ns != "" {
		req.Header.Set("X-Mock-Namespace", s.ns)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		s.t.Fatalf("GET /__admin/requests: %d %s", res.StatusCode, b)
	}
	return b
}

// writeFile writes a file of the test's temporary folder.
func writeFile(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// userBody is what a frontend's profile form sends: the user it read,
// with changes.
func userBody(u gjson.Result, changes map[string]any) map[string]any {
	b := map[string]any{}
	for _, k := range []string{"email", "firstName", "lastName", "subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding", "timezone"} {
		b[k] = u.Get(k).Value()
	}
	b["password"] = nil
	for k, v := range changes {
		b[k] = v
	}
	return b
}

// harTransport records every request it sends, whatever its host, as the
// entries of a HAR 1.2 log, as a browser's developer tools save them.
type harTransport struct {
	mu      sync.Mutex
	entries []map[string]any
}

func (h *harTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	started := time.Now()
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(answer))
	pairs := func(h http.Header) []map[string]string {
		var out []map[string]string
		for k, vs := range h {
			for _, v := range vs {
				out = append(out, map[string]string{"name": k, "value": v})
			}
		}
		return out
	}
	request := map[string]any{"method": req.Method, "url": req.URL.String(), "httpVersion": "HTTP/1.1", "headers": pairs(req.Header),
		"queryString": []any{}, "cookies": []any{}, "headersSize": -1, "bodySize": len(body)}
	if len(body) > 0 {
		request["postData"] = map[string]any{"mimeType": req.Header.Get("Content-Type"), "text": string(body)}
	}
	h.mu.Lock()
	h.entries = append(h.entries, map[string]any{
		"startedDateTime": started.UTC().Format(time.RFC3339Nano), "time": float64(time.Since(started).Microseconds()) / 1000,
		"request": request,
		"response": map[string]any{"status": res.StatusCode, "statusText": res.Status, "httpVersion": "HTTP/1.1", "headers": pairs(res.Header),
			"cookies": []any{}, "content": map[string]any{"size": len(answer), "mimeType": res.Header.Get("Content-Type"), "text": string(answer)},
			"redirectURL": "", "headersSize": -1, "bodySize": len(answer)},
		"cache": map[string]any{}, "timings": map[string]any{"send": 0, "wait": 0, "receive": 0},
	})
	h.mu.Unlock()
	return res, nil
}

// har is the log recorded, as a HAR file.
func (h *harTransport) har(t *testing.T) []byte {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	b, err := json.MarshalIndent(map[string]any{"log": map[string]any{"version": "1.2", "creator": map[string]any{"name": "replay test", "version": "1"},
		"pages": []any{}, "entries": h.entries}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hits counts the requests a server received, by path.
type hits struct {
	mu    sync.Mutex
	paths []string
}

func (h *hits) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.paths = append(h.paths, r.Method+" "+r.URL.Path)
		h.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (h *hits) seen() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.paths...)
}
