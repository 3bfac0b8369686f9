package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Every endpoint checks in one order: 401 (authenticate, before it), 404
// (the path's resource exists), 403 (the caller may touch it), then 413
// and 400 (the body). Nothing is written to the store before all of them
// pass.

// endpoint is what an endpoint adds to the checks every request goes
// through: the path's resource (404, 403), checked before the body is
// read, then the body's checks and the change it makes.
type endpoint struct {
	// resource checks the path's resource; it reports whether the checks
	// go on. nil: the path names none.
	resource func(c *call) bool
	// body reads and checks the body, where the endpoint takes one, and
	// sets the change (commitWith).
	body func(c *call)
}

// --- sessions ---

// createSession is POST /sessions: JSON or form credentials.
var createSession = endpoint{body: func(c *call) {
	if !c.loginBody() {
		return
	}
	email, password, errs := pricing.ValidateSession(c.body)
	if !c.fields(errs) || len(errs) > 0 {
		return
	}
	u, err := c.st.Authenticate(email, password)
	if err != nil {
		c.refuseWith(RuleBadCredentials, pricing.CodeUnauthorized, "The email address or the password is wrong.")
		return
	}
	c.commitWith(func() Response {
		sess, err := c.st.CreateSession(u.ID)
		if err != nil {
			return storeFailed(err)
		}
		return JSON(http.StatusOK, toWireSession(sess))
	})
}}

// --- users ---

// createUser is POST /users: sign-up, no authentication.
var createUser = endpoint{body: func(c *call) {
	in, ok := input(c, pricing.Validator.UserCreate)
	if !ok {
		return
	}
	c.commitWith(func() Response { return stored(c.st, toWireUser)(c.st.CreateUser(in)) })
}}

// ownUser checks that the path's user exists (404) and is the caller (403);
// it reports whether the checks go on.
var ownUser = pathResource("userId", "user", (*pricing.Store).User,
	func(c *call, u pricing.User) { c.user = u },
	func(c *call, u pricing.User) bool { return c.st.MayActOnUser(c.p.Caller, u.ID) },
	"You may only view or modify your own user.")

// pathResource checks that the resource of the path's id param (a what)
// exists, as get finds it (404), keeps it on the call (keep) and, for an
// authenticated caller, that may lets the caller act on it (403 with
// forbidden); it reports whether the checks go on.
func pathResource[T any](param, what string, get func(*pricing.Store, int64) (T, error), keep func(*call, T), may func(*call, T) bool, forbidden string) func(*call) bool {
	return func(c *call) bool {
		id, ok := c.pathID(param, what)
		if !ok {
			return c.all
		}
		r, err := get(c.st, id)
		if err != nil {
			return c.refuseWith(RuleUnknownID, pricing.CodeNotFound, "There is no "+what+" with id "+strconv.FormatInt(id, 10)+".")
		}
		keep(c, r)
		if c.authed && !may(c, r) {
			return c.refuseWith(RuleForbidden, pricing.CodeForbidden, forbidden)
		}
		return true
	}
}

var getUser = endpoint{resource: ownUser, body: func(c *call) {
	c.commitWith(func() Response { return JSON(http.StatusOK, toWireUser(c.st, c.user)) })
}}

// updateUser is PUT /users/:userId.
var updateUser = endpoint{resource: ownUser, body: func(c *call) {
	in, ok := input(c, func(v pricing.Validator, b pricing.Body) (pricing.UserInput, []pricing.FieldError) {
		// The user the body is checked for: the path's, once its checks
		// passed; where Explain goes on past a refused path, the caller's
		// (the body is the caller's), when the credentials name one.
		id := c.user.ID
		if !c.ok() && c.authed {
			id = c.p.Caller
		}
		return v.UserUpdate(b, id)
	})
	if !ok {
		return
	}
	c.commitWith(func() Response { return stored(c.st, toWireUser)(c.st.UpdateUser(c.user.ID, in)) })
}}

// listUserClients is GET /users/:userId/clients.
var listUserClients = endpoint{resource: ownUser, body: func(c *call) {
	c.commitWith(func() Response { return listed(c.st, "clients", toWireClient)(c.st.ClientsOfUser(c.user.ID)) })
}}

// --- clients ---

// memberClient checks that the path's client exists (404) and that the
// caller is a member of it (403).
var memberClient = pathResource("clientId", "client", (*pricing.Store).Client,
	func(c *call, cl pricing.Client) { c.client = cl },
	func(c *call, cl pricing.Client) bool { return c.st.MayActOnClient(c.p.Caller, cl.ID) },
	"You are not a member of this client.")

// createClient is POST /clients: a new client whose member is the caller,
// with its first app when the body carries one.
var createClient = endpoint{body: func(c *call) {
	in, ok := input(c, pricing.Validator.ClientCreate)
	if !ok {
		return
	}
	c.commitWith(func() Response { return stored(c.st, toWireClient)(c.st.CreateClient(c.p.Caller, in)) })
}}

