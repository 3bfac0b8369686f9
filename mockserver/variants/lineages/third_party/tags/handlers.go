package tags

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ---- request bodies

type PhoneCountryRef struct {
	ID *int `json:"id" validate:"required,code=InvalidPhoneCountryId"`
}

type UserBody struct {
	Email               *string          `json:"email" validate:"required,max=255,email,code=InvalidEmail"`
	FirstName           *string          `json:"firstName" validate:"required,max=255,code=InvalidFirstName"`
	LastName            *string          `json:"lastName" validate:"required,max=255,code=InvalidLastName"`
	SubscribeWelcome    *bool            `json:"subscribeWelcome" validate:"notnull"`
	SubscribeBlog       *bool            `json:"subscribeBlog" validate:"notnull"`
	SubscribeHowto      *bool            `json:"subscribeHowto" validate:"notnull"`
	SubscribeOnboarding *bool            `json:"subscribeOnboarding" validate:"notnull"`
	Timezone            *string          `json:"timezone" validate:"notnull,max=255,tz"`
	Password            *string          `json:"password" validate:"min=6,code=InvalidPassword"`
	PhoneCountry        *PhoneCountryRef `json:"phoneCountry" validate:"notnull,code=InvalidPhoneCountryId"`
	PhoneNumber         *string          `json:"phoneNumber" validate:"nonempty,max=255,code=InvalidPhoneNumber"`
	PhoneExtension      *string          `json:"phoneExtension" validate:"ext,code=InvalidPhoneExtension"`
	Client              *ClientBody      `json:"client" validate:"new"`
}

type CurrencyRef struct {
	ID *int `json:"id" validate:"required,code=InvalidCurrencyId"`
}

type ClientBody struct {
	Name            *string      `json:"name" validate:"required,max=255,code=InvalidName"`
	AddressLine1    *string      `json:"addressLine1" validate:"required,max=255"`
	AddressLine2    *string      `json:"addressLine2" validate:"max=255"`
	AddressCity     *string      `json:"addressCity" validate:"required,max=255"`
	AddressPostcode *string      `json:"addressPostcode" validate:"required,max=255"`
	AddressCountry  *string      `json:"addressCountry" validate:"required,max=255"`
	Vat             *string      `json:"vat" validate:"max=255"`
	Currency        *CurrencyRef `json:"currency" validate:"required,code=InvalidCurrencyId"`
	Terms           *string      `json:"terms" validate:"required,max=255,terms"`
	App             *AppBody     `json:"app" validate:"new"`
}

type MarketRef struct {
	Hash *string `json:"hash" validate:"hex40,code=InvalidMarketappHash"`
}

type PlatformRef struct {
	ID *int `json:"id" validate:"code=InvalidPlatformId"`
}

type PlanRef struct {
	ID *int `json:"id" validate:"required,code=InvalidNextplanId"`
}

type AppBody struct {
	Marketapp *MarketRef   `json:"marketapp" validate:"code=InvalidMarketappHash"`
	Name      *string      `json:"name" validate:"max=255,code=InvalidName"`
	Platform  *PlatformRef `json:"platform" validate:"code=InvalidPlatformId"`
	Nextplan  *PlanRef     `json:"nextplan" validate:"required,code=InvalidNextplanId"`
}

type SessionBody struct {
	Email    *string `json:"email" validate:"required,code=InvalidEmail"`
	Password *string `json:"password" validate:"required,code=InvalidPassword"`
}

// ---- responses

type userOut struct {
	ID                  int          `json:"id"`
	Created             string       `json:"created"`
	Email               string       `json:"email"`
	PasswordLastChanged string       `json:"passwordLastChanged"`
	FirstName           string       `json:"firstName"`
	LastName            string       `json:"lastName"`
	SubscribeWelcome    bool         `json:"subscribeWelcome"`
	SubscribeBlog       bool         `json:"subscribeBlog"`
	SubscribeHowto      bool         `json:"subscribeHowto"`
	SubscribeOnboarding bool         `json:"subscribeOnboarding"`
	PhoneCountry        PhoneCountry `json:"phoneCountry"`
	PhoneNumber         string       `json:"phoneNumber"`
	PhoneExtension      *string      `json:"phoneExtension"`
	Timezone            string       `json:"timezone"`
	PasswordHash        string       `json:"passwordHash,omitempty"`
}

