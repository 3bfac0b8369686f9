package steps

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cucumber/godog"
)

const floorFeature = `Feature: the floor under every scenario

  Scenario: a 500 to a request no step asserts fails the scenario
    Given I am not authenticated
    And the request body is:
      """json
      {"crash": true}
      """
    When I send "POST" to "/reply?status=500"
    And I send "GET" to "/platforms"
    Then the response status is 200

  Scenario: a 5xx a step asserts on purpose is left alone
    When I send "POST" to "/reply?status=500"
    Then the response status is 500
    When I send "POST" to "/reply?status=503"
    Then the response status is 5xx
    When I send "POST" to "/reply?status=502"
    Then the response is one of:
      | status | shape |
      | 502    |       |

  Scenario: a 5xx a failing step shows is not reported again
    When I send "POST" to "/reply?status=500"
    Then the response status is 4xx

  Scenario: a status class
    When I send "POST" to "/reply?status=418"
    Then the response status is 4xx
    And the response status is 200 or 4xx
    When I send "POST" to "/reply?status=200"
    Then the response status is 2xx or 4xx

  Scenario: a 4xx is not a 2xx
    When I send "POST" to "/reply?status=404"
    Then the response status is 2xx

  Scenario: a class less one code
    When I send "POST" to "/reply?status=418"
    Then the response status is 4xx but not 401
    And the response status is 200 or 4xx but not 401

  Scenario: the code taken out of the class
    When I send "POST" to "/reply?status=401"
    Then the response status is 4xx but not 401

  @mutates-A
  Scenario: the snapshot's requests are not the scenario's
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200
`

// TestFloor: a 5xx that no step asserts fails the scenario that caused it,
// with the request as curl and the step that sent it; a 5xx asserted on
// purpose does not, nor one a failing step has already shown (it is not
// reported twice), nor one the snapshot of a @mutates-A scenario met.
func TestFloor(t *testing.T) {
	f := newFakeAPI()
	// The snapshot reads GET /users/1: a 500 there makes the suite restore
	// account A from the profile, and is no request of the scenario.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/v1/users/1" {
			writeErr(w, http.StatusInternalServerError, "Internal")
			return
		}
		f.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	base := srv.URL + "/v1"
	s := NewSuite(testProfile(base), Options{FixturesDir: "testdata/fixtures", Output: &strings.Builder{}})
	o := s.Run(t.Name(), godog.Options{
		Format:          "progress",
		FeatureContents: []godog.Feature{{Name: "floor.feature", Contents: []byte(floorFeature)}},
	})
	failed := map[string]string{}
	for _, fl := range o.Failed {
		failed[fl.Name] = fl.Err.Error()
	}
	if o.Ran != 8 {
		t.Errorf("ran %d scenarios, want 8", o.Ran)
	}
	want := map[string][]string{
		"a 500 to a request no step asserts fails the scenario": {
			"the target answered 1 request(s) of this scenario with a server error (5xx)",
			`request 1 of 2, sent by the step "I send \"POST\" to \"/reply?status=500\""`,
			"curl -sS -X POST '" + base + "/reply?status=500'",
			`--data-raw '{"crash": true}'`,
			"response status: 500 Internal Server Error",
		},
		"a 5xx a failing step shows is not reported again": {"expected status 4xx, got 500"},
		"a 4xx is not a 2xx":              {"expected status 2xx, got 404"},
		"the code taken out of the class": {"expected status 4xx but not 401, got 401"},
	}
	for name, parts := range want {
		msg, ok := failed[name]
		if !ok {
			t.Errorf("%q passed, want it to fail", name)
			continue
		}
		for _, p := range parts {
			if !strings.Contains(msg, p) {
				t.Errorf("%q: the failure lacks %q:\n%s", name, p, msg)
			}
		}
	}
	if msg := failed["a 5xx a failing step shows is not reported again"]; strings.Contains(msg, "server error (5xx)") {
		t.Errorf("a 500 a failing step showed is reported twice:\n%s", msg)
	}
	for name, msg := range failed {
		if _, ok := want[name]; !ok {
			t.Errorf("%q failed, want it to pass:\n%s", name, msg)
		}
	}
	// Restored from the profile, since the snapshot met the 500.
	if u := f.user(1); u.Email != "qa@example.com" || u.Password != "qa-password" {
		t.Errorf("account A was not restored: %+v", u)
	}
}
