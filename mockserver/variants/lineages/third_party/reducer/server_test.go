package reducer

import (
	"regexp"
	"slices"
	"strings"
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
	acc := s.Accounts()
	if len(acc) != 500 || acc[499][1].Email != "b500@example.com" {
		t.Fatalf("500 pairs: %d", len(acc))
	}
	seen := map[string]bool{}
	for _, p := range acc {
		for _, a := range p {
			if seen[a.APIKey] || len(a.APIKey) != 32 {
				t.Fatalf("bad or duplicate api key %q", a.APIKey)
			}
			seen[a.APIKey] = true
		}
	}
	if s.BasePath() != "/v1.0" {
		t.Fatal(s.BasePath())
	}
	names := map[string]bool{}
	legal := 0
	for _, f := range Faults() {
		if names[f.Name] || f.Rule == "" || f.Quote == "" || f.Description == "" {
			t.Fatalf("fault %q duplicated or incomplete", f.Name)
		}
		names[f.Name] = true
		if f.Legal {
			legal++
		}
		if _, err := New(Options{Fault: f.Name}); err != nil {
			t.Fatal(err)
		}
	}
	if legal != 5 {
		t.Fatalf("legal readings: %d", legal)
	}
}

func TestCatalogues(t *testing.T) {
	h := newH(t, "")
	for path, prop := range map[string]string{
		"/platforms": "platforms", "/currencies": "currencies", "/plans": "plans",
		"/phonecountries": "phoneCountries", "/marketapps": "marketapps",
	} {
		r := h.do("GET", path, nil)
		m, ok := r.body.(map[string]any)
		if r.code != 200 || !ok || len(m) != 1 {
			t.Fatalf("%s: %d %s", path, r.code, r.raw)
		}
		if _, ok := m[prop].([]any); !ok {
			t.Fatalf("%s: no %s array", path, prop)
		}
	}
	r := h.do("GET", "/platforms", nil)
	if r.raw != `{"platforms":[{"id":1,"name":"Android"},{"id":2,"name":"iOS"}]}`+"\n" {
		t.Fatal(r.raw)
	}
	r = h.do("GET", "/marketapps", nil)
	if !strings.Contains(r.raw, hashPuzzleAndroid) || !strings.Contains(r.raw, hashWeatherIOS) {
		t.Fatal(r.raw)
	}
	if r := h.do("POST", "/platforms", "{}"); r.code != 405 || r.hdr.Get("Allow") != "GET" {
		t.Fatal(r.code)
	}
}

func TestRoutingAndVersions(t *testing.T) {
	h := newH(t, "")
	for _, p := range []string{"/v1.0/platforms", "/v1/platforms"} {
		if r := h.do("GET", p, nil); r.code != 200 {
			t.Fatalf("%s: %d", p, r.code)
		}
	}
	for _, p := range []string{"/v2/platforms", "/v1.1x/platforms", "/v1.0/platforms/", "/v1.0/nothing", "/v1.0", "/v1.0/users/1/x", "/v1.0//platforms"} {
		if r := h.do("GET", p, nil); r.code != 404 {
			t.Fatalf("%s: %d", p, r.code)
		}
	}
	for _, id := range []string{"1abc", "01", "-1", "0", "1.0", "abc", "99999999999999999999"} {
		r := h.do("PUT", "/users/"+id, userBody("a1@example.com", nil), key(h.A)...)
		if r.code != 404 {
			t.Fatalf("PUT /users/%s: %d", id, r.code)
		}
		if get(r.body, "error") != "NotFound" {
			t.Fatalf("404 shape: %s", r.raw)
		}
	}
}

