package actor

// Fault describes one switchable behaviour of the server. Legal faults are
// other defensible readings of a silent spec; the others break the spec.
type Fault struct {
	Name        string
	Legal       bool
	Rule        string
	Quote       string
	Description string
}

const (
	q255       = "Every string field marked `..255` is at most 255 characters long."
	q401       = "When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized)."
	q403       = "When the authenticated caller may not view or modify the resource, the response is HTTP 403."
	qToken     = "The token is then sent either in the header `session-token` (value `<SESSION_TOKEN>`) or in the query-string argument `sessionToken=<SESSION_TOKEN>`."
	q200       = "Every endpoint below returns HTTP 200 on success."
	qJSON      = "Requests carrying a body use JSON."
	q400       = "| 400 | Validation failure, with codes below |"
	qNullKeeps = "A String of at least 6 characters replaces the password. `null` keeps the existing password"
	qCreds     = "A client obtains a session by POST /sessions with the credentials of the account to use."
)

var faultList = []Fault{
	// 1. validation and limits
	{"name-length-counted-in-bytes", false, "8, 2.2", q255,
		"Client/app/user string limits are checked with len() (UTF-8 bytes), so 200 'é' characters are refused as too long."},
	{"password-min-five-chars", false, "8, 4.1", "A password is a String of at least 6 characters.",
		"The password length check is off by one: a 5-character password is accepted."},
	{"marketapp-hash-hex-unchecked", false, "8, 4.2", "A marketapp hash is 40 hexadecimal characters long.",
		"Only the length of marketapp.hash is checked; 40 non-hex characters are looked up and answered 404 instead of 400."},
	{"fractional-id-truncated", false, "4.3", "| currency.id | Number | ID of the billing currency |",
		"json.Number is read with Float64 and converted to int64, so currency.id 1.5 is accepted as currency 1."},
	{"null-name-accepted", false, "7.3", "| POST /clients, PUT /clients/:clientId | InvalidName | The name was not provided |",
		"Client name is checked with `_, ok := m[\"name\"]`; a JSON null passes and is stored as an empty name."},
	{"terms-case-insensitive", false, "4.3", "Must equal the literal `I agree` to signify acceptance of the terms and conditions.",
		"terms is compared with strings.EqualFold, so \"i AGREE\" is accepted."},
	{"app-name-required-with-hash", false, "7.3, 4.2", "| POST /apps | InvalidName | No app name was provided (the case where neither a marketapp hash nor a name is given) |",
		"POST /apps always requires name, even when marketapp.hash is given (400 InvalidName)."},
	// 2. authentication
	{"session-token-header-exact-key", false, "5", qToken,
		"The session-token header is read as r.Header[\"session-token\"]; Go canonicalises header keys, so the header is never seen (401)."},
	{"session-token-query-ignored", false, "5", qToken,
		"Only the session-token header is consulted; ?sessionToken= is ignored (401)."},
	{"api-key-prefix-match", false, "5", q401,
		"API keys are matched with strings.HasPrefix(stored, given), so any non-empty prefix of a key authenticates."},
	{"login-password-case-insensitive", false, "5", qCreds,
		"POST /sessions compares the password with strings.EqualFold."},
	{"not-found-before-auth", false, "5, 7.2", q401,
		"The path resource is looked up before authentication, so an unauthenticated PUT on an unknown id answers 404 instead of 401."},
	// 3. permissions and isolation
	{"put-user-owner-unchecked", false, "5, 4.1", q403,
		"PUT /users/:userId only checks that the user exists; any caller can update any user."},
	{"put-client-membership-unchecked", false, "5, 4.4", q403,
		"PUT /clients/:clientId does not check that the caller is a member of the client."},
	{"password-in-user-response", false, "2.1", "The password is never returned.",
		"The user response struct carries the stored password."},
	{"api-key-in-session-response", false, "2.4, 5", "Returned by POST /sessions: | id | created | creatorUserId | userId | clientId | token |",
		"The session answer also carries the user's api key (a secret)."},
	// 4. a refused request changes nothing
	{"put-user-applied-before-validation", false, "4.1, 7.2", q400,
		"PUT /users applies each field to the stored user as it validates it; a bad password (checked last) still leaves the new email/names stored."},
	{"post-clients-keeps-client-when-app-fails", false, "4.3", "The request then either creates both or returns an error and creates neither.",
		"POST /clients creates the client in one actor message and the app in a second; when the app fails (unknown hash, 404) the client stays."},
	{"put-client-partial-on-unknown-currency", false, "4.4, 7.2", q400,
		"PUT /clients assigns name/address/vat before checking currency.id against the catalogue; 400 InvalidCurrencyId leaves them changed."},
	// 5. concurrency
	{"app-id-allocated-outside-actor", false, "2.3", "| id | Number | ID of the app |",
		"POST /apps reads the next id in one actor message and inserts in a second; two overlapping requests get the same id and one app is overwritten."},
	{"put-user-lost-update", false, "4.1", qNullKeeps,
		"PUT /users reads a copy of the user, merges outside the actor and writes the whole record back; overlapping updates lose one another (e.g. a password change)."},
	{"session-token-counter-race", false, "5, 2.4", qCreds,
		"Session tokens are derived from a counter read in one message and stored in another; overlapping logins of two users get the same token, which then belongs to whichever was stored last."},
	// 6. equivalent wire forms
	{"content-type-params-rejected", false, "1, 4", qJSON,
		"Content-Type must be exactly application/json; 'application/json; charset=utf-8' is answered 415."},
	{"accept-exact-match", false, "4", q200,
		"A present Accept header must be exactly application/json; '*/*' or 'application/json, text/plain' gets 406."},
	{"chunked-body-rejected", false, "4", qJSON,
		"Bodies without Content-Length (chunked transfer encoding) are refused with 411."},
	{"leading-whitespace-body-rejected", false, "4", qJSON,
		"The body must start with '{' byte; JSON with leading whitespace/newline is answered 400."},
	{"json-keys-case-insensitive", false, "4.1, 7.3", "| PUT /users/:userId | InvalidFirstName | No first name was provided |",
		"Body members are looked up case-insensitively when the exact key is missing, so {\"FIRSTNAME\":...} counts as firstName."},
	// 7. round trips
	{"response-sanitize-wipes-password", false, "4.1, 2.1", qNullKeeps,
		"The actor hands PUT /users a pointer to the stored user and the handler blanks Password on it before answering; the stored password is wiped and login fails."},
	{"password-stored-trimmed", false, "4.1, 5", "A String of at least 6 characters replaces the password.",
		"PUT /users stores strings.TrimSpace(password), but login compares the password as sent; a password with surrounding spaces cannot log in."},
	{"login-lowercases-email", false, "5, 4.1", qCreds,
		"POST /sessions lowercases the email and compares exactly with the stored email; after setting a mixed-case email login fails."},
	{"names-html-escaped", false, "2.1, 2.2", "| firstName | String | First name |",
		"User and client names are stored html.EscapeString'ed; 'Tom & Jerry' reads back as 'Tom &amp; Jerry'."},
	{"null-password-clears", false, "4.1", qNullKeeps,
		"password null is read with `s, _ := v.(string)` and stores the empty string; the old password no longer works."},
	// 8. error shape and status codes
	{"error-keys-capitalized", false, "7.1", "Each element is an object with these fields:",
		"The error struct has no json tags: members are FieldName, Error, Message."},
	{"malformed-json-500", false, "7.2", q400,
		"A body that is not valid JSON is answered 500 instead of 400."},
	{"forbidden-as-not-found", false, "5, 7.2", q403,
		"Another account's user or client is answered 404 instead of 403."},
	{"create-returns-201", false, "4", q200,
		"POST /apps and POST /clients answer 201 Created."},
	{"apps-pattern-trailing-slash", false, "4.2", q200,
		"POST /apps is registered as the ServeMux pattern 'POST {base}/apps/'; POST {base}/apps is redirected (307) instead of creating the app."},
	{"deadline-in-nanoseconds", false, "4", q200,
		"The per-request deadline is time.Duration(5) (5ns) instead of 5s; requests randomly fail with 503 (sometimes after the change was applied)."},
	// legal readings
	{"collection-adds-count", true, "2.5", "Some collections may add other properties, such as a page number or the size of the result set.",
		"Catalogue collections add \"page\": 1 and \"count\": n beside the named array."},
	{"write-key-uppercase", true, "2.3", "| writeKey | String | Write key for this app (a 32-hexadecimal-character value in the response shape) |",
		"writeKey uses upper-case hexadecimal digits."},
	{"dates-numeric-offset", true, "1", "Dates are ISO 8601 strings.",
		"Dates are written with milliseconds and a +00:00 offset instead of Z."},
	{"unknown-fields-rejected", true, "4.1, 4.2, 4.3", "Body fields, all typed as shown:",
		"Unknown top-level body members are refused with 400 UnknownField instead of being ignored."},
	{"validation-before-permission", true, "5, 7.2", q403,
		"On PUT /users and PUT /clients the body is validated before the permission check, so an invalid body for another account's resource gets 400 rather than 403."},
}

// Faults lists every switchable fault (wrong and legal).
func Faults() []Fault {
	out := make([]Fault, len(faultList))
	copy(out, faultList)
	return out
}

func knownFault(name string) bool {
	for _, f := range faultList {
		if f.Name == name {
			return true
		}
	}
	return false
}