var getClient = endpoint{resource: memberClient, body: func(c *call) {
	c.commitWith(func() Response { return JSON(http.StatusOK, toWireClient(c.st, c.client)) })
}}

// updateClient is PUT /clients/:clientId.
var updateClient = endpoint{resource: memberClient, body: func(c *call) {
	in, ok := input(c, pricing.Validator.ClientUpdate)
	if !ok {
		return
	}
	c.commitWith(func() Response { return stored(c.st, toWireClient)(c.st.UpdateClient(c.client.ID, in)) })
}}

// listClientApps is GET /clients/:clientId/apps.
var listClientApps = endpoint{resource: memberClient, body: func(c *call) {
	c.commitWith(func() Response { return listed(c.st, "apps", toWireApp)(c.st.AppsOfClient(c.client.ID)) })
}}

// --- apps ---

// createApp is POST /apps: the app joins the caller's primary client, so a
// caller with none is refused before its body is read.
var createApp = endpoint{
	resource: func(c *call) bool {
		if !c.authed {
			return c.all
		}
		u, err := c.st.User(c.p.Caller)
		if err != nil {
			return c.refuse(storeRefusal(err))
		}
		c.clientID = u.PrimaryClientID
		if c.clientID == 0 {
			return c.refuseWith(RuleNoClient, pricing.CodeNoClient, "You have no client to add an app to; create one with POST /clients first.")
		}
		return true
	},
	body: func(c *call) {
		in, ok := input(c, pricing.Validator.App)
		if !ok {
			return
		}
		c.commitWith(func() Response { return stored(c.st, toWireApp)(c.st.CreateApp(c.clientID, in)) })
	},
}

// getApp is GET /apps/:appId.
var getApp = endpoint{
	resource: pathResource("appId", "app", (*pricing.Store).App,
		func(c *call, a pricing.App) { c.app = a },
		func(c *call, a pricing.App) bool { return c.st.IsMember(c.p.Caller, a.ClientID) },
		"You are not a member of the client of this app."),
	body: func(c *call) {
		c.commitWith(func() Response { return JSON(http.StatusOK, toWireApp(c.st, c.app)) })
	},
}

// input reads the body and checks it with check: the input, and whether
// the call goes on (readBody, fields).
func input[T any](c *call, check func(pricing.Validator, pricing.Body) (T, []pricing.FieldError)) (T, bool) {
	var in T
	if !c.readBody("") {
		return in, false
	}
	in, errs := check(c.validator(), c.body)
	return in, c.fields(errs)
}

// stored answers what a store call returned: 200 with its wire form, or
// the store's refusal (storeFailed).
func stored[T, W any](st *pricing.Store, wire func(*pricing.Store, T) W) func(T, error) Response {
	return func(v T, err error) Response {
		if err != nil {
			return storeFailed(err)
		}
		return JSON(http.StatusOK, wire(st, v))
	}
}

// listed answers a list a store call returned as {key: [wire form, ...]},
// or the store's refusal.
func listed[T, W any](st *pricing.Store, key string, wire func(*pricing.Store, T) W) func([]T, error) Response {
	return stored(st, func(st *pricing.Store, vs []T) map[string]any {
		return listOf(key, vs, func(v T) W { return wire(st, v) })
	})
}

// listOf is a collection answer: {key: [the wire form of each of vs]}.
func listOf[T, W any](key string, vs []T, wire func(T) W) map[string]any {
	out := make([]W, 0, len(vs))
	for _, v := range vs {
		out = append(out, wire(v))
	}
	return map[string]any{key: out}
}

// storeFailed answers an error of a store write. Validation has run before,
// so only a race (an email taken meanwhile), a bound or a bug reaches here.
func storeFailed(err error) Response { return storeRefusal(err).response() }

func storeRefusal(err error) Refusal {
	one := func(code pricing.Code, field, message string) Refusal {
		return Refusal{Rule: RuleStore, Status: code.Status(), Errors: []pricing.FieldError{{FieldName: field, Error: code, Message: message, Rule: string(RuleStore)}}}
	}
	var limit *pricing.LimitError
	switch {
	case errors.As(err, &limit):
		msg := limit.Error()
		return one(pricing.CodeLimitReached, "", strings.ToUpper(msg[:1])+msg[1:]+
			"; POST "+AdminPrefix+"/reset, or DELETE "+AdminPrefix+"/namespaces/NAME for a namespace, frees room.")
	case errors.Is(err, pricing.ErrEmailTaken):
		return one(pricing.CodeInvalidEmail, "email", "email is already used by another account.")
	case errors.Is(err, pricing.ErrNotFound):
		return one(pricing.CodeNotFound, "", "The resource does not exist.")
	}
	return one(pricing.CodeInternal, "", "The server failed to answer this request.")
}

// AdminPrefix is the path of the mock's admin API, which the message of a
// bound names.
const AdminPrefix = "/__admin"
