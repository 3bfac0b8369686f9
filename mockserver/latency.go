package mockserver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Headers a request may carry to shape its own answer (ignored with
// Options.NoAdmin).
const (
	DelayHeader  = "X-Mock-Delay"  // a Go duration: "300ms", "2s"
	StatusHeader = "X-Mock-Status" // 200 to 599: answered instead of the API's answer
)

// MaxDelay caps every delay: latency and jitter, X-Mock-Delay and the delay
// of a fault rule, each alone and all together.
const MaxDelay = 60 * time.Second

// parseDelay reads a delay: a Go duration ("150ms", "1.5s"), 0 to MaxDelay.
func parseDelay(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration such as 300ms or 2s", s)
	}
	if d < 0 || d > MaxDelay {
		return 0, fmt.Errorf("%s is not between 0 and %s", d, MaxDelay)
	}
	return d, nil
}

// parseStatus reads a status to inject: 200 to 599.
func parseStatus(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 200 || n > 599 {
		return 0, fmt.Errorf("%q is not an HTTP status from 200 to 599", s)
	}
	return n, nil
}

// sleep waits d or until ctx ends, whichever comes first: a client that
// gives up does not keep a goroutine waiting for a minute.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// latency is the global delay of one request: Latency plus up to Jitter.
func (s *Server) latency() time.Duration {
	d := s.opts.Latency
	if s.opts.Jitter > 0 {
		d += rand.N(s.opts.Jitter + 1)
	}
	return d
}

// control is the middleware of the controls a frontend developer has over an
// API request: the global latency, the X-Mock-Delay and X-Mock-Status
// headers, and the fault rules of the request's namespace. A matching rule
// adds its delay and answers its status; X-Mock-Delay replaces the global
// latency for the request.
func (s *Server) control(c *gin.Context) {
	delay := s.latency()
	var status int
	var rule *faultRule
	if !s.opts.NoAdmin {
		if !controlHeader(c, DelayHeader, parseDelay, &delay) || !controlHeader(c, StatusHeader, parseStatus, &status) {
			return
		}
		if r, ok := s.nsFor(c).rules.match(c.Request.Method, c.Request.URL.Path); ok {
			rule = &r
			delay += r.delay
		}
	}
	if err := s.sleep(c.Request.Context(), min(delay, MaxDelay)); err != nil {
		// The client is gone: nobody reads an answer.
		c.Abort()
		return
	}
	switch {
	case rule != nil && rule.Status != 0:
		writeInjected(c, rule.Status, rule.Body, fmt.Sprintf("fault rule %d", rule.ID))
	case status != 0:
		writeInjected(c, status, nil, "the "+StatusHeader+" header")
	default:
		c.Next()
	}
}

// controlHeader sets *v to the control header name of the request, parsed
// by parse, when the request carries it; a malformed one is answered 400
// and reports false.
func controlHeader[T any](c *gin.Context, name string, parse func(string) (T, error), v *T) bool {
	h := c.GetHeader(name)
	if h == "" {
		return true
	}
	x, err := parse(h)
	if err != nil {
		abortWith(c, pricing.CodeInvalidMockHeader, "The "+name+" header: "+err.Error()+".")
		return false
	}
	*v = x
	return true
}

// writeInjected answers a made-up status: the given JSON body, or by default
// an error array like the API's own (for 4xx and 5xx) or {} (below 400).
func writeInjected(c *gin.Context, status int, body []byte, by string) {
	switch {
	case len(body) > 0:
		c.Data(status, contentTypeJSON, body)
		c.Abort()
	case status == http.StatusNoContent || status == http.StatusNotModified:
		c.Status(status)
		c.Abort()
	case status < 400:
		c.Data(status, contentTypeJSON, []byte("{}\n"))
		c.Abort()
	default:
		// 401, 403, 404 and 500 carry the API's own codes; any other status
		// the code of a made-up answer.
		code := pricing.CodeInjected
		for _, own := range []pricing.Code{pricing.CodeUnauthorized, pricing.CodeForbidden, pricing.CodeNotFound, pricing.CodeInternal} {
			if own.Status() == status {
				code = own
			}
		}
		writeErrors(c, status, []pricing.FieldError{{Error: code, Message: fmt.Sprintf("%d %s, injected by %s.", status, http.StatusText(status), by)}})
	}
}
