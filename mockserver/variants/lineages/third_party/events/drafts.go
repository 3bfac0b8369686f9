package events

import (
	"strings"
)

// A draft is a request body read and checked against everything that does
// not depend on stored state (the catalogues never change). Reading happens
// outside the store's lock; whether the draft's problems are reported at all
// is decided later, after authentication and permission, so that a caller
// who may not touch a resource learns nothing from its body.

type userDraft struct {
	Email, FirstName, LastName string
	LastNameAbsent             bool
	Subscribe                  [4]bool // welcome, blog, howto, onboarding
	Timezone                   string
	Password                   *string // nil keeps the password

	PhoneCountrySet bool
	PhoneCountryID  int64
	PhoneNumberSet  bool
	PhoneNumber     string
	PhoneExtSet     bool
	PhoneExt        *string

	Client *clientDraft
}

type clientDraft struct {
	Details    clientDetails
	NameAbsent bool
	App        *appDraft
}

type appDraft struct {
	Market     marketApp
	PlatformID int64
	PlanID     int64
}

type loginDraft struct {
	Email, Password string
}

var subscribeKeys = [4]string{"subscribeWelcome", "subscribeBlog", "subscribeHowto", "subscribeOnboarding"}

// readBody turns a body into fields, or reports why it cannot.
func readBody(body []byte, p *problems) (*fields, bool) {
	m, ok := decodeObject(body)
	if !ok {
		p.add(bodyField, "InvalidBody", "The body must be one JSON object")
		return nil, false
	}
	return newFields("", m, p), true
}

func (s *Server) readUser(body []byte) (userDraft, problems) {
	var d userDraft
	var p problems
	f, ok := readBody(body, &p)
	if !ok {
		return d, p
	}
	f.tolerate("id", "created", "passwordLastChanged")

	if raw, k := f.get("email"); k == absent || k == null {
		f.add("email", "InvalidEmail", "No email address was provided")
	} else if k != text {
		f.add("email", "InvalidEmail", "The email address must be a string")
	} else if e := str(raw); chars(e, false) > maxText || !validEmail(e) {
		f.add("email", "InvalidEmail", "The email address is invalid")
	} else {
		d.Email = e
	}
	d.FirstName, _ = f.requiredText("firstName", "InvalidFirstName", "first name")
	if s.fault == faultAbsentLastNameKept && !f.has("lastName") {
		d.LastNameAbsent = true
		f.get("lastName")
	} else {
		d.LastName, _ = f.requiredText("lastName", "InvalidLastName", "last name")
	}
	codes := [4]string{"InvalidSubscribeWelcome", "InvalidSubscribeBlog", "InvalidSubscribeHowto", "InvalidSubscribeOnboarding"}
	for i, key := range subscribeKeys {
		d.Subscribe[i], _ = f.requiredBool(key, codes[i])
	}
	if tz, ok := f.requiredText("timezone", "InvalidTimezone", "timezone"); ok {
		if timezoneForm.MatchString(tz) {
			d.Timezone = tz
		} else {
			f.add("timezone", "InvalidTimezone", "The timezone must be a name of the form Area/City")
		}
	}
	s.readPassword(f, &d)
	s.readPhone(f, &d)

	switch sub, k := f.sub("client"); k {
	case absent, null:
	case object:
		c := s.readClient(sub, true, false)
		d.Client = &c
	default:
		f.add("client", "InvalidClient", "The client must be an object")
	}
	f.rejectUnknown()
	return d, p
}

func (s *Server) readPassword(f *fields, d *userDraft) {
	raw, k := f.get("password")
	switch k {
	case null:
		if s.fault == faultNullPasswordRejected {
			f.add("password", "InvalidPassword", "The password is too short")
		}
		return
	case text:
		pw := str(raw)
		n := chars(pw, s.fault == faultPasswordLengthInBytes)
		min := 6
		if s.fault == faultSixCharPasswordRefused {
			min = 7
		}
		if n >= min {
			d.Password = &pw
			return
		}
		f.add("password", "InvalidPassword", "The password is too short: at least 6 characters")
	case absent:
		f.add("password", "InvalidPassword", "The password must be given: a string of at least 6 characters, or null to keep it")
	default:
		f.add("password", "InvalidPassword", "The password must be a string or null")
	}
}

