package tables

import (
	"net/mail"
	"regexp"
	"strings"
)

// The readers below turn a parsed body into plain input values and collect
// every 400 error on the way. They run under the store lock because some
// rules (a taken email, an allowed phone country) read tables, but they never
// write: resolving references that answer 404 and staging rows come after,
// and only when the error list is empty.

const termsLiteral = "I agree"

type appInput struct {
	hash       string // lower-case; "" when not given
	name       string
	platformID int64 // 0 when not given
	planID     int64 // 0 means the lite plan
}

type clientInput struct {
	name, line1          string
	line2                *string
	city, postcode, land string
	vat                  *string
	currencyID           int64
	app                  *appInput
}

type userInput struct {
	email         string
	firstName     string
	keepFirstName bool // only with the first-name-missing-kept fault
	lastName      string
	subscribe     [4]bool
	timezone      string
	password      *string // nil keeps the password
	phoneCountry  int64   // 0 keeps the phone country
	phoneNumber   *string // nil keeps the number
	phoneExtSet   bool
	phoneExt      *string
	client        *clientInput
}

var (
	hexHash     = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
	timezoneRe  = regexp.MustCompile(`^(UTC|[A-Za-z]+(/[A-Za-z0-9_+\-]+)+)$`)
	extensionRe = regexp.MustCompile(`^[0-9]{1,10}$`)
	digitRe     = regexp.MustCompile(`[0-9]`)
)

var subscribeFields = [4]string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"}

// validEmail wants a bare addr-spec whose domain has a dot; display names,
// angle brackets and comments are not an email address.
func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	return at > 0 && strings.Contains(domain, ".") &&
		!strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".") &&
		!strings.ContainsAny(s, " \t\r\n")
}

func (s *Server) readApp(o *object, prefix string, errs *[]apiError) appInput {
	f := newForm(o, prefix, errs, "marketapp", "name", "platform", "nextplan")
	f.ignore("id", "created", "writeKey", "plan")
	var in appInput

	hashGiven := false
	if m, ok := f.sub("marketapp", "InvalidMarketapp"); m != nil {
		mf := newForm(m, f.path("marketapp"), errs, "hash")
		if v, present := mf.get("hash"); present && v != nil {
			hashGiven = true
			h, isString := v.(string)
			switch {
			case !isString:
				mf.fail("hash", "InvalidMarketappHash", "the hash must be a string of 40 hexadecimal characters")
			case hexHash.MatchString(h):
				in.hash = strings.ToLower(h)
			case s.is(fHashPrefixMatch) && len(h) > 40 && hexHash.MatchString(h[:40]):
				in.hash = strings.ToLower(h[:40])
			default:
				mf.fail("hash", "InvalidMarketappHash", "the hash must be 40 hexadecimal characters")
			}
		}
		mf.finish()
	} else if !ok {
		hashGiven = true // a broken marketapp is not "no hash given"
	}

	name, nameOK := f.optText("name", "InvalidName", maxString)
	if name != nil {
		in.name = *name
	}

	platformOK := true
	if p, ok := f.sub("platform", "InvalidPlatform"); p != nil {
		// name is tolerated so that a platform object of a response can be
		// sent back; the id alone decides.
		pf := newForm(p, f.path("platform"), errs, "id", "name")
		in.platformID, platformOK = pf.id("id", "InvalidPlatformId")
		pf.finish()
	} else {
		platformOK = ok
	}

	if n, _ := f.sub("nextplan", "InvalidNextplan"); n != nil {
		nf := newForm(n, f.path("nextplan"), errs, "id")
		in.planID, _ = nf.id("id", "InvalidNextplanId")
		nf.finish()
	}

	if !hashGiven {
		if nameOK && (name == nil || blank(*name)) {
			f.fail("name", "InvalidName", "no app name was provided: give a marketapp hash or a name")
		}
		if platformOK && in.platformID == 0 {
			*errs = append(*errs, apiError{join(f.path("platform"), "id"), "InvalidPlatformId", "a platform id is needed when no marketapp hash is given"})
		}
	} else if s.is(fAppNameRequiredWithHash) && name == nil {
		f.fail("name", "InvalidName", "no app name was provided")
	}
	f.finish()
	return in
}

