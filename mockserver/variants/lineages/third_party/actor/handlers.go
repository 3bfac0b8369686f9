package actor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"
)

const raceWindow = 5 * time.Millisecond

func (s *Server) storeName(n string) string {
	if s.is("names-html-escaped") {
		return html.EscapeString(n)
	}
	return n
}

func (s *Server) storePassword(p string) string {
	if s.is("password-stored-trimmed") {
		return strings.TrimSpace(p)
	}
	return p
}

func (s *Server) writeKey() string {
	k := randHex(16)
	if s.is("write-key-uppercase") {
		return strings.ToUpper(k)
	}
	return k
}

func resolveApp(in appIn) (marketApp, bool) {
	if in.hash != "" {
		return findMarketApp(in.hash)
	}
	return findMarketAppByName(in.name, in.platform)
}

func (s *Server) newApp(st *state, id, clientID int64, in appIn, ma marketApp, now time.Time) *app {
	name := in.name
	if in.hash != "" || name == "" {
		name = ma.Name
	}
	a := &app{
		ID:       id,
		Created:  now,
		Name:     name,
		Platform: ma.Platform.ID,
		WriteKey: s.writeKey(),
		Plan:     in.plan,
		Hash:     ma.Hash,
		ClientID: clientID,
	}
	st.apps[id] = a
	return a
}

// newClient creates a client with the user as its member, and its first app
// when in.app is set (ma must then be resolved already).
func (s *Server) newClient(st *state, u *user, in clientIn, ma marketApp, withApp bool, now time.Time) *client {
	c := &client{
		ID:       st.nextClient,
		Created:  now,
		Name:     s.storeName(in.name),
		Line1:    in.line1,
		City:     in.city,
		Postcode: in.postcode,
		Country:  in.country,
		Currency: in.currency,
		Members:  map[int64]bool{},
	}
	if in.line2.set && !in.line2.null {
		v := in.line2.val
		c.Line2 = &v
	}
	if in.vat.set && !in.vat.null {
		v := in.vat.val
		c.VAT = &v
	}
	st.nextClient++
	st.clients[c.ID] = c
	st.addMembership(u, c)
	if withApp && in.app != nil {
		s.newApp(st, st.nextApp, c.ID, *in.app, ma, now)
		st.nextApp++
	}
	return c
}

func (s *Server) applyUser(u *user, in userIn, now time.Time) {
	u.Email = in.email
	u.FirstName = s.storeName(in.first)
	u.LastName = s.storeName(in.last)
	u.Subs = in.subs
	u.Timezone = in.tz
	if in.pwSet {
		u.Password = s.storePassword(in.pw)
		u.PasswordChanged = now
	}
	if in.pcSet {
		u.PhoneCountry = in.pc
	}
	if in.phone.set {
		u.PhoneNumber = in.phone.val
	}
	if in.ext.set {
		if in.ext.null {
			u.PhoneExt = nil
		} else {
			v := in.ext.val
			u.PhoneExt = &v
		}
	}
}

// ---- sessions -------------------------------------------------------------

func (s *Server) loginMatch(u *user, email, password string) bool {
	if s.is("login-lowercases-email") {
		if u.Email != strings.ToLower(email) {
			return false
		}
	} else if !strings.EqualFold(u.Email, email) {
		return false
	}
	if s.is("login-password-case-insensitive") {
		return strings.EqualFold(u.Password, password)
	}
	return u.Password == password
}

func (s *Server) findLogin(st *state, email, password string) *user {
	for _, u := range st.users {
		if s.loginMatch(u, email, password) {
			return u
		}
	}
	return nil
}

func badLogin() result {
	return errResult(http.StatusUnauthorized, "Unauthorized", "invalid email or password")
}

func (s *Server) postSession(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.ctx(r)
	defer cancel()
	m, ok := s.readBody(w, r)
	if !ok {
		return
	}
	v := &validator{s: s}
	email, password := v.session(m)
	if v.errs != nil {
		s.finish(w, bad(v.errs), nil)
		return
	}
	if s.is("session-token-counter-race") {
		type seqUser struct{ uid, seq int64 }
		res, err := s.do(ctx, func(st *state) result {
			u := s.findLogin(st, email, password)
			if u == nil {
				return badLogin()
			}
			return okRes(seqUser{u.ID, st.tokenSeq})
		})
		if err != nil || res.errs != nil {
			s.finish(w, res, err)
			return
		}
		su := res.body.(seqUser)
		time.Sleep(raceWindow)
		res, err = s.do(ctx, func(st *state) result {
			u := st.users[su.uid]
			if u == nil {
				return badLogin()
			}
			sum := sha256.Sum256([]byte(fmt.Sprintf("%s-%d", s.seed, su.seq)))
			se := &session{ID: st.nextSession, Created: s.now(), UserID: u.ID, ClientID: primaryClient(u), Token: hex.EncodeToString(sum[:])}
			st.nextSession++
			st.sessions[se.Token] = se
			st.tokenSeq = su.seq + 1
			return okRes(s.sessionOut(se, st))
		})
		s.finish(w, res, err)
		return
	}
	res, err := s.do(ctx, func(st *state) result {
		u := s.findLogin(st, email, password)
		if u == nil {
			return badLogin()
		}
		se := &session{ID: st.nextSession, Created: s.now(), UserID: u.ID, ClientID: primaryClient(u), Token: randHex(32)}
		st.nextSession++
		st.sessions[se.Token] = se
		return okRes(s.sessionOut(se, st))
	})
	s.finish(w, res, err)
}

