package shards

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	maxBody   = 64 << 10
	maxString = 255
)

// apiError is one element of a 400 body (section 7.1). Other error statuses
// use the same shape with an empty fieldName.
type apiError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

type errList []apiError

func (e *errList) add(field, code, msg string) {
	*e = append(*e, apiError{FieldName: field, Error: code, Message: msg})
}

func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// validation answers 400 with the error array.
func (s *Server) validation(w http.ResponseWriter, errs errList) {
	if s.is(legalFirstErrorOnly) && len(errs) > 1 {
		errs = errs[:1]
	}
	switch {
	case s.is(faultErrorObject):
		s.writeJSON(w, http.StatusBadRequest, errs[0])
	case s.is(faultErrorTextPlain):
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusBadRequest)
		b, _ := json.Marshal(errs)
		_, _ = w.Write(b)
	default:
		s.writeJSON(w, http.StatusBadRequest, errs)
	}
}

// fail answers a non-field error (401, 403, 404, 405, or a body-level 400).
func (s *Server) fail(w http.ResponseWriter, status int, code, msg string) {
	if status == http.StatusBadRequest {
		s.validation(w, errList{{FieldName: "", Error: code, Message: msg}})
		return
	}
	s.writeJSON(w, status, errList{{FieldName: "", Error: code, Message: msg}})
}

// readBody decodes a bounded JSON object body.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
	if s.is(faultContentTypeStrict) && r.Header.Get("Content-Type") != "application/json" {
		s.fail(w, http.StatusBadRequest, "InvalidBody", "Content-Type must be application/json")
		return nil, false
	}
	if r.Body == nil {
		s.fail(w, http.StatusBadRequest, "InvalidBody", "a JSON object body is required")
		return nil, false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		s.fail(w, http.StatusBadRequest, "InvalidBody", "body is not valid JSON or exceeds 64 KiB")
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		s.fail(w, http.StatusBadRequest, "InvalidBody", "body has data after the JSON value")
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		s.fail(w, http.StatusBadRequest, "InvalidBody", "body must be a JSON object")
		return nil, false
	}
	return m, true
}

// fields reads typed values out of a decoded object, collecting errors.
type fields struct {
	s      *Server
	m      map[string]any
	prefix string
	errs   *errList
}

func (s *Server) newFields(m map[string]any) fields {
	return fields{s: s, m: m, errs: &errList{}}
}

func (f fields) sub(m map[string]any, key string) fields {
	return fields{s: f.s, m: m, prefix: f.prefix + key + ".", errs: f.errs}
}

func (f fields) fail(key, code, msg string) {
	f.errs.add(f.prefix+key, code, msg)
}

// present reports whether key is given with a non-null value.
func (f fields) present(key string) bool {
	v, ok := f.m[key]
	return ok && v != nil
}

// reqString reads a required, non-blank string of at most 255 characters.
func (f fields) reqString(key, code string) string {
	v, ok := f.m[key]
	str, isStr := v.(string)
	switch {
	case !ok || v == nil:
		f.fail(key, code, key+" was not provided")
	case !isStr:
		f.fail(key, code, key+" must be a string")
	case strings.TrimSpace(str) == "":
		f.fail(key, code, key+" was not provided")
	case f.s.tooLong(str):
		f.fail(key, code, key+" must be at most 255 characters")
	default:
		return str
	}
	return ""
}

// optString reads an optional string; absent and null both give nil.
func (f fields) optString(key, code string) *string {
	v, ok := f.m[key]
	if !ok || v == nil {
		return nil
	}
	str, isStr := v.(string)
	if !isStr {
		f.fail(key, code, key+" must be a string")
		return nil
	}
	if f.s.tooLong(str) {
		f.fail(key, code, key+" must be at most 255 characters")
		return nil
	}
	return &str
}

func (f fields) reqBool(key, code string) bool {
	b, ok := f.m[key].(bool)
	if !ok {
		f.fail(key, code, key+" must be given as a boolean")
	}
	return b
}

// object reads key as an object; ok is false (and an error recorded) when
// it is missing, null or not an object.
func (f fields) object(key, field, code string) (map[string]any, bool) {
	m, ok := f.m[key].(map[string]any)
	if !ok {
		f.fail(field, code, key+" must be an object")
	}
	return m, ok
}

// objectID reads key.id as an integer.
func (f fields) objectID(key, code string) (int64, bool) {
	m, ok := f.object(key, key+".id", code)
	if !ok {
		return 0, false
	}
	id, ok := f.s.toInt(m["id"])
	if !ok {
		f.fail(key+".id", code, key+".id must be a number")
	}
	return id, ok
}

// toInt accepts any JSON number with an integral value (1, 1.0, 1e0).
func (s *Server) toInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, true
	}
	if s.is(faultNumberFloatRejected) {
		return 0, false
	}
	fv, err := strconv.ParseFloat(string(n), 64)
	if err != nil || fv != math.Trunc(fv) || math.Abs(fv) > 1<<53 {
		return 0, false
	}
	return int64(fv), true
}

// tooLong applies the ..255 limit, counted in characters.
func (s *Server) tooLong(v string) bool {
	n := utf8.RuneCountInString(v)
	if s.is(faultLimitCountsBytes) {
		n = len(v)
	}
	if s.is(faultLimitOffByOne) {
		return n >= maxString
	}
	return n > maxString
}

// pathID parses a positive decimal id from a path segment.
func pathID(v string) (int64, bool) {
	if v == "" || len(v) > 18 || strings.TrimLeft(v, "0123456789") != "" {
		return 0, false
	}
	id, err := strconv.ParseInt(v, 10, 64)
	return id, err == nil && id > 0
}
