package contract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/cmd/internal/report"
	"github.com/pricing-contract/pricing-contract/steps"
)

// Status of a scenario or a step in the reports (package report).
const (
	statusPassed    = report.Passed
	statusFailed    = report.Failed
	statusSkipped   = report.Skipped
	statusUndefined = report.Undefined
	statusPending   = report.Pending
	statusNotRun    = report.NotRun
)

// runRecord is what the reports show: every selected scenario, in the order
// of the feature files, with the outcome of each step. It is filled by
// hooks, not by a godog formatter, so that it works whatever formats the
// user chose and however many runs share the process.
type runRecord struct {
	mu        sync.Mutex
	started   time.Time
	finished  time.Time
	features  []*featureRecord
	scenarios map[string]*scenarioRecord // pickle id
	done      int
	counts    map[string]int // scenario status -> number

	// progress, when set, is told of each finished scenario.
	progress func(done, total int, counts map[string]int, elapsed time.Duration)
}

type featureRecord struct {
	URI, Name string
	Scenarios []*scenarioRecord
}

type scenarioRecord struct {
	refused       bool // not started: the run was stopping (hooks)
	ID, Name, URI string
	Written       string // the name in the feature file: an outline's, with its <placeholders>
	Line          int64  // the example row of an outline's scenario, else the scenario's line
	OutlineLine   int64  // the Scenario Outline line of a row (godog's console names it), else 0
	Tags          []string
	Steps         []*stepRecord
	Status        string
	Err           string // the error that ended the scenario, hooks included
	// Reason says why a skipped scenario was not run: the error of the
	// step (or hook) that skipped it, without godog's "skipped: ".
	Reason   string
	Duration time.Duration
	Pair     int // the pair of accounts it ran on; 0 for none
	started  time.Time
}

type stepRecord struct {
	ID, Keyword, Text string
	Arg               string // a doc string or table, as written
	Status            string
	Err               string
	Reason            string // why the step skipped the scenario (godog.ErrSkip)
}

// newRunRecord returns an empty record; addFeature lists the selected
// scenarios in it as not run yet.
func newRunRecord() *runRecord {
	return &runRecord{scenarios: map[string]*scenarioRecord{}, counts: map[string]int{}}
}

// addFeature lists a feature's pickles as not run yet. godog parses the
// same files the same way for the run itself, so the ids it gives the
// pickles then are the ones seen here (a pickle it does not know is added
// when it starts).
func (r *runRecord) addFeature(doc *godog.GherkinDocument, uri string, pickles []*godog.Scenario) {
	f := &featureRecord{URI: uri, Name: uri}
	keywords, lines, names := map[string]string{}, map[string]int64{}, map[string]string{}
	if doc != nil && doc.Feature != nil {
		f.Name = doc.Feature.Name
		indexFeature(doc, keywords, lines, names)
	}
	for _, p := range pickles {
		sr := &scenarioRecord{ID: p.Id, Name: p.Name, Written: p.Name, URI: uri, Status: statusNotRun}
		if len(p.AstNodeIds) > 0 {
			if n, ok := names[p.AstNodeIds[0]]; ok {
				sr.Written = n
			}
			sr.Line = lines[p.AstNodeIds[len(p.AstNodeIds)-1]] // the example row, or the scenario
			if sr.Line == 0 {
				sr.Line = lines[p.AstNodeIds[0]]
			}
			if len(p.AstNodeIds) > 1 {
				sr.OutlineLine = lines[p.AstNodeIds[0]]
			}
		}
		for _, t := range p.Tags {
			sr.Tags = append(sr.Tags, t.Name)
		}
		for _, s := range p.Steps {
			step := &stepRecord{ID: s.Id, Text: s.Text, Status: statusNotRun}
			if len(s.AstNodeIds) > 0 {
				step.Keyword = strings.TrimSpace(keywords[s.AstNodeIds[0]])
			}
			step.Arg = stepArgument(s)
			sr.Steps = append(sr.Steps, step)
		}
		f.Scenarios = append(f.Scenarios, sr)
		r.scenarios[p.Id] = sr
	}
	r.features = append(r.features, f)
}

