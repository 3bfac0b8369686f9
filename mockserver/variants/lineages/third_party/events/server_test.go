package events

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineagetest"
)

var (
	isoForm   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$`)
	uuidForm  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	hex32Form = regexp.MustCompile(`^[0-9a-f]{32}$`)
	hex48Form = regexp.MustCompile(`^[0-9a-f]{48}$`)
)

func TestNew(t *testing.T) {
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Error("an unknown fault must be an error")
	}
	if _, err := New(Options{Pairs: -1}); err == nil {
		t.Error("negative Pairs must be an error")
	}
	s, err := New(Options{})
	if err != nil || len(s.Accounts()) != 1 {
		t.Fatalf("default is one pair: %v %d", err, len(s.Accounts()))
	}
	if s.BasePath() != "/pricing/v1" {
		t.Errorf("base path %q", s.BasePath())
	}
	s, _ = New(Options{Pairs: 30})
	seen := map[string]bool{}
	for _, pair := range s.Accounts() {
		for _, a := range pair {
			if seen[a.Email] || seen[a.APIKey] {
				t.Errorf("account %s is not unique", a.Email)
			}
			seen[a.Email], seen[a.APIKey] = true, true
			if !hex48Form.MatchString(a.APIKey) || len(a.Password) < 6 || !validEmail(a.Email) {
				t.Errorf("bad seeded account %+v", a)
			}
		}
	}
	names := map[string]bool{}
	for _, f := range Faults() {
		if names[f.Name] || f.Rule == "" || f.Description == "" {
			t.Errorf("fault %+v is not unique or not described", f)
		}
		names[f.Name] = true
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Error(err)
		}
	}
	if n := len(Faults()); n < 20 || n > 30 {
		t.Errorf("%d faults", n)
	}
}

func TestSeededAccountsAreDistinctUsersAndClients(t *testing.T) {
	h := newHarness(t, "")
	users, clients := map[int64]bool{}, map[int64]bool{}
	for _, pair := range h.s.Accounts() {
		for _, a := range pair {
			l := h.login(a)
			if users[l.userID] || clients[l.clientID] {
				t.Errorf("%s shares a user or client", a.Email)
			}
			users[l.userID], clients[l.clientID] = true, true
		}
	}
}

func TestVersioningAndRoutes(t *testing.T) {
	h := newHarness(t, "")
	key := h.acct(0, 0).APIKey
	cases := []struct {
		method, path string
		want         int
	}{
		{"GET", "/pricing/v1/platforms", 200},
		{"GET", "/pricing/v1.0/platforms", 404},
		{"GET", "/pricing/v1.1/platforms", 404},
		{"GET", "/pricing/v2/platforms", 404},
		{"GET", "/pricing/platforms", 404},
		{"GET", "/platforms", 404},
		{"GET", "/pricing/v1/platforms/", 404},
		{"GET", "/pricing/v1//platforms", 404},
		{"GET", "/pricing/v1", 404},
		{"GET", "/pricing/v1/", 404},
		{"POST", "/pricing/v1/users", 404},
		{"GET", "/pricing/v1/users", 404},
		{"GET", "/pricing/v1/users/3999999980", 405},
		{"DELETE", "/pricing/v1/clients/3999999980", 405},
		{"GET", "/pricing/v1/apps", 405},
		{"POST", "/pricing/v1/platforms", 405},
		{"GET", "/pricing/v1/sessions", 405},
		{"GET", "/pricing/v1/nothing", 404},
		{"PUT", "/pricing/v1/users/", 404},
	}
	for _, c := range cases {
		r := h.doRaw(c.method, c.path, nil, withKey(key))
		if r.status != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, r.status, c.want)
		}
		if c.want == 405 && r.header.Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", c.method, c.path)
		}
	}
}

func TestCollections(t *testing.T) {
	h := newHarness(t, "")
	r := h.do("GET", "/platforms", nil)
	if r.status != 200 {
		t.Fatalf("platforms: %d", r.status)
	}
	names := map[string]bool{}
	for i := 0; r.at(path("platforms.%d", i)) != nil; i++ {
		names[r.str(path("platforms.%d.name", i))] = true
		if id := r.id(path("platforms.%d.id", i)); id <= 3 {
			t.Errorf("platform id %d", id)
		}
	}
	if !names["Android"] || !names["iOS"] || len(names) != 2 {
		t.Errorf("platforms %s", r.raw)
	}
	if r := h.do("GET", "/platforms", nil, withKey("nonsense")); r.status != 200 {
		t.Errorf("platforms ignore credentials: %d", r.status)
	}
	if r := h.do("GET", "/platforms?page=7", nil); r.status != 200 {
		t.Errorf("platforms ignore arguments: %d", r.status)
	}

	for _, c := range []struct{ path, prop string }{{"/currencies", "currencies"}, {"/plans", "plans"}} {
		if r := h.do("GET", c.path, nil); r.status != 401 {
			t.Errorf("%s without credentials: %d", c.path, r.status)
		}
		r := h.do("GET", c.path, nil, withKey(h.acct(0, 1).APIKey))
		if r.status != 200 || r.at(c.prop+".1.id") == nil {
			t.Errorf("%s: %d %s", c.path, r.status, r.raw)
		}
	}
	r = h.do("GET", "/currencies", nil, withKey(h.acct(0, 0).APIKey))
	if !strings.Contains(string(r.raw), `{"id":826,"code":"GBP"`) {
		t.Errorf("currencies %s", r.raw)
	}
}

func TestAuthentication(t *testing.T) {
	h := newHarness(t, "")
	a, b := h.acct(0, 0), h.acct(0, 1)
	la, lb := h.login(a), h.login(b)
	target := path("/users/%d", la.userID)
	body := userBody(a.Email)
	cases := []struct {
		name string
		opts []opt
		want int
	}{
		{"none", nil, 401},
		{"api key", []opt{withKey(a.APIKey)}, 200},
		{"api key, scheme in capitals", []opt{withHeader("Authorization", "API-KEY "+a.APIKey)}, 200},
		{"session header", []opt{withToken(la.token)}, 200},
		{"session query", []opt{withQueryToken(la.token)}, 200},
		{"key and session of the same user", []opt{withKey(a.APIKey), withToken(la.token)}, 200},
		{"bearer scheme", []opt{withHeader("Authorization", "Bearer "+a.APIKey)}, 401},
		{"bare key", []opt{withHeader("Authorization", a.APIKey)}, 401},
		{"scheme alone", []opt{withHeader("Authorization", "api-key")}, 401},
		{"key in capitals", []opt{withKey(strings.ToUpper(a.APIKey))}, 401},
		{"truncated key", []opt{withKey(a.APIKey[:40])}, 401},
		{"key with one more character", []opt{withKey(a.APIKey + "0")}, 401},
		{"unknown token", []opt{withToken("1f0e9a2c-3b4d-4e5f-8a6b-7c8d9e0f1a2b")}, 401},
		{"token as api key", []opt{withKey(la.token)}, 401},
		{"key as token", []opt{withToken(a.APIKey)}, 401},
		{"good key, bad token", []opt{withKey(a.APIKey), withToken("nope")}, 401},
		{"key of one user, token of another", []opt{withKey(a.APIKey), withToken(lb.token)}, 401},
		{"two authorization headers", []opt{withKey(a.APIKey), withKey(a.APIKey)}, 401},
		{"other user's key", []opt{withKey(b.APIKey)}, 403},
		{"other user's token in query", []opt{withQueryToken(lb.token)}, 403},
		{"token in a header of another name", []opt{withHeader("sessionToken", la.token)}, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := h.do("PUT", target, body, c.opts...)
			if r.status != c.want {
				t.Errorf("%d, want %d: %s", r.status, c.want, r.raw)
			}
			if r.status == 401 && r.header.Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
	for _, ep := range []struct{ method, path string }{{"POST", "/apps"}, {"POST", "/clients"}, {"PUT", path("/clients/%d", la.clientID)}, {"GET", "/plans"}} {
		if r := h.do(ep.method, ep.path, map[string]any{}); r.status != 401 {
			t.Errorf("%s %s without credentials: %d", ep.method, ep.path, r.status)
		}
	}
}

func TestSessions(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 0)
	r := h.do("POST", "/sessions", map[string]any{"email": a.Email, "password": a.Password})
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	if !uuidForm.MatchString(r.str("token")) || !isoForm.MatchString(r.str("created")) {
		t.Errorf("session %s", r.raw)
	}
	if r.id("userId") == 0 || r.id("creatorUserId") != r.id("userId") || r.id("clientId") == 0 || r.id("id") == 0 {
		t.Errorf("session ids %s", r.raw)
	}
	if len(r.body.(map[string]any)) != 6 {
		t.Errorf("session fields %s", r.raw)
	}
	r2 := h.do("POST", "/sessions", map[string]any{"email": strings.ToUpper(a.Email), "password": a.Password})
	if r2.status != 200 || r2.str("token") == r.str("token") || r2.id("id") >= r.id("id") {
		t.Errorf("second session: %d %s", r2.status, r2.raw)
	}

	cases := []struct {
		name  string
		body  any
		codes []string
	}{
		{"wrong password", map[string]any{"email": a.Email, "password": a.Password + "x"}, []string{"password:InvalidCredentials"}},
		{"password in other case", map[string]any{"email": a.Email, "password": strings.ToUpper(a.Password)}, []string{"password:InvalidCredentials"}},
		{"unknown email", map[string]any{"email": "nobody@kelpforest.example", "password": a.Password}, []string{"password:InvalidCredentials"}},
		{"other account's password", map[string]any{"email": a.Email, "password": h.acct(0, 1).Password}, []string{"password:InvalidCredentials"}},
		{"no password", map[string]any{"email": a.Email}, []string{"password:InvalidPassword"}},
		{"no email", map[string]any{"password": a.Password}, []string{"email:InvalidEmail"}},
		{"numbers", map[string]any{"email": 7, "password": 7}, []string{"email:InvalidEmail", "password:InvalidPassword"}},
		{"unknown field", map[string]any{"email": a.Email, "password": a.Password, "remember": true}, []string{"remember:UnknownField"}},
		{"array", []any{a.Email, a.Password}, []string{"body:InvalidBody"}},
		{"empty", "", []string{"body:InvalidBody"}},
		{"malformed", `{"email": "`, []string{"body:InvalidBody"}},
	}
	for _, c := range cases {
		r := h.do("POST", "/sessions", c.body)
		if r.status != 400 || strings.Join(r.codes(), ",") != strings.Join(c.codes, ",") {
			t.Errorf("%s: %d %s", c.name, r.status, r.raw)
		}
	}
}

func TestPutUser(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 0)
	l := h.login(a)
	body := userBody("wilhelmina.c@gannet-wren.example.org")
	r := h.do("PUT", path("/users/%d", l.userID), body, withKey(a.APIKey))
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	want := map[string]any{
		"id": float64(l.userID), "email": body["email"], "firstName": "Wilhelmina", "lastName": "Castellanos",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false,
		"timezone": "America/Argentina/Buenos_Aires",
	}
	for k, v := range want {
		if r.at(k) != v {
			t.Errorf("%s = %v, want %v", k, r.at(k), v)
		}
	}
	for _, k := range []string{"created", "passwordLastChanged"} {
		if !isoForm.MatchString(r.str(k)) {
			t.Errorf("%s = %q", k, r.str(k))
		}
	}
	if r.id("phoneCountry.id") == 0 || !strings.HasPrefix(r.str("phoneCountry.dialCode"), "+") ||
		!strings.Contains(r.str("phoneCountry.name"), "("+r.str("phoneCountry.dialCode")+")") || r.str("phoneNumber") == "" {
		t.Errorf("phone %s", r.raw)
	}
	if _, ok := r.body.(map[string]any)["phoneExtension"]; !ok {
		t.Error("phoneExtension missing")
	}
	if strings.Contains(strings.ToLower(string(r.raw)), "password\":\"") || strings.Contains(string(r.raw), a.Password) {
		t.Errorf("the password is returned: %s", r.raw)
	}
	if n := len(r.body.(map[string]any)); n != 14 {
		t.Errorf("%d fields: %s", n, r.raw)
	}
	if h.loginStatus(body["email"].(string), a.Password) != 200 || h.loginStatus(a.Email, a.Password) != 400 {
		t.Error("the new email must log in, the old one not")
	}

	// The response's read-only fields may be sent back.
	back := clone(r.body.(map[string]any))
	back["password"] = nil
	if r2 := h.do("PUT", path("/users/%d", l.userID), back, withToken(l.token)); r2.status != 200 || r2.str("created") != r.str("created") {
		t.Errorf("round trip: %d %s", r2.status, r2.raw)
	}
}

