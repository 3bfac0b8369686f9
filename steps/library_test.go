package steps

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/steps/coverage"
)

// vocabulary is every phrase of the contract between steps/ and features/
// (the catalogue in the godoc of each family's Register), written out as a
// feature would. Each must match exactly one registered expression: godog in
// strict mode fails a step that two expressions match.
var vocabulary = []struct{ text, handler string }{
	{`I remember "{{gen:email}}" as "newEmail"`, "iRemember"},
	{`I am account "A" using the api-key header`, "iAmAccountUsing"},
	{`I am account "B" using the session-token header`, "iAmAccountUsing"},
	{`I am account "A" using the sessionToken query`, "iAmAccountUsing"},
	{`I am account "B" using the session-token header with its first character changed`, "iAmAccountUsingANearMiss"},
	{`I am account "A" using the api-key header with a character added`, "iAmAccountUsingANearMiss"},
	{`I am account "B" using the sessionToken query with every character percent-encoded`, "iAmAccountUsingThePercentEncodedQuery"},
	{`I am not authenticated`, "iAmNotAuthenticated"},
	{`the request header "Authorization" is "Bearer x"`, "theRequestHeaderIs"},
	{`the request header "session-token" is ""`, "theRequestHeaderIs"},
	{`the request query parameter "sessionToken" is ""`, "theRequestQueryParameterIs"},
	{`the request body is:`, "theRequestBodyIs"},
	{`the request body is the template "user"`, "theRequestBodyIsTheTemplate"},
	{`the request body field "email" is "x"`, "theRequestBodyFieldIs"},
	{`the request body field "currency.id" is 5`, "theRequestBodyFieldIs"},
	{`the request body field "vat" is null`, "theRequestBodyFieldIs"},
	{`the request body field "subscribeBlog" is true`, "theRequestBodyFieldIs"},
	{`the request body field "subscribeBlog" is false`, "theRequestBodyFieldIs"},
	{`the request body field "currency" is {"id": 1}`, "theRequestBodyFieldIs"},
	{`the request body field "list" is [1]`, "theRequestBodyFieldIs"},
	{`the request body field "n" is -1`, "theRequestBodyFieldIs"},
	{`the request body field "email" is "{{gen:email}}"`, "theRequestBodyFieldIs"},
	{`the request body field "currency.id" is {{currencyId}}`, "theRequestBodyFieldIs"},
	{`the request body field "name" is a string of 256 characters`, "theRequestBodyFieldIsAStringOf"},
	{`the request body field "email" is an email of 255 characters`, "theRequestBodyFieldIsAnEmailOf"},
	{`the request body field "firstName" is a non-ASCII string of 255 characters`, "theRequestBodyFieldIsAStringOf"},
	{`I send "GET" to "/users/{{A.userId}}" if the target has that read extension`, "iSendGETIfTheTargetHasThatReadExtension"},
	{`I log in as account "A" after the server's clock has moved on a second`, "iLogInAsAccountAfterASecond"},
	{`the JSON at "id" differs from {{firstId}}`, "theJSONAtDiffersFrom"},
	{`the JSON at "writeKey" differs from "{{firstKey}}"`, "theJSONAtDiffersFrom"},
	{`the JSON at "created" names the same instant as "{{created}}"`, "theJSONAtNamesAnInstant"},
	{`the JSON at "passwordLastChanged" names an instant no earlier than "{{loggedIn}}"`, "theJSONAtNamesAnInstant"},
	{`the JSON at "created" names an instant within the clock skew of now`, "theJSONAtNamesNow"},
	{`the errors include the code "InvalidPhoneCountryId" for the field "phoneCountry.id"`, "theErrorsIncludeTheCodeFor"},
	{`the response does not carry the password "{{A.password}}"`, "theResponseDoesNotCarryThePassword"},
	{`the response does not carry the text "{{B.apiKey}}"`, "theResponseDoesNotCarryTheText"},
	{`the request body field "app" is absent`, "theRequestBodyFieldIsAbsent"},
	{`the raw request body is:`, "theRawRequestBodyIs"},
	{`the request content type is "text/plain"`, "theRequestContentTypeIs"},
	{`I send "PUT" to "/users/{{A.userId}}"`, "iSendTo"},
	{`I send "GET" to "/platforms" under the version "v1.0"`, "iSendToUnderTheVersion"},
	{`I log in as account "A"`, "iLogInAsAccount"},
	{`I log in with email "{{A.email}}" and password "{{A.password}}"`, "iLogInWithEmailAndPassword"},
	{`the response status is 200`, "theResponseStatusIs"},
	{`the response status is 403 or 404`, "theResponseStatusIs"},
	{`the response status is 4xx`, "theResponseStatusIs"},
	{`the response status is 200 or 4xx`, "theResponseStatusIs"},
	{`the response status is 4xx but not 401`, "theResponseStatusIs"},
	{`the response is JSON`, "theResponseIsJSON"},
	{`the response matches the shape "user"`, "theResponseMatchesTheShape"},
	{`the response matches:`, "theResponseMatches"},
	{`the JSON at "app" matches the shape "app"`, "theJSONAtMatchesTheShape"},
	{`the JSON at "platforms" matches:`, "theJSONAtMatches"},
	{`the JSON at "email" is "x"`, "theJSONAtIs"},
	{`the JSON at "id" is {{A.userId}}`, "theJSONAtIs"},
	{`the JSON at "vat" is null`, "theJSONAtIs"},
	{`the JSON at "clients.#(name=="x").id" is 5`, "theJSONAtIs"},
	{`the JSON at "email" is a string`, "theJSONAtIsA"},
	{`the JSON at "id" is a number`, "theJSONAtIsA"},
	{`the JSON at "subscribeBlog" is a boolean`, "theJSONAtIsA"},
	{`the JSON at "currency" is an object`, "theJSONAtIsA"},
	{`the JSON at "platforms" is an array`, "theJSONAtIsA"},
	{`the JSON at "phoneExtension" is a null`, "theJSONAtIsA"},
	{`the JSON at "writeKey" matches the pattern "^[0-9a-f]{32}$"`, "theJSONAtMatchesThePattern"},
	{`the JSON at "password" is absent`, "theJSONAtIsAbsent"},
	{`the JSON at "phoneExtension" is present`, "theJSONAtIsPresent"},
	{`the errors are exactly:`, "theErrorsAreExactly"},
	{`the errors include:`, "theErrorsInclude"},
	{`the errors name the field "name"`, "theErrorsNameTheField"},
	{`the errors name only the field "email"`, "theErrorsNameOnlyTheFields"},
	{`the errors name only the fields "email", "firstName" and "lastName"`, "theErrorsNameOnlyTheFields"},
	{`the errors name only the fields "a\"b" and "c"`, "theErrorsNameOnlyTheFields"},
	{`the error messages do not carry the number "{{B.userId}}"`, "theErrorMessagesDoNotCarryTheNumber"},
	{`I remember the JSON at "id" as "appId"`, "iRememberTheJSONAt"},
	{`I remember the JSON at "clients.#(name=="x").id" as "clientId"`, "iRememberTheJSONAt"},
	{`the profile value "clients_per_user" is "several"`, "theProfileValue"},
	{`the profile value "version_forms" includes "v1.0"`, "theProfileValue"},
	{`the response is one of:`, "theResponseIsOneOf"},
	// Escaped quotes in quoted arguments (unescaped by the handlers).
	{`the JSON at "clients.#(name==\"x\")" is absent`, "theJSONAtIsAbsent"},
	{`the JSON at "clients.#(name==\"x\")" is present`, "theJSONAtIsPresent"},
	{`the JSON at "clients.#(name==\"x\").id" is 5`, "theJSONAtIs"},
	{`the JSON at "a\"b" is "x\"y"`, "theJSONAtIs"},
	{`the JSON at "clients.#(name==\"x\").name" is a string`, "theJSONAtIsA"},
	{`the JSON at "clients.#(name==\"x\")" matches the shape "client"`, "theJSONAtMatchesTheShape"},
	{`the JSON at "clients.#(name==\"x\")" matches:`, "theJSONAtMatches"},
	{`the JSON at "a\"b" matches the pattern "^\"q\"$"`, "theJSONAtMatchesThePattern"},
	{`the response matches the shape "a\"b"`, "theResponseMatchesTheShape"},
	{`the errors name the field "a\"b"`, "theErrorsNameTheField"},
	{`the errors name one of the fields "name, marketapp.hash"`, "theErrorsNameOneOfTheFields"},
	{`I remember "say \"hi\"" as "greeting"`, "iRemember"},
	{`I remember the JSON at "clients.#(name==\"x\").id" as "clientId"`, "iRememberTheJSONAt"},
	{`the request header "X-A" is "say \"hi\""`, "theRequestHeaderIs"},
	{`the request header "X\"A" is "v"`, "theRequestHeaderIs"},
	{`the request query parameter "q\"1" is "a\\b"`, "theRequestQueryParameterIs"},
	{`the request body is the template "a\"b"`, "theRequestBodyIsTheTemplate"},
	{`the request body field "a\"b" is "x"`, "theRequestBodyFieldIs"},
	{`the request body field "a\"b" is absent`, "theRequestBodyFieldIsAbsent"},
	{`the request body field "a\"b" is a string of 3 characters`, "theRequestBodyFieldIsAStringOf"},
	{`the request body field "a\"b" is an email of 30 characters`, "theRequestBodyFieldIsAnEmailOf"},
	{`the request content type is "text/plain; x=\"y\""`, "theRequestContentTypeIs"},
	{`I send "GET" to "/echo?q=\"1\""`, "iSendTo"},
	{`I send "GET" to "/echo?q=\"1\"" under the version "v\"1"`, "iSendToUnderTheVersion"},
	{`I log in with email "a\"b@example.com" and password "p\"w"`, "iLogInWithEmailAndPassword"},
	{`the request body is sent in chunks`, "theRequestBodyIsSentInChunks"},
	{`the request body is sent with whitespace around it`, "theRequestBodyIsSentWithWhitespaceAroundIt"},
	{`I prepare "POST" to "/clients" as "first"`, "iPrepare"},
	{`I prepare "PUT" to "/users/{{A.userId}}" as "A\"s claim"`, "iPrepare"},
	{`I send the prepared requests at once`, "iSendThePreparedRequestsAtOnce"},
	{`I look at the answer "first"`, "iLookAtTheAnswer"},
	{`exactly one of the answers "A's claim" and "B's claim" has the status 200`, "exactlyOneOfTheAnswersHasTheStatus"},
}

