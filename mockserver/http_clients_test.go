package mockserver_test

import (
	"net/http"
	"testing"
)

// POST /clients creates a client the caller is a member of; the optional
// fields are echoed when given and absent when omitted or null (README).
func TestPostClient(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		body     map[string]any
		optional map[string]any // addressLine2 and vat as expected in the answer; nil: absent
		wantApp  string         // raw JSON of the created app's marketapp.hash, "" for no app
	}{
		{"every field", clientBody(), map[string]any{"addressLine2": "Floor 2", "vat": "GB123456789"}, ""},
		{"optional fields omitted", with(with(clientBody(), "addressLine2", absent), "vat", absent), map[string]any{}, ""},
		{"optional fields null", with(with(clientBody(), "addressLine2", nil), "vat", nil), map[string]any{}, ""},
		{"with its first app", with(clientBody(), "app", appBody()), map[string]any{"addressLine2": "Floor 2", "vat": "GB123456789"}, `"` + hashWordAndroid + `"`},
		{"with an app from name and platform", with(clientBody(), "app", map[string]any{"name": "Side Project", "platform": map[string]any{"id": 2}}),
			map[string]any{"addressLine2": "Floor 2", "vat": "GB123456789"}, "null"},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			c := created(t, srv, "clients", "client", tc.body)
			checkClient(t, c)
			for _, k := range []string{"name", "addressLine1", "addressCity", "addressPostcode", "addressCountry"} {
				wantEq(t, k, c.Get(k).String(), tc.body[k].(string))
			}
			for _, k := range []string{"addressLine2", "vat"} {
				want, set := tc.optional[k]
				got := c.Get(k)
				if set && got.String() != want {
					t.Errorf("%s = %s, want %q", k, got.Raw, want)
				}
				if !set && got.Exists() {
					t.Errorf("%s = %s, want it absent", k, got.Raw)
				}
			}
			wantEq(t, "currency", c.Get("currency").Raw, `{"id":2,"code":"EUR"}`)

			id := c.Get("id").String()
			_, got := do(t, srv, "GET", "/v1/clients/"+id, asA, nil)
			wantEq(t, "GET the new client", got.Raw, c.Raw)
			_, list := do(t, srv, "GET", "/v1/users/1/clients", asA, nil)
			wantEq(t, "clients of user 1", list.Get("clients.#.id").Raw, "[1,"+id+"]")
			// The caller's primary client is still client 1 (README 4.2, 4.3).
			_, s := do(t, srv, "POST", "/v1/sessions", nil, map[string]any{"email": emailA, "password": passA})
			wantEq(t, "session clientId", s.Get("clientId").Int(), 1)
			// B is no member of it.
			wantError(t, send(t, srv, "GET", "/v1/clients/"+id, asB, nil), http.StatusForbidden, "Forbidden")

			_, apps := do(t, srv, "GET", "/v1/clients/"+id+"/apps", asA, nil)
			wantKeys(t, "apps wrapper", apps, "apps")
			switch tc.wantApp {
			case "":
				wantEq(t, "apps of the new client", apps.Raw, `{"apps":[]}`)
			default:
				if n := len(apps.Get("apps").Array()); n != 1 {
					t.Fatalf("the new client has %d apps, want 1: %s", n, apps.Raw)
				}
				checkApp(t, apps.Get("apps.0"))
				wantEq(t, "app marketapp.hash", apps.Get("apps.0.marketapp.hash").Raw, tc.wantApp)
			}
		})
	}
}

// clientValidationCases are the validation codes shared by POST /clients and
// PUT /clients/:id (the README's codes for the fields 7.3 names none for).
var clientValidationCases = []refusalCase{
	{"name empty", map[string]any{"name": ""}, []fe{{"name", "InvalidName"}}},
	{"name missing", map[string]any{"name": absent}, []fe{{"name", "InvalidName"}}},
	{"name null", map[string]any{"name": nil}, []fe{{"name", "InvalidName"}}},
	{"name a number", map[string]any{"name": 42}, []fe{{"name", "InvalidName"}}},
	{"addressLine1 missing", map[string]any{"addressLine1": absent}, []fe{{"addressLine1", "InvalidAddressLine1"}}},
	{"addressLine1 empty", map[string]any{"addressLine1": ""}, []fe{{"addressLine1", "InvalidAddressLine1"}}},
	{"addressLine2 a number", map[string]any{"addressLine2": 2}, []fe{{"addressLine2", "InvalidAddressLine2"}}},
	{"addressCity missing", map[string]any{"addressCity": absent}, []fe{{"addressCity", "InvalidAddressCity"}}},
	{"addressPostcode missing", map[string]any{"addressPostcode": absent}, []fe{{"addressPostcode", "InvalidAddressPostcode"}}},
	{"addressCountry a boolean", map[string]any{"addressCountry": true}, []fe{{"addressCountry", "InvalidAddressCountry"}}},
	{"vat a number", map[string]any{"vat": 123}, []fe{{"vat", "InvalidVat"}}},
	{"currency missing", map[string]any{"currency": absent}, []fe{{"currency.id", "InvalidCurrencyId"}}},
	{"currency id unknown", map[string]any{"currency.id": 99}, []fe{{"currency.id", "InvalidCurrencyId"}}},
	{"currency id a string", map[string]any{"currency.id": "1"}, []fe{{"currency.id", "InvalidCurrencyId"}}},
	{"currency id null", map[string]any{"currency.id": nil}, []fe{{"currency.id", "InvalidCurrencyId"}}},
	{"terms missing", map[string]any{"terms": absent}, []fe{{"terms", "InvalidTerms"}}},
	{"terms in lower case", map[string]any{"terms": "i agree"}, []fe{{"terms", "InvalidTerms"}}},
	{"terms with a trailing space", map[string]any{"terms": "I agree "}, []fe{{"terms", "InvalidTerms"}}},
	{"terms true", map[string]any{"terms": true}, []fe{{"terms", "InvalidTerms"}}},
	{"several errors at once", map[string]any{"name": "", "addressCity": "", "currency.id": 0, "terms": "no"},
		[]fe{{"name", "InvalidName"}, {"addressCity", "InvalidAddressCity"}, {"currency.id", "InvalidCurrencyId"}, {"terms", "InvalidTerms"}}},
}

