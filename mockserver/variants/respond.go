package variants

import (
	"bytes"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

// The helpers of a server that answers by itself, or asks the mock
// something of its own before it answers.

// FieldError is one element of an error array (spec 7.1).
type FieldError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

// WriteErrors answers status with an error array.
func WriteErrors(w http.ResponseWriter, status int, errs ...FieldError) {
	Write(w, &rewrite.Answer{Status: status, Header: http.Header{"Content-Type": {"application/json; charset=utf-8"}}, Body: Encode(errs)})
}

// WriteError answers status with the error array of one error of no field.
func WriteError(w http.ResponseWriter, status int, code, message string) {
	WriteErrors(w, status, FieldError{"", code, message})
}

// Refuse answers 400 with one error of field.
func Refuse(w http.ResponseWriter, field, code, message string) {
	WriteErrors(w, http.StatusBadRequest, FieldError{field, code, message})
}

// RefuseWhen is a server that answers a request of route itself, with 400
// and one error of field (Refuse), when refused reports so of the request
// and its decoded body (nil when not a JSON object); every other request
// is next's. hit is called for each request it refuses.
func RefuseWhen(route func(*http.Request) bool, field, code, message string, refused func(r *http.Request, body map[string]any) bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if route(r) && refused(r, PeekJSON(r)) {
				hit()
				Refuse(w, field, code, message)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Intercept is a server that serves the requests match accepts with serve,
// which may ask next itself and calls hit where it acts; every other
// request is next's.
func Intercept(match func(*http.Request) bool, serve func(next http.Handler, hit func(), w http.ResponseWriter, r *http.Request)) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				next.ServeHTTP(w, r)
				return
			}
			serve(next, hit, w, r)
		})
	}
}

// SetError replaces an answer with the error array of one error of no
// field.
func SetError(a *rewrite.Answer, status int, code, message string) {
	a.Status = status
	if a.Header == nil {
		a.Header = http.Header{}
	}
	a.Header.Set("Content-Type", "application/json; charset=utf-8")
	a.Body = Encode([]FieldError{{"", code, message}})
}

// Write sends an answer held or made by a server.
func Write(w http.ResponseWriter, a *rewrite.Answer) {
	for k, vs := range a.Header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(a.Body)))
	w.WriteHeader(a.Status)
	w.Write(a.Body)
}

// Record serves r with next and holds the answer instead of sending it.
func Record(next http.Handler, r *http.Request) *rewrite.Answer {
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, r)
	return &rewrite.Answer{Request: r, Status: rec.Code, Header: rec.Header().Clone(), Body: rec.Body.Bytes()}
}

// Send asks next a request of the server's own, with the credentials
// (headers and query) of orig: another method, path or body (nil: none).
// Nothing reaches the caller.
func Send(next http.Handler, orig *http.Request, method, path string, body []byte) *rewrite.Answer {
	req := httptest.NewRequestWithContext(orig.Context(), method, path, bytes.NewReader(body))
	req.Header = orig.Header.Clone()
	req.Header.Del("Content-Length")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.URL.RawQuery = orig.URL.RawQuery
	req.RequestURI = req.URL.RequestURI()
	req.RemoteAddr = orig.RemoteAddr
	return Record(next, req)
}

// Call is Send of a JSON body (nil: none) to a path below orig's version,
// with the answer decoded: its status and value.
func Call(next http.Handler, orig *http.Request, method, rest string, body any) (int, any) {
	version, _, _ := Below(orig.URL.Path)
	var raw []byte
	if body != nil {
		raw = Encode(body)
	}
	a := Send(next, orig, method, version+rest, raw)
	var v any
	_ = jsonio.Decode(a.Body, &v)
	return a.Status, v
}

// UserBody is a PUT /users body that keeps a user as its wire form says
// (keepBody); the phone fields, which a PUT leaves as they are when it
// does not carry them, are left out.
func UserBody(u map[string]any) map[string]any {
	return keepBody(pricing.UserBody, u, map[string]any{})
}

// ClientBody is a PUT /clients body that keeps a client as its wire form
// says (keepBody), with the terms accepted.
func ClientBody(c map[string]any) map[string]any {
	return keepBody(pricing.ClientBody, c, map[string]any{"terms": "I agree"})
}

// keepBody completes b into a PUT body of table that keeps the resource o
// shows: every field the PUT replaces, as o has it (left out where o has
// none, which clears an optional field as o shows it cleared), and null
// for a field that null keeps (the password). The field table lists them,
// so that a new field is kept without a change here.
func keepBody(table *pricing.Table, o, b map[string]any) map[string]any {
	for _, f := range table.Leaves() {
		switch f.Put {
		case pricing.PutReplaces:
			if v, ok := BodyPath(o, f.Path); ok {
				SetBodyPath(b, f.Path, v)
			}
		case pricing.PutNullKeeps:
			SetBodyPath(b, f.Path, nil)
		}
	}
	return b
}

// StoreRefused makes a server that stores part of a PUT the mock refused,
// as a server that writes each field as soon as it finds it valid does:
// when the mock answers a PUT of pattern ("/users/*", "/clients/*") 400 and
// none of its errors names a field of the part, it reads the resource,
// keeps it as its wire form says (UserBody, ClientBody), sets the part and
// PUTs that. part is the valid fields of the refused body to store, false
// when there are none. hit is called when the second PUT is stored.
func StoreRefused(pattern string, keep func(map[string]any) map[string]any, part func(body map[string]any) (map[string]any, bool)) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ids, ok := At(r, http.MethodPut, pattern)
			if !ok {
				next.ServeHTTP(w, r)
				return
			}
			body := PeekJSON(r)
			rewrite.Answers(next, func(a *rewrite.Answer) {
				fields, ok := part(body)
				if a.Status != http.StatusBadRequest || !ok {
					return
				}
				for k := range fields {
					if ErrorOn(a, k) {
						return
					}
				}
				resource := strings.Replace(pattern, "*", ids[0], 1)
				st, cur := Call(next, r, http.MethodGet, resource, nil)
				if st != http.StatusOK {
					return
				}
				b := keep(Obj(cur))
				maps.Copy(b, fields)
				if st, _ := Call(next, r, http.MethodPut, resource, b); st == http.StatusOK {
					hit()
				}
			}).ServeHTTP(w, r)
		})
	}
}

// ValidText is a string field a server takes as valid: not blank, within
// the field's limit (LimitOf).
func ValidText(body map[string]any, key string) (string, bool) {
	s, ok := Str(body, key)
	return s, ok && strings.TrimSpace(s) != "" && Runes(s) <= LimitOf(key)
}
