// Package api is the mock's HTTP semantics as one function of plain values:
// Serve reads a Request (method, path, query, headers, body) against a
// store of the domain (mockserver/pricing) and gives the Response the spec
// and the README's decisions ask for: the routing and the versions of 9,
// the authentication of 5, the path ids, the decoding of bodies, the
// validation of 7.3 and 8, the objects of 2 and the error array of 7.1.
//
// It knows no Gin and no net/http server: the mock's Gin engine
// (package mockserver) adapts every API request to it, around the
// transport concerns it keeps (CORS, namespaces, the body budget, the state
// file, the journal, latency and fault rules); the explorer and the replay
// ask it what the reference answers, through Explain, which runs the same
// checks without writing and reports every refusal that applies, each with
// the Rule that makes it, so that no other package restates a rule of it.
package api

import (
	"net/http"
	"net/url"
	"slices"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Request is one request as the API reads it.
type Request struct {
	Method string
	// Path is the URL's path, decoded (net/url's URL.Path), from the root:
	// "/v1/users/7".
	Path string
	// Query is the URL's query.
	Query url.Values
	// Header holds the request's fields; the API reads them through
	// http.Header's canonical names.
	Header http.Header
	// Body is the request's content; nil for none.
	Body []byte
	// BodyTooLarge says the content was longer than the API's limit
	// (Options.MaxBody), and Body holds only its start (a transport reads
	// no more of it).
	BodyTooLarge bool
}

// Response is the API's answer. Its Header may be shared between answers:
// read it, copy it, never change it.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Options configure an API.
type Options struct {
	// Suggest names the route closest to an unknown method and path ("" for
	// none), for the message of a 404 that names no endpoint: the mock's
	// comes from its OpenAPI document. nil: no suggestion.
	Suggest func(method, path string) string
	// MaxBody is the largest body read (413 past it); 0 is the mock's
	// MaxBody. The explorer's reference sets it high: a server's size
	// limit is its own choice, judged apart.
	MaxBody int
}

// API serves the spec's endpoints over a store. It is safe for concurrent
// use; the store it is given is its only state, but for the encoded
// catalogues it keeps per seed.
type API struct {
	opts    Options
	answers catalogueCache
}

// New returns an API.
func New(opts Options) *API {
	if opts.MaxBody <= 0 {
		opts.MaxBody = MaxBody
	}
	return &API{opts: opts}
}

// Serve answers r against st: the first refusal that applies, in the order
// of the README's "Where the spec is silent" (the route and version, 401,
// 413, 404, 403, then the body), or the endpoint's answer, which may write
// to st.
func (a *API) Serve(st *pricing.Store, r Request) Response {
	p, resp, refused := a.Begin(st, r)
	if refused {
		return resp
	}
	return p.Finish(r.Body, r.BodyTooLarge)
}

// Explain is what Serve would answer to r, without writing: every refusal
// that applies (not only the first), in the order Serve checks them, and,
// when none does, the write Serve makes. A check that needs an earlier one
// to have passed (a permission needs a caller, a body's validation needs
// the path's resource) runs on what can be known: see Plan.
func (a *API) Explain(st *pricing.Store, r Request) Plan {
	return a.plan(st, r, true, nil)
}

// ExplainWaiving is Explain with the validation of the body waiving the
// conditions waive names (pricing.Validator.Waive): what the reference
// answers once it adopts a server's reading of a value's validity.
func (a *API) ExplainWaiving(st *pricing.Store, r Request, waive func(field string, cond pricing.Condition) bool) Plan {
	return a.plan(st, r, true, waive)
}

// Plan is the API's reading of a request.
type Plan struct {
	// Route is the endpoint the request names; the zero Route when it
	// names none.
	Route Route
	// Version is the version segment the path carries ("v1").
	Version string
	// Caller is the user the credentials authenticate; 0 for none.
	Caller int64
	// Body is the decoded JSON object of the request, when it is one.
	Body pricing.Body
	// Refusals are the reasons to refuse the request, in the order Serve
	// checks them; Serve answers the first.
	Refusals []Refusal
	commit   func() Response
}

// Accepted reports whether no refusal applies: Commit makes the change.
func (p Plan) Accepted() bool { return len(p.Refusals) == 0 && p.commit != nil }

// Commit makes the request's change and returns its answer; only for an
// accepted plan.
func (p Plan) Commit() Response {
	if !p.Accepted() {
		return p.Answer()
	}
	return p.commit()
}

// Answer is the refusal Serve answers, or, for an accepted plan, nothing
// yet: the zero Response until Commit.
func (p Plan) Answer() Response {
	if len(p.Refusals) > 0 {
		return p.Refusals[0].response()
	}
	return Response{}
}

// Refused reports whether a refusal of rule applies.
func (p Plan) Refused(rule Rule) bool {
	return slices.ContainsFunc(p.Refusals, func(f Refusal) bool { return f.Rule == rule })
}

// Refusal is one reason to refuse a request: the rule, and the answer it
// gives (its status and its error array; the body's field errors carry the
// rules of pricing's validation).
type Refusal struct {
	Rule   Rule
	Status int
	Errors []pricing.FieldError
	header http.Header
}

func (f Refusal) response() Response {
	r := ErrorResponse(f.Status, f.Errors)
	if f.header != nil {
		h := r.Header.Clone()
		for k, v := range f.header {
			h[k] = v
		}
		r.Header = h
	}
	return r
}

// Rule names a check of the API that refuses a request: what the explorer's
// policy holds decided by the spec or left to a server.
type Rule string

// The rules of the request as a whole; a body's fields are refused by the
// rules of pricing's validation (pricing.FieldError.Rule).
const (
	RuleNoRoute         Rule = "route"           // the path names no endpoint of the API
	RuleUnknownVersion  Rule = "version"         // the version segment is none the API serves
	RuleMethod          Rule = "method"          // the path's endpoints take another method
	RuleUnauthenticated Rule = "unauthenticated" // no credential, or one that authenticates nobody
	RuleMixedCallers    Rule = "mixed-callers"   // credentials of two users in one request
	RuleBodyTooLarge    Rule = "body-size"       // a body over MaxBody
	RuleBodyShape       Rule = "body-shape"      // a body nested or wide past the API's bounds
	RuleNotJSON         Rule = "not-json"        // a body that is no JSON
	RuleNotObject       Rule = "not-object"      // a JSON body that is no object
	RuleMalformedID     Rule = "malformed-id"    // a path id that is no plain positive decimal
	RuleUnknownID       Rule = "unknown-id"      // a path id that names nothing
	RuleForbidden       Rule = "forbidden"       // the caller may not view or modify the path's resource
	RuleNoClient        Rule = "no-client"       // POST /apps by a user with no client
	RuleFields          Rule = "fields"          // the body's fields (their own rules in Errors)
	RuleBadCredentials  Rule = "bad-credentials" // POST /sessions with credentials of no account
	RuleStore           Rule = "store"           // the store refused the write (a race, a limit)
)
