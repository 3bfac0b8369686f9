package api

import (
	"slices"
	"strings"
)

// Versions are the version segments that serve the API (spec 9: the
// overview says v1, the endpoint pages say v1.0; both are the one version).
var Versions = []string{"v1", "v1.0"}

// Route is one endpoint of the API.
type Route struct {
	Method string
	// Pattern is the path below the version segment, parameters written
	// :name: "/users/:userId".
	Pattern string
	// Auth: the endpoint needs credentials (5).
	Auth bool
	// Body: the endpoint reads a JSON body.
	Body  bool
	serve endpoint
	segs  []string // the pattern's segments, for match
}

// Zero reports whether r is the zero Route: no endpoint.
func (r Route) Zero() bool { return r.Pattern == "" }

// routes is the one route map of the API: every endpoint, in the order of
// the spec's sections and then the read extensions the README documents.
var routes = []Route{
	{Method: "POST", Pattern: "/sessions", Body: true, serve: createSession},
	{Method: "POST", Pattern: "/users", Body: true, serve: createUser},
	{Method: "GET", Pattern: "/users/:userId", Auth: true, serve: getUser},
	{Method: "PUT", Pattern: "/users/:userId", Auth: true, Body: true, serve: updateUser},
	{Method: "GET", Pattern: "/users/:userId/clients", Auth: true, serve: listUserClients},
	{Method: "POST", Pattern: "/clients", Auth: true, Body: true, serve: createClient},
	{Method: "GET", Pattern: "/clients/:clientId", Auth: true, serve: getClient},
	{Method: "PUT", Pattern: "/clients/:clientId", Auth: true, Body: true, serve: updateClient},
	{Method: "GET", Pattern: "/clients/:clientId/apps", Auth: true, serve: listClientApps},
	{Method: "POST", Pattern: "/apps", Auth: true, Body: true, serve: createApp},
	{Method: "GET", Pattern: "/apps/:appId", Auth: true, serve: getApp},
	// Catalogues: no authentication.
	{Method: "GET", Pattern: "/platforms", serve: catalogueOf(catPlatforms)},
	{Method: "GET", Pattern: "/currencies", serve: catalogueOf(catCurrencies)},
	{Method: "GET", Pattern: "/plans", serve: catalogueOf(catPlans)},
	{Method: "GET", Pattern: "/phoneCountries", serve: catalogueOf(catPhoneCountries)},
	{Method: "GET", Pattern: "/marketapps", serve: catalogueOf(catMarketapps)},
}

// Routes lists every endpoint, below the version segment.
func Routes() []Route { return slices.Clone(routes) }

// RouteOf is the endpoint of method and pattern (the zero Route for none).
func RouteOf(method, pattern string) Route {
	for _, r := range routes {
		if r.Method == method && r.Pattern == pattern {
			return r
		}
	}
	return Route{}
}

// match finds the endpoint of a request: the route, the version segment and
// the path's parameters; allow lists the methods of the path's endpoints
// when none takes the request's method. A path whose version segment the
// API does not serve still matches the route below it, so that Explain can
// judge the rest of the request; known reports whether the version is
// served.
func match(method, path string) (r Route, version string, params map[string]string, known bool, allow []string) {
	rest, ok := strings.CutPrefix(path, "/")
	if !ok {
		return Route{}, "", nil, false, nil
	}
	version, rest, ok = strings.Cut(rest, "/")
	if !ok {
		return Route{}, "", nil, false, nil
	}
	known = slices.Contains(Versions, version)
	head, _, _ := strings.Cut(rest, "/")
	for _, i := range routesByHead[head] {
		cand := &routes[i]
		ps, ok := matchPattern(cand.segs, rest)
		if !ok {
			continue
		}
		if cand.Method == method {
			return *cand, version, ps, known, nil
		}
		if !slices.Contains(allow, cand.Method) {
			allow = append(allow, cand.Method)
		}
	}
	if !known {
		allow = nil
	}
	return Route{}, version, nil, known, allow
}

// matchPattern matches the path below the version ("users/7") against a
// route's segments, without splitting the path: the hot path of every
// request.
func matchPattern(want []string, rest string) (map[string]string, bool) {
	var params map[string]string
	for i, w := range want {
		seg, tail, more := strings.Cut(rest, "/")
		if more != (i < len(want)-1) {
			return nil, false
		}
		rest = tail
		if name, ok := strings.CutPrefix(w, ":"); ok {
			if seg == "" {
				return nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[name] = seg
			continue
		}
		if w != seg {
			return nil, false
		}
	}
	return params, true
}

// routesByHead are the routes by the first segment of their pattern: a
// request is matched against those of its own head only.
var routesByHead = map[string][]int{}

func init() {
	for i := range routes {
		routes[i].segs = strings.Split(strings.TrimPrefix(routes[i].Pattern, "/"), "/")
		routesByHead[routes[i].segs[0]] = append(routesByHead[routes[i].segs[0]], i)
	}
}