// indexFeature maps the ids of the document's steps to their keywords, the
// ids of scenarios and example rows to their lines, and the ids of
// scenarios to their names as written.
func indexFeature(doc *godog.GherkinDocument, keywords map[string]string, lines map[string]int64, names map[string]string) {
	// The children of a Rule are copied into children of the feature's own
	// kind, so that one loop reads both (the message types are not named
	// here: they belong to godog's dependencies).
	children := append(doc.Feature.Children[:0:0], doc.Feature.Children...)
	for _, c := range doc.Feature.Children {
		if c.Rule == nil {
			continue
		}
		for _, rc := range c.Rule.Children {
			fc := *c
			fc.Rule, fc.Background, fc.Scenario = nil, rc.Background, rc.Scenario
			children = append(children, &fc)
		}
	}
	for _, c := range children {
		if c.Background != nil {
			for _, s := range c.Background.Steps {
				keywords[s.Id] = s.Keyword
			}
		}
		sc := c.Scenario
		if sc == nil {
			continue
		}
		lines[sc.Id] = sc.Location.Line
		names[sc.Id] = sc.Name
		for _, s := range sc.Steps {
			keywords[s.Id] = s.Keyword
		}
		for _, ex := range sc.Examples {
			for _, row := range ex.TableBody {
				lines[row.Id] = row.Location.Line
			}
		}
	}
}

