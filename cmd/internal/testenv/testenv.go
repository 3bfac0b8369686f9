// Package testenv holds what the tests of several commands share. Only
// tests import it: no binary links it.
package testenv

import (
	"encoding/json"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
	"github.com/pricing-contract/pricing-contract/steps"
)

// SkipShort skips t under -short, saying why: the tests that build
// binaries, run the whole suite or explore at length, which -short (the
// quick loop) leaves to the full run.
func SkipShort(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
}

// PeakHeap runs f and returns how far the heap in use grew above what it
// was before, at most, sampled every 2 ms.
func PeakHeap(f func()) uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base, peak := m.HeapInuse, m.HeapInuse
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	return peak - base
}

// ReadCoverage decodes the --coverage file at path into endpoint -> status
// -> count.
func ReadCoverage(t testing.TB, path string) map[string]map[string]int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cov steps.Coverage
	if err := json.Unmarshal(b, &cov); err != nil {
		t.Fatalf("coverage is not the JSON of steps.Coverage: %v\n%s", err, b)
	}
	out := map[string]map[string]int{}
	for _, e := range cov.Endpoints {
		out[e.Endpoint] = e.Statuses
	}
	return out
}

// Variants are the catalogue's servers of names, in their order: the
// defects and readings the tests start a mock with. A name the catalogue
// does not have fails the test.
func Variants(t testing.TB, names ...string) []variants.Server {
	t.Helper()
	found, err := catalogue.Find(names)
	if err != nil {
		t.Fatal(err)
	}
	return found
}
