package explore

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// The sixth stage: the run loop. Each pair of the pool explores on its own
// (pair.go); a divergence is shrunk to the shortest sequence that still
// shows it, written as a reproducer and run with the suite against the
// same target: it is reported only when the reproducer fails there.

// Result is what a run found and what it sent.
type Result struct {
	Sequences int   // sequences explored (shrinking aside)
	Steps     int   // requests of those sequences
	Wire      int64 // every request sent: steps, reads, restores, shrinking, reproducers
	Took      time.Duration
	PerPair   []PairStats
	// Divergences are the divergences reported: each reproducer failed
	// against the target. Dropped were found, but their reproducer passed
	// there: not reported. Again counts divergences found again.
	Divergences []Divergence
	Dropped     []Divergence
	Again       int
	coverage    *coverage
	cells       int
}

// Diverged reports whether the run reported a divergence.
func (r *Result) Diverged() bool { return len(r.Divergences) > 0 }

// Reason is the first divergence's reason, "" for none.
func (r *Result) Reason() string {
	if len(r.Divergences) == 0 {
		return ""
	}
	return r.Divergences[0].Reason
}

// Feature is the first divergence's reproducer, "" for none.
func (r *Result) Feature() string {
	if len(r.Divergences) == 0 {
		return ""
	}
	return r.Divergences[0].Feature
}

// Coverage is the run's coverage of the input space.
func (r *Result) Coverage() CoverageReport { return r.coverage.report() }

// WriteCoverage writes the coverage as JSON (--coverage FILE).
func (r *Result) WriteCoverage(w io.Writer) error { return r.coverage.writeJSON(w) }

// WriteCoverageTable writes the summary's table of the coverage.
func (r *Result) WriteCoverageTable(w io.Writer) { r.coverage.writeTable(w) }

// preflighted is the client of cfg (cfg.Timeout defaulted) and the profile
// as the suite's preflight of its target leaves it; an error where the
// preflight refuses the target or the profile.
func preflighted(ctx context.Context, p steps.Profile, cfg *Config) (*http.Client, steps.Profile, error) {
	if cfg.Timeout == 0 {
		cfg.Timeout = target.DefaultTimeout
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = target.NewClient(cfg.Timeout) // the tools' one client: no redirect followed, answers bounded
	}
	suite := steps.NewSuite(p, steps.Options{HTTPClient: hc, Output: io.Discard})
	if err := suite.Preflight(ctx); err != nil {
		return nil, p, err
	}
	return hc, suite.Profile(), nil
}

