package steps

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/steps/match"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// requestSteps builds the next request and sends it.
type requestSteps struct{}

// steps are the phrases:
//
//	Given the request header "<name>" is "<value>"
//	Given the request query parameter "<name>" is "<value>"
//	Given the request body is:            (doc string)
//	Given the request body is the template "<name>"
//	Given the request body field "<path>" is a string of <N> characters
//	Given the request body field "<path>" is a non-ASCII string of <N> characters
//	Given the request body field "<path>" is an email of <N> characters
//	Given the request body field "<path>" is absent
//	Given the request body field "<path>" is <json>
//	Given the raw request body is:        (doc string)
//	Given the request content type is "<type>"
//	Given the request body is sent in chunks
//	Given the request body is sent with whitespace around it
//	When I send "<METHOD>" to "<path>"
//	When I send "<METHOD>" to "<path>" under the version "<v>"
//	When I send "GET" to "<path>" if the target has that read extension
//
// The last phrase reads through an endpoint the spec does not have (GET
// /users/:userId and the like): when the target answers 404, 405 or 501
// (it has no such endpoint) or 403 (it does not let the caller read that
// resource), the rest of the scenario is skipped, since the rule it checks
// cannot be observed there; any other answer is the response. A read of the
// caller's own clients (GET /users/{{A.userId}}/clients as account A), or of
// its client's apps (GET /clients/{{A.clientId}}/apps), that the target does
// not have there is tried at GET /clients or GET /apps, the caller's
// collection, where a target may have it instead.
func (r requestSteps) steps() []stepDef {
	return []stepDef{
		{`^the request header ` + match.Quoted + ` is "(.*)"$`, r.theRequestHeaderIs},
		{`^the request query parameter ` + match.Quoted + ` is "(.*)"$`, r.theRequestQueryParameterIs},
		{`^the request body is:$`, r.theRequestBodyIs},
		{`^the request body is the template ` + match.Quoted + `( with stand-ins for the profile values it lacks)?$`, r.theRequestBodyIsTheTemplate},
		{`^the request body field ` + match.Quoted + ` is an? (non-ASCII )?string of (\d+) characters?$`, r.theRequestBodyFieldIsAStringOf},
		{`^the request body field ` + match.Quoted + ` is an? email of (\d+) characters?$`, r.theRequestBodyFieldIsAnEmailOf},
		{`^the request body field ` + match.Quoted + ` is absent$`, r.theRequestBodyFieldIsAbsent},
		// A JSON value starts with one of these characters; the phrases
		// above start with "a", so the two families never both match.
		{`^the request body field ` + match.Quoted + ` is ([-"{\[0-9tfn].*)$`, r.theRequestBodyFieldIs},
		{`^the raw request body is:$`, r.theRawRequestBodyIs},
		{`^the request content type is ` + match.Quoted + `$`, r.theRequestContentTypeIs},
		{`^the request body is sent in chunks$`, r.theRequestBodyIsSentInChunks},
		{`^the request body is sent with whitespace around it$`, r.theRequestBodyIsSentWithWhitespaceAroundIt},
		{`^I send "([A-Za-z]+)" to ` + match.Quoted + `$`, r.iSendTo},
		{`^I send "([A-Za-z]+)" to ` + match.Quoted + ` under the version ` + match.Quoted + `$`, r.iSendToUnderTheVersion},
		{`^I send "GET" to ` + match.Quoted + ` if the target has that read extension$`, r.iSendGETIfTheTargetHasThatReadExtension},
	}
}

// pendingRequest is what the Given steps have set for the next send.
type pendingRequest struct {
	headers     [][2]string
	query       [][2]string
	body        pendingBody
	contentType *string
	chunked     bool // the body sent with no Content-Length (RFC 9112 7.1)
	padded      bool // the body sent with whitespace around it (RFC 8259 2)
}

type bodyKind int

const (
	bodyNone bodyKind = iota
	bodyJSON
	bodyRaw
)

type pendingBody struct {
	kind bodyKind
	doc  any    // bodyJSON: the decoded document, numbers as json.Number
	text []byte // bodyJSON: the text as written while doc is unmodified; bodyRaw: the bytes
}

