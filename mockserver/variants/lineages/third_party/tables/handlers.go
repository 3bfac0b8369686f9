package tables

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// Every handler checks, in order: credentials (401), the path id (404) and
// the caller's right to the resource (403), then the body (400), then the
// references the body makes (404). Only then does it stage rows and commit.

func (s *Server) commit(x *tx) {
	s.t.commit(x, commitOptions{
		staleEmailIndex: s.is(fEmailIndexStale),
		keepOldPassword: s.is(fOldPasswordStillWorks),
	})
}

func notFoundf(what string, id int64) *reply {
	r := notFound("no " + what + " with id " + strconv.FormatInt(id, 10))
	return &r
}

// authedTarget reads the id of the path value param (a what) and
// authenticates the caller; found is whether exists knows the id. With
// fNotFoundBeforeAuth a missing one is answered 404 before authentication.
func (s *Server) authedTarget(r *http.Request, param, what string, exists func(int64) bool) (c caller, id int64, found bool, rep *reply) {
	id, valid := pathID(r.PathValue(param))
	found = valid && exists(id)
	if !found && s.is(fNotFoundBeforeAuth) {
		return caller{}, 0, false, notFoundf(what, id)
	}
	c, authed := s.authenticate(r)
	if !authed {
		rep := unauthorized()
		return caller{}, 0, false, &rep
	}
	return c, id, found, nil
}

// userTarget resolves /users/{userId}: only a user may view or modify
// their own account.
func (s *Server) userTarget(r *http.Request) (caller, int64, *reply) {
	c, id, found, rep := s.authedTarget(r, "userId", "user", func(id int64) bool { _, ok := s.t.users[id]; return ok })
	if rep != nil {
		return c, 0, rep
	}
	if !found {
		return c, 0, notFoundf("user", id)
	}
	if id != c.userID {
		if s.is(fOtherUser404) {
			return c, id, notFoundf("user", id)
		}
		rep := forbidden("a user may only view or modify their own account")
		return c, id, &rep
	}
	return c, id, nil
}

// clientTarget resolves /clients/{clientId}: the caller must be one of the
// client's users.
func (s *Server) clientTarget(r *http.Request, modify bool) (caller, int64, *reply) {
	c, id, found, rep := s.authedTarget(r, "clientId", "client", func(id int64) bool { _, ok := s.t.clients[id]; return ok })
	if rep != nil {
		return c, 0, rep
	}
	member := s.t.isMember(c.userID, id)
	if !member && s.is(fMissingClient403) {
		rep := forbidden("the caller is not a user of this client")
		return c, id, &rep
	}
	if !found {
		return c, 0, notFoundf("client", id)
	}
	if !member && !(modify && s.is(fClientPermissionSkipped)) {
		rep := forbidden("the caller is not a user of this client")
		return c, id, &rep
	}
	return c, id, nil
}

func (s *Server) uniqueAPIKey() string {
	for {
		k := newAPIKey()
		if _, used := s.t.byAPIKey[k]; !used {
			return k
		}
	}
}

func (s *Server) uniqueToken() string {
	for {
		t := newToken()
		if _, used := s.t.byToken[t]; !used {
			return t
		}
	}
}

// stageApp resolves the references of an app (404 when one names nothing)
// and stages the app row, plus a marketplace row when name and platform
// describe a store app not yet known. Nothing is staged on failure.
func (s *Server) stageApp(x *tx, in appInput, clientID int64, at time.Time) (appRow, *reply) {
	a := appRow{clientID: clientID, created: at}
	var newMarket *marketappRow
	if in.hash != "" {
		m, known := s.t.marketapps[in.hash]
		if !known {
			r := notFound("no marketplace app with hash " + in.hash)
			return appRow{}, &r
		}
		a.name, a.platformID, a.hash = m.name, m.platformID, m.hash
		if _, known := s.t.platforms[in.platformID]; known && s.is(fPlatformFromBodyWithHash) {
			a.platformID = in.platformID
		}
	} else {
		if _, known := s.t.platforms[in.platformID]; !known {
			return appRow{}, notFoundf("platform", in.platformID)
		}
		m, found := s.t.marketByName(x, in.platformID, in.name)
		if !found {
			m = marketappRow{hash: s.unusedHash(x), name: in.name, platformID: in.platformID}
			newMarket = &m
		}
		a.name, a.platformID, a.hash = in.name, in.platformID, m.hash
	}
	a.planID = in.planID
	if a.planID == 0 {
		a.planID = s.t.litePlanID
	} else if _, known := s.t.plans[a.planID]; !known {
		return appRow{}, notFoundf("subscription plan", a.planID)
	}
	a.writeKey = newWriteKey()
	if s.is(fWriteKeyUUID) {
		a.writeKey = newUUID()
	}
	a.id = x.newID()
	if newMarket != nil {
		x.marketapps = append(x.marketapps, *newMarket)
	}
	x.apps = append(x.apps, a)
	return a, nil
}