// userOutOmit is what the omitempty fault marshals.
type userOutOmit struct {
	ID                  int          `json:"id"`
	Created             string       `json:"created"`
	Email               string       `json:"email"`
	PasswordLastChanged string       `json:"passwordLastChanged"`
	FirstName           string       `json:"firstName"`
	LastName            string       `json:"lastName"`
	SubscribeWelcome    bool         `json:"subscribeWelcome,omitempty"`
	SubscribeBlog       bool         `json:"subscribeBlog,omitempty"`
	SubscribeHowto      bool         `json:"subscribeHowto,omitempty"`
	SubscribeOnboarding bool         `json:"subscribeOnboarding,omitempty"`
	PhoneCountry        PhoneCountry `json:"phoneCountry"`
	PhoneNumber         string       `json:"phoneNumber"`
	PhoneExtension      *string      `json:"phoneExtension"`
	Timezone            string       `json:"timezone"`
	PasswordHash        string       `json:"passwordHash,omitempty"`
}

func (s *Server) userJSON(u User) any {
	pc, _ := phoneCountryByID(u.PhoneCountryID)
	out := userOut{
		ID: u.ID, Created: isoTime(u.Created), Email: u.Email,
		PasswordLastChanged: isoTime(u.PasswordLastChanged),
		FirstName:           u.FirstName, LastName: u.LastName,
		SubscribeWelcome: u.SubscribeWelcome, SubscribeBlog: u.SubscribeBlog,
		SubscribeHowto: u.SubscribeHowto, SubscribeOnboarding: u.SubscribeOnboarding,
		PhoneCountry: pc, PhoneNumber: u.PhoneNumber, PhoneExtension: u.PhoneExtension,
		Timezone: u.Timezone,
	}
	if s.fault == fPasswordHashLeak {
		out.PasswordHash = u.PasswordHash
	}
	if s.fault == fOmitemptyFlags {
		return userOutOmit(out)
	}
	return out
}

type clientOut struct {
	ID              int      `json:"id"`
	CreatedDate     string   `json:"createdDate"`
	Name            string   `json:"name"`
	AddressLine1    string   `json:"addressLine1"`
	AddressLine2    *string  `json:"addressLine2,omitempty"`
	AddressCity     string   `json:"addressCity"`
	AddressPostcode string   `json:"addressPostcode"`
	AddressCountry  string   `json:"addressCountry"`
	Vat             *string  `json:"vat,omitempty"`
	Currency        Currency `json:"currency"`
}

func clientJSON(c Client) clientOut {
	cur, _ := currencyByID(c.CurrencyID)
	return clientOut{
		ID: c.ID, CreatedDate: isoTime(c.Created), Name: c.Name,
		AddressLine1: c.AddressLine1, AddressLine2: c.AddressLine2, AddressCity: c.AddressCity,
		AddressPostcode: c.AddressPostcode, AddressCountry: c.AddressCountry, Vat: c.Vat,
		Currency: cur,
	}
}

type planFlags struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type hashOut struct {
	Hash string `json:"hash"`
}

type appOut struct {
	ID        int       `json:"id"`
	Created   string    `json:"created"`
	Name      string    `json:"name"`
	Platform  Platform  `json:"platform"`
	WriteKey  string    `json:"writeKey"`
	Plan      planFlags `json:"plan"`
	Marketapp hashOut   `json:"marketapp"`
}

