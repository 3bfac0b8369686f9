package shards

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
)

var (
	isoRe      = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	writeKeyRe = regexp.MustCompile(`^[0-9a-f]{32}$`)
)

func TestNewOptions(t *testing.T) {
	s, err := New(Options{})
	if err != nil || len(s.Accounts()) != 1 || s.BasePath() != "/api/v1" {
		t.Fatalf("default: %v %v", err, s)
	}
	s, err = New(Options{Pairs: 500})
	if err != nil || len(s.Accounts()) != 500 {
		t.Fatalf("500 pairs: %v", err)
	}
	seen := map[string]bool{}
	for _, p := range s.Accounts() {
		for _, a := range p {
			if seen[a.Email] || seen[a.APIKey] || a.Password == "" {
				t.Fatalf("account not distinct: %+v", a)
			}
			seen[a.Email], seen[a.APIKey] = true, true
		}
	}
	for _, n := range []int{-1, 501} {
		if _, err := New(Options{Pairs: n}); err == nil {
			t.Errorf("Pairs %d accepted", n)
		}
	}
}

func TestSessions(t *testing.T) {
	h := newHarness(t, "")
	a := h.acc(0)
	r := h.login(a.Email, a.Password)
	if r.status != 200 || r.num("userId") != userA || r.num("clientId") != clientA ||
		r.num("creatorUserId") != userA || r.num("id") < 1 || r.str("token") == "" || !isoRe.MatchString(r.str("created")) {
		t.Fatalf("session: %s", r)
	}
	if r := h.login(strings.ToUpper(a.Email), a.Password); r.status != 200 {
		t.Errorf("email case-insensitive login: %s", r)
	}
	if r := h.login(a.Email, "wrong-password"); r.status != 401 {
		t.Errorf("wrong password: %s", r)
	}
	if r := h.login(h.acc(1).Email, a.Password); r.status != 401 {
		t.Errorf("other's password: %s", r)
	}
	r = h.do("POST", "/sessions", map[string]any{"password": 5})
	if r.status != 400 || fmt.Sprint(r.codes()) != "[email:InvalidEmail password:InvalidPassword]" {
		t.Errorf("missing fields: %s", r)
	}
}

func TestAuthenticationSchemes(t *testing.T) {
	h := newHarness(t, "")
	tok := h.token(0)
	ok := [][]string{
		h.key(0), {"Authorization", "Api-Key " + h.acc(0).APIKey},
		{"session-token", tok}, {"Session-Token", tok},
	}
	for _, hdr := range ok {
		if r := h.do("PUT", "/users/1", userBody(h.acc(0).Email), hdr...); r.status != 200 {
			t.Errorf("%v: %s", hdr, r)
		}
	}
	if r := h.do("PUT", "/users/1?sessionToken="+tok, userBody(h.acc(0).Email)); r.status != 200 {
		t.Errorf("query token: %s", r)
	}
	bad := [][]string{
		nil, {"Authorization", "api-key nope"}, {"Authorization", "Bearer " + h.acc(0).APIKey},
		{"Authorization", h.acc(0).APIKey}, {"session-token", "nope"},
		{"Authorization", "api-key " + h.acc(1).APIKey, "session-token", tok},
	}
	for _, hdr := range bad {
		r := h.do("GET", "/platforms", nil, hdr...)
		if r.status != 401 || fmt.Sprint(r.codes()) != "[:Unauthorized]" {
			t.Errorf("%v: %s", hdr, r)
		}
	}
	if r := h.do("GET", "/platforms?sessionToken=nope", nil); r.status != 401 {
		t.Errorf("bad query token: %s", r)
	}
}

