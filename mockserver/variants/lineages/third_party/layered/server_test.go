package layered

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func TestNewOptions(t *testing.T) {
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Fatal("unknown fault accepted")
	}
	if _, err := New(Options{Pairs: 501}); err == nil {
		t.Fatal("Pairs 501 accepted")
	}
	if _, err := New(Options{Pairs: -1}); err == nil {
		t.Fatal("Pairs -1 accepted")
	}
	s, err := New(Options{})
	if err != nil || len(s.Accounts()) != 1 {
		t.Fatalf("Pairs 0: %v %d", err, len(s.Accounts()))
	}
	s = mustNew(t, "")
	if s.BasePath() != "/api/v1.0" {
		t.Fatal(s.BasePath())
	}
	seen := map[string]bool{}
	for _, p := range s.Accounts() {
		for _, a := range p {
			if seen[a.Email] || seen[a.APIKey] {
				t.Fatal("duplicate account")
			}
			seen[a.Email], seen[a.APIKey] = true, true
		}
	}
	names := map[string]bool{}
	wrong, legal := 0, 0
	for _, f := range Faults() {
		if names[f.Name] || f.Rule == "" || f.Quote == "" || f.Description == "" {
			t.Fatalf("bad fault %+v", f)
		}
		names[f.Name] = true
		if f.Legal {
			legal++
		} else {
			wrong++
		}
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Fatal(err)
		}
	}
	if wrong < 30 || legal < 5 {
		t.Fatalf("wrong %d legal %d", wrong, legal)
	}
}

func TestSeededAccountsAreIsolatedClients(t *testing.T) {
	s := mustNew(t, "")
	a, b := pair(t, s)
	if a.clientID == b.clientID || a.userID == b.userID {
		t.Fatal("pair shares a client or user")
	}
	if n := count(t, s, key(a.acc), "/clients", "clients"); n != 1 {
		t.Fatalf("A has %d clients", n)
	}
}

func TestSessions(t *testing.T) {
	s := mustNew(t, "")
	acc := s.Accounts()[0][0]
	w := login(s, acc.Email, acc.Password)
	if w.Code != 200 {
		t.Fatal(w.Code, w.Body)
	}
	m := decode(t, w)
	for _, k := range []string{"id", "created", "creatorUserId", "userId", "clientId", "token"} {
		if _, ok := m[k]; !ok {
			t.Fatalf("session lacks %s", k)
		}
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(m["created"].(string)) {
		t.Fatal(m["created"])
	}
	// case-insensitive email
	if w := login(s, strings.ToUpper(acc.Email), acc.Password); w.Code != 200 {
		t.Fatal("upper-case email login", w.Code)
	}
	if w := login(s, acc.Email, acc.Password+"x"); w.Code != 401 {
		t.Fatal("wrong password", w.Code)
	}
	if w := login(s, "nobody@seed.pricing.test", acc.Password); w.Code != 401 {
		t.Fatal("unknown email", w.Code)
	}
	w = call(s, "POST", "/sessions", map[string]any{"email": acc.Email}, nil)
	if w.Code != 400 || decodeErrs(t, w)[0]["fieldName"] != "password" {
		t.Fatal("missing password", w.Code, w.Body)
	}
}

func TestAuthentication(t *testing.T) {
	s := mustNew(t, "")
	a, _ := pair(t, s)
	p := path("/users/%d", a.userID)
	body := userBody(a.acc.Email)
	cases := []struct {
		name string
		h    H
		q    string
		want int
	}{
		{"api-key", key(a.acc), "", 200},
		{"api-key scheme case", H{"Authorization": "API-KEY " + a.acc.APIKey}, "", 200},
		{"session header", H{"session-token": a.token}, "", 200},
		{"session header other case", H{"SESSION-TOKEN": a.token}, "", 200},
		{"session query", nil, "?sessionToken=" + a.token, 200},
		{"none", nil, "", 401},
		{"bearer", H{"Authorization": "Bearer " + a.acc.APIKey}, "", 401},
		{"bare key", H{"Authorization": a.acc.APIKey}, "", 401},
		{"wrong key", H{"Authorization": "api-key nope"}, "", 401},
		{"key case changed", H{"Authorization": "api-key " + swapCase(a.acc.APIKey)}, "", 401},
		{"token as api key", H{"Authorization": "api-key " + a.token}, "", 401},
		{"wrong token", H{"session-token": "abc"}, "", 401},
		{"wrong query token", nil, "?sessionToken=abc", 401},
	}
	for _, c := range cases {
		w := call(s, "PUT", p+c.q, body, c.h)
		if w.Code != c.want {
			t.Errorf("%s: got %d want %d %s", c.name, w.Code, c.want, w.Body)
		}
	}
	w := call(s, "PUT", p, body, nil)
	if decode(t, w)["error"] != "Unauthorized" {
		t.Fatal(w.Body)
	}
}

func swapCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = c - 32
		case 'A' <= c && c <= 'Z':
			b[i] = c + 32
		}
	}
	return string(b)
}