// Run explores the target of the profile with every pair of its accounts.
// It returns an error when the target or the profile cannot be used (the
// suite's preflight refuses it, the explorer cannot read its accounts).
func Run(ctx context.Context, p steps.Profile, cfg Config) (*Result, error) {
	if cfg.MaxDivergences == 0 {
		cfg.MaxDivergences = 10
	}
	hc, p, err := preflighted(ctx, p, &cfg)
	if err != nil {
		return nil, err
	}
	run := &runState{cfg: cfg, k: newKnowledge(), claimed: map[string]int{}}
	var pairs []*pair
	for i := range p.AccountPairs() {
		pr, err := openPair(ctx, p, i, hc, run)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, pr)
		run.k.countBefore(fmt.Sprint(pr.n), pr.wd, cfg.Created)
	}
	run.cov = newCoverage(pairs[0].wd.cells())
	start := time.Now()
	if cfg.Budget > 0 {
		run.deadline = start.Add(cfg.Budget)
	}
	var wg sync.WaitGroup
	stats := make([]PairStats, len(pairs))
	for i, pr := range pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stats[i] = pr.explore(ctx)
		}()
	}
	done := make(chan struct{})
	if cfg.Progress != nil {
		go func() {
			tick := time.NewTicker(5 * time.Second)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					rep := run.cov.report()
					run.mu.Lock()
					n := len(run.divergences)
					run.mu.Unlock()
					fmt.Fprintf(cfg.Progress, "explore: %s, %d sequences, %d requests (%d on the wire), %d of %d cells, %d divergences\n",
						time.Since(start).Round(time.Second), run.sequences.Load(), run.steps.Load(), run.wire.Load(), rep.Exercised, rep.Cells, n)
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	res := &Result{Sequences: int(run.sequences.Load()), Steps: int(run.steps.Load()), Wire: run.wire.Load(), Took: time.Since(start),
		PerPair: stats, Divergences: run.divergences, Dropped: run.dropped, Again: run.again, coverage: run.cov, cells: len(run.cov.all)}
	return res, nil
}

// openPair learns the target for pair i (0 the first) of the profile's
// pool: its accounts as A and B of a profile of their own, their world.
func openPair(ctx context.Context, p steps.Profile, i int, hc *http.Client, run *runState) (*pair, error) {
	ap := p.AccountPairs()[i]
	q := p
	q.Pairs = nil // one pair of accounts per explorer, as pair 1
	q.Email, q.Password, q.APIKey = ap.Email, ap.Password, ap.APIKey
	q.OtherEmail, q.OtherPassword, q.OtherAPIKey = ap.OtherEmail, ap.OtherPassword, ap.OtherAPIKey
	w := &wire{base: strings.TrimRight(q.BaseURL, "/"), http: hc, form: q.MustValue("login_encoding") == "form", count: &run.wire, shape: q.ShapeBody}
	wd, err := newWorld(ctx, q, w)
	if err != nil {
		if len(p.AccountPairs()) > 1 {
			err = fmt.Errorf("pair %d of accounts: %w", i+1, err)
		}
		return nil, err
	}
	pr := &pair{n: i + 1, wd: wd, w: w, run: run, profile: q}
	pr.lists.forget()
	if !wd.hasRead {
		pr.align(ctx)
	}
	return pr, nil
}

// explore runs the pair's two lanes, one of account A's sequences and one of
// B's, at once, until the budget, the number of runs or the divergences are
// spent. A sequence of one account's lane touches only that account's
// resources; one sequence in four acts as both accounts (another's id, its
// email, its credentials) and runs alone on the pair, as do the shrinking
// and the reproducer of a divergence.
//
// A run bounded by its number of sequences alone (no budget) takes the
// lanes in turn instead: lanes at once share the coverage that steers
// their draws, so what each draws depends on which answer came first, and
// such a run would not repeat with its seed (a sample that finds a wrong
// server in 250 sequences one time in two).
func (p *pair) explore(ctx context.Context) PairStats {
	var st PairStats
	var lanes [2][2]*generator // each lane's generator and its generator of both accounts
	for i, only := range []string{"A", "B"} {
		lanes[i] = [2]*generator{p.generator(uint64(2*p.n+i), only), p.generator(uint64(2*p.n+i)+1_000_003, "")}
	}
	if p.run.cfg.Budget == 0 {
		for {
			for _, l := range lanes {
				sent, ok := p.next(ctx, l[0], l[1])
				if !ok {
					return st
				}
				st.Sequences++
				st.Steps += sent
			}
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, l := range lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seqs, steps := 0, 0
			for {
				sent, ok := p.next(ctx, l[0], l[1])
				if !ok {
					break
				}
				seqs++
				steps += sent
			}
			mu.Lock()
			st.Sequences += seqs
			st.Steps += steps
			mu.Unlock()
		}()
	}
	wg.Wait()
	return st
}

// generator is one of the pair's generators: its own random source, drawing
// as one account (only) or as both ("").
func (p *pair) generator(stream uint64, only string) *generator {
	cells := p.run.cov.all
	if only != "" {
		cells = laneCells(cells)
	}
	return &generator{wd: p.wd, r: rand.New(rand.NewPCG(p.run.cfg.Seed, stream)), coverage: p.run.cov, cells: cells,
		counter: &p.run.counter, mint: p.run.k.mint, only: only}
}

// next runs the lane's next sequence, or now and then one of both
// accounts, alone on the pair. It returns the steps it sent, and false when
// the run is over and it sent none.
func (p *pair) next(ctx context.Context, lane, both *generator) (int, bool) {
	run := p.run
	if ctx.Err() != nil || run.stop.Load() {
		return 0, false
	}
	if !run.deadline.IsZero() && time.Now().After(run.deadline) {
		return 0, false
	}
	n := run.sequences.Add(1)
	if run.cfg.Runs > 0 && n > int64(run.cfg.Runs) {
		run.sequences.Add(-1)
		return 0, false
	}
	g := lane
	if lane.r.IntN(4) == 0 {
		g = both
		p.gate.Lock()
		hint, hinted := Op(""), false
		if !run.cfg.Replay && !run.cfg.NoConcurrent {
			hint, hinted = run.takeHint()
		}
		if batchNow := hinted || both.r.IntN(concurrentEvery) == 0; batchNow && !run.cfg.Replay && !run.cfg.NoConcurrent {
			// A concurrent batch, alone on the pair.
			b, d := p.concurrent(ctx, both, hint)
			if d != nil {
				p.foundBatch(ctx, b, d)
			}
			p.gate.Unlock()
			return len(b.steps), true
		}
	} else {
		p.gate.RLock()
	}
	sent, d := p.sequence(ctx, g, int(n))
	if g == both {
		p.gate.Unlock()
	} else {
		p.gate.RUnlock()
	}
	if d != nil {
		p.gate.Lock()
		p.found(ctx, sent, d)
		p.gate.Unlock()
	}
	return len(sent), true
}

// sequence explores one sequence; it returns the steps it sent and the
// divergence of the last, if any.
func (p *pair) sequence(ctx context.Context, g *generator, n int) ([]Step, *divergence) {
	s, err := p.wd.newSequence()
	if err != nil {
		p.run.stop.Store(true)
		return nil, nil
	}
	s.n = n
	length := 1 + g.r.IntN(16)
	var d *divergence
	for i := 0; i < length && d == nil && !s.broken && ctx.Err() == nil; i++ {
		st := g.next(s)
		d = p.take(ctx, s, i, &st)
		p.run.steps.Add(1)
	}
	g.pending = nil
	// Closing logins: each account whose credentials a step of the
	// sequence sent to change, accepted or refused, logs in with those
	// the reference holds: a password a refused request stored shows.
	for _, a := range p.closing(s) {
		if d != nil || s.broken || ctx.Err() != nil {
			break
		}
		st := Step{Op: OpLogin, Actor: a, Login: [2]string{g.emailTemplate(s, a), g.passwordTemplate(s, a)}, Note: "a closing login"}
		d = p.take(ctx, s, len(s.steps), &st)
		p.run.steps.Add(1)
	}
	p.restore(ctx, s, d != nil, g.accounts())
	return s.steps, d
}

// closing are the accounts whose password or email a PUT /users of the
// sequence carried, in the order A, B.
func (p *pair) closing(s *seqState) []string {
	touched := map[string]bool{}
	for _, st := range s.steps {
		if st.Op != OpPutUser {
			continue
		}
		who := st.Actor
		if st.Path == "other" {
			who = p.wd.other(st.Actor)
		}
		for _, m := range st.Muts {
			if m.Field == "password" || m.Field == "email" {
				touched[who] = true
			}
		}
	}
	var out []string
	for _, a := range []string{"A", "B"} {
		if touched[a] {
			out = append(out, a)
		}
	}
	return out
}
