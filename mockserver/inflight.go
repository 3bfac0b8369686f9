package mockserver

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// The body budget bounds the bytes of API request bodies held at once, and
// what decoding them holds besides: a hundred 1 MiB bodies arriving
// together wait their turn instead of being held in memory all at once.
// Kept data is bounded by the data budget; this bounds the work in flight.
// A state import is not in it: imports are read one at a time and decoded
// entry by entry, within the namespace's bounds (pricing.Store.ReadState).
//
// Nothing is taken for what a client declares before it sends it: a
// body's first freeBytes are free (a connection holds buffers of that size
// anyway), so that two clients sending a byte a second, whatever their
// Content-Length claims, hold nothing. A body that goes past them takes,
// at once, what the whole of it will cost: its length (1 MiB, the most a
// route reads, when it does not say), times decodeWeight, as it is held
// whole and decoded. Taken at once, never piece by piece, so that bodies
// holding part of the room while waiting for the rest never wait on each
// other.
// Requests not authenticated when they take it (sign-ups, logins, bodies
// read before the credentials are checked) take from a quarter of the
// budget as well, so that however many of them there are, the others'
// writes keep three quarters. A request that must wait does so after
// those that waited before it in its share, and meanwhile the requests
// whose bodies made no progress for idleHold (received less than
// progressBytes) are cut off (503) and their room comes back: a client
// that sends the start of a large body and then stalls, or trickles, holds
// its room only while nobody needs it.
const (
	// bodyBudget: eight 1 MiB bodies decoded at once. Its size is the
	// largest part of the mock's peak under the costliest bodies
	// (TestWorkInFlightIsBounded: at 64 MiB, 152-253 MiB under load).
	bodyBudget = 32 << 20
	anonBudget = bodyBudget / 4
	// freeBytes are the bytes of a body read before it takes its room.
	freeBytes = 4 << 10
	// bodyWait is how long a request waits for room before it is
	// answered 503.
	bodyWait = 10 * time.Second
	// idleHold is how long a body may stall while another request waits
	// for room before it is cut off: long enough that a client starved of
	// CPU is not taken for a stalled one (1 s cut some under load).
	idleHold = 2 * time.Second
	// progressBytes is what a body must receive within idleHold not to be
	// taken for stalled: 8 KiB a second, a slow mobile link's fraction.
	progressBytes = 16 << 10
	// decodeWeight is what a byte of an API body costs until its request
	// is answered: the body (1), the decoder's buffer (up to 2, as it
	// grows by doubling) and the decoded value (1, a string's bytes);
	// TestWorkInFlightIsBounded measures the shapes that cost the most.
	decodeWeight = 4
)

// errBodyWait and errBodyStalled are the read errors of a body that found
// no room within bodyWait, or that was cut off for stalling while other
// requests waited: both are answered 503 Unavailable.
var (
	errBodyWait    = errors.New("the mock is reading too many request bodies at once; try again")
	errBodyStalled = errors.New("the request body stopped arriving while other requests waited for room; send it again")
)

// bodyBudgetError reports whether err is one of the budget's.
func bodyBudgetError(err error) bool {
	return errors.Is(err, errBodyWait) || errors.Is(err, errBodyStalled)
}

// bodyBudgetMessage is the message of a 503 for one of the budget's
// errors: a sentence.
func bodyBudgetMessage(err error) string {
	msg := errBodyWait.Error()
	if errors.Is(err, errBodyStalled) {
		msg = errBodyStalled.Error()
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + "."
}

// budget is a weighted semaphore of bytes with an anonymous share; safe
// for concurrent use.
type budget struct {
	mu       sync.Mutex
	cond     *sync.Cond
	free     int64
	anonFree int64
	holds    map[*bodyHold]struct{} // the requests holding bytes
	// queues are the requests waiting for room, first come first served:
	// [0] for the whole budget, [1] for the anonymous share, so that an
	// authenticated request never waits behind anonymous ones.
	queues [2][]*bodyHold
	idle   time.Duration // idleHold; shorter in tests
	now    func() time.Time
}

func newBudget(n, anon int64) *budget {
	b := &budget{free: n, anonFree: anon, holds: map[*bodyHold]struct{}{}, idle: idleHold, now: time.Now}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// bodyHold is what one request holds of the budget.
type bodyHold struct {
	held, anon int64
	last       time.Time // when its body last made progress (progressBytes more)
	waiting    bool      // it waits for room: not stalled, whatever last says
	ended      bool      // its body has ended: cutting it frees nothing sooner
	cut        func()    // makes its pending read fail (a read deadline now)
	wasCut     bool
}

func (b *budget) wake() {
	b.mu.Lock()
	b.cond.Broadcast()
	b.mu.Unlock()
}

// take charges n bytes to h, and to the anonymous share when anon, waiting
// for room, after the requests that waited before it, until ctx ends:
// false then. While it waits, the holders whose bodies stalled for
// idleHold are cut off.
func (b *budget) take(ctx context.Context, h *bodyHold, n int64, anon bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	h.last = b.now() // n bytes have arrived
	q := 0
	if anon {
		q = 1
	}
	fits := func() bool { return b.free >= n && (!anon || b.anonFree >= n) }
	if len(b.queues[q]) > 0 || !fits() {
		b.queues[q] = append(b.queues[q], h)
		h.waiting = true
		defer func() {
			b.queues[q] = slices.DeleteFunc(b.queues[q], func(w *bodyHold) bool { return w == h })
			h.waiting = false
			b.cond.Broadcast()
		}()
		// Wake up to look for stalled holders, and when ctx ends.
		done := make(chan struct{})
		defer close(done)
		go func() {
			tick := time.NewTicker(b.idle / 4)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-ctx.Done():
					b.wake()
					return
				case <-tick.C:
					b.wake()
				}
			}
		}()
		for b.queues[q][0] != h || !fits() {
			if ctx.Err() != nil {
				return false
			}
			b.cutStalledLocked()
			b.cond.Wait()
		}
	}
	b.free -= n
	h.held += n
	if anon {
		b.anonFree -= n
		h.anon += n
	}
	h.last = b.now() // a wait for room is no stall
	b.holds[h] = struct{}{}
	return true
}

