package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/cmd/internal/mocktarget"
	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/mocktest"
	"github.com/pricing-contract/pricing-contract/mockserver/variants"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/catalogue"
	"github.com/pricing-contract/pricing-contract/steps"
)

// wholeCatalogue asks TestCatalogue for every server: .ci/run's catalogue
// step, `go test ./cmd/pricing-mutation -run TestCatalogue -args -catalogue`.
var wholeCatalogue = flag.Bool("catalogue", false, "run the spec scenarios and the explorer against every server of the catalogue, not a sample")

// sampleStride is the step of the fixed sample of the catalogue that a
// plain go test runs, so that the harness is exercised on every change
// without a suite run per server (about a second each).
const sampleStride = 8

// TestCatalogue is the one place of the catalogue-wide checks: the spec
// scenarios pass against the mock, fail against every wrong server (a
// defect, a blind audit's wrong server) and pass against every legal one
// (a legal variant, a blind audit's correct server), which the explorer
// finds no divergence in either. Each legal variant the team wrote must act
// during the run, and every exchange with it must validate against
// /openapi.json: the document describes the API, not the mock's choices.
//
// With -catalogue it runs every server; without, every sampleStride-th;
// under -short and -race it is skipped (.ci/run runs it whole, without
// -race, where the data races it could find are in code every other test
// runs too).
func TestCatalogue(t *testing.T) {
	switch {
	case raceEnabled:
		t.Skip("one suite run per server, several times slower under -race; .ci/run runs the catalogue without it")
	case testing.Short() && !*wholeCatalogue:
		t.Skip("one suite run per server; go test without -short runs a sample, .ci/run all of them")
	}
	clean := runSuite(variants.Server{})
	switch {
	case clean.err != nil:
		t.Fatalf("without faults: %v", clean.err)
	case clean.ran == 0:
		t.Fatal("without faults: no scenario ran")
	case clean.failedRun():
		t.Fatalf("without faults, %d of %d spec scenarios failed (godog status %d), so no server can be judged:\n  %s",
			len(clean.failed), clean.ran, clean.status, strings.Join(clean.failed, "\n  "))
	}
	t.Logf("without faults: %d spec scenarios passed", clean.ran)

	mock, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mock.Close() })

	// Every server made from the mock, then the other lineages: their
	// correct servers (the suite from first contact, through init) and
	// their faults.
	all := slices.Concat(catalogue.All(), catalogue.Lineages())
	servers := all
	if !*wholeCatalogue {
		servers = nil
		for i := 0; i < len(all); i += sampleStride {
			servers = append(servers, all[i])
		}
		t.Logf("a sample: %d of %d servers, every %dth (-args -catalogue runs them all)", len(servers), len(all), sampleStride)
	}
	tally := newTally()
	t.Cleanup(func() { t.Log(tally) })
	for _, s := range servers {
		t.Run(string(s.Area)+"/"+s.Name, func(t *testing.T) {
			t.Parallel()
			if s.Legal {
				tally.add(s, passesLegal(t, mock, s))
			} else {
				tally.add(s, killsWrong(t, s))
			}
		})
	}
}

// raceRuns is how many runs of the spec scenarios a wrong server gets: a
// race (two requests at once, a window of a few milliseconds on the
// server) shows in some runs only, more rarely on a loaded machine; a
// defect that shows at all shows in the first. A server killed after the
// first says so in the log.
const raceRuns = 3

// killsWrong runs the spec scenarios against a wrong server until the first
// that fails: one must, in one of raceRuns runs. It reports whether one did.
func killsWrong(t *testing.T, s variants.Server) bool {
	var hits atomic.Int64
	o := runSpec(s, func() { hits.Add(1) }, nil, true)
	for run := 2; run <= raceRuns && o.err == nil && o.refused == "" && o.ran > 0 && !o.failedRun(); run++ {
		o = runSpec(s, func() { hits.Add(1) }, nil, true)
		if o.failedRun() {
			t.Logf("killed on run %d of %d: its defect shows in some runs only", run, raceRuns)
		}
	}
	switch {
	case o.err != nil:
		t.Fatalf("could not run: %v", o.err)
	case o.refused != "":
		// init refused the server: the gate stops there (exit 3).
	case o.ran == 0:
		t.Fatal("no scenario ran")
	case s.Wrap != nil && hits.Load() == 0:
		t.Errorf("WRONG-SURVIVED the server never acted, so the suite never sends what it breaks (§%s: %s)", s.Rule, s.Why)
		return false
	case !o.failedRun():
		t.Errorf("WRONG-SURVIVED all %d spec scenarios passed against the wrong server %s (§%s: %s); add a spec-level scenario that catches it",
			o.ran, s.Name, s.Rule, s.Why)
		return false
	}
	t.Logf("killed by %s", caughtBy(o))
	return true
}

