package mockserver

import (
	"errors"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// callerKey marks, in the Gin context, a request whose credentials
// authenticate a user (inflight.go: its body is a caller's).
const callerKey = "mockserver.caller"

// maxBody is the largest request body read; a larger one answers 413.
const maxBody = api.MaxBody

// serveAPI adapts a request of the API to api.Serve, on the store of the
// request's namespace: the API's semantics are all there, this is
// transport. The body is read here, only when the API's checks before it
// pass (api.Before), bounded (MaxBody, and the budget of bodies in flight
// that boundBodies set up); a body the client fails to send is this side's
// to answer.
func (s *Server) serveAPI(c *gin.Context) {
	r := c.Request
	req := api.Request{Method: r.Method, Path: r.URL.Path, Header: r.Header}
	if r.URL.RawQuery != "" {
		req.Query = r.URL.Query()
	}
	st := s.storeFor(c)
	pending, resp, refused := s.api.Begin(st, req)
	if refused {
		// Refused before its body matters: the body is never read.
		writeResponse(c, resp)
		return
	}
	var body []byte
	var tooLarge bool
	if r.Body != nil && r.Body != http.NoBody {
		// An authenticated caller's body takes its room in the budget of
		// callers, not in the smaller one of anonymous bodies.
		if pending.Authenticated() {
			c.Set(callerKey, true)
		}
		b, err := io.ReadAll(http.MaxBytesReader(c.Writer, r.Body, maxBody))
		var tooLargeErr *http.MaxBytesError
		switch {
		case errors.As(err, &tooLargeErr):
			tooLarge = true
		case bodyBudgetError(err):
			abortWith(c, pricing.CodeUnavailable, bodyBudgetMessage(err))
			return
		case err != nil:
			abortWith(c, pricing.CodeInvalidBody, "The request body could not be read.")
			return
		}
		body = b
	}
	writeResponse(c, pending.Finish(body, tooLarge))
}

// readBody reads the body of an admin call, answering 413 past maxBody.
func readBody(c *gin.Context) ([]byte, bool) {
	if c.Request.Body == nil {
		return nil, true
	}
	b, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			abortWith(c, pricing.CodeBodyTooLarge, "The request body is larger than 1 MiB.")
		case bodyBudgetError(err):
			abortWith(c, pricing.CodeUnavailable, bodyBudgetMessage(err))
		default:
			abortWith(c, pricing.CodeInvalidBody, "The request body could not be read.")
		}
		return nil, false
	}
	return b, true
}
