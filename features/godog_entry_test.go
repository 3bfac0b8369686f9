package features_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// TestGodogCLIEntry runs the features the way the main that the godog CLI
// generates does (its template in godog v0.15.1 internal/builder): this
// package's InitializeTestSuite and InitializeScenario, the feature files of
// the current directory (the path "." that the README's command gives), the
// target from PRICING_BASE_URL.
func TestGodogCLIEntry(t *testing.T) {
	t.Setenv("PRICING_BASE_URL", mocktest.MustStart(t, mocktest.Options{}).URL)

	var out bytes.Buffer
	status := godog.TestSuite{
		Name:                 "pricing-contract",
		TestSuiteInitializer: InitializeTestSuite,
		ScenarioInitializer:  InitializeScenario,
		Options: &godog.Options{
			Format: "progress", Output: &out, NoColors: true, Strict: true,
			Paths: []string{"."},
			Tags:  "@s2.4,@s2.5 && ~@reference",
		},
	}.Run()
	if status != 0 {
		t.Fatalf("godog status %d:\n%s", status, out.String())
	}
	if !strings.Contains(out.String(), " passed)") || strings.Contains(out.String(), "undefined") {
		t.Errorf("want passed scenarios and no undefined step:\n%s", out.String())
	}
}
