package mockserver

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// bodyBudget bounds the bytes of request bodies being read and decoded at
// once: a hundred 1 MiB bodies arriving together wait their turn instead of
// being held in memory all at once. Kept data is bounded by the data
// budget; this bounds the work in flight.
const bodyBudget = 64 << 20

// bodyWait is how long a request waits for room before it is answered 503.
const bodyWait = 10 * time.Second

// budget is a weighted semaphore of bytes.
type budget struct {
	mu   sync.Mutex
	cond *sync.Cond
	free int64
}

func newBudget(n int64) *budget {
	b := &budget{free: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// acquire takes n bytes, waiting until ctx ends; false when it ended first.
func (b *budget) acquire(ctx context.Context, n int64) bool {
	stop := context.AfterFunc(ctx, func() {
		b.mu.Lock()
		b.cond.Broadcast()
		b.mu.Unlock()
	})
	defer stop()
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.free < n {
		if ctx.Err() != nil {
			return false
		}
		b.cond.Wait()
	}
	b.free -= n
	return true
}

func (b *budget) release(n int64) {
	b.mu.Lock()
	b.free += n
	b.cond.Broadcast()
	b.mu.Unlock()
}

// boundBodies holds a request with a body until the bytes it may read fit
// in the budget: its Content-Length, or the largest body it may send when
// it does not say.
func (s *Server) boundBodies(c *gin.Context) {
	if c.Request.Body == nil || c.Request.Body == http.NoBody || c.Request.ContentLength == 0 {
		c.Next()
		return
	}
	n := int64(maxStateBody)
	if c.Request.ContentLength > 0 && c.Request.ContentLength < n {
		n = c.Request.ContentLength
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), bodyWait)
	defer cancel()
	if !s.bodies.acquire(ctx, n) {
		abortWith(c, pricing.CodeUnavailable, "The mock is reading too many request bodies at once; try again.")
		return
	}
	defer s.bodies.release(n)
	c.Next()
}