func TestVocabularyMatchesExactlyOnce(t *testing.T) {
	s := NewSuite(testProfile("http://127.0.0.1:1/v1"), Options{})
	type compiled struct {
		re      *regexp.Regexp
		handler string
	}
	var defs []compiled
	for _, r := range s.registrars() {
		for _, d := range r.steps() {
			name := runtimeName(d.fn)
			defs = append(defs, compiled{regexp.MustCompile(d.expr), name})
		}
	}
	used := map[string]bool{}
	for _, v := range vocabulary {
		var matched []string
		for _, d := range defs {
			if d.re.MatchString(v.text) {
				matched = append(matched, d.handler)
			}
		}
		if len(matched) != 1 || !strings.HasSuffix(matched[0], "."+v.handler+"-fm") {
			t.Errorf("%q matches %v, want only %s", v.text, matched, v.handler)
		}
		for _, m := range matched {
			used[m] = true
		}
	}
	for _, d := range defs {
		if !used[d.handler] {
			t.Errorf("%s (%s) has no phrase in the vocabulary test", d.handler, d.re)
		}
	}
}

func runtimeName(fn any) string {
	return runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		drops    int
		retries  int
		hits     int
		wantErr  string
		wantCode int
	}{
		{"GET recovers within the retries", http.MethodGet, 2, 0, 3, "", 200},
		{"PUT recovers too", http.MethodPut, 1, 0, 2, "", 200},
		{"GET gives up after 1+2 attempts", http.MethodGet, 5, 0, 3, "after 3 attempts: ", 0},
		{"retries can be raised", http.MethodGet, 4, 4, 5, "", 200},
		{"retries can be disabled", http.MethodDelete, 1, -1, 1, "EOF", 0},
		{"POST is never retried", http.MethodPost, 1, 0, 1, "EOF", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI()
			f.flakyLeft = tt.drops
			s := NewSuite(testProfile(f.start(t)), Options{Retries: tt.retries})
			s.backoff = 0
			st := s.newState(nil)
			out := outgoing{method: tt.method, header: http.Header{}}
			out.url, _ = s.endpointURL("/flaky", "")
			ex := st.do(context.Background(), out)
			f.mu.Lock()
			hits := f.flakyHits
			f.mu.Unlock()
			if hits != tt.hits {
				t.Errorf("the server saw %d requests, want %d", hits, tt.hits)
			}
			if tt.wantErr == "" {
				if ex.err != nil || ex.status != tt.wantCode {
					t.Errorf("got status %d, error %v; want %d", ex.status, ex.err, tt.wantCode)
				}
				return
			}
			if ex.err == nil || !strings.Contains(ex.err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one containing %q", ex.err, tt.wantErr)
			}
			if tt.hits == 1 && strings.Contains(ex.err.Error(), "attempts") {
				t.Errorf("a single attempt is reported as retried: %v", ex.err)
			}
		})
	}
}

