package main

import (
	"cmp"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// readmeBlock is the text of README.md between the line that holds start
// and the next line that is exactly end.
func readmeBlock(t *testing.T, start, end string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if !strings.Contains(l, start) {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimRight(lines[j], " ") == end {
				return lines[i+1 : j]
			}
		}
	}
	t.Fatalf("README.md has no block from %q to %q", start, end)
	return nil
}

// TestREADMEProfilesAgainstAForeignTarget runs the spec scenarios, exactly
// as the README's staging and CI examples configure them, against a mock
// of the foreign seed: a correct implementation sharing no account, id or
// catalogue with the default seed. A value of the default seed standing in
// for one the examples do not give would fail scenarios there; what cannot
// run must be skipped with the key to set.
func TestREADMEProfilesAgainstAForeignTarget(t *testing.T) {
	testenv.SkipShort(t, "runs the whole suite through the command; -short runs it once, in steps' TestContract")
	// A mock each: the two runs change the same accounts.
	foreign := func(t *testing.T) *mocktest.Mock {
		return mocktest.MustStart(t, mocktest.Options{Fixtures: fixtures.Foreign()})
	}
	seed := foreign(t).Server.Profile()

	t.Run("staging profile", func(t *testing.T) {
		t.Parallel()
		m := foreign(t)
		dir := t.TempDir()
		path := filepath.Join(dir, "staging.profile")
		block := readmeBlock(t, "cat > staging.profile <<'PROFILE'", "PROFILE")
		if err := os.WriteFile(path, []byte(strings.Join(block, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{
			"PRICING_STAGING_PASSWORD": seed.Password, "PRICING_STAGING_API_KEY": seed.APIKey,
			"PRICING_STAGING_OTHER_PASSWORD": seed.OtherPassword, "PRICING_STAGING_OTHER_API_KEY": seed.OtherAPIKey,
		}
		r := runMain(env, "--profile", path, "--base-url", m.URL, "--godog.concurrency", "4", "--godog.format", "progress")
		if r.code != 0 || strings.Contains(r.stderr, "not run: set") {
			t.Fatalf("the README's staging profile against a correct foreign target: want exit 0 and every scenario run, got %s", r)
		}
	})

	t.Run("CI environment", func(t *testing.T) {
		t.Parallel()
		m := foreign(t)
		dir := t.TempDir()
		// The GitLab CI example: its variables, the secrets as the
		// project's CI/CD variables, and the command of its script.
		block := readmeBlock(t, "# .gitlab-ci.yml", "```")
		var args []string
		env := map[string]string{
			"PRICING_PASSWORD": seed.Password, "PRICING_API_KEY": seed.APIKey,
			"PRICING_OTHER_PASSWORD": seed.OtherPassword, "PRICING_OTHER_API_KEY": seed.OtherAPIKey,
		}
		section, inCommand := "", false
		for _, raw := range block {
			l := strings.TrimSpace(raw)
			switch {
			case strings.HasPrefix(raw, "  ") && !strings.HasPrefix(raw, "    ") && strings.HasSuffix(l, ":"):
				section, inCommand = l, false
			case strings.HasPrefix(l, "./pricing-contract"):
				inCommand = true
				args = append(args, strings.Fields(strings.TrimPrefix(l, "./pricing-contract"))...)
			case inCommand && strings.HasPrefix(l, "--"):
				args = append(args, strings.Fields(l)...)
			case section == "variables:" && l != "":
				k, v, _ := strings.Cut(l, ": ")
				env[k] = strings.Trim(v, "'")
			}
		}
		if len(args) == 0 || env["PRICING_EMAIL"] == "" {
			t.Fatalf("the README's CI example was not found: args %q, env %q", args, env)
		}
		env["PRICING_BASE_URL"] = m.URL // staging.example.com stands for this
		// The example writes its reports in the working directory.
		reports := []string{"report.xml", "report.html", "coverage.json"}
		for i := range args {
			for _, f := range reports {
				args[i] = strings.Replace(args[i], f, filepath.Join(dir, f), 1)
			}
		}
		r := runMain(env, args...)
		if r.code != 0 {
			t.Fatalf("the README's CI example against a correct foreign target: want exit 0, got %s", r)
		}
		// It gives one id of each catalogue, not two: the scenarios that
		// need a second are skipped, and the run ends saying what to set.
		// The last lines say which keys to set, then how init writes them.
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if key := lines[len(lines)-2]; !regexp.MustCompile(`^pricing-contract: \d+ scenarios? not run: set PRICING_(CURRENCIES|PLANS|PLATFORMS) `).MatchString(key) {
			t.Errorf("the line before the last does not say which key to set: %q\n%s", key, r)
		}
		if last := lines[len(lines)-1]; !strings.Contains(last, "pricing-contract init --base-url "+m.URL) {
			t.Errorf("the last line does not say that init writes a profile: %q\n%s", last, r)
		}
		// One set of counts: the console's is the reports' and the summary's
		// (godog's own counted a skipped scenario as passed).
		if !regexp.MustCompile(`(?m)^[0-9]+ scenarios \([0-9]+ passed, [0-9]+ skipped\)$`).MatchString(r.stdout) {
			t.Errorf("the console does not count the skipped scenarios:\n%s", r)
		}
		for _, f := range reports {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Errorf("the example's %s: %v", f, err)
				continue
			}
			// The HTML and JUnit reports say why each skipped scenario did
			// not run, and which key to set.
			if f != "coverage.json" && !strings.Contains(string(b), "set PRICING_CURRENCIES (currencies)") {
				t.Errorf("%s does not name the key to set for the scenarios not run", f)
			}
		}
	})
}

// TestNoPlanIDSkipsOnlyWhatSendsAnApp: against a correct foreign target
// whose profile gives no plan id (no answer of the spec shows one), every
// scenario runs but those that send an app body, whose nextplan.id needs
// it; a request the target must refuse before it reads the body (no
// credentials, an unknown version) runs with a stand-in. Before, the
// preflight's probes needed the plan id and no scenario ran.
func TestNoPlanIDSkipsOnlyWhatSendsAnApp(t *testing.T) {
	testenv.SkipShort(t, "runs the whole suite through the command; -short runs it once, in steps' TestContract")
	m := mocktest.MustStart(t, mocktest.Options{Fixtures: fixtures.Foreign()})
	seed := m.Server.Profile()
	dir := t.TempDir()
	block := readmeBlock(t, "cat > staging.profile <<'PROFILE'", "PROFILE")
	var kept []string
	for _, l := range block {
		if !strings.HasPrefix(l, "plan_id") && !strings.HasPrefix(l, "plans") {
			kept = append(kept, l)
		}
	}
	path := filepath.Join(dir, "noplan.profile")
	if err := os.WriteFile(path, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"PRICING_STAGING_PASSWORD": seed.Password, "PRICING_STAGING_API_KEY": seed.APIKey,
		"PRICING_STAGING_OTHER_PASSWORD": seed.OtherPassword, "PRICING_STAGING_OTHER_API_KEY": seed.OtherAPIKey,
	}
	cucumber := filepath.Join(dir, "run.json")
	r := runMain(env, "--profile", path, "--profile-only", "--base-url", m.URL, "--godog.concurrency", "4",
		"--godog.format", "progress,cucumber:"+cucumber)
	if r.code != 0 {
		t.Fatalf("want exit 0, got %s", r)
	}
	b, err := os.ReadFile(cucumber)
	if err != nil {
		t.Fatal(err)
	}
	var report []cucumberFeature
	if err := json.Unmarshal(b, &report); err != nil {
		t.Fatal(err)
	}
	template := regexp.MustCompile(`^the request body is the template "([^"]+)"$`)
	ran, skipped := 0, 0
	status := map[string]string{}
	for _, f := range report {
		for _, sc := range f.Elements {
			status[sc.Name] = "ran"
			first := slices.IndexFunc(sc.Steps, func(st cucumberStep) bool { return st.Result.Status == "skipped" })
			if first < 0 {
				ran++
				continue
			}
			skipped++
			status[sc.Name] = "skipped"
			st := sc.Steps[first]
			m := template.FindStringSubmatch(st.Name)
			if m == nil {
				t.Errorf("%q was skipped at %q, not at an app body", sc.Name, st.Name)
				continue
			}
			body, err := fs.ReadFile(fixtures.Bodies(), m[1]+".json")
			if err != nil || !strings.Contains(string(body), "{{planId}}") {
				t.Errorf("%q was skipped at the template %q, which needs no plan id", sc.Name, m[1])
			}
		}
	}
	for _, name := range []string{"POST /apps without credentials is answered 401", "POST /apps under the version v2 is answered 404"} {
		if status[name] != "ran" {
			t.Errorf("%q: %s, want it run (its body cannot change the answer)", name, cmp.Or(status[name], "not in the run"))
		}
	}
	if skipped == 0 || ran < 300 {
		t.Errorf("%d scenarios ran and %d were skipped: want every scenario but the app bodies run", ran, skipped)
	}
	t.Logf("%d scenarios ran, %d skipped for want of a plan id", ran, skipped)
	// Once, though four workers ran scenarios that needed it.
	if n := len(regexp.MustCompile(`(?m)^pricing-contract: \d+ scenarios not run: set PRICING_PLAN_ID \(plan_id\)$`).FindAllString(r.stderr, -1)); n != 1 {
		t.Errorf("the run says %d times that the plan id is missing, want once:\n%s", n, r.stderr)
	}
}

// cucumberFeature is what this test reads of godog's cucumber JSON.
type cucumberFeature struct {
	Elements []struct {
		Name  string
		Steps []cucumberStep
	}
}

type cucumberStep struct {
	Name   string
	Result struct{ Status string } `json:"result"`
}
