package tables

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	dateRe     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)
	tokenRe    = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)
	apiKeyRe   = regexp.MustCompile(`^pk_[A-Za-z0-9]{40}$`)
	writeKeyRe = regexp.MustCompile(`^[0-9a-f]{32}$`)
)

func TestNewOptions(t *testing.T) {
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Error("an unknown fault must be an error")
	}
	if _, err := New(Options{Pairs: -1}); err == nil {
		t.Error("negative Pairs must be an error")
	}
	s, err := New(Options{Pairs: 3})
	if err != nil {
		t.Fatal(err)
	}
	if s.BasePath() != "/api/v1.0" {
		t.Errorf("BasePath = %q", s.BasePath())
	}
	seen := map[string]bool{}
	for _, p := range s.Accounts() {
		for _, a := range p {
			if seen[a.Email] || seen[a.APIKey] || !apiKeyRe.MatchString(a.APIKey) || len(a.Password) < 6 {
				t.Errorf("bad or repeated account %+v", a)
			}
			seen[a.Email], seen[a.APIKey] = true, true
		}
	}
	if len(s.Accounts()) != 3 {
		t.Errorf("%d pairs, want 3", len(s.Accounts()))
	}
	d, _ := New(Options{})
	if len(d.Accounts()) != 1 {
		t.Errorf("default Pairs gave %d pairs", len(d.Accounts()))
	}
}

func TestVersions(t *testing.T) {
	h := newHarness(t, Options{})
	root := strings.TrimSuffix(h.base, "/api/v1.0")
	for _, tc := range []struct {
		prefix string
		want   int
	}{
		{"/api/v1.0", 200}, {"/api/v1", 200},
		{"/api/v1.1", 404}, {"/api/v2", 404}, {"/api/v2.0", 404}, {"/api/V1", 404},
		{"/api/v01", 404}, {"/api", 404}, {"/v1.0", 404}, {"", 404},
	} {
		if r := h.doURL("GET", root+tc.prefix+"/platforms", h.key(0, 0), nil); r.status != tc.want {
			t.Errorf("%s/platforms: %d, want %d", tc.prefix, r.status, tc.want)
		}
	}
	if r := h.doURL("GET", root+"/api/v1.0", h.key(0, 0), nil); r.status != 404 {
		t.Errorf("bare base path: %d", r.status)
	}
}

func TestAuthentication(t *testing.T) {
	h := newHarness(t, Options{Pairs: 2})
	a, b := h.account(0, 0), h.account(0, 1)
	tokA := h.session(0, 0).str("token")
	tokB := h.session(0, 1).str("token")
	if !tokenRe.MatchString(tokA) {
		t.Errorf("token %q is not 43 base64url characters", tokA)
	}
	hdr := func(kv ...string) auth {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return auth{header: m}
	}
	for _, tc := range []struct {
		name string
		a    auth
		want int
	}{
		{"none", anonymous, 401},
		{"api key", apiKey(a.APIKey), 200},
		{"api key, scheme in capitals", hdr("Authorization", "API-KEY "+a.APIKey), 200},
		{"bare key", hdr("Authorization", a.APIKey), 401},
		{"bearer", hdr("Authorization", "Bearer "+a.APIKey), 401},
		{"wrong key", apiKey("pk_" + strings.Repeat("Q", 40)), 401},
		{"key with a character changed", apiKey(a.APIKey[:len(a.APIKey)-1] + "~"), 401},
		{"empty authorization", hdr("Authorization", ""), 401},
		{"token header", tokenHeader(tokA), 200},
		{"token query", tokenQuery(tokA), 200},
		{"token in authorization", hdr("Authorization", "api-key "+tokA), 401},
		{"api key as token", tokenHeader(a.APIKey), 401},
		{"altered token", tokenHeader(tokA[:42] + flip(tokA[42])), 401},
		{"truncated token", tokenHeader(tokA[:40]), 401},
		{"empty token query", tokenQuery(""), 401},
		{"good key, bad token", auth{header: map[string]string{"Authorization": "api-key " + a.APIKey, "session-token": "nope"}}, 401},
		{"key of A, token of B", auth{header: map[string]string{"Authorization": "api-key " + a.APIKey, "session-token": tokB}}, 401},
		{"key and token of A", auth{header: map[string]string{"Authorization": "api-key " + a.APIKey, "session-token": tokA}}, 200},
		{"header and query of A", auth{header: map[string]string{"session-token": tokA}, query: "sessionToken=" + tokA}, 200},
		{"api key of B", apiKey(b.APIKey), 200},
		{"good key, undecodable token query", auth{header: map[string]string{"Authorization": "api-key " + a.APIKey}, query: "sessionToken=%zz"}, 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do("GET", "/platforms", tc.a, nil)
			if r.status != tc.want {
				t.Errorf("%d, want %d: %s", r.status, tc.want, r.raw)
			}
		})
	}
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func TestCollections(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range []struct {
		path, prop string
		min        int
	}{
		{"/platforms", "platforms", 2}, {"/currencies", "currencies", 2}, {"/plans", "plans", 2},
		{"/phonecountries", "phonecountries", 3}, {"/marketapps", "marketapps", 4}, {"/clients", "clients", 1},
	} {
		if r := h.do("GET", tc.path, anonymous, nil); r.status != 401 {
			t.Errorf("%s without credentials: %d", tc.path, r.status)
		}
		r := h.do("GET", tc.path, h.key(0, 0), nil)
		items, ok := r.get(tc.prop).([]any)
		if r.status != 200 || !ok || len(items) < tc.min {
			t.Errorf("%s: %d %s", tc.path, r.status, r.raw)
		}
		if n := r.id("total"); int(n) != len(items) {
			t.Errorf("%s: total %d for %d items", tc.path, n, len(items))
		}
	}
	if len(h.cat.platforms) != 2 || h.cat.platforms["Android"] == 0 || h.cat.platforms["iOS"] == 0 {
		t.Errorf("platforms: %v", h.cat.platforms)
	}
	for name, id := range h.cat.platforms {
		if id <= 3 {
			t.Errorf("platform %s has id %d", name, id)
		}
	}
	for _, m := range h.cat.market {
		if !hexHash.MatchString(m.hash) || m.name == "" {
			t.Errorf("market app %+v", m)
		}
	}
	if r := h.do("DELETE", "/platforms", h.key(0, 0), nil); r.status != 405 {
		t.Errorf("DELETE /platforms: %d", r.status)
	}
	for _, p := range []string{"/nothing-here", "/platforms/", "//platforms", "/clients/../platforms", "/"} {
		if r := h.do("GET", p, h.key(0, 0), nil); r.status != 404 {
			t.Errorf("GET %s: %d", p, r.status)
		}
	}
}