func TestPutUser(t *testing.T) {
	s := mustNew(t, "")
	a, b := pair(t, s)
	p := path("/users/%d", a.userID)
	body := userBody("New.Address@Example.test")
	body["phoneCountry"] = map[string]any{"id": 3}
	body["phoneNumber"] = "0140000000"
	body["phoneExtension"] = "42"
	body["firstName"] = "Zoë  "
	w := call(s, "PUT", p, body, key(a.acc))
	if w.Code != 200 {
		t.Fatal(w.Code, w.Body)
	}
	m := decode(t, w)
	if m["email"] != "New.Address@Example.test" || m["firstName"] != "Zoë  " || m["timezone"] != "Europe/Paris" ||
		m["subscribeHowto"] != true || m["phoneExtension"] != "42" || m["id"].(float64) != float64(a.userID) {
		t.Fatal(m)
	}
	pc := m["phoneCountry"].(map[string]any)
	if pc["dialCode"] != "+33" || pc["name"] != "France (+33)" {
		t.Fatal(pc)
	}
	if _, ok := m["password"]; ok {
		t.Fatal("password returned")
	}
	for _, k := range []string{"created", "passwordLastChanged", "lastName", "subscribeWelcome", "subscribeBlog", "subscribeOnboarding", "phoneNumber"} {
		if _, ok := m[k]; !ok {
			t.Fatal("missing", k)
		}
	}
	// null password keeps the old one; new email logs in
	if w := login(s, "New.Address@Example.test", a.acc.Password); w.Code != 200 {
		t.Fatal("login new email", w.Code)
	}
	if w := login(s, a.acc.Email, a.acc.Password); w.Code != 401 {
		t.Fatal("old email still logs in", w.Code)
	}
	// password change
	body["password"] = " new pass "
	body["phoneExtension"] = nil
	w = call(s, "PUT", p, body, key(a.acc))
	if w.Code != 200 || decode(t, w)["phoneExtension"] != nil {
		t.Fatal(w.Code, w.Body)
	}
	if w := login(s, "new.address@example.test", " new pass "); w.Code != 200 {
		t.Fatal("login new password", w.Code)
	}
	// 403, 404, 401
	if w := call(s, "PUT", path("/users/%d", b.userID), userBody("x@y.test"), key(a.acc)); w.Code != 403 {
		t.Fatal("other user", w.Code)
	}
	if w := call(s, "PUT", "/users/999999", userBody("x@y.test"), key(a.acc)); w.Code != 404 {
		t.Fatal("unknown user", w.Code)
	}
	if w := call(s, "PUT", "/users/abc", userBody("x@y.test"), key(a.acc)); w.Code != 404 {
		t.Fatal("non-numeric id", w.Code)
	}
	// email in use by B
	w = call(s, "PUT", p, userBody(strings.ToUpper(b.acc.Email)), key(a.acc))
	if w.Code != 400 || decodeErrs(t, w)[0]["error"] != "InvalidEmail" {
		t.Fatal("duplicate email", w.Code, w.Body)
	}
}

