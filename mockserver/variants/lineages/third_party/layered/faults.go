package layered

// Fault describes one switchable deviation of the server.
// Legal faults are other defensible readings of a point the spec leaves open.
type Fault struct {
	Name        string
	Legal       bool
	Rule        string
	Quote       string
	Description string
}

// Class of each fault, used by choices.md and the tests.
var faultClass = map[string]string{}

var faultList = []struct {
	Fault
	Class string
}{
	// 1. validation and limits
	{Fault{"json-keys-case-insensitive", false, "§4.3, §7.3",
		"POST /clients, PUT /clients/:clientId | InvalidName | The name was not provided",
		"body keys are matched case-insensitively (Go's default struct decoding), so {\"NAME\":\"x\"} counts as name"}, "validation"},
	{Fault{"max-length-counted-in-bytes", false, "§8",
		"Every string field marked `..255` is at most 255 characters long.",
		"the ..255 rule counts UTF-8 bytes, so 255 non-ASCII characters are refused"}, "validation"},
	{Fault{"subscribe-absent-defaults-false", false, "§2, §4.1",
		"`optional` means the field may be omitted.",
		"the rules-table rows of the subscribe* booleans are not marked required: an absent one silently becomes false"}, "validation"},
	{Fault{"marketapp-hash-regex-unanchored", false, "§4.2, §8",
		"A marketapp hash is 40 hexadecimal characters long.",
		"the hash format regexp is not anchored: 41+ hex chars pass validation and end in 404 instead of 400"}, "validation"},
	{Fault{"terms-case-insensitive", false, "§4.3",
		"Must equal the literal `I agree` to signify acceptance of the terms and conditions.",
		"terms are compared with strings.EqualFold, so \"i AGREE\" is accepted"}, "validation"},

	// 2. authentication
	{Fault{"auth-scheme-not-checked", false, "§5",
		"the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
		"the Authorization scheme word is skipped without being checked: \"Bearer <key>\" authenticates"}, "authentication"},
	{Fault{"session-token-query-ignored", false, "§5",
		"The token is then sent either in the header `session-token` (value `<SESSION_TOKEN>`) or in the query-string argument `sessionToken=<SESSION_TOKEN>`.",
		"the sessionToken query argument is never read: such requests get 401"}, "authentication"},
	{Fault{"api-key-compared-case-insensitively", false, "§5",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"api keys are looked up with strings.EqualFold, so a key with its letter case changed authenticates"}, "authentication"},
	{Fault{"session-token-accepted-as-api-key", false, "§5",
		"Endpoint header scheme: the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
		"api keys and session tokens share one lookup: \"Authorization: api-key <SESSION_TOKEN>\" authenticates"}, "authentication"},

	// 3. permissions and isolation
	{Fault{"put-user-any-id", false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"PUT /users/:userId does not compare the path id with the caller: any user can update any other user"}, "permissions"},
	{Fault{"put-client-no-membership-check", false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"PUT /clients/:clientId does not check that the caller is a member of the client"}, "permissions"},
	{Fault{"user-response-includes-password", false, "§2.1",
		"The password is never returned.",
		"the domain user struct is serialised with its password field"}, "permissions"},
	{Fault{"caller-in-shared-field", false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"the auth middleware stores the caller in a server-wide field instead of the request context: overlapping requests run as each other"}, "permissions"},

	// 4. a refused request changes nothing
	{Fault{"post-clients-keeps-client-when-app-fails", false, "§4.3",
		"The request then either creates both or returns an error and creates neither.",
		"POST /clients commits the client before creating the app; an app failure (404 marketapp) leaves the client behind"}, "atomicity"},
	{Fault{"put-user-saved-before-client-fails", false, "§4.1, §4.3",
		"The request then either creates both or returns an error and creates neither.",
		"PUT /users/:userId saves the user fields (password, email...) before creating the client; a client failure returns an error but the user is changed"}, "atomicity"},
	{Fault{"put-client-shallow-copy-mutates-on-reject", false, "§4.4, §7.2",
		"400 | Validation failure, with codes below",
		"PUT /clients/:clientId edits the record shared with the live map (shallow copy) before the currency check; a refused request still changes the client"}, "atomicity"},
	{Fault{"post-apps-inserted-before-plan-check", false, "§4.2, §7.2",
		"400 | Validation failure, with codes below",
		"POST /apps inserts the app and checks nextplan.id afterwards; an unknown plan returns 400 but the app exists"}, "atomicity"},

	// 5. concurrency
	{Fault{"app-id-allocation-racy", false, "§2.3",
		"id | Number | ID of the app",
		"app ids are read, then written back incremented (load/sleep/store): two overlapping POST /apps get the same id"}, "concurrency"},
	{Fault{"email-unique-check-then-act", false, "§4.1, §7.3",
		"PUT /users/:userId | InvalidEmail | The email address is invalid",
		"the email-in-use check runs on a snapshot before the write lock: two overlapping PUTs can both take the same email"}, "concurrency"},
	{Fault{"clients-map-lost-update", false, "§4.3",
		"Creates a client account.",
		"POST /clients copies the map from a snapshot taken before the write lock and swaps it in: an overlapping write is lost"}, "concurrency"},

	// 6. equivalent wire forms
	{Fault{"content-type-params-rejected", false, "§1, §4",
		"Requests carrying a body use JSON.",
		"Content-Type must be exactly application/json: \"application/json; charset=utf-8\" gets 415"}, "wire-forms"},
	{Fault{"accept-not-exact-json-406", false, "§1",
		"Request and response bodies are JSON.",
		"an Accept header other than exactly application/json (e.g. */* or with parameters) gets 406"}, "wire-forms"},
	{Fault{"chunked-body-read-as-empty", false, "§4",
		"Requests carrying a body use JSON.",
		"the body is read as r.ContentLength bytes: a chunked request (length -1) is read as empty and refused"}, "wire-forms"},
	{Fault{"escaped-app-key-skips-check", false, "§4.4",
		"The `app` property must not be given to this endpoint",
		"PUT /clients detects `app` with bytes.Contains on the raw body, so the escaped key \"\\u0061pp\" is silently ignored"}, "wire-forms"},
	{Fault{"integral-number-forms-rejected", false, "§4.3",
		"currency.id | Number | ID of the billing currency",
		"ids are parsed with strconv.ParseInt on the JSON text, so 1.0 or 1e0 are refused as not a number"}, "wire-forms"},

	// 7. round trips
	{Fault{"password-trimmed-on-set", false, "§4.1",
		"A String of at least 6 characters replaces the password.",
		"the new password is stored trimmed: logging in with the password as set (with spaces) fails"}, "round-trip"},
	{Fault{"email-lowercased-on-store", false, "§2.1, §4.1",
		"email | String | Email address",
		"the email is stored lower-cased, so it is not read back as sent"}, "round-trip"},
	{Fault{"password-change-not-used-at-login", false, "§4.1",
		"A String of at least 6 characters replaces the password.",
		"PUT /users updates passwordLastChanged but never writes the password: login with the new one fails, the old one still works"}, "round-trip"},
	{Fault{"email-change-login-stale-index", false, "§4.1, §5",
		"A client obtains a session by POST /sessions with the credentials of the account to use.",
		"the email index used by login is not updated on PUT /users: the new email cannot log in, the old one can"}, "round-trip"},

	// 8. error shape and status codes
	{Fault{"missing-auth-403", false, "§5, §7.2",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"the error mapper maps the unauthenticated error to 403"}, "error-shape"},
	{Fault{"other-account-404", false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"the error mapper maps forbidden to 404 (hiding existence)"}, "error-shape"},
	{Fault{"error-body-object-not-array", false, "§7.1",
		"A 400 response (HTTP 400 Bad Request) has a body that is a JSON array.",
		"400 bodies are wrapped as {\"errors\":[...]}"}, "error-shape"},
	{Fault{"fieldname-go-struct-name", false, "§7.1",
		"fieldName | String | Name of the offending body field",
		"fieldName carries the Go struct field name (FirstName, Currency.Id) instead of the body field name"}, "error-shape"},
	{Fault{"lastname-row-wrong-code", false, "§7.3",
		"PUT /users/:userId | InvalidLastName | No last name was provided",
		"the rules-table row of lastName was copied from firstName and says InvalidFirstName"}, "error-shape"},
	{Fault{"currency-code-numeric", false, "§2.2",
		"The response shows a three-letter alphabetic code, so treat it as a string of letters",
		"currency.code is returned as the ISO 4217 number (978) instead of the letters"}, "error-shape"},

	// legal readings
	{Fault{"base-path-v1-only", true, "§9",
		"The endpoint pages show the form `v1.0`, and the overview describes the form `v1`.",
		"the API is served only under /api/v1 (BasePath returns /api/v1); /api/v1.0 is 404"}, "legal"},
	{Fault{"session-bad-credentials-400", true, "§5",
		"Request body of POST /sessions: not shown.",
		"POST /sessions with an unknown email or a wrong password answers 400 [{fieldName:\"password\", error:\"InvalidCredentials\"}] instead of 401"}, "legal"},
	{Fault{"collections-add-count", true, "§2.5",
		"Some collections may add other properties, such as a page number or the size of the result set.",
		"every collection wrapper also carries \"count\": the number of items"}, "legal"},
	{Fault{"reject-unknown-fields", true, "§4.1",
		"Body fields, all typed as shown:",
		"a body member that is not in the endpoint's field table gets 400 with error UnknownField (DisallowUnknownFields)"}, "legal"},
	{Fault{"login-email-exact-case", true, "§5",
		"A client obtains a session by POST /sessions with the credentials of the account to use.",
		"login compares the email case-sensitively (the email as stored); uniqueness stays case-insensitive"}, "legal"},
}

func init() {
	for _, f := range faultList {
		faultClass[f.Name] = f.Class
	}
}

// Faults lists every switchable fault, wrong ones first, then legal readings.
func Faults() []Fault {
	out := make([]Fault, 0, len(faultList))
	for _, f := range faultList {
		out = append(out, f.Fault)
	}
	return out
}
