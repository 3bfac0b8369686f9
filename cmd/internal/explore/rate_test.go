package explore

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/contract"
	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	servers "github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
)

var rateRuns = flag.Int("explore.rate", 150, "the explorer's rate over the built-in defects: at most `N` sequences (and 60 s) each (make explore-rate)")

// TestExploreRate is the share of the built-in defects a fixed seed finds,
// each alone in a mock, without the hand-written scenarios; it must be at
// least nine in ten. The same seed and number of sequences find nothing
// against the mock itself, so a defect found is the defect. Under the race
// detector every sixteenth defect runs, without the rate (.ci/run runs the
// whole catalogue without it); make explore-rate runs more sequences.
func TestExploreRate(t *testing.T) {
	if testing.Short() {
		t.Skip("a long run; make explore-rate")
	}
	const seed = 7
	budget := 60 * time.Second
	clean := mocktarget.MustStart(t, mocktest.Options{})
	res, err := Run(context.Background(), clean.Profile, *rateRuns, seed, budget)
	if err != nil {
		t.Fatal(err)
	}
	if res.divergence != nil {
		t.Fatalf("the control run against the mock diverges: %s\n%s", res.divergence.reason, res.divergence.feature())
	}
	all := servers.Wrong(variants.Team)
	// RATE_ONLY=name,name measures those defects alone (a look at one).
	if only := os.Getenv("RATE_ONLY"); only != "" {
		all, err = servers.Find(strings.Split(only, ","))
		if err != nil {
			t.Fatal(err)
		}
	}
	if raceEnabled {
		var sample []variants.Server
		for i := 0; i < len(all); i += 16 {
			sample = append(sample, all[i])
		}
		all = sample
	}
	var (
		mu             sync.Mutex
		found, refused int
		unshown        int
		wg             sync.WaitGroup
		slots          = make(chan struct{}, 2)
		start          = time.Now()
	)
	for _, d := range all {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			m, err := mocktarget.Start(mocktest.Options{Servers: []variants.Server{d}})
			if err != nil {
				t.Errorf("%s: %v", d.Name, err)
				return
			}
			defer m.Close()
			res, err := Run(context.Background(), m.Profile, *rateRuns, seed, budget)
			var why string
			if err == nil && res.divergence != nil {
				// A mock of its own: reproducers change account A, and
				// two run at once.
				if ref, err := mocktest.Start(mocktest.Options{}); err != nil {
					why = err.Error()
				} else {
					why = reproduces(t, res.divergence.feature(), m.URL, ref.URL)
					ref.Close()
				}
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				refused++ // the preflight refused the target: exit 3, not a divergence
			case res.divergence != nil && why != "":
				// Found, but not shown by its reproducer: not counted.
				unshown++
				t.Logf("found but not reproduced: %s: the reproducer of %q %s:\n%s", d.Name, res.divergence.reason, why, res.divergence.feature())
			case res.divergence != nil:
				found++
			default:
				t.Logf("not found: %s (%s)", d.Name, d.Why)
			}
		}()
	}
	wg.Wait()
	t.Logf("rate: %d of %d defects found with a reproducer that fails against the defect and passes against the mock (%d refused by the preflight, exit 3; %d found whose reproducer did not show it), at most %d sequences and %s each, seed %d, in %s",
		found, len(all), refused, unshown, *rateRuns, budget, seed, time.Since(start).Round(time.Second))
	if raceEnabled {
		// A sample too small for a rate: .ci/run measures the whole
		// catalogue without -race.
		return
	}
	if (found+refused)*10 < len(all)*9 {
		t.Errorf("the explorer finds %d of %d defects (with %d refused by the preflight): under nine in ten", found, len(all), refused)
	}
}

// reproduces runs a reproducer with the suite against the target it was
// written for and against the mock: it must fail there and pass here. It
// says what went wrong, "" when both hold.
func reproduces(t *testing.T, feature, target, mock string) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "repro.feature"), []byte(feature), 0o644); err != nil {
		return err.Error()
	}
	run := func(base string) int {
		var out, errs bytes.Buffer
		return contract.Run(context.Background(), []string{"--base-url", base, "--features", dir, "--godog.format", "progress"},
			func(string) string { return "" }, &out, &errs)
	}
	// 1, or 3 where the suite's own preflight refuses the defect.
	if code := run(target); code != 1 && code != 3 {
		return fmt.Sprintf("does not fail against the defect (exit %d)", code)
	}
	if code := run(mock); code != 0 {
		return fmt.Sprintf("fails against the mock (exit %d)", code)
	}
	return ""
}
