package explore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/brianvoe/gofakeit/v6"
	"pgregory.net/rapid"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// drawStep draws the next step of a sequence from the reference's state:
// the bodies start from what the reference holds, so that a valid body
// changes what the drawn changes name and nothing else.
func (e *explorer) drawStep(t *rapid.T, s *seqState) step {
	ops := []string{opPutUser, opPutUser, opPutUser, opPutClient, opPutClient, opPostApp, opPostApp, opLogin, opLogin, opPlatforms}
	if e.p.MustValue("clients_per_user") == "several" {
		ops = append(ops, opPostClient, opPostClient)
	}
	st := step{op: rapid.SampledFrom(ops).Draw(t, "op"), actor: rapid.SampledFrom([]string{"A", "B"}).Draw(t, "actor")}
	// rapid draws small values most (its shrinking wants them simple); the
	// picks among many alike are uniform, from a faker rapid seeds.
	f := gofakeit.New(rapid.Int64().Draw(t, "fake") ^ e.salt)
	if st.op != opLogin {
		// Valid credentials most of the time, so that sequences get past
		// authentication and change state.
		if rapid.IntRange(0, 3).Draw(t, "credKind") < 3 {
			st.cred = rapid.SampledFrom(creds[:3]).Draw(t, "cred")
		} else {
			st.cred = oneOf(f, creds[3:])
		}
	}
	switch v := f.Number(0, 39); {
	case v == 0:
		st.version = "v2"
	case v < 3 && len(e.forms) > 1:
		st.version = oneOf(f, e.forms)
	}
	switch st.op {
	case opPutUser, opPutClient:
		st.path = oneOf(f, []string{"own", "own", "own", "own", "other", "unknown", "malformed", "created"})
		if st.path == "created" && (st.op == opPutUser || len(s.posted[st.actor]) == 0) {
			st.path = "own"
		}
		if st.path == "malformed" {
			st.badID = oneOf(f, []string{"abc", "1.5", "-1", "0", "99999999999999999999"})
		}
		if st.op == opPutUser {
			e.drawUserBody(t, f, s, &st)
		} else {
			st.body = clientBody(s.clientOf(st))
			e.drawClientChanges(t, f, &st, st.body, "", false)
		}
	case opPostClient:
		st.body = e.newClientBody(f)
		e.drawClientChanges(t, f, &st, st.body, "", true)
	case opPostApp:
		st.body = e.drawAppBody(t, f, &st, "")
	case opLogin:
		e.drawLogin(t, f, s, &st)
		return st
	case opPlatforms:
		return st
	}
	e.drawWholeBody(f, &st)
	return st
}

// drawWholeBody now and then replaces the body with one that is no JSON
// object, or pads it past any sensible limit.
func (e *explorer) drawWholeBody(f *gofakeit.Faker, st *step) {
	switch f.Number(0, 29) {
	case 0:
		st.raw, st.what = ptr(`{"email": `), "a body that is not JSON"
	case 1:
		st.raw, st.what = ptr(`["not", "an", "object"]`), "a JSON array as the body"
	case 2:
		st.raw, st.what = ptr(""), "an empty body"
	case 3:
		st.pad, st.unnamed = 1<<20, true
		st.what = join(st.what, "a 1 MiB field the spec does not name")
	case 4:
		st.body["contractExtra"], st.unnamed = "x", true
		st.what = join(st.what, "a field the spec does not name")
	}
}

func ptr[T any](v T) *T { return &v }

// oneOf is a uniform pick.
func oneOf[T any](f *gofakeit.Faker, items []T) T { return items[f.Number(0, len(items)-1)] }