func TestPutUserValidation(t *testing.T) {
	s := mustNew(t, "")
	a, _ := pair(t, s)
	p := path("/users/%d", a.userID)
	type edit func(m map[string]any)
	cases := []struct {
		name  string
		edit  edit
		field string
		code  string
	}{
		{"no email", func(m map[string]any) { delete(m, "email") }, "email", "InvalidEmail"},
		{"bad email", func(m map[string]any) { m["email"] = "not-an-email" }, "email", "InvalidEmail"},
		{"long email", func(m map[string]any) { m["email"] = strings.Repeat("a", 250) + "@x.test" }, "email", "InvalidEmail"},
		{"short password", func(m map[string]any) { m["password"] = "12345" }, "password", "InvalidPassword"},
		{"absent password", func(m map[string]any) { delete(m, "password") }, "password", "InvalidPassword"},
		{"numeric password", func(m map[string]any) { m["password"] = 123456 }, "password", "InvalidPassword"},
		{"no first name", func(m map[string]any) { delete(m, "firstName") }, "firstName", "InvalidFirstName"},
		{"empty first name", func(m map[string]any) { m["firstName"] = "" }, "firstName", "InvalidFirstName"},
		{"no last name", func(m map[string]any) { m["lastName"] = nil }, "lastName", "InvalidLastName"},
		{"long last name", func(m map[string]any) { m["lastName"] = strings.Repeat("x", 256) }, "lastName", "InvalidLastName"},
		{"phone country", func(m map[string]any) { m["phoneCountry"] = map[string]any{"id": 99} }, "phoneCountry.id", "InvalidPhoneCountryId"},
		{"phone number", func(m map[string]any) { m["phoneNumber"] = "" }, "phoneNumber", "InvalidPhoneNumber"},
		{"phone extension", func(m map[string]any) { m["phoneExtension"] = "ext 1" }, "phoneExtension", "InvalidPhoneExtension"},
		{"subscribe type", func(m map[string]any) { m["subscribeBlog"] = "yes" }, "subscribeBlog", "InvalidSubscribeBlog"},
		{"subscribe absent", func(m map[string]any) { delete(m, "subscribeHowto") }, "subscribeHowto", "InvalidSubscribeHowto"},
		{"timezone", func(m map[string]any) { m["timezone"] = "Paris" }, "timezone", "InvalidTimezone"},
		{"client name", func(m map[string]any) { c := clientBody(); delete(c, "name"); m["client"] = c }, "client.name", "InvalidName"},
	}
	for _, c := range cases {
		body := userBody(a.acc.Email)
		c.edit(body)
		w := call(s, "PUT", p, body, key(a.acc))
		if w.Code != 400 {
			t.Errorf("%s: %d %s", c.name, w.Code, w.Body)
			continue
		}
		e := decodeErrs(t, w)
		if e[0]["fieldName"] != c.field || e[0]["error"] != c.code || e[0]["message"] == "" {
			t.Errorf("%s: %v", c.name, e)
		}
	}
	// 255 characters, multi-byte, is fine
	body := userBody(a.acc.Email)
	body["lastName"] = strings.Repeat("é", 255)
	if w := call(s, "PUT", p, body, key(a.acc)); w.Code != 200 || decode(t, w)["lastName"] != strings.Repeat("é", 255) {
		t.Fatal("255 chars", w.Code)
	}
	// several errors at once
	body = userBody("bad")
	delete(body, "firstName")
	if w := call(s, "PUT", p, body, key(a.acc)); len(decodeErrs(t, w)) != 2 {
		t.Fatal(w.Body)
	}
	// malformed JSON, non-object
	for _, raw := range []string{`{"email":`, `[1]`, `{} {}`, ``} {
		w := call(s, "PUT", p, raw, key(a.acc))
		if w.Code != 400 || decodeErrs(t, w)[0]["error"] != "InvalidJson" {
			t.Errorf("%q: %d %s", raw, w.Code, w.Body)
		}
	}
	// unknown fields are ignored; keys are case-sensitive
	body = userBody(a.acc.Email)
	body["nickname"] = "x"
	if w := call(s, "PUT", p, body, key(a.acc)); w.Code != 200 {
		t.Fatal("unknown field", w.Code)
	}
	body = userBody(a.acc.Email)
	delete(body, "firstName")
	body["FirstName"] = "Ann"
	if w := call(s, "PUT", p, body, key(a.acc)); w.Code != 400 {
		t.Fatal("case-folded key accepted", w.Code)
	}
	// wrong content type
	r := httptest.NewRequest("PUT", s.BasePath()+p, strings.NewReader(`{}`))
	r.Header.Set("Content-Type", "text/plain")
	r.Header.Set("Authorization", "api-key "+a.acc.APIKey)
	rw := httptest.NewRecorder()
	s.ServeHTTP(rw, r)
	if rw.Code != 415 {
		t.Fatal("text/plain", rw.Code)
	}
	// body too large
	big := `{"email":"` + strings.Repeat("a", maxBody) + `"}`
	if w := call(s, "PUT", p, big, key(a.acc)); w.Code != 413 {
		t.Fatal("big body", w.Code)
	}
}

