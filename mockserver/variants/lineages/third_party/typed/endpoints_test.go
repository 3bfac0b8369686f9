package typed

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

func TestPostClient(t *testing.T) {
	a := newAPI(t, "")
	r := a.as(a.A, "POST", "/clients", clientBody(map[string]any{"vat": "GB123", "addressLine2": "Unit 4"}))
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	if r.str("name") != "Acme Ltd" || r.str("vat") != "GB123" || r.str("addressLine2") != "Unit 4" ||
		r.str("currency.code") != "EUR" || r.str("currency.id") != "1" || r.str("createdDate") == "<absent>" || r.str("terms") != "<absent>" {
		t.Fatalf("%s", r.Body)
	}
	r = a.as(a.A, "POST", "/clients", clientBody(nil))
	if r.str("vat") != "<absent>" || r.str("addressLine2") != "<absent>" {
		t.Fatalf("optional fields: %s", r.Body)
	}
	r = a.as(a.A, "POST", "/clients", clientBody(map[string]any{"vat": "", "addressLine2": ""}))
	if r.Code != 200 || r.str("vat") != "" || r.str("addressLine2") != "" {
		t.Fatalf("empty optional: %s", r.Body)
	}
	cases := []struct {
		over map[string]any
		want string
	}{
		{map[string]any{"name": "<delete>"}, "name:InvalidName"},
		{map[string]any{"name": ""}, "name:InvalidName"},
		{map[string]any{"name": strings.Repeat("x", 256)}, "name:InvalidName"},
		{map[string]any{"terms": "i agree"}, "terms:InvalidTerms"},
		{map[string]any{"terms": "<delete>"}, "terms:InvalidTerms"},
		{map[string]any{"currency": map[string]any{"id": 99}}, "currency.id:InvalidCurrencyId"},
		{map[string]any{"currency": nil}, "currency:InvalidCurrencyId"},
		{map[string]any{"currency": "<delete>"}, "currency:InvalidCurrencyId"},
		{map[string]any{"addressCity": "<delete>"}, "addressCity:InvalidAddressCity"},
		{map[string]any{"vat": strings.Repeat("v", 256)}, "vat:InvalidVat"},
		{map[string]any{"app": appBody(map[string]any{"marketapp": "<delete>"})}, "app.name:InvalidName,app.platform.id:InvalidPlatformId"},
	}
	for _, c := range cases {
		r := a.as(a.A, "POST", "/clients", clientBody(c.over))
		if r.Code != 400 || r.codes() != c.want {
			t.Errorf("%v: %d %s", c.over, r.Code, r.Body)
		}
	}
	// with app: both or neither
	before := len(clientsOf(a, a.A))
	r = a.as(a.A, "POST", "/clients", clientBody(map[string]any{"app": appBody(map[string]any{"nextplan": map[string]any{"id": 9}})}))
	if r.Code != 400 || len(clientsOf(a, a.A)) != before {
		t.Fatalf("refused app created the client: %d %s", r.Code, r.Body)
	}
	r = a.as(a.A, "POST", "/clients", clientBody(map[string]any{"app": appBody(map[string]any{"marketapp": map[string]any{"hash": strings.Repeat("0", 40)}})}))
	if r.Code != 404 || len(clientsOf(a, a.A)) != before {
		t.Fatalf("unknown marketapp: %d %s", r.Code, r.Body)
	}
	r = a.as(a.A, "POST", "/clients", clientBody(map[string]any{"app": appBody(nil)}))
	if r.Code != 200 || len(clientsOf(a, a.A)) != before+1 {
		t.Fatalf("with app: %d %s", r.Code, r.Body)
	}
	apps := a.as(a.A, "GET", "/clients/"+r.str("id")+"/apps", nil)
	if !strings.Contains(string(apps.Body), hashPuzzle) {
		t.Fatalf("app of new client: %s", apps.Body)
	}
	if a.as(a.B, "GET", "/clients/"+r.str("id"), nil).Code != 403 || a.as(a.B, "GET", "/clients/"+r.str("id")+"/apps", nil).Code != 403 {
		t.Fatal("B sees A's client")
	}
}

