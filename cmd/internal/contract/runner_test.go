package contract_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/features"
)

// specScenarios counts the embedded scenarios a run without --reference
// selects, so that a test of the whole run follows the features as they grow.
func specScenarios(t *testing.T) int {
	t.Helper()
	opts := godog.Options{FS: features.FS, Paths: []string{"."}, Tags: "~@reference"}
	feats, err := (godog.TestSuite{Options: &opts}).RetrieveFeatures()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range feats {
		n += len(f.Pickles)
	}
	if n == 0 {
		t.Fatal("no spec scenario in the embedded features")
	}
	return n
}

// runResult is what one call of contract.Run left behind.
type runResult struct {
	code           int
	stdout, stderr string
}

func runSuite(t *testing.T, ctx context.Context, env map[string]string, args ...string) runResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := contract.Run(ctx, args, func(k string) string { return env[k] }, &stdout, &stderr)
	return runResult{code, stdout.String(), stderr.String()}
}

func (r runResult) String() string {
	const max = 8 << 10
	out := r.stdout
	if len(out) > max {
		out = "…" + out[len(out)-max:]
	}
	return fmt.Sprintf("exit %d\n--- stderr:\n%s\n--- stdout:\n%s", r.code, r.stderr, out)
}

// platformsServer answers GET <prefix>/platforms like a correct server, and
// just enough of the rest for the preflight: the two seed accounts log in
// (users 1 and 2 of clients 1 and 2) and their api keys are accepted on
// their own user, whose empty update is refused with 400. Everything else
// is 500. It needs neither the mock nor other credentials.
func platformsServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Pricing-Mock-Seed", "default") // it serves the default seed's accounts
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/platforms":
			w.Write([]byte(`{"platforms":[{"id":1,"name":"Android"},{"id":2,"name":"iOS"}]}`))
		case r.Method == http.MethodPost && r.URL.Path == "/v1/sessions":
			body, _ := io.ReadAll(r.Body)
			for i, acct := range []string{`"qa@example.com"`, `"other@example.com"`} {
				if bytes.Contains(body, []byte(acct)) {
					fmt.Fprintf(w, `{"id":9,"created":"2026-01-02T03:04:05Z","creatorUserId":%d,"userId":%[1]d,"clientId":%[1]d,"token":"t%[1]d"}`, i+1)
					return
				}
			}
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`[{"fieldName":"","error":"Unauthorized","message":"wrong credentials"}]`))
		case r.Method == http.MethodPut && (r.URL.Path == "/v1/users/1" && r.Header.Get("Authorization") == "api-key qa-api-key" ||
			r.URL.Path == "/v1/users/2" && r.Header.Get("Authorization") == "api-key other-api-key"):
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`[{"fieldName":"firstName","error":"InvalidFirstName","message":"required"}]`))
		default:
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`[{"fieldName":"","error":"Internal","message":"not in this fake"}]`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

const platformsFeature = `Feature: platforms
  Scenario: the platforms collection answers Android
    Given I am not authenticated
    When I send "GET" to "/platforms"
    Then the response status is 200
    And the response is JSON
    And the JSON at "platforms.0.name" is "Android"
`

// The fake answers 500 here; the scenario only runs with --reference.
const referenceFeature = `@reference
Feature: a decision of the mock
  Scenario: the fake answers users
    Given I am not authenticated
    When I send "GET" to "/users"
    Then the response status is 200
`

const undefinedFeature = `Feature: a typo
  Scenario: a step nobody defined
    Given I am not authenticated
    When I sned "GET" to "/platforms"
`

