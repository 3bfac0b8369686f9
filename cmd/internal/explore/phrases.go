package explore

import (
	"fmt"
	"strconv"
	"strings"
)

// The phrases of the suite (package steps) a reproducer is written in, in
// one place: every line of a reproducer comes from a function here, and
// TestPhrasesAreRegisteredSteps holds each to the step it means, by its
// sample.

func q(s string) string { return strconv.Quote(s) }

// Gherkin arguments: a quoted argument undoes \" and \\ (steps/match).
func arg(s string) string { return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"` }

func pNotAuthenticated() string { return "Given I am not authenticated" }
func pAccountUsingAPIKey(a string) string {
	return fmt.Sprintf("Given I am account %q using the api-key header", a)
}
func pLogInAsAccount(a string) string { return fmt.Sprintf("When I log in as account %q", a) }

// pAccountNearMiss: the account's own secret of a scheme, changed by one
// character as the suite changes it.
func pAccountNearMiss(a, scheme, change string) string {
	place := map[string]string{"api-key": "api-key header", "session-token": "session-token header", "session-query": "sessionToken query"}[scheme]
	return fmt.Sprintf("Given I am account %q using the %s with %s", a, place, change)
}
func pLogInWith(email, password string) string {
	return fmt.Sprintf("When I log in with email %s and password %s", arg(email), arg(password))
}
func pRemember(path, name string) string {
	return fmt.Sprintf("And I remember the JSON at %s as %s", arg(path), arg(name))
}

// pHeader and pQuery: the value is taken as written, to the line's end.
func pHeader(name, value string) string {
	return fmt.Sprintf("And the request header %s is \"%s\"", arg(name), value)
}
func pQuery(name, value string) string {
	return fmt.Sprintf("And the request query parameter %s is \"%s\"", arg(name), value)
}
func pContentType(t string) string { return "And the request content type is " + arg(t) }
func pChunked() string             { return "And the request body is sent in chunks" }
func pBody() string                { return "And the request body is:" }
func pRawBody() string             { return "And the raw request body is:" }
func pFieldOfLength(field string, n int) string {
	return fmt.Sprintf("And the request body field %s is a string of %d characters", arg(field), n)
}
func pSend(method, path string) string { return fmt.Sprintf("When I send %q to %s", method, arg(path)) }
func pSendUnder(method, path, version string) string {
	return fmt.Sprintf("When I send %q to %s under the version %s", method, arg(path), arg(version))
}
func pReadExtension(path string) string {
	return fmt.Sprintf("When I send \"GET\" to %s if the target has that read extension", arg(path))
}
func pStatus(s int) string             { return fmt.Sprintf("Then the response status is %d", s) }
func pStatusEither(a, b int) string    { return fmt.Sprintf("Then the response status is %d or %d", a, b) }
func pStatusClass() string             { return "Then the response status is 4xx" }
func pStatus200Or4xxNot401() string    { return "Then the response status is 200 or 4xx but not 401" }
func pStatus4xxNot401() string         { return "Then the response status is 4xx but not 401" }
func pIsJSON() string                  { return "Then the response is JSON" }
func pMatchesShape(name string) string { return "Then the response matches the shape " + arg(name) }

// pJSONIs: json is a JSON value, written as JSON (not a quoted argument).
func pJSONIs(path, json string) string {
	return fmt.Sprintf("Then the JSON at %s is %s", arg(path), json)
}
func pJSONIsType(path, typ string) string {
	article := "a"
	if typ == "object" || typ == "array" {
		article = "an"
	}
	return fmt.Sprintf("Then the JSON at %s is %s %s", arg(path), article, typ)
}
func pJSONIsNull(path string) string { return fmt.Sprintf("Then the JSON at %s is null", arg(path)) }
func pJSONAbsent(path string) string { return fmt.Sprintf("Then the JSON at %s is absent", arg(path)) }
func pJSONPresent(path string) string {
	return fmt.Sprintf("Then the JSON at %s is present", arg(path))
}
func pJSONDiffers(path, json string) string {
	return fmt.Sprintf("Then the JSON at %s differs from %s", arg(path), json)
}
func pJSONMatches(path, re string) string {
	return fmt.Sprintf("Then the JSON at %s matches the pattern %s", arg(path), arg(re))
}
func pSameInstant(path, date string) string {
	return fmt.Sprintf("Then the JSON at %s names the same instant as %s", arg(path), arg(date))
}
func pWithinSkew(path string) string {
	return fmt.Sprintf("Then the JSON at %s names an instant within the clock skew of now", arg(path))
}
func pNoEarlier(path, date string) string {
	return fmt.Sprintf("Then the JSON at %s names an instant no earlier than %s", arg(path), arg(date))
}
func pLogInAfterASecond(a string) string {
	return fmt.Sprintf("When I log in as account %q after the server's clock has moved on a second", a)
}
func pNoPassword(pw string) string { return "Then the response does not carry the password " + arg(pw) }
func pNoText(text string) string   { return "Then the response does not carry the text " + arg(text) }
func pNamesField(f string) string  { return "Then the errors name the field " + arg(f) }
func pNamesOnly(fields []string) string {
	qs := make([]string, len(fields))
	for i, f := range fields {
		qs[i] = arg(f)
	}
	if len(qs) == 1 {
		return "And the errors name only the field " + qs[0]
	}
	return "And the errors name only the fields " + strings.Join(qs[:len(qs)-1], ", ") + " and " + qs[len(qs)-1]
}
func pIncludesCode(code, f string) string {
	return fmt.Sprintf("Then the errors include the code %s for the field %s", arg(code), arg(f))
}

// pOneOf is "the response is one of" with a row per status: the first
// line is the step's, the others the rows of its table.
func pOneOf(statuses []int) []string {
	lines := []string{"Then the response is one of:", "| status | shape |"}
	for _, s := range statuses {
		lines = append(lines, fmt.Sprintf("| %d | |", s))
	}
	return lines
}

// and is a phrase said with And, after another about the same answer.
func and(phrase string) string { return "And" + strings.TrimPrefix(phrase, "Then") }
