package main

import (
	"encoding/xml"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// undiscoverable are the profile keys whose values no answer of the spec
// shows without creating something: a marketplace hash (no endpoint lists
// marketplace apps), the codes of currencies (a client answer) and the
// kinds of plans (an app answer). Init writes them as TODO on a target
// without read extensions that show them; the scenarios that need them
// are then skipped, and only those.
var undiscoverable = map[string]bool{"marketapp_hash": true, "currencies": true, "plans": true}

// TestLineagesFromFirstContact proves the gate on correct servers that were
// not made from the mock (catalogue.Lineages): each is given to
// init with only its base URL and two accounts, as a QA engineer meets a
// new staging server, and the suite runs with the profile init wrote. No
// scenario may fail; a scenario may be skipped only for a value no answer
// of the spec shows, a read extension the target does not have, or a
// choice of the spec's the target made otherwise (it serves v1 only), or the
// target's bound on what an account keeps (target.CreateBound). Then
// the values its documentation gives (Lineage.Known) make every scenario
// run but those of missing read extensions.
//
// -short runs the newest lineage only (the suite twice per lineage is most
// of this package's time); go test without it and CI's catalogue run all.
func TestLineagesFromFirstContact(t *testing.T) {
	var correct []variants.Server
	for _, s := range catalogue.Lineages() {
		if s.Legal && s.Lineage.Fault == "" {
			correct = append(correct, s)
		}
	}
	if testing.Short() {
		correct = correct[len(correct)-1:]
	}
	for _, s := range correct {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			for _, known := range []bool{false, true} {
				// A server of its own for each contact: what the first
				// run made would count against the second's bound on
				// what an account keeps (shards keeps 20 clients a user).
				l := mocktarget.MustStartLineage(t, s, 1, false)
				env := maps.Clone(l.Env)
				if known {
					for k, v := range s.Lineage.Known {
						f, _ := target.Lookup(k)
						env[f.Env] = v
					}
				}
				junit := filepath.Join(t.TempDir(), "report.xml")
				r := runMain(env, "--profile", l.ProfilePath, "--godog.concurrency", "4", "--godog.format", "progress,junit:"+junit)
				if !known && r.code == 3 && profileErrorsName(r.stderr, s.Lineage.Known) {
					// A value init could not find, refused by the target:
					// the run names the key to fix, one the target's
					// documentation gives.
					t.Logf("values it documents given: false: exit 3 naming only keys its documentation gives (%v)", slices.Sorted(maps.Keys(s.Lineage.Known)))
					continue
				}
				if r.code != 0 {
					t.Fatalf("the suite with the profile init wrote (values it documents given: %v): want exit 0, got %s\n--- profile:\n%s", known, r, l.InitProfile)
				}
				ran, skipped := 0, map[string]int{}
				for _, tc := range readJUnit(t, junit) {
					if tc.Skipped == nil {
						ran++
						continue
					}
					why := skipCause(tc.Skipped.Message)
					skipped[why]++
					switch {
					case why == "read extension", why == "bound", strings.HasPrefix(why, "the other choice of "):
					case undiscoverable[why] && !known:
					default:
						t.Errorf("%q was skipped (%s): %s", tc.Name, why, tc.Skipped.Message)
					}
				}
				t.Logf("values it documents given: %v: %d scenarios passed, skipped: %v", known, ran, skipped)
			}
		})
	}
}

// profileErrorsName reports whether a run that stopped on values of the
// profile the target refused names keys of known alone, one at least.
func profileErrorsName(stderr string, known map[string]string) bool {
	_, list, ok := strings.Cut(stderr, "every failure is a value of the profile the target refused")
	if !ok {
		return false
	}
	keys := regexp.MustCompile(`\(PRICING_\w+, (\w+)[;:)]`).FindAllStringSubmatch(list, -1)
	for _, k := range keys {
		if _, ok := known[k[1]]; !ok {
			return false
		}
	}
	return len(keys) > 0
}

// skipCause is the profile key a skipped scenario wanted, or "read
// extension" for a read the target does not have, "the other choice of
// KEY" for a scenario of a choice the profile says the target did not make.
func skipCause(message string) string {
	if m := regexp.MustCompile(`which the profile does not give: set \w+ \((\w+)\)`).FindStringSubmatch(message); m != nil {
		return m[1]
	}
	if strings.Contains(message, "is a read extension the spec does not have") {
		return "read extension"
	}
	if strings.Contains(message, "a server may bound what an account keeps") {
		return "bound"
	}
	if m := regexp.MustCompile(`needs the profile's (\w+) to`).FindStringSubmatch(message); m != nil {
		return "the other choice of " + m[1]
	}
	return message
}

type junitCase struct {
	Name    string `xml:"name,attr"`
	Skipped *struct {
		Message string `xml:"message,attr"`
	} `xml:"skipped"`
}

func readJUnit(t *testing.T, path string) []junitCase {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Cases []junitCase `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []junitCase
	for _, s := range doc.Suites {
		out = append(out, s.Cases...)
	}
	return out
}
