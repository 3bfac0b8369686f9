// Package explore is `pricing-contract explore`: random sequences of spec
// operations sent to a target and to the reference, the mock's domain
// (mockserver/pricing), whose answers are compared modulo the freedoms the
// spec leaves; a divergence is shrunk (pgregory.net/rapid) to the shortest
// sequence that still shows it and written as a .feature in the suite's
// phrases.
//
// It explores every operation of the spec (PUT /users/:userId, POST and
// PUT /clients, POST /apps, POST /sessions, the platforms) by accounts A and
// B of every pair of the pool, with every credential form (the three
// schemes, none, a wrong key, a session token in the api-key scheme, an api
// key as a session token or in the token query), on their own ids, the
// other's, an unknown and a malformed id, with valid bodies and bodies with
// a field 7.3 names wrong, reading the state back between operations. See
// README, "Differential exploration", for what it does not explore yet.
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
	"sync/atomic"
	"testing"
	"time"

	"github.com/brianvoe/gofakeit/v6"
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
		runs        = fs.Int("runs", 0, "explore `N` random sequences (0: as many as the budget allows)")
		budget      = fs.Duration("budget", 60*time.Second, "stop starting sequences after `D` (0: --runs alone)")
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
	e, err := newPool(ctx, p, &http.Client{Timeout: *timeout}, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "pricing-contract explore: target or profile not usable: %v\n", err)
		return exitUnusable
	}
	if *runs == 0 && *budget == 0 {
		fmt.Fprintf(stderr, "pricing-contract explore: give --runs or --budget\n")
		return exitUsage
	}
	fmt.Fprintf(stderr, "pricing-contract explore: against %s, --runs %d --budget %s --seed %d\n", p.BaseURL, *runs, *budget, *seed)
	began := time.Now()
	res := e.explore(*runs, *seed, *budget, stderr)
	took := time.Since(began)
	fmt.Fprintf(stdout, "explored: %d sequences (shrinking included), %d requests (%.1f/s), %d kinds of operation; divergences: %d; --seed %d\n",
		res.sequences, res.requests, float64(res.requests)/took.Seconds(), len(res.ops), len(res.failures), *seed)
	if len(res.perPair) > 1 {
		var parts []string
		for i, n := range res.perPair {
			parts = append(parts, fmt.Sprintf("pair %d: %d (%.1f/s)", i+1, n, float64(n)/took.Seconds()))
		}
		fmt.Fprintf(stdout, "requests by pair of accounts: %s\n", strings.Join(parts, ", "))
	}
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
	perPair             []int     // the requests of each pair of accounts
}

// pool is one explorer for each pair of accounts of the profile (pricing-mock
// --accounts N, the suite's pool): sequences run on every pair at once, the
// accounts of a pair changed by one sequence at a time.
type pool struct {
	explorers []*explorer
	stop      atomic.Bool // a pair found a divergence: the others stop too
}

func newPool(ctx context.Context, p steps.Profile, hc *http.Client, notes io.Writer) (*pool, error) {
	pl := &pool{}
	pairs := p.AccountPairs()
	for i, pair := range pairs {
		q := p
		q.Pairs = nil // one pair per explorer
		q.Email, q.Password, q.APIKey = pair.Email, pair.Password, pair.APIKey
		q.OtherEmail, q.OtherPassword, q.OtherAPIKey = pair.OtherEmail, pair.OtherPassword, pair.OtherAPIKey
		e, err := newExplorer(ctx, q, hc, notes)
		if err != nil {
			if len(pairs) > 1 {
				err = fmt.Errorf("pair %d of accounts: %w", i+1, err)
			}
			return nil, err
		}
		e.stop, e.salt = &pl.stop, int64(i)*7_919_000_003
		pl.explorers = append(pl.explorers, e)
	}
	return pl, nil
}

// explore runs the pairs in parallel, runs shared among them, and merges
// what they found; seeds differ by pair, so a run repeats with its seed
// and the same number of pairs.
func (pl *pool) explore(runs int, seed uint64, budget time.Duration, progress io.Writer) *result {
	results := make([]*result, len(pl.explorers))
	var wg sync.WaitGroup
	for i, e := range pl.explorers {
		n := runs
		if runs > 0 {
			n = runs / len(pl.explorers)
			if i < runs%len(pl.explorers) {
				n++
			}
			if n == 0 {
				continue
			}
		}
		notes := progress
		if i > 0 {
			notes = nil // one progress line, the first pair's
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = e.explore(n, seed+uint64(i)*1_000_003, budget, notes)
		}()
	}
	wg.Wait()
	res := &result{ops: map[string]bool{}}
	for _, r := range results {
		if r == nil {
			res.perPair = append(res.perPair, 0)
			continue
		}
		res.sequences += r.sequences
		res.requests += r.requests
		res.perPair = append(res.perPair, r.requests)
		for k := range r.ops {
			res.ops[k] = true
		}
		res.failures = append(res.failures, r.failures...)
		if r.divergence != nil && (res.divergence == nil || len(r.divergence.steps) < len(res.divergence.steps)) {
			res.divergence = r.divergence
		}
	}
	return res
}

