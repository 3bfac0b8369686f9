// This file lets the godog CLI, which QA teams know, run the contract suite.
// From this folder, `godog run --strict .` builds this package's tests and
// finds InitializeTestSuite and InitializeScenario below (the CLI looks for
// exported functions taking *godog.TestSuiteContext and *godog.ScenarioContext
// in the test files of the current folder), then runs the feature files here
// against the target of the PRICING_* environment. The entry lives beside the
// features because the repository root holds no Go package. Without
// --strict, godog passes undefined steps.
//
// pricing-contract remains the supported runner: it adds the preflight's
// exit status 3, --timeout, --profile, the HTML and JUnit reports and the
// coverage table. This entry does the preflight too, so a wrong profile stops
// the CLI before any scenario changes data.
package features_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/steps"
)

// cliSuite is the suite of one godog CLI run: one Suite holds the pool of
// account pairs, with their learned ids, that every scenario shares.
var cliSuite *steps.Suite

// InitializeTestSuite is found by the godog CLI. It builds the suite from the
// PRICING_* environment and checks the target before the first scenario; on
// a bad profile it exits 2, on an unusable target 3, as pricing-contract does.
func InitializeTestSuite(ctx *godog.TestSuiteContext) {
	p := steps.ProfileFromEnv(os.Getenv)
	if err := p.Validate(); err != nil {
		fmt.Fprintf(os.Stderr, "godog: target profile from the environment: %v\n", err)
		os.Exit(2)
	}
	cliSuite = steps.NewSuite(p, steps.Options{HTTPClient: &http.Client{Timeout: 10 * time.Second}})
	ctx.BeforeSuite(func() {
		if err := cliSuite.Preflight(context.Background()); err != nil {
			fmt.Fprintf(os.Stderr, "godog: target or profile not usable, no scenario was run: %v\n", err)
			os.Exit(3)
		}
	})
}

// InitializeScenario is found by the godog CLI: every step of the suite.
func InitializeScenario(sc *godog.ScenarioContext) { cliSuite.InitializeScenario(sc) }