func TestLogin(t *testing.T) {
	h := newHarness(t, Options{Pairs: 2})
	a := h.account(0, 0)
	r := h.session(0, 0)
	for _, f := range []string{"id", "userId", "creatorUserId", "clientId"} {
		if _, isNumber := r.get(f).(json.Number); !isNumber || r.id(f) <= 1<<53 {
			t.Errorf("%s = %v, want a large JSON number", f, r.get(f))
		}
	}
	if !dateRe.MatchString(r.str("created")) {
		t.Errorf("created %q", r.str("created"))
	}
	if r.id("userId") != r.id("creatorUserId") {
		t.Errorf("creatorUserId %d, userId %d", r.id("creatorUserId"), r.id("userId"))
	}
	other := h.clientID(1, 0)
	for _, tc := range []struct {
		name string
		body any
		want int
		code string
	}{
		{"right", map[string]any{"email": a.Email, "password": a.Password}, 200, ""},
		{"email in capitals", map[string]any{"email": strings.ToUpper(a.Email), "password": a.Password}, 200, ""},
		{"wrong password", map[string]any{"email": a.Email, "password": a.Password + "x"}, 401, ""},
		{"password in capitals", map[string]any{"email": a.Email, "password": strings.ToUpper(a.Password)}, 401, ""},
		{"unknown email", map[string]any{"email": "nobody.at.all@heronsgate.test", "password": a.Password}, 401, ""},
		{"password of another account", map[string]any{"email": a.Email, "password": h.account(0, 1).Password}, 401, ""},
		{"no password", map[string]any{"email": a.Email}, 400, "password:InvalidPassword"},
		{"no email", map[string]any{"password": a.Password}, 400, "email:InvalidEmail"},
		{"numbers", map[string]any{"email": 5, "password": 6}, 400, "email:InvalidEmail"},
		{"unknown field", map[string]any{"email": a.Email, "password": a.Password, "remember": true}, 400, "remember:UnknownField"},
		{"array", []any{a.Email, a.Password}, 400, ":InvalidBody"},
		{"own client", map[string]any{"email": a.Email, "password": a.Password, "clientId": h.clientID(0, 0)}, 200, ""},
		{"client of another", map[string]any{"email": a.Email, "password": a.Password, "clientId": other}, 403, ""},
		{"missing client", map[string]any{"email": a.Email, "password": a.Password, "clientId": 9007199254740995}, 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do("POST", "/sessions", anonymous, tc.body)
			if r.status != tc.want || tc.code != "" && !r.hasCode(tc.code) {
				t.Errorf("%d %s, want %d %s", r.status, r.raw, tc.want, tc.code)
			}
		})
	}
}

func TestUserReadAndPermissions(t *testing.T) {
	h := newHarness(t, Options{Pairs: 2})
	me, other := h.userID(0, 0), h.userID(0, 1)
	r := h.do("GET", "/users/"+itoa(me), h.key(0, 0), nil)
	if r.status != 200 || r.id("id") != me {
		t.Fatalf("GET own user: %d %s", r.status, r.raw)
	}
	for _, f := range []string{"created", "passwordLastChanged"} {
		if !dateRe.MatchString(r.str(f)) {
			t.Errorf("%s = %q", f, r.str(f))
		}
	}
	if !strings.Contains(r.str("phoneCountry.name"), "("+r.str("phoneCountry.dialCode")+")") || !strings.HasPrefix(r.str("phoneCountry.dialCode"), "+") {
		t.Errorf("phone country %s", r.str("phoneCountry"))
	}
	if strings.Contains(strings.ToLower(string(r.raw)), "password\"") {
		t.Errorf("the password is returned: %s", r.raw)
	}
	body := h.userBody(0, 0)
	for _, tc := range []struct {
		name, method, path string
		a                  auth
		want               int
	}{
		{"get other", "GET", "/users/" + itoa(other), h.key(0, 0), 403},
		{"put other", "PUT", "/users/" + itoa(other), h.key(0, 0), 403},
		{"get missing", "GET", "/users/9007199254740997", h.key(0, 0), 404},
		{"put missing", "PUT", "/users/9007199254740997", h.key(0, 0), 404},
		{"put missing, anonymous", "PUT", "/users/9007199254740997", anonymous, 401},
		{"put own, anonymous", "PUT", "/users/" + itoa(me), anonymous, 401},
		{"letters", "GET", "/users/abc", h.key(0, 0), 404},
		{"negative", "GET", "/users/-5", h.key(0, 0), 404},
		{"overflow", "GET", "/users/99999999999999999999999", h.key(0, 0), 404},
		{"fraction", "GET", "/users/" + itoa(me) + ".0", h.key(0, 0), 404},
		{"letters, anonymous", "GET", "/users/abc", anonymous, 401},
		{"delete", "DELETE", "/users/" + itoa(me), h.key(0, 0), 405},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := h.do(tc.method, tc.path, tc.a, body); r.status != tc.want {
				t.Errorf("%d, want %d: %s", r.status, tc.want, r.raw)
			}
		})
	}
}

