package tables

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The garbage tests throw random and mutated requests at every endpoint and
// require an answer below 500, in JSON, with a 400 body of the shape of 7.1.
// They call ServeHTTP directly so that thousands of requests stay fast.

type endpoint struct {
	method, path string
	valid        func(g *garbage) any // a valid body, to mutate
}

type garbage struct {
	t      testing.TB
	s      *Server
	rnd    *rand.Rand
	auths  []map[string]string
	query  []string
	me     string
	client string
	h      *harness
}

func newGarbage(t testing.TB, h *harness, seed uint64) *garbage {
	tok := h.session(0, 0).str("token")
	return &garbage{
		t: t, s: h.s, h: h, rnd: rand.New(rand.NewPCG(seed, 7)),
		auths: []map[string]string{
			{},
			{"Authorization": "api-key " + h.account(0, 0).APIKey},
			{"session-token": tok},
			{"Authorization": "api-key \x00\xff"},
			{"session-token": strings.Repeat("A", 5000)},
		},
		query:  []string{"", "sessionToken=" + tok, "sessionToken=%zz", "sessionToken=a&sessionToken=b", "x=%00"},
		me:     itoa(h.userID(0, 0)),
		client: itoa(h.clientID(0, 0)),
	}
}

func (g *garbage) endpoints() []endpoint {
	h := g.h
	return []endpoint{
		{"POST", "/users", func(*garbage) any {
			return map[string]any{"email": fmt.Sprintf("g%d@heronsgate.test", g.rnd.IntN(1e9)), "password": "abcdefg", "firstName": "G", "lastName": "H",
				"phoneCountry": map[string]any{"id": h.cat.phones[0]}, "phoneNumber": "123", "client": with(h.clientBody(), "app", h.appByName("iOS"))}
		}},
		{"PUT", "/users/{me}", func(*garbage) any { return with(h.userBody(0, 0), "client", h.clientBody(), "phoneExtension", "12") }},
		{"GET", "/users/{me}", nil},
		{"POST", "/sessions", func(*garbage) any {
			return map[string]any{"email": h.account(0, 0).Email, "password": h.account(0, 0).Password, "clientId": h.clientID(0, 0)}
		}},
		{"POST", "/clients", func(*garbage) any { return with(h.clientBody(), "app", h.appByName("Android"), "vat", "x") }},
		{"PUT", "/clients/{client}", func(*garbage) any { return h.clientBody() }},
		{"GET", "/clients/{client}", nil},
		{"GET", "/clients/{client}/apps", nil},
		{"GET", "/clients", nil},
		{"POST", "/apps", func(*garbage) any {
			return map[string]any{"marketapp": map[string]any{"hash": h.cat.market[2].hash}, "name": "n", "platform": map[string]any{"id": h.cat.platforms["iOS"]}, "nextplan": map[string]any{"id": h.cat.plans["pro"]}}
		}},
		{"GET", "/platforms", nil},
		{"GET", "/currencies", nil},
		{"GET", "/plans", nil},
		{"GET", "/phonecountries", nil},
		{"GET", "/marketapps", nil},
	}
}

var weird = []any{
	nil, true, false, 0, -1, 1.5, json.Number("1e400"), json.Number("-0"), json.Number("99999999999999999999999"),
	json.Number("9223372036854775807"), json.Number("9223372036854775808"), "", " ", "\u0000", "I agree",
	strings.Repeat("é", 300), strings.Repeat("f", 40), []any{}, []any{1, "a"}, map[string]any{},
	map[string]any{"id": json.Number("1e3")}, map[string]any{"id": "1"}, map[string]any{"hash": nil},
}

var weirdIDs = []string{"0", "-1", "1e3", "%00", "9223372036854775808", "00012", strings.Repeat("9", 400), "%F0%9F%98%80", "1.0", "%201", "+5"}

func (g *garbage) pick(xs []any) any { return xs[g.rnd.IntN(len(xs))] }

// randomJSON builds a random value of bounded depth.
func (g *garbage) randomJSON(depth int) any {
	switch n := g.rnd.IntN(8); {
	case depth > 4 || n < 3:
		return g.pick(weird)
	case n < 6:
		m := map[string]any{}
		keys := []string{"email", "name", "id", "hash", "app", "client", "currency", "terms", "password", "platform", "nextplan", "marketapp", "x"}
		for range g.rnd.IntN(5) {
			m[keys[g.rnd.IntN(len(keys))]] = g.randomJSON(depth + 1)
		}
		return m
	default:
		a := []any{}
		for range g.rnd.IntN(4) {
			a = append(a, g.randomJSON(depth+1))
		}
		return a
	}
}