// TestTransportErrorIsReported: a refused connection fails the send step
// with the attempts and the curl line, and no later assertion passes.
func TestTransportErrorIsReported(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL + "/v1"
	srv.Close() // nothing listens there any more
	s := NewSuite(testProfile(base), Options{})
	s.backoff = 0
	ctx := stateToContext(context.Background(), s.newState(nil))
	err := requestSteps{}.iSendTo(ctx, "GET", "/platforms")
	if err == nil {
		t.Fatal("sending to a closed port succeeded")
	}
	for _, w := range []string{"GET /platforms: after 3 attempts:", "connection refused", "curl -sS -X GET '" + base + "/platforms'", "no response:"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
	if err := (assertSteps{}).theResponseStatusIs(ctx, "200", "", ""); err == nil || !strings.Contains(err.Error(), "got no response") {
		t.Errorf("status step after a transport error: %v", err)
	}
}

func TestEndpointTemplate(t *testing.T) {
	tests := []struct {
		base, method, url, version, want string
	}{
		{"http://h/v1", "PUT", "http://h/v1/users/12", "", "PUT /users/:userId"},
		{"http://h/v1", "PUT", "http://h/v1/users/abc", "", "PUT /users/:userId"},
		{"http://h/v1", "PUT", "http://h/v1/clients/3?sessionToken=x", "", "PUT /clients/:clientId"},
		{"http://h/v1", "POST", "http://h/v1/apps", "", "POST /apps"},
		{"http://h/v1", "GET", "http://h/v1/users/1/clients", "", "GET /users/:userId/clients"},
		{"http://h/v1", "GET", "http://h/v1/apps/7", "", "GET /apps/:appId"},
		{"http://h/v1", "GET", "http://h/v1/things/7/parts/8", "", "GET /things/:id/parts/:id"},
		{"http://h/api/v1.0", "POST", "http://h/api/v1.0/sessions", "", "POST /sessions"},
		// Under the base URL's own version, however written, a request
		// counts for the endpoint; under another version, for its path.
		{"http://h/api/v1", "GET", "http://h/api/v1.0/platforms", "v1.0", "GET /platforms"},
		{"http://h/api/v1.0", "GET", "http://h/api/v1/platforms", "v1", "GET /platforms"},
		{"http://h/v1", "PUT", "http://h/v1.0.0/users/4", "v1.0.0", "PUT /users/:userId"},
		{"http://h/v1", "GET", "http://h/v1/platforms", "v1", "GET /platforms"},
		{"http://h/v1", "GET", "http://h/v2/platforms", "v2", "GET /v2/platforms"},
		{"http://h/v1", "GET", "http://h/v2.0/platforms", "v2.0", "GET /v2.0/platforms"},
		{"http://h/v1", "GET", "http://h/v1.1/platforms", "v1.1", "GET /v1.1/platforms"},
		{"http://h/v1.0", "GET", "http://h/v1.10/platforms", "v1.10", "GET /v1.10/platforms"},
		{"http://h/v1", "GET", "http://h/v10/platforms", "v10", "GET /v10/platforms"},
		{"http://h/v1", "GET", "http://h/V1/platforms", "V1", "GET /V1/platforms"},
	}
	for _, tt := range tests {
		s := NewSuite(testProfile(tt.base), Options{})
		got := s.endpointTemplate(outgoing{method: tt.method, url: tt.url, version: tt.version})
		if got != tt.want {
			t.Errorf("endpointTemplate(%s %s) = %q, want %q", tt.method, tt.url, got, tt.want)
		}
	}
}

func TestEndpointURL(t *testing.T) {
	tests := []struct{ base, path, version, want string }{
		{"http://h/v1", "/users/1", "", "http://h/v1/users/1"},
		{"http://h/v1/", "users/1", "", "http://h/v1/users/1"},
		{"http://h/api/v1", "/platforms", "v1.0", "http://h/api/v1.0/platforms"},
		{"https://h:8443/v1", "/platforms?x=1", "v2", "https://h:8443/v2/platforms?x=1"},
	}
	for _, tt := range tests {
		s := NewSuite(testProfile(tt.base), Options{})
		if got, err := s.endpointURL(tt.path, tt.version); err != nil || got != tt.want {
			t.Errorf("endpointURL(%q, %q) on %s = %q, %v; want %q", tt.path, tt.version, tt.base, got, err, tt.want)
		}
	}
}

func TestMasking(t *testing.T) {
	st := offlineState(t)
	st.addSecret("tok-secret-1")
	headers := []struct{ name, value, want string }{
		{"Authorization", "api-key qa-api-key", "api-key ***"},
		{"Authorization", "API-KEY   other", "API-KEY ***"},
		{"Authorization", "Bearer x", "Bearer ***"},
		{"Authorization", "api-key", "api-key"},
		{"Authorization", "api-key ", "api-key "},
		{"Authorization", "rawsecret", "***"},
		{"Authorization", "", ""},
		{"session-token", "tok-secret-1", "***"},
		{"session-token", "", ""},
		{"X-Other", "has tok-secret-1 inside", "has *** inside"},
		{"Content-Type", "application/json", "application/json"},
	}
	for _, h := range headers {
		if got := st.maskHeader(h.name, h.value); got != h.want {
			t.Errorf("maskHeader(%s, %q) = %q, want %q", h.name, h.value, got, h.want)
		}
	}
	bodies := []struct{ ct, body, want string }{
		{"application/json", `{"email":"a@b.c","password":"abcde"}`, `{"email":"a@b.c","password":"***"}`},
		{"application/json", `{"password": null}`, `{"password": null}`},
		{"application/json", `{"user": {"password": "nested1"}, "x": ["nested1"]}`, `{"user": {"password": "***"}, "x": ["***"]}`},
		{"application/json", `{"token":"tok-secret-1","userId":1}`, `{"token":"***","userId":1}`},
		{"application/json", `{"created":"2024-01-02","passwordLastChanged":"2024-01-02"}`, `{"created":"2024-01-02","passwordLastChanged":"2024-01-02"}`},
		{"application/json", `{"email": "qa@example.com", "password": "qa-password"}`, `{"email": "qa@example.com", "password": "***"}`},
		{"application/x-www-form-urlencoded", "email=a%40b.c&password=abc", "email=a%40b.c&password=***"},
		{"text/plain", "not json qa-api-key", "not json ***"},
	}
	for _, b := range bodies {
		if got := st.maskBody(b.ct, []byte(b.body)); got != b.want {
			t.Errorf("maskBody(%s)\n got %s\nwant %s", b.body, got, b.want)
		}
	}
	if got, want := st.maskURL("http://h/v1/users/1?a=1&sessionToken=tok-secret-1"), "http://h/v1/users/1?a=1&sessionToken=***"; got != want {
		t.Errorf("maskURL = %q, want %q", got, want)
	}
	if got, want := st.maskURL("http://h/v1/users/1?sessionToken="), "http://h/v1/users/1?sessionToken="; got != want {
		t.Errorf("maskURL of an empty token = %q, want %q", got, want)
	}
}

func TestCoverageOutput(t *testing.T) {
	s := NewSuite(testProfile("http://h/v1"), Options{})
	s.cov.add(coverageKey{"PUT /users/:userId", 200})
	s.cov.add(coverageKey{"PUT /users/:userId", 200})
	s.cov.add(coverageKey{"PUT /users/:userId", 500})
	s.cov.add(coverageKey{"GET /users/:userId", 200})
	// Asked for and not received: the target's failure, apart from a gap.
	s.cov.ask(coverageKey{"PUT /users/:userId", 403})
	s.cov.ask(coverageKey{"PUT /users/:userId", 403})
	c := s.Coverage()

	var names []string
	for _, e := range c.Endpoints {
		names = append(names, e.Endpoint)
	}
	wantOrder := []string{"POST /apps", "POST /clients", "PUT /clients/:clientId", "GET /platforms", "POST /sessions", "POST /users", "GET /users/:userId", "PUT /users/:userId"}
	if !reflect.DeepEqual(names, wantOrder) {
		t.Errorf("order %v, want %v", names, wantOrder)
	}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `{"endpoint":"PUT /users/:userId","statuses":{"200":2,"400":0,"401":0,"403":0,"404":0,"500":1},"asked":{"403":2},"gaps":{"400":"not selected","401":"not selected","403":"not received","404":"not selected"}}`) {
		t.Errorf("JSON: %s", data)
	}
	var buf bytes.Buffer
	if err := c.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	want := `ENDPOINT                              200  400  401  403  404  500
POST /apps                            0 !  0 !  0 !  0 ~  0 ~    -
POST /clients                         0 !  0 !  0 !  0 ~  0 ~    -
PUT /clients/:clientId                0 !  0 !  0 !  0 !  0 !    -
GET /platforms                        0 !    -    -    -    -    -
POST /sessions                        0 !    -  0 !    -    -    -
POST /users                           0 ~    -    -    -    -    -
GET /users/:userId (not in the spec)    1    -    -    -    -    -
PUT /users/:userId                      2  0 !  0 !  0 x  0 !    1
Scenarios per endpoint and status the spec names. 0 !: a condition the spec gives, that no scenario of this run asked for; 0 x: asked for, and the target answered otherwise; 0 ~: no condition a scenario could cause on every correct server; -: not named, not received.
  0 ~ POST /apps 403: ` + coverage.GapFor("POST /apps", "403", 0).Why + `
  0 ~ POST /apps 404: ` + coverage.GapFor("POST /apps", "404", 0).Why + `
  0 ~ POST /clients 403: ` + coverage.GapFor("POST /clients", "403", 0).Why + `
  0 ~ POST /clients 404: ` + coverage.GapFor("POST /clients", "404", 0).Why + `
  0 ~ POST /users 200: ` + coverage.GapFor("POST /users", "200", 0).Why + `
  0 x PUT /users/:userId 403: 2 scenarios of this run asked for it and the target answered otherwise: see their failures
  0 ! no scenario of this run asked for (its scenarios were not selected, or a gap in the suite): POST /apps 200, POST /apps 400, POST /apps 401, ` +
		`POST /clients 200, POST /clients 400, POST /clients 401, PUT /clients/:clientId 200, PUT /clients/:clientId 400, PUT /clients/:clientId 401, ` +
		`PUT /clients/:clientId 403, PUT /clients/:clientId 404, GET /platforms 200, POST /sessions 200, POST /sessions 401, ` +
		`PUT /users/:userId 400, PUT /users/:userId 401, PUT /users/:userId 404
`
	if text != want {
		t.Errorf("text:\n%s\nwant:\n%s", text, want)
	}
}

