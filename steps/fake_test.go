package steps

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeAPI is a small scripted implementation of the parts of the Pricing
// API that the step tests use: POST /sessions, GET /platforms, GET and PUT
// /users/:id and /clients/:id, plus /echo (answers what it received),
// /reply (answers the request body with the status of the query parameter
// status) and /flaky (drops the connection a set number of times). It is deliberately not the mockserver
// package: these tests check the steps, not the mock.
type fakeAPI struct {
	mu           sync.Mutex
	users        map[int]*fakeUser
	clients      map[int]*fakeClient
	tokens       map[string]int
	nextToken    int
	noUserRead   bool // GET /users/:id answers 404, as on a target without read endpoints
	noClientRead bool // GET /clients/:id answers 404
	flakyLeft    int  // /flaky drops this many more connections
	flakyHits    int
	logins       map[string]int // email -> successful logins
}

type fakeUser struct {
	ID                           int
	Email, Password, APIKey      string
	FirstName, LastName, TZ      string
	Subs                         [4]bool
	ClientID                     *int
	PhoneNumber                  string
	PasswordChanged, CreatedDate time.Time
}

// fakeClient has the fields of spec 2.2; nil optional fields are absent.
type fakeClient struct {
	ID                                                               int
	Name, AddressLine1, AddressCity, AddressPostcode, AddressCountry string
	AddressLine2, VAT                                                *string
	CurrencyID                                                       int
}

var subscribeFields = [4]string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"}

func newFakeAPI() *fakeAPI {
	one, two := 1, 2
	created := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	return &fakeAPI{
		users: map[int]*fakeUser{
			1: {ID: 1, Email: "qa@example.com", Password: "qa-password", APIKey: "qa-api-key",
				FirstName: "Quinn", LastName: "Assurance", TZ: "Europe/London", Subs: [4]bool{true, false, true, false},
				ClientID: &one, PhoneNumber: "7700900123", PasswordChanged: created, CreatedDate: created},
			2: {ID: 2, Email: "other@example.com", Password: "other-password", APIKey: "other-api-key",
				FirstName: "Olive", LastName: "Other", TZ: "America/New_York", Subs: [4]bool{false, true, false, true},
				ClientID: &two, PhoneNumber: "5550100", PasswordChanged: created, CreatedDate: created},
		},
		clients: map[int]*fakeClient{
			1: {ID: 1, Name: "QA Client Ltd", AddressLine1: "1 Test Street", AddressLine2: ptr("Floor 2"),
				AddressCity: "London", AddressPostcode: "EC1A 1BB", AddressCountry: "United Kingdom", CurrencyID: 1},
			2: {ID: 2, Name: "Other Client Inc", AddressLine1: "2 Other Avenue", AddressCity: "New York",
				AddressPostcode: "10001", AddressCountry: "United States", VAT: ptr("US-123"), CurrencyID: 3},
		},
		tokens: map[string]int{},
		logins: map[string]int{},
	}
}

func ptr[T any](v T) *T { return &v }

