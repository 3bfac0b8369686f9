// Package report writes what the commands found, for people and for CI:
// the console's summary lines, the JUnit XML and the self-contained HTML
// report of a run of the suite (pricing-contract), of its gate's
// exploration, and of a replay, and the files themselves (file.go: mode
// 0600, no symbolic link followed, no unrelated file overwritten). The
// commands (cmd/internal/contract, explore, replay, discover) fill a Report
// and write it here; none imports another for it.
package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/steps"
)

// Status of a scenario or a step in the reports. They are godog's words,
// plus NotRun for what the run never reached (stopped early, interrupted, or
// after a failure under --godog.stop-on-failure).
const (
	Passed    = "passed"
	Failed    = "failed"
	Skipped   = "skipped"
	Undefined = "undefined"
	Pending   = "pending"
	NotRun    = "not run"
)

// statuses are the statuses in the order the summaries show them.
var statuses = []string{Passed, Failed, Undefined, Pending, Skipped, NotRun}

// Report is one run as the JUnit and HTML reports show it: names resolved,
// features and scenarios in file order.
type Report struct {
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
	// not run for want of its value (steps.MissingSummary).
	Missing  []string
	Features []Feature
	// Exploration is what --explore did; nil when it did not run.
	Exploration *Exploration
	// Replay is a replay's figures (replay.go); nil for a run of the
	// suite.
	Replay   *ReplayFigures
	Coverage steps.Coverage
	Trace    []TraceRow
	TraceErr string // the traceability file could not be read
}

// Feature is one feature file of a run.
type Feature struct {
	Name, URI string
	Counts    map[string]int
	Scenarios []Scenario
}

// Scenario is one scenario (or an outline's row) of a run.
type Scenario struct {
	ID, Name, Status, URI string
	Written               string // the name in the feature file, which traceability.tsv uses
	Line                  int64
	Tags                  []string
	Steps                 []Step
	Err                   string
	Reason                string // why a skipped scenario was not run
	Duration              time.Duration
}

// Step is one step of a scenario.
type Step struct {
	Keyword, Text, Arg, Status, Err, Reason string
}

// TraceRow is one rule of the spec with the scenarios of this run that
// check it.
type TraceRow struct {
	Section, Rule string
	Scenarios     []Scenario
	Untested      string // why no scenario asserts the rule, when none does
	Result        string // passed, failed, not run (no scenario of the run checks it) or no scenario
}

// TraceUntested is the result of a rule that no scenario asserts.
const TraceUntested = "no scenario"

// AddTrace lists each rule of rules with the scenarios of the report that
// assert it (those its line names that carry its section's tag) and their
// result.
func (r *Report) AddTrace(rules []fixtures.Rule) {
	var all []Scenario
	for _, f := range r.Features {
		all = append(all, f.Scenarios...)
	}
	for _, ru := range rules {
		row := TraceRow{Section: ru.Section, Rule: ru.Text, Untested: ru.Untested}
		for _, s := range all {
			// An outline's rows that lack the section tag assert another rule.
			if ru.Names(s.URI, s.Written) && hasTag(s.Tags, ru.Tag()) {
				row.Scenarios = append(row.Scenarios, s)
			}
		}
		row.Result = traceResult(row.Scenarios)
		if ru.Untested != "" {
			row.Result = TraceUntested
		}
		r.Trace = append(r.Trace, row)
	}
}

func hasTag(tags []string, tag string) bool {
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// traceResult: failed when a scenario of the rule failed (or was undefined
// or pending), passed when all passed, else not run.
func traceResult(scenarios []Scenario) string {
	result := NotRun
	for _, s := range scenarios {
		switch s.Status {
		case Failed, Undefined, Pending:
			return Failed
		case Passed:
			result = Passed
		}
	}
	return result
}

// FirstLine is the first non-empty line of s, cut to n characters.
func FirstLine(s string, n int) string {
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
func (r *Report) CountsText() string { return CountsText(r.Counts) }

// DurationText is the run's wall time, for the page.
func (r *Report) DurationText() string { return r.Duration.Round(time.Millisecond).String() }

// Location is a scenario's file and line, as the console and the reports
// name it.
func Location(s Scenario) string {
	uri, _, _ := strings.Cut(s.URI, ":")
	if s.Line == 0 {
		return uri
	}
	return fmt.Sprintf("%s:%d", uri, s.Line)
}

// CountsText is "170 passed, 4 failed": the statuses that occurred, in a
// fixed order.
func CountsText(counts map[string]int) string {
	var parts []string
	for _, s := range statuses {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Plural is one or many, by n.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
