package pricing

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The limits of spec section 8 are the field tables' (fields.go); a phone
// extension is the mock's own: 1 to 10 digits (README, "Where the spec is
// silent").
const maxPhoneExtDigs = 10

var (
	timezoneRE = regexp.MustCompile(`^[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+)+$`)
	phoneExtRE = regexp.MustCompile(fmt.Sprintf(`^[0-9]{1,%d}$`, maxPhoneExtDigs))
)

// Condition is what makes validation refuse a field's value: the rule of
// its FieldError, which the explorer's policy holds decided by the spec or
// left to a server, field by field.
type Condition string

// The conditions of validation.
const (
	CondRequired   Condition = "required"    // absent or null
	CondType       Condition = "type"        // not the JSON type of the field
	CondEmpty      Condition = "empty"       // the empty string
	CondBlank      Condition = "blank"       // white space only
	CondLength     Condition = "length"      // over the field's limit
	CondShort      Condition = "short"       // a password under MinPassword
	CondForm       Condition = "form"        // not of the form the field takes (an email, a timezone, an extension, a hash, the terms)
	CondTaken      Condition = "taken"       // an email another user has
	CondUnknown    Condition = "unknown"     // an id or hash of nothing in the catalogue
	CondNotAllowed Condition = "not-allowed" // a field the endpoint does not take (app on PUT /clients)
)

// blankCond tells the empty string from white space.
func blankCond(s string) Condition {
	if s == "" {
		return CondEmpty
	}
	return CondBlank
}

// textCond is the condition of a string field refused as not provided.
func textCond(present, ok bool, s string) Condition {
	switch {
	case !present:
		return CondRequired
	case !ok:
		return CondType
	}
	return blankCond(s)
}

// presentCond is CondRequired for a key absent or null, else cond.
func presentCond(b Body, key string, cond Condition) Condition {
	if raw, ok := b[key]; !ok || raw == nil {
		return CondRequired
	}
	return cond
}

// typeOr is CondType for a value that is no string, else cond.
func typeOr(raw any, cond Condition) Condition {
	if _, ok := raw.(string); !ok {
		return CondType
	}
	return cond
}

// reference checks obj.id, the field f, against a catalogue: known reports
// whether the catalogue holds an id; message is the error otherwise. It
// returns the id and whether it is the catalogue's.
func (v *checker) reference(b Body, f Field, obj string, known func(int64) bool, message string) (int64, bool) {
	n, absent, valid := id(b, obj)
	if !valid || !known(n) {
		v.fail(f.Path, f.Code, idCond(b, obj, absent, valid), message)
		return 0, false
	}
	return n, true
}

// idCond is the condition of obj.id refused: left out, not a positive
// integer, or the id of nothing.
func idCond(b Body, obj string, absent, valid bool) Condition {
	switch {
	case absent:
		return CondRequired
	case !valid:
		o, _ := b[obj].(map[string]any)
		num, isNum := o["id"].(json.Number)
		if !isNum {
			return CondType
		}
		if _, err := strconv.ParseInt(string(num), 10, 64); err != nil && strings.ContainsAny(string(num), ".eE") {
			return CondForm // 1.0 or 1e0: a number, but no integer literal
		}
		return CondUnknown // zero, negative or past int64: the id of nothing
	}
	return CondUnknown
}

// hash reads marketapp.hash: the hash to look up, and whether it is well
// formed.
func (d Deviations) hash(raw any) (string, bool) {
	h, ok := raw.(string)
	if n := AppBody.Field("marketapp.hash").Max; d.HashTruncated && len(h) > n {
		h = h[:n]
	}
	return h, ok && hashRE.MatchString(h)
}

// Catalog is what validation needs to know beyond the body: the catalogues
// and whether an email is taken. *Store satisfies it; tests may pass a fake.
type Catalog interface {
	PhoneCountry(id int64) (PhoneCountry, bool)
	Currency(id int64) (Currency, bool)
	Plan(id int64) (Plan, bool)
	Platform(id int64) (Platform, bool)
	Marketapp(hash string) (Marketapp, bool)
	// DefaultPlanID is the plan of an app whose body names none.
	DefaultPlanID() int64
	// EmailTaken reports whether a user other than exceptUserID (0: none)
	// has the email, case-insensitively.
	EmailTaken(email string, exceptUserID int64) bool
}

var _ Catalog = (*Store)(nil)

