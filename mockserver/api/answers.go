package api

import (
	"net/http"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// ContentTypeJSON labels every answer of the API.
const ContentTypeJSON = "application/json; charset=utf-8"

// jsonHeaders are the headers of every JSON answer: one value, shared by
// the answers, that nothing may change (a transport copies what it writes).
var jsonHeaders = http.Header{"Content-Type": {ContentTypeJSON}}

func jsonHeader() http.Header { return jsonHeaders }

// JSON is an answer of status with v encoded as JSON.
func JSON(status int, v any) Response {
	b, err := jsonio.Encode(v)
	if err != nil {
		// Every value handed here is built from wire types; failing to
		// encode one is a programming error, answered like any other.
		return ErrorResponse(pricing.CodeInternal.Status(), []pricing.FieldError{{Error: pricing.CodeInternal, Message: "The response could not be encoded."}})
	}
	return Response{Status: status, Header: jsonHeader(), Body: b}
}

// ErrorResponse is the single shape of every error answer: a JSON array of
// fieldName, error and message (7.1), whatever the status.
func ErrorResponse(status int, errs []pricing.FieldError) Response {
	if errs == nil {
		errs = []pricing.FieldError{}
	}
	b, err := jsonio.Encode(errs)
	if err != nil {
		b = []byte(`[{"fieldName":"","error":"InternalError","message":"The response could not be encoded."}]`)
		status = pricing.CodeInternal.Status()
	}
	return Response{Status: status, Header: jsonHeader(), Body: b}
}

// Error is an answer about the request as a whole: one error whose
// fieldName is empty, with the status of its code.
func Error(code pricing.Code, message string) Response {
	return ErrorResponse(code.Status(), []pricing.FieldError{{Error: code, Message: message}})
}
