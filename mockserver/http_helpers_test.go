package mockserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/fixtures"
	"github.com/pricing-contract/pricing-contract/mockserver"
	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The default seed's accounts and marketplace apps, read from the fixtures
// (fixtures/seed) rather than written out again.
var (
	seed                = loadSeed()
	emailA, passA, keyA = seed.Email, seed.Password, seed.APIKey
	emailB, passB, keyB = seed.OtherEmail, seed.OtherPassword, seed.OtherAPIKey

	hashPuzzleAndroid = seed.hash("Puzzle Quest", "Android")
	hashPuzzleIOS     = seed.hash("Puzzle Quest", "iOS")
	hashWordAndroid   = seed.hash("Word Garden", "Android")
	hashWordIOS       = seed.hash("Word Garden", "iOS")
	hashCoinAndroid   = seed.hash("Coin Rush", "Android")
	hashCoinIOS       = seed.hash("Coin Rush", "iOS")
)

// seedAccount is what the tests know of one account of the default seed:
// its credentials, its user, and the client and app of that user, which
// share the user's id.
type seedAccount struct {
	letter                 string // "A" or "B"
	as                     auth
	id                     int64
	email, first, last, tz string
	client, currency       string // the client's name and its currency as JSON
}

// seedAccounts are accounts A and B.
var seedAccounts = []seedAccount{
	{"A", asA, 1, emailA, "Quinn", "Assurance", "Europe/London", "QA Client Ltd", `{"id":1,"code":"GBP"}`},
	{"B", asB, 2, emailB, "Olive", "Other", "America/New_York", "Other Client Inc", `{"id":3,"code":"USD"}`},
}

// wantListedAlone checks that the collection at path, wrapped in member,
// lists item and nothing else.
func wantListedAlone(t testing.TB, srv http.Handler, a auth, path, member, what string, item gjson.Result) {
	t.Helper()
	_, list := do(t, srv, "GET", path, a, nil)
	wantKeys(t, member+" wrapper", list, member)
	wantEq(t, what, list.Get(member).Raw, "["+item.Raw+"]")
}

// seedValues is the default seed's profile and its marketplace apps.
type seedValues struct {
	pricing.Profile
	marketapps map[[2]string]string // name and platform name -> hash
}

func loadSeed() seedValues {
	d, err := pricing.LoadSeed(fixtures.Seed())
	if err != nil {
		panic("the default seed: " + err.Error())
	}
	st := pricing.NewStore(d, pricing.NewSource(nil), pricing.Deviations{})
	v := seedValues{Profile: d.Profile(), marketapps: map[[2]string]string{}}
	for _, m := range st.Marketapps() {
		p, _ := st.Platform(m.PlatformID)
		v.marketapps[[2]string{m.Name, p.Name}] = m.Hash
	}
	return v
}

func (v seedValues) hash(name, platform string) string {
	h, ok := v.marketapps[[2]string{name, platform}]
	if !ok {
		panic("the default seed has no marketplace app " + name + " on " + platform)
	}
	return h
}

var (
	reWriteKey = regexp.MustCompile(`^[0-9a-f]{32}$`)
	reCurrency = regexp.MustCompile(`^[A-Z]{3}$`)
	reHash     = regexp.MustCompile(`^[0-9a-f]{40}$`)
	reDialCode = regexp.MustCompile(`^\+[0-9]+$`)
)

// localHost is the Host header of the tests' requests.
const localHost = "127.0.0.1:8080"

// newServer builds a server on the embedded seed. Every test builds its own,
// so tests share no state and can run in parallel.
func newServer(t testing.TB) *mockserver.Server {
	t.Helper()
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	return srv
}

// onOwnServer runs f as a parallel subtest on a server of its own, as
// the cases of a table do: each writes to its server, and no case may see
// another's writes.
func onOwnServer(t *testing.T, name string, f func(t *testing.T, srv http.Handler)) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		f(t, newServer(t))
	})
}

func newSeeded(t testing.TB, seed int64) *mockserver.Server {
	t.Helper()
	srv, err := mockserver.New(mockserver.Options{Seed: &seed})
	if err != nil {
		t.Fatalf("mockserver.New(seed %d): %v", seed, err)
	}
	return srv
}

// auth adds credentials to a request; nil adds none.
type auth func(*http.Request)