func (requestSteps) theRequestHeaderIs(ctx context.Context, name, val string) error {
	return addPending(ctx, name, val, func(p *pendingRequest) *[][2]string { return &p.headers })
}

func (requestSteps) theRequestQueryParameterIs(ctx context.Context, name, val string) error {
	return addPending(ctx, name, val, func(p *pendingRequest) *[][2]string { return &p.query })
}

// addPending appends a step's name and value, unescaped and the value
// substituted, to the list of the next request that list gives.
func addPending(ctx context.Context, name, val string, list func(*pendingRequest) *[][2]string) error {
	name = match.UnescapeArg(name)
	st, val, err := stateArg(ctx, stateFromContext, val)
	if err != nil {
		return err
	}
	l := list(&st.pending)
	*l = append(*l, [2]string{name, val})
	return nil
}

func (requestSteps) theRequestBodyIs(ctx context.Context, doc *godog.DocString) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	return st.setJSONBody(ctx, "the doc string", doc.Content)
}

// theRequestBodyIsTheTemplate fills a body template. With stand-ins, a
// catalogue value the profile does not give (a plan id, the marketplace
// hash) is filled with one no target need know (standIns), instead of
// skipping the scenario: for a request the target must refuse before it
// reads the body (no credentials, a version it does not serve), where the
// body's values cannot change the answer.
func (requestSteps) theRequestBodyIsTheTemplate(ctx context.Context, name, standIns string) error {
	name = match.UnescapeArg(name)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	data, err := st.suite.fixture("bodies", name)
	if err != nil {
		return err
	}
	st.standIns = standIns != ""
	defer func() { st.standIns = false }()
	return st.setJSONBody(ctx, "template "+name, string(data))
}

func (st *scenarioState) setJSONBody(ctx context.Context, what, text string) error {
	text, err := st.substJSON(ctx, text)
	if err != nil {
		return err
	}
	doc, err := decodeJSON([]byte(text))
	if err != nil {
		return fmt.Errorf("%s is not JSON after substitution (use the raw request body step for invalid JSON): %v\n%s", what, err, text)
	}
	st.pending.body = pendingBody{kind: bodyJSON, doc: doc, text: []byte(text)}
	return nil
}

func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("text after the JSON value")
	}
	return v, nil
}

// theRequestBodyFieldIsAStringOf sets a generated string: gen:string:N, or
// gen:unicode:N for a non-ASCII one.
func (r requestSteps) theRequestBodyFieldIsAStringOf(ctx context.Context, field, nonASCII string, n int) error {
	gen := "gen:string:"
	if nonASCII != "" {
		gen = "gen:unicode:"
	}
	return r.setGenerated(ctx, match.UnescapeArg(field), gen+strconv.Itoa(n))
}

func (r requestSteps) theRequestBodyFieldIsAnEmailOf(ctx context.Context, field string, n int) error {
	return r.setGenerated(ctx, match.UnescapeArg(field), "gen:email:"+strconv.Itoa(n))
}

func (requestSteps) setGenerated(ctx context.Context, field, gen string) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	v, err := st.lookup(ctx, gen)
	if err != nil {
		return err
	}
	return st.setBodyField(ctx, field, v.text, true)
}

func (requestSteps) theRequestBodyFieldIsAbsent(ctx context.Context, field string) error {
	field = match.UnescapeArg(field)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	return st.setBodyField(ctx, field, nil, false)
}

// theRequestBodyFieldIs takes the value as JSON, with JSON's own escapes:
// only the quoted field path is a step argument to unescape.
func (requestSteps) theRequestBodyFieldIs(ctx context.Context, field, raw string) error {
	field = match.UnescapeArg(field)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	text, err := st.substJSON(ctx, raw)
	if err != nil {
		return err
	}
	v, err := decodeJSON([]byte(text))
	if err != nil {
		return fmt.Errorf("the value of %q is not JSON: %v: %s", field, err, text)
	}
	return st.setBodyField(ctx, field, v, true)
}

