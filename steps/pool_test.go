package steps

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

func testPool(n int) *accountPool {
	var pairs []*pair
	for i := range n {
		pairs = append(pairs, &pair{n: i + 1})
	}
	return newAccountPool(pairs)
}

var (
	sharedA    = need{sharedAccess, noAccess}
	exclusiveA = need{exclusiveAccess, noAccess}
	sharedB    = need{noAccess, sharedAccess}
	bothAB     = need{exclusiveAccess, exclusiveAccess}
)

// stateHoldingA is a scenario state of s that holds account A of the
// first pair, as one whose steps name only A would, without the pool's
// acquisition: for tests of single steps.
func stateHoldingA(s *Suite) *scenarioState {
	st := s.newState(nil)
	st.pair, st.need = s.pool.pairs[0], sharedA
	return st
}

// pending acquires n in the background; the channel gets the pair once it
// is granted.
func pending(t *testing.T, p *accountPool, n need) <-chan *pair {
	t.Helper()
	got := make(chan *pair, 1)
	go func() {
		pr, err := p.acquire(context.Background(), n)
		if err != nil {
			t.Errorf("acquire: %v", err)
		}
		got <- pr
	}()
	return got
}

// granted waits for a claim that must be granted now (the background
// goroutine only has to run).
func granted(t *testing.T, c <-chan *pair, what string) *pair {
	t.Helper()
	select {
	case pr := <-c:
		return pr
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: not granted", what)
		return nil
	}
}

