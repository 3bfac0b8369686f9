package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps"
)

// The credential forms an operation is sent with.
var creds = []string{"api-key", "session-token", "session-query", "none", "wrong-key", "token-as-api-key", "key-as-session-token", "key-as-session-query"}

// The ids of the path, as the actor sees them.
var paths = []string{"own", "other", "unknown", "malformed"}

// The bodies: valid, or one field of 7.3 wrong.
var bodies = []string{"valid", "rename", "rename-email-invalid", "firstName-empty", "lastName-empty", "email-invalid", "password-short", "lastName-256"}

// renames are the first names a "rename" body gives; each sequence starts
// from the accounts' own.
var renames = []string{"contract-ada", "contract-grace", "contract-alan"}

// op is one PUT /users/:userId.
type op struct {
	res                     string // "users" or "clients": PUT /users/:userId or PUT /clients/:clientId
	actor, cred, path, body string
	rename                  string // the new first name (or client name) of a "rename" body
	// name is the first name (or client name) the body carries when it
	// renames nothing: the one the reference holds when it is sent.
	name string
}

func (o op) kind() string { return "PUT /" + o.res + " " + o.cred + " " + o.path + " " + o.body }

func (o op) describe() string {
	return fmt.Sprintf("PUT /%s (%s id) by account %s with %s and a %s body", o.res, o.path, o.actor, o.cred, o.body)
}

// clientBodies are the bodies of PUT /clients: valid, a rename, a rename
// with terms other than "I agree" (4.3), a name missing (7.3) or too long (8).
var clientBodies = []string{"valid", "rename", "rename-terms-wrong", "name-empty", "name-256"}

// sequence is a run of operations.
type sequence struct {
	ops    []op
	reason string
	want   outcome // the reference's answer to the last operation
	// state, when the divergence showed in a later read: the account and
	// the first name the reference holds.
	stateAcct, stateFirst string
	first                 map[string]string // the accounts' own first names
}

func genSequence(t *rapid.T) sequence {
	gen := rapid.Custom(func(t *rapid.T) op {
		o := op{
			res:   rapid.SampledFrom([]string{"users", "clients"}).Draw(t, "resource"),
			actor: rapid.SampledFrom([]string{"A", "B"}).Draw(t, "actor"),
			cred:  rapid.SampledFrom(creds).Draw(t, "cred"),
			path:  rapid.SampledFrom(paths).Draw(t, "path"),
		}
		if o.res == "users" {
			o.body = rapid.SampledFrom(bodies).Draw(t, "body")
		} else {
			o.body = rapid.SampledFrom(clientBodies).Draw(t, "clientBody")
		}
		if strings.HasPrefix(o.body, "rename") {
			o.rename = rapid.SampledFrom(renames).Draw(t, "rename")
		}
		return o
	})
	return sequence{ops: rapid.SliceOfN(gen, 1, 6).Draw(t, "ops")}
}

// account is what the explorer knows of one account.
type account struct {
	email, password, apiKey string
	userID                  int64
	token                   string
	// The user's names and timezone as the target holds them (its read
	// extension), else the profile's: a valid body changes nothing, and
	// the restore writes them back.
	firstName, lastName, timezone string
	clientID                      int64
	client                        map[string]any // the client's fields as read, else the profile's address
	subscribe                     map[string]any // the four flags, as read; nil: the suite's template's
	phone                         map[string]any // phoneCountry, phoneNumber, phoneExtension, as read
}

// explorer sends operations to the target and asks the reference.
type explorer struct {
	ctx     context.Context
	p       steps.Profile
	http    *http.Client
	acct    map[string]*account
	catalog refCatalog
	// hasRead: the target answers GET /users/:id, so the state a sequence
	// leaves can be compared after each operation.
	hasRead bool
	// want is the first name the reference holds for each account.
	want map[string]string
}