func TestSessions(t *testing.T) {
	h := newH(t, "")
	r := h.login(h.A.Email, h.A.Password)
	if r.code != 200 {
		t.Fatal(r.raw)
	}
	for _, k := range []string{"id", "created", "creatorUserId", "userId", "clientId", "token"} {
		if !has(r.body, k) {
			t.Fatalf("session lacks %s: %s", k, r.raw)
		}
	}
	if num(get(r.body, "userId")) != 1 || num(get(r.body, "creatorUserId")) != 1 || num(get(r.body, "clientId")) != 1 {
		t.Fatal(r.raw)
	}
	if _, err := time.Parse(time.RFC3339, get(r.body, "created").(string)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.raw, h.A.Password) || strings.Contains(r.raw, h.A.APIKey) {
		t.Fatal("secret in session")
	}
	// e-mail is matched case-insensitively, the password exactly
	if r := h.login(strings.ToUpper(h.A.Email), h.A.Password); r.code != 200 {
		t.Fatal(r.code)
	}
	for _, pw := range []string{"wrong-pass", strings.ToUpper(h.A.Password), h.A.Password + " "} {
		if r := h.login(h.A.Email, pw); r.code != 401 {
			t.Fatalf("%q: %d", pw, r.code)
		}
	}
	if r := h.login("nobody@example.com", "whatever"); r.code != 401 {
		t.Fatal(r.code)
	}
	r = h.do("POST", "/sessions", map[string]any{})
	if r.code != 400 || !slices.Equal(errCodes(r), []string{"email:InvalidEmail", "password:InvalidPassword"}) {
		t.Fatal(r.raw)
	}
	if r := h.login(h.A.Email, h.A.Password, "clientId", 2); r.code != 403 {
		t.Fatal(r.code)
	}
	if r := h.login(h.A.Email, h.A.Password, "clientId", 77); r.code != 404 {
		t.Fatal(r.code)
	}
	if r := h.login(h.A.Email, h.A.Password, "clientId", 1); r.code != 200 {
		t.Fatal(r.code)
	}
}

func TestAuthentication(t *testing.T) {
	h := newH(t, "")
	tok := h.token(h.A.Email, h.A.Password)
	body := userBody(h.A.Email, nil)
	ok := [][]string{
		key(h.A),
		{"Authorization", "API-KEY " + h.A.APIKey},
		{"session-token", tok},
		{"SESSION-TOKEN", tok},
	}
	for _, hd := range ok {
		if r := h.do("PUT", "/users/1", body, hd...); r.code != 200 {
			t.Fatalf("%v: %d %s", hd, r.code, r.raw)
		}
	}
	if r := h.do("PUT", "/users/1?sessionToken="+tok, body); r.code != 200 {
		t.Fatal(r.code)
	}
	bad := [][]string{
		nil,
		{"Authorization", h.A.APIKey},
		{"Authorization", "Bearer " + h.A.APIKey},
		{"Authorization", "api-key nope"},
		{"Authorization", "api-key " + tok},
		{"session-token", h.A.APIKey},
		{"session-token", "nope"},
		{"sessionToken", tok},
	}
	for _, hd := range bad {
		r := h.do("PUT", "/users/1", body, hd...)
		if r.code != 401 || get(r.body, "error") != "Unauthorized" {
			t.Fatalf("%v: %d %s", hd, r.code, r.raw)
		}
	}
	if r := h.do("PUT", "/users/1?session-token="+tok, body); r.code != 401 {
		t.Fatal(r.code)
	}
	// authentication is decided before the body
	if r := h.do("PUT", "/users/1", "not json"); r.code != 401 {
		t.Fatal(r.code)
	}
	if r := h.do("POST", "/apps", "[]"); r.code != 401 {
		t.Fatal(r.code)
	}
	// expiry: 24 hours
	h.clock.Add(int64(24 * time.Hour / time.Second))
	if r := h.do("PUT", "/users/1", body, "session-token", tok); r.code != 401 {
		t.Fatal("expired session accepted", r.code)
	}
	if r := h.do("PUT", "/users/1", body, key(h.A)...); r.code != 200 {
		t.Fatal(r.code)
	}
}

var isoRe = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

