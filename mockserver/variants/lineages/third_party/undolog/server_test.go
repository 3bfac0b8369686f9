package undolog

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestNewOptions(t *testing.T) {
	if _, err := New(Options{Pairs: 501}); err == nil {
		t.Error("Pairs 501 accepted")
	}
	if _, err := New(Options{Pairs: -1}); err == nil {
		t.Error("Pairs -1 accepted")
	}
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Error("unknown fault accepted")
	}
	s, err := New(Options{})
	if err != nil || len(s.Accounts()) != 1 || s.BasePath() != "/v1.0" {
		t.Fatalf("defaults: %v %v", err, s)
	}
	s, _ = New(Options{Pairs: 500})
	seen := map[string]bool{}
	for _, p := range s.Accounts() {
		for _, a := range p {
			if seen[a.Email] || seen[a.APIKey] || len(a.Password) < 6 {
				t.Fatalf("bad account %+v", a)
			}
			seen[a.Email], seen[a.APIKey] = true, true
		}
	}
	names := map[string]bool{}
	wrong, legal := 0, 0
	for _, f := range Faults() {
		if names[f.Name] || f.Rule == "" || f.Quote == "" || f.Description == "" {
			t.Errorf("bad fault entry %+v", f)
		}
		names[f.Name] = true
		if f.Legal {
			legal++
		} else {
			wrong++
		}
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Error(err)
		}
	}
	if wrong < 30 || legal < 5 {
		t.Errorf("wrong=%d legal=%d", wrong, legal)
	}
}

func TestSeededAccounts(t *testing.T) {
	e := newEnv(t, "")
	for _, pair := range e.s.Accounts() {
		ua, ca := e.ids(pair[0])
		ub, cb := e.ids(pair[1])
		if ua == ub || ca == cb {
			t.Fatalf("pair shares ids: %d %d %d %d", ua, ub, ca, cb)
		}
		r := e.do("GET", "/clients", "", key(pair[0]))
		cl := r.obj(t)["clients"].([]any)
		if len(cl) != 1 || int64(cl[0].(map[string]any)["id"].(float64)) != ca {
			t.Fatalf("clients of A: %s", r.raw)
		}
	}
}

