package layered

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
)

// FieldError is one element of a 400 body.
type FieldError struct {
	Field   string
	Code    string
	Message string
}

// ValidationError carries one or more field errors (HTTP 400).
type ValidationError struct{ Errors []FieldError }

func (e *ValidationError) Error() string {
	parts := make([]string, 0, len(e.Errors))
	for _, f := range e.Errors {
		parts = append(parts, f.Field+": "+f.Code)
	}
	return "validation: " + strings.Join(parts, ", ")
}

func invalid(field, code string) error {
	return &ValidationError{Errors: []FieldError{{Field: field, Code: code, Message: messageFor(code, field)}}}
}

// BodyError is a body that is not a JSON object (HTTP 400).
type BodyError struct{ Msg string }

func (e *BodyError) Error() string { return "body: " + e.Msg }

// StatusError is a framing-level refusal (405, 406, 413, 415).
type StatusError struct {
	Status int
	Code   string
	Allow  string
}

func (e *StatusError) Error() string { return e.Code }

var (
	ErrUnauthorized = errors.New("not authenticated")
	ErrForbidden    = errors.New("forbidden")
	ErrNotFound     = errors.New("not found")
)

func messageFor(code, field string) string {
	switch code {
	case "InvalidEmail":
		return "The email address is invalid or already in use"
	case "InvalidPassword":
		return "The password must be a string of at least 6 characters"
	case "InvalidFirstName":
		return "No first name was provided"
	case "InvalidLastName":
		return "No last name was provided"
	case "InvalidName":
		return "The name was not provided"
	case "InvalidTerms":
		return "terms must equal \"I agree\""
	case "InvalidApp":
		return "app must not be given to this endpoint; use POST /apps"
	case "UnknownField":
		return "Unknown field " + field
	case "InvalidCredentials":
		return "Unknown email or wrong password"
	}
	return "Invalid value for " + field
}

type errorItem struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// goName turns "currency.id" into "Currency.Id" (fault fieldname-go-struct-name).
func goName(path string) string {
	segs := strings.Split(path, ".")
	for i, s := range segs {
		if s != "" {
			segs[i] = strings.ToUpper(s[:1]) + s[1:]
		}
	}
	return strings.Join(segs, ".")
}

// writeError is the one place where domain errors become HTTP answers.
func (s *Server) writeError(w http.ResponseWriter, err error) {
	var ve *ValidationError
	var be *BodyError
	var se *StatusError
	switch {
	case errors.As(err, &ve):
		items := make([]errorItem, 0, len(ve.Errors))
		for _, f := range ve.Errors {
			name := f.Field
			if s.has("fieldname-go-struct-name") {
				name = goName(name)
			}
			items = append(items, errorItem{FieldName: name, Error: f.Code, Message: f.Message})
		}
		if s.has("error-body-object-not-array") {
			writeJSON(w, http.StatusBadRequest, map[string]any{"errors": items})
			return
		}
		writeJSON(w, http.StatusBadRequest, items)
	case errors.As(err, &be):
		items := []errorItem{{FieldName: "", Error: "InvalidJson", Message: be.Msg}}
		if s.has("error-body-object-not-array") {
			writeJSON(w, http.StatusBadRequest, map[string]any{"errors": items})
			return
		}
		writeJSON(w, http.StatusBadRequest, items)
	case errors.As(err, &se):
		if se.Allow != "" {
			w.Header().Set("Allow", se.Allow)
		}
		writeJSON(w, se.Status, errorBody{Error: se.Code, Message: http.StatusText(se.Status)})
	case errors.Is(err, ErrUnauthorized):
		if s.has("missing-auth-403") {
			writeJSON(w, http.StatusForbidden, errorBody{Error: "Forbidden", Message: "Not allowed"})
			return
		}
		writeJSON(w, http.StatusUnauthorized, errorBody{Error: "Unauthorized", Message: "Authentication required"})
	case errors.Is(err, ErrForbidden):
		if s.has("other-account-404") {
			writeJSON(w, http.StatusNotFound, errorBody{Error: "NotFound", Message: "Resource not found"})
			return
		}
		writeJSON(w, http.StatusForbidden, errorBody{Error: "Forbidden", Message: "You may not view or modify this resource"})
	case errors.Is(err, ErrNotFound):
		writeJSON(w, http.StatusNotFound, errorBody{Error: "NotFound", Message: "Resource not found"})
	default:
		writeJSON(w, http.StatusInternalServerError, errorBody{Error: "InternalError", Message: "internal error"})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":"InternalError","message":"encoding failed"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", itoa(int64(len(b))))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
