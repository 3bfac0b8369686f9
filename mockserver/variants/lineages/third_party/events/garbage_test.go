package events

import (
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// endpoint is one route with a body it accepts, so that garbage can be put in
// place of each of its fields in turn.
type endpoint struct {
	method, path string
	valid        map[string]any
	opts         []opt
}

func garbageEndpoints(h *harness) []endpoint {
	a := h.acct(0, 0)
	l := h.login(a)
	key := []opt{withKey(a.APIKey)}
	user := userBody(a.Email)
	user["phoneCountry"] = map[string]any{"id": 569}
	user["phoneNumber"] = "30 901820"
	user["phoneExtension"] = "12"
	user["client"] = set(clientBody(), "app", h.appBody("Saltmarsh Radio", platformIOS))
	return []endpoint{
		{"PUT", path("/users/%d", l.userID), user, key},
		{"POST", "/apps", h.appBody("Quillwort Notes", platformIOS), key},
		{"POST", "/apps", set(set(bareApp(), "name", "Pebblestack Puzzle"), "platform.id", platformAndroid), key},
		{"POST", "/clients", set(clientBody(), "app", h.appBody("Harbour Tide Tables", platformAndroid)), key},
		{"PUT", path("/clients/%d", l.clientID), clientBody(), key},
		{"POST", "/sessions", map[string]any{"email": a.Email, "password": a.Password}, nil},
		{"GET", "/platforms", map[string]any{}, nil},
		{"GET", "/currencies", map[string]any{}, key},
		{"GET", "/plans", map[string]any{}, key},
	}
}

// leafPaths lists every dotted path of a body, objects included.
func leafPaths(prefix string, m map[string]any) []string {
	var out []string
	for k, v := range m {
		p := prefix + k
		out = append(out, p)
		if sub, ok := v.(map[string]any); ok {
			out = append(out, leafPaths(p+".", sub)...)
		}
	}
	sort.Strings(out)
	return out
}

const placeholder = "\u0001garbage\u0001"

var garbageValues = []string{
	`null`, `true`, `false`, `0`, `-0`, `-1`, `1.5`, `1e400`, `-1e400`, `99999999999999999999999`, `4017.0`, `4.058e3`,
	`""`, `" "`, `"\u0000"`, `"\ud800"`, `"` + strings.Repeat("z", 300) + `"`, `"` + strings.Repeat("ü", 300) + `"`,
	`[]`, `[1,2]`, `[null]`, `{}`, `{"id":{}}`, `{"id":null}`, `{"hash":[]}`,
	strings.Repeat("[", 300) + strings.Repeat("]", 300),
	strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300),
}

var garbageBodies = []string{
	"", " ", "\n", "null", "0", "-1", `"text"`, "[]", "[{}]", "{", "}", "{}", `{"a":1}{}`, `{"a":1} x`, `{"a" 1}`,
	"\xff\xfe\x00{", "\xef\xbb\xbf{}", `{"email":1e999999}`, `{"":""}`, `{"email":"` + "\xff\xfe" + `"}`,
	strings.Repeat("[", 20000), strings.Repeat(`{"a":`, 20000),
	`{"email":"a@b.co","email":7}`, `{"__proto__":{}}`, `{"client":{"app":{"marketapp":{"hash":{"x":[[[[]]]]}}}}}`,
}

var garbageIDs = []string{"", "-1", "0", "00", "1e9", "%00", "%2F", "999999999999999999999999", "9223372036854775807",
	"9223372036854775808", "abc", "3999999978%20", "NaN", "0x10", "+5", "１２３"}

// checkAnswer asserts the contract for any answer to a client's mistake:
// no 5xx, a JSON body, and a well-formed error array on 400.
func checkAnswer(t *testing.T, what string, r resp) {
	t.Helper()
	if r.status >= 500 || r.status < 200 {
		t.Errorf("%s: status %d %s", what, r.status, r.raw)
		return
	}
	if r.status != 400 {
		return
	}
	arr, ok := r.body.([]any)
	if !ok || len(arr) == 0 {
		t.Errorf("%s: 400 body is not a non-empty array: %s", what, r.raw)
		return
	}
	for _, e := range arr {
		m, ok := e.(map[string]any)
		if !ok {
			t.Errorf("%s: error element %v", what, e)
			continue
		}
		for _, k := range []string{"fieldName", "error", "message"} {
			if s, ok := m[k].(string); !ok || (k != "fieldName" && s == "") {
				t.Errorf("%s: error element without %s: %v", what, k, m)
			}
		}
	}
}