func stepArgument(s *godog.Step) string {
	if s.Argument == nil {
		return ""
	}
	if ds := s.Argument.DocString; ds != nil {
		return ds.Content
	}
	var b strings.Builder
	if dt := s.Argument.DataTable; dt != nil {
		for _, row := range dt.Rows {
			b.WriteString("|")
			for _, c := range row.Cells {
				b.WriteString(" " + c.Value + " |")
			}
			b.WriteString("\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

type recordKey struct{}

// hooks installs the recording hooks around init, the suite's scenario
// initializer. The first hook also refuses to start a scenario once ctx is
// done (an interrupt, or the target found down), so that the run ends
// quickly with its reports; ctx is deliberately not the scenarios' context:
// a scenario under way runs to its end, After hook included, so an account
// it changed on a shared server is restored.
func (r *runRecord) hooks(ctx context.Context, init func(*godog.ScenarioContext)) func(*godog.ScenarioContext) {
	return func(sc *godog.ScenarioContext) {
		sc.Before(func(sctx context.Context, p *godog.Scenario) (context.Context, error) {
			sr := r.start(p)
			sctx = context.WithValue(sctx, recordKey{}, sr)
			if err := ctx.Err(); err != nil {
				r.mu.Lock()
				sr.refused = true
				r.mu.Unlock()
				// Skipped for godog, so that its console neither counts
				// them failed nor prints a failure for each; finish
				// counts them not run.
				return sctx, fmt.Errorf("%w: not started: %w", godog.ErrSkip, context.Cause(ctx))
			}
			return sctx, nil
		})
		sc.StepContext().After(func(sctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
			if sr, ok := sctx.Value(recordKey{}).(*scenarioRecord); ok {
				r.step(sr, st, status.String(), err)
			}
			return sctx, nil
		})
		init(sc)
		// Registered last, so it sees the errors of the suite's hooks too
		// (a failed restore).
		sc.After(func(sctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
			if sr, ok := sctx.Value(recordKey{}).(*scenarioRecord); ok {
				pairN := steps.PairOf(sctx)
				r.mu.Lock()
				refused := sr.refused
				r.mu.Unlock()
				r.finish(sr, err, refused, pairN)
			}
			return sctx, nil
		})
	}
}

func (r *runRecord) start(p *godog.Scenario) *scenarioRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started.IsZero() {
		r.started = time.Now()
	}
	sr, ok := r.scenarios[p.Id]
	if !ok {
		// Not seen when the features were selected: keep it anyway.
		sr = &scenarioRecord{ID: p.Id, Name: p.Name, Written: p.Name, URI: p.Uri}
		for _, s := range p.Steps {
			sr.Steps = append(sr.Steps, &stepRecord{ID: s.Id, Text: s.Text, Status: statusNotRun, Arg: stepArgument(s)})
		}
		r.scenarios[p.Id] = sr
		r.features = append(r.features, &featureRecord{URI: p.Uri, Name: p.Uri, Scenarios: []*scenarioRecord{sr}})
	}
	sr.started = time.Now()
	return sr
}

func (r *runRecord) step(sr *scenarioRecord, st *godog.Step, status string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range sr.Steps {
		if s.ID == st.Id {
			s.Status = status
			switch {
			case err != nil && status == statusSkipped:
				s.Reason = skipReason(err.Error())
			case err != nil:
				s.Err = err.Error()
			}
			return
		}
	}
}

// finish sets the scenario's outcome from its error. notStarted marks a
// scenario refused by the first hook: it is reported as not run.
func (r *runRecord) finish(sr *scenarioRecord, err error, notStarted bool, pairN int) {
	r.mu.Lock()
	sr.Duration, sr.Pair = time.Since(sr.started), pairN
	switch {
	case notStarted:
		sr.Status = statusNotRun
	case err == nil:
		sr.Status = statusPassed
		for _, s := range sr.Steps {
			if s.Status == statusSkipped {
				sr.Status = statusSkipped
			}
		}
	case errors.Is(err, godog.ErrUndefined):
		sr.Status = statusUndefined
	case errors.Is(err, godog.ErrPending):
		sr.Status = statusPending
	case errors.Is(err, godog.ErrSkip):
		sr.Status = statusSkipped
	default:
		sr.Status = statusFailed
	}
	if err != nil {
		sr.Err = err.Error()
	}
	if sr.Status == statusSkipped {
		// godog hands the After hook the skip only when the last step
		// skipped; an earlier one's reason is on its step.
		for _, s := range sr.Steps {
			if s.Reason != "" {
				sr.Reason = s.Reason
				break
			}
		}
		if sr.Reason == "" && err != nil {
			sr.Reason = skipReason(err.Error())
		}
	}
	r.done++
	r.counts[sr.Status]++
	r.finished = time.Now()
	done, total, elapsed := r.done, len(r.scenarios), time.Since(r.started)
	counts := make(map[string]int, len(r.counts))
	for k, v := range r.counts {
		counts[k] = v
	}
	progress := r.progress
	r.mu.Unlock()
	if progress != nil {
		progress(done, total, counts, elapsed)
	}
}

// summary counts the selected scenarios per status, and the time from
// the first scenario's start to the last one's end.
func (r *runRecord) summary() (counts map[string]int, total int, elapsed time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	counts = map[string]int{}
	for _, f := range r.features {
		for _, s := range f.Scenarios {
			counts[s.Status]++
			total++
		}
	}
	if !r.started.IsZero() {
		elapsed = r.finished.Sub(r.started)
	}
	return counts, total, elapsed
}

// failureReasons are the errors of the scenarios that failed.
func (r *runRecord) failureReasons() []string {
	var errs []string
	for _, s := range r.withStatus(statusFailed) {
		errs = append(errs, s.Err)
	}
	return errs
}

// skipReasons are the reasons of the scenarios that were skipped, one per
// scenario.
func (r *runRecord) skipReasons() []string {
	var reasons []string
	for _, s := range r.skipped() {
		reasons = append(reasons, s.Reason)
	}
	return reasons
}

// skipped are the scenarios that were skipped, in the order of the feature
// files, as copies.
func (r *runRecord) skipped() []scenarioRecord { return r.withStatus(statusSkipped) }

// withStatus are the scenarios of status, in the order of the feature
// files, as copies.
func (r *runRecord) withStatus(status string) []scenarioRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []scenarioRecord
	for _, f := range r.features {
		for _, s := range f.Scenarios {
			if s.Status == status {
				out = append(out, *s)
			}
		}
	}
	return out
}

// skipReason is the text of a skip error without godog's "skipped: ", and
// "no reason given" for a bare godog.ErrSkip.
func skipReason(errText string) string {
	reason := strings.TrimPrefix(strings.TrimPrefix(errText, godog.ErrSkip.Error()), ": ")
	if strings.TrimSpace(reason) == "" {
		return "no reason given"
	}
	return reason
}

// countsWriter is the console of a run: it passes godog's output through,
// with godog's scenario count line replaced by the run's own counts, which
// the reports and the progress lines use too (godog counts a skipped
// scenario as passed). godog's writer without colours writes a rune at a
// time, so a line that starts with a digit is held until its end.
type countsWriter struct {
	w      io.Writer
	record *runRecord
	// resolve names the accounts and ids of a scenario name's
	// placeholders ({{A.userId}}), as the reports do.
	resolve func(string) string
	line    []byte // a held line
	mid     bool   // the last byte written was not a newline
}

// stepLocation is the end of a step line of godog's pretty format: the Go
// function every phrase is registered through, which says nothing.
var stepLocation = regexp.MustCompile(`\s*# suite\.go:[0-9]+ -> \S+$`)

// rewrite turns one held line of godog's into the run's.
func (c *countsWriter) rewrite(line []byte) []byte {
	plain := ansi.ReplaceAll(line, nil)
	if godogScenarioLine.Match(plain) {
		counts, total, _ := c.record.summary()
		return fmt.Appendf(nil, "%d scenarios (%s)\n", total, report.CountsText(counts))
	}
	text := strings.TrimSuffix(string(line), "\n")
	if loc := stepLocation.FindStringIndex(text); loc != nil {
		text = text[:loc[0]]
	}
	if m := outlineLine.FindStringSubmatch(string(plain)); m != nil {
		// godog names every row of an outline by the outline's line; the
		// reports name the row's, and so does the console.
		if row := c.record.rowLine(m[2], m[3], m[4]); row != "" {
			at := strings.LastIndex(text, m[3]+":"+m[4])
			text = text[:at] + m[3] + ":" + row + text[at+len(m[3])+1+len(m[4]):]
		}
	}
	if c.resolve != nil && strings.Contains(text, "{{") {
		text = c.resolve(text)
	}
	return []byte(text + "\n")
}

var godogScenarioLine = regexp.MustCompile(`^[0-9]+ scenarios \(.*\)\n$`)

// outlineLine is godog's line for a row of a Scenario Outline: its name
// with the row's values, the feature file and the outline's line.
var outlineLine = regexp.MustCompile(`^(\s*Scenario Outline: )(.*) # (\S+):([0-9]+)\n?$`)

// rowLine is the line of the example row whose scenario is named name in
// the outline at uri:line, as text; "" when no row or several match.
func (r *runRecord) rowLine(name, uri, line string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	found := ""
	for _, f := range r.features {
		if f.URI != uri && !strings.HasSuffix(f.URI, "/"+uri) {
			continue
		}
		for _, s := range f.Scenarios {
			if s.Name != name || s.OutlineLine == 0 || strconv.FormatInt(s.OutlineLine, 10) != line {
				continue
			}
			if found != "" {
				return ""
			}
			found = strconv.FormatInt(s.Line, 10)
		}
	}
	return found
}

func (c *countsWriter) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i++ {
		b := p[i]
		switch {
		case c.line != nil:
			c.line = append(c.line, b)
			if b != '\n' {
				continue
			}
			line := c.rewrite(c.line)
			c.line = nil
			if _, err := c.w.Write(line); err != nil {
				return i, err
			}
			c.mid = false
		case !c.mid && b != '\n' && !strings.ContainsRune(".F-UPS", rune(b)):
			// Held: a line of text. The progress format's lines of one
			// character per step pass at once.
			c.line = []byte{b}
		default:
			// Pass the rest of the line through at once.
			j := i
			for j < len(p) && p[j] != '\n' {
				j++
			}
			if j < len(p) {
				j++ // the newline
			}
			if _, err := c.w.Write(p[i:j]); err != nil {
				return i, err
			}
			c.mid = p[j-1] != '\n'
			i = j - 1
		}
	}
	return len(p), nil
}

// flush writes a held line that never ended.
func (c *countsWriter) flush() {
	if c.line != nil {
		c.w.Write(c.line)
		c.line = nil
	}
}