// ---- users ----------------------------------------------------------------

func (s *Server) denied(what string) result {
	if s.is("forbidden-as-not-found") {
		return notFound(what)
	}
	return forbidden(what)
}

func (s *Server) postUser(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.ctx(r)
	defer cancel()
	m, ok := s.readBody(w, r)
	if !ok {
		return
	}
	res, err := s.do(ctx, func(st *state) result {
		v := &validator{s: s}
		in := v.user(m, true)
		if v.errs != nil {
			return bad(v.errs)
		}
		if st.emailTaken(in.email, 0) {
			return bad([]apiError{{"email", "InvalidEmail", "the email address is already in use"}})
		}
		var ma marketApp
		if in.client != nil && in.client.app != nil {
			var found bool
			if ma, found = resolveApp(*in.client.app); !found {
				return notFound("marketplace app")
			}
		}
		now := s.now()
		u := &user{ID: st.nextUser, Created: now, PasswordChanged: now, APIKey: randHex(16)}
		st.nextUser++
		s.applyUser(u, in, now)
		st.users[u.ID] = u
		st.keys[u.APIKey] = u.ID
		if in.client != nil {
			s.newClient(st, u, *in.client, ma, true, now)
		}
		return okRes(s.userOut(u))
	})
	s.finish(w, res, err)
}

func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.ctx(r)
	defer cancel()
	if s.notFoundBeforeAuth(ctx, w, r, "userId") {
		return
	}
	c, ok := s.authenticate(ctx, w, r)
	if !ok {
		return
	}
	id, ok := pathID(r, "userId")
	if !ok {
		s.finish(w, notFound("user"), nil)
		return
	}
	res, err := s.do(ctx, func(st *state) result {
		u := st.users[id]
		if u == nil {
			return notFound("user")
		}
		if u.ID != c.userID {
			return s.denied("user")
		}
		return okRes(s.userOut(u))
	})
	s.finish(w, res, err)
}

// prepareUser runs the checks and validation of PUT /users inside the actor.
// It reports done=true with res set when the request stops there.
func (s *Server) prepareUser(st *state, c caller, id int64, m map[string]any) (u *user, in userIn, ma marketApp, res result, done bool) {
	u = st.users[id]
	if u == nil {
		return nil, in, ma, notFound("user"), true
	}
	v := &validator{s: s}
	early := s.is("validation-before-permission")
	if early {
		if in = v.user(m, false); v.errs != nil {
			return nil, in, ma, bad(v.errs), true
		}
	}
	if u.ID != c.userID && !s.is("put-user-owner-unchecked") {
		return nil, in, ma, s.denied("user"), true
	}
	if !early {
		in = v.user(m, false)
	}
	if v.errs != nil {
		if s.is("put-user-applied-before-validation") {
			// applied field by field while validating: the valid ones stick
			if !v.has("email") {
				u.Email = in.email
			}
			if !v.has("firstName") {
				u.FirstName = s.storeName(in.first)
			}
			if !v.has("lastName") {
				u.LastName = s.storeName(in.last)
			}
		}
		return nil, in, ma, bad(v.errs), true
	}
	if st.emailTaken(in.email, u.ID) {
		return nil, in, ma, bad([]apiError{{"email", "InvalidEmail", "the email address is already in use"}}), true
	}
	if in.client != nil && in.client.app != nil {
		var found bool
		if ma, found = resolveApp(*in.client.app); !found {
			return nil, in, ma, notFound("marketplace app"), true
		}
	}
	return u, in, ma, result{}, false
}

