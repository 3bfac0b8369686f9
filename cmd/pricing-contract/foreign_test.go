package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
	if testing.Short() {
		t.Skip("runs the whole suite through the command; -short runs it once, in steps' TestContract")
	}
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
		r := run(env, "--profile", path, "--base-url", m.URL, "--godog.concurrency", "4", "--godog.format", "progress")
		if r.code != 0 || strings.Contains(r.stderr, "not run: set") {
			t.Fatalf("the README's staging profile against a correct foreign target: want exit 0 and every scenario run, got %s", r)
		}
	})

	t.Run("CI environment", func(t *testing.T) {
		t.Parallel()
		m := foreign(t)
		dir := t.TempDir()
		block := readmeBlock(t, "- name: gate the release on the contract", "      - uses: actions/upload-artifact@v4")
		var args []string
		env := map[string]string{}
		secret := regexp.MustCompile(`^\$\{\{ secrets\.(\w+) \}\}$`)
		secrets := map[string]string{
			"PRICING_PASSWORD": seed.Password, "PRICING_API_KEY": seed.APIKey,
			"PRICING_OTHER_PASSWORD": seed.OtherPassword, "PRICING_OTHER_API_KEY": seed.OtherAPIKey,
		}
		inEnv := false
		for _, l := range block {
			l = strings.TrimSpace(l)
			switch {
			case l == "env:":
				inEnv = true
			case strings.HasPrefix(l, "./pricing-contract"), strings.HasPrefix(l, "--") && !inEnv:
				args = append(args, strings.Fields(strings.TrimPrefix(l, "./pricing-contract"))...)
			case inEnv && l != "":
				k, v, _ := strings.Cut(l, ": ")
				v = strings.Trim(v, "'")
				if m := secret.FindStringSubmatch(v); m != nil {
					v = secrets[m[1]]
				}
				env[k] = v
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
		r := run(env, args...)
		if r.code != 0 {
			t.Fatalf("the README's CI example against a correct foreign target: want exit 0, got %s", r)
		}
		// It gives one id of each catalogue, not two: the scenarios that
		// need a second are skipped, and the run ends saying what to set.
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if last := lines[len(lines)-1]; !regexp.MustCompile(`^pricing-contract: \d+ scenarios? not run: set PRICING_(CURRENCIES|PLANS|PLATFORMS) `).MatchString(last) {
			t.Errorf("the last line does not say which key to set: %q\n%s", last, r)
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
