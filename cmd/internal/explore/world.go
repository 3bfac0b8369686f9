package explore

import (
	"context"
	"fmt"
	"go/token"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/steps"
	"github.com/pricing-contract/pricing-contract/steps/match"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// world is what the explorer knows of the target and of one pair of its
// accounts: the catalogues, what the profile chose where the spec is
// silent, and the two accounts as each sequence starts. It is learned
// before the first sequence (newWorld) and read by every stage.
type world struct {
	p       steps.Profile
	cat     targetCatalogue
	acct    map[string]*accountState // A and B
	forms   []string                 // the version forms the profile declares
	skew    time.Duration
	domain  string
	several bool // a user may hold several clients (clients_per_user)
	byHash  bool // a marketplace app may have several apps (apps_per_marketapp)
	// hashOnce: a marketplace app has one app (apps_per_marketapp = one):
	// an app from the hash may be refused as a second one.
	hashOnce bool
	form     bool // POST /sessions takes a form (login_encoding)
	// hasRead: the target answers GET /users/:id and GET /clients/:id, so
	// the state a step leaves is read back after it.
	hasRead bool
	// clientsList is where the target lists a user's clients, read back
	// after a step that may make one: "/users/:userId/clients", "/clients"
	// (the caller's), or "" nowhere.
	clientsList string
	// appsOfCaller: the target lists apps only as the caller's (GET
	// /apps), not a client's (GET /clients/:clientId/apps).
	appsOfCaller bool
}

// accountState is what the explorer knows of one account. Its user and client
// are held by the reference under the ids 1 (A) and 2 (B); the target's
// ids are userID and clientID, exactly as it wrote them.
type accountState struct {
	name             string
	email            string // as the profile gives it
	apiKey, password string
	userID, clientID string // the target's ids
	// mu guards what the run learns of the account as it goes: the lanes
	// of a pair read it while one of them restores it.
	mu     sync.Mutex
	user   pricing.StateUser
	client pricing.StateClient
	token  string // a session token of the target
}

// state is the account's user, client and token now.
func (a *accountState) state() (pricing.StateUser, pricing.StateClient, string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	u := a.user
	u.ClientIDs, u.APIKeys = append([]int64(nil), u.ClientIDs...), append([]string(nil), u.APIKeys...)
	return u, a.client, a.token
}

func (a *accountState) setToken(tok string) {
	a.mu.Lock()
	a.token = tok
	a.mu.Unlock()
}

// taken reports whether s is a secret of an account of the profile: a
// near miss of one account's must be nobody's.
func (wd *world) taken(s string) bool {
	for _, ap := range wd.p.AccountPairs() {
		for _, secret := range []string{ap.APIKey, ap.Password, ap.OtherAPIKey, ap.OtherPassword} {
			if s == secret {
				return true
			}
		}
	}
	return false
}

// refID is the reference's id of account name's user and client.
func refID(name string) int64 {
	if name == "B" {
		return 2
	}
	return 1
}

// targetCatalogue is what the explorer knows of the target's catalogues.
type targetCatalogue struct {
	currencies     map[int64]string    // id: code (unknownCode: not known)
	plans          map[int64]string    // id: lite, pro, dynamic, none (unknownName: not known)
	platforms      map[int64]string    // id: name (unknownName: not known)
	phoneCountries map[int64][2]string // id: name and dial code
	hash           string              // the profile's marketplace app
	platformID     int64               // its platform
	currencyID     int64
	planID         int64
}

// Placeholders of values the explorer cannot know before the target shows
// them: the first answer that shows one is learned, and later answers must
// agree with it.
const (
	unknownName = "contract-explore-unknown"
	// defaultPlanStandIn is the reference's plan for an app of a target
	// whose default plan is not known: an id no target's catalogue gives.
	defaultPlanStandIn = 999999999998
	unknownDialCode    = "+0"
	unknownPhone       = unknownName + " (" + unknownDialCode + ")"
	unknownCode        = "XXX"
)

// unknownDate is the date the reference holds where it cannot know the
// target's.
var unknownDate = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// newWorld learns the target for one pair of accounts: the profile's
// catalogues completed by what the target's collections show (the names of
// the platforms, where the profile gives only ids), the accounts' ids by a
// login each, their users and clients where the target reads them back.
func newWorld(ctx context.Context, p steps.Profile, w *wire) (*world, error) {
	wd := &world{p: p, acct: map[string]*accountState{
		"A": {name: "A", email: p.Email, apiKey: p.APIKey, password: p.Password},
		"B": {name: "B", email: p.OtherEmail, apiKey: p.OtherAPIKey, password: p.OtherPassword},
	}}
	wd.skew, _ = time.ParseDuration(p.MustValue("clock_skew"))
	wd.skew += 2 * time.Second // a server that dates by the second, and the request's own time
	for _, f := range strings.Split(p.MustValue("version_forms"), ",") {
		if f = strings.TrimSpace(f); f != "" {
			wd.forms = append(wd.forms, f)
		}
	}
	wd.domain = p.MustValue("email_domain")
	wd.several = p.MustValue("clients_per_user") == "several"
	wd.byHash = p.MustValue("apps_per_marketapp") == "several" && target.IsHash40(p.MustValue("marketapp_hash"))
	wd.hashOnce = p.MustValue("apps_per_marketapp") == "one" && target.IsHash40(p.MustValue("marketapp_hash"))
	wd.form = p.MustValue("login_encoding") == "form"
	if err := wd.loadCatalogue(); err != nil {
		return nil, err
	}
	wd.readCollections(ctx, w)
	for _, name := range []string{"A", "B"} {
		a := wd.acct[name]
		status, body, err := w.login(ctx, a.email, a.password)
		if err != nil || status != http.StatusOK {
			return nil, fmt.Errorf("account %s cannot log in: %d %v", name, status, err)
		}
		s := gjson.ParseBytes(body)
		a.userID, a.clientID, a.token = idText(s.Get("userId")), idText(s.Get("clientId")), s.Get("token").String()
		if a.userID == "" || a.clientID == "" {
			return nil, fmt.Errorf("account %s: POST /sessions answered no userId or clientId: %s", name, body)
		}
		wd.profileAccount(a)
		if wd.readAccount(ctx, w, a, true) {
			wd.hasRead = true
		}
		if _, ok := wd.cat.phoneCountries[a.user.PhoneCountryID]; !ok {
			wd.cat.phoneCountries[a.user.PhoneCountryID] = [2]string{unknownPhone, unknownDialCode}
		}
		if _, ok := wd.cat.currencies[a.client.CurrencyID]; !ok {
			wd.cat.currencies[a.client.CurrencyID] = unknownCode
		}
	}
	wd.clientsList = wd.listOfClients(ctx, w)
	wd.appsOfCaller = wd.listsAppsOfCaller(ctx, w)
	if _, err := wd.seed(); err != nil {
		return nil, err
	}
	return wd, nil
}

// listOfClients finds where the target lists account A's clients, if it
// does: a read extension answering 200 with a wrapper "clients" that holds
// A's client.
func (wd *world) listOfClients(ctx context.Context, w *wire) string {
	a := wd.acct["A"]
	for _, p := range []struct{ path, name string }{{"/users/" + a.userID + "/clients", "/users/:userId/clients"}, {"/clients", "/clients"}} {
		status, body, err := w.get(ctx, p.path, http.Header{"Authorization": {"api-key " + a.apiKey}})
		if err != nil || status != http.StatusOK {
			continue
		}
		for _, it := range gjson.GetBytes(body, "clients").Array() {
			if idText(it.Get("id")) == a.clientID {
				return p.name
			}
		}
	}
	return ""
}

// listsAppsOfCaller reports whether the target lists the caller's apps at
// GET /apps where it has no GET /clients/:clientId/apps.
func (wd *world) listsAppsOfCaller(ctx context.Context, w *wire) bool {
	a := wd.acct["A"]
	h := http.Header{"Authorization": {"api-key " + a.apiKey}}
	if status, body, err := w.get(ctx, "/clients/"+a.clientID+"/apps", h); err == nil && status == http.StatusOK && gjson.GetBytes(body, "apps").IsArray() {
		return false
	}
	status, body, err := w.get(ctx, "/apps", h)
	return err == nil && status == http.StatusOK && gjson.GetBytes(body, "apps").IsArray()
}

// idText is an id as the target wrote it, exactly: a JSON integer of any
// size ("" for anything else). Ids are compared as these strings, never as
// floats (freedom.Identity).
func idText(v gjson.Result) string {
	if v.Type != gjson.Number || v.Raw == "" || strings.ContainsAny(v.Raw, ".eE+") {
		return ""
	}
	raw := strings.TrimPrefix(v.Raw, "-")
	if raw == "" || strings.TrimLeft(raw, "0123456789") != "" {
		return ""
	}
	return v.Raw
}

// profileAccount fills an account as the profile gives it, where the target
// does not show it.
func (wd *world) profileAccount(a *accountState) {
	p := wd.p
	key := func(k string) string {
		if a.name == "B" {
			k = "other_" + k
		}
		v, _ := p.Value(k)
		return v
	}
	u := &a.user
	u.ID, u.Email, u.Password, u.APIKeys = refID(a.name), a.email, a.password, []string{a.apiKey}
	u.Created, u.PasswordLastChanged = unknownDate, unknownDate
	u.FirstName, u.LastName, u.Timezone = key("first_name"), key("last_name"), key("timezone")
	// What neither the profile gives nor the target shows: the first
	// update (a restore's included) sets it, so that the two agree after.
	if u.FirstName == "" {
		u.FirstName = "contract-explore"
	}
	if u.LastName == "" {
		u.LastName = "account-" + a.name
	}
	if u.Timezone == "" {
		u.Timezone = "Europe/London"
	}
	u.SubscribeWelcome, u.SubscribeHowto = true, true
	u.PhoneCountryID, _ = strconv.ParseInt(key("phone_country_id"), 10, 64)
	if u.PhoneCountryID == 0 {
		u.PhoneCountryID = wd.cat.anyPhoneCountry()
	}
	u.PhoneNumber = key("phone_number")
	if u.PhoneNumber == "" {
		u.PhoneNumber = "7700900123"
	}
	u.PhoneExtension = nil
	if ext := key("phone_extension"); ext != "" && ext != "null" {
		u.PhoneExtension = &ext
	}
	u.ClientIDs, u.PrimaryClientID = []int64{refID(a.name)}, refID(a.name)
	c := &a.client
	c.ID, c.CreatedDate = refID(a.name), unknownDate
	c.Name = "contract-explore-client"
	c.AddressLine1, c.AddressCity = p.MustValue("address_line1"), p.MustValue("address_city")
	c.AddressPostcode, c.AddressCountry = p.MustValue("address_postcode"), p.MustValue("address_country")
	l2, vat := p.MustValue("address_line2"), p.MustValue("vat")
	c.AddressLine2, c.VAT = &l2, &vat
	c.CurrencyID = wd.cat.currencyID
}

func (c targetCatalogue) anyPhoneCountry() int64 {
	for id := range c.phoneCountries {
		return id
	}
	return 1
}

// readAccount reads the account's user and client where the target has the
// read extensions, and reports whether it has them; learn: what they show
// of the catalogues completes them (before the first sequence only: the
// catalogues do not change after).
func (wd *world) readAccount(ctx context.Context, w *wire, a *accountState, learn bool) bool {
	h := http.Header{"Authorization": {"api-key " + a.apiKey}}
	status, body, err := w.get(ctx, "/users/"+a.userID, h)
	if err != nil || status != http.StatusOK || !gjson.ValidBytes(body) {
		return false
	}
	u := gjson.ParseBytes(body)
	if u.Get("firstName").Type != gjson.String {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	su := &a.user
	readLeaves(pricing.UserObject, u, su)
	if pc := u.Get("phoneCountry"); learn && pc.Get("name").Exists() && pc.Get("dialCode").Exists() {
		// Learned from the account only where no collection told it.
		if known, ok := wd.cat.phoneCountries[su.PhoneCountryID]; !ok || known[0] == unknownPhone {
			wd.cat.phoneCountries[su.PhoneCountryID] = [2]string{pc.Get("name").String(), pc.Get("dialCode").String()}
		}
	}
	status, body, err = w.get(ctx, "/clients/"+a.clientID, h)
	if err != nil || status != http.StatusOK || !gjson.ValidBytes(body) {
		return true
	}
	c := gjson.ParseBytes(body)
	readLeaves(pricing.ClientObject, c, &a.client)
	if id, err := strconv.ParseInt(idText(c.Get("currency.id")), 10, 64); err == nil {
		if code := c.Get("currency.code").String(); learn && code != "" && (wd.cat.currencies[id] == "" || wd.cat.currencies[id] == unknownCode) {
			wd.cat.currencies[id] = strings.ToUpper(code)
		}
	}
	return true
}

// readLeaves sets the fields of obj (a pointer to the account's user or
// client) to what the target answered, leaf by leaf of the object's table
// (mockserver/pricing/fields.go), each by its Go type: all but the id and
// the email, the reference's and the profile's, and those obj holds no
// field for (the catalogues' names and codes, learned apart).
func readLeaves(tb *pricing.Table, ans gjson.Result, obj any) {
	o := reflect.ValueOf(obj).Elem()
	for _, row := range tb.Leaves() {
		f, ok := leafOf(o, row.Path)
		if !ok || row.Path == "id" || row.Path == "email" {
			continue
		}
		v := ans.Get(row.Path)
		switch f.Interface().(type) {
		case time.Time:
			f.Set(reflect.ValueOf(instantOf(v.String())))
		case string:
			f.SetString(v.String())
		case bool:
			f.SetBool(v.Bool())
		case *string:
			f.Set(reflect.ValueOf(optString(v)))
		case int64:
			if id, err := strconv.ParseInt(idText(v), 10, 64); err == nil {
				f.SetInt(id)
			}
		}
	}
}

// leafOf is the Go field of o (a user, client or app of mockserver/pricing,
// the store's or the state's) that holds the leaf at path of its object's
// table: the exported field named as the path without its dots, in any
// letter case (phoneCountry.id: PhoneCountryID); ok false where o has none.
func leafOf(o reflect.Value, path string) (reflect.Value, bool) {
	name := strings.ReplaceAll(path, ".", "")
	f := o.FieldByNameFunc(func(n string) bool { return token.IsExported(n) && strings.EqualFold(n, name) })
	return f, f.IsValid()
}

// leafValue is the value of o's leaf at path (leafOf).
func leafValue(o any, path string) (any, bool) {
	f, ok := leafOf(reflect.ValueOf(o), path)
	if !ok {
		return nil, false
	}
	return f.Interface(), true
}

// instantOf is a date the target answered (any ISO 8601 form) as the instant
// it starts; unknownDate where it names none.
func instantOf(s string) time.Time {
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

// loadCatalogue reads the profile's catalogues: its ids, and its lists
// where it gives them (a classic profile gives one id of each).
func (wd *world) loadCatalogue() error {
	p := wd.p
	c := targetCatalogue{currencies: map[int64]string{}, plans: map[int64]string{}, platforms: map[int64]string{}, phoneCountries: map[int64][2]string{}}
	num := func(key string) (int64, error) {
		n, err := strconv.ParseInt(p.MustValue(key), 10, 64)
		if err != nil {
			f, _ := target.Lookup(key)
			return 0, fmt.Errorf("the profile gives no %s (%s), which the explorer sends", key, f.Env)
		}
		return n, nil
	}
	var err error
	if c.currencyID, err = num("currency_id"); err != nil {
		return err
	}
	if c.planID, err = num("plan_id"); err != nil {
		return err
	}
	if c.platformID, err = num("platform_id"); err != nil {
		return err
	}
	c.hash = strings.ToLower(p.MustValue("marketapp_hash"))
	for _, l := range []struct {
		key  string
		into map[int64]string
	}{{"currencies", c.currencies}, {"plans", c.plans}, {"platforms", c.platforms}} {
		v, _ := p.Value(l.key)
		if v == "" {
			continue
		}
		entries, err := p.Catalogue(l.key, v)
		if err != nil {
			return err
		}
		for _, en := range entries {
			id, err := strconv.ParseInt(en.ID, 10, 64)
			if err != nil {
				return fmt.Errorf("%s: %w", l.key, err)
			}
			l.into[id] = en.Word // "" where the profile derived the list from one id
		}
	}
	fill := func(m map[int64]string, id int64, unknown string) {
		if m[id] == "" {
			m[id] = unknown
		}
		for k, v := range m {
			if v == "" {
				m[k] = unknown
			}
		}
	}
	fill(c.currencies, c.currencyID, unknownCode)
	fill(c.plans, c.planID, unknownName)
	fill(c.platforms, c.platformID, unknownName)
	for _, k := range []string{"phone_country_id", "other_phone_country_id"} {
		if v, _ := p.Value(k); v != "" {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			c.phoneCountries[id] = [2]string{unknownPhone, unknownDialCode}
		}
	}
	wd.cat = c
	return nil
}

// readCollections completes the catalogues from the target's collections,
// where it has them (target.ReadCatalogues: the platforms collection of the
// profile's path, and the collections of currencies, plans and phone
// countries wherever the target lists them), read without credentials, or
// with the api key where they need them. What they show replaces the
// placeholders; an entry the profile does not list is added only to a list
// the profile did not give (a classic profile's one id).
func (wd *world) readCollections(ctx context.Context, w *wire) {
	get := func(path string) (gjson.Result, bool) {
		status, body, err := w.get(ctx, path, nil)
		if err == nil && status == http.StatusUnauthorized {
			status, body, err = w.get(ctx, path, http.Header{"Authorization": {"api-key " + wd.p.APIKey}})
		}
		if err != nil || status != http.StatusOK || !gjson.ValidBytes(body) {
			return gjson.Result{}, false
		}
		return gjson.ParseBytes(body), true
	}
	given := func(key string) bool {
		v, _ := wd.p.Value(key)
		return v != "" && !strings.HasPrefix(wd.p.Origin(key), "derived from ")
	}
	cat := target.ReadCatalogues(get, wd.p.MustValue("platforms_path"))
	for _, l := range []struct {
		key     string
		entries []target.Entry
		into    map[int64]string
		unknown string
		word    func(string) string
	}{
		{"platforms", cat.Platforms, wd.cat.platforms, unknownName, func(w string) string { return w }},
		{"currencies", cat.Currencies, wd.cat.currencies, unknownCode, strings.ToUpper},
		{"plans", cat.Plans, wd.cat.plans, unknownName, func(w string) string { return w }},
	} {
		for _, e := range l.entries {
			id, err := strconv.ParseInt(e.ID, 10, 64)
			if err != nil {
				continue
			}
			if old, ok := l.into[id]; ok && old == l.unknown || !ok && !given(l.key) {
				l.into[id] = l.word(e.Word)
			}
		}
	}
	for _, e := range cat.PhoneCountries {
		id, err := strconv.ParseInt(e.ID, 10, 64)
		if err != nil {
			continue
		}
		if _, ok := wd.cat.phoneCountries[id]; !ok {
			// Its name and dial code are learned from the first answer
			// that shows them.
			wd.cat.phoneCountries[id] = [2]string{unknownPhone, unknownDialCode}
		}
	}
}

// ids are the catalogues' ids, by the names fields use.
func (c targetCatalogue) ids() map[string][]int64 {
	out := map[string][]int64{}
	for name, m := range map[string]map[int64]string{"currencies": c.currencies, "plans": c.plans, "platforms": c.platforms} {
		for id := range m {
			out[name] = append(out[name], id)
		}
	}
	for id := range c.phoneCountries {
		out["phoneCountries"] = append(out["phoneCountries"], id)
	}
	for _, ids := range out {
		sortInts(ids)
	}
	return out
}

func sortInts(s []int64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// planFlags are the flags of a plan named lite, pro or dynamic (2.3); ok is
// false for a name that says nothing of them.
func planFlags(name string) (lite, pro, dynamic, billing, ok bool) {
	switch strings.ToLower(name) {
	case "lite":
		return true, false, false, false, true
	case "pro":
		return false, true, false, true, true
	case "dynamic":
		return false, false, true, true, true
	case "none":
		return false, false, false, false, true
	}
	return false, false, false, false, false
}

// seed is the reference's seed: the catalogues and the two accounts, as
// typed values (pricing.NewSeed).
func (wd *world) seed() (*pricing.Seed, error) {
	c := wd.cat
	var v pricing.SeedValues
	for id, name := range c.platforms {
		v.Platforms = append(v.Platforms, pricing.Platform{ID: id, Created: unknownDate, CreatorUserID: 1, Name: name})
	}
	for id, code := range c.currencies {
		v.Currencies = append(v.Currencies, pricing.Currency{ID: id, Code: code})
	}
	anyLite := false
	for id, name := range c.plans {
		lite, pro, dyn, billing, _ := planFlags(name)
		anyLite = anyLite || lite
		v.Plans = append(v.Plans, pricing.Plan{ID: id, Name: name, IsLite: lite, IsPro: pro, IsDynamic: dyn, NeedBilling: billing})
	}
	if !anyLite {
		// The plan a target gives an app without a nextplan.id is not
		// known (none of its plans is known as the lite one): the
		// reference makes such an app with a plan of its own, whose
		// flags no check compares (the catalogue's plans are the
		// target's alone).
		v.Plans = append(v.Plans, pricing.Plan{ID: defaultPlanStandIn, Name: unknownName, IsLite: true})
	}
	for id, nd := range c.phoneCountries {
		v.PhoneCountries = append(v.PhoneCountries, pricing.PhoneCountry{ID: id, Name: nd[0], DialCode: nd[1]})
	}
	if c.hash != "" {
		v.Marketapps = []pricing.Marketapp{{Hash: c.hash, Name: unknownName, PlatformID: c.platformID}}
	}
	for _, name := range []string{"A", "B"} {
		u, c, _ := wd.acct[name].state()
		v.Users = append(v.Users, u)
		v.Clients = append(v.Clients, c)
	}
	seed, err := pricing.NewSeed(v)
	if err != nil {
		return nil, fmt.Errorf("the reference cannot hold what the explorer knows of the target: %w", err)
	}
	return seed, nil
}
