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

// Main runs `pricing-contract replay`.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pricing-contract replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	accounts := accountFlags{}
	var tf target.Flags
	tf.Register(fs)
	var (
		apiBase  = fs.String("api-base", "", "the recording's API base `URL`, with the version segment (default: the one most of its requests use)")
		pair     = fs.Int("pair", 0, "replay on pair `N` of the profile's pool (default: the pair whose email or api key the recording uses, else 1)")
		out      = fs.String("out", DefaultOut, "write each divergence's reproducer to `DIR`")
		htmlPath = fs.String("report", "", "write the HTML report to `FILE`: each recorded request sent and matched, diverged (with its reproducer) or skipped, and why")
		junit    = fs.String("junit", "", "write a JUnit XML report to `FILE`: a test case per recorded request")
		force    = fs.Bool("force", false, "replace a file at an output's path that is no report or reproducer of these tools (one of theirs is replaced without it; a symbolic link never)")
		seed     = fs.Uint64("seed", 0, "the `SEED` of the values the replay makes (passwords, addresses; 0: from the clock)")
	)
	fs.Var(accounts, "account", "map the recorded account of `EMAIL=A` (a login's email, or a user id) onto account A or B of the profile; repeat for the other")
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
	var recording string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitcode.Pass
			}
			return exitcode.Usage
		}
		if fs.NArg() == 0 {
			break
		}
		if recording != "" {
			fmt.Fprintf(stderr, "pricing-contract replay: one recording at a time (%s, and %s)\n", recording, fs.Arg(0))
			return exitcode.Usage
		}
		recording, args = fs.Arg(0), fs.Args()[1:]
	}
	if recording == "" {
		fmt.Fprintf(stderr, "pricing-contract replay: give the RECORDING to replay (see --help)\n")
		return exitcode.Usage
	}
	p, _, err := tf.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract replay: %v\n", err)
		return exitcode.Usage
	}
	rec, err := ReadFile(recording)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract replay: %v\n", err)
		return exitcode.Usage
	}
	outputs := []struct {
		flag string
		out  report.Output
	}{{"--report", report.Output{Path: *htmlPath, Kind: report.HTMLReport, Force: *force}}, {"--junit", report.Output{Path: *junit, Kind: report.JUnitReport, Force: *force}}}
	for _, o := range outputs {
		if o.out.Path == "" {
			continue
		}
		if err := o.out.Check(); err != nil {
			fmt.Fprintf(stderr, "pricing-contract replay: %s: %v\n", o.flag, err)
			return exitcode.Usage
		}
	}
	for _, n := range rec.Notes {
		fmt.Fprintf(stderr, "pricing-contract replay: %s\n", n)
	}
	fmt.Fprintf(stderr, "pricing-contract replay: %s (%s, %d requests) against %s\n", recording, rec.Format, len(rec.Requests), p.BaseURL)
	res, err := Run(ctx, rec, p, Config{APIBase: *apiBase, Accounts: accounts, Pair: *pair, Timeout: tf.Timeout, Seed: *seed, Progress: stderr,
		HTTPClient: tf.Client()})
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
	if err := res.WriteReproducers(*out, *force); err != nil {
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
	rr := res.Report()
	writers := map[string]func(io.Writer) error{"--report": rr.WriteHTML, "--junit": rr.WriteJUnit}
	for _, o := range outputs {
		if o.out.Path == "" {
			continue
		}
		var b bytes.Buffer
		if err := writers[o.flag](&b); err != nil {
			fmt.Fprintf(stderr, "pricing-contract replay: %s: %v\n", o.flag, err)
			status = max(status, exitcode.Fail)
			continue
		}
		if err := o.out.WriteBytes([]byte(res.secrets.redact(b.String()))); err != nil {
			fmt.Fprintf(stderr, "pricing-contract replay: %s: %v\n", o.flag, err)
			status = max(status, exitcode.Fail)
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
