package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/match"
)

// The credential forms a request is sent with: the three schemes of
// section 5, none, a wrong key, and each scheme given the other's secret.
var creds = []string{"api-key", "session-token", "session-query", "none", "wrong-key", "token-as-api-key", "key-as-session-token", "key-as-session-query",
	// Places section 5 does not name: a bare key, a Bearer token, a key in
	// a query parameter.
	"bare-key", "bearer-token", "key-in-query"}

// credPlace is where a credential form puts what: a header or a query
// parameter, and its value, in which {key} and {token} stand for the
// account's API key and session token. The wire and the reproducer both
// read it.
type credPlace struct {
	query       bool
	name, value string
}

var credPlaces = map[string]credPlace{
	"api-key":              {name: "Authorization", value: "api-key {key}"},
	"session-token":        {name: "session-token", value: "{token}"},
	"session-query":        {query: true, name: "sessionToken", value: "{token}"},
	"wrong-key":            {name: "Authorization", value: "api-key contract-explore-no-such-key"},
	"token-as-api-key":     {name: "Authorization", value: "api-key {token}"},
	"key-as-session-token": {name: "session-token", value: "{key}"},
	"key-as-session-query": {query: true, name: "sessionToken", value: "{key}"},
	"bare-key":             {name: "Authorization", value: "{key}"},
	"bearer-token":         {name: "Authorization", value: "Bearer {token}"},
	"key-in-query":         {query: true, name: "apiKey", value: "{key}"},
}

// with is the place's value for a key and a token.
func (c credPlace) with(key, token string) string {
	return strings.NewReplacer("{key}", key, "{token}", token).Replace(c.value)
}

// The operations of a sequence.
const (
	opPutUser    = "PUT /users/:userId"
	opPutClient  = "PUT /clients/:clientId"
	opPostClient = "POST /clients"
	opPostApp    = "POST /apps"
	opLogin      = "POST /sessions"
	opPlatforms  = "GET platforms"
)

// step is one request of a sequence, drawn whole, so that the target, the
// reference and the reproducer all see the same request.
type step struct {
	op      string
	actor   string // A or B
	cred    string
	path    string // the path id: own, other, unknown, malformed, created ("" for no id)
	badID   string // the id of a malformed path
	version string // the version segment; "" the base URL's
	body    map[string]any
	raw     *string // sent verbatim instead of body
	pad     int     // characters of an unnamed padding field (a large body)
	login   [2]string
	what    string   // what was drawn, for the reason line
	codes   []string // field=code pairs 7.3 names for what was drawn
	unnamed bool     // the body carries a field the spec does not name
	loose   bool     // a refusal whose fields and code the spec does not name
	// looseFields are the fields of those refusals: a 400 may name them.
	looseFields []string
	// Filled in when sent: the path as sent, and as the reproducer writes it.
	sent, gpath string
	tokVar      string // the reproducer's variable of the session token it used
}

func (s step) describe() string {
	who := "account " + s.actor + " with " + s.cred
	switch s.op {
	case opLogin:
		return fmt.Sprintf("%s (%s)", s.op, s.what)
	case opPlatforms:
		return fmt.Sprintf("%s by %s", s.op, who)
	}
	d := s.op
	if s.path != "" {
		d += " (" + s.path + " id)"
	}
	if s.version != "" {
		d += " under " + s.version
	}
	d += " by " + who
	if s.what != "" {
		d += ", " + s.what
	}
	return d
}

// authentic reports whether the step's credentials authenticate its
// account.
func (s step) authentic() bool {
	return s.cred == "api-key" || s.cred == "session-token" || s.cred == "session-query"
}

func (s step) kind() string {
	k := s.op + " " + s.cred
	if s.path != "" {
		k += " " + s.path
	}
	return k
}

// account is what the explorer knows of one account.
type account struct {
	name             string
	apiKey, password string
	user             pricing.StateUser   // as each sequence starts
	clientSeed       pricing.StateClient // the account's client as each sequence starts
	token            string              // a session token of the target
}

// explorer sends sequences to the target and asks the reference.
type explorer struct {
	ctx  context.Context
	p    steps.Profile
	http *http.Client
	acct map[string]*account
	cat  catalogue
	skew time.Duration
	// hasRead: the target answers GET /users/:id and GET /clients/:id, so
	// the state a step leaves is compared after it.
	hasRead bool
	forms   []string // the version forms the profile declares
	// What the run learned of the target, for every later answer: values
	// the reference could not know (learned), the ids of the entities the
	// run made (seen: kind:id), the tokens the target issued (token: actor).
	mu   sync.Mutex
	stop *atomic.Bool // the pool's: stop starting sequences
	// salt makes the values each pair of the pool draws its own: two pairs
	// never ask for the same new email at once.
	salt    int64
	learned map[string]learnedValue
	seen    map[string]string
	tokens  map[string]string
}

