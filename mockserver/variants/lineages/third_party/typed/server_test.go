package typed

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func TestNewOptions(t *testing.T) {
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Error("unknown fault accepted")
	}
	if _, err := New(Options{Pairs: 501}); err == nil {
		t.Error("Pairs 501 accepted")
	}
	if _, err := New(Options{Pairs: -1}); err == nil {
		t.Error("Pairs -1 accepted")
	}
	s, err := New(Options{})
	if err != nil || len(s.Accounts()) != 1 || s.BasePath() != "/api/v1.0" {
		t.Fatalf("default server: %v %d %q", err, len(s.Accounts()), s.BasePath())
	}
	s, _ = New(Options{Pairs: 500})
	seen := map[string]bool{}
	for _, p := range s.Accounts() {
		for _, a := range p {
			if seen[a.Email] || seen[a.APIKey] {
				t.Fatal("duplicate account")
			}
			seen[a.Email], seen[a.APIKey] = true, true
		}
	}
	for _, f := range Faults() {
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Errorf("fault %s: %v", f.Name, err)
		}
	}
}

func TestAccountsAreIsolatedPairs(t *testing.T) {
	a := newAPI(t, "")
	for _, acc := range []Account{a.A, a.B} {
		r := a.as(acc, "GET", "/clients", nil)
		var body struct{ Clients []map[string]any }
		_ = json.Unmarshal(r.Body, &body)
		if r.Code != 200 || len(body.Clients) != 1 {
			t.Fatalf("clients of %s: %d %s", acc.Email, r.Code, r.Body)
		}
	}
	if a.clientID(a.A) == a.clientID(a.B) {
		t.Fatal("A and B share a client")
	}
}

func TestCatalogues(t *testing.T) {
	a := newAPI(t, "")
	for path, prop := range map[string]string{"/platforms": "platforms", "/currencies": "currencies",
		"/plans": "plans", "/phonecountries": "phoneCountries", "/marketapps": "marketapps"} {
		r := a.do("GET", path, nil, nil)
		if r.Code != 200 {
			t.Fatalf("%s: %d", path, r.Code)
		}
		if _, ok := r.obj()[prop].([]any); !ok {
			t.Fatalf("%s: no %s array: %s", path, prop, r.Body)
		}
	}
	r := a.do("GET", "/marketapps", nil, nil)
	if !strings.Contains(string(r.Body), hashPuzzle) {
		t.Fatal("marketapp hash not listed")
	}
	r = a.do("GET", "/platforms", nil, nil)
	if string(r.Body) != `{"platforms":[{"id":1,"name":"Android"},{"id":2,"name":"iOS"}]}`+"\n" {
		t.Fatalf("platforms: %s", r.Body)
	}
}