// passesLegal runs the spec scenarios against a legal server, every
// exchange checked against /openapi.json for the team's, then the
// explorer: both must find nothing. It reports whether they did.
func passesLegal(t *testing.T, mock *mockserver.Server, s variants.Server) bool {
	var hits atomic.Int64
	// The team's legal variants are held to the document too; the blind
	// audits' correct servers were written from the spec alone, without it.
	team := s.Origin.Author == variants.Team
	var wrap func(http.Handler) http.Handler
	validator := documentFor(t, mock, s.Name)
	if team {
		wrap = validator.Wrap
	}
	o := runSpec(s, func() { hits.Add(1) }, wrap, false)
	switch {
	case o.err != nil:
		t.Fatalf("could not run: %v", o.err)
	case o.ran == 0:
		t.Fatal("no scenario ran")
	case s.Lineage != nil:
		// A whole server: nothing to hit.
	case hits.Load() == 0 && !team:
		// A reading the spec scenarios never meet: the suite sends it
		// only in @reference scenarios.
		t.Logf("never reached by a spec scenario (%s)", s.Why)
	case hits.Load() == 0:
		t.Fatalf("the variant never acted on a request or an answer, so it proves nothing (%s)", s.Why)
	}
	ok := true
	if o.failedRun() {
		var b strings.Builder
		for _, f := range o.failed {
			fmt.Fprintf(&b, "\n--- %s\n%s\n", f, o.reasons[f])
		}
		t.Errorf("LEGAL-FAILED %d of %d spec scenarios failed (godog status %d) against a legal server: %s%s",
			len(o.failed), o.ran, o.status, s.Why, b.String())
		ok = false
	}
	if team {
		checked, violations := validator.Result()
		// The spec scenarios send several hundred requests; far fewer
		// would mean the validator saw little of the run.
		if checked < 300 {
			t.Errorf("only %d exchanges were checked against /openapi.json", checked)
		}
		if len(violations) > 0 {
			t.Errorf("of %d exchanges with a legal variant, these disagree with /openapi.json (%s):\n%s",
				checked, s.Why, strings.Join(violations, "\n"))
			ok = false
		}
	}
	// The explorer grants every legal reading too: a fixed seed finds no
	// divergence.
	var p steps.Profile
	if s.Lineage != nil {
		p = mocktarget.MustStartLineage(t, s, 1, true).Profile
	} else {
		m := mocktest.MustStart(t, mocktest.Options{Servers: []variants.Server{s}})
		var err error
		if p, err = mocktarget.Profile(m, s.Profile); err != nil {
			t.Fatal(err)
		}
	}
	res, err := explore.Run(context.Background(), p, explore.Config{Runs: 30, Seed: 1, Budget: time.Minute})
	switch {
	case err != nil:
		t.Errorf("the explorer refuses the target: %v", err)
		ok = false
	case res.Diverged():
		t.Errorf("LEGAL-FAILED the explorer diverges from a legal server (%s): %s\n%s", s.Why, res.Reason(), res.Feature())
		ok = false
	}
	t.Logf("%d spec scenarios passed; the server acted %d times", o.ran, hits.Load())
	return ok
}

// tally counts the outcomes by round, for the log of a catalogue run.
type tally struct {
	mu     sync.Mutex
	rounds map[string]*[4]int // wrong killed, wrong, legal passing, legal
	before map[string]*[4]int // the same, as the audits' Before says
}

func newTally() *tally { return &tally{rounds: map[string]*[4]int{}, before: map[string]*[4]int{}} }

func (c *tally) add(s variants.Server, good bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, key := range []string{s.Origin.Round, "all"} {
		r := c.rounds[key]
		if r == nil {
			r = &[4]int{}
			c.rounds[key] = r
		}
		i := 0
		if s.Legal {
			i = 2
		}
		r[i+1]++
		if good {
			r[i]++
		}
	}
	if s.Origin.Before != "" {
		b := c.before[s.Origin.Round]
		if b == nil {
			b = &[4]int{}
			c.before[s.Origin.Round] = b
		}
		i := 0
		if s.Legal {
			i = 2
		}
		b[i+1]++
		if s.Origin.Before == "caught" || s.Origin.Before == "passed" {
			b[i]++
		}
	}
}

func (c *tally) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	b.WriteString("the catalogue, by round:")
	keys := make([]string, 0, len(c.rounds))
	for k := range c.rounds {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		r := c.rounds[k]
		fmt.Fprintf(&b, "\n  %-14s wrong killed %d of %d, legal passing %d of %d", k, r[0], r[1], r[2], r[3])
		if bf := c.before[k]; bf != nil {
			fmt.Fprintf(&b, " (before its fixes: %d of %d killed, %d of %d passing)", bf[0], bf[1], bf[2], bf[3])
		}
	}
	return b.String()
}