// start serves the fake on loopback and returns the base URL with /v1.
func (f *fakeAPI) start(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func (f *fakeAPI) user(id int) fakeUser {
	f.mu.Lock()
	defer f.mu.Unlock()
	return *f.users[id]
}

// client returns a copy of the client in which the optional fields are
// "<absent>" when nil, so that copies compare with ==.
func (f *fakeAPI) client(id int) fakeClient {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := *f.clients[id]
	for _, p := range []**string{&c.AddressLine2, &c.VAT} {
		v := "<absent>"
		if *p != nil {
			v = **p
		}
		*p = &v
	}
	return c
}

type apiError struct {
	FieldName string `json:"fieldName"`
	Error     string `json:"error"`
	Message   string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeErr(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, []apiError{{"", code, http.StatusText(status)}})
}

var (
	versionPrefix = regexp.MustCompile(`^/(v1|v1\.0)(/.*)$`)
	userPath      = regexp.MustCompile(`^/users/([^/]+)$`)
	clientPath    = regexp.MustCompile(`^/clients/([^/]+)$`)
)

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Pricing-Mock-Seed", "default") // it serves the default seed's accounts
	m := versionPrefix.FindStringSubmatch(r.URL.Path)
	if m == nil {
		writeErr(w, http.StatusNotFound, "NotFound")
		return
	}
	p := m[2]
	switch {
	case p == "/echo":
		f.echo(w, r)
	case p == "/flaky":
		f.flaky(w, r)
	case p == "/reply":
		status, _ := strconv.Atoi(r.URL.Query().Get("status"))
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	case p == "/sessions" && r.Method == http.MethodPost:
		f.login(w, r)
	case p == "/platforms" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"platforms": []map[string]any{{"id": 1, "name": "Android"}, {"id": 2, "name": "iOS"}}})
	case userPath.MatchString(p) && (r.Method == http.MethodGet || r.Method == http.MethodPut):
		f.userEndpoint(w, r, userPath.FindStringSubmatch(p)[1])
	case clientPath.MatchString(p) && (r.Method == http.MethodGet || r.Method == http.MethodPut):
		f.clientEndpoint(w, r, clientPath.FindStringSubmatch(p)[1])
	default:
		writeErr(w, http.StatusNotFound, "NotFound")
	}
}

