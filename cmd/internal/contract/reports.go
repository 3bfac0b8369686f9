package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/report"
	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/steps"
)

// The run's record as the reports show it (package report writes them).

// newReport is the run as the reports show it: names resolved, features
// and scenarios in file order, the traceability of the spec's rules.
func (c *runConfig) newReport(suite *steps.Suite, stopped error) *report.Report {
	counts, total, elapsed := c.record.summary()
	rep := &report.Report{
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
	c.record.mu.Lock()
	for _, f := range c.record.features {
		rf := report.Feature{Name: f.Name, URI: f.URI, Counts: map[string]int{}}
		for _, s := range f.Scenarios {
			rs := reportScenario(s, suite)
			rf.Counts[s.Status]++
			rf.Scenarios = append(rf.Scenarios, rs)
		}
		rep.Features = append(rep.Features, rf)
	}
	c.record.mu.Unlock()
	rules, err := c.traceRules()
	if err != nil {
		rep.TraceErr = err.Error()
	}
	rep.AddTrace(rules)
	return rep
}

// reportScenario is s as the reports show it, its name resolved.
func reportScenario(s *scenarioRecord, suite *steps.Suite) report.Scenario {
	rs := report.Scenario{
		ID: s.ID, Name: suite.ResolveName(s.Name, s.Pair), Written: s.Written, Status: s.Status, URI: s.URI, Line: s.Line,
		Tags: s.Tags, Err: s.Err, Reason: s.Reason, Duration: s.Duration,
	}
	for _, st := range s.Steps {
		rs.Steps = append(rs.Steps, report.Step{Keyword: st.Keyword, Text: st.Text, Arg: st.Arg, Status: st.Status, Err: st.Err, Reason: st.Reason})
	}
	return rs
}

// traceRules are the rules of --traceability FILE, read when the command
// line was parsed, or else of the embedded fixtures/traceability.tsv.
func (c *runConfig) traceRules() ([]fixtures.Rule, error) {
	if c.traceability != "" {
		return c.trace, nil
	}
	return fixtures.Traceability()
}

// notRun counts the selected scenarios that never ran.
func (r *runRecord) notRun() int {
	counts, _, _ := r.summary()
	return counts[statusNotRun]
}

// outputs are the files a run writes, checked before it starts so that a
// bad path fails in a second, not after the run, and written at its end.
type outputs struct {
	coverage, report *report.Output
	junit            []*report.Output // nil: stdout
	stdout           io.Writer
}

func (c *runConfig) checkOutputs(stdout io.Writer) (*outputs, error) {
	o := &outputs{stdout: stdout}
	out := func(flagName, path string, kind report.Kind) (*report.Output, error) {
		f := &report.Output{Path: path, Kind: kind, Force: c.force}
		if err := f.Check(); err != nil {
			return nil, fmt.Errorf("%s: %v", flagName, err)
		}
		return f, nil
	}
	var err error
	if c.coverage != "" {
		if o.coverage, err = out("--coverage", c.coverage, report.CoverageJSON); err != nil {
			return nil, err
		}
	}
	if c.report != "" {
		if o.report, err = out("--report", c.report, report.HTMLReport); err != nil {
			return nil, err
		}
	}
	for _, path := range c.junit {
		if path == "" {
			o.junit = append(o.junit, nil)
			continue
		}
		f, err := out("--godog.format junit", path, report.JUnitReport)
		if err != nil {
			return nil, err
		}
		o.junit = append(o.junit, f)
	}
	return o, nil
}

// writeReports writes the coverage JSON, the JUnit and the HTML reports
// that were asked for.
func (c *runConfig) writeReports(out *outputs, suite *steps.Suite, stopped error) error {
	rep := c.newReport(suite, stopped)
	rep.Exploration = c.gate.figures()
	var errs []error
	if out.coverage != nil {
		if err := out.coverage.Write(func(w io.Writer) error { return writeCoverageJSON(w, rep.Coverage) }); err != nil {
			errs = append(errs, fmt.Errorf("--coverage: %w", err))
		}
	}
	for _, f := range out.junit {
		var err error
		if f == nil {
			err = rep.WriteJUnit(out.stdout)
		} else {
			err = f.Write(rep.WriteJUnit)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("--godog.format junit: %w", err))
		}
	}
	if out.report != nil {
		if err := out.report.Write(rep.WriteHTML); err != nil {
			errs = append(errs, fmt.Errorf("--report: %w", err))
		}
	}
	return errors.Join(errs...)
}

func writeCoverageJSON(w io.Writer, cov steps.Coverage) error {
	b, err := json.MarshalIndent(cov, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