func TestPutUserWithClientIsAtomic(t *testing.T) {
	s := mustNew(t, "")
	a, _ := pair(t, s)
	p := path("/users/%d", a.userID)
	body := userBody(a.acc.Email)
	body["password"] = "changed-pw"
	c := clientBody()
	c["app"] = appBody(hashUnknown)
	body["client"] = c
	if w := call(s, "PUT", p, body, key(a.acc)); w.Code != 404 {
		t.Fatal(w.Code, w.Body)
	}
	if login(s, a.acc.Email, "changed-pw").Code != 401 || count(t, s, key(a.acc), "/clients", "clients") != 1 {
		t.Fatal("refused PUT changed something")
	}
	c["app"] = appBody(hashPuzzle)
	w := call(s, "PUT", p, body, key(a.acc))
	if w.Code != 200 {
		t.Fatal(w.Code, w.Body)
	}
	if count(t, s, key(a.acc), "/clients", "clients") != 2 || count(t, s, key(a.acc), "/apps", "apps") != 1 {
		t.Fatal("client/app not created")
	}
	if login(s, a.acc.Email, "changed-pw").Code != 200 {
		t.Fatal("password not changed")
	}
}

func TestPostUser(t *testing.T) {
	s := mustNew(t, "")
	body := userBody("fresh@example.test")
	body["password"] = "fresh-pass"
	body["client"] = clientBody()
	w := call(s, "POST", "/users", body, nil)
	if w.Code != 200 {
		t.Fatal(w.Code, w.Body)
	}
	w = login(s, "fresh@example.test", "fresh-pass")
	if w.Code != 200 {
		t.Fatal(w.Code)
	}
	tok := decode(t, w)["token"].(string)
	if n := count(t, s, H{"session-token": tok}, "/clients", "clients"); n != 1 {
		t.Fatal(n)
	}
	if w := call(s, "POST", "/users", body, nil); w.Code != 400 {
		t.Fatal("duplicate", w.Code)
	}
	body["email"] = "other@example.test"
	body["password"] = nil
	if w := call(s, "POST", "/users", body, nil); w.Code != 400 {
		t.Fatal("null password", w.Code)
	}
}

