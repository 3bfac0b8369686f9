package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/cmd/internal/explore"
)

// The second stage, second half: each request of the API read as one of
// the spec's operations, with its credential and its body. A request of the
// API that is none of them (a read extension, POST /users) is listed and
// skipped: the reference judges the spec's operations only.

// call is one recorded request and what the replay makes of it.
type call struct {
	req     *Request
	label   string // "recorded request 7, PUT /v1/users/1": no query, no secret
	op      explore.Op
	version string // the version segment, "" the base's own
	pathID  string // the id of a PUT's path, as recorded
	cred    credential
	body    map[string]any // a JSON object body, numbers exact
	wire    string         // the explorer's wire form of a body that is no object
	ctype   string         // the request's Content-Type, "" application/json
	// skip says why the request is not sent; "" it is.
	skip string
	// notes say what the replay changed of it (an id mapped, a password
	// made, a field masked), for the reports.
	notes []string

	// Filled in by the accounts stage.
	actor string        // A or B
	step  explore.Step  // the step sent
	made  string        // the label of the call whose client a "created" path names
	login loginEvidence // what a POST /sessions answered
	// deps are the calls whose effects the call relies on: the client it
	// names, the password or email it logs in with. A call whose
	// dependency's sequence a divergence ended is skipped.
	deps []*call
}

// credential is how a recorded request authenticated.
type credential struct {
	scheme string // api-key, session-token, session-query, none
	op     string // the explorer's credential operator: as-specified, unspecified-place, scheme-word-case, scheme-spaces
	secret string // the recorded secret; "" masked or none
	masked bool
	// several: the request carried more than one credential.
	several bool
}

// loginEvidence is what a recorded login's answer showed.
type loginEvidence struct {
	email, password          string // as sent; password "" when masked or absent
	passwordMasked, hasEmail bool
	passwordPresent          bool
	userID, clientID, token  string // of a 200
}

// maskedSecret is how the journal writes a secret.
const maskedSecret = "***"

// readCall reads a request of the API at its version and path.
func readCall(r *Request, version, rest string, b base, platformsPath string) *call {
	c := &call{req: r, label: fmt.Sprintf("recorded request %d, %s %s", r.N, r.Method, r.URL.EscapedPath())}
	if version != b.version {
		c.version = version
	}
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	switch {
	case r.Method == "PUT" && len(segs) == 2 && segs[0] == "users":
		c.op, c.pathID = explore.OpPutUser, unescape(segs[1])
	case r.Method == "PUT" && len(segs) == 2 && segs[0] == "clients":
		c.op, c.pathID = explore.OpPutClient, unescape(segs[1])
	case r.Method == "POST" && rest == "/clients":
		c.op = explore.OpPostClient
	case r.Method == "POST" && rest == "/apps":
		c.op = explore.OpPostApp
	case r.Method == "POST" && rest == "/sessions":
		c.op = explore.OpLogin
	case r.Method == "GET" && (rest == "/platforms" || rest == platformsPath):
		c.op = explore.OpPlatforms
	case r.Method == "POST" && rest == "/users":
		c.skip = "POST /users: named by the spec, its body and answer not shown (4.5): not judged"
		return c
	case r.Method == "GET":
		c.skip = "a read extension of the mock (GET " + rest + "), not in the spec: not judged (the replay reads the state back itself where the target has them)"
		return c
	default:
		c.skip = "no operation of the spec (" + r.Method + " " + rest + ")"
		return c
	}
	if r.Truncated {
		c.skip = "the recording cut this entry (truncated: the journal keeps 64 KiB of a body, the replay reads 1 MiB of a string): its body is not whole"
		return c
	}
	c.cred = readCredential(r)
	for k := range r.URL.Query() {
		if k != "sessionToken" && k != "apiKey" {
			c.note("its query argument %q is not sent: no operation of the spec takes one", k)
		}
	}
	if c.cred.several {
		c.skip = "several credentials at once: the replay sends one"
		return c
	}
	if c.op != explore.OpPlatforms {
		c.readBody()
	}
	if c.op == explore.OpLogin {
		c.readLogin()
	}
	return c
}

