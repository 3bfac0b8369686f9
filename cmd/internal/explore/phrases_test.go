package explore

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps"
)

// phrase is one phrase: its sample line (arguments filled in) and the
// registered step's expression it must match.
type phrase struct {
	sample string
}

// phrases lists a sample of every phrase below, for the test.
var phrases = []phrase{
	{pNotAuthenticated()},
	{pAccountUsingAPIKey("A")},
	{pAccountNearMiss("A", "api-key", "its last character removed")},
	{pAccountNearMiss("B", "session-query", "a character added")},
	{pLogInAsAccount("A")},
	{pLogInWith("{{A.email}}", "{{A.password}}x")},
	{pRemember("token", "tokenA0")},
	{pHeader("session-token", "{{tokenA0}}")},
	{pQuery("sessionToken", "{{tokenA0}}")},
	{pContentType("text/plain")},
	{pBody()},
	{pRawBody()},
	{pFieldOfLength("contractPadding", 5)},
	{pSend("PUT", "/users/{{A.userId}}")},
	{pSendUnder("PUT", "/users/{{A.userId}}", "v2")},
	{pReadExtension("/users/{{A.userId}}")},
	{pStatus(200)},
	{pStatusEither(400, 401)},
	{pStatusClass()},
	{pStatus200Or4xxNot401()},
	{pStatus4xxNot401()},
	{pIsJSON()},
	{pMatchesShape("errors")},
	{pJSONIs("firstName", `"Quinn"`)},
	{pJSONIsType("id", "number")},
	{pJSONIsType("plan.isLite", "boolean")},
	{pJSONIsType("@this", "object")},
	{pJSONIsType("platforms", "array")},
	{pJSONIsType("0.fieldName", "string")},
	{pJSONIsNull("vat")},
	{pJSONAbsent("password")},
	{pJSONPresent("currency.code")},
	{pJSONDiffers("writeKey", `"abc"`)},
	{pJSONMatches("writeKey", `^[0-9a-fA-F]{32}$`)},
	{pSameInstant("created", "2026-01-02T03:04:05Z")},
	{pWithinSkew("created")},
	{pNoPassword("qa-password")},
	{pNamesField("email")},
	{pNamesOnly([]string{"email"})},
	{pNamesOnly([]string{"email", "firstName"})},
	{pNamesOnly([]string{"email", "firstName", "lastName"})},
	{pIncludesCode(pricing.CodeInvalidEmail.String(), "email")},
	{strings.Join(pOneOf([]int{200, 400, 401}), "\n")},
}

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