func appJSON(a App) appOut {
	p, _ := platformByID(a.PlatformID)
	pl, _ := planByID(a.PlanID)
	return appOut{
		ID: a.ID, Created: isoTime(a.Created), Name: a.Name, Platform: p, WriteKey: a.WriteKey,
		Plan:      planFlags{pl.IsLite, pl.IsPro, pl.IsDynamic, pl.NeedBilling},
		Marketapp: hashOut{a.MarketHash},
	}
}

type sessionOut struct {
	ID            int    `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int    `json:"creatorUserId"`
	UserID        int    `json:"userId"`
	ClientID      *int   `json:"clientId"`
	Token         string `json:"token"`
}

// ---- routing

type routeFn func(w http.ResponseWriter, r *http.Request, id int)

type route struct {
	auth  bool
	check func(body []byte) []FieldError // body binding, used before auth by a fault
	h     routeFn
}

func checkOf[T any](s *Server, partial bool) func([]byte) []FieldError {
	return func(b []byte) []FieldError {
		_, _, errs := decodeBody[T](s, b, partial)
		return errs
	}
}

func parseID(seg string) (int, bool) {
	if seg == "" || len(seg) > 15 {
		return 0, false
	}
	for _, c := range seg {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(seg)
	return n, err == nil && n > 0
}

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	var rest string
	switch {
	case strings.HasPrefix(p, basePath+"/"):
		rest = p[len(basePath)+1:]
	case strings.HasPrefix(p, aliasPath+"/"):
		rest = p[len(aliasPath)+1:]
	default:
		notFound(w)
		return
	}
	segs := strings.Split(rest, "/")
	id := 0
	var routes map[string]route
	switch {
	case len(segs) == 1:
		switch segs[0] {
		case "sessions":
			routes = map[string]route{"POST": {false, nil, s.postSession}}
		case "users":
			routes = map[string]route{"POST": {false, nil, s.postUser}}
		case "clients":
			routes = map[string]route{"POST": {true, checkOf[ClientBody](s, false), s.postClient}}
		case "apps":
			routes = map[string]route{
				"GET":  {true, nil, s.listApps},
				"POST": {true, checkOf[AppBody](s, false), s.postApp},
			}
		case "platforms", "plans", "currencies", "phone-countries", "marketapps":
			name := segs[0]
			routes = map[string]route{"GET": {false, nil, func(w http.ResponseWriter, r *http.Request, _ int) { s.catalogue(w, name) }}}
		}
	case len(segs) == 2:
		n, ok := parseID(segs[1])
		if !ok {
			break
		}
		id = n
		switch segs[0] {
		case "users":
			routes = map[string]route{
				"GET": {true, nil, s.getUser},
				"PUT": {true, checkOf[UserBody](s, false), s.putUser},
			}
		case "clients":
			routes = map[string]route{
				"GET": {true, nil, s.getClient},
				"PUT": {true, checkOf[ClientBody](s, false), s.putClient},
			}
		case "apps":
			routes = map[string]route{"GET": {true, nil, s.getApp}}
		}
	}
	if routes == nil {
		notFound(w)
		return
	}
	rt, ok := routes[r.Method]
	if !ok {
		var allow []string
		for m := range routes {
			allow = append(allow, m)
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, http.StatusMethodNotAllowed, "MethodNotAllowed", "method not allowed")
		return
	}
	if rt.auth {
		if s.fault == fValidateBeforeAuth && rt.check != nil {
			if errs := rt.check(bodyOf(r)); len(errs) > 0 {
				s.writeValidation(w, errs)
				return
			}
		}
		info, ok := s.authenticate(r)
		if !ok {
			s.unauthorized(w)
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), ctxAuth, info))
	}
	rt.h(w, r, id)
}

func (s *Server) catalogue(w http.ResponseWriter, name string) {
	var items any
	var n int
	key := name
	switch name {
	case "platforms":
		items, n = platforms, len(platforms)
	case "plans":
		items, n = plans, len(plans)
	case "currencies":
		items, n = currencies, len(currencies)
	case "phone-countries":
		items, n, key = phoneCountries, len(phoneCountries), "phoneCountries"
	case "marketapps":
		items, n = marketApps, len(marketApps)
	}
	writeJSON(w, http.StatusOK, map[string]any{key: items, "count": n})
}

// ---- helpers shared by handlers

func (s *Server) storeName(v string) string {
	if s.fault == fNamesHTMLEscape {
		return html.EscapeString(v)
	}
	return v
}

func hasCode(errs []FieldError, code string) bool {
	for _, e := range errs {
		if e.Error == code {
			return true
		}
	}
	return false
}

// splitErrs separates errors under a nested member (prefix, matched case-
// insensitively so Go-named paths split too) from the others.
func splitErrs(errs []FieldError, prefix string) (outer, inner []FieldError) {
	lp := strings.ToLower(prefix)
	for _, e := range errs {
		f := strings.ToLower(e.FieldName)
		if f == lp || strings.HasPrefix(f, lp+".") {
			inner = append(inner, e)
		} else {
			outer = append(outer, e)
		}
	}
	return
}

// prepareApp resolves an app body to an App (without id and client). It
// returns errors found beyond the decoder's and whether a referenced
// marketplace app was not found.
func (s *Server) prepareApp(b *AppBody, prefix string, decErrs []FieldError) (App, []FieldError, bool) {
	var errs []FieldError
	var app App
	notFoundRef := false
	hashGiven := b.Marketapp != nil && b.Marketapp.Hash != nil
	if hashGiven {
		var found bool
		for _, m := range marketApps {
			if strings.EqualFold(m.Hash, *b.Marketapp.Hash) {
				app.Name, app.PlatformID, app.MarketHash, found = m.Name, m.Platform.ID, m.Hash, true
			}
		}
		if !found {
			if s.fault == lUnknownHash400 {
				errs = append(errs, FieldError{join(prefix, "marketapp.hash"), "InvalidMarketappHash", "no marketplace app has this hash"})
			} else {
				notFoundRef = true
			}
		}
	} else if !hasCode(decErrs, "InvalidMarketappHash") && !hasCode(decErrs, "InvalidName") {
		if b.Name == nil || strings.TrimSpace(*b.Name) == "" {
			errs = append(errs, FieldError{join(prefix, "name"), "InvalidName", "no app name was provided"})
		} else if b.Platform == nil || b.Platform.ID == nil {
			if !hasCode(decErrs, "InvalidPlatformId") {
				errs = append(errs, FieldError{join(prefix, "platform.id"), "InvalidPlatformId", "platform.id is required when no marketapp hash is given"})
			}
		} else if _, ok := platformByID(*b.Platform.ID); !ok {
			errs = append(errs, FieldError{join(prefix, "platform.id"), "InvalidPlatformId", "unknown platform"})
		} else {
			var found bool
			for _, m := range marketApps {
				if m.Name == *b.Name && m.Platform.ID == *b.Platform.ID {
					app.Name, app.PlatformID, app.MarketHash, found = m.Name, m.Platform.ID, m.Hash, true
				}
			}
			notFoundRef = !found
		}
	}
	if b.Nextplan != nil && b.Nextplan.ID != nil {
		if _, ok := planByID(*b.Nextplan.ID); !ok {
			errs = append(errs, FieldError{join(prefix, "nextplan.id"), "InvalidNextplanId", "unknown subscription plan"})
		} else {
			app.PlanID = *b.Nextplan.ID
		}
	}
	return app, errs, notFoundRef
}

func (s *Server) insertApp(a App) App {
	a.Created = s.now().Truncate(time.Second)
	a.WriteKey = randHex(16)
	if s.fault == fAppIDRace {
		a.ID = s.apps.PeekID()
		time.Sleep(raceWindow)
		s.apps.PutWithID(a)
		return a
	}
	return s.apps.Create(a)
}

type preparedClient struct {
	client Client
	app    *App
}

// prepareClient checks a creation body of POST /clients (also embedded in the
// user endpoints). clientErrs are the client's own, appErrs those of `app`.
func (s *Server) prepareClient(b *ClientBody, prefix string, decErrs []FieldError) (pc preparedClient, clientErrs, appErrs []FieldError, appNotFound bool) {
	clientDec, appDec := splitErrs(decErrs, join(prefix, "app"))
	clientErrs = clientDec
	if b.Currency != nil && b.Currency.ID != nil {
		if _, ok := currencyByID(*b.Currency.ID); !ok {
			clientErrs = append(clientErrs, FieldError{join(prefix, "currency.id"), "InvalidCurrencyId", "unknown currency"})
		}
	}
	pc.client = s.clientFromBody(b)
	appErrs = appDec
	if b.App != nil {
		a, errs, nf := s.prepareApp(b.App, join(prefix, "app"), appDec)
		appErrs = append(appErrs, errs...)
		appNotFound = nf
		pc.app = &a
	}
	return
}

func (s *Server) clientFromBody(b *ClientBody) Client {
	c := Client{Created: s.now().Truncate(time.Second)}
	s.applyClient(b, nil, &c)
	return c
}

func strp(p *string) *string {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func (s *Server) applyClient(b *ClientBody, present map[string]bool, c *Client) {
	if b.Name != nil {
		c.Name = s.storeName(*b.Name)
	}
	if b.AddressLine1 != nil {
		c.AddressLine1 = *b.AddressLine1
	}
	if b.AddressLine2 != nil || present["addressLine2"] {
		c.AddressLine2 = strp(b.AddressLine2)
	}
	if b.AddressCity != nil {
		c.AddressCity = *b.AddressCity
	}
	if b.AddressPostcode != nil {
		c.AddressPostcode = *b.AddressPostcode
	}
	if b.AddressCountry != nil {
		c.AddressCountry = *b.AddressCountry
	}
	if b.Vat != nil || present["vat"] {
		c.Vat = strp(b.Vat)
	}
	if b.Currency != nil && b.Currency.ID != nil {
		c.CurrencyID = *b.Currency.ID
	}
}

// createClient stores a prepared client (and its app) with userID as member.
func (s *Server) createClient(pc preparedClient, userID int) Client {
	pc.client.Members = []int{userID}
	c := s.clients.Create(pc.client)
	if pc.app != nil {
		a := *pc.app
		a.ClientID = c.ID
		s.insertApp(a)
	}
	if u, ok := s.users.Get(userID); ok && u.PrimaryClientID == 0 {
		_, _ = s.users.Update(userID, false, func(x *User) {
			if x.PrimaryClientID == 0 {
				x.PrimaryClientID = c.ID
			}
		})
	}
	return c
}

func isMember(c Client, userID int) bool {
	for _, m := range c.Members {
		if m == userID {
			return true
		}
	}
	return false
}

func (s *Server) applyUser(b *UserBody, present map[string]bool, u *User) (pwChanged bool) {
	if b.Email != nil {
		u.Email = *b.Email
	}
	if b.FirstName != nil {
		u.FirstName = s.storeName(*b.FirstName)
	}
	if b.LastName != nil {
		u.LastName = s.storeName(*b.LastName)
	}
	for _, f := range []struct {
		src *bool
		dst *bool
	}{{b.SubscribeWelcome, &u.SubscribeWelcome}, {b.SubscribeBlog, &u.SubscribeBlog},
		{b.SubscribeHowto, &u.SubscribeHowto}, {b.SubscribeOnboarding, &u.SubscribeOnboarding}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
	if b.Timezone != nil {
		u.Timezone = *b.Timezone
	}
	if b.PhoneCountry != nil && b.PhoneCountry.ID != nil {
		u.PhoneCountryID = *b.PhoneCountry.ID
	}
	if b.PhoneNumber != nil {
		u.PhoneNumber = *b.PhoneNumber
	}
	if b.PhoneExtension != nil || present["phoneExtension"] {
		u.PhoneExtension = strp(b.PhoneExtension)
	}
	if b.Password != nil {
		s.setPassword(u, *b.Password)
		u.PasswordLastChanged = s.now().Truncate(time.Second)
		pwChanged = true
	}
	return pwChanged
}

// userChecks adds the checks the struct tags cannot express.
func (s *Server) userChecks(b *UserBody, present map[string]bool, self int, errs []FieldError) []FieldError {
	if b.PhoneCountry != nil && b.PhoneCountry.ID != nil {
		if _, ok := phoneCountryByID(*b.PhoneCountry.ID); !ok {
			errs = append(errs, FieldError{"phoneCountry.id", "InvalidPhoneCountryId", "the country id is not an allowed value"})
		}
	}
	if b.Email != nil && s.fault != fEmailUniqueRace && s.users.EmailTaken(*b.Email, self) {
		errs = append(errs, FieldError{"email", "InvalidEmail", "the email address is already in use"})
	}
	return errs
}

// ---- handlers

func (s *Server) getUser(w http.ResponseWriter, r *http.Request, id int) {
	info, _ := authOf(r)
	u, ok := s.users.Get(id)
	if !ok {
		notFound(w)
		return
	}
	if u.ID != info.User.ID {
		s.forbidden(w)
		return
	}
	writeJSON(w, http.StatusOK, s.userJSON(u))
}

func (s *Server) putUser(w http.ResponseWriter, r *http.Request, id int) {
	info, _ := authOf(r)
	if _, ok := s.users.Get(id); !ok {
		notFound(w)
		return
	}
	if id != info.User.ID && s.fault != fPutOtherUser {
		s.forbidden(w)
		return
	}
	// A full body (§2 notation: only a field marked optional may be omitted).
	b, present, errs := decodeBody[UserBody](s, bodyOf(r), false)
	if b == nil && len(errs) > 0 {
		s.writeValidation(w, errs)
		return
	}
	errs = s.userChecks(b, present, id, errs)
	userErrs, clientErrs := splitErrs(errs, "client")
	var pc preparedClient
	var appErrs []FieldError
	var appNF bool
	if b.Client != nil {
		var ce []FieldError
		pc, ce, appErrs, appNF = s.prepareClient(b.Client, "client", clientErrs)
		clientErrs = append(ce, appErrs...)
	}
	if s.fault == fMutatesStoredRecord && (len(errs) > 0 || len(clientErrs) > 0) {
		// The stored record changed before the refusal; under the
		// repository's lock, so that the fault is the refused request's
		// change and not a data race the race detector stops on.
		_, _ = s.users.Update(id, false, func(u *User) { s.applyUser(b, present, u) })
	}
	if s.fault == fUserSavedBeforeClient && len(userErrs) == 0 && (len(clientErrs) > 0 || appNF) {
		_, _ = s.users.Update(id, true, func(u *User) { s.applyUser(b, present, u) })
	}
	if all := append(userErrs, clientErrs...); len(all) > 0 {
		s.writeValidation(w, all)
		return
	}
	if appNF {
		notFound(w)
		return
	}
	if s.fault == fEmailUniqueRace && b.Email != nil {
		if s.users.EmailTaken(*b.Email, id) {
			s.writeValidation(w, []FieldError{{"email", "InvalidEmail", "the email address is already in use"}})
			return
		}
		time.Sleep(raceWindow)
	}
	pwChanged := false
	u, err := s.users.Update(id, s.fault != fEmailUniqueRace, func(u *User) { pwChanged = s.applyUser(b, present, u) })
	if err == errEmailTaken {
		s.writeValidation(w, []FieldError{{"email", "InvalidEmail", "the email address is already in use"}})
		return
	}
	if err != nil {
		notFound(w)
		return
	}
	if pwChanged && s.fault == lRevokeOnPassword {
		s.sessions.DeleteForUser(id)
	}
	if b.Client != nil {
		s.createClient(pc, id)
		u, _ = s.users.Get(id)
	}
	writeJSON(w, http.StatusOK, s.userJSON(u))
}

func (s *Server) postUser(w http.ResponseWriter, r *http.Request, _ int) {
	b, present, errs := decodeBody[UserBody](s, bodyOf(r), false)
	if b == nil && len(errs) > 0 {
		s.writeValidation(w, errs)
		return
	}
	if b.Password == nil && !hasCode(errs, "InvalidPassword") {
		errs = append(errs, FieldError{"password", "InvalidPassword", "a password of at least 6 characters is required"})
	}
	errs = s.userChecks(b, present, 0, errs)
	userErrs, clientErrs := splitErrs(errs, "client")
	var pc preparedClient
	var appNF bool
	if b.Client != nil {
		var ce, ae []FieldError
		pc, ce, ae, appNF = s.prepareClient(b.Client, "client", clientErrs)
		clientErrs = append(ce, ae...)
	}
	if all := append(userErrs, clientErrs...); len(all) > 0 {
		s.writeValidation(w, all)
		return
	}
	if appNF {
		notFound(w)
		return
	}
	now := s.now().Truncate(time.Second)
	u := User{Created: now, PasswordLastChanged: now, Timezone: defaultTZ, PhoneCountryID: defaultPhone}
	s.applyUser(b, present, &u)
	u.PasswordLastChanged = now
	u, err := s.users.Create(u)
	if err != nil {
		s.writeValidation(w, []FieldError{{"email", "InvalidEmail", "the email address is already in use"}})
		return
	}
	u, _ = s.users.Update(u.ID, false, func(x *User) { x.APIKey = fmt.Sprintf("pk_%08x_%s", x.ID, randHex(16)) })
	s.cacheCredential(u.Email, u.Salt+":"+u.PasswordHash)
	if b.Client != nil {
		s.createClient(pc, u.ID)
		u, _ = s.users.Get(u.ID)
	}
	writeJSON(w, http.StatusOK, s.userJSON(u))
}

func (s *Server) postSession(w http.ResponseWriter, r *http.Request, _ int) {
	b, _, errs := decodeBody[SessionBody](s, bodyOf(r), false)
	if len(errs) > 0 {
		s.writeValidation(w, errs)
		return
	}
	u, ok := s.users.ByEmail(*b.Email)
	good := ok && constantEq(hashPassword(u.Salt, *b.Password), u.PasswordHash)
	if !good && ok && s.fault == fOldPasswordLogin {
		if salt, hash, found := strings.Cut(s.cachedCredential(*b.Email), ":"); found {
			good = constantEq(hashPassword(salt, *b.Password), hash)
		}
	}
	if !good {
		writeError(w, http.StatusUnauthorized, "InvalidCredentials", "email or password is wrong")
		return
	}
	now := s.now()
	sess := s.sessions.Create(Session{
		Created: now.Truncate(time.Second), Expires: now.Add(sessionTTL),
		UserID: u.ID, ClientID: u.PrimaryClientID, Token: randHex(20),
	})
	out := sessionOut{ID: sess.ID, Created: isoTime(sess.Created), CreatorUserID: u.ID, UserID: u.ID, Token: sess.Token}
	if sess.ClientID != 0 {
		cid := sess.ClientID
		out.ClientID = &cid
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) postClient(w http.ResponseWriter, r *http.Request, _ int) {
	info, _ := authOf(r)
	b, _, errs := decodeBody[ClientBody](s, bodyOf(r), false)
	if b == nil && len(errs) > 0 {
		s.writeValidation(w, errs)
		return
	}
	pc, clientErrs, appErrs, appNF := s.prepareClient(b, "", errs)
	if s.fault == fClientKeptOnAppFail && len(clientErrs) == 0 && (len(appErrs) > 0 || appNF) {
		pc.app = nil
		s.createClient(pc, info.User.ID)
	}
	if all := append(clientErrs, appErrs...); len(all) > 0 {
		s.writeValidation(w, all)
		return
	}
	if appNF {
		notFound(w)
		return
	}
	c := s.createClient(pc, info.User.ID)
	writeJSON(w, http.StatusOK, clientJSON(c))
}

func (s *Server) memberClient(w http.ResponseWriter, r *http.Request, id int, checkMember bool) (Client, bool) {
	info, _ := authOf(r)
	c, ok := s.clients.Get(id)
	if !ok {
		notFound(w)
		return Client{}, false
	}
	if checkMember && !isMember(c, info.User.ID) {
		s.forbidden(w)
		return Client{}, false
	}
	return c, true
}

func (s *Server) getClient(w http.ResponseWriter, r *http.Request, id int) {
	if c, ok := s.memberClient(w, r, id, true); ok {
		writeJSON(w, http.StatusOK, clientJSON(c))
	}
}

func (s *Server) putClient(w http.ResponseWriter, r *http.Request, id int) {
	if _, ok := s.memberClient(w, r, id, s.fault != fPutClientNoMember); !ok {
		return
	}
	// A full body, as for PUT /users: every field not marked optional is required.
	b, present, errs := decodeBody[ClientBody](s, bodyOf(r), false)
	if b == nil && len(errs) > 0 {
		s.writeValidation(w, errs)
		return
	}
	errs, _ = splitErrs(errs, "app")
	if present["app"] {
		errs = append(errs, FieldError{"app", "InvalidApp", "app must not be given here; create apps with POST /apps"})
	}
	if b.Currency != nil && b.Currency.ID != nil {
		if _, ok := currencyByID(*b.Currency.ID); !ok {
			errs = append(errs, FieldError{"currency.id", "InvalidCurrencyId", "unknown currency"})
		}
	}
	if len(errs) > 0 {
		s.writeValidation(w, errs)
		return
	}
	if s.fault == fClientLostUpdate {
		c, ok := s.clients.Get(id)
		if !ok {
			notFound(w)
			return
		}
		s.applyClient(b, present, &c)
		time.Sleep(raceWindow)
		s.clients.Put(c)
		writeJSON(w, http.StatusOK, clientJSON(c))
		return
	}
	c, ok := s.clients.Update(id, func(c *Client) { s.applyClient(b, present, c) })
	if !ok {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, clientJSON(c))
}

func (s *Server) postApp(w http.ResponseWriter, r *http.Request, _ int) {
	info, _ := authOf(r)
	b, _, errs := decodeBody[AppBody](s, bodyOf(r), false)
	if b == nil && len(errs) > 0 {
		s.writeValidation(w, errs)
		return
	}
	a, more, nf := s.prepareApp(b, "", errs)
	if errs = append(errs, more...); len(errs) > 0 {
		s.writeValidation(w, errs)
		return
	}
	if nf {
		notFound(w)
		return
	}
	if info.ClientID == 0 {
		s.forbidden(w)
		return
	}
	if c, ok := s.clients.Get(info.ClientID); !ok || !isMember(c, info.User.ID) {
		s.forbidden(w)
		return
	}
	a.ClientID = info.ClientID
	a = s.insertApp(a)
	writeJSON(w, http.StatusOK, appJSON(a))
}

func (s *Server) callerClients(userID int) map[int]bool {
	return s.clients.MemberOf(userID)
}

func (s *Server) listApps(w http.ResponseWriter, r *http.Request, _ int) {
	info, _ := authOf(r)
	mine := s.callerClients(info.User.ID)
	list := s.apps.List(func(a App) bool { return s.fault == fListAppsAllClients || mine[a.ClientID] })
	out := make([]appOut, 0, len(list))
	for _, a := range list {
		out = append(out, appJSON(a))
	}
	writeJSON(w, http.StatusOK, map[string]any{"apps": out, "count": len(out)})
}

func (s *Server) getApp(w http.ResponseWriter, r *http.Request, id int) {
	info, _ := authOf(r)
	a, ok := s.apps.Get(id)
	if !ok {
		notFound(w)
		return
	}
	if !s.callerClients(info.User.ID)[a.ClientID] {
		s.forbidden(w)
		return
	}
	writeJSON(w, http.StatusOK, appJSON(a))
}