func header(name, value string) auth {
	return func(r *http.Request) { r.Header.Set(name, value) }
}

func apiKey(key string) auth        { return header("Authorization", "api-key "+key) }
func sessionHeader(tok string) auth { return header("session-token", tok) }

func sessionQuery(tok string) auth {
	return func(r *http.Request) {
		q := r.URL.Query()
		q.Set("sessionToken", tok)
		r.URL.RawQuery = q.Encode()
		r.RequestURI = r.URL.RequestURI()
	}
}

// all applies several credentials to one request.
func all(as ...auth) auth {
	return func(r *http.Request) {
		for _, a := range as {
			a(r)
		}
	}
}

var (
	asA = apiKey(keyA)
	asB = apiKey(keyB)
)

// raw is a request body sent byte for byte.
type raw string

// reply is one answer, already checked to be JSON.
type reply struct {
	status int
	header http.Header
	body   []byte
	json   gjson.Result
}

func (r reply) String() string { return fmt.Sprintf("%d %s", r.status, r.body) }

// send runs one request through the handler. body is nil (no body), raw
// (bytes as given), url.Values (a form) or anything else (marshalled to JSON).
// Every answer of the mock must be JSON with a JSON Content-Type; send checks
// that for every request of every test.
func send(t testing.TB, h http.Handler, method, path string, a auth, body any) reply {
	t.Helper()
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case raw:
		rd = strings.NewReader(string(b))
		ctype = "application/json"
	case url.Values:
		rd = strings.NewReader(b.Encode())
		ctype = "application/x-www-form-urlencoded"
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("marshal body: %v", err)
		}
		rd = bytes.NewReader(buf)
		ctype = "application/json"
	}
	req := httptest.NewRequest(method, path, rd)
	// As a client of the mock on this machine sends it: the admin API
	// answers only its own host names (httptest's default is example.com).
	req.Host = localHost
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if a != nil {
		a(req)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	got, _ := io.ReadAll(res.Body)
	// Trimmed so that Raw of the whole answer compares equal to an item's Raw.
	r := reply{status: res.StatusCode, header: res.Header, body: got, json: gjson.ParseBytes(bytes.TrimSpace(got))}
	if mt, _, err := mime.ParseMediaType(res.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json (answer %s)", method, path, res.Header.Get("Content-Type"), r)
	}
	if !json.Valid(got) {
		t.Errorf("%s %s: answer is not JSON: %s", method, path, r)
	}
	return r
}

// do is send for callers that need only the status and the JSON.
func do(t testing.TB, h http.Handler, method, path string, a auth, body any) (int, gjson.Result) {
	t.Helper()
	r := send(t, h, method, path, a, body)
	return r.status, r.json
}

// created POSTs body to the collection of account A's server: the answer
// must be 200 with a new what, whose id is none of the seed's (1, 2).
func created(t testing.TB, srv http.Handler, collection, what string, body any) gjson.Result {
	t.Helper()
	r := send(t, srv, "POST", "/v1/"+collection, asA, body)
	mustStatus(t, r, http.StatusOK, "POST /"+collection)
	if id := r.json.Get("id").Int(); id == 1 || id == 2 {
		t.Errorf("new %s has the id %d of a seeded %s", what, id, what)
	}
	return r.json
}

// mustStatus stops the test when the status is not the expected one, since
// everything after it would only report noise.
func mustStatus(t testing.TB, r reply, want int, what string) {
	t.Helper()
	if r.status != want {
		t.Fatalf("%s: status %d, want %d; body %s", what, r.status, want, r.body)
	}
}

// fe is one expected element of an error array: fieldName and error code.
type fe struct{ field, code string }

func (e fe) String() string { return fmt.Sprintf("{%q %q}", e.field, e.code) }

