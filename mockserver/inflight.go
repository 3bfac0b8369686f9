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

// The body budget bounds the bytes of request bodies held at once: a
// hundred 1 MiB bodies arriving together wait their turn instead of being
// held in memory all at once. Kept data is bounded by the data budget;
// this bounds the work in flight.
//
// A body is charged as its bytes arrive, never by the length it declares,
// so that a connection holds only what it has sent: two clients sending a
// byte a second hold two bytes, not the 64 MiB their Content-Length
// claims. What one request may hold is the most its route reads (1 MiB, or
// 32 MiB for the one import read at a time); requests not authenticated
// when they read (sign-ups, logins, and whatever is read before the
// credentials are checked) share a quarter of the budget, so that however
// many of them there are, the others' writes keep three quarters. When a
// request waits for room, the requests whose bodies stopped arriving for
// idleHold are cut off (503) and their room comes back: a client that
// sends most of a body and then stalls holds it only while nobody needs it.
const (
	bodyBudget = 64 << 20
	anonBudget = bodyBudget / 4
	// bodyWait is how long a request waits for room before it is
	// answered 503.
	bodyWait = 10 * time.Second
	// idleHold is how long a body may stall while another request waits
	// for room before it is cut off.
	idleHold = time.Second
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
	now    func() time.Time
}

func newBudget(n, anon int64) *budget {
	b := &budget{free: n, anonFree: anon, holds: map[*bodyHold]struct{}{}, now: time.Now}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// bodyHold is what one request holds of the budget.
type bodyHold struct {
	held, anon int64
	last       time.Time // when its last bytes arrived
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

// take charges n more bytes to h, and to the anonymous share when anon,
// waiting for room, after the requests that waited before it, until ctx
// ends: false then. While it waits, the holders whose bodies stalled for
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
			tick := time.NewTicker(idleHold / 4)
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
// received nothing for idleHold though they do not wait for room.
func (b *budget) cutStalledLocked() {
	now := b.now()
	for h := range b.holds {
		if !h.waiting && !h.ended && !h.wasCut && h.cut != nil && now.Sub(h.last) >= idleHold {
			h.wasCut = true
			h.cut()
		}
	}
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

// budgetedBody charges the bytes of a request body to the budget as they
// arrive.
type budgetedBody struct {
	io.ReadCloser
	b    *budget
	h    *bodyHold
	c    *gin.Context
	ctx  context.Context
	done bool
}

func (r *budgetedBody) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	n, err := r.ReadCloser.Read(p)
	if n > 0 {
		ctx, cancel := context.WithTimeout(r.ctx, bodyWait)
		ok := r.b.take(ctx, r.h, int64(n), r.anonymous())
		cancel()
		if !ok {
			r.done = true
			r.b.end(r.h)
			return 0, errBodyWait
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

// boundBodies charges the request's body to the budget as it is read, and
// gives it back when the request has been answered.
func (s *Server) boundBodies(c *gin.Context) {
	if c.Request.Body == nil || c.Request.Body == http.NoBody || c.Request.ContentLength == 0 {
		c.Next()
		return
	}
	rc := http.NewResponseController(c.Writer)
	h := &bodyHold{cut: func() { rc.SetReadDeadline(time.Now()) }}
	body := c.Request.Body
	c.Request.Body = &budgetedBody{ReadCloser: body, b: s.bodies, h: h, c: c, ctx: c.Request.Context()}
	defer func() {
		c.Request.Body = body
		s.bodies.release(h)
	}()
	c.Next()
}
