package actor

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"
)

const maxLen = 255

type validator struct {
	s    *Server
	errs []apiError
}

func (v *validator) add(field, code, msg string) {
	v.errs = append(v.errs, apiError{FieldName: field, Error: code, Message: msg})
}

func (v *validator) has(field string) bool {
	for _, e := range v.errs {
		if e.FieldName == field {
			return true
		}
	}
	return false
}

// get looks a member up in a decoded body.
func (v *validator) get(m map[string]any, key string) (any, bool) {
	if x, ok := m[key]; ok {
		return x, true
	}
	if v.s.is("json-keys-case-insensitive") {
		for k, x := range m {
			if strings.EqualFold(k, key) {
				return x, true
			}
		}
	}
	return nil, false
}

func (v *validator) length(s string) int {
	if v.s.is("name-length-counted-in-bytes") {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

func (v *validator) unknown(m map[string]any, prefix string, allowed ...string) {
	if !v.s.is("unknown-fields-rejected") {
		return
	}
	for k := range m {
		found := false
		for _, a := range allowed {
			if k == a {
				found = true
				break
			}
		}
		if !found {
			v.add(prefix+k, "UnknownField", "unknown field "+k)
		}
	}
}

// reqStr reads a required, non-blank string of at most 255 characters.
func (v *validator) reqStr(m map[string]any, key, path, code string) string {
	x, ok := v.get(m, key)
	if !ok || x == nil {
		v.add(path, code, path+" is required")
		return ""
	}
	s, isStr := x.(string)
	if !isStr {
		v.add(path, code, path+" must be a string")
		return ""
	}
	if strings.TrimSpace(s) == "" {
		v.add(path, code, path+" must not be empty")
		return ""
	}
	if v.length(s) > maxLen {
		v.add(path, code, path+" must be at most 255 characters")
		return ""
	}
	return s
}

type optStr struct {
	set  bool // member present
	null bool // present as JSON null
	val  string
}

// optStrField reads an optional string (..255); null is allowed.
func (v *validator) optStrField(m map[string]any, key, path, code string) optStr {
	x, ok := v.get(m, key)
	if !ok {
		return optStr{}
	}
	if x == nil {
		return optStr{set: true, null: true}
	}
	s, isStr := x.(string)
	if !isStr {
		v.add(path, code, path+" must be a string or null")
		return optStr{}
	}
	if v.length(s) > maxLen {
		v.add(path, code, path+" must be at most 255 characters")
		return optStr{}
	}
	return optStr{set: true, val: s}
}

func (v *validator) reqBool(m map[string]any, key, code string) bool {
	x, ok := v.get(m, key)
	b, isBool := x.(bool)
	if !ok || !isBool {
		v.add(key, code, key+" must be a boolean")
	}
	return b
}

// intID reads a JSON number that must be a positive integer.
func (v *validator) intID(x any) (int64, bool) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	if v.s.is("fractional-id-truncated") {
		if f < 1 || f > 1<<53 {
			return 0, false
		}
		return int64(f), true
	}
	if f != math.Trunc(f) || f < 1 || f > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// objID reads {"id": <integer>} at m[key].
func (v *validator) objID(m map[string]any, key string) (id int64, objOK, idOK bool) {
	x, ok := v.get(m, key)
	if !ok {
		return 0, false, false
	}
	o, isObj := x.(map[string]any)
	if !isObj {
		return 0, false, false
	}
	idv, ok := v.get(o, "id")
	if !ok {
		return 0, true, false
	}
	id, idOK = v.intID(idv)
	return id, true, idOK
}

var hexRe = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)

func (v *validator) validHash(h string) bool {
	if v.s.is("marketapp-hash-hex-unchecked") {
		return len(h) == 40
	}
	return hexRe.MatchString(h)
}

var emailRe = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s.]+$`)

// ---- apps -----------------------------------------------------------------

type appIn struct {
	hash     string // "" when not given
	name     string
	platform int64
	plan     int64
}

func (v *validator) app(m map[string]any, prefix string) appIn {
	var in appIn
	v.unknown(m, prefix, "marketapp", "name", "platform", "nextplan")
	hashGiven := false
	if x, ok := v.get(m, "marketapp"); ok && x != nil {
		mo, isObj := x.(map[string]any)
		if !isObj {
			v.add(prefix+"marketapp", "InvalidMarketapp", "marketapp must be an object")
			hashGiven = true
		} else if hv, ok := v.get(mo, "hash"); ok && hv != nil {
			hashGiven = true
			hs, isStr := hv.(string)
			if !isStr || !v.validHash(hs) {
				v.add(prefix+"marketapp.hash", "InvalidMarketappHash", "marketapp.hash must be 40 hexadecimal characters")
			} else {
				in.hash = strings.ToLower(hs)
			}
		}
	}
	nameRequired := !hashGiven || v.s.is("app-name-required-with-hash")
	nx, nameOK := v.get(m, "name")
	switch {
	case !nameOK || nx == nil:
		if nameRequired {
			v.add(prefix+"name", "InvalidName", "no app name was provided")
		}
	default:
		ns, isStr := nx.(string)
		switch {
		case !isStr:
			v.add(prefix+"name", "InvalidName", "name must be a string or null")
		case strings.TrimSpace(ns) == "":
			if nameRequired {
				v.add(prefix+"name", "InvalidName", "no app name was provided")
			}
		case v.length(ns) > maxLen:
			v.add(prefix+"name", "InvalidName", "name must be at most 255 characters")
		default:
			in.name = ns
		}
	}
	if !hashGiven {
		id, _, idOK := v.objID(m, "platform")
		if _, known := findPlatform(id); !idOK || !known {
			v.add(prefix+"platform.id", "InvalidPlatformId", "platform.id must be the id of a platform when marketapp.hash is not given")
		}
		in.platform = id
	}
	id, objOK, idOK := v.objID(m, "nextplan")
	if !objOK {
		v.add(prefix+"nextplan", "InvalidNextplan", "nextplan must be an object with an id")
	} else if _, known := findPlan(id); !idOK || !known {
		v.add(prefix+"nextplan.id", "InvalidNextplanId", "nextplan.id must be the id of a subscription plan")
	}
	in.plan = id
	return in
}

// ---- clients --------------------------------------------------------------

type clientIn struct {
	name, line1, city, postcode, country string
	line2, vat                           optStr
	currency                             int64
	currencyKnown                        bool
	app                                  *appIn
}

func (v *validator) client(m map[string]any, prefix string, put bool) clientIn {
	var in clientIn
	v.unknown(m, prefix, "name", "addressLine1", "addressLine2", "addressCity", "addressPostcode",
		"addressCountry", "vat", "currency", "terms", "app")
	if v.s.is("null-name-accepted") {
		if x, ok := v.get(m, "name"); ok && x == nil {
			in.name = ""
		} else {
			in.name = v.reqStr(m, "name", prefix+"name", "InvalidName")
		}
	} else {
		in.name = v.reqStr(m, "name", prefix+"name", "InvalidName")
	}
	in.line1 = v.reqStr(m, "addressLine1", prefix+"addressLine1", "InvalidAddressLine1")
	in.line2 = v.optStrField(m, "addressLine2", prefix+"addressLine2", "InvalidAddressLine2")
	in.city = v.reqStr(m, "addressCity", prefix+"addressCity", "InvalidAddressCity")
	in.postcode = v.reqStr(m, "addressPostcode", prefix+"addressPostcode", "InvalidAddressPostcode")
	in.country = v.reqStr(m, "addressCountry", prefix+"addressCountry", "InvalidAddressCountry")
	in.vat = v.optStrField(m, "vat", prefix+"vat", "InvalidVat")
	id, objOK, idOK := v.objID(m, "currency")
	_, known := findCurrency(id)
	switch {
	case !objOK:
		v.add(prefix+"currency", "InvalidCurrency", "currency must be an object with an id")
	case !idOK:
		v.add(prefix+"currency.id", "InvalidCurrencyId", "currency.id must be the id of a billing currency")
	case !known && !(put && v.s.is("put-client-partial-on-unknown-currency")):
		v.add(prefix+"currency.id", "InvalidCurrencyId", "currency.id must be the id of a billing currency")
	}
	in.currency, in.currencyKnown = id, known
	terms := v.reqStr(m, "terms", prefix+"terms", "InvalidTerms")
	if !v.has(prefix + "terms") {
		if !(terms == "I agree" || (v.s.is("terms-case-insensitive") && strings.EqualFold(terms, "I agree"))) {
			v.add(prefix+"terms", "InvalidTerms", "terms must equal \"I agree\"")
		}
	}
	if x, ok := v.get(m, "app"); ok {
		switch {
		case put:
			v.add(prefix+"app", "InvalidApp", "app must not be given to PUT /clients; use POST /apps")
		case x == nil:
		default:
			ao, isObj := x.(map[string]any)
			if !isObj {
				v.add(prefix+"app", "InvalidApp", "app must be an object")
			} else {
				a := v.app(ao, prefix+"app.")
				in.app = &a
			}
		}
	}
	return in
}

// ---- users ----------------------------------------------------------------

type userIn struct {
	email, first, last, tz string
	subs                   [4]bool
	pwSet                  bool
	pw                     string
	pcSet                  bool
	pc                     int64
	phone                  optStr
	ext                    optStr
	client                 *clientIn
}

var subKeys = [4]string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"}
var extRe = regexp.MustCompile(`^[0-9]{1,10}$`)

// user validates a PUT /users (or POST /users when signup) body.
func (v *validator) user(m map[string]any, signup bool) userIn {
	var in userIn
	v.unknown(m, "", "email", "firstName", "lastName", "subscribeWelcome", "subscribeBlog", "subscribeHowto",
		"subscribeOnboarding", "timezone", "password", "client", "phoneCountry", "phoneNumber", "phoneExtension")
	in.email = v.reqStr(m, "email", "email", "InvalidEmail")
	if !v.has("email") && !emailRe.MatchString(in.email) {
		v.add("email", "InvalidEmail", "the email address is invalid")
	}
	in.first = v.reqStr(m, "firstName", "firstName", "InvalidFirstName")
	in.last = v.reqStr(m, "lastName", "lastName", "InvalidLastName")
	for i, k := range subKeys {
		in.subs[i] = v.reqBool(m, k, "Invalid"+strings.ToUpper(k[:1])+k[1:])
	}
	in.tz = v.reqStr(m, "timezone", "timezone", "InvalidTimezone")

	min := 6
	if v.s.is("password-min-five-chars") {
		min = 5
	}
	px, ok := v.get(m, "password")
	switch {
	case !ok:
		v.add("password", "InvalidPassword", "password is required (null keeps the existing password)")
	case px == nil && signup:
		v.add("password", "InvalidPassword", "password is required")
	case px == nil:
		if v.s.is("null-password-clears") {
			s, _ := px.(string)
			in.pwSet, in.pw = true, s
		}
	default:
		s, isStr := px.(string)
		if !isStr || utf8.RuneCountInString(s) < min {
			v.add("password", "InvalidPassword", "password must be a string of at least 6 characters or null")
		} else {
			in.pwSet, in.pw = true, s
		}
	}

	if x, ok := v.get(m, "phoneCountry"); ok {
		in.pcSet = true
		id, _, idOK := v.objID(m, "phoneCountry")
		if _, known := findPhoneCountry(id); x == nil || !idOK || !known {
			v.add("phoneCountry.id", "InvalidPhoneCountryId", "the phone country id is not an allowed value")
		}
		in.pc = id
	}
	if x, ok := v.get(m, "phoneNumber"); ok {
		s, isStr := x.(string)
		if !isStr || strings.TrimSpace(s) == "" || v.length(s) > maxLen {
			v.add("phoneNumber", "InvalidPhoneNumber", "no phone number was provided")
		} else {
			in.phone = optStr{set: true, val: s}
		}
	}
	if x, ok := v.get(m, "phoneExtension"); ok {
		if x == nil {
			in.ext = optStr{set: true, null: true}
		} else if s, isStr := x.(string); isStr && extRe.MatchString(s) {
			in.ext = optStr{set: true, val: s}
		} else {
			v.add("phoneExtension", "InvalidPhoneExtension", "the phone extension must be null or 1 to 10 digits")
		}
	}
	if x, ok := v.get(m, "client"); ok && x != nil {
		co, isObj := x.(map[string]any)
		if !isObj {
			v.add("client", "InvalidClient", "client must be an object")
		} else {
			c := v.client(co, "client.", false)
			in.client = &c
		}
	}
	return in
}

// session validates a POST /sessions body.
func (v *validator) session(m map[string]any) (email, password string) {
	v.unknown(m, "", "email", "password")
	ex, _ := v.get(m, "email")
	email, ok := ex.(string)
	if !ok || email == "" {
		v.add("email", "InvalidEmail", "email is required")
	}
	px, _ := v.get(m, "password")
	password, ok = px.(string)
	if !ok || password == "" {
		v.add("password", "InvalidPassword", "password is required")
	}
	return email, password
}
