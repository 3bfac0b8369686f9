package variants

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

// The helpers that read and change a request: where it goes, its body, its
// credentials.

// Path is an API path split: /v1/users/1/clients is Version "/v1",
// Resource "users", ID "1", Rest "/clients".
type Path struct{ Version, Resource, ID, Rest string }

var apiPath = regexp.MustCompile(`^(/v1(?:\.0)?)/([A-Za-z]+)(?:/([^/]+))?(/.*)?$`)

// Parse splits an API path under /v1 or /v1.0; ok is false for any other.
func Parse(path string) (Path, bool) {
	m := apiPath.FindStringSubmatch(path)
	if m == nil {
		return Path{}, false
	}
	return Path{m[1], m[2], m[3], m[4]}, true
}

// ToCollection matches, as a Rule's Applies does, the requests of method
// to the collection of resource itself (POST /apps), whatever follows it.
func ToCollection(method, resource string) func(*http.Request, Path) bool {
	return func(r *http.Request, p Path) bool {
		return r.Method == method && p.Resource == resource && p.ID == ""
	}
}

// ToMember matches, as a Rule's Applies does, the requests of method to
// one member of resource and nothing below it (PUT /users/:userId).
func ToMember(method, resource string) func(*http.Request, Path) bool {
	return func(r *http.Request, p Path) bool {
		return r.Method == method && p.Resource == resource && p.ID != "" && p.Rest == ""
	}
}

// Routed is applies (ToCollection, ToMember) as a predicate of a request:
// false for a path that is not an API path (Parse).
func Routed(applies func(*http.Request, Path) bool) func(*http.Request) bool {
	return func(r *http.Request) bool {
		p, ok := Parse(r.URL.Path)
		return ok && applies(r, p)
	}
}

// Below is the path below the version segment of an API path ("/users/1"
// of "/v1.0/users/1") and the version; ok is false for any other path.
func Below(path string) (version, rest string, ok bool) {
	for _, v := range []string{"/v1.0", "/v1"} {
		if strings.HasPrefix(path, v+"/") {
			return v, path[len(v):], true
		}
	}
	return "", "", false
}

// At matches a request's method and the path below the version against
// pattern, where a segment "*" matches any one segment; it returns the
// segments "*" matched.
func At(r *http.Request, method, pattern string) ([]string, bool) {
	if r.Method != method {
		return nil, false
	}
	_, rest, ok := Below(r.URL.Path)
	if !ok {
		return nil, false
	}
	got := strings.Split(rest[1:], "/")
	want := strings.Split(pattern[1:], "/")
	if len(got) != len(want) {
		return nil, false
	}
	var vars []string
	for i, w := range want {
		switch {
		case w == "*":
			vars = append(vars, got[i])
		case w != got[i]:
			return nil, false
		}
	}
	return vars, true
}

// On is At as a predicate of the requests of one route.
func On(method, pattern string) func(*http.Request) bool {
	return func(r *http.Request) bool {
		_, ok := At(r, method, pattern)
		return ok
	}
}

// Routes that many servers change.
var (
	PutUser     = On(http.MethodPut, "/users/*")
	PutClient   = On(http.MethodPut, "/clients/*")
	PostClients = On(http.MethodPost, "/clients")
	PostApps    = On(http.MethodPost, "/apps")
	PostLogin   = On(http.MethodPost, "/sessions")
)

// ToClients is a request whose body is a client's: POST /clients and PUT
// /clients/:clientId.
func ToClients(r *http.Request) bool { return PostClients(r) || PutClient(r) }

// CarriesBody is a request that carries a body to the API.
func CarriesBody(r *http.Request) bool {
	return r.Method == http.MethodPost || r.Method == http.MethodPut
}

// Under reports whether path is prefix or below it.
func Under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// PathID is the id of a PUT to a user or client, or "".
func PathID(r *http.Request) string {
	if ids, ok := At(r, http.MethodPut, "/users/*"); ok {
		return ids[0]
	}
	if ids, ok := At(r, http.MethodPut, "/clients/*"); ok {
		return ids[0]
	}
	return ""
}

// PeekBody reads a request's body and puts the same bytes back for the
// next reader.
func PeekBody(r *http.Request) []byte {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	raw, _ := io.ReadAll(r.Body)
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(raw))
	return raw
}

// PeekJSON is the body of a request, put back, decoded when it is a JSON
// object (numbers kept as written); nil otherwise.
func PeekJSON(r *http.Request) map[string]any {
	o, _ := DecodeObject(PeekBody(r))
	return o
}

// DecodeObject decodes a JSON object with numbers kept as written.
func DecodeObject(raw []byte) (map[string]any, bool) {
	var v any
	if jsonio.Decode(raw, &v) != nil {
		return nil, false
	}
	o, ok := v.(map[string]any)
	return o, ok && o != nil
}

// SetBody replaces a request's body with v encoded.
func SetBody(r *http.Request, v any) {
	b := Encode(v)
	r.Body = io.NopCloser(bytes.NewReader(b))
	r.ContentLength = int64(len(b))
	r.Header.Set("Content-Length", strconv.Itoa(len(b)))
}

// Encode encodes v without its line end; what does not encode is a bug of
// the server that built it.
func Encode(v any) []byte {
	b, err := jsonio.Encode(v)
	if err != nil {
		panic("variants: a value does not encode: " + err.Error())
	}
	return bytes.TrimRight(b, "\n")
}