// TestNearMissIsNeverTheSecret: every change makes another string, one
// character off (or in the other case), whatever the secret's last or
// first character, and never one that is taken (another account's).
func TestNearMissIsNeverTheSecret(t *testing.T) {
	for _, secret := range []string{"a", "b", "aa", "qa-api-key", "0123456789abcdef", "zzzza", "123456", "Heron-cobalt-1000!", "A0B", "ABCDEF", "abcdefgH"} {
		for _, change := range []string{"its last character changed", "its first character changed", "a character added", "its last character removed", "its letters in the other case"} {
			got := nearMiss(secret, change, nil)
			if got == secret {
				t.Errorf("nearMiss(%q, %q) is the secret itself", secret, change)
			}
			if change != "its letters in the other case" && strings.EqualFold(got, secret) {
				t.Errorf("nearMiss(%q, %q) = %q: the secret in another letter case, which a server may take (secret-forms)", secret, change, got)
			}
			if d := len(got) - len(secret); d < -1 || d > 1 {
				t.Errorf("nearMiss(%q, %q) = %q: more than one character off", secret, change, got)
			}
			if again := nearMiss(secret, change, func(s string) bool { return s == got }); again == secret || again == got {
				t.Errorf("nearMiss(%q, %q) with %q taken = %q", secret, change, got, again)
			}
		}
	}
}
