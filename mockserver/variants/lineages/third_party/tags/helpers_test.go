package tags

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

type resp struct {
	Code int
	Hdr  http.Header
	Body []byte
}

func (r resp) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("not a JSON object (%d): %s", r.Code, r.Body)
	}
	return m
}

func (r resp) errs(t *testing.T) []FieldError {
	t.Helper()
	var e []FieldError
	if err := json.Unmarshal(r.Body, &e); err != nil {
		t.Fatalf("not an error array (%d): %s", r.Code, r.Body)
	}
	return e
}

func (r resp) hasCode(code string) bool {
	var e []FieldError
	if json.Unmarshal(r.Body, &e) != nil {
		return false
	}
	return hasCode(e, code)
}

func newServer(t testing.TB, fault string) *Server {
	t.Helper()
	s, err := New(Options{Pairs: 2, Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call sends a request to path (relative to the base path). hdr holds
// header pairs: "Name", "value", ...
func call(s *Server, method, path, body string, hdr ...string) resp {
	var req *http.Request
	if body != "" {
		req = httptest.NewRequest(method, s.BasePath()+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, s.BasePath()+path, nil)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return resp{rec.Code, rec.Header(), rec.Body.Bytes()}
}

func key(a Account) []string { return []string{"Authorization", "api-key " + a.APIKey} }

// as calls with account a's api key.
func as(s *Server, a Account, method, path, body string, hdr ...string) resp {
	return call(s, method, path, body, append(key(a), hdr...)...)
}

func accA(s *Server) Account { return s.Accounts()[0][0] }
func accB(s *Server) Account { return s.Accounts()[0][1] }

func userID(t *testing.T, s *Server, a Account) int {
	t.Helper()
	u, ok := s.users.ByEmail(a.Email)
	if !ok {
		t.Fatalf("no user %s", a.Email)
	}
	return u.ID
}

func clientID(t *testing.T, s *Server, a Account) int {
	t.Helper()
	u, _ := s.users.ByEmail(a.Email)
	return u.PrimaryClientID
}

func login(s *Server, email, pw string) resp {
	b, _ := json.Marshal(map[string]string{"email": email, "password": pw})
	return call(s, "POST", "/sessions", string(b))
}

func token(t *testing.T, s *Server, a Account) string {
	t.Helper()
	r := login(s, a.Email, a.Password)
	if r.Code != 200 {
		t.Fatalf("login: %d %s", r.Code, r.Body)
	}
	return r.obj(t)["token"].(string)
}

func itoa(n int) string { return strings.TrimSpace(jsonStr(n)) }

func jsonStr(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

const (
	hashSnakeAndroid = "00e1db0c6312763279b1080f856c575d7499742a"
	validClient      = `{"name":"Acme","addressLine1":"1 Road","addressCity":"Paris","addressPostcode":"75001","addressCountry":"France","currency":{"id":1},"terms":"I agree"}`
	validApp         = `{"marketapp":{"hash":"` + hashSnakeAndroid + `"},"nextplan":{"id":1}}`
)

// withFields returns the JSON object base with fields replaced/added (kv:
// name, raw JSON value, ...; later pairs win); an empty value removes the field.
func withFields(base string, kv ...string) string {
	var m map[string]json.RawMessage
	_ = json.Unmarshal([]byte(base), &m)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(m, kv[i])
			continue
		}
		m[kv[i]] = json.RawMessage(kv[i+1])
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// clientBody returns validClient with fields replaced/added (raw JSON values).
func clientBody(kv ...string) string { return withFields(validClient, kv...) }

// seedOf gives the seeded account's tag ("a" or "b", upper-cased) and pair
// number from its email a<i>@example.com (choices.md, "Seed data").
func seedOf(a Account) (tag string, pair int) {
	local, _, _ := strings.Cut(a.Email, "@")
	pair, _ = strconv.Atoi(local[1:])
	return strings.ToUpper(local[:1]), pair
}

// fullUser is a full PUT /users body for seeded account a: every field the
// server requires (§2: only a field marked optional may be omitted) with its
// seeded value, then kv as in withFields.
func fullUser(a Account, kv ...string) string {
	tag, pair := seedOf(a)
	base := jsonStr(map[string]string{"email": a.Email, "firstName": tag + "First", "lastName": "Pair" + itoa(pair)})
	return withFields(base, kv...)
}

// fullClient is a full PUT /clients body for seeded account a's client: every
// required field with its seeded value, then kv as in withFields.
func fullClient(a Account, kv ...string) string {
	tag, pair := seedOf(a)
	base := jsonStr(map[string]any{
		"name": "Client " + tag + itoa(pair), "addressLine1": "1 Example Street", "addressCity": "London",
		"addressPostcode": "EC1A 1AA", "addressCountry": "United Kingdom", "currency": map[string]int{"id": 1},
		"terms": termsLiteral,
	})
	return withFields(base, kv...)
}