func TestPutUserResponse(t *testing.T) {
	h := newHarness(t, "")
	body := with(userBody("alice.new@example.test"), "firstName", "Alicia", "lastName", "Liddell",
		"timezone", "America/Argentina/Buenos_Aires", "phoneCountry", map[string]any{"id": 3},
		"phoneNumber", "612345678", "phoneExtension", "12")
	r := h.do("PUT", "/users/1", body, h.key(0)...)
	m := r.obj()
	if r.status != 200 || m["id"] != float64(1) || m["email"] != "alice.new@example.test" ||
		m["firstName"] != "Alicia" || m["lastName"] != "Liddell" || m["subscribeBlog"] != true ||
		m["subscribeWelcome"] != false || m["timezone"] != "America/Argentina/Buenos_Aires" ||
		m["phoneNumber"] != "612345678" || m["phoneExtension"] != "12" {
		t.Fatalf("put user: %s", r)
	}
	if r.get("phoneCountry.name") != "France (+33)" || r.get("phoneCountry.dialCode") != "+33" || r.num("phoneCountry.id") != 3 {
		t.Errorf("phoneCountry: %v", m["phoneCountry"])
	}
	if !isoRe.MatchString(r.str("created")) || !isoRe.MatchString(r.str("passwordLastChanged")) {
		t.Errorf("dates: %s", r)
	}
	for k := range m {
		if strings.Contains(strings.ToLower(k), "password") && k != "passwordLastChanged" {
			t.Errorf("password field returned: %s", k)
		}
	}
	if len(m) != 14 {
		t.Errorf("want the 14 top-level fields of 2.1, got %d: %v", len(m), m)
	}
	r = h.do("PUT", "/users/1", with(userBody("alice.new@example.test"), "phoneExtension", nil), h.key(0)...)
	if r.get("phoneExtension") != nil || r.str("phoneNumber") != "612345678" {
		t.Errorf("extension null / number kept: %s", r)
	}
}

func TestPutUserValidation(t *testing.T) {
	h := newHarness(t, "")
	cases := []struct {
		kv   []any
		want string
	}{
		{[]any{"email", "not-an-email"}, "email:InvalidEmail"},
		{[]any{"email", deleteKey}, "email:InvalidEmail"},
		{[]any{"email", strings.Repeat("a", 250) + "@x.test"}, "email:InvalidEmail"},
		{[]any{"password", "short"}, "password:InvalidPassword"},
		{[]any{"password", "ééééé"}, "password:InvalidPassword"},
		{[]any{"password", deleteKey}, "password:InvalidPassword"},
		{[]any{"firstName", ""}, "firstName:InvalidFirstName"},
		{[]any{"lastName", deleteKey}, "lastName:InvalidLastName"},
		{[]any{"phoneCountry", map[string]any{"id": 99}}, "phoneCountry.id:InvalidPhoneCountryId"},
		{[]any{"phoneNumber", ""}, "phoneNumber:InvalidPhoneNumber"},
		{[]any{"phoneExtension", "ext 5"}, "phoneExtension:InvalidPhoneExtension"},
		{[]any{"subscribeBlog", "yes"}, "subscribeBlog:InvalidSubscribeBlog"},
		{[]any{"timezone", "London"}, "timezone:InvalidTimezone"},
		{[]any{"client", map[string]any{}}, "client.name:InvalidName"},
	}
	for _, c := range cases {
		r := h.do("PUT", "/users/1", with(userBody(h.acc(0).Email), c.kv...), h.key(0)...)
		if r.status != 400 || len(r.codes()) == 0 || r.codes()[0] != c.want {
			t.Errorf("%v: want %s, got %s", c.kv, c.want, r)
		}
		if arr, _ := r.value().([]any); len(arr) > 0 {
			if msg, _ := arr[0].(map[string]any)["message"].(string); msg == "" {
				t.Errorf("%v: no message", c.kv)
			}
		}
	}
	for _, raw := range []string{"", "[]", "{", `{"a":1} x`, "null"} {
		if r := h.do("PUT", "/users/1", raw, h.key(0)...); r.status != 400 || r.codes()[0] != ":InvalidBody" {
			t.Errorf("body %q: %s", raw, r)
		}
	}
}