// ids are a catalogue's ids in order, as JSON numbers.
func ids[V any](m map[int64]V) []any {
	keys := make([]int64, 0, len(m))
	for id := range m {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	out := make([]any, len(keys))
	for i, id := range keys {
		out[i] = json.Number(fmt.Sprint(id))
	}
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// userBody is the body of PUT /users that changes nothing: the user as the
// reference holds it.
func userBody(u pricing.User) map[string]any {
	b := map[string]any{
		"email": u.Email, "firstName": u.FirstName, "lastName": u.LastName,
		"subscribeWelcome": u.SubscribeWelcome, "subscribeBlog": u.SubscribeBlog,
		"subscribeHowto": u.SubscribeHowto, "subscribeOnboarding": u.SubscribeOnboarding,
		"timezone": u.Timezone, "password": nil,
		"phoneCountry": map[string]any{"id": json.Number(fmt.Sprint(u.PhoneCountryID))}, "phoneNumber": u.PhoneNumber,
		"phoneExtension": nil,
	}
	if u.PhoneExtension != nil {
		b["phoneExtension"] = *u.PhoneExtension
	}
	return b
}

// change is one drawn change of a body: the field, its new value, what it
// is, and the code 7.3 names for it ("" none).
type change struct {
	field, what, code string
	value             any
	remove, loose     bool
}

func (e *explorer) emailDomain() string { return e.p.MustValue("email_domain") }

func word(f *gofakeit.Faker) string { return strings.ToLower(f.LetterN(8)) }

// userChanges are the changes a PUT /users body may carry.
func (e *explorer) userChanges(f *gofakeit.Faker, s *seqState, actor string) []change {
	d := e.emailDomain()
	nonASCII := func(n int) string { return strings.Repeat("é", n) }
	other := s.user(e.other(actor))
	return []change{
		{field: "firstName", what: "a new first name", value: "contract-" + f.FirstName()},
		{field: "firstName", what: "a first name of 255 characters", value: strings.Repeat("f", 255)},
		{field: "firstName", what: "a first name of 255 non-ASCII characters", value: nonASCII(255)},
		{field: "firstName", what: "a first name of one character", value: "Q"},
		{field: "firstName", what: "a first name with an apostrophe", value: "O'Brien <&>"},
		{field: "firstName", what: "an empty first name", value: "", code: pricing.CodeInvalidFirstName.String()},
		{field: "firstName", what: "no first name", remove: true, code: pricing.CodeInvalidFirstName.String()},
		{field: "firstName", what: "a first name of 256 characters", value: strings.Repeat("f", 256)},
		{field: "firstName", what: "a first name of 256 non-ASCII characters", value: nonASCII(256)},
		{field: "firstName", what: "a number as the first name", value: json.Number("7")},
		{field: "lastName", what: "a new last name", value: "contract-" + f.LastName()},
		{field: "lastName", what: "an empty last name", value: "", code: pricing.CodeInvalidLastName.String()},
		{field: "lastName", what: "a last name of 256 characters", value: strings.Repeat("l", 256)},
		{field: "email", what: "a new email", value: "contract-" + word(f) + "@" + d},
		{field: "email", what: "an email with a + tag", value: "contract-" + word(f) + "+tag@" + d},
		{field: "email", what: "an email with dots", value: "contract." + word(f) + ".x@" + d},
		{field: "email", what: "an email on a subdomain", value: "contract-" + word(f) + "@contract-sub." + d},
		{field: "email", what: "an invalid email", value: "not-an-email", code: pricing.CodeInvalidEmail.String()},
		{field: "email", what: "an email of 256 characters", value: strings.Repeat("e", 256-1-len(d)) + "@" + d},
		{field: "email", what: "the other account's email", value: other.Email, loose: true},
		{field: "password", what: "a new password", value: "contract-" + f.Password(true, true, true, false, false, 10), code: ""},
		{field: "password", what: "a password of 6 characters", value: "pw-" + strings.ToLower(f.LetterN(3))},
		{field: "password", what: "a password of 6 non-ASCII characters", value: "éééééé"},
		{field: "password", what: "a password of 5 characters", value: "pw-ab", code: pricing.CodeInvalidPassword.String()},
		{field: "password", what: "a password of 5 two-byte characters", value: "ééééé", code: pricing.CodeInvalidPassword.String()},
		{field: "timezone", what: "a timezone with a hyphen", value: "America/Port-au-Prince"},
		{field: "timezone", what: "another timezone", value: "Asia/Tokyo"},
		{field: "timezone", what: "a timezone of 256 characters", value: "Europe/" + strings.Repeat("t", 249)},
		{field: "subscribeBlog", what: "subscribeBlog toggled", value: !s.user(actor).SubscribeBlog},
		{field: "subscribeWelcome", what: "subscribeWelcome toggled", value: !s.user(actor).SubscribeWelcome},
		{field: "subscribeHowto", what: "a string as subscribeHowto", value: "true", loose: true},
		{field: "phoneCountry.id", what: "an unknown phoneCountry.id", value: json.Number("999999999"), code: pricing.CodeInvalidPhoneCountryID.String()},
		{field: "phoneNumber", what: "a new phone number", value: f.Numerify("##########")},
		{field: "phoneNumber", what: "an empty phone number", value: "", code: pricing.CodeInvalidPhoneNumber.String()},
		{field: "phoneExtension", what: "a phone extension", value: f.Numerify("###")},
		{field: "phoneExtension", what: "no phone extension (null)", value: nil},
		{field: "phoneExtension", what: "a number as the phone extension", value: json.Number("42"), code: pricing.CodeInvalidPhoneExtension.String()},
	}
}

func (e *explorer) drawUserBody(t *rapid.T, f *gofakeit.Faker, s *seqState, st *step) {
	st.body = userBody(s.user(st.actor))
	all := e.userChanges(f, s, st.actor)
	n := f.Number(0, 3)
	for i := 0; i < n; i++ {
		e.apply(st, st.body, "", pick(t, f, all, "change", st.authentic()))
	}
	if f.Number(0, 14) == 0 && e.p.MustValue("clients_per_user") == "several" {
		cb := e.newClientBody(f)
		st.body["client"] = cb
		st.what = join(st.what, "a new client")
		e.drawClientChanges(t, f, st, cb, "client.", true)
		st.loose, st.looseFields = true, append(st.looseFields, "client")
	}
}

// pick draws a change, a third of the time one the spec refuses (a code
// of 7.3, a limit, a wrong type) and a third of the time an unusual value
// it accepts (255 characters, non-ASCII, a + in an email, the shortest
// password), so that a sequence meets each often, and several in one
// body. Without bias (the request is not authenticated) mostly ordinary
// changes: a server that applies such a request before refusing it
// stores them.
func pick(t *rapid.T, f *gofakeit.Faker, all []change, label string, bias bool) change {
	var refused, edge []change
	for _, c := range all {
		switch {
		case c.code != "" || c.loose || strings.Contains(c.what, "256"):
			refused = append(refused, c)
		case unusual(c.what):
			edge = append(edge, c)
		}
	}
	n := 3
	if !bias {
		n = 6
	}
	switch k := rapid.IntRange(0, n-1).Draw(t, label+"Kind"); {
	case k == 0 && len(refused) > 0:
		return oneOf(f, refused)
	case k == 1 && len(edge) > 0:
		return oneOf(f, edge)
	}
	return oneOf(f, all)
}

// unusual reports whether a change is a valid value a careless server
// refuses or alters.
func unusual(what string) bool {
	for _, w := range []string{"255", "non-ASCII", "+", "subdomain", "dots", "one character", "apostrophe", "hyphen", "6 characters", "upper case", "toggled", "null"} {
		if strings.Contains(what, w) {
			return true
		}
	}
	return false
}

// apply makes one change to body (or the object at prefix in it).
func (e *explorer) apply(st *step, body map[string]any, prefix string, c change) {
	obj, key := body, c.field
	if head, rest, ok := strings.Cut(c.field, "."); ok {
		o, _ := body[head].(map[string]any)
		if o == nil {
			o = map[string]any{}
		} else {
			o = copyMap(o)
		}
		body[head], obj, key = o, o, rest
	}
	if c.remove {
		delete(obj, key)
	} else {
		obj[key] = c.value
	}
	st.what = join(st.what, strings.TrimSpace(prefix+" "+c.what))
	if c.code != "" {
		st.codes = append(st.codes, prefix+c.field+"="+c.code)
	}
	if c.loose {
		st.loose = true
		st.looseFields = append(st.looseFields, prefix+c.field)
	}
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// clientBody is the body of PUT /clients that changes nothing.
func clientBody(c pricing.Client) map[string]any {
	b := map[string]any{
		"name": c.Name, "addressLine1": c.AddressLine1, "addressCity": c.AddressCity,
		"addressPostcode": c.AddressPostcode, "addressCountry": c.AddressCountry,
		"currency": map[string]any{"id": json.Number(fmt.Sprint(c.CurrencyID))}, "terms": "I agree",
	}
	if c.AddressLine2 != nil {
		b["addressLine2"] = *c.AddressLine2
	}
	if c.VAT != nil {
		b["vat"] = *c.VAT
	}
	return b
}

// newClientBody is a valid body of POST /clients.
func (e *explorer) newClientBody(f *gofakeit.Faker) map[string]any {
	p := e.p
	return map[string]any{
		"name": "contract-" + f.Company(), "addressLine1": p.MustValue("address_line1"), "addressLine2": p.MustValue("address_line2"),
		"addressCity": p.MustValue("address_city"), "addressPostcode": p.MustValue("address_postcode"),
		"addressCountry": p.MustValue("address_country"), "vat": p.MustValue("vat"),
		"currency": map[string]any{"id": json.Number(fmt.Sprint(e.cat.currencyID))}, "terms": "I agree",
	}
}

func (e *explorer) drawClientChanges(t *rapid.T, f *gofakeit.Faker, st *step, body map[string]any, prefix string, create bool) {
	other := ids(e.cat.currencies)
	nameCode := pricing.CodeInvalidName.String()
	if prefix != "" {
		nameCode = ""
	}
	all := []change{
		{field: "name", what: "a new name", value: "contract-" + f.Company()},
		{field: "name", what: "a name of 255 non-ASCII characters", value: strings.Repeat("ü", 255)},
		{field: "name", what: "an empty name", value: "", code: nameCode},
		{field: "name", what: "no name", remove: true, code: nameCode},
		{field: "name", what: "a name of 256 characters", value: strings.Repeat("n", 256)},
		{field: "addressLine1", what: "a new addressLine1", value: f.Street()},
		{field: "addressLine1", what: "an addressLine1 of 256 characters", value: strings.Repeat("a", 256)},
		{field: "addressCity", what: "an addressCity of 255 characters", value: strings.Repeat("c", 255)},
		{field: "addressCity", what: "an addressCity of 256 characters", value: strings.Repeat("c", 256)},
		{field: "vat", what: "a vat of 255 characters", value: strings.Repeat("9", 255), loose: true},
		{field: "vat", what: "a vat of 256 characters", value: strings.Repeat("9", 256)},
		{field: "addressLine2", what: "no addressLine2", remove: true},
		{field: "currency.id", what: "a currency of the catalogue", value: oneOf(f, other)},
		{field: "currency.id", what: "an unknown currency.id", value: json.Number("999999999"), loose: true},
		{field: "currency", what: "a currency that is no object", value: "GBP", loose: true},
		{field: "terms", what: "terms other than I agree", value: "I do not agree", loose: true},
	}
	if !create {
		all = append(all, change{field: "app", what: "an app (4.4: not accepted)", value: map[string]any{"name": "contract-app"}, loose: true})
	}
	n := f.Number(0, 3)
	for i := 0; i < n; i++ {
		e.apply(st, body, prefix, pick(t, f, all, prefix+"clientChange", st.authentic()))
	}
	if create && prefix == "" && f.Number(0, 2) == 0 {
		body["app"] = e.drawAppBody(t, f, st, "app.")
		st.what = join(st.what, "with an app")
	}
}

// drawAppBody draws a body of POST /apps (or the app of POST /clients).
func (e *explorer) drawAppBody(t *rapid.T, f *gofakeit.Faker, st *step, prefix string) map[string]any {
	b := map[string]any{}
	plans, platforms := ids(e.cat.plans), ids(e.cat.platforms)
	byHash := e.p.MustValue("apps_per_marketapp") == "several" && f.Bool()
	if byHash {
		b["marketapp"] = map[string]any{"hash": e.cat.hash}
		st.what = join(st.what, prefix+"the profile's marketplace app")
	} else {
		b["name"] = "contract-" + f.AppName()
		b["platform"] = map[string]any{"id": oneOf(f, platforms)}
		st.what = join(st.what, prefix+"an app by name")
		// A server may make apps only from a store's app (1), and say so
		// on the hash, the name or the platform.
		st.loose = true
		st.looseFields = append(st.looseFields, prefix+"marketapp", prefix+"name", prefix+"platform")
	}
	b["nextplan"] = map[string]any{"id": oneOf(f, plans)}
	nameCode := pricing.CodeInvalidName.String()
	if prefix != "" || byHash {
		nameCode = ""
	}
	all := []change{
		{field: "name", what: "another name", value: "contract-" + f.AppName()},
		{field: "name", what: "a name of 255 characters", value: strings.Repeat("n", 255)},
		{field: "name", what: "a name of 256 characters", value: strings.Repeat("n", 256)},
		{field: "name", what: "no name", remove: true, code: nameCode},
		{field: "platform.id", what: "another platform", value: oneOf(f, platforms), loose: byHash},
		{field: "platform.id", what: "an unknown platform.id", value: json.Number("999999999"), loose: true},
		{field: "nextplan.id", what: "an unknown nextplan.id", value: json.Number("999999999"), loose: true},
		{field: "marketapp.hash", what: "the hash in upper case", value: strings.ToUpper(e.cat.hash)},
		{field: "marketapp.hash", what: "a hash of 39 characters", value: e.cat.hash[:39], loose: true},
		{field: "marketapp.hash", what: "a hash of 41 characters", value: e.cat.hash + "a", loose: true},
		{field: "marketapp.hash", what: "a hash of no marketplace app", value: strings.Repeat("0", 40), loose: true},
	}
	n := f.Number(0, 3)
	for i := 0; i < n; i++ {
		c := pick(t, f, all, prefix+"appChange", st.authentic())
		if strings.HasPrefix(c.field, "marketapp") && e.p.MustValue("apps_per_marketapp") != "several" {
			continue
		}
		e.apply(st, b, prefix, c)
	}
	return b
}

// drawLogin draws a login: right, with a wrong password, an unknown email,
// or the email an account had before it changed it.
func (e *explorer) drawLogin(t *rapid.T, f *gofakeit.Faker, s *seqState, st *step) {
	u := s.user(st.actor)
	pw := s.password[st.actor]
	first := e.acct[st.actor].user.Email
	if !strings.EqualFold(first, u.Email) && rapid.Bool().Draw(t, "loginAfterEmailChange") {
		// The email changed in this sequence: the old address must no
		// longer log in, the new one must.
		if rapid.Bool().Draw(t, "oldEmail") {
			st.login, st.what = [2]string{first, pw}, "account "+st.actor+"'s email before it changed"
		} else {
			st.login, st.what = [2]string{u.Email, pw}, "account "+st.actor+"'s new email"
		}
		return
	}
	switch rapid.IntRange(0, 5).Draw(t, "login") {
	case 0:
		st.login, st.what = [2]string{u.Email, "contract-wrong-" + word(f)}, "a wrong password of account "+st.actor
	case 1:
		st.login, st.what = [2]string{"contract-" + word(f) + "@" + e.emailDomain(), pw}, "an unknown email"
	case 2:
		st.login, st.what = [2]string{e.acct[st.actor].user.Email, pw}, "account "+st.actor+"'s first email"
	default:
		st.login, st.what = [2]string{u.Email, pw}, "account "+st.actor+"'s credentials"
	}
}
