package typed

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// ---- request bodies ---------------------------------------------------------

type currencyReq struct {
	ID *int64 `json:"id" validate:"required,currency" code:"InvalidCurrencyId"`
}

type phoneCountryReq struct {
	ID *int64 `json:"id" validate:"required,phonecountry" code:"InvalidPhoneCountryId"`
}

type marketappReq struct {
	Hash Opt[string] `json:"hash" validate:"hex40" code:"InvalidMarketappHash"`
}

type platformReq struct {
	ID Opt[int64] `json:"id" validate:"platform" code:"InvalidPlatformId"`
}

type nextplanReq struct {
	ID *int64 `json:"id" validate:"required,plan" code:"InvalidNextplanId"`
}

type appReq struct {
	Marketapp *marketappReq `json:"marketapp" code:"InvalidMarketappHash"`
	Name      Opt[string]   `json:"name" validate:"max=255" code:"InvalidName"`
	Platform  *platformReq  `json:"platform" code:"InvalidPlatformId"`
	Nextplan  *nextplanReq  `json:"nextplan" validate:"required" code:"InvalidNextplanId"`
}

func (a *appReq) hashGiven() bool {
	return a.Marketapp != nil && a.Marketapp.Hash.Present && !a.Marketapp.Hash.Null
}

// extraValidate: without a marketapp hash the app is found by name and platform.
func (a *appReq) extraValidate(s *Server, path, goPath string) []fieldError {
	if a.hashGiven() {
		return nil
	}
	var errs []fieldError
	if !a.Name.Bad && (!a.Name.Given() || !s.nameProvided(a.Name.Val)) {
		errs = append(errs, fieldError{join(path, "name"), join(goPath, "Name"), "InvalidName",
			"no app name was provided (neither marketapp.hash nor name is given)"})
	}
	if a.Platform == nil || (!a.Platform.ID.Present && !a.Platform.ID.Bad) || a.Platform.ID.Null {
		errs = append(errs, fieldError{join(path, "platform.id"), join(goPath, "Platform.ID"), "InvalidPlatformId",
			"platform.id is required when marketapp.hash is not given"})
	}
	return errs
}

type clientReq struct {
	Name            *string      `json:"name" validate:"required,name,max=255" code:"InvalidName"`
	AddressLine1    *string      `json:"addressLine1" validate:"required,notblank,max=255" code:"InvalidAddressLine1"`
	AddressLine2    *string      `json:"addressLine2" validate:"max=255" code:"InvalidAddressLine2"`
	AddressCity     *string      `json:"addressCity" validate:"required,notblank,max=255" code:"InvalidAddressCity"`
	AddressPostcode *string      `json:"addressPostcode" validate:"required,notblank,max=255" code:"InvalidAddressPostcode"`
	AddressCountry  *string      `json:"addressCountry" validate:"required,notblank,max=255" code:"InvalidAddressCountry"`
	Vat             *string      `json:"vat" validate:"max=255" code:"InvalidVat"`
	Currency        *currencyReq `json:"currency" validate:"required" code:"InvalidCurrencyId"`
	Terms           *string      `json:"terms" validate:"required,max=255,terms" code:"InvalidTerms"`
	App             *appReq      `json:"app" code:"InvalidApp"`
}

