package contract_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// skipFeatures: a scenario skipped by its first step (a choice of the
// profile), an outline whose rows are skipped by their last step (a value
// the profile does not give), and one that passes.
var skipFeatures = map[string]string{
	"skips.feature": `Feature: skips
  Scenario: a scenario for targets with several clients per user
    Given the profile value "clients_per_user" is "several"
    And I am not authenticated
    When I send "GET" to "/platforms"
    Then the response status is 200

  Scenario Outline: the platforms collection answers next to currency <n>
    Given I am not authenticated
    When I send "GET" to "/platforms"
    Then the JSON at "platforms.0.id" is {{currencies.<n>.id}}

    Examples:
      | n |
      | 2 |
      | 3 |

  Scenario: the platforms collection answers
    Given I am not authenticated
    When I send "GET" to "/platforms"
    Then the response status is 200
`,
}

// skipEnv: a profile of the seed's accounts that gives no catalogue but
// the one currency id, and chose one client per user.
var skipEnv = map[string]string{
	"PRICING_SEED_DEFAULTS": "none", "PRICING_CLIENTS_PER_USER": "one",
	"PRICING_EMAIL": "qa@example.com", "PRICING_PASSWORD": "qa-password", "PRICING_API_KEY": "qa-api-key",
	"PRICING_OTHER_EMAIL": "other@example.com", "PRICING_OTHER_PASSWORD": "other-password", "PRICING_OTHER_API_KEY": "other-api-key",
}

// TestSkippedScenariosAreShownWithTheirReasons: at a release gate a
// skipped scenario is as visible as a failed one. The console lists every
// skipped scenario under its reason and says once per missing value which
// variable to set and that init writes a profile; JUnit's skipped message
// and the HTML report give each scenario's reason, whichever step skipped
// it (godog hands the scenario's hook the reason of a last step only).
func TestSkippedScenariosAreShownWithTheirReasons(t *testing.T) {
	srv := platformsServer(t)
	dir := writeFeatures(t, skipFeatures)
	out := t.TempDir()
	junit, html := filepath.Join(out, "report.xml"), filepath.Join(out, "report.html")
	r := runSuite(t, context.Background(), skipEnv, "--features", dir, "--base-url", srv.URL+"/v1", "--no-preflight",
		"--godog.concurrency", "8", "--godog.format", "progress,junit:"+junit, "--report", html)
	if r.code != 0 {
		t.Fatalf("want exit 0 (skips are no failure), got %s", r)
	}
	// The reasons' words are the step library's; what they must name is
	// the choice or the variable to set.
	choice, missing := "clients_per_user", "PRICING_CURRENCIES (currencies)"
	listed := skippedOnConsole(t, r.stderr)
	for loc, want := range map[string]string{"skips.feature:2": choice, "skips.feature:15": missing, "skips.feature:16": missing} {
		if !strings.Contains(listed[loc], want) {
			t.Errorf("the console lists %s under the reason %q, want one naming %s:\n%s", loc, listed[loc], want, r.stderr)
		}
	}
	if len(listed) != 3 {
		t.Errorf("the console lists %d skipped scenarios, want 3:\n%s", len(listed), r.stderr)
	}
	// Once for the run, however many scenarios ran at once.
	for _, w := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^pricing-contract: 3 scenarios skipped, by reason:$`),
		regexp.MustCompile(`(?m)^pricing-contract: .*` + regexp.QuoteMeta(missing) + `.*$`),
		regexp.MustCompile("(?m)^pricing-contract: `pricing-contract init --base-url " + regexp.QuoteMeta(srv.URL) + "/v1 --output FILE` writes a profile"),
	} {
		if got := len(w.FindAllString(r.stderr, -1)); got != 1 {
			t.Errorf("stderr holds %d lines matching %s, want 1:\n%s", got, w, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, "4 scenarios (1 passed, 3 skipped)") {
		t.Errorf("the console does not count the skipped scenarios:\n%s", r)
	}

	skipped := 0
	for _, s := range readJUnit(t, junit).Suites {
		for _, c := range s.Cases {
			if c.Skipped == nil {
				continue
			}
			skipped++
			if !strings.Contains(c.Skipped.Message, choice) && !strings.Contains(c.Skipped.Message, missing) {
				t.Errorf("JUnit: %q skipped with the message %q, which gives no reason", c.Name, c.Skipped.Message)
			}
		}
	}
	if skipped != 3 {
		t.Errorf("JUnit: %d skipped testcases, want 3", skipped)
	}

	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "pricing-contract init --base-url "+srv.URL+"/v1 --output FILE") {
		t.Errorf("the HTML report does not say how init writes the missing values")
	}
	list := regexp.MustCompile(`(?s)<ul class="plain" id="skipped">(.*?)</ul>`).FindSubmatch(page)
	if list == nil {
		t.Fatalf("the HTML report has no list of skipped scenarios:\n%s", page)
	}
	items := regexp.MustCompile(`(?s)<li>.*?</li>`).FindAll(list[1], -1)
	if len(items) != 3 {
		t.Errorf("the HTML list of skipped scenarios has %d items, want 3:\n%s", len(items), list[1])
	}
	for _, it := range items {
		text := strings.ReplaceAll(string(it), "&#39;", "'")
		text = strings.ReplaceAll(text, "&#34;", `"`)
		if !strings.Contains(text, choice) && !strings.Contains(text, missing) {
			t.Errorf("an HTML item of a skipped scenario gives no reason: %s", it)
		}
	}
}

// skippedOnConsole reads the console's list of skipped scenarios: the
// reason of each, by its file name and line.
func skippedOnConsole(t *testing.T, stderr string) map[string]string {
	t.Helper()
	listed := map[string]string{}
	_, block, ok := strings.Cut(stderr, "skipped, by reason:\n")
	if !ok {
		t.Fatalf("the console lists no skipped scenario:\n%s", stderr)
	}
	reason := ""
	for _, l := range strings.Split(block, "\n") {
		switch {
		case strings.HasPrefix(l, "    "):
			loc, _, _ := strings.Cut(strings.TrimSpace(l), "  ")
			listed[filepath.Base(loc)] = reason
		case strings.HasPrefix(l, "  "):
			reason = strings.TrimSpace(l)
		default:
			return listed
		}
	}
	return listed
}

// TestConsoleNamesEachOutlineRowByItsLine: godog's console names every row
// of a Scenario Outline by the outline's line; the run's console names the
// row's, as the HTML and JUnit reports do, so that --godog.paths FILE:LINE
// reruns that row.
func TestConsoleNamesEachOutlineRowByItsLine(t *testing.T) {
	srv := platformsServer(t)
	dir := writeFeatures(t, map[string]string{"rows.feature": `Feature: rows
  Scenario Outline: the first platform is <name>
    Given I am not authenticated
    When I send "GET" to "/platforms"
    Then the JSON at "platforms.0.name" is "<name>"

    Examples:
      | name    |
      | iOS     |
      | Windows |
`})
	r := runSuite(t, context.Background(), nil, "--features", dir, "--base-url", srv.URL+"/v1", "--godog.format", "progress")
	if r.code != 1 {
		t.Fatalf("want exit 1 (both rows fail), got %s", r)
	}
	for _, want := range []string{
		"Scenario Outline: the first platform is iOS # " + filepath.Join(dir, "rows.feature") + ":9\n",
		"Scenario Outline: the first platform is Windows # " + filepath.Join(dir, "rows.feature") + ":10\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the console lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "rows.feature:2\n") {
		t.Errorf("the console names a row by the outline's line:\n%s", r.stdout)
	}
}
