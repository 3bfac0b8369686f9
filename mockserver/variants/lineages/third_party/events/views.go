package events

import "github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"

// Representations are structs rather than maps so that fields come out in the
// order of the spec's tables (the user's and the client's are package
// wire's).

type appJSON struct {
	ID        int64     `json:"id"`
	Created   string    `json:"created"`
	Name      string    `json:"name"`
	Platform  idName    `json:"platform"`
	WriteKey  string    `json:"writeKey"`
	Plan      wire.Plan `json:"plan"`
	Marketapp struct {
		Hash string `json:"hash"`
	} `json:"marketapp"`
}

type idName struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type platformList struct {
	Platforms []idName `json:"platforms"`
	Total     int      `json:"total"`
}

type currencyJSON struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
	Name string `json:"name"`
}

type currencyList struct {
	Currencies []currencyJSON `json:"currencies"`
	Total      int            `json:"total"`
}

type planList struct {
	Plans []wire.PlanItem `json:"plans"`
	Total int             `json:"total"`
}

func (s *Server) userJSON(u *userView) wire.User {
	p := u.Profile
	pc := s.cat.phoneByID[p.PhoneCountryID]
	out := wire.User{
		ID:                  u.ID,
		Created:             isoTime(u.Created),
		Email:               p.Email,
		PasswordLastChanged: isoTime(u.PasswordLastChanged),
		FirstName:           p.FirstName,
		LastName:            p.LastName,
		SubscribeWelcome:    p.SubscribeWelcome,
		SubscribeBlog:       p.SubscribeBlog,
		SubscribeHowto:      p.SubscribeHowto,
		SubscribeOnboarding: p.SubscribeOnboarding,
		PhoneCountry:        wire.PhoneCountry{ID: p.PhoneCountryID},
		PhoneNumber:         p.PhoneNumber,
		PhoneExtension:      cloneString(p.PhoneExtension),
		Timezone:            p.Timezone,
	}
	if pc.ID != 0 {
		out.PhoneCountry.Name, out.PhoneCountry.DialCode = pc.Name(), pc.DialCode
	}
	return out
}

func (s *Server) clientJSON(c *clientView) wire.Client {
	d := c.Details
	out := wire.Client{
		ID:              c.ID,
		CreatedDate:     isoTime(c.Created),
		Name:            d.Name,
		AddressLine1:    d.AddressLine1,
		AddressLine2:    cloneString(d.AddressLine2),
		AddressCity:     d.AddressCity,
		AddressPostcode: d.AddressPostcode,
		AddressCountry:  d.AddressCountry,
		VAT:             cloneString(d.VAT),
	}
	out.Currency.ID = d.CurrencyID
	out.Currency.Code = s.cat.currencyByID[d.CurrencyID].Code
	if s.fault == faultCurrencyCodeNumeric {
		out.Currency.Code = d.CurrencyID
	}
	return out
}

func (s *Server) appJSON(a *appView) appJSON {
	p := s.cat.planByID[a.PlanID]
	out := appJSON{
		ID:       a.ID,
		Created:  isoTime(a.Created),
		Name:     a.Name,
		Platform: idName{a.PlatformID, s.cat.platformByID[a.PlatformID].Name},
		WriteKey: a.WriteKey,
		Plan:     wire.Plan{IsLite: p.IsLite, IsPro: p.IsPro, IsDynamic: p.IsDynamic, NeedBilling: p.NeedBilling},
	}
	out.Marketapp.Hash = a.Hash
	return out
}

func (s *Server) sessionJSON(x *sessionView) wire.Session {
	out := wire.Session{
		ID:            x.ID,
		Created:       isoTime(x.Created),
		CreatorUserID: x.UserID,
		UserID:        x.UserID,
		ClientID:      x.ClientID,
		Token:         x.Token,
	}
	if s.fault == faultSessionIDsSwapped {
		out.UserID, out.ClientID = x.ClientID, x.UserID
	}
	return out
}
