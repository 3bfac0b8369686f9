package defects

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

// The helpers of the defects that break the error array of 7.1 element by
// element, and of those that answer a client's mistake with a 5xx.

// bodyKey carries the request body a defect read before the mock did.
type bodyKey struct{}

// peekLimit is as much of a body as keepBody holds: past the mock's 1 MiB
// limit, so that a body the mock refuses as too large is seen as such.
const peekLimit = 1<<20 + 1

// keepBody is a request rewrite: it reads the body, hands the mock the same
// bytes, and keeps them in the request's context for an answer rewrite
// (sentBody), which sees the request the mock saw.
func keepBody(r *http.Request) {
	head := []byte{}
	if r.Body != nil && r.Body != http.NoBody {
		head, _ = io.ReadAll(io.LimitReader(r.Body, peekLimit))
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	}
	*r = *r.WithContext(context.WithValue(r.Context(), bodyKey{}, head))
}

// sentBody is the body keepBody kept: nil when it did not run, empty (not
// nil) for a request without a body.
func sentBody(r *http.Request) []byte {
	b, _ := r.Context().Value(bodyKey{}).([]byte)
	return b
}

// sentJSON reports whether a request carried its body as JSON, as the mock
// reads it: any Content-Type but a form.
func sentJSON(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt != "application/x-www-form-urlencoded"
}

// crashWhen is an answer rewrite: when broken holds for the request and the
// body it carried, the answer becomes the 500 of a server whose handler
// failed, plain text as most frameworks write it.
func crashWhen(broken func(r *http.Request, body []byte) bool) func(*rewrite.Answer) {
	return func(a *rewrite.Answer) {
		if !broken(a.Request, sentBody(a.Request)) {
			return
		}
		a.Status = http.StatusInternalServerError
		a.Header = http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
		a.Body = []byte("Internal Server Error\n")
	}
}

// bodyMethod: a request that carries a body to the API.
func bodyMethod(r *http.Request) bool {
	return r.Method == http.MethodPost || r.Method == http.MethodPut
}

// topLevel decodes a JSON object body; ok is false for anything else.
func topLevel(body []byte) (map[string]json.RawMessage, bool) {
	var o map[string]json.RawMessage
	if json.Unmarshal(body, &o) != nil || o == nil {
		return nil, false
	}
	return o, true
}

// isNumber: a JSON number (not a string of digits).
func isNumber(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
}

// idPath is a user or a client by id, under any base path; the id is group 2.
var idPath = regexp.MustCompile(`^/[^/]+/(users|clients)/([^/]+)$`)

// pathID is the id of a PUT to a user or client, or "".
func pathID(r *http.Request) string {
	if m := idPath.FindStringSubmatch(r.URL.Path); m != nil && r.Method == http.MethodPut {
		return m[2]
	}
	return ""
}

// hugeID: digits that no int64 holds.
func hugeID(id string) bool {
	if id == "" || strings.Trim(id, "0123456789") != "" {
		return false
	}
	_, err := strconv.ParseInt(id, 10, 64)
	return err != nil
}

// knownFields are the body fields of the spec's tables (and the phone fields
// of README's decision) at the top of any body of the API.
var knownFields = map[string]bool{}

func init() {
	for _, f := range strings.Fields(`email firstName lastName subscribeWelcome subscribeBlog subscribeHowto
		subscribeOnboarding timezone password client phoneCountry phoneNumber phoneExtension
		marketapp name platform nextplan addressLine1 addressLine2 addressCity addressPostcode
		addressCountry vat currency terms app`) {
		knownFields[f] = true
	}
}

// onErrors edits every element of the error array of a 400.
func onErrors(edit func(e map[string]any)) func(*rewrite.Answer) {
	return onBadRequest(func(errs []any) any {
		for _, e := range errs {
			if o, ok := e.(map[string]any); ok {
				edit(o)
			}
		}
		return errs
	})
}

// namedFieldToo is the answer rewrite of error-for-valid-field: each
// element that names a top-level field of the body gets a twin for the
// field after it, in the order of the names, when that one was valid.
func namedFieldToo(a *rewrite.Answer) {
	body, ok := topLevel(sentBody(a.Request))
	if a.Status != http.StatusBadRequest || !ok {
		return
	}
	keys := make([]string, 0, len(body))
	for k := range body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	a.EditJSON(func(v any) (any, bool) {
		errs, ok := v.([]any)
		if !ok {
			return v, false
		}
		named := map[string]bool{}
		for _, e := range errs {
			if o, ok := e.(map[string]any); ok {
				f, _ := o["fieldName"].(string)
				named[f] = true
			}
		}
		var twins []any
		twinned := map[string]bool{}
		for i, k := range keys {
			if !named[k] || i+1 == len(keys) || named[keys[i+1]] || twinned[keys[i+1]] {
				continue
			}
			next := keys[i+1]
			twinned[next] = true
			twins = append(twins, map[string]any{"fieldName": next, "error": "Invalid" + strings.ToUpper(next[:1]) + next[1:], "message": next + " is invalid."})
		}
		return append(errs, twins...), len(twins) > 0
	})
}

// snakeCase writes firstName as first_name.
func snakeCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
