package contract

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"testing/fstest"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/report"
	"github.com/pricing-contract/pricing-contract/features"
	"github.com/pricing-contract/pricing-contract/steps"
)

// The gate: the scenarios and a bounded exploration of the same target in
// one run, with one exit status, the explorer's divergences reported in the
// same console summary, JUnit and HTML reports as the scenarios' failures
// (one test case each, its reproducer attached), and every reproducer kept
// in a folder that every later run of the gate runs with the scenarios.

// Explore is pricing-contract explore as the gate runs it after the
// scenarios (--explore). main gives it (cmd/internal/explore's Run): no
// command package imports another.
type Explore func(ctx context.Context, p steps.Profile, cfg ExploreConfig) (Exploration, error)

// ExploreConfig is one exploration of the gate.
type ExploreConfig struct {
	Budget     time.Duration
	Seed       uint64
	Timeout    time.Duration
	Progress   io.Writer
	HTTPClient *http.Client // target.NewClient with --timeout
	// Created are the creates the scenarios made, by account email and
	// kind (steps.Suite.Created): the explorer counts on from them toward
	// the target's bound on what an account keeps.
	Created map[string]int
}

// Exploration is what an exploration found, as the gate uses it.
type Exploration interface {
	Diverged() bool
	// WriteReproducers writes each divergence's reproducer to dir
	// (replacing another file of the name only with force) and returns
	// the files, in the order of the divergences.
	WriteReproducers(dir string, force bool) ([]string, error)
	// WriteSummary writes the explorer's summary: what it sent, its
	// coverage, the divergences with their reproducers' files.
	WriteSummary(w io.Writer, seed uint64, files []string)
	// Report is the exploration as the reports show it, with the
	// reproducers' files.
	Report(budget time.Duration, seed uint64, files []string) *report.Exploration
}

// gate is the exploration of a run: --explore D, --explore-seed,
// --reproducers DIR, and what it found.
type gate struct {
	explore     Explore // nil: this program cannot explore
	budget      time.Duration
	seed        uint64
	reproducers string // the folder of kept reproducers; "" none (the explorer writes to report.ExploreDir)
	kept        int    // the reproducers of the folder the run selected

	ran    bool
	result Exploration
	files  []string // the reproducers written, in the order of the divergences
	err    error    // the explorer could not run
}

func (c *runConfig) gateFlags(fs *flag.FlagSet) {
	fs.DurationVar(&c.gate.budget, "explore", 0, "after the scenarios, explore the target for `D` (pricing-contract explore) and fail on a divergence, reported as a failed case with its reproducer")
	fs.Uint64Var(&c.gate.seed, "explore-seed", 0, "the `SEED` of --explore (0: from the clock; the run prints it)")
	fs.StringVar(&c.gate.reproducers, "reproducers", "", "run the kept reproducers of `DIR` with the scenarios, and keep there each reproducer --explore writes (default "+report.ExploreDir+")")
}

// keepReproducers adds the kept reproducers of --reproducers DIR to the
// features selected, when the run selects whole features (no
// --godog.paths): the embedded features (or --features DIR) and DIR's, in
// one file system.
func (c *runConfig) keepReproducers(userPaths bool) error {
	dir := c.gate.reproducers
	if dir == "" || userPaths {
		return nil
	}
	kept, err := filepath.Glob(filepath.Join(dir, "*.feature"))
	if err != nil || len(kept) == 0 {
		return err // a folder that has none yet: the explorer fills it
	}
	c.notes = append(c.notes, fmt.Sprintf("with the %d kept reproducers of %s (--reproducers)", len(kept), dir))
	if c.features != "" {
		c.godog.Paths = append(c.godog.Paths, kept...)
		c.gate.kept = len(kept)
		return nil
	}
	all := fstest.MapFS{}
	err = fs.WalkDir(features.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(features.FS, path)
		all[path] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		return err
	}
	for _, f := range kept {
		b, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("--reproducers: %w", err)
		}
		all["reproducers/"+filepath.Base(f)] = &fstest.MapFile{Data: b}
	}
	c.godog.FS, c.gate.kept = all, len(kept)
	return nil
}