func newExplorer(ctx context.Context, p steps.Profile, hc *http.Client, notes io.Writer) (*explorer, error) {
	suite := steps.NewSuite(p, steps.Options{HTTPClient: hc, Output: notes})
	if err := suite.Preflight(ctx); err != nil {
		return nil, err
	}
	p = suite.Profile()
	e := &explorer{ctx: ctx, p: p, http: hc, acct: map[string]*account{
		"A": {email: p.Email, password: p.Password, apiKey: p.APIKey},
		"B": {email: p.OtherEmail, password: p.OtherPassword, apiKey: p.OtherAPIKey},
	}}
	for name, a := range e.acct {
		status, body, err := e.do(http.MethodPost, "/sessions", nil, fmt.Sprintf(`{"email":%q,"password":%q}`, a.email, a.password))
		if err != nil || status != http.StatusOK {
			return nil, fmt.Errorf("account %s cannot log in: %d %v", name, status, err)
		}
		var s struct {
			UserID   int64  `json:"userId"`
			ClientID int64  `json:"clientId"`
			Token    string `json:"token"`
		}
		if err := json.Unmarshal(body, &s); err != nil {
			return nil, err
		}
		a.userID, a.clientID, a.token = s.UserID, s.ClientID, s.Token
		a.client = e.readClient(a)
		a.firstName, a.lastName, a.timezone = e.p.FirstName, e.p.LastName, "Europe/London"
		if name == "B" {
			a.firstName, a.lastName = e.p.OtherFirstName, e.p.OtherLastName
		}
		h := http.Header{"Authorization": {"api-key " + a.apiKey}}
		if status, body, err := e.do(http.MethodGet, fmt.Sprintf("/users/%d", a.userID), h, ""); err == nil && status == http.StatusOK {
			e.hasRead = true
			var u struct{ FirstName, LastName, Timezone string }
			if json.Unmarshal(body, &u) == nil && u.FirstName != "" && u.LastName != "" {
				a.firstName, a.lastName = u.FirstName, u.LastName
				if u.Timezone != "" {
					a.timezone = u.Timezone
				}
			}
			var all map[string]any
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.UseNumber()
			if dec.Decode(&all) == nil {
				a.subscribe, a.phone = map[string]any{}, map[string]any{}
				for _, k := range []string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"} {
					if v, ok := all[k].(bool); ok {
						a.subscribe[k] = v
					}
				}
				if pc, ok := all["phoneCountry"].(map[string]any); ok && pc["id"] != nil {
					a.phone["phoneCountry"] = map[string]any{"id": pc["id"]}
				}
				for _, k := range []string{"phoneNumber", "phoneExtension"} {
					if v, ok := all[k]; ok {
						a.phone[k] = v
					}
				}
			}
		}
		if a.firstName == "" || a.lastName == "" {
			return nil, fmt.Errorf("account %s: the target has no read extension GET /users/:id and the profile gives no names (set PRICING_FIRST_NAME … or run against a target with it)", name)
		}
	}
	e.catalog = refCatalog{p: p, emails: map[string]int64{strings.ToLower(p.Email): e.acct["A"].userID, strings.ToLower(p.OtherEmail): e.acct["B"].userID}}
	return e, nil
}

func (e *explorer) other(actor string) string {
	if actor == "A" {
		return "B"
	}
	return "A"
}

// do sends one request.
func (e *explorer) do(method, path string, header http.Header, body string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(e.ctx, method, e.p.BaseURL+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := e.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, b, err
}

// readClient is the account's client as a PUT /clients body: as the
// target shows it (GET /clients/:id), else the profile's address.
func (e *explorer) readClient(a *account) map[string]any {
	b := map[string]any{
		"name": "contract-explore-client", "addressLine1": e.p.MustValue("address_line1"), "addressLine2": e.p.MustValue("address_line2"),
		"addressCity": e.p.MustValue("address_city"), "addressPostcode": e.p.MustValue("address_postcode"),
		"addressCountry": e.p.MustValue("address_country"), "vat": e.p.MustValue("vat"),
		"currency": map[string]any{"id": json.Number(e.p.MustValue("currency_id"))}, "terms": "I agree",
	}
	h := http.Header{"Authorization": {"api-key " + a.apiKey}}
	status, body, err := e.do(http.MethodGet, fmt.Sprintf("/clients/%d", a.clientID), h, "")
	if err != nil || status != http.StatusOK {
		return b
	}
	var c map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&c) != nil {
		return b
	}
	for _, k := range []string{"name", "addressLine1", "addressLine2", "addressCity", "addressPostcode", "addressCountry", "vat"} {
		if v, ok := c[k]; ok {
			b[k] = v
		} else {
			delete(b, k)
		}
	}
	if cur, ok := c["currency"].(map[string]any); ok && cur["id"] != nil {
		b["currency"] = map[string]any{"id": cur["id"]}
	}
	return b
}

// clientBodyOf is the body of a PUT /clients operation: the actor's client
// as it is, with one change.
func (e *explorer) clientBodyOf(o op) map[string]any {
	b := map[string]any{}
	for k, v := range e.acct[o.actor].client {
		b[k] = v
	}
	if o.name != "" {
		b["name"] = o.name
	}
	switch o.body {
	case "rename":
		b["name"] = o.rename
	case "rename-terms-wrong":
		b["name"] = o.rename
		b["terms"] = "no"
	case "name-empty":
		b["name"] = ""
	case "name-256":
		b["name"] = strings.Repeat("x", 256)
	}
	return b
}

