package steps

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/steps/target"
)

// missingValue skips a scenario that needs a profile value the target's
// profile does not give (Profile.Missing): a run against a foreign target
// never falls back on the mock's seed, it says which key to set.
type missingValue struct {
	key  string // profile-file key
	need string // what the scenario needs, for the message
}

func (m *missingValue) Error() string {
	f, _ := target.Lookup(m.key)
	return fmt.Sprintf("%v: not run: this scenario needs %s, which the profile does not give: set %s (%s)",
		godog.ErrSkip, m.need, f.Env, m.key)
}

func (m *missingValue) Unwrap() error { return godog.ErrSkip }

// profileText is the profile's value of key, or a missingValue when the
// target's profile has none.
func profileText(p Profile, key string) (string, error) {
	if p.Missing(key) {
		return "", &missingValue{key: key, need: "the profile's " + key}
	}
	return p.MustValue(key), nil
}

// missingKeyOf extracts the key of a missingValue from the text of a
// scenario's error, as the reports keep errors as text.
func missingKeyOf(errText string) (key string, ok bool) {
	_, rest, found := strings.Cut(errText, "which the profile does not give: set ")
	if !found {
		return "", false
	}
	env, _, _ := strings.Cut(rest, " ")
	for _, f := range target.Fields() {
		if f.Env == env {
			return f.Key, true
		}
	}
	return "", false
}

// missingSummary groups the skipped scenarios' errors by the profile value
// they missed: one line per key, most scenarios first, such as "12
// scenarios not run: set PRICING_CURRENCIES (currencies)". Empty when no
// scenario missed a value.
func missingSummary(errs []string) []string {
	counts := map[string]int{}
	for _, e := range errs {
		if k, ok := missingKeyOf(e); ok {
			counts[k]++
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var lines []string
	for _, k := range keys {
		f, _ := target.Lookup(k)
		lines = append(lines, fmt.Sprintf("%d %s not run: set %s (%s)%s", counts[k], plural(counts[k], "scenario", "scenarios"), f.Env, k, missingHint(k)))
	}
	return lines
}

// missingHint says what a value should hold, for the keys whose form is
// not obvious from their name.
func missingHint(key string) string {
	switch key {
	case "currencies":
		return " with two currencies of the target, id:code"
	case "plans":
		return " with two plans of the target, id:lite|pro|dynamic|none"
	case "platforms":
		return " with the two platforms of the target, id:Android,id:iOS"
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// profileErrors reads the failures' errors: when every one of them starts
// with a refused profile value (profileErrorPrefix), it returns one line
// per refused value, to fix in the profile; else none.
func profileErrors(errs []string) []string {
	seen := map[string]bool{}
	var lines []string
	for _, e := range errs {
		first, _, _ := strings.Cut(e, "\n")
		line, ok := strings.CutPrefix(first, profileErrorPrefix)
		if !ok {
			return nil
		}
		line, _, _ = strings.Cut(line, "; if that")
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	}
	sort.Strings(lines)
	return lines
}

// assume notes that the scenario relies on the profile's value of a choice
// key (target.IsChoice), so that its failure names the value it assumed.
func (st *scenarioState) assume(key string) {
	if !target.IsChoice(key) {
		return
	}
	for _, k := range st.assumed {
		if k == key {
			return
		}
	}
	st.assumed = append(st.assumed, key)
}

// assumptions are the lines a failure adds for the choices the scenario
// relied on: the value, where it came from, and what to set where the
// target chose otherwise.
func (st *scenarioState) assumptions() string {
	var b strings.Builder
	for _, key := range st.assumed {
		// Nearly every scenario makes up an address; the domain matters
		// where the answer refused one.
		if key == "email_domain" && (st.last == nil || st.last.status != http.StatusBadRequest || !strings.Contains(string(st.last.respBody), "mail")) {
			continue
		}
		f, _ := target.Lookup(key)
		v := st.suite.profile.MustValue(key)
		from := st.suite.profile.Origin(key)
		if from == "" || from == target.OriginDefault {
			from = "the default"
		}
		fmt.Fprintf(&b, "\nthis scenario assumed %s = %s (%s): %s If the target chose otherwise, set %s (%s).",
			key, v, from, target.Question(key), f.Env, key)
	}
	return b.String()
}