// setBodyField sets (or, with set false, deletes) a dotted path of the JSON
// body, creating the body and intermediate objects as needed. A numeric
// segment indexes an array that is already there.
func (st *scenarioState) setBodyField(ctx context.Context, field string, v any, set bool) error {
	field, err := st.substText(ctx, field)
	if err != nil {
		return err
	}
	b := &st.pending.body
	switch b.kind {
	case bodyRaw:
		return fmt.Errorf("cannot set the field %q of a raw request body", field)
	case bodyNone:
		b.kind, b.doc = bodyJSON, map[string]any{}
	}
	if field == "" {
		return errors.New("empty body field path")
	}
	root, err := setPath(b.doc, strings.Split(field, "."), v, set)
	if err != nil {
		return fmt.Errorf("request body field %q: %w", field, err)
	}
	b.doc, b.text = root, nil
	return nil
}

func setPath(node any, segs []string, v any, set bool) (any, error) {
	seg := segs[0]
	switch n := node.(type) {
	case map[string]any:
		if len(segs) == 1 {
			if set {
				n[seg] = v
			} else {
				delete(n, seg)
			}
			return n, nil
		}
		child, ok := n[seg]
		if !ok || child == nil {
			if !set {
				return n, nil // deleting below an absent object: nothing to do
			}
			child = map[string]any{}
		}
		c, err := setPath(child, segs[1:], v, set)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", seg, err)
		}
		n[seg] = c
		return n, nil
	case []any:
		i, err := strconv.Atoi(seg)
		if err != nil || i < 0 || i >= len(n) {
			return nil, fmt.Errorf("%s: not an index of the array of %d elements", seg, len(n))
		}
		if len(segs) == 1 {
			if set {
				n[i] = v
				return n, nil
			}
			return append(n[:i], n[i+1:]...), nil
		}
		c, err := setPath(n[i], segs[1:], v, set)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", seg, err)
		}
		n[i] = c
		return n, nil
	default:
		return nil, fmt.Errorf("%s: the value there is not an object", seg)
	}
}

func (requestSteps) theRawRequestBodyIs(ctx context.Context, doc *godog.DocString) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	text, err := st.substText(ctx, doc.Content)
	if err != nil {
		return err
	}
	st.pending.body = pendingBody{kind: bodyRaw, text: []byte(text)}
	return nil
}

func (requestSteps) theRequestContentTypeIs(ctx context.Context, ct string) error {
	ct = match.UnescapeArg(ct)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	st.pending.contentType = &ct
	return nil
}

// theRequestBodyIsSentInChunks sends the next body with chunked transfer
// coding instead of a Content-Length (RFC 9112 6.1, 7.1): the same request.
func (requestSteps) theRequestBodyIsSentInChunks(ctx context.Context) error {
	return setPending(ctx, func(p *pendingRequest) { p.chunked = true })
}

// theRequestBodyIsSentWithWhitespaceAroundIt sends the next body with
// whitespace before and after its value (RFC 8259 2: a JSON text is ws
// value ws): the same JSON.
func (requestSteps) theRequestBodyIsSentWithWhitespaceAroundIt(ctx context.Context) error {
	return setPending(ctx, func(p *pendingRequest) { p.padded = true })
}

// setPending sets a form of the next request: how its body is sent.
func setPending(ctx context.Context, set func(*pendingRequest)) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	set(&st.pending)
	return nil
}

func (r requestSteps) iSendTo(ctx context.Context, method, p string) error {
	return r.send(ctx, method, match.UnescapeArg(p), "")
}

func (r requestSteps) iSendToUnderTheVersion(ctx context.Context, method, p, version string) error {
	p, version = match.UnescapeArg(p), match.UnescapeArg(version)
	if version == "" || strings.Contains(version, "/") {
		return fmt.Errorf("version %q must be one path segment, such as v1.0", version)
	}
	return r.send(ctx, method, p, version)
}