type userReq struct {
	Email               *string          `json:"email" validate:"required,max=255,email" code:"InvalidEmail"`
	FirstName           *string          `json:"firstName" validate:"required,name,max=255" code:"InvalidFirstName"`
	LastName            *string          `json:"lastName" validate:"required,name,max=255" code:"InvalidLastName"`
	SubscribeWelcome    *bool            `json:"subscribeWelcome" validate:"required" code:"InvalidSubscribeWelcome"`
	SubscribeBlog       *bool            `json:"subscribeBlog" validate:"required" code:"InvalidSubscribeBlog"`
	SubscribeHowto      *bool            `json:"subscribeHowto" validate:"required" code:"InvalidSubscribeHowto"`
	SubscribeOnboarding *bool            `json:"subscribeOnboarding" validate:"required" code:"InvalidSubscribeOnboarding"`
	Timezone            *string          `json:"timezone" validate:"required,max=255,tz" code:"InvalidTimezone"`
	Password            Opt[string]      `json:"password" validate:"present,min=6" code:"InvalidPassword"`
	PhoneCountry        *phoneCountryReq `json:"phoneCountry" code:"InvalidPhoneCountryId"`
	PhoneNumber         *string          `json:"phoneNumber" validate:"notblank,max=255" code:"InvalidPhoneNumber"`
	PhoneExtension      Opt[string]      `json:"phoneExtension" validate:"digits" code:"InvalidPhoneExtension"`
	Client              *clientReq       `json:"client" code:"InvalidClient"`
}

type sessionReq struct {
	Email    *string `json:"email" validate:"required" code:"InvalidEmail"`
	Password *string `json:"password" validate:"required" code:"InvalidPassword"`
}

// ---- views ------------------------------------------------------------------

type userView struct {
	ID                  int64         `json:"id"`
	Created             string        `json:"created"`
	Email               string        `json:"email"`
	PasswordLastChanged string        `json:"passwordLastChanged"`
	FirstName           string        `json:"firstName"`
	LastName            string        `json:"lastName"`
	SubscribeWelcome    bool          `json:"subscribeWelcome"`
	SubscribeBlog       bool          `json:"subscribeBlog"`
	SubscribeHowto      bool          `json:"subscribeHowto"`
	SubscribeOnboarding bool          `json:"subscribeOnboarding"`
	PhoneCountry        *phoneCountry `json:"phoneCountry"`
	PhoneNumber         string        `json:"phoneNumber"`
	PhoneExtension      *string       `json:"phoneExtension"`
	Timezone            string        `json:"timezone"`
}

type clientView struct {
	ID              int64    `json:"id"`
	CreatedDate     string   `json:"createdDate"`
	Name            string   `json:"name"`
	AddressLine1    string   `json:"addressLine1"`
	AddressLine2    *string  `json:"addressLine2,omitempty"`
	AddressCity     string   `json:"addressCity"`
	AddressPostcode string   `json:"addressPostcode"`
	AddressCountry  string   `json:"addressCountry"`
	Vat             *string  `json:"vat,omitempty"`
	Currency        currency `json:"currency"`
}

type planView struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type appView struct {
	ID        int64             `json:"id"`
	Created   string            `json:"created"`
	Name      string            `json:"name"`
	Platform  platform          `json:"platform"`
	WriteKey  string            `json:"writeKey"`
	Plan      planView          `json:"plan"`
	Marketapp map[string]string `json:"marketapp"`
}

type sessionView struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	UserID        int64  `json:"userId"`
	ClientID      int64  `json:"clientId"`
	Token         string `json:"token"`
}

