package tags

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestNewOptions(t *testing.T) {
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Fatal("unknown fault accepted")
	}
	for _, p := range []int{-1, 501} {
		if _, err := New(Options{Pairs: p}); err == nil {
			t.Fatalf("Pairs %d accepted", p)
		}
	}
	s, err := New(Options{})
	if err != nil || len(s.Accounts()) != 1 {
		t.Fatalf("Pairs 0: %v %d", err, len(s.Accounts()))
	}
	s, _ = New(Options{Pairs: 500})
	if len(s.Accounts()) != 500 {
		t.Fatal("500 pairs")
	}
	if s.BasePath() != "/api/v1.0" {
		t.Fatal(s.BasePath())
	}
	seen := map[string]bool{}
	for _, f := range Faults() {
		if seen[f.Name] || f.Rule == "" || f.Quote == "" || f.Description == "" {
			t.Fatalf("bad fault row %+v", f)
		}
		seen[f.Name] = true
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSeededAccounts(t *testing.T) {
	s := newServer(t, "")
	for _, p := range s.Accounts() {
		for _, a := range p {
			r := as(s, a, "GET", "/users/"+itoa(userID(t, s, a)), "")
			if r.Code != 200 || r.obj(t)["email"] != a.Email {
				t.Fatalf("%d %s", r.Code, r.Body)
			}
			c, _ := s.clients.Get(clientID(t, s, a))
			if len(c.Members) != 1 || c.Members[0] != userID(t, s, a) {
				t.Fatalf("client members %v", c.Members)
			}
			if login(s, a.Email, a.Password).Code != 200 {
				t.Fatal("login")
			}
		}
	}
}

func TestCatalogues(t *testing.T) {
	s := newServer(t, "")
	for path, key := range map[string]string{"/platforms": "platforms", "/plans": "plans", "/currencies": "currencies", "/phone-countries": "phoneCountries", "/marketapps": "marketapps"} {
		r := call(s, "GET", path, "")
		if r.Code != 200 {
			t.Fatalf("%s %d", path, r.Code)
		}
		if _, ok := r.obj(t)[key].([]any); !ok {
			t.Fatalf("%s: no %s: %s", path, key, r.Body)
		}
	}
	r := call(s, "GET", "/marketapps", "")
	if !strings.Contains(string(r.Body), hashSnakeAndroid) {
		t.Fatal("hash not listed")
	}
	if call(s, "POST", "/platforms", "{}").Code != 405 {
		t.Fatal("405")
	}
	if call(s, "GET", "/nothing", "").Code != 404 {
		t.Fatal("404")
	}
	// v1 alias
	req := httptest.NewRequest("GET", "/api/v1/platforms", nil)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatal("alias")
	}
}

func TestSessions(t *testing.T) {
	s := newServer(t, "")
	a := accA(s)
	r := login(s, a.Email, a.Password)
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	m := r.obj(t)
	uid := float64(userID(t, s, a))
	if m["userId"] != uid || m["creatorUserId"] != uid || m["clientId"] != float64(clientID(t, s, a)) {
		t.Fatalf("%s", r.Body)
	}
	if _, err := time.Parse(time.RFC3339, m["created"].(string)); err != nil {
		t.Fatal(err)
	}
	tok := m["token"].(string)
	path := "/users/" + itoa(userID(t, s, a))
	if call(s, "GET", path, "", "session-token", tok).Code != 200 {
		t.Fatal("header token")
	}
	if call(s, "GET", path, "", "SESSION-TOKEN", tok).Code != 200 {
		t.Fatal("header case")
	}
	if call(s, "GET", path+"?sessionToken="+tok, "").Code != 200 {
		t.Fatal("query token")
	}
	if call(s, "GET", path+"?sessionToken=nope", "").Code != 401 {
		t.Fatal("bad query token")
	}
	if call(s, "GET", path, "", "session-token", "nope").Code != 401 {
		t.Fatal("bad token")
	}
	// case-insensitive email at login
	if login(s, strings.ToUpper(a.Email), a.Password).Code != 200 {
		t.Fatal("email case")
	}
	for _, c := range []struct {
		body string
		code int
	}{
		{`{"email":"` + a.Email + `","password":"wrong-pass"}`, 401},
		{`{"email":"nobody@example.com","password":"whatever"}`, 401},
		{`{"email":"` + a.Email + `"}`, 400},
		{`{"password":"x"}`, 400},
		{`not json`, 400},
	} {
		if r := call(s, "POST", "/sessions", c.body); r.Code != c.code {
			t.Fatalf("%s: %d %s", c.body, r.Code, r.Body)
		}
	}
	// expiry after 24 h
	base := time.Now().UTC()
	s.now = func() time.Time { return base.Add(sessionTTL + time.Second) }
	if call(s, "GET", path, "", "session-token", tok).Code != 401 {
		t.Fatal("expired token accepted")
	}
	if as(s, a, "GET", path, "").Code != 200 {
		t.Fatal("api key must not expire")
	}
}

