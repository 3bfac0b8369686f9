package mockserver_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// GET of each account's user, client and app (each shares the user's id)
// answers the seed's, and the collections list the client and the app
// alone.
func TestGetSeedResources(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, resource string
		check          func(testing.TB, gjson.Result)
		more           func(t *testing.T, srv http.Handler, tc seedAccount, got gjson.Result)
	}{
		{"account ", "users", checkUser, func(t *testing.T, _ http.Handler, tc seedAccount, u gjson.Result) {
			wantEq(t, "email", u.Get("email").String(), tc.email)
			wantEq(t, "firstName", u.Get("firstName").String(), tc.first)
			wantEq(t, "lastName", u.Get("lastName").String(), tc.last)
			wantEq(t, "timezone", u.Get("timezone").String(), tc.tz)
			if tc.id == 1 {
				// Only account A's flags and phone are fixed by the seed.
				wantEq(t, "subscribeWelcome", u.Get("subscribeWelcome").Bool(), true)
				wantEq(t, "subscribeBlog", u.Get("subscribeBlog").Bool(), false)
				wantEq(t, "subscribeHowto", u.Get("subscribeHowto").Bool(), true)
				wantEq(t, "subscribeOnboarding", u.Get("subscribeOnboarding").Bool(), false)
				wantEq(t, "phoneCountry", u.Get("phoneCountry").Raw, `{"id":1,"name":"United Kingdom (+44)","dialCode":"+44"}`)
				wantEq(t, "phoneNumber", u.Get("phoneNumber").String(), "7700900123")
				wantEq(t, "phoneExtension type", u.Get("phoneExtension").Type, gjson.Null)
			}
		}},
		{"client of ", "clients", checkClient, func(t *testing.T, srv http.Handler, tc seedAccount, c gjson.Result) {
			wantEq(t, "name", c.Get("name").String(), tc.client)
			wantEq(t, "currency", c.Get("currency").Raw, tc.currency)
			wantListedAlone(t, srv, tc.as, "/v1/users/"+c.Get("id").String()+"/clients", "clients", "the user's clients", c)
		}},
		{"app of ", "apps", checkApp, func(t *testing.T, srv http.Handler, tc seedAccount, a gjson.Result) {
			wantListedAlone(t, srv, tc.as, "/v1/clients/"+strconv.FormatInt(tc.id, 10)+"/apps", "apps", "apps of the client", a)
		}},
	}
	for _, c := range cases {
		for _, tc := range seedAccounts {
			onOwnServer(t, c.name+tc.letter, func(t *testing.T, srv http.Handler) {
				path := "/v1/" + c.resource + "/" + strconv.FormatInt(tc.id, 10)
				r := send(t, srv, "GET", path, tc.as, nil)
				mustStatus(t, r, http.StatusOK, "GET "+path)
				c.check(t, r.json)
				wantEq(t, "id", r.json.Get("id").Int(), tc.id)
				c.more(t, srv, tc, r.json)
			})
		}
	}
}

// A successful PUT answers the updated user and stores it; fields it omits
// (the phone fields here) keep their values.
func TestPutUserUpdates(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	_, before := do(t, srv, "GET", "/v1/users/1", asA, nil)

	body := map[string]any{
		"email":               "quinn.new@example.com",
		"firstName":           "Quincy",
		"lastName":            "Assure",
		"subscribeWelcome":    false,
		"subscribeBlog":       true,
		"subscribeHowto":      false,
		"subscribeOnboarding": true,
		"timezone":            "America/Argentina/Buenos_Aires",
		"password":            nil,
	}
	r := send(t, srv, "PUT", "/v1/users/1", asA, body)
	mustStatus(t, r, http.StatusOK, "PUT /users/1")
	u := r.json
	checkUser(t, u)
	wantEq(t, "id", u.Get("id").Int(), 1)
	for k, v := range body {
		if k == "password" {
			continue
		}
		wantEq(t, k, u.Get(k).Value(), v)
	}
	for _, k := range []string{"created", "passwordLastChanged", "phoneCountry", "phoneNumber", "phoneExtension"} {
		wantEq(t, k+" (unchanged)", u.Get(k).Raw, before.Get(k).Raw)
	}

	_, got := do(t, srv, "GET", "/v1/users/1", asA, nil)
	wantEq(t, "GET after PUT", got.Raw, u.Raw)
	// The new email logs in; the old one no longer names anybody.
	login(t, srv, "quinn.new@example.com", passA)
	r = send(t, srv, "POST", "/v1/sessions", nil, map[string]any{"email": emailA, "password": passA})
	wantError(t, r, http.StatusUnauthorized, "Unauthorized")
}