// batch is how many sequences one rapid.Check runs: a budget is looked at
// between batches, each with its own seed drawn from the run's.
const batch = 10

// explore runs rapid over random sequences until runs sequences or the
// budget are spent, or a divergence is found and shrunk; it keeps the
// shortest sequence that diverges.
func (e *explorer) explore(runs int, seed uint64, budget time.Duration, progress io.Writer) *result {
	res := &result{ops: map[string]bool{}}
	start := time.Now()
	lastNote := start
	initFlags.Do(func() {
		// rapid reads testing's flags (-test.short); a command has none
		// until testing.Init registers them.
		testing.Init()
		if !flag.Parsed() {
			_ = flag.CommandLine.Parse(nil)
		}
		// Shrinking sends every candidate to the target; minimize then
		// drops whole steps, so rapid's share stays short.
		for name, v := range map[string]string{"rapid.nofailfile": "true", "rapid.shrinktime": "2s"} {
			if f := flag.CommandLine.Lookup(name); f != nil {
				_ = f.Value.Set(v)
			}
		}
	})
	for k := uint64(0); res.divergence == nil; k++ {
		n := batch
		if runs > 0 {
			if left := runs - int(k)*batch; left <= 0 {
				break
			} else if left < n {
				n = left
			}
		}
		if budget > 0 && time.Since(start) > budget || e.stop != nil && e.stop.Load() {
			break
		}
		// rapid takes its settings from global flags, read before the
		// first check: they stay locked until then, so that explorers
		// in parallel (the tests) each run with their own.
		rapidFlags.Lock()
		setRapidFlags(n, seed+k)
		var once sync.Once
		release := func() { once.Do(rapidFlags.Unlock) }
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer release()
			rapid.Check(&cliTB{}, func(t *rapid.T) {
				release()
				e.sequence(t, res)
			})
		}()
		<-done
		if progress != nil && time.Since(lastNote) > 5*time.Second {
			lastNote = time.Now()
			e.mu.Lock()
			fmt.Fprintf(progress, "explore: %s, %d sequences, %d requests, %d kinds of operation, %d divergences\n",
				time.Since(start).Round(time.Second), res.sequences, res.requests, len(res.ops), len(res.failures))
			e.mu.Unlock()
		}
	}
	if res.divergence != nil {
		if e.stop != nil {
			e.stop.Store(true)
		}
		res.divergence = e.minimize(res.divergence, res)
	}
	return res
}

// sequence is one property check: a known state on both sides, then steps
// drawn one by one from the reference's state, each answer judged; the
// accounts are put back whatever happens.
func (e *explorer) sequence(t *rapid.T, res *result) {
	s, err := e.startSequence()
	if err != nil {
		t.Fatalf("the reference: %v", err)
	}
	defer e.restore(s)
	e.mu.Lock()
	res.sequences++
	s.n = res.sequences
	e.mu.Unlock()
	// Uniform, not rapid's small-first draw: long sequences reach the
	// state that short ones cannot, and minimize shortens what diverges.
	steps := gofakeit.New(rapid.Int64().Draw(t, "length")).Number(1, 16)
	for i := 0; i < steps; i++ {
		st := e.drawStep(t, s)
		d := e.take(s, i, &st)
		e.mu.Lock()
		res.requests++
		res.ops[st.kind()] = true
		e.mu.Unlock()
		if d != nil {
			seq := &sequence{steps: s.steps, div: d, reason: st.describe() + ": " + d.reason}
			e.mu.Lock()
			res.failures = append(res.failures, seq.reason)
			if res.divergence == nil || len(seq.steps) <= len(res.divergence.steps) {
				res.divergence = seq
			}
			e.mu.Unlock()
			t.Fatalf("%s", seq.reason)
		}
	}
}

var (
	initFlags  sync.Once
	rapidFlags sync.Mutex
)

// setRapidFlags gives rapid the run's number of checks and seed; rapid
// reads its settings from the command line's flags.
func setRapidFlags(runs int, seed uint64) {
	for name, v := range map[string]string{
		"rapid.checks": strconv.Itoa(runs), "rapid.seed": strconv.FormatUint(seed, 10),
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
func Run(ctx context.Context, p steps.Profile, runs int, seed uint64, budget time.Duration) (*result, error) {
	e, err := newPool(ctx, p, &http.Client{Timeout: 10 * time.Second}, io.Discard)
	if err != nil {
		return nil, err
	}
	return e.explore(runs, seed, budget, nil), nil
}

// Diverged reports whether the run found a divergence.
func (r *result) Diverged() bool { return r.divergence != nil }

// Reason is the one-line reason of the divergence kept, "" for none.
func (r *result) Reason() string {
	if r.divergence == nil {
		return ""
	}
	return r.divergence.reason
}

// Feature is the reproducer of the divergence kept, "" for none.
func (r *result) Feature() string {
	if r.divergence == nil {
		return ""
	}
	return r.divergence.feature()
}

// Sequences and Requests are what the run sent.
func (r *result) Sequences() int { return r.sequences }
func (r *result) Requests() int  { return r.requests }
