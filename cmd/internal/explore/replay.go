package explore

import (
	"context"
	"sort"
	"strconv"

	"github.com/pricing-contract/pricing-contract/steps"
)

// What pricing-contract replay (cmd/internal/replay) reuses of the stages:
// a Replayer is one pair of a target's accounts, learned as the explorer
// learns it (the world); a Replay is one sequence of it, whose steps are
// given rather than drawn, each judged by the reference as the explorer
// judges its own (take); Verify shrinks a divergence, writes its reproducer
// and runs it against the target, as the explorer does (verify).

// Replayer sends fixed sequences of steps to one pair of a target's
// accounts and judges them.
type Replayer struct {
	pr  *pair
	run *runState
}

// NewReplayer checks the target with the suite's preflight and learns the
// pair cfg.Pair of the profile's pool, as Run does. It returns an error when
// the target or the profile cannot be used.
func NewReplayer(ctx context.Context, p steps.Profile, cfg Config) (*Replayer, error) {
	cfg.Replay = true
	cfg.MaxDivergences = 1 << 30 // a replay judges every request of the recording
	hc, p, err := preflighted(ctx, p, &cfg)
	if err != nil {
		return nil, err
	}
	n := max(cfg.Pair, 1)
	if n > len(p.AccountPairs()) {
		return nil, &steps.UnusableError{Reason: "the profile has " + strconv.Itoa(len(p.AccountPairs())) + " pairs of accounts, not " + strconv.Itoa(n)}
	}
	run := &runState{cfg: cfg, k: newKnowledge(), claimed: map[string]int{}}
	pr, err := openPair(ctx, p, n-1, hc, run)
	if err != nil {
		return nil, err
	}
	run.cov = newCoverage(pr.wd.cells())
	return &Replayer{pr: pr, run: run}, nil
}

// Account is what a replay knows of an account of the pair, its secrets
// aside: its email as the profile gives it and its ids on the target.
type Account struct {
	Name             string // A or B
	Email            string
	UserID, ClientID string
}

// Accounts are the pair's accounts, A then B.
func (r *Replayer) Accounts() []Account {
	var out []Account
	for _, name := range []string{"A", "B"} {
		a := r.pr.wd.acct[name]
		out = append(out, Account{Name: name, Email: a.email, UserID: a.userID, ClientID: a.clientID})
	}
	return out
}

// Catalogue is what the target's catalogues hold and what the profile
// chose, as far as a recording's values are mapped onto them.
type Catalogue struct {
	// IDs are the ids of each catalogue: currencies, plans, platforms,
	// phoneCountries.
	IDs map[string][]int64
	// Default is the profile's id of each catalogue (phoneCountries: the
	// account's).
	Default map[string]map[string]int64 // catalogue -> account -> id
	Hash    string                      // the profile's marketplace app
	// SeveralClients: a user may hold several clients (clients_per_user);
	// SeveralApps: a marketplace app may have several apps.
	SeveralClients, SeveralApps bool
	EmailDomain                 string
	PlatformsPath               string
}

// Catalogue is the pair's catalogue.
func (r *Replayer) Catalogue() Catalogue {
	wd := r.pr.wd
	c := Catalogue{IDs: wd.cat.ids(), Hash: wd.cat.hash, SeveralClients: wd.several, SeveralApps: wd.byHash,
		EmailDomain: wd.domain, PlatformsPath: wd.p.MustValue("platforms_path"), Default: map[string]map[string]int64{}}
	for _, name := range []string{"A", "B"} {
		u, _, _ := wd.acct[name].state()
		for cat, id := range map[string]int64{"currencies": wd.cat.currencyID, "plans": wd.cat.planID, "platforms": wd.cat.platformID, "phoneCountries": u.PhoneCountryID} {
			if c.Default[cat] == nil {
				c.Default[cat] = map[string]int64{}
			}
			c.Default[cat][name] = id
		}
	}
	for _, ids := range c.IDs {
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	}
	return c
}

// Wire is the number of requests sent to the target so far: the steps,
// the reads back, the restores, the shrinking and the reproducers.
func (r *Replayer) Wire() int64 { return r.run.wire.Load() }

// ReplayRun is one sequence: its steps are judged one at a time from the
// accounts' known state, and End puts the accounts back.
type ReplayRun struct {
	r        *Replayer
	s        *seqState
	diverged bool
}

// Begin starts a sequence from the accounts' known state.
func (r *Replayer) Begin() (*ReplayRun, error) {
	s, err := r.pr.wd.newSequence()
	if err != nil {
		return nil, err
	}
	s.n = int(r.run.sequences.Add(1))
	return &ReplayRun{r: r, s: s}, nil
}

// Made reports whether a client the step labelled label made is one the
// sequence knows on the target (the reference made it, and the target
// showed its id), so that a "created" path may name it.
func (x *ReplayRun) Made(actor, label string) bool {
	_, ok := x.s.createdFor(Step{Actor: actor, Path: "created", PathID: label})
	return ok
}

// Judged is what the judgement of one step found.
type Judged struct {
	Status   int    // the target's status; -1 no answer
	Allowed  string // the statuses the spec allows, in words
	Rule     string // the rule of the spec the verdict applies
	Freedoms []string
	// Diverged is the reason of a divergence, "" none.
	Diverged string
	// Muts are the operators that describe the step's body (classify).
	Muts []Mutation
	div  *divergence
}

// Take sends a step, judges the answer and reads the state back where the
// target has the read extensions.
func (x *ReplayRun) Take(ctx context.Context, st Step) Judged {
	i := len(x.s.steps)
	x.r.run.steps.Add(1)
	v, got, d := x.r.pr.judged(ctx, x.s, i, &st)
	o := Judged{Status: got.status, Allowed: v.statusText(), Rule: v.rule, Freedoms: v.freedoms, Muts: x.s.steps[i].Muts, div: d}
	if d != nil {
		o.Diverged = d.reason
		x.diverged = true
	}
	return o
}

// End puts the accounts back as the sequence found them.
func (x *ReplayRun) End(ctx context.Context) {
	if len(x.s.steps) > 0 {
		x.r.pr.restore(ctx, x.s, x.diverged, []string{"A", "B"})
	}
}

// Verified is a divergence after Verify.
type Verified struct {
	Divergence
	// Reported: its reproducer fails against the target.
	Reported bool
	// Again: a divergence of the same signature was verified before; this
	// one was not shrunk nor written again.
	Again bool
}

// Verify shrinks the divergence of a sequence's last step (dropping whole
// steps only), writes its reproducer and runs it with the suite against the
// target. Call it after End.
func (r *Replayer) Verify(ctx context.Context, x *ReplayRun, o Judged) Verified {
	if o.div == nil {
		return Verified{}
	}
	sig := signature(x.s.steps, o.div)
	if !r.run.claim(sig) {
		return Verified{Divergence: Divergence{Reason: x.s.steps[len(x.s.steps)-1].Describe() + ": " + o.div.reason, Signature: sig}, Again: true}
	}
	dv, failed := r.pr.verify(ctx, x.s.steps, o.div, sig)
	r.run.report(dv, failed)
	return Verified{Divergence: dv, Reported: failed}
}
