package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// asMain makes this test binary the pricing-contract command, so that a
// test can run the action's scripts with it as the binary they call.
const asMain = "PRICING_CONTRACT_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// actionScript is the run: script of the step of .ci/action/action.yml
// whose line marker (its id: or name: line) is given, as bash gets it.
func actionScript(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", ".ci", "action", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != marker {
			continue
		}
		for j := i + 1; j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "- "); j++ {
			if strings.TrimSpace(lines[j]) != "run: |" {
				continue
			}
			indent := strings.Repeat(" ", len(lines[j])-len(strings.TrimLeft(lines[j], " "))+2)
			var script []string
			for _, s := range lines[j+1:] {
				if s != "" && !strings.HasPrefix(s, indent) {
					break
				}
				script = append(script, strings.TrimPrefix(s, indent))
			}
			return strings.Join(script, "\n")
		}
	}
	t.Fatalf(".ci/action/action.yml has no step %q with a run: script", marker)
	return ""
}

// TestActionScripts runs the scripts of the CI action's gate and judge
// steps as the runner would, with the environment their env: blocks give
// them: against a correct foreign target the gate writes the JUnit, HTML
// and coverage reports and the status 0, and the judge passes; against a
// defective one the gate still ends 0 (so that the reports are uploaded)
// with the status 1, and the judge fails the job.
func TestActionScripts(t *testing.T) {
	testenv.SkipShort(t, "runs the suite twice through bash")
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	gate, judge := actionScript(t, "id: gate"), actionScript(t, "- name: judge")
	broken := testenv.Variants(t, "forbidden-as-404")
	for _, tc := range []struct {
		name   string
		opts   mocktest.Options
		status string
	}{
		{"a correct target", mocktest.Options{Fixtures: fixtures.Foreign()}, "0"},
		{"a target that answers 404 for 403", mocktest.Options{Fixtures: fixtures.Foreign(), Servers: broken}, "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := mocktest.MustStart(t, tc.opts)
			seed := m.Server.Profile()
			workspace, runnerTemp := t.TempDir(), t.TempDir()
			// A profile as init writes it: the secrets as ${PRICING_...},
			// which the action sets from its inputs.
			profile := "email = " + seed.Email + "\nother_email = " + seed.OtherEmail + "\n" +
				"password = ${PRICING_PASSWORD}\napi_key = ${PRICING_API_KEY}\n" +
				"other_password = ${PRICING_OTHER_PASSWORD}\nother_api_key = ${PRICING_OTHER_API_KEY}\n" +
				"currency_id = 1015\nplan_id = 1050\nplatform_id = 1001\nphone_country_id = 1071\n" +
				"marketapp_hash = 13befaec5190d23ad60b8ee6553cdee83d5c0a16\n"
			if err := os.WriteFile(filepath.Join(workspace, "staging.profile"), []byte(profile), 0o600); err != nil {
				t.Fatal(err)
			}
			reports := filepath.Join(runnerTemp, "contract-report")
			if err := os.MkdirAll(reports, 0o755); err != nil {
				t.Fatal(err)
			}
			output := filepath.Join(runnerTemp, "output")
			env := append(os.Environ(), asMain+"=1",
				"PRICING_CONTRACT_BIN="+self, "RUNNER_TEMP="+runnerTemp, "GITHUB_WORKSPACE="+workspace, "GITHUB_OUTPUT="+output,
				"PRICING_BASE_URL="+m.URL, "INPUT_PROFILE=staging.profile",
				"INPUT_EMAIL=", "INPUT_PASSWORD="+seed.Password, "INPUT_API_KEY="+seed.APIKey,
				"INPUT_OTHER_EMAIL=", "INPUT_OTHER_PASSWORD="+seed.OtherPassword, "INPUT_OTHER_API_KEY="+seed.OtherAPIKey,
				"INPUT_CONCURRENCY=4", "INPUT_TIMEOUT=20s", "INPUT_ARGS=--godog.tags @s5")
			cmd := exec.Command("bash", "-e", "-c", gate)
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the gate step failed (%v), so the reports would not be uploaded:\n%s", err, out)
			}
			got, _ := os.ReadFile(output)
			if !strings.Contains(string(got), "status="+tc.status+"\n") {
				t.Errorf("GITHUB_OUTPUT %q, want status=%s; the step said:\n%s", got, tc.status, out)
			}
			for _, f := range []string{"report.xml", "report.html", "coverage.json"} {
				if fi, err := os.Stat(filepath.Join(reports, f)); err != nil || fi.Size() == 0 {
					t.Errorf("the gate wrote no %s (%v):\n%s", f, err, out)
				}
			}
			j := exec.Command("bash", "-c", judge)
			j.Env = append(os.Environ(), "GATE="+tc.status, "EXPLORE=")
			jout, err := j.CombinedOutput()
			if passed := err == nil; passed != (tc.status == "0") {
				t.Errorf("the judge step with the status %s: passed %v, output %q", tc.status, passed, jout)
			}
		})
	}
}