func iso(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func (s *Server) userView(u User) any {
	v := userView{ID: u.ID, Created: iso(u.Created), Email: u.Email, PasswordLastChanged: iso(u.PasswordLastChanged),
		FirstName: u.FirstName, LastName: u.LastName, SubscribeWelcome: u.SubscribeWelcome, SubscribeBlog: u.SubscribeBlog,
		SubscribeHowto: u.SubscribeHowto, SubscribeOnboarding: u.SubscribeOnboarding, PhoneNumber: u.PhoneNumber,
		PhoneExtension: u.PhoneExtension, Timezone: u.Timezone}
	if pc := s.cat.phoneCountry(u.PhoneCountryID); pc != nil {
		c := *pc
		v.PhoneCountry = &c
	}
	if s.is(FUserLeaksPasswordHash) {
		return struct {
			userView
			PasswordHash string `json:"passwordHash"`
		}{v, u.PasswordHash}
	}
	return v
}

func (s *Server) clientView(c Client) clientView {
	cur, _ := s.cat.currency(c.CurrencyID)
	v := clientView{ID: c.ID, CreatedDate: iso(c.Created), Name: c.Name, AddressLine1: c.AddressLine1,
		AddressLine2: c.AddressLine2, AddressCity: c.AddressCity, AddressPostcode: c.AddressPostcode,
		AddressCountry: c.AddressCountry, Vat: c.Vat, Currency: cur}
	if s.is(FEmptyOptionalOmits) {
		if v.AddressLine2 != nil && *v.AddressLine2 == "" {
			v.AddressLine2 = nil
		}
		if v.Vat != nil && *v.Vat == "" {
			v.Vat = nil
		}
	}
	return v
}

func (s *Server) appView(a App) appView {
	p, _ := s.cat.platform(a.PlatformID)
	pl, _ := s.cat.plan(a.PlanID)
	return appView{ID: a.ID, Created: iso(a.Created), Name: a.Name, Platform: p, WriteKey: a.WriteKey,
		Plan:      planView{IsLite: pl.IsLite, IsPro: pl.IsPro, IsDynamic: pl.IsDynamic, NeedBilling: pl.NeedBilling},
		Marketapp: map[string]string{"hash": a.MarketappHash}}
}

// ---- decoding ---------------------------------------------------------------

func (s *Server) decodeValidate(c *reqCtx, dst any) ([]fieldError, map[string]json.RawMessage) {
	invalid := func(msg string) []fieldError {
		return []fieldError{{Code: "InvalidJson", Message: msg}}
	}
	if len(bytes.TrimSpace(c.body)) == 0 {
		return invalid("the request body is empty; a JSON object is expected"), nil
	}
	shaped, bad, err := shapeBody(c.body, reflect.TypeOf(dst), s.is(FJSONKeysCI))
	if err != nil {
		return invalid("the request body is not valid JSON: " + err.Error()), nil
	}
	if err := json.Unmarshal(shaped, dst); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return invalid("the request body is not valid JSON: " + err.Error()), nil
		}
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(shaped, &keys)
	return s.validate(dst, bad), keys
}

func splitErrs(errs []fieldError, prefix string) (outside, inside []fieldError) {
	for _, e := range errs {
		if e.Field == prefix || strings.HasPrefix(e.Field, prefix+".") {
			inside = append(inside, e)
		} else {
			outside = append(outside, e)
		}
	}
	return
}

// ---- catalogues ---------------------------------------------------------------

func (s *Server) getPlatforms(c *reqCtx) {
	s.writeJSON(c.w, 200, map[string]any{"platforms": s.cat.platforms})
}

func (s *Server) getCurrencies(c *reqCtx) {
	s.writeJSON(c.w, 200, map[string]any{"currencies": s.cat.currencies})
}

func (s *Server) getPlans(c *reqCtx) {
	s.writeJSON(c.w, 200, map[string]any{"plans": s.cat.plans})
}

func (s *Server) getPhoneCountries(c *reqCtx) {
	out := make([]phoneCountry, 0, len(s.cat.phoneCountries))
	for _, p := range s.cat.phoneCountries {
		out = append(out, *p)
	}
	s.writeJSON(c.w, 200, map[string]any{"phoneCountries": out})
}

func (s *Server) getMarketapps(c *reqCtx) {
	s.writeJSON(c.w, 200, map[string]any{"marketapps": s.cat.marketapps})
}

// ---- sessions -----------------------------------------------------------------

func (s *Server) newToken() string {
	if !s.is(FSessionTokenRace) {
		return randHex(16)
	}
	s.tokMu.RLock()
	n := s.tokCtr + 1
	s.tokMu.RUnlock()
	time.Sleep(raceWindow)
	s.tokMu.Lock()
	s.tokCtr = n
	s.tokMu.Unlock()
	h := sha256.Sum256([]byte(fmt.Sprintf("session-%d", n)))
	return hex.EncodeToString(h[:16])
}

