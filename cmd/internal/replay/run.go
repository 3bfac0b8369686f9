package replay

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
	"github.com/pricing-contract/pricing-contract/steps"
)

// The fifth stage: the replay. The recording's steps go to the target one
// at a time, in one sequence of the explorer from the accounts' known
// state, each judged by the reference and the freedoms as the explorer
// judges its own (explore.ReplayRun). A divergence ends the sequence: its
// accounts are put back, its divergence is shrunk to the recorded steps it
// needs, written as a reproducer and run against the target
// (explore.Replayer.Verify); the replay goes on with the next request in a
// new sequence, from the accounts' known state again, and a request that
// names a client made before the divergence is skipped, since the new
// sequence knows no such client.

// Config is one replay.
type Config struct {
	// APIBase is the recording's API base (scheme, host, path to the
	// version segment); "": the one most of its requests use.
	APIBase string
	// Accounts map recorded accounts onto the pair's, by a login's email
	// or a user id: {"qa@example.com": "B"}.
	Accounts map[string]string
	// Pair is the pair of the profile's pool to replay on (1 the first);
	// 0: the pair whose email or api key the recording uses, else 1.
	Pair    int
	Timeout time.Duration
	// HTTPClient, when set, sends every request.
	HTTPClient *http.Client
	// Seed draws the values the replay makes (passwords, addresses); 0:
	// the clock.
	Seed uint64
	// Progress gets a line per recorded request as it is judged; nil: none.
	Progress io.Writer
}

// State is what became of a recorded request.
type State string

// The states of a recorded request.
const (
	Matched  State = "matched"  // sent, and the answer is one the spec allows
	Diverged State = "diverged" // sent, and the answer diverges: its reproducer fails against the target
	// Unconfirmed: sent, the answer diverged, but its reproducer passed
	// against the target: not reported, as the explorer does not.
	Unconfirmed State = "unconfirmed"
	Skipped     State = "skipped" // not sent, with why
)

// Outcome is one recorded request after the replay.
type Outcome struct {
	N     int
	Label string // "recorded request 7, PUT /v1/users/1"
	State State
	// Why: the reason of a skip, or of a divergence.
	Why string
	// Sent is the step as sent, in words; Status the target's answer,
	// Allowed the statuses the spec allows, Freedoms those granted.
	Sent     string
	Status   int
	Allowed  string
	Rule     string
	Freedoms []string
	// Notes say what the replay changed of the recorded request.
	Notes      []string
	Divergence *explore.Verified
	// Reproducer is the divergence's reproducer file, once written.
	Reproducer string
	Took       time.Duration
}

// Result is a replay's outcome.
type Result struct {
	Recording *Recording
	Base      string   // the recording's API base
	Target    string   // the target's base URL
	Accounts  []string // how the recording's accounts were mapped
	Outcomes  []*Outcome
	Started   time.Time
	Took      time.Duration
	Wire      int64 // requests on the wire in all
	secrets   secrets
}

// Count is the number of outcomes in a state.
func (r *Result) Count(s State) int {
	n := 0
	for _, o := range r.Outcomes {
		if o.State == s {
			n++
		}
	}
	return n
}

// Diverged reports whether the replay reported a divergence.
func (r *Result) Diverged() bool { return r.Count(Diverged) > 0 }

// plan is a recording read as calls, its accounts learned.
type plan struct {
	rec      *Recording
	base     base
	calls    []*call
	accounts *accountMap
}

// newPlan reads a recording's requests as calls of its API and learns its
// accounts; it needs no target.
func newPlan(rec *Recording, apiBase, platformsPath string) (*plan, error) {
	b, err := findBase(rec, apiBase)
	if err != nil {
		return nil, err
	}
	pl := &plan{rec: rec, base: b}
	for _, r := range rec.Requests {
		version, rest, why := b.place(r)
		var c *call
		if why != "" {
			c = &call{req: r, label: fmt.Sprintf("recorded request %d, %s %s", r.N, r.Method, displayPath(r)), skip: why}
		} else {
			c = readCall(r, version, rest, b, platformsPath)
		}
		pl.calls = append(pl.calls, c)
	}
	pl.accounts = learn(pl.calls)
	return pl, nil
}

// pairOf is the pair of the pool whose email or api key the recording
// uses, else 1.
func (pl *plan) pairOf(p steps.Profile) int {
	for i, ap := range p.AccountPairs() {
		for _, n := range []string{emailNode(ap.Email), emailNode(ap.OtherEmail), "key:" + ap.APIKey, "key:" + ap.OtherAPIKey} {
			if _, ok := pl.accounts.ids.parent[n]; ok {
				return i + 1
			}
		}
	}
	return 1
}

// keysOf are the api keys of pair n (1 the first), by account.
func keysOf(p steps.Profile, n int) map[string]string {
	ap := p.AccountPairs()[n-1]
	return map[string]string{"A": ap.APIKey, "B": ap.OtherAPIKey}
}

// prepare maps the plan's accounts onto the pair's and makes each call's
// step.
func (pl *plan) prepare(pair []explore.Account, keys map[string]string, cat explore.Catalogue, cfg Config, avoid func(string) bool) error {
	if err := pl.accounts.assign(pl.calls, pair, keys, cfg.Accounts); err != nil {
		return err
	}
	seed := cfg.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	m := &mapper{cat: cat, pair: map[string]explore.Account{}, accounts: pl.accounts, avoid: avoid,
		emails: map[string]string{}, password: map[string]string{}, setBy: map[string]*call{}, rnd: rand.New(rand.NewPCG(seed, 31))}
	for _, a := range pair {
		m.pair[a.Name] = a
	}
	m.build(pl.calls)
	return nil
}

