package explore

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pricing-contract/pricing-contract/steps"
)

// wire is the explorer's one way to the target: every request it sends
// goes through it, and is counted.
type wire struct {
	base  string // the profile's base URL, version segment included
	http  *http.Client
	form  bool // POST /sessions takes a form
	count *atomic.Int64
	// shape writes a body as the target takes it (target.Profile.ShapeBody):
	// the explorer writes the phone country as the reference reads it.
	shape func([]byte) []byte
}

// wireAnswer is the target's answer to one request.
type wireAnswer struct {
	status int // -1: no answer
	body   []byte
	header http.Header
	err    string
	// sent and received are the runner's clock when the request went out
	// and when its answer was read: a date the answer carries was made by
	// then, and a date of the step's own event no earlier than sent.
	sent, received time.Time
}

// wireRequest is a request ready to go, and how the reproducer writes it.
type wireRequest struct {
	method, url string
	header      http.Header
	body        string
	chunked     bool // no Content-Length: the body in chunks
}

func (w *wire) do(ctx context.Context, r wireRequest) wireAnswer {
	if w.shape != nil && r.body != "" {
		r.body = string(w.shape([]byte(r.body)))
	}
	var body io.Reader = strings.NewReader(r.body)
	if r.chunked {
		body = struct{ io.Reader }{body} // a reader that hides its length
	}
	req, err := http.NewRequestWithContext(ctx, r.method, r.url, body)
	if err != nil {
		return wireAnswer{status: -1, err: err.Error()}
	}
	for k, v := range r.header {
		req.Header[k] = v // as given: a name in capitals stays so on the wire
	}
	w.count.Add(1)
	sent := time.Now()
	res, err := w.http.Do(req)
	if err != nil {
		return wireAnswer{status: -1, err: err.Error()}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return wireAnswer{status: -1, err: err.Error()}
	}
	return wireAnswer{status: res.StatusCode, body: b, header: res.Header, sent: sent, received: time.Now()}
}

// get sends a GET of a path below the base URL.
func (w *wire) get(ctx context.Context, p string, h http.Header) (int, []byte, error) {
	a := w.do(ctx, wireRequest{method: http.MethodGet, url: w.base + p, header: h})
	if a.status < 0 {
		return 0, nil, errString(a.err)
	}
	return a.status, a.body, nil
}

// put sends a PUT of a JSON body.
func (w *wire) put(ctx context.Context, p string, h http.Header, body string) (int, []byte, error) {
	h = h.Clone()
	h.Set("Content-Type", "application/json")
	a := w.do(ctx, wireRequest{method: http.MethodPut, url: w.base + p, header: h, body: body})
	if a.status < 0 {
		return 0, nil, errString(a.err)
	}
	return a.status, a.body, nil
}

type errString string

func (e errString) Error() string { return string(e) }

// login sends POST /sessions in the profile's encoding.
func (w *wire) login(ctx context.Context, email, password string) (int, []byte, error) {
	h, body := w.loginBody(map[string]any{"email": email, "password": password})
	a := w.do(ctx, wireRequest{method: http.MethodPost, url: w.base + "/sessions", header: h, body: body})
	if a.status < 0 {
		return 0, nil, errString(a.err)
	}
	return a.status, a.body, nil
}

// loginBody is a login's body in the profile's encoding.
func (w *wire) loginBody(b map[string]any) (http.Header, string) { return loginBody(w.form, b) }

// loginBody is a login's body as a form or as JSON.
func loginBody(form bool, b map[string]any) (http.Header, string) {
	if form {
		v := url.Values{}
		for k, x := range b {
			if s, ok := x.(string); ok {
				v.Set(k, s)
			}
		}
		return http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, v.Encode()
	}
	out, _ := json.Marshal(b)
	return http.Header{"Content-Type": {"application/json"}}, string(out)
}

// credPlace is where a credential is sent: a header or a query parameter,
// its name and its value, in which {key} and {token} stand for the
// account's api key and session token and {KEY}, {TOKEN} for them in
// capitals. The wire and the reproducer both read it.
type credPlace struct {
	query       bool
	name, value string
	// percent writes the query argument's value with every character
	// percent-encoded (RFC 3986 2.1).
	percent bool
}