func TestPutUser(t *testing.T) {
	h := newH(t, "")
	b := userBody("Ann.Lee@Example.com", "new secret")
	b["phoneCountry"] = map[string]any{"id": 2}
	b["phoneNumber"] = "5550100"
	b["phoneExtension"] = "42"
	r := h.do("PUT", "/users/1", b, key(h.A)...)
	if r.code != 200 {
		t.Fatal(r.raw)
	}
	want := []string{"id", "created", "email", "passwordLastChanged", "firstName", "lastName", "subscribeWelcome",
		"subscribeBlog", "subscribeHowto", "subscribeOnboarding", "phoneCountry", "phoneNumber", "phoneExtension", "timezone"}
	if len(r.body.(map[string]any)) != len(want) {
		t.Fatal(r.raw)
	}
	for _, k := range want {
		if !has(r.body, k) {
			t.Fatalf("missing %s: %s", k, r.raw)
		}
	}
	if get(r.body, "email") != "Ann.Lee@Example.com" || get(r.body, "phoneCountry.dialCode") != "+1" ||
		get(r.body, "phoneCountry.name") != "United States (+1)" || get(r.body, "phoneExtension") != "42" ||
		get(r.body, "timezone") != "Europe/Paris" || get(r.body, "subscribeHowto") != true {
		t.Fatal(r.raw)
	}
	if !isoRe.MatchString(get(r.body, "created").(string)) || !isoRe.MatchString(get(r.body, "passwordLastChanged").(string)) {
		t.Fatal(r.raw)
	}
	if strings.Contains(r.raw, "new secret") || strings.Contains(r.raw, h.A.APIKey) {
		t.Fatal("secret returned")
	}
	plc := get(r.body, "passwordLastChanged")
	// the new email and password log in, the old ones no longer
	if h.login("Ann.Lee@Example.com", "new secret").code != 200 || h.login(h.A.Email, h.A.Password).code != 401 ||
		h.login(h.A.Email, "new secret").code != 401 || h.login("Ann.Lee@Example.com", h.A.Password).code != 401 {
		t.Fatal("credentials not replaced")
	}
	// null keeps the password, and its date; extension null is kept as null
	b2 := with(b, "password", nil, "phoneExtension", nil)
	r = h.do("PUT", "/users/1", b2, key(h.A)...)
	if r.code != 200 || get(r.body, "passwordLastChanged") != plc || get(r.body, "phoneExtension") != nil || !has(r.body, "phoneExtension") {
		t.Fatal(r.raw)
	}
	if h.login("ann.lee@example.com", "new secret").code != 200 {
		t.Fatal("null did not keep the password")
	}
	// unicode and the 255 limit count characters
	long := strings.Repeat("é", 255)
	r = h.do("PUT", "/users/1", with(b2, "firstName", long, "lastName", "Zoë 李"), key(h.A)...)
	if r.code != 200 || get(r.body, "firstName") != long || get(r.body, "lastName") != "Zoë 李" {
		t.Fatal(r.code)
	}
	r = h.do("PUT", "/users/1", with(b2, "firstName", long+"e"), key(h.A)...)
	if r.code != 400 || !slices.Equal(errCodes(r), []string{"firstName:InvalidFirstName"}) {
		t.Fatal(r.raw)
	}
	// password of six characters, counted as characters
	if r := h.do("PUT", "/users/1", with(b2, "password", "ééééé"), key(h.A)...); r.code != 400 {
		t.Fatal(r.code)
	}
	if r := h.do("PUT", "/users/1", with(b2, "password", "éééééé"), key(h.A)...); r.code != 200 {
		t.Fatal(r.code)
	}
	if h.login("ann.lee@example.com", "éééééé").code != 200 {
		t.Fatal("unicode password")
	}
	// the password exactly as set, spaces included
	if r := h.do("PUT", "/users/1", with(b2, "password", "  pad me  "), key(h.A)...); r.code != 200 {
		t.Fatal(r.code)
	}
	if h.login("ann.lee@example.com", "  pad me  ").code != 200 || h.login("ann.lee@example.com", "pad me").code != 401 {
		t.Fatal("password not stored as sent")
	}
}