func (s *Server) unusedHash(x *tx) string {
	for {
		h := newHash()
		if _, used := s.t.marketapps[h]; used {
			continue
		}
		clash := false
		for _, m := range x.marketapps {
			clash = clash || m.hash == h
		}
		if !clash {
			return h
		}
	}
}

// stageClient stages a new client, the caller's membership of it and, when
// asked, its first app: all of them or, on any failure, none.
func (s *Server) stageClient(x *tx, in clientInput, userID int64, at time.Time) (clientRow, *reply) {
	cur, known := s.t.currencies[in.currencyID]
	if !known {
		return clientRow{}, notFoundf("billing currency", in.currencyID)
	}
	c := clientRow{
		id: x.newID(), created: at, name: in.name,
		addressLine1: in.line1, addressLine2: in.line2, addressCity: in.city,
		postcode: in.postcode, country: in.land, vat: in.vat,
		currencyID: cur.id, currencyCode: cur.code,
	}
	if in.app != nil {
		if _, fail := s.stageApp(x, *in.app, c.id, at); fail != nil {
			if s.is(fClientAppHalfCreated) {
				// The client is inserted as its own statement before the
				// app, and the app's failure does not roll it back.
				y := s.t.begin()
				y.ids[c.id] = struct{}{}
				y.clients = append(y.clients, c)
				y.members = append(y.members, membership{userID, c.id})
				s.commit(y)
			}
			return clientRow{}, fail
		}
	}
	x.clients = append(x.clients, c)
	x.members = append(x.members, membership{userID, c.id})
	return c, nil
}

func (s *Server) postUser(r *http.Request) reply {
	in, fail := input(r, func(o *object, errs *[]apiError) userInput { return s.readUser(o, errs, true, 0) })
	if fail != nil {
		return *fail
	}
	x := s.t.begin()
	at := now()
	u := userRow{
		id: x.newID(), created: at, email: in.email,
		firstName: in.firstName, lastName: in.lastName, subscribe: in.subscribe,
		phoneCountryID: in.phoneCountry, phoneNumber: *in.phoneNumber, phoneExtension: in.phoneExt,
		timezone: in.timezone, apiKey: s.uniqueAPIKey(),
	}
	u.setPassword(*in.password, at)
	x.users = append(x.users, u)
	if in.client != nil {
		if _, fail := s.stageClient(x, *in.client, u.id, at); fail != nil {
			return *fail
		}
	}
	s.commit(x)
	return success(s.userView(u))
}

func (s *Server) getUser(r *http.Request) reply {
	_, id, fail := s.userTarget(r)
	if fail != nil {
		return *fail
	}
	return success(s.userView(s.t.users[id]))
}

func (s *Server) putUser(r *http.Request) reply {
	_, id, fail := s.userTarget(r)
	appliedAnyway := false
	if fail != nil {
		if fail.status != http.StatusForbidden || !s.is(fForbiddenUserPutApplied) {
			return *fail
		}
		appliedAnyway = true
	}
	obj, perr := body(r)
	if perr != nil {
		return invalid(perr)
	}
	old := s.t.users[id]
	var errs []apiError
	in := s.readUser(obj, &errs, false, id)
	if len(errs) > 0 {
		if s.is(fPutUserPartialWrite) {
			s.writeValidPart(old, in)
		}
		return invalid(errs)
	}

	x := s.t.begin()
	at := now()
	u := old
	u.email, u.lastName, u.subscribe, u.timezone = in.email, in.lastName, in.subscribe, in.timezone
	if !in.keepFirstName {
		u.firstName = in.firstName
	}
	if in.password != nil {
		u.setPassword(*in.password, at)
	} else if s.is(fPasswordNullBumpsDate) {
		u.pwChanged = at
	}
	if in.phoneCountry != 0 {
		u.phoneCountryID = in.phoneCountry
	}
	if in.phoneNumber != nil {
		u.phoneNumber = *in.phoneNumber
	}
	if in.phoneExtSet {
		u.phoneExtension = in.phoneExt
	}
	x.users = append(x.users, u)
	if in.client != nil {
		if _, fail := s.stageClient(x, *in.client, u.id, at); fail != nil {
			return *fail
		}
	}
	s.commit(x)
	if appliedAnyway {
		return forbidden("a user may only view or modify their own account")
	}
	return success(s.userView(u))
}

