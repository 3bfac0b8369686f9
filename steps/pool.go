package steps

import (
	"context"
	"sync"
)

// access is what a scenario takes of one account of a pair.
type access uint8

const (
	noAccess access = iota
	// sharedAccess: the scenario reads the account, or adds to it what no
	// other scenario reads back (a client of its own); others may too.
	sharedAccess
	// exclusiveAccess: the scenario changes the account (@mutates-A) and
	// restores it afterwards; no other scenario uses the account meanwhile.
	exclusiveAccess
)

// accountNames are the accounts of a pair, by their index in a need.
var accountNames = [2]string{"A", "B"}

func accountIndex(acct string) int {
	if acct == "B" {
		return 1
	}
	return 0
}

// need is a scenario's access to accounts A and B of the pair it runs on.
type need [2]access

func (n need) any() bool { return n != need{} }

// overlaps reports whether n and m ask for a same account.
func (n need) overlaps(m need) bool {
	return (n[0] != noAccess && m[0] != noAccess) || (n[1] != noAccess && m[1] != noAccess)
}

// pair is one pair of accounts of the pool and what the run learned of
// them.
type pair struct {
	n        int // 1-based, as the profile numbers the pairs
	accounts [2]account

	mu    sync.Mutex
	ids   [2]*accountIDs       // learned from POST /sessions; nil until then
	snaps map[string]*snapshot // "A users" -> what its last restore wrote

	// Guarded by the pool's mutex.
	readers [2]int
	writer  [2]bool
}

// learnedIDs returns the learned ids of the pair's account i.
func (p *pair) learnedIDs(i int) (accountIDs, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ids[i] == nil {
		return accountIDs{}, false
	}
	return *p.ids[i], true
}

func (p *pair) learn(i int, ids accountIDs) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ids[i] = &ids
}

// keptSnapshot returns the snapshot of a resource ("A users") that the last
// restore wrote back, nil for one that cannot be restored. It still
// describes the resource: only a scenario holding the account exclusively
// changes it, and that scenario restores it. Keeping it spares every later
// scenario of the pair the read before its first change.
func (p *pair) keptSnapshot(key string) (*snapshot, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	sn, ok := p.snaps[key]
	return sn, ok
}

// keepSnapshot keeps sn for key: a restore of it succeeded, or nil, the
// resource cannot be restored.
func (p *pair) keepSnapshot(key string, sn *snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.snaps == nil {
		p.snaps = map[string]*snapshot{}
	}
	p.snaps[key] = sn
}

// forgetSnapshot makes the next scenario read the resource again: its
// restore failed.
func (p *pair) forgetSnapshot(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.snaps, key)
}

// fits reports whether the pair can grant n now.
func (p *pair) fits(n need) bool {
	for i, a := range n {
		switch {
		case a == sharedAccess && p.writer[i]:
			return false
		case a == exclusiveAccess && (p.writer[i] || p.readers[i] > 0):
			return false
		}
	}
	return true
}

// holders counts the scenarios holding the accounts that n asks for.
func (p *pair) holders(n need) int {
	h := 0
	for i, a := range n {
		if a == noAccess {
			continue
		}
		h += p.readers[i]
		if p.writer[i] {
			h++
		}
	}
	return h
}

func (p *pair) take(n need) {
	for i, a := range n {
		switch a {
		case sharedAccess:
			p.readers[i]++
		case exclusiveAccess:
			p.writer[i] = true
		}
	}
}

func (p *pair) give(n need) {
	for i, a := range n {
		switch a {
		case sharedAccess:
			p.readers[i]--
		case exclusiveAccess:
			p.writer[i] = false
		}
	}
}

// accountPool lends the profile's pairs of accounts to scenarios. A
// scenario takes its pair in one acquisition and keeps it to its end, so
// no scenario waits while holding an account (no deadlock). Waiting claims
// are served oldest first wherever they fit; the oldest one that fits
// nowhere reserves a pair, whose accounts it asks for younger claims may
// not take, so a claim for exclusive use is not starved by a stream of
// shared ones: it waits at most for the scenarios that held those accounts
// when it became the oldest. With one pair this is one writer-preferring
// sync.RWMutex per account, both taken at once.
type accountPool struct {
	mu    sync.Mutex
	pairs []*pair
	queue []*claim // waiting, oldest first
}

type claim struct {
	need     need
	granted  *pair
	reserved *pair // once it is the oldest claim waiting
	ready    chan struct{}
}

func newAccountPool(pairs []*pair) *accountPool { return &accountPool{pairs: pairs} }

// acquire waits for a pair that grants n, or for ctx to end.
func (p *accountPool) acquire(ctx context.Context, n need) (*pair, error) {
	c := &claim{need: n, ready: make(chan struct{})}
	p.mu.Lock()
	p.queue = append(p.queue, c)
	p.grant()
	p.mu.Unlock()
	select {
	case <-c.ready:
		return c.granted, nil
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.granted != nil {
		c.granted.give(n) // granted as ctx ended
	} else {
		for i, q := range p.queue {
			if q == c {
				p.queue = append(p.queue[:i], p.queue[i+1:]...)
				break
			}
		}
	}
	p.grant()
	return nil, context.Cause(ctx)
}

// release gives back what acquire granted.
func (p *accountPool) release(pr *pair, n need) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pr.give(n)
	p.grant()
}

// grant serves the waiting claims, oldest first; p.mu is held.
func (p *accountPool) grant() {
	var oldest *claim // the oldest claim left waiting, with its reservation
	kept := p.queue[:0]
	for _, c := range p.queue {
		var pr *pair
		switch {
		case oldest != nil:
			pr = p.firstFit(c.need, oldest)
		case c.reserved != nil && c.reserved.fits(c.need):
			pr = c.reserved
		default:
			pr = p.firstFit(c.need, nil)
		}
		if pr != nil {
			pr.take(c.need)
			c.granted = pr
			close(c.ready)
			continue
		}
		if oldest == nil {
			if c.reserved == nil {
				c.reserved = p.soonestFree(c.need)
			}
			oldest = c
		}
		kept = append(kept, c)
	}
	clear(p.queue[len(kept):])
	p.queue = kept
}

// firstFit is the first pair that grants n, but none of the accounts that
// the oldest waiting claim reserved: shared claims pile up on the first
// pairs and leave the others to exclusive ones.
func (p *accountPool) firstFit(n need, oldest *claim) *pair {
	for _, pr := range p.pairs {
		if oldest != nil && pr == oldest.reserved && n.overlaps(oldest.need) {
			continue
		}
		if pr.fits(n) {
			return pr
		}
	}
	return nil
}

// soonestFree is the pair with the fewest holders of what n asks for.
func (p *accountPool) soonestFree(n need) *pair {
	best := p.pairs[0]
	for _, pr := range p.pairs[1:] {
		if pr.holders(n) < best.holders(n) {
			best = pr
		}
	}
	return best
}