func TestPutUserValidation(t *testing.T) {
	h := newH(t, "")
	b := userBody(h.A.Email, nil)
	cases := []struct {
		body map[string]any
		want []string
	}{
		{map[string]any{}, []string{"email:InvalidEmail", "firstName:InvalidFirstName", "lastName:InvalidLastName",
			"subscribeWelcome:InvalidSubscribeWelcome", "subscribeBlog:InvalidSubscribeBlog", "subscribeHowto:InvalidSubscribeHowto",
			"subscribeOnboarding:InvalidSubscribeOnboarding", "timezone:InvalidTimezone", "password:InvalidPassword"}},
		{with(b, "email", "not-an-email"), []string{"email:InvalidEmail"}},
		{with(b, "email", h.B.Email), []string{"email:InvalidEmail"}},
		{with(b, "email", strings.ToUpper(h.B.Email)), []string{"email:InvalidEmail"}},
		{with(b, "email", 5), []string{"email:InvalidEmail"}},
		{with(b, "password", "short"), []string{"password:InvalidPassword"}},
		{with(b, "password", absent), []string{"password:InvalidPassword"}},
		{with(b, "password", 123456), []string{"password:InvalidPassword"}},
		{with(b, "firstName", ""), []string{"firstName:InvalidFirstName"}},
		{with(b, "firstName", "   "), []string{"firstName:InvalidFirstName"}},
		{with(b, "firstName", nil), []string{"firstName:InvalidFirstName"}},
		{with(b, "lastName", absent), []string{"lastName:InvalidLastName"}},
		{with(b, "subscribeBlog", "yes"), []string{"subscribeBlog:InvalidSubscribeBlog"}},
		{with(b, "timezone", "UTC"), []string{"timezone:InvalidTimezone"}},
		{with(b, "phoneCountry", map[string]any{"id": 99}), []string{"phoneCountry.id:InvalidPhoneCountryId"}},
		{with(b, "phoneCountry", map[string]any{"id": "1"}), []string{"phoneCountry.id:InvalidPhoneCountryId"}},
		{with(b, "phoneNumber", ""), []string{"phoneNumber:InvalidPhoneNumber"}},
		{with(b, "phoneExtension", 12), []string{"phoneExtension:InvalidPhoneExtension"}},
		{with(b, "phoneExtension", "x1"), []string{"phoneExtension:InvalidPhoneExtension"}},
		{with(b, "client", "acme"), []string{"client:InvalidClient"}},
		{with(b, "client", with(clientBody("C"), "name", "")), []string{"client.name:InvalidName"}},
	}
	for i, c := range cases {
		r := h.do("PUT", "/users/1", c.body, key(h.A)...)
		if r.code != 400 || !slices.Equal(errCodes(r), c.want) {
			t.Fatalf("case %d: %d %v", i, r.code, errCodes(r))
		}
		for _, e := range r.body.([]any) {
			if m, _ := get(e, "message").(string); m == "" || len(e.(map[string]any)) != 3 {
				t.Fatalf("case %d: error element %v", i, e)
			}
		}
	}
	// a refused request changed nothing
	r := h.do("PUT", "/users/1", with(b, "email", "x@example.com", "password", "changed!", "client", map[string]any{}), key(h.A)...)
	if r.code != 400 {
		t.Fatal(r.code)
	}
	if h.login(h.A.Email, h.A.Password).code != 200 || h.login("x@example.com", "changed!").code != 401 {
		t.Fatal("refused PUT changed credentials")
	}
	// permissions
	if r := h.do("PUT", "/users/2", userBody(h.B.Email, nil), key(h.A)...); r.code != 403 {
		t.Fatal(r.code)
	}
	if r := h.do("PUT", "/users/3", userBody(h.B.Email, nil), key(h.A)...); r.code != 404 {
		t.Fatal(r.code)
	}
	if r := h.do("GET", "/users/2", nil, key(h.A)...); r.code != 403 {
		t.Fatal(r.code)
	}
	// with a client: created, and the caller is its member
	r = h.do("PUT", "/users/1", with(b, "client", with(clientBody("Side Co"), "app", appBody(hashWeatherIOS))), key(h.A)...)
	if r.code != 200 {
		t.Fatal(r.raw)
	}
	if r := h.do("GET", "/clients/3", nil, key(h.A)...); r.code != 200 || get(r.body, "name") != "Side Co" {
		t.Fatal(r.raw)
	}
	tok := h.login(h.A.Email, h.A.Password, "clientId", 3)
	if r := h.do("GET", "/apps", nil, "session-token", get(tok.body, "token").(string)); len(get(r.body, "apps").([]any)) != 1 {
		t.Fatal(r.raw)
	}
}

