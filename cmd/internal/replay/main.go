// Package replay is `pricing-contract replay RECORDING`: it sends the
// requests a frontend made, saved as the mock's journal or a browser's HAR,
// to a target, and judges every answer with the reference and the freedoms
// of the explorer (cmd/internal/explore), whose stages it reuses. Its own
// stages, one file each: the recording read as it streams, within its
// bounds (recording.go, stream.go), its requests
// outside the API listed (scope.go), the rest read as the spec's
// operations (calls.go), their accounts joined and mapped onto the
// profile's (accounts.go), each made the explorer's step (normalise.go),
// the replay (run.go), the reports (main.go, through cmd/internal/report),
// and the recording's secrets kept out of all of it (secrets.go).
package replay

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/exitcode"
	"github.com/pricing-contract/pricing-contract/cmd/internal/report"
	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// DefaultOut is the folder replay writes its reproducers to: a reports
// folder that .gitignore lists.
const DefaultOut = report.ReplayDir

// accountFlags is --account EMAIL=A, repeated.
type accountFlags map[string]string

func (a accountFlags) String() string { return "" }

func (a accountFlags) Set(v string) error {
	sel, name, ok := strings.Cut(v, "=")
	if !ok || sel == "" || name != "A" && name != "B" {
		return fmt.Errorf("want EMAIL=A, EMAIL=B, USERID=A or USERID=B, not %q", v)
	}
	a[strings.TrimPrefix(sel, "user:")] = name
	return nil
}

// options are the flags of one replay and its recording.
type options struct {
	target          target.Flags
	accounts        accountFlags
	apiBase         string
	pair            int
	out             string
	htmlPath, junit string
	force           bool
	seed            uint64
	recording       string
}

// parse reads the command line; when ok is false, Main returns code.
func parse(args []string, stderr io.Writer) (o options, code int, ok bool) {
	fs := flag.NewFlagSet("pricing-contract replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o.accounts = accountFlags{}
	o.target.Register(fs)
	fs.StringVar(&o.apiBase, "api-base", "", "the recording's API base `URL`, with the version segment (default: the one most of its requests use)")
	fs.IntVar(&o.pair, "pair", 0, "replay on pair `N` of the profile's pool (default: the pair whose email or api key the recording uses, else 1)")
	fs.StringVar(&o.out, "out", DefaultOut, "write each divergence's reproducer to `DIR`")
	fs.StringVar(&o.htmlPath, "report", "", "write the HTML report to `FILE`: each recorded request sent and matched, diverged (with its reproducer) or skipped, and why")
	fs.StringVar(&o.junit, "junit", "", "write a JUnit XML report to `FILE`: a test case per recorded request")
	fs.BoolVar(&o.force, "force", false, "replace a file at an output's path that is no report or reproducer of these tools (one of theirs is replaced without it; a symbolic link never)")
	fs.Uint64Var(&o.seed, "seed", 0, "the `SEED` of the values the replay makes (passwords, addresses; 0: from the clock)")
	fs.Var(o.accounts, "account", "map the recorded account of `EMAIL=A` (a login's email, or a user id) onto account A or B of the profile; repeat for the other")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: pricing-contract replay [flags] RECORDING\n\n"+
			"Sends the requests of RECORDING (the mock's journal, GET /__admin/requests, or a browser's HAR) to the\n"+
			"target, from its accounts' known state, and judges every answer with the reference and the freedoms of\n"+
			"pricing-contract explore. A divergence is written as a reproducer .feature. Requests outside the spec\n"+
			"(static files, other hosts, read extensions, preflights) are listed and skipped, never sent. No\n"+
			"credential of the recording is sent, printed or written. A recording is read as it streams, within the\n"+
			"bounds of "+recordingBounds+".\n"+
			"Exit status: 0 no divergence, 1 a divergence, 2 usage (a bad flag, profile or recording), 3 the target\n"+
			"or the profile is not usable.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return o, exitcode.Pass, false
			}
			return o, exitcode.Usage, false
		}
		if fs.NArg() == 0 {
			break
		}
		if o.recording != "" {
			fmt.Fprintf(stderr, "pricing-contract replay: one recording at a time (%s, and %s)\n", o.recording, fs.Arg(0))
			return o, exitcode.Usage, false
		}
		o.recording, args = fs.Arg(0), fs.Args()[1:]
	}
	if o.recording == "" {
		fmt.Fprintf(stderr, "pricing-contract replay: give the RECORDING to replay (see --help)\n")
		return o, exitcode.Usage, false
	}
	return o, 0, true
}