// README 2.1/7.3: the phone fields are accepted by PUT /users and each may be omitted.
func TestPutUserPhoneFields(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name               string
		set                map[string]any
		country, dial, num string
		ext                any
	}{
		{"country, number and extension", map[string]any{"phoneCountry": map[string]any{"id": 3}, "phoneNumber": "612345678", "phoneExtension": "42"},
			"France (+33)", "+33", "612345678", "42"},
		{"extension of ten digits", map[string]any{"phoneExtension": "1234567890"},
			"United Kingdom (+44)", "+44", "7700900123", "1234567890"},
		{"extension null", map[string]any{"phoneExtension": nil},
			"United Kingdom (+44)", "+44", "7700900123", nil},
		{"country only", map[string]any{"phoneCountry": map[string]any{"id": 5}},
			"Ireland (+353)", "+353", "7700900123", nil},
		{"number only", map[string]any{"phoneNumber": "2025550123"},
			"United Kingdom (+44)", "+44", "2025550123", nil},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			body := userBodyA()
			for k, v := range tc.set {
				body = with(body, k, v)
			}
			r := send(t, srv, "PUT", "/v1/users/1", asA, body)
			mustStatus(t, r, http.StatusOK, "PUT /users/1")
			checkUser(t, r.json)
			wantEq(t, "phoneCountry.name", r.json.Get("phoneCountry.name").String(), tc.country)
			wantEq(t, "phoneCountry.dialCode", r.json.Get("phoneCountry.dialCode").String(), tc.dial)
			wantEq(t, "phoneNumber", r.json.Get("phoneNumber").String(), tc.num)
			wantEq(t, "phoneExtension", r.json.Get("phoneExtension").Value(), tc.ext)
			_, got := do(t, srv, "GET", "/v1/users/1", asA, nil)
			wantEq(t, "GET after PUT", got.Raw, r.json.Raw)
		})
	}
}