func TestPutUserValidation(t *testing.T) {
	h := newHarness(t, Options{Pairs: 2})
	me := itoa(h.userID(0, 0))
	base := h.userBody(0, 0)
	long := strings.Repeat("ž", 256)
	for _, tc := range []struct {
		name string
		body any
		want int
		code string // "fieldName:error" expected among the errors
	}{
		{"unchanged", base, 200, ""},
		{"new names", with(base, "firstName", "Perpetua", "lastName", "Ó Súilleabháin"), 200, ""},
		{"255 characters", with(base, "firstName", strings.Repeat("ž", 255)), 200, ""},
		{"256 characters", with(base, "firstName", long), 400, "firstName:InvalidFirstName"},
		{"no first name", with(base, "firstName", drop), 400, "firstName:InvalidFirstName"},
		{"empty first name", with(base, "firstName", ""), 400, "firstName:InvalidFirstName"},
		{"blank first name", with(base, "firstName", "   "), 400, "firstName:InvalidFirstName"},
		{"null first name", with(base, "firstName", nil), 400, "firstName:InvalidFirstName"},
		{"numeric first name", with(base, "firstName", 7), 400, "firstName:InvalidFirstName"},
		{"no last name", with(base, "lastName", drop), 400, "lastName:InvalidLastName"},
		{"long last name", with(base, "lastName", long), 400, "lastName:InvalidLastName"},
		{"bad email", with(base, "email", "not-an-email"), 400, "email:InvalidEmail"},
		{"email without domain dot", with(base, "email", "someone@localhost"), 400, "email:InvalidEmail"},
		{"email with display name", with(base, "email", "Ann <ann@heronsgate.test>"), 400, "email:InvalidEmail"},
		{"no email", with(base, "email", drop), 400, "email:InvalidEmail"},
		{"email too long", with(base, "email", strings.Repeat("a", 250)+"@x.test"), 400, "email:InvalidEmail"},
		{"email of another user", with(base, "email", h.account(0, 1).Email), 400, "email:InvalidEmail"},
		{"email of another user in capitals", with(base, "email", strings.ToUpper(h.account(0, 1).Email)), 400, "email:InvalidEmail"},
		{"own email in capitals", with(base, "email", strings.ToUpper(h.account(0, 0).Email)), 200, ""},
		{"password of 5", with(base, "password", "abcde"), 400, "password:InvalidPassword"},
		{"password of 3 two-byte characters", with(base, "password", "ééé"), 400, "password:InvalidPassword"},
		{"empty password", with(base, "password", ""), 400, "password:InvalidPassword"},
		{"numeric password", with(base, "password", 123456), 400, "password:InvalidPassword"},
		{"password of 6", with(base, "password", "abcdef"), 200, ""},
		{"password of 6 two-byte characters", with(base, "password", "éééééé"), 200, ""},
		{"no password field", with(base, "password", drop), 200, ""},
		{"subscribe not boolean", with(base, "subscribeBlog", "yes"), 400, "subscribeBlog:InvalidSubscribeBlog"},
		{"subscribe missing", with(base, "subscribeHowto", drop), 400, "subscribeHowto:InvalidSubscribeHowto"},
		{"timezone", with(base, "timezone", "America/Argentina/Buenos_Aires"), 200, ""},
		{"bad timezone", with(base, "timezone", "somewhere"), 400, "timezone:InvalidTimezone"},
		{"no timezone", with(base, "timezone", drop), 400, "timezone:InvalidTimezone"},
		{"phone country", with(base, "phoneCountry", map[string]any{"id": h.cat.phones[2]}), 200, ""},
		{"flat phone country", with(base, "phoneCountryId", h.cat.phones[3]), 200, ""},
		{"unknown phone country", with(base, "phoneCountry", map[string]any{"id": 9007199254740999}), 400, "phoneCountry.id:InvalidPhoneCountryId"},
		{"unknown flat phone country", with(base, "phoneCountryId", 9007199254740999), 400, "phoneCountryId:InvalidPhoneCountryId"},
		{"phone country as string", with(base, "phoneCountry", map[string]any{"id": "44"}), 400, "phoneCountry.id:InvalidPhoneCountryId"},
		{"phone country null", with(base, "phoneCountry", nil), 400, "phoneCountry:InvalidPhoneCountryId"},
		{"phone countries disagree", with(base, "phoneCountry", map[string]any{"id": h.cat.phones[2]}, "phoneCountryId", h.cat.phones[3]), 400, "phoneCountryId:InvalidPhoneCountryId"},
		{"phone number", with(base, "phoneNumber", "+44 117 496 0123"), 200, ""},
		{"empty phone number", with(base, "phoneNumber", ""), 400, "phoneNumber:InvalidPhoneNumber"},
		{"null phone number", with(base, "phoneNumber", nil), 400, "phoneNumber:InvalidPhoneNumber"},
		{"phone number without digits", with(base, "phoneNumber", "call me"), 400, "phoneNumber:InvalidPhoneNumber"},
		{"phone extension", with(base, "phoneExtension", "4412"), 200, ""},
		{"null phone extension", with(base, "phoneExtension", nil), 200, ""},
		{"letters in phone extension", with(base, "phoneExtension", "ext. 12"), 400, "phoneExtension:InvalidPhoneExtension"},
		{"numeric phone extension", with(base, "phoneExtension", 12), 400, "phoneExtension:InvalidPhoneExtension"},
		{"unknown field", with(base, "nickname", "Otti"), 400, "nickname:UnknownField"},
		{"client not an object", with(base, "client", "yes"), 400, "client:InvalidClient"},
		{"client without name", with(base, "client", with(h.clientBody(), "name", drop)), 400, "client.name:InvalidName"},
		{"client with bad terms", with(base, "client", with(h.clientBody(), "terms", "yes")), 400, "client.terms:InvalidTerms"},
		{"client with unknown currency", with(base, "client", with(h.clientBody(), "currency.id", 9007199254740999)), 404, ""},
		{"body is an array", []any{base}, 400, ":InvalidBody"},
		{"body is a string", "hello", 400, ":InvalidBody"},
		{"body is null", raw("null"), 400, ":InvalidBody"},
		{"malformed", raw(`{"email": `), 400, ":MalformedBody"},
		{"trailing data", raw(`{} {}`), 400, ":MalformedBody"},
		{"empty body", raw(""), 400, ":MalformedBody"},
		{"duplicate key", raw(`{"firstName":"a","firstName":"b"}`), 400, "firstName:DuplicateField"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := h.state(0, 0)
			r := h.do("PUT", "/users/"+me, h.key(0, 0), tc.body)
			if r.status != tc.want || tc.code != "" && !r.hasCode(tc.code) {
				t.Fatalf("%d %s, want %d %s", r.status, r.raw, tc.want, tc.code)
			}
			if r.status == 400 {
				for _, e := range r.v.([]any) {
					if _, ok := get(e, "message").(string); !ok {
						t.Errorf("error without message: %v", e)
					}
				}
			}
			if r.status >= 400 {
				if after := h.state(0, 0); after != before {
					t.Errorf("a refused request changed the state")
				}
				return
			}
			// Undo, so that every case starts from the seeded user.
			if u := h.do("PUT", "/users/"+me, h.key(0, 0), with(base, "password", h.account(0, 0).Password)); u.status != 200 {
				t.Fatalf("undo: %d %s", u.status, u.raw)
			}
		})
	}
}