func TestPostUser(t *testing.T) {
	h := newH(t, "")
	b := with(userBody("New.User@example.com", "pass word"), "client", clientBody("Fresh"))
	r := h.do("POST", "/users", b)
	if r.code != 200 || get(r.body, "email") != "New.User@example.com" || num(get(r.body, "id")) != 3 {
		t.Fatal(r.raw)
	}
	s := h.login("new.user@example.com", "pass word")
	if s.code != 200 || num(get(s.body, "clientId")) != 3 {
		t.Fatal(s.raw)
	}
	if r := h.do("POST", "/users", b); r.code != 400 || !slices.Equal(errCodes(r), []string{"email:InvalidEmail"}) {
		t.Fatal(r.raw)
	}
	minimal := map[string]any{"email": "min@example.com", "password": "secret", "firstName": "M", "lastName": "N"}
	if r := h.do("POST", "/users", minimal); r.code != 200 || get(r.body, "phoneCountry") != nil {
		t.Fatal(r.raw)
	}
	if r := h.do("POST", "/users", with(minimal, "email", "x@example.com", "password", nil)); r.code != 400 {
		t.Fatal(r.code)
	}
}

func TestClients(t *testing.T) {
	h := newH(t, "")
	cb := with(clientBody("Acme Ltd"), "vat", "FR123", "addressLine2", "Bât. B")
	r := h.do("POST", "/clients", cb, key(h.A)...)
	if r.code != 200 {
		t.Fatal(r.raw)
	}
	if r.raw[:len(`{"id":3,"createdDate":"`)] != `{"id":3,"createdDate":"` || get(r.body, "name") != "Acme Ltd" ||
		get(r.body, "vat") != "FR123" || get(r.body, "addressLine2") != "Bât. B" ||
		num(get(r.body, "currency.id")) != 1 || get(r.body, "currency.code") != "EUR" {
		t.Fatal(r.raw)
	}
	if !isoRe.MatchString(get(r.body, "createdDate").(string)) {
		t.Fatal(r.raw)
	}
	// A may update it; B may not
	up := with(clientBody("Acme SA"), "currency", map[string]any{"id": 3})
	r = h.do("PUT", "/clients/3", up, key(h.A)...)
	if r.code != 200 || get(r.body, "name") != "Acme SA" || get(r.body, "currency.code") != "GBP" || has(r.body, "vat") || has(r.body, "addressLine2") {
		t.Fatal(r.raw)
	}
	if r := h.do("PUT", "/clients/3", up, key(h.B)...); r.code != 403 {
		t.Fatal(r.code)
	}
	if r := h.do("PUT", "/clients/2", up, key(h.A)...); r.code != 403 {
		t.Fatal(r.code)
	}
	if r := h.do("PUT", "/clients/9", up, key(h.A)...); r.code != 404 {
		t.Fatal(r.code)
	}
	if r := h.do("GET", "/clients/2", nil, key(h.A)...); r.code != 403 {
		t.Fatal(r.code)
	}
	// PUT refuses app, even null
	for _, app := range []any{appBody(hashPuzzleAndroid), nil} {
		r := h.do("PUT", "/clients/1", with(clientBody("X"), "app", app), key(h.A)...)
		if r.code != 400 || !slices.Equal(errCodes(r), []string{"app:InvalidApp"}) {
			t.Fatal(r.raw)
		}
	}
	// validation
	cases := []struct {
		body map[string]any
		want []string
	}{
		{with(clientBody(""), "name", absent), []string{"name:InvalidName"}},
		{clientBody(" "), []string{"name:InvalidName"}},
		{clientBody(strings.Repeat("n", 256)), []string{"name:InvalidName"}},
		{with(clientBody("C"), "terms", "i agree"), []string{"terms:InvalidTerms"}},
		{with(clientBody("C"), "terms", absent), []string{"terms:InvalidTerms"}},
		{with(clientBody("C"), "currency", map[string]any{"id": 1.5}), []string{"currency.id:InvalidCurrencyId"}},
		{with(clientBody("C"), "currency", map[string]any{"id": "1"}), []string{"currency.id:InvalidCurrencyId"}},
		{with(clientBody("C"), "currency", map[string]any{"id": 9}), []string{"currency.id:InvalidCurrencyId"}},
		{with(clientBody("C"), "currency", absent), []string{"currency.id:InvalidCurrencyId"}},
		{with(clientBody("C"), "addressCity", absent, "vat", 7), []string{"addressCity:InvalidAddressCity", "vat:InvalidVat"}},
		{with(clientBody("C"), "app", map[string]any{"nextplan": map[string]any{"id": 1}}), []string{"app.name:InvalidName", "app.platform.id:InvalidPlatformId"}},
		{with(clientBody("C"), "app", 5), []string{"app:InvalidApp"}},
	}
	for i, c := range cases {
		r := h.do("POST", "/clients", c.body, key(h.A)...)
		if r.code != 400 || !slices.Equal(errCodes(r), c.want) {
			t.Fatalf("case %d: %d %s", i, r.code, r.raw)
		}
	}
	if r := h.do("POST", "/clients", clientBody(strings.Repeat("é", 255)), key(h.A)...); r.code != 200 || num(get(r.body, "id")) != 4 {
		t.Fatal(r.raw)
	}
	// with an app: both, or (404 for the marketplace app) neither
	r = h.do("POST", "/clients", with(clientBody("Both"), "app", appBody(strings.Repeat("a", 40))), key(h.A)...)
	if r.code != 404 {
		t.Fatal(r.raw)
	}
	if r := h.do("GET", "/clients/5", nil, key(h.A)...); r.code != 404 {
		t.Fatal("refused POST /clients left a client", r.code)
	}
	r = h.do("POST", "/clients", with(clientBody("Both"), "app", appBody(hashPuzzleAndroid)), key(h.A)...)
	if r.code != 200 || num(get(r.body, "id")) != 5 {
		t.Fatal(r.raw)
	}
	s := h.login(h.A.Email, h.A.Password, "clientId", 5)
	r = h.do("GET", "/apps", nil, "session-token", get(s.body, "token").(string))
	if apps := get(r.body, "apps").([]any); len(apps) != 1 || get(apps[0], "name") != "Puzzle Quest" {
		t.Fatal(r.raw)
	}
	// names read back as sent
	r = h.do("POST", "/clients", clientBody("  spaced \"quoted\" \u00e9\U0001F600 "), key(h.A)...)
	if get(r.body, "name") != "  spaced \"quoted\" é😀 " {
		t.Fatal(r.raw)
	}
}

