package undolog

const (
	q401 = "When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized)."
	q403 = "When the authenticated caller may not view or modify the resource, the response is HTTP 403."
	qAll = "The request then either creates both or returns an error and creates neither."
)

// Faults lists every switchable variant. The class is the first word of the
// description: 1 validation, 2 auth, 3 permissions, 4 refused-changes-nothing,
// 5 concurrency, 6 wire forms, 7 round trips, 8 error shape; "legal" for the
// legal readings.
func Faults() []Fault {
	return []Fault{
		// ---- 1. validation and limits
		{Name: "max-length-off-by-one", Rule: "§8, §2.2", Quote: "Every string field marked `..255` is at most 255 characters long.",
			Description: "[1 validation] the shared length check accepts 256 characters"},
		{Name: "length-counted-in-bytes", Rule: "§8", Quote: "Every string field marked `..255` is at most 255 characters long.",
			Description: "[1 validation] the ..255 limit counts UTF-8 bytes, so 255 non-ASCII characters are refused"},
		{Name: "password-null-rejected", Rule: "§4.1", Quote: "A String of at least 6 characters replaces the password. `null` keeps the existing password",
			Description: "[1 validation] per-field decoding treats password null like a wrong type: 400 InvalidPassword"},
		{Name: "put-client-app-ignored", Rule: "§4.4", Quote: "The `app` property must not be given to this endpoint, so to create an app use POST /apps.",
			Description: "[1 validation] PUT /clients/:clientId silently ignores an app member and answers 200"},
		{Name: "booleans-accept-strings", Rule: "§4.1", Quote: "Body fields, all typed as shown:",
			Description: "[1 validation] subscribe* booleans also accept the strings \"true\" and \"false\""},

		// ---- 2. authentication
		{Name: "api-key-without-scheme-accepted", Rule: "§5", Quote: "Endpoint header scheme: the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
			Description: "[2 auth] an Authorization header holding the bare key (no api-key scheme) is accepted"},
		{Name: "session-token-query-ignored", Rule: "§5", Quote: "The token is then sent either in the header `session-token` (value `<SESSION_TOKEN>`) or in the query-string argument `sessionToken=<SESSION_TOKEN>`.",
			Description: "[2 auth] the sessionToken query argument is never read: 401"},
		{Name: "login-absent-password-accepted", Rule: "§5", Quote: "A client obtains a session by POST /sessions with the credentials of the account to use.",
			Description: "[2 auth] POST /sessions without a password member logs in with the email alone"},
		{Name: "put-client-auth-declared-none", Rule: "§5, §7.2", Quote: q401,
			Description: "[2 auth] the route table declares auth none for PUT /clients/:clientId: an anonymous request gets 403, not 401"},
		{Name: "api-key-index-includes-session-tokens", Rule: "§5", Quote: "Endpoint header scheme: the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
			Description: "[2 auth] the api-key resolver falls back to the session-token index, so Authorization: api-key <SESSION_TOKEN> authenticates"},

		// ---- 3. permissions and isolation
		{Name: "put-user-owner-not-checked", Rule: "§5, §7.2", Quote: q403,
			Description: "[3 permissions] PUT /users/:userId lets any authenticated user update any user"},
		{Name: "put-client-membership-not-checked", Rule: "§5, §7.2", Quote: q403,
			Description: "[3 permissions] PUT /clients/:clientId lets any authenticated user update any client"},
		{Name: "user-render-includes-password", Rule: "§2.1", Quote: "The password is never returned.",
			Description: "[3 permissions] the user Render hook includes a password member (the stored hash)"},
		{Name: "put-user-permission-after-write", Rule: "§5", Quote: q403,
			Description: "[3 permissions] PUT /users/:userId checks permission after committing: another user's update answers 403 but is applied"},

		// ---- 4. a refused request changes nothing
		{Name: "put-user-commits-before-client", Rule: "§4.1, §4.3", Quote: qAll,
			Description: "[4 atomicity] PUT /users/:userId with an invalid client answers 400 but keeps the user changes"},
		{Name: "rollback-skips-email-index", Rule: "§4.1, §4.3", Quote: qAll,
			Description: "[4 atomicity] the undo log does not record email-index changes: a refused email change leaves the login email broken"},
		{Name: "post-client-keeps-client-when-app-fails", Rule: "§4.3", Quote: qAll,
			Description: "[4 atomicity] POST /clients with an invalid app answers 400/404 but the client is created"},
		{Name: "post-users-keeps-user-when-client-fails", Rule: "§4.5, §4.3", Quote: qAll,
			Description: "[4 atomicity] POST /users with an invalid client answers 400 but the user is created"},

		// ---- 5. concurrency
		{Name: "email-unique-check-outside-tx", Rule: "§5, §4.1", Quote: "A client obtains a session by POST /sessions with the credentials of the account to use.",
			Description: "[5 concurrency] the users Validate hook (email uniqueness) runs in a read transaction before the write: two concurrent requests can take the same email"},
		{Name: "put-user-load-outside-tx", Rule: "§4.1", Quote: "`null` keeps the existing password",
			Description: "[5 concurrency] PUT /users loads and merges the row before the write transaction: a concurrent password change is lost"},
		{Name: "app-id-allocated-outside-tx", Rule: "§2.3", Quote: "| id | Number | ID of the app |",
			Description: "[5 concurrency] the app id is read from the sequence before the write transaction: two concurrent POST /apps get the same id"},

		// ---- 6. equivalent wire forms
		{Name: "content-type-params-rejected", Rule: "§4", Quote: "Requests carrying a body use JSON.",
			Description: "[6 wire] Content-Type must be exactly application/json; with a charset parameter (or other case) it is 415"},
		{Name: "chunked-body-ignored", Rule: "§4", Quote: "Requests carrying a body use JSON.",
			Description: "[6 wire] the body is read only when Content-Length is known: a chunked body is seen as empty (400)"},
		{Name: "route-matches-escaped-path", Rule: "§4.1", Quote: "Path parameter: `:userId` (Number), the ID of the user.",
			Description: "[6 wire] routes match r.URL.EscapedPath(): a percent-encoded digit in an id gives 404"},
		{Name: "string-escapes-not-decoded", Rule: "§1", Quote: "Request and response bodies are JSON.",
			Description: "[6 wire] string members are unquoted, not JSON-decoded: \\u00e9 or \\\" escapes are stored literally"},
		{Name: "integral-float-ids-rejected", Rule: "§4.3", Quote: "| currency.id | Number | ID of the billing currency |",
			Description: "[6 wire] ids must be written as integers: 3.0 or 3e0 are refused"},

		// ---- 7. round trips
		{Name: "email-index-stale-after-update", Rule: "§4.1", Quote: "Updates a user, for example the email address or password.",
			Description: "[7 round trip] a changed email is not written to the email index: login needs the old email"},
		{Name: "password-update-not-stored", Rule: "§4.1", Quote: "A String of at least 6 characters replaces the password.",
			Description: "[7 round trip] PUT /users moves passwordLastChanged but keeps the old password"},
		{Name: "password-trimmed-on-set", Rule: "§4.1", Quote: "A String of at least 6 characters replaces the password.",
			Description: "[7 round trip] the password is trimmed before hashing: login with the password as set fails if it has outer spaces"},
		{Name: "names-trimmed-on-store", Rule: "§2.1, §2.2", Quote: "Response 200: the user object of section 2.1.",
			Description: "[7 round trip] firstName, lastName and client name are stored trimmed, so they do not read back as sent"},

		// ---- 8. error shape and status codes
		{Name: "single-error-not-array", Rule: "§7.1", Quote: "A 400 response (HTTP 400 Bad Request) has a body that is a JSON array.",
			Description: "[8 errors] a 400 with exactly one error is rendered as a bare object"},
		{Name: "foreign-resource-404", Rule: "§5, §7.2", Quote: q403,
			Description: "[8 errors] another account's user, client or app answers 404 instead of 403"},
		{Name: "unknown-user-403", Rule: "§7.2", Quote: "| 404 | Resource not found |",
			Description: "[8 errors] the users Find hook checks ownership first: a nonexistent user id answers 403, not 404"},
		{Name: "validation-status-422", Rule: "§7.1, §7.2", Quote: "| 400 | Validation failure, with codes below |",
			Description: "[8 errors] validation failures answer 422"},
		{Name: "malformed-json-500", Rule: "§7.2", Quote: "| 400 | Validation failure, with codes below |",
			Description: "[8 errors] a body that is not valid JSON answers 500"},

		// ---- legal readings
		{Name: "base-path-v1", Legal: true, Rule: "§9", Quote: "The endpoint pages show the form `v1.0`, and the overview describes the form `v1`.",
			Description: "[legal] the base path is /v1 instead of /v1.0"},
		{Name: "catalogues-require-auth", Legal: true, Rule: "§4.5", Quote: "Its path, parameters and item fields: not shown.",
			Description: "[legal] catalogue endpoints (platforms, currencies, plans, phone-countries, marketapps) need authentication"},
		{Name: "email-match-case-sensitive", Legal: true, Rule: "§2.1, §5", Quote: "Request body of POST /sessions: not shown.",
			Description: "[legal] emails are compared exactly (login and uniqueness), not case-insensitively"},
		{Name: "app-without-hash-refused", Legal: true, Rule: "§1, §4.2", Quote: "Creating an app that does not exist in a store is not supported through the API.",
			Description: "[legal] POST /apps with a name but no marketapp.hash answers 400 InvalidMarketappHash"},
		{Name: "put-client-keeps-omitted-optionals", Legal: true, Rule: "§4.4", Quote: "Body: the same fields as POST /clients.",
			Description: "[legal] PUT /clients keeps addressLine2 and vat when they are omitted (null still clears them)"},
	}
}