func (s *Server) putUser(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.ctx(r)
	defer cancel()
	if s.notFoundBeforeAuth(ctx, w, r, "userId") {
		return
	}
	c, ok := s.authenticate(ctx, w, r)
	if !ok {
		return
	}
	id, ok := pathID(r, "userId")
	if !ok {
		s.finish(w, notFound("user"), nil)
		return
	}
	m, ok := s.readBody(w, r)
	if !ok {
		return
	}
	if s.is("put-user-lost-update") {
		s.putUserLostUpdate(ctx, w, c, id, m)
		return
	}
	res, err := s.do(ctx, func(st *state) result {
		u, in, ma, res, done := s.prepareUser(st, c, id, m)
		if done {
			return res
		}
		now := s.now()
		s.applyUser(u, in, now)
		if in.client != nil {
			s.newClient(st, u, *in.client, ma, true, now)
		}
		if s.is("response-sanitize-wipes-password") {
			return result{status: http.StatusOK, ptr: u}
		}
		return okRes(s.userOut(u))
	})
	if err == nil && res.ptr != nil {
		u := res.ptr.(*user)
		u.Password = "" // never send the password back
		res.body = s.userOut(u)
	}
	s.finish(w, res, err)
}

func (s *Server) putUserLostUpdate(ctx context.Context, w http.ResponseWriter, c caller, id int64, m map[string]any) {
	res, err := s.do(ctx, func(st *state) result {
		u, in, ma, res, done := s.prepareUser(st, c, id, m)
		if done {
			return res
		}
		now := s.now()
		if in.client != nil {
			s.applyUser(u, in, now)
			s.newClient(st, u, *in.client, ma, true, now)
			return okRes(s.userOut(u))
		}
		cp := *u
		cp.Clients = append([]int64(nil), u.Clients...)
		s.applyUser(&cp, in, now)
		return result{status: http.StatusOK, ptr: &cp}
	})
	if err != nil || res.ptr == nil {
		s.finish(w, res, err)
		return
	}
	cp := res.ptr.(*user)
	time.Sleep(raceWindow)
	res, err = s.do(ctx, func(st *state) result {
		u := st.users[id]
		if u == nil {
			return notFound("user")
		}
		*u = *cp
		return okRes(s.userOut(u))
	})
	s.finish(w, res, err)
}

// ---- clients --------------------------------------------------------------

func (s *Server) postClient(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.ctx(r)
	defer cancel()
	c, ok := s.authenticate(ctx, w, r)
	if !ok {
		return
	}
	m, ok := s.readBody(w, r)
	if !ok {
		return
	}
	status := http.StatusOK
	if s.is("create-returns-201") {
		status = http.StatusCreated
	}
	split := s.is("post-clients-keeps-client-when-app-fails")
	var pendingApp *appIn
	res, err := s.do(ctx, func(st *state) result {
		u := st.users[c.userID]
		if u == nil {
			return errResult(http.StatusUnauthorized, "Unauthorized", "the caller no longer exists")
		}
		v := &validator{s: s}
		in := v.client(m, "", false)
		if v.errs != nil {
			return bad(v.errs)
		}
		if split {
			pendingApp = in.app
			cl := s.newClient(st, u, in, marketApp{}, false, s.now())
			return result{status: status, body: s.clientOut(cl), ptr: cl.ID}
		}
		var ma marketApp
		if in.app != nil {
			var found bool
			if ma, found = resolveApp(*in.app); !found {
				return notFound("marketplace app")
			}
		}
		cl := s.newClient(st, u, in, ma, true, s.now())
		return result{status: status, body: s.clientOut(cl)}
	})
	if err == nil && split && res.ptr != nil && pendingApp != nil {
		cid := res.ptr.(int64)
		ain := *pendingApp
		res2, err2 := s.do(ctx, func(st *state) result {
			ma, found := resolveApp(ain)
			if !found {
				return notFound("marketplace app")
			}
			s.newApp(st, st.nextApp, cid, ain, ma, s.now())
			st.nextApp++
			return okRes(nil)
		})
		if err2 != nil || res2.errs != nil {
			s.finish(w, res2, err2)
			return
		}
	}
	s.finish(w, res, err)
}

func (s *Server) getClient(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.ctx(r)
	defer cancel()
	if s.notFoundBeforeAuth(ctx, w, r, "clientId") {
		return
	}
	c, ok := s.authenticate(ctx, w, r)
	if !ok {
		return
	}
	id, ok := pathID(r, "clientId")
	if !ok {
		s.finish(w, notFound("client"), nil)
		return
	}
	res, err := s.do(ctx, func(st *state) result {
		cl := st.clients[id]
		if cl == nil {
			return notFound("client")
		}
		if !cl.Members[c.userID] {
			return s.denied("client")
		}
		return okRes(s.clientOut(cl))
	})
	s.finish(w, res, err)
}