// Body is a decoded JSON request body: an object whose numbers are
// json.Number (the decoder's UseNumber), so that ids are read exactly.
type Body = map[string]any

// checker collects the errors of one body. prefix is the dotted path of the
// object being checked ("" for the body, "client." or "app." inside it).
type checker struct {
	cat    Catalog
	dev    Deviations
	waive  func(field string, cond Condition) bool
	prefix string
	errs   []FieldError
}

func (v *checker) fail(field string, code Code, cond Condition, message string) {
	v.errs = append(v.errs, FieldError{FieldName: v.prefix + field, Error: code, Message: message, Rule: string(cond)})
}

// fails records the error of a value's condition, unless the validator
// waives it (Validator.Waive): then the value is taken as it is. It reports
// whether the value is refused.
func (v *checker) fails(field string, code Code, cond Condition, message string) bool {
	if v.waive != nil && v.waive(v.prefix+field, cond) {
		return false
	}
	v.fail(field, code, cond, message)
	return true
}

func (v *checker) nested(prefix string) *checker {
	return &checker{cat: v.cat, dev: v.dev, waive: v.waive, prefix: v.prefix + prefix}
}

// str reads a string field: present reports the key exists with a non-null
// value, ok that the value is a string.
func str(b Body, key string) (s string, present, ok bool) {
	raw, exists := b[key]
	if !exists || raw == nil {
		return "", false, true
	}
	s, ok = raw.(string)
	return s, true, ok
}

func hasKey(b Body, key string) bool {
	_, ok := b[key]
	return ok
}

func runes(s string) int { return utf8.RuneCountInString(s) }

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// text checks a string of the table whose content the mock takes as sent
// (a name, an address): required, and then not blank, unless the table
// marks it optional; within its limit. It is nil when the field is
// refused, or optional and absent or null.
func (v *checker) text(b Body, f Field) *string {
	if f.Optional {
		return v.optionalText(b, f)
	}
	return v.requiredText(b, f)
}

// requiredText checks a required string that may not be blank.
func (v *checker) requiredText(b Body, f Field) *string {
	key, code := f.Path, f.Code
	s, present, ok := str(b, key)
	switch {
	case !present:
		v.fail(key, code, CondRequired, fmt.Sprintf("%s is required.", key))
	case !ok:
		v.fail(key, code, CondType, fmt.Sprintf("%s must be a string.", key))
	case blank(s) && v.fails(key, code, blankCond(s), fmt.Sprintf("%s must not be empty.", key)):
	case v.tooLong(f, s):
	default:
		return &s
	}
	return nil
}

// optionalText checks an optional string; absent and null give nil.
func (v *checker) optionalText(b Body, f Field) *string {
	key, code := f.Path, f.Code
	s, present, ok := str(b, key)
	switch {
	case !present:
		return nil
	case !ok:
		v.fail(key, code, CondType, fmt.Sprintf("%s must be a string or null.", key))
	case v.tooLong(f, s):
	default:
		return &s
	}
	return nil
}

// tooLong fails a string over its field's limit (the table's Max, unless
// the Deviations change it), and reports whether it did.
func (v *checker) tooLong(f Field, s string) bool {
	limit := v.dev.maxLen(f.Path, f.Max)
	if runes(s) <= limit {
		return false
	}
	return v.fails(f.Path, f.Code, CondLength, fmt.Sprintf("%s must be at most %d characters long.", f.Path, limit))
}