func TestPutUserStatusesAndEffects(t *testing.T) {
	h := newHarness(t, "")
	a, b := h.acc(0), h.acc(1)
	if r := h.do("PUT", "/users/1", userBody(a.Email)); r.status != 401 {
		t.Errorf("no auth: %s", r)
	}
	if r := h.do("PUT", "/users/2", userBody(a.Email), h.key(0)...); r.status != 403 || strings.Contains(string(r.body), b.Email) {
		t.Errorf("other user: %s", r)
	}
	for _, p := range []string{"/users/999", "/users/abc", "/users/0"} {
		if r := h.do("PUT", p, userBody(a.Email), h.key(0)...); r.status != 404 {
			t.Errorf("%s: %s", p, r)
		}
	}
	if r := h.do("PUT", "/users/1", userBody(b.Email), h.key(0)...); r.codes()[0] != "email:InvalidEmail" {
		t.Errorf("taken email: %s", r)
	}
	sleepMS(3)
	r := h.do("PUT", "/users/1", with(userBody("A.New@example.test"), "password", "fresh-pass"), h.key(0)...)
	if r.status != 200 || r.str("passwordLastChanged") == r.str("created") || r.str("email") != "A.New@example.test" {
		t.Fatalf("change: %s", r)
	}
	for _, c := range []struct {
		email, pw string
		want      int
	}{{a.Email, "fresh-pass", 401}, {"A.New@example.test", a.Password, 401}, {"A.New@example.test", "fresh-pass", 200}} {
		if r := h.login(c.email, c.pw); r.status != c.want {
			t.Errorf("login %v: %s", c, r)
		}
	}
	if r := h.do("PUT", "/users/2", userBody(a.Email), h.key(1)...); r.status != 200 {
		t.Errorf("freed email reuse: %s", r)
	}
	if r := h.do("PUT", "/users/1", userBody("A.New@example.test"), h.key(0)...); r.status != 200 || h.login("a.new@example.test", "fresh-pass").status != 200 {
		t.Errorf("null password keeps: %s", r)
	}
}

func TestPutUserCreatesClient(t *testing.T) {
	h := newHarness(t, "")
	body := with(userBody(h.acc(0).Email), "client", with(clientBody("Side Business"), "app", appBody(hash0)))
	if r := h.do("PUT", "/users/1", body, h.key(0)...); r.status != 200 || r.num("id") != 1 {
		t.Fatalf("%s", r)
	}
	if r := h.do("PUT", "/clients/3", clientBody("Renamed"), h.key(0)...); r.status != 200 || r.str("name") != "Renamed" {
		t.Errorf("new client is A's: %s", r)
	}
	body = with(userBody(h.acc(0).Email), "client", with(clientBody("X"), "app", appBody(strings.Repeat("0", 40))))
	if r := h.do("PUT", "/users/1", body, h.key(0)...); r.status != 404 {
		t.Errorf("unknown app hash: %s", r)
	}
	if r := h.do("PUT", "/clients/4", clientBody("X"), h.key(0)...); r.status != 404 {
		t.Errorf("nothing created: %s", r)
	}
}

func TestPostApps(t *testing.T) {
	h := newHarness(t, "")
	r := h.do("POST", "/apps", with(appBody(hash1), "nextplan", map[string]any{"id": 2}), h.key(0)...)
	if r.status != 200 || r.num("id") < 1 || r.str("name") != marketApps[1].Name || r.get("platform.name") != "iOS" ||
		r.num("platform.id") != 2 || !writeKeyRe.MatchString(r.str("writeKey")) || r.str("marketapp.hash") != hash1 ||
		r.get("plan.isPro") != true || r.get("plan.isLite") != false || r.get("plan.needBilling") != true ||
		!isoRe.MatchString(r.str("created")) {
		t.Fatalf("by hash: %s", r)
	}
	byName := map[string]any{"name": marketApps[2].Name, "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}
	r = h.do("POST", "/apps", byName, h.key(0)...)
	if r.status != 200 || r.str("marketapp.hash") != marketApps[2].Hash || r.get("platform.name") != "Android" {
		t.Errorf("by name: %s", r)
	}
	if r := h.do("POST", "/apps", with(byName, "platform", map[string]any{"id": 2}), h.key(0)...); r.status != 404 {
		t.Errorf("name on other platform: %s", r)
	}
	if r := h.do("POST", "/apps", appBody(hash1), h.key(0)...); r.codes()[0] != "marketapp.hash:DuplicateMarketapp" {
		t.Errorf("duplicate: %s", r)
	}
	if r := h.do("POST", "/apps", appBody(hash1), h.key(1)...); r.status != 200 {
		t.Errorf("B may use the same marketapp: %s", r)
	}
	if r := h.do("POST", "/apps", appBody(strings.ToUpper(hash0)), h.key(0)...); r.status != 200 || r.str("marketapp.hash") != hash0 {
		t.Errorf("upper-case hash: %s", r)
	}
	if r := h.do("POST", "/apps", appBody(hash0)); r.status != 401 {
		t.Errorf("no auth: %s", r)
	}
}

func TestPostAppsValidation(t *testing.T) {
	h := newHarness(t, "")
	cases := []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"nextplan": map[string]any{"id": 1}, "platform": map[string]any{"id": 1}}, "name:InvalidName"},
		{map[string]any{"name": nil, "marketapp": map[string]any{"hash": nil}, "nextplan": map[string]any{"id": 1}, "platform": map[string]any{"id": 1}}, "name:InvalidName"},
		{appBody("abc"), "marketapp.hash:InvalidMarketappHash"},
		{appBody(strings.Repeat("g", 40)), "marketapp.hash:InvalidMarketappHash"},
		{with(appBody(hash0), "nextplan", map[string]any{"id": 9}), "nextplan.id:InvalidNextplanId"},
		{with(appBody(hash0), "nextplan", deleteKey), "nextplan.id:InvalidNextplanId"},
		{map[string]any{"name": "Zen Timer", "platform": map[string]any{"id": 7}, "nextplan": map[string]any{"id": 1}}, "platform.id:InvalidPlatformId"},
	}
	for _, c := range cases {
		if r := h.do("POST", "/apps", c.body, h.key(0)...); r.status != 400 || r.codes()[0] != c.want {
			t.Errorf("%v: want %s, got %s", c.body, c.want, r)
		}
	}
	if r := h.do("POST", "/apps", appBody(strings.Repeat("0", 40)), h.key(0)...); r.status != 404 {
		t.Errorf("unknown hash: %s", r)
	}
}

