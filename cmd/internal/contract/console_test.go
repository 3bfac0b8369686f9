package contract

import (
	"bytes"
	"strings"
	"testing"
)

// The console of a run: godog's writer without colours writes a rune at a
// time; the run's counts replace godog's, a step line loses the location of
// the Go function every phrase is registered through, and a scenario name
// names the accounts' ids, as the reports do.
func TestConsoleRewritesGodogLines(t *testing.T) {
	r := newRunRecord()
	r.scenarios = map[string]*scenarioRecord{}
	for i, st := range []string{statusPassed, statusPassed, statusSkipped, statusNotRun} {
		sr := &scenarioRecord{ID: string(rune('a' + i)), Status: st}
		r.scenarios[sr.ID] = sr
	}
	r.features = []*featureRecord{{URI: "x.feature"}}
	for _, sr := range r.scenarios {
		r.features[0].Scenarios = append(r.features[0].Scenarios, sr)
	}
	var out bytes.Buffer
	c := &countsWriter{w: &out, record: r, resolve: func(s string) string { return strings.ReplaceAll(s, "{{A.userId}}", "1101") }}
	in := "...F-- 6\n" +
		"    Then the response status is 200                 # suite.go:224 -> github.com/x/steps.assertSteps.theResponseStatusIs-fm\n" +
		"  Scenario Outline: PUT /users/{{A.userId}} accepts the api-key header # auth.feature:12\n" +
		"\n" +
		"4 scenarios (4 passed)\n" +
		"12 steps (9 passed, 3 skipped)\n"
	for _, r := range in {
		if _, err := c.Write([]byte(string(r))); err != nil {
			t.Fatal(err)
		}
		if r == '.' && !strings.HasPrefix(out.String(), ".") {
			t.Fatalf("a progress dot was held: %q", out.String())
		}
	}
	c.flush()
	want := "...F-- 6\n" +
		"    Then the response status is 200\n" +
		"  Scenario Outline: PUT /users/1101 accepts the api-key header # auth.feature:12\n" +
		"\n" +
		"4 scenarios (2 passed, 1 skipped, 1 not run)\n" +
		"12 steps (9 passed, 3 skipped)\n"
	if out.String() != want {
		t.Errorf("console:\n%s\nwant:\n%s", out.String(), want)
	}
}
