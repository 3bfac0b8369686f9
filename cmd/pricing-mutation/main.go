// Command pricing-mutation measures how much the contract suite catches. It
// runs the spec scenarios (every scenario not tagged @reference) in process
// against the mock once without faults, where they must all pass, and once
// as each wrong server of the catalogue (mockserver/variants/catalogue: the
// built-in defects and the blind audits' wrong servers), where they must
// fail: a fault the suite fails on is killed, one it passes is a gap in the
// suite. Its tests run the legal servers too (TestCatalogue).
//
//	pricing-mutation [--fault NAME]... [--workers N] [-v]
//
// It prints one line per fault and the score, and exits 1 when a fault
// survived or the run without faults failed, 2 on a bad flag.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/cucumber/godog"

	"github.com/pricing-contract/pricing-contract/cmd/internal/buildinfo"
	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/features"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
	"github.com/pricing-contract/pricing-contract/steps"
)

// specTags selects the scenarios that assert only what the spec states: the
// @reference ones check the mock's own decisions, so a fault that breaks only
// those is not a defect of an implementation.
const specTags = "~@reference"

// scenarioConcurrency is how many scenarios of one run go at once; the
// suite's account locks keep the scenarios that change an account apart.
const scenarioConcurrency = 4

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pricing-mutation", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		names   []string
		workers = fs.Int("workers", runtime.GOMAXPROCS(0), "run `N` faults at once")
		verbose = fs.Bool("v", false, "list every scenario that caught each fault, and the failures of the run without faults")
	)
	fs.Func("fault", "run only the fault `NAME` (repeatable; pricing-mock --list-faults lists them)", func(s string) error {
		names = append(names, s)
		return nil
	})
	buildinfo.AddFlag(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "pricing-mutation: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *workers < 1 {
		fmt.Fprintln(stderr, "pricing-mutation: --workers must be at least 1")
		return 2
	}
	faults, err := selectFaults(names)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-mutation: %v\n", err)
		return 2
	}

	start := time.Now()
	fmt.Fprintf(stderr, "pricing-mutation: the spec scenarios (%s) against the mock without faults, then with each of %d faults, %d at a time\n",
		specTags, len(faults), *workers)
	clean, results := mutate(ctx, faults, *workers)
	code := report(stdout, clean, results, *verbose)
	fmt.Fprintf(stderr, "pricing-mutation: done in %s\n", time.Since(start).Round(100*time.Millisecond))
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "pricing-mutation: interrupted; the faults not run are counted as survived\n")
		code = 1
	}
	return code
}

// selectFaults returns the named servers, or every wrong one for no names:
// those made from the mock, then the faults of the other lineages.
func selectFaults(names []string) ([]variants.Server, error) {
	var lineageFaults []variants.Server
	for _, s := range catalogue.Lineages() {
		if !s.Legal {
			lineageFaults = append(lineageFaults, s)
		}
	}
	if len(names) == 0 {
		return slices.Concat(catalogue.Wrong(), lineageFaults), nil
	}
	var out []variants.Server
	for _, name := range names {
		if i := slices.IndexFunc(lineageFaults, func(s variants.Server) bool { return s.Name == name }); i >= 0 {
			out = append(out, lineageFaults[i])
			continue
		}
		found, err := catalogue.Find([]string{name})
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// outcome is one run of the spec scenarios.
type outcome struct {
	fault  variants.Server // zero for the run without faults
	ran    int
	failed []string // `file: scenario` of each failed scenario, sorted
	// reasons holds the error of each failed scenario, keyed like failed.
	reasons map[string]string
	status  int   // godog's exit status
	err     error // the run could not start
	// refused is init refusing a server of another lineage (exit 3, with
	// its reason): the gate stops there, before any scenario.
	refused string
}

// failedRun reports whether the suite failed: for a fault, that it was
// killed, by a scenario or by init refusing the target.
func (o outcome) failedRun() bool {
	return o.err == nil && (o.status != 0 || len(o.failed) > 0 || o.refused != "")
}

// mutate runs the scenarios without faults and then once per fault, workers
// faults at a time. Once ctx is done no further fault is started; those not
// run come back with ctx's error.
func mutate(ctx context.Context, faults []variants.Server, workers int) (outcome, []outcome) {
	clean := runSuite(variants.Server{})
	results := make([]outcome, len(faults))
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range min(workers, len(faults)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(faults) {
					return
				}
				if err := ctx.Err(); err != nil {
					results[i] = outcome{fault: faults[i], err: err}
					continue
				}
				results[i] = runSuite(faults[i])
			}
		})
	}
	wg.Wait()
	return clean, results
}

// runSuite runs the spec scenarios against a fresh mock on 127.0.0.1 that
// is the server f (the mock itself for the zero Server).
func runSuite(f variants.Server) outcome { return runSpec(f, nil, nil, false) }

