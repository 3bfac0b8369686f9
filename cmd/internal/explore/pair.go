package explore

import (
	"sync"

	"github.com/pricing-contract/pricing-contract/steps"
)

// A pair explores with one pair of accounts of the pool: it draws
// sequences, sends them, judges the answers and reads the state back,
// and puts its accounts back after each sequence. The pairs of a pool run
// at once; a pair's requests that do not depend on each other (the reads
// after a step, the writes of a restore) go out at once.
type pair struct {
	n       int
	wd      *world
	w       *wire
	run     *runState
	profile steps.Profile // this pair's accounts as pair 1, for the reproducers
	lists   readLists
	// gate lets the lanes of one account run at once (read lock), and a
	// sequence of both accounts, shrinking or a reproducer alone (write).
	gate sync.RWMutex
}

// readLists are the clients of each user and the apps of each client the
// target listed when last read (GET /users/:id/clients, GET
// /clients/:id/apps), so that a client or an app no request made shows.
type readLists struct {
	mu      sync.Mutex
	clients map[string]map[string]bool // user id -> client ids
	apps    map[string]map[string]bool // client id -> app ids
}

// forget drops the lists: a sequence ended without its reads (it diverged,
// or the suite ran a reproducer), so the next read of each only learns it.
func (l *readLists) forget() {
	l.mu.Lock()
	l.clients, l.apps = map[string]map[string]bool{}, map[string]map[string]bool{}
	l.mu.Unlock()
}

// swap records a list as read now, and returns what it held before.
func (l *readLists) swap(m func(*readLists) map[string]map[string]bool, owner string, now map[string]bool) (map[string]bool, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	before, known := m(l)[owner]
	m(l)[owner] = now
	return before, known
}
