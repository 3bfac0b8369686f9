package snapshots

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

const maxText = 255

// fieldError is one element of the error array of a 400 (7.1).
type fieldError = wire.FieldError

// checker collects every field error of a body, so one 400 answer lists
// all of them rather than only the first.
type checker struct {
	cat  *catalog
	errs []fieldError
}

func (c *checker) fail(field, code, msg string) {
	c.errs = append(c.errs, fieldError{FieldName: field, Error: code, Message: msg})
}

func (c *checker) failed() bool { return len(c.errs) > 0 }

// unknown refuses properties the endpoint does not define: accepting and
// ignoring them would let a misspelt field look like a successful update.
func (c *checker) unknown(o map[string]any, prefix string, allowed ...string) {
	var extra []string
	for k := range o {
		if !slices.Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		c.fail(prefix+k, "UnknownField", "the field "+prefix+k+" is not accepted by this endpoint")
	}
}

// text reads a required string. When blankOK is false a string of only
// white space counts as not provided.
func (c *checker) text(o map[string]any, prefix, key, code string, blankOK bool) (string, bool) {
	v, present := o[key]
	s, isStr := v.(string)
	switch {
	case !present:
		c.fail(prefix+key, code, prefix+key+" is required")
	case !isStr:
		c.fail(prefix+key, code, prefix+key+" must be a string")
	case !blankOK && strings.TrimSpace(s) == "":
		c.fail(prefix+key, code, prefix+key+" must not be empty")
	case utf8.RuneCountInString(s) > maxText:
		c.fail(prefix+key, code, prefix+key+" must be at most 255 characters")
	default:
		return s, true
	}
	return "", false
}

// optText reads an optional string: absent means unset; null is not a
// String, so it is refused like any other wrong type.
func (c *checker) optText(o map[string]any, prefix, key, code string) *string {
	if _, present := o[key]; !present {
		return nil
	}
	s, ok := c.text(o, prefix, key, code, true)
	if !ok {
		return nil
	}
	return &s
}

func (c *checker) boolean(o map[string]any, prefix, key, code string) bool {
	v, present := o[key]
	b, ok := v.(bool)
	switch {
	case !present:
		c.fail(prefix+key, code, prefix+key+" is required")
	case !ok:
		c.fail(prefix+key, code, prefix+key+" must be true or false")
	}
	return b
}

// number reads a whole JSON number. Whether it names an existing thing is
// decided later, so that a well-formed but unknown id is a 404, not a 400.
func (c *checker) number(o map[string]any, field, key, code string) (int64, bool) {
	v, present := o[key]
	if !present {
		c.fail(field, code, field+" is required")
		return 0, false
	}
	n, ok := v.(json.Number)
	if !ok {
		c.fail(field, code, field+" must be a number")
		return 0, false
	}
	id, ok := parseIntegral(string(n))
	if !ok {
		c.fail(field, code, field+" must be a whole number")
		return 0, false
	}
	return id, true
}

// object reads a required nested object.
func (c *checker) object(o map[string]any, field, key, code string) (map[string]any, bool) {
	v, present := o[key]
	if !present {
		c.fail(field, code, field+" is required")
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		c.fail(field, code, field+" must be an object")
		return nil, false
	}
	return m, true
}

var timezoneRE = regexp.MustCompile(`^[A-Z][A-Za-z]*(/[A-Za-z0-9][A-Za-z0-9_+\-]*)+$`)

// validEmail accepts the dot-atom form of RFC 5322 with a DNS domain whose
// top-level label is alphabetic. Quoted local parts and address literals
// are refused: they could not be typed into a login form reliably.
func validEmail(s string) bool {
	if len(s) > maxText {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 || len(domain) > 253 {
		return false
	}
	for _, part := range strings.Split(local, ".") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			if !isAtext(part[i]) {
				return false
			}
		}
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			if !isAlnum(l[i]) && l[i] != '-' {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if isDigit(tld[i]) || tld[i] == '-' {
			return false
		}
	}
	return true
}

func isAlnum(b byte) bool {
	return isDigit(b) || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}

