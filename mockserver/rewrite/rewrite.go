// Package rewrite is HTTP middleware that changes requests before a handler
// reads them and answers after it wrote them. The servers of
// mockserver/variants use it to turn the mock into another implementation,
// wrong or legal, from the outside, without touching its code.
package rewrite

import (
	"bytes"
	"io"
	"net/http"
	"strconv"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
)

// Answer is an answer held back before it is sent, so that it can be
// changed: its status, headers and body.
type Answer struct {
	// Request is the request the answer is to, as the handler saw it.
	Request *http.Request
	Status  int
	Header  http.Header
	Body    []byte
}

// Answers serves each request with next and hands the answer to edit before
// it is sent; Content-Length is set to the body edit leaves.
func Answers(next http.Handler, edit func(*Answer)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		held := &heldWriter{header: http.Header{}}
		next.ServeHTTP(held, r)
		a := &Answer{Request: r, Status: held.status, Header: held.header, Body: held.body.Bytes()}
		if a.Status == 0 {
			a.Status = http.StatusOK
		}
		edit(a)
		h := w.Header()
		for k, vs := range a.Header {
			h[k] = vs
		}
		h.Set("Content-Length", strconv.Itoa(len(a.Body)))
		w.WriteHeader(a.Status)
		w.Write(a.Body)
	})
}

// heldWriter keeps what a handler writes instead of sending it.
type heldWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *heldWriter) Header() http.Header { return w.header }

func (w *heldWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *heldWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// EditJSON hands the body, decoded, to edit and writes back what edit
// returns when edit reports a change. Numbers stay as written (an id of 20
// digits is not rounded) and HTML is not escaped. A body that is not one
// JSON value is left alone, and EditJSON reports whether the body changed.
func (a *Answer) EditJSON(edit func(v any) (any, bool)) bool {
	b, changed := editJSON(a.Body, edit)
	if changed {
		a.Body = b
	}
	return changed
}

// editJSON decodes raw, hands it to edit and encodes what edit returns,
// when raw is one JSON value and edit reports a change.
func editJSON(raw []byte, edit func(v any) (any, bool)) ([]byte, bool) {
	var v any
	if jsonio.Decode(raw, &v) != nil {
		return nil, false
	}
	v, changed := edit(v)
	if !changed {
		return nil, false
	}
	b, err := jsonio.Encode(v)
	if err != nil {
		// edit built something that is not JSON: a bug of the rewrite.
		panic("rewrite: the edited JSON does not encode: " + err.Error())
	}
	return b, true
}

// Requests serves each request with next after edit has changed it; edit
// gets a copy, so the caller's request stays as it was.
func Requests(next http.Handler, edit func(*http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		edit(r)
		r.RequestURI = r.URL.RequestURI()
		next.ServeHTTP(w, r)
	})
}

// EditRequestJSON hands the request's body, decoded, to edit and puts back
// what edit returns when edit reports a change, with Content-Length to
// match; numbers stay as written. A body that is not one JSON value is left
// as it was, and EditRequestJSON reports whether the body changed. It reads
// the body, so r must be the request a handler will read (Requests hands
// its edit a copy).
func EditRequestJSON(r *http.Request, edit func(v any) (any, bool)) bool {
	if r.Body == nil {
		return false
	}
	raw, err := io.ReadAll(r.Body)
	r.Body.Close()
	b, changed := editJSON(raw, edit)
	if err != nil || !changed {
		r.Body = io.NopCloser(bytes.NewReader(raw))
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	r.ContentLength = int64(len(b))
	r.Header.Set("Content-Length", strconv.Itoa(len(b)))
	return true
}

// SetPath points a request at another path.
func SetPath(r *http.Request, path string) {
	r.URL.Path, r.URL.RawPath = path, ""
}

// EachObject calls fn for every object of a decoded JSON value, depth first,
// with the key it sits under: the items of an array sit under the array's
// key, the value itself under "".
func EachObject(v any, fn func(key string, o map[string]any)) {
	eachObject(v, "", fn)
}

func eachObject(v any, key string, fn func(key string, o map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		fn(key, x)
		for k, c := range x {
			eachObject(c, k, fn)
		}
	case []any:
		for _, c := range x {
			eachObject(c, key, fn)
		}
	}
}
