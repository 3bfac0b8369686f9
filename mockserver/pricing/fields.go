package pricing

import (
	"fmt"
	"strings"
)

// The field tables: every field of the request bodies of spec section 4 and
// of the objects of section 2, each written once with what the spec says of
// it (and, marked so, what the mock chose where it is silent). Validation
// reads its limits and optionality here. Every other list of fields in the
// repository is derived from these tables or held to them by a test that
// names the file to change: README, "Changing the spec".

// Type is a field's JSON type as the spec's tables give it; "Mixed" fields
// are their non-null type and Nullable.
type Type string

// The types of the spec's tables.
const (
	TypeString  Type = "String"
	TypeNumber  Type = "Number"
	TypeBoolean Type = "Boolean"
	TypeObject  Type = "Object"
)

// Form is which values of a string the spec takes, beyond its type and
// length: what a test may hold every correct server to, and what it may not.
type Form int

// The forms of the spec's strings.
const (
	// FormNone: not a string of a body.
	FormNone Form = iota
	// FormFree: any text within the limits (a name, an address line, a
	// password): a value at the limit is valid on every correct server.
	FormFree
	// FormUnstated: a value whose valid forms the spec does not state (7.3:
	// the further codes of the address fields are not shown): a postcode, a
	// country, a VAT number, the phone fields. A correct server may check it
	// by a rule of its own, so a value at the limit may be refused.
	FormUnstated
	// FormEmail: an email address (7.3, InvalidEmail); RFC 5321 allows 254
	// characters, one fewer than ..255.
	FormEmail
	// FormTimezone: a timezone name of the form Area/City (2.1).
	FormTimezone
	// FormLiteral: one literal value (4.3: terms must equal `I agree`), so
	// no other value is valid, at the limit or not.
	FormLiteral
	// FormHex: hexadecimal characters (8: the marketapp hash).
	FormHex
)

// PutRule is what a PUT does with a field of its body.
type PutRule int

// The rules of a PUT.
const (
	// PutNone: no PUT stores the field: a body no PUT takes (POST /apps), a
	// client or an app created with the resource, or terms, which a PUT
	// /clients must carry and which is not stored.
	PutNone PutRule = iota
	// PutReplaces: the value sent replaces the stored one; an optional field
	// left out or null is cleared (2: optional means the field may be
	// omitted, and a PUT sends the whole resource). The suite's restore
	// relies on it: it puts back an optional field that had no value by
	// leaving it out or sending null.
	PutReplaces
	// PutNullKeeps: null keeps the stored value (4.1: the password), and so
	// does leaving it out (the mock's choice); a value replaces it.
	PutNullKeeps
	// PutAbsentKeeps: left out, the stored value stays; a value, or null
	// where the field takes one, replaces it. The mock's choice for the
	// phone fields, which 4.1's body table does not list (README, "Where
	// the spec is silent").
	PutAbsentKeeps
)

// Field is one field of a body or an object.
type Field struct {
	// Path is the field's JSON path from the object's root, dotted:
	// "phoneCountry.id". An object's fields follow it in its table.
	Path string
	Type Type
	// Form is which values a string of a body takes; FormNone otherwise.
	Form Form
	// Nullable: the spec's type admits null ("Mixed: String or null").
	Nullable bool
	// MockNull: the mock answers null where the spec's type does not admit
	// it, its choice where the spec is silent (README, "Where the spec is
	// silent": a session's clientId when its user has no client, 2.4; the
	// hash of an app made from a name and a platform, 4.2). Only on a
	// response object's field that is not Nullable; the wire structs and
	// the OpenAPI document follow it, the suite's shapes do not.
	MockNull bool
	// Optional: the spec marks the field optional, so that a body or an
	// object may leave it out (2).
	Optional bool
	// Required: the mock refuses a body that leaves the field out. Beside
	// the optional fields, the mock requires neither the password of PUT
	// /users (null keeps it, 4.1) nor the phone fields, nor any field of
	// POST /apps, whose name and platform a marketapp hash stands for and
	// whose plan defaults to the lite one (README, "Where the spec is
	// silent").
	Required bool
	// Unlisted: the endpoint's body table does not list the field; 7.3's
	// codes name it (the phone fields of PUT /users).
	Unlisted bool
	// Max is the most characters of a string (8: `..255`; the hash 40);
	// 0: none. Counted in characters, not bytes.
	Max int
	// Min is the fewest characters of a string (8: the password's 6; the
	// hash's 40, which with Max 40 is an exact length); 0: none.
	Min int
	// MockLimit: Max is the mock's bound, not the spec's (the phone number,
	// which no `..255` marks).
	MockLimit bool
	// Put is what a PUT does with the field.
	Put PutRule
	// Code is the code of a 400 that names the field: 7.3's where SpecCode,
	// else the mock's ("Invalid" and the field's name, README "Where the
	// spec is silent"); the zero Code where no error names the field (an
	// object whose errors name its id, a field of a response).
	Code     Code
	SpecCode bool
	// Sub is the table of an object that takes a body of its own: the
	// client of PUT /users (the body of POST /clients), the app of POST
	// /clients (the body of POST /apps).
	Sub *Table
}