// wantErrors checks that got is an error array (spec 7.1): every element has
// exactly the string fields fieldName, error and message, message non-empty,
// and the (fieldName, error) pairs are exactly want, in any order.
func wantErrors(t testing.TB, got gjson.Result, want ...fe) {
	t.Helper()
	if !got.IsArray() {
		t.Errorf("error body is not an array: %s", got.Raw)
		return
	}
	var pairs []fe
	for i, el := range got.Array() {
		if !el.IsObject() {
			t.Errorf("error element %d is not an object: %s", i, el.Raw)
			continue
		}
		wantKeys(t, fmt.Sprintf("error element %d", i), el, "fieldName", "error", "message")
		for _, k := range []string{"fieldName", "error", "message"} {
			if v := el.Get(k); v.Type != gjson.String {
				t.Errorf("error element %d: %s is %s, want a string", i, k, v.Raw)
			}
		}
		if el.Get("message").String() == "" {
			t.Errorf("error element %d: empty message", i)
		}
		pairs = append(pairs, fe{el.Get("fieldName").String(), el.Get("error").String()})
	}
	order := func(a, b fe) int { return strings.Compare(a.String(), b.String()) }
	slices.SortFunc(pairs, order)
	want = slices.Clone(want)
	slices.SortFunc(want, order)
	if !slices.Equal(pairs, want) {
		t.Errorf("errors %v, want %v; body %s", pairs, want, got.Raw)
	}
}

// wantError checks a status and a one-element error array with an empty
// fieldName, the shape of 401, 403, 404, 405 and 413 (README).
func wantError(t testing.TB, r reply, status int, code string) {
	t.Helper()
	if r.status != status {
		t.Errorf("status %d, want %d; body %s", r.status, status, r.body)
	}
	wantErrors(t, r.json, fe{"", code})
}

// wantKeys checks that obj is an object with exactly the given keys.
func wantKeys(t testing.TB, what string, obj gjson.Result, keys ...string) {
	t.Helper()
	if !obj.IsObject() {
		t.Errorf("%s is not an object: %s", what, show(obj))
		return
	}
	var got []string
	obj.ForEach(func(k, _ gjson.Result) bool {
		got = append(got, k.String())
		return true
	})
	slices.Sort(got)
	keys = slices.Clone(keys)
	slices.Sort(keys)
	if !slices.Equal(got, keys) {
		t.Errorf("%s has keys %v, want %v: %s", what, got, keys, obj.Raw)
	}
}

// wantNoKey fails if key appears at any depth of v.
func wantNoKey(t testing.TB, v gjson.Result, key string) {
	t.Helper()
	var walk func(gjson.Result) bool
	walk = func(v gjson.Result) bool {
		// ForEach calls back once with a scalar itself, so only descend into containers.
		if !v.IsObject() && !v.IsArray() {
			return false
		}
		found := false
		v.ForEach(func(k, child gjson.Result) bool {
			if strings.EqualFold(k.String(), key) {
				found = true
				return false
			}
			found = walk(child)
			return !found
		})
		return found
	}
	if walk(v) {
		t.Errorf("answer carries a %q key: %s", key, v.Raw)
	}
}

// wantDate checks a date: RFC 3339, UTC, whole seconds (README, "date format").
func wantDate(t testing.TB, what string, v gjson.Result) {
	t.Helper()
	if v.Type != gjson.String {
		t.Errorf("%s is %s, want a date string", what, show(v))
		return
	}
	d, err := time.Parse(time.RFC3339, v.String())
	if err != nil {
		t.Errorf("%s %q is not RFC 3339: %v", what, v.String(), err)
		return
	}
	if !strings.HasSuffix(v.String(), "Z") || d.Location() != time.UTC {
		t.Errorf("%s %q is not in UTC", what, v.String())
	}
	if d.Nanosecond() != 0 || strings.Contains(v.String(), ".") {
		t.Errorf("%s %q has fractional seconds", what, v.String())
	}
}

// show renders a value for a failure message, telling a missing key apart.
func show(v gjson.Result) string {
	if !v.Exists() {
		return "missing"
	}
	return v.Raw
}

func wantType(t testing.TB, what string, v gjson.Result, typ gjson.Type) {
	t.Helper()
	if v.Type != typ {
		t.Errorf("%s is %s, want %s", what, show(v), typ)
	}
}

func wantBool(t testing.TB, what string, v gjson.Result) {
	t.Helper()
	if !v.IsBool() {
		t.Errorf("%s is %s, want a boolean", what, show(v))
	}
}

