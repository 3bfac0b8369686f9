package pricingcontract_test

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/mockserver"
)

// TestGodogCLIEntry runs the features the way the main that the godog CLI
// generates does (its template in godog v0.15.1 internal/builder): this
// package's InitializeTestSuite and InitializeScenario, the features/ folder
// of the current directory, the target from PRICING_BASE_URL.
func TestGodogCLIEntry(t *testing.T) {
	m, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	t.Setenv("PRICING_BASE_URL", srv.URL+"/v1")

	var out bytes.Buffer
	status := godog.TestSuite{
		Name:                 "pricing-contract",
		TestSuiteInitializer: InitializeTestSuite,
		ScenarioInitializer:  InitializeScenario,
		Options: &godog.Options{
			Format: "progress", Output: &out, NoColors: true, Strict: true,
			Tags: "@s2.4,@s2.5 && ~@reference", // the CLI's default path is features/
		},
	}.Run()
	if status != 0 {
		t.Fatalf("godog status %d:\n%s", status, out.String())
	}
	if !strings.Contains(out.String(), " passed)") || strings.Contains(out.String(), "undefined") {
		t.Errorf("want passed scenarios and no undefined step:\n%s", out.String())
	}
}
