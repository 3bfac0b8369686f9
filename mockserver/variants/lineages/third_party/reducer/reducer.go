package reducer

import (
	"crypto/subtle"
	"slices"
	"strings"
	"time"
)

// Apply is the functional core: it maps (state, command) to a new state and
// a result. It performs no I/O, takes no locks and reads no clock.
func Apply(st State, cmd Command, now time.Time, ids IDSource) (State, Result, error) {
	switch c := cmd.(type) {
	case Rejected:
		if !c.Public {
			if _, f := authenticate(st, c.Auth, now); f != nil {
				return st, Result{}, f
			}
		}
		return st, Result{}, c.Failure
	case GetCatalogue:
		return applyCatalogue(st, c)
	case CreateUser:
		return applyCreateUser(st, c, now, ids)
	case CreateSession:
		return applyCreateSession(st, c, now, ids)
	}
	caller, f := authenticate(st, cmd.creds(), now)
	if f != nil {
		return st, Result{}, f
	}
	switch c := cmd.(type) {
	case UpdateUser:
		return applyUpdateUser(st, c, caller, now, ids)
	case GetUser:
		return applyGetUser(st, c, caller)
	case CreateClient:
		return applyCreateClient(st, c, caller, now, ids)
	case UpdateClient:
		return applyUpdateClient(st, c, caller)
	case GetClient:
		return applyGetClient(st, c, caller)
	case CreateApp:
		return applyCreateApp(st, c, caller, now, ids)
	case GetApp:
		return applyGetApp(st, c, caller)
	case ListApps:
		return applyListApps(st, caller)
	}
	return st, Result{}, fail(404, "NotFound", "unknown command")
}

func ok(st State, body any, changed bool) (State, Result, error) {
	return st, Result{Status: 200, Body: body, changed: changed}, nil
}

// ---- authentication pre-step ----

type Caller struct {
	UserID   int64
	ClientID int64
	Token    string // session token, "" for api key
}

func unauthorized(msg string) *Failure { return fail(401, "Unauthorized", msg) }

func authenticate(st State, c Credentials, now time.Time) (Caller, *Failure) {
	if !c.HasAuthorization && !c.HasSessionHeader && !(c.HasSessionQuery && !st.has("session-token-query-ignored")) {
		if st.has("missing-auth-403") {
			return Caller{}, fail(403, "Forbidden", "no credentials")
		}
		return Caller{}, unauthorized("authentication required")
	}
	if c.HasAuthorization {
		scheme, key, found := strings.Cut(strings.TrimSpace(c.Authorization), " ")
		if !found && st.has("api-key-without-scheme-accepted") {
			scheme, key, found = "api-key", scheme, true
		}
		if !found || !strings.EqualFold(scheme, "api-key") {
			return Caller{}, unauthorized("Authorization must be \"api-key <API_KEY>\"")
		}
		uid, ok := st.apiKeys.Get(strings.TrimSpace(key))
		if !ok {
			return Caller{}, unauthorized("unknown api key")
		}
		u, _ := st.users.Get(uid)
		return Caller{UserID: uid, ClientID: primaryClient(u)}, nil
	}
	tok := c.SessionHeader
	if !c.HasSessionHeader {
		tok = c.SessionQuery
	}
	s, ok := st.sessions.Get(tok)
	if !ok {
		if st.has("api-key-as-session-token-accepted") {
			if uid, ok := st.apiKeys.Get(tok); ok {
				u, _ := st.users.Get(uid)
				return Caller{UserID: uid, ClientID: primaryClient(u)}, nil
			}
		}
		return Caller{}, unauthorized("unknown session token")
	}
	if !now.Before(s.Created.Add(sessionLifetime)) {
		return Caller{}, unauthorized("session expired")
	}
	return Caller{UserID: s.UserID, ClientID: s.ClientID, Token: tok}, nil
}

func primaryClient(u User) int64 {
	if len(u.ClientIDs) > 0 {
		return u.ClientIDs[0]
	}
	return 0
}