func (s *Server) readClient(o *object, prefix string, errs *[]apiError, put bool) clientInput {
	f := newForm(o, prefix, errs, "name", "addressLine1", "addressLine2", "addressCity",
		"addressPostcode", "addressCountry", "vat", "currency", "terms", "app")
	f.ignore("id", "createdDate")
	limit := maxString
	if s.is(fLimit256Accepted) {
		limit = 256
	}
	var in clientInput
	in.name, _ = f.text("name", "InvalidName", limit)
	in.line1, _ = f.text("addressLine1", "InvalidAddressLine1", limit)
	in.line2, _ = f.optText("addressLine2", "InvalidAddressLine2", limit)
	in.city, _ = f.text("addressCity", "InvalidAddressCity", limit)
	in.postcode, _ = f.text("addressPostcode", "InvalidAddressPostcode", limit)
	in.land, _ = f.text("addressCountry", "InvalidAddressCountry", limit)
	in.vat, _ = f.optText("vat", "InvalidVat", limit)

	if c, ok := f.sub("currency", "InvalidCurrency"); c != nil {
		// code is tolerated (a response's currency object sent back); the
		// id alone decides.
		cf := newForm(c, f.path("currency"), errs, "id", "code")
		id, idOK := cf.id("id", "InvalidCurrencyId")
		if idOK && id == 0 {
			cf.fail("id", "InvalidCurrencyId", "the billing currency id is required")
		}
		in.currencyID = id
		cf.finish()
	} else if ok {
		f.fail("currency", "InvalidCurrency", "the billing currency is required")
	}

	// PUT takes "the same fields as POST /clients", but re-accepting the
	// terms on every update would be odd: there they are optional, and
	// still checked when sent.
	if v, present := f.get("terms"); present || !put {
		t, isString := v.(string)
		agreed := isString && (t == termsLiteral || s.is(fTermsCaseInsensitive) && strings.EqualFold(t, termsLiteral))
		if !agreed {
			f.fail("terms", "InvalidTerms", `terms must equal the literal "I agree"`)
		}
	}

	if _, present := f.get("app"); put && present {
		if !s.is(fPutClientAppAccepted) {
			f.fail("app", "AppNotAllowed", "an app cannot be given to PUT /clients/:clientId; use POST /apps")
		}
	} else if a, _ := f.sub("app", "InvalidApp"); a != nil {
		app := s.readApp(a, f.path("app"), errs)
		in.app = &app
	}
	f.finish()
	return in
}

// readUser reads the body of PUT /users/:userId, or of POST /users when
// signUp is set. self is the user being updated (0 on sign-up), whose own
// email does not count as taken.
func (s *Server) readUser(o *object, errs *[]apiError, signUp bool, self int64) userInput {
	f := newForm(o, "", errs, "email", "password", "firstName", "lastName",
		subscribeFields[0], subscribeFields[1], subscribeFields[2], subscribeFields[3],
		"timezone", "phoneCountry", "phoneCountryId", "phoneNumber", "phoneExtension", "client")
	f.ignore("id", "created", "passwordLastChanged")
	var in userInput

	if e, ok := f.text("email", "InvalidEmail", maxString); ok {
		if uid, taken := s.t.byEmail[strings.ToLower(e)]; !validEmail(e) {
			f.fail("email", "InvalidEmail", "the email address is invalid")
		} else if taken && uid != self {
			f.fail("email", "InvalidEmail", "the email address is already used by another account")
		} else {
			in.email = e
		}
	}

	switch pw := f.obj.vals["password"].(type) {
	case nil: // absent or null: keep the password, which sign-up has not got
		if signUp {
			f.fail("password", "InvalidPassword", "a password of at least 6 characters is required")
		}
	case string:
		n := runes(pw)
		if s.is(fPasswordBytes) {
			n = len(pw)
		}
		if n < 6 {
			f.fail("password", "InvalidPassword", "the password must be at least 6 characters long")
		} else {
			in.password = &pw
		}
	default:
		f.fail("password", "InvalidPassword", "the password must be a string of at least 6 characters, or null")
	}

	if _, present := f.get("firstName"); !present && !signUp && s.is(fFirstNameMissingKept) {
		in.keepFirstName = true
	} else {
		in.firstName, _ = f.text("firstName", "InvalidFirstName", maxString)
	}
	lastCode := "InvalidLastName"
	if s.is(fLastNameCodeSwapped) {
		lastCode = "InvalidFirstName"
	}
	in.lastName, _ = f.text("lastName", lastCode, maxString)

	for i, name := range subscribeFields {
		in.subscribe[i], _ = f.boolean(name, "Invalid"+strings.ToUpper(name[:1])+name[1:], !signUp, false)
	}

	if _, present := f.get("timezone"); present || !signUp {
		if tz, ok := f.text("timezone", "InvalidTimezone", maxString); ok {
			if timezoneRe.MatchString(tz) {
				in.timezone = tz
			} else {
				f.fail("timezone", "InvalidTimezone", "the timezone must be a name of the form Area/City")
			}
		}
	} else {
		in.timezone = "Etc/UTC"
	}

	in.phoneCountry = s.readPhoneCountry(f, signUp)
	s.readPhoneNumber(f, &in, signUp)

	if c, _ := f.sub("client", "InvalidClient"); c != nil {
		client := s.readClient(c, "client", errs, false)
		in.client = &client
	}
	f.finish()
	return in
}

