package explore

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"

	"github.com/pricing-contract/pricing-contract/steps"
)

// registeredSteps are the expressions of the suite's registered steps, as
// godog lists them (--godog.definitions).
func registeredSteps(t *testing.T) []*regexp.Regexp {
	t.Helper()
	var out bytes.Buffer
	suite := steps.NewSuite(steps.ProfileFromEnv(func(string) string { return "" }), steps.Options{})
	godog.TestSuite{ScenarioInitializer: suite.InitializeScenario,
		Options: &godog.Options{ShowStepDefinitions: true, Format: "progress", Output: colors.Uncolored(&out), NoColors: true}}.Run()
	var exprs []*regexp.Regexp
	for _, line := range strings.Split(out.String(), "\n") {
		expr, _, ok := strings.Cut(line, "# ")
		if !ok {
			continue
		}
		exprs = append(exprs, regexp.MustCompile(strings.TrimSpace(expr)))
	}
	if len(exprs) < 30 {
		t.Fatalf("godog listed %d step definitions; its format changed?\n%s", len(exprs), out.String())
	}
	return exprs
}

var keyword = regexp.MustCompile(`^(Given|When|Then|And|But) `)

// Every phrase a reproducer is written in is a step of the suite: its
// sample, without its keyword, matches exactly one registered expression
// (the lines of a table aside).
func TestPhrasesAreRegisteredSteps(t *testing.T) {
	exprs := registeredSteps(t)
	for _, p := range phrases {
		line := strings.Split(p.sample, "\n")[0]
		text := keyword.ReplaceAllString(line, "")
		if text == line {
			t.Errorf("phrase %q starts with no keyword", line)
			continue
		}
		var matched []string
		for _, e := range exprs {
			if e.MatchString(text) {
				matched = append(matched, e.String())
			}
		}
		if len(matched) != 1 {
			t.Errorf("phrase %q matches %d registered steps, want 1: %q", text, len(matched), matched)
		}
	}
	// And a phrase that is no step is told apart: the test can fail.
	if !keyword.MatchString("Then the response status is 200") {
		t.Fatal("the keyword pattern reads no keyword")
	}
	for _, e := range exprs {
		if e.MatchString("the response status is two hundred") {
			t.Fatalf("%s matches a phrase the suite does not have", e)
		}
	}
}
