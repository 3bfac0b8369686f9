package snapshots

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// Order of checks for every authenticated endpoint:
// 401 (credentials) -> 415/413/400 (body syntax) -> 400 (field rules) ->
// 404 (path resource) -> 403 (ownership) -> 400 (rules that depend on other
// records: email in use, duplicate app) -> 404 (ids referenced in the body)
// -> 400 (quota). Credentials are checked once against the snapshot the
// request arrived on, for a quick refusal, and again inside the writer lock,
// so that a token revoked by an earlier write is never honoured later.

func (s *Server) respond(w http.ResponseWriter, out any, f *failure) {
	if f != nil {
		writeFailure(w, f)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// writeEndpoint runs the common prologue of a body-carrying authenticated
// endpoint and then fn inside the writer lock.
func (s *Server) writeEndpoint(w http.ResponseWriter, r *http.Request, fn func(st *state, p principal, o map[string]any, now time.Time) (any, *failure)) {
	if _, ok := authenticate(r, s.cur.Load()); !ok {
		writeFailure(w, fail(http.StatusUnauthorized))
		return
	}
	o, f := readObject(w, r)
	if f != nil {
		writeFailure(w, f)
		return
	}
	out, f := s.write(func(st *state, now time.Time) (any, *failure) {
		p, ok := authenticate(r, st)
		if !ok {
			return nil, fail(http.StatusUnauthorized)
		}
		return fn(st, p, o, now)
	})
	s.respond(w, out, f)
}

func (s *Server) checker() *checker { return &checker{cat: s.cat} }

func invalid(c *checker) *failure {
	return &failure{status: http.StatusBadRequest, errs: c.errs}
}

func quota(msg string) *failure { return badRequest("", "LimitExceeded", msg) }

// ---- sessions -------------------------------------------------------------

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request, _ string) {
	o, f := readObject(w, r)
	if f != nil {
		writeFailure(w, f)
		return
	}
	c := s.checker()
	c.unknown(o, "", "email", "password")
	email, eok := o["email"].(string)
	if !eok {
		c.fail("email", "InvalidEmail", "email is required and must be a string")
	}
	pw, pok := o["password"].(string)
	if !pok {
		c.fail("password", "InvalidPassword", "password is required and must be a string")
	}
	if c.failed() {
		writeFailure(w, invalid(c))
		return
	}
	out, f := s.write(func(st *state, now time.Time) (any, *failure) {
		uid, ok := st.emails.get(email)
		if !ok {
			return nil, fail(http.StatusUnauthorized)
		}
		u, _ := st.users.get(uid)
		if !passwordMatches(u, pw) {
			return nil, fail(http.StatusUnauthorized)
		}
		return sessionRepOf(st.addSession(u, now)), nil
	})
	s.respond(w, out, f)
}

// ---- users ----------------------------------------------------------------

func (s *Server) handleUpdateUser(w http.ResponseWriter, r *http.Request, param string) {
	id, idOK := parseIntegral(param)
	s.writeEndpoint(w, r, func(st *state, p principal, o map[string]any, now time.Time) (any, *failure) {
		c := s.checker()
		in := c.user(o, false)
		if c.failed() {
			return nil, invalid(c)
		}
		u, exists := st.users.get(id)
		if !idOK || !exists {
			return nil, fail(http.StatusNotFound)
		}
		if p.userID != u.id {
			return nil, fail(http.StatusForbidden)
		}
		// Whether the email is free depends on whose it would become, so
		// this rule waits until the target user is known and allowed.
		if owner, taken := st.emails.get(in.email); taken && owner != id {
			return nil, badRequest("email", "InvalidEmail", "email is already used by another account")
		}
		if in.client != nil {
			if f := s.clientRefs(in.client); f != nil {
				return nil, f
			}
			if f := clientQuota(st, u, in.client); f != nil {
				return nil, f
			}
		}
		nu := *u
		if nu.email != in.email {
			st.emails = st.emails.del(nu.email).set(in.email, nu.id)
		}
		applyUser(&nu, &in)
		if in.password != nil {
			nu.pwSalt, nu.pwHash = hashPassword(*in.password)
			nu.pwChanged = now
			// A new password ends every other session of the user; the
			// session that made the change, if any, stays usable.
			st.revokeSessionsExcept(&nu, p.token)
		}
		if in.client != nil {
			cl := s.createClient(st, in.client, nu.id, now)
			nu.clientIDs = append(slices.Clone(nu.clientIDs), cl.id)
		}
		st.users = st.users.set(nu.id, &nu)
		return s.userRep(&nu), nil
	})
}

func applyUser(u *user, in *userInput) { u.userDetails = in.userDetails }

// handleCreateUser adds a user. Without "client" the new user joins the
// caller's current client (a client may have several users); with it the
// new user gets a client of its own.
func (s *Server) handleCreateUser(w http.ResponseWriter, r *http.Request, _ string) {
	s.writeEndpoint(w, r, func(st *state, p principal, o map[string]any, now time.Time) (any, *failure) {
		c := s.checker()
		in := c.user(o, true)
		if in.emailOK {
			if _, taken := st.emails.get(in.email); taken {
				c.fail("email", "InvalidEmail", "email is already used by another account")
			}
		}
		if c.failed() {
			return nil, invalid(c)
		}
		if in.client != nil {
			if f := s.clientRefs(in.client); f != nil {
				return nil, f
			}
		}
		if st.createdUsers >= maxCreatedUsers {
			return nil, quota("no more users can be created on this server")
		}
		var home *client
		if in.client == nil {
			home, _ = st.clients.get(p.clientID)
			if len(home.members) >= maxMembersOfClient {
				return nil, quota("the client has the maximum number of users")
			}
		} else if st.createdClients >= maxCreatedClients {
			return nil, quota("no more clients can be created on this server")
		} else if in.client.app != nil && st.createdApps >= maxCreatedApps {
			return nil, quota("no more apps can be created on this server")
		}
		nu := &user{id: st.nextID(), created: now, pwChanged: now}
		applyUser(nu, &in)
		nu.pwSalt, nu.pwHash = hashPassword(*in.password)
		for {
			nu.apiKey = newToken(40)
			if _, taken := st.apiKeys.get(nu.apiKey); !taken {
				break
			}
		}
		if home != nil {
			nh := *home
			nh.members = append(slices.Clone(home.members), nu.id)
			st.clients = st.clients.set(nh.id, &nh)
			nu.clientIDs = []int64{nh.id}
		} else {
			nu.clientIDs = []int64{s.createClient(st, in.client, nu.id, now).id}
		}
		st.createdUsers++
		st.users = st.users.set(nu.id, nu)
		st.emails = st.emails.set(nu.email, nu.id)
		st.apiKeys = st.apiKeys.set(nu.apiKey, nu.id)
		return s.userRep(nu), nil
	})
}

// ---- clients --------------------------------------------------------------

func (s *Server) clientRefs(in *clientInput) *failure {
	if _, ok := s.cat.currency(in.currencyID); !ok {
		return fail(http.StatusNotFound)
	}
	if in.app != nil {
		return s.appRefs(in.app)
	}
	return nil
}

func clientQuota(st *state, u *user, in *clientInput) *failure {
	if in.app != nil && st.createdApps >= maxCreatedApps {
		return quota("no more apps can be created on this server")
	}
	if len(u.clientIDs) >= maxClientsPerUser {
		return quota("the user belongs to the maximum number of clients")
	}
	if st.createdClients >= maxCreatedClients {
		return quota("no more clients can be created on this server")
	}
	return nil
}

// createClient stores a new client with one member, and its first app if
// the input has one. The caller updates the member's own client list.
func (s *Server) createClient(st *state, in *clientInput, member int64, now time.Time) *client {
	cl := &client{id: st.nextID(), created: now, members: []int64{member}}
	applyClient(cl, in)
	if in.app != nil {
		a := s.createApp(st, cl.id, in.app, now)
		cl.appIDs = []int64{a.id}
	}
	st.createdClients++
	st.clients = st.clients.set(cl.id, cl)
	return cl
}

// applyClient replaces every settable field: optional fields left out of
// the body are cleared, because the body is the whole new client.
func applyClient(cl *client, in *clientInput) { cl.clientDetails = in.clientDetails }

func (s *Server) handleCreateClient(w http.ResponseWriter, r *http.Request, _ string) {
	s.writeEndpoint(w, r, func(st *state, p principal, o map[string]any, now time.Time) (any, *failure) {
		c := s.checker()
		in := c.client(o, "", true)
		if c.failed() {
			return nil, invalid(c)
		}
		if f := s.clientRefs(&in); f != nil {
			return nil, f
		}
		u, _ := st.users.get(p.userID)
		if f := clientQuota(st, u, &in); f != nil {
			return nil, f
		}
		cl := s.createClient(st, &in, u.id, now)
		nu := *u
		nu.clientIDs = append(slices.Clone(u.clientIDs), cl.id)
		st.users = st.users.set(nu.id, &nu)
		return s.clientRep(cl), nil
	})
}

func (s *Server) handleUpdateClient(w http.ResponseWriter, r *http.Request, param string) {
	id, idOK := parseIntegral(param)
	s.writeEndpoint(w, r, func(st *state, p principal, o map[string]any, now time.Time) (any, *failure) {
		c := s.checker()
		in := c.client(o, "", false)
		if c.failed() {
			return nil, invalid(c)
		}
		cl, exists := st.clients.get(id)
		if !idOK || !exists {
			return nil, fail(http.StatusNotFound)
		}
		if !slices.Contains(cl.members, p.userID) {
			return nil, fail(http.StatusForbidden)
		}
		if f := s.clientRefs(&in); f != nil {
			return nil, f
		}
		nc := *cl
		applyClient(&nc, &in)
		st.clients = st.clients.set(nc.id, &nc)
		return s.clientRep(&nc), nil
	})
}

// ---- apps -----------------------------------------------------------------

func (s *Server) appRefs(in *appInput) *failure {
	if _, ok := s.cat.plan(in.planID); !ok {
		return fail(http.StatusNotFound)
	}
	if !in.hasHash {
		if _, ok := s.cat.platform(*in.platformID); !ok {
			return fail(http.StatusNotFound)
		}
	} else if _, ok := s.cat.storeApp(in.hash); !ok {
		return fail(http.StatusNotFound) // a well-formed hash of no store app
	}
	return nil
}

// marketKey names the store app an input refers to. Without a hash the
// name and platform are a store lookup; the server has no store, so the
// lookup is a fixed function of the two, which keeps it repeatable.
func marketKey(in *appInput) string {
	if in.hasHash {
		return strings.ToLower(in.hash)
	}
	sum := sha1.Sum([]byte(fmt.Sprintf("%d\x00%s", *in.platformID, *in.name)))
	return hex.EncodeToString(sum[:])
}

// resolveMarket returns what the store says about the app: a store app of
// the hash (appRefs refused any other), or the app a name and a platform
// looked up, registered the first time.
func (s *Server) resolveMarket(st *state, in *appInput, key string) marketapp {
	if m, ok := s.cat.storeApp(key); ok && in.hasHash {
		return m
	}
	if m, ok := st.market.get(key); ok {
		return m
	}
	return marketapp{name: *in.name, platformID: *in.platformID}
}

func (s *Server) createApp(st *state, clientID int64, in *appInput, now time.Time) *app {
	key := marketKey(in)
	m := s.resolveMarket(st, in, key)
	hash := key
	if in.hasHash {
		hash = in.hash
	}
	a := &app{
		id:         st.nextID(),
		created:    now,
		clientID:   clientID,
		name:       m.name,
		platformID: m.platformID,
		writeKey:   newWriteKey(),
		planID:     in.planID,
		hash:       hash,
	}
	st.createdApps++
	st.apps = st.apps.set(a.id, a)
	st.market = st.market.set(key, m)
	return a
}

func (s *Server) handleCreateApp(w http.ResponseWriter, r *http.Request, _ string) {
	s.writeEndpoint(w, r, func(st *state, p principal, o map[string]any, now time.Time) (any, *failure) {
		c := s.checker()
		in := c.app(o, "")
		if c.failed() {
			return nil, invalid(c)
		}
		cl, _ := st.clients.get(p.clientID)
		key := marketKey(&in)
		for _, aid := range cl.appIDs {
			if a, _ := st.apps.get(aid); strings.EqualFold(a.hash, key) {
				return nil, badRequest("marketapp.hash", "DuplicateMarketapp", "the client already has an app for this marketplace app")
			}
		}
		if f := s.appRefs(&in); f != nil {
			return nil, f
		}
		if len(cl.appIDs) >= maxAppsPerClient {
			return nil, quota("the client has the maximum number of apps")
		}
		if st.createdApps >= maxCreatedApps {
			return nil, quota("no more apps can be created on this server")
		}
		a := s.createApp(st, cl.id, &in, now)
		nc := *cl
		nc.appIDs = append(slices.Clone(cl.appIDs), a.id)
		st.clients = st.clients.set(nc.id, &nc)
		return s.appRep(a), nil
	})
}

// ---- reads ----------------------------------------------------------------

const pageSize = 20

// readEndpoint authenticates against one snapshot and reads from that same
// snapshot, so a read is consistent without any lock.
func (s *Server) readEndpoint(w http.ResponseWriter, r *http.Request, fn func(st *state, p principal, page int) any) {
	st := s.cur.Load()
	p, ok := authenticate(r, st)
	if !ok {
		writeFailure(w, fail(http.StatusUnauthorized))
		return
	}
	page := 1
	q, _ := url.ParseQuery(r.URL.RawQuery)
	if vals, present := q["page"]; present {
		n, ok := parseIntegral(vals[0])
		if len(vals) != 1 || !ok || n < 1 || n > 1<<31 {
			writeFailure(w, badRequest("page", "InvalidPage", "page must be one whole number of at least 1"))
			return
		}
		page = int(n)
	}
	writeJSON(w, http.StatusOK, fn(st, p, page))
}

// paged wraps one page of a collection in its wrapper object.
func paged[T any](name string, items []T, page int) map[string]any {
	total := len(items)
	pages := (total + pageSize - 1) / pageSize
	if pages == 0 {
		pages = 1
	}
	lo := min((page-1)*pageSize, total)
	hi := min(lo+pageSize, total)
	out := make([]T, hi-lo)
	copy(out, items[lo:hi])
	return map[string]any{name: out, "page": page, "pageSize": pageSize, "pages": pages, "total": total}
}

func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request, _ string) {
	s.readEndpoint(w, r, func(*state, principal, int) any {
		return map[string]any{
			"version": "v1.0",
			"collections": map[string]string{
				"platforms":         basePath + "/platforms",
				"currencies":        basePath + "/currencies",
				"subscriptionPlans": basePath + "/subscription-plans",
				"phoneCountries":    basePath + "/phone-countries",
				"clients":           basePath + "/clients",
				"apps":              basePath + "/apps",
			},
			"endpoints": []string{
				"POST " + basePath + "/sessions",
				"POST " + basePath + "/users",
				"PUT " + basePath + "/users/{userId}",
				"GET " + basePath + "/clients",
				"POST " + basePath + "/clients",
				"PUT " + basePath + "/clients/{clientId}",
				"GET " + basePath + "/apps",
				"POST " + basePath + "/apps",
				"GET " + basePath + "/platforms",
				"GET " + basePath + "/currencies",
				"GET " + basePath + "/subscription-plans",
				"GET " + basePath + "/phone-countries",
			},
		}
	})
}