// Every validation code of PUT /users (spec 7.3 and the README), each field
// missing, empty or of the wrong type; all errors are reported at once.
func TestPutUserValidation(t *testing.T) {
	t.Parallel()
	cases := []refusalCase{
		{"email not an address", map[string]any{"email": "not-an-email"}, []fe{{"email", "InvalidEmail"}}},
		{"email empty", map[string]any{"email": ""}, []fe{{"email", "InvalidEmail"}}},
		{"email missing", map[string]any{"email": absent}, []fe{{"email", "InvalidEmail"}}},
		{"email a number", map[string]any{"email": 5}, []fe{{"email", "InvalidEmail"}}},
		{"email of another user", map[string]any{"email": emailB}, []fe{{"email", "InvalidEmail"}}},
		// Emails match case-insensitively (README 5), so this one is taken too.
		{"email of another user in another case", map[string]any{"email": "Other@Example.com"}, []fe{{"email", "InvalidEmail"}}},
		{"password too short", map[string]any{"password": "abcde"}, []fe{{"password", "InvalidPassword"}}},
		{"password empty", map[string]any{"password": ""}, []fe{{"password", "InvalidPassword"}}},
		{"password a number", map[string]any{"password": 123456}, []fe{{"password", "InvalidPassword"}}},
		{"firstName empty", map[string]any{"firstName": ""}, []fe{{"firstName", "InvalidFirstName"}}},
		{"firstName missing", map[string]any{"firstName": absent}, []fe{{"firstName", "InvalidFirstName"}}},
		{"firstName null", map[string]any{"firstName": nil}, []fe{{"firstName", "InvalidFirstName"}}},
		{"firstName a number", map[string]any{"firstName": 7}, []fe{{"firstName", "InvalidFirstName"}}},
		{"lastName empty", map[string]any{"lastName": ""}, []fe{{"lastName", "InvalidLastName"}}},
		{"lastName missing", map[string]any{"lastName": absent}, []fe{{"lastName", "InvalidLastName"}}},
		{"lastName an object", map[string]any{"lastName": map[string]any{}}, []fe{{"lastName", "InvalidLastName"}}},
		{"phone country unknown", map[string]any{"phoneCountry.id": 99}, []fe{{"phoneCountry.id", "InvalidPhoneCountryId"}}},
		{"phone country 0", map[string]any{"phoneCountry.id": 0}, []fe{{"phoneCountry.id", "InvalidPhoneCountryId"}}},
		{"phone country id a string", map[string]any{"phoneCountry.id": "1"}, []fe{{"phoneCountry.id", "InvalidPhoneCountryId"}}},
		{"phone country id null", map[string]any{"phoneCountry.id": nil}, []fe{{"phoneCountry.id", "InvalidPhoneCountryId"}}},
		{"phone number empty", map[string]any{"phoneNumber": ""}, []fe{{"phoneNumber", "InvalidPhoneNumber"}}},
		{"phone number a number", map[string]any{"phoneNumber": 7700900123}, []fe{{"phoneNumber", "InvalidPhoneNumber"}}},
		{"phone extension not digits", map[string]any{"phoneExtension": "ext 12"}, []fe{{"phoneExtension", "InvalidPhoneExtension"}}},
		{"phone extension of eleven digits", map[string]any{"phoneExtension": "12345678901"}, []fe{{"phoneExtension", "InvalidPhoneExtension"}}},
		{"phone extension a number", map[string]any{"phoneExtension": 12}, []fe{{"phoneExtension", "InvalidPhoneExtension"}}},
		{"timezone without a city", map[string]any{"timezone": "London"}, []fe{{"timezone", "InvalidTimezone"}}},
		{"timezone with a space", map[string]any{"timezone": "Europe/New York"}, []fe{{"timezone", "InvalidTimezone"}}},
		{"timezone empty", map[string]any{"timezone": ""}, []fe{{"timezone", "InvalidTimezone"}}},
		{"timezone missing", map[string]any{"timezone": absent}, []fe{{"timezone", "InvalidTimezone"}}},
		{"subscribeWelcome a string", map[string]any{"subscribeWelcome": "true"}, []fe{{"subscribeWelcome", "InvalidSubscribeWelcome"}}},
		{"subscribeBlog missing", map[string]any{"subscribeBlog": absent}, []fe{{"subscribeBlog", "InvalidSubscribeBlog"}}},
		{"subscribeHowto a number", map[string]any{"subscribeHowto": 1}, []fe{{"subscribeHowto", "InvalidSubscribeHowto"}}},
		{"subscribeOnboarding null", map[string]any{"subscribeOnboarding": nil}, []fe{{"subscribeOnboarding", "InvalidSubscribeOnboarding"}}},
		{"client without a name", map[string]any{"client": with(clientBody(), "name", "")}, []fe{{"client.name", "InvalidName"}}},
		{"client with a bad app", map[string]any{"client": with(clientBody(), "app", with(appBody(), "marketapp.hash", "xyz"))},
			[]fe{{"client.app.marketapp.hash", "InvalidMarketappHash"}}},
		{"every error at once", map[string]any{
			"email": "nope", "password": "123", "firstName": "", "lastName": "", "timezone": "x",
			"phoneCountry.id": 42, "phoneNumber": "", "phoneExtension": "abc", "subscribeBlog": "no",
		}, []fe{
			{"email", "InvalidEmail"}, {"password", "InvalidPassword"}, {"firstName", "InvalidFirstName"},
			{"lastName", "InvalidLastName"}, {"timezone", "InvalidTimezone"}, {"phoneCountry.id", "InvalidPhoneCountryId"},
			{"phoneNumber", "InvalidPhoneNumber"}, {"phoneExtension", "InvalidPhoneExtension"}, {"subscribeBlog", "InvalidSubscribeBlog"},
		}},
	}
	wantEachRefused(t, "PUT", "/v1/users/1", asA, userBodyA, cases, func(t *testing.T, srv http.Handler) {
		login(t, srv, emailA, passA) // the password is unchanged
	})
}

// PUT /users with `client` creates a client too, of which the user becomes a
// member; the user's primary client stays the one it had (README 4.2, 4.3).
func TestPutUserWithClient(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		client   map[string]any
		wantApps int
	}{
		{"client alone", clientBody(), 0},
		{"client with its first app", with(clientBody(), "app", appBody()), 1},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			r := send(t, srv, "PUT", "/v1/users/1", asA, with(userBodyA(), "client", tc.client))
			mustStatus(t, r, http.StatusOK, "PUT /users/1 with client")
			checkUser(t, r.json)

			_, list := do(t, srv, "GET", "/v1/users/1/clients", asA, nil)
			got := ids(list.Get("clients"))
			if len(got) != 2 || got[0] != 1 {
				t.Fatalf("clients of user 1 are %v, want client 1 and a new one: %s", got, list.Raw)
			}
			c := list.Get("clients.1")
			checkClient(t, c)
			wantEq(t, "new client name", c.Get("name").String(), "Acme Games Ltd")
			wantEq(t, "new client currency", c.Get("currency").Raw, `{"id":2,"code":"EUR"}`)

			_, apps := do(t, srv, "GET", "/v1/clients/"+c.Get("id").String()+"/apps", asA, nil)
			wantEq(t, "apps of the new client", len(apps.Get("apps").Array()), tc.wantApps)

			_, s := do(t, srv, "POST", "/v1/sessions", nil, map[string]any{"email": emailA, "password": passA})
			wantEq(t, "session clientId (primary client kept)", s.Get("clientId").Int(), 1)
		})
	}
}

