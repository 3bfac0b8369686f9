package explore

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// What a run shares between its pairs: the configuration, the
// divergences reported and the signatures claimed, the counters. Below the
// pair (pair.go), which holds a pointer to it.

// Config is one run of the explorer.
type Config struct {
	Runs    int           // sequences at most (0: as many as the budget allows)
	Budget  time.Duration // stop starting sequences after it (0: Runs alone)
	Seed    uint64
	Timeout time.Duration // one request; 0: 10 s
	// Progress gets a line every few seconds; nil: none.
	Progress io.Writer
	// MaxDivergences stops the run once it has reported that many distinct
	// divergences; 0: 10.
	MaxDivergences int
	// HTTPClient, when set, sends every request (its Timeout wins).
	HTTPClient *http.Client
	// Replay: the sequences are a recording's (pricing-contract replay):
	// shrinking drops whole steps only, keeping every body, credential and
	// form as recorded, and the reproducers say that replay wrote them.
	Replay bool
	// Pair is the pair of the profile's pool a Replayer replays on (1 the
	// first; 0: 1).
	Pair int
	// NoConcurrent: no batch of requests sent at once (concurrent.go).
	NoConcurrent bool
	// Created are the creates the profile's accounts made before the run
	// on the same target (the gate's scenarios), by email and kind
	// ("a@example.test client"): a target that bounds what an account
	// keeps counts them, and so does the run's bound (bounds.go).
	Created map[string]int
}

// Divergence is one reported divergence: its reason, its reproducer, and
// where it was found.
type Divergence struct {
	Reason string
	// Check is the judgement of the oracle that found it (package policy),
	// and Cite the words of the spec that decide it.
	Check, Cite string
	Feature     string // the reproducer
	Pair        int
	Steps       int    // of the shrunk sequence
	Signature   string // operation and kind of difference
	// Proof is what the suite said running the reproducer against the
	// target: the failure that shows the divergence.
	Proof string
}

// PairStats are one pair's figures.
type PairStats struct {
	Sequences, Steps int
}

// runState is what the pairs of a run share.
type runState struct {
	cfg       Config
	k         *knowledge
	cov       *coverage
	counter   atomic.Int64 // unique words
	sequences atomic.Int64
	steps     atomic.Int64
	wire      atomic.Int64
	stop      atomic.Bool
	deadline  time.Time

	mu          sync.Mutex
	claimed     map[string]int // signature -> attempts
	divergences []Divergence
	dropped     []Divergence
	again       int
	// hints are the operations of divergences whose reproducer passed:
	// one the target shows only while other pairs' requests overlap it
	// (two accounts given one token) is sent next with requests at once.
	hints []Op
}

// maxHints bounds the requests at once that dropped divergences ask for.
const maxHints = 8

// atOnce begins the signature of a divergence of requests sent at once.
const atOnce = "at once"

func (r *runState) cover(cells []Cell, v verdict, diverged, alone bool) {
	r.cov.record(cells, v.statusText(), diverged, alone)
}

// claim reserves a signature for a pair to shrink and verify; false when
// it was reported already, or tried three times.
func (r *runState) claim(sig string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.claimed[sig] < 0 || r.claimed[sig] >= 3 {
		r.again++
		return false
	}
	r.claimed[sig]++
	return true
}

func (r *runState) report(d Divergence, reproduced bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !reproduced {
		r.dropped = append(r.dropped, d)
		if op, _, ok := strings.Cut(d.Signature, " | "); ok && op != atOnce && len(r.hints) < maxHints {
			r.hints = append(r.hints, Op(op))
		}
		return
	}
	r.claimed[d.Signature] = -1
	r.divergences = append(r.divergences, d)
	if len(r.divergences) >= r.cfg.MaxDivergences {
		r.stop.Store(true)
	}
}

// takeHint is the operation the next requests at once are drawn for, if
// a dropped divergence asked for one.
func (r *runState) takeHint() (Op, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.hints) == 0 {
		return "", false
	}
	op := r.hints[0]
	r.hints = r.hints[1:]
	return op, true
}