func isMember(st State, clientID int64, caller Caller) bool {
	if st.has("client-check-compares-user-id") {
		return clientID == caller.UserID
	}
	c, ok := st.clients.Get(clientID)
	return ok && slices.Contains(c.Members, caller.UserID)
}

func notFound(what string) *Failure { return fail(404, "NotFound", what+" not found") }

// missing is the answer for an id that does not exist.
func missing(st State, what string) *Failure {
	if st.has("unknown-id-403") {
		return fail(403, "Forbidden", "you may not access this "+what)
	}
	return notFound(what)
}

func forbidden(what string) *Failure {
	return fail(403, "Forbidden", "you may not access this "+what)
}

// ---- users ----

func applyGetUser(st State, c GetUser, caller Caller) (State, Result, error) {
	u, found := st.users.Get(c.UserID)
	if !found {
		return st, Result{}, missing(st, "user")
	}
	if u.ID != caller.UserID {
		return st, Result{}, forbidden("user")
	}
	return ok(st, userView(st, u), false)
}

func applyUpdateUser(st State, c UpdateUser, caller Caller, now time.Time, ids IDSource) (State, Result, error) {
	u, found := st.users.Get(c.UserID)
	if !found {
		return st, Result{}, missing(st, "user")
	}
	if u.ID != caller.UserID && !st.has("put-user-ownership-unchecked") {
		if st.has("foreign-user-404") {
			return st, Result{}, notFound("user")
		}
		return st, Result{}, forbidden("user")
	}
	b := c.Body
	oldKey := foldEmail(u.Email)
	login, _ := st.logins.Get(oldKey)

	// Faults: writes into the shared trie before validation has finished.
	if st.has("put-user-password-set-before-client-validation") && b.Password.Given() && !b.Password.Bad && len(b.Password.V) >= 6 {
		st.logins.mutSet(oldKey, Login{UserID: u.ID, Password: b.Password.V})
	}
	if st.has("email-index-moved-before-validation") && b.Email.Given() && !b.Email.Bad && foldEmail(b.Email.V) != oldKey {
		st.logins.mutDelete(oldKey)
		st.logins.mutSet(foldEmail(b.Email.V), login)
	}

	v := vctx{st}
	if errs := v.userBody(b, u.ID, true, c.emailPrechecked); len(errs) > 0 {
		return st, Result{}, invalid(errs)
	}
	var app *Marketapp
	if b.Client != nil && b.Client.App != nil {
		m, f := resolveMarketapp(*b.Client.App)
		if f != nil {
			return st, Result{}, f
		}
		app = &m
	}

	next := st
	nu := u
	if b.Email.Set {
		nu.Email = b.Email.V
		if st.has("email-lowercased-on-store") {
			nu.Email = foldEmail(nu.Email)
		}
	}
	if b.FirstName.Set {
		nu.FirstName = b.FirstName.V
	}
	if b.LastName.Set {
		nu.LastName = b.LastName.V
	}
	setBool := func(dst *bool, f Field[bool]) {
		if f.Set {
			*dst = f.V
		}
	}
	setBool(&nu.SubscribeWelcome, b.SubscribeWelcome)
	setBool(&nu.SubscribeBlog, b.SubscribeBlog)
	setBool(&nu.SubscribeHowto, b.SubscribeHowto)
	setBool(&nu.SubscribeOnboarding, b.SubscribeOnboarding)
	if b.Timezone.Set {
		nu.Timezone = b.Timezone.V
	}
	if b.PhoneCountryID.Set {
		nu.PhoneCountryID = b.PhoneCountryID.V
	}
	if b.PhoneNumber.Set {
		nu.PhoneNumber = b.PhoneNumber.V
	}
	if b.PhoneExtension.Set {
		if b.PhoneExtension.Null {
			nu.PhoneExtension = nil
		} else {
			e := b.PhoneExtension.V
			nu.PhoneExtension = &e
		}
	}
	newLogin := login
	pwChanged := b.Password.Given()
	if pwChanged {
		newLogin.Password = storedPassword(st, b.Password.V)
		nu.PasswordLastChanged = now
		if st.has("login-index-keeps-old-password") {
			newLogin.Password = login.Password
		}
	} else if st.has("password-last-changed-on-every-put") {
		nu.PasswordLastChanged = now
	}
	newKey := foldEmail(nu.Email)
	if newKey != oldKey && !st.has("email-index-not-updated-on-change") {
		next.logins = next.logins.Delete(oldKey)
	} else {
		newKey = oldKey
	}
	next.logins = next.logins.Set(newKey, newLogin)

	if pwChanged && st.has("password-change-revokes-sessions") {
		next.sessions.Range(func(tok string, s Session) bool {
			if s.UserID == u.ID && tok != caller.Token {
				next.sessions = next.sessions.Delete(tok)
			}
			return true
		})
	}
	next.users = next.users.Set(nu.ID, nu)
	if b.Client != nil {
		next, _ = createClient(next, *b.Client, nu.ID, app, now, ids)
	}
	nu, _ = next.users.Get(u.ID)
	return ok(next, userView(next, nu), true)
}

