package explore

import (
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The input positions of the bodies: every field of the spec's body tables
// (4.1 to 4.4, and the phone fields 7.3 names), as a tree, each with what
// the spec says of it. The operators (operators.go) are applied to each.

// fieldKind is what a field holds, which decides the operators that apply.
type fieldKind int

const (
	kText      fieldKind = iota // a free text: names, address lines, city
	kValue                      // a ..255 string whose valid values the spec does not state: postcode, country, VAT
	kEmail                      // an email address
	kPassword                   // a password (a String of at least 6 characters, or null)
	kTimezone                   // a timezone name of the form Area/City
	kTerms                      // the literal "I agree"
	kHash                       // a marketplace app's hash, 40 hexadecimal characters
	kPhone                      // a phone number
	kExtension                  // a phone extension, a string or null
	kFlag                       // a Boolean
	kID                         // the id of a catalogue entry
	kObject                     // an object of the body
)

// bodyField is one position of a body.
type bodyField struct {
	path     string // dotted from the body's root: client.app.name
	kind     fieldKind
	limit    bool // ..255
	required bool // a body without it is refused
	// optional: the spec marks it optional (2: it may be omitted).
	optional bool
	// table: the field is in the endpoint's body table; the phone fields
	// are named only by 7.3's codes.
	table bool
	// codes are the codes 7.3 names for the field, by the condition the
	// operator that breaks it meets (condMissing, condInvalid, ...).
	codes map[string]pricing.Code
	// catalogue: for an id, the catalogue it names.
	catalogue string
	// form: a value of the address whose form the spec does not give (7.3:
	// "Further validation codes for ... the address ... fields of the
	// client endpoints: not shown"): a server may check it by the
	// country's form, the country with it (freedom unstated-validity).
	form     bool
	children []bodyField
}

// The conditions of 7.3's codes.
const (
	condMissing    = "missing"     // not provided: absent, null or empty
	condInvalid    = "invalid"     // an email that is no address
	condShort      = "short"       // a password under 6 characters
	condUnknown    = "unknown"     // an id that matches no allowed value
	condNotAllowed = "not-allowed" // a value 7.3 calls non-allowed
)

// under is f with its path (and its children's) below prefix.
func (f bodyField) under(prefix string) bodyField {
	f.path = prefix + f.path
	kids := make([]bodyField, len(f.children))
	for i, c := range f.children {
		kids[i] = c.under(prefix)
	}
	f.children = kids
	return f
}

func codeOn(cond string, c pricing.Code) map[string]pricing.Code {
	return map[string]pricing.Code{cond: c}
}

// appFields are the body of POST /apps (4.2); nested (in POST /clients)
// 7.3's InvalidName is not the spec's: the field is then app.name.
func appFields(nested bool) []bodyField {
	name := bodyField{path: "name", kind: kText, limit: true, table: true}
	if !nested {
		name.codes = codeOn(condMissing, pricing.CodeInvalidName) // when no hash is given: see specCode
	}
	return []bodyField{
		{path: "marketapp", kind: kObject, table: true, children: []bodyField{
			{path: "marketapp.hash", kind: kHash, table: true},
		}},
		name,
		{path: "platform", kind: kObject, table: true, children: []bodyField{
			{path: "platform.id", kind: kID, table: true, catalogue: "platforms"},
		}},
		{path: "nextplan", kind: kObject, table: true, children: []bodyField{
			{path: "nextplan.id", kind: kID, table: true, catalogue: "plans"},
		}},
	}
}

// clientFields are the body of POST /clients (create) or PUT /clients
// (4.3, 4.4); nested, the body of the client of PUT /users.
func clientFields(create, nested bool) []bodyField {
	name := bodyField{path: "name", kind: kText, limit: true, required: true, table: true}
	if !nested {
		name.codes = codeOn(condMissing, pricing.CodeInvalidName)
	}
	fs := []bodyField{
		name,
		{path: "addressLine1", kind: kText, limit: true, required: true, table: true},
		{path: "addressLine2", kind: kText, limit: true, optional: true, table: true},
		{path: "addressCity", kind: kText, limit: true, required: true, table: true},
		{path: "addressPostcode", kind: kValue, limit: true, required: true, table: true, form: true},
		{path: "addressCountry", kind: kValue, limit: true, required: true, table: true, form: true},
		{path: "vat", kind: kValue, limit: true, optional: true, table: true, form: true},
		{path: "currency", kind: kObject, required: true, table: true, children: []bodyField{
			{path: "currency.id", kind: kID, required: true, table: true, catalogue: "currencies"},
		}},
		{path: "terms", kind: kTerms, required: true, table: true},
	}
	// PUT /clients must not be given an app (4.4): the app operator
	// "given" is its position.
	app := bodyField{path: "app", kind: kObject, table: true}
	if create {
		for _, c := range appFields(true) {
			app.children = append(app.children, c.under("app."))
		}
	}
	return append(fs, app)
}

// userFields are the body of PUT /users (4.1) with the phone fields of 7.3.
func userFields() []bodyField {
	client := bodyField{path: "client", kind: kObject, table: true}
	for _, c := range clientFields(true, true) {
		client.children = append(client.children, c.under("client."))
	}
	return []bodyField{
		{path: "email", kind: kEmail, limit: true, required: true, table: true, codes: codeOn(condInvalid, pricing.CodeInvalidEmail)},
		{path: "firstName", kind: kText, limit: true, required: true, table: true, codes: codeOn(condMissing, pricing.CodeInvalidFirstName)},
		{path: "lastName", kind: kText, limit: true, required: true, table: true, codes: codeOn(condMissing, pricing.CodeInvalidLastName)},
		{path: "subscribeWelcome", kind: kFlag, required: true, table: true},
		{path: "subscribeBlog", kind: kFlag, required: true, table: true},
		{path: "subscribeHowto", kind: kFlag, required: true, table: true},
		{path: "subscribeOnboarding", kind: kFlag, required: true, table: true},
		{path: "timezone", kind: kTimezone, limit: true, required: true, table: true},
		{path: "password", kind: kPassword, table: true, codes: codeOn(condShort, pricing.CodeInvalidPassword)},
		{path: "phoneCountry", kind: kObject, codes: codeOn(condUnknown, pricing.CodeInvalidPhoneCountryID), children: []bodyField{
			{path: "phoneCountry.id", kind: kID, catalogue: "phoneCountries", codes: codeOn(condUnknown, pricing.CodeInvalidPhoneCountryID)},
		}},
		{path: "phoneNumber", kind: kPhone, limit: true, codes: codeOn(condMissing, pricing.CodeInvalidPhoneNumber)},
		{path: "phoneExtension", kind: kExtension, codes: codeOn(condNotAllowed, pricing.CodeInvalidPhoneExtension)},
		client,
	}
}

// loginFields are the body of POST /sessions: not shown by the spec (5),
// the account's email and password.
func loginFields() []bodyField {
	return []bodyField{
		{path: "email", kind: kEmail, required: true},
		{path: "password", kind: kPassword, required: true},
	}
}

// bodyFields are the fields of an operation's body, flattened, parents
// before their children.
func bodyFields(op Op) []bodyField {
	var top []bodyField
	switch op {
	case OpPutUser:
		top = userFields()
	case OpPostClient:
		top = clientFields(true, false)
	case OpPutClient:
		top = clientFields(false, false)
	case OpPostApp:
		top = appFields(false)
	case OpLogin:
		top = loginFields()
	}
	var out []bodyField
	var walk func([]bodyField)
	walk = func(fs []bodyField) {
		for _, f := range fs {
			out = append(out, f)
			walk(f.children)
		}
	}
	walk(top)
	return out
}

// fieldOf is the field at path of op's body.
func fieldOf(op Op, path string) (bodyField, bool) {
	for _, f := range bodyFields(op) {
		if f.path == path {
			return f, true
		}
	}
	return bodyField{}, false
}
