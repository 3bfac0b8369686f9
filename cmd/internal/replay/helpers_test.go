package replay

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// session is a frontend's session against a mock, as a test drives it: a
// client of the API that keeps the token of its last login.
type session struct {
	t     *testing.T
	base  string // http://127.0.0.1:PORT/v1
	token string
	// ns, when set, is the mock's namespace the session acts in.
	ns string
}

// call sends one request and returns the answer's status and body.
func (s *session) call(method, path string, header map[string]string, body any) (int, gjson.Result) {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.ns != "" {
		req.Header.Set("X-Mock-Namespace", s.ns)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
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
