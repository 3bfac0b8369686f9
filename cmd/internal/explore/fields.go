package explore

import (
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// The input positions of the bodies: every field of the spec's body tables
// (4.1 to 4.4, and the phone fields 7.3 names), as a tree, each derived
// from its row of the field tables (mockserver/pricing/fields.go: path,
// type, form, optional or required, Max) with what the tables do not say
// (extras: 7.3's codes by condition, catalogues, forms). The operators
// (operators.go) are applied to each.

// fieldKind is what a field holds, which decides the operators that apply.
type fieldKind int

const (
	kText      fieldKind = iota // a free text: names, address lines, city
	kValue                      // a string whose valid values the spec does not state: postcode, country, VAT
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
	path string // dotted from the body's root: client.app.name
	kind fieldKind
	// max is the most characters the field takes (the row's Max: 8's
	// ..255, or a shorter limit), which the length operators go to and
	// past; 0: none they test (the literal terms, the hash of exact
	// length, which operators of their own test).
	max      int
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
	form bool
	// unstated: a line of the address, which the spec judges by its
	// length alone (7.3: its further codes are not shown): a server may
	// refuse a value it takes for no address (freedom unstated-validity).
	unstated bool
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

// extra is what the explorer knows of a position that its row does not
// say: a kind its type and form do not give, 7.3's codes by the condition
// that draws them, the catalogue an id names, a form of the address.
type extra struct {
	kind      fieldKind // 0 (kText): the kind of the row's type and form
	codes     map[string]pricing.Code
	catalogue string
	form      bool
	unstated  bool
}

// extras are the extras of the rows of each body table, by the row's path.
// A row without one is all its row says: a new optional text of ..100 needs
// none.
var extras = map[*pricing.Table]map[string]extra{
	pricing.UserBody: {
		"email":           {codes: codeOn(condInvalid, pricing.CodeInvalidEmail)},
		"firstName":       {codes: codeOn(condMissing, pricing.CodeInvalidFirstName)},
		"lastName":        {codes: codeOn(condMissing, pricing.CodeInvalidLastName)},
		"password":        {kind: kPassword, codes: codeOn(condShort, pricing.CodeInvalidPassword)},
		"phoneCountry":    {codes: codeOn(condUnknown, pricing.CodeInvalidPhoneCountryID)},
		"phoneCountry.id": {catalogue: "phoneCountries", codes: codeOn(condUnknown, pricing.CodeInvalidPhoneCountryID)},
		"phoneNumber":     {kind: kPhone, codes: codeOn(condMissing, pricing.CodeInvalidPhoneNumber)},
		"phoneExtension":  {kind: kExtension, codes: codeOn(condNotAllowed, pricing.CodeInvalidPhoneExtension)},
	},
	pricing.ClientBody: {
		"name":            {codes: codeOn(condMissing, pricing.CodeInvalidName)},
		"addressLine1":    {unstated: true},
		"addressLine2":    {unstated: true},
		"addressCity":     {unstated: true},
		"addressPostcode": {form: true},
		"addressCountry":  {form: true},
		"vat":             {form: true},
		"currency.id":     {catalogue: "currencies"},
	},
	pricing.AppBody: {
		// When no hash is given: see specCode.
		"name":        {codes: codeOn(condMissing, pricing.CodeInvalidName)},
		"platform.id": {catalogue: "platforms"},
		"nextplan.id": {catalogue: "plans"},
	},
}

// kindOf is the kind of a row by its type and form.
func kindOf(row pricing.Field) fieldKind {
	switch row.Type {
	case pricing.TypeBoolean:
		return kFlag
	case pricing.TypeNumber:
		return kID
	case pricing.TypeObject:
		return kObject
	}
	switch row.Form {
	case pricing.FormUnstated:
		return kValue
	case pricing.FormEmail:
		return kEmail
	case pricing.FormTimezone:
		return kTimezone
	case pricing.FormLiteral:
		return kTerms
	case pricing.FormHex:
		return kHash
	}
	return kText
}

// position is the input position of row of tb. Nested (the client of PUT
// /users, the app of POST /clients), it carries no 7.3 code: the codes
// 7.3 names are the top field's (client.name is not the name of POST
// /clients).
func position(tb *pricing.Table, row pricing.Field, nested bool) bodyField {
	x := extras[tb][row.Path]
	f := bodyField{path: row.Path, kind: kindOf(row), required: row.Required, table: !row.Unlisted,
		catalogue: x.catalogue, form: x.form, unstated: x.unstated}
	if x.kind != kText {
		f.kind = x.kind
	}
	if !nested {
		f.codes = x.codes
	}
	if f.kind != kTerms && f.kind != kHash {
		f.max = row.Max
	}
	// An object the spec makes optional (client, app) is left out or null
	// as its own operators say (object-new), not as an optional value.
	f.optional = row.Optional && row.Type != pricing.TypeObject
	return f
}

// positions are the input positions of tb's rows below the object at
// parent ("" for the body's root), in the table's order, an object that
// takes a body of its own (client, app) after the others; its children are
// that body's positions where sub (PUT /clients must not be given an app,
// 4.4: the app operator "given" is its position).
func positions(tb *pricing.Table, parent string, nested, sub bool) []bodyField {
	var out, own []bodyField
	for _, row := range tb.Fields {
		if parentOf(row.Path) != parent {
			continue
		}
		f := position(tb, row, nested)
		f.children = positions(tb, row.Path, nested, sub)
		if row.Sub == nil {
			out = append(out, f)
			continue
		}
		if sub {
			for _, c := range positions(row.Sub, "", true, true) {
				f.children = append(f.children, c.under(row.Path+"."))
			}
		}
		own = append(own, f)
	}
	return append(out, own...)
}

// appFields are the body of POST /apps (4.2).
func appFields() []bodyField { return positions(pricing.AppBody, "", false, false) }

// clientFields are the body of POST /clients (create) or PUT /clients
// (4.3, 4.4).
func clientFields(create bool) []bodyField { return positions(pricing.ClientBody, "", false, create) }

// userFields are the body of PUT /users (4.1) with the phone fields of 7.3.
func userFields() []bodyField { return positions(pricing.UserBody, "", false, true) }

// parentOf is the path of the object a field is in ("" the body).
func parentOf(path string) string {
	i := strings.LastIndex(path, ".")
	if i < 0 {
		return ""
	}
	return path[:i]
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
		top = clientFields(true)
	case OpPutClient:
		top = clientFields(false)
	case OpPostApp:
		top = appFields()
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
