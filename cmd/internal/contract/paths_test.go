package contract_test

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/features"
)

// linesFeature has its line numbers in the comments that matter.
const linesFeature = `Feature: lines
  A description on line 2.

  Scenario: first
    Given I am not authenticated
    When I send "GET" to "/platforms"
    Then the response status is 200

  @second-tag
  Scenario: second
    Given I am not authenticated
    And the raw request body is:
      """
      not a step: line 14
      """
    When I send "GET" to "/platforms"
    Then the response status is 200

  @reference
  Scenario: a reference scenario
    Given I am not authenticated
    When I send "GET" to "/platforms"
    Then the response status is 200
`

func TestRunScenarioLine(t *testing.T) {
	srv := platformsServer(t)
	dir := writeFeatures(t, map[string]string{"lines.feature": linesFeature})
	tests := []struct {
		line     int
		code     int
		scenario string // the one that ran
		err      string // on stderr, for code 2
	}{
		{4, 0, "first", ""},
		{6, 0, "first", ""},  // a step
		{8, 0, "first", ""},  // the blank line after it
		{9, 0, "second", ""}, // the tag line belongs to the next scenario
		{10, 0, "second", ""},
		{14, 0, "second", ""}, // inside a doc string
		{2, 2, "", "line 2 is before the first scenario (the Feature header or Background)"},
		{99, 2, "", "lines.feature has 23 lines"},
		{21, 2, "", "does not match the tag filter \"~@reference\" (a @reference scenario needs --reference)"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.line), func(t *testing.T) {
			r := runSuite(t, context.Background(), nil, "--features", dir, "--base-url", srv.URL+"/v1",
				"--godog.format", "pretty", "--godog.paths", fmt.Sprintf("lines.feature:%d", tt.line))
			if r.code != tt.code {
				t.Fatalf("want exit %d, got %s", tt.code, r)
			}
			if tt.code != 0 {
				if !strings.Contains(r.stderr, tt.err) {
					t.Errorf("stderr %q does not say %q", r.stderr, tt.err)
				}
				return
			}
			if !strings.Contains(r.stderr, "1 scenarios") || !strings.Contains(r.stdout, "Scenario: "+tt.scenario) {
				t.Errorf("want scenario %q alone, got %s", tt.scenario, r)
			}
		})
	}
}

// TestRunLineOfEmbeddedFeature: a step line of an embedded feature, as the
// README's example gives it, runs that scenario.
func TestRunLineOfEmbeddedFeature(t *testing.T) {
	f, err := features.FS.Open("users.feature")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line, name := 0, ""
	for n := 1; sc.Scan(); n++ {
		if s, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "Scenario: "); ok && line == 0 {
			line, name = n+2, s
		}
	}
	if line == 0 {
		t.Fatal("users.feature has no Scenario")
	}
	// The selection is counted before the preflight, which fails here
	// (nothing listens): the announcement says what would have run.
	r := runSuite(t, context.Background(), nil, "--base-url", closedURL(t), "--godog.paths", fmt.Sprintf("users.feature:%d", line))
	if r.code != 3 || !strings.Contains(r.stderr, "pricing-contract: 1 scenarios from embedded features") {
		t.Errorf("users.feature:%d (a step of %q) did not select one scenario: %s", line, name, r)
	}
}

// TestRunPrettyIsNotInterleaved: pretty prints one scenario at a time, so
// it runs one at a time; the default format follows --godog.concurrency
// with progress instead.
func TestRunPrettyIsNotInterleaved(t *testing.T) {
	srv := platformsServer(t)
	dir := writeFeatures(t, map[string]string{"lines.feature": linesFeature, "platforms.feature": platformsFeature})
	r := runSuite(t, context.Background(), nil, "--features", dir, "--base-url", srv.URL+"/v1", "--godog.format", "pretty", "--godog.concurrency", "4")
	if r.code != 0 || !strings.Contains(r.stderr, "pretty output runs one scenario at a time") {
		t.Fatalf("want exit 0 and a note, got %s", r)
	}
	// Each feature's scenarios follow its header, in file order.
	if i, j, k := strings.Index(r.stdout, "Feature: lines"), strings.Index(r.stdout, "Scenario: second"), strings.Index(r.stdout, "Feature: platforms"); i < 0 || !(i < j && j < k) {
		t.Errorf("pretty output out of order:\n%s", r.stdout)
	}
	r = runSuite(t, context.Background(), nil, "--features", dir, "--base-url", srv.URL+"/v1", "--godog.concurrency", "4")
	if r.code != 0 || strings.Contains(r.stdout, "Feature:") || !strings.Contains(r.stdout, "3 scenarios (3 passed)") {
		t.Errorf("want progress output with --godog.concurrency 4, got %s", r)
	}
}
