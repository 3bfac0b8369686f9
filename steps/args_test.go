package steps

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/features"
	"github.com/pricing-contract/pricing-contract/steps/match"
)

var pathArg = regexp.MustCompile(`the JSON at "(.*?)" (?:is|matches|as)\b`)

// TestFeaturePathsAreWellFormed: every gjson path of the shipped features
// and the test features passes match.CheckPath once unescaped and substituted, so
// the check cannot fail a correct target.
func TestFeaturePathsAreWellFormed(t *testing.T) {
	st := offlineState(t)
	ctx := context.Background()
	vars := map[string]bool{}
	paths := 0
	check := func(name string, data []byte) {
		for _, m := range pathArg.FindAllStringSubmatch(string(data), -1) {
			paths++
			p := match.UnescapeArg(m[1])
			for _, v := range placeholder.FindAllStringSubmatch(p, -1) {
				if _, err := st.lookup(ctx, v[1]); err != nil && !vars[v[1]] {
					vars[v[1]] = true
					st.vars[v[1]] = value{text: "1", json: true}
				}
			}
			p, err := st.substText(ctx, p)
			if err != nil {
				t.Errorf("%s: %s: %v", name, m[1], err)
				continue
			}
			if err := match.CheckPath(p); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	n := 0
	err := fs.WalkDir(features.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(features.FS, path)
		check(path, data)
		n++
		return err
	})
	if err != nil || n == 0 {
		t.Fatalf("reading the features: %d files, %v", n, err)
	}
	for _, f := range []string{"testdata/features/pass.feature", "testdata/features/fail.feature"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, data)
	}
	if paths < 100 {
		t.Errorf("only %d paths found: is the pattern still right?", paths)
	}
}