func storedPassword(st State, p string) string {
	if st.has("password-trimmed-on-store") {
		return strings.TrimSpace(p)
	}
	return p
}

func applyCreateUser(st State, c CreateUser, now time.Time, ids IDSource) (State, Result, error) {
	b := c.Body
	v := vctx{st}
	if errs := v.userBody(b, 0, false, false); len(errs) > 0 {
		return st, Result{}, invalid(errs)
	}
	var app *Marketapp
	if b.Client != nil && b.Client.App != nil {
		m, f := resolveMarketapp(*b.Client.App)
		if f != nil {
			return st, Result{}, f
		}
		app = &m
	}
	next := st
	u := User{
		ID: next.nextUser, Created: now, Email: b.Email.V, PasswordLastChanged: now,
		FirstName: b.FirstName.V, LastName: b.LastName.V,
		SubscribeWelcome: b.SubscribeWelcome.V, SubscribeBlog: b.SubscribeBlog.V,
		SubscribeHowto: b.SubscribeHowto.V, SubscribeOnboarding: b.SubscribeOnboarding.V,
		Timezone: "Europe/London", PhoneCountryID: b.PhoneCountryID.V, PhoneNumber: b.PhoneNumber.V,
	}
	if st.has("email-lowercased-on-store") {
		u.Email = foldEmail(u.Email)
	}
	if b.Timezone.Set {
		u.Timezone = b.Timezone.V
	}
	if b.PhoneExtension.Given() {
		e := b.PhoneExtension.V
		u.PhoneExtension = &e
	}
	next.nextUser++
	next.users = next.users.Set(u.ID, u)
	next.logins = next.logins.Set(foldEmail(b.Email.V), Login{UserID: u.ID, Password: storedPassword(st, b.Password.V)})
	if b.Client != nil {
		next, _ = createClient(next, *b.Client, u.ID, app, now, ids)
	}
	u, _ = next.users.Get(u.ID)
	return ok(next, userView(next, u), true)
}

// ---- sessions ----