func TestPutUserValidation(t *testing.T) {
	long := strings.Repeat("é", 256)
	at255 := strings.Repeat("é", 255)
	email255 := strings.Repeat("q", 255-len("@tern.example.com")) + "@tern.example.com"
	cases := []struct {
		field string
		value any
		want  string // "" is success, else fieldName:code
	}{
		{"email", del, "email:InvalidEmail"},
		{"email", nil, "email:InvalidEmail"},
		{"email", "", "email:InvalidEmail"},
		{"email", "no-at-sign.example.com", "email:InvalidEmail"},
		{"email", "two@@example.com", "email:InvalidEmail"},
		{"email", "space in@example.com", "email:InvalidEmail"},
		{"email", "nodomain@localhost", "email:InvalidEmail"},
		{"email", " lead@example.com", "email:InvalidEmail"},
		{"email", 42, "email:InvalidEmail"},
		{"email", email255, ""},
		{"email", "q" + email255, "email:InvalidEmail"},
		{"email", "o'brien+pricing@sub.domain-x.example.ie", ""},
		{"firstName", del, "firstName:InvalidFirstName"},
		{"firstName", "", "firstName:InvalidFirstName"},
		{"firstName", "   ", "firstName:InvalidFirstName"},
		{"firstName", nil, "firstName:InvalidFirstName"},
		{"firstName", false, "firstName:InvalidFirstName"},
		{"firstName", at255, ""},
		{"firstName", long, "firstName:InvalidFirstName"},
		{"lastName", del, "lastName:InvalidLastName"},
		{"lastName", "", "lastName:InvalidLastName"},
		{"lastName", long, "lastName:InvalidLastName"},
		{"lastName", "Ó Súilleabháin", ""},
		{"subscribeWelcome", del, "subscribeWelcome:InvalidSubscribeWelcome"},
		{"subscribeBlog", "true", "subscribeBlog:InvalidSubscribeBlog"},
		{"subscribeHowto", 1, "subscribeHowto:InvalidSubscribeHowto"},
		{"subscribeOnboarding", nil, "subscribeOnboarding:InvalidSubscribeOnboarding"},
		{"timezone", del, "timezone:InvalidTimezone"},
		{"timezone", "UTC", "timezone:InvalidTimezone"},
		{"timezone", "Europe/", "timezone:InvalidTimezone"},
		{"timezone", "Europe/Vilnius", ""},
		{"timezone", "Europe/" + strings.Repeat("x", 249), "timezone:InvalidTimezone"},
		{"password", del, "password:InvalidPassword"},
		{"password", "five5", "password:InvalidPassword"},
		{"password", "ééééé", "password:InvalidPassword"},
		{"password", "éééééé", ""},
		{"password", "sixsix", ""},
		{"password", 123456, "password:InvalidPassword"},
		{"password", "", "password:InvalidPassword"},
		{"phoneCountry", map[string]any{"id": 538}, ""},
		{"phoneCountry", map[string]any{"id": 538, "name": "ignored", "dialCode": "+0"}, ""},
		{"phoneCountry", map[string]any{"id": 999999}, "phoneCountry.id:InvalidPhoneCountryId"},
		{"phoneCountry", map[string]any{"id": "538"}, "phoneCountry.id:InvalidPhoneCountryId"},
		{"phoneCountry", map[string]any{}, "phoneCountry.id:InvalidPhoneCountryId"},
		{"phoneCountry", 538, "phoneCountry:InvalidPhoneCountryId"},
		{"phoneCountry", nil, "phoneCountry:InvalidPhoneCountryId"},
		{"phoneCountryId", 583, ""},
		{"phoneCountryId", 1, "phoneCountryId:InvalidPhoneCountryId"},
		{"phoneCountryId", -538, "phoneCountryId:InvalidPhoneCountryId"},
		{"phoneNumber", "", "phoneNumber:InvalidPhoneNumber"},
		{"phoneNumber", nil, "phoneNumber:InvalidPhoneNumber"},
		{"phoneNumber", "call me", "phoneNumber:InvalidPhoneNumber"},
		{"phoneNumber", "+44 (0)20 7946-0958", ""},
		{"phoneExtension", nil, ""},
		{"phoneExtension", "0042", ""},
		{"phoneExtension", "", "phoneExtension:InvalidPhoneExtension"},
		{"phoneExtension", "ext 4", "phoneExtension:InvalidPhoneExtension"},
		{"phoneExtension", 42, "phoneExtension:InvalidPhoneExtension"},
		{"client", nil, ""},
		{"client", "yes", "client:InvalidClient"},
		{"id", 1, ""},
		{"nickname", "Billie", "nickname:UnknownField"},
		{"Email", "x@y.example.com", "Email:UnknownField"},
	}
	for _, c := range cases {
		h := newHarness(t, "")
		a := h.acct(1, 1)
		l := h.login(a)
		body := set(userBody("fresh.address@kittiwake.example.net"), c.field, c.value)
		r := h.do("PUT", path("/users/%d", l.userID), body, withToken(l.token))
		name := c.field + "=" + strings.TrimSpace(string(encodeJSON(c.value)))
		if len(name) > 60 {
			name = name[:60]
		}
		if c.want == "" {
			if r.status != 200 {
				t.Errorf("%s: %d %s", name, r.status, r.raw)
			}
			continue
		}
		if r.status != 400 || len(r.codes()) != 1 || r.codes()[0] != c.want {
			t.Errorf("%s: %d %s, want %s", name, r.status, r.raw, c.want)
		}
		for _, e := range r.body.([]any) {
			if m := e.(map[string]any); len(m) != 3 || m["message"] == "" {
				t.Errorf("%s: error element %v", name, m)
			}
		}
		// A refusal changes nothing: the old credentials still work.
		if h.loginStatus(a.Email, a.Password) != 200 {
			t.Errorf("%s: refused update changed the user", name)
		}
	}
}

