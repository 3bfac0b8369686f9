package explore

import (
	"fmt"
	"strings"
)

// feature writes the sequence as a scenario in the suite's phrases: each
// operation as the suite would send it, the last one asserting the
// reference's answer, so that the file fails against the target that
// diverged and passes against a correct one (pricing-contract --features
// DIR --godog.paths FILE).
func (s *sequence) feature() string {
	var b strings.Builder
	b.WriteString("# Written by pricing-contract explore: the shortest sequence it found that diverges from the reference.\n")
	b.WriteString("@s5 @s7.1 @s7.2 @s7.3 @put-users @put-clients @mutates-A @mutates-B\n")
	b.WriteString("Feature: a divergence found by pricing-contract explore\n\n")
	fmt.Fprintf(&b, "  Scenario: %s\n", strings.ReplaceAll(s.reason, "\n", " "))
	for i, o := range s.ops {
		writeOp(&b, o, nameOr(o.name, s.first[o.res+" "+o.actor]))
		if i < len(s.ops)-1 {
			continue
		}
		if s.stateAcct != "" {
			res, acct, _ := strings.Cut(s.stateAcct, " ")
			path, field := "/users/{{"+acct+".userId}}", "firstName"
			if res == "clients" {
				path, field = "/clients/{{"+acct+".clientId}}", "name"
			}
			fmt.Fprintf(&b, "    Given I am account %q using the api-key header\n", acct)
			fmt.Fprintf(&b, "    When I send \"GET\" to %q if the target has that read extension\n", path)
			b.WriteString("    Then the response status is 200\n")
			fmt.Fprintf(&b, "    And the JSON at %q is %q\n", field, s.stateFirst)
			continue
		}
		switch {
		case len(s.want.allowed) == 1 && s.want.allowed[0] == 400:
			for _, f := range s.want.fields {
				fmt.Fprintf(&b, "    Then the errors name the field %q\n", f)
			}
			if len(s.want.fields) == 1 {
				fmt.Fprintf(&b, "    And the errors name only the field %q\n", s.want.fields[0])
			}
		case len(s.want.allowed) == 1:
			fmt.Fprintf(&b, "    Then the response status is %d\n", s.want.allowed[0])
		case len(s.want.allowed) == 2:
			fmt.Fprintf(&b, "    Then the response status is %d or %d\n", s.want.allowed[0], s.want.allowed[1])
		default:
			b.WriteString("    Then the response status is 4xx\n")
		}
	}
	return b.String()
}

// writeOp writes one operation's Given and When steps.
func writeOp(b *strings.Builder, o op, first string) {
	other := "B"
	if o.actor == "B" {
		other = "A"
	}
	switch o.cred {
	case "api-key":
		fmt.Fprintf(b, "    Given I am account %q using the api-key header\n", o.actor)
	case "session-token":
		fmt.Fprintf(b, "    Given I am account %q using the session-token header\n", o.actor)
	case "session-query":
		fmt.Fprintf(b, "    Given I am account %q using the sessionToken query\n", o.actor)
	case "none":
		b.WriteString("    Given I am not authenticated\n")
	case "wrong-key":
		b.WriteString("    Given I am not authenticated\n")
		b.WriteString("    And the request header \"Authorization\" is \"api-key contract-explore-no-such-key\"\n")
	case "token-as-api-key":
		fmt.Fprintf(b, "    When I log in as account %q\n", o.actor)
		b.WriteString("    And I remember the JSON at \"token\" as \"token\"\n")
		b.WriteString("    Given I am not authenticated\n")
		b.WriteString("    And the request header \"Authorization\" is \"api-key {{token}}\"\n")
	case "key-as-session-token":
		b.WriteString("    Given I am not authenticated\n")
		fmt.Fprintf(b, "    And the request header \"session-token\" is \"{{%s.apiKey}}\"\n", o.actor)
	case "key-as-session-query":
		b.WriteString("    Given I am not authenticated\n")
		fmt.Fprintf(b, "    And the request query parameter \"sessionToken\" is \"{{%s.apiKey}}\"\n", o.actor)
	}
	if o.res == "clients" {
		writeClientBody(b, o, first, other)
		return
	}
	b.WriteString("    And the request body is the template \"user\"\n")
	fmt.Fprintf(b, "    And the request body field \"email\" is \"{{%s.email}}\"\n", o.actor)
	name := first
	if strings.HasPrefix(o.body, "rename") {
		name = o.rename
	}
	fmt.Fprintf(b, "    And the request body field \"firstName\" is %q\n", name)
	switch o.body {
	case "firstName-empty":
		b.WriteString("    And the request body field \"firstName\" is \"\"\n")
	case "lastName-empty":
		b.WriteString("    And the request body field \"lastName\" is \"\"\n")
	case "email-invalid", "rename-email-invalid":
		b.WriteString("    And the request body field \"email\" is \"not-an-email\"\n")
	case "password-short":
		b.WriteString("    And the request body field \"password\" is \"abcde\"\n")
	case "lastName-256":
		b.WriteString("    And the request body field \"lastName\" is a string of 256 characters\n")
	}
	path := map[string]string{
		"own": "/users/{{" + o.actor + ".userId}}", "other": "/users/{{" + other + ".userId}}",
		"unknown": "/users/999999999", "malformed": "/users/abc",
	}[o.path]
	fmt.Fprintf(b, "    When I send \"PUT\" to %q\n", path)
}

// writeClientBody writes the body and the send of a PUT /clients.
func writeClientBody(b *strings.Builder, o op, name, other string) {
	b.WriteString("    And the request body is the template \"client\"\n")
	if strings.HasPrefix(o.body, "rename") {
		name = o.rename
	}
	switch o.body {
	case "name-empty":
		name = ""
	}
	if o.body == "name-256" {
		b.WriteString("    And the request body field \"name\" is a string of 256 characters\n")
	} else {
		fmt.Fprintf(b, "    And the request body field \"name\" is %q\n", name)
	}
	if o.body == "rename-terms-wrong" {
		b.WriteString("    And the request body field \"terms\" is \"no\"\n")
	}
	path := map[string]string{
		"own": "/clients/{{" + o.actor + ".clientId}}", "other": "/clients/{{" + other + ".clientId}}",
		"unknown": "/clients/999999999", "malformed": "/clients/abc",
	}[o.path]
	fmt.Fprintf(b, "    When I send \"PUT\" to %q\n", path)
}