// bodyOf is the JSON body of an operation: the actor's own account as the
// profile gives it (so a valid update changes nothing), with one field
// wrong.
func (e *explorer) bodyOf(o op) map[string]any {
	if o.res == "clients" {
		return e.clientBodyOf(o)
	}
	a := e.acct[o.actor]
	phone := e.p.MustValue("phone_number")
	b := map[string]any{
		"email": a.email, "firstName": nameOr(o.name, a.firstName), "lastName": a.lastName,
		"subscribeWelcome": true, "subscribeBlog": false, "subscribeHowto": true, "subscribeOnboarding": false,
		"timezone": a.timezone, "password": nil,
		"phoneCountry": map[string]any{"id": json.Number(e.p.MustValue("phone_country_id"))}, "phoneNumber": phone,
		"phoneExtension": nil,
	}
	for k, v := range a.subscribe {
		b[k] = v
	}
	for k, v := range a.phone {
		b[k] = v
	}
	switch o.body {
	case "rename":
		b["firstName"] = o.rename
	case "rename-email-invalid":
		b["firstName"] = o.rename
		b["email"] = "not-an-email"
	case "firstName-empty":
		b["firstName"] = ""
	case "lastName-empty":
		b["lastName"] = ""
	case "email-invalid":
		b["email"] = "not-an-email"
	case "password-short":
		b["password"] = "abcde"
	case "lastName-256":
		b["lastName"] = strings.Repeat("x", 256)
	}
	return b
}

// send sends an operation to the target.
func (e *explorer) send(o op) outcome {
	a := e.acct[o.actor]
	h := http.Header{}
	q := ""
	switch o.cred {
	case "api-key":
		h.Set("Authorization", "api-key "+a.apiKey)
	case "session-token":
		h.Set("session-token", a.token)
	case "session-query":
		q = "?sessionToken=" + url.QueryEscape(a.token)
	case "wrong-key":
		h.Set("Authorization", "api-key contract-explore-no-such-key")
	case "token-as-api-key":
		h.Set("Authorization", "api-key "+a.token)
	case "key-as-session-token":
		h.Set("session-token", a.apiKey)
	case "key-as-session-query":
		q = "?sessionToken=" + url.QueryEscape(a.apiKey)
	}
	body, _ := json.Marshal(e.bodyOf(o))
	status, resp, err := e.do(http.MethodPut, e.pathOf(o)+q, h, string(body))
	if err != nil {
		return outcome{status: -1, err: err.Error()}
	}
	out := outcome{status: status}
	if status == http.StatusBadRequest {
		var errs []struct {
			FieldName string `json:"fieldName"`
		}
		_ = json.Unmarshal(resp, &errs)
		for _, x := range errs {
			out.fields = append(out.fields, x.FieldName)
		}
		slices.Sort(out.fields)
		out.fields = slices.Compact(out.fields)
	}
	return out
}

func (e *explorer) pathOf(o op) string {
	id := func(a *account) int64 {
		if o.res == "clients" {
			return a.clientID
		}
		return a.userID
	}
	switch o.path {
	case "own":
		return fmt.Sprintf("/%s/%d", o.res, id(e.acct[o.actor]))
	case "other":
		return fmt.Sprintf("/%s/%d", o.res, id(e.acct[e.other(o.actor)]))
	case "unknown":
		return "/" + o.res + "/999999999"
	}
	return "/" + o.res + "/abc"
}

// outcome is an answer as the comparison sees it.
type outcome struct {
	status  int
	allowed []int    // the reference's: the statuses the spec leaves open
	fields  []string // the fieldNames of a 400
	err     string
}

// reference answers an operation as the spec does, the body judged by the
// domain's validation (mockserver/pricing) against the profile's
// catalogues: 401 unless the request is authenticated correctly (5), then
// 403 for another's id, 403 or 404 for an unknown one (7.2 leaves the order
// of the checks open), a
// 4xx for an id that is no number, 400 naming the offending fields (7.1,
// 7.3), else 200.
func (e *explorer) reference(o op) outcome {
	switch o.cred {
	case "api-key", "session-token", "session-query":
	default:
		return outcome{allowed: []int{401}}
	}
	switch o.path {
	case "other":
		return outcome{allowed: []int{403}} // the resource exists: 7.2's 403
	case "unknown":
		return outcome{allowed: []int{403, 404}} // 404, or 403 where permission is checked first
	case "malformed":
		return outcome{allowed: []int{400, 403, 404}}
	}
	raw, _ := json.Marshal(e.bodyOf(o))
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var body map[string]any
	_ = dec.Decode(&body)
	var errs []pricing.FieldError
	if o.res == "clients" {
		_, errs = pricing.Validator{Catalog: e.catalog}.ClientUpdate(pricing.Body(body))
	} else {
		_, errs = pricing.Validator{Catalog: e.catalog}.UserUpdate(pricing.Body(body), e.acct[o.actor].userID)
	}
	if len(errs) == 0 {
		if o.body == "rename" {
			e.want[o.res+" "+o.actor] = o.rename // the update is stored
		}
		return outcome{allowed: []int{200}}
	}
	out := outcome{allowed: []int{400}}
	for _, x := range errs {
		out.fields = append(out.fields, x.FieldName)
	}
	slices.Sort(out.fields)
	out.fields = slices.Compact(out.fields)
	return out
}