func (s *Server) putClient(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.ctx(r)
	defer cancel()
	if s.notFoundBeforeAuth(ctx, w, r, "clientId") {
		return
	}
	c, ok := s.authenticate(ctx, w, r)
	if !ok {
		return
	}
	id, ok := pathID(r, "clientId")
	if !ok {
		s.finish(w, notFound("client"), nil)
		return
	}
	m, ok := s.readBody(w, r)
	if !ok {
		return
	}
	res, err := s.do(ctx, func(st *state) result {
		cl := st.clients[id]
		if cl == nil {
			return notFound("client")
		}
		v := &validator{s: s}
		var in clientIn
		early := s.is("validation-before-permission")
		if early {
			if in = v.client(m, "", true); v.errs != nil {
				return bad(v.errs)
			}
		}
		if !cl.Members[c.userID] && !s.is("put-client-membership-unchecked") {
			return s.denied("client")
		}
		if !early {
			in = v.client(m, "", true)
		}
		if v.errs != nil {
			return bad(v.errs)
		}
		cl.Name = s.storeName(in.name)
		cl.Line1, cl.City, cl.Postcode, cl.Country = in.line1, in.city, in.postcode, in.country
		if in.line2.set {
			if in.line2.null {
				cl.Line2 = nil
			} else {
				x := in.line2.val
				cl.Line2 = &x
			}
		}
		if in.vat.set {
			if in.vat.null {
				cl.VAT = nil
			} else {
				x := in.vat.val
				cl.VAT = &x
			}
		}
		if !in.currencyKnown { // only reachable with put-client-partial-on-unknown-currency
			return bad([]apiError{{"currency.id", "InvalidCurrencyId", "currency.id must be the id of a billing currency"}})
		}
		cl.Currency = in.currency
		return okRes(s.clientOut(cl))
	})
	s.finish(w, res, err)
}

// ---- apps -----------------------------------------------------------------

func (s *Server) callerClient(st *state, c caller) (*client, bool) {
	cid := c.clientID
	if cid == 0 {
		if u := st.users[c.userID]; u != nil {
			cid = primaryClient(u)
		}
	}
	cl := st.clients[cid]
	if cl == nil || !cl.Members[c.userID] {
		return nil, false
	}
	return cl, true
}

func (s *Server) postApp(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.ctx(r)
	defer cancel()
	c, ok := s.authenticate(ctx, w, r)
	if !ok {
		return
	}
	m, ok := s.readBody(w, r)
	if !ok {
		return
	}
	status := http.StatusOK
	if s.is("create-returns-201") {
		status = http.StatusCreated
	}
	type prepared struct {
		id, cid int64
		in      appIn
		ma      marketApp
	}
	prepare := func(st *state) (prepared, result, bool) {
		cl, found := s.callerClient(st, c)
		if !found {
			return prepared{}, forbidden("client (the caller has no client account)"), false
		}
		v := &validator{s: s}
		in := v.app(m, "")
		if v.errs != nil {
			return prepared{}, bad(v.errs), false
		}
		ma, found := resolveApp(in)
		if !found {
			return prepared{}, notFound("marketplace app"), false
		}
		return prepared{id: st.nextApp, cid: cl.ID, in: in, ma: ma}, result{}, true
	}
	if s.is("app-id-allocated-outside-actor") {
		res, err := s.do(ctx, func(st *state) result {
			p, res, good := prepare(st)
			if !good {
				return res
			}
			return result{status: status, ptr: p}
		})
		if err != nil || res.ptr == nil {
			s.finish(w, res, err)
			return
		}
		p := res.ptr.(prepared)
		time.Sleep(raceWindow)
		res, err = s.do(ctx, func(st *state) result {
			a := s.newApp(st, p.id, p.cid, p.in, p.ma, s.now())
			st.nextApp = p.id + 1
			return result{status: status, body: s.appOut(a)}
		})
		s.finish(w, res, err)
		return
	}
	res, err := s.do(ctx, func(st *state) result {
		p, res, good := prepare(st)
		if !good {
			return res
		}
		a := s.newApp(st, p.id, p.cid, p.in, p.ma, s.now())
		st.nextApp++
		return result{status: status, body: s.appOut(a)}
	})
	s.finish(w, res, err)
}

func (s *Server) getApp(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.ctx(r)
	defer cancel()
	if s.notFoundBeforeAuth(ctx, w, r, "appId") {
		return
	}
	c, ok := s.authenticate(ctx, w, r)
	if !ok {
		return
	}
	id, ok := pathID(r, "appId")
	if !ok {
		s.finish(w, notFound("app"), nil)
		return
	}
	res, err := s.do(ctx, func(st *state) result {
		a := st.apps[id]
		if a == nil {
			return notFound("app")
		}
		if cl := st.clients[a.ClientID]; cl == nil || !cl.Members[c.userID] {
			return s.denied("app")
		}
		return okRes(s.appOut(a))
	})
	s.finish(w, res, err)
}