func TestSessions(t *testing.T) {
	e := newEnv(t, "")
	a := e.acc(0)
	r := e.login(a.Email, a.Password)
	if r.code != 200 {
		t.Fatalf("login: %d %s", r.code, r.raw)
	}
	m := r.obj(t)
	for _, k := range []string{"id", "created", "creatorUserId", "userId", "clientId", "token"} {
		if _, ok := m[k]; !ok {
			t.Errorf("session lacks %s: %s", k, r.raw)
		}
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(m["created"].(string)) {
		t.Errorf("created not ISO 8601: %v", m["created"])
	}
	if r := e.login(strings.ToUpper(a.Email), a.Password); r.code != 200 {
		t.Errorf("email case should not matter: %d", r.code)
	}
	if r := e.login(a.Email, a.Password+"x"); r.code != 401 {
		t.Errorf("wrong password: %d", r.code)
	}
	if r := e.login("nobody@example.com", a.Password); r.code != 401 {
		t.Errorf("unknown email: %d", r.code)
	}
	if r := e.do("POST", "/sessions", `{"email":"`+a.Email+`"}`, nil); r.code != 400 || !slices.Contains(r.codes(t), "password:InvalidPassword") {
		t.Errorf("missing password: %d %s", r.code, r.raw)
	}
	if r := e.do("POST", "/sessions", `{"password":"xxxxxxx"}`, nil); r.code != 400 || !slices.Contains(r.codes(t), "email:InvalidEmail") {
		t.Errorf("missing email: %d %s", r.code, r.raw)
	}
}

func TestAuthentication(t *testing.T) {
	e := newEnv(t, "")
	a := e.acc(0)
	tok := e.token(a)
	cases := []struct {
		name string
		path string
		h    H
		want int
	}{
		{"none", "/clients", nil, 401},
		{"api key", "/clients", key(a), 200},
		{"api key scheme case", "/clients", H{"Authorization": "API-KEY " + a.APIKey}, 200},
		{"bare key", "/clients", H{"Authorization": a.APIKey}, 401},
		{"bearer", "/clients", H{"Authorization": "Bearer " + a.APIKey}, 401},
		{"wrong key", "/clients", H{"Authorization": "api-key 0123"}, 401},
		{"token as api key", "/clients", H{"Authorization": "api-key " + tok}, 401},
		{"session header", "/clients", H{"session-token": tok}, 200},
		{"session header bad", "/clients", H{"session-token": "nope"}, 401},
		{"session query", "/clients?sessionToken=" + tok, nil, 200},
		{"session query bad", "/clients?sessionToken=nope", nil, 401},
		{"api key as token", "/clients", H{"session-token": a.APIKey}, 401},
	}
	for _, c := range cases {
		if r := e.do("GET", c.path, "", c.h); r.code != c.want {
			t.Errorf("%s: got %d want %d (%s)", c.name, r.code, c.want, r.raw)
		} else if r.code == 401 && r.errs(t)[0]["error"] != "Unauthorized" {
			t.Errorf("%s: %s", c.name, r.raw)
		}
	}
	uid, cid := e.ids(a)
	for _, rq := range [][3]string{
		{"PUT", path("/users/%d", uid), js(userBody(nil))},
		{"GET", path("/users/%d", uid), ""},
		{"PUT", path("/clients/%d", cid), js(clientBody(nil))},
		{"POST", "/clients", js(clientBody(nil))},
		{"POST", "/apps", js(appBody(hashAndroid))},
		{"GET", "/apps", ""},
	} {
		if r := e.do(rq[0], rq[1], rq[2], nil); r.code != 401 {
			t.Errorf("%s %s unauthenticated: %d", rq[0], rq[1], r.code)
		}
	}
}

func TestPutUser(t *testing.T) {
	e := newEnv(t, "")
	a, b := e.acc(0), e.acc(1)
	uid, _ := e.ids(a)
	ub, _ := e.ids(b)
	p := path("/users/%d", uid)

	r := e.do("PUT", p, js(userBody(map[string]any{"phoneCountryId": 3, "phoneNumber": "612345678", "phoneExtension": "12"})), key(a))
	if r.code != 200 {
		t.Fatalf("put user: %d %s", r.code, r.raw)
	}
	m := r.obj(t)
	if _, ok := m["password"]; ok {
		t.Error("password returned")
	}
	if m["email"] != "ann.lee@example.org" || m["firstName"] != "Ann" || m["subscribeWelcome"] != true || m["timezone"] != "Europe/Paris" {
		t.Errorf("fields: %s", r.raw)
	}
	pc := m["phoneCountry"].(map[string]any)
	if pc["id"] != 3.0 || pc["dialCode"] != "+33" || pc["name"] != "France (+33)" || m["phoneExtension"] != "12" {
		t.Errorf("phone: %s", r.raw)
	}
	for _, k := range []string{"id", "created", "passwordLastChanged", "lastName", "subscribeBlog", "subscribeHowto", "subscribeOnboarding", "phoneNumber"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing %s", k)
		}
	}
	// null password kept the old one; email changed
	if e.login("ann.lee@example.org", a.Password).code != 200 || e.login(a.Email, a.Password).code != 401 {
		t.Error("email change / null password")
	}
	// session token auth works too
	tok := e.login("ann.lee@example.org", a.Password).obj(t)["token"].(string)
	if r := e.do("GET", p, "", H{"session-token": tok}); r.code != 200 || r.obj(t)["lastName"] != "Lee" {
		t.Errorf("get user: %d %s", r.code, r.raw)
	}
	// password change
	if r := e.do("PUT", p, js(userBody(map[string]any{"password": " new pass é "})), key(a)); r.code != 200 {
		t.Fatalf("password change: %d %s", r.code, r.raw)
	}
	if e.login("ann.lee@example.org", " new pass é ").code != 200 || e.login("ann.lee@example.org", a.Password).code != 401 {
		t.Error("password change not effective")
	}

	bad := []struct {
		over map[string]any
		want string
	}{
		{map[string]any{"email": "not-an-email"}, "email:InvalidEmail"},
		{map[string]any{"email": nil}, "email:InvalidEmail"},
		{map[string]any{"email": "<absent>"}, "email:InvalidEmail"},
		{map[string]any{"email": b.Email}, "email:InvalidEmail"},
		{map[string]any{"email": strings.ToUpper(b.Email)}, "email:InvalidEmail"},
		{map[string]any{"password": "12345"}, "password:InvalidPassword"},
		{map[string]any{"password": 123456}, "password:InvalidPassword"},
		{map[string]any{"password": "<absent>"}, "password:InvalidPassword"},
		{map[string]any{"firstName": ""}, "firstName:InvalidFirstName"},
		{map[string]any{"firstName": "<absent>"}, "firstName:InvalidFirstName"},
		{map[string]any{"lastName": nil}, "lastName:InvalidLastName"},
		{map[string]any{"lastName": strings.Repeat("x", 256)}, "lastName:InvalidLastName"},
		{map[string]any{"subscribeBlog": "true"}, "subscribeBlog:InvalidSubscribeBlog"},
		{map[string]any{"subscribeHowto": "<absent>"}, "subscribeHowto:InvalidSubscribeHowto"},
		{map[string]any{"timezone": "Paris"}, "timezone:InvalidTimezone"},
		{map[string]any{"phoneCountryId": 99}, "phoneCountryId:InvalidPhoneCountryId"},
		{map[string]any{"phoneNumber": ""}, "phoneNumber:InvalidPhoneNumber"},
		{map[string]any{"phoneExtension": "ext 1"}, "phoneExtension:InvalidPhoneExtension"},
		{map[string]any{"client": "yes"}, "client:InvalidClient"},
		{map[string]any{"client": map[string]any{"terms": "I agree"}}, "client.name:InvalidName"},
	}
	for _, c := range bad {
		r := e.do("PUT", p, js(userBody(c.over)), key(a))
		if r.code != 400 || !slices.Contains(r.codes(t), c.want) {
			t.Errorf("%v: %d %s", c.over, r.code, r.raw)
		}
		if m := r.errs(t)[0]; m["message"] == "" {
			t.Errorf("no message: %s", r.raw)
		}
	}
	// all errors are collected
	r = e.do("PUT", p, `{}`, key(a))
	if r.code != 400 || len(r.errs(t)) != 9 {
		t.Errorf("empty body errors: %s", r.raw)
	}
	// 255 characters (not bytes), names read back as sent, escapes decoded
	long := strings.Repeat("é", 255)
	r = e.do("PUT", p, js(userBody(map[string]any{"firstName": long, "lastName": "  Spaced  "})), key(a))
	if r.code != 200 || r.obj(t)["firstName"] != long || r.obj(t)["lastName"] != "  Spaced  " {
		t.Errorf("unicode/space names: %d", r.code)
	}
	r = e.do("PUT", p, strings.Replace(js(userBody(nil)), `"Ann"`, `"Jos\u00e9 \"J\""`, 1), key(a))
	if r.code != 200 || r.obj(t)["firstName"] != `José "J"` {
		t.Errorf("escapes: %s", r.raw)
	}
	// permissions and lookups
	if r := e.do("PUT", path("/users/%d", ub), js(userBody(map[string]any{"email": "x@example.org"})), key(a)); r.code != 403 {
		t.Errorf("other user: %d", r.code)
	}
	if r := e.do("GET", path("/users/%d", ub), "", key(a)); r.code != 403 {
		t.Errorf("get other user: %d", r.code)
	}
	for _, bad := range []string{"/users/999999", "/users/abc", "/users/0", "/users/-1", "/users/1.5"} {
		if r := e.do("PUT", bad, js(userBody(nil)), key(a)); r.code != 404 {
			t.Errorf("%s: %d", bad, r.code)
		}
	}
	// percent-encoded digits are the same path
	enc := ""
	for _, ch := range path("%d", uid) {
		enc += "%3" + string(ch)
	}
	if r := e.do("GET", "/users/"+enc, "", key(a)); r.code != 200 {
		t.Errorf("encoded path: %d", r.code)
	}
	// order: 403 comes before 400
	if r := e.do("PUT", path("/users/%d", ub), `{}`, key(a)); r.code != 403 {
		t.Errorf("403 before 400: %d", r.code)
	}
}