func TestPutUserSemantics(t *testing.T) {
	h := newHarness(t, Options{Pairs: 2})
	a := h.account(0, 0)
	me := h.userID(0, 0)
	base := h.userBody(0, 0)
	before := h.do("GET", "/users/"+itoa(me), h.key(0, 0), nil)

	// A null password keeps the password and its date.
	r := h.do("PUT", "/users/"+itoa(me), h.key(0, 0), with(base, "firstName", "Clementine", "subscribeBlog", true))
	if r.status != 200 || r.id("id") != me || r.str("firstName") != "Clementine" || r.get("subscribeBlog") != true {
		t.Fatalf("PUT: %d %s", r.status, r.raw)
	}
	if r.str("passwordLastChanged") != before.str("passwordLastChanged") || r.str("created") != before.str("created") {
		t.Errorf("dates moved: %s then %s", before.raw, r.raw)
	}
	if r.str("phoneCountry") != before.str("phoneCountry") || r.str("phoneNumber") != before.str("phoneNumber") || r.str("phoneExtension") != before.str("phoneExtension") {
		t.Errorf("phone fields not kept: %s", r.raw)
	}
	if g := h.do("GET", "/users/"+itoa(me), h.key(0, 0), nil); string(g.raw) != string(r.raw) {
		t.Errorf("stored user differs from the answer:\n%s\n%s", g.raw, r.raw)
	}
	h.login(a.Email, a.Password)
	if h.login(a.Email, a.Password).status != 200 {
		t.Errorf("the null password changed the password")
	}

	// A new password replaces the old one and moves its date.
	time.Sleep(2 * time.Millisecond)
	r = h.do("PUT", "/users/"+itoa(me), h.key(0, 0), with(base, "password", "fresh-Saffron-42"))
	if r.status != 200 || r.str("passwordLastChanged") == before.str("passwordLastChanged") {
		t.Errorf("password change: %d %s", r.status, r.raw)
	}
	if h.login(a.Email, a.Password).status != 401 || h.login(a.Email, "fresh-Saffron-42").status != 200 {
		t.Errorf("the old password still works, or the new one does not")
	}

	// The representation itself, edited, can be sent back.
	round := h.do("GET", "/users/"+itoa(me), h.key(0, 0), nil).v.(map[string]any)
	round["lastName"], round["password"] = "Roundtrip", nil
	if r := h.do("PUT", "/users/"+itoa(me), h.key(0, 0), round); r.status != 200 || r.str("lastName") != "Roundtrip" {
		t.Errorf("PUT of the edited representation: %d %s", r.status, r.raw)
	}

	// A new email is the login from now on; the old one is free again.
	r = h.do("PUT", "/users/"+itoa(me), h.key(0, 0), with(base, "email", "clementine.new@marrowlane.test"))
	if r.status != 200 || r.str("email") != "clementine.new@marrowlane.test" {
		t.Fatalf("email change: %d %s", r.status, r.raw)
	}
	if h.login("clementine.new@marrowlane.test", "fresh-Saffron-42").status != 200 || h.login(a.Email, "fresh-Saffron-42").status != 401 {
		t.Errorf("login does not follow the email change")
	}
	other := h.userBody(0, 1)
	if r := h.do("PUT", "/users/"+itoa(h.userID(0, 1)), h.key(0, 1), with(other, "email", a.Email)); r.status != 200 {
		t.Errorf("taking a released email: %d %s", r.status, r.raw)
	}

	// Sessions stay valid across the changes.
	tok := h.login("clementine.new@marrowlane.test", "fresh-Saffron-42").str("token")
	r = h.do("PUT", "/users/"+itoa(me)+"?x=1", tokenQuery(tok), with(base, "email", "clementine.new@marrowlane.test", "phoneExtension", nil))
	if r.status != 200 || r.get("phoneExtension") != nil {
		t.Errorf("PUT with a query token: %d %s", r.status, r.raw)
	}
}

