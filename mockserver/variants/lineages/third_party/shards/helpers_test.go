package shards

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/jsonpath"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineagetest"
)

type harness struct {
	t *testing.T
	s *Server
}

func newHarness(t *testing.T, fault string) *harness {
	t.Helper()
	s, err := New(Options{Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, s: s}
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) value() any { return lineagetest.JSON(r.body) }

func (r resp) obj() map[string]any {
	m, _ := r.value().(map[string]any)
	return m
}

// get walks a dotted path through the decoded body.
func (r resp) get(path string) any {
	var v any = r.value()
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func (r resp) str(path string) string { s, _ := r.get(path).(string); return s }

func (r resp) num(path string) int64 { f, _ := r.get(path).(float64); return int64(f) }

// codes lists the error codes of an error array body.
func (r resp) codes() []string { return jsonpath.Codes(r.value()) }

func (r resp) String() string { return fmt.Sprintf("%d %s", r.status, r.body) }

// do sends a request; path is relative to the base path unless it starts
// with /api. body is nil, a string (raw) or a value to marshal. hdr holds
// header name/value pairs.
func (h *harness) do(method, path string, body any, hdr ...string) resp {
	if !strings.HasPrefix(path, "/api") {
		path = h.s.BasePath() + path
	}
	rec := lineagetest.Serve(h.s, method, path, body, func(req *http.Request) {
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	})
	return resp{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

func (h *harness) acc(role int) Account { return h.s.Accounts()[0][role] }

// key returns the api-key header of account A (0) or B (1).
func (h *harness) key(role int) []string {
	return []string{"Authorization", "api-key " + h.acc(role).APIKey}
}

func (h *harness) login(email, password string) resp {
	return h.do("POST", "/sessions", map[string]any{"email": email, "password": password})
}

func (h *harness) token(role int) string {
	r := h.login(h.acc(role).Email, h.acc(role).Password)
	if r.status != 200 {
		h.t.Fatalf("login: %s", r)
	}
	return r.str("token")
}

// seeded ids: account A is user 1 / client 1, B is user 2 / client 2.
const (
	userA, userB     = 1, 2
	clientA, clientB = 1, 2
)

func userBody(email string) map[string]any {
	return map[string]any{
		"email": email, "firstName": "Alice", "lastName": "Pair1",
		"subscribeWelcome": false, "subscribeBlog": true,
		"subscribeHowto": false, "subscribeOnboarding": true,
		"timezone": "Europe/London", "password": nil,
	}
}

func clientBody(name string) map[string]any {
	return map[string]any{
		"name": name, "addressLine1": "1 High Street", "addressCity": "Leeds",
		"addressPostcode": "LS1 1AA", "addressCountry": "GB",
		"currency": map[string]any{"id": 1}, "terms": "I agree",
	}
}

func appBody(hash string) map[string]any {
	return map[string]any{"marketapp": map[string]any{"hash": hash}, "nextplan": map[string]any{"id": 1}}
}

func with(m map[string]any, kv ...any) map[string]any { return lineagetest.With(m, deleteKey, kv...) }

type deleteMarker struct{}

var deleteKey = deleteMarker{}

// parallel runs the functions concurrently, each started after the
// previous one by the given stagger in milliseconds.
func parallel(staggerMS int, fns ...func()) {
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sleepMS(i * staggerMS)
			fn()
		}()
	}
	wg.Wait()
}

func sleepMS(n int) { time.Sleep(time.Duration(n) * time.Millisecond) }
