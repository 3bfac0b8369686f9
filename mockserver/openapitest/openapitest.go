// Package openapitest checks HTTP exchanges against the OpenAPI document the
// mock serves at /openapi.json: a middleware in front of any implementation
// that records every request and answer the document disagrees with. The
// mock's tests put it in front of the mock; cmd/pricing-mutation puts it in
// front of the legal variants, correct implementations that chose otherwise
// where the spec is silent, to show that the document describes the API and
// not only the mock.
package openapitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/pricing-contract/pricing-contract/mockserver/rewrite"
)

func init() {
	// The home page is HTML; its schema is a string, read as text.
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
}

// Load fetches /openapi.json from h and returns the document, loaded and
// validated with its examples.
func Load(h http.Handler) (*openapi3.T, error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if rec.Code != http.StatusOK {
		return nil, fmt.Errorf("GET /openapi.json: status %d", rec.Code)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(rec.Body.Bytes())
	if err != nil {
		return nil, fmt.Errorf("loading /openapi.json: %w", err)
	}
	if err := doc.Validate(loader.Context, openapi3.EnableExamplesValidation()); err != nil {
		return nil, fmt.Errorf("/openapi.json is not valid: %w", err)
	}
	return doc, nil
}

// Validator checks requests and responses against a document and records
// what disagrees. It is safe for concurrent use.
type Validator struct {
	router *docRouter
	errors *openapi3.Schema // the error array, for answers of no route

	mu         sync.Mutex
	checked    int
	violations map[string]int // message -> times seen
}

// New returns a Validator of doc, whose components.schemas.Errors is the
// error array every answer without an operation must carry.
func New(doc *openapi3.T) (*Validator, error) {
	r, err := newDocRouter(doc)
	if err != nil {
		return nil, err
	}
	errs := doc.Components.Schemas["Errors"]
	if errs == nil {
		return nil, fmt.Errorf("components.schemas.Errors is missing")
	}
	return &Validator{router: r, errors: errs.Value, violations: map[string]int{}}, nil
}

// Result is the number of exchanges checked and what disagreed, one line per
// kind of disagreement.
func (v *Validator) Result() (int, []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []string
	for msg, n := range v.violations {
		if n > 1 {
			msg += fmt.Sprintf(" (%d times)", n)
		}
		out = append(out, msg)
	}
	sort.Strings(out)
	return v.checked, out
}

func (v *Validator) record(r *http.Request, status int, format string, args ...any) {
	msg := fmt.Sprintf("%s %s -> %d: %s", r.Method, r.URL.Path, status, fmt.Sprintf(format, args...))
	v.mu.Lock()
	v.violations[msg]++
	v.mu.Unlock()
}

// Wrap serves next and checks each exchange after it was answered.
func (v *Validator) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rewrite.Answers(next, func(a *rewrite.Answer) { v.check(r, body, a) }).ServeHTTP(w, r)
	})
}

// terse keeps schema dumps and values (passwords, tokens) out of messages.
var terse = []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()}

var passAuth = &openapi3filter.Options{
	// Credentials are the implementation's business: the contract suite
	// checks them.
	AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc,
	MultiError:              true,
	SchemaValidationOptions: terse,
}