// POST /users signs up without authentication (README 4.5).
func TestPostUserSignUp(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	body := signUpBody("nina@example.com")
	r := send(t, srv, "POST", "/v1/users", nil, body)
	mustStatus(t, r, http.StatusOK, "POST /users")
	u := r.json
	checkUser(t, u)
	if id := u.Get("id").Int(); id == 1 || id == 2 {
		t.Errorf("new user has the id %d of a seeded user", id)
	}
	for _, k := range []string{"email", "firstName", "lastName", "subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding", "timezone", "phoneNumber", "phoneExtension"} {
		wantEq(t, k, u.Get(k).Value(), body[k])
	}
	wantEq(t, "phoneCountry", u.Get("phoneCountry").Raw, `{"id":3,"name":"France (+33)","dialCode":"+33"}`)

	id := u.Get("id").String()
	tok := login(t, srv, "nina@example.com", "nina-password")
	_, s := do(t, srv, "POST", "/v1/sessions", nil, map[string]any{"email": "NINA@example.com", "password": "nina-password"})
	wantEq(t, "session userId", s.Get("userId").String(), id)
	wantEq(t, "session clientId of a user without client", s.Get("clientId").Type, gjson.Null)

	r = send(t, srv, "GET", "/v1/users/"+id, sessionHeader(tok), nil)
	mustStatus(t, r, http.StatusOK, "GET new user")
	wantEq(t, "GET new user", r.json.Raw, u.Raw)
	_, list := do(t, srv, "GET", "/v1/users/"+id+"/clients", sessionHeader(tok), nil)
	wantEq(t, "clients of the new user", list.Raw, `{"clients":[]}`)
	// The new user may not touch account A.
	wantError(t, send(t, srv, "GET", "/v1/users/1", sessionHeader(tok), nil), http.StatusForbidden, "Forbidden")
	// Nor sign up twice.
	r = send(t, srv, "POST", "/v1/users", nil, body)
	wantEq(t, "second sign-up status", r.status, http.StatusBadRequest)
	wantErrors(t, r.json, fe{"email", "InvalidEmail"})
}

// README 4.2: a user with no client gets 403 NoClient from POST /apps; after
// POST /clients that client becomes its primary one and takes its apps.
func TestUserWithoutClient(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	mustStatus(t, send(t, srv, "POST", "/v1/users", nil, signUpBody("solo@example.com")), http.StatusOK, "POST /users")
	tok := sessionHeader(login(t, srv, "solo@example.com", "nina-password"))

	r := send(t, srv, "POST", "/v1/apps", tok, appBody())
	if r.status != http.StatusForbidden {
		t.Fatalf("POST /apps without a client: status %d, want 403; body %s", r.status, r.body)
	}
	wantErrors(t, r.json, fe{"", "NoClient"})

	r = send(t, srv, "POST", "/v1/clients", tok, clientBody())
	mustStatus(t, r, http.StatusOK, "POST /clients")
	cid := r.json.Get("id").Int()

	_, s := do(t, srv, "POST", "/v1/sessions", nil, map[string]any{"email": "solo@example.com", "password": "nina-password"})
	wantEq(t, "session clientId after the first client", s.Get("clientId").Int(), cid)

	r = send(t, srv, "POST", "/v1/apps", tok, appBody())
	mustStatus(t, r, http.StatusOK, "POST /apps after POST /clients")
	_, apps := do(t, srv, "GET", "/v1/clients/"+strconv.FormatInt(cid, 10)+"/apps", tok, nil)
	wantEq(t, "apps of the new client", apps.Get("apps.#.id").Raw, "["+r.json.Get("id").Raw+"]")
}

