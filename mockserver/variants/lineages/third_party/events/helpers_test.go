package events

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/jsonpath"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineagetest"
)

type harness struct {
	t testing.TB
	s *Server
}

func newHarness(t testing.TB, fault string) *harness {
	t.Helper()
	s, err := New(Options{Pairs: 2, Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, s: s}
}

type resp struct {
	status int
	header http.Header
	raw    []byte
	body   any
}

// at walks a decoded body by a dotted path such as "0.fieldName" or
// "phoneCountry.dialCode"; a missing step yields nil.
func (r resp) at(path string) any { return jsonpath.At(r.body, path) }

func (r resp) str(path string) string {
	switch v := r.at(path).(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

func (r resp) id(path string) int64 {
	f, _ := r.at(path).(float64)
	return int64(f)
}

// codes lists "fieldName:error" of a 400 body, for compact assertions.
func (r resp) codes() []string { return jsonpath.Codes(r.body) }

func (r resp) hasCode(field, code string) bool { return slices.Contains(r.codes(), field+":"+code) }

type opt func(*http.Request)

func withKey(k string) opt {
	return func(r *http.Request) { r.Header.Add("Authorization", "api-key "+k) }
}

func withHeader(k, v string) opt { return func(r *http.Request) { r.Header.Add(k, v) } }

func withToken(t string) opt { return withHeader("session-token", t) }

func withQueryToken(t string) opt {
	return func(r *http.Request) {
		q := r.URL.Query()
		q.Add("sessionToken", t)
		r.URL.RawQuery = q.Encode()
		r.RequestURI = r.URL.RequestURI()
	}
}

// do sends a request under the base path.
func (h *harness) do(method, path string, body any, opts ...opt) resp {
	return h.doRaw(method, basePath+path, body, opts...)
}

func (h *harness) doRaw(method, path string, body any, opts ...opt) resp {
	h.t.Helper()
	rec := lineagetest.Serve(h.s, method, "http://127.0.0.1"+path, body, func(req *http.Request) {
		for _, o := range opts {
			o(req)
		}
	})
	r := resp{status: rec.Code, header: rec.Header(), raw: rec.Body.Bytes()}
	if len(r.raw) > 0 {
		if err := json.Unmarshal(r.raw, &r.body); err != nil {
			h.t.Fatalf("%s %s: body is not JSON: %q", method, path, r.raw)
		}
	}
	return r
}

func (h *harness) acct(pair, side int) Account { return h.s.Accounts()[pair][side] }

type login struct {
	token            string
	userID, clientID int64
}

func (h *harness) login(a Account) login {
	h.t.Helper()
	r := h.do("POST", "/sessions", map[string]any{"email": a.Email, "password": a.Password})
	if r.status != 200 {
		h.t.Fatalf("login %s: %d %s", a.Email, r.status, r.raw)
	}
	return login{token: r.str("token"), userID: r.id("userId"), clientID: r.id("clientId")}
}

// loginStatus tries credentials and reports only the status.
func (h *harness) loginStatus(email, password string) int {
	return h.do("POST", "/sessions", map[string]any{"email": email, "password": password}).status
}

// The body helpers return fresh maps, so a test may change them freely.

func userBody(email string) map[string]any {
	return map[string]any{
		"email":               email,
		"firstName":           "Wilhelmina",
		"lastName":            "Castellanos",
		"subscribeWelcome":    true,
		"subscribeBlog":       false,
		"subscribeHowto":      true,
		"subscribeOnboarding": false,
		"timezone":            "America/Argentina/Buenos_Aires",
		"password":            nil,
	}
}

func clientBody() map[string]any {
	return map[string]any{
		"name":            "Gannet & Wren Interactive",
		"addressLine1":    "4 Ropewalk Yard",
		"addressLine2":    "Second floor",
		"addressCity":     "Aberystwyth",
		"addressPostcode": "SY23 1DE",
		"addressCountry":  "United Kingdom",
		"vat":             "GB123456789",
		"currency":        map[string]any{"id": 826},
		"terms":           "I agree",
	}
}

func (h *harness) appBody(title string, platformID int64) map[string]any {
	return map[string]any{
		"marketapp": map[string]any{"hash": h.hashOf(title, platformID)},
		"name":      nil,
		"platform":  map[string]any{"id": nil},
		"nextplan":  map[string]any{"id": planPro},
	}
}

// bareApp is a POST /apps body without hash, name or platform.
func bareApp() map[string]any {
	return map[string]any{
		"marketapp": nil,
		"name":      nil,
		"platform":  map[string]any{"id": nil},
		"nextplan":  map[string]any{"id": planPro},
	}
}

func (h *harness) hashOf(title string, platformID int64) string {
	m, ok := h.s.cat.marketByTitle(title, platformID)
	if !ok {
		h.t.Fatalf("no marketplace app %q on %d", title, platformID)
	}
	return m.Hash
}

// set changes a body at a dotted path; the value del removes the key.
func set(body map[string]any, path string, value any) map[string]any {
	m, last := jsonpath.Parent(body, path)
	if value == del {
		delete(m, last)
	} else {
		m[last] = value
	}
	return body
}

type deletion struct{}

var del = deletion{}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func path(format string, a ...any) string { return fmt.Sprintf(format, a...) }