// value is the string p points to, "" for nil.
func value(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func (v *checker) requiredBool(b Body, f Field) bool {
	key := f.Path
	x, ok := b[key].(bool)
	if !ok {
		v.fail(key, f.Code, presentCond(b, key, CondType), fmt.Sprintf("%s must be true or false.", key))
	}
	return x
}

// id reads obj.id: absent reports that obj or its id is missing or null,
// valid that the value is a positive integer.
func id(b Body, obj string) (n int64, absent, valid bool) {
	raw, exists := b[obj]
	if !exists || raw == nil {
		return 0, true, false
	}
	o, ok := raw.(map[string]any)
	if !ok {
		return 0, false, false
	}
	rawID, exists := o["id"]
	if !exists || rawID == nil {
		return 0, true, false
	}
	return positiveInt(rawID)
}

func positiveInt(raw any) (int64, bool, bool) {
	num, ok := raw.(json.Number)
	if !ok {
		return 0, false, false
	}
	n, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil || n <= 0 {
		return 0, false, false
	}
	return n, false, true
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == ""
}

// Validator checks request bodies against the catalogues, under its
// Deviations: with the zero Deviations, as the spec says.
type Validator struct {
	Catalog    Catalog
	Deviations Deviations
	// Waive, when set, takes a value as it is where the mock refuses it for
	// a condition of a present string (empty, blank, length, form) that
	// Waive names, by the field's dotted path: the explorer's reference,
	// adopting a target's choice where the spec leaves the value's
	// validity open. Never for a type, a missing field or a catalogue id.
	Waive func(field string, cond Condition) bool
}

func (val Validator) checker() *checker {
	return &checker{cat: val.Catalog, dev: val.Deviations, waive: val.Waive}
}

// UserUpdate checks a body of PUT /users/:userId for user userID.
func (val Validator) UserUpdate(b Body, userID int64) (UserInput, []FieldError) {
	v := val.checker()
	in := v.user(b, userID, false)
	return in, v.errs
}

// UserCreate checks a body of POST /users: the body of PUT /users with
// password, phoneCountry.id and phoneNumber required.
func (val Validator) UserCreate(b Body) (UserInput, []FieldError) {
	v := val.checker()
	in := v.user(b, 0, true)
	return in, v.errs
}

// ClientCreate checks a body of POST /clients, including its optional app.
func (val Validator) ClientCreate(b Body) (ClientInput, []FieldError) {
	v := val.checker()
	in := v.client(b, true)
	return in, v.errs
}

// ClientUpdate checks a body of PUT /clients/:clientId, which may not carry
// an app.
func (val Validator) ClientUpdate(b Body) (ClientInput, []FieldError) {
	v := val.checker()
	in := v.client(b, false)
	return in, v.errs
}

// App checks a body of POST /apps and resolves it: with a marketplace app,
// the app takes its name and platform.
func (val Validator) App(b Body) (AppInput, []FieldError) {
	v := val.checker()
	in := v.app(b)
	return in, v.errs
}

// userClient checks the optional client of a user body: the body of POST
// /clients, whose errors are named client.<field>.
func (v *checker) userClient(b Body) *ClientInput {
	raw, exists := b["client"]
	if !exists || raw == nil {
		return nil
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		v.fail("client", UserBody.Field("client").Code, CondType, "client must be an object: the body of POST /clients.")
		return nil
	}
	cv := v.nested("client.")
	c := cv.client(obj, true)
	v.errs = append(v.errs, cv.errs...)
	return &c
}

func (v *checker) client(b Body, create bool) ClientInput {
	var in ClientInput
	in.Name = value(v.text(b, ClientBody.Field("name")))
	in.AddressLine1 = value(v.text(b, ClientBody.Field("addressLine1")))
	in.AddressLine2 = v.text(b, ClientBody.Field("addressLine2"))
	in.AddressCity = value(v.text(b, ClientBody.Field("addressCity")))
	in.AddressPostcode = value(v.text(b, ClientBody.Field("addressPostcode")))
	in.AddressCountry = value(v.text(b, ClientBody.Field("addressCountry")))
	in.VAT = v.text(b, ClientBody.Field("vat"))

	if n, ok := v.reference(b, ClientBody.Field("currency.id"), "currency", func(n int64) bool { _, ok := v.cat.Currency(n); return ok },
		"currency.id must be the id of a currency (see GET /currencies)."); ok {
		in.CurrencyID = n
	}

	terms := ClientBody.Field("terms")
	if s, _, _ := str(b, terms.Path); s != "I agree" && !v.dev.TermsUnchecked {
		v.fail(terms.Path, terms.Code, presentCond(b, terms.Path, CondForm), `terms must be exactly "I agree" to accept the terms and conditions.`)
	}

	app := ClientBody.Field("app")
	raw, exists := b[app.Path]
	switch {
	case !create && exists && v.dev.AppOnUpdateIgnored:
	case !create && exists:
		v.fail(app.Path, app.Code, CondNotAllowed, "app cannot be given when updating a client; create an app with POST /apps.")
	case !exists || raw == nil:
	default:
		obj, ok := raw.(map[string]any)
		if !ok {
			v.fail(app.Path, app.Code, CondType, "app must be an object: the body of POST /apps.")
			break
		}
		av := v.nested("app.")
		a := av.app(obj)
		if len(av.errs) > 0 && v.dev.InvalidAppDropped {
			break
		}
		v.errs = append(v.errs, av.errs...)
		in.App = &a
	}
	return in
}

func (v *checker) app(b Body) AppInput {
	var in AppInput
	// hashGiven: the body names a marketplace app, so name and platform.id
	// are not required, even when the hash turns out to be wrong.
	hashGiven := v.marketapp(b, &in)
	v.appName(b, hashGiven, &in)

	platform := AppBody.Field("platform.id")
	pid, absent, valid := id(b, "platform")
	_, known := v.cat.Platform(pid)
	switch {
	case absent && !hashGiven:
		v.fail(platform.Path, platform.Code, CondRequired, "platform.id is required when no marketapp.hash is given (see GET /platforms).")
	case absent:
	case !valid || !known:
		v.fail(platform.Path, platform.Code, idCond(b, "platform", absent, valid), "platform.id must be the id of a platform (see GET /platforms).")
	case !hashGiven || v.dev.BodyPlatformWins:
		in.PlatformID = pid
	}

	nextplan := AppBody.Field("nextplan.id")
	plan, absent, valid := id(b, "nextplan")
	_, known = v.cat.Plan(plan)
	switch {
	case absent:
		in.PlanID = v.cat.DefaultPlanID()
	case !valid || !known:
		v.fail(nextplan.Path, nextplan.Code, idCond(b, "nextplan", absent, valid), "nextplan.id must be the id of a subscription plan (see GET /plans).")
	default:
		in.PlanID = plan
	}
	return in
}

// marketapp checks marketapp.hash and, when it names a marketplace app,
// takes the app's name and platform from it. It reports whether the body
// gives a hash at all.
func (v *checker) marketapp(b Body, in *AppInput) bool {
	raw, exists := b["marketapp"]
	if !exists || raw == nil {
		return false
	}
	f := AppBody.Field("marketapp.hash")
	field, code := f.Path, f.Code
	msg := fmt.Sprintf("marketapp.hash must be the %d-hexadecimal-character hash of a marketplace app (see GET /marketapps).", f.Max)
	obj, ok := raw.(map[string]any)
	if !ok {
		v.fail(field, code, CondType, msg)
		return true
	}
	rawHash, exists := obj["hash"]
	if !exists || rawHash == nil {
		return false
	}
	h, ok := v.dev.hash(rawHash)
	switch m, known := v.cat.Marketapp(strings.ToLower(h)); {
	case !ok && v.dev.MalformedHashIgnored:
		return false
	case ok && !known && v.dev.UnknownHashIgnored:
		return false
	case !ok:
		v.fail(field, code, typeOr(rawHash, CondForm), msg)
	case !known:
		v.fail(field, code, CondUnknown, "marketapp.hash matches no marketplace app (see GET /marketapps).")
	default:
		in.MarketappHash = ptr(m.Hash)
		in.Name, in.PlatformID = m.Name, m.PlatformID
	}
	return true
}

// appName checks name, required only without a marketplace app, whose
// name then wins.
func (v *checker) appName(b Body, hashGiven bool, in *AppInput) {
	f := AppBody.Field("name")
	key, code := f.Path, f.Code
	name, present, ok := str(b, key)
	switch {
	case !present && !hashGiven && !v.dev.AppNameOptional:
		v.fail(key, code, CondRequired, "name is required when no marketapp.hash is given.")
	case !present:
	case !ok:
		v.fail(key, code, CondType, "name must be a string or null.")
	case v.tooLong(f, name):
	case blank(name) && !hashGiven && !v.dev.AppNameOptional && v.fails(key, code, blankCond(name), "name must not be empty when no marketapp.hash is given."):
	case !hashGiven:
		in.Name = name
	}
}

// ValidateSession checks a body of POST /sessions (decoded from JSON or from
// a form) and returns its credentials.
func ValidateSession(b Body) (email, password string, errs []FieldError) {
	v := &checker{}
	email, present, ok := str(b, "email")
	if !present || !ok || email == "" {
		v.fail("email", CodeInvalidEmail, textCond(present, ok, email), "email is required: the email address of the account.")
	}
	password, present, ok = str(b, "password")
	if !present || !ok || password == "" {
		v.fail("password", CodeInvalidPassword, textCond(present, ok, password), "password is required: the password of the account.")
	}
	return email, password, v.errs
}