// reportOutput is a report file the replay writes, with its flag.
type reportOutput struct {
	flag string
	out  report.Output
}

// outputs are the report files asked for.
func (o options) outputs() []reportOutput {
	var out []reportOutput
	for _, r := range []reportOutput{
		{"--report", report.Output{Path: o.htmlPath, Kind: report.HTMLReport, Force: o.force}},
		{"--junit", report.Output{Path: o.junit, Kind: report.JUnitReport, Force: o.force}},
	} {
		if r.out.Path != "" {
			out = append(out, r)
		}
	}
	return out
}

// Main runs `pricing-contract replay`.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	o, code, ok := parse(args, stderr)
	if !ok {
		return code
	}
	p, _, err := o.target.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract replay: %v\n", err)
		return exitcode.Usage
	}
	rec, err := ReadFile(o.recording)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract replay: %v\n", err)
		return exitcode.Usage
	}
	outputs := o.outputs()
	for _, r := range outputs {
		if err := r.out.Check(); err != nil {
			fmt.Fprintf(stderr, "pricing-contract replay: %s: %v\n", r.flag, err)
			return exitcode.Usage
		}
	}
	for _, n := range rec.Notes {
		fmt.Fprintf(stderr, "pricing-contract replay: %s\n", n)
	}
	fmt.Fprintf(stderr, "pricing-contract replay: %s (%s, %d requests) against %s\n", o.recording, rec.Format, len(rec.Requests), p.BaseURL)
	res, err := Run(ctx, rec, p, Config{APIBase: o.apiBase, Accounts: o.accounts, Pair: o.pair, Timeout: o.target.Timeout, Seed: o.seed, Progress: stderr,
		HTTPClient: o.target.Client()})
	var unusable *steps.UnusableError
	switch {
	case errors.As(err, &unusable):
		msg := unusable.Reason
		if unusable.Detail != "" {
			msg += "\n" + unusable.Detail
		}
		fmt.Fprintf(stderr, "pricing-contract replay: target or profile not usable: %s\n", collectSecrets(rec).redact(msg))
		return exitcode.Unusable
	case err != nil:
		fmt.Fprintf(stderr, "pricing-contract replay: %v\n", err)
		return exitcode.Usage
	}
	if err := res.WriteReproducers(o.out, o.force); err != nil {
		fmt.Fprintf(stderr, "pricing-contract replay: --out: %v\n", err)
	}
	var summary bytes.Buffer
	res.WriteSummary(&summary)
	io.WriteString(stdout, res.secrets.redact(summary.String()))
	status := exitcode.Pass
	if res.Diverged() {
		status = exitcode.Fail
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "pricing-contract replay: interrupted (%v): the requests not yet sent were not\n", context.Cause(ctx))
		status = exitcode.Fail
	}
	return max(status, res.writeReports(outputs, stderr))
}

// writeReports writes the reports asked for, their secrets redacted: Fail
// when one could not be written, else Pass.
func (r *Result) writeReports(outputs []reportOutput, stderr io.Writer) int {
	status := exitcode.Pass
	rr := r.Report()
	writers := map[string]func(io.Writer) error{"--report": rr.WriteHTML, "--junit": rr.WriteJUnit}
	for _, o := range outputs {
		var b bytes.Buffer
		if err := writers[o.flag](&b); err != nil {
			fmt.Fprintf(stderr, "pricing-contract replay: %s: %v\n", o.flag, err)
			status = exitcode.Fail
			continue
		}
		if err := o.out.WriteBytes([]byte(r.secrets.redact(b.String()))); err != nil {
			fmt.Fprintf(stderr, "pricing-contract replay: %s: %v\n", o.flag, err)
			status = exitcode.Fail
		}
	}
	return status
}