func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// readCredential finds the credential of a request: the Authorization
// header (api-key, Bearer, a bare key), the session-token header, the
// sessionToken or apiKey query argument.
func readCredential(r *Request) credential {
	var found []credential
	if v := r.Header.Get("Authorization"); v != "" {
		found = append(found, authorization(v))
	}
	if vs := r.Header.Values("Session-Token"); len(vs) > 0 {
		found = append(found, secretCred("session-token", "as-specified", vs[0]))
	}
	q := r.URL.Query()
	if q.Has("sessionToken") {
		found = append(found, secretCred("session-query", "as-specified", q.Get("sessionToken")))
	}
	if q.Has("apiKey") {
		found = append(found, secretCred("session-query", "unspecified-place", q.Get("apiKey")))
	}
	switch len(found) {
	case 0:
		return credential{scheme: "none"}
	case 1:
		return found[0]
	}
	return credential{several: true}
}

func secretCred(scheme, op, v string) credential {
	if v == maskedSecret {
		return credential{scheme: scheme, op: op, masked: true}
	}
	return credential{scheme: scheme, op: op, secret: v}
}

// authorization reads an Authorization header: "api-key KEY" (the word in
// another case, or several spaces, are the explorer's operators of them),
// "Bearer TOKEN", a bare key; the journal's "api-key ***".
func authorization(v string) credential {
	word, rest, spaced := strings.Cut(v, " ")
	key := strings.TrimLeft(rest, " ")
	switch {
	case !spaced && v == maskedSecret:
		return credential{scheme: "api-key", op: "as-specified", masked: true}
	case !spaced:
		return secretCred("api-key", "unspecified-place", v)
	case strings.EqualFold(word, "bearer"):
		return secretCred("session-token", "unspecified-place", key)
	case strings.EqualFold(word, "api-key"):
		op := "as-specified"
		if word != "api-key" {
			op = "scheme-word-case"
		} else if key != rest {
			op = "scheme-spaces"
		}
		return secretCred("api-key", op, key)
	}
	return secretCred("api-key", "unspecified-place", v)
}

// readBody reads a JSON object body, or the wire form of one that is none.
func (c *call) readBody() {
	r := c.req
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		c.ctype = ct // "" without one: sent as application/json
	}
	text := bytes.TrimSpace(r.Body)
	switch {
	case len(text) == 0:
		c.wire = "empty-body"
		return
	case !json.Valid(text):
		if c.op == explore.OpLogin {
			if v, err := url.ParseQuery(string(text)); err == nil && (v.Has("email") || v.Has("password")) {
				c.body = map[string]any{}
				for k := range v {
					c.body[k] = v.Get(k)
				}
				return
			}
		}
		c.wire = "not-json"
		return
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	_ = dec.Decode(&v)
	switch x := v.(type) {
	case map[string]any:
		c.body = x
	case []any:
		c.wire = "array"
	default:
		c.wire = "scalar"
	}
}

// readLogin reads what a login sent and what its answer showed.
func (c *call) readLogin() {
	l := &c.login
	if e, ok := c.body["email"].(string); ok {
		l.email, l.hasEmail = e, true
	}
	if pw, there := c.body["password"]; there {
		l.passwordPresent = pw != nil
		if s, ok := pw.(string); ok {
			if s == maskedSecret {
				l.passwordMasked = true
			} else {
				l.password = s
			}
		}
	}
	if c.req.Status == 200 && gjson.ValidBytes(c.req.Answer) {
		a := gjson.ParseBytes(c.req.Answer)
		l.userID, l.clientID = a.Get("userId").Raw, a.Get("clientId").Raw
		if t := a.Get("token").String(); t != maskedSecret {
			l.token = t
		}
	}
}
