package ledger

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/jsonpath"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineagetest"
)

type resp struct {
	code int
	raw  []byte
	hdr  http.Header
}

func (r resp) val() any { return lineagetest.JSON(r.raw) }

func (r resp) obj() map[string]any {
	m, _ := r.val().(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// codes returns the (fieldName, error) pairs of a 400 body, or nil if the
// body is not an array of error objects.
func (r resp) codes() []string { return jsonpath.Codes(r.val()) }

func (r resp) hasCode(code string) bool { return jsonpath.HasCode(r.val(), code) }

func (r resp) String() string { return fmt.Sprintf("%d %s", r.code, bytes.TrimSpace(r.raw)) }

// call sends a request straight to ServeHTTP. path is relative to the
// base path unless it starts with "/api". body: nil, a string (raw) or a
// value to marshal. hdrs: key, value pairs.
func call(s *Server, method, path string, body any, hdrs ...string) resp {
	if !strings.HasPrefix(path, "/api") {
		path = s.BasePath() + path
	}
	rec := lineagetest.Serve(s, method, "http://pricing.test"+path, body, func(req *http.Request) {
		for i := 0; i+1 < len(hdrs); i += 2 {
			if hdrs[i] == "-" {
				req.Header.Del(hdrs[i+1])
				continue
			}
			req.Header.Add(hdrs[i], hdrs[i+1])
		}
	})
	return resp{rec.Code, rec.Body.Bytes(), rec.Header()}
}

func newSrv(t testing.TB, fault string) *Server {
	t.Helper()
	s, err := New(Options{Pairs: 1, Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// who is a logged-in account.
type who struct {
	acc   Account
	uid   int64
	cid   int64
	token string
	key   []string // api-key header pair
	tok   []string // session-token header pair
}

func num(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

func login(t testing.TB, s *Server, acc Account) who {
	t.Helper()
	r := call(s, "POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password})
	if r.code != 200 {
		t.Fatalf("login %s: %v", acc.Email, r)
	}
	o := r.obj()
	tok, _ := o["token"].(string)
	return who{acc: acc, uid: num(o["userId"]), cid: num(o["clientId"]), token: tok,
		key: []string{"Authorization", "api-key " + acc.APIKey}, tok: []string{"session-token", tok}}
}

func pair(t testing.TB, s *Server) (who, who) {
	p := s.Accounts()[0]
	return login(t, s, p[0]), login(t, s, p[1])
}

func userBody(email string) map[string]any {
	return map[string]any{
		"email": email, "firstName": "Ada", "lastName": "Lovelace",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false,
		"timezone": "Europe/Paris", "password": nil,
		"phoneCountry": map[string]any{"id": 3}, "phoneNumber": "030 1234567", "phoneExtension": "42",
	}
}

func clientBody(name string) map[string]any {
	return map[string]any{
		"name": name, "addressLine1": "1 Main Street", "addressCity": "Leeds", "addressPostcode": "LS1 1AA",
		"addressCountry": "United Kingdom", "currency": map[string]any{"id": 1}, "terms": "I agree",
	}
}

const (
	hashAndroid = "b03a1bb60cd338b32e4bec12d8916e5cc484be1d" // Puzzle Harbour, Android
	hashIOS     = "56cce2ac75189011953756631735af3ef4e791f9" // Puzzle Harbour, iOS
	hashTrail   = "48d63f7f335a9bc1138085353f606d1f9a0059cc" // Trail Runner, Android
	hashUnknown = "0123456789abcdef0123456789abcdef01234567"
)

func appBody(hash string) map[string]any {
	return map[string]any{"marketapp": map[string]any{"hash": hash}, "name": nil,
		"platform": map[string]any{"id": nil}, "nextplan": map[string]any{"id": 1}}
}

func with(m map[string]any, kv ...any) map[string]any { return lineagetest.With(m, del, kv...) }

type delMarker struct{}

var del = delMarker{}

var (
	isoRe = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$`)
	hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)
)

func h(pairs ...[]string) []string {
	var out []string
	for _, p := range pairs {
		out = append(out, p...)
	}
	return out
}