func TestPutUserErrorsAreAllReported(t *testing.T) {
	h := newHarness(t, "")
	l := h.login(h.acct(0, 0))
	r := h.do("PUT", path("/users/%d", l.userID), map[string]any{"password": "abc"}, withToken(l.token))
	want := "email:InvalidEmail,firstName:InvalidFirstName,lastName:InvalidLastName,subscribeWelcome:InvalidSubscribeWelcome," +
		"subscribeBlog:InvalidSubscribeBlog,subscribeHowto:InvalidSubscribeHowto,subscribeOnboarding:InvalidSubscribeOnboarding," +
		"timezone:InvalidTimezone,password:InvalidPassword"
	if r.status != 400 || strings.Join(r.codes(), ",") != want {
		t.Errorf("%d %v", r.status, r.codes())
	}
}

func TestPasswordRules(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 1)
	l := h.login(a)
	url := path("/users/%d", l.userID)
	first := h.do("PUT", url, userBody(a.Email), withKey(a.APIKey))
	if first.status != 200 || h.loginStatus(a.Email, a.Password) != 200 {
		t.Fatal("a null password must keep the password")
	}
	second := h.do("PUT", url, userBody(a.Email), withKey(a.APIKey))
	if second.str("passwordLastChanged") != first.str("passwordLastChanged") {
		t.Error("a null password must not move passwordLastChanged")
	}
	third := h.do("PUT", url, set(userBody(a.Email), "password", "Rook&Raven 2031"), withKey(a.APIKey))
	if third.status != 200 || third.str("passwordLastChanged") == first.str("passwordLastChanged") {
		t.Errorf("password change: %d %s", third.status, third.raw)
	}
	if h.loginStatus(a.Email, "Rook&Raven 2031") != 200 || h.loginStatus(a.Email, a.Password) != 400 {
		t.Error("the new password must log in, the old one not")
	}
	// Sessions opened before a password change stay valid.
	if r := h.do("PUT", url, userBody(a.Email), withToken(l.token)); r.status != 200 {
		t.Errorf("old session: %d", r.status)
	}
}