func writeFeatures(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRunUsageErrors(t *testing.T) {
	// Features of its own keep these cases independent of features/.
	dir := writeFeatures(t, map[string]string{"platforms.feature": platformsFeature})
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string // in the one line on stderr
	}{
		{"unknown flag", nil, []string{"--bogus"}, "flag provided but not defined: -bogus"},
		{"bad godog flag value", nil, []string{"--godog.concurrency", "many"}, "godog.concurrency"},
		{"zero concurrency", nil, []string{"--godog.concurrency", "0"}, "at least 1"},
		{"base URL without scheme", nil, []string{"--base-url", "127.0.0.1:8080/v1"}, "--base-url: PRICING_BASE_URL"},
		{"base URL without version", nil, []string{"--base-url", "http://127.0.0.1:8080"}, "version segment"},
		{"bad environment", map[string]string{"PRICING_PLATFORM_ID": "Android"}, nil, "PRICING_PLATFORM_ID"},
		{"missing profile", nil, []string{"--profile", filepath.Join(dir, "none.profile")}, "none.profile"},
		{"profile secret not set", nil, []string{"--profile", "../../../steps/target/testdata/profiles/staging.profile"}, "PRICING_STAGING_PASSWORD is not set"},
		{"unknown format", nil, []string{"--godog.format", "html"}, `unknown --godog.format "html"`},
		{"format without file", nil, []string{"--godog.format", "junit:"}, "needs a file name"},
		{"tag expression godog would panic on", nil, []string{"--godog.tags", "@s5 &&"}, "bad tag expression"},
		{"tags matching nothing", nil, []string{"--godog.tags", "@no-such-tag"}, "no scenario matches"},
		{"features folder missing", nil, []string{"--features", filepath.Join(dir, "nope")}, "not a folder"}, // the last --features wins
		{"feature path missing", nil, []string{"--godog.paths", "nope.feature"}, "nope.feature"},
		{"fixtures folder missing", nil, []string{"--fixtures", filepath.Join(dir, "nope")}, "not a folder"},
		{"positional argument", nil, []string{"features/users.feature"}, "unexpected argument"},
		{"coverage file cannot be created", nil, []string{"--coverage", filepath.Join(dir, "no", "such", "c.json")}, "--coverage"},
		{"traceability file missing", nil, []string{"--traceability", filepath.Join(dir, "none.tsv")}, "--traceability: open"},
		{"traceability file of another format", nil, []string{"--traceability", filepath.Join(dir, "platforms.feature")}, "--traceability: " + filepath.Join(dir, "platforms.feature") + ":1: a rule is <section> TAB <rule>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--features", dir}, tt.args...)
			r := runSuite(t, context.Background(), tt.env, args...)
			if r.code != 2 {
				t.Fatalf("want exit 2, got %s", r)
			}
			if strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "pricing-contract: ") {
				t.Errorf("want one line on stderr, got %q", r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q does not contain %q", r.stderr, tt.want)
			}
			if r.stdout != "" {
				t.Errorf("want nothing on stdout, got %q", r.stdout)
			}
		})
	}
}

func TestRunHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help", "--godog.help"} {
		t.Run(arg, func(t *testing.T) {
			r := runSuite(t, context.Background(), nil, arg)
			if r.code != 0 {
				t.Fatalf("want exit 0, got %s", r)
			}
			for _, want := range []string{"Usage: pricing-contract", "--base-url", "--profile", "--reference", "--coverage", "--features", "--fixtures", "--godog.tags", "--godog.format", "--godog.concurrency", "--godog.random"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("usage lacks %q:\n%s", want, r.stdout)
				}
			}
		})
	}
}

func TestRunFeaturesFromDisk(t *testing.T) {
	srv := platformsServer(t)
	dir := writeFeatures(t, map[string]string{
		"platforms.feature": platformsFeature,
		"reference.feature": referenceFeature,
		"typo.feature":      undefinedFeature,
	})
	base := srv.URL + "/v1"
	tests := []struct {
		name      string
		env       map[string]string
		args      []string
		wantCode  int
		wantLines []string // on stderr
	}{
		{"reference excluded by default", nil,
			[]string{"--base-url", base, "--godog.paths", "platforms.feature,reference.feature"},
			0, []string{"1 scenarios", base, `"~@reference"`}},
		{"base URL from the environment", map[string]string{"PRICING_BASE_URL": base},
			[]string{"--godog.paths", "platforms.feature,reference.feature"},
			0, []string{"1 scenarios", base}},
		{"--reference adds the failing reference scenario", nil,
			[]string{"--base-url", base, "--reference", "--godog.paths", "platforms.feature,reference.feature"},
			1, []string{"2 scenarios"}},
		{"--godog.tags narrows within --reference", nil,
			[]string{"--base-url", base, "--reference", "--godog.tags", "~@reference", "--godog.paths", "platforms.feature,reference.feature"},
			0, []string{"1 scenarios"}},
		{"an undefined step fails the run", nil,
			[]string{"--base-url", base, "--godog.paths", "typo.feature"},
			1, []string{"1 scenarios"}},
		{"concurrent, random, progress", nil,
			[]string{"--base-url", base, "--godog.concurrency", "8", "--godog.random", "--godog.format", "progress", "--godog.paths", "platforms.feature"},
			0, []string{"1 scenarios"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runSuite(t, context.Background(), tt.env, append([]string{"--features", dir}, tt.args...)...)
			if r.code != tt.wantCode {
				t.Fatalf("want exit %d, got %s", tt.wantCode, r)
			}
			for _, want := range tt.wantLines {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr %q does not contain %q", r.stderr, want)
				}
			}
			if !strings.Contains(r.stdout, "GET /platforms") {
				t.Errorf("no coverage summary on stdout:\n%s", r)
			}
		})
	}
}

