package shards

import (
	"encoding/hex"
	"strconv"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// userJSON is the user of 2.1, then the password hash that the
// password-hash-returned fault writes.
type userJSON struct {
	wire.User
	PasswordHash string `json:"passwordHash,omitempty"`
}

// userView renders a user; the caller holds the record's lock or owns d.
func (s *Server) userView(id int64, d *userData) userJSON {
	v := userJSON{User: wire.User{
		ID: id, Created: iso(d.created), Email: d.email,
		PasswordLastChanged: iso(d.pwChanged), FirstName: d.first, LastName: d.last,
		SubscribeWelcome: d.subs[0], SubscribeBlog: d.subs[1],
		SubscribeHowto: d.subs[2], SubscribeOnboarding: d.subs[3],
		PhoneNumber: d.phoneNumber, Timezone: d.timezone,
	}}
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

// clientView renders a client; the caller holds c.mu or owns c.
func clientView(c *clientRec) wire.Client {
	v := wire.Client{
		ID: c.id, CreatedDate: iso(c.created), Name: c.d.name,
		AddressLine1: c.d.addr1, AddressLine2: c.d.addr2, AddressCity: c.d.city,
		AddressPostcode: c.d.postcode, AddressCountry: c.d.country, VAT: c.d.vat,
	}
	if cur := findCurrency(c.d.currency); cur != nil {
		v.Currency = *cur
	}
	return v
}

// planFlags is an app's plan as 2.3 writes it.
type planFlags = wire.Plan

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
		v.Plan = p.Plan
	}
	return v
}