func TestPutUserCreatesClient(t *testing.T) {
	h := newHarness(t, Options{})
	me := itoa(h.userID(0, 0))
	base := h.userBody(0, 0)
	app := with(h.appByName("iOS"), "name", "Pinecone Atlas")
	r := h.do("PUT", "/users/"+me, h.key(0, 0), with(base, "client", with(h.clientBody(), "app", app)))
	if r.status != 200 || r.str("email") != base["email"] {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	clients := h.do("GET", "/clients", h.key(0, 0), nil)
	if len(clients.get("clients").([]any)) != 2 || clients.str("clients.1.name") != "Wrenfield Mobile Ltd" {
		t.Fatalf("clients: %s", clients.raw)
	}
	apps := h.do("GET", "/clients/"+clients.str("clients.1.id")+"/apps", h.key(0, 0), nil)
	if apps.str("apps.0.name") != "Pinecone Atlas" || apps.str("apps.0.platform.name") != "iOS" {
		t.Errorf("apps: %s", apps.raw)
	}
	// The new client's app refers to an unknown plan: nothing is created,
	// not the client, nor the user's changes.
	before := h.state(0, 0)
	bad := with(base, "firstName", "Changed", "client", with(h.clientBody(), "app", with(app, "nextplan", map[string]any{"id": 9007199254740999})))
	if r := h.do("PUT", "/users/"+me, h.key(0, 0), bad); r.status != 404 {
		t.Errorf("unknown plan: %d %s", r.status, r.raw)
	}
	if h.state(0, 0) != before {
		t.Errorf("a refused PUT /users changed the state")
	}
}

func TestSignUp(t *testing.T) {
	h := newHarness(t, Options{})
	body := map[string]any{
		"email": "rosalind.featherstonhaugh@brackenfold.test", "password": "Larkspur-11",
		"firstName": "Rosalind", "lastName": "Featherstonhaugh",
		"phoneCountry": map[string]any{"id": h.cat.phones[1]}, "phoneNumber": "555 0142",
	}
	for _, tc := range []struct {
		name string
		body any
		want int
		code string
	}{
		{"no password", with(body, "password", drop), 400, "password:InvalidPassword"},
		{"short password", with(body, "password", "abc"), 400, "password:InvalidPassword"},
		{"taken email", with(body, "email", h.account(0, 0).Email), 400, "email:InvalidEmail"},
		{"no phone", with(body, "phoneNumber", drop), 400, "phoneNumber:InvalidPhoneNumber"},
		{"no phone country", with(body, "phoneCountry", drop), 400, "phoneCountry:InvalidPhoneCountryId"},
		{"client with unknown currency", with(body, "client", with(h.clientBody(), "currency.id", 9007199254740999)), 404, ""},
	} {
		if r := h.do("POST", "/users", anonymous, tc.body); r.status != tc.want || tc.code != "" && !r.hasCode(tc.code) {
			t.Errorf("%s: %d %s", tc.name, r.status, r.raw)
		}
	}
	if r := h.login("rosalind.featherstonhaugh@brackenfold.test", "Larkspur-11"); r.status != 401 {
		t.Fatalf("a refused sign-up created the user")
	}

	withClient := with(body, "client", with(h.clientBody(), "app", map[string]any{"marketapp": map[string]any{"hash": h.cat.market[0].hash}}))
	r := h.do("POST", "/users", anonymous, withClient)
	if r.status != 200 || r.id("id") <= 1<<53 || r.str("timezone") == "" || r.get("subscribeBlog") != false {
		t.Fatalf("sign-up: %d %s", r.status, r.raw)
	}
	s := h.login("rosalind.featherstonhaugh@brackenfold.test", "Larkspur-11")
	if s.status != 200 || s.id("userId") != r.id("id") || s.id("clientId") == 0 {
		t.Fatalf("login after sign-up: %d %s", s.status, s.raw)
	}
	apps := h.do("GET", "/clients/"+s.str("clientId")+"/apps", tokenHeader(s.str("token")), nil)
	if apps.str("apps.0.marketapp.hash") != h.cat.market[0].hash {
		t.Errorf("apps of the new client: %s", apps.raw)
	}

	// A user of no client logs in with a null clientId and cannot create apps.
	lone := with(body, "email", "lone.wolf@heronsgate.test")
	if r := h.do("POST", "/users", anonymous, lone); r.status != 200 {
		t.Fatalf("sign-up without client: %d %s", r.status, r.raw)
	}
	s = h.login("lone.wolf@heronsgate.test", "Larkspur-11")
	if s.status != 200 || s.get("clientId") != nil {
		t.Errorf("session of a user without client: %s", s.raw)
	}
	if r := h.do("POST", "/apps", tokenHeader(s.str("token")), h.appByName("Android")); r.status != 403 {
		t.Errorf("app without client: %d %s", r.status, r.raw)
	}
}

func TestClients(t *testing.T) {
	h := newHarness(t, Options{Pairs: 2})
	base := h.clientBody()
	long := strings.Repeat("ø", 256)
	for _, tc := range []struct {
		name string
		body any
		want int
		code string
	}{
		{"valid", base, 200, ""},
		{"with optional fields", with(base, "addressLine2", "Floor 3", "vat", "GB123456789"), 200, ""},
		{"null optional fields", with(base, "addressLine2", nil, "vat", nil), 200, ""},
		{"255 characters", with(base, "name", strings.Repeat("ø", 255), "vat", strings.Repeat("9", 255)), 200, ""},
		{"currency with code", with(base, "currency.code", "GBP"), 200, ""},
		{"no name", with(base, "name", drop), 400, "name:InvalidName"},
		{"empty name", with(base, "name", ""), 400, "name:InvalidName"},
		{"null name", with(base, "name", nil), 400, "name:InvalidName"},
		{"numeric name", with(base, "name", 12), 400, "name:InvalidName"},
		{"long name", with(base, "name", long), 400, "name:InvalidName"},
		{"long address line 2", with(base, "addressLine2", long), 400, "addressLine2:InvalidAddressLine2"},
		{"long vat", with(base, "vat", long), 400, "vat:InvalidVat"},
		{"no address", with(base, "addressLine1", drop), 400, "addressLine1:InvalidAddressLine1"},
		{"no city", with(base, "addressCity", drop), 400, "addressCity:InvalidAddressCity"},
		{"no postcode", with(base, "addressPostcode", ""), 400, "addressPostcode:InvalidAddressPostcode"},
		{"no country", with(base, "addressCountry", drop), 400, "addressCountry:InvalidAddressCountry"},
		{"no currency", with(base, "currency", drop), 400, "currency:InvalidCurrency"},
		{"currency not an object", with(base, "currency", 5), 400, "currency:InvalidCurrency"},
		{"currency without id", with(base, "currency", map[string]any{}), 400, "currency.id:InvalidCurrencyId"},
		{"currency id string", with(base, "currency.id", "5"), 400, "currency.id:InvalidCurrencyId"},
		{"currency id fraction", with(base, "currency.id", 1.5), 400, "currency.id:InvalidCurrencyId"},
		{"unknown currency", with(base, "currency.id", 9007199254740999), 404, ""},
		{"no terms", with(base, "terms", drop), 400, "terms:InvalidTerms"},
		{"terms in lower case", with(base, "terms", "i agree"), 400, "terms:InvalidTerms"},
		{"terms with a full stop", with(base, "terms", "I agree."), 400, "terms:InvalidTerms"},
		{"terms true", with(base, "terms", true), 400, "terms:InvalidTerms"},
		{"two errors", with(base, "name", drop, "terms", drop), 400, "terms:InvalidTerms"},
		{"unknown field", with(base, "website", "x"), 400, "website:UnknownField"},
		{"with app by hash", with(base, "app", map[string]any{"marketapp": map[string]any{"hash": h.cat.market[1].hash}}), 200, ""},
		{"with app by name", with(base, "app", h.appByName("Android")), 200, ""},
		{"with app without name", with(base, "app", map[string]any{"platform": map[string]any{"id": h.cat.platforms["iOS"]}}), 400, "app.name:InvalidName"},
		{"with app with bad hash", with(base, "app", map[string]any{"marketapp": map[string]any{"hash": "xyz"}}), 400, "app.marketapp.hash:InvalidMarketappHash"},
		{"with app with unknown plan", with(base, "app", with(h.appByName("iOS"), "nextplan.id", 9007199254740999)), 404, ""},
		{"with app with unknown hash", with(base, "app", map[string]any{"marketapp": map[string]any{"hash": strings.Repeat("ab", 20)}}), 404, ""},
		{"app not an object", with(base, "app", []any{}), 400, "app:InvalidApp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := h.postChecked(t, "/clients", tc.body, tc.want, tc.code)
			if !ok {
				return
			}
			if r.id("id") <= 1<<53 || !dateRe.MatchString(r.str("createdDate")) || r.str("currency.code") != "GBP" {
				t.Errorf("client: %s", r.raw)
			}
			if g := h.do("GET", "/clients/"+r.str("id"), h.key(0, 0), nil); string(g.raw) != string(r.raw) {
				t.Errorf("stored client differs:\n%s\n%s", g.raw, r.raw)
			}
		})
	}
	if r := h.do("POST", "/clients", anonymous, base); r.status != 401 {
		t.Errorf("anonymous POST /clients: %d", r.status)
	}
}