// noExtension are the answers of a target that has no read endpoint there,
// or does not let the caller read through it.
var noExtension = map[int]string{
	http.StatusNotFound:         "has no such endpoint",
	http.StatusMethodNotAllowed: "has no such endpoint",
	http.StatusNotImplemented:   "has no such endpoint",
	http.StatusForbidden:        "does not let this caller read it",
}

// ownReads are reads of the caller's own resources that a target may give
// at the caller's collection instead: its clients at GET /clients rather
// than under its user, the apps of its client at GET /apps (the apps of
// the caller's clients: each of the client's among them). The collection
// must answer its array to stand for the other.
var ownReads = []struct {
	read       *regexp.Regexp
	collection string
}{
	{regexp.MustCompile(`^/users/\{\{([AB])\.userId\}\}/clients$`), "clients"},
	{regexp.MustCompile(`^/clients/\{\{([AB])\.clientId\}\}/apps$`), "apps"},
}

func (r requestSteps) iSendGETIfTheTargetHasThatReadExtension(ctx context.Context, p string) error {
	p = match.UnescapeArg(p)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	pending := st.pending
	if err := r.send(ctx, http.MethodGet, p, ""); err != nil {
		return err
	}
	for _, own := range ownReads {
		if _, ok := noExtension[st.last.status]; !ok {
			break
		}
		if m := own.read.FindStringSubmatch(p); m != nil && m[1] == st.account {
			// The same read, where such a target has it.
			first := st.last
			st.pending = pending
			if err := r.send(ctx, http.MethodGet, "/"+own.collection, ""); err != nil {
				return err
			}
			if st.last.status != http.StatusOK || !gjson.GetBytes(st.last.respBody, own.collection).IsArray() {
				st.last = first
			}
		}
	}
	if why, ok := noExtension[st.last.status]; ok {
		return fmt.Errorf("%w: GET %s is a read extension the spec does not have, and the target %s (%d): the rest of the scenario, which reads through it, is skipped",
			godog.ErrSkip, p, why, st.last.status)
	}
	return nil
}

func (requestSteps) send(ctx context.Context, method, p, version string) error {
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	out, p, err := st.prepare(ctx, method, p, version)
	if err != nil {
		return err
	}
	ex := st.do(ctx, out)
	st.record(ex)
	if ex.err != nil {
		return st.fail("%s %s: %v", out.method, p, ex.err)
	}
	return st.bounded(ex)
}

// prepare makes the request a send sends, and a prepared request of
// concurrent.go alike: the path's placeholders expanded (the path is
// returned so), the account's credentials, the headers and the body the
// Given steps set, and the state a change needs kept before it leaves.
// The pending request is used up, whatever happens.
func (st *scenarioState) prepare(ctx context.Context, method, p, version string) (outgoing, string, error) {
	pending := st.pending
	st.pending = pendingRequest{}
	p, err := st.substText(ctx, p)
	if err != nil {
		return outgoing{}, p, err
	}
	out := outgoing{method: strings.ToUpper(method), header: http.Header{}, version: version}
	if out.url, err = st.suite.endpointURL(p, version); err != nil {
		return outgoing{}, p, err
	}
	if err := st.authenticate(ctx, &out); err != nil {
		return outgoing{}, p, err
	}
	if err := pending.apply(&out); err != nil {
		return outgoing{}, p, err
	}
	if err := st.beforeChange(ctx, out); err != nil {
		return outgoing{}, p, err
	}
	return out, p, nil
}