func TestClients(t *testing.T) {
	s := mustNew(t, "")
	a, b := pair(t, s)
	body := clientBody()
	body["addressLine2"] = "Bâtiment B"
	body["vat"] = "FR123"
	w := call(s, "POST", "/clients", body, key(a.acc))
	if w.Code != 200 {
		t.Fatal(w.Code, w.Body)
	}
	m := decode(t, w)
	cur := m["currency"].(map[string]any)
	if m["name"] != "Acme Games" || m["addressLine2"] != "Bâtiment B" || m["vat"] != "FR123" || cur["code"] != "EUR" || cur["id"].(float64) != 1 {
		t.Fatal(m)
	}
	if _, ok := m["createdDate"]; !ok {
		t.Fatal("no createdDate")
	}
	id := int64(m["id"].(float64))
	p := path("/clients/%d", id)
	// PUT replaces; absent optional fields are cleared
	body = clientBody()
	body["name"] = "Renamed"
	body["currency"] = map[string]any{"id": 2.0}
	w = call(s, "PUT", p, body, key(a.acc))
	m = decode(t, w)
	if w.Code != 200 || m["name"] != "Renamed" || m["currency"].(map[string]any)["code"] != "USD" {
		t.Fatal(w.Code, m)
	}
	if _, ok := m["addressLine2"]; ok {
		t.Fatal("addressLine2 kept")
	}
	// app is refused on PUT, even spelled with an escape
	for _, raw := range []string{`"app":{"nextplan":{"id":1},"name":"X","platform":{"id":1}}`, `"\u0061pp":null`} {
		bb, _ := json.Marshal(clientBody())
		withApp := strings.TrimSuffix(string(bb), "}") + "," + raw + "}"
		w = call(s, "PUT", p, withApp, key(a.acc))
		if w.Code != 400 || decodeErrs(t, w)[0]["fieldName"] != "app" || decodeErrs(t, w)[0]["error"] != "InvalidApp" {
			t.Fatal(raw, w.Code, w.Body)
		}
	}
	// isolation
	if w := call(s, "PUT", p, clientBody(), key(b.acc)); w.Code != 403 {
		t.Fatal("B on A's client", w.Code)
	}
	if w := call(s, "GET", p, nil, key(b.acc)); w.Code != 403 {
		t.Fatal("B reads A's client", w.Code)
	}
	if w := call(s, "PUT", "/clients/99999", clientBody(), key(a.acc)); w.Code != 404 {
		t.Fatal(w.Code)
	}
	if w := call(s, "PUT", p, clientBody(), nil); w.Code != 401 {
		t.Fatal(w.Code)
	}
	// validation
	cases := []struct {
		edit  func(map[string]any)
		field string
		code  string
	}{
		{func(m map[string]any) { delete(m, "name") }, "name", "InvalidName"},
		{func(m map[string]any) { m["name"] = "" }, "name", "InvalidName"},
		{func(m map[string]any) { m["name"] = strings.Repeat("n", 256) }, "name", "InvalidName"},
		{func(m map[string]any) { m["terms"] = "i agree" }, "terms", "InvalidTerms"},
		{func(m map[string]any) { delete(m, "terms") }, "terms", "InvalidTerms"},
		{func(m map[string]any) { m["currency"] = map[string]any{"id": 77} }, "currency.id", "InvalidCurrencyId"},
		{func(m map[string]any) { m["currency"] = map[string]any{"id": "1"} }, "currency.id", "InvalidCurrencyId"},
		{func(m map[string]any) { delete(m, "currency") }, "currency", "InvalidCurrencyId"},
		{func(m map[string]any) { m["vat"] = strings.Repeat("v", 256) }, "vat", "InvalidVat"},
		{func(m map[string]any) { delete(m, "addressCity") }, "addressCity", "InvalidAddressCity"},
	}
	for i, c := range cases {
		for _, method := range []string{"POST", "PUT"} {
			body := clientBody()
			c.edit(body)
			target := "/clients"
			if method == "PUT" {
				target = p
			}
			w := call(s, method, target, body, key(a.acc))
			if w.Code != 400 {
				t.Errorf("%d %s: %d", i, method, w.Code)
				continue
			}
			e := decodeErrs(t, w)[0]
			if e["fieldName"] != c.field || e["error"] != c.code {
				t.Errorf("%d %s: %v", i, method, e)
			}
		}
	}
	if w := call(s, "GET", p, nil, key(a.acc)); decode(t, w)["name"] != "Renamed" {
		t.Fatal("refused PUT changed the client")
	}
}

