package explore

import (
	"flag"
	"os"
	"strings"
	"testing"
)

// TestMain leaves the explorer's rate (TestExploreRate), a run over the
// whole catalogue of defects, to the runs that ask for it by name: .ci/run
// runs it without -race next to the catalogue, and make explore-rate; a
// plain go test ./... of this package skips it, to keep that tier within
// its time (README, "Tests: three tiers").
func TestMain(m *testing.M) {
	flag.Parse()
	if run := flag.Lookup("test.run").Value.String(); !strings.Contains(run, "TestExploreRate") {
		skip := flag.Lookup("test.skip")
		pattern := "^TestExploreRate$"
		if s := skip.Value.String(); s != "" {
			pattern = s + "|" + pattern
		}
		if err := skip.Value.Set(pattern); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