func applyCreateSession(st State, c CreateSession, now time.Time, ids IDSource) (State, Result, error) {
	var errs []FieldError
	if !c.Email.Given() || c.Email.Bad {
		errs = append(errs, fe("email", "InvalidEmail", "email is required"))
	}
	if !c.Password.Given() || c.Password.Bad {
		errs = append(errs, fe("password", "InvalidPassword", "password is required"))
	}
	if c.ClientID.Set && (c.ClientID.Null || c.ClientID.Bad) {
		errs = append(errs, fe("clientId", "InvalidClientId", "clientId must be a number"))
	}
	if len(errs) > 0 {
		return st, Result{}, invalid(errs)
	}
	l, found := st.logins.Get(foldEmail(c.Email.V))
	if !found || subtle.ConstantTimeCompare([]byte(l.Password), []byte(c.Password.V)) != 1 {
		return st, Result{}, unauthorized("invalid email or password")
	}
	u, _ := st.users.Get(l.UserID)
	clientID := primaryClient(u)
	if c.ClientID.Set {
		clientID = c.ClientID.V
		if _, exists := st.clients.Get(clientID); !exists {
			return st, Result{}, missing(st, "client")
		}
		if !slices.Contains(u.ClientIDs, clientID) && !st.has("session-client-membership-unchecked") {
			return st, Result{}, forbidden("client")
		}
	}
	s := Session{ID: st.nextSession, Created: now, CreatorUserID: u.ID, UserID: u.ID, ClientID: clientID, Token: ids.Hex(64)}
	next := st
	next.nextSession++
	next.sessions = next.sessions.Set(s.Token, s)
	return ok(next, sessionView(s), true)
}

// ---- clients ----

func resolveMarketapp(b AppBody) (Marketapp, *Failure) {
	if b.Hash.Given() {
		m, found := findMarketappByHash(b.Hash.V)
		if !found {
			return Marketapp{}, notFound("marketplace app")
		}
		return m, nil
	}
	m, found := findMarketappByName(b.Name.V, b.PlatformID.V)
	if !found {
		return Marketapp{}, notFound("marketplace app")
	}
	return m, nil
}

// createClient writes a validated client (and its first app) for creator.
func createClient(st State, b ClientBody, creator int64, app *Marketapp, now time.Time, ids IDSource) (State, Client) {
	c := Client{ID: st.nextClient, Created: now, Members: []int64{creator}}
	fillClient(&c, b, false)
	st.nextClient++
	st.clients = st.clients.Set(c.ID, c)
	u, _ := st.users.Get(creator)
	u.ClientIDs = append(slices.Clip(u.ClientIDs), c.ID)
	st.users = st.users.Set(u.ID, u)
	if app != nil {
		st, _ = createApp(st, *b.App, *app, c.ID, 0, now, ids)
	}
	return st, c
}

func fillClient(c *Client, b ClientBody, keepAbsentOptional bool) {
	c.Name = b.Name.V
	c.AddressLine1 = b.AddressLine1.V
	c.AddressCity = b.AddressCity.V
	c.AddressPostcode = b.AddressPostcode.V
	c.AddressCountry = b.AddressCountry.V
	c.CurrencyID = b.CurrencyID.V
	opt := func(dst **string, f Field[string]) {
		switch {
		case f.Given():
			s := f.V
			*dst = &s
		case keepAbsentOptional && !f.Set:
		default:
			*dst = nil
		}
	}
	opt(&c.AddressLine2, b.AddressLine2)
	opt(&c.VAT, b.VAT)
}

func applyCreateClient(st State, c CreateClient, caller Caller, now time.Time, ids IDSource) (State, Result, error) {
	v := vctx{st}
	if errs := v.clientBody(c.Body, "", false); len(errs) > 0 {
		return st, Result{}, invalid(errs)
	}
	var app *Marketapp
	if c.Body.App != nil {
		m, f := resolveMarketapp(*c.Body.App)
		if f != nil {
			return st, Result{}, f
		}
		app = &m
	}
	next, cl := createClient(st, c.Body, caller.UserID, app, now, ids)
	return ok(next, clientView(cl), true)
}

func applyGetClient(st State, c GetClient, caller Caller) (State, Result, error) {
	cl, found := st.clients.Get(c.ClientID)
	if !found {
		return st, Result{}, missing(st, "client")
	}
	if !isMember(st, cl.ID, caller) {
		return st, Result{}, forbidden("client")
	}
	return ok(st, clientView(cl), false)
}