func (s *Server) postSession(c *reqCtx) {
	var req sessionReq
	errs, _ := s.decodeValidate(c, &req)
	if s.is(FLoginMissingPassword) {
		errs, _ = splitErrs(errs, "password")
	}
	if len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}
	u, ok := s.users.ByEmail(*req.Email)
	if ok {
		ok = u.Email == *req.Email || (s.is(LEmailLoginCI) && strings.EqualFold(u.Email, *req.Email))
	}
	if ok && req.Password != nil {
		ok = s.checkPassword(u, *req.Password)
	}
	if !ok {
		s.writeErr(c.w, 401, "InvalidCredentials", "email or password is wrong")
		return
	}
	sess := s.sessions.Create(Session{Created: s.now(), CreatorUserID: u.ID, UserID: u.ID,
		ClientID: u.PrimaryClientID, Token: s.newToken()})
	s.writeJSON(c.w, 200, sessionView{ID: sess.ID, Created: iso(sess.Created), CreatorUserID: sess.CreatorUserID,
		UserID: sess.UserID, ClientID: sess.ClientID, Token: sess.Token})
}

// ---- users ----------------------------------------------------------------------

func (s *Server) storeEmail(e string) string {
	if s.is(FEmailLowercased) {
		return strings.ToLower(e)
	}
	return e
}

func (s *Server) applyUser(u *User, req *userReq, now time.Time) {
	u.Email = s.storeEmail(*req.Email)
	u.FirstName = *req.FirstName
	u.LastName = *req.LastName
	u.SubscribeWelcome = *req.SubscribeWelcome
	u.SubscribeBlog = *req.SubscribeBlog
	u.SubscribeHowto = *req.SubscribeHowto
	u.SubscribeOnboarding = *req.SubscribeOnboarding
	u.Timezone = *req.Timezone
	if req.Password.Given() {
		s.setPassword(u, req.Password.Val, now)
	}
	if req.PhoneCountry != nil {
		u.PhoneCountryID = *req.PhoneCountry.ID
	}
	if req.PhoneNumber != nil {
		u.PhoneNumber = *req.PhoneNumber
	}
	if req.PhoneExtension.Present {
		if req.PhoneExtension.Null {
			u.PhoneExtension = nil
		} else {
			ext := req.PhoneExtension.Val
			u.PhoneExtension = &ext
		}
	}
}

func (s *Server) saveUser(id int64, req *userReq) (User, error) {
	now := s.now()
	apply := func(u *User) error { s.applyUser(u, req, now); return nil }
	switch {
	case s.is(FPasswordLostUpd):
		u, ok := s.users.Get(id)
		if !ok {
			return User{}, errNotFound
		}
		time.Sleep(raceWindow)
		_ = apply(&u)
		return s.users.Save(u)
	case s.is(FEmailUniqueRace):
		if s.users.EmailTaken(*req.Email, id) {
			return User{}, errEmailTaken
		}
		time.Sleep(raceWindow)
		return s.users.Update(id, apply)
	}
	return s.users.Update(id, apply)
}

func emailTakenErr() []fieldError {
	return []fieldError{{Field: "email", GoField: "Email", Code: "InvalidEmail", Message: "the email address is already in use"}}
}

func (s *Server) getUser(c *reqCtx) {
	who, ok := c.requireAuth()
	if !ok {
		return
	}
	id, ok := parseID(c.params[0])
	u, found := s.users.Get(id)
	if !ok || !found {
		s.notFound(c.w, "user")
		return
	}
	if u.ID != who.user.ID {
		s.forbidden(c.w, "user")
		return
	}
	s.writeJSON(c.w, 200, s.userView(u))
}