// writeValidPart is the partial-write fault: the fields that passed are
// written one by one, as a field-by-field updater would.
func (s *Server) writeValidPart(old userRow, in userInput) {
	u := old
	if in.email != "" {
		u.email = in.email
	}
	if in.firstName != "" {
		u.firstName = in.firstName
	}
	if in.lastName != "" {
		u.lastName = in.lastName
	}
	x := s.t.begin()
	x.users = append(x.users, u)
	s.commit(x)
}

func (s *Server) postSession(r *http.Request) reply {
	obj, perr := body(r)
	if perr != nil {
		return invalid(perr)
	}
	var errs []apiError
	f := newForm(obj, "", &errs, "email", "password", "clientId")
	email, _ := f.get("email")
	emailStr, emailOK := email.(string)
	if !emailOK || emailStr == "" {
		f.fail("email", "InvalidEmail", "the email is required, as a string")
	}
	pw, _ := f.get("password")
	pwStr, pwOK := pw.(string)
	if !pwOK || pwStr == "" {
		f.fail("password", "InvalidPassword", "the password is required, as a string")
	}
	wanted, _ := f.id("clientId", "InvalidClientId")
	f.finish()
	if len(errs) > 0 {
		return invalid(errs)
	}

	uid, known := s.t.byEmail[strings.ToLower(emailStr)]
	u := s.t.users[uid]
	if !known || !s.t.passwordMatches(u, pwStr, s.is(fOldPasswordStillWorks)) {
		return reply{http.StatusUnauthorized, errorBody{"InvalidCredentials", "the email or the password is wrong"}}
	}
	clientID := s.t.homeClient(uid)
	if wanted != 0 {
		if _, exists := s.t.clients[wanted]; !exists {
			return *notFoundf("client", wanted)
		}
		if !s.t.isMember(uid, wanted) {
			return forbidden("the user is not a user of this client")
		}
		clientID = wanted
	}
	x := s.t.begin()
	at := now()
	sess := sessionRow{
		id: x.newID(), created: at, expires: at.Add(sessionLife),
		userID: uid, creator: uid, clientID: clientID, token: s.uniqueToken(),
	}
	x.sessions = append(x.sessions, sess)
	s.commit(x)
	return success(s.sessionView(sess))
}

func (s *Server) listClients(r *http.Request) reply {
	c, authed := s.authenticate(r)
	if !authed {
		return unauthorized()
	}
	items := []wire.Client{}
	for _, id := range s.t.clientsOf[c.userID] {
		items = append(items, clientView(s.t.clients[id]))
	}
	return success(collection("clients", items, len(items)))
}

func (s *Server) postClient(r *http.Request) reply {
	c, authed := s.authenticate(r)
	if !authed {
		return unauthorized()
	}
	in, fail := input(r, func(o *object, errs *[]apiError) clientInput { return s.readClient(o, "", errs, false) })
	if fail != nil {
		return *fail
	}
	x := s.t.begin()
	cl, fail := s.stageClient(x, in, c.userID, now())
	if fail != nil {
		return *fail
	}
	s.commit(x)
	return success(clientView(cl))
}

func (s *Server) getClient(r *http.Request) reply {
	_, id, fail := s.clientTarget(r, false)
	if fail != nil {
		return *fail
	}
	return success(clientView(s.t.clients[id]))
}

