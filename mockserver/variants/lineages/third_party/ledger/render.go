package ledger

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lookup"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// apiError is a refusal. status 400 carries fields; the others a code and
// a message.
type apiError struct {
	status int
	code   string
	msg    string
	fields []fieldError
	extra  map[string]any // forbidden-body-leak fault only
}

type fieldError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s %s", e.status, e.code, e.msg) }

func errNotFound(msg string) *apiError {
	return &apiError{status: 404, code: "NotFound", msg: msg}
}

func errForbidden(msg string) *apiError {
	return &apiError{status: 403, code: "Forbidden", msg: msg}
}

func errFields(fe []fieldError) *apiError {
	return &apiError{status: 400, fields: fe}
}

func errField(name, code, msg string) *apiError {
	return errFields([]fieldError{{name, code, msg}})
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		status, b = 500, []byte(`{"error":"InternalError","message":"encoding failed"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

func writeErr(w http.ResponseWriter, e *apiError) {
	if e.status == 400 {
		writeJSON(w, 400, e.fields)
		return
	}
	body := map[string]any{"error": e.code, "message": e.msg}
	for k, v := range e.extra {
		body[k] = v
	}
	writeJSON(w, e.status, body)
}

// (s *Server) variant that knows the single-error-object fault.
func (s *Server) writeErr(w http.ResponseWriter, e *apiError) {
	if e.status == 400 && len(e.fields) == 1 && s.is("single-error-object") {
		writeJSON(w, 400, e.fields[0])
		return
	}
	writeErr(w, e)
}

const isoMillis = "2006-01-02T15:04:05.000Z07:00"

func isoDate(t time.Time) string { return t.UTC().Format(isoMillis) }

// ---- catalogues ----

type platform struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type currency struct {
	ID      int64  `json:"id"`
	Code    string `json:"code"`
	Name    string `json:"name"`
	numeric int
}

// plan is a plan of the catalogue: its id, its name and its flags.
type plan = wire.PlanItem

// phoneCountry is a user's phone country as 2.1 writes it.
type phoneCountry = wire.PhoneCountry

type marketApp struct {
	Hash       string
	Name       string
	PlatformID int64
}

var (
	platforms = []platform{{1, "Android"}, {2, "iOS"}}
	// catalogue of currencies (numeric ISO 4217 codes kept only for the
	// currency-numeric fault)
	currencies = []currency{
		{1, "EUR", "Euro", 978}, {2, "GBP", "Pound sterling", 826},
		{3, "USD", "US dollar", 840}, {4, "JPY", "Yen", 392},
	}
	plans = []plan{
		{ID: 1, Name: "Lite", Plan: wire.Plan{IsLite: true}},
		{ID: 2, Name: "Pro", Plan: wire.Plan{IsPro: true, NeedBilling: true}},
		{ID: 3, Name: "Dynamic", Plan: wire.Plan{IsDynamic: true, NeedBilling: true}},
	}
	phoneCountries = []phoneCountry{
		{ID: 1, Name: "United Kingdom (+44)", DialCode: "+44"},
		{ID: 2, Name: "United States (+1)", DialCode: "+1"},
		{ID: 3, Name: "Germany (+49)", DialCode: "+49"},
		{ID: 4, Name: "France (+33)", DialCode: "+33"},
		{ID: 5, Name: "Japan (+81)", DialCode: "+81"},
	}
	// sha1("ledger-market-1") ... sha1("ledger-market-5")
	marketApps = []marketApp{
		{"b03a1bb60cd338b32e4bec12d8916e5cc484be1d", "Puzzle Harbour", 1},
		{"56cce2ac75189011953756631735af3ef4e791f9", "Puzzle Harbour", 2},
		{"48d63f7f335a9bc1138085353f606d1f9a0059cc", "Trail Runner", 1},
		{"36da6d664d05cee3f67c89ecb19a63885ad4273f", "Budget Owl", 2},
		{"f0eb2850b0f017b30117f9654b7591f90efbee11", "Café Crème", 1},
	}
)

func findPlatform(id int64) *platform {
	return lookup.First(platforms, func(x *platform) bool { return x.ID == id })
}

func findCurrency(id int64) *currency {
	return lookup.First(currencies, func(x *currency) bool { return x.ID == id })
}

func findPlan(id int64) *plan {
	return lookup.First(plans, func(x *plan) bool { return x.ID == id })
}

func findPhoneCountry(id int64) *phoneCountry {
	return lookup.First(phoneCountries, func(x *phoneCountry) bool { return x.ID == id })
}

func findMarketApp(hash string) *marketApp {
	return lookup.First(marketApps, func(x *marketApp) bool { return x.Hash == hash })
}

func findMarketAppByName(name string, platformID int64) *marketApp {
	return lookup.First(marketApps, func(x *marketApp) bool { return x.Name == name && x.PlatformID == platformID })
}

// ---- resource representations ----

func (s *Server) renderUser(u *userRec) map[string]any {
	pc := findPhoneCountry(u.PhoneCountryID)
	var pcv any
	if pc != nil {
		pcv = map[string]any{"id": pc.ID, "name": pc.Name, "dialCode": pc.DialCode}
	}
	var ext any
	if u.PhoneExt != nil {
		ext = *u.PhoneExt
	}
	return map[string]any{
		"id":                  u.ID,
		"created":             isoDate(u.Created),
		"email":               u.Email,
		"passwordLastChanged": isoDate(u.PasswordLastChanged),
		"firstName":           u.FirstName,
		"lastName":            u.LastName,
		"subscribeWelcome":    u.SubWelcome,
		"subscribeBlog":       u.SubBlog,
		"subscribeHowto":      u.SubHowto,
		"subscribeOnboarding": u.SubOnboarding,
		"phoneCountry":        pcv,
		"phoneNumber":         u.PhoneNumber,
		"phoneExtension":      ext,
		"timezone":            u.Timezone,
	}
}

func (s *Server) renderClient(c *clientRec) map[string]any {
	cur := findCurrency(c.CurrencyID)
	curv := map[string]any{"id": c.CurrencyID, "code": ""}
	if cur != nil {
		curv["code"] = cur.Code
		if s.is("currency-numeric") {
			curv["code"] = cur.numeric
		}
	}
	m := map[string]any{
		"id":              c.ID,
		"createdDate":     isoDate(c.Created),
		"name":            c.Name,
		"addressLine1":    c.AddressLine1,
		"addressCity":     c.AddressCity,
		"addressPostcode": c.AddressPostcode,
		"addressCountry":  c.AddressCountry,
		"currency":        curv,
	}
	if c.AddressLine2 != nil {
		m["addressLine2"] = *c.AddressLine2
	}
	if c.VAT != nil {
		m["vat"] = *c.VAT
	}
	return m
}

func (s *Server) renderApp(a *appRec) map[string]any {
	pl := findPlatform(a.PlatformID)
	pn := ""
	if pl != nil {
		pn = pl.Name
	}
	pp := findPlan(a.PlanID)
	planv := map[string]any{"isLite": false, "isPro": false, "isDynamic": false, "needBilling": false}
	if pp != nil {
		planv = map[string]any{"isLite": pp.IsLite, "isPro": pp.IsPro, "isDynamic": pp.IsDynamic, "needBilling": pp.NeedBilling}
	}
	wk := a.WriteKey
	if s.is("writekey-uuid") && len(wk) == 32 {
		wk = wk[0:8] + "-" + wk[8:12] + "-" + wk[12:16] + "-" + wk[16:20] + "-" + wk[20:32]
	}
	return map[string]any{
		"id":        a.ID,
		"created":   isoDate(a.Created),
		"name":      a.Name,
		"platform":  map[string]any{"id": a.PlatformID, "name": pn},
		"writeKey":  wk,
		"plan":      planv,
		"marketapp": map[string]any{"hash": a.Hash},
	}
}

func renderSession(ss *sessionRec) map[string]any {
	var cid any
	if ss.ClientID != 0 {
		cid = ss.ClientID
	}
	return map[string]any{
		"id":            ss.ID,
		"created":       isoDate(ss.Created),
		"creatorUserId": ss.CreatorID,
		"userId":        ss.UserID,
		"clientId":      cid,
		"token":         ss.Token,
	}
}

func jsonMarshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(b, '\n'), err
}