// Limited reports whether the field has a limit of length of its own.
func (f Field) Limited() bool { return f.Max > 0 || f.Min > 0 }

// Stored reports whether a PUT stores the field.
func (f Field) Stored() bool { return f.Put != PutNone }

// Parent splits the field's path into the path of the object that holds it
// ("" for the root) and its key in that object: what a reader of a table
// needs to find the field in a body, a shape or a schema, the object listed
// before it.
func (f Field) Parent() (path, key string) {
	if i := strings.LastIndex(f.Path, "."); i >= 0 {
		return f.Path[:i], f.Path[i+1:]
	}
	return "", f.Path
}

// Table is the fields of one body or object, in the order of the spec's
// table, an object before its fields.
type Table struct {
	// Name is what the table is of, as messages say it.
	Name string
	// Endpoints are the requests whose body it is, as the spec names them
	// ("PUT /users/:userId"); none for a response object.
	Endpoints []string
	Fields    []Field
	index     map[string]int
}

func newTable(name string, endpoints []string, fields ...Field) *Table {
	t := &Table{Name: name, Endpoints: endpoints, Fields: fields, index: map[string]int{}}
	for i, f := range fields {
		if _, dup := t.index[f.Path]; dup {
			panic(fmt.Sprintf("%s: field %s is listed twice", name, f.Path))
		}
		t.index[f.Path] = i
	}
	return t
}

// Lookup is the field at path.
func (t *Table) Lookup(path string) (Field, bool) {
	i, ok := t.index[path]
	if !ok {
		return Field{}, false
	}
	return t.Fields[i], true
}

// Field is the field at path, which the table must have: a path of the
// code's own, so that a typo fails at once.
func (t *Table) Field(path string) Field {
	f, ok := t.Lookup(path)
	if !ok {
		panic(fmt.Sprintf("%s has no field %s", t.Name, path))
	}
	return f
}

// Leaves are the fields that hold a value: every field but the objects.
func (t *Table) Leaves() []Field {
	var out []Field
	for _, f := range t.Fields {
		if f.Type != TypeObject {
			out = append(out, f)
		}
	}
	return out
}

// Bodies are the tables of the request bodies.
func Bodies() []*Table { return []*Table{UserBody, ClientBody, AppBody} }

// Objects are the tables of the response objects.
func Objects() []*Table { return []*Table{UserObject, ClientObject, AppObject, SessionObject} }

