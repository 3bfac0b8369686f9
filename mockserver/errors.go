package mockserver

import (
	"bytes"
	"encoding/json"

	"github.com/gin-gonic/gin"
)

// FieldError is one element of every error answer (spec 7.1). For errors that
// concern the request as a whole (401, 403, 404, 405, 413, malformed body)
// FieldName is empty.
type FieldError struct {
	FieldName string `json:"fieldName"`
	Error     Code   `json:"error"`
	Message   string `json:"message"`
}

const contentTypeJSON = "application/json; charset=utf-8"

// writeJSON answers status with v encoded as JSON (not HTML-escaped: the
// messages quote "<API_KEY>" and are read by people).
func writeJSON(c *gin.Context, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Every value handed here is built from wire types; failing to encode
		// one is a programming error, answered like any other.
		status = CodeInternal.Status()
		buf.Reset()
		enc.Encode([]FieldError{{Error: CodeInternal, Message: "The response could not be encoded."}})
	}
	c.Data(status, contentTypeJSON, buf.Bytes())
}

// writeErrors is the single writer of error answers: always a JSON array.
func writeErrors(c *gin.Context, status int, errs []FieldError) {
	if errs == nil {
		errs = []FieldError{}
	}
	writeJSON(c, status, errs)
	c.Abort()
}

// fieldErrors answers errors of a body, with the status of their codes (one
// answer carries codes of one status).
func fieldErrors(c *gin.Context, errs []FieldError) {
	writeErrors(c, errs[0].Error.Status(), errs)
}

// abortWith answers an error that concerns the request as a whole, with the
// status of its code.
func abortWith(c *gin.Context, code Code, message string) {
	writeErrors(c, code.Status(), []FieldError{{FieldName: "", Error: code, Message: message}})
}

// internalError answers a failure of the mock itself.
func internalError(c *gin.Context, message string) {
	abortWith(c, CodeInternal, message)
}