// waiting checks that a claim is still waiting once the pool has had time
// to grant it.
func waiting(t *testing.T, c <-chan *pair, what string) {
	t.Helper()
	select {
	case pr := <-c:
		t.Fatalf("%s: granted pair %d, want it to wait", what, pr.n)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestPoolOnePairIsAnRWMutexPerAccount: with one pair, readers of an
// account share it, a writer has it alone, and the other account stays free.
func TestPoolOnePairIsAnRWMutexPerAccount(t *testing.T) {
	p := testPool(1)
	r1 := granted(t, pending(t, p, sharedA), "first reader of A")
	r2 := granted(t, pending(t, p, sharedA), "second reader of A")
	w := pending(t, p, exclusiveA)
	waiting(t, w, "writer of A while A is read")
	b := granted(t, pending(t, p, sharedB), "reader of B while a writer of A waits")
	p.release(r1, sharedA)
	waiting(t, w, "writer of A while A is still read once")
	p.release(r2, sharedA)
	pw := granted(t, w, "writer of A once A is free")
	waiting(t, pending(t, p, bothAB), "writer of A and B while B is read and A written")
	p.release(b, sharedB)
	p.release(pw, exclusiveA)
}

// TestPoolExclusiveIsNotStarved: once a writer waits, a younger reader does
// not take the pair it waits for, even though the reader would fit there,
// so a stream of readers cannot hold a writer off.
func TestPoolExclusiveIsNotStarved(t *testing.T) {
	p := testPool(1)
	r1 := granted(t, pending(t, p, sharedA), "reader")
	w := pending(t, p, exclusiveA)
	waiting(t, w, "writer")
	r2 := pending(t, p, sharedA)
	waiting(t, r2, "a reader younger than the waiting writer")
	p.release(r1, sharedA)
	pw := granted(t, w, "writer once the older reader left")
	waiting(t, r2, "the younger reader while the writer holds A")
	p.release(pw, exclusiveA)
	p.release(granted(t, r2, "the younger reader after the writer"), sharedA)
}

// TestPoolOtherPairsServeWhileOneIsReserved: the reservation of the oldest
// waiting claim closes one pair only; younger claims that fit elsewhere
// are served meanwhile.
func TestPoolOtherPairsServeWhileOneIsReserved(t *testing.T) {
	p := testPool(2)
	r1 := granted(t, pending(t, p, sharedA), "reader of A")
	w1 := granted(t, pending(t, p, exclusiveA), "writer of A")
	if r1.n != 1 || w1.n != 2 {
		t.Fatalf("reader on pair %d, writer on pair %d; want the reader first fit on 1, the writer on the free pair 2", r1.n, w1.n)
	}
	both := pending(t, p, bothAB)
	waiting(t, both, "writer of A and B") // it reserves pair 1: one holder, as pair 2
	b := granted(t, pending(t, p, sharedB), "reader of B, who fits on pair 2")
	if b.n != 2 {
		t.Fatalf("reader of B on pair %d, want 2 (pair 1 is reserved)", b.n)
	}
	a := pending(t, p, sharedA)
	waiting(t, a, "reader of A, who fits only on the reserved pair 1")
	p.release(r1, sharedA)
	if pr := granted(t, both, "writer of A and B once pair 1 is free"); pr.n != 1 {
		t.Fatalf("writer of A and B on pair %d, want its reserved pair 1", pr.n)
	}
	waiting(t, a, "reader of A while both pairs' A are written")
	p.release(w1, exclusiveA)
	if pr := granted(t, a, "reader of A once pair 2's A is free"); pr.n != 2 {
		t.Fatalf("reader of A on pair %d, want 2", pr.n)
	}
}

// TestPoolOldestFirst: claims that want the same pair get it in the order
// they asked.
func TestPoolOldestFirst(t *testing.T) {
	p := testPool(1)
	hold := granted(t, pending(t, p, exclusiveA), "first writer")
	var order []int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Go(func() {
			pr, err := p.acquire(context.Background(), exclusiveA)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			p.release(pr, exclusiveA)
		})
		for queued(p) < i+1 { // queued before the next one
			time.Sleep(time.Millisecond)
		}
	}
	p.release(hold, exclusiveA)
	wg.Wait()
	for i, got := range order {
		if got != i {
			t.Fatalf("served in the order %v, want 0 1 2 3 4", order)
		}
	}
}

// TestPoolCancelledClaim: a claim whose context ends stops waiting, with
// the context's error, and frees its reservation for the next claim.
func TestPoolCancelledClaim(t *testing.T) {
	p := testPool(1)
	r := granted(t, pending(t, p, sharedA), "reader")
	ctx, cancel := context.WithCancelCause(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := p.acquire(ctx, exclusiveA)
		errc <- err
	}()
	time.Sleep(20 * time.Millisecond)
	younger := pending(t, p, sharedA)
	waiting(t, younger, "a reader behind the waiting writer")
	stop := errors.New("run interrupted")
	cancel(stop)
	if err := <-errc; !errors.Is(err, stop) {
		t.Errorf("acquire after cancel: %v, want %v", err, stop)
	}
	p.release(granted(t, younger, "the reader once the writer gave up"), sharedA)
	p.release(r, sharedA)
	if len(p.queue) != 0 || p.pairs[0].readers != [2]int{} || p.pairs[0].writer != [2]bool{} {
		t.Errorf("pool not empty: queue %d, pair %+v", len(p.queue), p.pairs[0])
	}
}

// TestPoolNeverShares runs many claims of every kind at once and checks
// that no account is ever written by two, or written and read, at once,
// and that every claim is served. -race checks the pool's own state.
func TestPoolNeverShares(t *testing.T) {
	needs := []need{sharedA, exclusiveA, sharedB, bothAB, {exclusiveAccess, sharedAccess}, {sharedAccess, exclusiveAccess}}
	for _, pairs := range []int{1, 3, 8} {
		p := testPool(pairs)
		type use struct{ readers, writers int }
		var mu sync.Mutex
		uses := make([][2]use, pairs)
		var wg sync.WaitGroup
		for i := range 400 {
			n := needs[i%len(needs)]
			wg.Go(func() {
				pr, err := p.acquire(context.Background(), n)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for a, acc := range n {
					u := &uses[pr.n-1][a]
					switch acc {
					case sharedAccess:
						u.readers++
					case exclusiveAccess:
						u.writers++
					}
					if u.writers > 1 || (u.writers == 1 && u.readers > 0) {
						t.Errorf("pair %d account %s: %d writers and %d readers at once", pr.n, accountNames[a], u.writers, u.readers)
					}
				}
				mu.Unlock()
				time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
				mu.Lock()
				for a, acc := range n {
					u := &uses[pr.n-1][a]
					switch acc {
					case sharedAccess:
						u.readers--
					case exclusiveAccess:
						u.writers--
					}
				}
				mu.Unlock()
				p.release(pr, n)
			})
		}
		wg.Wait()
		if len(p.queue) != 0 {
			t.Errorf("%d pairs: %d claims left waiting", pairs, len(p.queue))
		}
	}
}

func queued(p *accountPool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

// TestAccountNotTakenIsRefused: a scenario that took no account B from the
// pool (no step names it) may not use B; the error says what to write.
func TestAccountNotTakenIsRefused(t *testing.T) {
	s := NewSuite(testProfile("http://127.0.0.1:1/v1"), Options{})
	st := stateHoldingA(s)
	if _, err := st.lookup(context.Background(), "A.email"); err != nil {
		t.Errorf("{{A.email}} of a scenario holding A: %v", err)
	}
	for _, name := range []string{"B.email", "B.userId", "B.apiKey"} {
		_, err := st.lookup(context.Background(), name)
		if err == nil || !strings.Contains(err.Error(), `no step of the scenario names it (account "B" or {{B.…}})`) {
			t.Errorf("{{%s}} of a scenario that took only A: %v", name, err)
		}
	}
}

// TestResolveNameOfAPair: a report names the ids of the pair its scenario
// ran on; a scenario that took no pair, or a pair whose ids are not known
// yet, keeps what it can.
func TestResolveNameOfAPair(t *testing.T) {
	p := testProfile("http://127.0.0.1:1/v1")
	p.Pairs = []AccountPair{{Email: "a2@example.com", Password: "pa2", APIKey: "ka2", OtherEmail: "b2@example.com", OtherPassword: "pb2", OtherAPIKey: "kb2"}}
	s := NewSuite(p, Options{})
	s.pool.pairs[0].learn(0, accountIDs{userID: "1", clientID: "10"})
	s.pool.pairs[1].learn(0, accountIDs{userID: "7", clientID: "70"})
	const name = "PUT /users/{{A.userId}} of {{A.email}} with {{A.apiKey}}, not {{B.userId}}"
	for pairN, want := range map[int]string{
		0: "PUT /users/1 of qa@example.com with ***, not {{B.userId}}",
		1: "PUT /users/1 of qa@example.com with ***, not {{B.userId}}",
		2: "PUT /users/7 of a2@example.com with ***, not {{B.userId}}",
	} {
		if got := s.ResolveName(name, pairN); got != want {
			t.Errorf("pair %d: %q, want %q", pairN, got, want)
		}
	}
}
