package snapshots

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineagetest"
)

// ---- harness --------------------------------------------------------------

type tenv struct {
	t    *testing.T
	s    *Server
	srv  *httptest.Server
	base string
	acc  [][2]Account
	cat  map[string][]map[string]any
}

func newEnv(t *testing.T, pairs int) *tenv {
	t.Helper()
	s, err := New(Options{Pairs: pairs})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	e := &tenv{t: t, s: s, srv: srv, base: srv.URL + s.BasePath(), acc: s.Accounts(), cat: map[string][]map[string]any{}}
	key := e.acc[0][0].APIKey
	for path, prop := range map[string]string{"/platforms": "platforms", "/currencies": "currencies", "/subscription-plans": "subscriptionPlans", "/phone-countries": "phoneCountries"} {
		st, body, _ := e.do(rq{method: "GET", path: path, key: key})
		if st != 200 {
			t.Fatalf("GET %s: %d", path, st)
		}
		for _, it := range obj(t, body)[prop].([]any) {
			e.cat[prop] = append(e.cat[prop], it.(map[string]any))
		}
	}
	return e
}

// catID returns the id of the catalog item whose field equals value.
func (e *tenv) catID(prop, field, value string) json.Number {
	for _, it := range e.cat[prop] {
		if it[field] == value {
			return it["id"].(json.Number)
		}
	}
	e.t.Fatalf("no %s with %s=%s", prop, field, value)
	return ""
}

type rq struct {
	method, path string
	body         any // string is sent raw, anything else is marshalled
	hdr          map[string]string
	key, token   string
	noCT         bool
}

func (e *tenv) do(r rq) (int, []byte, http.Header) {
	e.t.Helper()
	req, err := http.NewRequest(r.method, e.base+r.path, lineagetest.Body(r.body))
	if err != nil {
		e.t.Fatal(err)
	}
	if r.body != nil && !r.noCT {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.key != "" {
		req.Header.Set("Authorization", "api-key "+r.key)
	}
	if r.token != "" {
		req.Header.Set("session-token", r.token)
	}
	for k, v := range r.hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("bad JSON %q: %v", b, err)
	}
	return v
}

func obj(t *testing.T, b []byte) map[string]any {
	t.Helper()
	m, ok := decode(t, b).(map[string]any)
	if !ok {
		t.Fatalf("not an object: %s", b)
	}
	return m
}

// codes returns the "fieldName:error" pairs of a 400 body, checking its shape.
func codes(t *testing.T, b []byte) []string {
	t.Helper()
	arr, ok := decode(t, b).([]any)
	if !ok || len(arr) == 0 {
		t.Fatalf("400 body is not a non-empty array: %s", b)
	}
	var out []string
	for _, x := range arr {
		m := x.(map[string]any)
		if len(m) != 3 {
			t.Fatalf("error element has %d fields: %v", len(m), m)
		}
		f, ok1 := m["fieldName"].(string)
		c, ok2 := m["error"].(string)
		_, ok3 := m["message"].(string)
		if !ok1 || !ok2 || !ok3 {
			t.Fatalf("bad error element %v", m)
		}
		out = append(out, f+":"+c)
	}
	return out
}

func hasCode(list []string, want string) bool {
	for _, c := range list {
		if c == want {
			return true
		}
	}
	return false
}

type login struct {
	token    string
	userID   string
	clientID string
}

func (e *tenv) login(a Account) login {
	e.t.Helper()
	st, b, _ := e.do(rq{method: "POST", path: "/sessions", body: map[string]any{"email": a.Email, "password": a.Password}})
	if st != 200 {
		e.t.Fatalf("login %s: %d %s", a.Email, st, b)
	}
	m := obj(e.t, b)
	return login{token: m["token"].(string), userID: m["userId"].(json.Number).String(), clientID: m["clientId"].(json.Number).String()}
}

func (e *tenv) fullUser(email string) map[string]any {
	return map[string]any{
		"email": email, "firstName": "Ada", "lastName": "Lovelace",
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false,
		"timezone": "Europe/Berlin", "password": nil,
		"phoneCountryId": e.catID("phoneCountries", "dialCode", "+49"), "phoneNumber": "3012345678", "phoneExtension": "42",
	}
}

func (e *tenv) fullClient(name string) map[string]any {
	return map[string]any{
		"name": name, "addressLine1": "1 Main St", "addressLine2": "Floor 2", "addressCity": "Berlin",
		"addressPostcode": "10115", "addressCountry": "DE", "vat": "DE123456789",
		"currency": map[string]any{"id": e.catID("currencies", "code", "EUR")}, "terms": "I agree",
	}
}

func (e *tenv) appByName(name string) map[string]any {
	return map[string]any{
		"marketapp": map[string]any{}, "name": name,
		"platform": map[string]any{"id": e.catID("platforms", "name", "iOS")},
		"nextplan": map[string]any{"id": e.catID("subscriptionPlans", "name", "Pro")},
	}
}

func (e *tenv) appByHash(hash string) map[string]any {
	return map[string]any{
		"marketapp": map[string]any{"hash": hash}, "name": nil,
		"platform": map[string]any{"id": nil},
		"nextplan": map[string]any{"id": e.catID("subscriptionPlans", "name", "Lite")},
	}
}

func with(m map[string]any, kv ...any) map[string]any { return lineagetest.With(m, "<absent>", kv...) }

var isoRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}$`)

// ---- construction ---------------------------------------------------------

func TestNewOptions(t *testing.T) {
	for _, tc := range []struct {
		opts  Options
		pairs int
		ok    bool
	}{
		{Options{}, 1, true},
		{Options{Pairs: 3}, 3, true},
		{Options{Pairs: 1000}, 1000, true},
		{Options{Pairs: -1}, 0, false},
		{Options{Pairs: 1001}, 0, false},
		{Options{Fault: "slow"}, 0, false},
	} {
		s, err := New(tc.opts)
		if (err == nil) != tc.ok {
			t.Fatalf("%+v: err=%v", tc.opts, err)
		}
		if !tc.ok {
			continue
		}
		acc := s.Accounts()
		if len(acc) != tc.pairs {
			t.Fatalf("%+v: %d pairs", tc.opts, len(acc))
		}
		seen := map[string]bool{}
		for _, p := range acc {
			for _, a := range p {
				if seen[a.Email] || seen[a.APIKey] || a.Password == "" {
					t.Fatalf("duplicate or empty credentials %+v", a)
				}
				seen[a.Email], seen[a.APIKey] = true, true
			}
		}
		if s.BasePath() != "/pricing/v1.0" {
			t.Fatal(s.BasePath())
		}
	}
}

// ---- authentication -------------------------------------------------------

func TestAuthentication(t *testing.T) {
	e := newEnv(t, 2)
	a, b := e.acc[0][0], e.acc[0][1]
	la, lb := e.login(a), e.login(b)
	cases := []struct {
		name string
		r    rq
		want int
	}{
		{"api key", rq{key: a.APIKey}, 200},
		{"session header", rq{token: la.token}, 200},
		{"session query", rq{path: "?sessionToken=" + la.token}, 200},
		{"key and own token", rq{key: a.APIKey, token: la.token}, 200},
		{"nothing", rq{}, 401},
		{"scheme case", rq{hdr: map[string]string{"Authorization": "API-KEY " + a.APIKey}}, 401},
		{"bearer", rq{hdr: map[string]string{"Authorization": "Bearer " + a.APIKey}}, 401},
		{"raw key", rq{hdr: map[string]string{"Authorization": a.APIKey}}, 401},
		{"wrong key", rq{key: "nope"}, 401},
		{"wrong token", rq{token: "nope"}, 401},
		{"empty token", rq{hdr: map[string]string{"session-token": ""}}, 401},
		{"wrong query token", rq{path: "?sessionToken=nope"}, 401},
		{"good key bad token", rq{key: a.APIKey, token: "nope"}, 401},
		{"key of A token of B", rq{key: a.APIKey, token: lb.token}, 401},
		{"two query tokens", rq{path: "?sessionToken=" + la.token + "&sessionToken=" + la.token}, 401},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			r.method, r.path = "GET", "/platforms"+tc.r.path
			st, body, h := e.do(r)
			if st != tc.want {
				t.Fatalf("got %d want %d", st, tc.want)
			}
			if st == 401 && (len(body) != 0 || h.Get("WWW-Authenticate") == "") {
				t.Fatalf("401 answer: body %q challenge %q", body, h.Get("WWW-Authenticate"))
			}
		})
	}
	// Every endpoint but POST /sessions needs credentials.
	for _, ep := range []rq{
		{method: "GET", path: ""}, {method: "GET", path: "/clients"}, {method: "GET", path: "/apps"},
		{method: "GET", path: "/currencies"}, {method: "POST", path: "/apps", body: map[string]any{}},
		{method: "POST", path: "/clients", body: map[string]any{}}, {method: "POST", path: "/users", body: map[string]any{}},
		{method: "PUT", path: "/users/" + la.userID, body: map[string]any{}},
		{method: "PUT", path: "/clients/" + la.clientID, body: map[string]any{}},
	} {
		if st, _, _ := e.do(ep); st != 401 {
			t.Fatalf("%s %s unauthenticated: %d", ep.method, ep.path, st)
		}
	}
}

func TestLogin(t *testing.T) {
	e := newEnv(t, 1)
	a := e.acc[0][0]
	st, body, _ := e.do(rq{method: "POST", path: "/sessions", body: map[string]any{"email": a.Email, "password": a.Password}})
	if st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	m := obj(t, body)
	for _, f := range []string{"id", "creatorUserId", "userId", "clientId"} {
		if _, ok := m[f].(json.Number); !ok {
			t.Fatalf("%s missing: %v", f, m)
		}
	}
	if !isoRE.MatchString(m["created"].(string)) || m["token"].(string) == "" {
		t.Fatalf("bad session %v", m)
	}
	cases := []struct {
		name string
		r    rq
		want int
		code string
	}{
		{"wrong password", rq{body: map[string]any{"email": a.Email, "password": a.Password + "x"}}, 401, ""},
		{"unknown email", rq{body: map[string]any{"email": "x" + a.Email, "password": a.Password}}, 401, ""},
		{"email other case", rq{body: map[string]any{"email": strings.ToLower(a.Email), "password": a.Password}}, 401, ""},
		{"missing email", rq{body: map[string]any{"password": a.Password}}, 400, "email:InvalidEmail"},
		{"missing password", rq{body: map[string]any{"email": a.Email}}, 400, "password:InvalidPassword"},
		{"password number", rq{body: map[string]any{"email": a.Email, "password": 123456}}, 400, "password:InvalidPassword"},
		{"extra field", rq{body: map[string]any{"email": a.Email, "password": a.Password, "x": 1}}, 400, "x:UnknownField"},
		{"not json", rq{body: "{email"}, 400, ":InvalidJson"},
		{"array", rq{body: "[]"}, 400, ":InvalidBody"},
		{"no content type", rq{body: map[string]any{"email": a.Email, "password": a.Password}, noCT: true}, 415, ""},
		{"text content type", rq{body: map[string]any{"email": a.Email, "password": a.Password}, hdr: map[string]string{"Content-Type": "text/plain"}}, 415, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			r.method, r.path = "POST", "/sessions"
			st, body, _ := e.do(r)
			if st != tc.want {
				t.Fatalf("got %d want %d: %s", st, tc.want, body)
			}
			if tc.code != "" && !hasCode(codes(t, body), tc.code) {
				t.Fatalf("want %s in %s", tc.code, body)
			}
		})
	}
}

// ---- users ----------------------------------------------------------------

func TestUpdateUser(t *testing.T) {
	e := newEnv(t, 2)
	a, b := e.acc[0][0], e.acc[0][1]
	la, lb := e.login(a), e.login(b)
	put := func(id string, body any, key string) (int, []byte) {
		st, out, _ := e.do(rq{method: "PUT", path: "/users/" + id, body: body, key: key})
		return st, out
	}
	base := e.fullUser(a.Email)

	st, body := put(la.userID, base, a.APIKey)
	if st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	u := obj(t, body)
	for _, f := range []string{"id", "created", "email", "passwordLastChanged", "firstName", "lastName", "subscribeWelcome",
		"subscribeBlog", "subscribeHowto", "subscribeOnboarding", "phoneCountry", "phoneNumber", "phoneExtension", "timezone"} {
		if _, ok := u[f]; !ok {
			t.Fatalf("user lacks %s: %s", f, body)
		}
	}
	if _, ok := u["password"]; ok || strings.Contains(string(body), a.Password) {
		t.Fatal("password leaked")
	}
	pc := u["phoneCountry"].(map[string]any)
	if pc["dialCode"] != "+49" || !strings.Contains(pc["name"].(string), "(+49)") {
		t.Fatalf("phone country %v", pc)
	}
	if u["firstName"] != "Ada" || u["phoneExtension"] != "42" || !isoRE.MatchString(u["created"].(string)) {
		t.Fatalf("user %v", u)
	}

	long := strings.Repeat("é", 255)
	tooLong := strings.Repeat("é", 256)
	longEmail := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 60) + "." + strings.Repeat("c", 60) + "." + strings.Repeat("d", 63) + ".test"
	if len(longEmail) != 255 {
		t.Fatal(len(longEmail))
	}
	cases := []struct {
		name string
		body map[string]any
		code string // "" means 200
	}{
		{"email invalid", with(base, "email", "not-an-email"), "email:InvalidEmail"},
		{"email missing", with(base, "email", "<absent>"), "email:InvalidEmail"},
		{"email number", with(base, "email", 5), "email:InvalidEmail"},
		{"email of B", with(base, "email", b.Email), "email:InvalidEmail"},
		{"email 256", with(base, "email", "a"+longEmail), "email:InvalidEmail"},
		{"email 255", with(base, "email", longEmail), ""},
		{"password short", with(base, "password", "12345"), "password:InvalidPassword"},
		{"password number", with(base, "password", 123456), "password:InvalidPassword"},
		{"password missing", with(base, "password", "<absent>"), "password:InvalidPassword"},
		{"firstName missing", with(base, "firstName", "<absent>"), "firstName:InvalidFirstName"},
		{"firstName empty", with(base, "firstName", ""), "firstName:InvalidFirstName"},
		{"firstName blank", with(base, "firstName", "   "), "firstName:InvalidFirstName"},
		{"firstName null", with(base, "firstName", nil), "firstName:InvalidFirstName"},
		{"firstName 256", with(base, "firstName", tooLong), "firstName:InvalidFirstName"},
		{"firstName 255", with(base, "firstName", long), ""},
		{"lastName missing", with(base, "lastName", "<absent>"), "lastName:InvalidLastName"},
		{"lastName empty", with(base, "lastName", ""), "lastName:InvalidLastName"},
		{"phone country unknown", with(base, "phoneCountryId", 1), "phoneCountryId:InvalidPhoneCountryId"},
		{"phone country string", with(base, "phoneCountryId", "1"), "phoneCountryId:InvalidPhoneCountryId"},
		{"phone country missing", with(base, "phoneCountryId", "<absent>"), "phoneCountryId:InvalidPhoneCountryId"},
		{"phone number missing", with(base, "phoneNumber", "<absent>"), "phoneNumber:InvalidPhoneNumber"},
		{"phone number empty", with(base, "phoneNumber", ""), "phoneNumber:InvalidPhoneNumber"},
		{"extension letters", with(base, "phoneExtension", "ext"), "phoneExtension:InvalidPhoneExtension"},
		{"extension number", with(base, "phoneExtension", 42), "phoneExtension:InvalidPhoneExtension"},
		{"extension empty", with(base, "phoneExtension", ""), "phoneExtension:InvalidPhoneExtension"},
		{"extension null", with(base, "phoneExtension", nil), ""},
		{"subscribe string", with(base, "subscribeBlog", "true"), "subscribeBlog:InvalidSubscribeBlog"},
		{"timezone form", with(base, "timezone", "UTC"), "timezone:InvalidTimezone"},
		{"timezone deep", with(base, "timezone", "America/Argentina/Buenos_Aires"), ""},
		{"unknown field", with(base, "id", 5), "id:UnknownField"},
		{"client not object", with(base, "client", "x"), "client:InvalidClient"},
		{"client invalid name", with(base, "client", with(e.fullClient("x"), "name", "")), "client.name:InvalidName"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, body := put(la.userID, tc.body, a.APIKey)
			if tc.code == "" {
				if st != 200 {
					t.Fatalf("%d %s", st, body)
				}
				return
			}
			if st != 400 || !hasCode(codes(t, body), tc.code) {
				t.Fatalf("got %d %s, want %s", st, body, tc.code)
			}
		})
	}
	// Restore a known state.
	if st, body := put(la.userID, base, a.APIKey); st != 200 {
		t.Fatalf("%d %s", st, body)
	}

	t.Run("statuses", func(t *testing.T) {
		for _, tc := range []struct {
			id   string
			body any
			want int
		}{
			{lb.userID, e.fullUser(b.Email), 403},
			{"4503599627370495", base, 404},
			{"abc", base, 404},
			{"-1", base, 404},
			{la.userID, "[1,2]", 400},
		} {
			if st, body := put(tc.id, tc.body, a.APIKey); st != tc.want {
				t.Fatalf("PUT /users/%s: %d %s want %d", tc.id, st, body, tc.want)
			}
		}
		if st, _, _ := e.do(rq{method: "GET", path: "/users/" + la.userID, key: a.APIKey}); st != 405 {
			t.Fatalf("GET user: %d", st)
		}
	})

	t.Run("number forms in path", func(t *testing.T) {
		n, _ := strconv.ParseFloat(la.userID, 64)
		if st, body := put(strconv.FormatFloat(n, 'e', -1, 64), base, a.APIKey); st != 200 {
			t.Fatalf("%d %s", st, body)
		}
	})

	t.Run("password change", func(t *testing.T) {
		other := e.login(a) // a second session, to be revoked
		newPw := "fresh password ✓"
		st, body, _ := e.do(rq{method: "PUT", path: "/users/" + la.userID, body: with(base, "password", newPw), token: la.token})
		if st != 200 {
			t.Fatalf("%d %s", st, body)
		}
		u := obj(t, body)
		if strings.Contains(string(body), newPw) {
			t.Fatal("password echoed")
		}
		if st, _, _ := e.do(rq{method: "POST", path: "/sessions", body: map[string]any{"email": a.Email, "password": a.Password}}); st != 401 {
			t.Fatalf("old password still works: %d", st)
		}
		if st, _, _ := e.do(rq{method: "GET", path: "/platforms", token: other.token}); st != 401 {
			t.Fatalf("other session survived: %d", st)
		}
		if st, _, _ := e.do(rq{method: "GET", path: "/platforms", token: la.token}); st != 200 {
			t.Fatalf("changing session revoked: %d", st)
		}
		e.login(Account{Email: a.Email, Password: newPw})
		// null keeps the password and its date.
		st, body, _ = e.do(rq{method: "PUT", path: "/users/" + la.userID, body: base, key: a.APIKey})
		if st != 200 || obj(t, body)["passwordLastChanged"] != u["passwordLastChanged"] {
			t.Fatalf("null password changed something: %d %s", st, body)
		}
		e.login(Account{Email: a.Email, Password: newPw})
	})

	t.Run("email change logs in", func(t *testing.T) {
		ne := "Renamed.User+x@Example.ORG"
		if st, body := put(la.userID, with(base, "email", ne), a.APIKey); st != 200 || obj(t, body)["email"] != ne {
			t.Fatalf("%d %s", st, body)
		}
		if st, _, _ := e.do(rq{method: "POST", path: "/sessions", body: map[string]any{"email": ne, "password": "fresh password ✓"}}); st != 200 {
			t.Fatalf("login with new email: %d", st)
		}
	})

	t.Run("client created with user", func(t *testing.T) {
		_, before, _ := e.do(rq{method: "GET", path: "/clients", key: a.APIKey})
		n0 := len(obj(t, before)["clients"].([]any))
		cl := with(e.fullClient("Made by PUT"), "app", e.appByName("First"))
		if st, body := put(la.userID, with(base, "email", "Renamed.User+x@Example.ORG", "client", cl), a.APIKey); st != 200 {
			t.Fatalf("%d %s", st, body)
		}
		_, after, _ := e.do(rq{method: "GET", path: "/clients", key: a.APIKey})
		list := obj(t, after)["clients"].([]any)
		if len(list) != n0+1 || list[0].(map[string]any)["name"] != "Made by PUT" {
			t.Fatalf("clients %s", after)
		}
	})
}

func TestCreateUser(t *testing.T) {
	e := newEnv(t, 1)
	a := e.acc[0][0]
	la := e.login(a)
	body := with(e.fullUser("New.Member@Example.NET"), "password", "secret6")
	for _, tc := range []struct {
		body map[string]any
		code string
	}{
		{with(body, "password", nil), "password:InvalidPassword"},
		{with(body, "email", a.Email), "email:InvalidEmail"},
		{with(body, "phoneNumber", " "), "phoneNumber:InvalidPhoneNumber"},
	} {
		st, out, _ := e.do(rq{method: "POST", path: "/users", body: tc.body, key: a.APIKey})
		if st != 400 || !hasCode(codes(t, out), tc.code) {
			t.Fatalf("%d %s want %s", st, out, tc.code)
		}
	}
	st, out, _ := e.do(rq{method: "POST", path: "/users", body: body, key: a.APIKey})
	if st != 200 {
		t.Fatalf("%d %s", st, out)
	}
	l := e.login(Account{Email: "New.Member@Example.NET", Password: "secret6"})
	if l.clientID != la.clientID {
		t.Fatalf("new user is not in the caller's client: %s vs %s", l.clientID, la.clientID)
	}
	// The new user may manage the shared client but not edit the creator.
	if st, _, _ := e.do(rq{method: "PUT", path: "/clients/" + la.clientID, body: e.fullClient("Shared"), token: l.token}); st != 200 {
		t.Fatalf("member PUT client: %d", st)
	}
	if st, _, _ := e.do(rq{method: "PUT", path: "/users/" + la.userID, body: e.fullUser(a.Email), token: l.token}); st != 403 {
		t.Fatalf("member PUT other user: %d", st)
	}
}

// ---- clients --------------------------------------------------------------

func TestClients(t *testing.T) {
	e := newEnv(t, 1)
	a, b := e.acc[0][0], e.acc[0][1]
	la, lb := e.login(a), e.login(b)
	base := e.fullClient("Acme")
	countClients := func() int {
		_, body, _ := e.do(rq{method: "GET", path: "/clients", key: a.APIKey})
		n, _ := obj(t, body)["total"].(json.Number).Int64()
		return int(n)
	}
	countApps := func() int {
		_, body, _ := e.do(rq{method: "GET", path: "/apps", key: a.APIKey})
		return len(obj(t, body)["apps"].([]any))
	}

	st, body, _ := e.do(rq{method: "POST", path: "/clients", body: base, key: a.APIKey})
	if st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	c := obj(t, body)
	cid := c["id"].(json.Number).String()
	if c["name"] != "Acme" || c["addressLine2"] != "Floor 2" || c["vat"] != "DE123456789" || !isoRE.MatchString(c["createdDate"].(string)) {
		t.Fatalf("client %v", c)
	}
	if cur := c["currency"].(map[string]any); cur["code"] != "EUR" {
		t.Fatalf("currency %v", cur)
	}

	cases := []struct {
		name string
		body map[string]any
		want int
		code string
	}{
		{"name missing", with(base, "name", "<absent>"), 400, "name:InvalidName"},
		{"name empty", with(base, "name", ""), 400, "name:InvalidName"},
		{"name null", with(base, "name", nil), 400, "name:InvalidName"},
		{"name 256", with(base, "name", strings.Repeat("n", 256)), 400, "name:InvalidName"},
		{"line1 missing", with(base, "addressLine1", "<absent>"), 400, "addressLine1:InvalidAddressLine1"},
		{"city 256", with(base, "addressCity", strings.Repeat("c", 256)), 400, "addressCity:InvalidAddressCity"},
		{"vat null", with(base, "vat", nil), 400, "vat:InvalidVat"},
		{"currency missing", with(base, "currency", "<absent>"), 400, "currency:InvalidCurrencyId"},
		{"currency id string", with(base, "currency", map[string]any{"id": "1"}), 400, "currency.id:InvalidCurrencyId"},
		{"currency unknown", with(base, "currency", map[string]any{"id": 7}), 404, ""},
		{"terms wrong", with(base, "terms", "i agree"), 400, "terms:InvalidTerms"},
		{"terms missing", with(base, "terms", "<absent>"), 400, "terms:InvalidTerms"},
		{"app invalid", with(base, "app", with(e.appByName(""), "name", nil)), 400, "app.name:InvalidName"},
		{"app unknown plan", with(base, "app", with(e.appByName("P"), "nextplan", map[string]any{"id": 3})), 404, ""},
	}
	c0, a0 := countClients(), countApps()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, body, _ := e.do(rq{method: "POST", path: "/clients", body: tc.body, key: a.APIKey})
			if st != tc.want || (tc.code != "" && !hasCode(codes(t, body), tc.code)) {
				t.Fatalf("got %d %s want %d %s", st, body, tc.want, tc.code)
			}
		})
	}
	if countClients() != c0 || countApps() != a0 {
		t.Fatal("a refused request created something")
	}

	t.Run("with app", func(t *testing.T) {
		st, body, _ := e.do(rq{method: "POST", path: "/clients", body: with(base, "app", e.appByName("Bundled")), key: a.APIKey})
		if st != 200 || countApps() != a0+1 || countClients() != c0+1 {
			t.Fatalf("%d %s", st, body)
		}
	})

	t.Run("update", func(t *testing.T) {
		upd := with(base, "name", "Acme 2", "addressLine2", "<absent>", "vat", "<absent>")
		st, body, _ := e.do(rq{method: "PUT", path: "/clients/" + cid, body: upd, token: la.token})
		if st != 200 {
			t.Fatalf("%d %s", st, body)
		}
		m := obj(t, body)
		if _, ok := m["addressLine2"]; ok || m["name"] != "Acme 2" || m["id"].(json.Number).String() != cid {
			t.Fatalf("%s", body)
		}
		for _, tc := range []struct {
			id   string
			body map[string]any
			key  string
			want int
			code string
		}{
			{cid, with(base, "app", e.appByName("x")), a.APIKey, 400, "app:InvalidApp"},
			{cid, with(base, "app", nil), a.APIKey, 400, "app:InvalidApp"},
			{cid, with(base, "name", ""), a.APIKey, 400, "name:InvalidName"},
			{cid, base, b.APIKey, 403, ""},
			{lb.clientID, base, a.APIKey, 403, ""},
			{"4503599627370495", base, a.APIKey, 404, ""},
			{"x", base, a.APIKey, 404, ""},
			{cid, with(base, "currency", map[string]any{"id": 9}), a.APIKey, 404, ""},
		} {
			st, body, _ := e.do(rq{method: "PUT", path: "/clients/" + tc.id, body: tc.body, key: tc.key})
			if st != tc.want || (tc.code != "" && !hasCode(codes(t, body), tc.code)) {
				t.Fatalf("PUT /clients/%s: %d %s want %d %s", tc.id, st, body, tc.want, tc.code)
			}
		}
	})
}

// ---- apps -----------------------------------------------------------------

func TestApps(t *testing.T) {
	e := newEnv(t, 1)
	a, b := e.acc[0][0], e.acc[0][1]
	hexRE := regexp.MustCompile(`^[0-9A-Fa-f]{32}$`)
	hash := StoreAppHashes()[0]

	// A well-formed hash of no store app is refused (1).
	if st, body, _ := e.do(rq{method: "POST", path: "/apps", body: e.appByHash(strings.Repeat("ab", 20)), key: a.APIKey}); st != 404 {
		t.Fatalf("a hash of no store app: %d %s", st, body)
	}

	st, body, _ := e.do(rq{method: "POST", path: "/apps", body: e.appByName("Byname"), key: a.APIKey})
	if st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	m := obj(t, body)
	if m["name"] != "Byname" || m["platform"].(map[string]any)["name"] != "iOS" || !hexRE.MatchString(m["writeKey"].(string)) {
		t.Fatalf("%s", body)
	}
	if p := m["plan"].(map[string]any); p["isPro"] != true || p["isLite"] != false || p["needBilling"] != true {
		t.Fatalf("plan %v", p)
	}
	if h := m["marketapp"].(map[string]any)["hash"].(string); len(h) != 40 {
		t.Fatalf("hash %q", h)
	}

	st, body, _ = e.do(rq{method: "POST", path: "/apps", body: e.appByHash(hash), key: a.APIKey})
	if st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	m = obj(t, body)
	if m["marketapp"].(map[string]any)["hash"] != hash || m["plan"].(map[string]any)["isLite"] != true {
		t.Fatalf("%s", body)
	}
	pn := m["platform"].(map[string]any)["name"]
	// B gets the same store app description for the same hash.
	_, body, _ = e.do(rq{method: "POST", path: "/apps", body: e.appByHash(strings.ToUpper(hash)), key: b.APIKey})
	if mb := obj(t, body); mb["name"] != m["name"] || mb["platform"].(map[string]any)["name"] != pn {
		t.Fatalf("store app differs: %s", body)
	}

	byName := e.appByName("Other")
	cases := []struct {
		name string
		body any
		want int
		code string
	}{
		{"no hash no name", with(byName, "name", nil), 400, "name:InvalidName"},
		{"no hash blank name", with(byName, "name", " "), 400, "name:InvalidName"},
		{"name missing", with(byName, "name", "<absent>"), 400, "name:InvalidName"},
		{"name number", with(byName, "name", 3), 400, "name:InvalidName"},
		{"name 256", with(byName, "name", strings.Repeat("x", 256)), 400, "name:InvalidName"},
		{"hash short", with(byName, "marketapp", map[string]any{"hash": hash[:39]}), 400, "marketapp.hash:InvalidMarketappHash"},
		{"hash not hex", with(byName, "marketapp", map[string]any{"hash": strings.Repeat("g", 40)}), 400, "marketapp.hash:InvalidMarketappHash"},
		{"hash null", with(byName, "marketapp", map[string]any{"hash": nil}), 400, "marketapp.hash:InvalidMarketappHash"},
		{"marketapp missing", with(byName, "marketapp", "<absent>"), 400, "marketapp:InvalidMarketapp"},
		{"platform null no hash", with(byName, "platform", map[string]any{"id": nil}), 400, "platform.id:InvalidPlatformId"},
		{"platform fraction", with(byName, "platform", map[string]any{"id": 1.5}), 400, "platform.id:InvalidPlatformId"},
		{"nextplan missing", with(byName, "nextplan", "<absent>"), 400, "nextplan:InvalidNextplanId"},
		{"nextplan string", with(byName, "nextplan", map[string]any{"id": "x"}), 400, "nextplan.id:InvalidNextplanId"},
		{"unknown field", with(byName, "clientId", 1), 400, "clientId:UnknownField"},
		{"duplicate", e.appByHash(hash), 400, "marketapp.hash:DuplicateMarketapp"},
		{"unknown platform", with(byName, "platform", map[string]any{"id": 12}), 404, ""},
		{"unknown plan", with(byName, "nextplan", map[string]any{"id": 12}), 404, ""},
		{"plan id as 1.0e0 form", with(byName, "nextplan", json.RawMessage(`{"id":`+string(e.catID("subscriptionPlans", "name", "Lite"))+`.000e0}`)), 200, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, body, _ := e.do(rq{method: "POST", path: "/apps", body: tc.body, key: a.APIKey})
			if st != tc.want || (tc.code != "" && !hasCode(codes(t, body), tc.code)) {
				t.Fatalf("got %d %s want %d %s", st, body, tc.want, tc.code)
			}
		})
	}
	_, body, _ = e.do(rq{method: "GET", path: "/apps", key: a.APIKey})
	if n := len(obj(t, body)["apps"].([]any)); n != 3 {
		t.Fatalf("A has %d apps: %s", n, body)
	}
}

// ---- collections, versions, protocol --------------------------------------

func TestCollections(t *testing.T) {
	e := newEnv(t, 1)
	key := e.acc[0][0].APIKey
	names := map[string]bool{}
	for _, p := range e.cat["platforms"] {
		names[p["name"].(string)] = true
	}
	if len(names) != 2 || !names["Android"] || !names["iOS"] {
		t.Fatalf("platforms %v", e.cat["platforms"])
	}
	for _, c := range e.cat["currencies"] {
		if !regexp.MustCompile(`^[A-Z]{3}$`).MatchString(c["code"].(string)) {
			t.Fatalf("currency %v", c)
		}
	}
	st, body, _ := e.do(rq{method: "GET", path: "", key: key})
	if st != 200 || obj(t, body)["collections"].(map[string]any)["platforms"] != "/pricing/v1.0/platforms" {
		t.Fatalf("index %d %s", st, body)
	}
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/platforms?page=1", 200}, {"/platforms?page=2", 200}, {"/platforms?page=0", 400},
		{"/platforms?page=x", 400}, {"/platforms?page=1&page=2", 400}, {"/", 200},
		{"/platforms/", 404}, {"/Platforms", 404}, {"//platforms", 404}, {"/nope", 404},
	} {
		st, body, _ := e.do(rq{method: "GET", path: tc.path, key: key})
		if st != tc.want {
			t.Fatalf("GET %s: %d %s", tc.path, st, body)
		}
		if st == 200 && tc.path == "/platforms?page=2" && len(obj(t, body)["platforms"].([]any)) != 0 {
			t.Fatalf("page 2 not empty: %s", body)
		}
	}
}

func TestVersionsAndProtocol(t *testing.T) {
	e := newEnv(t, 1)
	key := e.acc[0][0].APIKey
	root := e.srv.URL
	for _, p := range []string{"/pricing/v1/platforms", "/pricing/v1.1/platforms", "/pricing/v2/platforms", "/v1.0/platforms", "/pricing/v1.0x/platforms", "/"} {
		req, _ := http.NewRequest("GET", root+p, nil)
		req.Header.Set("Authorization", "api-key "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 404 {
			t.Fatalf("%s: %d", p, resp.StatusCode)
		}
	}
	for _, tc := range []struct {
		name string
		r    rq
		want int
		hdr  string
	}{
		{"405", rq{method: "DELETE", path: "/platforms", key: key}, 405, "Allow"},
		{"405 post users item", rq{method: "POST", path: "/users/1", key: key}, 405, "Allow"},
		{"options", rq{method: "OPTIONS", path: "/apps"}, 204, "Allow"},
		{"head", rq{method: "HEAD", path: "/platforms", key: key}, 200, ""},
		{"406", rq{method: "GET", path: "/platforms", key: key, hdr: map[string]string{"Accept": "text/html"}}, 406, ""},
		{"accept q0", rq{method: "GET", path: "/platforms", key: key, hdr: map[string]string{"Accept": "application/json;q=0"}}, 406, ""},
		{"accept any", rq{method: "GET", path: "/platforms", key: key, hdr: map[string]string{"Accept": "text/html, */*;q=0.1"}}, 200, ""},
		{"413", rq{method: "POST", path: "/apps", key: key, body: `{"name":"` + strings.Repeat("x", 70000) + `"}`}, 413, ""},
		{"deep", rq{method: "POST", path: "/apps", key: key, body: strings.Repeat("[", 40) + strings.Repeat("]", 40)}, 400, ""},
		{"dup keys", rq{method: "POST", path: "/apps", key: key, body: `{"name":"a","name":"b"}`}, 400, ""},
		{"trailing", rq{method: "POST", path: "/apps", key: key, body: `{} {}`}, 400, ""},
		{"bad utf8", rq{method: "POST", path: "/apps", key: key, body: "{\"name\":\"\xff\"}"}, 400, ""},
		{"charset latin1", rq{method: "POST", path: "/apps", key: key, body: `{}`, hdr: map[string]string{"Content-Type": "application/json; charset=latin1"}}, 415, ""},
		{"charset utf8", rq{method: "POST", path: "/apps", key: key, body: `{}`, hdr: map[string]string{"Content-Type": "application/json; charset=UTF-8"}}, 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, body, h := e.do(tc.r)
			if st != tc.want {
				t.Fatalf("got %d want %d: %s", st, tc.want, body)
			}
			if tc.hdr != "" && h.Get(tc.hdr) == "" {
				t.Fatalf("missing %s", tc.hdr)
			}
			if st == 400 {
				codes(t, body)
			}
		})
	}
}

func TestNoSecretsInAnswers(t *testing.T) {
	e := newEnv(t, 1)
	a, b := e.acc[0][0], e.acc[0][1]
	la := e.login(a)
	lb := e.login(b)
	var all []byte
	for _, r := range []rq{
		{method: "GET", path: "", key: a.APIKey}, {method: "GET", path: "/clients", key: a.APIKey},
		{method: "GET", path: "/apps", key: a.APIKey},
		{method: "PUT", path: "/users/" + la.userID, key: a.APIKey, body: e.fullUser(a.Email)},
		{method: "PUT", path: "/users/" + lb.userID, key: a.APIKey, body: e.fullUser(b.Email)},
		{method: "POST", path: "/clients", key: a.APIKey, body: e.fullClient("S")},
	} {
		_, body, _ := e.do(r)
		all = append(all, body...)
	}
	for _, secret := range []string{a.Password, b.Password, a.APIKey, b.APIKey, la.token, lb.token, "pwHash", "salt"} {
		if bytes.Contains(all, []byte(secret)) {
			t.Fatalf("answer contains secret %q", secret)
		}
	}
}

func TestParseIntegral(t *testing.T) {
	for _, tc := range []struct {
		in string
		v  int64
		ok bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"7", 7, true}, {"7.0", 7, true}, {"70e-1", 7, true}, {"0.7E1", 7, true},
		{"7.5", 0, false}, {"07", 0, false}, {"+7", 0, false}, {"1e", 0, false}, {".5", 0, false}, {"", 0, false},
		{"9223372036854775807", 9223372036854775807, true}, {"9223372036854775808", 0, false},
		{"-9223372036854775808", -9223372036854775808, true}, {"1e19", 0, false}, {"1e99999999999", 0, false},
		{"0e99999999999", 0, true}, {"1e-99999999999", 0, false}, {"4.503599627370497e+15", 4503599627370497, true},
	} {
		v, ok := parseIntegral(tc.in)
		if ok != tc.ok || (ok && v != tc.v) {
			t.Fatalf("%q: %d %v", tc.in, v, ok)
		}
	}
}

// ---- concurrency ----------------------------------------------------------

func TestConcurrentWriters(t *testing.T) {
	const pairs, perAccount = 4, 12
	e := newEnv(t, pairs)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ids := map[string]bool{}
	errs := make(chan string, 1000)
	record := func(id string) {
		mu.Lock()
		defer mu.Unlock()
		if ids[id] {
			errs <- "duplicate id " + id
		}
		ids[id] = true
	}
	for i := 0; i < pairs; i++ {
		for side := 0; side < 2; side++ {
			acct := e.acc[i][side]
			l := e.login(acct)
			wg.Add(3)
			go func() { // app creator
				defer wg.Done()
				for k := 0; k < perAccount; k++ {
					st, body, _ := e.do(rq{method: "POST", path: "/apps", key: acct.APIKey, body: e.appByName(fmt.Sprintf("app-%d", k))})
					if st != 200 {
						errs <- fmt.Sprintf("create app: %d %s", st, body)
						return
					}
					record(obj(t, body)["id"].(json.Number).String())
				}
			}()
			go func() { // client and user updater
				defer wg.Done()
				for k := 0; k < perAccount; k++ {
					st, body, _ := e.do(rq{method: "PUT", path: "/clients/" + l.clientID, token: l.token, body: e.fullClient(fmt.Sprintf("n%d", k))})
					if st != 200 {
						errs <- fmt.Sprintf("put client: %d %s", st, body)
						return
					}
					st, body, _ = e.do(rq{method: "POST", path: "/clients", key: acct.APIKey, body: e.fullClient("extra")})
					if st != 200 {
						errs <- fmt.Sprintf("post client: %d %s", st, body)
						return
					}
					record(obj(t, body)["id"].(json.Number).String())
					st, body, _ = e.do(rq{method: "PUT", path: "/users/" + l.userID, key: acct.APIKey, body: with(e.fullUser(acct.Email), "firstName", fmt.Sprintf("F%d", k))})
					if st != 200 {
						errs <- fmt.Sprintf("put user: %d %s", st, body)
						return
					}
				}
			}()
			go func() { // reader and session maker
				defer wg.Done()
				for k := 0; k < perAccount; k++ {
					if st, _, _ := e.do(rq{method: "GET", path: "/apps", token: l.token}); st != 200 {
						errs <- fmt.Sprintf("list apps: %d", st)
						return
					}
					st, body, _ := e.do(rq{method: "POST", path: "/sessions", body: map[string]any{"email": acct.Email, "password": acct.Password}})
					if st != 200 {
						errs <- fmt.Sprintf("login: %d", st)
						return
					}
					record(obj(t, body)["id"].(json.Number).String())
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Fatal(msg)
	}
	// No lost update: every account sees all its apps and clients.
	for i := 0; i < pairs; i++ {
		for side := 0; side < 2; side++ {
			acct := e.acc[i][side]
			_, body, _ := e.do(rq{method: "GET", path: "/apps", key: acct.APIKey})
			if n := obj(t, body)["total"].(json.Number).String(); n != strconv.Itoa(perAccount) {
				t.Fatalf("%s has %s apps", acct.Email, n)
			}
			_, body, _ = e.do(rq{method: "GET", path: "/clients", key: acct.APIKey})
			if n := obj(t, body)["total"].(json.Number).String(); n != strconv.Itoa(perAccount+1) {
				t.Fatalf("%s has %s clients", acct.Email, n)
			}
		}
	}
}

// ---- garbage --------------------------------------------------------------

func TestGarbageNeverFails(t *testing.T) {
	e := newEnv(t, 1)
	a := e.acc[0][0]
	la := e.login(a)
	rng := rand.New(rand.NewSource(1))
	random := func(n int) string {
		b := make([]byte, n)
		rng.Read(b)
		return string(b)
	}
	bodies := []string{
		"", "null", "true", "0", `"x"`, "[]", "{}", "{", "}", `{"a":}`, random(64), random(2048),
		strings.Repeat("[", 10000), strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000),
		`{"email":` + strings.Repeat("9", 5000) + `}`, `{"name":"` + strings.Repeat("é", 20000) + `"}`,
		`{"name":1e999999999,"platform":{"id":-1e400},"nextplan":{"id":[]}}`,
		`{"marketapp":{"hash":{}},"name":{},"platform":[],"nextplan":"x"}`,
		`{"marketapp":"x","name":null,"platform":{"id":null},"nextplan":{"id":null}}`,
		`{"client":{"app":{"marketapp":null}},"phoneCountryId":{},"password":[],"email":null}`,
		`{"currency":{"id":{"id":1}},"app":[1],"terms":false}`,
		`{"email":"\ud800","password":"\u0000\u0000\u0000\u0000\u0000\u0000"}`,
		`[{"fieldName":1}]`, `{"__proto__":{}}`, "\x00\x01\x02",
	}
	paths := []string{
		"", "/", "/sessions", "/users", "/users/" + la.userID, "/users/" + la.userID + "/x", "/users/%zz", "/users/%2F",
		"/users/1e400", "/users/-0", "/users/" + strings.Repeat("9", 400), "/clients", "/clients/" + la.clientID,
		"/clients/0x10", "/apps", "/apps/1", "/platforms", "/platforms?page=" + strings.Repeat("9", 100),
		"/platforms?sessionToken=%zz", "/%00", "/../../etc/passwd", "/apps;x=1", "/apps?page=1e1",
	}
	methods := []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "BREW"}
	headers := []map[string]string{
		{"Authorization": "api-key " + a.APIKey},
		{"session-token": la.token},
		{"Authorization": "api-key " + fmt.Sprintf("%x", random(30))},
		{"Authorization": "api-key"},
		{"Content-Type": "application/json; charset=\"", "Authorization": "api-key " + a.APIKey},
		{"Accept": ";;;,,,q=abc", "Authorization": "api-key " + a.APIKey},
		{"Content-Type": "multipart/form-data; boundary=x", "session-token": la.token},
	}
	start := time.Now()
	for _, p := range paths {
		for _, m := range methods {
			for hi, h := range headers {
				body := bodies[rng.Intn(len(bodies))]
				if hi == 0 || hi == 1 {
					// With valid credentials, try every body on this path.
					for _, b := range bodies {
						e.check(t, m, p, b, h)
					}
					continue
				}
				e.check(t, m, p, body, h)
			}
		}
	}
	// The seeded account still works and was not changed by garbage.
	e.login(a)
	if time.Since(start) > 20*time.Second {
		t.Fatalf("garbage corpus too slow: %v", time.Since(start))
	}
}

func (e *tenv) check(t *testing.T, method, path, body string, hdr map[string]string) {
	t.Helper()
	req, err := http.NewRequest(method, e.base+path, strings.NewReader(body))
	if err != nil {
		return // the client refuses to send it; nothing to test
	}
	if _, ok := hdr["Content-Type"]; !ok {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		t.Fatalf("%s %s %q: %d %s", method, path, body, resp.StatusCode, b)
	}
	if resp.StatusCode == 400 && method != "HEAD" {
		codes(t, b)
	}
}

func TestSessionCap(t *testing.T) {
	e := newEnv(t, 1)
	a := e.acc[0][0]
	first := e.login(a)
	var last login
	for i := 0; i < maxSessionsPerUser; i++ {
		last = e.login(a)
	}
	if st, _, _ := e.do(rq{method: "GET", path: "/platforms", token: first.token}); st != 401 {
		t.Fatalf("oldest session beyond the cap still valid: %d", st)
	}
	if st, _, _ := e.do(rq{method: "GET", path: "/platforms", token: last.token}); st != 200 {
		t.Fatalf("newest session refused: %d", st)
	}
}
