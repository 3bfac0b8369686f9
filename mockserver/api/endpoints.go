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

// --- sessions ---

// createSession is POST /sessions: JSON or form credentials.
func createSession(c *call) {
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
}

// --- users ---

// createUser is POST /users: sign-up, no authentication.
func createUser(c *call) {
	if !c.readBody("") {
		return
	}
	in, errs := c.st.Validator().UserCreate(c.body)
	if !c.fields(errs) {
		return
	}
	c.commitWith(func() Response {
		u, err := c.st.CreateUser(in)
		if err != nil {
			return storeFailed(err)
		}
		return JSON(http.StatusOK, toWireUser(c.st, u))
	})
}

// ownUser checks that the path's user exists (404) and is the caller (403);
// it reports whether the checks go on, and the user's id where it is known.
func (c *call) ownUser() (pricing.User, bool) {
	id, ok := c.pathID("userId", "user")
	if !ok {
		return pricing.User{}, c.all
	}
	u, err := c.st.User(id)
	if err != nil {
		return pricing.User{}, c.refuseWith(RuleUnknownID, pricing.CodeNotFound, "There is no user with id "+strconv.FormatInt(id, 10)+".")
	}
	if c.authed && !c.st.MayActOnUser(c.p.Caller, u.ID) {
		return u, c.refuseWith(RuleForbidden, pricing.CodeForbidden, "You may only view or modify your own user.")
	}
	return u, true
}

func getUser(c *call) {
	if u, ok := c.ownUser(); ok && c.ok() {
		c.commitWith(func() Response { return JSON(http.StatusOK, toWireUser(c.st, u)) })
	}
}

// updateUser is PUT /users/:userId.
func updateUser(c *call) {
	u, ok := c.ownUser()
	if !ok || !c.readBody("") {
		return
	}
	// The user the body is checked for: the path's, or, where Explain
	// goes on past a refused path, the caller.
	id := u.ID
	if id == 0 {
		id = c.p.Caller
	}
	in, errs := c.st.Validator().UserUpdate(c.body, id)
	if !c.fields(errs) {
		return
	}
	c.commitWith(func() Response {
		u, err := c.st.UpdateUser(u.ID, in)
		if err != nil {
			return storeFailed(err)
		}
		return JSON(http.StatusOK, toWireUser(c.st, u))
	})
}

// listUserClients is GET /users/:userId/clients.
func listUserClients(c *call) {
	u, ok := c.ownUser()
	if !ok || !c.ok() {
		return
	}
	c.commitWith(func() Response {
		clients, err := c.st.ClientsOfUser(u.ID)
		if err != nil {
			return storeFailed(err)
		}
		out := make([]wireClient, 0, len(clients))
		for _, cl := range clients {
			out = append(out, toWireClient(c.st, cl))
		}
		return JSON(http.StatusOK, map[string]any{"clients": out})
	})
}

// --- clients ---

// memberClient checks that the path's client exists (404) and that the
// caller is a member of it (403).
func (c *call) memberClient() (pricing.Client, bool) {
	id, ok := c.pathID("clientId", "client")
	if !ok {
		return pricing.Client{}, c.all
	}
	cl, err := c.st.Client(id)
	if err != nil {
		return pricing.Client{}, c.refuseWith(RuleUnknownID, pricing.CodeNotFound, "There is no client with id "+strconv.FormatInt(id, 10)+".")
	}
	if c.authed && !c.st.MayActOnClient(c.p.Caller, cl.ID) {
		return cl, c.refuseWith(RuleForbidden, pricing.CodeForbidden, "You are not a member of this client.")
	}
	return cl, true
}

// createClient is POST /clients: a new client whose member is the caller,
// with its first app when the body carries one.
func createClient(c *call) {
	if !c.readBody("") {
		return
	}
	in, errs := c.st.Validator().ClientCreate(c.body)
	if !c.fields(errs) {
		return
	}
	c.commitWith(func() Response {
		cl, err := c.st.CreateClient(c.p.Caller, in)
		if err != nil {
			return storeFailed(err)
		}
		return JSON(http.StatusOK, toWireClient(c.st, cl))
	})
}

func getClient(c *call) {
	if cl, ok := c.memberClient(); ok && c.ok() {
		c.commitWith(func() Response { return JSON(http.StatusOK, toWireClient(c.st, cl)) })
	}
}

// updateClient is PUT /clients/:clientId.
func updateClient(c *call) {
	cl, ok := c.memberClient()
	if !ok || !c.readBody("") {
		return
	}
	in, errs := c.st.Validator().ClientUpdate(c.body)
	if !c.fields(errs) {
		return
	}
	c.commitWith(func() Response {
		cl, err := c.st.UpdateClient(cl.ID, in)
		if err != nil {
			return storeFailed(err)
		}
		return JSON(http.StatusOK, toWireClient(c.st, cl))
	})
}

// listClientApps is GET /clients/:clientId/apps.
func listClientApps(c *call) {
	cl, ok := c.memberClient()
	if !ok || !c.ok() {
		return
	}
	c.commitWith(func() Response {
		apps, err := c.st.AppsOfClient(cl.ID)
		if err != nil {
			return storeFailed(err)
		}
		out := make([]wireApp, 0, len(apps))
		for _, a := range apps {
			out = append(out, toWireApp(c.st, a))
		}
		return JSON(http.StatusOK, map[string]any{"apps": out})
	})
}

// --- apps ---

// createApp is POST /apps: the app joins the caller's primary client.
func createApp(c *call) {
	var clientID int64
	if c.authed {
		u, err := c.st.User(c.p.Caller)
		if err != nil {
			c.p.Refusals = append(c.p.Refusals, storeRefusal(err))
			return
		}
		clientID = u.PrimaryClientID
		if clientID == 0 && !c.refuseWith(RuleNoClient, pricing.CodeNoClient, "You have no client to add an app to; create one with POST /clients first.") {
			return
		}
	}
	if !c.readBody("") {
		return
	}
	in, errs := c.st.Validator().App(c.body)
	if !c.fields(errs) {
		return
	}
	c.commitWith(func() Response {
		a, err := c.st.CreateApp(clientID, in)
		if err != nil {
			return storeFailed(err)
		}
		return JSON(http.StatusOK, toWireApp(c.st, a))
	})
}

// getApp is GET /apps/:appId.
func getApp(c *call) {
	id, ok := c.pathID("appId", "app")
	if !ok {
		return
	}
	a, err := c.st.App(id)
	if err != nil {
		c.refuseWith(RuleUnknownID, pricing.CodeNotFound, "There is no app with id "+strconv.FormatInt(id, 10)+".")
		return
	}
	if c.authed && !c.st.IsMember(c.p.Caller, a.ClientID) {
		c.refuseWith(RuleForbidden, pricing.CodeForbidden, "You are not a member of the client of this app.")
		return
	}
	c.commitWith(func() Response { return JSON(http.StatusOK, toWireApp(c.st, a)) })
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