// mutate replaces, drops or adds one field anywhere in a valid body.
func (g *garbage) mutate(v any) any {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return g.randomJSON(0)
	}
	out := deepCopy(m).(map[string]any)
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	k := keys[g.rnd.IntN(len(keys))]
	switch g.rnd.IntN(5) {
	case 0:
		delete(out, k)
	case 1:
		out["unexpected"+fmt.Sprint(g.rnd.IntN(3))] = g.pick(weird)
	case 2:
		out[k] = g.mutate(out[k])
	default:
		out[k] = g.pick(weird)
	}
	return out
}

func (g *garbage) randomBytes() []byte {
	pieces := []string{"{", "}", "[", "]", `"`, ":", ",", "null", "1e999", `\u`, "\xff", "\x00", `"email"`, " ", "tru", "-", "0"}
	var b strings.Builder
	for range g.rnd.IntN(40) {
		b.WriteString(pieces[g.rnd.IntN(len(pieces))])
	}
	return []byte(b.String())
}

func (g *garbage) request(ep endpoint) (string, string, []byte, map[string]string) {
	path := strings.NewReplacer("{me}", g.me, "{client}", g.client).Replace(ep.path)
	if g.rnd.IntN(6) == 0 {
		path = strings.NewReplacer("{me}", weirdIDs[g.rnd.IntN(len(weirdIDs))], "{client}", weirdIDs[g.rnd.IntN(len(weirdIDs))]).Replace(ep.path)
	}
	if q := g.query[g.rnd.IntN(len(g.query))]; q != "" {
		path += "?" + q
	}
	var body []byte
	switch n := g.rnd.IntN(10); {
	case n < 5 && ep.valid != nil:
		body, _ = json.Marshal(g.mutate(ep.valid(g)))
	case n < 6 && ep.valid != nil:
		body, _ = json.Marshal(ep.valid(g))
	case n < 8:
		body, _ = json.Marshal(g.randomJSON(0))
	default:
		body = g.randomBytes()
	}
	method := ep.method
	if g.rnd.IntN(20) == 0 {
		method = []string{"PATCH", "DELETE", "OPTIONS", "HEAD"}[g.rnd.IntN(4)]
	}
	return method, path, body, g.auths[g.rnd.IntN(len(g.auths))]
}

func (g *garbage) check(method, path string, body []byte, hdr map[string]string) {
	g.t.Helper()
	req := httptest.NewRequest(method, "http://127.0.0.1"+g.s.BasePath()+path, bytes.NewReader(body))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	g.s.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		g.t.Fatalf("%s %s %q: %d %s", method, path, body, rec.Code, rec.Body)
	}
	if method == "HEAD" {
		return
	}
	var v any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		g.t.Fatalf("%s %s %q: answer is not JSON: %s", method, path, body, rec.Body)
	}
	if rec.Code == http.StatusBadRequest && !g.s.is(fErrorObjectNotArray) {
		arr, ok := v.([]any)
		if !ok || len(arr) == 0 {
			g.t.Fatalf("%s %s %q: 400 body is not a non-empty array: %s", method, path, body, rec.Body)
		}
		for _, e := range arr {
			for _, f := range []string{"fieldName", "error", "message"} {
				if _, ok := get(e, f).(string); !ok {
					g.t.Fatalf("%s %s %q: error element without %s: %s", method, path, body, f, rec.Body)
				}
			}
		}
	}
}

func TestGarbageNeverFails(t *testing.T) {
	h := newHarness(t, Options{Pairs: 2})
	g := newGarbage(t, h, 20261126)
	eps := g.endpoints()
	for i := range 6000 {
		method, path, body, hdr := g.request(eps[i%len(eps)])
		g.check(method, path, body, hdr)
	}
}

func TestGarbageNeverFailsWithFaults(t *testing.T) {
	for n, f := range Faults() {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, Options{Fault: f.Name})
			g := newGarbage(t, h, uint64(n))
			eps := g.endpoints()
			for i := range 300 {
				method, path, body, hdr := g.request(eps[i%len(eps)])
				g.check(method, path, body, hdr)
			}
		})
	}
}

// FuzzBodies runs its seeds with go test, and explores with go test -fuzz.
func FuzzBodies(f *testing.F) {
	for _, seed := range []string{`{}`, `[]`, `null`, `{"email":1}`, `{"client":{"app":{"marketapp":{"hash":null}}}}`, "\xff", `{"a":{"a":{"a":1}}}`} {
		f.Add(seed, uint8(0))
	}
	h := newHarness(f, Options{})
	g := newGarbage(f, h, 1)
	eps := g.endpoints()
	f.Fuzz(func(t *testing.T, body string, which uint8) {
		ep := eps[int(which)%len(eps)]
		g.t = t
		for _, a := range g.auths[:3] {
			g.check(ep.method, strings.NewReplacer("{me}", g.me, "{client}", g.client).Replace(ep.path), []byte(body), a)
		}
	})
}