// TestQuotedArguments runs one scenario per phrase with an escaped quote or
// backslash in a quoted argument. Each passes only if the argument reached
// the step unescaped; the "fails" ones must fail, most importantly an
// "is absent" on a path that exists once unescaped.
func TestQuotedArguments(t *testing.T) {
	const body = `
    Given the request body is:
      """json
      {"clients": [{"name": "x", "id": 7}, {"name": "say \"hi\"", "id": 8}], "a\"b": "q\"r", "back\\slash": 1}
      """
    When I send "POST" to "/echo"
    Then the response status is 200
`
	tests := []struct {
		name, steps string
		pass        bool
		wantOut     string
	}{
		{"absent fails on an escaped query that matches", body + `
    Then the JSON at "body.clients.#(name==\"x\")" is absent`, false, `expected absent, got {"name":"x","id":7}`},
		{"absent passes on an escaped query that matches nothing", body + `
    Then the JSON at "body.clients.#(name==\"y\")" is absent`, true, ""},
		{"absent fails on a malformed path", body + `
    Then the JSON at "body.clients.#(name==\"x\"" is absent`, false, `malformed gjson path "body.clients.#(name==\"x\""`},
		{"absent fails on backslashes left in a query value", body + `
    Then the JSON at "body.clients.#(name==\\\"x\\\")" is absent`, false, `quote a string value whole`},
		{"present", body + `
    Then the JSON at "body.clients.#(name==\"say \\\"hi\\\"\").id" is present`, true, ""},
		{"is", body + `
    Then the JSON at "body.clients.#(name==\"x\").id" is 7
    And the JSON at "body.a\"b" is "q\"r"`, true, ""},
		{"is a", body + `
    Then the JSON at "body.clients.#(name==\"x\").name" is a string`, true, ""},
		{"matches and matches the shape", body + `
    Then the JSON at "body.clients.#(id==8)" matches:
      """json
      {"name": "say \"hi\"", "id": 8}
      """
    And the JSON at "body.clients.#(name==\"x\")" matches the shape "a\"b"`, false, `no shape "a\"b"`},
		{"the response matches the shape", body + `
    Then the response matches the shape "a\"b"`, false, `no shape "a\"b"`},
		{"matches the pattern", body + `
    Then the JSON at "body.a\"b" matches the pattern "^q\"r$"
    And the JSON at "body.clients.1.name" matches the pattern "^say \"hi\"$"`, true, ""},
		{"a backslash in a pattern stays an escape", body + `
    Then the JSON at "body.a\"b" matches the pattern "^\w\"\w$"
    And the JSON at "body.back\\\\slash" is 1`, true, ""},
		{"remember", body + `
    When I remember the JSON at "body.clients.#(name==\"say \\\"hi\\\"\").id" as "say\"id"`, false, `"say\"id" is not a variable name`},
		{"remember and reuse", body + `
    When I remember the JSON at "body.clients.#(name==\"x\").id" as "xid"
    And I remember "say \"{{xid}}\" \\o/" as "text"
    And the request header "X-Text" is "{{text}}"
    And the request header "X-Quote" is "\""
    And the request query parameter "q\"1" is "a\\b"
    And the request body field "k\"ey" is 1
    And the request body field "s\"tr" is a string of 12 characters
    And the request body field "e\"mail" is an email of 30 characters
    And the request body field "gone" is 1
    And the request body field "g\"one" is 1
    And the request body field "g\"one" is absent
    And the request content type is "application/json; x=\"y\""
    When I send "POST" to "/echo"
    Then the JSON at "headers.X-Text" is "say \"7\" \\o/"
    And the JSON at "headers.X-Quote" is "\""
    And the JSON at "headers.Content-Type" is "application/json; x=\"y\""
    And the JSON at "query.q\"1" is "a\\b"
    And the JSON at "body.k\"ey" is 1
    And the JSON at "body.s\"tr" matches the pattern "^contract-[a-z0-9]{3}$"
    And the JSON at "body.e\"mail" matches the pattern "^contract-.*@example\.com$"
    And the JSON at "body.g\"one" is absent
    And the JSON at "body.gone" is 1`, true, ""},
		{"the template name", `
    Given the request body is the template "a\"b"`, false, `no body template "a\"b"`},
		{"send path and version", `
    When I send "GET" to "/echo?q=a\\b" under the version "v\"1"
    Then the response status is 200`, false, `/v%221/echo?q=a\b'`},
		{"send path", `
    When I send "GET" to "/echo?q=a\\b"
    Then the JSON at "query.q" is "a\\b"`, true, ""},
		{"the errors name the field", `
    Given the request body is:
      """json
      [{"fieldName": "a\"b", "error": "InvalidAB", "message": "m"}]
      """
    When I send "POST" to "/reply?status=400"
    Then the errors name the field "a\"b"`, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI()
			feature := "Feature: quoted arguments\n  Scenario: " + tt.name + tt.steps + "\n"
			r := runTestdata(t, testProfile(f.start(t)), godog.Options{FeatureContents: []godog.Feature{{Name: "quoted.feature", Contents: []byte(feature)}}})
			if (r.status == 0) != tt.pass {
				t.Errorf("status %d, want pass %v:\n%s", r.status, tt.pass, r.out)
			}
			if !strings.Contains(r.out, "1 scenarios") || strings.Contains(r.out, "undefined") {
				t.Errorf("a phrase did not match:\n%s", r.out)
			}
			if !strings.Contains(r.out, tt.wantOut) {
				t.Errorf("output lacks %s:\n%s", tt.wantOut, r.out)
			}
		})
	}
}

// TestLoginArgumentsAreUnescaped: the credentials of the login phrase reach
// POST /sessions unescaped.
func TestLoginArgumentsAreUnescaped(t *testing.T) {
	f := newFakeAPI()
	s := NewSuite(testProfile(f.start(t)), Options{})
	st := s.newState(nil)
	ctx := stateToContext(context.Background(), st)
	if err := (authSteps{}).iLogInWithEmailAndPassword(ctx, `a\"b@example.com`, `p\\w\"d`); err != nil {
		t.Fatal(err)
	}
	var sent struct{ Email, Password string }
	if err := json.Unmarshal(st.last.out.body, &sent); err != nil {
		t.Fatalf("login body %s: %v", st.last.out.body, err)
	}
	if sent.Email != `a"b@example.com` || sent.Password != `p\w"d` {
		t.Errorf("sent email %q password %q", sent.Email, sent.Password)
	}
	if st.last.status != 401 {
		t.Errorf("status %d, want 401 for unknown credentials", st.last.status)
	}
}