func TestPostClientWithApp(t *testing.T) {
	s := mustNew(t, "")
	a, _ := pair(t, s)
	body := clientBody()
	body["app"] = appBody(hashUnknown)
	if w := call(s, "POST", "/clients", body, key(a.acc)); w.Code != 404 {
		t.Fatal(w.Code, w.Body)
	}
	body["app"] = map[string]any{"nextplan": map[string]any{"id": 1}}
	w := call(s, "POST", "/clients", body, key(a.acc))
	if w.Code != 400 || decodeErrs(t, w)[0]["fieldName"] != "app.name" {
		t.Fatal(w.Code, w.Body)
	}
	body["app"] = map[string]any{"nextplan": map[string]any{"id": 9}, "name": "N", "platform": map[string]any{"id": 1}}
	if w := call(s, "POST", "/clients", body, key(a.acc)); w.Code != 400 {
		t.Fatal(w.Code, w.Body)
	}
	if n := count(t, s, key(a.acc), "/clients", "clients"); n != 1 {
		t.Fatal("refused POST created a client", n)
	}
	body["app"] = appBody(hashPuzzle)
	if w := call(s, "POST", "/clients", body, key(a.acc)); w.Code != 200 {
		t.Fatal(w.Code, w.Body)
	}
	if count(t, s, key(a.acc), "/clients", "clients") != 2 || count(t, s, key(a.acc), "/apps", "apps") != 1 {
		t.Fatal("client+app not created")
	}
}

func TestApps(t *testing.T) {
	s := mustNew(t, "")
	a, b := pair(t, s)
	w := call(s, "POST", "/apps", appBody(strings.ToUpper(hashPuzzle)), key(a.acc))
	if w.Code != 200 {
		t.Fatal(w.Code, w.Body)
	}
	m := decode(t, w)
	if m["name"] != "Puzzle Quest" || m["platform"].(map[string]any)["name"] != "Android" ||
		m["marketapp"].(map[string]any)["hash"] != hashPuzzle || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(m["writeKey"].(string)) {
		t.Fatal(m)
	}
	pl := m["plan"].(map[string]any)
	if pl["isPro"] != true || pl["isLite"] != false || pl["needBilling"] != true {
		t.Fatal(pl)
	}
	appID := int64(m["id"].(float64))
	// hash wins over name
	body := appBody(hashPuzzle)
	body["name"] = "Ignored"
	if w := call(s, "POST", "/apps", body, H{"session-token": a.token}); decode(t, w)["name"] != "Puzzle Quest" {
		t.Fatal(w.Body)
	}
	// by name and platform
	body = map[string]any{"name": "Hand Made ✓", "platform": map[string]any{"id": 2}, "nextplan": map[string]any{"id": 1}}
	w = call(s, "POST", "/apps", body, key(a.acc))
	m = decode(t, w)
	if w.Code != 200 || m["name"] != "Hand Made ✓" || m["platform"].(map[string]any)["name"] != "iOS" {
		t.Fatal(w.Code, m)
	}
	cases := []struct {
		body  map[string]any
		code  int
		field string
		err   string
	}{
		{map[string]any{"nextplan": map[string]any{"id": 1}, "platform": map[string]any{"id": 1}}, 400, "name", "InvalidName"},
		{map[string]any{"name": nil, "marketapp": map[string]any{"hash": ""}, "nextplan": map[string]any{"id": 1}, "platform": map[string]any{"id": 1}}, 400, "name", "InvalidName"},
		{map[string]any{"name": "X", "nextplan": map[string]any{"id": 1}, "platform": map[string]any{"id": 7}}, 400, "platform.id", "InvalidPlatformId"},
		{appBody(hashPuzzle[:39]), 400, "marketapp.hash", "InvalidMarketappHash"},
		{appBody(hashPuzzle + "0"), 400, "marketapp.hash", "InvalidMarketappHash"},
		{appBody(strings.Repeat("g", 40)), 400, "marketapp.hash", "InvalidMarketappHash"},
		{map[string]any{"marketapp": map[string]any{"hash": hashPuzzle}}, 400, "nextplan", "InvalidPlanId"},
		{map[string]any{"marketapp": map[string]any{"hash": hashPuzzle}, "nextplan": map[string]any{"id": 8}}, 400, "nextplan.id", "InvalidPlanId"},
		{appBody(hashUnknown), 404, "", ""},
	}
	for i, c := range cases {
		w := call(s, "POST", "/apps", c.body, key(a.acc))
		if w.Code != c.code {
			t.Errorf("%d: %d %s", i, w.Code, w.Body)
			continue
		}
		if c.code == 400 {
			e := decodeErrs(t, w)[0]
			if e["fieldName"] != c.field || e["error"] != c.err {
				t.Errorf("%d: %v", i, e)
			}
		}
	}
	if n := count(t, s, key(a.acc), "/apps", "apps"); n != 3 {
		t.Fatal("apps", n)
	}
	if n := count(t, s, key(b.acc), "/apps", "apps"); n != 0 {
		t.Fatal("B sees apps", n)
	}
	if w := call(s, "GET", path("/apps/%d", appID), nil, key(b.acc)); w.Code != 403 {
		t.Fatal(w.Code)
	}
	if w := call(s, "GET", path("/apps/%d", appID), nil, key(a.acc)); w.Code != 200 {
		t.Fatal(w.Code)
	}
	if w := call(s, "POST", "/apps", appBody(hashPuzzle), nil); w.Code != 401 {
		t.Fatal(w.Code)
	}
}

