package events

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// Path ids are canonical decimal numbers; anything else names no resource.
var pathID = regexp.MustCompile(`^[1-9][0-9]{0,18}$`)

func parseID(s string) (int64, bool) {
	if !pathID.MatchString(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// target is the resource a PUT names by the path's id, for an authenticated
// caller: its id and the caller, or the answer that refuses the request
// (401, then 404 for an id of no resource that exists; the 404 first with
// faultNotFoundBeforeAuth). The caller holds the lock.
func (s *Server) target(c *call, exists func(id int64) bool) (int64, principal, reply, bool) {
	id, idOK := parseID(c.param)
	found := idOK && exists(id)
	if s.fault == faultNotFoundBeforeAuth && !found {
		return 0, principal{}, notFound(), false
	}
	who, authed := s.authenticate(c.r)
	if !authed {
		return 0, principal{}, unauthorized(), false
	}
	if !found {
		return 0, principal{}, notFound(), false
	}
	return id, who, reply{}, true
}

func (s *Server) putUser(c *call) reply {
	d, probs := s.readUser(c.body)
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()

	id, who, refused, found := s.target(c, func(id int64) bool { return st.users[id] != nil })
	if !found {
		return refused
	}
	u := st.users[id]
	if who.userID != id && s.fault != faultOtherUserUpdateAllowed {
		return forbidden()
	}
	if d.Email != "" {
		if other, taken := st.byEmail[strings.ToLower(d.Email)]; taken && other != id {
			probs.add("email", "EmailInUse", "Another user already has this email address")
		}
	}

	now := s.now()
	p := u.Profile
	p.Email, p.FirstName, p.Timezone = d.Email, d.FirstName, d.Timezone
	if !d.LastNameAbsent {
		p.LastName = d.LastName
	}
	p.SubscribeWelcome, p.SubscribeBlog, p.SubscribeHowto, p.SubscribeOnboarding = d.Subscribe[0], d.Subscribe[1], d.Subscribe[2], d.Subscribe[3]
	if s.fault == faultSubscribeHowtoCopiesBlog {
		p.SubscribeHowto = d.Subscribe[1]
	}
	if d.PhoneCountrySet {
		p.PhoneCountryID = d.PhoneCountryID
	}
	if d.PhoneNumberSet {
		p.PhoneNumber = d.PhoneNumber
	}
	if d.PhoneExtSet {
		p.PhoneExtension = d.PhoneExt
	}
	answeredEmail := p.Email
	if s.fault == faultEmailNotPersisted {
		p.Email = u.Profile.Email
	}
	userEvents := []event{userUpdated{At: now, UserID: id, Profile: p}}
	switch {
	case d.Password != nil:
		userEvents = append(userEvents, passwordChanged{At: now, UserID: id, Password: *d.Password})
	case s.fault == faultNullPasswordTouchesDate:
		userEvents = append(userEvents, passwordChanged{At: now, UserID: id, Password: u.Password})
	}

	if len(probs) > 0 {
		if s.fault == faultRefusedUserUpdateApplied && onlyUnder(probs, "client") {
			st.commit(userEvents...)
		}
		return invalid(probs)
	}
	evs := userEvents
	if d.Client != nil {
		evs = append(evs, s.clientEvents(*d.Client, id, now)...)
	}
	st.commit(evs...)
	view := s.userJSON(st.users[id])
	view.Email = answeredEmail
	return ok(view)
}

// onlyUnder tells whether every problem is about the nested object prefix.
func onlyUnder(p problems, prefix string) bool {
	for _, e := range p {
		if e.FieldName != prefix && !strings.HasPrefix(e.FieldName, prefix+".") {
			return false
		}
	}
	return true
}

// clientEvents creates a client, and its first app if one was given; the
// caller commits them with its own events or not at all.
func (s *Server) clientEvents(d clientDraft, byUser int64, now time.Time) []event {
	st := s.st
	cid := st.nextID(kindClient)
	evs := []event{clientCreated{At: now, ClientID: cid, ByUserID: byUser, Details: d.Details}}
	if d.App != nil {
		evs = append(evs, s.appEvent(*d.App, cid, now))
	}
	return evs
}

func (s *Server) appEvent(d appDraft, clientID int64, now time.Time) appCreated {
	keyLen := 32
	if s.fault == faultWriteKey64Hex {
		keyLen = 64
	}
	return appCreated{
		At: now, AppID: s.st.nextID(kindApp), ClientID: clientID,
		Name: d.Market.Name, PlatformID: d.PlatformID, Hash: d.Market.Hash,
		PlanID: d.PlanID, WriteKey: randomHex(keyLen),
	}
}

func (s *Server) postClient(c *call) reply {
	var probs problems
	var d clientDraft
	if f, ok := readBody(c.body, &probs); ok {
		d = s.readClient(f, true, false)
	}
	return s.create(c, probs, func(st *store, who principal) reply {
		evs := s.clientEvents(d, who.userID, s.now())
		st.commit(evs...)
		return ok(s.clientJSON(st.clients[evs[0].(clientCreated).ClientID]))
	})
}

// create answers a POST under the store's lock: 401 to a caller not
// authenticated, 400 to a body with problems, else what made answers.
func (s *Server) create(c *call, probs problems, made func(st *store, who principal) reply) reply {
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	who, authed := s.authenticate(c.r)
	if !authed {
		return unauthorized()
	}
	if len(probs) > 0 {
		return invalid(probs)
	}
	return made(st, who)
}

func (s *Server) putClient(c *call) reply {
	var probs problems
	var d clientDraft
	if f, ok := readBody(c.body, &probs); ok {
		d = s.readClient(f, false, true)
	}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()

	id, who, refused, found := s.target(c, func(id int64) bool { return st.clients[id] != nil })
	if !found {
		return refused
	}
	cl := st.clients[id]
	if !cl.Users[who.userID] {
		if s.fault == faultForeignClientAs404 {
			return notFound()
		}
		return forbidden()
	}
	if len(probs) > 0 {
		return invalid(probs)
	}
	if d.NameAbsent {
		d.Details.Name = cl.Details.Name
	}
	st.commit(clientUpdated{At: s.now(), ClientID: id, Details: d.Details})
	return ok(s.clientJSON(st.clients[id]))
}

// postApp creates the app for the client the caller is acting for: the
// session's client, or with an api key the client the user signed up with.
func (s *Server) postApp(c *call) reply {
	var probs problems
	var d appDraft
	if f, ok := readBody(c.body, &probs); ok {
		if s.fault == faultAppNameRequiredWithHash && !hasText(f, "name") {
			probs.add("name", "InvalidName", "No app name was provided")
		}
		d = s.readApp(f)
	}
	return s.create(c, probs, func(st *store, who principal) reply {
		e := s.appEvent(d, who.clientID, s.now())
		st.commit(e)
		return ok(s.appJSON(st.apps[e.AppID]))
	})
}

func hasText(f *fields, key string) bool {
	raw, ok := f.m[key]
	return ok && kindOf(raw) == text && strings.TrimSpace(str(raw)) != ""
}

func (s *Server) postSession(c *call) reply {
	d, probs := s.readLogin(c.body)
	if len(probs) > 0 {
		return invalid(probs)
	}
	st := s.st
	st.mu.Lock()
	defer st.mu.Unlock()
	uid, known := st.byEmail[strings.ToLower(d.Email)]
	var u *userView
	if known {
		u = st.users[uid]
	}
	if u == nil || !s.passwordMatches(u.Password, d.Password) {
		// The same answer for an unknown email and a wrong password, so that
		// logging in cannot be used to find out who has an account.
		return invalid(problems{{FieldName: "password", Error: "InvalidCredentials", Message: "The email address or password is not correct"}})
	}
	e := sessionOpened{At: s.now(), SessionID: st.nextID(kindSession), UserID: uid, ClientID: u.Clients[0], Token: newToken()}
	st.commit(e)
	return ok(s.sessionJSON(st.sessions[e.Token]))
}

func (s *Server) passwordMatches(stored, given string) bool {
	if s.fault == faultLoginPasswordCaseInsensitive {
		return strings.EqualFold(stored, given)
	}
	return stored == given
}

// getPlatforms needs no credentials: the list is public reference data.
func (s *Server) getPlatforms(*call) reply {
	items := views(s.cat.platforms, func(p platform) idName { return idName(p) })
	if s.fault == faultPlatformsBareArray {
		return ok(items)
	}
	return ok(platformList{Platforms: items, Total: len(items)})
}

func (s *Server) getCurrencies(c *call) reply {
	if r, authed := s.mustAuthenticate(c); !authed {
		return r
	}
	items := views(s.cat.currencies, func(x currency) currencyJSON { return currencyJSON(x) })
	return ok(currencyList{Currencies: items, Total: len(items)})
}

func (s *Server) getPlans(c *call) reply {
	if r, authed := s.mustAuthenticate(c); !authed {
		return r
	}
	items := views(s.cat.plans, func(x plan) wire.PlanItem {
		return wire.PlanItem{ID: x.ID, Name: x.Name, Plan: wire.Plan{IsLite: x.IsLite, IsPro: x.IsPro, IsDynamic: x.IsDynamic, NeedBilling: x.NeedBilling}}
	})
	return ok(planList{Plans: items, Total: len(items)})
}

// views are the items of a collection as its answer lists them.
func views[T, V any](xs []T, view func(T) V) []V {
	out := make([]V, 0, len(xs))
	for _, x := range xs {
		out = append(out, view(x))
	}
	return out
}

func (s *Server) mustAuthenticate(c *call) (reply, bool) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	if _, authed := s.authenticate(c.r); !authed {
		return unauthorized(), false
	}
	return reply{}, true
}