func TestPutUserWithClient(t *testing.T) {
	e := newEnv(t, "")
	a := e.acc(0)
	uid, cid := e.ids(a)
	r := e.do("PUT", path("/users/%d", uid), js(userBody(map[string]any{"client": clientBody(map[string]any{"app": appBody(hashIOS)})})), key(a))
	if r.code != 200 || r.obj(t)["id"] != float64(uid) {
		t.Fatalf("put user with client: %d %s", r.code, r.raw)
	}
	cl := e.do("GET", "/clients", "", key(a)).obj(t)["clients"].([]any)
	apps := e.do("GET", "/apps", "", key(a)).obj(t)["apps"].([]any)
	if len(cl) != 2 || len(apps) != 1 {
		t.Fatalf("clients %d apps %d", len(cl), len(apps))
	}
	// primary client unchanged
	if e.login("ann.lee@example.org", a.Password).obj(t)["clientId"] != float64(cid) {
		t.Error("primary client changed")
	}
	// refused request changes nothing: user fields, email index, client
	before := e.do("GET", path("/users/%d", uid), "", key(a)).raw
	r = e.do("PUT", path("/users/%d", uid), js(userBody(map[string]any{"email": "other@example.org", "firstName": "Zed",
		"password": "newpassword", "client": clientBody(map[string]any{"app": appBody(hashUnknown)})})), key(a))
	if r.code != 404 {
		t.Fatalf("unknown hash inside client: %d %s", r.code, r.raw)
	}
	if r.errs(t)[0]["fieldName"] != "client.app.marketapp.hash" {
		t.Errorf("nested field name: %s", r.raw)
	}
	if after := e.do("GET", path("/users/%d", uid), "", key(a)).raw; after != before {
		t.Errorf("user changed by refused request:\n%s\n%s", before, after)
	}
	if e.login("ann.lee@example.org", a.Password).code != 200 || e.login("other@example.org", "newpassword").code != 401 {
		t.Error("login changed by refused request")
	}
	if n := len(e.do("GET", "/clients", "", key(a)).obj(t)["clients"].([]any)); n != 2 {
		t.Errorf("clients after refused request: %d", n)
	}
}