// exploreTarget runs the exploration of the gate after the scenarios, and
// adds each divergence it reports to the run's record as a failed case.
func (c *runConfig) exploreTarget(ctx context.Context, suite *steps.Suite, stderr io.Writer) {
	g := &c.gate
	if g.budget <= 0 {
		return
	}
	if g.seed == 0 {
		g.seed = uint64(time.Now().UnixNano())
	}
	fmt.Fprintf(stderr, "pricing-contract: exploring %s for %s, --explore-seed %d\n", c.profile.BaseURL, g.budget, g.seed)
	g.ran = true
	g.result, g.err = g.explore(ctx, suite.Profile(), ExploreConfig{Budget: g.budget, Seed: g.seed, Timeout: c.target.Timeout,
		Progress: stderr, HTTPClient: c.target.Client(), Created: suite.Created()})
	if g.err != nil {
		return
	}
	out := g.reproducers
	if out == "" {
		out = report.ExploreDir
	}
	g.files, g.err = g.result.WriteReproducers(out, c.force)
	c.record.addDivergences(g.result.Report(g.budget, g.seed, g.files).Found)
}

// status is the gate's share of the run's exit status.
func (g *gate) status() int {
	var unusable *steps.UnusableError
	switch {
	case !g.ran:
		return exitPass
	case errors.As(g.err, &unusable) || g.err != nil && g.result == nil:
		return exitUnusable
	case g.result.Diverged():
		return exitFail
	}
	return exitPass
}

// writeSummary writes the exploration's summary beside the scenarios' one.
func (g *gate) writeSummary(w, stderr io.Writer) {
	if !g.ran {
		return
	}
	fmt.Fprintln(w)
	if g.result == nil {
		fmt.Fprintf(stderr, "pricing-contract: the explorer could not run: %v\n", g.err)
		return
	}
	g.result.WriteSummary(w, g.seed, g.files)
	if g.err != nil {
		fmt.Fprintf(stderr, "pricing-contract: %v\n", g.err)
	}
	if len(g.files) > 0 && g.reproducers != "" {
		fmt.Fprintf(w, "kept in %s: every later run with --reproducers %s runs them with the scenarios\n", g.reproducers, g.reproducers)
	}
}

// addDivergences lists the explorer's divergences as failed cases of a
// feature of their own, each with its reproducer.
func (r *runRecord) addDivergences(ds []report.Divergence) {
	if len(ds) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	f := &featureRecord{URI: "explore", Name: "pricing-contract explore"}
	for i, d := range ds {
		where := cmp.Or(d.File, "explore")
		err := d.Failure()
		sr := &scenarioRecord{ID: fmt.Sprintf("explore-%d", i+1), Name: d.Reason, Written: d.Reason, URI: where, Status: statusFailed,
			Tags: []string{"@explorer"}, Err: err,
			// One step, so that the reports show it as a failing step's:
			// the reproducer as its argument, the failure as its error.
			Steps: []*stepRecord{{ID: fmt.Sprintf("explore-%d-step", i+1), Keyword: "Then", Text: "its reproducer fails against the target",
				Arg: d.Feature, Status: statusFailed, Err: err}}}
		f.Scenarios = append(f.Scenarios, sr)
		r.scenarios[sr.ID] = sr
		r.counts[statusFailed]++
		r.done++
	}
	r.features = append(r.features, f)
}

// figures is the gate's exploration as the HTML report shows it.
func (g *gate) figures() *report.Exploration {
	if !g.ran {
		return nil
	}
	if g.result == nil {
		return &report.Exploration{Budget: g.budget.String(), Seed: fmt.Sprint(g.seed), Err: fmt.Sprint(g.err)}
	}
	return g.result.Report(g.budget, g.seed, g.files)
}