func TestCataloguesAndRouting(t *testing.T) {
	s := mustNew(t, "")
	for p, n := range map[string]string{"/platforms": "platforms", "/plans": "plans", "/currencies": "currencies", "/phone-countries": "phoneCountries", "/marketapps": "marketapps"} {
		w := call(s, "GET", p, nil, nil)
		if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			t.Fatal(p, w.Code)
		}
		m := decode(t, w)
		if len(m) != 1 || len(m[n].([]any)) == 0 {
			t.Fatal(p, m)
		}
	}
	w := call(s, "GET", "/marketapps", nil, nil)
	if !strings.Contains(w.Body.String(), hashPuzzle) {
		t.Fatal("hash not listed")
	}
	if w := call(s, "GET", "!/api/v1/platforms", nil, nil); w.Code != 200 {
		t.Fatal("v1 alias", w.Code)
	}
	if w := call(s, "GET", "!/api/v2/platforms", nil, nil); w.Code != 404 {
		t.Fatal("v2", w.Code)
	}
	if w := call(s, "DELETE", "/platforms", nil, nil); w.Code != 405 || w.Header().Get("Allow") != "GET" {
		t.Fatal("405", w.Code)
	}
	if w := call(s, "GET", "/nothing", nil, nil); w.Code != 404 {
		t.Fatal(w.Code)
	}
	if w := call(s, "GET", "/platforms", nil, H{"Accept": "*/*"}); w.Code != 200 {
		t.Fatal(w.Code)
	}
}

// Through a real HTTP server: chunked bodies, Content-Type parameters, escapes, member order.
func TestWireForms(t *testing.T) {
	s := mustNew(t, "")
	ts := httptest.NewServer(s)
	defer ts.Close()
	acc := s.Accounts()[0][0]
	body := `{ "password" : "` + acc.Password + `",` + "\n\t" + `"em\u0061il":"` + acc.Email + `" }`
	for _, chunked := range []bool{false, true} {
		var rd io.Reader = strings.NewReader(body)
		if chunked {
			rd = io.MultiReader(strings.NewReader(body[:10]), strings.NewReader(body[10:]))
		}
		req, _ := http.NewRequest("POST", ts.URL+s.BasePath()+"/sessions", rd)
		if !chunked {
			req.ContentLength = int64(len(body))
		}
		req.Header.Set("content-type", "Application/JSON; charset=UTF-8")
		req.Header.Set("Accept", "application/json;q=0.9, */*")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"token"`)) {
			t.Fatal(chunked, resp.StatusCode, string(b))
		}
	}
}