func TestPutUserPermissionsAndIDs(t *testing.T) {
	h := newHarness(t, "")
	a, b := h.acct(0, 0), h.acct(1, 0)
	la, lb := h.login(a), h.login(b)
	body := userBody(a.Email)
	cases := []struct {
		name, path string
		opts       []opt
		want       int
	}{
		{"own", path("/users/%d", la.userID), []opt{withKey(a.APIKey)}, 200},
		{"other user", path("/users/%d", lb.userID), []opt{withKey(a.APIKey)}, 403},
		{"unknown user", "/users/3999999999", []opt{withKey(a.APIKey)}, 404},
		{"client id as user id", path("/users/%d", la.clientID), []opt{withKey(a.APIKey)}, 404},
		{"unknown user without credentials", "/users/3999999999", nil, 401},
		{"other user without credentials", path("/users/%d", lb.userID), nil, 401},
		{"not a number", "/users/me", []opt{withKey(a.APIKey)}, 404},
		{"not a number without credentials", "/users/me", nil, 401},
		{"negative", "/users/-5", []opt{withKey(a.APIKey)}, 404},
		{"zero", "/users/0", []opt{withKey(a.APIKey)}, 404},
		{"leading zero", path("/users/0%d", la.userID), []opt{withKey(a.APIKey)}, 404},
		{"huge", "/users/99999999999999999999999999999", []opt{withKey(a.APIKey)}, 404},
		{"float", path("/users/%d.0", la.userID), []opt{withKey(a.APIKey)}, 404},
		{"encoded", "/users/%20", []opt{withKey(a.APIKey)}, 404},
	}
	for _, c := range cases {
		if r := h.do("PUT", c.path, body, c.opts...); r.status != c.want {
			t.Errorf("%s: %d, want %d (%s)", c.name, r.status, c.want, r.raw)
		}
	}
	// Permission comes before the body: a bad body on another user is 403.
	if r := h.do("PUT", path("/users/%d", lb.userID), "{", withKey(a.APIKey)); r.status != 403 {
		t.Errorf("bad body on another user: %d", r.status)
	}
	// An email another user has is refused, whatever its case.
	r := h.do("PUT", path("/users/%d", la.userID), userBody(strings.ToUpper(b.Email)), withKey(a.APIKey))
	if r.status != 400 || !r.hasCode("email", "EmailInUse") {
		t.Errorf("email in use: %d %s", r.status, r.raw)
	}
}