func TestApps(t *testing.T) {
	h := newH(t, "")
	r := h.do("POST", "/apps", appBody(hashPuzzleAndroid), key(h.A)...)
	if r.code != 200 {
		t.Fatal(r.raw)
	}
	if num(get(r.body, "id")) != 1 || get(r.body, "name") != "Puzzle Quest" || get(r.body, "platform.name") != "Android" ||
		num(get(r.body, "platform.id")) != 1 || get(r.body, "marketapp.hash") != hashPuzzleAndroid ||
		get(r.body, "plan.isPro") != true || get(r.body, "plan.isLite") != false || get(r.body, "plan.needBilling") != true {
		t.Fatal(r.raw)
	}
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(get(r.body, "writeKey").(string)) || !isoRe.MatchString(get(r.body, "created").(string)) {
		t.Fatal(r.raw)
	}
	// uppercase hex is hexadecimal; name ignored when the hash is given
	r = h.do("POST", "/apps", with(appBody(strings.ToUpper(hashWeatherIOS)), "name", "Mine"), key(h.A)...)
	if r.code != 200 || get(r.body, "name") != "Weather Now" || get(r.body, "marketapp.hash") != hashWeatherIOS {
		t.Fatal(r.raw)
	}
	// by name and platform
	byName := map[string]any{"marketapp": map[string]any{"hash": nil}, "name": "Budget Book", "platform": map[string]any{"id": 2}, "nextplan": map[string]any{"id": 1}}
	r = h.do("POST", "/apps", byName, key(h.A)...)
	if r.code != 200 || get(r.body, "marketapp.hash") != "1c2598952363e977f8a8232f1499ed1d67088b84" || get(r.body, "plan.isLite") != true {
		t.Fatal(r.raw)
	}
	if r := h.do("POST", "/apps", with(byName, "name", "Not In Store"), key(h.A)...); r.code != 404 {
		t.Fatal(r.code)
	}
	cases := []struct {
		body map[string]any
		want []string
	}{
		{map[string]any{"nextplan": map[string]any{"id": 1}, "platform": map[string]any{"id": 1}}, []string{"name:InvalidName"}},
		{with(byName, "name", nil), []string{"name:InvalidName"}},
		{with(byName, "name", ""), []string{"name:InvalidName"}},
		{with(byName, "platform", map[string]any{"id": 3}), []string{"platform.id:InvalidPlatformId"}},
		{with(byName, "platform", map[string]any{"id": 1.5}), []string{"platform.id:InvalidPlatformId"}},
		{appBody(hashPuzzleAndroid[:39]), []string{"marketapp.hash:InvalidMarketappHash"}},
		{appBody(hashPuzzleAndroid + "0"), []string{"marketapp.hash:InvalidMarketappHash"}},
		{appBody(strings.Repeat("g", 40)), []string{"marketapp.hash:InvalidMarketappHash"}},
		{with(appBody(hashPuzzleAndroid), "nextplan", absent), []string{"nextplan.id:InvalidNextplanId"}},
		{with(appBody(hashPuzzleAndroid), "nextplan", map[string]any{"id": 4}), []string{"nextplan.id:InvalidNextplanId"}},
		{with(appBody(hashPuzzleAndroid), "marketapp", "x"), []string{"marketapp:InvalidMarketapp", "name:InvalidName"}[:1]},
	}
	for i, c := range cases {
		r := h.do("POST", "/apps", c.body, key(h.A)...)
		if r.code != 400 || !slices.Equal(errCodes(r), c.want) {
			t.Fatalf("case %d: %d %s", i, r.code, r.raw)
		}
	}
	if r := h.do("POST", "/apps", appBody(strings.Repeat("0", 40)), key(h.A)...); r.code != 404 {
		t.Fatal(r.code)
	}
	// isolation
	if r := h.do("GET", "/apps/1", nil, key(h.B)...); r.code != 403 {
		t.Fatal(r.code)
	}
	if r := h.do("GET", "/apps/99", nil, key(h.B)...); r.code != 404 {
		t.Fatal(r.code)
	}
	if r := h.do("GET", "/apps", nil, key(h.B)...); r.raw != "{\"apps\":[]}\n" {
		t.Fatal(r.raw)
	}
	if r := h.do("GET", "/apps", nil, key(h.A)...); len(get(r.body, "apps").([]any)) != 3 {
		t.Fatal(r.raw)
	}
}