func TestPostUsers(t *testing.T) {
	e := newEnv(t, "")
	body := userBody(map[string]any{"email": "new.user@example.org", "password": "hunter22"})
	r := e.do("POST", "/users", js(body), nil)
	if r.code != 200 {
		t.Fatalf("post users: %d %s", r.code, r.raw)
	}
	if _, ok := r.obj(t)["password"]; ok {
		t.Error("password returned")
	}
	lr := e.login("new.user@example.org", "hunter22")
	if lr.code != 200 || lr.obj(t)["clientId"] != nil {
		t.Errorf("login new user: %s", lr.raw)
	}
	tok := lr.obj(t)["token"].(string)
	if r := e.do("POST", "/apps", js(appBody(hashAndroid)), H{"session-token": tok}); r.code != 403 {
		t.Errorf("app without client: %d", r.code)
	}
	if r := e.do("POST", "/users", js(body), nil); r.code != 400 || r.codes(t)[0] != "email:InvalidEmail" {
		t.Errorf("duplicate email: %s", r.raw)
	}
	if r := e.do("POST", "/users", js(userBody(map[string]any{"email": "n2@example.org"})), nil); r.code != 400 || r.codes(t)[0] != "password:InvalidPassword" {
		t.Errorf("null password on create: %s", r.raw)
	}
	// with client and app
	body = userBody(map[string]any{"email": "owner@example.org", "password": "hunter22", "client": clientBody(map[string]any{"app": appBody(hashAndroid)})})
	if r := e.do("POST", "/users", js(body), nil); r.code != 200 {
		t.Fatalf("with client: %d %s", r.code, r.raw)
	}
	tok = e.login("owner@example.org", "hunter22").obj(t)["token"].(string)
	if n := len(e.do("GET", "/apps", "", H{"session-token": tok}).obj(t)["apps"].([]any)); n != 1 {
		t.Errorf("apps: %d", n)
	}
	// refused: neither user nor client
	body = userBody(map[string]any{"email": "ghost@example.org", "password": "hunter22", "client": clientBody(map[string]any{"terms": "no"})})
	if r := e.do("POST", "/users", js(body), nil); r.code != 400 || r.codes(t)[0] != "client.terms:InvalidTerms" {
		t.Errorf("bad client: %s", r.raw)
	}
	if e.login("ghost@example.org", "hunter22").code != 401 {
		t.Error("user created by refused request")
	}
}