// The request bodies (4.1 to 4.4).
var (
	// UserBody is the body of PUT /users/:userId (4.1), and the phone fields
	// 7.3 names. POST /users takes it too, with the password and the phone
	// country and number required (README, "Where the spec is silent").
	UserBody = newTable("the body of PUT /users/:userId", []string{"PUT /users/:userId"},
		Field{Path: "email", Type: TypeString, Form: FormEmail, Required: true, Max: 255, Put: PutReplaces, Code: CodeInvalidEmail, SpecCode: true},
		Field{Path: "firstName", Type: TypeString, Form: FormFree, Required: true, Max: 255, Put: PutReplaces, Code: CodeInvalidFirstName, SpecCode: true},
		Field{Path: "lastName", Type: TypeString, Form: FormFree, Required: true, Max: 255, Put: PutReplaces, Code: CodeInvalidLastName, SpecCode: true},
		Field{Path: "subscribeWelcome", Type: TypeBoolean, Required: true, Put: PutReplaces, Code: CodeInvalidSubscribeWelcome},
		Field{Path: "subscribeBlog", Type: TypeBoolean, Required: true, Put: PutReplaces, Code: CodeInvalidSubscribeBlog},
		Field{Path: "subscribeHowto", Type: TypeBoolean, Required: true, Put: PutReplaces, Code: CodeInvalidSubscribeHowto},
		Field{Path: "subscribeOnboarding", Type: TypeBoolean, Required: true, Put: PutReplaces, Code: CodeInvalidSubscribeOnboarding},
		Field{Path: "timezone", Type: TypeString, Form: FormTimezone, Required: true, Max: 255, Put: PutReplaces, Code: CodeInvalidTimezone},
		Field{Path: "password", Type: TypeString, Form: FormFree, Nullable: true, Min: 6, Put: PutNullKeeps, Code: CodeInvalidPassword, SpecCode: true},
		Field{Path: "client", Type: TypeObject, Optional: true, Code: CodeInvalidClient, Sub: ClientBody},
		Field{Path: "phoneCountry", Type: TypeObject, Unlisted: true, Put: PutAbsentKeeps},
		Field{Path: "phoneCountry.id", Type: TypeNumber, Unlisted: true, Put: PutAbsentKeeps, Code: CodeInvalidPhoneCountryID, SpecCode: true},
		Field{Path: "phoneNumber", Type: TypeString, Form: FormUnstated, Unlisted: true, Max: 255, MockLimit: true, Put: PutAbsentKeeps, Code: CodeInvalidPhoneNumber, SpecCode: true},
		Field{Path: "phoneExtension", Type: TypeString, Form: FormUnstated, Nullable: true, Unlisted: true, Put: PutAbsentKeeps, Code: CodeInvalidPhoneExtension, SpecCode: true},
	)

	// ClientBody is the body of POST /clients (4.3) and PUT
	// /clients/:clientId (4.4), which refuses its app.
	ClientBody = newTable("the body of POST /clients and PUT /clients/:clientId", []string{"POST /clients", "PUT /clients/:clientId"},
		Field{Path: "name", Type: TypeString, Form: FormFree, Required: true, Max: 255, Put: PutReplaces, Code: CodeInvalidName, SpecCode: true},
		Field{Path: "addressLine1", Type: TypeString, Form: FormFree, Required: true, Max: 255, Put: PutReplaces, Code: CodeInvalidAddressLine1},
		Field{Path: "addressLine2", Type: TypeString, Form: FormFree, Optional: true, Max: 255, Put: PutReplaces, Code: CodeInvalidAddressLine2},
		Field{Path: "addressCity", Type: TypeString, Form: FormFree, Required: true, Max: 255, Put: PutReplaces, Code: CodeInvalidAddressCity},
		Field{Path: "addressPostcode", Type: TypeString, Form: FormUnstated, Required: true, Max: 255, Put: PutReplaces, Code: CodeInvalidAddressPostcode},
		Field{Path: "addressCountry", Type: TypeString, Form: FormUnstated, Required: true, Max: 255, Put: PutReplaces, Code: CodeInvalidAddressCountry},
		Field{Path: "vat", Type: TypeString, Form: FormUnstated, Optional: true, Max: 255, Put: PutReplaces, Code: CodeInvalidVat},
		Field{Path: "currency", Type: TypeObject, Required: true, Put: PutReplaces},
		Field{Path: "currency.id", Type: TypeNumber, Required: true, Put: PutReplaces, Code: CodeInvalidCurrencyID},
		Field{Path: "terms", Type: TypeString, Form: FormLiteral, Required: true, Max: 255, Code: CodeInvalidTerms},
		Field{Path: "app", Type: TypeObject, Optional: true, Code: CodeInvalidApp, Sub: AppBody},
	)

	// AppBody is the body of POST /apps (4.2).
	AppBody = newTable("the body of POST /apps", []string{"POST /apps"},
		Field{Path: "marketapp", Type: TypeObject},
		Field{Path: "marketapp.hash", Type: TypeString, Form: FormHex, Min: 40, Max: 40, Code: CodeInvalidMarketappHash},
		Field{Path: "name", Type: TypeString, Form: FormFree, Nullable: true, Max: 255, Code: CodeInvalidName, SpecCode: true},
		Field{Path: "platform", Type: TypeObject},
		Field{Path: "platform.id", Type: TypeNumber, Nullable: true, Code: CodeInvalidPlatformID},
		Field{Path: "nextplan", Type: TypeObject},
		Field{Path: "nextplan.id", Type: TypeNumber, Code: CodeInvalidPlanID},
	)
)