func TestGarbageNeverServerError(t *testing.T) {
	h := newHarness(t, "")
	eps := garbageEndpoints(h)
	for _, ep := range eps {
		for _, p := range leafPaths("", ep.valid) {
			for _, g := range garbageValues {
				body := set(clone(ep.valid), p, placeholder)
				raw, _ := json.Marshal(body)
				quoted, _ := json.Marshal(placeholder)
				raw = []byte(strings.Replace(string(raw), string(quoted), g, 1))
				r := h.do(ep.method, ep.path, raw, ep.opts...)
				checkAnswer(t, ep.method+" "+ep.path+" "+p+"="+abbrev(g), r)
				if r.status != 200 && r.status != 400 {
					t.Errorf("%s %s %s=%s: %d", ep.method, ep.path, p, abbrev(g), r.status)
				}
			}
		}
		for _, g := range garbageBodies {
			checkAnswer(t, ep.method+" "+ep.path+" body "+abbrev(g), h.do(ep.method, ep.path, g, ep.opts...))
		}
		// Garbage credentials.
		for _, v := range []string{"", "api-key", "api-key ", "api-key \t", "Basic Zm9vOmJhcg==", "api-key " + strings.Repeat("f", 8000), "\x00"} {
			raw, _ := json.Marshal(ep.valid)
			checkAnswer(t, "auth "+abbrev(v), h.do(ep.method, ep.path, raw, withHeader("Authorization", v)))
			checkAnswer(t, "token "+abbrev(v), h.do(ep.method, ep.path, raw, withHeader("session-token", v)))
			checkAnswer(t, "query "+abbrev(v), h.do(ep.method, ep.path, raw, withQueryToken(v)))
		}
	}
	a := h.acct(0, 0)
	for _, id := range garbageIDs {
		for _, base := range []string{"/users/", "/clients/"} {
			for _, opts := range [][]opt{nil, {withKey(a.APIKey)}} {
				r := h.doRaw("PUT", basePath+base+id, `{}`, opts...)
				checkAnswer(t, "PUT "+base+id, r)
				if r.status != 401 && r.status != 404 {
					t.Errorf("PUT %s%s: %d", base, id, r.status)
				}
			}
		}
	}
	for _, m := range []string{"PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "BREW"} {
		for _, p := range []string{"/users/1", "/apps", "/clients", "/sessions", "/platforms"} {
			checkAnswer(t, m+" "+p, h.do(m, p, "{}"))
		}
	}
	// After all that, the server still works (the password may have been
	// changed by a garbage value that happened to be a valid password).
	if r := h.do("PUT", path("/users/%d", h.login(h.acct(0, 1)).userID), userBody(h.acct(0, 1).Email), withKey(h.acct(0, 1).APIKey)); r.status != 200 {
		t.Errorf("the server no longer works: %d %s", r.status, r.raw)
	}
}

func abbrev(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// FuzzEndpoints throws arbitrary bodies, ids and credentials at every route.
// Without -fuzz it runs the seeds only.
func FuzzEndpoints(f *testing.F) {
	for _, b := range garbageBodies {
		f.Add(b, "3999999978", "")
	}
	f.Add(`{"email":"x@y.zz","password":null}`, "1", "api-key 00")
	f.Add(`{"marketapp":{"hash":"`+strings.Repeat("a", 40)+`"},"nextplan":{"id":4017}}`, "-", "")
	h := newHarness(f, "")
	key := h.acct(0, 0).APIKey
	routes := []struct{ method, path string }{
		{"PUT", "/users/"}, {"POST", "/apps"}, {"POST", "/clients"}, {"PUT", "/clients/"},
		{"POST", "/sessions"}, {"GET", "/platforms"}, {"GET", "/currencies"}, {"GET", "/plans"},
	}
	f.Fuzz(func(t *testing.T, body, id, auth string) {
		h := &harness{t: t, s: h.s}
		for _, rt := range routes {
			p := rt.path
			if strings.HasSuffix(p, "/") {
				p += url.PathEscape(id)
			}
			for _, o := range [][]opt{nil, {withKey(key)}, {withHeader("Authorization", auth)}} {
				checkAnswer(t, rt.method+" "+p, h.do(rt.method, p, body, o...))
			}
		}
	})
}
