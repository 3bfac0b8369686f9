package documents

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/jsonpath"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineagetest"
)

func TestNewOptions(t *testing.T) {
	for _, tc := range []struct {
		opts  Options
		pairs int
		ok    bool
	}{
		{Options{}, 1, true},
		{Options{Pairs: 3}, 3, true},
		{Options{Pairs: -1}, 0, false},
		{Options{Pairs: 1001}, 0, false},
		{Options{Fault: "no-such-fault"}, 0, false},
		{Options{Fault: fCreateApp201}, 1, true},
	} {
		s, err := New(tc.opts)
		if (err == nil) != tc.ok {
			t.Errorf("New(%+v): err %v, want ok %v", tc.opts, err, tc.ok)
			continue
		}
		if err != nil {
			continue
		}
		acc := s.Accounts()
		if len(acc) != tc.pairs {
			t.Errorf("New(%+v): %d pairs, want %d", tc.opts, len(acc), tc.pairs)
		}
		seen := map[string]bool{}
		for _, p := range acc {
			for _, a := range p {
				for _, v := range []string{a.Email, a.APIKey} {
					if v == "" || seen[v] {
						t.Errorf("empty or shared credential %q", v)
					}
					seen[v] = true
				}
				if len(a.Password) < 6 {
					t.Errorf("seed password too short")
				}
			}
		}
		if s.BasePath() != "/v1" {
			t.Errorf("BasePath %q", s.BasePath())
		}
	}
}