type learnedValue struct {
	raw    string // the JSON the target first answered
	step   string // where: "sequence N, step M"
	taught *step  // the request whose answer showed it, when the answer was a step's own
}

func newExplorer(ctx context.Context, p steps.Profile, hc *http.Client, notes io.Writer) (*explorer, error) {
	suite := steps.NewSuite(p, steps.Options{HTTPClient: hc, Output: notes})
	if err := suite.Preflight(ctx); err != nil {
		return nil, err
	}
	p = suite.Profile()
	e := &explorer{ctx: ctx, p: p, http: hc, learned: map[string]learnedValue{}, seen: map[string]string{}, tokens: map[string]string{},
		acct: map[string]*account{
			"A": {name: "A", apiKey: p.APIKey, password: p.Password, user: pricing.StateUser{Email: p.Email, Password: p.Password}},
			"B": {name: "B", apiKey: p.OtherAPIKey, password: p.OtherPassword, user: pricing.StateUser{Email: p.OtherEmail, Password: p.OtherPassword}},
		}}
	e.skew, _ = time.ParseDuration(p.MustValue("clock_skew"))
	e.skew += 2 * time.Second // a server that dates by the second, and the request's own time
	for _, f := range strings.Split(p.MustValue("version_forms"), ",") {
		if f = strings.TrimSpace(f); f != "" {
			e.forms = append(e.forms, f)
		}
	}
	if err := e.loadCatalogue(); err != nil {
		return nil, err
	}
	for _, name := range []string{"A", "B"} {
		a := e.acct[name]
		status, body, err := e.loginTarget(a.user.Email, a.password)
		if err != nil || status != http.StatusOK {
			return nil, fmt.Errorf("account %s cannot log in: %d %v", name, status, err)
		}
		s := gjson.ParseBytes(body)
		a.user.ID, a.token = s.Get("userId").Int(), s.Get("token").String()
		clientID := s.Get("clientId").Int()
		a.user.ClientIDs, a.user.PrimaryClientID = []int64{clientID}, clientID
		a.user.APIKeys = []string{a.apiKey}
		a.clientSeed.ID = clientID
		e.tokens[a.token] = name
		e.profileAccount(a)
		if e.readAccount(a) {
			e.hasRead = true
		}
		if _, ok := e.cat.phoneCountries[a.user.PhoneCountryID]; !ok {
			e.cat.phoneCountries[a.user.PhoneCountryID] = [2]string{unknownPhone, unknownDialCode}
		}
		if _, ok := e.cat.currencies[a.clientSeed.CurrencyID]; !ok {
			e.cat.currencies[a.clientSeed.CurrencyID] = unknownCode
		}
	}
	if _, err := e.newReference(); err != nil {
		return nil, err
	}
	return e, nil
}

// profileAccount fills an account as the profile gives it, where the
// target does not show it.
func (e *explorer) profileAccount(a *account) {
	p := e.p
	key := func(k string) string {
		if a.name == "B" {
			k = "other_" + k
		}
		v, _ := p.Value(k)
		return v
	}
	u := &a.user
	u.Created, u.PasswordLastChanged = unknownDate, unknownDate
	u.FirstName, u.LastName, u.Timezone = key("first_name"), key("last_name"), key("timezone")
	if u.Timezone == "" {
		u.Timezone = "Europe/London"
	}
	u.SubscribeWelcome, u.SubscribeHowto = true, true
	u.PhoneCountryID, _ = strconv.ParseInt(key("phone_country_id"), 10, 64)
	if u.PhoneCountryID == 0 {
		u.PhoneCountryID = e.cat.phoneCountryOr()
	}
	u.PhoneNumber = key("phone_number")
	if u.PhoneNumber == "" {
		u.PhoneNumber = "7700900123"
	}
	if ext := key("phone_extension"); ext != "" && ext != "null" {
		u.PhoneExtension = &ext
	}
	c := &a.clientSeed
	c.CreatedDate = unknownDate
	c.Name = "contract-explore-client"
	c.AddressLine1, c.AddressCity = p.MustValue("address_line1"), p.MustValue("address_city")
	c.AddressPostcode, c.AddressCountry = p.MustValue("address_postcode"), p.MustValue("address_country")
	l2, vat := p.MustValue("address_line2"), p.MustValue("vat")
	c.AddressLine2, c.VAT = &l2, &vat
	c.CurrencyID = e.cat.currencyID
}

func (c catalogue) phoneCountryOr() int64 {
	for id := range c.phoneCountries {
		return id
	}
	return 1
}