func TestSignupAndClientlessUser(t *testing.T) {
	h := newHarness(t, "")
	body := with(userBody("new.user@example.test"), "password", "signup-pw",
		"phoneCountry", map[string]any{"id": 2}, "phoneNumber", "5550100")
	r := h.do("POST", "/users", body)
	if r.status != 200 || r.str("email") != "new.user@example.test" || r.num("phoneCountry.id") != 2 {
		t.Fatalf("signup: %s", r)
	}
	if r := h.do("POST", "/users", body); r.codes()[0] != "email:InvalidEmail" {
		t.Errorf("duplicate signup: %s", r)
	}
	sess := h.login("new.user@example.test", "signup-pw")
	if sess.status != 200 || sess.get("clientId") != nil {
		t.Fatalf("client-less session: %s", sess)
	}
	tok := []string{"session-token", sess.str("token")}
	if r := h.do("POST", "/apps", appBody(hash0), tok...); r.status != 403 {
		t.Errorf("app without client: %s", r)
	}
	if r := h.do("POST", "/clients", clientBody("Startup"), tok...); r.status != 200 {
		t.Fatalf("first client: %s", r)
	}
	if r := h.do("POST", "/apps", appBody(hash0), tok...); r.status != 200 {
		t.Errorf("app after client: %s", r)
	}
	withClient := with(body, "email", "other@example.test", "client", clientBody("Co"))
	if r := h.do("POST", "/users", withClient); r.status != 200 || h.login("other@example.test", "signup-pw").get("clientId") == nil {
		t.Errorf("signup with client: %s", r)
	}
}

func TestPostClients(t *testing.T) {
	h := newHarness(t, "")
	body := with(clientBody("Acme"), "addressLine2", "Unit 4", "vat", "GB123", "currency", map[string]any{"id": 3})
	r := h.do("POST", "/clients", body, h.key(0)...)
	m := r.obj()
	if r.status != 200 || r.num("id") != 3 || m["name"] != "Acme" || m["addressLine2"] != "Unit 4" || m["vat"] != "GB123" ||
		r.get("currency.code") != "GBP" || r.num("currency.id") != 3 || !isoRe.MatchString(r.str("createdDate")) {
		t.Fatalf("create: %s", r)
	}
	if _, has := m["terms"]; has || len(m) != 10 {
		t.Errorf("fields of 2.2: %v", m)
	}
	r = h.do("POST", "/clients", with(clientBody("Apps Inc"), "app", appBody(hash3())), h.key(0)...)
	if r.status != 200 || r.num("id") != 4 {
		t.Fatalf("with app: %s", r)
	}
	bad := with(clientBody("Broken"), "app", map[string]any{"nextplan": map[string]any{"id": 1}})
	if r := h.do("POST", "/clients", bad, h.key(0)...); r.codes()[0] != "app.name:InvalidName" {
		t.Errorf("bad app: %s", r)
	}
	bad = with(clientBody("Broken"), "app", appBody(strings.Repeat("f", 40)))
	if r := h.do("POST", "/clients", bad, h.key(0)...); r.status != 404 {
		t.Errorf("unknown app: %s", r)
	}
	if r := h.do("PUT", "/clients/5", clientBody("X"), h.key(0)...); r.status != 404 {
		t.Errorf("failed request created a client: %s", r)
	}
	if r := h.do("POST", "/clients", clientBody("X")); r.status != 401 {
		t.Errorf("no auth: %s", r)
	}
}

