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
	params map[string]string
	all    bool // Explain: run every check that can run
	// untilBody stops the checks where the body would be read (Before).
	untilBody bool
	// authed: the credentials authenticated Plan.Caller (under a
	// deviation, a caller of id 0 may be authenticated).
	authed bool
	p      Plan
	// body is the decoded object, once the body's checks passed.
	body pricing.Body
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

func (a *API) plan(st *pricing.Store, r Request, all bool) Plan {
	return a.run(&call{api: a, st: st, r: r, all: all})
}

// Before runs Serve's checks that come before the body is read (the route,
// the credentials, the path's resource) and, when one refuses the request,
// gives its answer: a transport need not read a body nobody will look at.
// ok is false when the checks reach the body.
func (a *API) Before(st *pricing.Store, r Request) (resp Response, refused bool) {
	c := &call{api: a, st: st, r: r, untilBody: true}
	p := a.run(c)
	if len(p.Refusals) > 0 {
		return p.Refusals[0].response(), true
	}
	return Response{}, false
}

func (a *API) run(c *call) Plan {
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
		return c.p
	case route.Zero():
		c.refuseWith(RuleNoRoute, pricing.CodeNotFound, a.noRoute(r))
		return c.p
	case !known:
		// The path below the version names an endpoint: Explain judges
		// the rest, Serve answers 404 as for any unknown path.
		if !c.refuseWith(RuleUnknownVersion, pricing.CodeNotFound, a.noRoute(r)) {
			return c.p
		}
	}
	c.p.Route = route
	if route.Auth && !c.authenticate() {
		return c.p
	}
	route.serve(c)
	return c.p
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
	if c.untilBody {
		return false
	}
	if c.r.BodyTooLarge || len(c.r.Body) > MaxBody {
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
