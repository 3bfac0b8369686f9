package explore

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/report"
)

// WriteReproducers writes each reported divergence's reproducer to dir,
// named after its signature, and returns the paths, in the order of the
// divergences: the report package's files (mode 0600, no link followed, a
// file of the name replaced only when it is a reproducer, or with force).
func (r *Result) WriteReproducers(dir string, force bool) ([]string, error) {
	var paths []string
	for _, d := range r.Divergences {
		path, err := report.WriteReproducer(dir, Slug(d.Signature)+".feature", d.Feature, force)
		if err != nil {
			return paths, fmt.Errorf("--out: %w", err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// Report is the run as the suite's reports show it (the gate's
// Exploration section, each divergence a failed case), with the files of
// its reproducers.
func (r *Result) Report(budget time.Duration, seed uint64, files []string) *report.Exploration {
	cov := r.Coverage()
	e := &report.Exploration{Budget: budget.String(), Seed: fmt.Sprint(seed), Sequences: r.Sequences, Requests: r.Steps, Wire: r.Wire,
		Cells: cov.Cells, Exercised: cov.Exercised, Divergences: len(r.Divergences), NotReported: len(r.Dropped),
		Took: r.Took.Round(time.Millisecond).String(), RequestsPerSecond: fmt.Sprintf("%.1f", float64(r.Steps)/r.Took.Seconds())}
	for i, d := range r.Divergences {
		rd := report.Divergence{Reason: d.Reason, Feature: d.Feature, Proof: d.Proof, Pair: d.Pair, Steps: d.Steps}
		if i < len(files) {
			rd.File = files[i]
		}
		e.Found = append(e.Found, rd)
	}
	return e
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// Slug is a file name for a divergence's signature.
func Slug(sig string) string {
	s := strings.Trim(nonWord.ReplaceAllString(strings.ToLower(sig), "-"), "-")
	if len(s) > 80 {
		s = s[:80]
	}
	return "explore-" + s
}

// WriteSummary writes what the run sent, the coverage of the input space
// and every divergence it reported (the count is the list's), with the
// reproducers' files.
func (r *Result) WriteSummary(w io.Writer, seed uint64, files []string) {
	secs := r.Took.Seconds()
	fmt.Fprintf(w, "explored: %d sequences, %d requests of sequences (%.1f/s), %d requests on the wire in all (%.1f/s: reads back, restores, shrinking, reproducers), in %s; --seed %d\n",
		r.Sequences, r.Steps, float64(r.Steps)/secs, r.Wire, float64(r.Wire)/secs, r.Took.Round(time.Millisecond), seed)
	if len(r.PerPair) > 1 {
		var parts []string
		for i, p := range r.PerPair {
			parts = append(parts, fmt.Sprintf("pair %d: %d (%.1f/s)", i+1, p.Steps, float64(p.Steps)/secs))
		}
		fmt.Fprintf(w, "requests of sequences by pair of accounts: %s\n", strings.Join(parts, ", "))
	}
	r.WriteCoverageTable(w)
	fmt.Fprintf(w, "divergences: %d (each reproducer fails against the target)", len(r.Divergences))
	if len(r.Dropped) > 0 {
		fmt.Fprintf(w, "; %d more found whose reproducer passed against the target, not reported", len(r.Dropped))
	}
	if r.Again > 0 {
		fmt.Fprintf(w, "; %d found again", r.Again)
	}
	fmt.Fprintln(w)
	for i, d := range r.Divergences {
		fmt.Fprintf(w, "divergence %d: %s\n", i+1, d.Reason)
		fmt.Fprintf(w, "  decided by: %s (check %s)\n", d.Cite, d.Check)
		if i < len(files) {
			abs, _ := filepath.Abs(files[i])
			fmt.Fprintf(w, "  reproducer: %s (pricing-contract --features %s --godog.paths %s)\n", abs, filepath.Dir(abs), filepath.Base(abs))
		}
	}
	for i, d := range r.Dropped {
		fmt.Fprintf(w, "not reported %d: %s (its reproducer passed against the target)\n", i+1, d.Reason)
	}
}