func (s *Server) putUser(c *reqCtx) {
	var req userReq
	errs, _ := s.decodeValidate(c, &req)
	if s.is(FPasswordNullSubstr) && req.Password.Null && !bytes.Contains(c.body, []byte(`"password":null`)) {
		errs = append(errs, fieldError{"password", "Password", "InvalidPassword", "password is required"})
	}
	if s.is(FAuthAfterValidation) && len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}
	who, ok := c.requireAuth()
	if !ok {
		return
	}
	id, ok := parseID(c.params[0])
	target, found := s.users.Get(id)
	if !ok || !found {
		s.notFound(c.w, "user")
		return
	}
	if target.ID != who.user.ID && !s.is(FPutUserNoOwnerCheck) {
		s.forbidden(c.w, "user")
		return
	}

	if s.is(FUserBeforeClient) {
		userErrs, clientErrs := splitErrs(errs, "client")
		if len(userErrs) > 0 {
			s.writeValidation(c.w, userErrs)
			return
		}
		if _, err := s.saveUser(id, &req); err != nil {
			s.writeValidation(c.w, emailTakenErr())
			return
		}
		if len(clientErrs) > 0 {
			s.writeValidation(c.w, clientErrs)
			return
		}
	} else if len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}

	var ma marketapp
	if req.Client != nil && req.Client.App != nil {
		if ma, ok = s.resolveMarketapp(req.Client.App); !ok {
			s.notFound(c.w, "marketplace app")
			return
		}
	}
	if !s.is(FUserBeforeClient) {
		if _, err := s.saveUser(id, &req); err != nil {
			if errors.Is(err, errEmailTaken) {
				s.writeValidation(c.w, emailTakenErr())
			} else {
				s.notFound(c.w, "user")
			}
			return
		}
	}
	if req.Client != nil {
		s.createClient(id, req.Client, ma)
	}
	if s.is(FSharedPhoneCountry) && req.PhoneCountry != nil {
		// "merge" the request object into the catalogue entry looked up by id
		var raw map[string]json.RawMessage
		if json.Unmarshal(c.body, &raw) == nil {
			if pc := s.cat.phoneCountry(*req.PhoneCountry.ID); pc != nil {
				_ = json.Unmarshal(raw["phoneCountry"], pc)
			}
		}
	}
	u, _ := s.users.Get(id)
	s.writeJSON(c.w, 200, s.userView(u))
}

// postUser is the unauthenticated sign-up: user + client (+ first app).
func (s *Server) postUser(c *reqCtx) {
	var req userReq
	errs, _ := s.decodeValidate(c, &req)
	if req.Password.Present && req.Password.Null {
		errs = append(errs, fieldError{"password", "Password", "InvalidPassword", "a password is required"})
	}
	if req.Client == nil && !hasField(errs, "client") {
		errs = append(errs, fieldError{"client", "Client", "InvalidClient", "client is required: POST /users creates a client account"})
	}
	if len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}
	var ma marketapp
	var ok bool
	if req.Client.App != nil {
		if ma, ok = s.resolveMarketapp(req.Client.App); !ok {
			s.notFound(c.w, "marketplace app")
			return
		}
	}
	now := s.now()
	u := User{Created: now, PasswordLastChanged: now}
	s.applyUser(&u, &req, now)
	u, err := s.users.Create(u)
	if err != nil {
		s.writeValidation(c.w, emailTakenErr())
		return
	}
	cl := s.createClient(u.ID, req.Client, ma)
	u, _ = s.users.Update(u.ID, func(u *User) error { u.PrimaryClientID = cl.ID; return nil })
	s.writeJSON(c.w, 200, s.userView(u))
}

func hasField(errs []fieldError, f string) bool {
	for _, e := range errs {
		if e.Field == f {
			return true
		}
	}
	return false
}

// ---- clients ------------------------------------------------------------------