func TestAuthentication(t *testing.T) {
	a := newAPI(t, "")
	uid := a.userID(a.A)
	path := "/users/" + uid
	if r := a.do("GET", path, nil, nil); r.Code != 401 {
		t.Fatalf("no auth: %d", r.Code)
	}
	for _, h := range []string{"api-key " + a.A.APIKey, "API-KEY " + a.A.APIKey, "Api-Key  " + a.A.APIKey + " "} {
		if r := a.do("GET", path, nil, map[string]string{"Authorization": h}); r.Code != 200 {
			t.Fatalf("%q: %d", h, r.Code)
		}
	}
	for _, h := range []string{"api-key", "api-key " + a.A.APIKey[:8], "Bearer " + a.A.APIKey, "api-key x" + a.A.APIKey, a.A.APIKey} {
		if r := a.do("GET", path, nil, map[string]string{"Authorization": h}); r.Code != 401 {
			t.Fatalf("%q: %d", h, r.Code)
		}
	}
	// sessions
	r := a.login(a.A.Email, a.A.Password)
	if r.Code != 200 {
		t.Fatalf("login: %d %s", r.Code, r.Body)
	}
	for _, f := range []string{"id", "created", "creatorUserId", "userId", "clientId", "token"} {
		if r.str(f) == "<absent>" {
			t.Fatalf("session lacks %s: %s", f, r.Body)
		}
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(r.str("created")) {
		t.Fatalf("created: %s", r.str("created"))
	}
	tok := r.str("token")
	if r := a.do("GET", path, nil, map[string]string{"session-token": tok}); r.Code != 200 {
		t.Fatalf("session header: %d", r.Code)
	}
	if r := a.do("GET", path+"?sessionToken="+tok, nil, nil); r.Code != 200 {
		t.Fatalf("session query: %d", r.Code)
	}
	if r := a.do("GET", path, nil, map[string]string{"session-token": tok + "x"}); r.Code != 401 {
		t.Fatalf("bad token: %d", r.Code)
	}
	// login failures
	if r := a.login(a.A.Email, a.A.Password+"x"); r.Code != 401 {
		t.Fatalf("wrong password: %d", r.Code)
	}
	if r := a.login(strings.ToUpper(a.A.Email), a.A.Password); r.Code != 401 {
		t.Fatalf("email in other case: %d", r.Code)
	}
	if r := a.do("POST", "/sessions", map[string]any{"email": a.A.Email}, nil); r.Code != 400 || r.codes() != "password:InvalidPassword" {
		t.Fatalf("no password: %d %s", r.Code, r.Body)
	}
	// public endpoints need no auth; every other one does
	for _, c := range []struct{ m, p string }{{"PUT", path}, {"POST", "/apps"}, {"POST", "/clients"}, {"PUT", "/clients/1"}, {"GET", "/clients"}, {"GET", "/apps/1"}} {
		if r := a.do(c.m, c.p, "{}", nil); r.Code != 401 {
			t.Fatalf("%s %s unauthenticated: %d", c.m, c.p, r.Code)
		}
	}
}

func TestPutUser(t *testing.T) {
	a := newAPI(t, "")
	uid := a.userID(a.A)
	r := a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, map[string]any{"firstName": "Zoë", "lastName": "O'Brien <&>"}))
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	want := []string{"id", "created", "email", "passwordLastChanged", "firstName", "lastName", "subscribeWelcome",
		"subscribeBlog", "subscribeHowto", "subscribeOnboarding", "phoneCountry", "phoneNumber", "phoneExtension", "timezone"}
	m := r.obj()
	if len(m) != len(want) {
		t.Fatalf("fields: %s", r.Body)
	}
	for _, f := range want {
		if _, ok := m[f]; !ok {
			t.Fatalf("missing %s", f)
		}
	}
	if r.str("firstName") != "Zoë" || r.str("lastName") != "O'Brien <&>" || r.str("timezone") != "Europe/Paris" ||
		r.str("phoneCountry.name") != "United Kingdom (+44)" || r.str("phoneCountry.dialCode") != "+44" || m["phoneExtension"] != nil {
		t.Fatalf("values: %s", r.Body)
	}
	if strings.Contains(strings.ToLower(string(r.Body)), "password\"") || strings.Contains(string(r.Body), "secret") {
		t.Fatalf("password leaked: %s", r.Body)
	}
	// read back
	if g := a.as(a.A, "GET", "/users/"+uid, nil); string(g.Body) != string(r.Body) {
		t.Fatalf("GET differs:\n%s\n%s", g.Body, r.Body)
	}
	// password null kept
	if a.login(a.A.Email, a.A.Password).Code != 200 {
		t.Fatal("null password changed the password")
	}
	// change email and password, log in with them exactly as set
	r = a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, map[string]any{"email": "New.Mail+x@Example.org", "password": "  pässwörd  "}))
	if r.Code != 200 || r.str("email") != "New.Mail+x@Example.org" {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	if a.login("New.Mail+x@Example.org", "  pässwörd  ").Code != 200 {
		t.Fatal("login with new credentials")
	}
	if a.login(a.A.Email, a.A.Password).Code != 401 || a.login("New.Mail+x@Example.org", "pässwörd").Code != 401 {
		t.Fatal("old credentials still work")
	}
	// phone fields
	r = a.as(a.A, "PUT", "/users/"+uid, userBody(Account{Email: "New.Mail+x@Example.org"}, map[string]any{
		"phoneCountry": map[string]any{"id": 33}, "phoneNumber": "612345678", "phoneExtension": "42"}))
	if r.Code != 200 || r.str("phoneCountry.id") != "33" || r.str("phoneExtension") != "42" || r.str("phoneNumber") != "612345678" {
		t.Fatalf("phone: %d %s", r.Code, r.Body)
	}
	r = a.as(a.A, "PUT", "/users/"+uid, userBody(Account{Email: "New.Mail+x@Example.org"}, map[string]any{"phoneExtension": nil}))
	if r.Code != 200 || r.obj()["phoneExtension"] != nil || r.str("phoneCountry.id") != "33" {
		t.Fatalf("phone kept/cleared: %d %s", r.Code, r.Body)
	}
}

