package steps

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/cucumber/godog"
)

type testdataRun struct {
	status int
	out    string // godog's output
	notes  string // the suite's notices
	suite  *Suite
}

// runTestdata runs features against a profile with the test fixtures, and
// returns godog's exit status and output.
func runTestdata(t *testing.T, p Profile, gopts godog.Options) testdataRun {
	t.Helper()
	// The suite serialises its notices; the buffer is read after the run.
	var notes bytes.Buffer
	s := NewSuite(p, Options{FixturesDir: "testdata/fixtures", Output: &notes})
	s.backoff = 0 // the fake never needs a pause
	if gopts.Format == "" {
		gopts.Format = "pretty"
	}
	o := s.Run(t.Name(), gopts)
	return testdataRun{status: o.Status, out: o.Output, notes: notes.String(), suite: s}
}

// checkSeedRestored fails unless both accounts and their clients are as the
// fake seeded them: every @mutates scenario must have been undone.
func checkSeedRestored(t *testing.T, f *fakeAPI) {
	t.Helper()
	fresh := newFakeAPI()
	for _, id := range []int{1, 2} {
		got, want := f.user(id), fresh.user(id)
		got.PasswordChanged = want.PasswordChanged // a restore sets the password again
		got.ClientID, want.ClientID = nil, nil
		if got != want {
			t.Errorf("user %d after the run:\n got %+v\nwant %+v", id, got, want)
		}
		if got, want := f.client(id), fresh.client(id); !reflect.DeepEqual(got, want) {
			t.Errorf("client %d after the run:\n got %s\nwant %s", id, showClient(got), showClient(want))
		}
	}
}

func showClient(c fakeClient) string {
	return fmt.Sprintf("{%d %q %q %q %q %q %q vat %q currency %d}", c.ID, c.Name, c.AddressLine1, *c.AddressLine2,
		c.AddressCity, c.AddressPostcode, c.AddressCountry, *c.VAT, c.CurrencyID)
}

func TestPassingFeature(t *testing.T) {
	f := newFakeAPI()
	r := runTestdata(t, testProfile(f.start(t)), godog.Options{Paths: []string{"testdata/features/pass.feature"}})
	if r.status != 0 {
		t.Fatalf("status %d, output:\n%s", r.status, r.out)
	}
	if !strings.Contains(r.out, "23 scenarios (23 passed)") {
		t.Errorf("expected every scenario to run and pass:\n%s", r.out)
	}
	checkSeedRestored(t, f)
	if r.notes != "" {
		t.Errorf("unexpected notices: %s", r.notes)
	}

	// Each scenario counts once per endpoint and status; restores, snapshots
	// and the logins of the session schemes are not scenario requests.
	got := map[string]map[string]int{}
	for _, e := range r.suite.Coverage().Endpoints {
		got[e.Endpoint] = e.Statuses
	}
	want := map[string]map[string]int{
		"PUT /users/:userId":     {"200": 4, "400": 5, "401": 0, "403": 0, "404": 0},
		"POST /sessions":         {"200": 2, "401": 2},
		"GET /platforms":         {"200": 4}, // v1.0 is the base URL's v1
		"GET /v2/platforms":      {"404": 1},
		"GET /users/:userId":     {"200": 3, "401": 5, "403": 1, "404": 1},
		"POST /apps":             {"200": 0, "400": 0, "401": 0, "403": 0, "404": 0},
		"POST /echo":             {"200": 1},
		"GET /echo":              {"200": 1},
		"POST /users":            {"200": 0},
		"POST /clients":          {"200": 0, "400": 0, "401": 0, "403": 0, "404": 0},
		"PUT /clients/:clientId": {"200": 0, "400": 0, "401": 0, "403": 0, "404": 0},
	}
	for e, statuses := range want {
		for code, n := range statuses {
			if got[e][code] != n {
				t.Errorf("coverage of %s %s: got %d, want %d", e, code, got[e][code], n)
			}
		}
		if len(got[e]) != len(statuses) {
			t.Errorf("coverage of %s: got statuses %v, want %v", e, got[e], statuses)
		}
	}
	if len(got) != len(want) {
		t.Errorf("coverage endpoints: got %v", got)
	}
}

// TestPassingFeatureConcurrently runs the passing feature with eight
// scenarios at once in random order, with form logins. Scenarios that log in
// as account A fail if they overlap one that changes it, so a broken lock
// shows up here (and -race checks the shared state).
func TestPassingFeatureConcurrently(t *testing.T) {
	for range 3 {
		f := newFakeAPI()
		p := testProfile(f.start(t))
		p.LoginEncoding = "form"
		r := runTestdata(t, p, godog.Options{
			Paths: []string{"testdata/features/pass.feature"}, Concurrency: 8, Randomize: -1, Format: "progress",
		})
		if r.status != 0 {
			t.Fatalf("status %d, output:\n%s", r.status, r.out)
		}
		if !strings.Contains(r.out, "23 scenarios (23 passed)") {
			t.Errorf("expected every scenario to run and pass:\n%s", r.out)
		}
		checkSeedRestored(t, f)
	}
}