// readPhone reads the phone fields, which section 4.1's table leaves out but
// section 7.3 validates. They are optional: an absent one keeps its value.
// The country may be given as phoneCountry.id, as the user representation
// has it, or as phoneCountryId, the name its error code suggests.
func (s *Server) readPhone(f *fields, d *userDraft) {
	known := func(id int64) bool {
		_, ok := s.cat.phoneByID[id]
		return ok || s.fault == faultPhoneCountryUnchecked
	}
	if f.has("phoneCountry") {
		if id, ok := f.reference("phoneCountry", "InvalidPhoneCountryId", "phone country", []string{"name", "dialCode"}, known); ok {
			d.PhoneCountrySet, d.PhoneCountryID = true, id
		}
	}
	if raw, k := f.get("phoneCountryId"); k != absent {
		id, ok := integer(raw)
		switch {
		case k != number || !ok || !known(id):
			f.add("phoneCountryId", "InvalidPhoneCountryId", "The phone country id does not match an allowed value")
		case d.PhoneCountrySet && d.PhoneCountryID != id:
			f.add("phoneCountryId", "InvalidPhoneCountryId", "phoneCountryId and phoneCountry.id disagree")
		default:
			d.PhoneCountrySet, d.PhoneCountryID = true, id
		}
	}
	if raw, k := f.get("phoneNumber"); k != absent {
		n := str(raw)
		switch {
		case k != text || strings.TrimSpace(n) == "":
			f.add("phoneNumber", "InvalidPhoneNumber", "No phone number was provided")
		case chars(n, false) > maxText || !validPhoneNumber(n):
			f.add("phoneNumber", "InvalidPhoneNumber", "The phone number must be digits, spaces and + - . ( ), with at least 3 digits")
		default:
			d.PhoneNumberSet, d.PhoneNumber = true, n
		}
	}
	if raw, k := f.get("phoneExtension"); k != absent {
		switch {
		case k == null:
			d.PhoneExtSet = true
		case k == text && extensionForm.MatchString(str(raw)):
			e := str(raw)
			d.PhoneExtSet, d.PhoneExt = true, &e
		default:
			f.add("phoneExtension", "InvalidPhoneExtension", "The phone extension must be null or 1 to 10 digits")
		}
	}
}

// readClient reads the body of POST /clients (isUpdate false) or of PUT
// /clients/:clientId (isUpdate true, app refused). PUT /users/:userId nests
// the POST form under "client".
func (s *Server) readClient(f *fields, allowApp, isUpdate bool) clientDraft {
	var d clientDraft
	f.tolerate("id", "createdDate")
	if isUpdate && s.fault == faultPutClientNameOptional && !f.has("name") {
		d.NameAbsent = true
		f.get("name")
	} else {
		d.Details.Name, _ = f.requiredText("name", "InvalidName", "name")
	}
	d.Details.AddressLine1, _ = f.requiredText("addressLine1", "InvalidAddressLine1", "first address line")
	checkOptional := s.fault != faultOptionalFieldLengthUnchecked
	d.Details.AddressLine2, _ = f.optionalText("addressLine2", "InvalidAddressLine2", "second address line", checkOptional)
	d.Details.AddressCity, _ = f.requiredText("addressCity", "InvalidAddressCity", "city")
	d.Details.AddressPostcode, _ = f.requiredText("addressPostcode", "InvalidAddressPostcode", "postcode")
	d.Details.AddressCountry, _ = f.requiredText("addressCountry", "InvalidAddressCountry", "country")
	d.Details.VAT, _ = f.optionalText("vat", "InvalidVat", "VAT number", checkOptional)
	d.Details.CurrencyID, _ = f.reference("currency", "InvalidCurrencyId", "currency", []string{"code"}, func(id int64) bool {
		_, ok := s.cat.currencyByID[id]
		return ok
	})

	raw, k := f.get("terms")
	agreed := k == text && str(raw) == "I agree"
	if k == text && s.fault == faultTermsCaseInsensitive {
		agreed = strings.EqualFold(strings.TrimSpace(str(raw)), "I agree")
	}
	if !agreed {
		f.add("terms", "InvalidTerms", "terms must be exactly \"I agree\"")
	}

	switch {
	case allowApp:
		switch sub, k := f.sub("app"); k {
		case absent, null:
		case object:
			a := s.readApp(sub)
			d.App = &a
		default:
			f.add("app", "InvalidApp", "The app must be an object")
		}
	case f.has("app") && s.fault != faultPutClientAppAccepted:
		f.get("app")
		f.add("app", "AppNotAllowed", "An app cannot be given here: create it with POST /apps")
	default:
		f.get("app")
	}
	f.rejectUnknown()
	return d
}

