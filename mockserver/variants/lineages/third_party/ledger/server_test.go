package ledger

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

type check struct {
	name string
	fn   func(t *testing.T, s *Server)
}

func expect(t *testing.T, what string, r resp, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: want %d, got %v", what, code, r)
	}
}

func expectCode(t *testing.T, what string, r resp, field, code string) {
	t.Helper()
	want := field + ":" + code
	for _, c := range r.codes() {
		if c == want {
			if r.code != 400 {
				t.Fatalf("%s: status %d", what, r.code)
			}
			return
		}
	}
	t.Fatalf("%s: want 400 %s, got %v", what, want, r)
}

// checks is the conformance suite. Each runs on a fresh server; the legal
// readings run it too, minus the checks their one difference touches.
var checks = []check{
	{"sessions", func(t *testing.T, s *Server) {
		acc := s.Accounts()[0][0]
		r := call(s, "POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password})
		expect(t, "login", r, 200)
		o := r.obj()
		for _, k := range []string{"id", "created", "creatorUserId", "userId", "clientId", "token"} {
			if _, ok := o[k]; !ok {
				t.Fatalf("session lacks %s: %v", k, r)
			}
		}
		if !isoRe.MatchString(o["created"].(string)) || o["token"] == "" || o["userId"] != o["creatorUserId"] {
			t.Fatalf("session shape: %v", r)
		}
		expect(t, "upper-case email", call(s, "POST", "/sessions", map[string]any{"email": strings.ToUpper(acc.Email), "password": acc.Password}), 200)
		expect(t, "wrong password", call(s, "POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password + "x"}), 401)
		expect(t, "unknown email", call(s, "POST", "/sessions", map[string]any{"email": "nobody@example.test", "password": "whatever1"}), 401)
		expectCode(t, "no password", call(s, "POST", "/sessions", map[string]any{"email": acc.Email}), "password", "InvalidPassword")
		expectCode(t, "no email", call(s, "POST", "/sessions", map[string]any{"password": "x"}), "email", "InvalidEmail")
		a, b := pair(t, s)
		if a.token == b.token || a.uid == b.uid || a.cid == b.cid {
			t.Fatalf("accounts not distinct: %+v %+v", a, b)
		}
		expect(t, "own clientId", call(s, "POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password, "clientId": a.cid}), 200)
		expect(t, "foreign clientId", call(s, "POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password, "clientId": b.cid}), 403)
		expect(t, "missing clientId", call(s, "POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password, "clientId": 999999}), 404)
	}},
	{"credential-places", func(t *testing.T, s *Server) {
		a, b := pair(t, s)
		p := fmt.Sprintf("/users/%d", a.uid)
		expect(t, "api-key", call(s, "GET", p, nil, a.key...), 200)
		expect(t, "session-token header", call(s, "GET", p, nil, a.tok...), 200)
		expect(t, "sessionToken query", call(s, "GET", p+"?sessionToken="+a.token, nil), 200)
		enc := "%" + fmt.Sprintf("%X", a.token[0]) + a.token[1:]
		expect(t, "percent-encoded query token", call(s, "GET", p+"?sessionToken="+enc, nil), 200)
		expect(t, "key and token of the same user", call(s, "GET", p, nil, h(a.key, a.tok)...), 200)
		expect(t, "API-Key scheme case", call(s, "GET", p, nil, "Authorization", "API-Key "+a.acc.APIKey), 200)
		for name, hd := range map[string][]string{
			"none":              nil,
			"bad key":           {"Authorization", "api-key nope"},
			"bearer scheme":     {"Authorization", "Bearer " + a.acc.APIKey},
			"bare key":          {"Authorization", a.acc.APIKey},
			"empty key":         {"Authorization", "api-key "},
			"bad token":         {"session-token", "nope"},
			"upper token":       {"session-token", strings.ToUpper(a.token)},
			"mixed users":       h(a.key, b.tok),
			"good key bad tok":  h(a.key, []string{"session-token", "x"}),
			"two authz headers": {"Authorization", "api-key " + a.acc.APIKey, "Authorization", "api-key " + a.acc.APIKey},
		} {
			expect(t, name, call(s, "GET", p, nil, hd...), 401)
		}
		expect(t, "bad query token", call(s, "GET", p+"?sessionToken=nope", nil), 401)
		expect(t, "empty query token", call(s, "GET", p+"?sessionToken=", nil, a.key...), 401)
		// a user without api key must not make the empty key valid
		expect(t, "post user", call(s, "POST", "/users", with(userBody("fresh@example.test"), "password", "secret12")), 200)
		expect(t, "empty key after POST /users", call(s, "GET", p, nil, "Authorization", "api-key "), 401)
		expect(t, "unauth missing id", call(s, "PUT", "/users/999999", userBody("x@example.test")), 401)
		expect(t, "unauth missing client", call(s, "GET", "/clients/999999", nil), 401)
	}},
	{"put-user", func(t *testing.T, s *Server) {
		a, b := pair(t, s)
		p := fmt.Sprintf("/users/%d", a.uid)
		before := call(s, "GET", p, nil, a.key...).obj()
		body := userBody("ada@example.test")
		r := call(s, "PUT", p, body, a.key...)
		expect(t, "put", r, 200)
		o := r.obj()
		for _, k := range []string{"id", "created", "email", "passwordLastChanged", "firstName", "lastName", "subscribeWelcome",
			"subscribeBlog", "subscribeHowto", "subscribeOnboarding", "phoneCountry", "phoneNumber", "phoneExtension", "timezone"} {
			if _, ok := o[k]; !ok {
				t.Fatalf("user lacks %s: %v", k, r)
			}
		}
		if _, ok := o["password"]; ok {
			t.Fatal("password returned")
		}
		pc, _ := o["phoneCountry"].(map[string]any)
		if o["email"] != "ada@example.test" || o["firstName"] != "Ada" || o["subscribeHowto"] != true || o["subscribeWelcome"] != true ||
			pc["id"] != 3.0 || pc["dialCode"] != "+49" || !strings.Contains(pc["name"].(string), "(+49)") || o["phoneExtension"] != "42" ||
			o["timezone"] != "Europe/Paris" || num(o["id"]) != a.uid || o["created"] != before["created"] ||
			o["passwordLastChanged"] != before["passwordLastChanged"] {
			t.Fatalf("put answer: %v", r)
		}
		if g := call(s, "GET", p, nil, a.tok...); !reflect.DeepEqual(g.obj(), o) {
			t.Fatalf("GET differs from PUT answer:\n%v\n%v", g, r)
		}
		// password null kept it
		expect(t, "old password still valid", call(s, "POST", "/sessions", map[string]any{"email": "ada@example.test", "password": a.acc.Password}), 200)
		// password change
		r = call(s, "PUT", p, with(body, "password", "n3w-secret", "phoneExtension", nil), a.key...)
		expect(t, "password change", r, 200)
		if _, ok := r.obj()["password"]; ok || r.obj()["passwordLastChanged"] == before["passwordLastChanged"] || r.obj()["phoneExtension"] != nil {
			t.Fatalf("password change answer: %v", r)
		}
		expect(t, "old password", call(s, "POST", "/sessions", map[string]any{"email": "ada@example.test", "password": a.acc.Password}), 401)
		expect(t, "new password", call(s, "POST", "/sessions", map[string]any{"email": "ADA@example.test", "password": "n3w-secret"}), 200)
		expect(t, "old email", call(s, "POST", "/sessions", map[string]any{"email": a.acc.Email, "password": "n3w-secret"}), 401)
		expect(t, "omitted password keeps", call(s, "PUT", p, with(body, "password", del), a.key...), 200)
		expect(t, "session after change", call(s, "GET", p, nil, a.tok...), 200)
		// permission and existence
		expect(t, "other user", call(s, "PUT", fmt.Sprintf("/users/%d", b.uid), userBody("b2@example.test"), a.key...), 403)
		expect(t, "other user GET", call(s, "GET", fmt.Sprintf("/users/%d", b.uid), nil, a.key...), 403)
		expect(t, "missing user", call(s, "PUT", "/users/999999", body, a.key...), 404)
		expect(t, "non-numeric id", call(s, "PUT", "/users/abc", body, a.key...), 404)
		// email taken (case-insensitively) by another user
		expectCode(t, "email taken", call(s, "PUT", p, userBody(strings.ToUpper(b.acc.Email)), a.key...), "email", "InvalidEmail")
		// own email in another case is fine
		expect(t, "own email recased", call(s, "PUT", p, userBody("ADA@example.test"), a.key...), 200)
		// phoneCountryId form
		r = call(s, "PUT", p, with(body, "phoneCountry", del, "phoneCountryId", 2), a.key...)
		expect(t, "phoneCountryId", r, 200)
		if pc := r.obj()["phoneCountry"].(map[string]any); pc["dialCode"] != "+1" {
			t.Fatalf("phoneCountryId: %v", r)
		}
		// creating a client through PUT /users
		r = call(s, "PUT", p, with(body, "client", clientBody("Via User Ltd")), a.key...)
		expect(t, "put with client", r, 200)
		if cl := call(s, "GET", "/clients", nil, a.key...).obj()["clients"].([]any); len(cl) != 2 {
			t.Fatalf("clients after PUT with client: %v", cl)
		}
	}},
	{"put-user-codes", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		p := fmt.Sprintf("/users/%d", a.uid)
		base := userBody("codes@example.test")
		long := strings.Repeat("x", 256)
		cases := []struct {
			name        string
			kv          []any
			field, code string
		}{
			{"email no at", []any{"email", "not-an-email"}, "email", "InvalidEmail"},
			{"email display name", []any{"email", "Ada <ada@example.test>"}, "email", "InvalidEmail"},
			{"email number", []any{"email", 5}, "email", "InvalidEmail"},
			{"email too long", []any{"email", strings.Repeat("a", 244) + "@example.test"}, "email", "InvalidEmail"},
			{"password short", []any{"password", "12345"}, "password", "InvalidPassword"},
			{"password number", []any{"password", 123456}, "password", "InvalidPassword"},
			{"first name empty", []any{"firstName", ""}, "firstName", "InvalidFirstName"},
			{"first name blank", []any{"firstName", "   "}, "firstName", "InvalidFirstName"},
			{"first name null", []any{"firstName", nil}, "firstName", "InvalidFirstName"},
			{"first name long", []any{"firstName", long}, "firstName", "InvalidFirstName"},
			{"last name empty", []any{"lastName", ""}, "lastName", "InvalidLastName"},
			{"last name number", []any{"lastName", 1}, "lastName", "InvalidLastName"},
			{"phone country unknown", []any{"phoneCountry", map[string]any{"id": 99}}, "phoneCountry.id", "InvalidPhoneCountryId"},
			{"phone country string id", []any{"phoneCountry", map[string]any{"id": "1"}}, "phoneCountry.id", "InvalidPhoneCountryId"},
			{"phone country null", []any{"phoneCountry", nil}, "phoneCountry.id", "InvalidPhoneCountryId"},
			{"phone country fraction", []any{"phoneCountry", map[string]any{"id": 1.5}}, "phoneCountry.id", "InvalidPhoneCountryId"},
			{"phone number empty", []any{"phoneNumber", ""}, "phoneNumber", "InvalidPhoneNumber"},
			{"phone number null", []any{"phoneNumber", nil}, "phoneNumber", "InvalidPhoneNumber"},
			{"phone extension letters", []any{"phoneExtension", "12a"}, "phoneExtension", "InvalidPhoneExtension"},
			{"phone extension number", []any{"phoneExtension", 12}, "phoneExtension", "InvalidPhoneExtension"},
			{"phone extension empty", []any{"phoneExtension", ""}, "phoneExtension", "InvalidPhoneExtension"},
			{"subscribe string", []any{"subscribeBlog", "true"}, "subscribeBlog", "InvalidSubscribeBlog"},
			{"timezone bad", []any{"timezone", "Paris"}, "timezone", "InvalidTimezone"},
			{"client not object", []any{"client", "x"}, "client", "InvalidClient"},
			{"client without name", []any{"client", with(clientBody(""), "name", del)}, "client.name", "InvalidName"},
		}
		before := call(s, "GET", p, nil, a.key...)
		for _, c := range cases {
			r := call(s, "PUT", p, with(base, c.kv...), a.key...)
			expectCode(t, c.name, r, c.field, c.code)
		}
		// several errors at once, all reported
		r := call(s, "PUT", p, with(base, "email", "x", "firstName", ""), a.key...)
		if len(r.codes()) != 2 {
			t.Fatalf("two errors: %v", r)
		}
		if after := call(s, "GET", p, nil, a.key...); !bytes.Equal(before.raw, after.raw) {
			t.Fatalf("refused PUTs changed the user:\n%v\n%v", before, after)
		}
		if n := len(call(s, "GET", "/clients", nil, a.key...).obj()["clients"].([]any)); n != 1 {
			t.Fatalf("refused PUT created a client")
		}
	}},
	{"put-user-required", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		p := fmt.Sprintf("/users/%d", a.uid)
		for k, code := range map[string]string{"email": "InvalidEmail", "firstName": "InvalidFirstName", "lastName": "InvalidLastName",
			"subscribeWelcome": "InvalidSubscribeWelcome", "timezone": "InvalidTimezone"} {
			expectCode(t, "missing "+k, call(s, "PUT", p, with(userBody("req@example.test"), k, del), a.key...), k, code)
		}
	}},
	{"clients", func(t *testing.T, s *Server) {
		a, b := pair(t, s)
		r := call(s, "POST", "/clients", with(clientBody("Second Ltd"), "vat", "GB123", "currency", map[string]any{"id": 2.0}), a.key...)
		expect(t, "post client", r, 200)
		o := r.obj()
		cur, _ := o["currency"].(map[string]any)
		if o["name"] != "Second Ltd" || o["vat"] != "GB123" || !isoRe.MatchString(fmt.Sprint(o["createdDate"])) || cur["code"] != "GBP" || cur["id"] != 2.0 {
			t.Fatalf("client answer: %v", r)
		}
		if _, ok := o["addressLine2"]; ok {
			t.Fatalf("unset addressLine2 returned: %v", r)
		}
		cid := num(o["id"])
		p := fmt.Sprintf("/clients/%d", cid)
		if g := call(s, "GET", p, nil, a.key...); !reflect.DeepEqual(g.obj(), o) {
			t.Fatalf("GET differs: %v", g)
		}
		if cl := call(s, "GET", "/clients", nil, a.key...).obj(); len(cl["clients"].([]any)) != 2 || cl["total"] != 2.0 {
			t.Fatalf("clients list: %v", cl)
		}
		r = call(s, "PUT", p, with(clientBody("Renamed Ltd"), "addressLine2", "Floor 2", "vat", nil, "currency", map[string]any{"id": 3}), a.key...)
		expect(t, "put client", r, 200)
		if o := r.obj(); o["name"] != "Renamed Ltd" || o["addressLine2"] != "Floor 2" || o["vat"] != nil || o["createdDate"] != call(s, "GET", p, nil, a.key...).obj()["createdDate"] {
			t.Fatalf("put client answer: %v", r)
		}
		if g := call(s, "GET", p, nil, a.tok...); g.obj()["name"] != "Renamed Ltd" || g.obj()["currency"].(map[string]any)["code"] != "USD" {
			t.Fatalf("GET after PUT: %v", g)
		}
		expectCode(t, "app on PUT", call(s, "PUT", p, with(clientBody("X"), "app", appBody(hashAndroid)), a.key...), "app", "InvalidApp")
		expect(t, "other's client PUT", call(s, "PUT", fmt.Sprintf("/clients/%d", b.cid), clientBody("Mine"), a.key...), 403)
		expect(t, "other's client GET", call(s, "GET", fmt.Sprintf("/clients/%d", b.cid), nil, a.key...), 403)
		expect(t, "missing client", call(s, "PUT", "/clients/999999", clientBody("Mine"), a.key...), 404)
		for _, m := range []string{"POST", "PUT"} {
			path := "/clients"
			if m == "PUT" {
				path = p
			}
			for name, kv := range map[string][]any{
				"name empty": {"name", ""}, "name null": {"name", nil}, "name number": {"name", 3},
			} {
				expectCode(t, m+" "+name, call(s, m, path, with(clientBody(""), kv...), a.key...), "name", "InvalidName")
			}
			for name, c := range map[string][]any{
				"terms":    {"terms", "i agree", "terms", "InvalidTerms"},
				"terms2":   {"terms", "I agree ", "terms", "InvalidTerms"},
				"currency": {"currency", map[string]any{"id": 99}, "currency.id", "InvalidCurrencyId"},
				"city":     {"addressCity", "", "addressCity", "InvalidAddressCity"},
				"line1":    {"addressLine1", nil, "addressLine1", "InvalidAddressLine1"},
				"vat":      {"vat", 7, "vat", "InvalidVat"},
			} {
				expectCode(t, m+" "+name, call(s, m, path, with(clientBody("Y"), c[0], c[1]), a.key...), c[2].(string), c[3].(string))
			}
		}
		if g := call(s, "GET", p, nil, a.key...); g.obj()["name"] != "Renamed Ltd" {
			t.Fatalf("refused PUT changed client: %v", g)
		}
	}},
	{"client-required", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		p := fmt.Sprintf("/clients/%d", a.cid)
		expectCode(t, "POST without name", call(s, "POST", "/clients", with(clientBody("Z"), "name", del), a.key...), "name", "InvalidName")
		expectCode(t, "PUT without name", call(s, "PUT", p, with(clientBody("Z"), "name", del), a.key...), "name", "InvalidName")
		expectCode(t, "PUT without terms", call(s, "PUT", p, with(clientBody("Z"), "terms", del), a.key...), "terms", "InvalidTerms")
		expectCode(t, "PUT without city", call(s, "PUT", p, with(clientBody("Z"), "addressCity", del), a.key...), "addressCity", "InvalidAddressCity")
	}},
	{"clients-atomic", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		count := func() (int, int) {
			c := call(s, "GET", "/clients", nil, a.key...).obj()["clients"].([]any)
			ap := call(s, "GET", "/apps", nil, a.key...).obj()["apps"].([]any)
			return len(c), len(ap)
		}
		c0, a0 := count()
		expect(t, "unknown marketapp", call(s, "POST", "/clients", with(clientBody("Both Ltd"), "app", appBody(hashUnknown)), a.key...), 404)
		expectCode(t, "bad app", call(s, "POST", "/clients", with(clientBody("Both Ltd"), "app", with(appBody(hashAndroid), "nextplan", del)), a.key...), "app.nextplan.id", "InvalidNextplanId")
		expect(t, "bad user with client", call(s, "POST", "/users", with(userBody("atomic@example.test"), "password", "secret12", "client", with(clientBody("U"), "app", appBody(hashUnknown)))), 404)
		expect(t, "login of refused user", call(s, "POST", "/sessions", map[string]any{"email": "atomic@example.test", "password": "secret12"}), 401)
		if c1, a1 := count(); c1 != c0 || a1 != a0 {
			t.Fatalf("refused requests created something: %d/%d -> %d/%d", c0, a0, c1, a1)
		}
		r := call(s, "POST", "/clients", with(clientBody("Both Ltd"), "app", appBody(hashTrail)), a.key...)
		expect(t, "client with app", r, 200)
		apps := call(s, "GET", fmt.Sprintf("/apps?clientId=%d", num(r.obj()["id"])), nil, a.key...).obj()["apps"].([]any)
		if len(apps) != 1 || apps[0].(map[string]any)["name"] != "Trail Runner" {
			t.Fatalf("first app: %v", apps)
		}
	}},
	{"apps", func(t *testing.T, s *Server) {
		a, b := pair(t, s)
		r := call(s, "POST", "/apps", appBody(hashIOS), a.key...)
		expect(t, "post app", r, 200)
		o := r.obj()
		pl, _ := o["platform"].(map[string]any)
		plan, _ := o["plan"].(map[string]any)
		ma, _ := o["marketapp"].(map[string]any)
		if pl["name"] != "iOS" || pl["id"] != 2.0 || !hex32.MatchString(fmt.Sprint(o["writeKey"])) || ma["hash"] != hashIOS ||
			plan["isLite"] != true || plan["isPro"] != false || plan["isDynamic"] != false || plan["needBilling"] != false ||
			o["name"] != "Puzzle Harbour" || !isoRe.MatchString(fmt.Sprint(o["created"])) {
			t.Fatalf("app answer: %v", r)
		}
		aid := num(o["id"])
		if g := call(s, "GET", fmt.Sprintf("/apps/%d", aid), nil, a.tok...); !reflect.DeepEqual(g.obj(), o) {
			t.Fatalf("GET app differs: %v", g)
		}
		up := call(s, "POST", "/apps", with(appBody(strings.ToUpper(hashAndroid)), "nextplan", map[string]any{"id": 2}), a.key...)
		expect(t, "upper-case hash", up, 200)
		if up.obj()["marketapp"].(map[string]any)["hash"] != hashAndroid || up.obj()["plan"].(map[string]any)["isPro"] != true {
			t.Fatalf("upper-case hash answer: %v", up)
		}
		byName := call(s, "POST", "/apps", map[string]any{"name": "Trail Runner", "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 3}}, a.key...)
		expect(t, "by name", byName, 200)
		if byName.obj()["marketapp"].(map[string]any)["hash"] != hashTrail {
			t.Fatalf("by name: %v", byName)
		}
		expect(t, "by name, not in store", call(s, "POST", "/apps", map[string]any{"name": "Nope", "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}, a.key...), 404)
		expectCode(t, "neither", call(s, "POST", "/apps", map[string]any{"marketapp": map[string]any{}, "nextplan": map[string]any{"id": 1}}, a.key...), "name", "InvalidName")
		expectCode(t, "neither, nulls", call(s, "POST", "/apps", appBody("x"), a.key...), "marketapp.hash", "InvalidMarketappHash")
		expectCode(t, "neither, null hash", call(s, "POST", "/apps", with(appBody(""), "marketapp", map[string]any{"hash": nil}), a.key...), "name", "InvalidName")
		expectCode(t, "name blank", call(s, "POST", "/apps", map[string]any{"name": " ", "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}, a.key...), "name", "InvalidName")
		expectCode(t, "name w/o platform", call(s, "POST", "/apps", map[string]any{"name": "Trail Runner", "nextplan": map[string]any{"id": 1}}, a.key...), "platform.id", "InvalidPlatformId")
		expect(t, "unknown hash", call(s, "POST", "/apps", appBody(hashUnknown), a.key...), 404)
		for name, hv := range map[string]any{"39": hashAndroid[:39], "41": hashAndroid + "0", "non-hex": "g" + hashAndroid[1:], "number": 5, "empty": ""} {
			expectCode(t, "hash "+name, call(s, "POST", "/apps", appBody(""), a.key...), "marketapp.hash", "InvalidMarketappHash")
			expectCode(t, "hash "+name, call(s, "POST", "/apps", with(appBody(""), "marketapp", map[string]any{"hash": hv}), a.key...), "marketapp.hash", "InvalidMarketappHash")
		}
		expectCode(t, "no nextplan", call(s, "POST", "/apps", with(appBody(hashAndroid), "nextplan", del), a.key...), "nextplan.id", "InvalidNextplanId")
		expectCode(t, "bad nextplan", call(s, "POST", "/apps", with(appBody(hashAndroid), "nextplan", map[string]any{"id": 9}), a.key...), "nextplan.id", "InvalidNextplanId")
		// isolation
		rb := call(s, "POST", "/apps", appBody(hashIOS), b.key...)
		expect(t, "B's app", rb, 200)
		if rb.obj()["writeKey"] == o["writeKey"] || num(rb.obj()["id"]) == aid {
			t.Fatalf("A and B apps share id or write key")
		}
		f := call(s, "GET", fmt.Sprintf("/apps/%d", aid), nil, b.key...)
		expect(t, "B reads A's app", f, 403)
		if strings.Contains(string(f.raw), o["writeKey"].(string)) {
			t.Fatal("403 leaks write key")
		}
		expect(t, "B lists A's apps", call(s, "GET", fmt.Sprintf("/apps?clientId=%d", a.cid), nil, b.key...), 403)
		expect(t, "missing app", call(s, "GET", "/apps/1", nil, b.key...), 404)
		la := call(s, "GET", "/apps", nil, a.key...).obj()
		if len(la["apps"].([]any)) != 3 || la["total"] != 3.0 {
			t.Fatalf("A's apps: %v", la)
		}
		if lb := call(s, "GET", "/apps", nil, b.key...).obj()["apps"].([]any); len(lb) != 1 {
			t.Fatalf("B's apps: %v", lb)
		}
		// a user without a client may not create apps
		expect(t, "post user", call(s, "POST", "/users", with(userBody("noclient@example.test"), "password", "secret12")), 200)
		nc := login(t, s, Account{Email: "noclient@example.test", Password: "secret12"})
		expect(t, "app without client", call(s, "POST", "/apps", appBody(hashIOS), nc.tok...), 403)
	}},
	{"limits", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		pc := fmt.Sprintf("/clients/%d", a.cid)
		pu := fmt.Sprintf("/users/%d", a.uid)
		for _, ch := range []string{"x", "é", "😀"} {
			for _, f := range []string{"name", "addressLine1", "addressLine2", "addressCity", "addressPostcode", "addressCountry", "vat"} {
				expect(t, f+" 255 "+ch, call(s, "PUT", pc, with(clientBody("N"), f, strings.Repeat(ch, 255)), a.key...), 200)
				r := call(s, "PUT", pc, with(clientBody("N"), f, strings.Repeat(ch, 256)), a.key...)
				if r.code != 400 || len(r.codes()) != 1 || !strings.HasPrefix(r.codes()[0], f+":") {
					t.Fatalf("%s 256 %s: %v", f, ch, r)
				}
			}
			for _, f := range []string{"firstName", "lastName"} {
				expect(t, f+" 255", call(s, "PUT", pu, with(userBody("lim@example.test"), f, strings.Repeat(ch, 255)), a.key...), 200)
				expect(t, f+" 256", call(s, "PUT", pu, with(userBody("lim@example.test"), f, strings.Repeat(ch, 256)), a.key...), 400)
			}
		}
		e255 := strings.Repeat("a", 242) + "@example.test"
		expect(t, "email 255", call(s, "PUT", pu, userBody(e255), a.key...), 200)
		expect(t, "email 256", call(s, "PUT", pu, userBody("a"+e255), a.key...), 400)
		expect(t, "password 6", call(s, "PUT", pu, with(userBody("lim@example.test"), "password", "123456"), a.key...), 200)
		expect(t, "password 6 multibyte", call(s, "PUT", pu, with(userBody("lim@example.test"), "password", "éééééé"), a.key...), 200)
		expectCode(t, "password 5 multibyte", call(s, "PUT", pu, with(userBody("lim@example.test"), "password", "ééééé"), a.key...), "password", "InvalidPassword")
		expect(t, "app name 255 (by name)", call(s, "POST", "/apps", map[string]any{"name": strings.Repeat("é", 255), "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}, a.key...), 404)
		expectCode(t, "app name 256", call(s, "POST", "/apps", map[string]any{"name": strings.Repeat("é", 256), "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}, a.key...), "name", "InvalidName")
		big := with(clientBody("Big"), "pad", strings.Repeat("x", 70000))
		expect(t, "body over 64 KiB", call(s, "PUT", pc, big, a.key...), 413)
	}},
	{"error-shapes", func(t *testing.T, s *Server) {
		a, b := pair(t, s)
		r := call(s, "PUT", fmt.Sprintf("/clients/%d", a.cid), clientBody(""), a.key...)
		arr, ok := r.val().([]any)
		if r.code != 400 || !ok || len(arr) != 1 {
			t.Fatalf("400 shape: %v", r)
		}
		e := arr[0].(map[string]any)
		if e["fieldName"] != "name" || e["error"] != "InvalidName" || e["message"] == "" || len(e) != 3 {
			t.Fatalf("400 element: %v", e)
		}
		for what, rr := range map[string]resp{
			"401": call(s, "GET", "/clients", nil),
			"403": call(s, "GET", fmt.Sprintf("/clients/%d", b.cid), nil, a.key...),
			"404": call(s, "GET", "/clients/999999", nil, a.key...),
			"405": call(s, "DELETE", "/clients", nil, a.key...),
			"400": call(s, "POST", "/clients", "{", a.key...),
		} {
			if !strings.HasPrefix(rr.hdr.Get("Content-Type"), "application/json") || rr.val() == nil || what != fmt.Sprint(rr.code) {
				t.Fatalf("%s: %v", what, rr)
			}
		}
	}},
	{"wire", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		p := fmt.Sprintf("/clients/%d", a.cid)
		for name, ct := range map[string]string{"charset": "application/json; charset=utf-8", "upper": "Application/JSON", "vendor": "application/vnd.pricing+json"} {
			expect(t, name, call(s, "PUT", p, clientBody("Wire Ltd"), h(a.key, []string{"-", "Content-Type", "Content-Type", ct})...), 200)
		}
		expect(t, "no content type", call(s, "PUT", p, clientBody("Wire Ltd"), h(a.key, []string{"-", "Content-Type"})...), 200)
		expect(t, "text/plain", call(s, "PUT", p, clientBody("Wire Ltd"), h(a.key, []string{"-", "Content-Type", "Content-Type", "text/plain"})...), 415)
		expect(t, "leading space", call(s, "PUT", p, "\n  {\"name\":\"W\",\"addressLine1\":\"a\",\"addressCity\":\"b\",\"addressPostcode\":\"c\",\"addressCountry\":\"d\",\"currency\":{\"id\":1},\"terms\":\"I agree\"} \n", a.key...), 200)
		expect(t, "escaped terms", call(s, "PUT", p, `{"name":"W","addressLine1":"a","addressCity":"b","addressPostcode":"c","addressCountry":"d","currency":{"id":1e0},"terms":"\u0049 agree"}`, a.key...), 200)
		expect(t, "float id", call(s, "PUT", p, rawClient("W", "2.0"), a.key...), 200)
		for name, body := range map[string]string{"trailing": `{"name":"W"} x`, "two values": `{} {}`, "array": `[]`, "string": `"x"`, "null": `null`, "empty": ``, "broken": `{"name":`} {
			r := call(s, "PUT", p, body, a.key...)
			if r.code != 400 || r.codes() == nil {
				t.Fatalf("%s: %v", name, r)
			}
		}
		// chunked body over a real connection
		srv := httptest.NewServer(s)
		defer srv.Close()
		body := `{"name":"Chunked Ltd","addressLine1":"a","addressCity":"b","addressPostcode":"c","addressCountry":"d","currency":{"id":1},"terms":"I agree"}`
		req, _ := http.NewRequest("PUT", srv.URL+s.BasePath()+p, io.MultiReader(strings.NewReader(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "api-key "+a.acc.APIKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(b), "Chunked Ltd") {
			t.Fatalf("chunked: %d %s", res.StatusCode, b)
		}
	}},
	{"versions", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		if s.BasePath() != "/api/v1" {
			t.Fatalf("base path %q", s.BasePath())
		}
		expect(t, "v1.0", call(s, "GET", "/api/v1.0/clients", nil, a.key...), 200)
	}},
	{"routes", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		for _, p := range []string{"/api/v2/clients", "/api/v1.1/clients", "/api/clients", "/api/v1/", "/api/v1/nothing", "/api/v1/clients/1/x", "/api/v1/platforms/1", "/other"} {
			expect(t, p, call(s, "GET", p, nil, a.key...), 404)
		}
		r := call(s, "DELETE", "/users/1", nil, a.key...)
		if r.code != 405 || !strings.Contains(r.hdr.Get("Allow"), "PUT") {
			t.Fatalf("405: %v %v", r, r.hdr)
		}
	}},
	{"catalogues", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		for res, prop := range map[string]string{"platforms": "platforms", "currencies": "currencies", "plans": "plans", "phonecountries": "phoneCountries"} {
			r := call(s, "GET", "/"+res, nil, a.key...)
			list, ok := r.obj()[prop].([]any)
			if r.code != 200 || !ok || len(list) == 0 {
				t.Fatalf("%s: %v", res, r)
			}
		}
		pl := call(s, "GET", "/platforms", nil, a.tok...).obj()["platforms"].([]any)
		names := []string{}
		for _, p := range pl {
			names = append(names, p.(map[string]any)["name"].(string))
		}
		if strings.Join(names, ",") != "Android,iOS" {
			t.Fatalf("platforms: %v", names)
		}
	}},
	{"catalogues-auth", func(t *testing.T, s *Server) {
		expect(t, "platforms without auth", call(s, "GET", "/platforms", nil), 401)
	}},
	{"post-users", func(t *testing.T, s *Server) {
		body := with(userBody("new.user@example.test"), "password", "secret12", "client", with(clientBody("New Co"), "app", appBody(hashTrail)))
		r := call(s, "POST", "/users", body)
		expect(t, "post user", r, 200)
		if _, ok := r.obj()["password"]; ok || r.obj()["email"] != "new.user@example.test" {
			t.Fatalf("post user answer: %v", r)
		}
		nu := login(t, s, Account{Email: "new.user@example.test", Password: "secret12"})
		if nu.uid != num(r.obj()["id"]) || nu.cid == 0 {
			t.Fatalf("new user's session: %+v", nu)
		}
		if apps := call(s, "GET", "/apps", nil, nu.tok...).obj()["apps"].([]any); len(apps) != 1 {
			t.Fatalf("new user's apps: %v", apps)
		}
		expectCode(t, "duplicate email", call(s, "POST", "/users", with(body, "email", "NEW.user@example.test")), "email", "InvalidEmail")
		expectCode(t, "duplicate seeded email", call(s, "POST", "/users", with(body, "email", s.Accounts()[0][1].Email)), "email", "InvalidEmail")
		expectCode(t, "no phone", call(s, "POST", "/users", with(body, "email", "p@example.test", "phoneNumber", del)), "phoneNumber", "InvalidPhoneNumber")
		expectCode(t, "no password", call(s, "POST", "/users", with(body, "email", "p@example.test", "password", nil)), "password", "InvalidPassword")
	}},
	{"unknown-fields-ignored", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		expect(t, "extra field", call(s, "PUT", fmt.Sprintf("/clients/%d", a.cid), with(clientBody("Extra"), "colour", "blue"), a.key...), 200)
	}},
	{"over-time", func(t *testing.T, s *Server) {
		a, b := pair(t, s)
		// what was written stays true across many later requests
		ra := call(s, "POST", "/apps", appBody(hashAndroid), a.key...)
		expect(t, "app", ra, 200)
		for i := 0; i < 20; i++ {
			call(s, "POST", "/apps", appBody(hashIOS), b.key...)
			call(s, "PUT", fmt.Sprintf("/clients/%d", b.cid), clientBody(fmt.Sprintf("B %d", i)), b.key...)
		}
		if g := call(s, "GET", fmt.Sprintf("/apps/%d", num(ra.obj()["id"])), nil, a.key...); !reflect.DeepEqual(g.obj(), ra.obj()) {
			t.Fatalf("app changed: %v", g)
		}
		if g := call(s, "GET", fmt.Sprintf("/clients/%d", b.cid), nil, b.key...); g.obj()["name"] != "B 19" {
			t.Fatalf("client: %v", g)
		}
		// sessions stay valid
		expect(t, "old session", call(s, "GET", "/clients", nil, a.tok...), 200)
	}},
	{"empty-collections", func(t *testing.T, s *Server) {
		a, _ := pair(t, s)
		r := call(s, "GET", "/apps", nil, a.key...)
		if !strings.Contains(string(r.raw), `"apps":[]`) {
			t.Fatalf("empty apps: %v", r)
		}
	}},
}

func TestConformance(t *testing.T) {
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.fn(t, newSrv(t, ""))
		})
	}
}

func TestNewAndFaults(t *testing.T) {
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Fatal("unknown fault accepted")
	}
	s, err := New(Options{Pairs: 3})
	if err != nil || len(s.Accounts()) != 3 {
		t.Fatalf("pairs: %v", err)
	}
	seen := map[string]bool{}
	for _, p := range s.Accounts() {
		for _, acc := range p {
			if seen[acc.Email] || seen[acc.APIKey] || acc.Password == "" {
				t.Fatalf("account %+v", acc)
			}
			seen[acc.Email], seen[acc.APIKey] = true, true
			login(t, s, acc)
		}
	}
	names := map[string]bool{}
	legal := 0
	for _, f := range Faults() {
		if names[f.Name] || f.Rule == "" || f.Quote == "" || f.Description == "" {
			t.Fatalf("fault %+v", f)
		}
		names[f.Name] = true
		if f.Legal {
			legal++
		}
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Fatal(err)
		}
	}
	if legal != 5 || len(names)-legal != 30 {
		t.Fatalf("%d legal, %d faults", legal, len(names)-legal)
	}
}

// TestNoServerErrors throws garbage at every route.
func TestNoServerErrors(t *testing.T) {
	s := newSrv(t, "")
	a, _ := pair(t, s)
	rng := rand.New(rand.NewSource(1))
	paths := []string{"/sessions", "/users", fmt.Sprintf("/users/%d", a.uid), "/clients", fmt.Sprintf("/clients/%d", a.cid),
		"/apps", "/apps/52001", "/platforms", "/currencies", "/plans", "/phonecountries", "/users/0", "/users/-1",
		"/users/99999999999999999999", "/users/%00", "/apps?clientId=x", "/apps?clientId=99999999999999999999", "/apps?clientId=1&clientId=2"}
	bodies := []string{"", "{", "}", "[]", "null", "0", `"s"`, "{}", `{"a":1}`, "\xff\xfe", strings.Repeat("[", 5000),
		`{"email":null,"password":null,"client":null,"marketapp":null,"nextplan":null,"currency":null,"app":null}`,
		`{"email":[],"firstName":{},"phoneCountry":[1],"client":{"app":{"marketapp":{"hash":[]}}},"currency":{"id":1e999}}`,
		`{"marketapp":{"hash":"` + strings.Repeat("z", 40) + `"},"platform":{"id":-1},"nextplan":{"id":"1"},"name":{}}`,
		`{"currency":{"id":9223372036854775808},"phoneCountry":{"id":1e308},"clientId":-5}`,
		`{"app":{},"terms":null,"name":"\u0000"}`, `{"email":"a@b.c","password":"x"}`,
	}
	methods := []string{"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"}
	auths := [][]string{nil, a.key, a.tok, {"Authorization", "api-key"}, {"Authorization", ""}, {"session-token", ""}, {"Authorization", "api-key " + strings.Repeat("k", 5000)}}
	for i := 0; i < 3000; i++ {
		p := paths[rng.Intn(len(paths))]
		var body any
		if rng.Intn(4) > 0 {
			if rng.Intn(3) == 0 {
				b := make([]byte, rng.Intn(200))
				rng.Read(b)
				body = b
			} else {
				body = bodies[rng.Intn(len(bodies))]
			}
		}
		r := call(s, methods[rng.Intn(len(methods))], p, body, auths[rng.Intn(len(auths))]...)
		if r.code >= 500 || r.code < 200 {
			t.Fatalf("%s: %v", p, r)
		}
	}
	// raw paths that do not parse cleanly
	for _, p := range []string{"/api/v1/users/%2e%2e", "/api/v1//users", "/api/v1/users/1/", "/api/v1/%", "/api/v1/users/7001?sessionToken=%zz"} {
		req := httptest.NewRequest("GET", "http://x/", nil)
		req.URL = &url.URL{Path: p}
		if u, err := url.Parse(p); err == nil {
			req.URL = u
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s: %d", p, rec.Code)
		}
	}
}

// TestConcurrent runs overlapping requests of many accounts; with -race it
// also checks the snapshot discipline. Afterwards ids, tokens and emails
// are unique and replaying the ledger gives the published view.
func TestConcurrent(t *testing.T) {
	s, err := New(Options{Pairs: 4})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	tokens := map[string]int64{}
	appIDs := map[int64]int64{}
	emailWins := 0
	for i, p := range s.Accounts() {
		for j, acc := range p {
			wg.Add(1)
			go func(i, j int, acc Account) {
				defer wg.Done()
				w := login(t, s, acc)
				for k := 0; k < 15; k++ {
					r := call(s, "POST", "/sessions", map[string]any{"email": acc.Email, "password": acc.Password})
					mu.Lock()
					if o := r.obj(); r.code == 200 {
						tok := o["token"].(string)
						if u, dup := tokens[tok]; dup && u != w.uid {
							t.Errorf("token shared by users %d and %d", u, w.uid)
						}
						tokens[tok] = w.uid
					}
					mu.Unlock()
					ra := call(s, "POST", "/apps", appBody(hashAndroid), w.key...)
					mu.Lock()
					if ra.code == 200 {
						id := num(ra.obj()["id"])
						if _, dup := appIDs[id]; dup {
							t.Errorf("app id %d twice", id)
						}
						appIDs[id] = w.uid
					}
					mu.Unlock()
					body := with(userBody(acc.Email), "firstName", fmt.Sprintf("F%d", k))
					if k%5 == 0 {
						body = with(body, "email", "contested@example.test")
					}
					ru := call(s, "PUT", fmt.Sprintf("/users/%d", w.uid), body, w.tok...)
					if ru.code == 200 && ru.obj()["email"] == "contested@example.test" {
						mu.Lock()
						emailWins++
						mu.Unlock()
						call(s, "PUT", fmt.Sprintf("/users/%d", w.uid), userBody(acc.Email), w.tok...)
					}
					call(s, "GET", "/apps", nil, w.key...)
					call(s, "PUT", fmt.Sprintf("/clients/%d", w.cid), clientBody(fmt.Sprintf("C%d", k)), w.key...)
				}
			}(i, j, acc)
		}
	}
	wg.Wait()
	if emailWins == 0 {
		t.Log("no PUT ever took the contested email")
	}
	v := s.view()
	seen := map[string]bool{}
	for _, u := range v.Users {
		if seen[strings.ToLower(u.Email)] {
			t.Fatalf("email %s twice", u.Email)
		}
		seen[strings.ToLower(u.Email)] = true
	}
	for id, uid := range appIDs {
		a := v.Apps[id]
		if a == nil || !v.isMember(uid, a.ClientID) {
			t.Fatalf("app %d not in its creator's client", id)
		}
	}
	s.ledgerMu.Lock()
	re := replay(s.base, s.ledger)
	s.ledgerMu.Unlock()
	if !reflect.DeepEqual(re, v) {
		t.Fatal("replaying the ledger does not give the published view")
	}
}

func TestDatesAdvance(t *testing.T) {
	s := newSrv(t, "")
	a, _ := pair(t, s)
	c1 := call(s, "POST", "/clients", clientBody("T1"), a.key...).obj()["createdDate"].(string)
	time.Sleep(2 * time.Millisecond)
	c2 := call(s, "POST", "/clients", clientBody("T2"), a.key...).obj()["createdDate"].(string)
	t1, e1 := time.Parse(time.RFC3339, c1)
	t2, e2 := time.Parse(time.RFC3339, c2)
	if e1 != nil || e2 != nil || !t2.After(t1) {
		t.Fatalf("dates %s %s", c1, c2)
	}
}
