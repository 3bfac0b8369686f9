package layered

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type H map[string]string

func mustNew(t testing.TB, fault string) *Server {
	t.Helper()
	s, err := New(Options{Pairs: 2, Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call sends one request directly to ServeHTTP. path is relative to BasePath unless it starts with "!".
func call(s *Server, method, path string, body any, h H) *httptest.ResponseRecorder {
	var rd *strings.Reader
	switch b := body.(type) {
	case nil:
		rd = strings.NewReader("")
	case string:
		rd = strings.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		rd = strings.NewReader(string(raw))
	}
	full := s.BasePath() + path
	if strings.HasPrefix(path, "!") {
		full = path[1:]
	}
	r := httptest.NewRequest(method, full, rd)
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, v := range h {
		if k == "-chunked" {
			r.ContentLength = -1
			r.TransferEncoding = []string{"chunked"}
			continue
		}
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

func key(a Account) H { return H{"Authorization": "api-key " + a.APIKey} }

func decode(t testing.TB, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("body %q: %v", w.Body.String(), err)
	}
	return m
}

func decodeErrs(t testing.TB, w *httptest.ResponseRecorder) []map[string]any {
	t.Helper()
	var m []map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("error body %q: %v", w.Body.String(), err)
	}
	return m
}

func login(s *Server, email, password string) *httptest.ResponseRecorder {
	return call(s, "POST", "/sessions", map[string]any{"email": email, "password": password}, nil)
}

type who struct {
	acc      Account
	userID   int64
	clientID int64
	token    string
}

func ident(t testing.TB, s *Server, a Account) who {
	t.Helper()
	w := login(s, a.Email, a.Password)
	if w.Code != 200 {
		t.Fatalf("login %s: %d %s", a.Email, w.Code, w.Body)
	}
	m := decode(t, w)
	return who{a, int64(m["userId"].(float64)), int64(m["clientId"].(float64)), m["token"].(string)}
}

func pair(t testing.TB, s *Server) (who, who) {
	p := s.Accounts()[0]
	return ident(t, s, p[0]), ident(t, s, p[1])
}

func userBody(email string) map[string]any {
	return map[string]any{
		"email": email, "firstName": "Ann", "lastName": "Lee",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false,
		"timezone": "Europe/Paris", "password": nil,
	}
}

func clientBody() map[string]any {
	return map[string]any{
		"name": "Acme Games", "addressLine1": "2 Rue de Rivoli", "addressCity": "Paris",
		"addressPostcode": "75001", "addressCountry": "France", "currency": map[string]any{"id": 1},
		"terms": "I agree",
	}
}

const hashPuzzle = "3f786850e387550fdab836ed7e6dc881de23001b"
const hashUnknown = "0123456789abcdef0123456789abcdef01234567"

func appBody(hash string) map[string]any {
	return map[string]any{"marketapp": map[string]any{"hash": hash}, "nextplan": map[string]any{"id": 2}}
}

func path(format string, a ...any) string { return fmt.Sprintf(format, a...) }

func count(t testing.TB, s *Server, h H, p, name string) int {
	t.Helper()
	w := call(s, "GET", p, nil, h)
	if w.Code != 200 {
		t.Fatalf("GET %s: %d", p, w.Code)
	}
	return len(decode(t, w)[name].([]any))
}

func status(w *httptest.ResponseRecorder) string { return fmt.Sprint(w.Code) }

var _ = http.StatusOK
