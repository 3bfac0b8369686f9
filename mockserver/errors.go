package mockserver

import (
	"bytes"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

const contentTypeJSON = "application/json; charset=utf-8"

// encodeBuffers are the buffers answers are encoded in: an answer is
// copied on its way out, so its buffer serves the next one.
var encodeBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON answers status with v encoded as JSON.
func writeJSON(c *gin.Context, status int, v any) {
	buf := encodeBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	if err := jsonio.EncodeTo(buf, v); err != nil {
		// Every value handed here is built from wire types; failing to encode
		// one is a programming error, answered like any other.
		status = pricing.CodeInternal.Status()
		buf.Reset()
		_ = jsonio.EncodeTo(buf, []pricing.FieldError{{Error: pricing.CodeInternal, Message: "The response could not be encoded."}})
	}
	c.Data(status, contentTypeJSON, buf.Bytes())
	if buf.Cap() <= 64<<10 {
		encodeBuffers.Put(buf)
	}
}

// writeErrors is the single writer of error answers: always a JSON array.
func writeErrors(c *gin.Context, status int, errs []pricing.FieldError) {
	if errs == nil {
		errs = []pricing.FieldError{}
	}
	writeJSON(c, status, errs)
	c.Abort()
}

// fieldErrors answers errors of a body, with the status of their codes (one
// answer carries codes of one status).
func fieldErrors(c *gin.Context, errs []pricing.FieldError) {
	writeErrors(c, errs[0].Error.Status(), errs)
}

// abortWith answers an error that concerns the request as a whole, with the
// status of its code.
func abortWith(c *gin.Context, code pricing.Code, message string) {
	writeErrors(c, code.Status(), []pricing.FieldError{{FieldName: "", Error: code, Message: message}})
}

// internalError answers a failure of the mock itself.
func internalError(c *gin.Context, message string) {
	abortWith(c, pricing.CodeInternal, message)
}
