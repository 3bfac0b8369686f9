package mockserver

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"
)

// FieldError is one element of every error answer (spec 7.1). For errors that
// concern the request as a whole (401, 403, 404, 405, 413, malformed body)
// FieldName is empty.
type FieldError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

// Codes of errors that are not about one body field.
const (
	CodeInvalidBody      = "InvalidBody"
	CodeBodyTooLarge     = "BodyTooLarge"
	CodeUnauthorized     = "Unauthorized"
	CodeForbidden        = "Forbidden"
	CodeNotFound         = "NotFound"
	CodeMethodNotAllowed = "MethodNotAllowed"
	CodeNoClient         = "NoClient"
	CodeInternal         = "InternalError"
)

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
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`[{"fieldName":"","error":"` + CodeInternal + `","message":"The response could not be encoded."}]` + "\n")
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

// abortWith answers an error that concerns the request as a whole.
func abortWith(c *gin.Context, status int, code, message string) {
	writeErrors(c, status, []FieldError{{FieldName: "", Error: code, Message: message}})
}

func unauthorized(c *gin.Context, message string) {
	abortWith(c, http.StatusUnauthorized, CodeUnauthorized, message)
}

func forbidden(c *gin.Context, message string) {
	abortWith(c, http.StatusForbidden, CodeForbidden, message)
}

func notFound(c *gin.Context, message string) {
	abortWith(c, http.StatusNotFound, CodeNotFound, message)
}
