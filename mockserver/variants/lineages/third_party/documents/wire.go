package documents

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// fieldError is one element of an error body (section 7.1).
type fieldError = wire.FieldError

type errList []fieldError

func (e *errList) add(field, code, msg string) {
	*e = append(*e, fieldError{FieldName: field, Error: code, Message: msg})
}

// reply is what a handler answers; body is marshalled, or sent as is when
// it is already []byte.
type reply struct {
	status int
	body   any
	header map[string]string
}

func oneError(field, code, msg string) []fieldError {
	return []fieldError{{FieldName: field, Error: code, Message: msg}}
}

// failure keeps the error shape of 7.1 for every error status, so that a
// client needs one decoder for all of them.
func failure(status int, code, msg string) reply {
	return reply{status: status, body: oneError("", code, msg)}
}

func notFound(msg string) reply { return failure(http.StatusNotFound, "NotFound", msg) }

func forbidden(msg string) reply { return failure(http.StatusForbidden, "Forbidden", msg) }

func unauthorized() reply {
	r := failure(http.StatusUnauthorized, "Unauthorized", "authentication is missing or not valid")
	r.header = map[string]string{"WWW-Authenticate": `api-key realm="pricing"`}
	return r
}

func (s *Server) badRequest(errs errList) reply {
	if s.is(fOnlyFirstErrorReported) && len(errs) > 1 {
		errs = errs[:1]
	}
	return reply{status: http.StatusBadRequest, body: []fieldError(errs)}
}

func limitReached(msg string) reply {
	return failure(http.StatusBadRequest, "LimitReached", msg)
}

func (s *Server) send(w http.ResponseWriter, r *http.Request, rep reply) {
	h := w.Header()
	for k, v := range rep.header {
		h.Set(k, v)
	}
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if rep.status == http.StatusNoContent {
		w.WriteHeader(rep.status)
		return
	}
	var data []byte
	switch b := rep.body.(type) {
	case []byte:
		data = b
	default:
		data = encode(b)
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(rep.status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
}

// object is a JSON object whose members are decoded one by one, so that a
// member's presence, null and type can each be told apart.
type object map[string]json.RawMessage

const maxBody = 1 << 20

// targetBody is the document of a PUT, as target finds it (or refuses),
// and then the object of the request's body (readObject).
func (s *Server) targetBody(r *http.Request, target func() (*document, *reply)) (*document, object, *reply) {
	d, fail := target()
	if fail != nil {
		return nil, nil, fail
	}
	body, fail := s.readObject(r)
	if fail != nil {
		return nil, nil, fail
	}
	return d, body, nil
}

// readObject reads the request body as one JSON object. The Content-Type
// is not consulted: the body is JSON by definition of the API.
func (s *Server) readObject(r *http.Request) (object, *reply) {
	if s.is(fContentTypeCharset415) {
		if ct := r.Header.Get("Content-Type"); ct != "" && ct != "application/json" {
			rep := failure(http.StatusUnsupportedMediaType, "UnsupportedMediaType", "the body must be application/json")
			return nil, &rep
		}
	}
	var data []byte
	if !(s.is(fChunkedBodyIgnored) && r.ContentLength < 0) && r.Body != nil {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			rep := failure(http.StatusBadRequest, "InvalidJSON", "the body could not be read")
			return nil, &rep
		}
		if len(b) > maxBody {
			rep := failure(http.StatusRequestEntityTooLarge, "BodyTooLarge", "the body is larger than 1 MiB")
			return nil, &rep
		}
		data = b
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		rep := failure(http.StatusBadRequest, "InvalidJSON", "the body must be a JSON object")
		return nil, &rep
	}
	var obj object
	if err := json.Unmarshal(data, &obj); err != nil {
		rep := failure(http.StatusBadRequest, "InvalidJSON", "the body is not valid JSON")
		return nil, &rep
	}
	if obj == nil {
		obj = object{}
	}
	return obj, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// given reports whether a member is present and not null.
func (o object) given(key string) (json.RawMessage, bool) {
	raw, ok := o[key]
	if !ok || isNull(raw) {
		return nil, false
	}
	return bytes.TrimSpace(raw), true
}

func stringValue(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	return v, true
}

func boolValue(raw json.RawMessage) (bool, bool) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// idValue accepts a JSON number with an integral value: 2, 2.0 and 2e0 are
// the same number in JSON. A string "2" is not a number.
func idValue(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !(raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
		return 0, false
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

func objectValue(raw json.RawMessage) (object, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var o object
	if json.Unmarshal(raw, &o) != nil {
		return nil, false
	}
	if o == nil {
		o = object{}
	}
	return o, true
}

// fits255 is the limit of section 8, counted in characters.
func (s *Server) fits255(v string) bool {
	if s.is(fLengthLimitCountsBytes) {
		return len(v) <= 255
	}
	return utf8.RuneCountInString(v) <= 255
}

// parseID reads a path id: decimal digits only, positive, within int64.
func parseID(seg string) (int64, bool) {
	if seg == "" || len(seg) > 19 || strings.TrimLeft(seg, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(seg, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}