func TestPostClientValidation(t *testing.T) {
	t.Parallel()
	cases := append([]refusalCase{}, clientValidationCases...)
	cases = append(cases,
		refusalCase{"app not an object", map[string]any{"app": "Word Garden"}, []fe{{"app", "InvalidApp"}}},
		refusalCase{"app an array", map[string]any{"app": []any{appBody()}}, []fe{{"app", "InvalidApp"}}},
		refusalCase{"app with neither hash nor name", map[string]any{"app": map[string]any{"platform": map[string]any{"id": 1}}}, []fe{{"app.name", "InvalidName"}}},
		refusalCase{"app with a malformed hash", map[string]any{"app": with(appBody(), "marketapp.hash", "abc")}, []fe{{"app.marketapp.hash", "InvalidMarketappHash"}}},
		refusalCase{"app with an unknown plan", map[string]any{"app": with(appBody(), "nextplan.id", 99)}, []fe{{"app.nextplan.id", "InvalidPlanId"}}},
		refusalCase{"app with an unknown platform", map[string]any{"app": map[string]any{"name": "X", "platform": map[string]any{"id": 9}}}, []fe{{"app.platform.id", "InvalidPlatformId"}}},
		refusalCase{"client and app errors together", map[string]any{"name": "", "app": with(appBody(), "nextplan.id", "pro")},
			[]fe{{"name", "InvalidName"}, {"app.nextplan.id", "InvalidPlanId"}}},
	)
	wantEachRefused(t, "POST", "/v1/clients", asA, clientBody, cases, nil)
}

func TestPutClient(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name         string
		body         map[string]any
		wantLine2    any
		wantCurrency string
	}{
		{"every field", with(clientBody1(), "currency.id", 3), "Floor 2", `{"id":3,"code":"USD"}`},
		{"addressLine2 and vat omitted", with(with(clientBody1(), "addressLine2", absent), "vat", absent), nil, `{"id":1,"code":"GBP"}`},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			_, before := do(t, srv, "GET", "/v1/clients/1", asA, nil)
			r := send(t, srv, "PUT", "/v1/clients/1", asA, tc.body)
			mustStatus(t, r, http.StatusOK, "PUT /clients/1")
			c := r.json
			checkClient(t, c)
			wantEq(t, "id", c.Get("id").Int(), 1)
			wantEq(t, "createdDate (unchanged)", c.Get("createdDate").String(), before.Get("createdDate").String())
			for _, k := range []string{"name", "addressLine1", "addressCity", "addressPostcode", "addressCountry"} {
				wantEq(t, k, c.Get(k).String(), tc.body[k].(string))
			}
			wantEq(t, "addressLine2", c.Get("addressLine2").Value(), tc.wantLine2)
			wantEq(t, "currency", c.Get("currency").Raw, tc.wantCurrency)
			_, got := do(t, srv, "GET", "/v1/clients/1", asA, nil)
			wantEq(t, "GET after PUT", got.Raw, c.Raw)
		})
	}
}

// PUT /clients/:id takes the fields of POST /clients but never `app` (spec 4.4).
func TestPutClientValidation(t *testing.T) {
	t.Parallel()
	cases := append([]refusalCase{}, clientValidationCases...)
	cases = append(cases,
		refusalCase{"a valid app", map[string]any{"app": appBody()}, []fe{{"app", "InvalidApp"}}},
		refusalCase{"an app that is not an object", map[string]any{"app": "x"}, []fe{{"app", "InvalidApp"}}},
		refusalCase{"an app and a missing name", map[string]any{"app": appBody(), "name": absent}, []fe{{"app", "InvalidApp"}, {"name", "InvalidName"}}},
	)
	wantEachRefused(t, "PUT", "/v1/clients/1", asA, clientBody1, cases, nil)
}
