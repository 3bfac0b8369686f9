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
	if !c.readBody("") {
		return
	}
	in, errs := c.validator().UserCreate(c.body)
	if !c.fields(errs) {
		return
	}
	c.commitWith(func() Response { return stored(c.st, toWireUser)(c.st.CreateUser(in)) })
}}

// ownUser checks that the path's user exists (404) and is the caller (403);
// it reports whether the checks go on.
func ownUser(c *call) bool {
	id, ok := c.pathID("userId", "user")
	if !ok {
		return c.all
	}
	u, err := c.st.User(id)
	if err != nil {
		return c.refuseWith(RuleUnknownID, pricing.CodeNotFound, "There is no user with id "+strconv.FormatInt(id, 10)+".")
	}
	c.user = u
	if c.authed && !c.st.MayActOnUser(c.p.Caller, u.ID) {
		return c.refuseWith(RuleForbidden, pricing.CodeForbidden, "You may only view or modify your own user.")
	}
	return true
}

var getUser = endpoint{resource: ownUser, body: func(c *call) {
	c.commitWith(func() Response { return JSON(http.StatusOK, toWireUser(c.st, c.user)) })
}}

// updateUser is PUT /users/:userId.
var updateUser = endpoint{resource: ownUser, body: func(c *call) {
	if !c.readBody("") {
		return
	}
	// The user the body is checked for: the path's, once its checks
	// passed; where Explain goes on past a refused path, the caller's (the
	// body is the caller's), when the credentials name one.
	id := c.user.ID
	if !c.ok() && c.authed {
		id = c.p.Caller
	}
	in, errs := c.validator().UserUpdate(c.body, id)
	if !c.fields(errs) {
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
func memberClient(c *call) bool {
	id, ok := c.pathID("clientId", "client")
	if !ok {
		return c.all
	}
	cl, err := c.st.Client(id)
	if err != nil {
		return c.refuseWith(RuleUnknownID, pricing.CodeNotFound, "There is no client with id "+strconv.FormatInt(id, 10)+".")
	}
	c.client = cl
	if c.authed && !c.st.MayActOnClient(c.p.Caller, cl.ID) {
		return c.refuseWith(RuleForbidden, pricing.CodeForbidden, "You are not a member of this client.")
	}
	return true
}

// createClient is POST /clients: a new client whose member is the caller,
// with its first app when the body carries one.
var createClient = endpoint{body: func(c *call) {
	if !c.readBody("") {
		return
	}
	in, errs := c.validator().ClientCreate(c.body)
	if !c.fields(errs) {
		return
	}
	c.commitWith(func() Response { return stored(c.st, toWireClient)(c.st.CreateClient(c.p.Caller, in)) })
}}

var getClient = endpoint{resource: memberClient, body: func(c *call) {
	c.commitWith(func() Response { return JSON(http.StatusOK, toWireClient(c.st, c.client)) })
}}

// updateClient is PUT /clients/:clientId.
var updateClient = endpoint{resource: memberClient, body: func(c *call) {
	if !c.readBody("") {
		return
	}
	in, errs := c.validator().ClientUpdate(c.body)
	if !c.fields(errs) {
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
		if !c.readBody("") {
			return
		}
		in, errs := c.validator().App(c.body)
		if !c.fields(errs) {
			return
		}
		c.commitWith(func() Response { return stored(c.st, toWireApp)(c.st.CreateApp(c.clientID, in)) })
	},
}

// getApp is GET /apps/:appId.
var getApp = endpoint{
	resource: func(c *call) bool {
		id, ok := c.pathID("appId", "app")
		if !ok {
			return c.all
		}
		a, err := c.st.App(id)
		if err != nil {
			return c.refuseWith(RuleUnknownID, pricing.CodeNotFound, "There is no app with id "+strconv.FormatInt(id, 10)+".")
		}
		c.app = a
		if c.authed && !c.st.IsMember(c.p.Caller, a.ClientID) {
			return c.refuseWith(RuleForbidden, pricing.CodeForbidden, "You are not a member of the client of this app.")
		}
		return true
	},
	body: func(c *call) {
		c.commitWith(func() Response { return JSON(http.StatusOK, toWireApp(c.st, c.app)) })
	},
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
