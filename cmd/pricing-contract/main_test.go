package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// startMock serves a fresh mock with its default seed on 127.0.0.1 and
// returns its base URL. The suite's defaults are that seed, so nothing
// else is needed to target it.
func startMock(t *testing.T) string {
	t.Helper()
	return mocktest.MustStart(t, mocktest.Options{}).URL
}

// startBroken serves 500 to every request, as a mock of the default seed
// whose every handler fails.
func startBroken(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Pricing-Mock-Seed", "default")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`[{"fieldName":"","error":"Internal","message":"broken on purpose"}]`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// allPassed is godog's summary when nothing failed, was skipped or undefined.
var allPassed = regexp.MustCompile(`(?m)^\d+ scenarios \(\d+ passed\)\n\d+ steps \(\d+ passed\)$`)

type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	out := r.stdout
	if len(out) > 16<<10 {
		out = "…" + out[len(out)-16<<10:]
	}
	return fmt.Sprintf("exit %d\n--- stderr:\n%s\n--- stdout:\n%s", r.code, r.stderr, out)
}

// runMain runs the binary's run with args and the PRICING_* variables of
// env, and nothing on stdin.
func runMain(env map[string]string, args ...string) result {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, func(k string) string { return env[k] }, strings.NewReader(""), &stdout, &stderr)
	return result{code, stdout.String(), stderr.String()}
}

// specEndpoints are the endpoints of the spec the default run (without
// @reference) must exercise, each with the statuses it must have seen.
var specEndpoints = map[string][]string{
	"PUT /users/:userId":     {"200", "400", "401", "403"},
	"POST /apps":             {"200", "400", "401"},
	"POST /clients":          {"200", "400", "401"},
	"PUT /clients/:clientId": {"200", "400", "401", "403"},
	"POST /sessions":         {"200", "401"},
	"GET /platforms":         {"200"},
}