func TestPhoneFieldsPersist(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 0)
	l := h.login(a)
	url := path("/users/%d", l.userID)
	body := userBody(a.Email)
	body["phoneCountry"] = map[string]any{"id": 601}
	body["phoneNumber"] = "98200 11223"
	body["phoneExtension"] = "77"
	r := h.do("PUT", url, body, withKey(a.APIKey))
	if r.status != 200 || r.id("phoneCountry.id") != 601 || r.str("phoneCountry.name") != "India (+91)" ||
		r.str("phoneCountry.dialCode") != "+91" || r.str("phoneNumber") != "98200 11223" || r.str("phoneExtension") != "77" {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	r = h.do("PUT", url, userBody(a.Email), withKey(a.APIKey))
	if r.id("phoneCountry.id") != 601 || r.str("phoneNumber") != "98200 11223" || r.str("phoneExtension") != "77" {
		t.Errorf("absent phone fields must be kept: %s", r.raw)
	}
	r = h.do("PUT", url, set(userBody(a.Email), "phoneExtension", nil), withKey(a.APIKey))
	if r.at("phoneExtension") != nil || !strings.Contains(string(r.raw), `"phoneExtension":null`) {
		t.Errorf("null extension: %s", r.raw)
	}
}

func TestPutUserWithClient(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 0)
	l := h.login(a)
	url := path("/users/%d", l.userID)

	body := set(userBody("ada.byron@analytical-engines.example.com"), "password", "difference-engine")
	body["client"] = clientBody()
	set(body, "client.app", h.appBody("Fennec Run", platformIOS))
	want := "client.app.marketapp.hash:MarketappNotFound"
	set(body, "client.app.marketapp.hash", strings.Repeat("ab", 20))
	if r := h.do("PUT", url, body, withKey(a.APIKey)); r.status != 400 || strings.Join(r.codes(), ",") != want {
		t.Errorf("nested errors: %d %s", r.status, r.raw)
	}
	if h.loginStatus("ada.byron@analytical-engines.example.com", "difference-engine") != 400 || h.loginStatus(a.Email, a.Password) != 200 {
		t.Error("a request refused for its client part must not change the user")
	}
	set(body, "client.name", "   ")
	set(body, "client.currency.id", 36)
	set(body, "client.extra", 1)
	r := h.do("PUT", url, body, withKey(a.APIKey))
	if !r.hasCode("client.name", "InvalidName") || !r.hasCode("client.currency.id", "InvalidCurrencyId") || !r.hasCode("client.extra", "UnknownField") {
		t.Errorf("nested names: %s", r.raw)
	}

	body = set(userBody("ada.byron@analytical-engines.example.com"), "password", "difference-engine")
	body["client"] = clientBody()
	set(body, "client.app", h.appBody("Fennec Run", platformIOS))
	if r = h.do("PUT", url, body, withKey(a.APIKey)); r.status != 200 || r.at("client") != nil {
		t.Fatalf("user with client: %d %s", r.status, r.raw)
	}
	if h.loginStatus("ada.byron@analytical-engines.example.com", "difference-engine") != 200 {
		t.Error("the update must apply")
	}
	h.s.st.mu.Lock()
	defer h.s.st.mu.Unlock()
	u := h.s.st.users[l.userID]
	if len(u.Clients) != 2 || !h.s.st.clients[u.Clients[1]].Users[l.userID] {
		t.Fatalf("the new client is missing or the user is not its user: %v", u.Clients)
	}
	apps := 0
	for _, app := range h.s.st.apps {
		if app.ClientID == u.Clients[1] {
			apps++
		}
	}
	if apps != 1 {
		t.Errorf("%d apps for the new client", apps)
	}
}

func TestPostClient(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 0)
	r := h.do("POST", "/clients", clientBody(), withKey(a.APIKey))
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	for k, v := range clientBody() {
		if k == "terms" || k == "currency" {
			continue
		}
		if r.at(k) != v {
			t.Errorf("%s = %v, want %v", k, r.at(k), v)
		}
	}
	if r.id("currency.id") != 826 || r.str("currency.code") != "GBP" || !isoForm.MatchString(r.str("createdDate")) || r.id("id") == 0 {
		t.Errorf("client %s", r.raw)
	}
	if r.at("terms") != nil || r.at("app") != nil {
		t.Errorf("client has terms or app: %s", r.raw)
	}
	l := h.login(a)
	if r.id("id") == l.clientID {
		t.Error("a new client must have a new id")
	}
	// The creator may update the new client.
	if r2 := h.do("PUT", path("/clients/%d", r.id("id")), set(clientBody(), "name", "Renamed"), withToken(l.token)); r2.status != 200 || r2.str("name") != "Renamed" {
		t.Errorf("update new client: %d %s", r2.status, r2.raw)
	}

	// Optional fields may be left out, and are then not shown.
	minimal := clientBody()
	delete(minimal, "addressLine2")
	minimal["vat"] = nil
	if r := h.do("POST", "/clients", minimal, withKey(a.APIKey)); r.status != 200 || r.at("vat") != nil || r.at("addressLine2") != nil {
		t.Errorf("minimal client: %d %s", r.status, r.raw)
	}

	withApp := set(clientBody(), "app", h.appBody("Orbital Knitting", platformAndroid))
	r = h.do("POST", "/clients", withApp, withKey(a.APIKey))
	if r.status != 200 {
		t.Fatalf("client with app: %d %s", r.status, r.raw)
	}
	h.s.st.mu.Lock()
	found := false
	for _, app := range h.s.st.apps {
		found = found || (app.ClientID == r.id("id") && app.Name == "Orbital Knitting")
	}
	h.s.st.mu.Unlock()
	if !found {
		t.Error("the first app was not created")
	}
}

