package explore_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/cmd/internal/testenv"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
)

// The explorer finds nothing against the reference implementation, and a
// run of a few hundred sequences exercises every cell of the catalogue.
func TestExploreFindsNoDivergenceInTheMock(t *testing.T) {
	m := mocktarget.MustStart(t, mocktest.Options{})
	runs := 200
	if testing.Short() {
		runs = 40
	}
	res, err := explore.Run(context.Background(), m.Profile, explore.Config{Runs: runs, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range append(res.Divergences, res.Dropped...) {
		t.Errorf("a divergence against the mock: %s\n%s\n%s", d.Reason, d.Feature, d.Proof)
	}
	cov := res.Coverage()
	t.Logf("%d sequences, %d requests, %d of %d cells, every cell after %s", res.Sequences, res.Steps, cov.Exercised, cov.Cells, cov.FullAfter)
	if !testing.Short() && cov.Exercised != cov.Cells {
		t.Errorf("%d of %d cells exercised in %d sequences", cov.Exercised, cov.Cells, runs)
	}
}

// A run bounded by its number of sequences alone repeats with its seed:
// the same steps, the same cells, against two fresh mocks. The rate's
// sample (servers.TestRateSample) counts on it.
func TestRunsRepeatWithTheirSeed(t *testing.T) {
	table := func() (int, string) {
		m := mocktarget.MustStart(t, mocktest.Options{})
		res, err := explore.Run(context.Background(), m.Profile, explore.Config{Runs: 60, Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		res.WriteCoverageTable(&b)
		return res.Steps, b.String()
	}
	steps1, cov1 := table()
	steps2, cov2 := table()
	if steps1 != steps2 || cov1 != cov2 {
		t.Errorf("two runs of --runs 60 --seed 9: %d and %d steps, coverage\n%s\nand\n%s", steps1, steps2, cov1, cov2)
	}
}

// The reproducers checked in under testdata/reproducers, each written by the
// explorer for the defect its file is named after, run with the suite as a
// user runs one: they pass against the mock and fail against their defect.
func TestCheckedInReproducers(t *testing.T) {
	files, err := filepath.Glob("testdata/reproducers/*.feature")
	if err != nil || len(files) == 0 {
		t.Fatalf("no reproducer under testdata/reproducers (%v)", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".feature")
		t.Run(name, func(t *testing.T) {
			ds := testenv.Variants(t, name)
			run := func(base string) (int, string) {
				var out, errs bytes.Buffer
				code := contract.Run(context.Background(), []string{"--base-url", base, "--features", filepath.Dir(f), "--godog.paths", filepath.Base(f), "--godog.format", "progress"},
					func(string) string { return "" }, &out, &errs)
				return code, out.String() + errs.String()
			}
			if code, out := run(mocktest.MustStart(t, mocktest.Options{}).URL); code != 0 {
				t.Errorf("the reproducer fails against the mock (exit %d):\n%s", code, out)
			}
			if code, out := run(mocktest.MustStart(t, mocktest.Options{Servers: ds}).URL); code != 1 {
				t.Errorf("the reproducer does not fail against %s (exit %d):\n%s", name, code, out)
			}
		})
	}
}