func TestAPIKeyScheme(t *testing.T) {
	s := newServer(t, "")
	a := accA(s)
	path := "/users/" + itoa(userID(t, s, a))
	for v, code := range map[string]int{
		"api-key " + a.APIKey:       200,
		"API-KEY " + a.APIKey:       200,
		"api-key   " + a.APIKey:     200,
		"Bearer " + a.APIKey:        401,
		a.APIKey:                    401,
		"api-key " + a.APIKey + "x": 401,
		"api-key ":                  401,
		"api-key " + a.APIKey[:12] + strings.Repeat("0", 32): 401,
	} {
		if r := call(s, "GET", path, "", "Authorization", v); r.Code != code {
			t.Fatalf("%q: %d", v, r.Code)
		}
	}
	r := call(s, "GET", path, "")
	if r.Code != 401 || len(r.errs(t)) != 1 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	// two credentials of different users
	b := accB(s)
	if call(s, "GET", path, "", append(key(a), "session-token", token(t, s, b))...).Code != 401 {
		t.Fatal("mixed credentials")
	}
}

func TestPutUser(t *testing.T) {
	s := newServer(t, "")
	a := accA(s)
	path := "/users/" + itoa(userID(t, s, a))
	body := `{"email":"New.Mail@Example.com","firstName":"Zoë","lastName":"Ångström","subscribeWelcome":false,"subscribeBlog":true,"subscribeHowto":false,"subscribeOnboarding":true,"timezone":"America/New_York","password":null,"phoneCountry":{"id":3},"phoneNumber":"0612345678","phoneExtension":"12"}`
	r := as(s, a, "PUT", path, body)
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	m := r.obj(t)
	want := map[string]any{"email": "New.Mail@Example.com", "firstName": "Zoë", "lastName": "Ångström",
		"subscribeWelcome": false, "subscribeBlog": true, "subscribeHowto": false, "subscribeOnboarding": true,
		"timezone": "America/New_York", "phoneNumber": "0612345678", "phoneExtension": "12"}
	for k, v := range want {
		if m[k] != v {
			t.Fatalf("%s = %v, want %v", k, m[k], v)
		}
	}
	pc := m["phoneCountry"].(map[string]any)
	if pc["id"] != 3.0 || pc["dialCode"] != "+33" || pc["name"] != "France (+33)" {
		t.Fatal(pc)
	}
	for _, k := range []string{"id", "created", "passwordLastChanged"} {
		if _, ok := m[k]; !ok {
			t.Fatal("missing", k)
		}
	}
	for k := range m {
		if strings.Contains(strings.ToLower(k), "password") && k != "passwordLastChanged" || strings.Contains(strings.ToLower(k), "key") {
			t.Fatal("secret field", k)
		}
	}
	if bytes.Contains(r.Body, []byte(a.APIKey)) {
		t.Fatal("api key leaked")
	}
	// password null kept the password; the new email logs in, the old does not
	if login(s, "New.Mail@Example.com", a.Password).Code != 200 || login(s, a.Email, a.Password).Code != 401 {
		t.Fatal("email change / password kept")
	}
	// a full body (§2: only optional fields may be omitted) carrying the
	// current values; the absent phone fields keep; password change
	cur := func(kv ...string) string {
		return fullUser(a, append([]string{"email", `"New.Mail@Example.com"`, "firstName", `"Zoë"`, "lastName", `"Ångström"`}, kv...)...)
	}
	r = as(s, a, "PUT", path, cur("password", `"  new secret  "`))
	if r.Code != 200 || r.obj(t)["firstName"] != "Zoë" || r.obj(t)["phoneExtension"] != "12" {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	if login(s, "new.mail@example.com", "  new secret  ").Code != 200 || login(s, "new.mail@example.com", a.Password).Code != 401 {
		t.Fatal("password change")
	}
	// phoneExtension null clears
	r = as(s, a, "PUT", path, cur("phoneExtension", "null"))
	if r.Code != 200 || r.obj(t)["phoneExtension"] != nil {
		t.Fatalf("%s", r.Body)
	}
	if !bytes.Contains(r.Body, []byte(`"phoneExtension":null`)) {
		t.Fatal("phoneExtension must be present as null")
	}
	// password change does not revoke sessions (correct server choice)
	tok := token(t, s, Account{Email: "new.mail@example.com", Password: "  new secret  "})
	if as(s, a, "PUT", path, cur("password", `"another1"`)).Code != 200 || call(s, "GET", path, "", "session-token", tok).Code != 200 {
		t.Fatal("session after password change")
	}
}

func TestPutUserValidation(t *testing.T) {
	s := newServer(t, "")
	a, b := accA(s), accB(s)
	path := "/users/" + itoa(userID(t, s, a))
	long := strings.Repeat("x", 256)
	// each case is a full body (fullUser) with one field replaced or removed
	for _, c := range []struct{ name, value, field, code string }{
		{"email", `"nope"`, "email", "InvalidEmail"},
		{"email", `"a@b"`, "email", "InvalidEmail"},
		{"email", `null`, "email", "InvalidEmail"},
		{"email", `"` + b.Email + `"`, "email", "InvalidEmail"},
		{"email", `"` + strings.ToUpper(b.Email) + `"`, "email", "InvalidEmail"},
		{"password", `"12345"`, "password", "InvalidPassword"},
		{"password", `123456`, "password", "InvalidPassword"},
		{"firstName", `""`, "firstName", "InvalidFirstName"},
		{"firstName", `"   "`, "firstName", "InvalidFirstName"},
		{"firstName", `null`, "firstName", "InvalidFirstName"},
		{"firstName", `"` + long + `"`, "firstName", "InvalidFirstName"},
		{"lastName", `""`, "lastName", "InvalidLastName"},
		{"lastName", `7`, "lastName", "InvalidLastName"},
		{"phoneCountry", `{"id":99}`, "phoneCountry.id", "InvalidPhoneCountryId"},
		{"phoneCountry", `null`, "phoneCountry", "InvalidPhoneCountryId"},
		{"phoneNumber", `""`, "phoneNumber", "InvalidPhoneNumber"},
		{"phoneExtension", `"ext 5"`, "phoneExtension", "InvalidPhoneExtension"},
		{"phoneExtension", `12`, "phoneExtension", "InvalidPhoneExtension"},
		{"subscribeBlog", `"true"`, "subscribeBlog", "InvalidSubscribeBlog"},
		{"subscribeBlog", `null`, "subscribeBlog", "InvalidSubscribeBlog"},
		{"timezone", `"London"`, "timezone", "InvalidTimezone"},
		{"client", clientBody("name", `""`), "client.name", "InvalidName"},
		{"client", clientBody("terms", `"yes"`), "client.terms", "InvalidTerms"},
		// a field §4.1 does not mark optional may not be omitted (§2 notation)
		{"email", "", "email", "InvalidEmail"},
		{"firstName", "", "firstName", "InvalidFirstName"},
		{"lastName", "", "lastName", "InvalidLastName"},
	} {
		body := fullUser(a, c.name, c.value)
		r := as(s, a, "PUT", path, body)
		if r.Code != 400 {
			t.Fatalf("%s: %d %s", body, r.Code, r.Body)
		}
		e := r.errs(t)
		if len(e) == 0 || e[0].FieldName != c.field || e[0].Error != c.code || e[0].Message == "" {
			t.Fatalf("%s: %s", body, r.Body)
		}
	}
	// exactly 255 characters, multi-byte, is fine and round-trips
	name := strings.Repeat("é", 255)
	r := as(s, a, "PUT", path, fullUser(a, "firstName", `"`+name+`"`))
	if r.Code != 200 || r.obj(t)["firstName"] != name {
		t.Fatalf("%d", r.Code)
	}
	// several errors at once
	r = as(s, a, "PUT", path, fullUser(a, "firstName", `""`, "lastName", `""`))
	if len(r.errs(t)) != 2 {
		t.Fatal(string(r.Body))
	}
	// refused request changed nothing
	r = as(s, a, "PUT", path, fullUser(a, "firstName", `"Changed"`, "password", `"brandnew1"`, "email", `"bad"`))
	if r.Code != 400 {
		t.Fatal(r.Code)
	}
	u := as(s, a, "GET", path, "").obj(t)
	if u["firstName"] != name || login(s, a.Email, "brandnew1").Code != 401 {
		t.Fatal("refused request changed the user")
	}
	// auth / permission / not found
	if call(s, "PUT", path, fullUser(a, "firstName", `"x"`)).Code != 401 {
		t.Fatal("401")
	}
	if call(s, "PUT", path, `{"firstName":""}`).Code != 401 {
		t.Fatal("401 before 400")
	}
	if as(s, b, "PUT", path, fullUser(a, "firstName", `"x"`)).Code != 403 {
		t.Fatal("403")
	}
	if as(s, a, "PUT", "/users/99999", fullUser(a, "firstName", `"x"`)).Code != 404 {
		t.Fatal("404")
	}
	if as(s, a, "PUT", "/users/abc", fullUser(a, "firstName", `"x"`)).Code != 404 {
		t.Fatal("404 abc")
	}
	if as(s, b, "GET", path, "").Code != 403 {
		t.Fatal("GET 403")
	}
}

func TestPutUserWithClient(t *testing.T) {
	s := newServer(t, "")
	a := accA(s)
	path := "/users/" + itoa(userID(t, s, a))
	next := s.clients.(*memClients).next
	// invalid client part: nothing changes
	r := as(s, a, "PUT", path, fullUser(a, "firstName", `"Keep"`, "client", clientBody("name", `""`)))
	if r.Code != 400 || as(s, a, "GET", path, "").obj(t)["firstName"] == "Keep" {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	// unknown marketapp in the embedded app: 404, nothing changes
	r = as(s, a, "PUT", path, fullUser(a, "firstName", `"Keep"`, "client", clientBody("app", `{"marketapp":{"hash":"`+strings.Repeat("0", 40)+`"},"nextplan":{"id":1}}`)))
	if r.Code != 404 || as(s, a, "GET", path, "").obj(t)["firstName"] == "Keep" {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	r = as(s, a, "PUT", path, fullUser(a, "firstName", `"Keep"`, "client", clientBody("app", validApp)))
	if r.Code != 200 || r.obj(t)["firstName"] != "Keep" {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	if as(s, a, "GET", "/clients/"+itoa(next), "").Code != 200 {
		t.Fatal("client not created with id", next)
	}
	apps := as(s, a, "GET", "/apps", "").obj(t)
	if apps["count"] != 1.0 {
		t.Fatal(apps)
	}
}

func TestPostUsers(t *testing.T) {
	s := newServer(t, "")
	body := `{"email":"fresh@example.org","password":"abcdef","firstName":"F","lastName":"L","client":` + validClient + `}`
	r := call(s, "POST", "/users", body)
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	m := r.obj(t)
	if m["email"] != "fresh@example.org" || m["timezone"] != defaultTZ {
		t.Fatal(m)
	}
	tok := token(t, s, Account{Email: "fresh@example.org", Password: "abcdef"})
	if r := call(s, "POST", "/apps", validApp, "session-token", tok); r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	if r := call(s, "POST", "/users", body); r.Code != 400 || !r.hasCode("InvalidEmail") {
		t.Fatal("duplicate email")
	}
	for _, b := range []string{`{"email":"x@example.org","firstName":"F","lastName":"L"}`, `{"email":"x@example.org","password":null,"firstName":"F","lastName":"L"}`} {
		if r := call(s, "POST", "/users", b); !r.hasCode("InvalidPassword") {
			t.Fatal(string(r.Body))
		}
	}
	if r := call(s, "POST", "/users", `{"email":"y@example.org","password":"abcdef"}`); !r.hasCode("InvalidFirstName") || !r.hasCode("InvalidLastName") {
		t.Fatal(string(r.Body))
	}
	// failed client part creates no user
	if r := call(s, "POST", "/users", `{"email":"z@example.org","password":"abcdef","firstName":"F","lastName":"L","client":`+clientBody("name", "")+`}`); r.Code != 400 || login(s, "z@example.org", "abcdef").Code != 401 {
		t.Fatal("partial user")
	}
	// without a client: POST /apps is forbidden
	call(s, "POST", "/users", `{"email":"noclient@example.org","password":"abcdef","firstName":"F","lastName":"L"}`)
	tok = token(t, s, Account{Email: "noclient@example.org", Password: "abcdef"})
	if r := call(s, "POST", "/apps", validApp, "session-token", tok); r.Code != 403 {
		t.Fatal(r.Code)
	}
}

var hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestPostApps(t *testing.T) {
	s := newServer(t, "")
	a := accA(s)
	r := as(s, a, "POST", "/apps", validApp)
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	m := r.obj(t)
	if m["name"] != "Snake Rush" || !hex32.MatchString(m["writeKey"].(string)) ||
		m["marketapp"].(map[string]any)["hash"] != hashSnakeAndroid ||
		m["platform"].(map[string]any)["name"] != "Android" || m["plan"].(map[string]any)["isLite"] != true {
		t.Fatal(string(r.Body))
	}
	// upper-case hash, by name+platform, Pro plan
	r = as(s, a, "POST", "/apps", `{"marketapp":{"hash":"`+strings.ToUpper(hashSnakeAndroid)+`"},"nextplan":{"id":2}}`)
	if r.Code != 200 || r.obj(t)["plan"].(map[string]any)["needBilling"] != true {
		t.Fatal(string(r.Body))
	}
	r = as(s, a, "POST", "/apps", `{"marketapp":null,"name":"Word Garden","platform":{"id":2},"nextplan":{"id":1.0}}`)
	if r.Code != 200 || r.obj(t)["marketapp"].(map[string]any)["hash"] != "29f8bba52c877cdc74e3994260133e4bd8b69d5c" {
		t.Fatal(string(r.Body))
	}
	for _, c := range []struct {
		body string
		code int
		err  string
	}{
		{`{"nextplan":{"id":1}}`, 400, "InvalidName"},
		{`{"name":null,"marketapp":{"hash":null},"nextplan":{"id":1}}`, 400, "InvalidName"},
		{`{"name":"","nextplan":{"id":1}}`, 400, "InvalidName"},
		{`{"name":"Word Garden","nextplan":{"id":1}}`, 400, "InvalidPlatformId"},
		{`{"name":"Word Garden","platform":{"id":9},"nextplan":{"id":1}}`, 400, "InvalidPlatformId"},
		{`{"name":"Unknown App","platform":{"id":1},"nextplan":{"id":1}}`, 404, ""},
		{`{"marketapp":{"hash":"` + strings.Repeat("a", 39) + `"},"nextplan":{"id":1}}`, 400, "InvalidMarketappHash"},
		{`{"marketapp":{"hash":"` + strings.Repeat("a", 41) + `"},"nextplan":{"id":1}}`, 400, "InvalidMarketappHash"},
		{`{"marketapp":{"hash":"` + strings.Repeat("g", 40) + `"},"nextplan":{"id":1}}`, 400, "InvalidMarketappHash"},
		{`{"marketapp":{"hash":"` + strings.Repeat("a", 40) + `"},"nextplan":{"id":1}}`, 404, ""},
		{`{"marketapp":{"hash":"` + hashSnakeAndroid + `"}}`, 400, "InvalidNextplanId"},
		{`{"marketapp":{"hash":"` + hashSnakeAndroid + `"},"nextplan":{"id":7}}`, 400, "InvalidNextplanId"},
		{`{"marketapp":{"hash":"` + hashSnakeAndroid + `"},"nextplan":{"id":1.5}}`, 400, "InvalidNextplanId"},
		{`{"marketapp":{"hash":"` + hashSnakeAndroid + `"},"nextplan":{"id":"1"}}`, 400, "InvalidNextplanId"},
		{`[]`, 400, "InvalidJson"},
		{`{"marketapp":{"hash":"` + hashSnakeAndroid + `"},"nextplan":{"id":1}} x`, 400, "InvalidJson"},
	} {
		r := as(s, a, "POST", "/apps", c.body)
		if r.Code != c.code || (c.err != "" && !r.hasCode(c.err)) {
			t.Fatalf("%s: %d %s", c.body, r.Code, r.Body)
		}
	}
	if call(s, "POST", "/apps", validApp).Code != 401 {
		t.Fatal("401")
	}
	// listing and isolation
	b := accB(s)
	as(s, b, "POST", "/apps", validApp)
	la := as(s, a, "GET", "/apps", "").obj(t)
	lb := as(s, b, "GET", "/apps", "").obj(t)
	if la["count"] != 3.0 || lb["count"] != 1.0 {
		t.Fatal(la["count"], lb["count"])
	}
	bid := int(lb["apps"].([]any)[0].(map[string]any)["id"].(float64))
	if as(s, a, "GET", "/apps/"+itoa(bid), "").Code != 403 || as(s, b, "GET", "/apps/"+itoa(bid), "").Code != 200 || as(s, b, "GET", "/apps/424242", "").Code != 404 {
		t.Fatal("app isolation")
	}
}

func TestPostClients(t *testing.T) {
	s := newServer(t, "")
	a := accA(s)
	r := as(s, a, "POST", "/clients", clientBody("vat", `"FR123"`))
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	m := r.obj(t)
	if m["name"] != "Acme" || m["vat"] != "FR123" || m["currency"].(map[string]any)["code"] != "EUR" || m["createdDate"] == nil {
		t.Fatal(m)
	}
	if _, ok := m["addressLine2"]; ok {
		t.Fatal("absent addressLine2 returned")
	}
	id := int(m["id"].(float64))
	for _, c := range []struct{ body, field, code string }{
		{clientBody("name", ""), "name", "InvalidName"},
		{clientBody("name", `""`), "name", "InvalidName"},
		{clientBody("name", `null`), "name", "InvalidName"},
		{clientBody("name", `"`+strings.Repeat("n", 256)+`"`), "name", "InvalidName"},
		{clientBody("terms", `"i agree"`), "terms", "InvalidTerms"},
		{clientBody("terms", ""), "terms", "InvalidTerms"},
		{clientBody("currency", `{"id":99}`), "currency.id", "InvalidCurrencyId"},
		{clientBody("currency", ""), "currency", "InvalidCurrencyId"},
		{clientBody("addressCity", ""), "addressCity", "InvalidAddressCity"},
		{clientBody("app", `{"nextplan":{"id":1}}`), "app.name", "InvalidName"},
	} {
		r := as(s, a, "POST", "/clients", c.body)
		if r.Code != 400 || r.errs(t)[0].FieldName != c.field || r.errs(t)[0].Error != c.code {
			t.Fatalf("%s: %d %s", c.body, r.Code, r.Body)
		}
	}
	// whitespace and escapes are the same JSON
	if r := as(s, a, "POST", "/clients", strings.ReplaceAll(clientBody("terms", `"I\u0020agree"`), `":`, `" : `)); r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	// a failed app creates neither: the next client gets the next id
	if r := as(s, a, "POST", "/clients", clientBody("app", `{"marketapp":{"hash":"`+strings.Repeat("b", 40)+`"},"nextplan":{"id":1}}`)); r.Code != 404 {
		t.Fatal(r.Code)
	}
	r = as(s, a, "POST", "/clients", clientBody("app", validApp))
	if r.Code != 200 || int(r.obj(t)["id"].(float64)) != id+2 {
		t.Fatalf("%s", r.Body)
	}
	if as(s, a, "GET", "/apps", "").obj(t)["count"] != 1.0 {
		t.Fatal("app with client")
	}
	if call(s, "POST", "/clients", validClient).Code != 401 {
		t.Fatal("401")
	}
}

func TestPutClients(t *testing.T) {
	s := newServer(t, "")
	a, b := accA(s), accB(s)
	path := "/clients/" + itoa(clientID(t, s, a))
	// full bodies (§2: only addressLine2, vat and app are marked optional)
	r := as(s, a, "PUT", path, fullClient(a, "name", `"Renamed"`, "addressLine2", `"Floor 2"`, "vat", `"GB1"`, "currency", `{"id":3}`))
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	m := r.obj(t)
	if m["name"] != "Renamed" || m["addressLine2"] != "Floor 2" || m["addressCity"] != "London" || m["currency"].(map[string]any)["code"] != "GBP" {
		t.Fatal(m)
	}
	// addressLine2 null removes it; the absent vat keeps
	r = as(s, a, "PUT", path, fullClient(a, "name", `"Renamed"`, "currency", `{"id":3}`, "addressLine2", `null`))
	if _, ok := r.obj(t)["addressLine2"]; ok || r.obj(t)["vat"] != "GB1" {
		t.Fatal(string(r.Body))
	}
	// each case is a full body (fullClient) with one field replaced or removed
	for _, c := range []struct{ name, value, code string }{
		{"name", `""`, "InvalidName"},
		{"name", `null`, "InvalidName"},
		{"app", validApp, "InvalidApp"},
		{"app", `null`, "InvalidApp"},
		{"terms", `"no"`, "InvalidTerms"},
		{"currency", `{"id":0}`, "InvalidCurrencyId"},
	} {
		body := fullClient(a, c.name, c.value)
		if r := as(s, a, "PUT", path, body); r.Code != 400 || !r.hasCode(c.code) {
			t.Fatalf("%s: %d %s", body, r.Code, r.Body)
		}
	}
	// a field §4.4 (the body of §4.3) does not mark optional may not be
	// omitted (§2 notation): 400 naming it
	for _, c := range []struct{ name, field, code string }{
		{"name", "name", "InvalidName"},
		{"addressLine1", "addressLine1", "InvalidAddressLine1"},
		{"addressCity", "addressCity", "InvalidAddressCity"},
		{"addressPostcode", "addressPostcode", "InvalidAddressPostcode"},
		{"addressCountry", "addressCountry", "InvalidAddressCountry"},
		{"currency", "currency", "InvalidCurrencyId"},
		{"terms", "terms", "InvalidTerms"},
	} {
		r := as(s, a, "PUT", path, fullClient(a, c.name, ""))
		if e := r.errs(t); r.Code != 400 || len(e) != 1 || e[0].FieldName != c.field || e[0].Error != c.code {
			t.Fatalf("without %s: %d %s", c.name, r.Code, r.Body)
		}
	}
	if r := as(s, a, "PUT", path, fullClient(a, "currency", `{}`)); r.Code != 400 || r.errs(t)[0].FieldName != "currency.id" {
		t.Fatalf("without currency.id: %d %s", r.Code, r.Body)
	}
	if as(s, b, "PUT", path, fullClient(a, "name", `"x"`)).Code != 403 || as(s, b, "GET", path, "").Code != 403 {
		t.Fatal("403")
	}
	if as(s, a, "PUT", "/clients/9999", fullClient(a, "name", `"x"`)).Code != 404 {
		t.Fatal("404")
	}
	if call(s, "PUT", path, fullClient(a, "name", `"x"`)).Code != 401 {
		t.Fatal("401")
	}
	if as(s, a, "GET", path, "").obj(t)["name"] != "Renamed" {
		t.Fatal("changed by refused requests")
	}
}

func TestWireForms(t *testing.T) {
	s := newServer(t, "")
	a := accA(s)
	path := "/users/" + itoa(userID(t, s, a))
	for ct, code := range map[string]int{
		"application/json; charset=utf-8": 200, "Application/JSON": 200, "application/json;charset=UTF-8": 200,
		"text/plain": 415, "application/x-www-form-urlencoded": 415,
	} {
		if r := as(s, a, "PUT", path, fullUser(a, "firstName", `"W"`), "Content-Type", ct); r.Code != code {
			t.Fatalf("%s: %d", ct, r.Code)
		}
	}
	for acc, code := range map[string]int{
		"*/*": 200, "application/*": 200, "application/json;q=0.5, text/html": 200, "text/html, */*;q=0.1": 200,
		"text/html": 406, "application/json;q=0": 406, "application/xml": 406,
	} {
		if r := as(s, a, "GET", path, "", "Accept", acc); r.Code != code {
			t.Fatalf("%s: %d", acc, r.Code)
		}
	}
	// member order, whitespace, escapes, unknown members: same result
	r := as(s, a, "PUT", path, "\n {\"unknown\": 1, \"lastName\" :\t\"L\\u00e9on\" ,\"firstName\":\"\\u0041nn\", \"email\" : \""+a.Email+"\"}\n")
	if r.Code != 200 || r.obj(t)["firstName"] != "Ann" || r.obj(t)["lastName"] != "Léon" {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	// member names are case-sensitive: "Name" is not "name"
	if r := as(s, a, "POST", "/clients", clientBody("name", "", "NAME", `"X"`)); r.Code != 400 || !r.hasCode("InvalidName") {
		t.Fatal(string(r.Body))
	}
	// integral float ids
	if r := as(s, a, "POST", "/clients", clientBody("currency", `{"id":2.0}`)); r.Code != 200 {
		t.Fatal(string(r.Body))
	}
	// body limit
	if r := as(s, a, "PUT", path, `{"firstName":"`+strings.Repeat("a", maxBodyBytes)+`"}`); r.Code != 413 {
		t.Fatal(r.Code)
	}
	// empty / null body
	for _, b := range []string{"", "null", "   "} {
		req := httptest.NewRequest("PUT", s.BasePath()+path, strings.NewReader(b))
		req.Header.Set("Authorization", "api-key "+a.APIKey)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != 400 {
			t.Fatalf("%q: %d", b, rec.Code)
		}
	}
	// request id echoed
	if r := as(s, a, "GET", path, "", "X-Request-Id", "abc-123"); r.Hdr.Get("X-Request-Id") != "abc-123" {
		t.Fatal("request id")
	}
	if r := as(s, a, "GET", path, ""); !strings.HasPrefix(r.Hdr.Get("Content-Type"), "application/json") {
		t.Fatal("content type")
	}
}

// TestOverRealHTTP uses a 127.0.0.1 listener for chunked vs Content-Length framing.
func TestOverRealHTTP(t *testing.T) {
	s := newServer(t, "")
	ts := httptest.NewServer(s)
	defer ts.Close()
	a := accA(s)
	for _, chunked := range []bool{false, true} {
		body := `{"name":"Framed","addressLine1":"1","addressCity":"c","addressPostcode":"p","addressCountry":"FR","currency":{"id":1},"terms":"I agree"}`
		var rd io.Reader = strings.NewReader(body)
		if chunked {
			rd = io.MultiReader(strings.NewReader(body[:10]), strings.NewReader(body[10:]))
		}
		req, _ := http.NewRequest("POST", ts.URL+s.BasePath()+"/clients", rd)
		if chunked {
			req.ContentLength = -1
		}
		req.Header.Set("Authorization", "api-key "+a.APIKey)
		req.Header.Set("content-type", "application/json")
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || len(res.TransferEncoding) > 0 && !chunked {
			t.Fatalf("chunked=%v: %d %s", chunked, res.StatusCode, b)
		}
	}
}

func TestConcurrency(t *testing.T) {
	s := newServer(t, "")
	a, b := accA(s), accB(s)
	uids := []int{userID(t, s, a), userID(t, s, b)}
	bClient := clientID(t, s, b)
	// unique app ids
	var wg sync.WaitGroup
	ids := make([]float64, 20)
	for i := range ids {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := as(s, a, "POST", "/apps", validApp)
			var m map[string]any
			_ = json.Unmarshal(r.Body, &m)
			ids[i], _ = m["id"].(float64)
		}(i)
	}
	wg.Wait()
	seen := map[float64]bool{}
	for _, id := range ids {
		if id == 0 || seen[id] {
			t.Fatal("duplicate or missing id", ids)
		}
		seen[id] = true
	}
	// same email on two users: exactly one wins
	codes := make([]int, 2)
	for i, acc := range []Account{a, b} {
		wg.Add(1)
		go func(i int, acc Account) {
			defer wg.Done()
			codes[i] = as(s, acc, "PUT", "/users/"+itoa(uids[i]), fullUser(acc, "email", `"same@example.com"`)).Code
		}(i, acc)
	}
	wg.Wait()
	if codes[0]+codes[1] != 600 {
		t.Fatal(codes)
	}
	// two client updates, each setting one optional field and omitting the
	// other (full bodies otherwise), both land
	path := "/clients/" + itoa(bClient)
	for _, body := range []string{fullClient(b, "addressLine2", `"Floor 3"`), fullClient(b, "vat", `"DE1"`)} {
		wg.Add(1)
		go func(body string) { defer wg.Done(); as(s, b, "PUT", path, body) }(body)
	}
	wg.Wait()
	m := as(s, b, "GET", path, "").obj(t)
	if m["addressLine2"] != "Floor 3" || m["vat"] != "DE1" {
		t.Fatal(m)
	}
}