func (v *Validator) check(r *http.Request, body []byte, answer *rewrite.Answer) {
	v.mu.Lock()
	v.checked++
	v.mu.Unlock()

	ctx := context.Background()
	req := r.Clone(ctx)
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	normaliseContentType(req, body)
	status := answer.Status

	route, params, err := v.router.FindRoute(req)
	if err != nil {
		// No operation: the document promises a 404 (no such path) or 405
		// (no such method) with an error array, and an Allow header on 405.
		switch {
		case err == routers.ErrPathNotFound && status != http.StatusNotFound,
			err == routers.ErrMethodNotAllowed && status != http.StatusMethodNotAllowed:
			v.record(r, status, "the document has no operation (%v), yet the server answered", err)
			return
		case status == http.StatusMethodNotAllowed && answer.Header.Get("Allow") == "":
			v.record(r, status, "405 without an Allow header")
		}
		if r.Method == http.MethodHead {
			return
		}
		if err := v.checkJSON(v.errors, answer.Body); err != nil {
			v.record(r, status, "the error body is not an error array: %v", err)
		}
		return
	}

	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: passAuth}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil && status < 300 {
		v.record(r, status, "the server accepted a request that the document refuses: %v", oneLine(err))
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 status,
		Header:                 answer.Header,
		Body:                   io.NopCloser(bytes.NewReader(answer.Body)),
		Options: &openapi3filter.Options{
			IncludeResponseStatus:   true,
			MultiError:              true,
			ExcludeResponseBody:     r.Method == http.MethodHead,
			SchemaValidationOptions: terse,
		},
	}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		v.record(r, status, "the response disagrees with the document: %v", oneLine(err))
	}
}

func (v *Validator) checkJSON(s *openapi3.Schema, body []byte) error {
	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		return err
	}
	return s.VisitJSON(value, terse...)
}

// normaliseContentType reads the request as the mock does (README, "Where
// the spec is silent", sections 4 and 5): every body is JSON whatever its
// Content-Type, except the form body of POST /sessions, and a body typed as
// a form there that starts with "{" or "[" is JSON too.
func normaliseContentType(r *http.Request, body []byte) {
	if len(body) == 0 {
		return
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	isJSON := len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
	if mt == "application/x-www-form-urlencoded" && !isJSON && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/sessions") {
		r.Header.Set("Content-Type", mt)
		return
	}
	r.Header.Set("Content-Type", "application/json")
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// docRouter finds the operation of a request in the document, path-level
// servers included (the admin API and the docs sit outside /v1), by the
// path alone: the servers' scheme and host are those of whoever fetched the
// document. It stands in for kin-openapi's gorillamux router, which needs
// gorilla/mux, and its legacy router, which ignores path-level servers.
type docRouter struct {
	routes []docRoute
}

type docRoute struct {
	segs  []string // "{name}" matches one non-empty segment
	route routers.Route
}

func newDocRouter(doc *openapi3.T) (*docRouter, error) {
	r := &docRouter{}
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		servers := doc.Servers
		if len(item.Servers) > 0 {
			servers = item.Servers
		}
		for _, srv := range servers {
			u, err := url.Parse(srv.URL)
			if err != nil {
				return nil, fmt.Errorf("server %q of %s: %w", srv.URL, path, err)
			}
			full := strings.TrimSuffix(u.Path, "/") + path
			r.routes = append(r.routes, docRoute{
				segs:  strings.Split(full, "/"),
				route: routers.Route{Spec: doc, Server: srv, Path: path, PathItem: item},
			})
		}
	}
	return r, nil
}

// FindRoute answers like a kin-openapi router: the route and its path
// parameters, or routers.ErrPathNotFound / routers.ErrMethodNotAllowed.
func (r *docRouter) FindRoute(req *http.Request) (*routers.Route, map[string]string, error) {
	segs := strings.Split(req.URL.Path, "/")
	for _, dr := range r.routes {
		params, ok := matchSegments(dr.segs, segs)
		if !ok {
			continue
		}
		op := dr.route.PathItem.GetOperation(req.Method)
		if op == nil {
			return nil, nil, routers.ErrMethodNotAllowed
		}
		route := dr.route
		route.Method, route.Operation = req.Method, op
		return &route, params, nil
	}
	return nil, nil, routers.ErrPathNotFound
}

func matchSegments(template, segs []string) (map[string]string, bool) {
	if len(template) != len(segs) {
		return nil, false
	}
	params := map[string]string{}
	for i, t := range template {
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			if segs[i] == "" {
				return nil, false
			}
			params[t[1:len(t)-1]] = segs[i]
			continue
		}
		if t != segs[i] {
			return nil, false
		}
	}
	return params, true
}