func copyStr(p *string) *string {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func applyClient(cl *Client, req *clientReq) {
	cl.Name = *req.Name
	cl.AddressLine1 = *req.AddressLine1
	cl.AddressLine2 = copyStr(req.AddressLine2)
	cl.AddressCity = *req.AddressCity
	cl.AddressPostcode = *req.AddressPostcode
	cl.AddressCountry = *req.AddressCountry
	cl.Vat = copyStr(req.Vat)
	cl.CurrencyID = *req.Currency.ID
}

// createClient stores a validated client with userID as its member, and its
// first app when req.App is set (ma already resolved).
func (s *Server) createClient(userID int64, req *clientReq, ma marketapp) Client {
	now := s.now()
	cl := Client{Created: now, Members: []int64{userID}}
	applyClient(&cl, req)
	cl = s.clients.Create(cl)
	if req.App != nil {
		s.createApp(cl.ID, req.App, ma)
	}
	return cl
}

func (s *Server) listClients(c *reqCtx) {
	who, ok := c.requireAuth()
	if !ok {
		return
	}
	out := []clientView{}
	for _, cl := range s.clients.ListByMember(who.user.ID) {
		out = append(out, s.clientView(cl))
	}
	s.writeJSON(c.w, 200, map[string]any{"clients": out})
}

func isMember(cl Client, uid int64) bool {
	for _, m := range cl.Members {
		if m == uid {
			return true
		}
	}
	return false
}

func (s *Server) clientFor(c *reqCtx, who *principal, checkMember bool) (Client, bool) {
	id, ok := parseID(c.params[0])
	cl, found := s.clients.Get(id)
	if !ok || !found {
		s.notFound(c.w, "client")
		return Client{}, false
	}
	if checkMember && !isMember(cl, who.user.ID) {
		s.forbidden(c.w, "client")
		return Client{}, false
	}
	return cl, true
}

func (s *Server) getClient(c *reqCtx) {
	who, ok := c.requireAuth()
	if !ok {
		return
	}
	if cl, ok := s.clientFor(c, who, true); ok {
		s.writeJSON(c.w, 200, s.clientView(cl))
	}
}

func (s *Server) listClientApps(c *reqCtx) {
	who, ok := c.requireAuth()
	if !ok {
		return
	}
	cl, ok := s.clientFor(c, who, true)
	if !ok {
		return
	}
	out := []appView{}
	for _, a := range s.apps.ListByClient(cl.ID) {
		out = append(out, s.appView(a))
	}
	s.writeJSON(c.w, 200, map[string]any{"apps": out})
}

func (s *Server) postClient(c *reqCtx) {
	var req clientReq
	errs, _ := s.decodeValidate(c, &req)
	if s.is(FAuthAfterValidation) && len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}
	who, ok := c.requireAuth()
	if !ok {
		return
	}
	if s.is(FNullCurrencyPanics) {
		if _, known := s.cat.currency(*req.Currency.ID); !known {
			errs = append(errs, fieldError{"currency.id", "Currency.ID", "InvalidCurrencyId", "unknown currency"})
		}
	}
	if s.is(FClientBeforeApp) {
		clientErrs, appErrs := splitErrs(errs, "app")
		if len(clientErrs) > 0 {
			s.writeValidation(c.w, clientErrs)
			return
		}
		app := req.App
		req.App = nil
		cl := s.createClient(who.user.ID, &req, marketapp{})
		if len(appErrs) > 0 {
			s.writeValidation(c.w, appErrs)
			return
		}
		if app != nil {
			ma, ok := s.resolveMarketapp(app)
			if !ok {
				s.notFound(c.w, "marketplace app")
				return
			}
			s.createApp(cl.ID, app, ma)
		}
		s.writeJSON(c.w, 200, s.clientView(cl))
		return
	}
	if len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}
	var ma marketapp
	if req.App != nil {
		if ma, ok = s.resolveMarketapp(req.App); !ok {
			s.notFound(c.w, "marketplace app")
			return
		}
	}
	cl := s.createClient(who.user.ID, &req, ma)
	s.writeJSON(c.w, 200, s.clientView(cl))
}