// cutStalledLocked cuts off the holders whose bodies have not ended, and
// received nothing for b.idle though they do not wait for room.
func (b *budget) cutStalledLocked() {
	now := b.now()
	for h := range b.holds {
		if !h.waiting && !h.ended && !h.wasCut && h.cut != nil && now.Sub(h.last) >= b.idle {
			h.wasCut = true
			h.cut()
		}
	}
}

// arrived marks that h's body made progress.
func (b *budget) arrived(h *bodyHold) {
	b.mu.Lock()
	h.last = b.now()
	b.mu.Unlock()
}

// end marks h's body as ended, and reports whether h was cut off.
func (b *budget) end(h *bodyHold) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	h.ended = true
	return h.wasCut
}

// release gives back what h holds.
func (b *budget) release(h *bodyHold) {
	b.mu.Lock()
	b.free += h.held
	b.anonFree += h.anon
	h.held, h.anon = 0, 0
	delete(b.holds, h)
	b.cond.Broadcast()
	b.mu.Unlock()
}

// budgetedBody takes a request's room in the budget once its body goes
// past freeBytes.
type budgetedBody struct {
	io.ReadCloser
	b        *budget
	h        *bodyHold
	c        *gin.Context
	ctx      context.Context
	cost     int64 // the room the whole body takes; 0 for an import
	length   int64 // its Content-Length, -1 when it does not say
	read     int64
	progress int64 // bytes read since the body last made progress
	reserved bool
	done     bool
}

func (r *budgetedBody) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	if !r.reserved && r.cost > 0 {
		switch {
		case r.read < freeBytes:
			p = p[:min(int64(len(p)), freeBytes-r.read)]
		case r.c.Writer.Written():
			// Answered (refused before its body was read): only the
			// journal reads on, 64 KiB at most; it takes no room.
		case r.length < 0 || r.read < r.length:
			ctx, cancel := context.WithTimeout(r.ctx, bodyWait)
			ok := r.b.take(ctx, r.h, r.cost, r.anonymous())
			cancel()
			if !ok {
				r.done = true
				r.b.end(r.h)
				return 0, errBodyWait
			}
			r.reserved = true
		}
	}
	n, err := r.ReadCloser.Read(p)
	r.read += int64(n)
	if r.reserved {
		if r.progress += int64(n); r.progress >= progressBytes {
			r.progress = 0
			r.b.arrived(r.h)
		}
	}
	if err != nil {
		r.done = true
		if r.b.end(r.h) && !errors.Is(err, io.EOF) {
			return n, errBodyStalled
		}
	}
	return n, err
}

// anonymous reports whether the request is not authenticated when it
// reads: neither an API caller (authenticate) nor an admin call
// (guardAdmin) yet.
func (r *budgetedBody) anonymous() bool {
	_, caller := r.c.Get(callerKey)
	_, admin := r.c.Get(adminKey)
	return !caller && !admin
}

// boundBodies makes the request's body take its room in the budget once
// it goes past freeBytes, and gives it back when the request has been
// answered.
func (s *Server) boundBodies(c *gin.Context) {
	r := c.Request
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		c.Next()
		return
	}
	most, weight := int64(maxBody), int64(decodeWeight)
	if r.Method == http.MethodPut && r.URL.Path == adminPrefix+"/state" {
		weight = 0 // not in the budget: see above
	}
	if r.ContentLength > 0 && r.ContentLength < most {
		most = r.ContentLength
	}
	rc := http.NewResponseController(c.Writer)
	h := &bodyHold{cut: func() { rc.SetReadDeadline(time.Now()) }}
	body := r.Body
	r.Body = &budgetedBody{ReadCloser: body, b: s.bodies, h: h, c: c, ctx: r.Context(), cost: most * weight, length: r.ContentLength}
	defer func() {
		r.Body = body
		s.bodies.release(h)
	}()
	c.Next()
}