func TestRunAgainstMock(t *testing.T) {
	testenv.SkipShort(t, "runs the whole suite through the command; -short runs it once, in steps' TestContract")
	tmp := t.TempDir()
	profile := filepath.Join(tmp, "mock.profile")
	if err := os.WriteFile(profile, []byte("# the in-process mock\nbase_url = ${MOCK_URL}\ntags = @s2.4\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		env    func(base string) map[string]string
		args   func(base, dir string) []string
		code   int
		verify func(t *testing.T, r result, dir string)
	}{
		{
			name: "base URL only, every spec scenario",
			args: func(base, _ string) []string { return []string{"--base-url", base} },
			verify: func(t *testing.T, r result, _ string) {
				if !allPassed.MatchString(r.stdout) {
					t.Errorf("stdout has no summary of passed scenarios only")
				}
				for _, want := range []string{"PUT /users/:userId", "POST /sessions"} {
					if !strings.Contains(r.stdout, want) {
						t.Errorf("stdout lacks the coverage of %s", want)
					}
				}
			},
		},
		{
			name: "concurrency 8, random order, @reference included",
			args: func(base, _ string) []string {
				return []string{"--base-url", base, "--reference", "--godog.concurrency", "8", "--godog.random", "--godog.format", "progress"}
			},
			// godog passes the seed to its summary through the process
			// environment, which the parallel cases share: not asserted here.
			verify: func(t *testing.T, r result, _ string) {
				if !allPassed.MatchString(r.stdout) {
					t.Errorf("stdout has no summary of passed scenarios only\n%s", r)
				}
			},
		},
		{
			name: "JUnit report and coverage file",
			args: func(base, dir string) []string {
				return []string{"--base-url", base, "--godog.concurrency", "8", "--godog.random",
					"--godog.format", "junit:" + filepath.Join(dir, "report.xml"), "--coverage", filepath.Join(dir, "c.json")}
			},
			verify: func(t *testing.T, _ result, dir string) {
				verifyJUnit(t, filepath.Join(dir, "report.xml"))
				verifyCoverage(t, filepath.Join(dir, "c.json"))
			},
		},
		{
			name: "base URL from the environment",
			env:  func(base string) map[string]string { return map[string]string{"PRICING_BASE_URL": base} },
			args: func(string, string) []string { return []string{"--godog.tags", "@s2.5"} },
		},
		{
			name: "profile file with ${VAR} and default tags",
			env:  func(base string) map[string]string { return map[string]string{"MOCK_URL": base} },
			args: func(string, string) []string { return []string{"--profile", profile} },
			verify: func(t *testing.T, r result, _ string) {
				if !strings.Contains(r.stderr, `"~@reference && @s2.4"`) {
					t.Errorf("the profile's tags were not used: %q", r.stderr)
				}
			},
		},
		{
			name: "a structured format on stdout stays parseable",
			args: func(base, _ string) []string {
				return []string{"--base-url", base, "--godog.tags", "@s2.5", "--godog.format", "cucumber"}
			},
			verify: func(t *testing.T, r result, _ string) {
				var report []map[string]any
				if err := json.Unmarshal([]byte(r.stdout), &report); err != nil || len(report) == 0 {
					t.Errorf("stdout is not a cucumber JSON report (%v)", err)
				}
				if !strings.Contains(r.stderr, "GET /platforms") {
					t.Errorf("the coverage summary is not on stderr")
				}
			},
		},
		{
			name: "an unknown flag",
			args: func(base, _ string) []string { return []string{"--base-url", base, "--godog.tag", "@s5"} },
			code: 2,
			verify: func(t *testing.T, r result, _ string) {
				if !strings.Contains(r.stderr, "godog.tag") || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("want one line naming the flag, got %q", r.stderr)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base, dir := startMock(t), t.TempDir()
			var env map[string]string
			if tt.env != nil {
				env = tt.env(base)
			}
			r := runMain(env, tt.args(base, dir)...)
			if r.code != tt.code {
				t.Fatalf("want exit %d, got %s", tt.code, r)
			}
			if tt.verify != nil {
				tt.verify(t, r, dir)
			}
		})
	}
}

// TestExitStatusTellsWhatBroke: CI must tell a broken contract (1) from a
// target it cannot use at all (3).
func TestExitStatusTellsWhatBroke(t *testing.T) {
	t.Run("a defect of the spec: exit 1 and the scenarios that caught it", func(t *testing.T) {
		t.Parallel()
		ds := testenv.Variants(t, "forbidden-as-404")
		m := mocktest.MustStart(t, mocktest.Options{Servers: ds})
		r := runMain(nil, "--base-url", m.URL, "--godog.tags", "@s5", "--godog.concurrency", "4", "--godog.format", "progress")
		if r.code != 1 {
			t.Fatalf("want exit 1, got %s", r)
		}
		if !strings.Contains(r.stdout, "failed") || !strings.Contains(r.stdout, "expected status 403, got 404") {
			t.Errorf("stdout does not report the failed scenarios and why")
		}
	})
	t.Run("a server broken everywhere: exit 3 before any scenario", func(t *testing.T) {
		t.Parallel()
		r := runMain(nil, "--base-url", startBroken(t), "--godog.concurrency", "8", "--godog.format", "progress")
		if r.code != 3 {
			t.Fatalf("want exit 3, got %s", r)
		}
		if !strings.Contains(r.stderr, "not usable, no scenario was run: account A cannot log in: POST /sessions answered 500") {
			t.Errorf("stderr does not say why: %q", r.stderr)
		}
		if strings.Contains(r.stdout, "scenarios (") {
			t.Errorf("scenarios ran:\n%s", r.stdout)
		}
	})
	t.Run("a currency id the target does not have: exit 3 naming the key before any scenario", func(t *testing.T) {
		t.Parallel()
		for _, env := range []map[string]string{
			{"PRICING_CURRENCY_ID": "999"},
			{"PRICING_CURRENCIES": "1:GBP,999:XXX"},
		} {
			r := runMain(env, "--base-url", startMock(t), "--godog.format", "progress")
			for k, v := range env {
				want := "the target refused the profile's `currency.id` 999 (" + k
				if r.code != 3 || !strings.Contains(r.stderr, want) {
					t.Errorf("%s=%s: want exit 3 and %q, got %s", k, v, want, r)
				}
			}
			if strings.Contains(r.stdout, "scenarios (") {
				t.Errorf("scenarios ran:\n%s", r.stdout)
			}
		}
	})
	t.Run("a marketplace hash the target does not have: the failures are the profile's, exit 3", func(t *testing.T) {
		t.Parallel()
		// No refused request can check a hash before the run (no field of
		// POST /apps is required with one), so the scenarios meet it.
		env := map[string]string{"PRICING_MARKETAPP_HASH": "00000000000000000000000000000000000000aa"}
		r := runMain(env, "--base-url", startMock(t), "--godog.tags", "@post-apps", "--godog.concurrency", "4", "--godog.format", "progress")
		want := "the target refused the profile's `marketapp.hash` 00000000000000000000000000000000000000aa (PRICING_MARKETAPP_HASH, marketapp_hash)"
		if r.code != 3 || !strings.Contains(r.stderr, "every failure is a value of the profile the target refused") || !strings.Contains(r.stderr, want) {
			t.Fatalf("want exit 3 and %q, got %s", want, r)
		}
		if !strings.Contains(r.stdout, "profile error: "+want) {
			t.Errorf("the failed scenarios do not say that the profile is wrong:\n%s", r.stdout)
		}
	})
	t.Run("a target that takes one app of a marketplace app, the profile left at several: the failures name apps_per_marketapp, exit 3", func(t *testing.T) {
		t.Parallel()
		// The seed's app already uses the profile's hash, which the mock
		// took: the refusal of the next is the choice's, not the hash's.
		ds := testenv.Variants(t, "one-app-per-marketapp")
		m := mocktest.MustStart(t, mocktest.Options{Servers: ds})
		r := runMain(map[string]string{"PRICING_APPS_PER_MARKETAPP": "several"}, "--base-url", m.URL, "--godog.tags", "@post-apps", "--godog.concurrency", "4", "--godog.format", "progress")
		// The mock never took the hash in this run (the seed's app took
		// it before), so the failures name both keys.
		want := "or chose otherwise than apps_per_marketapp says: may a marketplace app have several apps (several) or only one (one)? (PRICING_APPS_PER_MARKETAPP, apps_per_marketapp: one)"
		if r.code != 3 || !strings.Contains(r.stdout, "profile error: ") || !strings.Contains(r.stdout, want) || !strings.Contains(r.stderr, want) {
			t.Fatalf("want exit 3 and %q, got %s", want, r)
		}
	})
	t.Run("a target that chose otherwise than the profile says: each failure names the value it assumed", func(t *testing.T) {
		t.Parallel()
		// One client per user, a reading the profile can declare
		// (clients_per_user = one), left at its default here.
		oneClient := func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/clients") {
					next.ServeHTTP(w, r)
					return
				}
				// What the mock accepts, every user here already having a
				// client, this target refuses.
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				if rec.Code == http.StatusOK {
					rec = httptest.NewRecorder()
					rec.Header().Set("Content-Type", "application/json")
					rec.WriteHeader(http.StatusForbidden)
					rec.WriteString(`[{"fieldName":"","error":"Forbidden","message":"one client per user"}]`)
				}
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.WriteHeader(rec.Code)
				w.Write(rec.Body.Bytes())
			})
		}
		m := mocktest.MustStart(t, mocktest.Options{Wrap: oneClient})
		r := runMain(nil, "--base-url", m.URL, "--godog.tags", "@post-clients", "--godog.concurrency", "4", "--godog.format", "progress")
		want := "this scenario assumed clients_per_user = several (the default): may a user who has a client create another (several) or not (one)? If the target chose otherwise, set PRICING_CLIENTS_PER_USER (clients_per_user)."
		if r.code != 1 || !strings.Contains(r.stdout, want) {
			t.Fatalf("want exit 1 and failures saying %q, got %s", want, r)
		}
		r = runMain(map[string]string{"PRICING_CLIENTS_PER_USER": "one"}, "--base-url", m.URL, "--godog.tags", "@post-clients", "--godog.concurrency", "4", "--godog.format", "progress")
		if r.code != 0 {
			t.Errorf("with clients_per_user = one the same target passes; got %s", r)
		}
	})
	t.Run("another target and no accounts in the profile: exit 3 naming the keys", func(t *testing.T) {
		t.Parallel()
		m := mocktest.MustStart(t, mocktest.Options{Fixtures: fixtures.Foreign()})
		r := runMain(nil, "--base-url", m.URL, "--godog.format", "progress")
		if r.code != 3 || !strings.Contains(r.stderr, "the profile gives no PRICING_EMAIL, PRICING_PASSWORD, PRICING_API_KEY, PRICING_OTHER_EMAIL") {
			t.Fatalf("want exit 3 naming the account keys, got %s", r)
		}
		if strings.Contains(r.stderr, "qa@example.com") || strings.Contains(r.stdout, "qa@example.com") {
			t.Errorf("an account of the default seed was used against another target:\n%s", r)
		}
	})
}

