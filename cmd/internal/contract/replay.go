package contract

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

// ReplayReport is a replay as the reports show it.
type ReplayReport struct {
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

// replayFigures are the replay's figures and rows, as the HTML report
// shows them.
type replayFigures struct {
	Recording, Format, Base string
	Accounts, Notes         []string
	Rows                    []replayRow
	Counts                  map[string]int
	Wire                    int64
}

type replayRow struct {
	N                     int
	Name, Outcome, Detail string
	Anchor, File          string
}

// replayStatus is the scenario status of an outcome.
func replayStatus(outcome string) string {
	switch outcome {
	case "diverged":
		return statusFailed
	case "skipped":
		return statusSkipped
	}
	return statusPassed // matched, and unconfirmed: not reported, as the explorer does not
}

func (rr *ReplayReport) report() *report {
	rep := &report{Target: rr.Target, Started: rr.Started, Duration: rr.Duration, Counts: map[string]int{}, Coverage: steps.Coverage{}}
	fig := &replayFigures{Recording: rr.Recording, Format: rr.Format, Base: rr.Base, Accounts: rr.Accounts, Notes: rr.Notes,
		Counts: map[string]int{}, Wire: rr.Wire}
	f := reportFeature{Name: "replay of " + rr.Recording, URI: rr.Recording, Counts: map[string]int{}}
	for _, q := range rr.Requests {
		s := reportScenario{ID: fmt.Sprintf("request-%d", q.N), Name: q.Name, Written: q.Name, URI: rr.Recording,
			Status: replayStatus(q.Outcome), Tags: []string{"@replay"}, Duration: q.Duration}
		detail := q.Why
		switch q.Outcome {
		case "skipped":
			s.Reason = q.Why
		default:
			sent := reportStep{Keyword: "When", Text: "sent " + q.Sent, Status: statusPassed, Arg: strings.Join(q.Notes, "\n")}
			then := reportStep{Keyword: "Then", Text: q.Answer, Status: s.Status}
			switch q.Outcome {
			case "diverged":
				then.Text, then.Err, then.Arg = "the answer diverges from the reference: "+q.Why, q.Failure, q.Reproducer
				s.Err = q.Failure
			case "unconfirmed":
				then.Text += "; a divergence seen (" + q.Why + ") whose reproducer passed against the target: not reported"
			default:
				detail = q.Answer
			}
			s.Steps = []reportStep{sent, then}
		}
		rep.Counts[s.Status]++
		fig.Counts[q.Outcome]++
		f.Counts[s.Status]++
		f.Scenarios = append(f.Scenarios, s)
		fig.Rows = append(fig.Rows, replayRow{N: q.N, Name: q.Name, Outcome: q.Outcome, Detail: detail, Anchor: s.ID, File: q.File})
	}
	rep.Total = len(rr.Requests)
	rep.Features = []reportFeature{f}
	rep.Replay = fig
	return rep
}

// WriteJUnit writes the replay as JUnit XML: one test case per recorded
// request.
func (rr *ReplayReport) WriteJUnit(w io.Writer) error { return rr.report().writeJUnit(w) }

// WriteHTML writes the replay as the suite's self-contained HTML report.
func (rr *ReplayReport) WriteHTML(w io.Writer) error { return rr.report().writeHTML(w) }