func wantEq[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// checkUser checks the user object of spec 2.1 field by field.
func checkUser(t testing.TB, u gjson.Result) {
	t.Helper()
	wantKeys(t, "user", u, "id", "created", "email", "passwordLastChanged", "firstName", "lastName",
		"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding",
		"phoneCountry", "phoneNumber", "phoneExtension", "timezone")
	wantType(t, "user.id", u.Get("id"), gjson.Number)
	wantDate(t, "user.created", u.Get("created"))
	wantDate(t, "user.passwordLastChanged", u.Get("passwordLastChanged"))
	for _, k := range []string{"email", "firstName", "lastName", "phoneNumber", "timezone"} {
		wantType(t, "user."+k, u.Get(k), gjson.String)
	}
	for _, k := range []string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"} {
		wantBool(t, "user."+k, u.Get(k))
	}
	pc := u.Get("phoneCountry")
	wantKeys(t, "user.phoneCountry", pc, "id", "name", "dialCode")
	wantType(t, "user.phoneCountry.id", pc.Get("id"), gjson.Number)
	if dc := pc.Get("dialCode").String(); !reDialCode.MatchString(dc) {
		t.Errorf("user.phoneCountry.dialCode %q has no leading plus and digits", dc)
	} else if name := pc.Get("name").String(); !strings.Contains(name, "("+dc+")") {
		t.Errorf("user.phoneCountry.name %q does not carry its dial code %q in brackets", name, dc)
	}
	if ext := u.Get("phoneExtension"); ext.Type != gjson.String && ext.Type != gjson.Null {
		t.Errorf("user.phoneExtension is %s, want a string or null", ext.Raw)
	}
	wantNoKey(t, u, "password")
}

// checkClient checks the client object of spec 2.2; addressLine2 and vat are
// present only when set (README).
func checkClient(t testing.TB, c gjson.Result) {
	t.Helper()
	keys := []string{"id", "createdDate", "name", "addressLine1", "addressCity", "addressPostcode", "addressCountry", "currency"}
	for _, opt := range []string{"addressLine2", "vat"} {
		if v := c.Get(opt); v.Exists() {
			wantType(t, "client."+opt, v, gjson.String)
			keys = append(keys, opt)
		}
	}
	wantKeys(t, "client", c, keys...)
	wantType(t, "client.id", c.Get("id"), gjson.Number)
	wantDate(t, "client.createdDate", c.Get("createdDate"))
	for _, k := range []string{"name", "addressLine1", "addressCity", "addressPostcode", "addressCountry"} {
		wantType(t, "client."+k, c.Get(k), gjson.String)
	}
	cur := c.Get("currency")
	wantKeys(t, "client.currency", cur, "id", "code")
	wantType(t, "client.currency.id", cur.Get("id"), gjson.Number)
	if code := cur.Get("code"); code.Type != gjson.String || !reCurrency.MatchString(code.String()) {
		t.Errorf("client.currency.code is %s, want three upper-case letters", code.Raw)
	}
}

// checkApp checks the app object of spec 2.3.
func checkApp(t testing.TB, a gjson.Result) {
	t.Helper()
	wantKeys(t, "app", a, "id", "created", "name", "platform", "writeKey", "plan", "marketapp")
	wantType(t, "app.id", a.Get("id"), gjson.Number)
	wantDate(t, "app.created", a.Get("created"))
	wantType(t, "app.name", a.Get("name"), gjson.String)
	p := a.Get("platform")
	wantKeys(t, "app.platform", p, "id", "name")
	wantType(t, "app.platform.id", p.Get("id"), gjson.Number)
	if n := p.Get("name").String(); n != "Android" && n != "iOS" {
		t.Errorf("app.platform.name %q, want Android or iOS", n)
	}
	if wk := a.Get("writeKey"); wk.Type != gjson.String || !reWriteKey.MatchString(wk.String()) {
		t.Errorf("app.writeKey %s is not 32 lower-case hex characters", show(wk))
	}
	plan := a.Get("plan")
	wantKeys(t, "app.plan", plan, "isLite", "isPro", "isDynamic", "needBilling")
	set := 0
	for _, k := range []string{"isLite", "isPro", "isDynamic", "needBilling"} {
		wantBool(t, "app.plan."+k, plan.Get(k))
		if k != "needBilling" && plan.Get(k).Bool() {
			set++
		}
	}
	if set != 1 {
		t.Errorf("app.plan has %d of isLite/isPro/isDynamic set, want exactly 1: %s", set, plan.Raw)
	}
	m := a.Get("marketapp")
	wantKeys(t, "app.marketapp", m, "hash")
	if h := m.Get("hash"); h.Type != gjson.Null && !reHash.MatchString(h.String()) {
		t.Errorf("app.marketapp.hash %s is neither null nor 40 hex characters", h.Raw)
	}
}