// readApp reads the body of POST /apps. With a hash, the marketplace app it
// names gives the name and platform; without one, name and platform.id
// together must name a marketplace app, since an app that is in no store
// cannot be created.
func (s *Server) readApp(f *fields) appDraft {
	var d appDraft
	hashGiven, hashOK := s.readMarketapp(f, &d)
	name, nameGiven := readAppName(f)
	platformID, platformGiven, platformBad := readPlatform(f)
	_, platformKnown := s.cat.platformByID[platformID]

	switch {
	case hashGiven:
		d.PlatformID = d.Market.PlatformID
		if hashOK && s.fault == faultPlatformFromBodyWithHash && platformGiven && platformKnown {
			d.PlatformID = platformID
		}
	default:
		if !nameGiven || strings.TrimSpace(name) == "" {
			if !f.p.hasField(f.name("name")) {
				f.add("name", "InvalidName", "No app name was provided: give a marketapp hash or a name")
			}
		}
		if !platformBad && (!platformGiven || !platformKnown) {
			f.add("platform.id", "InvalidPlatformId", "The platform id does not match an allowed value")
		}
		if nameGiven && strings.TrimSpace(name) != "" && platformGiven && platformKnown {
			m, ok := s.cat.marketByTitle(name, platformID)
			if !ok {
				f.add("name", "MarketappNotFound", "No marketplace app of this name exists on this platform")
			}
			d.Market, d.PlatformID = m, platformID
		}
	}
	d.PlanID, _ = f.reference("nextplan", "InvalidPlanId", "plan", nil, func(id int64) bool {
		_, ok := s.cat.planByID[id]
		return ok
	})
	f.rejectUnknown()
	return d
}

// readMarketapp reads the body's marketapp into d.Market: whether a hash
// was given (even a wrong one), and whether it names a marketplace app.
func (s *Server) readMarketapp(f *fields, d *appDraft) (given, ok bool) {
	switch sub, k := f.sub("marketapp"); k {
	case absent, null:
	case object:
		raw, hk := sub.get("hash")
		switch hk {
		case absent, null:
		case text:
			given = true
			d.Market, ok = s.lookupHash(sub, str(raw))
		default:
			given = true
			sub.add("hash", "InvalidMarketappHash", "The marketapp hash must be a string of 40 hexadecimal characters")
		}
		sub.rejectUnknown()
	default:
		given = true
		f.add("marketapp", "InvalidMarketappHash", "marketapp must be an object with a hash")
	}
	return given, ok
}

// readAppName reads the body's app name: given is false when there is
// none, or none of at most 255 characters.
func readAppName(f *fields) (name string, given bool) {
	raw, k := f.get("name")
	switch {
	case k == text:
		name, given = str(raw), true
		if chars(name, false) > maxText {
			f.add("name", "InvalidName", "The app name is longer than 255 characters")
			given = false
		}
	case k != absent && k != null:
		f.add("name", "InvalidName", "The app name must be a string or null")
	}
	return name, given
}

// readPlatform reads the body's platform.id: given when it is an integer,
// bad when it is given but not one.
func readPlatform(f *fields) (id int64, given, bad bool) {
	switch sub, k := f.sub("platform"); k {
	case absent, null:
	case object:
		sub.tolerate("name")
		raw, ik := sub.get("id")
		switch ik {
		case absent, null:
		case number:
			if n, ok := integer(raw); ok {
				id, given = n, true
			} else {
				bad = true
				sub.add("id", "InvalidPlatformId", "The platform id must be an integer")
			}
		default:
			bad = true
			sub.add("id", "InvalidPlatformId", "The platform id must be a number or null")
		}
		sub.rejectUnknown()
	default:
		bad = true
		f.add("platform", "InvalidPlatformId", "platform must be an object with an id")
	}
	return id, given, bad
}

func (s *Server) lookupHash(f *fields, hash string) (marketApp, bool) {
	wellFormed := len(hash) == 40 && hexForm.MatchString(hash)
	key := strings.ToLower(hash)
	if s.fault == faultHash41Accepted && len(hash) > 40 && hexForm.MatchString(hash) {
		wellFormed, key = true, strings.ToLower(hash[:40])
	}
	if !wellFormed {
		f.add("hash", "InvalidMarketappHash", "The marketapp hash must be 40 hexadecimal characters")
		return marketApp{}, false
	}
	m, ok := s.cat.marketByHash[key]
	if !ok {
		f.add("hash", "MarketappNotFound", "No marketplace app has this hash")
	}
	return m, ok
}

func (p problems) hasField(name string) bool {
	for _, e := range p {
		if e.FieldName == name {
			return true
		}
	}
	return false
}

func (s *Server) readLogin(body []byte) (loginDraft, problems) {
	var d loginDraft
	var p problems
	f, ok := readBody(body, &p)
	if !ok {
		return d, p
	}
	if raw, k := f.get("email"); k == text && str(raw) != "" {
		d.Email = str(raw)
	} else {
		f.add("email", "InvalidEmail", "The email address must be a non-empty string")
	}
	if raw, k := f.get("password"); k == text && str(raw) != "" {
		d.Password = str(raw)
	} else {
		f.add("password", "InvalidPassword", "The password must be a non-empty string")
	}
	f.rejectUnknown()
	return d, p
}