func TestPutUserValidation(t *testing.T) {
	a := newAPI(t, "")
	uid := a.userID(a.A)
	long := strings.Repeat("é", 256)
	cases := []struct {
		over map[string]any
		want string
	}{
		{map[string]any{"email": "not-an-email"}, "email:InvalidEmail"},
		{map[string]any{"email": "<delete>"}, "email:InvalidEmail"},
		{map[string]any{"email": strings.Repeat("a", 250) + "@x.org"}, "email:InvalidEmail"},
		{map[string]any{"password": "12345"}, "password:InvalidPassword"},
		{map[string]any{"password": "ééééé"}, "password:InvalidPassword"},
		{map[string]any{"password": "<delete>"}, "password:InvalidPassword"},
		{map[string]any{"password": 123456}, "password:InvalidPassword"},
		{map[string]any{"firstName": ""}, "firstName:InvalidFirstName"},
		{map[string]any{"firstName": "   "}, "firstName:InvalidFirstName"},
		{map[string]any{"firstName": nil}, "firstName:InvalidFirstName"},
		{map[string]any{"firstName": "<delete>"}, "firstName:InvalidFirstName"},
		{map[string]any{"firstName": 7}, "firstName:InvalidFirstName"},
		{map[string]any{"firstName": long}, "firstName:InvalidFirstName"},
		{map[string]any{"lastName": "<delete>"}, "lastName:InvalidLastName"},
		{map[string]any{"phoneCountry": map[string]any{"id": 999}}, "phoneCountry.id:InvalidPhoneCountryId"},
		{map[string]any{"phoneCountry": "UK"}, "phoneCountry:InvalidPhoneCountryId"},
		{map[string]any{"phoneNumber": " "}, "phoneNumber:InvalidPhoneNumber"},
		{map[string]any{"phoneExtension": "12a"}, "phoneExtension:InvalidPhoneExtension"},
		{map[string]any{"phoneExtension": 12}, "phoneExtension:InvalidPhoneExtension"},
		{map[string]any{"subscribeBlog": "yes", "subscribeHowto": "no"}, "subscribeBlog:InvalidSubscribeBlog,subscribeHowto:InvalidSubscribeHowto"},
		{map[string]any{"timezone": "Paris"}, "timezone:InvalidTimezone"},
		{map[string]any{"firstName": "", "lastName": ""}, "firstName:InvalidFirstName,lastName:InvalidLastName"},
		{map[string]any{"client": clientBody(map[string]any{"name": ""})}, "client.name:InvalidName"},
	}
	for _, c := range cases {
		r := a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, c.over))
		if r.Code != 400 || r.codes() != c.want {
			t.Errorf("%v: %d %s (want %s)", c.over, r.Code, r.Body, c.want)
		}
		for _, e := range r.arr() {
			if _, ok := e["message"].(string); !ok {
				t.Errorf("no message: %s", r.Body)
			}
		}
	}
	// maximum lengths are inclusive and count characters
	ok := a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, map[string]any{"firstName": long[:510], "password": "éééééé"}))
	if ok.Code != 200 {
		t.Fatalf("255 chars: %d %s", ok.Code, ok.Body)
	}
	// nothing changed by the refused requests
	me := a.as(a.A, "GET", "/users/"+uid, nil)
	if me.str("firstName") != long[:510] {
		t.Fatal("unexpected state")
	}
	// malformed bodies
	for _, b := range []string{"", "{", "[]", "null x", `{"a":1}{}`} {
		if r := a.as(a.A, "PUT", "/users/"+uid, b); r.Code != 400 || len(r.arr()) != 1 {
			t.Errorf("body %q: %d %s", b, r.Code, r.Body)
		}
	}
}

func TestPutUserPermissions(t *testing.T) {
	a := newAPI(t, "")
	ua, ub := a.userID(a.A), a.userID(a.B)
	if r := a.as(a.A, "PUT", "/users/"+ub, userBody(a.B, nil)); r.Code != 403 {
		t.Fatalf("foreign PUT: %d", r.Code)
	}
	if r := a.as(a.A, "GET", "/users/"+ub, nil); r.Code != 403 {
		t.Fatalf("foreign GET: %d", r.Code)
	}
	for _, id := range []string{"99999", "abc", "0", "-1"} {
		if r := a.as(a.A, "PUT", "/users/"+id, userBody(a.A, nil)); r.Code != 404 {
			t.Fatalf("PUT /users/%s: %d", id, r.Code)
		}
	}
	// email of another user
	r := a.as(a.A, "PUT", "/users/"+ua, userBody(a.A, map[string]any{"email": a.B.Email}))
	if r.Code != 400 || r.codes() != "email:InvalidEmail" {
		t.Fatalf("taken email: %d %s", r.Code, r.Body)
	}
}

func TestPutUserWithClient(t *testing.T) {
	a := newAPI(t, "")
	uid := a.userID(a.A)
	cb := clientBody(map[string]any{"name": "Second Co", "app": appBody(nil)})
	r := a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, map[string]any{"client": cb}))
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	var body struct{ Clients []map[string]any }
	_ = json.Unmarshal(a.as(a.A, "GET", "/clients", nil).Body, &body)
	if len(body.Clients) != 2 || body.Clients[1]["name"] != "Second Co" {
		t.Fatalf("clients: %v", body.Clients)
	}
	// refused: unknown marketapp -> 404, nothing written
	cb = clientBody(map[string]any{"name": "Third Co", "app": appBody(map[string]any{"marketapp": map[string]any{"hash": strings.Repeat("ab", 20)}})})
	r = a.as(a.A, "PUT", "/users/"+uid, userBody(a.A, map[string]any{"firstName": "Changed", "client": cb}))
	if r.Code != 404 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	if a.as(a.A, "GET", "/users/"+uid, nil).str("firstName") != "First" {
		t.Fatal("refused request changed the user")
	}
}
