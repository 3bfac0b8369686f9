package mockserver

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of spec section 8.
const (
	maxLen          = 255 // every ..255 field, counted in characters (runes)
	minPassword     = 6
	maxPhoneExtDigs = 10
)

var (
	timezoneRE = regexp.MustCompile(`^[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+)+$`)
	phoneExtRE = regexp.MustCompile(`^[0-9]{1,10}$`)
)

// Rules are the limits and checks of sections 4 and 8 that validation
// applies. SpecRules are the spec's; each fault of faults.go that concerns
// validation changes one of them, so that a fault is data, not a branch.
type Rules struct {
	// MaxLen overrides the limit of a ..255 field, by its name in the body.
	MaxLen map[string]int
	// MinPassword is the shortest password accepted (section 8).
	MinPassword int
	// NullPasswordKeeps: "password": null keeps the stored password (4.1).
	NullPasswordKeeps bool
	// CheckTerms: terms must be "I agree" (4.3).
	CheckTerms bool
	// RejectAppOnUpdate: PUT /clients refuses an app (4.4).
	RejectAppOnUpdate bool
	// AppWithClient: an invalid app of POST /clients fails the client too (4.3).
	AppWithClient bool
	// RequireAppName: without a marketapp hash, name is required (7.3).
	RequireAppName bool
	// MarketappPlatform: with a hash, the app takes the marketplace app's
	// platform, whatever platform.id says (4.2).
	MarketappPlatform bool
	// RejectMalformedHash: a hash that is not 40 hexadecimal characters is an
	// error, not ignored (section 8).
	RejectMalformedHash bool
	// WholeHash: the whole hash is matched, not only its first 40 characters.
	WholeHash bool
}

// SpecRules are the rules of the spec.
func SpecRules() Rules {
	return Rules{
		MinPassword:         minPassword,
		NullPasswordKeeps:   true,
		CheckTerms:          true,
		RejectAppOnUpdate:   true,
		AppWithClient:       true,
		RequireAppName:      true,
		MarketappPlatform:   true,
		RejectMalformedHash: true,
		WholeHash:           true,
	}
}

func (r Rules) maxLen(field string) int {
	if n, ok := r.MaxLen[field]; ok {
		return n
	}
	return maxLen
}

