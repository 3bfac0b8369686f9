package snapshots

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// dateLayout writes microseconds and a numeric offset: valid ISO 8601 and
// RFC 3339 both, stored at the same precision so a date reads back as sent.
const dateLayout = "2006-01-02T15:04:05.000000-07:00"

func fmtDate(t time.Time) string { return t.In(zone).Format(dateLayout) }

// stamp truncates to the written precision so that stored and shown times
// are the same instant.
func stamp(t time.Time) time.Time { return t.Truncate(time.Microsecond).In(zone) }

func (s *Server) userRep(u *user) wire.User {
	pc, _ := s.cat.phoneCountry(u.phoneCountryID)
	return wire.User{
		ID:                  u.id,
		Created:             fmtDate(u.created),
		Email:               u.email,
		PasswordLastChanged: fmtDate(u.pwChanged),
		FirstName:           u.firstName,
		LastName:            u.lastName,
		SubscribeWelcome:    u.subs[0],
		SubscribeBlog:       u.subs[1],
		SubscribeHowto:      u.subs[2],
		SubscribeOnboarding: u.subs[3],
		PhoneCountry:        wire.PhoneCountry{ID: pc.id, Name: pc.name, DialCode: pc.dialCode},
		PhoneNumber:         u.phoneNumber,
		PhoneExtension:      u.phoneExt,
		Timezone:            u.timezone,
	}
}

func (s *Server) clientRep(c *client) wire.Client {
	cur, _ := s.cat.currency(c.currencyID)
	return wire.Client{
		ID:              c.id,
		CreatedDate:     fmtDate(c.created),
		Name:            c.name,
		AddressLine1:    c.line1,
		AddressLine2:    c.line2,
		AddressCity:     c.city,
		AddressPostcode: c.postcode,
		AddressCountry:  c.country,
		VAT:             c.vat,
		Currency:        wire.Currency{ID: cur.id, Code: cur.code},
	}
}

type platformRep struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type planFlags struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type marketappRep struct {
	Hash string `json:"hash"`
}

type appRep struct {
	ID        int64        `json:"id"`
	Created   string       `json:"created"`
	Name      string       `json:"name"`
	Platform  platformRep  `json:"platform"`
	WriteKey  string       `json:"writeKey"`
	Plan      planFlags    `json:"plan"`
	Marketapp marketappRep `json:"marketapp"`
}

func (s *Server) appRep(a *app) appRep {
	p, _ := s.cat.platform(a.platformID)
	pl, _ := s.cat.plan(a.planID)
	return appRep{
		ID:        a.id,
		Created:   fmtDate(a.created),
		Name:      a.name,
		Platform:  platformRep{ID: p.id, Name: p.name},
		WriteKey:  a.writeKey,
		Plan:      planFlags{IsLite: pl.lite, IsPro: pl.pro, IsDynamic: pl.dynamic, NeedBilling: pl.needBilling},
		Marketapp: marketappRep{Hash: a.hash},
	}
}

func sessionRepOf(x *session) wire.Session {
	return wire.Session{ID: x.id, Created: fmtDate(x.created), CreatorUserID: x.userID, UserID: x.userID, ClientID: x.clientID, Token: x.token}
}

type currencyItem struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
	Name string `json:"name"`
}

type planItem struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	planFlags
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// writeBare answers with a status and no body: only 400 has a body shape in
// the spec, and an empty body cannot contradict it.
func writeBare(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(status)
}

// failure is a refused request. Only a 400 carries field errors.
type failure struct {
	status int
	errs   []fieldError
}

func fail(status int) *failure { return &failure{status: status} }

func badRequest(field, code, msg string) *failure {
	return &failure{status: http.StatusBadRequest, errs: []fieldError{{FieldName: field, Error: code, Message: msg}}}
}

func writeFailure(w http.ResponseWriter, f *failure) {
	switch f.status {
	case http.StatusBadRequest:
		errs := f.errs
		if errs == nil {
			errs = []fieldError{}
		}
		writeJSON(w, http.StatusBadRequest, errs)
	case http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", `api-key realm="pricing", session-token realm="pricing"`)
		writeBare(w, http.StatusUnauthorized)
	default:
		writeBare(w, f.status)
	}
}