func TestRunWritesCoverage(t *testing.T) {
	srv := platformsServer(t)
	dir := writeFeatures(t, map[string]string{"platforms.feature": platformsFeature})
	out := filepath.Join(t.TempDir(), "c.json")
	r := runSuite(t, context.Background(), nil, "--features", dir, "--base-url", srv.URL+"/v1", "--coverage", out)
	if r.code != 0 {
		t.Fatalf("want exit 0, got %s", r)
	}
	cov := testenv.ReadCoverage(t, out)
	if got := cov["GET /platforms"]["200"]; got != 1 {
		t.Errorf("GET /platforms 200 counted %d times, want 1 (coverage %v)", got, cov)
	}
	// Endpoints the run never touched are listed with zeros, so a report
	// shows what is missing.
	for _, ep := range []string{"PUT /users/:userId", "POST /apps", "POST /clients", "PUT /clients/:clientId", "POST /sessions"} {
		statuses, ok := cov[ep]
		if !ok {
			t.Errorf("coverage lacks %s: %v", ep, cov)
			continue
		}
		if n, ok := statuses["200"]; !ok || n != 0 {
			t.Errorf("%s 200 = %d (listed %v), want a listed 0", ep, n, ok)
		}
	}
}

// junitReport is the part of the JUnit XML the tests look at.
type junitReport struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Status    string `xml:"status,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, path string) junitReport {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep junitReport
	if err := xml.Unmarshal(b, &rep); err != nil {
		t.Fatalf("not JUnit XML: %v\n%.2000s", err, b)
	}
	return rep
}

// TestRunAgainstBrokenServer runs every embedded scenario against a server
// that passes the preflight and answers 500 to nearly everything else: the
// contract is broken, so the run exits 1, and the JUnit report says so as
// CI servers read it: the feature as classname, names without
// placeholders, a one-line message and the failing request in the body.
func TestRunAgainstBrokenServer(t *testing.T) {
	srv := platformsServer(t)
	tmp := t.TempDir()
	report, cov := filepath.Join(tmp, "report.xml"), filepath.Join(tmp, "c.json")
	r := runSuite(t, context.Background(), nil, "--base-url", srv.URL+"/v1",
		"--godog.concurrency", "8", "--godog.random", "--godog.format", "junit:"+report, "--coverage", cov)
	if r.code != 1 {
		t.Fatalf("want exit 1, got %s", r)
	}
	rep := readJUnit(t, report)
	cases, failed := 0, 0
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			cases++
			if c.Classname == "" || c.Classname != s.Name {
				t.Errorf("testcase %q: classname %q, want its feature %q", c.Name, c.Classname, s.Name)
			}
			if strings.Contains(c.Name, "{{") {
				t.Errorf("testcase name %q keeps a placeholder", c.Name)
			}
			if c.Failure == nil {
				continue
			}
			failed++
			if strings.Contains(c.Failure.Message, "\n") || len(c.Failure.Message) > 201+len("…") {
				t.Errorf("testcase %q: message %q is not one short line", c.Name, c.Failure.Message)
			}
			if !strings.Contains(c.Failure.Body, c.Failure.Message) || !strings.Contains(c.Failure.Body, "curl -sS -X ") {
				t.Errorf("testcase %q: the body lacks the message or the response:\n%s", c.Name, c.Failure.Body)
			}
		}
	}
	if want := specScenarios(t); cases != want || rep.Tests != cases {
		t.Errorf("JUnit: %d testcases, tests=%d, want %d", cases, rep.Tests, want)
	}
	if failed == 0 || rep.Failures != failed {
		t.Errorf("JUnit: %d failures among %d testcases, failures=%d", failed, cases, rep.Failures)
	}
	if !strings.Contains(r.stderr, "scenarios done: ") {
		t.Errorf("a file-only format and no progress line on stderr:\n%s", r.stderr)
	}
	if got := testenv.ReadCoverage(t, cov)["PUT /clients/:clientId"]["500"]; got == 0 {
		t.Errorf("coverage counted no 500 from PUT /clients/:clientId")
	}
}

func TestRunInterrupted(t *testing.T) {
	srv := platformsServer(t)
	dir := writeFeatures(t, map[string]string{"platforms.feature": platformsFeature})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := runSuite(t, ctx, nil, "--features", dir, "--base-url", srv.URL+"/v1")
	if r.code != 1 || !strings.Contains(r.stderr, "interrupted") {
		t.Fatalf("want exit 1 and an interrupted notice, got %s", r)
	}
}

func TestRunPrintsStepCatalogue(t *testing.T) {
	r := runSuite(t, context.Background(), nil, "--godog.definitions")
	if r.code != 0 {
		t.Fatalf("want exit 0, got %s", r)
	}
	if !strings.Contains(r.stdout, "I am not authenticated") || !strings.Contains(r.stdout, "the response status is") {
		t.Errorf("the catalogue lacks known phrases:\n%s", r)
	}
	if strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("colours in the catalogue although stdout is not a terminal")
	}
}
