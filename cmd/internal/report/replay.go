package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/steps"
)

// A replay (pricing-contract replay, cmd/internal/replay) in the suite's
// reports, as the gate's exploration is (explore.go): the recording is one
// feature and each recorded request one scenario of it: passed where it
// was sent and its answer is one the spec allows, failed where it diverged
// (its reproducer attached), skipped with why. The HTML report adds a
// Replay section with a row per recorded request, and leaves out the
// suite's coverage and traceability, which no scenario of a replay asks.

// Replay is a replay as the reports show it.
type Replay struct {
	Recording string // the file
	Format    string // journal or HAR
	Base      string // the recording's API base
	Target    string
	Started   time.Time
	Duration  time.Duration
	Wire      int64    // requests on the wire in all
	Accounts  []string // how the recording's accounts were mapped
	Notes     []string // what the reader noticed of the recording
	Requests  []ReplayRequest
}

// ReplayRequest is one recorded request after the replay.
type ReplayRequest struct {
	N       int
	Name    string // "recorded request 7, PUT /v1/users/1"
	Outcome string // matched, diverged, unconfirmed, skipped
	// Why: a skip's reason, a divergence's.
	Why string
	// Sent is the step as sent, Answer the answer and the spec's, in
	// words; Notes what the replay changed of the recorded request.
	Sent, Answer string
	Notes        []string
	// Failure is a divergence's whole story: the reason, what the suite
	// said running the reproducer, the reproducer; Reproducer its text and
	// File where it was written.
	Failure, Reproducer, File string
	Duration                  time.Duration
}

// ReplayFigures are the replay's figures and rows, as the HTML report
// shows them.
type ReplayFigures struct {
	Recording, Format, Base string
	Accounts, Notes         []string
	Rows                    []ReplayRow
	Counts                  map[string]int
	Wire                    int64
}

// ReplayRow is one recorded request in the HTML report's table.
type ReplayRow struct {
	N                     int
	Name, Outcome, Detail string
	Anchor, File          string
}

// ReplayStatus is the scenario status of a recorded request's outcome.
func ReplayStatus(outcome string) string {
	switch outcome {
	case "diverged":
		return Failed
	case "skipped":
		return Skipped
	}
	return Passed // matched, and unconfirmed: not reported, as the explorer does not
}

// Report is the replay as a report: the recording one feature, each
// recorded request one scenario of it.
func (rr *Replay) Report() *Report {
	rep := &Report{Target: rr.Target, Started: rr.Started, Duration: rr.Duration, Counts: map[string]int{}, Coverage: steps.Coverage{}}
	fig := &ReplayFigures{Recording: rr.Recording, Format: rr.Format, Base: rr.Base, Accounts: rr.Accounts, Notes: rr.Notes,
		Counts: map[string]int{}, Wire: rr.Wire}
	f := Feature{Name: "replay of " + rr.Recording, URI: rr.Recording, Counts: map[string]int{}}
	for _, q := range rr.Requests {
		s := Scenario{ID: fmt.Sprintf("request-%d", q.N), Name: q.Name, Written: q.Name, URI: rr.Recording,
			Status: ReplayStatus(q.Outcome), Tags: []string{"@replay"}, Duration: q.Duration}
		detail := q.Why
		switch q.Outcome {
		case "skipped":
			s.Reason = q.Why
		default:
			sent := Step{Keyword: "When", Text: "sent " + q.Sent, Status: Passed, Arg: strings.Join(q.Notes, "\n")}
			then := Step{Keyword: "Then", Text: q.Answer, Status: s.Status}
			switch q.Outcome {
			case "diverged":
				then.Text, then.Err, then.Arg = "the answer diverges from the reference: "+q.Why, q.Failure, q.Reproducer
				s.Err = q.Failure
			case "unconfirmed":
				then.Text += "; a divergence seen (" + q.Why + ") whose reproducer passed against the target: not reported"
			default:
				detail = q.Answer
			}
			s.Steps = []Step{sent, then}
		}
		rep.Counts[s.Status]++
		fig.Counts[q.Outcome]++
		f.Counts[s.Status]++
		f.Scenarios = append(f.Scenarios, s)
		fig.Rows = append(fig.Rows, ReplayRow{N: q.N, Name: q.Name, Outcome: q.Outcome, Detail: detail, Anchor: s.ID, File: q.File})
	}
	rep.Total = len(rr.Requests)
	rep.Features = []Feature{f}
	rep.Replay = fig
	return rep
}

// WriteJUnit writes the replay as JUnit XML: one test case per recorded
// request.
func (rr *Replay) WriteJUnit(w io.Writer) error { return rr.Report().WriteJUnit(w) }

// WriteHTML writes the replay as the suite's self-contained HTML report.
func (rr *Replay) WriteHTML(w io.Writer) error { return rr.Report().WriteHTML(w) }