// bounded counts the creates of the account a 200 made, and skips the rest
// of the scenario where a create is refused past target.CreateBound creates
// of its kind by the account, naming no field: the target's bound on what
// an account keeps, which the spec leaves open.
func (st *scenarioState) bounded(ex *exchange) error {
	if st.account == "" {
		return nil
	}
	a, err := st.accountOf(st.account)
	if err != nil {
		return nil
	}
	_, segs := st.suite.apiPath(ex.out)
	kinds := target.Creates(ex.out.method, "/"+strings.Join(segs, "/"), ex.out.body)
	if len(kinds) == 0 {
		return nil
	}
	if ex.status == http.StatusOK {
		st.suite.created.add(a.email, kinds)
		return nil
	}
	switch {
	case ex.out.version != "", ex.status < 400, ex.status >= 500, !target.NamesNoField(ex.respBody):
		// Another version's path, or no refusal of a bound.
		return nil
	case ex.status == http.StatusUnauthorized, ex.status == http.StatusNotFound, ex.status == http.StatusRequestEntityTooLarge:
		// Refused for its credentials, its path or its size.
		return nil
	}
	for _, k := range kinds {
		if n := st.suite.created.count(a.email, k); n >= target.CreateBound {
			return fmt.Errorf("%w: the target refused a create (%d) after account %s made %d of its kind %s in this run, naming no field: a server may bound what an account keeps (README, where the spec is silent, 8); the rest of the scenario is skipped",
				godog.ErrSkip, ex.status, st.account, n, k)
		}
	}
	return nil
}

// createCounts are the creates each account made in a run, by kind.
type createCounts struct {
	mu sync.Mutex
	n  map[string]int // email + " " + kind
}

func (c *createCounts) add(email string, kinds []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	for _, k := range kinds {
		c.n[email+" "+k]++
	}
}

// Created are the creates each account made in the run, keyed by its
// email and the kind ("a@example.test client"): the gate's explorer goes on
// counting from them toward target.CreateBound.
func (s *Suite) Created() map[string]int {
	s.created.mu.Lock()
	defer s.created.mu.Unlock()
	return maps.Clone(s.created.n)
}

func (c *createCounts) count(email, kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[email+" "+kind]
}

// apply adds what the Given steps set. A header or query parameter named
// by a step replaces the one of the auth scheme, so that a scenario can
// send a malformed credential while keeping everything else.
func (p pendingRequest) apply(out *outgoing) error {
	for _, h := range p.headers {
		out.header.Del(h[0])
	}
	for _, h := range p.headers {
		out.header.Add(h[0], h[1])
	}
	if len(p.query) > 0 {
		named := map[string]bool{}
		for _, q := range p.query {
			named[q[0]] = true
		}
		kept := out.query[:0]
		for _, q := range out.query {
			if !named[q[0]] {
				kept = append(kept, q)
			}
		}
		out.query = append(kept, p.query...)
	}
	switch p.body.kind {
	case bodyJSON:
		if p.body.text != nil {
			out.body = p.body.text
		} else {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(p.body.doc); err != nil {
				return fmt.Errorf("encoding the request body: %w", err)
			}
			out.body = bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		}
	case bodyRaw:
		out.body = p.body.text
	}
	if p.padded && out.body != nil {
		out.body = slices.Concat([]byte(" \r\n\t"), out.body, []byte("\n\t "))
	}
	switch {
	case p.contentType != nil:
		out.header.Set("Content-Type", *p.contentType)
	case out.body != nil && out.header.Get("Content-Type") == "":
		out.header.Set("Content-Type", "application/json")
	}
	out.chunked = p.chunked
	return nil
}

// endpointURL joins the base URL and a path relative to it. With a version,
// the base URL's last path segment, its version, is replaced.
func (s *Suite) endpointURL(p, version string) (string, error) {
	base := strings.TrimRight(s.profile.BaseURL, "/")
	if version != "" {
		u, err := url.Parse(base)
		if err != nil {
			return "", fmt.Errorf("base URL %q: %w", base, err)
		}
		dir, _ := path.Split(strings.TrimRight(u.Path, "/"))
		u.Path = dir + version
		u.RawPath = ""
		base = u.String()
	}
	if p == "" {
		return base, nil
	}
	return base + "/" + strings.TrimLeft(p, "/"), nil
}

// outgoing is a request ready to go.
type outgoing struct {
	method string
	url    string
	query  [][2]string
	// rawQuery are query arguments written as they go, already encoded.
	rawQuery []string
	header   http.Header
	body     []byte
	version  string // set by the under-the-version step
	chunked  bool   // the body is sent with no Content-Length
}