func TestPutClient(t *testing.T) {
	h := newHarness(t, Options{Pairs: 2})
	mine, theirs := itoa(h.clientID(0, 0)), itoa(h.clientID(0, 1))
	base := with(h.clientBody(), "currency.id", h.cat.currencies["JPY"])
	for _, tc := range []struct {
		name, path string
		a          auth
		body       any
		want       int
		code       string
	}{
		{"other's client", theirs, h.key(0, 0), base, 403, ""},
		{"other's client, bad body", theirs, h.key(0, 0), raw("{"), 403, ""},
		{"missing client", "9007199254740997", h.key(0, 0), base, 404, ""},
		{"missing client, anonymous", "9007199254740997", anonymous, base, 401, ""},
		{"letters", "abc", h.key(0, 0), base, 404, ""},
		{"anonymous", mine, anonymous, base, 401, ""},
		{"with app", mine, h.key(0, 0), with(base, "app", h.appByName("iOS")), 400, "app:AppNotAllowed"},
		{"with null app", mine, h.key(0, 0), with(base, "app", nil), 400, "app:AppNotAllowed"},
		{"no name", mine, h.key(0, 0), with(base, "name", drop), 400, "name:InvalidName"},
		{"bad terms", mine, h.key(0, 0), with(base, "terms", "no"), 400, "terms:InvalidTerms"},
		{"unknown currency", mine, h.key(0, 0), with(base, "currency.id", 9007199254740999), 404, ""},
		{"without terms", mine, h.key(0, 0), with(base, "terms", drop), 200, ""},
		{"valid", mine, h.key(0, 0), base, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, beforeOther := h.state(0, 0), h.state(0, 1)
			r := h.do("PUT", "/clients/"+tc.path, tc.a, tc.body)
			if r.status != tc.want || tc.code != "" && !r.hasCode(tc.code) {
				t.Fatalf("%d %s, want %d %s", r.status, r.raw, tc.want, tc.code)
			}
			if r.status != 200 {
				if h.state(0, 0) != before || h.state(0, 1) != beforeOther {
					t.Errorf("a refused PUT /clients changed the state")
				}
				return
			}
			if r.str("id") != mine || r.str("currency.code") != "JPY" || r.str("name") != "Wrenfield Mobile Ltd" || r.get("vat") != nil {
				t.Errorf("PUT answered %s", r.raw)
			}
			if g := h.do("GET", "/clients/"+mine, h.key(0, 0), nil); string(g.raw) != string(r.raw) {
				t.Errorf("stored client differs:\n%s\n%s", g.raw, r.raw)
			}
		})
	}
	if r := h.do("GET", "/clients/"+theirs, h.key(0, 0), nil); r.status != 403 {
		t.Errorf("GET other's client: %d", r.status)
	}
}