// LoginEmail is the email of a POST /sessions body, JSON or form.
func LoginEmail(r *http.Request) string { return sentField(r, "email") }

// sentField is a string field of a request body, JSON or form.
func sentField(r *http.Request, key string) string {
	raw := PeekBody(r)
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/x-www-form-urlencoded" {
		form, _ := url.ParseQuery(string(raw))
		return form.Get(key)
	}
	o, _ := DecodeObject(raw)
	s, _ := o[key].(string)
	return s
}

// SentJSON reports whether a request carried its body as JSON, as the mock
// reads it: any Content-Type but a form.
func SentJSON(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt != "application/x-www-form-urlencoded"
}

// bodyKey carries the request body KeepBody read before the mock did.
type bodyKey struct{}

// peekLimit is as much of a body as KeepBody holds: past the mock's 1 MiB
// limit, so that a body the mock refuses as too large is seen as such.
const peekLimit = 1<<20 + 1

// KeepBody is a request rewrite: it reads the body, hands the mock the same
// bytes, and keeps them in the request's context for an answer rewrite
// (SentBody), which sees the request the mock saw.
func KeepBody(r *http.Request) {
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

// SentBody is the body KeepBody kept: nil when it did not run, empty (not
// nil) for a request without a body.
func SentBody(r *http.Request) []byte {
	b, _ := r.Context().Value(bodyKey{}).([]byte)
	return b
}

// EditBody is a request rewrite of the JSON object body of the requests
// that match; edit reports whether it changed the body.
func EditBody(match func(*http.Request) bool, edit func(b map[string]any) bool) func(*http.Request) {
	return func(r *http.Request) {
		if !match(r) {
			return
		}
		rewrite.EditRequestJSON(r, func(v any) (any, bool) {
			b, ok := v.(map[string]any)
			return v, ok && edit(b)
		})
	}
}

// Requests serves each request with next after edit, which gets a copy
// with its decoded body (nil when not a JSON object) and reports whether it
// changed anything; hit is called when it did.
func Requests(next http.Handler, hit func(), edit func(r *http.Request, body map[string]any) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = r.Clone(r.Context())
		if edit(r, PeekJSON(r)) {
			hit()
			r.RequestURI = r.URL.RequestURI()
		}
		next.ServeHTTP(w, r)
	})
}

// EditRequests is a server that edits each request before next reads it,
// as Requests does.
func EditRequests(edit func(r *http.Request, body map[string]any) bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return Requests(next, hit, edit)
	}
}

// RewriteWhen is a server that rewrites the JSON body of a request of
// route before next reads it: edit gets the request (a copy) and its
// decoded body (nil when not a JSON object), changes the body and reports
// whether it did; a changed body is what next reads. hit is called for
// each body it changes.
func RewriteWhen(route func(*http.Request) bool, edit func(r *http.Request, body map[string]any) bool) func(http.Handler, func()) http.Handler {
	return func(next http.Handler, hit func()) http.Handler {
		return Requests(next, hit, func(r *http.Request, body map[string]any) bool {
			if !route(r) || !edit(r, body) {
				return false
			}
			SetBody(r, body)
			return true
		})
	}
}

// HasCredentials reports whether a request carries credentials of any
// scheme of the spec.
func HasCredentials(r *http.Request) bool {
	return r.Header.Get("Authorization") != "" || r.Header.Get("session-token") != "" || r.URL.Query().Has("sessionToken")
}

// DropCredentials removes every credential of the spec's schemes.
func DropCredentials(r *http.Request) {
	r.Header.Del("Authorization")
	r.Header.Del("session-token")
	DropTokenQuery(r)
}

// DropTokenQuery removes the sessionToken query argument.
func DropTokenQuery(r *http.Request) {
	if q := r.URL.Query(); q.Has("sessionToken") {
		q.Del("sessionToken")
		r.URL.RawQuery = q.Encode()
	}
}

// SessionToken is the form of the mock's session tokens.
var SessionToken = regexp.MustCompile(`^[0-9a-f]{64}$`)

// NotePassword is a request rewrite that leaves the password of a matching
// request's body (JSON or form) in a header, for the answer rewrite of the
// same server to leak (PasswordMark).
func NotePassword(match func(*http.Request) bool) func(*http.Request) {
	return func(r *http.Request) {
		if !match(r) || r.Body == nil {
			return
		}
		if pw := sentField(r, "password"); pw != "" {
			r.Header.Set(PasswordMark, pw)
		}
	}
}

// NoteBody is a request rewrite that leaves what read finds in a matching
// request's JSON body in the header mark, for the answer rewrite of the
// same server (AnswerNoted).
func NoteBody(match func(*http.Request) bool, mark string, read func(b map[string]any) (string, bool)) func(*http.Request) {
	return func(r *http.Request) {
		if !match(r) {
			return
		}
		var b map[string]any
		if json.Unmarshal(PeekBody(r), &b) == nil {
			if v, ok := read(b); ok {
				r.Header.Set(mark, v)
			}
		}
	}
}

// Headers a request rewrite leaves for the answer rewrite of the same
// server. The mock ignores them.
const (
	AnonymousMark = "X-Defect-Anonymous"
	PasswordMark  = "X-Defect-Password"
)

// PlainID is a path id as the mock assigns them: a positive whole number.
var PlainID = regexp.MustCompile(`^[1-9][0-9]*$`)