func (s *Server) handlePlatforms(w http.ResponseWriter, r *http.Request, _ string) {
	s.readEndpoint(w, r, func(_ *state, _ principal, page int) any {
		var items []platformRep
		for _, p := range s.cat.platforms {
			items = append(items, platformRep{ID: p.id, Name: p.name})
		}
		return paged("platforms", items, page)
	})
}

func (s *Server) handleCurrencies(w http.ResponseWriter, r *http.Request, _ string) {
	s.readEndpoint(w, r, func(_ *state, _ principal, page int) any {
		var items []currencyItem
		for _, c := range s.cat.currencies {
			items = append(items, currencyItem{ID: c.id, Code: c.code, Name: c.name})
		}
		return paged("currencies", items, page)
	})
}

func (s *Server) handlePlans(w http.ResponseWriter, r *http.Request, _ string) {
	s.readEndpoint(w, r, func(_ *state, _ principal, page int) any {
		var items []planItem
		for _, p := range s.cat.plans {
			items = append(items, planItem{ID: p.id, Name: p.name, planFlags: planFlags{IsLite: p.lite, IsPro: p.pro, IsDynamic: p.dynamic, NeedBilling: p.needBilling}})
		}
		return paged("subscriptionPlans", items, page)
	})
}

func (s *Server) handlePhoneCountries(w http.ResponseWriter, r *http.Request, _ string) {
	s.readEndpoint(w, r, func(_ *state, _ principal, page int) any {
		var items []wire.PhoneCountry
		for _, p := range s.cat.phoneCountries {
			items = append(items, wire.PhoneCountry{ID: p.id, Name: p.name, DialCode: p.dialCode})
		}
		return paged("phoneCountries", items, page)
	})
}