func TestClients(t *testing.T) {
	e := newEnv(t, "")
	a, b := e.acc(0), e.acc(1)
	_, cid := e.ids(a)
	_, cb := e.ids(b)
	r := e.do("POST", "/clients", js(clientBody(map[string]any{"vat": "FR123", "addressLine2": "Bât. B"})), key(a))
	if r.code != 200 {
		t.Fatalf("post client: %d %s", r.code, r.raw)
	}
	m := r.obj(t)
	cur := m["currency"].(map[string]any)
	if m["name"] != "Acme Games" || m["vat"] != "FR123" || m["addressLine2"] != "Bât. B" || cur["id"] != 2.0 || cur["code"] != "EUR" || m["createdDate"] == nil {
		t.Errorf("client: %s", r.raw)
	}
	newID := int64(m["id"].(float64))
	if r := e.do("GET", path("/clients/%d", newID), "", key(a)); r.code != 200 || r.obj(t)["name"] != "Acme Games" {
		t.Errorf("get client: %d", r.code)
	}
	if r := e.do("GET", path("/clients/%d", newID), "", key(b)); r.code != 403 {
		t.Errorf("get other client: %d", r.code)
	}
	// with app: both
	r = e.do("POST", "/clients", js(clientBody(map[string]any{"app": appBody(hashIOS)})), key(a))
	if r.code != 200 {
		t.Fatalf("client with app: %d %s", r.code, r.raw)
	}
	// with a bad app: neither
	n := len(e.do("GET", "/clients", "", key(a)).obj(t)["clients"].([]any))
	for _, app := range []any{map[string]any{"marketapp": map[string]any{"hash": hashIOS}}, appBody(hashUnknown), "x"} {
		r = e.do("POST", "/clients", js(clientBody(map[string]any{"app": app})), key(a))
		if r.code != 400 && r.code != 404 {
			t.Errorf("bad app: %d %s", r.code, r.raw)
		}
	}
	if n2 := len(e.do("GET", "/clients", "", key(a)).obj(t)["clients"].([]any)); n2 != n {
		t.Errorf("client created by refused request: %d -> %d", n, n2)
	}
	bad := []struct {
		over map[string]any
		want string
	}{
		{map[string]any{"name": "<absent>"}, "name:InvalidName"},
		{map[string]any{"name": ""}, "name:InvalidName"},
		{map[string]any{"name": nil}, "name:InvalidName"},
		{map[string]any{"name": 5}, "name:InvalidName"},
		{map[string]any{"name": strings.Repeat("n", 256)}, "name:InvalidName"},
		{map[string]any{"addressLine1": "<absent>"}, "addressLine1:InvalidAddressLine1"},
		{map[string]any{"addressCity": ""}, "addressCity:InvalidAddressCity"},
		{map[string]any{"addressPostcode": nil}, "addressPostcode:InvalidAddressPostcode"},
		{map[string]any{"addressCountry": "<absent>"}, "addressCountry:InvalidAddressCountry"},
		{map[string]any{"addressLine2": 7}, "addressLine2:InvalidAddressLine2"},
		{map[string]any{"vat": strings.Repeat("v", 256)}, "vat:InvalidVat"},
		{map[string]any{"currency": map[string]any{"id": 99}}, "currency.id:InvalidCurrencyId"},
		{map[string]any{"currency": map[string]any{"id": "2"}}, "currency.id:InvalidCurrencyId"},
		{map[string]any{"currency": "<absent>"}, "currency:InvalidCurrencyId"},
		{map[string]any{"terms": "i agree"}, "terms:InvalidTerms"},
		{map[string]any{"terms": "<absent>"}, "terms:InvalidTerms"},
	}
	for _, c := range bad {
		for _, rq := range [][2]string{{"POST", "/clients"}, {"PUT", path("/clients/%d", cid)}} {
			r := e.do(rq[0], rq[1], js(clientBody(c.over)), key(a))
			if r.code != 400 || !slices.Contains(r.codes(t), c.want) {
				t.Errorf("%s %v: %d %s", rq[0], c.over, r.code, r.raw)
			}
		}
	}
	// PUT
	p := path("/clients/%d", cid)
	if r := e.do("PUT", p, js(clientBody(map[string]any{"vat": "GB1", "addressLine2": "Flat 2", "currency": map[string]any{"id": 3.0}})), key(a)); r.code != 200 || r.obj(t)["vat"] != "GB1" {
		t.Errorf("put client: %d %s", r.code, r.raw)
	}
	r = e.do("PUT", p, js(clientBody(map[string]any{"name": "  Renamed é  "})), key(a))
	if r.code != 200 || r.obj(t)["name"] != "  Renamed é  " || r.obj(t)["vat"] != nil || r.obj(t)["addressLine2"] != nil {
		t.Errorf("put replaces; omitted optionals cleared: %s", r.raw)
	}
	if r := e.do("PUT", p, js(clientBody(map[string]any{"name": strings.Repeat("é", 255)})), key(a)); r.code != 200 {
		t.Errorf("255 characters: %d", r.code)
	}
	if r := e.do("PUT", p, js(clientBody(map[string]any{"app": appBody(hashIOS)})), key(a)); r.code != 400 || r.codes(t)[0] != "app:AppNotAllowed" {
		t.Errorf("app on PUT: %s", r.raw)
	}
	if r := e.do("PUT", p, js(clientBody(map[string]any{"app": nil})), key(a)); r.code != 400 {
		t.Errorf("app null on PUT: %s", r.raw)
	}
	if r := e.do("PUT", path("/clients/%d", cb), js(clientBody(nil)), key(a)); r.code != 403 {
		t.Errorf("other client: %d", r.code)
	}
	if r := e.do("PUT", "/clients/9999999", js(clientBody(nil)), key(a)); r.code != 404 {
		t.Errorf("missing client: %d", r.code)
	}
	if r := e.do("PUT", p, js(clientBody(nil)), nil); r.code != 401 {
		t.Errorf("anonymous: %d", r.code)
	}
}