// wantPlan checks the plan flags of an app created with the given plan id
// (seed: 1 lite, 2 pro, 3 dynamic; only lite needs no billing).
func wantPlan(t testing.TB, app gjson.Result, planID int) {
	t.Helper()
	plan := app.Get("plan")
	wantEq(t, "plan.isLite", plan.Get("isLite").Bool(), planID == 1)
	wantEq(t, "plan.isPro", plan.Get("isPro").Bool(), planID == 2)
	wantEq(t, "plan.isDynamic", plan.Get("isDynamic").Bool(), planID == 3)
	wantEq(t, "plan.needBilling", plan.Get("needBilling").Bool(), planID != 1)
}

// checkSession checks the session object of spec 2.4.
func checkSession(t testing.TB, s gjson.Result) {
	t.Helper()
	wantKeys(t, "session", s, "id", "created", "creatorUserId", "userId", "clientId", "token")
	wantType(t, "session.id", s.Get("id"), gjson.Number)
	wantDate(t, "session.created", s.Get("created"))
	wantType(t, "session.creatorUserId", s.Get("creatorUserId"), gjson.Number)
	wantType(t, "session.userId", s.Get("userId"), gjson.Number)
	if c := s.Get("clientId"); c.Type != gjson.Number && c.Type != gjson.Null {
		t.Errorf("session.clientId is %s, want a number or null", c.Raw)
	}
	// At least 128 bits: 22 characters even in base64, 32 in hex.
	if tok := s.Get("token"); tok.Type != gjson.String || len(tok.String()) < 22 {
		t.Errorf("session.token %s is too short to carry 128 bits", tok.Raw)
	}
}

// login opens a session with a JSON body and returns its token.
func login(t testing.TB, h http.Handler, email, password string) string {
	t.Helper()
	r := send(t, h, "POST", "/v1/sessions", nil, map[string]any{"email": email, "password": password})
	mustStatus(t, r, http.StatusOK, "POST /sessions for "+email)
	return r.json.Get("token").String()
}

// absent, as a value given to with, deletes the key.
type absentT struct{}

var absent = absentT{}

// with returns a deep copy of body with the dotted path set to v (absent
// deletes it); intermediate objects are created as needed.
func with(body map[string]any, path string, v any) map[string]any {
	out := deepCopy(body)
	m, last := jsonio.Parent(out, path)
	if v == absent {
		delete(m, last)
	} else {
		m[last] = v
	}
	return out
}

// withAll is body with each dotted path of set set to its value (with).
func withAll(body map[string]any, set map[string]any) map[string]any {
	for k, v := range set {
		body = with(body, k, v)
	}
	return body
}

func deepCopy(m map[string]any) map[string]any {
	buf, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	if err := json.Unmarshal(buf, &out); err != nil {
		panic(err)
	}
	return out
}

// userBodyA is a valid PUT /users/1 body that keeps account A as seeded.
func userBodyA() map[string]any {
	return map[string]any{
		"email":               emailA,
		"firstName":           "Quinn",
		"lastName":            "Assurance",
		"subscribeWelcome":    true,
		"subscribeBlog":       false,
		"subscribeHowto":      true,
		"subscribeOnboarding": false,
		"timezone":            "Europe/London",
		"password":            nil,
	}
}

// userBodyB is the same for account B (user 2).
func userBodyB() map[string]any {
	b := userBodyA()
	b["email"] = emailB
	b["firstName"] = "Olive"
	b["lastName"] = "Other"
	b["timezone"] = "America/New_York"
	return b
}

// signUpBody is a valid POST /users body for a new account without a client.
func signUpBody(email string) map[string]any {
	return map[string]any{
		"email":               email,
		"firstName":           "Nina",
		"lastName":            "Newcomer",
		"subscribeWelcome":    false,
		"subscribeBlog":       true,
		"subscribeHowto":      false,
		"subscribeOnboarding": true,
		"timezone":            "Europe/Paris",
		"password":            "nina-password",
		"phoneCountry":        map[string]any{"id": 3},
		"phoneNumber":         "612345678",
		"phoneExtension":      nil,
	}
}

