package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// feature writes the sequence as a scenario in the suite's phrases: each
// step as the suite would send it, then what the reference answers where
// the target diverged, so that the file fails against that target and
// passes against a correct one (pricing-contract --features DIR
// --godog.paths FILE).
func (s *sequence) feature() string {
	tags := []string{"@s5", "@s7.1", "@s7.2", "@s7.3", "@mutates-A", "@mutates-B"}
	for _, st := range s.steps {
		tag := map[string]string{opPutUser: "@put-users", opPutClient: "@put-clients", opPostClient: "@post-clients",
			opPostApp: "@post-apps", opLogin: "@post-sessions", opPlatforms: "@get-platforms"}[st.op]
		if !slices.Contains(tags, tag) {
			tags = append(tags, tag)
		}
	}
	if s.div.read != "" && !slices.Contains(tags, "@get-extensions") {
		tags = append(tags, "@get-extensions")
	}
	var body []string
	if t := s.div.taught; t != nil && !strings.Contains(t.gpath, "{{step") {
		// From another sequence: its session is any of the account's.
		taught := *t
		taught.tokVar = "token" + taught.actor + "0"
		body = append(body, stepLines(taught)...)
		body = append(body, "Then the response status is 200", fmt.Sprintf("And I remember the JSON at %q as \"taught\"", s.div.taughtPath))
	}
	last := len(s.steps) - 1
	for i, st := range s.steps {
		body = append(body, stepLines(st)...)
		body = append(body, fmt.Sprintf("@@remember %d@@", i))
		if i == last {
			if s.div.read != "" {
				body = append(body,
					fmt.Sprintf("Given I am account %q using the api-key header", s.div.readAs),
					fmt.Sprintf("When I send \"GET\" to %q if the target has that read extension", s.div.read),
					"Then the response status is 200")
			}
			body = append(body, s.div.then...)
		}
	}
	// Remember, after the step that answered it, each value a later line
	// names as {{stepN.field}}.
	wanted := map[int][]string{}
	for _, l := range body {
		for _, m := range rememberRE.FindAllStringSubmatch(l, -1) {
			var n int
			fmt.Sscan(m[1], &n)
			if !slices.Contains(wanted[n-1], m[2]) {
				wanted[n-1] = append(wanted[n-1], m[2])
			}
		}
	}
	var b strings.Builder
	b.WriteString("# Written by pricing-contract explore: the shortest sequence it found that diverges from the reference.\n")
	b.WriteString(strings.Join(tags, " ") + "\n")
	b.WriteString("Feature: a divergence found by pricing-contract explore\n\n")
	fmt.Fprintf(&b, "  Scenario: %s\n", strings.ReplaceAll(s.reason, "\n", " "))
	// The sessions each account had when the sequence began, opened in
	// the explorer's order.
	if text := strings.Join(body, "\n"); strings.Contains(text, "{{tokenA0}}") || strings.Contains(text, "{{tokenB0}}") {
		for _, acct := range []string{"A", "B"} {
			fmt.Fprintf(&b, "    When I log in as account %q\n", acct)
			fmt.Fprintf(&b, "    And I remember the JSON at \"token\" as \"token%s0\"\n", acct)
		}
	}
	for _, l := range body {
		for value, placeholder := range s.subst {
			if len(value) >= 6 {
				l = strings.ReplaceAll(l, strconv.Quote(value), `"`+placeholder+`"`)
			}
		}
		var n int
		if _, err := fmt.Sscanf(l, "@@remember %d@@", &n); err == nil {
			for _, f := range wanted[n] {
				fmt.Fprintf(&b, "    And I remember the JSON at %q as %q\n", strings.ReplaceAll(f, "_", "."), fmt.Sprintf("step%d.%s", n+1, f))
			}
			continue
		}
		if l == `"""` || strings.HasPrefix(l, "|") {
			b.WriteString("      " + strings.TrimPrefix(l, "|") + "\n")
			continue
		}
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

var rememberRE = regexp.MustCompile(`\{\{step(\d+)\.(\w+)\}\}`)

// stepLines are the Given and When lines of one step.
func stepLines(st step) []string {
	var l []string
	a := st.actor
	l = append(l, "Given I am not authenticated")
	if c, ok := credPlaces[st.cred]; ok {
		where := "header"
		if c.query {
			where = "query parameter"
		}
		value := c.with("{{"+a+".apiKey}}", "{{"+st.tokVar+"}}")
		l = append(l, fmt.Sprintf("And the request %s %q is %q", where, c.name, value))
	}
	if st.op == opLogin {
		return append(l, fmt.Sprintf("When I log in with email %q and password %q", st.login[0], st.login[1]))
	}
	switch {
	case st.op == opPlatforms:
	case st.raw != nil && *st.raw == "":
	case st.raw != nil:
		l = append(l, "And the raw request body is:", `"""`, "|"+*st.raw, `"""`)
	default:
		pad := st.pad
		st.pad = 0
		l = append(l, "And the request body is:", `"""`)
		var out bytes.Buffer
		_ = json.Indent(&out, []byte(st.jsonBody()), "", "  ")
		for _, line := range strings.Split(out.String(), "\n") {
			l = append(l, "|"+line)
		}
		l = append(l, `"""`)
		if pad > 0 {
			l = append(l, fmt.Sprintf("And the request body field \"contractPadding\" is a string of %d characters", pad))
		}
	}
	method := map[string]string{opPutUser: "PUT", opPutClient: "PUT", opPlatforms: "GET"}[st.op]
	if method == "" {
		method = "POST"
	}
	if st.version != "" {
		return append(l, fmt.Sprintf("When I send %q to %q under the version %q", method, st.gpath, st.version))
	}
	return append(l, fmt.Sprintf("When I send %q to %q", method, st.gpath))
}