// The response objects (2.1 to 2.4). Their limits and forms are the
// bodies'; these tables say what an answer carries.
var (
	// UserObject is the user of 2.1; it never carries the password.
	UserObject = newTable("the user object (2.1)", nil,
		Field{Path: "id", Type: TypeNumber},
		Field{Path: "created", Type: TypeString},
		Field{Path: "email", Type: TypeString},
		Field{Path: "passwordLastChanged", Type: TypeString},
		Field{Path: "firstName", Type: TypeString},
		Field{Path: "lastName", Type: TypeString},
		Field{Path: "subscribeWelcome", Type: TypeBoolean},
		Field{Path: "subscribeBlog", Type: TypeBoolean},
		Field{Path: "subscribeHowto", Type: TypeBoolean},
		Field{Path: "subscribeOnboarding", Type: TypeBoolean},
		Field{Path: "phoneCountry", Type: TypeObject},
		Field{Path: "phoneCountry.id", Type: TypeNumber},
		Field{Path: "phoneCountry.name", Type: TypeString},
		Field{Path: "phoneCountry.dialCode", Type: TypeString},
		Field{Path: "phoneNumber", Type: TypeString},
		Field{Path: "phoneExtension", Type: TypeString, Nullable: true},
		Field{Path: "timezone", Type: TypeString},
	)

	// ClientObject is the client of 2.2.
	ClientObject = newTable("the client object (2.2)", nil,
		Field{Path: "id", Type: TypeNumber},
		Field{Path: "createdDate", Type: TypeString},
		Field{Path: "name", Type: TypeString},
		Field{Path: "addressLine1", Type: TypeString},
		Field{Path: "addressLine2", Type: TypeString, Optional: true},
		Field{Path: "addressCity", Type: TypeString},
		Field{Path: "addressPostcode", Type: TypeString},
		Field{Path: "addressCountry", Type: TypeString},
		Field{Path: "vat", Type: TypeString, Optional: true},
		Field{Path: "currency", Type: TypeObject},
		Field{Path: "currency.id", Type: TypeNumber},
		// Typed Number, shown as three letters: a string of letters (2.2).
		Field{Path: "currency.code", Type: TypeString},
	)

	// AppObject is the app of 2.3.
	AppObject = newTable("the app object (2.3)", nil,
		Field{Path: "id", Type: TypeNumber},
		Field{Path: "created", Type: TypeString},
		Field{Path: "name", Type: TypeString},
		Field{Path: "platform", Type: TypeObject},
		Field{Path: "platform.id", Type: TypeNumber},
		Field{Path: "platform.name", Type: TypeString},
		Field{Path: "writeKey", Type: TypeString},
		Field{Path: "plan", Type: TypeObject},
		Field{Path: "plan.isLite", Type: TypeBoolean},
		Field{Path: "plan.isPro", Type: TypeBoolean},
		Field{Path: "plan.isDynamic", Type: TypeBoolean},
		Field{Path: "plan.needBilling", Type: TypeBoolean},
		Field{Path: "marketapp", Type: TypeObject},
		Field{Path: "marketapp.hash", Type: TypeString, MockNull: true},
	)

	// SessionObject is the session of 2.4.
	SessionObject = newTable("the session object (2.4)", nil,
		Field{Path: "id", Type: TypeNumber},
		Field{Path: "created", Type: TypeString},
		Field{Path: "creatorUserId", Type: TypeNumber},
		Field{Path: "userId", Type: TypeNumber},
		Field{Path: "clientId", Type: TypeNumber, MockNull: true},
		Field{Path: "token", Type: TypeString},
	)
)