func isAtext(b byte) bool {
	return isAlnum(b) || strings.IndexByte("!#$%&'*+-/=?^_`{|}~", b) >= 0
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !isDigit(b) && !(b >= 'a' && b <= 'f') && !(b >= 'A' && b <= 'F') {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

var subscribeKeys = [4]string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"}
var subscribeCodes = [4]string{"InvalidSubscribeWelcome", "InvalidSubscribeBlog", "InvalidSubscribeHowto", "InvalidSubscribeOnboarding"}

type userInput struct {
	userDetails
	emailOK  bool
	password *string // nil keeps the current password
	client   *clientInput
}

// user validates a user body. PUT replaces the whole user, so every field
// the spec lists without "optional" must be present, just as for creation.
func (c *checker) user(o map[string]any, creating bool) userInput {
	var in userInput
	c.unknown(o, "", "email", "firstName", "lastName", "subscribeWelcome", "subscribeBlog",
		"subscribeHowto", "subscribeOnboarding", "timezone", "password",
		"phoneCountryId", "phoneNumber", "phoneExtension", "client")

	if v, present := o["email"]; !present {
		c.fail("email", "InvalidEmail", "email is required")
	} else if s, ok := v.(string); !ok || !validEmail(s) {
		c.fail("email", "InvalidEmail", "email is not a valid email address")
	} else {
		in.email, in.emailOK = s, true
	}
	in.firstName, _ = c.text(o, "", "firstName", "InvalidFirstName", false)
	in.lastName, _ = c.text(o, "", "lastName", "InvalidLastName", false)
	for i, k := range subscribeKeys {
		in.subs[i] = c.boolean(o, "", k, subscribeCodes[i])
	}
	if tz, ok := c.text(o, "", "timezone", "InvalidTimezone", false); ok {
		if !timezoneRE.MatchString(tz) {
			c.fail("timezone", "InvalidTimezone", "timezone must be a name of the form Area/City")
		}
		in.timezone = tz
	}

	pv, present := o["password"]
	switch pw, isStr := pv.(string); {
	case !present:
		c.fail("password", "InvalidPassword", "password is required (a string, or null to keep the current one)")
	case pv == nil && creating:
		c.fail("password", "InvalidPassword", "a new user needs a password")
	case pv == nil:
	case !isStr:
		c.fail("password", "InvalidPassword", "password must be a string or null")
	case utf8.RuneCountInString(pw) < 6:
		c.fail("password", "InvalidPassword", "password must be at least 6 characters")
	default:
		in.password = &pw
	}

	if id, ok := c.number(o, "phoneCountryId", "phoneCountryId", "InvalidPhoneCountryId"); ok {
		if _, known := c.cat.phoneCountry(id); !known {
			c.fail("phoneCountryId", "InvalidPhoneCountryId", "phoneCountryId does not match an allowed phone country")
		}
		in.phoneCountryID = id
	}
	in.phoneNumber, _ = c.text(o, "", "phoneNumber", "InvalidPhoneNumber", false)
	if ev, present := o["phoneExtension"]; present && ev != nil {
		if s, ok := ev.(string); !ok || len(s) < 1 || len(s) > 10 || !allDigits(s) {
			c.fail("phoneExtension", "InvalidPhoneExtension", "phoneExtension must be null or 1 to 10 digits")
		} else {
			in.phoneExt = &s
		}
	}

	if cv, present := o["client"]; present {
		if m, ok := cv.(map[string]any); ok {
			ci := c.client(m, "client.", true)
			in.client = &ci
		} else {
			c.fail("client", "InvalidClient", "client must be an object")
		}
	}
	return in
}

type clientInput struct {
	clientDetails
	app *appInput
}

func (c *checker) client(o map[string]any, prefix string, allowApp bool) clientInput {
	var in clientInput
	c.unknown(o, prefix, "name", "addressLine1", "addressLine2", "addressCity", "addressPostcode",
		"addressCountry", "vat", "currency", "terms", "app")
	in.name, _ = c.text(o, prefix, "name", "InvalidName", false)
	// Address parts may be empty strings: postcodes and second lines do not
	// exist everywhere, and the spec only bounds their length.
	in.line1, _ = c.text(o, prefix, "addressLine1", "InvalidAddressLine1", true)
	in.line2 = c.optText(o, prefix, "addressLine2", "InvalidAddressLine2")
	in.city, _ = c.text(o, prefix, "addressCity", "InvalidAddressCity", true)
	in.postcode, _ = c.text(o, prefix, "addressPostcode", "InvalidAddressPostcode", true)
	in.country, _ = c.text(o, prefix, "addressCountry", "InvalidAddressCountry", true)
	in.vat = c.optText(o, prefix, "vat", "InvalidVat")
	if cur, ok := c.object(o, prefix+"currency", "currency", "InvalidCurrencyId"); ok {
		c.unknown(cur, prefix+"currency.", "id")
		in.currencyID, _ = c.number(cur, prefix+"currency.id", "id", "InvalidCurrencyId")
	}
	if terms, ok := c.text(o, prefix, "terms", "InvalidTerms", true); ok && terms != "I agree" {
		c.fail(prefix+"terms", "InvalidTerms", "terms must be exactly \"I agree\"")
	}
	if av, present := o["app"]; present {
		switch m, ok := av.(map[string]any); {
		case !allowApp:
			c.fail(prefix+"app", "InvalidApp", "app must not be given here; create apps with POST /apps")
		case !ok:
			c.fail(prefix+"app", "InvalidApp", "app must be an object")
		default:
			ai := c.app(m, prefix+"app.")
			in.app = &ai
		}
	}
	return in
}

type appInput struct {
	hash       string
	hasHash    bool
	name       *string
	platformID *int64
	planID     int64
}

// app validates a POST /apps body. Every listed key must be present; the
// "Mixed ... or null" ones say "none" with null, not by being left out.
func (c *checker) app(o map[string]any, prefix string) appInput {
	var in appInput
	hashPresent := false
	c.unknown(o, prefix, "marketapp", "name", "platform", "nextplan")
	if m, ok := c.object(o, prefix+"marketapp", "marketapp", "InvalidMarketapp"); ok {
		c.unknown(m, prefix+"marketapp.", "hash")
		if hv, present := m["hash"]; present {
			hashPresent = true
			if h, ok := hv.(string); !ok || len(h) != 40 || !isHex(h) {
				c.fail(prefix+"marketapp.hash", "InvalidMarketappHash", "marketapp.hash must be 40 hexadecimal characters")
			} else {
				in.hash, in.hasHash = h, true
			}
		}
	}
	nameOK := true
	nv, present := o["name"]
	switch s, isStr := nv.(string); {
	case !present:
		nameOK = false
		c.fail(prefix+"name", "InvalidName", prefix+"name is required (a string, or null)")
	case nv == nil:
	case !isStr:
		nameOK = false
		c.fail(prefix+"name", "InvalidName", prefix+"name must be a string or null")
	case utf8.RuneCountInString(s) > maxText:
		nameOK = false
		c.fail(prefix+"name", "InvalidName", prefix+"name must be at most 255 characters")
	case strings.TrimSpace(s) == "":
	default:
		in.name = &s
	}
	platformOK := true
	if p, ok := c.object(o, prefix+"platform", "platform", "InvalidPlatformId"); ok {
		c.unknown(p, prefix+"platform.", "id")
		switch pv, present := p["id"]; {
		case !present:
			platformOK = false
			c.fail(prefix+"platform.id", "InvalidPlatformId", prefix+"platform.id is required (a number, or null)")
		case pv == nil:
		default:
			if id, ok := c.number(p, prefix+"platform.id", "id", "InvalidPlatformId"); ok {
				in.platformID = &id
			} else {
				platformOK = false
			}
		}
	} else {
		platformOK = false
	}
	if np, ok := c.object(o, prefix+"nextplan", "nextplan", "InvalidNextplanId"); ok {
		c.unknown(np, prefix+"nextplan.", "id")
		in.planID, _ = c.number(np, prefix+"nextplan.id", "id", "InvalidNextplanId")
	}
	// A malformed hash already earned its own error; asking for a name
	// as well would blame the wrong field.
	if !hashPresent {
		if nameOK && in.name == nil {
			c.fail(prefix+"name", "InvalidName", "an app name is required when no marketapp.hash is given")
		}
		if platformOK && in.platformID == nil {
			c.fail(prefix+"platform.id", "InvalidPlatformId", "platform.id is required when no marketapp.hash is given")
		}
	}
	return in
}