// diverges says how a target's answer departs from the reference's, or "".
func diverges(got, want outcome) string {
	if got.status < 0 {
		return "no answer: " + got.err
	}
	if !slices.Contains(want.allowed, got.status) {
		return fmt.Sprintf("answered %d, the spec's answer is %s", got.status, statusList(want.allowed))
	}
	if got.status == 400 && want.fields != nil && !slices.Equal(got.fields, want.fields) {
		return fmt.Sprintf("the errors name %q, the offending fields are %q (7.1: each offending field named, no valid one)", got.fields, want.fields)
	}
	return ""
}

func statusList(s []int) string {
	var parts []string
	for _, x := range s {
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, " or ")
}

// reset puts both accounts into the state each sequence starts from, on
// the target and in the reference.
func (e *explorer) reset() {
	e.want = map[string]string{}
	for name, a := range e.acct {
		e.want["users "+name] = a.firstName
		if n, ok := a.client["name"].(string); ok {
			e.want["clients "+name] = n
		}
	}
	e.restore()
}

// stateDiverges reads both users where the target can show them and says
// how their first names depart from the reference's, or "".
func (e *explorer) stateDiverges() (key, why string) {
	if !e.hasRead {
		return "", ""
	}
	for _, name := range []string{"A", "B"} {
		a := e.acct[name]
		h := http.Header{"Authorization": {"api-key " + a.apiKey}}
		for _, r := range []struct{ res, path, field string }{
			{"users", fmt.Sprintf("/users/%d", a.userID), "firstName"},
			{"clients", fmt.Sprintf("/clients/%d", a.clientID), "name"},
		} {
			want, ok := e.want[r.res+" "+name]
			if !ok {
				continue
			}
			status, body, err := e.do(http.MethodGet, r.path, h, "")
			if err != nil || status != http.StatusOK {
				continue
			}
			var v map[string]any
			if json.Unmarshal(body, &v) == nil && v[r.field] != want {
				return r.res + " " + name, fmt.Sprintf("afterwards the %s of account %s's %s is %v, the reference's %q (a refused request changed it, or an accepted one was not stored)",
					r.field, name, strings.TrimSuffix(r.res, "s"), v[r.field], want)
			}
		}
	}
	return "", ""
}

// restore puts both accounts back as the profile gives them.
func (e *explorer) restore() {
	for name := range e.acct {
		_ = e.send(op{res: "users", actor: name, cred: "api-key", path: "own", body: "valid"})
		_ = e.send(op{res: "clients", actor: name, cred: "api-key", path: "own", body: "valid"})
	}
}

// refCatalog is the reference's catalogue: what the profile says the
// target offers.
type refCatalog struct {
	p      steps.Profile
	emails map[string]int64
}

func (c refCatalog) PhoneCountry(id int64) (pricing.PhoneCountry, bool) {
	for _, k := range []string{"phone_country_id", "other_phone_country_id"} {
		if v, _ := c.p.Value(k); v == fmt.Sprint(id) {
			return pricing.PhoneCountry{ID: id}, true
		}
	}
	return pricing.PhoneCountry{}, false
}
func (c refCatalog) Currency(id int64) (pricing.Currency, bool) {
	ids := []string{}
	if v, _ := c.p.Value("currency_id"); v != "" {
		ids = append(ids, v)
	}
	if v, _ := c.p.Value("currencies"); v != "" {
		for _, item := range strings.Split(v, ",") {
			x, _, _ := strings.Cut(strings.TrimSpace(item), ":")
			ids = append(ids, x)
		}
	}
	if slices.Contains(ids, fmt.Sprint(id)) {
		return pricing.Currency{ID: id}, true
	}
	return pricing.Currency{}, false
}
func (c refCatalog) Plan(int64) (pricing.Plan, bool)            { return pricing.Plan{}, false }
func (c refCatalog) Platform(int64) (pricing.Platform, bool)    { return pricing.Platform{}, false }
func (c refCatalog) Marketapp(string) (pricing.Marketapp, bool) { return pricing.Marketapp{}, false }
func (c refCatalog) DefaultPlanID() int64                       { return 0 }
func (c refCatalog) EmailTaken(email string, except int64) bool {
	id, ok := c.emails[strings.ToLower(email)]
	return ok && id != except
}

// nameOr is name, or def when name is empty.
func nameOr(name, def string) string {
	if name != "" {
		return name
	}
	return def
}