// readAccount reads the account's user and client where the target has
// the read extensions, and reports whether it has them.
func (e *explorer) readAccount(a *account) bool {
	h := http.Header{"Authorization": {"api-key " + a.apiKey}}
	status, body, err := e.do(http.MethodGet, fmt.Sprintf("/users/%d", a.user.ID), h, "")
	if err != nil || status != http.StatusOK || !gjson.ValidBytes(body) {
		return false
	}
	u := gjson.ParseBytes(body)
	if u.Get("firstName").String() == "" {
		return false
	}
	su := &a.user
	su.Created, su.PasswordLastChanged = instant(u.Get("created").String()), instant(u.Get("passwordLastChanged").String())
	su.FirstName, su.LastName, su.Timezone = u.Get("firstName").String(), u.Get("lastName").String(), u.Get("timezone").String()
	su.SubscribeWelcome, su.SubscribeBlog = u.Get("subscribeWelcome").Bool(), u.Get("subscribeBlog").Bool()
	su.SubscribeHowto, su.SubscribeOnboarding = u.Get("subscribeHowto").Bool(), u.Get("subscribeOnboarding").Bool()
	su.PhoneCountryID, su.PhoneNumber = u.Get("phoneCountry.id").Int(), u.Get("phoneNumber").String()
	su.PhoneExtension = nil
	if ext := u.Get("phoneExtension"); ext.Type == gjson.String {
		s := ext.String()
		su.PhoneExtension = &s
	}
	if pc := u.Get("phoneCountry"); pc.Get("name").Exists() && pc.Get("dialCode").Exists() {
		e.cat.phoneCountries[su.PhoneCountryID] = [2]string{pc.Get("name").String(), pc.Get("dialCode").String()}
	}
	status, body, err = e.do(http.MethodGet, fmt.Sprintf("/clients/%d", a.clientSeed.ID), h, "")
	if err != nil || status != http.StatusOK || !gjson.ValidBytes(body) {
		return true
	}
	c := gjson.ParseBytes(body)
	sc := &a.clientSeed
	sc.CreatedDate, sc.Name = instant(c.Get("createdDate").String()), c.Get("name").String()
	sc.AddressLine1, sc.AddressCity = c.Get("addressLine1").String(), c.Get("addressCity").String()
	sc.AddressPostcode, sc.AddressCountry = c.Get("addressPostcode").String(), c.Get("addressCountry").String()
	sc.AddressLine2, sc.VAT = optString(c.Get("addressLine2")), optString(c.Get("vat"))
	sc.CurrencyID = c.Get("currency.id").Int()
	if code := c.Get("currency.code").String(); code != "" && e.cat.currencies[sc.CurrencyID] == "" {
		e.cat.currencies[sc.CurrencyID] = strings.ToUpper(code)
	}
	return true
}

// instant is a date the target answered (any ISO 8601 form, a calendar
// date too) as the reference's seed holds one: the instant it starts;
// unknownDate where it names none.
func instant(s string) time.Time {
	r, err := match.ParseISORange(s)
	if err != nil {
		return unknownDate
	}
	return r.Lo.UTC()
}

func optString(v gjson.Result) *string {
	if v.Type != gjson.String {
		return nil
	}
	s := v.String()
	return &s
}

func (e *explorer) other(actor string) string {
	if actor == "A" {
		return "B"
	}
	return "A"
}

// do sends one request to the target.
func (e *explorer) do(method, path string, header http.Header, body string) (int, []byte, error) {
	status, b, _, err := e.doFull(method, e.p.BaseURL+path, header, body)
	return status, b, err
}

func (e *explorer) doFull(method, url string, header http.Header, body string) (int, []byte, http.Header, error) {
	req, err := http.NewRequestWithContext(e.ctx, method, url, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := e.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	return res.StatusCode, b, res.Header, err
}

// loginTarget logs in on the target in the profile's login encoding.
func (e *explorer) loginTarget(email, password string) (int, []byte, error) {
	status, b, _, err := e.doFull(http.MethodPost, e.p.BaseURL+"/sessions", e.loginHeader(), e.loginBody(email, password))
	return status, b, err
}

func (e *explorer) loginHeader() http.Header {
	if e.p.MustValue("login_encoding") == "form" {
		return http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	}
	return http.Header{}
}

func (e *explorer) loginBody(email, password string) string {
	if e.p.MustValue("login_encoding") == "form" {
		return url.Values{"email": {email}, "password": {password}}.Encode()
	}
	b, _ := json.Marshal(map[string]string{"email": email, "password": password})
	return string(b)
}

// jsonBody is a step's body as sent.
func (s step) jsonBody() string {
	if s.raw != nil {
		return *s.raw
	}
	if s.body == nil {
		return ""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s.body)
	out := strings.TrimSuffix(b.String(), "\n")
	if s.pad > 0 {
		out = strings.TrimSuffix(out, "}") + `,"contractPadding":"` + strings.Repeat("x", s.pad) + `"}`
	}
	return out
}