func applyUpdateClient(st State, c UpdateClient, caller Caller) (State, Result, error) {
	cl, found := st.clients.Get(c.ClientID)
	if !found {
		return st, Result{}, missing(st, "client")
	}
	if !isMember(st, cl.ID, caller) {
		return st, Result{}, forbidden("client")
	}
	if st.has("client-name-written-before-validation") && c.Body.Name.Given() && !c.Body.Name.Bad {
		early := cl
		early.Name = c.Body.Name.V
		st.clients.mutSet(cl.ID, early)
	}
	v := vctx{st}
	if errs := v.clientBody(c.Body, "", true); len(errs) > 0 {
		return st, Result{}, invalid(errs)
	}
	fillClient(&cl, c.Body, st.has("put-client-absent-optional-kept"))
	next := st
	next.clients = next.clients.Set(cl.ID, cl)
	return ok(next, clientView(cl), true)
}

// ---- apps ----

func createApp(st State, b AppBody, m Marketapp, clientID, reserved int64, now time.Time, ids IDSource) (State, App) {
	id := st.nextApp
	if reserved != 0 {
		id = reserved
	}
	a := App{
		ID: id, Created: now, Name: m.Name, PlatformID: m.Platform.ID,
		WriteKey: ids.Hex(32), PlanID: b.NextplanID.V, MarketappHash: m.Hash, ClientID: clientID,
	}
	if st.nextApp <= id {
		st.nextApp = id + 1
	}
	st.apps = st.apps.Set(a.ID, a)
	return st, a
}

func applyCreateApp(st State, c CreateApp, caller Caller, now time.Time, ids IDSource) (State, Result, error) {
	clientID := c.ClientID
	if clientID == 0 {
		clientID = caller.ClientID
	}
	if clientID == 0 {
		return st, Result{}, fail(403, "Forbidden", "the caller has no client to create the app in")
	}
	if !isMember(st, clientID, caller) {
		return st, Result{}, forbidden("client")
	}
	v := vctx{st}
	if errs := v.appBody(c.Body, ""); len(errs) > 0 {
		return st, Result{}, invalid(errs)
	}
	m, f := resolveMarketapp(c.Body)
	if f != nil {
		return st, Result{}, f
	}
	next, a := createApp(st, c.Body, m, clientID, c.reservedID, now, ids)
	return ok(next, appView(a), true)
}

func applyGetApp(st State, c GetApp, caller Caller) (State, Result, error) {
	a, found := st.apps.Get(c.AppID)
	if !found {
		return st, Result{}, missing(st, "app")
	}
	if !isMember(st, a.ClientID, caller) {
		return st, Result{}, forbidden("app")
	}
	return ok(st, appView(a), false)
}

func applyListApps(st State, caller Caller) (State, Result, error) {
	var list []App
	st.apps.Range(func(_ int64, a App) bool {
		if a.ClientID == caller.ClientID && caller.ClientID != 0 {
			list = append(list, a)
		}
		return true
	})
	slices.SortFunc(list, func(x, y App) int { return int(x.ID - y.ID) })
	views := make([]appJSON, 0, len(list))
	for _, a := range list {
		views = append(views, appView(a))
	}
	return ok(st, collection(st, "apps", views, len(views)), false)
}

// ---- catalogues ----

func collection(st State, name string, items any, n int) map[string]any {
	m := map[string]any{name: items}
	if st.has("collection-wrapper-adds-count") {
		m["count"] = n
		m["page"] = 1
	}
	return m
}

func applyCatalogue(st State, c GetCatalogue) (State, Result, error) {
	switch c.Name {
	case "platforms":
		return ok(st, collection(st, "platforms", platforms, len(platforms)), false)
	case "currencies":
		return ok(st, collection(st, "currencies", currencies, len(currencies)), false)
	case "plans":
		return ok(st, collection(st, "plans", plans, len(plans)), false)
	case "phonecountries":
		return ok(st, collection(st, "phoneCountries", phoneCountries, len(phoneCountries)), false)
	case "marketapps":
		return ok(st, collection(st, "marketapps", marketapps, len(marketapps)), false)
	}
	return st, Result{}, notFound("collection")
}