func (s *Server) putClient(c *reqCtx) {
	var req clientReq
	errs, keys := s.decodeValidate(c, &req)
	var appGiven bool
	if s.is(FAppKeySubstr) {
		appGiven = bytes.Contains(c.body, []byte(`"app"`))
	} else {
		_, appGiven = keys["app"]
	}
	// An app of the wrong type is given too (4.4: "must not be given"):
	// the decoder dropped it from keys and recorded its error.
	errs, appErrs := splitErrs(errs, "app")
	if len(appErrs) > 0 && !s.is(FAppKeySubstr) {
		appGiven = true
	}
	if appGiven {
		errs = append(errs, fieldError{"app", "App", "InvalidApp", "the app property is not accepted here; create apps with POST /apps"})
	}
	if s.is(FAuthAfterValidation) && len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}
	who, ok := c.requireAuth()
	if !ok {
		return
	}
	cl, ok := s.clientFor(c, who, !s.is(FPutClientNoMember))
	if !ok {
		return
	}
	if s.is(FNullCurrencyPanics) {
		if _, known := s.cat.currency(*req.Currency.ID); !known {
			errs = append(errs, fieldError{"currency.id", "Currency.ID", "InvalidCurrencyId", "unknown currency"})
		}
	}
	if s.is(FClientUpdateBeforeApp) && appGiven && len(errs) == 1 {
		_, _ = s.clients.Update(cl.ID, func(x *Client) error { applyClient(x, &req); return nil })
	}
	if len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}
	cl, err := s.clients.Update(cl.ID, func(x *Client) error { applyClient(x, &req); return nil })
	if err != nil {
		s.notFound(c.w, "client")
		return
	}
	s.writeJSON(c.w, 200, s.clientView(cl))
}

// ---- apps -------------------------------------------------------------------------

func (s *Server) resolveMarketapp(a *appReq) (marketapp, bool) {
	if a.hashGiven() {
		return s.cat.marketappByHash(a.Marketapp.Hash.Val)
	}
	return s.cat.marketappByName(a.Name.Val, a.Platform.ID.Val)
}

func (s *Server) createApp(clientID int64, a *appReq, ma marketapp) App {
	key := randHex(16)
	if s.is(FWriteKeyFromHash) {
		sum := md5.Sum([]byte(ma.Hash))
		key = hex.EncodeToString(sum[:])
	}
	return s.apps.Create(App{Created: s.now(), ClientID: clientID, Name: ma.Name, PlatformID: ma.Platform.ID,
		WriteKey: key, PlanID: *a.Nextplan.ID, MarketappHash: ma.Hash})
}

func (s *Server) postApp(c *reqCtx) {
	var req appReq
	errs, _ := s.decodeValidate(c, &req)
	if s.is(FAuthAfterValidation) && len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}
	who, ok := c.requireAuth()
	if !ok {
		return
	}
	if len(errs) > 0 {
		s.writeValidation(c.w, errs)
		return
	}
	ma, ok := s.resolveMarketapp(&req)
	if !ok {
		s.notFound(c.w, "marketplace app")
		return
	}
	cl, found := s.clients.Get(who.clientID)
	if !found || !isMember(cl, who.user.ID) {
		s.forbidden(c.w, "client")
		return
	}
	a := s.createApp(cl.ID, &req, ma)
	s.writeJSON(c.w, 200, s.appView(a))
}

func (s *Server) getApp(c *reqCtx) {
	who, ok := c.requireAuth()
	if !ok {
		return
	}
	id, ok := parseID(c.params[0])
	a, found := s.apps.Get(id)
	if !ok || !found {
		s.notFound(c.w, "app")
		return
	}
	cl, _ := s.clients.Get(a.ClientID)
	if !isMember(cl, who.user.ID) {
		s.forbidden(c.w, "app")
		return
	}
	s.writeJSON(c.w, 200, s.appView(a))
}