func clientCases(h *harness) []struct {
	field string
	value any
	want  string
} {
	long := strings.Repeat("ø", 256)
	ok255 := strings.Repeat("ø", 255)
	return []struct {
		field string
		value any
		want  string
	}{
		{"name", del, "name:InvalidName"},
		{"name", "", "name:InvalidName"},
		{"name", " \t", "name:InvalidName"},
		{"name", nil, "name:InvalidName"},
		{"name", 5, "name:InvalidName"},
		{"name", long, "name:InvalidName"},
		{"name", ok255, ""},
		{"addressLine1", del, "addressLine1:InvalidAddressLine1"},
		{"addressLine1", long, "addressLine1:InvalidAddressLine1"},
		{"addressLine2", del, ""},
		{"addressLine2", "", ""},
		{"addressLine2", long, "addressLine2:InvalidAddressLine2"},
		{"addressLine2", ok255, ""},
		{"addressLine2", []any{}, "addressLine2:InvalidAddressLine2"},
		{"addressCity", "", "addressCity:InvalidAddressCity"},
		{"addressPostcode", del, "addressPostcode:InvalidAddressPostcode"},
		{"addressCountry", long, "addressCountry:InvalidAddressCountry"},
		{"vat", long, "vat:InvalidVat"},
		{"vat", ok255, ""},
		{"vat", 123, "vat:InvalidVat"},
		{"currency", del, "currency:InvalidCurrencyId"},
		{"currency", 826, "currency:InvalidCurrencyId"},
		{"currency.id", 999, "currency.id:InvalidCurrencyId"},
		{"currency.id", 1, "currency.id:InvalidCurrencyId"},
		{"currency.id", "826", "currency.id:InvalidCurrencyId"},
		{"currency.id", 826.5, "currency.id:InvalidCurrencyId"},
		{"currency.id", nil, "currency.id:InvalidCurrencyId"},
		{"currency.id", 978, ""},
		{"currency.code", "GBP", ""},
		{"currency.rate", 1, "currency.rate:UnknownField"},
		{"terms", del, "terms:InvalidTerms"},
		{"terms", "i agree", "terms:InvalidTerms"},
		{"terms", "I agree ", "terms:InvalidTerms"},
		{"terms", "I Agree", "terms:InvalidTerms"},
		{"terms", true, "terms:InvalidTerms"},
		{"createdDate", "whatever", ""},
		{"colour", "teal", "colour:UnknownField"},
	}
}

func TestClientValidation(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 0)
	l := h.login(a)
	for _, method := range []string{"POST", "PUT"} {
		for _, c := range clientCases(h) {
			target := "/clients"
			if method == "PUT" {
				target = path("/clients/%d", l.clientID)
			}
			r := h.do(method, target, set(clientBody(), c.field, c.value), withToken(l.token))
			name := method + " " + c.field
			if c.want == "" {
				if r.status != 200 {
					t.Errorf("%s: %d %s", name, r.status, r.raw)
				}
				continue
			}
			if r.status != 400 || strings.Join(r.codes(), ",") != c.want {
				t.Errorf("%s=%v: %d %s, want %s", name, c.value, r.status, r.raw, c.want)
			}
		}
	}
	appCases := []struct {
		method string
		app    any
		want   string
	}{
		{"PUT", nil, "app:AppNotAllowed"},
		{"PUT", h.appBody("Lumen Budget", platformIOS), "app:AppNotAllowed"},
		{"POST", nil, ""},
		{"POST", "Lumen Budget", "app:InvalidApp"},
		{"POST", map[string]any{}, "app.name:InvalidName,app.platform.id:InvalidPlatformId,app.nextplan:InvalidPlanId"},
	}
	for _, c := range appCases {
		target := "/clients"
		if c.method == "PUT" {
			target = path("/clients/%d", l.clientID)
		}
		r := h.do(c.method, target, set(clientBody(), "app", c.app), withKey(a.APIKey))
		if (c.want == "" && r.status != 200) || (c.want != "" && strings.Join(r.codes(), ",") != c.want) {
			t.Errorf("%s app=%v: %d %s", c.method, c.app, r.status, r.raw)
		}
	}
}

func TestClientWithBadAppCreatesNothing(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 0)
	h.s.st.mu.Lock()
	before := len(h.s.st.log)
	h.s.st.mu.Unlock()
	body := set(clientBody(), "app", h.appBody("Lumen Budget", platformIOS))
	set(body, "app.nextplan.id", 4000)
	if r := h.do("POST", "/clients", body, withKey(a.APIKey)); r.status != 400 || strings.Join(r.codes(), ",") != "app.nextplan.id:InvalidPlanId" {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	h.s.st.mu.Lock()
	after := len(h.s.st.log)
	h.s.st.mu.Unlock()
	if after != before {
		t.Errorf("%d events appended by a refused request", after-before)
	}
}