// handleListClients lists the clients the caller belongs to, newest first.
func (s *Server) handleListClients(w http.ResponseWriter, r *http.Request, _ string) {
	s.readEndpoint(w, r, func(st *state, p principal, page int) any {
		u, _ := st.users.get(p.userID)
		items := []wire.Client{}
		for i := len(u.clientIDs) - 1; i >= 0; i-- {
			if cl, ok := st.clients.get(u.clientIDs[i]); ok {
				items = append(items, s.clientRep(cl))
			}
		}
		return paged("clients", items, page)
	})
}

// handleListApps lists the apps of every client the caller belongs to,
// newest first.
func (s *Server) handleListApps(w http.ResponseWriter, r *http.Request, _ string) {
	s.readEndpoint(w, r, func(st *state, p principal, page int) any {
		u, _ := st.users.get(p.userID)
		var apps []*app
		for _, cid := range u.clientIDs {
			cl, ok := st.clients.get(cid)
			if !ok {
				continue
			}
			for _, aid := range cl.appIDs {
				if a, ok := st.apps.get(aid); ok {
					apps = append(apps, a)
				}
			}
		}
		slices.SortFunc(apps, func(a, b *app) int {
			if c := b.created.Compare(a.created); c != 0 {
				return c
			}
			if a.id > b.id {
				return -1
			}
			return 1
		})
		items := []appRep{}
		for _, a := range apps {
			items = append(items, s.appRep(a))
		}
		return paged("apps", items, page)
	})
}
