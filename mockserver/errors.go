package mockserver

import (
	"bytes"
	"slices"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

const contentTypeJSON = api.ContentTypeJSON

// encodeBuffers are the buffers answers of the admin API are encoded in
// (an export of the state is large): an answer is copied on its way out,
// so its buffer serves the next one.
var encodeBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeResponse writes an answer of package api: its headers, status and
// body.
func writeResponse(c *gin.Context, r api.Response) {
	ct, hasType := r.Header["Content-Type"]
	if extra := len(r.Header); extra > 1 || extra == 1 && !hasType {
		h := c.Writer.Header()
		for k, v := range r.Header {
			if k != "Content-Type" {
				h[k] = slices.Clone(v)
			}
		}
	}
	var ctype string
	if len(ct) > 0 {
		ctype = ct[0]
	}
	c.Data(r.Status, ctype, r.Body)
	c.Abort()
}

// writeJSON answers status with v encoded as JSON.
func writeJSON(c *gin.Context, status int, v any) {
	buf := encodeBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	if err := jsonio.EncodeTo(buf, v); err != nil {
		// Every value handed here is built from wire types; failing to encode
		// one is a programming error, answered like any other.
		writeResponse(c, api.Error(pricing.CodeInternal, "The response could not be encoded."))
		return
	}
	c.Data(status, contentTypeJSON, buf.Bytes())
	if buf.Cap() <= 64<<10 {
		encodeBuffers.Put(buf)
	}
}

// writeErrors answers errors in the API's one error shape (api.ErrorResponse).
func writeErrors(c *gin.Context, status int, errs []pricing.FieldError) {
	writeResponse(c, api.ErrorResponse(status, errs))
}

// fieldErrors answers errors of a body, with the status of their codes (one
// answer carries codes of one status).
func fieldErrors(c *gin.Context, errs []pricing.FieldError) {
	writeErrors(c, errs[0].Error.Status(), errs)
}

// abortWith answers an error that concerns the request as a whole, with the
// status of its code.
func abortWith(c *gin.Context, code pricing.Code, message string) {
	writeResponse(c, api.Error(code, message))
}

// internalError answers a failure of the mock itself.
func internalError(c *gin.Context, message string) {
	abortWith(c, pricing.CodeInternal, message)
}