func TestPutClient(t *testing.T) {
	h := newHarness(t, "")
	a, b := h.acct(0, 0), h.acct(0, 1)
	la, lb := h.login(a), h.login(b)
	body := set(clientBody(), "currency.id", 840)
	delete(body, "vat")
	r := h.do("PUT", path("/clients/%d", la.clientID), body, withKey(a.APIKey))
	if r.status != 200 || r.id("id") != la.clientID || r.str("currency.code") != "USD" || r.at("vat") != nil || r.str("name") != body["name"] {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	created := r.str("createdDate")
	r = h.do("PUT", path("/clients/%d", la.clientID), clientBody(), withKey(a.APIKey))
	if r.str("createdDate") != created || r.str("vat") != "GB123456789" {
		t.Errorf("second update: %s", r.raw)
	}
	cases := []struct {
		name, path string
		opts       []opt
		want       int
	}{
		{"other's client", path("/clients/%d", lb.clientID), []opt{withKey(a.APIKey)}, 403},
		{"other's client without credentials", path("/clients/%d", lb.clientID), nil, 401},
		{"unknown client", "/clients/3899999999", []opt{withKey(a.APIKey)}, 404},
		{"unknown client without credentials", "/clients/3899999999", nil, 401},
		{"user id as client id", path("/clients/%d", la.userID), []opt{withKey(a.APIKey)}, 404},
		{"not a number", "/clients/abc", []opt{withKey(a.APIKey)}, 404},
		{"huge", "/clients/123456789012345678901234567890", []opt{withKey(a.APIKey)}, 404},
	}
	for _, c := range cases {
		if r := h.do("PUT", c.path, clientBody(), c.opts...); r.status != c.want {
			t.Errorf("%s: %d, want %d", c.name, r.status, c.want)
		}
	}
	if r := h.do("PUT", path("/clients/%d", lb.clientID), "[]", withKey(a.APIKey)); r.status != 403 {
		t.Errorf("bad body on another's client: %d", r.status)
	}
}

func TestPostApp(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 0)
	l := h.login(a)
	fennecIOS := h.hashOf("Fennec Run", platformIOS)
	r := h.do("POST", "/apps", h.appBody("Fennec Run", platformIOS), withToken(l.token))
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	if r.str("name") != "Fennec Run" || r.id("platform.id") != platformIOS || r.str("platform.name") != "iOS" ||
		r.str("marketapp.hash") != fennecIOS || !hex32Form.MatchString(r.str("writeKey")) || !isoForm.MatchString(r.str("created")) {
		t.Errorf("app %s", r.raw)
	}
	if r.at("plan.isPro") != true || r.at("plan.isLite") != false || r.at("plan.isDynamic") != false || r.at("plan.needBilling") != true {
		t.Errorf("plan %s", r.raw)
	}
	if n := len(r.body.(map[string]any)); n != 7 {
		t.Errorf("%d fields", n)
	}
	h.s.st.mu.Lock()
	owner := h.s.st.apps[r.id("id")].ClientID
	h.s.st.mu.Unlock()
	if owner != l.clientID {
		t.Errorf("the app belongs to %d, not the session's client %d", owner, l.clientID)
	}
	// Several apps of one marketplace app, and ids that count down.
	r2 := h.do("POST", "/apps", h.appBody("Fennec Run", platformIOS), withKey(a.APIKey))
	if r2.status != 200 || r2.id("id") >= r.id("id") || r2.str("writeKey") == r.str("writeKey") {
		t.Errorf("second app: %d %s", r2.status, r2.raw)
	}

	upper := strings.ToUpper(fennecIOS)
	cases := []struct {
		name  string
		body  map[string]any
		check func(resp) bool
		want  string
	}{
		{"hash in capitals", set(h.appBody("Fennec Run", platformIOS), "marketapp.hash", upper), func(r resp) bool { return r.str("marketapp.hash") == fennecIOS }, ""},
		{"hash with name and other platform", set(set(h.appBody("Fennec Run", platformIOS), "name", "Something Else"), "platform.id", platformAndroid),
			func(r resp) bool { return r.str("name") == "Fennec Run" && r.id("platform.id") == platformIOS }, ""},
		{"hash with unknown platform ignored", set(h.appBody("Fennec Run", platformIOS), "platform.id", 12345), nil, ""},
		{"name and platform", set(set(set(bareApp(), "marketapp", nil), "name", "fennec run"), "platform.id", platformAndroid),
			func(r resp) bool {
				return r.str("marketapp.hash") == h.hashOf("Fennec Run", platformAndroid) && r.str("platform.name") == "Android"
			}, ""},
		{"name and platform, hash null", set(set(set(bareApp(), "marketapp.hash", nil), "name", "Lumen Budget"), "platform.id", platformIOS), nil, ""},
		{"lite plan", set(h.appBody("Cobalt Flashcards", platformAndroid), "nextplan.id", planLite),
			func(r resp) bool {
				return r.at("plan.isLite") == true && r.at("plan.needBilling") == false && r.at("plan.isPro") == false
			}, ""},
		{"dynamic plan", set(h.appBody("Cobalt Flashcards", platformAndroid), "nextplan.id", planDynamic),
			func(r resp) bool { return r.at("plan.isDynamic") == true && r.at("plan.isPro") == false }, ""},
		{"nothing", map[string]any{}, nil, "name:InvalidName,platform.id:InvalidPlatformId,nextplan:InvalidPlanId"},
		{"no hash, no name", set(set(bareApp(), "marketapp", map[string]any{}), "platform.id", platformIOS), nil, "name:InvalidName"},
		{"no hash, blank name", set(set(set(bareApp(), "marketapp", nil), "name", " "), "platform.id", platformIOS), nil, "name:InvalidName"},
		{"no hash, name, no platform", set(set(bareApp(), "marketapp", nil), "name", "Lumen Budget"), nil, "platform.id:InvalidPlatformId"},
		{"no hash, name, unknown platform", set(set(set(bareApp(), "marketapp", nil), "name", "Lumen Budget"), "platform.id", 3), nil, "platform.id:InvalidPlatformId"},
		{"no hash, name on the wrong platform", set(set(set(bareApp(), "marketapp", nil), "name", "Lumen Budget"), "platform.id", platformAndroid), nil, "name:MarketappNotFound"},
		{"no hash, name of no store app", set(set(set(bareApp(), "marketapp", nil), "name", "My Own App"), "platform.id", platformIOS), nil, "name:MarketappNotFound"},
		{"name too long", set(set(set(bareApp(), "marketapp", nil), "name", strings.Repeat("n", 256)), "platform.id", platformIOS), nil, "name:InvalidName"},
		{"name a number", set(h.appBody("Fennec Run", platformIOS), "name", 7), nil, "name:InvalidName"},
		{"hash 39", set(bareApp(), "marketapp.hash", fennecIOS[:39]), nil, "marketapp.hash:InvalidMarketappHash"},
		{"hash 41", set(bareApp(), "marketapp.hash", fennecIOS+"a"), nil, "marketapp.hash:InvalidMarketappHash"},
		{"hash not hex", set(bareApp(), "marketapp.hash", "g"+fennecIOS[1:]), nil, "marketapp.hash:InvalidMarketappHash"},
		{"hash a number", set(bareApp(), "marketapp.hash", 12), nil, "marketapp.hash:InvalidMarketappHash"},
		{"marketapp a string", set(bareApp(), "marketapp", fennecIOS), nil, "marketapp:InvalidMarketappHash"},
		{"unknown hash", set(bareApp(), "marketapp.hash", strings.Repeat("0", 40)), nil, "marketapp.hash:MarketappNotFound"},
		{"unknown plan", set(h.appBody("Fennec Run", platformIOS), "nextplan.id", 4000), nil, "nextplan.id:InvalidPlanId"},
		{"plan id a string", set(h.appBody("Fennec Run", platformIOS), "nextplan.id", "4058"), nil, "nextplan.id:InvalidPlanId"},
		{"plan a number", set(h.appBody("Fennec Run", platformIOS), "nextplan", planPro), nil, "nextplan:InvalidPlanId"},
		{"no plan", set(h.appBody("Fennec Run", platformIOS), "nextplan", del), nil, "nextplan:InvalidPlanId"},
		{"platform id a string", set(h.appBody("Fennec Run", platformIOS), "platform.id", "74"), nil, "platform.id:InvalidPlatformId"},
		{"unknown field", set(h.appBody("Fennec Run", platformIOS), "writeKey", "x"), nil, "writeKey:UnknownField"},
		{"unknown nested field", set(h.appBody("Fennec Run", platformIOS), "marketapp.url", "x"), nil, "marketapp.url:UnknownField"},
	}
	for _, c := range cases {
		r := h.do("POST", "/apps", c.body, withKey(a.APIKey))
		if c.want == "" {
			if r.status != 200 || (c.check != nil && !c.check(r)) {
				t.Errorf("%s: %d %s", c.name, r.status, r.raw)
			}
			continue
		}
		if r.status != 400 || strings.Join(r.codes(), ",") != c.want {
			t.Errorf("%s: %d %s, want %s", c.name, r.status, r.raw, c.want)
		}
	}
}

