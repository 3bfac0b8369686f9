package api

import (
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Wire types: the JSON of spec section 2. Field order follows the spec's tables.

type wireUser struct {
	ID                  int64            `json:"id"`
	Created             string           `json:"created"`
	Email               string           `json:"email"`
	PasswordLastChanged string           `json:"passwordLastChanged"`
	FirstName           string           `json:"firstName"`
	LastName            string           `json:"lastName"`
	SubscribeWelcome    bool             `json:"subscribeWelcome"`
	SubscribeBlog       bool             `json:"subscribeBlog"`
	SubscribeHowto      bool             `json:"subscribeHowto"`
	SubscribeOnboarding bool             `json:"subscribeOnboarding"`
	PhoneCountry        wirePhoneCountry `json:"phoneCountry"`
	PhoneNumber         string           `json:"phoneNumber"`
	PhoneExtension      *string          `json:"phoneExtension"` // null when none
	Timezone            string           `json:"timezone"`
}

type wirePhoneCountry struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	DialCode string `json:"dialCode"`
}

type wireClient struct {
	ID              int64        `json:"id"`
	CreatedDate     string       `json:"createdDate"`
	Name            string       `json:"name"`
	AddressLine1    string       `json:"addressLine1"`
	AddressLine2    *string      `json:"addressLine2,omitempty"`
	AddressCity     string       `json:"addressCity"`
	AddressPostcode string       `json:"addressPostcode"`
	AddressCountry  string       `json:"addressCountry"`
	VAT             *string      `json:"vat,omitempty"`
	Currency        wireCurrency `json:"currency"`
}

type wireCurrency struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
}

type wireApp struct {
	ID        int64         `json:"id"`
	Created   string        `json:"created"`
	Name      string        `json:"name"`
	Platform  wireNamedID   `json:"platform"`
	WriteKey  string        `json:"writeKey"`
	Plan      wirePlanFlags `json:"plan"`
	Marketapp wireHash      `json:"marketapp"`
}

type wireNamedID struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type wirePlanFlags struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type wireHash struct {
	Hash *string `json:"hash"` // null for an app created from a name and a platform
}

type wireSession struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	UserID        int64  `json:"userId"`
	ClientID      *int64 `json:"clientId"` // null when the user has no client
	Token         string `json:"token"`
}

type wirePlatform struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	Name          string `json:"name"`
}

type wirePlan struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	IsLite      bool   `json:"isLite"`
	IsPro       bool   `json:"isPro"`
	IsDynamic   bool   `json:"isDynamic"`
	NeedBilling bool   `json:"needBilling"`
}

type wireMarketapp struct {
	Hash     string      `json:"hash"`
	Name     string      `json:"name"`
	Platform wireNamedID `json:"platform"`
}

// wireDate is RFC 3339 in UTC, whole seconds.
func wireDate(t time.Time) string {
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}

func toWireUser(st *pricing.Store, u pricing.User) wireUser {
	pc, _ := st.PhoneCountry(u.PhoneCountryID)
	return wireUser{
		ID: u.ID, Created: wireDate(u.Created), Email: u.Email,
		PasswordLastChanged: wireDate(u.PasswordLastChanged),
		FirstName:           u.FirstName, LastName: u.LastName,
		SubscribeWelcome: u.SubscribeWelcome, SubscribeBlog: u.SubscribeBlog,
		SubscribeHowto: u.SubscribeHowto, SubscribeOnboarding: u.SubscribeOnboarding,
		PhoneCountry:   wirePhoneCountry(pc),
		PhoneNumber:    u.PhoneNumber,
		PhoneExtension: u.PhoneExtension,
		Timezone:       u.Timezone,
	}
}

func toWireClient(st *pricing.Store, c pricing.Client) wireClient {
	cur, _ := st.Currency(c.CurrencyID)
	return wireClient{
		ID: c.ID, CreatedDate: wireDate(c.CreatedDate), Name: c.Name,
		AddressLine1: c.AddressLine1, AddressLine2: c.AddressLine2,
		AddressCity: c.AddressCity, AddressPostcode: c.AddressPostcode, AddressCountry: c.AddressCountry,
		VAT: c.VAT, Currency: wireCurrency(cur),
	}
}

func toWireApp(st *pricing.Store, a pricing.App) wireApp {
	p, _ := st.Platform(a.PlatformID)
	plan, _ := st.Plan(a.PlanID)
	return wireApp{
		ID: a.ID, Created: wireDate(a.Created), Name: a.Name,
		Platform:  wireNamedID{ID: p.ID, Name: p.Name},
		WriteKey:  a.WriteKey,
		Plan:      wirePlanFlags{IsLite: plan.IsLite, IsPro: plan.IsPro, IsDynamic: plan.IsDynamic, NeedBilling: plan.NeedBilling},
		Marketapp: wireHash{Hash: a.MarketappHash},
	}
}

func toWireSession(sess pricing.Session) wireSession {
	w := wireSession{
		ID: sess.ID, Created: wireDate(sess.Created), CreatorUserID: sess.CreatorUserID,
		UserID: sess.UserID, Token: sess.Token,
	}
	if sess.ClientID != 0 {
		w.ClientID = new(sess.ClientID)
	}
	return w
}