func TestFaultList(t *testing.T) {
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)+$`)
	names := map[string]bool{}
	bugs, legal := 0, 0
	for _, f := range Faults() {
		if !kebab.MatchString(f.Name) || names[f.Name] {
			t.Errorf("bad or duplicate name %q", f.Name)
		}
		names[f.Name] = true
		if f.Rule == "" || f.Quote == "" || f.Description == "" {
			t.Errorf("%s: incomplete", f.Name)
		}
		if f.Legal {
			legal++
		} else {
			bugs++
		}
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Errorf("New(%s): %v", f.Name, err)
		}
	}
	if bugs != 30 || legal != 5 {
		t.Errorf("%d bugs and %d legal readings, want 30 and 5", bugs, legal)
	}
}

func TestSessions(t *testing.T) {
	f := start(t, "", 1)
	a := f.acc[0][0]
	for _, tc := range []struct {
		name   string
		body   any
		status int
	}{
		{"valid", map[string]any{"email": a.Email, "password": a.Password}, 200},
		{"email in other case", map[string]any{"email": strings.ToUpper(a.Email), "password": a.Password}, 200},
		{"wrong password", map[string]any{"email": a.Email, "password": a.Password + "x"}, 401},
		{"unknown email", map[string]any{"email": "nobody@example.com", "password": a.Password}, 401},
		{"other account's password", map[string]any{"email": a.Email, "password": f.acc[0][1].Password}, 401},
		{"missing password", map[string]any{"email": a.Email}, 400},
		{"number password", map[string]any{"email": a.Email, "password": 123456}, 400},
		{"not json", "email=a", 400},
		{"array", `[]`, 400},
		{"empty", "", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do("POST", "/sessions", tc.body)
			if r.status != tc.status {
				t.Fatalf("got %s, want %d", r, tc.status)
			}
			if r.status != 200 {
				return
			}
			m := r.obj()
			for _, k := range []string{"id", "creatorUserId", "userId", "clientId"} {
				if _, ok := m[k].(float64); !ok {
					t.Errorf("%s not a number: %v", k, m[k])
				}
			}
			if _, err := time.Parse(time.RFC3339, fmt.Sprint(m["created"])); err != nil {
				t.Errorf("created %v: %v", m["created"], err)
			}
			if tok, _ := m["token"].(string); len(tok) < 32 {
				t.Errorf("token %v", m["token"])
			}
		})
	}
}

func TestAuthSchemes(t *testing.T) {
	f := start(t, "", 1)
	a, b := f.acc[0][0], f.acc[0][1]
	ia, ib := f.ident(a), f.ident(b)
	path := fmt.Sprintf("/users/%d", ia.user)
	for _, tc := range []struct {
		name   string
		query  string
		hdr    []string
		status int
	}{
		{"none", "", nil, 401},
		{"api key", "", key(a), 200},
		{"api key scheme in capitals", "", []string{"Authorization", "API-KEY " + a.APIKey}, 200},
		{"api key with extra spaces", "", []string{"Authorization", "api-key   " + a.APIKey}, 200},
		{"session header", "", []string{"session-token", ia.token}, 200},
		{"session header other case", "", []string{"SESSION-TOKEN", ia.token}, 200},
		{"session query", "?sessionToken=" + ia.token, nil, 200},
		{"bad api key", "", []string{"Authorization", "api-key nope"}, 401},
		{"api key without scheme", "", []string{"Authorization", a.APIKey}, 401},
		{"bearer", "", []string{"Authorization", "Bearer " + ia.token}, 401},
		{"token as api key", "", []string{"Authorization", "api-key " + ia.token}, 401},
		{"api key as token", "", []string{"session-token", a.APIKey}, 401},
		{"api key as query token", "?sessionToken=" + a.APIKey, nil, 401},
		{"bad token", "", []string{"session-token", "nope"}, 401},
		{"empty token", "", []string{"session-token", ""}, 401},
		{"good key, empty token", "", with(key(a), "session-token", " "), 200},
		{"empty authorization, good token", "", []string{"Authorization", "", "session-token", ia.token}, 200},
		{"good key, bad token", "", with(key(a), "session-token", "nope"), 401},
		{"good key, bad query token", "?sessionToken=nope", key(a), 401},
		{"key of A, token of B", "", with(key(a), "session-token", ib.token), 401},
		{"key and token of A", "", with(key(a), "session-token", ia.token), 200},
		{"header and query of A", "?sessionToken=" + ia.token, []string{"session-token", ia.token}, 200},
		{"token of B on A", "", []string{"session-token", ib.token}, 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do("GET", path+tc.query, nil, tc.hdr...)
			if r.status != tc.status {
				t.Fatalf("GET: got %s, want %d", r, tc.status)
			}
			r = f.do("PUT", path+tc.query, map[string]any{}, tc.hdr...)
			if r.status != tc.status {
				t.Fatalf("PUT: got %s, want %d", r, tc.status)
			}
			if r.status == 401 && r.header.Get("WWW-Authenticate") == "" {
				t.Errorf("401 without WWW-Authenticate")
			}
		})
	}
}

func TestStatusOrder(t *testing.T) {
	f := start(t, "", 1)
	a, b := f.acc[0][0], f.acc[0][1]
	ia, ib := f.ident(a), f.ident(b)
	for _, tc := range []struct {
		method, path string
		hdr          []string
		status       int
	}{
		{"PUT", "/users/999999999", nil, 401},
		{"PUT", "/users/999999999", key(a), 404},
		{"PUT", "/users/abc", key(a), 404},
		{"PUT", "/users/0", key(a), 404},
		{"PUT", "/users/-1", key(a), 404},
		{"PUT", fmt.Sprintf("/users/%d", ib.user), key(a), 403},
		{"PUT", fmt.Sprintf("/users/%d", ib.user), nil, 401},
		{"PUT", fmt.Sprintf("/clients/%d", ib.client), key(a), 403},
		{"PUT", "/clients/999999999", key(a), 404},
		{"PUT", fmt.Sprintf("/clients/%d", ia.client), nil, 401},
		{"GET", fmt.Sprintf("/clients/%d", ib.client), key(a), 403},
		{"DELETE", fmt.Sprintf("/users/%d", ia.user), key(a), 405},
		{"POST", "/platforms", key(a), 405},
		{"GET", "/nothing", key(a), 404},
		{"GET", "/users/1/extra", key(a), 404},
		{"GET", "/users/", key(a), 404},
	} {
		r := f.do(tc.method, tc.path, `{"firstName":"X"}`, tc.hdr...)
		if r.status != tc.status {
			t.Errorf("%s %s: got %s, want %d", tc.method, tc.path, r, tc.status)
		}
		if r.status >= 400 && len(r.codes()) != 1 {
			t.Errorf("%s %s: error body %s", tc.method, tc.path, r.body)
		}
	}
}

func TestPutUserValidation(t *testing.T) {
	long := strings.Repeat("x", 255)
	accented := strings.Repeat("é", 255)
	for _, tc := range []struct {
		name string
		body string
		code string // "" means 200
	}{
		{"empty body object", `{}`, ""},
		{"first name", `{"firstName":"Ann"}`, ""},
		{"first name 255", `{"firstName":"` + long + `"}`, ""},
		{"first name 255 accented", `{"firstName":"` + accented + `"}`, ""},
		{"first name 256", `{"firstName":"` + long + `y"}`, "InvalidFirstName"},
		{"first name empty", `{"firstName":""}`, "InvalidFirstName"},
		{"first name blank", `{"firstName":"   "}`, "InvalidFirstName"},
		{"first name null", `{"firstName":null}`, "InvalidFirstName"},
		{"first name number", `{"firstName":12}`, "InvalidFirstName"},
		{"last name empty", `{"lastName":""}`, "InvalidLastName"},
		{"last name 256", `{"lastName":"` + long + `y"}`, "InvalidLastName"},
		{"email", `{"email":"` + unique("ok") + `@example.org"}`, ""},
		{"email no at", `{"email":"example.org"}`, "InvalidEmail"},
		{"email no domain dot", `{"email":"a@example"}`, "InvalidEmail"},
		{"email empty local", `{"email":"@example.org"}`, "InvalidEmail"},
		{"email two ats", `{"email":"a@b@example.org"}`, "InvalidEmail"},
		{"email space", `{"email":"a b@example.org"}`, "InvalidEmail"},
		{"email null", `{"email":null}`, "InvalidEmail"},
		{"email number", `{"email":5}`, "InvalidEmail"},
		{"email 256", `{"email":"` + strings.Repeat("a", 244) + `@example.org"}`, "InvalidEmail"},
		{"password null keeps", `{"password":null}`, ""},
		{"password 6", `{"password":"abcdef"}`, ""},
		{"password 6 accented", `{"password":"éééééé"}`, ""},
		{"password 5", `{"password":"abcde"}`, "InvalidPassword"},
		{"password 3 accented (6 bytes)", `{"password":"ééé"}`, "InvalidPassword"},
		{"password number", `{"password":1234567}`, "InvalidPassword"},
		{"password empty", `{"password":""}`, "InvalidPassword"},
		{"subscribe", `{"subscribeBlog":true,"subscribeWelcome":false,"subscribeHowto":true,"subscribeOnboarding":true}`, ""},
		{"subscribe string", `{"subscribeBlog":"true"}`, "InvalidSubscribeBlog"},
		{"timezone", `{"timezone":"America/New_York"}`, ""},
		{"timezone bad", `{"timezone":"Nowhere/Special"}`, "InvalidTimezone"},
		{"timezone no area", `{"timezone":"UTC"}`, "InvalidTimezone"},
		{"phone country", `{"phoneCountry":{"id":2}}`, ""},
		{"phone country id", `{"phoneCountryId":3}`, ""},
		{"phone country float", `{"phoneCountry":{"id":2.0}}`, ""},
		{"phone country unknown", `{"phoneCountry":{"id":999}}`, "InvalidPhoneCountryId"},
		{"phone country string", `{"phoneCountry":{"id":"2"}}`, "InvalidPhoneCountryId"},
		{"phone country null", `{"phoneCountry":null}`, "InvalidPhoneCountryId"},
		{"phone number", `{"phoneNumber":"020 7946 0000"}`, ""},
		{"phone number empty", `{"phoneNumber":""}`, "InvalidPhoneNumber"},
		{"phone number null", `{"phoneNumber":null}`, "InvalidPhoneNumber"},
		{"phone extension", `{"phoneExtension":"42"}`, ""},
		{"phone extension null", `{"phoneExtension":null}`, ""},
		{"phone extension letters", `{"phoneExtension":"ext"}`, "InvalidPhoneExtension"},
		{"phone extension number", `{"phoneExtension":42}`, "InvalidPhoneExtension"},
		{"phone extension long", `{"phoneExtension":"12345678901"}`, "InvalidPhoneExtension"},
		{"client", fmt.Sprintf(`{"client":%s}`, mustJSON(validClient("Side Co"))), ""},
		{"client without name", `{"client":{"addressLine1":"x"}}`, "InvalidName"},
		{"unknown member ignored", `{"nickname":"zz"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := start(t, "", 1)
			a := f.acc[0][0]
			id := f.ident(a).user
			before := f.do("GET", fmt.Sprintf("/users/%d", id), nil, key(a)...)
			r := f.do("PUT", fmt.Sprintf("/users/%d", id), tc.body, key(a)...)
			if tc.code == "" {
				if r.status != 200 {
					t.Fatalf("got %s, want 200", r)
				}
				checkUser(t, r.obj())
				var sent map[string]any
				_ = json.Unmarshal([]byte(tc.body), &sent)
				for k, v := range sent {
					if k == "password" || k == "client" || k == "nickname" || k == "phoneCountryId" {
						continue
					}
					got := r.obj()[k]
					if k == "phoneCountry" {
						got = r.obj()[k].(map[string]any)["id"]
						v = v.(map[string]any)["id"]
					}
					if fmt.Sprint(got) != fmt.Sprint(v) {
						t.Errorf("%s: answered %v, sent %v", k, got, v)
					}
				}
				again := f.do("GET", fmt.Sprintf("/users/%d", id), nil, key(a)...)
				if string(again.body) != string(r.body) {
					t.Errorf("read back differs:\n%s\n%s", r.body, again.body)
				}
				return
			}
			if r.status != 400 || !r.hasCode(tc.code) {
				t.Fatalf("got %s, want 400 %s", r, tc.code)
			}
			after := f.do("GET", fmt.Sprintf("/users/%d", id), nil, key(a)...)
			if string(after.body) != string(before.body) {
				t.Errorf("refused request changed the user")
			}
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

var userFields = []string{"id", "created", "email", "passwordLastChanged", "firstName", "lastName", "subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding", "phoneCountry", "phoneNumber", "phoneExtension", "timezone"}

func checkUser(t *testing.T, m map[string]any) {
	t.Helper()
	if len(m) != len(userFields) {
		t.Errorf("user has %d members, want %d: %v", len(m), len(userFields), m)
	}
	if _, ok := m["id"].(float64); !ok {
		t.Errorf("id %v", m["id"])
	}
	for _, k := range []string{"created", "passwordLastChanged"} {
		if _, err := time.Parse(time.RFC3339, fmt.Sprint(m[k])); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	for _, k := range []string{"email", "firstName", "lastName", "phoneNumber", "timezone"} {
		if _, ok := m[k].(string); !ok {
			t.Errorf("%s %v", k, m[k])
		}
	}
	for _, k := range []string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"} {
		if _, ok := m[k].(bool); !ok {
			t.Errorf("%s %v", k, m[k])
		}
	}
	pc, _ := m["phoneCountry"].(map[string]any)
	dial, _ := pc["dialCode"].(string)
	name, _ := pc["name"].(string)
	if _, ok := pc["id"].(float64); !ok || !strings.HasPrefix(dial, "+") || !strings.Contains(name, "("+dial+")") {
		t.Errorf("phoneCountry %v", pc)
	}
	if x := m["phoneExtension"]; x != nil {
		if _, ok := x.(string); !ok {
			t.Errorf("phoneExtension %v", x)
		}
	}
}

func TestSeveralErrorsAtOnce(t *testing.T) {
	f := start(t, "", 1)
	a := f.acc[0][0]
	id := f.ident(a).user
	r := f.do("PUT", fmt.Sprintf("/users/%d", id), `{"email":"x","password":"abc","firstName":"","lastName":"","phoneNumber":"","phoneExtension":"x","phoneCountry":{"id":0}}`, key(a)...)
	want := []string{"email:InvalidEmail", "password:InvalidPassword", "firstName:InvalidFirstName", "lastName:InvalidLastName", "phoneCountry.id:InvalidPhoneCountryId", "phoneNumber:InvalidPhoneNumber", "phoneExtension:InvalidPhoneExtension"}
	if r.status != 400 || strings.Join(r.codes(), ",") != strings.Join(want, ",") {
		t.Fatalf("got %s, want %v", r, want)
	}
	arr, _ := r.json().([]any)
	for _, e := range arr {
		if m := e.(map[string]any); len(m) != 3 || m["message"] == "" {
			t.Errorf("error element %v", m)
		}
	}
}

func TestUserStateOverTime(t *testing.T) {
	f := start(t, "", 1)
	a, b := f.acc[0][0], f.acc[0][1]
	ia := f.ident(a)
	path := fmt.Sprintf("/users/%d", ia.user)

	before := f.do("GET", path, nil, key(a)...).obj()
	time.Sleep(5 * time.Millisecond)
	r := f.do("PUT", path, map[string]any{"password": "new-secret"}, key(a)...)
	if r.status != 200 || r.obj()["passwordLastChanged"] == before["passwordLastChanged"] {
		t.Fatalf("password change: %s", r)
	}
	if f.login(a.Email, "new-secret").status != 200 || f.login(a.Email, a.Password).status != 401 {
		t.Errorf("password change does not take effect at login")
	}
	r = f.do("PUT", path, map[string]any{"firstName": "Only"}, key(a)...)
	if r.obj()["passwordLastChanged"] != f.do("GET", path, nil, key(a)...).obj()["passwordLastChanged"] {
		t.Errorf("password date moved without a password change")
	}

	mixed := unique("Mixed.Case") + "@Example.ORG"
	if r := f.do("PUT", path, map[string]any{"email": mixed}, key(a)...); r.status != 200 || r.obj()["email"] != mixed {
		t.Fatalf("email change: %s", r)
	}
	for _, e := range []string{mixed, strings.ToLower(mixed), strings.ToUpper(mixed)} {
		if r := f.login(e, "new-secret"); r.status != 200 {
			t.Errorf("login %s: %s", e, r)
		}
	}
	if f.login(a.Email, "new-secret").status != 401 {
		t.Errorf("old email still logs in")
	}
	// The old email is free again; the new one is taken, in any case.
	ib := f.ident(b)
	if r := f.do("PUT", fmt.Sprintf("/users/%d", ib.user), map[string]any{"email": strings.ToLower(mixed)}, key(b)...); r.status != 400 || !r.hasCode("InvalidEmail") {
		t.Errorf("duplicate email: %s", r)
	}
	if r := f.do("PUT", fmt.Sprintf("/users/%d", ib.user), map[string]any{"email": a.Email}, key(b)...); r.status != 200 {
		t.Errorf("freed email: %s", r)
	}
	if f.login(a.Email, b.Password).status != 200 {
		t.Errorf("freed email does not log in for its new owner")
	}
	// Own email again, in another case, is not a duplicate.
	if r := f.do("PUT", path, map[string]any{"email": strings.ToUpper(mixed)}, key(a)...); r.status != 200 {
		t.Errorf("own email in another case: %s", r)
	}

	// A refused update changes nothing.
	cur := f.do("GET", path, nil, key(a)...)
	if r := f.do("PUT", path, map[string]any{"firstName": "Changed", "lastName": "", "password": "another-secret"}, key(a)...); r.status != 400 {
		t.Fatalf("want 400: %s", r)
	}
	if after := f.do("GET", path, nil, key(a)...); string(after.body) != string(cur.body) {
		t.Errorf("refused update changed the user: %s", after.body)
	}
	if f.login(mixed, "another-secret").status != 401 {
		t.Errorf("refused password logs in")
	}

	// Sessions outlive a password change.
	if r := f.do("PUT", path, map[string]any{"password": "third-secret"}, "session-token", ia.token); r.status != 200 {
		t.Fatalf("%s", r)
	}
	if r := f.do("GET", path, nil, "session-token", ia.token); r.status != 200 {
		t.Errorf("session ended by password change: %s", r)
	}
}

func checkClient(t *testing.T, m map[string]any) {
	t.Helper()
	if _, ok := m["id"].(float64); !ok {
		t.Errorf("id %v", m["id"])
	}
	if _, err := time.Parse(time.RFC3339, fmt.Sprint(m["createdDate"])); err != nil {
		t.Errorf("createdDate: %v", err)
	}
	for _, k := range []string{"name", "addressLine1", "addressCity", "addressPostcode", "addressCountry"} {
		if _, ok := m[k].(string); !ok {
			t.Errorf("%s %v", k, m[k])
		}
	}
	cur, _ := m["currency"].(map[string]any)
	code, _ := cur["code"].(string)
	if _, ok := cur["id"].(float64); !ok || !regexp.MustCompile(`^[A-Z]{3}$`).MatchString(code) {
		t.Errorf("currency %v", cur)
	}
}

func checkApp(t *testing.T, m map[string]any) {
	t.Helper()
	if _, ok := m["id"].(float64); !ok {
		t.Errorf("id %v", m["id"])
	}
	if _, err := time.Parse(time.RFC3339, fmt.Sprint(m["created"])); err != nil {
		t.Errorf("created: %v", err)
	}
	p, _ := m["platform"].(map[string]any)
	if _, ok := p["id"].(float64); !ok || (p["name"] != "Android" && p["name"] != "iOS") {
		t.Errorf("platform %v", p)
	}
	if wk, _ := m["writeKey"].(string); !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(wk) {
		t.Errorf("writeKey %v", m["writeKey"])
	}
	plan, _ := m["plan"].(map[string]any)
	for _, k := range []string{"isLite", "isPro", "isDynamic", "needBilling"} {
		if _, ok := plan[k].(bool); !ok {
			t.Errorf("plan.%s %v", k, plan[k])
		}
	}
	ma, _ := m["marketapp"].(map[string]any)
	if h, _ := ma["hash"].(string); !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(h) {
		t.Errorf("marketapp %v", ma)
	}
}

func TestClients(t *testing.T) {
	f := start(t, "", 1)
	a, b := f.acc[0][0], f.acc[0][1]
	ia, ib := f.ident(a), f.ident(b)

	seeded := f.do("GET", fmt.Sprintf("/clients/%d", ia.client), nil, key(a)...)
	checkClient(t, seeded.obj())
	for _, k := range []string{"addressLine2", "vat"} {
		if _, ok := seeded.obj()[k].(string); !ok {
			t.Errorf("seeded client lacks %s", k)
		}
	}

	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
		code string
	}{
		{"valid", func(m map[string]any) {}, ""},
		{"with optional", func(m map[string]any) { m["vat"] = "FR123"; m["addressLine2"] = "Unit 2" }, ""},
		{"name 255 accented", func(m map[string]any) { m["name"] = strings.Repeat("ü", 255) }, ""},
		{"no name", func(m map[string]any) { delete(m, "name") }, "InvalidName"},
		{"empty name", func(m map[string]any) { m["name"] = "" }, "InvalidName"},
		{"null name", func(m map[string]any) { m["name"] = nil }, "InvalidName"},
		{"name 256", func(m map[string]any) { m["name"] = strings.Repeat("n", 256) }, "InvalidName"},
		{"vat 256", func(m map[string]any) { m["vat"] = strings.Repeat("v", 256) }, "InvalidVat"},
		{"no address", func(m map[string]any) { delete(m, "addressLine1") }, "InvalidAddressLine1"},
		{"bad currency", func(m map[string]any) { m["currency"] = map[string]any{"id": 99} }, "InvalidCurrencyId"},
		{"no terms", func(m map[string]any) { delete(m, "terms") }, "InvalidTerms"},
		{"terms lower case", func(m map[string]any) { m["terms"] = "i agree" }, "InvalidTerms"},
		{"terms padded", func(m map[string]any) { m["terms"] = " I agree" }, "InvalidTerms"},
		{"with app", func(m map[string]any) { m["app"] = map[string]any{"marketapp": map[string]any{"hash": goodHash}} }, ""},
		{"with bad app", func(m map[string]any) { m["app"] = map[string]any{"marketapp": map[string]any{"hash": "xyz"}} }, "InvalidMarketappHash"},
		{"with nameless app", func(m map[string]any) { m["app"] = map[string]any{"platform": map[string]any{"id": 1}} }, "InvalidName"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := validClient(unique("Co "))
			tc.edit(body)
			countBefore := len(f.do("GET", "/clients", nil, key(a)...).obj()["clients"].([]any))
			appsBefore := len(f.do("GET", "/apps", nil, key(a)...).obj()["apps"].([]any))
			r := f.do("POST", "/clients", body, key(a)...)
			countAfter := len(f.do("GET", "/clients", nil, key(a)...).obj()["clients"].([]any))
			appsAfter := len(f.do("GET", "/apps", nil, key(a)...).obj()["apps"].([]any))
			if tc.code != "" {
				if r.status != 400 || !r.hasCode(tc.code) {
					t.Fatalf("got %s, want 400 %s", r, tc.code)
				}
				if countAfter != countBefore || appsAfter != appsBefore {
					t.Errorf("refused create left a client or app")
				}
				return
			}
			if r.status != 200 {
				t.Fatalf("got %s", r)
			}
			checkClient(t, r.obj())
			if r.obj()["name"] != body["name"] || countAfter != countBefore+1 {
				t.Errorf("created client: %s (%d -> %d)", r, countBefore, countAfter)
			}
			if _, ok := body["app"]; ok && appsAfter != appsBefore+1 {
				t.Errorf("app not created with client")
			}
			id := num(r.obj()["id"])
			if g := f.do("GET", fmt.Sprintf("/clients/%d", id), nil, key(a)...); string(g.body) != string(r.body) {
				t.Errorf("read back differs: %s", g.body)
			}
			if g := f.do("GET", fmt.Sprintf("/clients/%d", id), nil, key(b)...); g.status != 403 {
				t.Errorf("other account reads the client: %s", g)
			}
		})
	}

	path := fmt.Sprintf("/clients/%d", ia.client)
	for _, tc := range []struct {
		name, body, code string
	}{
		{"rename", `{"name":"Renamed"}`, ""},
		{"currency", `{"currency":{"id":1}}`, ""},
		{"terms", `{"terms":"I agree"}`, ""},
		{"clear vat", `{"vat":null}`, ""},
		{"empty name", `{"name":""}`, "InvalidName"},
		{"blank name", `{"name":"  "}`, "InvalidName"},
		{"bad terms", `{"terms":"yes"}`, "InvalidTerms"},
		{"app given", `{"app":{"marketapp":{"hash":"` + goodHash + `"}}}`, "InvalidApp"},
	} {
		t.Run("put "+tc.name, func(t *testing.T) {
			before := f.do("GET", path, nil, key(a)...)
			r := f.do("PUT", path, tc.body, key(a)...)
			if tc.code != "" {
				if r.status != 400 || !r.hasCode(tc.code) {
					t.Fatalf("got %s, want %s", r, tc.code)
				}
				if after := f.do("GET", path, nil, key(a)...); string(after.body) != string(before.body) {
					t.Errorf("refused update changed the client")
				}
				return
			}
			if r.status != 200 {
				t.Fatalf("got %s", r)
			}
			checkClient(t, r.obj())
			if after := f.do("GET", path, nil, key(a)...); string(after.body) != string(r.body) {
				t.Errorf("read back differs")
			}
		})
	}
	if r := f.do("GET", path, nil, key(a)...).obj(); r["name"] != "Renamed" || num(r["currency"].(map[string]any)["id"]) != 1 || r["vat"] != nil {
		t.Errorf("updates do not add up: %v", r)
	}
	if r := f.do("PUT", fmt.Sprintf("/clients/%d", ib.client), `{"name":"Mine"}`, key(a)...); r.status != 403 {
		t.Errorf("foreign client: %s", r)
	}
}