// Run replays a recording against the target of a profile. It returns an
// error that is a *steps.UnusableError when the target or the profile
// cannot be used, any other when the recording cannot be replayed.
func Run(ctx context.Context, rec *Recording, p steps.Profile, cfg Config) (*Result, error) {
	pl, err := newPlan(rec, cfg.APIBase, p.MustValue("platforms_path"))
	if err != nil {
		return nil, err
	}
	if cfg.Pair == 0 {
		cfg.Pair = pl.pairOf(p)
	}
	if cfg.Pair > len(p.AccountPairs()) {
		return nil, fmt.Errorf("--pair %d: the profile has %d pairs of accounts", cfg.Pair, len(p.AccountPairs()))
	}
	start := time.Now()
	r, err := explore.NewReplayer(ctx, p, explore.Config{Timeout: cfg.Timeout, HTTPClient: cfg.HTTPClient, Pair: cfg.Pair})
	if err != nil {
		if _, ok := err.(*steps.UnusableError); !ok {
			err = &steps.UnusableError{Reason: err.Error()}
		}
		return nil, err
	}
	ss := collectSecrets(rec)
	ap := p.AccountPairs()[cfg.Pair-1]
	profileSecrets := []string{ap.Password, ap.OtherPassword, ap.APIKey, ap.OtherAPIKey}
	avoid := func(s string) bool { return ss.has(s) || strings.Contains(strings.Join(profileSecrets, "\x00"), s) }
	if err := pl.prepare(r.Accounts(), keysOf(p, cfg.Pair), r.Catalogue(), cfg, avoid); err != nil {
		return nil, err
	}
	res := &Result{Recording: rec, Base: pl.base.String(), Target: p.BaseURL, Started: start, secrets: ss}
	for _, line := range pl.accounts.described {
		res.Accounts = append(res.Accounts, line)
	}
	slices.Sort(res.Accounts)
	res.Outcomes = pl.replay(ctx, r, cfg.Progress, ss)
	res.Took, res.Wire = time.Since(start), r.Wire()
	return res, nil
}

// replay sends the plan's calls and judges each.
func (pl *plan) replay(ctx context.Context, r *explore.Replayer, progress io.Writer, ss secrets) []*Outcome {
	var out []*Outcome
	var x *explore.ReplayRun
	ended := 0 // the last request whose divergence ended a sequence
	bySig := map[string]*Outcome{}
	for _, c := range pl.calls {
		o := &Outcome{N: c.req.N, Label: c.label, Notes: c.notes}
		out = append(out, o)
		if ctx.Err() != nil && c.skip == "" {
			c.skip = "the replay was interrupted"
		}
		for _, d := range c.deps {
			if c.skip == "" && d.req.N <= ended {
				c.skip = fmt.Sprintf("it relies on %s (the client it made, the password or address it set), whose sequence the divergence of request %d ended: the new sequence starts without it", d.label, ended)
			}
		}
		if c.skip == "" && x == nil {
			var err error
			if x, err = r.Begin(); err != nil {
				c.skip = "the reference cannot start a sequence: " + err.Error()
			}
		}
		if c.skip == "" && c.made != "" && !x.Made(c.actor, c.made) {
			c.skip = "its client is the one " + c.made + " made, whose id the target did not show (or which the reference did not make)"
		}
		if c.skip != "" {
			o.State, o.Why = Skipped, c.skip
			pl.progress(progress, o, ss)
			continue
		}
		start := time.Now()
		j := x.Take(ctx, c.step)
		o.Took = time.Since(start)
		o.Sent, o.Status, o.Allowed, o.Rule, o.Freedoms = describe(c.step), j.Status, j.Allowed, j.Rule, j.Freedoms
		if j.Diverged == "" {
			o.State = Matched
			pl.progress(progress, o, ss)
			continue
		}
		// The sequence ends here: its accounts are put back, then its
		// divergence is shrunk, written and run against the target.
		x.End(ctx)
		v := r.Verify(ctx, x, j)
		x, ended = nil, c.req.N
		o.Why, o.Divergence = j.Diverged, &v
		switch prior := bySig[v.Signature]; {
		case v.Again && prior != nil:
			o.State, o.Why = prior.State, j.Diverged+" (the same divergence as "+prior.Label+")"
		case v.Again, v.Reported:
			o.State = Diverged
		default:
			o.State = Unconfirmed
		}
		if !v.Again {
			bySig[v.Signature] = o
		}
		pl.progress(progress, o, ss)
	}
	if x != nil {
		x.End(ctx)
	}
	return out
}

// describe is a step in words, as the explorer's reasons say it.
func describe(st explore.Step) string { return st.Describe() }

// progress writes one line for a recorded request judged.
func (pl *plan) progress(w io.Writer, o *Outcome, ss secrets) {
	if w == nil {
		return
	}
	fmt.Fprintln(w, ss.redact(o.line()))
	for _, n := range o.Notes {
		fmt.Fprintln(w, "  "+ss.redact(n))
	}
}

// line is an outcome in one line.
func (o *Outcome) line() string {
	switch o.State {
	case Skipped:
		return fmt.Sprintf("%s: skipped: %s", o.Label, o.Why)
	case Matched:
		return fmt.Sprintf("%s: matched: answered %d, the spec's answer is %s%s", o.Label, o.Status, o.Allowed, freedomsText(o.Freedoms))
	case Unconfirmed:
		return fmt.Sprintf("%s: diverged, not reported (its reproducer passed against the target): %s", o.Label, o.Why)
	}
	return fmt.Sprintf("%s: diverged: %s", o.Label, o.Why)
}

func freedomsText(fs []string) string {
	if len(fs) == 0 {
		return ""
	}
	return " (freedoms granted: " + strings.Join(fs, ", ") + ")"
}