// runSpec runs the spec scenarios against a fresh mock on 127.0.0.1 that is
// the server f (the mock itself for the zero Server), with the suite's
// profile of it (f.Profile over the mock's seed). hit is handed to f's Wrap;
// a non-nil wrap puts a middleware in front of it all (the tests' OpenAPI
// validator). firstFailure stops the run at the first failed scenario: all
// a test needs to know that a wrong server is killed, in a fraction of a
// whole run.
func runSpec(f variants.Server, hit func(), wrap func(http.Handler) http.Handler, firstFailure bool) outcome {
	o := outcome{fault: f}
	var profile steps.Profile
	if f.Lineage != nil {
		// A server of another lineage: its profile is what init finds
		// with its base URL and accounts, and what its documentation
		// gives, as a QA engineer's would be.
		dir, err := os.MkdirTemp("", "pricing-mutation-")
		if err != nil {
			o.err = err
			return o
		}
		defer os.RemoveAll(dir)
		l, err := mocktarget.StartLineage(context.Background(), f, 1, true, dir)
		var refused *mocktarget.InitError
		switch {
		case errors.As(err, &refused) && refused.Code == 3:
			o.refused = refused.Output
			return o
		case err != nil:
			o.err = err
			return o
		}
		defer l.Close()
		profile = l.Profile
	} else {
		opts := mocktest.Options{Wrap: wrap, Hit: hit}
		if f.Acts() {
			opts.Servers = []variants.Server{f}
		}
		m, err := mocktest.Start(opts)
		if err != nil {
			o.err = err
			return o
		}
		defer m.Close()
		if profile, err = mocktarget.Profile(m, f.Profile); err != nil {
			o.err = err
			return o
		}
	}

	opts := godog.Options{
		Format:        "progress",
		Output:        io.Discard,
		Concurrency:   scenarioConcurrency,
		Tags:          specTags,
		StopOnFailure: firstFailure,
	}
	if firstFailure {
		// The scenarios of the server's own area first, then the rest:
		// a defect shows most often there, and the run stops at the
		// first that fails. The same scenarios run, in another order.
		opts.FS, opts.Paths = features.FS, areaFirst(f.Area)
	}
	run := steps.NewSuite(profile, steps.Options{Output: io.Discard}).Run("pricing-mutation", opts)
	o.status, o.ran = run.Status, run.Ran
	for _, fail := range run.Failed {
		o.failed = append(o.failed, fail.String())
		if o.reasons == nil {
			o.reasons = map[string]string{}
		}
		o.reasons[fail.String()] = fail.Err.Error()
	}
	return o
}

// report prints the table and the score and returns the exit status: 0 when
// the run without faults passed and every fault was killed.
func report(w io.Writer, clean outcome, results []outcome, verbose bool) int {
	code := 0
	switch {
	case clean.err != nil:
		fmt.Fprintf(w, "without faults: could not run: %v\n", clean.err)
		code = 1
	case clean.failedRun():
		fmt.Fprintf(w, "without faults: FAILED, %d of %d spec scenarios (godog status %d); the scores below mean nothing until it passes\n",
			len(clean.failed), clean.ran, clean.status)
		for _, s := range clean.failed {
			fmt.Fprintf(w, "  %s\n", s)
		}
		code = 1
	default:
		fmt.Fprintf(w, "without faults: passed, %d spec scenarios\n", clean.ran)
	}
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FAULT\tAREA\tRESULT\tCAUGHT BY")
	killed := 0
	for _, r := range results {
		result, caught := "survived", "-"
		switch {
		case r.err != nil:
			result, caught = "not run", r.err.Error()
		case r.failedRun():
			result, caught = "killed", caughtBy(r)
			killed++
		}
		fmt.Fprintf(tw, "%s\t§%s\t%s\t%s\n", r.fault.Name, r.fault.Rule, result, caught)
	}
	tw.Flush()
	if killed < len(results) {
		code = 1
	}

	if verbose {
		for _, r := range results {
			if len(r.failed) > 0 {
				fmt.Fprintf(w, "\n%s (%s) was caught by:\n", r.fault.Name, r.fault.Why)
				for _, s := range r.failed {
					fmt.Fprintf(w, "  %s\n", s)
				}
			}
		}
	}

	pct := 0.0
	if len(results) > 0 {
		pct = 100 * float64(killed) / float64(len(results))
	}
	fmt.Fprintf(w, "\nscore: %d/%d faults killed (%.1f%%)\n", killed, len(results), pct)
	return code
}

// caughtBy names the first three scenarios that failed and counts the rest,
// or init's refusal of the target.
func caughtBy(o outcome) string {
	failed, status := o.failed, o.status
	if o.refused != "" {
		return "init refused the target: " + o.refused
	}
	if len(failed) == 0 {
		return fmt.Sprintf("the run (godog status %d)", status)
	}
	s := strings.Join(failed[:min(3, len(failed))], "; ")
	if len(failed) > 3 {
		s += fmt.Sprintf("; +%d more", len(failed)-3)
	}
	return fmt.Sprintf("%d: %s", len(failed), s)
}

// areaFirst is the feature paths of a run that stops at its first failure:
// the feature named after the server's area, where there is one, then
// every feature (the parser skips the one already read).
func areaFirst(area variants.Area) []string {
	name := string(area) + ".feature"
	if _, err := fs.Stat(features.FS, name); err != nil {
		return []string{"."}
	}
	return []string{name, "."}
}
