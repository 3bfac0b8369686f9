package reducer

import "time"

// Response shapes (sections 2.1 to 2.4). Field order follows the spec tables.

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

type userJSON struct {
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
	PhoneCountry        *PhoneCountry `json:"phoneCountry"`
	PhoneNumber         string        `json:"phoneNumber"`
	PhoneExtension      *string       `json:"phoneExtension"`
	Timezone            string        `json:"timezone"`
	Password            *string       `json:"password,omitempty"`
}

func userView(st State, u User) userJSON {
	v := userJSON{
		ID: u.ID, Created: isoTime(u.Created), Email: u.Email, PasswordLastChanged: isoTime(u.PasswordLastChanged),
		FirstName: u.FirstName, LastName: u.LastName,
		SubscribeWelcome: u.SubscribeWelcome, SubscribeBlog: u.SubscribeBlog,
		SubscribeHowto: u.SubscribeHowto, SubscribeOnboarding: u.SubscribeOnboarding,
		PhoneNumber: u.PhoneNumber, PhoneExtension: u.PhoneExtension, Timezone: u.Timezone,
	}
	if pc, ok := findPhoneCountry(u.PhoneCountryID); ok {
		v.PhoneCountry = &pc
	}
	if st.has("user-response-includes-password") {
		if l, ok := st.logins.Get(foldEmail(u.Email)); ok {
			p := l.Password
			v.Password = &p
		}
	}
	return v
}

type clientJSON struct {
	ID              int64    `json:"id"`
	CreatedDate     string   `json:"createdDate"`
	Name            string   `json:"name"`
	AddressLine1    string   `json:"addressLine1"`
	AddressLine2    *string  `json:"addressLine2,omitempty"`
	AddressCity     string   `json:"addressCity"`
	AddressPostcode string   `json:"addressPostcode"`
	AddressCountry  string   `json:"addressCountry"`
	VAT             *string  `json:"vat,omitempty"`
	Currency        Currency `json:"currency"`
}

func clientView(c Client) clientJSON {
	cur, _ := findCurrency(c.CurrencyID)
	return clientJSON{
		ID: c.ID, CreatedDate: isoTime(c.Created), Name: c.Name,
		AddressLine1: c.AddressLine1, AddressLine2: c.AddressLine2, AddressCity: c.AddressCity,
		AddressPostcode: c.AddressPostcode, AddressCountry: c.AddressCountry, VAT: c.VAT, Currency: cur,
	}
}

type planJSON struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type appJSON struct {
	ID        int64    `json:"id"`
	Created   string   `json:"created"`
	Name      string   `json:"name"`
	Platform  Platform `json:"platform"`
	WriteKey  string   `json:"writeKey"`
	Plan      planJSON `json:"plan"`
	Marketapp struct {
		Hash string `json:"hash"`
	} `json:"marketapp"`
}

func appView(a App) appJSON {
	p, _ := findPlatform(a.PlatformID)
	pl, _ := findPlan(a.PlanID)
	v := appJSON{
		ID: a.ID, Created: isoTime(a.Created), Name: a.Name, Platform: p, WriteKey: a.WriteKey,
		Plan: planJSON{IsLite: pl.IsLite, IsPro: pl.IsPro, IsDynamic: pl.IsDynamic, NeedBilling: pl.NeedBilling},
	}
	v.Marketapp.Hash = a.MarketappHash
	return v
}

type sessionJSON struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	UserID        int64  `json:"userId"`
	ClientID      *int64 `json:"clientId"`
	Token         string `json:"token"`
}

func sessionView(s Session) sessionJSON {
	v := sessionJSON{ID: s.ID, Created: isoTime(s.Created), CreatorUserID: s.CreatorUserID, UserID: s.UserID, Token: s.Token}
	if s.ClientID != 0 {
		id := s.ClientID
		v.ClientID = &id
	}
	return v
}