// readPhoneCountry accepts the country as phoneCountry.id (the shape of the
// user object) or as phoneCountryId (the name of its error code); when both
// are sent they must agree. An id that names no phone country is the
// InvalidPhoneCountryId of 7.3, not a 404.
func (s *Server) readPhoneCountry(f *form, required bool) int64 {
	var fromObject, fromFlat int64
	failed := false
	if v, present := f.get("phoneCountry"); present {
		o, isObject := v.(*object)
		if !isObject {
			f.fail("phoneCountry", "InvalidPhoneCountryId", "phoneCountry must be an object with the id of a phone country")
			failed = true
		} else {
			pf := newForm(o, f.path("phoneCountry"), f.errs, "id", "name", "dialCode")
			id, ok := asID(pf.obj.vals["id"])
			if ok {
				ok = s.phoneCountryAllowed(id)
			}
			if !ok {
				pf.fail("id", "InvalidPhoneCountryId", "the country id does not match an allowed value")
				failed = true
			}
			fromObject = id
			pf.finish()
		}
	}
	if v, present := f.get("phoneCountryId"); present {
		id, ok := asID(v)
		if ok {
			ok = s.phoneCountryAllowed(id)
		}
		switch {
		case !ok:
			f.fail("phoneCountryId", "InvalidPhoneCountryId", "the country id does not match an allowed value")
			failed = true
		case fromObject != 0 && fromObject != id:
			f.fail("phoneCountryId", "InvalidPhoneCountryId", "phoneCountryId and phoneCountry.id disagree")
			failed = true
		}
		fromFlat = id
	}
	if failed {
		return 0
	}
	id := max(fromObject, fromFlat)
	if id == 0 && required {
		f.fail("phoneCountry", "InvalidPhoneCountryId", "a phone country is required")
	}
	return id
}

func (s *Server) phoneCountryAllowed(id int64) bool {
	_, ok := s.t.phoneCountries[id]
	return ok || s.is(fPhoneCountryUnknownOK)
}

// readPhoneNumber: absent fields keep their value on update (the body table
// of 4.1 does not list them), but a number that is sent must be a number.
func (s *Server) readPhoneNumber(f *form, in *userInput, required bool) {
	v, present := f.get("phoneNumber")
	if present || required {
		n, isString := v.(string)
		if !isString || blank(n) || runes(n) > maxString || !digitRe.MatchString(n) {
			f.fail("phoneNumber", "InvalidPhoneNumber", "a phone number with at least one digit is required")
		} else {
			in.phoneNumber = &n
		}
	}
	if v, present := f.get("phoneExtension"); present {
		switch e := v.(type) {
		case nil:
			in.phoneExtSet = true
		case string:
			if extensionRe.MatchString(e) {
				in.phoneExtSet, in.phoneExt = true, &e
				break
			}
			f.fail("phoneExtension", "InvalidPhoneExtension", "the phone extension must be null or 1 to 10 digits")
		default:
			f.fail("phoneExtension", "InvalidPhoneExtension", "the phone extension must be null or 1 to 10 digits")
		}
	}
}