func TestBodySizeLimit(t *testing.T) {
	h := newHarness(t, "")
	big := `{"name":"` + strings.Repeat("x", maxBody) + `"}`
	for _, c := range []struct {
		method, path string
		opts         []opt
	}{
		{"POST", "/clients", nil},
		{"POST", "/clients", []opt{withKey(h.acct(0, 0).APIKey)}},
		{"PUT", "/users/3999999999", nil},
		{"POST", "/sessions", nil},
		{"GET", "/platforms", nil},
	} {
		if r := h.do(c.method, c.path, big, c.opts...); r.status != 413 {
			t.Errorf("%s %s: %d", c.method, c.path, r.status)
		}
	}
	exact := `{"email":"` + strings.Repeat("x", maxBody-12) + `"}`
	if len(exact) != maxBody {
		t.Fatal(len(exact))
	}
	if r := h.do("POST", "/sessions", exact); r.status != 400 {
		t.Errorf("a body of exactly 1 MiB is read: %d", r.status)
	}

	// Through a real connection, with and without a Content-Length.
	srv := httptest.NewServer(h.s)
	defer srv.Close()
	for _, chunked := range []bool{false, true} {
		var body io.Reader = strings.NewReader(big + big)
		if chunked {
			body = io.MultiReader(body) // hides the length
		}
		req, _ := http.NewRequest("POST", srv.URL+basePath+"/clients", body)
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("chunked=%v: %v", chunked, err)
		}
		res.Body.Close()
		if res.StatusCode != 413 {
			t.Errorf("chunked=%v: %d", chunked, res.StatusCode)
		}
	}
}

func TestRealConnection(t *testing.T) {
	h := newHarness(t, "")
	srv := httptest.NewServer(h.s)
	defer srv.Close()
	a := h.acct(0, 0)
	res, err := http.Post(srv.URL+h.s.BasePath()+"/sessions", "application/json",
		bytes.NewReader(encodeJSON(map[string]any{"email": a.Email, "password": a.Password})))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Errorf("%d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

func TestIDsCountDownIrregularly(t *testing.T) {
	h := newHarness(t, "")
	a := h.acct(0, 0)
	var ids []int64
	for i := 0; i < 12; i++ {
		r := h.do("POST", "/clients", clientBody(), withKey(a.APIKey))
		ids = append(ids, r.id("id"))
	}
	steps := map[int64]bool{}
	for i := 1; i < len(ids); i++ {
		step := ids[i-1] - ids[i]
		if step < 7 || step > 13 {
			t.Errorf("step %d", step)
		}
		steps[step] = true
	}
	if len(steps) < 2 || ids[0] < 3_000_000_000 {
		t.Errorf("ids %v", ids)
	}
}

func TestConcurrentRequests(t *testing.T) {
	h := newHarness(t, "")
	var wg sync.WaitGroup
	ids := make(chan int64, 200)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			a := h.s.Accounts()[w%2][w/2%2]
			for i := 0; i < 20; i++ {
				r := h.do("POST", "/clients", clientBody(), withKey(a.APIKey))
				if r.status != 200 {
					t.Errorf("%d", r.status)
					return
				}
				ids <- r.id("id")
				h.loginStatus(a.Email, a.Password)
				h.do("GET", "/platforms", nil)
			}
		}(w)
	}
	wg.Wait()
	close(ids)
	seen := map[int64]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("id %d given twice", id)
		}
		seen[id] = true
	}
}

func TestServersAreIndependent(t *testing.T) {
	one, two := newHarness(t, ""), newHarness(t, "")
	a := one.acct(0, 0)
	if r := two.do("POST", "/clients", clientBody(), withKey(a.APIKey)); r.status != 401 {
		t.Errorf("one server's key works on another: %d", r.status)
	}
	tok := one.login(a).token
	if r := two.do("POST", "/clients", clientBody(), withToken(tok)); r.status != 401 {
		t.Errorf("one server's token works on another: %d", r.status)
	}
}

func encodeJSON(v any) []byte {
	if v == nil {
		return []byte("null")
	}
	b, _ := io.ReadAll(lineagetest.Body(v))
	return b
}