func TestWireForms(t *testing.T) {
	h := newH(t, "")
	b := `{"email":"a1@example.com","firstName":"Ann","lastName":"Lee","subscribeWelcome":true,"subscribeBlog":false,"subscribeHowto":false,"subscribeOnboarding":false,"timezone":"Europe/Paris","password":null}`
	reordered := "\n\t { \"password\" : null , \"timezone\":\"Europe\\/Paris\",\"subscribeOnboarding\":false,\"subscribeHowto\":false,\"subscribeBlog\":false,\"subscribeWelcome\":true,\"lastName\":\"L\\u0065e\",\"firstName\":\"Ann\",\"email\":\"a1@example.com\"} \n"
	variants := [][]string{
		nil,
		{"Content-Type", "application/json; charset=utf-8"},
		{"Content-Type", "Application/JSON"},
		{"Content-Type", "text/plain"},
		{"-Content-Type", ""},
		{"Accept", "*/*"},
		{"Accept", "application/*;q=0.5"},
		{"Accept", "text/html"},
		{"chunked", ""},
		{"authorization", "api-key " + h.A.APIKey},
	}
	for _, v := range variants {
		for _, body := range []string{b, reordered} {
			hd := append(append([]string{}, key(h.A)...), v...)
			r := h.do("PUT", "/users/1", body, hd...)
			if r.code != 200 || get(r.body, "lastName") != "Lee" || get(r.body, "timezone") != "Europe/Paris" {
				t.Fatalf("%v: %d %s", v, r.code, r.raw)
			}
			if ct := r.hdr.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Fatal(ct)
			}
		}
	}
	// equivalent numbers
	for _, n := range []string{"1", "1.0", "1e0", "10E-1"} {
		body := `{"marketapp":{"hash":"` + hashPuzzleAndroid + `"},"nextplan":{"id":` + n + `}}`
		if r := h.do("POST", "/apps", body, key(h.A)...); r.code != 200 {
			t.Fatalf("%s: %d", n, r.code)
		}
	}
	for _, body := range []string{"", "null", "[]", "{", `{"a":1} {}`, `"x"`} {
		r := h.do("PUT", "/users/1", body, key(h.A)...)
		if r.code != 400 || !slices.Equal(errCodes(r), []string{":InvalidBody"}) {
			t.Fatalf("%q: %d %s", body, r.code, r.raw)
		}
	}
	big := `{"name":"` + strings.Repeat("x", 1<<20) + `"}`
	if r := h.do("POST", "/clients", big, key(h.A)...); r.code != 413 {
		t.Fatal(r.code)
	}
}