func TestApps(t *testing.T) {
	h := newHarness(t, Options{})
	android, ios := h.marketOn("Android"), h.marketOn("iOS")
	plans := h.cat.plans
	for _, tc := range []struct {
		name                        string
		body                        any
		want                        int
		code                        string
		appName, platform, planFlag string
		needBilling                 bool
	}{
		{"by hash", map[string]any{"marketapp": map[string]any{"hash": android.hash}}, 200, "", android.name, "Android", "isLite", false},
		{"by upper-case hash", map[string]any{"marketapp": map[string]any{"hash": strings.ToUpper(ios.hash)}}, 200, "", ios.name, "iOS", "isLite", false},
		{"hash wins over name and platform", map[string]any{"marketapp": map[string]any{"hash": android.hash}, "name": "Other", "platform": map[string]any{"id": h.cat.platforms["iOS"]}}, 200, "", android.name, "Android", "isLite", false},
		{"hash with null name", map[string]any{"marketapp": map[string]any{"hash": ios.hash}, "name": nil, "platform": map[string]any{"id": nil}}, 200, "", ios.name, "iOS", "isLite", false},
		{"pro plan", map[string]any{"marketapp": map[string]any{"hash": ios.hash}, "nextplan": map[string]any{"id": plans["pro"]}}, 200, "", ios.name, "iOS", "isPro", true},
		{"dynamic plan", with(h.appByName("Android"), "nextplan.id", plans["dynamic"]), 200, "", "Heliotrope Clock", "Android", "isDynamic", true},
		{"by name", h.appByName("iOS"), 200, "", "Heliotrope Clock", "iOS", "isLite", false},
		{"by name with null hash", with(h.appByName("iOS"), "marketapp.hash", nil), 200, "", "Heliotrope Clock", "iOS", "isLite", false},
		{"nothing", map[string]any{}, 400, "name:InvalidName", "", "", "", false},
		{"null name, no hash", map[string]any{"name": nil, "platform": map[string]any{"id": h.cat.platforms["iOS"]}}, 400, "name:InvalidName", "", "", "", false},
		{"empty name, no hash", with(h.appByName("iOS"), "name", ""), 400, "name:InvalidName", "", "", "", false},
		{"long name", with(h.appByName("iOS"), "name", strings.Repeat("n", 256)), 400, "name:InvalidName", "", "", "", false},
		{"numeric name", with(h.appByName("iOS"), "name", 4), 400, "name:InvalidName", "", "", "", false},
		{"name without platform", map[string]any{"name": "Heliotrope Clock"}, 400, "platform.id:InvalidPlatformId", "", "", "", false},
		{"unknown platform", with(h.appByName("iOS"), "platform.id", 9007199254740999), 404, "", "", "", "", false},
		{"platform id string", with(h.appByName("iOS"), "platform.id", "iOS"), 400, "platform.id:InvalidPlatformId", "", "", "", false},
		{"39 characters", map[string]any{"marketapp": map[string]any{"hash": android.hash[:39]}}, 400, "marketapp.hash:InvalidMarketappHash", "", "", "", false},
		{"41 characters", map[string]any{"marketapp": map[string]any{"hash": android.hash + "0"}}, 400, "marketapp.hash:InvalidMarketappHash", "", "", "", false},
		{"not hexadecimal", map[string]any{"marketapp": map[string]any{"hash": strings.Repeat("g", 40)}}, 400, "marketapp.hash:InvalidMarketappHash", "", "", "", false},
		{"numeric hash", map[string]any{"marketapp": map[string]any{"hash": 12}}, 400, "marketapp.hash:InvalidMarketappHash", "", "", "", false},
		{"marketapp not an object", map[string]any{"marketapp": "x"}, 400, "marketapp:InvalidMarketapp", "", "", "", false},
		{"unknown hash", map[string]any{"marketapp": map[string]any{"hash": strings.Repeat("0f", 20)}}, 404, "", "", "", "", false},
		{"unknown plan", map[string]any{"marketapp": map[string]any{"hash": android.hash}, "nextplan": map[string]any{"id": 9007199254740999}}, 404, "", "", "", "", false},
		{"plan id object", map[string]any{"marketapp": map[string]any{"hash": android.hash}, "nextplan": map[string]any{"id": map[string]any{}}}, 400, "nextplan.id:InvalidNextplanId", "", "", "", false},
		{"unknown field", map[string]any{"marketapp": map[string]any{"hash": android.hash, "url": "x"}}, 400, "marketapp.url:UnknownField", "", "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := h.postChecked(t, "/apps", tc.body, tc.want, tc.code)
			if !ok {
				return
			}
			if r.str("name") != tc.appName || r.str("platform.name") != tc.platform || r.get("plan."+tc.planFlag) != true || r.get("plan.needBilling") != tc.needBilling {
				t.Errorf("app: %s", r.raw)
			}
			if !writeKeyRe.MatchString(r.str("writeKey")) || !dateRe.MatchString(r.str("created")) || !hexHash.MatchString(r.str("marketapp.hash")) || r.id("id") <= 1<<53 {
				t.Errorf("app fields: %s", r.raw)
			}
			apps := h.do("GET", "/clients/"+itoa(h.clientID(0, 0))+"/apps", h.key(0, 0), nil).get("apps").([]any)
			stored, _ := json.Marshal(apps[len(apps)-1])
			answered, _ := json.Marshal(r.v)
			if string(stored) != string(answered) {
				t.Errorf("stored app differs:\n%s\n%s", stored, answered)
			}
		})
	}
	if r := h.do("POST", "/apps", anonymous, h.appByName("iOS")); r.status != 401 {
		t.Errorf("anonymous POST /apps: %d", r.status)
	}
	// Two apps of one marketplace app are allowed, and a name-and-platform
	// app reuses the marketplace app created for it the first time.
	first := h.do("POST", "/apps", h.key(0, 0), with(h.appByName("iOS"), "name", "Sundial Forge"))
	second := h.do("POST", "/apps", h.key(0, 0), with(h.appByName("iOS"), "name", "sundial forge"))
	if first.status != 200 || second.status != 200 || first.str("marketapp.hash") != second.str("marketapp.hash") || first.str("id") == second.str("id") {
		t.Errorf("repeat apps: %s %s", first.raw, second.raw)
	}
	byHash := h.do("POST", "/apps", h.key(0, 0), map[string]any{"marketapp": map[string]any{"hash": first.str("marketapp.hash")}})
	if byHash.status != 200 || byHash.str("name") != "Sundial Forge" || byHash.str("platform.name") != "iOS" {
		t.Errorf("app by the new hash: %s", byHash.raw)
	}
}