func hash3() string { return marketApps[3].Hash }

func TestClientValidation(t *testing.T) {
	h := newHarness(t, "")
	long := strings.Repeat("x", 256)
	cases := []struct {
		kv   []any
		want string
	}{
		{[]any{"name", deleteKey}, "name:InvalidName"},
		{[]any{"name", "  "}, "name:InvalidName"},
		{[]any{"name", long}, "name:InvalidName"},
		{[]any{"addressLine1", ""}, "addressLine1:InvalidAddressLine1"},
		{[]any{"addressLine2", long}, "addressLine2:InvalidAddressLine2"},
		{[]any{"addressCity", 5}, "addressCity:InvalidAddressCity"},
		{[]any{"addressPostcode", deleteKey}, "addressPostcode:InvalidAddressPostcode"},
		{[]any{"addressCountry", nil}, "addressCountry:InvalidAddressCountry"},
		{[]any{"vat", long}, "vat:InvalidVat"},
		{[]any{"currency", map[string]any{"id": 99}}, "currency.id:InvalidCurrencyId"},
		{[]any{"currency", map[string]any{"id": "1"}}, "currency.id:InvalidCurrencyId"},
		{[]any{"terms", "I Agree"}, "terms:InvalidTerms"},
		{[]any{"terms", deleteKey}, "terms:InvalidTerms"},
	}
	for _, c := range cases {
		for _, m := range []string{"POST /clients", "PUT /clients/1"} {
			method, path, _ := strings.Cut(m, " ")
			r := h.do(method, path, with(clientBody("Ok"), c.kv...), h.key(0)...)
			if r.status != 400 || r.codes()[0] != c.want {
				t.Errorf("%s %v: want %s, got %s", m, c.kv, c.want, r)
			}
		}
	}
	max := with(clientBody(strings.Repeat("é", 255)), "vat", strings.Repeat("v", 255))
	if r := h.do("PUT", "/clients/1", max, h.key(0)...); r.status != 200 {
		t.Errorf("255 characters: %s", r)
	}
}

func TestPutClients(t *testing.T) {
	h := newHarness(t, "")
	body := with(clientBody("Renamed"), "addressLine2", "Suite 9", "currency", map[string]any{"id": 2})
	r := h.do("PUT", "/clients/1", body, h.key(0)...)
	if r.status != 200 || r.num("id") != 1 || r.str("name") != "Renamed" || r.get("currency.code") != "USD" || r.str("addressLine2") != "Suite 9" {
		t.Fatalf("update: %s", r)
	}
	r = h.do("PUT", "/clients/1", clientBody("Renamed"), h.key(0)...)
	if _, has := r.obj()["addressLine2"]; has {
		t.Errorf("omitted optional field is cleared: %s", r)
	}
	if r := h.do("PUT", "/clients/1", with(clientBody("R"), "app", appBody(hash0)), h.key(0)...); r.codes()[0] != "app:InvalidApp" {
		t.Errorf("app on PUT: %s", r)
	}
	if r := h.do("PUT", "/clients/1", with(clientBody("R"), "app", nil), h.key(0)...); r.status != 200 {
		t.Errorf("app null on PUT: %s", r)
	}
	if r := h.do("PUT", "/clients/2", clientBody("Mine"), h.key(0)...); r.status != 403 {
		t.Errorf("other client: %s", r)
	}
	if r := h.do("PUT", "/clients/2", map[string]any{}, h.key(0)...); r.status != 403 {
		t.Errorf("other client, bad body: %s", r)
	}
	if r := h.do("PUT", "/clients/77", clientBody("X"), h.key(0)...); r.status != 404 {
		t.Errorf("unknown client: %s", r)
	}
	if r := h.do("PUT", "/clients/1", clientBody("X")); r.status != 401 {
		t.Errorf("no auth: %s", r)
	}
}