func TestApps(t *testing.T) {
	f := start(t, "", 1)
	a, b := f.acc[0][0], f.acc[0][1]
	for _, tc := range []struct {
		name, body, code string
	}{
		{"hash only", `{"marketapp":{"hash":"` + goodHash + `"}}`, ""},
		{"hash upper case", `{"marketapp":{"hash":"` + strings.ToUpper(goodHash) + `"}}`, ""},
		{"hash with nulls", `{"marketapp":{"hash":"` + goodHash + `"},"name":null,"platform":{"id":null},"nextplan":{"id":2}}`, ""},
		{"name and platform", `{"name":"My App","platform":{"id":2},"nextplan":{"id":3}}`, ""},
		{"neither", `{"platform":{"id":1}}`, "InvalidName"},
		{"empty name, no hash", `{"name":"","platform":{"id":1}}`, "InvalidName"},
		{"null name, empty hash", `{"name":null,"marketapp":{"hash":""},"platform":{"id":1}}`, "InvalidName"},
		{"name 256", `{"name":"` + strings.Repeat("a", 256) + `","platform":{"id":1}}`, "InvalidName"},
		{"hash 39", `{"marketapp":{"hash":"` + goodHash[:39] + `"}}`, "InvalidMarketappHash"},
		{"hash of no store", `{"marketapp":{"hash":"` + noStoreHash + `"}}`, "InvalidMarketappHash"},
		{"hash 41", `{"marketapp":{"hash":"` + goodHash + `a"}}`, "InvalidMarketappHash"},
		{"hash not hex", `{"marketapp":{"hash":"` + strings.Repeat("g", 40) + `"}}`, "InvalidMarketappHash"},
		{"hash number", `{"marketapp":{"hash":12}}`, "InvalidMarketappHash"},
		{"platform unknown", `{"name":"A","platform":{"id":7}}`, "InvalidPlatformId"},
		{"platform missing", `{"name":"A"}`, "InvalidPlatformId"},
		{"plan unknown", `{"marketapp":{"hash":"` + goodHash + `"},"nextplan":{"id":9}}`, "InvalidPlanId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do("POST", "/apps", tc.body, key(a)...)
			if tc.code != "" {
				if r.status != 400 || !r.hasCode(tc.code) {
					t.Fatalf("got %s, want %s", r, tc.code)
				}
				return
			}
			if r.status != 200 {
				t.Fatalf("got %s", r)
			}
			checkApp(t, r.obj())
			var sent map[string]any
			_ = json.Unmarshal([]byte(tc.body), &sent)
			if n, ok := sent["name"].(string); ok && r.obj()["name"] != n {
				t.Errorf("name %v", r.obj()["name"])
			}
			id := num(r.obj()["id"])
			if g := f.do("GET", fmt.Sprintf("/apps/%d", id), nil, key(a)...); string(g.body) != string(r.body) {
				t.Errorf("read back differs: %s", g.body)
			}
			if g := f.do("GET", fmt.Sprintf("/apps/%d", id), nil, key(b)...); g.status != 403 {
				t.Errorf("other account reads the app: %s", g)
			}
		})
	}
	r := f.do("POST", "/apps", `{"name":"Pro","platform":{"id":1},"nextplan":{"id":2}}`, key(a)...)
	plan := r.obj()["plan"].(map[string]any)
	if plan["isPro"] != true || plan["isLite"] != false || plan["needBilling"] != true {
		t.Errorf("plan flags %v", plan)
	}
	lite := f.do("POST", "/apps", `{"name":"Lite","platform":{"id":2}}`, key(a)...).obj()
	if p := lite["plan"].(map[string]any); p["isLite"] != true || p["needBilling"] != false {
		t.Errorf("default plan %v", p)
	}
	if lite["platform"].(map[string]any)["name"] != "iOS" {
		t.Errorf("platform %v", lite["platform"])
	}
	list := f.do("GET", "/apps", nil, key(a)...).obj()["apps"].([]any)
	ids := map[int64]bool{}
	for _, x := range list {
		ids[num(x.(map[string]any)["id"])] = true
	}
	if !ids[num(lite["id"])] || len(ids) != len(list) {
		t.Errorf("apps collection: %v", list)
	}
	for _, x := range f.do("GET", "/apps", nil, key(b)...).obj()["apps"].([]any) {
		if ids[num(x.(map[string]any)["id"])] {
			t.Errorf("B sees an app of A")
		}
	}
}

