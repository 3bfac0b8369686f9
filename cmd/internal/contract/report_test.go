package contract_test

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pricing-contract/pricing-contract/mockserver/mocktest/chromium"
)

// reportFeatures: one scenario passes, one fails on its response, and one
// outline names account A's user by a placeholder.
//
// reportTrace names them: the rule of 2.5 the two platform scenarios, of
// which only the one tagged @s2.5 asserts it; the rule of 4.1 the outline
// by its written name; one rule a scenario of another run, one none.
const reportTrace = "2.5\ta collection endpoint answers a wrapper object\n" +
	"\tplatforms.feature\tthe platforms collection answers Android\n" +
	"\tios.feature\tiOS is the first platform\n" +
	"4.1\tPUT /users/:userId refuses a body without a first name\n" +
	"\tnamed.feature\t<path> refuses an empty body\n" +
	"9\tan unknown major version answers 404\n" +
	"\tversioning.feature\tGET on the platforms resource under the version v2 is answered 404\n" +
	"2.3\tthe hash is found in the marketplace-app URL\n" +
	"\t-\twhere a person finds a hash is outside the API\n"

var reportFeatures = map[string]string{
	"platforms.feature": platformsFeature,
	"ios.feature": `@s2.5 @get-platforms
Feature: the platforms list iOS first
  Scenario: iOS is the first platform
    Given I am not authenticated
    When I send "GET" to "/platforms"
    Then the JSON at "platforms.0.name" is "iOS"
`,
	"named.feature": `@s4.1 @put-users
Feature: names with placeholders
  Scenario Outline: <path> refuses an empty body
    Given I am account "A" using the api-key header
    And the request body is:
      """
      {}
      """
    When I send "PUT" to "<path>"
    Then the response status is 400

    Examples:
      | path                |
      | /users/{{A.userId}} |
`,
}

// TestReportInBrowser writes the HTML report of a failing run and opens it
// in headless Chromium, as a person would, to check what the page shows:
// the summary counts, the failing scenario opened with its request as curl
// and the response, the coverage matrix and the traceability table.
func TestReportInBrowser(t *testing.T) {
	srv := platformsServer(t)
	dir := writeFeatures(t, reportFeatures)
	out := t.TempDir()
	report, trace := filepath.Join(out, "report.html"), filepath.Join(out, "trace.tsv")
	if err := os.WriteFile(trace, []byte(reportTrace), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runSuite(t, context.Background(), nil, "--features", dir, "--base-url", srv.URL+"/v1", "--report", report,
		"--traceability", trace, "--godog.format", "progress")
	if r.code != 1 {
		t.Fatalf("want exit 1 (one scenario fails), got %s", r)
	}
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	// Self-contained: nothing to fetch, nothing to run.
	if m := regexp.MustCompile(`(?i)<script|<link|<img|\bsrc=|@import|url\(`).Find(page); m != nil {
		t.Errorf("the report loads something from elsewhere: %q", m)
	}

	browser := chromium.Start(t, chromedp.WindowSize(1280, 1024))

	if err := chromedp.Do(browser,
		chromedp.Navigate("file://"+report),
		chromedp.WaitVisible(chromedp.CSS("#summary")),
		// The failing scenario is open: its failing step's text is visible.
		chromedp.WaitVisible(chromedp.CSS("details.scenario.failed pre.failure")),
	); err != nil {
		t.Fatalf("open the report in chromium: %v", err)
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(browser, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("read %s: %v", sel, err)
		}
		return s
	}
	summary, failure := text("#summary"), text("details.scenario.failed pre.failure")
	coverage, trace, names := text("#coverage"), text("#traceability"), text("#features")
	// Quality 100 is a lossless PNG.
	shot, err := chromedp.Run(browser, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// REPORT_SCREENSHOT=FILE keeps the picture, to look at it.
	if keep := os.Getenv("REPORT_SCREENSHOT"); keep != "" {
		if err := os.WriteFile(keep, shot, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if img, err := png.Decode(bytes.NewReader(shot)); err != nil || img.Bounds().Dx() < 800 || img.Bounds().Dy() < 600 {
		t.Errorf("the screenshot is not a page-sized PNG (err %v)", err)
	}

	for _, want := range []string{"3 scenarios: 2 passed, 1 failed", srv.URL + "/v1", "~@reference", "Failing scenarios", "iOS is the first platform"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary does not show %q:\n%s", want, summary)
		}
	}
	for _, want := range []string{`expected "iOS"`, "curl -sS -X GET '" + srv.URL + "/v1/platforms'", "response status: 200 OK", `"Android"`} {
		if !strings.Contains(failure, want) {
			t.Errorf("the failing step does not show %q:\n%s", want, failure)
		}
	}
	if !strings.Contains(names, "/users/1 refuses an empty body") || strings.Contains(names, "{{A.userId}} refuses") {
		t.Errorf("the outline's name is not resolved:\n%s", names)
	}
	for _, want := range []string{"GET /platforms", "PUT /users/:userId", "0 ~", "POST /apps", "why no scenario received it"} {
		if !strings.Contains(coverage, want) {
			t.Errorf("the coverage section does not show %q:\n%s", want, coverage)
		}
	}
	// The rule of 2.5 is asserted by the scenario tagged @s2.5, which
	// failed (the untagged one is no scenario of the rule); the outline is
	// shown by its resolved name; rules no scenario of this run checks, or
	// none can, say so. A badge shows its status in capitals.
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)a collection endpoint answers a wrapper object\s+iOS is the first platform\s+failed\s+failed`),
		regexp.MustCompile(`(?i)refuses a body without a first name\s+/users/1 refuses an empty body\s+passed\s+passed`),
		regexp.MustCompile(`an unknown major version answers 404\s+none selected\s+not run`),
		regexp.MustCompile(`found in the marketplace-app URL\s+no scenario asserts it: where a person finds a hash is outside the API\s+no scenario`),
	} {
		if !want.MatchString(trace) {
			t.Errorf("the traceability table does not match %s:\n%.3000s", want, trace)
		}
	}
	if strings.Contains(trace, "answers Android") {
		t.Errorf("the traceability table counts a scenario without the rule's section tag:\n%.3000s", trace)
	}
}