func verifyJUnit(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Suites   []struct {
			Cases []struct {
				Name   string `xml:"name,attr"`
				Status string `xml:"status,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &rep); err != nil {
		t.Fatalf("report.xml is not JUnit XML: %v\n%.2000s", err, b)
	}
	cases := 0
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			cases++
			if c.Status != "passed" {
				t.Errorf("testcase %q: status %q", c.Name, c.Status)
			}
		}
	}
	if cases == 0 || rep.Tests != cases || rep.Failures != 0 || rep.Errors != 0 {
		t.Errorf("JUnit: %d testcases, tests=%d failures=%d errors=%d", cases, rep.Tests, rep.Failures, rep.Errors)
	}
}

func verifyCoverage(t *testing.T, path string) {
	t.Helper()
	got := testenv.ReadCoverage(t, path)
	for ep, statuses := range specEndpoints {
		for _, s := range statuses {
			if got[ep][s] == 0 {
				t.Errorf("no scenario exercised %s with %s (coverage %v)", ep, s, got[ep])
			}
		}
	}
}

// TestREADMEInstallLine runs the README's one-line build, as written, on a
// clone of this checkout's branch: the binary it builds must run and name
// the clone's commit.
func TestREADMEInstallLine(t *testing.T) {
	testenv.SkipShort(t, "clones and builds")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	line := ""
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, `git clone --depth 1 --branch "$REF" "$REPO"`) {
			line = l
		}
	}
	if line == "" {
		t.Fatal("README.md has no one-line build (git clone --depth 1 --branch \"$REF\" \"$REPO\" …)")
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", root}, args...)...).Output()
		if err != nil {
			t.Skipf("git %v: %v (not a git checkout)", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	branch, head := git("rev-parse", "--abbrev-ref", "HEAD"), git("rev-parse", "HEAD")
	if branch == "HEAD" {
		t.Skip("a detached HEAD has no branch to clone")
	}
	dir := t.TempDir()
	sh := exec.Command("sh", "-c", line)
	sh.Dir = dir
	sh.Env = append(os.Environ(), "REPO=file://"+root, "REF="+branch, "GOFLAGS=")
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	out, err := exec.Command(filepath.Join(dir, "pricing-contract"), "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "commit "+head) {
		t.Errorf("pricing-contract --version = %q (%v), want commit %s", out, err, head)
	}
}

// --help names every subcommand main dispatches to.
func TestHelpListsEverySubcommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := contract.Run(context.Background(), []string{"--help"}, func(string) string { return "" }, &stdout, &stderr); code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	help := stdout.String() + stderr.String()
	for _, sub := range []string{"pricing-contract init ", "pricing-contract explore ", "pricing-contract replay "} {
		if !strings.Contains(help, sub) {
			t.Errorf("--help does not show %q:\n%s", sub, help)
		}
	}
}