func TestCollectionsAndVersions(t *testing.T) {
	f := start(t, "", 1)
	a := f.acc[0][0]
	for _, tc := range []struct {
		path, member string
	}{
		{"/platforms", "platforms"},
		{"/currencies", "currencies"},
		{"/plans", "plans"},
		{"/phonecountries", "phoneCountries"},
		{"/apps", "apps"},
		{"/clients", "clients"},
	} {
		r := f.do("GET", tc.path, nil, key(a)...)
		if r.status != 200 || len(r.obj()) != 1 {
			t.Errorf("%s: %s", tc.path, r)
			continue
		}
		if _, ok := r.obj()[tc.member].([]any); !ok {
			t.Errorf("%s: no %s array", tc.path, tc.member)
		}
		if r := f.do("GET", tc.path, nil); r.status != 401 {
			t.Errorf("%s without auth: %s", tc.path, r)
		}
	}
	var names []string
	for _, p := range f.do("GET", "/platforms", nil, key(a)...).obj()["platforms"].([]any) {
		names = append(names, p.(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "Android,iOS" {
		t.Errorf("platforms %v", names)
	}

	id := f.ident(a).user
	for _, tc := range []struct {
		base   string
		status int
	}{
		{"/v1", 200},
		{"/v1.0", 200},
		{"/v1.1", 404},
		{"/v2", 404},
		{"/V1", 404},
		{"", 404},
	} {
		if r := f.raw("GET", fmt.Sprintf("%s%s/users/%d", f.ts.URL, tc.base, id), nil, key(a)...); r.status != tc.status {
			t.Errorf("%s: %s", tc.base, r)
		}
	}
	if r := f.raw("GET", f.ts.URL+"/v1", nil); r.status != 200 || r.obj()["resources"] == nil {
		t.Errorf("index: %s", r)
	}
}

func TestWire(t *testing.T) {
	f := start(t, "", 1)
	a := f.acc[0][0]
	path := fmt.Sprintf("/users/%d", f.ident(a).user)
	for _, tc := range []struct {
		name string
		body any
		hdr  []string
	}{
		{"no accept", `{"firstName":"W"}`, nil},
		{"accept any", `{"firstName":"W"}`, []string{"Accept", "*/*"}},
		{"accept with params", `{"firstName":"W"}`, []string{"Accept", "application/json; charset=utf-8; q=0.9"}},
		{"accept html", `{"firstName":"W"}`, []string{"Accept", "text/html"}},
		{"content type charset", `{"firstName":"W"}`, []string{"Content-Type", "application/json; charset=utf-8"}},
		{"content type upper", `{"firstName":"W"}`, []string{"Content-Type", "APPLICATION/JSON"}},
		{"no content type", `{"firstName":"W"}`, nil},
		{"chunked", io.MultiReader(strings.NewReader(`{"firstName":`), strings.NewReader(`"W"}`)), nil},
		{"escaped", `{"first\u004eame":"\u0057"}`, nil},
		{"whitespace", "\n\t {  \"firstName\" :\r\n \"W\"  }  \n", nil},
		{"order", `{"lastName":"Pair0","firstName":"W"}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do("PUT", path, tc.body, with(key(a), tc.hdr...)...)
			if r.status != 200 || r.obj()["firstName"] != "W" {
				t.Fatalf("got %s", r)
			}
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("content type %q", ct)
			}
		})
	}
	if r := f.do("HEAD", path, nil, key(a)...); r.status != 200 || len(r.body) != 0 {
		t.Errorf("HEAD: %s", r)
	}
	if r := f.do("OPTIONS", path, nil); r.status != 204 || !strings.Contains(r.header.Get("Allow"), "PUT") {
		t.Errorf("OPTIONS: %d %v", r.status, r.header)
	}
	if r := f.do("PUT", path, `{"firstName":"W"} trailing`, key(a)...); r.status != 400 {
		t.Errorf("trailing garbage: %s", r)
	}
	if r := f.do("PUT", path, strings.Repeat(" ", 2<<20), key(a)...); r.status != 413 {
		t.Errorf("huge body: %d", r.status)
	}
}

// TestSecrecy scans every answer a session of calls produces for a secret.
func TestSecrecy(t *testing.T) {
	f := start(t, "", 2)
	a, b := f.acc[0][0], f.acc[0][1]
	ia, ib := f.ident(a), f.ident(b)
	var answers []resp
	call := func(method, path string, body any, hdr ...string) {
		answers = append(answers, f.do(method, path, body, hdr...))
	}
	call("PUT", fmt.Sprintf("/users/%d", ia.user), map[string]any{"password": "rotated-pw", "email": b.Email}, key(a)...)
	call("PUT", fmt.Sprintf("/users/%d", ib.user), map[string]any{"firstName": "X"}, key(a)...)
	call("GET", fmt.Sprintf("/users/%d", ib.user), nil, key(a)...)
	call("PUT", fmt.Sprintf("/clients/%d", ib.client), map[string]any{"name": "X"}, key(a)...)
	call("GET", "/apps", nil, key(a)...)
	call("GET", "/clients", nil, key(a)...)
	call("POST", "/sessions", map[string]any{"email": b.Email, "password": a.Password})
	call("GET", "/users/me", nil, "session-token", ib.token+"x")
	call("PUT", fmt.Sprintf("/users/%d", ia.user), map[string]any{"password": "rotated"}, key(a)...)
	for _, r := range answers {
		text := string(r.body) + fmt.Sprint(r.header)
		for _, secret := range []string{a.Password, b.Password, b.APIKey, ib.token, b.Email, "rotated-pw", "passwordHash", "Salt", fmt.Sprint(ib.user)} {
			if strings.Contains(text, secret) {
				t.Errorf("answer %s carries %q", r, secret)
			}
		}
	}
}

// TestConcurrency runs overlapping requests and checks that the end state is
// one some serial order explains.
func TestConcurrency(t *testing.T) {
	f := start(t, "", 4)
	var wg sync.WaitGroup
	var mu sync.Mutex
	appIDs := map[int64]int{}
	emailWins := 0
	contested := unique("contested") + "@example.com"
	for p := range f.acc {
		for side := range 2 {
			a := f.acc[p][side]
			id := f.ident(a)
			wg.Add(1)
			go func() {
				defer wg.Done()
				var inner sync.WaitGroup
				for i := range 6 {
					inner.Add(3)
					go func() {
						defer inner.Done()
						if side == 0 {
							// A whole body carries the email: the A side
							// contests the email, the B side updates.
							return
						}
						r := f.do("PUT", fmt.Sprintf("/users/%d", id.user), map[string]any{fmt.Sprintf("subscribe%s", []string{"Welcome", "Blog", "Howto"}[i%3]): i%2 == 0, "lastName": fmt.Sprintf("L%d", i)}, key(a)...)
						if r.status != 200 {
							t.Errorf("put: %s", r)
						}
					}()
					go func() {
						defer inner.Done()
						r := f.do("POST", "/apps", map[string]any{"name": fmt.Sprintf("c%d", i), "platform": map[string]any{"id": 1}}, "session-token", id.token)
						if r.status != 200 {
							t.Errorf("post app: %s", r)
							return
						}
						mu.Lock()
						appIDs[num(r.obj()["id"])]++
						mu.Unlock()
					}()
					go func() {
						defer inner.Done()
						if side == 1 {
							return
						}
						r := f.do("PUT", fmt.Sprintf("/users/%d", id.user), map[string]any{"email": contested}, key(a)...)
						if r.status == 200 {
							mu.Lock()
							emailWins++
							mu.Unlock()
						}
					}()
				}
				inner.Wait()
			}()
		}
	}
	wg.Wait()
	for id, n := range appIDs {
		if n != 1 {
			t.Errorf("app id %d given %d times", id, n)
		}
	}
	holders := 0
	for p := range f.acc {
		for side := range 2 {
			a := f.acc[p][side]
			u := f.do("GET", "/users/me", nil, key(a)...).obj()
			if u["email"] == contested {
				holders++
				continue
			}
			if f.login(a.Email, a.Password).status != 200 {
				t.Errorf("%s no longer logs in", a.Email)
			}
			if n := len(f.do("GET", "/apps", nil, key(a)...).obj()["apps"].([]any)); n != 7 {
				t.Errorf("%s has %d apps, want 7", a.Email, n)
			}
		}
	}
	if holders != 1 || emailWins < 1 {
		t.Errorf("contested email held by %d users (%d wins)", holders, emailWins)
	}
}

// TestGarbage throws malformed requests at every route: none may answer 5xx.
func TestGarbage(t *testing.T) { garbage(t, "") }

func garbage(t *testing.T, fault string) {
	f := start(t, fault, 1)
	a := f.acc[0][0]
	id := f.ident(a)
	rng := rand.New(rand.NewPCG(1, 2))
	paths := []string{"/sessions", "/users", fmt.Sprintf("/users/%d", id.user), "/users/me", "/clients", fmt.Sprintf("/clients/%d", id.client), "/apps", "/apps/1", "/platforms",
		"/users/99999999999999999999999", "/users/%2e%2e", "/../../etc/passwd", "/users/1e3", "//users", "/users/ 1", "/apps/-0"}
	deep := strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)
	deepArr := `{"client":` + strings.Repeat("[", 50000) + strings.Repeat("]", 50000) + "}"
	bodies := []string{
		"", "null", "[]", "1", `"x"`, "{", `{"email":`, deep, deepArr,
		`{"email":{"a":1},"password":[1],"firstName":true,"phoneCountry":"x","client":"y","subscribeBlog":null}`,
		`{"client":{"app":{"marketapp":[],"platform":7,"nextplan":"x","name":{}},"currency":[],"terms":1}}`,
		`{"marketapp":{"hash":null},"platform":{"id":1e400},"nextplan":{"id":-1}}`,
		`{"phoneCountry":{"id":9223372036854775808},"phoneCountryId":-9223372036854775809}`,
		`{"firstName":"` + strings.Repeat("ż", 100000) + `"}`,
		`{"email":"\ud800@example.com","firstName":"\u0000"}`,
		"{\"firstName\":\"\xff\xfe\"}",
		`{"email":"a@b.c","email":"x"}`,
	}
	for range 20 {
		b := make([]byte, rng.IntN(200))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		bodies = append(bodies, string(b))
	}
	headers := [][]string{
		key(a),
		{"session-token", id.token},
		{"Authorization", "api-key"},
		{"Authorization", "api-key " + strings.Repeat("k", 5000)},
		{"Authorization", "\x01\x02"},
		{"session-token", strings.Repeat("t", 8000)},
		{"Content-Type", "text/plain", "Accept", "image/png"},
		with(key(a), "Authorization", "api-key other"),
	}
	for _, method := range []string{"GET", "PUT", "POST", "PATCH", "DELETE"} {
		for _, p := range paths {
			for i, body := range bodies {
				h := key(a)
				if i%2 == 1 {
					h = headers[(i/2)%len(headers)]
				}
				url := f.base + p
				if !strings.HasPrefix(p, "/") || strings.Contains(p, " ") {
					continue
				}
				req, err := http.NewRequest(method, url, strings.NewReader(body))
				if err != nil {
					continue
				}
				for j := 0; j+1 < len(h); j += 2 {
					req.Header.Add(h[j], h[j+1])
				}
				res, err := f.ts.Client().Do(req)
				if err != nil {
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode >= 500 {
					t.Errorf("%s %s body %.40q: %d", method, p, body, res.StatusCode)
				}
			}
		}
	}
	// Raw bytes that no well-behaved client sends.
	for _, line := range []string{
		"GET /v1/users/%zz HTTP/1.1\r\nHost: x\r\n\r\n",
		"PUT /v1/users/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n{",
		"GET /v1/platforms?sessionToken=%ff%00 HTTP/1.1\r\nHost: x\r\n\r\n",
	} {
		conn, err := net.Dial("tcp", f.ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetDeadline(time.Now().Add(2 * time.Second))
		_, _ = conn.Write([]byte(line))
		buf := make([]byte, 64)
		n, _ := conn.Read(buf)
		conn.Close()
		if s := string(buf[:n]); strings.HasPrefix(s, "HTTP/1.1 5") {
			t.Errorf("%q: %s", line, s)
		}
	}
	// The server still works (the garbage may have changed A's email).
	if f.login(f.acc[0][1].Email, f.acc[0][1].Password).status != 200 || f.do("GET", "/users/me", nil, key(a)...).status != 200 {
		t.Errorf("server broken after garbage")
	}
}

// fixture is one running server and what a black-box client knows of it.
type fixture struct {
	t    testing.TB
	srv  *Server
	ts   *httptest.Server
	base string
	acc  [][2]Account
}

func start(t testing.TB, fault string, pairs int) *fixture {
	t.Helper()
	s, err := New(Options{Pairs: pairs, Fault: fault})
	if err != nil {
		t.Fatalf("New(%q): %v", fault, err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &fixture{t: t, srv: s, ts: ts, base: ts.URL + s.BasePath(), acc: s.Accounts()}
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json() any { return lineagetest.JSON(r.body) }

func (r resp) obj() map[string]any {
	m, _ := r.json().(map[string]any)
	return m
}

// codes lists the error codes of a 400 body, "field:code" each.
func (r resp) codes() []string { return jsonpath.Codes(r.json()) }

func (r resp) hasCode(code string) bool { return jsonpath.HasCode(r.json(), code) }

func (r resp) String() string { return fmt.Sprintf("%d %s", r.status, r.body) }

// raw sends a request; body is nil, a string sent as is, or a value sent as
// JSON. hdr are name, value pairs.
func (f *fixture) raw(method, url string, body any, hdr ...string) resp {
	f.t.Helper()
	req, err := http.NewRequest(method, url, lineagetest.Body(body))
	if err != nil {
		f.t.Fatalf("request: %v", err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	res, err := f.ts.Client().Do(req)
	if err != nil {
		// Errorf, not Fatalf: probes call this from their own goroutines.
		f.t.Errorf("%s %s: %v", method, url, err)
		return resp{}
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, header: res.Header, body: data}
}

func (f *fixture) do(method, path string, body any, hdr ...string) resp {
	f.t.Helper()
	if method == http.MethodPut {
		switch b := body.(type) {
		case map[string]any:
			body = f.complete(path, b, hdr)
		case string:
			body = f.completeText(path, b, hdr)
		case io.Reader:
			// Read, completed, and sent in two parts again: chunked.
			data, _ := io.ReadAll(b)
			text := f.completeText(path, string(data), hdr)
			body = io.MultiReader(strings.NewReader(text[:len(text)/2]), strings.NewReader(text[len(text)/2:]))
		}
	}
	return f.raw(method, f.base+path, body, hdr...)
}

// required are the members of a PUT body the server requires (1: only a
// field marked optional may be omitted), by the path's resource.
var required = map[string][]string{
	"/users/":   {"email", "firstName", "lastName", "subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding", "timezone"},
	"/clients/": {"name", "addressLine1", "addressCity", "addressPostcode", "addressCountry", "currency"},
}

// complete fills a PUT body's missing required members with the resource's
// values as the caller reads them, so that a test of one member sends a body
// the server takes. A member a test leaves out on purpose it sets to the
// value missing.
func (f *fixture) complete(path string, m map[string]any, hdr []string) map[string]any {
	f.t.Helper()
	for prefix, fields := range required {
		if !strings.HasPrefix(path, prefix) {
			continue
		}
		r := f.raw(http.MethodGet, f.base+path, nil, hdr...)
		if r.status != http.StatusOK {
			return m
		}
		cur := r.obj()
		out := map[string]any{}
		for _, k := range fields {
			if v, ok := cur[k]; ok {
				if k == "currency" {
					v = map[string]any{"id": cur["currency"].(map[string]any)["id"]}
				}
				out[k] = v
			}
		}
		for k, v := range m {
			if v == missing {
				delete(out, k)
				continue
			}
			out[k] = v
		}
		return out
	}
	return m
}

// completeText is complete for a JSON object as text: the text is kept (its
// escapes, its duplicate members) and the missing members go before it.
func (f *fixture) completeText(path, b string, hdr []string) string {
	f.t.Helper()
	var m map[string]any
	if json.Unmarshal([]byte(b), &m) != nil || m == nil {
		return b
	}
	added := map[string]any{}
	for k, v := range f.complete(path, map[string]any{}, hdr) {
		if _, sent := m[k]; !sent {
			added[k] = v
		}
	}
	if len(added) == 0 {
		return b
	}
	text, _ := json.Marshal(added)
	at := strings.Index(b, "{") + 1
	sep := ","
	if strings.TrimSpace(b[at:])[0] == '}' {
		sep = ""
	}
	return b[:at] + string(text[1:len(text)-1]) + sep + b[at:]
}

// missing is a member a PUT body of a test leaves out on purpose.
var missing = &struct{ name string }{"missing"}

func key(a Account) []string { return []string{"Authorization", "api-key " + a.APIKey} }

func with(h []string, more ...string) []string { return append(append([]string{}, h...), more...) }

// login answers the session object of an account.
func (f *fixture) login(email, password string) resp {
	f.t.Helper()
	return f.do("POST", "/sessions", map[string]any{"email": email, "password": password})
}

type ident struct {
	user, client int64
	token        string
}

func (f *fixture) ident(a Account) ident {
	f.t.Helper()
	r := f.login(a.Email, a.Password)
	if r.status != 200 {
		f.t.Fatalf("login %s: %s", a.Email, r)
	}
	m := r.obj()
	return ident{user: int64(m["userId"].(float64)), client: int64(m["clientId"].(float64)), token: m["token"].(string)}
}

func num(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

var uniq atomic.Int64

func unique(prefix string) string { return fmt.Sprintf("%s%d", prefix, uniq.Add(1)) }

// goodHash is a store's app; noStoreHash is well formed and no store's.
var goodHash = StoreAppHashes()[0]

const noStoreHash = "0123456789abcdef0123456789abcdef01234567"

func validClient(name string) map[string]any {
	return map[string]any{
		"name": name, "addressLine1": "1 Road", "addressCity": "Leeds", "addressPostcode": "LS1 1AA",
		"addressCountry": "United Kingdom", "currency": map[string]any{"id": 2}, "terms": "I agree",
	}
}

// A PUT body without a member its table does not mark optional is refused
// for that member (1: only an optional field may be omitted; 7.3: "No first
// name was provided"); one without an optional member is taken.
func TestPutRequiresTheTableMembers(t *testing.T) {
	f := start(t, "", 1)
	a := f.acc[0][0]
	path := userPath(f, a)
	for field, code := range map[string]string{"firstName": "InvalidFirstName", "lastName": "InvalidLastName", "email": "InvalidEmail", "timezone": "InvalidTimezone"} {
		if r := f.do("PUT", path, map[string]any{field: missing}, key(a)...); r.status != 400 || !r.hasCode(code) {
			t.Errorf("PUT %s without %s: %s, want 400 %s", path, field, r, code)
		}
	}
	c := fmt.Sprintf("/clients/%d", f.ident(a).client)
	if r := f.do("PUT", c, map[string]any{"name": missing, "terms": "I agree"}, key(a)...); r.status != 400 || !r.hasCode("InvalidName") {
		t.Errorf("PUT %s without name: %s, want 400 InvalidName", c, r)
	}
	if r := f.do("PUT", c, map[string]any{"vat": missing, "terms": "I agree"}, key(a)...); r.status != 200 {
		t.Errorf("PUT %s without vat: %s, want 200", c, r)
	}
}