func TestApps(t *testing.T) {
	e := newEnv(t, "")
	a, b := e.acc(0), e.acc(1)
	r := e.do("POST", "/apps", js(appBody(strings.ToUpper(hashAndroid))), key(a))
	if r.code != 200 {
		t.Fatalf("post app: %d %s", r.code, r.raw)
	}
	m := r.obj(t)
	if m["name"] != "Puzzle Quest Saga" || m["platform"].(map[string]any)["name"] != "Android" ||
		m["marketapp"].(map[string]any)["hash"] != hashAndroid || m["plan"].(map[string]any)["isLite"] != true ||
		!regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(m["writeKey"].(string)) {
		t.Errorf("app: %s", r.raw)
	}
	id := int64(m["id"].(float64))
	if r := e.do("GET", path("/apps/%d", id), "", key(a)); r.code != 200 {
		t.Errorf("get app: %d", r.code)
	}
	if r := e.do("GET", path("/apps/%d", id), "", key(b)); r.code != 403 {
		t.Errorf("other's app: %d", r.code)
	}
	if r := e.do("GET", "/apps/1", "", key(b)); r.code != 404 {
		t.Errorf("missing app: %d", r.code)
	}
	if n := len(e.do("GET", "/apps", "", key(b)).obj(t)["apps"].([]any)); n != 0 {
		t.Errorf("B sees %d apps", n)
	}
	// by name and platform
	r = e.do("POST", "/apps", `{"marketapp":{},"name":"My App","platform":{"id":2},"nextplan":{"id":3}}`, key(a))
	if r.code != 200 || r.obj(t)["name"] != "My App" || r.obj(t)["platform"].(map[string]any)["name"] != "iOS" || r.obj(t)["plan"].(map[string]any)["needBilling"] != true {
		t.Errorf("by name: %d %s", r.code, r.raw)
	}
	bad := []struct {
		body string
		code int
		want string
	}{
		{`{"nextplan":{"id":1}}`, 400, "name:InvalidName"},
		{`{"marketapp":{"hash":null},"name":null,"platform":{"id":null},"nextplan":{"id":1}}`, 400, "name:InvalidName"},
		{`{"name":"X","platform":{"id":9},"nextplan":{"id":1}}`, 400, "platform.id:InvalidPlatformId"},
		{`{"marketapp":{"hash":"abc"},"nextplan":{"id":1}}`, 400, "marketapp.hash:InvalidMarketappHash"},
		{`{"marketapp":{"hash":"` + strings.Repeat("g", 40) + `"},"nextplan":{"id":1}}`, 400, "marketapp.hash:InvalidMarketappHash"},
		{`{"marketapp":"x","nextplan":{"id":1}}`, 400, "marketapp:InvalidMarketapp"},
		{`{"marketapp":{"hash":"` + hashIOS + `"}}`, 400, "nextplan:InvalidNextplanId"},
		{`{"marketapp":{"hash":"` + hashIOS + `"},"nextplan":{"id":7}}`, 400, "nextplan.id:InvalidNextplanId"},
		{`{"marketapp":{"hash":"` + hashUnknown + `"},"nextplan":{"id":1}}`, 404, "marketapp.hash:MarketappNotFound"},
	}
	for _, c := range bad {
		r := e.do("POST", "/apps", c.body, key(a))
		if r.code != c.code || !slices.Contains(r.codes(t), c.want) {
			t.Errorf("%s: %d %s", c.body, r.code, r.raw)
		}
	}
}