func clientsOf(a *api, acc Account) []map[string]any {
	var body struct{ Clients []map[string]any }
	_ = json.Unmarshal(a.as(acc, "GET", "/clients", nil).Body, &body)
	return body.Clients
}

func TestPutClient(t *testing.T) {
	a := newAPI(t, "")
	ca, cb := a.clientID(a.A), a.clientID(a.B)
	r := a.as(a.A, "PUT", "/clients/"+ca, clientBody(map[string]any{"name": "Renamed", "currency": map[string]any{"id": 2}}))
	if r.Code != 200 || r.str("name") != "Renamed" || r.str("currency.code") != "USD" || r.str("id") != ca {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	if a.as(a.A, "GET", "/clients/"+ca, nil).str("name") != "Renamed" {
		t.Fatal("not stored")
	}
	if r := a.as(a.A, "PUT", "/clients/"+cb, clientBody(nil)); r.Code != 403 {
		t.Fatalf("foreign: %d", r.Code)
	}
	if r := a.as(a.A, "PUT", "/clients/424242", clientBody(nil)); r.Code != 404 {
		t.Fatalf("missing: %d", r.Code)
	}
	if r := a.as(a.A, "PUT", "/clients/"+ca, clientBody(map[string]any{"name": ""})); r.Code != 400 || r.codes() != "name:InvalidName" {
		t.Fatalf("name: %d %s", r.Code, r.Body)
	}
	for _, app := range []any{appBody(nil), nil, map[string]any{}} {
		r := a.as(a.A, "PUT", "/clients/"+ca, clientBody(map[string]any{"name": "With app", "app": app}))
		if r.Code != 400 || r.codes() != "app:InvalidApp" {
			t.Fatalf("app %v: %d %s", app, r.Code, r.Body)
		}
	}
	esc := `{"\u0061pp":{},"name":"Esc","addressLine1":"a","addressCity":"b","addressPostcode":"c","addressCountry":"d","currency":{"id":1},"terms":"I agree"}`
	if r := a.as(a.A, "PUT", "/clients/"+ca, esc); r.Code != 400 || r.codes() != "app:InvalidApp" {
		t.Fatalf("escaped app: %d %s", r.Code, r.Body)
	}
	if a.as(a.A, "GET", "/clients/"+ca, nil).str("name") != "Renamed" {
		t.Fatal("refused PUT changed the client")
	}
	if r := a.as(a.A, "PUT", "/clients/"+ca, clientBody(map[string]any{"name": "app"})); r.Code != 200 {
		t.Fatalf("name app: %d %s", r.Code, r.Body)
	}
}

func TestPostApp(t *testing.T) {
	a := newAPI(t, "")
	r := a.as(a.A, "POST", "/apps", appBody(map[string]any{"nextplan": map[string]any{"id": 2}}))
	if r.Code != 200 {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	if r.str("name") != "Puzzle Quest" || r.str("platform.name") != "Android" || r.str("marketapp.hash") != hashPuzzle ||
		r.str("plan.isPro") != "true" || r.str("plan.isLite") != "false" || r.str("plan.needBilling") != "true" ||
		!regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(r.str("writeKey")) {
		t.Fatalf("%s", r.Body)
	}
	id := r.str("id")
	if g := a.as(a.A, "GET", "/apps/"+id, nil); g.Code != 200 || g.str("writeKey") != r.str("writeKey") {
		t.Fatalf("get: %d", g.Code)
	}
	if g := a.as(a.B, "GET", "/apps/"+id, nil); g.Code != 403 {
		t.Fatalf("foreign get: %d", g.Code)
	}
	// upper-case hash, and lookup by name + platform
	r = a.as(a.A, "POST", "/apps", appBody(map[string]any{"marketapp": map[string]any{"hash": strings.ToUpper(hashPuzzle)}}))
	if r.Code != 200 || r.str("marketapp.hash") != hashPuzzle || r.str("id") == id {
		t.Fatalf("upper: %d %s", r.Code, r.Body)
	}
	r = a.as(a.A, "POST", "/apps", appBody(map[string]any{"marketapp": map[string]any{"hash": nil}, "name": "Photo Frame", "platform": map[string]any{"id": 2}}))
	if r.Code != 200 || r.str("platform.name") != "iOS" {
		t.Fatalf("by name: %d %s", r.Code, r.Body)
	}
	if r := a.as(a.A, "POST", "/apps", appBody(map[string]any{"marketapp": "<delete>", "name": "Not In Store", "platform": map[string]any{"id": 1}})); r.Code != 404 {
		t.Fatalf("not in store: %d", r.Code)
	}
	if r := a.as(a.A, "POST", "/apps", appBody(map[string]any{"marketapp": map[string]any{"hash": strings.Repeat("1", 40)}})); r.Code != 404 {
		t.Fatalf("unknown hash: %d", r.Code)
	}
	cases := []struct {
		over map[string]any
		want string
	}{
		{map[string]any{"marketapp": "<delete>"}, "name:InvalidName,platform.id:InvalidPlatformId"},
		{map[string]any{"marketapp": map[string]any{}, "name": nil, "platform": map[string]any{"id": 1}}, "name:InvalidName"},
		{map[string]any{"marketapp": map[string]any{"hash": "xyz"}}, "marketapp.hash:InvalidMarketappHash"},
		{map[string]any{"marketapp": map[string]any{"hash": hashPuzzle + "0"}}, "marketapp.hash:InvalidMarketappHash"},
		{map[string]any{"nextplan": "<delete>"}, "nextplan:InvalidNextplanId"},
		{map[string]any{"nextplan": map[string]any{"id": 7}}, "nextplan.id:InvalidNextplanId"},
		{map[string]any{"nextplan": map[string]any{"id": 1.5}}, "nextplan.id:InvalidNextplanId"},
	}
	for _, c := range cases {
		r := a.as(a.A, "POST", "/apps", appBody(c.over))
		if r.Code != 400 || r.codes() != c.want {
			t.Errorf("%v: %d %s", c.over, r.Code, r.Body)
		}
	}
	// equivalent number forms
	if r := a.as(a.A, "POST", "/apps", `{"marketapp":{"hash":"`+hashPuzzle+`"},"nextplan":{"id":3.0}}`); r.Code != 200 || r.str("plan.isDynamic") != "true" {
		t.Fatalf("3.0: %d %s", r.Code, r.Body)
	}
	// apps listed under A's client only
	ca := a.clientID(a.A)
	var list struct{ Apps []map[string]any }
	_ = json.Unmarshal(a.as(a.A, "GET", "/clients/"+ca+"/apps", nil).Body, &list)
	if len(list.Apps) != 4 {
		t.Fatalf("apps: %d", len(list.Apps))
	}
}

func TestPostUsers(t *testing.T) {
	a := newAPI(t, "")
	b := userBody(Account{Email: "new@example.com"}, map[string]any{"password": "brand-new", "client": clientBody(map[string]any{"app": appBody(nil)})})
	r := a.do("POST", "/users", b, nil)
	if r.Code != 200 || r.str("email") != "new@example.com" {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
	l := a.login("new@example.com", "brand-new")
	if l.Code != 200 || l.str("clientId") == "0" {
		t.Fatalf("login: %d %s", l.Code, l.Body)
	}
	apps := a.do("GET", "/clients/"+l.str("clientId")+"/apps", nil, map[string]string{"session-token": l.str("token")})
	if !strings.Contains(string(apps.Body), hashPuzzle) {
		t.Fatalf("apps: %s", apps.Body)
	}
	if r := a.do("POST", "/users", b, nil); r.Code != 400 || r.codes() != "email:InvalidEmail" {
		t.Fatalf("duplicate: %d %s", r.Code, r.Body)
	}
	b2 := userBody(Account{Email: "x@example.com"}, map[string]any{"client": "<delete>"})
	if r := a.do("POST", "/users", b2, nil); r.Code != 400 || r.codes() != "password:InvalidPassword,client:InvalidClient" {
		t.Fatalf("no client: %d %s", r.Code, r.Body)
	}
}

func TestWireForms(t *testing.T) {
	a := newAPI(t, "").live()
	uid := a.userID(a.A)
	url := a.ts.URL + a.s.BasePath() + "/users/" + uid
	body := `{ "timezone" : "Asia/Tokyo", "email":"` + a.A.Email + `", "firstName":"\u004aos\u00e9",
	  "lastName":"L", "subscribeWelcome":true,"subscribeBlog":true,"subscribeHowto":true,"subscribeOnboarding":true,
	  "password" : null }`
	send := func(ct, accept string, chunked bool) (int, string) {
		var rd io.Reader = strings.NewReader(body)
		if chunked {
			rd = io.MultiReader(strings.NewReader(body)) // unknown length -> chunked
		}
		req, _ := http.NewRequest("PUT", url, rd)
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		req.Header.Set("authorization", "api-key "+a.A.APIKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if chunked && len(res.TransferEncoding) == 0 && req.ContentLength > 0 {
			t.Fatal("not chunked")
		}
		return res.StatusCode, string(b)
	}
	for _, c := range []struct {
		ct, accept string
		chunked    bool
		want       int
	}{
		{"application/json", "", false, 200},
		{"", "", false, 200},
		{"application/json; charset=utf-8", "", false, 200},
		{"Application/JSON", "", false, 200},
		{"application/json", "application/json", true, 200},
		{"application/json", "text/html, application/json;q=0.9", false, 200},
		{"application/json", "*/*", false, 200},
		{"application/json", "application/*", false, 200},
		{"text/plain", "", false, 415},
		{"application/json", "text/html", false, 406},
		{"application/json", "application/json;q=0", false, 406},
	} {
		code, b := send(c.ct, c.accept, c.chunked)
		if code != c.want {
			t.Errorf("%+v: %d %s", c, code, b)
		}
		if code == 200 && !strings.Contains(b, `"firstName":"José"`) {
			t.Errorf("escapes: %s", b)
		}
	}
	// body limit
	big := `{"email":"` + strings.Repeat("a", 2<<20) + `"}`
	req, _ := http.NewRequest("PUT", url, strings.NewReader(big))
	req.Header.Set("Authorization", "api-key "+a.A.APIKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 413 {
		t.Errorf("big body: %d", res.StatusCode)
	}
	// keys are case-sensitive, unknown keys ignored
	r := a.as(a.A, "PUT", "/users/"+uid, strings.Replace(`{"FIRSTNAME":"X","extra":1,`+mustJSON(userBody(a.A, map[string]any{"firstName": "<delete>"}))[1:], "", "", 1))
	if r.Code != 400 || r.codes() != "firstName:InvalidFirstName" {
		t.Errorf("case-insensitive key: %d %s", r.Code, r.Body)
	}
	// routing
	if r := a.do("DELETE", "/users/"+uid, nil, key(a.A)); r.Code != 405 || r.Hdr.Get("Allow") == "" {
		t.Errorf("405: %d", r.Code)
	}
	if r := a.do("GET", "/nothing", nil, key(a.A)); r.Code != 404 {
		t.Errorf("404: %d", r.Code)
	}
	if r := a.do("GET", "/platforms", nil, nil); r.Hdr.Get("X-Request-Id") == "" || !strings.HasPrefix(r.Hdr.Get("Content-Type"), "application/json") {
		t.Errorf("headers: %v", r.Hdr)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
