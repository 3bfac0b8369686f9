package tables

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/jsonpath"
)

// harness serves one Server over real HTTP and speaks to it the way a
// contract-test suite would: knowing only the base URL and the accounts.
type harness struct {
	t       testing.TB
	s       *Server
	base    string
	cli     *http.Client
	cat     catalogue
	ids     map[[2]int]int64 // user ids of the accounts
	clients map[[2]int]int64 // home client ids of the accounts
}

type catalogue struct {
	platforms  map[string]int64 // name -> id
	currencies map[string]int64 // code -> id
	plans      map[string]int64 // name -> id
	phones     []int64
	market     []marketItem
}

type marketItem struct {
	hash, name, platform string
}

func newHarness(t testing.TB, opts Options) *harness {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	h := &harness{t: t, s: s, base: srv.URL + s.BasePath(), cli: srv.Client(), ids: map[[2]int]int64{}, clients: map[[2]int]int64{}}
	h.loadCatalogue()
	return h
}

// auth is how a request authenticates.
type auth struct {
	header map[string]string
	query  string // a raw query string, without "?"
}

var anonymous = auth{}

func apiKey(k string) auth { return auth{header: map[string]string{"Authorization": "api-key " + k}} }

func tokenHeader(t string) auth { return auth{header: map[string]string{"session-token": t}} }

func tokenQuery(t string) auth { return auth{query: "sessionToken=" + t} }

type resp struct {
	status int
	raw    []byte
	v      any
}

// raw marks a body to send byte for byte.
type raw string

func (h *harness) do(method, path string, a auth, body any) resp {
	h.t.Helper()
	return h.doURL(method, h.base+path, a, body)
}

