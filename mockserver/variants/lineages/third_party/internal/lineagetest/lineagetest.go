// Package lineagetest is the plumbing the lineages' tests share: the body
// of a test request, a request served in process, an answer decoded. What
// a test sends, to which lineage, and what it asserts stays its own.
package lineagetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
)

// Body is the request body a test's value stands for: nil for none, a
// string or []byte sent byte for byte (the way a test sends what is not
// JSON), an io.Reader read as is, anything else marshalled as JSON. A value
// that does not marshal is the test's own mistake, so it panics.
func Body(body any) io.Reader {
	switch b := body.(type) {
	case nil:
		return nil
	case string:
		return strings.NewReader(b)
	case []byte:
		return bytes.NewReader(b)
	case io.Reader:
		return b
	}
	j, err := json.Marshal(body)
	if err != nil {
		panic(err)
	}
	return bytes.NewReader(j)
}

// Serve sends method and target to h in process, the body as Body makes it
// and labelled application/json when there is one; edit, when not nil,
// sets the test's headers or query first. It answers what h recorded.
func Serve(h http.Handler, method, target string, body any, edit func(*http.Request)) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, Body(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if edit != nil {
		edit(req)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// JSON is raw decoded, nil where it is not JSON.
func JSON(raw []byte) any {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil
	}
	return v
}

// With is a shallow copy of a test body m with kv's key, value pairs set on
// it; a value equal to drop (the test's own marker) removes the key
// instead, for a test of a member left out.
func With(m map[string]any, drop any, kv ...any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		if kv[i+1] == drop {
			delete(out, k)
		} else {
			out[k] = kv[i+1]
		}
	}
	return out
}