func TestCatalogues(t *testing.T) {
	e := newEnv(t, "")
	for p, k := range map[string]string{"/platforms": "platforms", "/currencies": "currencies", "/plans": "plans", "/phone-countries": "phoneCountries", "/marketapps": "marketapps"} {
		r := e.do("GET", p, "", nil)
		if r.code != 200 {
			t.Fatalf("%s: %d", p, r.code)
		}
		items, ok := r.obj(t)[k].([]any)
		if !ok || len(items) == 0 {
			t.Errorf("%s: %s", p, r.raw)
		}
	}
	if !strings.Contains(e.do("GET", "/marketapps", "", nil).raw, hashAndroid) {
		t.Error("marketapp hash not listed")
	}
	for _, m := range marketapps {
		if !hashRe.MatchString(m.Hash) || strings.ToLower(m.Hash) != m.Hash {
			t.Errorf("bad catalogue hash %s", m.Hash)
		}
	}
}

func TestWireForms(t *testing.T) {
	e := newEnv(t, "")
	a := e.acc(0)
	_, cid := e.ids(a)
	p := path("/clients/%d", cid)
	body := js(clientBody(nil))
	for _, ct := range []string{"application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8"} {
		h := key(a)
		h["Content-Type"] = ct
		if r := e.do("PUT", p, body, h); r.code != 200 {
			t.Errorf("content-type %q: %d", ct, r.code)
		}
	}
	h := key(a)
	h["Content-Type"] = "text/plain"
	if r := e.do("PUT", p, body, h); r.code != 415 {
		t.Errorf("text/plain: %d", r.code)
	}
	h = key(a)
	h["Content-Type"] = ""
	if r := e.do("PUT", p, body, h); r.code != 200 {
		t.Errorf("no content-type: %d", r.code)
	}
	// chunked over a real connection
	srv := httptest.NewServer(e.s)
	defer srv.Close()
	pr, pw := io.Pipe()
	go func() { pw.Write([]byte(body)); pw.Close() }()
	req, _ := http.NewRequest("PUT", srv.URL+e.s.BasePath()+p, pr)
	req.Header.Set("Authorization", "api-key "+a.APIKey)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("chunked: %d", res.StatusCode)
	}
	// JSON whitespace, member order, escapes, duplicate keys (last wins), 2.0
	raw := " {\n\t\"terms\" : \"I \\u0061gree\", \"currency\": { \"id\" : 2.0 },\"addressCountry\":\"FR\",\"addressPostcode\":\"1\",\"addressCity\":\"P\",\"addressLine1\":\"L\",\"name\":\"x\",\"name\":\"\\u00c9lan\" }\n"
	if r := e.do("PUT", p, raw, key(a)); r.code != 200 || r.obj(t)["name"] != "Élan" {
		t.Errorf("json forms: %d %s", r.code, r.raw)
	}
	for _, b := range []string{"{", "[]", "null", `"x"`, `{"name":"x"} {}`, ""} {
		r := e.do("PUT", p, b, key(a))
		if r.code != 400 || r.codes(t)[0] != ":InvalidBody" {
			t.Errorf("body %q: %d %s", b, r.code, r.raw)
		}
	}
	if r := e.do("PUT", p, `{"name":"`+strings.Repeat("x", maxBody)+`"}`, key(a)); r.code != 413 {
		t.Errorf("large body: %d", r.code)
	}
	if r := e.do("DELETE", p, "", key(a)); r.code != 405 || r.hdr.Get("Allow") == "" {
		t.Errorf("405: %d", r.code)
	}
	for _, u := range []string{"/nope", "/clients/", "!/clients", "!/v1/clients", "!/v1.0"} {
		if r := e.do("GET", u, "", key(a)); r.code != 404 || r.errs(t)[0]["error"] != "NotFound" {
			t.Errorf("%s: %d", u, r.code)
		}
	}
	if r := e.do("GET", "/clients", "", key(a)); !strings.HasPrefix(r.hdr.Get("Content-Type"), "application/json") {
		t.Errorf("content type %q", r.hdr.Get("Content-Type"))
	}
}

func TestConcurrencyCorrect(t *testing.T) {
	e := newEnv(t, "")
	a, b := e.acc(0), e.acc(1)
	ua, _ := e.ids(a)
	ub, _ := e.ids(b)
	for i := 0; i < 5; i++ {
		email := path("race%d@example.org", i)
		var wg sync.WaitGroup
		codes := make([]int, 2)
		for j, x := range []struct {
			acc Account
			id  int64
		}{{a, ua}, {b, ub}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[j] = e.do("PUT", path("/users/%d", x.id), js(userBody(map[string]any{"email": email})), key(x.acc)).code
			}()
		}
		wg.Wait()
		slices.Sort(codes)
		if codes[0] != 200 || codes[1] != 400 {
			t.Fatalf("email race: %v", codes)
		}
	}
	ids := map[float64]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.do("POST", "/apps", js(appBody(hashIOS)), key(a))
			mu.Lock()
			ids[r.obj(t)["id"].(float64)] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(ids) != 20 {
		t.Errorf("duplicate app ids: %d", len(ids))
	}
}
