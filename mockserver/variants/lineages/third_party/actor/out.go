package actor

import "strings"

type apiError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

// apiErrorNoTags is what the error-keys-capitalized fault writes.
type apiErrorNoTags struct {
	FieldName string
	Error     string
	Message   string
}

type userOut struct {
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
	Password            string        `json:"password,omitempty"` // never set by the correct server
}

type clientOut struct {
	ID              int64    `json:"id"`
	CreatedDate     string   `json:"createdDate"`
	Name            string   `json:"name"`
	AddressLine1    string   `json:"addressLine1"`
	AddressLine2    *string  `json:"addressLine2,omitempty"`
	AddressCity     string   `json:"addressCity"`
	AddressPostcode string   `json:"addressPostcode"`
	AddressCountry  string   `json:"addressCountry"`
	VAT             *string  `json:"vat,omitempty"`
	Currency        currency `json:"currency"`
}

type planOut struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type hashOut struct {
	Hash string `json:"hash"`
}

type appOut struct {
	ID        int64    `json:"id"`
	Created   string   `json:"created"`
	Name      string   `json:"name"`
	Platform  platform `json:"platform"`
	WriteKey  string   `json:"writeKey"`
	Plan      planOut  `json:"plan"`
	Marketapp hashOut  `json:"marketapp"`
}

type sessionOut struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	UserID        int64  `json:"userId"`
	ClientID      *int64 `json:"clientId"`
	Token         string `json:"token"`
	APIKey        string `json:"apiKey,omitempty"` // never set by the correct server
}

func (s *Server) userOut(u *user) userOut {
	o := userOut{
		ID:                  u.ID,
		Created:             s.date(u.Created),
		Email:               u.Email,
		PasswordLastChanged: s.date(u.PasswordChanged),
		FirstName:           u.FirstName,
		LastName:            u.LastName,
		SubscribeWelcome:    u.Subs[0],
		SubscribeBlog:       u.Subs[1],
		SubscribeHowto:      u.Subs[2],
		SubscribeOnboarding: u.Subs[3],
		PhoneNumber:         u.PhoneNumber,
		Timezone:            u.Timezone,
	}
	if pc, ok := findPhoneCountry(u.PhoneCountry); ok {
		o.PhoneCountry = &pc
	}
	if u.PhoneExt != nil {
		e := *u.PhoneExt
		o.PhoneExtension = &e
	}
	if s.is("password-in-user-response") {
		o.Password = u.Password
	}
	return o
}

func (s *Server) clientOut(c *client) clientOut {
	cur, _ := findCurrency(c.Currency)
	o := clientOut{
		ID:              c.ID,
		CreatedDate:     s.date(c.Created),
		Name:            c.Name,
		AddressLine1:    c.Line1,
		AddressCity:     c.City,
		AddressPostcode: c.Postcode,
		AddressCountry:  c.Country,
		Currency:        cur,
	}
	if c.Line2 != nil {
		v := *c.Line2
		o.AddressLine2 = &v
	}
	if c.VAT != nil {
		v := *c.VAT
		o.VAT = &v
	}
	return o
}

func (s *Server) appOut(a *app) appOut {
	p, _ := findPlatform(a.Platform)
	pl, _ := findPlan(a.Plan)
	return appOut{
		ID:        a.ID,
		Created:   s.date(a.Created),
		Name:      a.Name,
		Platform:  p,
		WriteKey:  a.WriteKey,
		Plan:      planOut{IsLite: pl.lite, IsPro: pl.pro, IsDynamic: pl.dynamic, NeedBilling: !pl.lite},
		Marketapp: hashOut{Hash: strings.ToLower(a.Hash)},
	}
}

func (s *Server) sessionOut(se *session, st *state) sessionOut {
	o := sessionOut{
		ID:            se.ID,
		Created:       s.date(se.Created),
		CreatorUserID: se.UserID,
		UserID:        se.UserID,
		Token:         se.Token,
	}
	if se.ClientID != 0 {
		id := se.ClientID
		o.ClientID = &id
	}
	if s.is("api-key-in-session-response") {
		if u := st.users[se.UserID]; u != nil {
			o.APIKey = u.APIKey
		}
	}
	return o
}