// clientBody is a valid POST /clients body with every optional field.
func clientBody() map[string]any {
	return map[string]any{
		"name":            "Acme Games Ltd",
		"addressLine1":    "1 High Street",
		"addressLine2":    "Floor 2",
		"addressCity":     "London",
		"addressPostcode": "SW1A 1AA",
		"addressCountry":  "United Kingdom",
		"vat":             "GB123456789",
		"currency":        map[string]any{"id": 2},
		"terms":           "I agree",
	}
}

// clientBody1 is a valid PUT /clients/1 body.
func clientBody1() map[string]any {
	b := clientBody()
	b["name"] = "QA Client Ltd"
	b["currency"] = map[string]any{"id": 1}
	return b
}

// appBody is a valid POST /apps body: Word Garden on Android, the pro plan.
func appBody() map[string]any {
	return map[string]any{
		"marketapp": map[string]any{"hash": hashWordAndroid},
		"name":      nil,
		"platform":  map[string]any{"id": nil},
		"nextplan":  map[string]any{"id": 2},
	}
}

// ids returns the ids of the items of a collection wrapper's array.
func ids(items gjson.Result) []int64 {
	var out []int64
	for _, it := range items.Array() {
		out = append(out, it.Get("id").Int())
	}
	return out
}

// routeCase is a request of a test: its name, method, path and body.
type routeCase struct {
	name, method, path string
	body               any
}

// wantErrorOnEach sends each case, with the credentials as, to a server of
// its own: each must be answered status with one error of code.
func wantErrorOnEach(t *testing.T, as auth, status int, code string, cases []routeCase) {
	t.Helper()
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			wantError(t, send(t, srv, tc.method, tc.path, as, tc.body), status, code)
		})
	}
}

// refusalCase is a valid body changed (set, by dotted path as with does)
// and the errors it must be answered.
type refusalCase struct {
	name string
	set  map[string]any
	want []fe
}

// wantEachRefused sends body with each case's changes, each on a server of
// its own, and wants it refused with the case's errors and nothing changed;
// then, when not nil, checks what more the case must have left as it was.
func wantEachRefused(t *testing.T, method, path string, as auth, body func() map[string]any, cases []refusalCase, then func(t *testing.T, srv http.Handler)) {
	t.Helper()
	for _, tc := range cases {
		onOwnServer(t, tc.name, func(t *testing.T, srv http.Handler) {
			wantRefused(t, srv, method, path, as, withAll(body(), tc.set), tc.want...)
			if then != nil {
				then(t, srv)
			}
		})
	}
}

// wantRefused sends a request the mock must refuse with 400 and exactly
// the errors want, and checks that it changed nothing.
func wantRefused(t testing.TB, h http.Handler, method, path string, as auth, body any, want ...fe) {
	t.Helper()
	before := snapshot(t, h)
	r := send(t, h, method, path, as, body)
	mustStatus(t, r, http.StatusBadRequest, method+" "+path)
	wantErrors(t, r.json, want...)
	wantSnapshot(t, h, before)
}

// snapshot reads everything the seed's two accounts can see, so a test can
// prove that a refused request changed nothing.
func snapshot(t testing.TB, h http.Handler) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, acc := range []struct {
		as        auth
		user, cli string
	}{{asA, "1", "1"}, {asB, "2", "2"}} {
		for _, p := range []string{
			"/v1/users/" + acc.user,
			"/v1/users/" + acc.user + "/clients",
			"/v1/clients/" + acc.cli,
			"/v1/clients/" + acc.cli + "/apps",
		} {
			r := send(t, h, "GET", p, acc.as, nil)
			mustStatus(t, r, http.StatusOK, "snapshot GET "+p)
			out[p] = string(r.body)
		}
	}
	return out
}

func wantSnapshot(t testing.TB, h http.Handler, before map[string]string) {
	t.Helper()
	after := snapshot(t, h)
	for p, b := range before {
		if after[p] != b {
			t.Errorf("GET %s changed:\nbefore %s\nafter  %s", p, b, after[p])
		}
	}
}