// TestAppsFollowSessionClient: an app is created for the session's client.
func TestAppsFollowSessionClient(t *testing.T) {
	h := newHarness(t, Options{})
	a := h.account(0, 0)
	second := h.do("POST", "/clients", h.key(0, 0), h.clientBody())
	s := h.do("POST", "/sessions", anonymous, map[string]any{"email": a.Email, "password": a.Password, "clientId": second.id("id")})
	if s.status != 200 || s.id("clientId") != second.id("id") {
		t.Fatalf("session for the second client: %s", s.raw)
	}
	if r := h.do("POST", "/apps", tokenHeader(s.str("token")), h.appByName("Android")); r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	apps := h.do("GET", "/clients/"+second.str("id")+"/apps", h.key(0, 0), nil)
	if len(apps.get("apps").([]any)) != 1 {
		t.Errorf("apps of the second client: %s", apps.raw)
	}
}

func TestLimitsBeforeAuthentication(t *testing.T) {
	h := newHarness(t, Options{})
	me := itoa(h.userID(0, 0))
	huge := raw(`{"firstName":"` + strings.Repeat("x", 64<<10) + `"}`)
	deep := raw(strings.Repeat("[", 21) + strings.Repeat("]", 21))
	deepInObject := raw(`{"client":` + strings.Repeat(`{"a":`, 20) + `1` + strings.Repeat("}", 21))
	atDepth := raw(`{"x":` + strings.Repeat("[", 19) + strings.Repeat("]", 19) + `}`)
	bracketsInString := raw(`{"firstName":"` + strings.Repeat("[", 50) + `"}`)
	for _, tc := range []struct {
		name, method, path string
		a                  auth
		body               any
		want               int
	}{
		{"huge, anonymous", "PUT", "/users/" + me, anonymous, huge, 413},
		{"huge, authenticated", "PUT", "/users/" + me, h.key(0, 0), huge, 413},
		{"huge, login", "POST", "/sessions", anonymous, huge, 413},
		{"huge on a GET", "GET", "/platforms", anonymous, huge, 413},
		{"deep, anonymous", "POST", "/clients", anonymous, deep, 400},
		{"deep object, anonymous", "PUT", "/users/" + me, anonymous, deepInObject, 400},
		{"20 levels, anonymous", "POST", "/apps", anonymous, atDepth, 401},
		{"20 levels", "POST", "/apps", h.key(0, 0), atDepth, 400},
		{"brackets in a string, anonymous", "POST", "/apps", anonymous, bracketsInString, 401},
		{"malformed, anonymous", "POST", "/apps", anonymous, raw("{{{"), 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do(tc.method, tc.path, tc.a, tc.body)
			if r.status != tc.want {
				t.Errorf("%d, want %d: %.200s", r.status, tc.want, r.raw)
			}
		})
	}
	limit := raw(`{"x":"` + strings.Repeat("y", 64<<10-8) + `"}`)
	if len(limit) != 64<<10 {
		t.Fatalf("limit body has %d bytes", len(limit))
	}
	if r := h.do("POST", "/apps", h.key(0, 0), limit); r.status != 400 || !r.hasCode("x:UnknownField") {
		t.Errorf("a body of exactly 64 KiB: %d %.200s", r.status, r.raw)
	}
}

func TestIDsAreExactAndLarge(t *testing.T) {
	h := newHarness(t, Options{Pairs: 3})
	seen := map[int64]bool{}
	for p := range 3 {
		for i := range 2 {
			s := h.session(p, i)
			for _, f := range []string{"id", "userId", "clientId"} {
				id := s.id(f)
				if id <= 1<<53 || id%2 == 0 || seen[id] && f == "id" {
					t.Errorf("%s %d", f, id)
				}
				seen[id] = true
			}
			u := h.do("GET", "/users/"+s.str("userId"), tokenHeader(s.str("token")), nil)
			if u.str("id") != s.str("userId") {
				t.Errorf("user id %s, session userId %s", u.str("id"), s.str("userId"))
			}
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	h := newHarness(t, Options{Pairs: 4})
	var wg sync.WaitGroup
	errs := make(chan string, 400)
	for p := range 4 {
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a := h.account(p, i)
				for n := range 10 {
					if r := h.login(a.Email, a.Password); r.status != 200 {
						errs <- fmt.Sprintf("login %d", r.status)
					}
					if r := h.do("POST", "/apps", apiKey(a.APIKey), with(h.appByName("Android"), "name", fmt.Sprintf("Burrow %d-%d-%d", p, i, n))); r.status != 200 {
						errs <- fmt.Sprintf("app %d %s", r.status, r.raw)
					}
					if r := h.do("GET", "/platforms", apiKey(a.APIKey), nil); r.status != 200 {
						errs <- fmt.Sprintf("platforms %d", r.status)
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// Two servers share nothing.
	other := newHarness(t, Options{})
	if r := other.do("GET", "/platforms", h.key(0, 0), nil); r.status != 401 {
		t.Errorf("a key of one server opens another: %d", r.status)
	}
}