func (s *Server) putClient(r *http.Request) reply {
	_, id, fail := s.clientTarget(r, true)
	if fail != nil {
		return *fail
	}
	in, fail := input(r, func(o *object, errs *[]apiError) clientInput { return s.readClient(o, "", errs, true) })
	if fail != nil {
		return *fail
	}
	cur, known := s.t.currencies[in.currencyID]
	if !known {
		return *notFoundf("billing currency", in.currencyID)
	}
	// PUT replaces the client's details: optional fields left out are
	// cleared.
	c := s.t.clients[id]
	c.name, c.addressLine1, c.addressLine2, c.addressCity = in.name, in.line1, in.line2, in.city
	c.postcode, c.country, c.vat = in.postcode, in.land, in.vat
	if c.currencyID != cur.id && !s.is(fCurrencyCodeStale) {
		c.currencyCode = cur.code
	}
	c.currencyID = cur.id
	x := s.t.begin()
	x.clients = append(x.clients, c)
	s.commit(x)
	return success(clientView(c))
}

func (s *Server) listApps(r *http.Request) reply {
	_, id, fail := s.clientTarget(r, false)
	if fail != nil {
		return *fail
	}
	items := []appJSON{}
	for _, a := range s.t.appsOf[id] {
		items = append(items, s.appView(s.t.apps[a]))
	}
	return success(collection("apps", items, len(items)))
}

func (s *Server) postApp(r *http.Request) reply {
	c, authed := s.authenticate(r)
	if !authed {
		return unauthorized()
	}
	clientID := s.currentClient(c)
	if clientID == 0 {
		return forbidden("the caller is not a user of any client, so an app has no client to belong to")
	}
	in, fail := input(r, func(o *object, errs *[]apiError) appInput { return s.readApp(o, "", errs) })
	if fail != nil {
		return *fail
	}
	x := s.t.begin()
	a, fail := s.stageApp(x, in, clientID, now())
	if fail != nil {
		return *fail
	}
	s.commit(x)
	return success(s.appView(a))
}

// input reads the body of r and checks it with read: the input, or the
// 400 that refuses it.
func input[T any](r *http.Request, read func(o *object, errs *[]apiError) T) (T, *reply) {
	var in T
	obj, perr := body(r)
	if perr != nil {
		rep := invalid(perr)
		return in, &rep
	}
	var errs []apiError
	in = read(obj, &errs)
	if len(errs) > 0 {
		rep := invalid(errs)
		return in, &rep
	}
	return in, nil
}

// The catalogue collections need credentials like everything but sign-up
// and login.

func (s *Server) listPlatforms(r *http.Request) reply {
	if _, authed := s.authenticate(r); !authed {
		return unauthorized()
	}
	items := []platformJSON{}
	for _, id := range s.t.platformOrder {
		items = append(items, platformJSON{id, s.t.platforms[id].name})
	}
	if s.is(fCollectionBareArray) {
		return success(items)
	}
	return success(collection("platforms", items, len(items)))
}

func (s *Server) listCurrencies(r *http.Request) reply {
	return listed(s, r, "currencies", s.t.currencyOrder, s.t.currencies, func(c currencyRow) currencyItemJSON {
		return currencyItemJSON{c.id, c.code, c.name}
	})
}

func (s *Server) listPlans(r *http.Request) reply {
	return listed(s, r, "plans", s.t.planOrder, s.t.plans, func(p planRow) planJSON {
		return planJSON{p.id, p.name, planFlagsJSON{p.lite, p.pro, p.dynamic, p.billed}}
	})
}

func (s *Server) listPhoneCountries(r *http.Request) reply {
	return listed(s, r, "phonecountries", s.t.phoneOrder, s.t.phoneCountries, func(p phoneCountryRow) wire.PhoneCountry {
		return wire.PhoneCountry{ID: p.id, Name: p.label(), DialCode: p.dialCode}
	})
}

func (s *Server) listMarketapps(r *http.Request) reply {
	return listed(s, r, "marketapps", s.t.marketOrder, s.t.marketapps, func(m marketappRow) marketappJSON {
		return marketappJSON{m.hash, m.name, platformJSON{m.platformID, s.t.platforms[m.platformID].name}}
	})
}

// listed answers an authenticated caller the collection name of the rows
// of table, in order, each as item writes it.
func listed[K comparable, R, J any](s *Server, r *http.Request, name string, order []K, table map[K]R, item func(R) J) reply {
	if _, authed := s.authenticate(r); !authed {
		return unauthorized()
	}
	items := []J{}
	for _, k := range order {
		items = append(items, item(table[k]))
	}
	return success(collection(name, items, len(items)))
}
