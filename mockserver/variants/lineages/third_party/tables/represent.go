package tables

import (
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// Representations are built from committed (or staged) rows only, never from
// the request, so that what is answered is what is stored.

func (s *Server) userView(u userRow) wire.User {
	pc := s.t.phoneCountries[u.phoneCountryID]
	out := wire.User{
		ID:                  u.id,
		Created:             date(u.created),
		Email:               u.email,
		PasswordLastChanged: date(u.pwChanged),
		FirstName:           u.firstName,
		LastName:            u.lastName,
		SubscribeWelcome:    u.subscribe[0],
		SubscribeBlog:       u.subscribe[1],
		SubscribeHowto:      u.subscribe[2],
		SubscribeOnboarding: u.subscribe[3],
		PhoneCountry:        wire.PhoneCountry{ID: u.phoneCountryID},
		PhoneNumber:         u.phoneNumber,
		PhoneExtension:      u.phoneExtension,
		Timezone:            u.timezone,
	}
	if pc.id != 0 {
		out.PhoneCountry = wire.PhoneCountry{ID: pc.id, Name: pc.label(), DialCode: pc.dialCode}
	}
	if s.is(fDialCodeNoPlus) {
		out.PhoneCountry.DialCode = strings.TrimPrefix(out.PhoneCountry.DialCode, "+")
	}
	if s.is(fUserIDFloatRounded) {
		out.ID = float64(u.id)
	}
	return out
}

func clientView(c clientRow) wire.Client {
	return wire.Client{
		ID:              c.id,
		CreatedDate:     date(c.created),
		Name:            c.name,
		AddressLine1:    c.addressLine1,
		AddressLine2:    c.addressLine2,
		AddressCity:     c.addressCity,
		AddressPostcode: c.postcode,
		AddressCountry:  c.country,
		VAT:             c.vat,
		Currency:        wire.Currency{ID: c.currencyID, Code: c.currencyCode},
	}
}

type platformJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type planFlagsJSON struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type marketappRefJSON struct {
	Hash string `json:"hash"`
}

type appJSON struct {
	ID        int64            `json:"id"`
	Created   string           `json:"created"`
	Name      string           `json:"name"`
	Platform  platformJSON     `json:"platform"`
	WriteKey  string           `json:"writeKey"`
	Plan      planFlagsJSON    `json:"plan"`
	Marketapp marketappRefJSON `json:"marketapp"`
}

func (s *Server) appView(a appRow) appJSON {
	p := s.t.plans[a.planID]
	return appJSON{
		ID:        a.id,
		Created:   date(a.created),
		Name:      a.name,
		Platform:  platformJSON{a.platformID, s.t.platforms[a.platformID].name},
		WriteKey:  a.writeKey,
		Plan:      planFlagsJSON{p.lite, p.pro, p.dynamic, p.billed},
		Marketapp: marketappRefJSON{a.hash},
	}
}

type sessionJSON struct {
	// The ids are any only so that the string-id fault can put strings
	// there; normally they are int64 (clientId: nil for a user of no
	// client).
	ID            any    `json:"id"`
	Created       string `json:"created"`
	CreatorUserID any    `json:"creatorUserId"`
	UserID        any    `json:"userId"`
	ClientID      any    `json:"clientId"`
	Token         string `json:"token"`
}

func (s *Server) sessionView(r sessionRow) sessionJSON {
	out := sessionJSON{ID: r.id, Created: date(r.created), CreatorUserID: r.creator, UserID: r.userID, Token: r.token}
	if r.clientID != 0 {
		out.ClientID = r.clientID
	}
	if s.is(fSessionIDsAsStrings) {
		str := func(v int64) any { return strconv.FormatInt(v, 10) }
		out.ID, out.CreatorUserID, out.UserID = str(r.id), str(r.creator), str(r.userID)
		if r.clientID != 0 {
			out.ClientID = str(r.clientID)
		}
	}
	return out
}

type planJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	planFlagsJSON
}

type currencyItemJSON struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
	Name string `json:"name"`
}

type marketappJSON struct {
	Hash     string       `json:"hash"`
	Name     string       `json:"name"`
	Platform platformJSON `json:"platform"`
}

// collection is the wrapper object of 2.5: the items under the collection's
// name, and their count.
func collection(name string, items any, total int) map[string]any {
	return map[string]any{name: items, "total": total}
}