func (o outgoing) fullURL() string {
	if len(o.query) == 0 && len(o.rawQuery) == 0 {
		return o.url
	}
	var b strings.Builder
	b.WriteString(o.url)
	sep := "?"
	if strings.Contains(o.url, "?") {
		sep = "&"
	}
	for _, q := range o.query {
		b.WriteString(sep + url.QueryEscape(q[0]) + "=" + url.QueryEscape(q[1]))
		sep = "&"
	}
	for _, q := range o.rawQuery {
		b.WriteString(sep + q)
		sep = "&"
	}
	return b.String()
}

// exchange is one request and what came back.
type exchange struct {
	out        outgoing
	url        string
	attempts   int
	err        error // a transport error: no response
	status     int
	statusText string
	respHeader http.Header
	respBody   []byte
	sent       time.Time // when the first attempt left: its answer is no older

	// For the floor check (floor.go): the step that sent it, whether a step
	// asserted its 5xx on purpose, and whether a failure has shown it.
	step            string
	expected, shown bool
}

var idempotent = map[string]bool{
	http.MethodGet: true, http.MethodPut: true, http.MethodHead: true,
	http.MethodOptions: true, http.MethodDelete: true,
}

// do sends a request. A transport error on an idempotent method is retried
// with a growing pause; anything that is an HTTP answer, whatever its
// status, is final. POST is never retried: it may have taken effect.
func (st *scenarioState) do(ctx context.Context, out outgoing) *exchange {
	// The body as the target takes it: its phone country's field.
	out.body = st.suite.profile.ShapeBody(out.body)
	ex := &exchange{out: out, url: out.fullURL(), sent: time.Now()}
	tries := 1
	if idempotent[out.method] {
		tries += st.suite.retries
	}
	for ex.attempts < tries {
		if ex.attempts > 0 {
			select {
			case <-ctx.Done():
				ex.err = fmt.Errorf("after %d attempts: %w", ex.attempts, ctx.Err())
				return ex
			case <-time.After(time.Duration(ex.attempts) * st.suite.backoff):
			}
		}
		ex.attempts++
		req := st.client.R().SetContext(ctx)
		req.Header = out.header.Clone()
		switch {
		case out.body != nil && out.chunked:
			// A reader that hides its length: the body goes in chunks.
			req.SetBody(struct{ io.Reader }{bytes.NewReader(out.body)})
		case out.body != nil:
			req.SetBody(out.body)
		}
		resp, err := req.Execute(out.method, ex.url)
		if target.IsAnswerError(err) {
			ex.err = err // an answer, refused as it was read: no other attempt reads it otherwise
			return ex
		}
		if err != nil {
			ex.err = err
			continue
		}
		ex.err = nil
		ex.status = resp.StatusCode()
		ex.statusText = resp.Status()
		ex.respHeader = resp.Header()
		ex.respBody = resp.Body()
		return ex
	}
	if ex.attempts > 1 {
		ex.err = fmt.Errorf("after %d attempts: %w", ex.attempts, ex.err)
	}
	return ex
}

// record makes the exchange the scenario's last response, keeps it for
// the floor check and counts it for coverage.
func (st *scenarioState) record(ex *exchange) {
	st.last = ex
	ex.step = st.step
	st.sent = append(st.sent, ex)
	if ex.err != nil {
		return
	}
	st.suite.acceptedProfileValues(ex)
	key := coverageKey{endpoint: st.suite.endpointTemplate(ex.out), status: ex.status}
	if !st.covered[key] {
		st.covered[key] = true
		st.suite.cov.add(key)
	}
}

// askedFor counts, once per scenario, that it asked the last request's
// endpoint for the status code (three digits; a class such as 4xx is no
// one status).
func (st *scenarioState) askedFor(code string) {
	n, err := strconv.Atoi(code)
	if err != nil || st.last == nil || st.last.err != nil {
		return
	}
	key := coverageKey{endpoint: st.suite.endpointTemplate(st.last.out), status: n}
	if st.askedKeys == nil {
		st.askedKeys = map[coverageKey]bool{}
	}
	if !st.askedKeys[key] {
		st.askedKeys[key] = true
		st.suite.cov.ask(key)
	}
}