func TestCollectionsAndRouting(t *testing.T) {
	h := newHarness(t, "")
	for prop, n := range map[string]int{"platforms": 2, "plans": 3, "currencies": 4, "phoneCountries": 5, "marketapps": 12} {
		r := h.do("GET", "/"+strings.ToLower(prop), nil, h.key(0)...)
		items, _ := r.obj()[prop].([]any)
		if r.status != 200 || len(items) != n || r.num("count") != int64(n) {
			t.Errorf("%s: %s", prop, r)
		}
	}
	if r := h.do("GET", "/api/v1.0/platforms", nil, h.key(0)...); r.status != 200 {
		t.Errorf("v1.0 alias: %s", r)
	}
	if r := h.do("GET", "/api/v2/platforms", nil, h.key(0)...); r.status != 404 {
		t.Errorf("v2: %s", r)
	}
	if r := h.do("DELETE", "/users/1", nil, h.key(0)...); r.status != 405 || r.header.Get("Allow") != "PUT" {
		t.Errorf("405: %s %v", r, r.header)
	}
}

func TestNoServerErrors(t *testing.T) {
	h := newHarness(t, "")
	bodies := []string{"", "{}", "[]", "1", `"x"`, "null", `{"email":{}}`, `{"client":[]}`, `{"app":1}`,
		`{"marketapp":"x","platform":3,"nextplan":[],"currency":{"id":1e400}}`, `{"phoneCountry":{"id":-1}}`,
		strings.Repeat("[", 100000), `{"name":"` + strings.Repeat("a", 70000) + `"}`, "\xff\xfe"}
	paths := []string{"POST /sessions", "POST /users", "PUT /users/1", "PUT /users/99999999999999999999",
		"POST /clients", "PUT /clients/1", "POST /apps", "GET /platforms", "PATCH /apps"}
	for _, p := range paths {
		method, path, _ := strings.Cut(p, " ")
		for _, b := range bodies {
			for _, hdr := range [][]string{nil, h.key(0)} {
				if r := h.do(method, path, b, hdr...); r.status >= 500 || r.status < 200 {
					t.Errorf("%s %q: %d", p, b, r.status)
				}
			}
		}
	}
}

// TestConcurrentCorrect hammers the correct server from many goroutines;
// with -race it checks the locking, and it checks the invariants after.
func TestConcurrentCorrect(t *testing.T) {
	s, err := New(Options{Pairs: 8})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, s: s}
	var mu sync.Mutex
	ids, okEmails := map[int64]bool{}, 0
	var wg sync.WaitGroup
	for i, pair := range s.Accounts() {
		for j, acc := range pair {
			wg.Add(1)
			go func() {
				defer wg.Done()
				uid := int64(2*i + j + 1)
				key := []string{"Authorization", "api-key " + acc.APIKey}
				for k, ma := range marketApps[:4] {
					r := h.do("POST", "/apps", appBody(ma.Hash), key...)
					mu.Lock()
					if ids[r.num("id")] {
						t.Errorf("duplicate app id %d", r.num("id"))
					}
					ids[r.num("id")] = true
					mu.Unlock()
					r = h.do("PUT", fmt.Sprintf("/users/%d", uid), userBody(fmt.Sprintf("shared%d@example.test", k)), key...)
					if r.status == 200 {
						mu.Lock()
						okEmails++
						mu.Unlock()
					}
					h.do("PUT", fmt.Sprintf("/clients/%d", uid), clientBody("C"), key...)
					h.login(acc.Email, acc.Password)
				}
			}()
		}
	}
	wg.Wait()
	if len(ids) != 64 {
		t.Errorf("want 64 distinct app ids, got %d", len(ids))
	}
	t.Logf("%d email changes succeeded", okEmails)
	for k := 0; k < 4; k++ {
		owners := 0
		for _, pair := range s.Accounts() {
			for _, acc := range pair {
				if h.login(fmt.Sprintf("shared%d@example.test", k), acc.Password).status == 200 {
					owners++
				}
			}
		}
		if owners > 1 {
			t.Errorf("email shared%d owned by %d users", k, owners)
		}
	}
}

func TestChoicesDocumentsSeedCatalogue(t *testing.T) {
	raw, err := os.ReadFile("choices.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, ma := range marketApps {
		if !strings.Contains(doc, "`"+ma.Hash+"` | "+ma.Name+" | "+fmt.Sprint(ma.Platform.ID)+" "+ma.Platform.Name) {
			t.Errorf("choices.md lacks %+v", ma)
		}
	}
	for _, f := range Faults() {
		if f.Legal && !strings.Contains(doc, "`"+f.Name+"`") {
			t.Errorf("choices.md lacks legal reading %s", f.Name)
		}
	}
}
