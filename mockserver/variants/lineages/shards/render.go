package shards

import (
	"encoding/hex"
	"strconv"
)

type userJSON struct {
	ID                  int64        `json:"id"`
	Created             string       `json:"created"`
	Email               string       `json:"email"`
	PasswordLastChanged string       `json:"passwordLastChanged"`
	FirstName           string       `json:"firstName"`
	LastName            string       `json:"lastName"`
	SubscribeWelcome    bool         `json:"subscribeWelcome"`
	SubscribeBlog       bool         `json:"subscribeBlog"`
	SubscribeHowto      bool         `json:"subscribeHowto"`
	SubscribeOnboarding bool         `json:"subscribeOnboarding"`
	PhoneCountry        phoneCountry `json:"phoneCountry"`
	PhoneNumber         string       `json:"phoneNumber"`
	PhoneExtension      any          `json:"phoneExtension"`
	Timezone            string       `json:"timezone"`
	PasswordHash        string       `json:"passwordHash,omitempty"`
}

// userView renders a user; the caller holds the record's lock or owns d.
func (s *Server) userView(id int64, d *userData) userJSON {
	v := userJSON{
		ID: id, Created: iso(d.created), Email: d.email,
		PasswordLastChanged: iso(d.pwChanged), FirstName: d.first, LastName: d.last,
		SubscribeWelcome: d.subs[0], SubscribeBlog: d.subs[1],
		SubscribeHowto: d.subs[2], SubscribeOnboarding: d.subs[3],
		PhoneNumber: d.phoneNumber, Timezone: d.timezone,
	}
	if pc := findPhoneCountry(d.phoneCountry); pc != nil {
		v.PhoneCountry = *pc
	}
	if d.phoneExt != nil {
		v.PhoneExtension = *d.phoneExt
		if n, err := strconv.Atoi(*d.phoneExt); err == nil && s.is(faultPhoneExtensionNumber) {
			v.PhoneExtension = n
		}
	}
	if s.is(faultPasswordHashReturned) {
		v.PasswordHash = hex.EncodeToString(d.hash)
	}
	return v
}

func (u *userRec) view(s *Server) userJSON {
	u.mu.Lock()
	defer u.mu.Unlock()
	return s.userView(u.id, &u.d)
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
	Vat             *string  `json:"vat,omitempty"`
	Currency        currency `json:"currency"`
}

// clientView renders a client; the caller holds c.mu or owns c.
func clientView(c *clientRec) clientJSON {
	v := clientJSON{
		ID: c.id, CreatedDate: iso(c.created), Name: c.d.name,
		AddressLine1: c.d.addr1, AddressLine2: c.d.addr2, AddressCity: c.d.city,
		AddressPostcode: c.d.postcode, AddressCountry: c.d.country, Vat: c.d.vat,
	}
	if cur := findCurrency(c.d.currency); cur != nil {
		v.Currency = *cur
	}
	return v
}

type planFlags struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type hashJSON struct {
	Hash string `json:"hash"`
}

type appJSON struct {
	ID        int64     `json:"id"`
	Created   string    `json:"created"`
	Name      string    `json:"name"`
	Platform  platform  `json:"platform"`
	WriteKey  string    `json:"writeKey"`
	Plan      planFlags `json:"plan"`
	Marketapp hashJSON  `json:"marketapp"`
}

func appView(a *appRec) appJSON {
	v := appJSON{
		ID: a.id, Created: iso(a.created), Name: a.name,
		WriteKey: a.writeKey, Marketapp: hashJSON{a.hash},
	}
	if p := findPlatform(a.platform); p != nil {
		v.Platform = *p
	}
	if p := findPlan(a.plan); p != nil {
		v.Plan = planFlags{p.IsLite, p.IsPro, p.IsDynamic, p.NeedBilling}
	}
	return v
}