func (h *harness) doURL(method, url string, a auth, body any) resp {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case raw:
		rd = strings.NewReader(string(b))
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	if a.query != "" {
		if strings.Contains(url, "?") {
			url += "&" + a.query
		} else {
			url += "?" + a.query
		}
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range a.header {
		req.Header.Set(k, v)
	}
	res, err := h.cli.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	r := resp{status: res.StatusCode, raw: out}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	_ = dec.Decode(&r.v)
	return r
}

// get walks a decoded JSON value along a dotted path; numeric segments
// index arrays.
func get(v any, path string) any { return jsonpath.At(v, path) }

func (r resp) get(path string) any { return get(r.v, path) }

func (r resp) str(path string) string {
	switch x := r.get(path).(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// id reads an id; a string of digits is read too, so that a harness still
// works against the faults that send ids as strings.
func (r resp) id(path string) int64 {
	i, _ := strconv.ParseInt(r.str(path), 10, 64)
	return i
}

// items is the array of a collection, or the whole body when a fault made
// it a bare array.
func (r resp) items(prop string) []any {
	if a, ok := r.v.([]any); ok {
		return a
	}
	a, _ := r.get(prop).([]any)
	return a
}

// codes lists "fieldName:error" of a 400 body.
func (r resp) codes() []string {
	arr, _ := r.v.([]any)
	var out []string
	for _, e := range arr {
		out = append(out, get(e, "fieldName").(string)+":"+get(e, "error").(string))
	}
	return out
}

func (r resp) hasCode(fieldCode string) bool {
	for _, c := range r.codes() {
		if c == fieldCode {
			return true
		}
	}
	return false
}

func (h *harness) account(pair, i int) Account { return h.s.Accounts()[pair][i] }

func (h *harness) key(pair, i int) auth { return apiKey(h.account(pair, i).APIKey) }

func (h *harness) login(email, password string) resp {
	h.t.Helper()
	return h.do("POST", "/sessions", anonymous, map[string]any{"email": email, "password": password})
}

func (h *harness) session(pair, i int) resp {
	h.t.Helper()
	a := h.account(pair, i)
	r := h.login(a.Email, a.Password)
	if r.status != 200 {
		h.t.Fatalf("login of %s: %d %s", a.Email, r.status, r.raw)
	}
	return r
}

func (h *harness) loadCatalogue() {
	h.t.Helper()
	a := h.key(0, 0)
	h.cat = catalogue{platforms: map[string]int64{}, currencies: map[string]int64{}, plans: map[string]int64{}}
	for _, p := range h.do("GET", "/platforms", a, nil).items("platforms") {
		n, _ := get(p, "id").(json.Number).Int64()
		h.cat.platforms[get(p, "name").(string)] = n
	}
	for _, p := range h.do("GET", "/currencies", a, nil).items("currencies") {
		n, _ := get(p, "id").(json.Number).Int64()
		h.cat.currencies[get(p, "code").(string)] = n
	}
	for _, p := range h.do("GET", "/plans", a, nil).items("plans") {
		n, _ := get(p, "id").(json.Number).Int64()
		h.cat.plans[get(p, "name").(string)] = n
	}
	for _, p := range h.do("GET", "/phonecountries", a, nil).items("phonecountries") {
		n, _ := get(p, "id").(json.Number).Int64()
		h.cat.phones = append(h.cat.phones, n)
	}
	for _, p := range h.do("GET", "/marketapps", a, nil).items("marketapps") {
		h.cat.market = append(h.cat.market, marketItem{get(p, "hash").(string), get(p, "name").(string), get(p, "platform.name").(string)})
	}
}

func (h *harness) marketOn(platform string) marketItem {
	for _, m := range h.cat.market {
		if m.platform == platform {
			return m
		}
	}
	h.t.Fatalf("no marketplace app on %s", platform)
	return marketItem{}
}

// userID finds an account's user id through a session, once: later calls
// must not depend on the password, which a test may change.
func (h *harness) userID(pair, i int) int64 { return h.sessionID(h.ids, pair, i, "userId") }

// clientID finds an account's client id as userID finds its user id.
func (h *harness) clientID(pair, i int) int64 { return h.sessionID(h.clients, pair, i, "clientId") }

// sessionID is the field of a session of an account, read once and kept in
// seen.
func (h *harness) sessionID(seen map[[2]int]int64, pair, i int, field string) int64 {
	k := [2]int{pair, i}
	if id, ok := seen[k]; ok {
		return id
	}
	id := h.session(pair, i).id(field)
	seen[k] = id
	return id
}

// userBody is a complete, valid PUT /users body that changes nothing.
func (h *harness) userBody(pair, i int) map[string]any {
	h.t.Helper()
	u := h.do("GET", "/users/"+itoa(h.userID(pair, i)), h.key(pair, i), nil)
	if u.status != 200 {
		h.t.Fatalf("GET user: %d %s", u.status, u.raw)
	}
	body := map[string]any{"password": nil}
	for _, k := range []string{"email", "firstName", "lastName", "subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding", "timezone"} {
		body[k] = u.get(k)
	}
	return body
}

func (h *harness) clientBody() map[string]any {
	return map[string]any{
		"name":            "Wrenfield Mobile Ltd",
		"addressLine1":    "4 Sluice Gate Row",
		"addressCity":     "Bristol",
		"addressPostcode": "BS1 6QA",
		"addressCountry":  "United Kingdom",
		"currency":        map[string]any{"id": h.cat.currencies["GBP"]},
		"terms":           "I agree",
	}
}

func (h *harness) appByName(platform string) map[string]any {
	return map[string]any{"name": "Heliotrope Clock", "platform": map[string]any{"id": h.cat.platforms[platform]}}
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

// with returns a copy of m with the given changes; a value of drop removes
// the key. Keys with dots change nested objects.
type dropped struct{}

var drop = dropped{}

func with(m map[string]any, kv ...any) map[string]any {
	out := deepCopy(m).(map[string]any)
	for i := 0; i < len(kv); i += 2 {
		cur, last := jsonpath.Parent(out, kv[i].(string))
		if _, isDrop := kv[i+1].(dropped); isDrop {
			delete(cur, last)
		} else {
			cur[last] = kv[i+1]
		}
	}
	return out
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// state is everything an account can see, to compare before and after a
// refused request.
func (h *harness) state(pair, i int) string {
	h.t.Helper()
	a := h.key(pair, i)
	var b strings.Builder
	b.WriteString(string(h.do("GET", "/users/"+itoa(h.userID(pair, i)), a, nil).raw))
	clients := h.do("GET", "/clients", a, nil)
	b.Write(clients.raw)
	for _, c := range clients.get("clients").([]any) {
		b.Write(h.do("GET", "/clients/"+get(c, "id").(json.Number).String()+"/apps", a, nil).raw)
	}
	b.Write(h.do("GET", "/marketapps", a, nil).raw)
	return b.String()
}

// postChecked POSTs body to path as account (0, 0): the answer must have
// the status want and, when code is given, that error code; a refused one
// must leave the state as it was. It reports whether the POST was accepted
// (200).
func (h *harness) postChecked(t *testing.T, path string, body any, want int, code string) (resp, bool) {
	t.Helper()
	before := h.state(0, 0)
	r := h.do("POST", path, h.key(0, 0), body)
	if r.status != want || code != "" && !r.hasCode(code) {
		t.Fatalf("%d %s, want %d %s", r.status, r.raw, want, code)
	}
	if r.status != 200 {
		if h.state(0, 0) != before {
			t.Errorf("a refused POST %s changed the state", path)
		}
		return r, false
	}
	return r, true
}
