// Package explore is `pricing-contract explore`: random sequences of spec
// operations sent to a target and to the reference, the mock's domain
// (mockserver/pricing), whose answers are compared modulo the freedoms the
// spec leaves; a divergence is shrunk (pgregory.net/rapid) to the shortest
// sequence that still shows it and written as a .feature in the suite's
// phrases.
//
// This first version explores PUT /users/:userId by accounts A and B with
// every credential form (the three schemes, none, a wrong key, a session
// token in the api-key scheme and an api key as a session token), on their
// own ids, the other's, an unknown and a malformed id, with a valid body or
// one with a field 7.3 names wrong. See README, "Differential exploration",
// for what it does not explore yet.
package explore

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// Exit statuses, those of the suite.
const (
	exitPass     = 0
	exitFail     = 1
	exitUsage    = 2
	exitUnusable = 3
)

// Main runs `pricing-contract explore`.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pricing-contract explore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		baseURL     = fs.String("base-url", "", "base `URL` of the target, with the version segment (env PRICING_BASE_URL)")
		profilePath = fs.String("profile", "", "read the target profile from `FILE`")
		profileOnly = fs.Bool("profile-only", false, "ignore the PRICING_* variables")
		runs        = fs.Int("runs", 50, "explore `N` random sequences")
		seed        = fs.Uint64("seed", 0, "the `SEED` of the sequences (0: from the clock; every run prints its seed)")
		out         = fs.String("out", "explore-reproducer.feature", "write the reproducer of a divergence to `FILE`")
		timeout     = fs.Duration("timeout", 10*time.Second, "give up on a request after `D`")
	)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitPass
		}
		return exitUsage
	}
	load := target.LoadProfile
	if *profileOnly {
		load = target.LoadProfileOnly
	}
	p, _, err := load(*profilePath, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract explore: %v\n", err)
		return exitUsage
	}
	if *baseURL != "" {
		p.BaseURL = strings.TrimRight(*baseURL, "/")
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	e, err := newExplorer(ctx, p, &http.Client{Timeout: *timeout}, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract explore: target or profile not usable: %v\n", err)
		return exitUnusable
	}
	fmt.Fprintf(stderr, "pricing-contract explore: %d sequences against %s, --seed %d\n", *runs, p.BaseURL, *seed)
	res := e.explore(*runs, *seed)
	e.restore()
	fmt.Fprintf(stdout, "explored: %d sequences (shrinking included), %d requests, %d of %d kinds of operation; divergences: %d\n",
		res.sequences, res.requests, len(res.ops), len(creds)*len(paths)*len(bodies), len(res.failures))
	if res.divergence == nil {
		return exitPass
	}
	fmt.Fprintf(stdout, "divergence: %s\n", res.divergence.reason)
	if err := os.WriteFile(*out, []byte(res.divergence.feature()), 0o644); err != nil {
		fmt.Fprintf(stderr, "pricing-contract explore: %v\n", err)
	} else {
		abs, _ := filepath.Abs(*out)
		fmt.Fprintf(stdout, "reproducer: %s (pricing-contract --features %s --godog.paths %s)\n", abs, filepath.Dir(abs), filepath.Base(abs))
	}
	return exitFail
}

// result is what a run of the explorer found.
type result struct {
	sequences, requests int
	ops                 map[string]bool
	failures            []string
	divergence          *sequence // the shortest failing sequence
}

// explore runs rapid over random sequences and keeps the shortest one that
// diverges.
func (e *explorer) explore(runs int, seed uint64) *result {
	res := &result{ops: map[string]bool{}}
	var mu sync.Mutex
	tb := &cliTB{}
	prop := func(t *rapid.T) {
		seq := genSequence(t)
		mu.Lock()
		res.sequences++
		mu.Unlock()
		e.reset()
		first := map[string]string{}
		for k, v := range e.want {
			first[k] = v
		}
		for i := range seq.ops {
			seq.ops[i].name = e.want[seq.ops[i].res+" "+seq.ops[i].actor]
			op := seq.ops[i]
			got := e.send(op)
			want := e.reference(op)
			mu.Lock()
			res.requests++
			res.ops[op.kind()] = true
			mu.Unlock()
			why := diverges(got, want)
			var stateAcct string
			if why == "" {
				stateAcct, why = e.stateDiverges()
			}
			if why != "" {
				d := &sequence{ops: seq.ops[:i+1], reason: fmt.Sprintf("%s: %s", op.describe(), why), want: want, first: first}
				if stateAcct != "" {
					d.stateAcct, d.stateFirst = stateAcct, e.want[stateAcct]
				}
				mu.Lock()
				res.failures = append(res.failures, d.reason)
				if res.divergence == nil || len(d.ops) <= len(res.divergence.ops) {
					res.divergence = d
				}
				mu.Unlock()
				t.Fatalf("%s", d.reason)
			}
		}
	}
	// rapid reads testing's flags (-test.short); a command has none until
	// testing.Init registers them.
	testing.Init()
	if !flag.Parsed() {
		_ = flag.CommandLine.Parse(nil)
	}
	setRapidFlags(runs, seed)
	done := make(chan struct{})
	go func() {
		defer close(done)
		rapid.Check(tb, prop)
	}()
	<-done
	return res
}

// setRapidFlags gives rapid the run's number of checks and seed; rapid
// reads its settings from the command line's flags.
func setRapidFlags(runs int, seed uint64) {
	for name, v := range map[string]string{
		"rapid.checks": strconv.Itoa(runs), "rapid.seed": strconv.FormatUint(seed, 10), "rapid.nofailfile": "true",
	} {
		if f := flag.CommandLine.Lookup(name); f != nil {
			_ = f.Value.Set(v)
		}
	}
}

// cliTB is the rapid.TB of a command: failures are recorded, FailNow ends
// the goroutine rapid runs in.
type cliTB struct {
	mu     sync.Mutex
	failed bool
	logs   []string
}

func (c *cliTB) Helper()      {}
func (c *cliTB) Name() string { return "explore" }
func (c *cliTB) Logf(f string, a ...any) {
	c.mu.Lock()
	c.logs = append(c.logs, fmt.Sprintf(f, a...))
	c.mu.Unlock()
}
func (c *cliTB) Log(a ...any)              { c.Logf("%s", fmt.Sprint(a...)) }
func (c *cliTB) Skipf(f string, a ...any)  { c.SkipNow() }
func (c *cliTB) Skip(a ...any)             { c.SkipNow() }
func (c *cliTB) SkipNow()                  { runtime.Goexit() }
func (c *cliTB) Errorf(f string, a ...any) { c.Logf(f, a...); c.Fail() }
func (c *cliTB) Error(a ...any)            { c.Log(a...); c.Fail() }
func (c *cliTB) Fatalf(f string, a ...any) { c.Errorf(f, a...); c.FailNow() }
func (c *cliTB) Fatal(a ...any)            { c.Error(a...); c.FailNow() }
func (c *cliTB) FailNow()                  { c.Fail(); runtime.Goexit() }
func (c *cliTB) Fail()                     { c.mu.Lock(); c.failed = true; c.mu.Unlock() }
func (c *cliTB) Failed() bool              { c.mu.Lock(); defer c.mu.Unlock(); return c.failed }

var _ rapid.TB = (*cliTB)(nil)

// Run is Main for a caller that holds a profile (the tests).
func Run(ctx context.Context, p steps.Profile, runs int, seed uint64) (*result, error) {
	e, err := newExplorer(ctx, p, &http.Client{Timeout: 10 * time.Second}, io.Discard)
	if err != nil {
		return nil, err
	}
	defer e.restore()
	return e.explore(runs, seed), nil
}