// README 4.5: POST /users with client and app creates all three.
func TestPostUserWithClientAndApp(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	body := with(signUpBody("team@example.com"), "client", with(clientBody(), "app", appBody()))
	r := send(t, srv, "POST", "/v1/users", nil, body)
	mustStatus(t, r, http.StatusOK, "POST /users with client and app")
	checkUser(t, r.json)
	uid := r.json.Get("id").String()

	tok := sessionHeader(login(t, srv, "team@example.com", "nina-password"))
	_, s := do(t, srv, "POST", "/v1/sessions", nil, map[string]any{"email": "team@example.com", "password": "nina-password"})
	cid := s.Get("clientId")
	if cid.Type != gjson.Number {
		t.Fatalf("session clientId %s, want the new client's id", cid.Raw)
	}
	_, list := do(t, srv, "GET", "/v1/users/"+uid+"/clients", tok, nil)
	wantEq(t, "clients of the new user", list.Get("clients.#.id").Raw, "["+cid.Raw+"]")
	checkClient(t, list.Get("clients.0"))
	wantEq(t, "client name", list.Get("clients.0.name").String(), "Acme Games Ltd")

	_, apps := do(t, srv, "GET", "/v1/clients/"+cid.String()+"/apps", tok, nil)
	if n := len(apps.Get("apps").Array()); n != 1 {
		t.Fatalf("the new client has %d apps, want 1: %s", n, apps.Raw)
	}
	app := apps.Get("apps.0")
	checkApp(t, app)
	wantEq(t, "app name", app.Get("name").String(), "Word Garden")
	wantEq(t, "app marketapp.hash", app.Get("marketapp.hash").String(), hashWordAndroid)
	wantPlan(t, app, 2)
}

// POST /users requires the password and the phone fields (README 4.5), and
// creates nothing when any part of the body is invalid.
func TestPostUserValidation(t *testing.T) {
	t.Parallel()
	cases := []refusalCase{
		{"password missing", map[string]any{"password": absent}, []fe{{"password", "InvalidPassword"}}},
		{"password null", map[string]any{"password": nil}, []fe{{"password", "InvalidPassword"}}},
		{"password of five characters", map[string]any{"password": "abcde"}, []fe{{"password", "InvalidPassword"}}},
		{"phone country missing", map[string]any{"phoneCountry": absent}, []fe{{"phoneCountry.id", "InvalidPhoneCountryId"}}},
		{"phone country unknown", map[string]any{"phoneCountry.id": 6}, []fe{{"phoneCountry.id", "InvalidPhoneCountryId"}}},
		{"phone number missing", map[string]any{"phoneNumber": absent}, []fe{{"phoneNumber", "InvalidPhoneNumber"}}},
		{"phone extension too long", map[string]any{"phoneExtension": "12345678901"}, []fe{{"phoneExtension", "InvalidPhoneExtension"}}},
		{"email taken", map[string]any{"email": emailA}, []fe{{"email", "InvalidEmail"}}},
		{"email invalid", map[string]any{"email": "new@"}, []fe{{"email", "InvalidEmail"}}},
		{"first and last name missing", map[string]any{"firstName": absent, "lastName": ""},
			[]fe{{"firstName", "InvalidFirstName"}, {"lastName", "InvalidLastName"}}},
		{"client invalid", map[string]any{"client": with(clientBody(), "terms", "no")}, []fe{{"client.terms", "InvalidTerms"}}},
		{"client not an object", map[string]any{"client": "acme"}, []fe{{"client", "InvalidClient"}}},
		{"valid client with an invalid app", map[string]any{"client": with(clientBody(), "app", with(appBody(), "nextplan.id", 99))},
			[]fe{{"client.app.nextplan.id", "InvalidPlanId"}}},
		{"valid client with an app of unknown hash", map[string]any{"client": with(clientBody(), "app", with(appBody(), "marketapp.hash", strings.Repeat("0", 40)))},
			[]fe{{"client.app.marketapp.hash", "InvalidMarketappHash"}}},
	}
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			body := withAll(signUpBody("new@example.com"), tc.set)
			wantRefused(t, srv, "POST", "/v1/users", nil, body, tc.want...)
			// The user was not created: its credentials name nobody, and the
			// email is still free.
			if p, ok := body["password"].(string); ok {
				wantError(t, send(t, srv, "POST", "/v1/sessions", nil, url.Values{"email": {"new@example.com"}, "password": {p}}),
					http.StatusUnauthorized, "Unauthorized")
			}
			mustStatus(t, send(t, srv, "POST", "/v1/users", nil, signUpBody("new@example.com")), http.StatusOK, "POST /users after the refusal")
		})
	}
}