// hash reads marketapp.hash: the hash to look up, and whether it is well
// formed.
func (r Rules) hash(raw any) (string, bool) {
	h, ok := raw.(string)
	if !r.WholeHash && len(h) > 40 {
		h = h[:40]
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
	rules  Rules
	prefix string
	errs   []FieldError
}

func (v *checker) fail(field, code, message string) {
	v.errs = append(v.errs, FieldError{FieldName: v.prefix + field, Error: code, Message: message})
}

func (v *checker) nested(prefix string) *checker {
	return &checker{cat: v.cat, rules: v.rules, prefix: v.prefix + prefix}
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

// requiredText checks a required ..255 string that may not be blank.
func (v *checker) requiredText(b Body, key, code, what string) string {
	s, present, ok := str(b, key)
	switch {
	case !present:
		v.fail(key, code, fmt.Sprintf("%s is required.", what))
	case !ok:
		v.fail(key, code, fmt.Sprintf("%s must be a string.", what))
	case blank(s):
		v.fail(key, code, fmt.Sprintf("%s must not be empty.", what))
	case runes(s) > v.rules.maxLen(key):
		v.fail(key, code, fmt.Sprintf("%s must be at most %d characters long.", what, v.rules.maxLen(key)))
	default:
		return s
	}
	return ""
}

// optionalText checks an optional ..255 string; absent and null give nil.
func (v *checker) optionalText(b Body, key, code, what string) *string {
	s, present, ok := str(b, key)
	switch {
	case !present:
		return nil
	case !ok:
		v.fail(key, code, fmt.Sprintf("%s must be a string or null.", what))
	case runes(s) > v.rules.maxLen(key):
		v.fail(key, code, fmt.Sprintf("%s must be at most %d characters long.", what, v.rules.maxLen(key)))
	default:
		return &s
	}
	return nil
}

func (v *checker) requiredBool(b Body, key string) bool {
	x, ok := b[key].(bool)
	if !ok {
		v.fail(key, "Invalid"+upperFirst(key), fmt.Sprintf("%s must be true or false.", key))
	}
	return x
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
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

// ValidateUserUpdate checks a body of PUT /users/:userId for user userID
// under the rules of the spec.
func ValidateUserUpdate(b Body, cat Catalog, userID int64) (UserInput, []FieldError) {
	return SpecRules().ValidateUserUpdate(b, cat, userID)
}

// ValidateUserUpdate checks a body of PUT /users/:userId for user userID.
func (r Rules) ValidateUserUpdate(b Body, cat Catalog, userID int64) (UserInput, []FieldError) {
	v := &checker{cat: cat, rules: r}
	in := v.user(b, userID, false)
	return in, v.errs
}

// ValidateUserCreate checks a body of POST /users: the body of PUT /users
// with password, phoneCountry.id and phoneNumber required.
func ValidateUserCreate(b Body, cat Catalog) (UserInput, []FieldError) {
	return SpecRules().ValidateUserCreate(b, cat)
}

// ValidateUserCreate checks a body of POST /users.
func (r Rules) ValidateUserCreate(b Body, cat Catalog) (UserInput, []FieldError) {
	v := &checker{cat: cat, rules: r}
	in := v.user(b, 0, true)
	return in, v.errs
}

func (v *checker) user(b Body, userID int64, create bool) UserInput {
	var in UserInput

	email, present, ok := str(b, "email")
	switch {
	case !present:
		v.fail("email", "InvalidEmail", "email is required.")
	case !ok:
		v.fail("email", "InvalidEmail", "email must be a string.")
	case runes(email) > maxLen:
		v.fail("email", "InvalidEmail", fmt.Sprintf("email must be at most %d characters long.", maxLen))
	case !validEmail(email):
		v.fail("email", "InvalidEmail", "email must be a valid email address.")
	case v.cat.EmailTaken(email, userID):
		v.fail("email", "InvalidEmail", "email is already used by another account.")
	default:
		in.Email = email
	}
	in.FirstName = v.requiredText(b, "firstName", "InvalidFirstName", "firstName")
	in.LastName = v.requiredText(b, "lastName", "InvalidLastName", "lastName")
	in.SubscribeWelcome = v.requiredBool(b, "subscribeWelcome")
	in.SubscribeBlog = v.requiredBool(b, "subscribeBlog")
	in.SubscribeHowto = v.requiredBool(b, "subscribeHowto")
	in.SubscribeOnboarding = v.requiredBool(b, "subscribeOnboarding")

	tz, present, ok := str(b, "timezone")
	switch {
	case !present:
		v.fail("timezone", "InvalidTimezone", "timezone is required.")
	case !ok:
		v.fail("timezone", "InvalidTimezone", "timezone must be a string.")
	case runes(tz) > maxLen:
		v.fail("timezone", "InvalidTimezone", fmt.Sprintf("timezone must be at most %d characters long.", maxLen))
	case !timezoneRE.MatchString(tz):
		v.fail("timezone", "InvalidTimezone", "timezone must be a name of the form Area/City, such as Europe/London.")
	default:
		in.Timezone = tz
	}

	pw, present, ok := str(b, "password")
	switch {
	case !present && create:
		v.fail("password", "InvalidPassword", fmt.Sprintf("password is required: a string of at least %d characters.", v.rules.MinPassword))
	case !present && !v.rules.NullPasswordKeeps && b["password"] == nil && hasKey(b, "password"):
		in.Password = ptr("")
	case !present:
		// null or absent keeps the current password
	case !ok:
		v.fail("password", "InvalidPassword", fmt.Sprintf("password must be a string of at least %d characters, or null.", v.rules.MinPassword))
	case runes(pw) < v.rules.MinPassword:
		v.fail("password", "InvalidPassword", fmt.Sprintf("password must be at least %d characters long.", v.rules.MinPassword))
	default:
		in.Password = &pw
	}

	if _, exists := b["phoneCountry"]; exists || create {
		n, _, valid := id(b, "phoneCountry")
		if _, known := v.cat.PhoneCountry(n); !valid || !known {
			v.fail("phoneCountry.id", "InvalidPhoneCountryId", "phoneCountry.id must be the id of a phone country (see GET /phoneCountries).")
		} else {
			in.PhoneCountryID = n
		}
	}
	if _, exists := b["phoneNumber"]; exists || create {
		s, present, ok := str(b, "phoneNumber")
		switch {
		case !present || !ok || blank(s):
			v.fail("phoneNumber", "InvalidPhoneNumber", "phoneNumber must be a non-empty string.")
		case runes(s) > maxLen:
			v.fail("phoneNumber", "InvalidPhoneNumber", fmt.Sprintf("phoneNumber must be at most %d characters long.", maxLen))
		default:
			in.PhoneNumber = &s
		}
	}
	if _, exists := b["phoneExtension"]; exists {
		s, present, ok := str(b, "phoneExtension")
		switch {
		case !present:
			in.SetPhoneExtension = true
		case !ok || !phoneExtRE.MatchString(s):
			v.fail("phoneExtension", "InvalidPhoneExtension", fmt.Sprintf("phoneExtension must be null or a string of 1 to %d digits.", maxPhoneExtDigs))
		default:
			in.SetPhoneExtension, in.PhoneExtension = true, &s
		}
	}

	if raw, exists := b["client"]; exists && raw != nil {
		obj, ok := raw.(map[string]any)
		if !ok {
			v.fail("client", "InvalidClient", "client must be an object: the body of POST /clients.")
		} else {
			cv := v.nested("client.")
			c := cv.client(obj, true)
			v.errs = append(v.errs, cv.errs...)
			in.Client = &c
		}
	}
	return in
}

// ValidateClientCreate checks a body of POST /clients, including its optional app.
func ValidateClientCreate(b Body, cat Catalog) (ClientInput, []FieldError) {
	return SpecRules().ValidateClientCreate(b, cat)
}

// ValidateClientCreate checks a body of POST /clients.
func (r Rules) ValidateClientCreate(b Body, cat Catalog) (ClientInput, []FieldError) {
	v := &checker{cat: cat, rules: r}
	in := v.client(b, true)
	return in, v.errs
}

// ValidateClientUpdate checks a body of PUT /clients/:clientId, which may not
// carry an app.
func ValidateClientUpdate(b Body, cat Catalog) (ClientInput, []FieldError) {
	return SpecRules().ValidateClientUpdate(b, cat)
}

// ValidateClientUpdate checks a body of PUT /clients/:clientId.
func (r Rules) ValidateClientUpdate(b Body, cat Catalog) (ClientInput, []FieldError) {
	v := &checker{cat: cat, rules: r}
	in := v.client(b, false)
	return in, v.errs
}

func (v *checker) client(b Body, create bool) ClientInput {
	var in ClientInput
	in.Name = v.requiredText(b, "name", "InvalidName", "name")
	in.AddressLine1 = v.requiredText(b, "addressLine1", "InvalidAddressLine1", "addressLine1")
	in.AddressLine2 = v.optionalText(b, "addressLine2", "InvalidAddressLine2", "addressLine2")
	in.AddressCity = v.requiredText(b, "addressCity", "InvalidAddressCity", "addressCity")
	in.AddressPostcode = v.requiredText(b, "addressPostcode", "InvalidAddressPostcode", "addressPostcode")
	in.AddressCountry = v.requiredText(b, "addressCountry", "InvalidAddressCountry", "addressCountry")
	in.VAT = v.optionalText(b, "vat", "InvalidVat", "vat")

	n, _, valid := id(b, "currency")
	if _, known := v.cat.Currency(n); !valid || !known {
		v.fail("currency.id", "InvalidCurrencyId", "currency.id must be the id of a currency (see GET /currencies).")
	} else {
		in.CurrencyID = n
	}

	if terms, _, _ := str(b, "terms"); terms != "I agree" && v.rules.CheckTerms {
		v.fail("terms", "InvalidTerms", `terms must be exactly "I agree" to accept the terms and conditions.`)
	}

	raw, exists := b["app"]
	switch {
	case !create && exists && !v.rules.RejectAppOnUpdate:
	case !create && exists:
		v.fail("app", "InvalidApp", "app cannot be given when updating a client; create an app with POST /apps.")
	case !exists || raw == nil:
	default:
		obj, ok := raw.(map[string]any)
		if !ok {
			v.fail("app", "InvalidApp", "app must be an object: the body of POST /apps.")
			break
		}
		av := v.nested("app.")
		a := av.app(obj)
		if len(av.errs) > 0 && !v.rules.AppWithClient {
			break
		}
		v.errs = append(v.errs, av.errs...)
		in.App = &a
	}
	return in
}

// ValidateApp checks a body of POST /apps and resolves it: with a marketplace
// app, the app takes its name and platform.
func ValidateApp(b Body, cat Catalog) (AppInput, []FieldError) {
	return SpecRules().ValidateApp(b, cat)
}

// ValidateApp checks a body of POST /apps and resolves it.
func (r Rules) ValidateApp(b Body, cat Catalog) (AppInput, []FieldError) {
	v := &checker{cat: cat, rules: r}
	in := v.app(b)
	return in, v.errs
}

func (v *checker) app(b Body) AppInput {
	var in AppInput

	// hashGiven: the body names a marketplace app, so name and platform.id
	// are not required, even when the hash turns out to be wrong.
	hashGiven := false
	if raw, exists := b["marketapp"]; exists && raw != nil {
		hashGiven = true
		const msg = "marketapp.hash must be the 40-hexadecimal-character hash of a marketplace app (see GET /marketapps)."
		obj, ok := raw.(map[string]any)
		if !ok {
			v.fail("marketapp.hash", "InvalidMarketappHash", msg)
		} else if rawHash, exists := obj["hash"]; !exists || rawHash == nil {
			hashGiven = false
		} else if h, ok := v.rules.hash(rawHash); !ok && !v.rules.RejectMalformedHash {
			hashGiven = false
		} else if !ok {
			v.fail("marketapp.hash", "InvalidMarketappHash", msg)
		} else if m, known := v.cat.Marketapp(strings.ToLower(h)); !known {
			v.fail("marketapp.hash", "InvalidMarketappHash", "marketapp.hash matches no marketplace app (see GET /marketapps).")
		} else {
			in.MarketappHash = ptr(m.Hash)
			in.Name, in.PlatformID = m.Name, m.PlatformID
		}
	}

	name, present, ok := str(b, "name")
	switch {
	case !present && !hashGiven && v.rules.RequireAppName:
		v.fail("name", "InvalidName", "name is required when no marketapp.hash is given.")
	case !present:
	case !ok:
		v.fail("name", "InvalidName", "name must be a string or null.")
	case runes(name) > maxLen:
		v.fail("name", "InvalidName", fmt.Sprintf("name must be at most %d characters long.", maxLen))
	case blank(name) && !hashGiven && v.rules.RequireAppName:
		v.fail("name", "InvalidName", "name must not be empty when no marketapp.hash is given.")
	case !hashGiven:
		in.Name = name
	}

	pid, absent, valid := id(b, "platform")
	_, known := v.cat.Platform(pid)
	switch {
	case absent && !hashGiven:
		v.fail("platform.id", "InvalidPlatformId", "platform.id is required when no marketapp.hash is given (see GET /platforms).")
	case absent:
	case !valid || !known:
		v.fail("platform.id", "InvalidPlatformId", "platform.id must be the id of a platform (see GET /platforms).")
	case !hashGiven || !v.rules.MarketappPlatform:
		in.PlatformID = pid
	}

	plan, absent, valid := id(b, "nextplan")
	_, known = v.cat.Plan(plan)
	switch {
	case absent:
		in.PlanID = v.cat.DefaultPlanID()
	case !valid || !known:
		v.fail("nextplan.id", "InvalidPlanId", "nextplan.id must be the id of a subscription plan (see GET /plans).")
	default:
		in.PlanID = plan
	}
	return in
}

// ValidateSession checks a body of POST /sessions (decoded from JSON or from
// a form) and returns its credentials.
func ValidateSession(b Body) (email, password string, errs []FieldError) {
	v := &checker{}
	email, present, ok := str(b, "email")
	if !present || !ok || email == "" {
		v.fail("email", "InvalidEmail", "email is required: the email address of the account.")
	}
	password, present, ok = str(b, "password")
	if !present || !ok || password == "" {
		v.fail("password", "InvalidPassword", "password is required: the password of the account.")
	}
	return email, password, v.errs
}
