package pricing

import "fmt"

// FieldError is one element of every error answer (spec 7.1). For errors that
// concern the request as a whole (401, 403, 404, 405, 413, malformed body)
// FieldName is empty.
type FieldError struct {
	FieldName string `json:"fieldName"`
	Error     Code   `json:"error"`
	Message   string `json:"message"`
	// Rule names the check that made the error (a Condition of validation,
	// or a rule of the HTTP layer): what the explorer's policy holds decided
	// by the spec or left to a server. It is never on the wire.
	Rule string `json:"-"`
}

// Code is the "error" member of an error answer (spec 7.1) together with the
// HTTP status of every answer that carries it. The table below is the one
// place a code is written: everything else names one of its variables.
type Code struct {
	name   string
	status int
}

func (c Code) String() string { return c.name }

// Status is the HTTP status of an answer carrying the code; 0 for
// CodeInjected, whose status is the one injected.
func (c Code) Status() int { return c.status }

// MarshalText writes the code as its name, as the error array carries it.
func (c Code) MarshalText() ([]byte, error) { return []byte(c.name), nil }

// UnmarshalText reads the name of a code of the table.
func (c *Code) UnmarshalText(b []byte) error {
	for _, known := range codeTable {
		if known.name == string(b) {
			*c = known
			return nil
		}
	}
	return fmt.Errorf("%q is not an error code of the mock", b)
}

// codeTable lists the table in its order, for Codes.
var codeTable []Code

func newCode(name string, status int) Code {
	c := Code{name, status}
	codeTable = append(codeTable, c)
	return c
}

// Codes lists every code of the table.
func Codes() []Code { return append([]Code(nil), codeTable...) }

// The table of codes. Statuses are written as numbers so that the domain
// needs no net/http; spec 7.2 names them.
var (
	// The request as a whole: fieldName is empty.
	CodeInvalidBody      = newCode("InvalidBody", 400)
	CodeBodyTooLarge     = newCode("BodyTooLarge", 413)
	CodeUnauthorized     = newCode("Unauthorized", 401)
	CodeForbidden        = newCode("Forbidden", 403)
	CodeNoClient         = newCode("NoClient", 403)
	CodeNotFound         = newCode("NotFound", 404)
	CodeMethodNotAllowed = newCode("MethodNotAllowed", 405)
	CodeInternal         = newCode("InternalError", 500)
	// The mock cannot take the request now: too many bodies in flight, or
	// a change it could not save to the state file.
	CodeUnavailable = newCode("Unavailable", 503)

	// A field of a body (spec 7.3, and the README's table "Where the spec is
	// silent" for the fields 7.3 names no code for).
	CodeInvalidEmail               = newCode("InvalidEmail", 400)
	CodeInvalidPassword            = newCode("InvalidPassword", 400)
	CodeInvalidFirstName           = newCode("InvalidFirstName", 400)
	CodeInvalidLastName            = newCode("InvalidLastName", 400)
	CodeInvalidTimezone            = newCode("InvalidTimezone", 400)
	CodeInvalidSubscribeWelcome    = newCode("InvalidSubscribeWelcome", 400)
	CodeInvalidSubscribeBlog       = newCode("InvalidSubscribeBlog", 400)
	CodeInvalidSubscribeHowto      = newCode("InvalidSubscribeHowto", 400)
	CodeInvalidSubscribeOnboarding = newCode("InvalidSubscribeOnboarding", 400)
	CodeInvalidPhoneCountryID      = newCode("InvalidPhoneCountryId", 400)
	CodeInvalidPhoneNumber         = newCode("InvalidPhoneNumber", 400)
	CodeInvalidPhoneExtension      = newCode("InvalidPhoneExtension", 400)
	CodeInvalidClient              = newCode("InvalidClient", 400)
	CodeInvalidName                = newCode("InvalidName", 400)
	CodeInvalidAddressLine1        = newCode("InvalidAddressLine1", 400)
	CodeInvalidAddressLine2        = newCode("InvalidAddressLine2", 400)
	CodeInvalidAddressCity         = newCode("InvalidAddressCity", 400)
	CodeInvalidAddressPostcode     = newCode("InvalidAddressPostcode", 400)
	CodeInvalidAddressCountry      = newCode("InvalidAddressCountry", 400)
	CodeInvalidVat                 = newCode("InvalidVat", 400)
	CodeInvalidCurrencyID          = newCode("InvalidCurrencyId", 400)
	CodeInvalidTerms               = newCode("InvalidTerms", 400)
	CodeInvalidApp                 = newCode("InvalidApp", 400)
	CodeInvalidMarketappHash       = newCode("InvalidMarketappHash", 400)
	CodeInvalidPlatformID          = newCode("InvalidPlatformId", 400)
	CodeInvalidPlanID              = newCode("InvalidPlanId", 400)

	// The mock's own surface: the admin API and the X-Mock-* headers.
	CodeInvalidState      = newCode("InvalidState", 400)
	CodeInvalidNamespace  = newCode("InvalidNamespace", 400)
	CodeInvalidMockHeader = newCode("InvalidMockHeader", 400)
	CodeInvalidRule       = newCode("InvalidRule", 400)
	CodeTooManyRules      = newCode("TooManyRules", 400)
	// A write past a bound of README's "Limits and security": the namespace
	// or the whole mock holds the most it keeps.
	CodeLimitReached = newCode("LimitReached", 409)
	CodeInjected     = newCode("InjectedFault", 0)
)