func (f *fakeAPI) echo(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{"method": r.Method}
	q := map[string]string{}
	for k, v := range r.URL.Query() {
		q[k] = v[0]
	}
	out["query"] = q
	h := map[string]string{}
	for k, v := range r.Header {
		h[k] = v[0]
	}
	out["headers"] = h
	body, _ := io.ReadAll(r.Body)
	if len(body) > 0 {
		if json.Valid(body) {
			out["body"] = json.RawMessage(body)
		} else {
			out["body"] = string(body)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (f *fakeAPI) flaky(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.flakyHits++
	drop := f.flakyLeft > 0
	if drop {
		f.flakyLeft--
	}
	f.mu.Unlock()
	if drop {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

func (f *fakeAPI) login(w http.ResponseWriter, r *http.Request) {
	var creds struct{ Email, Password string }
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		_ = r.ParseForm()
		creds.Email, creds.Password = r.PostForm.Get("email"), r.PostForm.Get("password")
	} else if err := json.NewDecoder(r.Body).Decode(&creds); err != nil {
		writeErr(w, http.StatusBadRequest, "InvalidBody")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, u := range f.users {
		if strings.EqualFold(u.Email, creds.Email) && u.Password == creds.Password {
			f.nextToken++
			tok := fmt.Sprintf("tok-%d-%d", f.nextToken, time.Now().UnixNano())
			f.tokens[tok] = u.ID
			f.logins[u.Email]++
			writeJSON(w, http.StatusOK, map[string]any{
				"id": f.nextToken, "created": time.Now().UTC().Format(time.RFC3339), "creatorUserId": u.ID,
				"userId": u.ID, "clientId": u.ClientID, "token": tok,
			})
			return
		}
	}
	writeErr(w, http.StatusUnauthorized, "Unauthorized")
}

// caller authenticates a request; f.mu must be held. Every credential
// present must be valid and name the same user.
func (f *fakeAPI) caller(r *http.Request) (int, bool) {
	id := 0
	agree := func(uid int) bool {
		if uid == 0 || (id != 0 && id != uid) {
			return false
		}
		id = uid
		return true
	}
	if vals, ok := r.Header["Authorization"]; ok {
		scheme, key, _ := strings.Cut(vals[0], " ")
		uid := 0
		for _, u := range f.users {
			if strings.EqualFold(scheme, "api-key") && key != "" && u.APIKey == key {
				uid = u.ID
			}
		}
		if !agree(uid) {
			return 0, false
		}
	}
	if vals, ok := r.Header["Session-Token"]; ok && !agree(f.tokens[vals[0]]) {
		return 0, false
	}
	if vals, ok := r.URL.Query()["sessionToken"]; ok && !agree(f.tokens[vals[0]]) {
		return 0, false
	}
	return id, id != 0
}

func (f *fakeAPI) userEndpoint(w http.ResponseWriter, r *http.Request, rawID string) {
	f.recordEndpoint(w, r, rawID, func(caller, id int) (fakeRecord, bool, bool) {
		u := f.users[id]
		return u, u != nil && (r.Method != http.MethodGet || !f.noUserRead), caller == id
	})
}

// fakeRecord is what GET and PUT of one id read and change: a user or a
// client.
type fakeRecord interface {
	update(body io.Reader) []apiError
	wire() map[string]any
}

// recordEndpoint answers GET and PUT of one id: 401 without a caller, 404
// where find finds no record it may show, 403 where it is not the caller's,
// 400 for an update it refuses, else the record. f.mu is taken.
func (f *fakeAPI) recordEndpoint(w http.ResponseWriter, r *http.Request, rawID string, find func(caller, id int) (rec fakeRecord, found, callers bool)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	caller, ok := f.caller(r)
	if !ok {
		writeErr(w, http.StatusUnauthorized, "Unauthorized")
		return
	}
	id, _ := strconv.Atoi(rawID)
	rec, found, callers := find(caller, id)
	switch {
	case !found:
		writeErr(w, http.StatusNotFound, "NotFound")
		return
	case !callers:
		writeErr(w, http.StatusForbidden, "Forbidden")
		return
	}
	if r.Method == http.MethodPut {
		if errs := rec.update(r.Body); len(errs) > 0 {
			writeJSON(w, http.StatusBadRequest, errs)
			return
		}
	}
	writeJSON(w, http.StatusOK, rec.wire())
}

func (u *fakeUser) wire() map[string]any {
	out := map[string]any{
		"id": u.ID, "created": u.CreatedDate.Format(time.RFC3339), "email": u.Email,
		"passwordLastChanged": u.PasswordChanged.Format(time.RFC3339),
		"firstName":           u.FirstName, "lastName": u.LastName, "timezone": u.TZ,
		"phoneCountry": map[string]any{"id": 2, "name": "United States (+1)", "dialCode": "+1"},
		"phoneNumber":  u.PhoneNumber, "phoneExtension": nil,
	}
	for i, f := range subscribeFields {
		out[f] = u.Subs[i]
	}
	return out
}

// update validates the whole body first and changes nothing on error.
func (u *fakeUser) update(body io.Reader) []apiError {
	b, bad := readBody(body)
	if bad != nil {
		return bad
	}
	email := b.str("email", "InvalidEmail", 3)
	if len(b.errs) == 0 && (!strings.Contains(email, "@") || strings.Contains(email, " ")) {
		b.errs = append(b.errs, apiError{"email", "InvalidEmail", "email is wrong"})
	}
	first := b.str("firstName", "InvalidFirstName", 1)
	last := b.str("lastName", "InvalidLastName", 1)
	tz := b.str("timezone", "InvalidTimezone", 1)
	var subs [4]bool
	for i, f := range subscribeFields {
		if err := json.Unmarshal(b.in[f], &subs[i]); err != nil {
			b.errs = append(b.errs, apiError{f, invalidCode(f), f + " must be a boolean"})
		}
	}
	var password *string
	if raw, ok := b.in["password"]; ok {
		if err := json.Unmarshal(raw, &password); err != nil || (password != nil && len(*password) < 6) {
			b.errs = append(b.errs, apiError{"password", "InvalidPassword", "at least 6 characters"})
		}
	}
	phone := u.PhoneNumber
	if _, ok := b.in["phoneNumber"]; ok {
		phone = b.str("phoneNumber", "InvalidPhoneNumber", 1)
	}
	if len(b.errs) > 0 {
		return b.errs
	}
	u.Email, u.FirstName, u.LastName, u.TZ, u.Subs, u.PhoneNumber = email, first, last, tz, subs, phone
	if password != nil {
		u.Password = *password
		u.PasswordChanged = time.Now().UTC()
	}
	return nil
}

// updateBody is the body of a PUT as the fake's updates check it: a JSON
// object, its fields checked one by one, every refusal kept (errs), so that
// an update changes nothing unless all pass.
type updateBody struct {
	in   map[string]json.RawMessage
	errs []apiError
}

// readBody decodes an update's body, or refuses one that is no JSON object.
func readBody(body io.Reader) (*updateBody, []apiError) {
	b := &updateBody{}
	if err := json.NewDecoder(body).Decode(&b.in); err != nil {
		return nil, []apiError{{"", "InvalidBody", "the body is not a JSON object"}}
	}
	return b, nil
}

// str is a string field of min to 255 bytes, or a refusal with code.
func (b *updateBody) str(field, code string, min int) string {
	var s string
	if err := json.Unmarshal(b.in[field], &s); err != nil || len(s) < min || len(s) > 255 {
		b.errs = append(b.errs, apiError{field, code, field + " is wrong"})
	}
	return s
}

// invalidCode is the code of a field the fake names by the field:
// Invalid and the field's name, capitalised.
func invalidCode(field string) string {
	return "Invalid" + strings.ToUpper(field[:1]) + field[1:]
}

func (f *fakeAPI) clientEndpoint(w http.ResponseWriter, r *http.Request, rawID string) {
	f.recordEndpoint(w, r, rawID, func(caller, id int) (fakeRecord, bool, bool) {
		c := f.clients[id]
		own := f.users[caller].ClientID
		return c, c != nil && (r.Method != http.MethodGet || !f.noClientRead), own != nil && *own == id
	})
}

func (c *fakeClient) wire() map[string]any {
	codes := map[int]string{1: "GBP", 2: "EUR", 3: "USD"}
	out := map[string]any{
		"id": c.ID, "createdDate": "2024-01-02T03:04:05Z", "name": c.Name,
		"addressLine1": c.AddressLine1, "addressCity": c.AddressCity,
		"addressPostcode": c.AddressPostcode, "addressCountry": c.AddressCountry,
		"currency": map[string]any{"id": c.CurrencyID, "code": codes[c.CurrencyID]},
	}
	if c.AddressLine2 != nil {
		out["addressLine2"] = *c.AddressLine2
	}
	if c.VAT != nil {
		out["vat"] = *c.VAT
	}
	return out
}

// update requires every field of the body table of POST /clients, as the
// mock does, and changes nothing on error.
func (c *fakeClient) update(body io.Reader) []apiError {
	b, bad := readBody(body)
	if bad != nil {
		return bad
	}
	str := func(field string) string { return b.str(field, invalidCode(field), 1) }
	optional := func(field string) *string {
		raw, ok := b.in[field]
		if !ok || string(raw) == "null" {
			return nil
		}
		s := str(field)
		return &s
	}
	name, line1, city, postcode, country := str("name"), str("addressLine1"), str("addressCity"), str("addressPostcode"), str("addressCountry")
	line2, vat := optional("addressLine2"), optional("vat")
	var currency struct {
		ID *int `json:"id"`
	}
	if err := json.Unmarshal(b.in["currency"], &currency); err != nil || currency.ID == nil || *currency.ID < 1 || *currency.ID > 3 {
		b.errs = append(b.errs, apiError{"currency.id", "InvalidCurrencyId", "unknown currency"})
	}
	var terms string
	if err := json.Unmarshal(b.in["terms"], &terms); err != nil || terms != "I agree" {
		b.errs = append(b.errs, apiError{"terms", "InvalidTerms", "the terms must be accepted"})
	}
	if _, ok := b.in["app"]; ok {
		b.errs = append(b.errs, apiError{"app", "InvalidApp", "app is not accepted here"})
	}
	if len(b.errs) > 0 {
		return b.errs
	}
	c.Name, c.AddressLine1, c.AddressCity, c.AddressPostcode, c.AddressCountry = name, line1, city, postcode, country
	c.AddressLine2, c.VAT, c.CurrencyID = line2, vat, *currency.ID
	return nil
}