var unmasked = regexp.MustCompile(`"password": ?"[^*{]|Authorization: api-key [^*]|Session-Token: [^*]|sessionToken=[^*]`)

func TestFailingFeature(t *testing.T) {
	f := newFakeAPI()
	base := f.start(t)
	r := runTestdata(t, testProfile(base), godog.Options{Paths: []string{"testdata/features/fail.feature"}})
	if r.status == 0 {
		t.Fatalf("the failing feature passed:\n%s", r.out)
	}
	if !strings.Contains(r.out, "5 scenarios (5 failed)") {
		t.Errorf("expected five failed scenarios:\n%s", r.out)
	}
	wants := []string{
		// a wrong status: the curl line, masked credentials, the response
		"expected status 200, got 400",
		"curl -sS -X PUT '" + base + "/users/1' \\",
		"-H 'Authorization: api-key ***'",
		"-H 'Content-Type: application/json'",
		`"password":"***"`,
		"response status: 400 Bad Request",
		"Content-Type: application/json; charset=utf-8",
		`[{"fieldName":"password","error":"InvalidPassword","message":"at least 6 characters"}]`,
		// a shape: every failing path, the session token masked
		`$.email: expected #number, got "other@example.com"`,
		`$.phoneCountry.dialCode: expected #regex [0-9]+, got "+1"`,
		`$.nickname: expected #present, got absent`,
		"(3 mismatches)",
		"-H 'Session-Token: ***'",
		"curl -sS -X GET '",
		// errors: missing and unexpected, the token in the query masked
		"missing:\n  | lastName | InvalidLastName |",
		"unexpected:\n  | firstName | InvalidFirstName |",
		"curl -sS -X PUT '" + base + "/users/2?sessionToken=***'",
		`"password": "***"`,
		// an unknown variable is named
		"unknown variable {{C.userId}}",
		// an answer none of the rows allows: the rows, and why the one of
		// its status does not match
		// (the row for another profile is not among them)
		"expected one of: 400 errors; 200 {\"platforms\": {\"#each\": {\"name\": \"#regex ios\"}}}; got status 200, which does not match:",
		`200 {"platforms": {"#each": {"name": "#regex ios"}}}: $.platforms[0].name: expected #regex ios, got "Android"`,
	}
	for _, w := range wants {
		if !strings.Contains(r.out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	for _, secret := range []string{"qa-api-key", "qa-password", "other-password", "other-api-key", "tok-"} {
		if strings.Contains(r.out, secret) {
			t.Errorf("output shows the secret %q", secret)
		}
	}
	// The short password is generated, so it is not in the step texts that
	// godog prints; wherever a credential is shown, it must be ***.
	if m := unmasked.FindString(r.out); m != "" {
		t.Errorf("output shows a credential: %q", m)
	}
	// The After hook restored account A although its scenario failed.
	checkSeedRestored(t, f)
	if t.Failed() {
		t.Logf("output:\n%s", r.out)
	}
}

const restoreFeature = `Feature: restore
  @mutates-A
  Scenario: change account A on a target without GET /users/:id
    Given I am account "A" using the api-key header
    And the request body is the template "user"
    And the request body field "email" is "{{gen:email}}"
    And the request body field "password" is "{{gen:password}}"
    And the request body field "firstName" is "Changed"
    And the request body field "timezone" is "Asia/Tokyo"
    When I send "PUT" to "/users/{{A.userId}}"
    Then the response status is 200

  @mutates-B
  Scenario: change account B on a target without GET /users/:id
    Given I am account "B" using the api-key header
    And the request body is:
      """json
      {"email": "{{gen:email}}", "firstName": "Changed", "lastName": "Changed", "timezone": "Asia/Tokyo",
       "subscribeWelcome": true, "subscribeBlog": true, "subscribeHowto": true, "subscribeOnboarding": true,
       "password": "{{gen:password}}", "phoneNumber": "5550199"}
      """
    When I send "PUT" to "/users/{{B.userId}}"
    Then the response status is 200
`

// TestRestoreWithoutUserRead: a target that does not answer GET /users/:id
// gets every field of the PUT /users body back, from the profile (which the
// fake, like the mock, requires), and the run says so once per account.
func TestRestoreWithoutUserRead(t *testing.T) {
	type names struct{ first, last, tz, phone string }
	tests := []struct {
		name     string
		set      func(*Profile)
		wantA    names
		wantB    names
		wantNote []string
	}{
		{
			name:  "the defaults are the mock's seed",
			set:   func(*Profile) {},
			wantA: names{"Quinn", "Assurance", "Europe/London", "7700900123"},
			wantB: names{"Olive", "Other", "America/New_York", "2025550143"},
			wantNote: []string{
				`GET /users/1 answered 404 without a user object: after a @mutates-A scenario account A is restored from the profile (email, password, firstName "Quinn", lastName "Assurance", timezone "Europe/London"; subscribeWelcome, subscribeBlog, subscribeHowto and subscribeOnboarding false; phone country 3, number "7700900123", extension null)`,
				`GET /users/2 answered 404 without a user object: after a @mutates-B scenario account B is restored from the profile (email, password, firstName "Olive", lastName "Other", timezone "America/New_York"; `,
				`phone country 2, number "2025550143", extension "42")`,
			},
		},
		{
			name: "the profile's names and phones",
			set: func(p *Profile) {
				p.FirstName, p.LastName, p.Timezone, p.PhoneNumber = "Ann", "Smith", "Europe/Paris", "155501"
				p.OtherFirstName, p.OtherLastName, p.OtherTimezone, p.OtherPhoneNumber = "Bob", "Jones", "Asia/Tokyo", "155502"
			},
			wantA:    names{"Ann", "Smith", "Europe/Paris", "155501"},
			wantB:    names{"Bob", "Jones", "Asia/Tokyo", "155502"},
			wantNote: []string{`firstName "Ann", lastName "Smith", timezone "Europe/Paris"`, `firstName "Bob", lastName "Jones", timezone "Asia/Tokyo"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI()
			f.noUserRead = true
			p := testProfile(f.start(t))
			tt.set(&p)
			r := runTestdata(t, p, godog.Options{FeatureContents: []godog.Feature{{Name: "restore.feature", Contents: []byte(restoreFeature)}}})
			if r.status != 0 {
				t.Fatalf("status %d, output:\n%s", r.status, r.out)
			}
			fresh := newFakeAPI()
			for id, want := range map[int]names{1: tt.wantA, 2: tt.wantB} {
				got, seed := f.user(id), fresh.user(id)
				if got.Email != seed.Email || got.Password != seed.Password {
					t.Errorf("user %d: email %q password %q, want %q %q", id, got.Email, got.Password, seed.Email, seed.Password)
				}
				if (names{got.FirstName, got.LastName, got.TZ, got.PhoneNumber}) != want {
					t.Errorf("user %d: names and phone %q %q %q %q, want %v", id, got.FirstName, got.LastName, got.TZ, got.PhoneNumber, want)
				}
				if got.Subs != [4]bool{} {
					t.Errorf("user %d: subscribe flags %v, want all false", id, got.Subs)
				}
			}
			for _, w := range tt.wantNote {
				if !strings.Contains(r.notes, w) {
					t.Errorf("notices lack %q:\n%s", w, r.notes)
				}
			}
			if n := strings.Count(r.notes, "restored from the profile"); n != 2 {
				t.Errorf("%d notices, want one per account:\n%s", n, r.notes)
			}
		})
	}
}

const clientFeature = `Feature: restore the client
  @mutates-A
  Scenario: change every field of client A
    Given I am account "A" using the api-key header
    And the request body is:
      """json
      {"name": "contract-changed", "addressLine1": "9 Elm Road", "addressCity": "York", "addressPostcode": "YO1 7HH",
       "addressCountry": "France", "vat": "FR123", "currency": {"id": 2}, "terms": "I agree"}
      """
    When I send "PUT" to "/clients/{{A.clientId}}"
    Then the response status is 200
    And the JSON at "addressLine2" is absent
    And the JSON at "vat" is "FR123"

  @mutates-B
  Scenario: change every field of client B
    Given I am account "B" using the api-key header
    And the request body is:
      """json
      {"name": "contract-changed", "addressLine1": "9 Elm Road", "addressLine2": "Unit 4", "addressCity": "York",
       "addressPostcode": "YO1 7HH", "addressCountry": "France", "currency": {"id": 1}, "terms": "I agree"}
      """
    When I send "PUT" to "/clients/{{B.clientId}}"
    Then the response status is 200
    And the JSON at "vat" is absent
`

// TestRestoreClient: after a @mutates-X scenario the account's client is put
// back from its snapshot with every field of the body table (the fake
// requires them, terms included), optional fields absent where the snapshot
// had none; a target that does not answer GET /clients/:id keeps the change,
// and the run says so.
func TestRestoreClient(t *testing.T) {
	tests := []struct {
		name         string
		noClientRead bool
		restored     bool
		wantNote     string
	}{
		{"with GET /clients/:id", false, true, ""},
		{"without GET /clients/:id", true, false, "GET /clients/1 answered 404 without a client object: after a @mutates-A scenario the client of account A is not restored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI()
			f.noClientRead = tt.noClientRead
			r := runTestdata(t, testProfile(f.start(t)), godog.Options{FeatureContents: []godog.Feature{{Name: "client.feature", Contents: []byte(clientFeature)}}})
			if r.status != 0 {
				t.Fatalf("status %d, output:\n%s", r.status, r.out)
			}
			fresh := newFakeAPI()
			for _, id := range []int{1, 2} {
				got, seed := f.client(id), fresh.client(id)
				if tt.restored && !reflect.DeepEqual(got, seed) {
					t.Errorf("client %d after the run:\n got %s\nwant %s", id, showClient(got), showClient(seed))
				}
				if !tt.restored && got.Name != "contract-changed" {
					t.Errorf("client %d was changed back without a snapshot: %s", id, showClient(got))
				}
			}
			checkUsers := newFakeAPI()
			for _, id := range []int{1, 2} {
				got, want := f.user(id), checkUsers.user(id)
				got.PasswordChanged, got.ClientID, want.ClientID = want.PasswordChanged, nil, nil
				if got != want {
					t.Errorf("user %d after the run:\n got %+v\nwant %+v", id, got, want)
				}
			}
			if tt.wantNote == "" && r.notes != "" {
				t.Errorf("unexpected notices: %s", r.notes)
			}
			if !strings.Contains(r.notes, tt.wantNote) {
				t.Errorf("notices lack %q:\n%s", tt.wantNote, r.notes)
			}
		})
	}
}

// TestClientRestoreFailureFailsTheScenario: a client the target refuses to
// take back is a scenario error naming the client.
func TestClientRestoreFailureFailsTheScenario(t *testing.T) {
	f := newFakeAPI()
	base := f.start(t)
	// The snapshot is taken by the Before hook; a name the fake refuses in
	// it (an empty string) makes the restore fail.
	f.mu.Lock()
	f.clients[1].Name = ""
	f.mu.Unlock()
	r := runTestdata(t, testProfile(base), godog.Options{FeatureContents: []godog.Feature{{Name: "client.feature", Contents: []byte(clientFeature)}}})
	if r.status == 0 {
		t.Fatalf("a failed client restore passed:\n%s", r.out)
	}
	for _, w := range []string{"restoring the client of account A: PUT /clients/1 answered 400, want 200", "InvalidName", `"terms":"I agree"`} {
		if !strings.Contains(r.out, w) {
			t.Errorf("output lacks %q:\n%s", w, r.out)
		}
	}
}

const preconditionFeature = `Feature: preconditions on the profile
  Scenario: a value the profile does not hold skips the rest
    Given the profile value "clients_per_user" is "one"
    When I send "GET" to "/users/1"
    Then the response status is 599

  Scenario: a value the profile's list does not include skips the rest
    Given the profile value "version_forms" includes "v1.1"
    Then the response status is 599

  Scenario: an unknown key is an error, not a skip
    Given the profile value "clients_per_users" is "one"
`

// TestPreconditionSkips: a profile value that does not hold skips the rest
// of the scenario, with no request sent and no later step run (a later step
// that would fail, status 599, does not); an unknown key fails it.
func TestPreconditionSkips(t *testing.T) {
	f := newFakeAPI()
	p := testProfile(f.start(t))
	p.VersionForms = "v1,v1.0,v2"
	r := runTestdata(t, p, godog.Options{FeatureContents: []godog.Feature{{Name: "pre.feature", Contents: []byte(preconditionFeature)}}})
	if r.status == 0 {
		t.Fatalf("an unknown profile key passed:\n%s", r.out)
	}
	// godog counts a scenario whose steps were all skipped as passed; the
	// steps tell the truth.
	for _, w := range []string{"3 scenarios (2 passed, 1 failed)", "6 steps (1 failed, 5 skipped)",
		`unknown profile key "clients_per_users"`, "clients_per_user, apps_per_marketapp"} {
		if !strings.Contains(r.out, w) {
			t.Errorf("output lacks %q:\n%s", w, r.out)
		}
	}
	if n := len(r.suite.Coverage().Endpoints); n == 0 {
		t.Fatal("no coverage table")
	}
	for _, e := range r.suite.Coverage().Endpoints {
		for code, n := range e.Statuses {
			if n != 0 {
				t.Errorf("a skipped scenario sent %s (%s: %d)", e.Endpoint, code, n)
			}
		}
	}
}
