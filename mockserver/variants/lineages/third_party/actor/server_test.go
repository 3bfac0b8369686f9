package actor

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
)

func TestNewOptions(t *testing.T) {
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Error("unknown fault accepted")
	}
	for _, p := range []int{-1, 501} {
		if _, err := New(Options{Pairs: p}); err == nil {
			t.Errorf("Pairs %d accepted", p)
		}
	}
	s, err := New(Options{})
	if err != nil || len(s.Accounts()) != 1 {
		t.Fatalf("Pairs 0: %v %d", err, len(s.Accounts()))
	}
	s, err = New(Options{Pairs: 500})
	if err != nil || len(s.Accounts()) != 500 {
		t.Fatalf("Pairs 500: %v", err)
	}
	seen := map[string]bool{}
	for _, p := range s.Accounts() {
		for _, a := range p {
			if seen[a.Email] || seen[a.APIKey] {
				t.Fatalf("duplicate seed %v", a)
			}
			seen[a.Email], seen[a.APIKey] = true, true
		}
	}
	if s.BasePath() != "/api/v1.0" {
		t.Fatal(s.BasePath())
	}
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)+$`)
	names := map[string]bool{}
	wrong, legal := 0, 0
	for _, f := range Faults() {
		if !kebab.MatchString(f.Name) || names[f.Name] || f.Rule == "" || f.Quote == "" || f.Description == "" {
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

func TestSessions(t *testing.T) {
	h := newHarness(t, "")
	r := h.login(h.a.Email, h.a.Password)
	if r.status != 200 {
		t.Fatalf("login: %d %s", r.status, r.body)
	}
	m := r.obj()
	for _, k := range []string{"id", "created", "creatorUserId", "userId", "clientId", "token"} {
		if _, ok := m[k]; !ok {
			t.Errorf("session lacks %s: %s", k, r.body)
		}
	}
	if len(m) != 6 {
		t.Errorf("session has extra members: %s", r.body)
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(r.str("created")) {
		t.Errorf("created %q", r.str("created"))
	}
	tok := r.str("token")
	uid := r.str("userId")
	if r.str("creatorUserId") != uid {
		t.Error("creatorUserId")
	}
	// email is matched case-insensitively
	if r := h.login(strings.ToUpper(h.a.Email), h.a.Password); r.status != 200 {
		t.Errorf("upper-case email login: %d", r.status)
	}
	for _, c := range []struct {
		email, pw string
		want      int
	}{
		{h.a.Email, "wrong-password", 401},
		{h.a.Email, strings.ToUpper(h.a.Password), 401},
		{"nobody@example.com", h.a.Password, 401},
		{h.a.Email, h.b.Password, 401},
	} {
		if r := h.login(c.email, c.pw); r.status != c.want {
			t.Errorf("login %s/%s: %d", c.email, c.pw, r.status)
		}
	}
	if r := h.req("POST", "/sessions", map[string]any{"email": h.a.Email}); r.status != 400 || r.firstError() != "password/InvalidPassword" {
		t.Errorf("missing password: %d %s", r.status, r.body)
	}
	// the token works in the header and in the query string
	path := "/users/" + uid
	if r := h.req("GET", path, nil, "session-token", tok); r.status != 200 {
		t.Errorf("header token: %d", r.status)
	}
	if r := h.req("GET", path+"?sessionToken="+tok, nil); r.status != 200 {
		t.Errorf("query token: %d", r.status)
	}
	if r := h.req("GET", path, nil, key(h.a)...); r.status != 200 {
		t.Errorf("api key: %d", r.status)
	}
	if r := h.req("GET", path, nil, "Authorization", "API-KEY "+h.a.APIKey); r.status != 200 {
		t.Errorf("api key upper-case scheme: %d", r.status)
	}
	for name, hdr := range map[string][]string{
		"none":          nil,
		"bad token":     {"session-token", tok + "x"},
		"empty token":   {"session-token", ""},
		"bearer":        {"Authorization", "Bearer " + h.a.APIKey},
		"bare key":      {"Authorization", h.a.APIKey},
		"prefix key":    {"Authorization", "api-key " + h.a.APIKey[:8]},
		"unknown key":   {"Authorization", "api-key " + strings.Repeat("0", 32)},
		"empty key":     {"Authorization", "api-key "},
		"bad auth wins": {"Authorization", "api-key nope", "session-token", tok},
	} {
		if r := h.req("GET", path, nil, hdr...); r.status != 401 {
			t.Errorf("%s: %d", name, r.status)
		}
	}
	if r := h.req("GET", path+"?sessionToken=nope", nil); r.status != 401 {
		t.Errorf("bad query token: %d", r.status)
	}
	// unauthenticated on unknown resources is still 401
	if r := h.req("PUT", "/users/999999", userBody("x@example.com", nil)); r.status != 401 {
		t.Errorf("unauth unknown user: %d", r.status)
	}
	// two logins give different tokens
	if r2 := h.login(h.a.Email, h.a.Password); r2.str("token") == tok || r2.str("id") == r.str("id") {
		t.Error("token or id reused")
	}
}

func TestPutUser(t *testing.T) {
	h := newHarness(t, "")
	uid, _ := h.ids(h.a)
	path := fmt.Sprintf("/users/%d", uid)
	r := h.req("PUT", path, with(userBody("Ann.Lee@Example.com", "new-password"),
		"phoneCountry", map[string]any{"id": 2}, "phoneNumber", "5550100", "phoneExtension", "42"), key(h.a)...)
	if r.status != 200 {
		t.Fatalf("put: %d %s", r.status, r.body)
	}
	m := r.obj()
	if _, ok := m["password"]; ok {
		t.Error("password returned")
	}
	if m["email"] != "Ann.Lee@Example.com" || m["firstName"] != "Ann" || m["subscribeWelcome"] != true ||
		m["subscribeBlog"] != false || m["timezone"] != "Europe/Paris" || m["phoneNumber"] != "5550100" || m["phoneExtension"] != "42" {
		t.Errorf("body %s", r.body)
	}
	pc, _ := m["phoneCountry"].(map[string]any)
	if pc["id"] != float64(2) || pc["dialCode"] != "+1" || pc["name"] != "United States (+1)" {
		t.Errorf("phoneCountry %v", pc)
	}
	for _, k := range []string{"id", "created", "passwordLastChanged", "lastName", "subscribeHowto", "subscribeOnboarding"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing %s", k)
		}
	}
	if h.login(h.a.Email, h.a.Password).status != 401 || h.login("Ann.Lee@Example.com", "new-password").status != 200 {
		t.Error("login after email/password change")
	}
	// null keeps the password; absent phone fields are kept; null extension clears
	r = h.req("PUT", path, with(userBody("ann@example.com", nil), "phoneExtension", nil), key(h.a)...)
	if r.status != 200 || r.obj()["phoneNumber"] != "5550100" || r.obj()["phoneExtension"] != nil {
		t.Errorf("null password put: %d %s", r.status, r.body)
	}
	if h.login("ann@example.com", "new-password").status != 200 {
		t.Error("null did not keep the password")
	}
	// password with spaces and unicode round-trips
	if r := h.req("PUT", path, userBody("ann@example.com", "  pässwörd  "), key(h.a)...); r.status != 200 {
		t.Fatal(r.status)
	}
	if h.login("ann@example.com", "  pässwörd  ").status != 200 {
		t.Error("padded unicode password")
	}
	// names read back as sent
	name := "Zoë & <Ørsted> \"quoted\" 😀"
	r = h.req("PUT", path, with(userBody("ann@example.com", nil), "firstName", name, "lastName", strings.Repeat("é", 255)), key(h.a)...)
	if r.status != 200 || r.obj()["firstName"] != name {
		t.Errorf("unicode name: %d %s", r.status, r.body)
	}
	if r := h.req("GET", path, nil, key(h.a)...); r.obj()["firstName"] != name {
		t.Errorf("GET after put: %s", r.body)
	}

	cases := []struct {
		name string
		body any
		want string
	}{
		{"short password", userBody("ann@example.com", "abcde"), "password/InvalidPassword"},
		{"absent password", with(userBody("ann@example.com", nil), "password", "<del>"), "password/InvalidPassword"},
		{"number password", userBody("ann@example.com", 123456), "password/InvalidPassword"},
		{"bad email", userBody("not-an-email", nil), "email/InvalidEmail"},
		{"long email", userBody(strings.Repeat("a", 250)+"@example.com", nil), "email/InvalidEmail"},
		{"taken email", userBody(strings.ToUpper(h.b.Email), nil), "email/InvalidEmail"},
		{"no first name", with(userBody("ann@example.com", nil), "firstName", "<del>"), "firstName/InvalidFirstName"},
		{"null first name", with(userBody("ann@example.com", nil), "firstName", nil), "firstName/InvalidFirstName"},
		{"empty last name", with(userBody("ann@example.com", nil), "lastName", ""), "lastName/InvalidLastName"},
		{"long last name", with(userBody("ann@example.com", nil), "lastName", strings.Repeat("é", 256)), "lastName/InvalidLastName"},
		{"phone country", with(userBody("ann@example.com", nil), "phoneCountry", map[string]any{"id": 99}), "phoneCountry.id/InvalidPhoneCountryId"},
		{"phone number", with(userBody("ann@example.com", nil), "phoneNumber", ""), "phoneNumber/InvalidPhoneNumber"},
		{"phone ext", with(userBody("ann@example.com", nil), "phoneExtension", "ext 12"), "phoneExtension/InvalidPhoneExtension"},
		{"bool as string", with(userBody("ann@example.com", nil), "subscribeBlog", "true"), "subscribeBlog/InvalidSubscribeBlog"},
		{"bad client", with(userBody("ann@example.com", nil), "client", clientBody(nil)), "client.name/InvalidName"},
		{"array body", "[]", "body/InvalidBody"},
		{"broken json", `{"email":`, "body/InvalidBody"},
		{"trailing", `{} {}`, "body/InvalidBody"},
	}
	for _, c := range cases {
		r := h.req("PUT", path, c.body, key(h.a)...)
		if r.status != 400 || r.firstError() != c.want {
			t.Errorf("%s: %d %s", c.name, r.status, r.body)
		}
	}
	// refused requests changed nothing
	if h.login("ann@example.com", "  pässwörd  ").status != 200 {
		t.Error("a refused PUT changed the password or email")
	}
	if r := h.req("GET", path, nil, key(h.a)...); r.obj()["firstName"] != name {
		t.Error("a refused PUT changed the name")
	}
	// others
	bid, _ := h.ids(h.b)
	if r := h.req("PUT", fmt.Sprintf("/users/%d", bid), userBody("x@example.com", nil), key(h.a)...); r.status != 403 {
		t.Errorf("other user: %d", r.status)
	}
	if r := h.req("PUT", fmt.Sprintf("/users/%d", bid), userBody("bad", nil), key(h.a)...); r.status != 403 {
		t.Errorf("other user invalid body: %d", r.status)
	}
	if r := h.req("GET", fmt.Sprintf("/users/%d", bid), nil, key(h.a)...); r.status != 403 {
		t.Errorf("get other user: %d", r.status)
	}
	for _, p := range []string{"/users/999999", "/users/abc", "/users/1e3", "/users/-1"} {
		if r := h.req("PUT", p, userBody("x@example.com", nil), key(h.a)...); r.status != 404 {
			t.Errorf("%s: %d", p, r.status)
		}
	}
	// PUT with a client creates it, atomically
	r = h.req("PUT", path, with(userBody("ann@example.com", nil), "client",
		with(clientBody("Ann's Apps"), "app", map[string]any{"marketapp": map[string]any{"hash": unknownHash}, "nextplan": map[string]any{"id": 1}})), key(h.a)...)
	if r.status != 404 {
		t.Errorf("unknown app hash in client: %d", r.status)
	}
	r = h.req("PUT", path, with(userBody("ann@example.com", nil), "client", clientBody("Ann's Apps")), key(h.a)...)
	if r.status != 200 {
		t.Errorf("put with client: %d %s", r.status, r.body)
	}
	if r := h.req("GET", "/clients/2003", nil, key(h.a)...); r.status != 200 || r.obj()["name"] != "Ann's Apps" {
		t.Errorf("client created by PUT /users: %d %s", r.status, r.body)
	}
}

func TestPostUser(t *testing.T) {
	h := newHarness(t, "")
	r := h.req("POST", "/users", with(userBody("new@example.com", "password1"), "client", with(clientBody("New Co"), "app", appBody(hashNoteIOS))))
	if r.status != 200 || r.obj()["email"] != "new@example.com" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if h.login("new@example.com", "password1").status != 200 {
		t.Error("new user cannot log in")
	}
	if r := h.req("POST", "/users", userBody("new2@example.com", nil)); r.status != 400 {
		t.Errorf("signup without password: %d", r.status)
	}
	if r := h.req("POST", "/users", userBody("NEW@example.com", "password1")); r.status != 400 {
		t.Errorf("duplicate signup: %d", r.status)
	}
}

func TestClients(t *testing.T) {
	h := newHarness(t, "")
	_, acid := h.ids(h.a)
	_, bcid := h.ids(h.b)
	r := h.req("GET", fmt.Sprintf("/clients/%d", acid), nil, key(h.a)...)
	if r.status != 200 || r.obj()["name"] != "Client A1" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	r = h.req("POST", "/clients", with(clientBody("Café ☕ Ltd"), "vat", "FR123"), key(h.a)...)
	if r.status != 200 {
		t.Fatalf("post: %d %s", r.status, r.body)
	}
	m := r.obj()
	cur, _ := m["currency"].(map[string]any)
	if m["name"] != "Café ☕ Ltd" || m["vat"] != "FR123" || cur["id"] != float64(3) || cur["code"] != "EUR" || m["createdDate"] == nil {
		t.Errorf("%s", r.body)
	}
	if _, ok := m["addressLine2"]; ok {
		t.Error("unset addressLine2 shown")
	}
	cid := r.str("id")
	path := "/clients/" + cid
	// PUT: absent vat keeps, null clears
	r = h.req("PUT", path, with(clientBody("Renamed"), "addressLine2", "Floor 2"), key(h.a)...)
	if r.status != 200 || r.obj()["vat"] != "FR123" || r.obj()["addressLine2"] != "Floor 2" || r.obj()["name"] != "Renamed" {
		t.Errorf("put: %d %s", r.status, r.body)
	}
	r = h.req("PUT", path, with(clientBody("Renamed"), "vat", nil), key(h.a)...)
	if _, ok := r.obj()["vat"]; r.status != 200 || ok {
		t.Errorf("null vat: %s", r.body)
	}
	cases := []struct {
		name string
		body map[string]any
		want string
	}{
		{"no name", with(clientBody(nil), "name", "<del>"), "name/InvalidName"},
		{"null name", clientBody(nil), "name/InvalidName"},
		{"empty name", clientBody(""), "name/InvalidName"},
		{"number name", clientBody(7), "name/InvalidName"},
		{"long name", clientBody(strings.Repeat("x", 256)), "name/InvalidName"},
		{"terms", with(clientBody("X"), "terms", "i agree"), "terms/InvalidTerms"},
		{"no terms", with(clientBody("X"), "terms", "<del>"), "terms/InvalidTerms"},
		{"currency", with(clientBody("X"), "currency", map[string]any{"id": 99}), "currency.id/InvalidCurrencyId"},
		{"currency string", with(clientBody("X"), "currency", map[string]any{"id": "1"}), "currency.id/InvalidCurrencyId"},
		{"currency fraction", with(clientBody("X"), "currency", map[string]any{"id": 1.5}), "currency.id/InvalidCurrencyId"},
		{"no currency", with(clientBody("X"), "currency", "<del>"), "currency/InvalidCurrency"},
		{"address", with(clientBody("X"), "addressCity", ""), "addressCity/InvalidAddressCity"},
		{"vat type", with(clientBody("X"), "vat", 5), "vat/InvalidVat"},
	}
	for _, c := range cases {
		for _, mp := range []struct{ m, p string }{{"POST", "/clients"}, {"PUT", path}} {
			r := h.req(mp.m, mp.p, c.body, key(h.a)...)
			if r.status != 400 || r.firstError() != c.want {
				t.Errorf("%s %s: %d %s", mp.m, c.name, r.status, r.body)
			}
		}
	}
	if r := h.req("PUT", path, with(clientBody("X"), "currency", map[string]any{"id": 1.0}), key(h.a)...); r.status != 200 {
		t.Errorf("1.0 currency: %d", r.status)
	}
	if r := h.req("PUT", path, with(clientBody("X"), "app", appBody(hashPQAndroid)), key(h.a)...); r.status != 400 || r.firstError() != "app/InvalidApp" {
		t.Errorf("app on PUT: %d %s", r.status, r.body)
	}
	if r := h.req("PUT", path, with(clientBody("X"), "app", nil), key(h.a)...); r.status != 400 {
		t.Errorf("null app on PUT: %d %s", r.status, r.body)
	}
	// isolation
	if r := h.req("PUT", fmt.Sprintf("/clients/%d", bcid), clientBody("Mine"), key(h.a)...); r.status != 403 {
		t.Errorf("other client put: %d", r.status)
	}
	if r := h.req("GET", fmt.Sprintf("/clients/%d", bcid), nil, key(h.a)...); r.status != 403 {
		t.Errorf("other client get: %d", r.status)
	}
	if r := h.req("GET", path, nil, key(h.b)...); r.status != 403 {
		t.Errorf("b reads a's new client: %d", r.status)
	}
	if r := h.req("PUT", "/clients/999999", clientBody("X"), key(h.a)...); r.status != 404 {
		t.Errorf("unknown client: %d", r.status)
	}
	if r := h.req("GET", fmt.Sprintf("/clients/%d", bcid), nil); r.status != 401 {
		t.Errorf("unauth: %d", r.status)
	}
	// POST with app: both or neither
	next := fmt.Sprintf("/clients/%d", 2004)
	r = h.req("POST", "/clients", with(clientBody("Both"), "app", appBody(unknownHash)), key(h.a)...)
	if r.status != 404 {
		t.Errorf("unknown hash: %d %s", r.status, r.body)
	}
	if r := h.req("GET", next, nil, key(h.a)...); r.status != 404 {
		t.Errorf("client created although app failed: %d", r.status)
	}
	r = h.req("POST", "/clients", with(clientBody("Both"), "app", map[string]any{"name": "Weather Now", "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}), key(h.a)...)
	if r.status != 200 || r.str("id") != "2004" {
		t.Errorf("client with app: %d %s", r.status, r.body)
	}
	if r := h.req("GET", "/apps/3001", nil, key(h.a)...); r.status != 200 || r.obj()["name"] != "Weather Now" {
		t.Errorf("first app: %d %s", r.status, r.body)
	}
	if r := h.req("POST", "/clients", with(clientBody("X"), "app", map[string]any{"nextplan": map[string]any{"id": 1}}), key(h.a)...); r.status != 400 || r.firstError() != "app.name/InvalidName" {
		t.Errorf("client app without name: %d %s", r.status, r.body)
	}
}

func TestApps(t *testing.T) {
	h := newHarness(t, "")
	r := h.req("POST", "/apps", appBody(strings.ToUpper(hashPQAndroid)), key(h.a)...)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	m := r.obj()
	pl, _ := m["platform"].(map[string]any)
	plan, _ := m["plan"].(map[string]any)
	ma, _ := m["marketapp"].(map[string]any)
	if m["name"] != "Puzzle Quest" || pl["id"] != float64(1) || pl["name"] != "Android" || ma["hash"] != hashPQAndroid ||
		plan["isPro"] != true || plan["isLite"] != false || plan["isDynamic"] != false || plan["needBilling"] != true ||
		!regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(r.str("writeKey")) {
		t.Errorf("%s", r.body)
	}
	id := r.str("id")
	if r := h.req("GET", "/apps/"+id, nil, key(h.a)...); r.status != 200 {
		t.Errorf("get app: %d", r.status)
	}
	if r := h.req("GET", "/apps/"+id, nil, key(h.b)...); r.status != 403 {
		t.Errorf("b gets a's app: %d", r.status)
	}
	// with a hash the name is not needed; by name+platform it works too
	r = h.req("POST", "/apps", map[string]any{"marketapp": nil, "name": "Note Taker", "platform": map[string]any{"id": 2}, "nextplan": map[string]any{"id": 1}}, key(h.a)...)
	if r.status != 200 || r.obj()["name"] != "Note Taker" {
		t.Errorf("by name: %d %s", r.status, r.body)
	}
	cases := []struct {
		name   string
		body   any
		status int
		want   string
	}{
		{"neither", map[string]any{"nextplan": map[string]any{"id": 1}, "platform": map[string]any{"id": 1}}, 400, "name/InvalidName"},
		{"null name", map[string]any{"name": nil, "marketapp": map[string]any{"hash": nil}, "nextplan": map[string]any{"id": 1}, "platform": map[string]any{"id": 1}}, 400, "name/InvalidName"},
		{"non hex", appBody(strings.Repeat("z", 40)), 400, "marketapp.hash/InvalidMarketappHash"},
		{"short hash", appBody(hashPQAndroid[:39]), 400, "marketapp.hash/InvalidMarketappHash"},
		{"no plan", with(appBody(hashPQAndroid), "nextplan", "<del>"), 400, "nextplan/InvalidNextplan"},
		{"bad plan", with(appBody(hashPQAndroid), "nextplan", map[string]any{"id": 9}), 400, "nextplan.id/InvalidNextplanId"},
		{"bad platform", map[string]any{"name": "Weather Now", "platform": map[string]any{"id": 5}, "nextplan": map[string]any{"id": 1}}, 400, "platform.id/InvalidPlatformId"},
	}
	for _, c := range cases {
		r := h.req("POST", "/apps", c.body, key(h.a)...)
		if r.status != c.status || r.firstError() != c.want {
			t.Errorf("%s: %d %s", c.name, r.status, r.body)
		}
	}
	if r := h.req("POST", "/apps", appBody(unknownHash), key(h.a)...); r.status != 404 {
		t.Errorf("unknown hash: %d", r.status)
	}
	if r := h.req("POST", "/apps", map[string]any{"name": "Not In Store", "platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}, key(h.a)...); r.status != 404 {
		t.Errorf("not in store: %d", r.status)
	}
	if r := h.req("POST", "/apps", appBody(hashPQAndroid)); r.status != 401 {
		t.Errorf("unauth: %d", r.status)
	}
	// concurrency: distinct ids
	ids := make([]string, 8)
	var fns []func()
	for i := range ids {
		fns = append(fns, func() { ids[i] = h.req("POST", "/apps", appBody(hashNoteIOS), key(h.a)...).str("id") })
	}
	parallel(fns...)
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			t.Fatalf("ids %v", ids)
		}
		seen[id] = true
	}
}

func TestCataloguesAndRouting(t *testing.T) {
	h := newHarness(t, "")
	r := h.req("GET", "/platforms", nil)
	if r.status != 200 || r.obj()["platforms"] == nil || len(r.obj()) != 1 {
		t.Errorf("%d %s", r.status, r.body)
	}
	r = h.req("GET", "/marketapps", nil)
	if !strings.Contains(string(r.body), hashPQAndroid) {
		t.Errorf("%s", r.body)
	}
	for _, p := range []string{"/plans", "/currencies", "/phonecountries"} {
		if r := h.req("GET", p, nil); r.status != 200 {
			t.Errorf("%s %d", p, r.status)
		}
	}
	if r := h.req("GET", h.ts.URL+"/api/v1/platforms", nil); r.status != 200 {
		t.Errorf("alias %d", r.status)
	}
	if r := h.req("DELETE", "/users/1001", nil, key(h.a)...); r.status != 405 {
		t.Errorf("DELETE %d", r.status)
	}
	if r := h.req("GET", "/nothing", nil); r.status != 404 {
		t.Errorf("unknown %d", r.status)
	}
	if r := h.req("GET", h.ts.URL+"/api/v2/platforms", nil); r.status != 404 {
		t.Errorf("v2 %d", r.status)
	}
}

type chunked struct{ r io.Reader }

func (c chunked) Read(p []byte) (int, error) { return c.r.Read(p) }

func TestWireForms(t *testing.T) {
	h := newHarness(t, "")
	login := `{"email":"` + h.a.Email + `","password":"` + h.a.Password + `"}`
	escaped := `{"p\u0061ssword":"` + h.a.Password + `",  "email" : "` + h.a.Email + `"}`
	for name, c := range map[string]struct {
		body any
		hdr  []string
		want int
	}{
		"plain":             {login, nil, 200},
		"charset":           {login, []string{"Content-Type", "application/json; charset=utf-8"}, 200},
		"upper media type":  {login, []string{"Content-Type", "Application/JSON"}, 200},
		"no content type":   {login, []string{"Content-Type", "<del>"}, 200},
		"text/plain":        {login, []string{"Content-Type", "text/plain"}, 415},
		"accept any":        {login, []string{"Accept", "*/*"}, 200},
		"accept list":       {login, []string{"Accept", "application/json, text/plain;q=0.5"}, 200},
		"whitespace":        {"\r\n\t " + login + "\n", nil, 200},
		"escapes and order": {escaped, nil, 200},
		"chunked":           {chunked{strings.NewReader(login)}, nil, 200},
		"too large":         {`{"email":"` + strings.Repeat("a", 1<<20) + `"}`, nil, 413},
	} {
		if r := h.req("POST", "/sessions", c.body, c.hdr...); r.status != c.want {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}
	r := h.req("POST", "/sessions", `{"email":`)
	if r.status != 400 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Errorf("malformed %d", r.status)
	}
	arr, _ := r.json().([]any)
	e, _ := arr[0].(map[string]any)
	if len(arr) != 1 || len(e) != 3 || e["fieldName"] == nil || e["error"] == nil || e["message"] == nil {
		t.Errorf("error shape %s", r.body)
	}
}