// WriteReproducers writes the reproducer of each divergence verified (once
// for a divergence found again) to dir, and records the file in its
// outcome and in those that found it again.
func (r *Result) WriteReproducers(dir string, force bool) error {
	byReason := map[string]string{}
	name := slug(strings.TrimSuffix(filepath.Base(r.Recording.Name), filepath.Ext(r.Recording.Name)))
	for _, o := range r.Outcomes {
		v := o.Divergence
		if v == nil || v.Feature == "" {
			continue
		}
		path, err := report.WriteReproducer(dir, fmt.Sprintf("replay-%s-request-%d.feature", name, o.N), r.secrets.redact(v.Feature), force)
		if err != nil {
			return err
		}
		o.Reproducer, byReason[v.Signature] = path, path
	}
	for _, o := range r.Outcomes {
		if v := o.Divergence; v != nil && v.Again {
			o.Reproducer = byReason[v.Signature]
		}
	}
	return nil
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

func slug(s string) string {
	s = strings.Trim(nonWord.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 40 {
		s = s[:40]
	}
	if s == "" {
		s = "recording"
	}
	return s
}

// WriteSummary writes what the replay sent and found: the accounts'
// mapping, the counts, each divergence with its reproducer, the skipped
// requests by reason.
func (r *Result) WriteSummary(w io.Writer) {
	fmt.Fprintf(w, "replayed %s (%s) against %s; its API base: %s\n", r.Recording.Name, r.Recording.Format, r.Target, r.Base)
	if len(r.Accounts) > 0 {
		fmt.Fprintln(w, "accounts:")
		for _, a := range r.Accounts {
			fmt.Fprintf(w, "  %s\n", a)
		}
	}
	sent := len(r.Outcomes) - r.Count(Skipped)
	fmt.Fprintf(w, "recorded requests: %d: %d sent (%d matched, %d diverged", len(r.Outcomes), sent, r.Count(Matched), r.Count(Diverged))
	if n := r.Count(Unconfirmed); n > 0 {
		fmt.Fprintf(w, ", %d diverged but their reproducer passed against the target, not reported", n)
	}
	fmt.Fprintf(w, "), %d skipped; %d requests on the wire in all, in %s\n", r.Count(Skipped), r.Wire, r.Took.Round(time.Millisecond))
	for _, o := range r.Outcomes {
		if o.State != Diverged {
			continue
		}
		fmt.Fprintf(w, "divergence: %s: %s\n", o.Label, o.Why)
		if o.Reproducer != "" {
			abs, _ := filepath.Abs(o.Reproducer)
			fmt.Fprintf(w, "  reproducer: %s (pricing-contract --features %s --godog.paths %s)\n", abs, filepath.Dir(abs), filepath.Base(abs))
		}
	}
	var kinds []string
	byKind := map[string][]string{}
	for _, o := range r.Outcomes {
		if o.State != Skipped {
			continue
		}
		k := skipKind(o.Why)
		if _, ok := byKind[k]; !ok {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], fmt.Sprint(o.N))
	}
	if len(kinds) > 0 {
		fmt.Fprintln(w, "skipped, by reason (the report says each one's):")
		for _, k := range kinds {
			fmt.Fprintf(w, "  %s: %s %s\n", k, plural(len(byKind[k]), "request", "requests"), strings.Join(byKind[k], ", "))
		}
	}
}

var detail = regexp.MustCompile(`\s*\([^()]*\)`)

// skipKind is a skip's reason without its details in brackets, so that
// requests skipped for one reason are listed together.
func skipKind(why string) string { return detail.ReplaceAllString(why, "") }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Report is the replay as the suite's reports show it.
func (r *Result) Report() *report.Replay {
	rr := &report.Replay{Recording: r.Recording.Name, Format: r.Recording.Format, Base: r.Base, Target: r.Target,
		Started: r.Started, Duration: r.Took, Wire: r.Wire, Accounts: r.Accounts, Notes: r.Recording.Notes}
	for _, o := range r.Outcomes {
		q := report.ReplayRequest{N: o.N, Name: o.Label, Outcome: string(o.State), Why: o.Why, Sent: o.Sent, Notes: o.Notes,
			File: o.Reproducer, Duration: o.Took}
		if o.State != Skipped {
			q.Answer = fmt.Sprintf("answered %d, the spec's answer is %s (%s)%s", o.Status, o.Allowed, o.Rule, freedomsText(o.Freedoms))
		}
		if v := o.Divergence; v != nil && o.State == Diverged {
			q.Reproducer = v.Feature
			q.Failure = fmt.Sprintf("%s\n\nits reproducer fails against the target:\n%s\n\nthe reproducer (%s):\n%s", v.Reason, strings.TrimSpace(v.Proof), o.Reproducer, v.Feature)
			if v.Again {
				q.Failure = fmt.Sprintf("%s: the same divergence as an earlier request, whose reproducer is %s", o.Why, o.Reproducer)
			}
		}
		rr.Requests = append(rr.Requests, q)
	}
	return rr
}
