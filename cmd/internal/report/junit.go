package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cucumber/godog"
)

// The JUnit XML of a run, as CI servers read it (Jenkins, GitLab, GitHub
// test reporters): one testsuite per feature, one testcase per scenario
// with the feature as its classname, a one-line message attribute and the
// whole failure, the failing request as curl included, in the element body.
type junitSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	junitCounts
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	junitCounts
	Timestamp string      `xml:"timestamp,attr,omitempty"`
	Cases     []junitCase `xml:"testcase"`
}

// junitCounts are the attributes the run and each of its suites carry
// alike: a name, the counts of their cases and their time.
type junitCounts struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Status    string        `xml:"status,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	Skipped   *junitProblem `xml:"skipped"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// messageLimit keeps the message attribute to what a CI summary line shows.
const messageLimit = 200

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func (r *Report) junit() junitSuites {
	out := junitSuites{junitCounts: junitCounts{Name: "pricing-contract", Time: seconds(r.Duration)}}
	if r.Preflight {
		// No scenario ran: one case says why, so that a CI dashboard that
		// reads only JUnit shows it.
		out.Suites = []junitSuite{{junitCounts: junitCounts{Name: "preflight", Tests: 1, Errors: 1, Time: "0.000"}, Cases: []junitCase{{
			Name: "the target and the profile are usable", Classname: "preflight", Time: "0.000", Status: "error",
			Error: &junitProblem{Message: FirstLine(r.Stopped, messageLimit), Type: "preflight", Text: strings.TrimSpace(r.Stopped + "\n\n" + r.StoppedDetail)},
		}}}}
		out.Tests, out.Errors = 1, 1
		return out
	}
	for _, f := range r.Features {
		js := junitSuite{junitCounts: junitCounts{Name: f.Name}, Timestamp: r.Started.UTC().Format(time.RFC3339)}
		var total time.Duration
		for _, s := range f.Scenarios {
			c := junitCase{Name: s.Name, Classname: f.Name, Time: seconds(s.Duration), Status: s.Status}
			total += s.Duration
			switch s.Status {
			case Failed:
				c.Failure = &junitProblem{Message: failureMessage(s), Type: "failed", Text: failureText(s)}
				js.Failures++
			case Undefined, Pending:
				c.Error = &junitProblem{Message: failureMessage(s), Type: s.Status, Text: failureText(s)}
				js.Errors++
			case Skipped, NotRun:
				why := s.Reason
				switch {
				case why == "" && s.Err != "":
					why = strings.TrimPrefix(s.Err, godog.ErrSkip.Error()+": ")
				case why == "":
					why = r.Stopped
				}
				c.Skipped = &junitProblem{Message: s.Status}
				if why != "" {
					c.Skipped.Message += ": " + FirstLine(why, messageLimit)
					c.Skipped.Text = strings.TrimSpace(why)
				}
				js.Skipped++
			}
			js.Cases = append(js.Cases, c)
		}
		js.Tests, js.Time = len(js.Cases), seconds(total)
		out.Tests += js.Tests
		out.Failures += js.Failures
		out.Errors += js.Errors
		out.Skipped += js.Skipped
		out.Suites = append(out.Suites, js)
	}
	return out
}

// failingStep is the step that ended the scenario, if one did.
func failingStep(s Scenario) *Step {
	for i, st := range s.Steps {
		switch st.Status {
		case Failed, Undefined, Pending:
			return &s.Steps[i]
		}
	}
	return nil
}

func failureMessage(s Scenario) string {
	if st := failingStep(s); st != nil {
		if st.Status != Failed {
			return FirstLine(st.Status+" step: "+st.Keyword+" "+st.Text, messageLimit)
		}
		if st.Err != "" {
			return FirstLine(st.Err, messageLimit)
		}
	}
	return FirstLine(s.Err, messageLimit)
}

// failureText is the scenario as it ran, one step a line with its status,
// then the error: the failing request as curl and the response.
func failureText(s Scenario) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", s.Name, Location(s))
	for _, st := range s.Steps {
		fmt.Fprintf(&b, "  %-9s %s %s\n", "["+st.Status+"]", st.Keyword, st.Text)
	}
	text := s.Err
	if st := failingStep(s); st != nil && st.Err != "" {
		text = st.Err
		if s.Err != "" && !strings.Contains(s.Err, st.Err) {
			text += "\n\n" + s.Err // a hook failed too, e.g. the restore
		}
	}
	if text != "" {
		b.WriteString("\n" + text + "\n")
	}
	return b.String()
}

// WriteJUnit writes the report as JUnit XML.
func (r *Report) WriteJUnit(w io.Writer) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(r.junit()); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