func TestConcurrencyCorrect(t *testing.T) {
	h := newH(t, "")
	const n = 8
	ids := make([]int64, n)
	var fs []func()
	for i := 0; i < n; i++ {
		acc := h.A
		if i%2 == 1 {
			acc = h.B
		}
		fs = append(fs, func() { ids[i] = num(get(h.do("POST", "/apps", appBody(hashPuzzleAndroid), key(acc)...).body, "id")) })
	}
	parallel(fs...)
	slices.Sort(ids)
	for i, id := range ids {
		if id != int64(i+1) {
			t.Fatalf("ids %v", ids)
		}
	}
	var ra, rb resp
	parallel(
		func() { ra = h.do("PUT", "/users/1", userBody("same@example.com", nil), key(h.A)...) },
		func() { rb = h.do("PUT", "/users/2", userBody("same@example.com", nil), key(h.B)...) },
	)
	if c := codes(ra, rb); c != "200,400" && c != "400,200" {
		t.Fatal(c)
	}
	emailB := h.B.Email
	if rb.code == 200 {
		emailB = "same@example.com"
	}
	toks := make([]string, n)
	fs = nil
	for i := 0; i < n; i++ {
		fs = append(fs, func() { toks[i], _ = get(h.login(emailB, h.B.Password).body, "token").(string) })
	}
	parallel(fs...)
	for _, tok := range toks {
		if r := h.do("GET", "/users/2", nil, "session-token", tok); r.code != 200 {
			t.Fatal(r.code)
		}
	}
}

func TestPersistentMap(t *testing.T) {
	var m PMap[int64, int]
	olds := []PMap[int64, int]{}
	for i := int64(0); i < 2000; i++ {
		olds = append(olds, m)
		m = m.Set(i, int(i))
	}
	for i, old := range olds {
		if old.Len() != i {
			t.Fatalf("version %d has %d", i, old.Len())
		}
	}
	for i := int64(0); i < 2000; i += 2 {
		m = m.Delete(i)
	}
	if m.Len() != 1000 {
		t.Fatal(m.Len())
	}
	if _, ok := m.Get(4); ok {
		t.Fatal("deleted key present")
	}
	if v, ok := m.Get(5); !ok || v != 5 {
		t.Fatal("lost key")
	}
	if v, _ := olds[1999].Get(4); v != 4 {
		t.Fatal("old version changed")
	}
}
