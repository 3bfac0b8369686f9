package contract

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/steps"
)

// report is one run as the JUnit and HTML reports show it: names resolved,
// features and scenarios in file order.
type report struct {
	Target      string
	Tags        string
	Seed        int64
	Concurrency int
	Started     time.Time
	Duration    time.Duration
	Total       int
	Counts      map[string]int
	// Stopped is why the run ended before its scenarios did (the preflight
	// failed, the target stopped answering), with the request that showed it.
	Stopped, StoppedDetail string
	Preflight              bool // the preflight failed: no scenario ran
	// Missing says, one line per profile key, how many scenarios were
	// not run for want of its value (missingSummary).
	Missing  []string
	Features []reportFeature
	// Exploration is what --explore did; nil when it did not run.
	Exploration *exploration
	// Replay is a replay's figures (replay.go); nil for a run of the
	// suite.
	Replay   *replayFigures
	Coverage steps.Coverage
	Trace    []traceRow
	TraceErr string // the traceability file could not be read
}

type reportFeature struct {
	Name, URI string
	Counts    map[string]int
	Scenarios []reportScenario
}

type reportScenario struct {
	ID, Name, Status, URI string
	Written               string // the name in the feature file, which traceability.tsv uses
	Line                  int64
	Tags                  []string
	Steps                 []reportStep
	Err                   string
	Reason                string // why a skipped scenario was not run
	Duration              time.Duration
}

type reportStep struct {
	Keyword, Text, Arg, Status, Err, Reason string
}

// traceRow is one rule of the spec with the scenarios of this run that
// check it.
type traceRow struct {
	Section, Rule string
	Scenarios     []reportScenario
	Untested      string // why no scenario asserts the rule, when none does
	Result        string // passed, failed, not run (no scenario of the run checks it) or no scenario
}

// traceUntested is the result of a rule that no scenario asserts.
const traceUntested = "no scenario"

func (c *runConfig) newReport(suite *steps.Suite, stopped error) *report {
	counts, total, elapsed := c.record.summary()
	rep := &report{
		Target:      c.profile.BaseURL,
		Tags:        c.godog.Tags,
		Seed:        c.godog.Randomize,
		Concurrency: c.godog.Concurrency,
		Started:     c.record.started,
		Duration:    elapsed,
		Total:       total,
		Counts:      counts,
		Coverage:    suite.Coverage(),
		Missing:     steps.MissingSummary(c.record.skipReasons()),
	}
	if rep.Started.IsZero() {
		rep.Started = time.Now()
	}
	var unusable *steps.UnusableError
	if errors.As(stopped, &unusable) {
		rep.Stopped, rep.StoppedDetail, rep.Preflight = unusable.Reason, unusable.Detail, true
	} else if stopped != nil {
		rep.Stopped = stopped.Error()
	}
	var all []reportScenario
	for _, f := range c.record.features {
		rf := reportFeature{Name: f.Name, URI: f.URI, Counts: map[string]int{}}
		for _, s := range f.Scenarios {
			rs := reportScenario{
				ID: s.ID, Name: suite.ResolveName(s.Name, s.Pair), Written: s.Written, Status: s.Status, URI: f.URI, Line: s.Line,
				Tags: s.Tags, Err: s.Err, Reason: s.Reason, Duration: s.Duration,
			}
			for _, st := range s.Steps {
				rs.Steps = append(rs.Steps, reportStep{Keyword: st.Keyword, Text: st.Text, Arg: st.Arg, Status: st.Status, Err: st.Err, Reason: st.Reason})
			}
			rf.Counts[s.Status]++
			rf.Scenarios = append(rf.Scenarios, rs)
			all = append(all, rs)
		}
		rep.Features = append(rep.Features, rf)
	}
	rules, err := c.traceRules()
	if err != nil {
		rep.TraceErr = err.Error()
	}
	for _, ru := range rules {
		row := traceRow{Section: ru.Section, Rule: ru.Text, Untested: ru.Untested}
		for _, s := range all {
			// An outline's rows that lack the section tag assert another rule.
			if ru.Names(s.URI, s.Written) && slices.Contains(s.Tags, ru.Tag()) {
				row.Scenarios = append(row.Scenarios, s)
			}
		}
		row.Result = traceResult(row.Scenarios)
		if ru.Untested != "" {
			row.Result = traceUntested
		}
		rep.Trace = append(rep.Trace, row)
	}
	return rep
}

// traceRules are the rules of --traceability FILE, read when the command
// line was parsed, or else of the embedded fixtures/traceability.tsv.
func (c *runConfig) traceRules() ([]fixtures.Rule, error) {
	if c.traceability != "" {
		return c.trace, nil
	}
	return fixtures.Traceability()
}

// traceResult: failed when a scenario of the rule failed (or was undefined
// or pending), passed when all passed, else not run.
func traceResult(scenarios []reportScenario) string {
	result := statusNotRun
	for _, s := range scenarios {
		switch s.Status {
		case statusFailed, statusUndefined, statusPending:
			return statusFailed
		case statusPassed:
			result = statusPassed
		}
	}
	return result
}

// notRun counts the selected scenarios that never ran.
func (r *runRecord) notRun() int {
	counts, _, _ := r.summary()
	return counts[statusNotRun]
}

// firstLine is the first non-empty line of s, cut to n characters.
func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > n {
				l = l[:n] + "…"
			}
			return l
		}
	}
	return ""
}

// CountsText is "170 passed, 4 failed", for the page.
func (r *report) CountsText() string { return countsText(r.Counts) }

// DurationText is the run's wall time, for the page.
func (r *report) DurationText() string { return r.Duration.Round(time.Millisecond).String() }

func scenarioLocation(s reportScenario) string {
	uri, _, _ := strings.Cut(s.URI, ":")
	if s.Line == 0 {
		return uri
	}
	return fmt.Sprintf("%s:%d", uri, s.Line)
}