// encodeQuery is a query as url.Values.Encode writes it, the credential's
// argument percent-encoded whole where its place says so.
func encodeQuery(q url.Values, c credPlace) string {
	if !c.query || !c.percent || len(q[c.name]) != 1 {
		return q.Encode()
	}
	rest := url.Values{}
	for k, v := range q {
		if k != c.name {
			rest[k] = v
		}
	}
	out := url.QueryEscape(c.name) + "=" + steps.PercentEncodeAll(q.Get(c.name))
	if len(rest) > 0 {
		out += "&" + rest.Encode()
	}
	return out
}

// placeOf is where a step's credential goes ("" name: none).
func placeOf(c Cred) credPlace {
	p, ok := credHome[c.Scheme]
	if !ok {
		return credPlace{}
	}
	if q, ok := secretChanged(p, c.Op); ok {
		return q
	}
	switch c.Scheme {
	case "api-key":
		switch c.Op {
		case "header-name-case":
			p.name = "AUTHORIZATION"
		case "unspecified-place":
			p.value = "{key}"
		case "neighbouring-place":
			p.value = "Bearer {key}"
		case "scheme-word-case":
			p.value = "API-KEY {key}"
		case "scheme-spaces":
			p.value = "api-key  {key}"
		}
	case "session-token":
		switch c.Op {
		case "header-name-case":
			p.name = "SESSION-TOKEN"
		case "unspecified-place":
			p.name, p.value = "Authorization", "Bearer {token}"
		case "neighbouring-place":
			p.name, p.value = "Authorization", "session-token {token}"
		}
	case "session-query":
		switch c.Op {
		case "unspecified-place":
			p.name, p.value = "apiKey", "{key}"
		case "neighbouring-place":
			p.name = "session_token"
		case credPercentEncoded:
			p.percent = true
		}
	}
	return p
}

// credHome is each scheme's place as 5 gives it.
var credHome = map[string]credPlace{
	"api-key":       {name: "Authorization", value: "api-key {key}"},
	"session-token": {name: "session-token", value: "{token}"},
	"session-query": {query: true, name: "sessionToken", value: "{token}"},
}

// secretChanged is the place of an operator that changes the secret alone,
// the same way in every place: upper case, empty, the other scheme's, or one
// no account has; false for an operator that changes the place.
func secretChanged(p credPlace, op string) (credPlace, bool) {
	secret, other := "{key}", "{token}"
	if !strings.Contains(p.value, secret) {
		secret, other = other, secret
	}
	with := ""
	switch op {
	case "secret-upper-case":
		with = strings.ToUpper(secret)
	case "secret-empty":
	case "secret-of-the-other-scheme":
		with = other
	case "wrong-secret":
		with = "contract-explore-no-such-" + strings.Trim(secret, "{}")
	default:
		return p, false
	}
	p.value = strings.Replace(p.value, secret, with, 1)
	return p, true
}

// with is the place's value for a key and a token.
func (c credPlace) with(key, token string) string {
	return strings.NewReplacer("{key}", key, "{token}", token, "{KEY}", strings.ToUpper(key), "{TOKEN}", strings.ToUpper(token)).Replace(c.value)
}

// besidePlace is the second credential an operator sends beside the first, and
// the operator (whose it is): the api key beside a session token, the
// session-token header beside the api key.
func besidePlace(c Cred) (credPlace, string) {
	if c.Op != credBesideOwn && c.Op != credBesideOther {
		return credPlace{}, ""
	}
	if c.Scheme == "api-key" {
		return placeOf(Cred{Scheme: "session-token"}), c.Op
	}
	return placeOf(Cred{Scheme: "api-key"}), c.Op
}

// nearMisses are the credential operators that change the secret by one
// character, as the suite's phrase "I am account "A" using the api-key
// header with its last character removed" says them.
var nearMisses = map[string]string{
	"secret-character-added":         "a character added",
	"secret-last-character-removed":  "its last character removed",
	"secret-last-character-changed":  "its last character changed",
	"secret-first-character-changed": "its first character changed",
}

// versioned is the base URL with its version segment replaced.
func versioned(base, version string) string {
	base = strings.TrimRight(base, "/")
	if version == "" {
		return base
	}
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	dir, _ := path.Split(strings.TrimRight(u.Path, "/"))
	u.Path, u.RawPath = dir+version, ""
	return u.String()
}
