package api

import (
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// call is one request on its way through the checks. Every check appends
// its refusal and says whether the next may run: Serve stops at the first
// refusal, Explain goes on wherever what the next check needs is known.
type call struct {
	api    *API
	st     *pricing.Store
	r      Request
	route  Route
	params map[string]string
	all    bool // Explain: run every check that can run
	// authed: the credentials authenticated Plan.Caller (under a
	// deviation, a caller of id 0 may be authenticated).
	authed bool
	p      Plan
	// What the checks before the body found: the path's user or client,
	// and the client a new app joins.
	user     pricing.User
	client   pricing.Client
	app      pricing.App
	clientID int64
	// body is the decoded object, once the body's checks passed.
	body pricing.Body
	// waive is the validator's Waive (ExplainWaiving).
	waive func(field string, cond pricing.Condition) bool
}

// validator is the store's validator, waiving what the call waives.
func (c *call) validator() pricing.Validator {
	v := c.st.Validator()
	v.Waive = c.waive
	return v
}

// refuse records a refusal, and reports whether the checks go on.
func (c *call) refuse(f Refusal) bool {
	c.p.Refusals = append(c.p.Refusals, f)
	return c.all
}

// refuseWith records a refusal of the request as a whole: one error whose
// fieldName is empty.
func (c *call) refuseWith(rule Rule, code pricing.Code, message string) bool {
	return c.refuse(Refusal{Rule: rule, Status: code.Status(), Errors: []pricing.FieldError{{Error: code, Message: message, Rule: string(rule)}}})
}

// ok reports whether no refusal applies so far.
func (c *call) ok() bool { return len(c.p.Refusals) == 0 }

// commitWith sets the change the request makes when nothing refuses it.
func (c *call) commitWith(f func() Response) {
	if c.ok() {
		c.p.commit = f
	}
}

func (a *API) plan(st *pricing.Store, r Request, all bool, waive func(string, pricing.Condition) bool) Plan {
	c := &call{api: a, st: st, r: r, all: all, waive: waive}
	if a.before(c) {
		c.afterBody()
	}
	return c.p
}

// Pending is a request whose checks before its body (the route, the
// credentials, the path's resource) passed: Finish serves it with its body.
type Pending struct{ c *call }

// Begin runs Serve's checks that come before the body is read and, when
// one refuses the request, gives its answer (refused true): a transport
// need not read a body nobody will look at. Otherwise Finish goes on from
// there with the body.
func (a *API) Begin(st *pricing.Store, r Request) (p Pending, resp Response, refused bool) {
	c := &call{api: a, st: st, r: r}
	if !a.before(c) || !c.ok() {
		return Pending{}, c.p.Answer(), true
	}
	return Pending{c}, Response{}, false
}

// Authenticated reports whether the request's credentials authenticated a
// user: a transport may budget its body as a caller's.
func (p Pending) Authenticated() bool { return p.c.authed }

// Finish serves the request Begin passed with its body (tooLarge: the body
// was longer than MaxBody, and body holds its start).
func (p Pending) Finish(body []byte, tooLarge bool) Response {
	c := p.c
	c.r.Body, c.r.BodyTooLarge = body, tooLarge
	c.afterBody()
	if len(c.p.Refusals) > 0 {
		return c.p.Answer()
	}
	return c.p.commit()
}

// afterBody runs the endpoint's checks of the body and sets its change.
func (c *call) afterBody() { c.route.serve.body(c) }

// before runs the checks up to the body: the route and version, the
// credentials, the path's resource. It reports whether the body's checks
// may run.
func (a *API) before(c *call) bool {
	r := c.r
	route, version, params, known, allow := match(r.Method, r.Path)
	c.p.Version, c.params = version, params
	switch {
	case route.Zero() && len(allow) > 0:
		// Gin's order of the Allow header: the methods as registered.
		c.refuse(Refusal{Rule: RuleMethod, Status: pricing.CodeMethodNotAllowed.Status(),
			Errors: []pricing.FieldError{{Error: pricing.CodeMethodNotAllowed, Rule: string(RuleMethod),
				Message: "This endpoint does not accept the " + r.Method + " method; it accepts " + strings.Join(allow, ", ") + "."}},
			header: http.Header{"Allow": {strings.Join(allow, ", ")}}})
		return false
	case route.Zero():
		c.refuseWith(RuleNoRoute, pricing.CodeNotFound, a.noRoute(r))
		return false
	case !known:
		// The path below the version names an endpoint: Explain judges
		// the rest, Serve answers 404 as for any unknown path.
		if !c.refuseWith(RuleUnknownVersion, pricing.CodeNotFound, a.noRoute(r)) {
			return false
		}
	}
	c.p.Route, c.route = route, route
	if route.Auth && !c.authenticate() {
		return false
	}
	if route.serve.resource != nil {
		return route.serve.resource(c)
	}
	return true
}

// noRoute is the message of a 404 for a path that names no endpoint.
func (a *API) noRoute(r Request) string {
	msg := "There is no such endpoint."
	if a.opts.Suggest != nil {
		if s := a.opts.Suggest(r.Method, r.Path); s != "" {
			msg += " Did you mean " + s + "?"
		}
	}
	return msg
}

// readBody decodes the body as a JSON object, after the checks of its size
// and shape; hint, when set, ends the message of a body that is not one.
func (c *call) readBody(hint string) bool {
	if c.r.BodyTooLarge || len(c.r.Body) > c.api.opts.MaxBody {
		// Nothing past the body can be judged without it.
		c.refuseWith(RuleBodyTooLarge, pricing.CodeBodyTooLarge, "The request body is larger than 1 MiB.")
		return false
	}
	body, f, ok := decodeObject(c.r.Body, hint)
	if !ok {
		c.refuse(f)
		return false
	}
	c.body, c.p.Body = body, body
	return true
}

// fields records the validation errors of the body, if any.
func (c *call) fields(errs []pricing.FieldError) bool {
	if len(errs) == 0 {
		return true
	}
	return c.refuse(Refusal{Rule: RuleFields, Status: errs[0].Error.Status(), Errors: errs})
}
