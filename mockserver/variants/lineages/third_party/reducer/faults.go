package reducer

type Fault struct {
	Name        string
	Legal       bool
	Rule        string
	Quote       string
	Description string
}

// faultClass numbers follow the brief: 1 validation and limits, 2
// authentication, 3 permissions and isolation, 4 refused request changes
// nothing, 5 concurrency, 6 equivalent wire forms, 7 round trips, 8 error
// shape and status codes; 0 marks a legal reading.
var faultClass = map[string]int{}

type faultDef struct {
	class int
	Fault
}

var faultDefs = []faultDef{
	// 1. validation and limits
	{1, Fault{"password-length-counts-bytes", false, "§8, §4.1",
		"A password is a String of at least 6 characters.",
		"The minimum length is checked with len() in bytes, so \"ééé\" (3 characters, 6 bytes) is accepted as a password."}},
	{1, Fault{"float-id-truncated", false, "§4.3, §2.2",
		"currency.id | Number | ID of the billing currency",
		"The float64 from map[string]any is converted with int64() without an integral check: currency.id 1.5 (or platform.id 2.7) is read as 1 (2) instead of being refused."}},
	{1, Fault{"terms-case-insensitive", false, "§4.3",
		"Must equal the literal `I agree` to signify acceptance of the terms and conditions.",
		"terms is compared with strings.EqualFold, so \"i AGREE\" is accepted."}},
	{1, Fault{"put-client-app-ignored", false, "§4.4",
		"The `app` property must not be given to this endpoint, so to create an app use POST /apps. (The field table of this endpoint still lists `app`, but the rule is that it is not accepted.)",
		"PUT /clients/:clientId silently ignores an app member instead of refusing the request with 400."}},
	{1, Fault{"null-app-name-stringified", false, "§7.3, §4.2",
		"POST /apps | InvalidName | No app name was provided (the case where neither a marketapp hash nor a name is given)",
		"A non-string name is converted with fmt.Sprint, so name:null without a hash becomes the name \"<nil>\": the marketplace lookup then answers 404 instead of 400 InvalidName."}},
	{1, Fault{"put-user-absent-fields-kept", false, "§2 notation, §4.1, §7.3",
		"`optional` means the field may be omitted.",
		"PUT /users/:userId treats an omitted non-optional member (email, firstName, lastName, subscribe*, timezone, password) as 'keep the stored value' instead of answering 400 (e.g. InvalidLastName: No last name was provided)."}},
	{1, Fault{"marketapp-hash-length-unchecked", false, "§8, §4.2",
		"A marketapp hash is 40 hexadecimal characters long.",
		"Only the hexadecimal alphabet is checked; a 39- or 41-character hash passes validation and is answered 404 (not in the catalogue) instead of 400."}},

	// 2. authentication
	{2, Fault{"api-key-without-scheme-accepted", false, "§5",
		"the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
		"An Authorization header holding the bare key (no api-key scheme) authenticates."}},
	{2, Fault{"session-token-query-ignored", false, "§5",
		"The token is then sent either in the header `session-token` (value `<SESSION_TOKEN>`) or in the query-string argument `sessionToken=<SESSION_TOKEN>`.",
		"Only the session-token header is read; a token sent as ?sessionToken= is answered 401."}},
	{2, Fault{"login-index-keeps-old-password", false, "§4.1, §5",
		"A String of at least 6 characters replaces the password.",
		"PUT /users updates passwordLastChanged but not the credentials index: POST /sessions keeps accepting the old password and refuses the new one."}},
	{2, Fault{"api-key-as-session-token-accepted", false, "§5",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"A value sent in the session-token header that is not a session token is also looked up in the api-key index, so an API key works as a session token."}},

	// 3. permissions and isolation
	{3, Fault{"put-user-ownership-unchecked", false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"PUT /users/:userId does not check that :userId is the caller: account A can rewrite account B."}},
	{3, Fault{"client-check-compares-user-id", false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"Client membership is tested as clientId == caller's user id. Seeded ids coincide, so it looks right until a user owns a client created later (403 on its own new client), or a user id matches a foreign client."}},
	{3, Fault{"user-response-includes-password", false, "§2.1",
		"The password is never returned.",
		"The user object carries a password member read from the credentials index."}},
	{3, Fault{"session-client-membership-unchecked", false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"POST /sessions honours a clientId in the body without checking membership, giving account A a session on account B's client (and so B's apps)."}},

	// 4. a refused request changes nothing
	{4, Fault{"post-clients-invalid-app-keeps-client", false, "§4.3",
		"The request then either creates both or returns an error and creates neither.",
		"The shell runs POST /clients with an app as two commands (client, then app); when the app is refused (400/404) the client already exists."}},
	{4, Fault{"put-user-password-set-before-client-validation", false, "§4.1, §7.2",
		"400 | Validation failure, with codes below",
		"PUT /users writes the new password into the shared credentials trie in place before the body (e.g. its client) is validated; the refused request still changes the password."}},
	{4, Fault{"email-index-moved-before-validation", false, "§4.1, §7.2",
		"400 | Validation failure, with codes below",
		"PUT /users moves the credentials-index entry to the new email in place before validating the rest; after a 400 the new email logs in and the old one does not."}},
	{4, Fault{"client-name-written-before-validation", false, "§4.4, §7.2",
		"400 with code InvalidName, and 401, 403, 404.",
		"PUT /clients writes the new name into the shared client node in place before validating currency/terms; a refused update still renames the client."}},

	// 5. concurrency
	{5, Fault{"cas-replaced-by-store", false, "§2.3, §4",
		"id | Number | ID of the app",
		"The shell publishes with Store instead of CompareAndSwap; two overlapping writes both succeed on the same snapshot and one is lost (duplicate ids, a vanished app or update)."}},
	{5, Fault{"app-id-reserved-before-retry", false, "§2.3, §4.2",
		"id | Number | ID of the app",
		"The shell reserves the next app id from a snapshot before the CAS loop and the retry reuses it: two overlapping POST /apps answer the same id and the second app overwrites the first."}},
	{5, Fault{"email-uniqueness-checked-in-shell", false, "§5 (POST /sessions with the credentials of the account), §4.1",
		"A client obtains a session by POST /sessions with the credentials of the account to use.",
		"E-mail uniqueness is checked by the shell on a snapshot, not by the reducer; two overlapping PUT /users taking the same new e-mail both succeed, after which the e-mail no longer identifies one account."}},
	{5, Fault{"session-write-conflict-ignored", false, "§5",
		"The response is the session object of section 2.4, whose `token` is the session token.",
		"POST /sessions tries the CAS once and answers 200 even when it lost; under overlapping writes the returned token was never stored and is answered 401."}},

	// 6. equivalent wire forms
	{6, Fault{"content-type-parameters-rejected", false, "§1, §4",
		"Request and response bodies are JSON.",
		"Content-Type is compared with the exact string application/json: \"application/json; charset=utf-8\" (or \"Application/JSON\") is answered 415."}},
	{6, Fault{"accept-wildcard-rejected", false, "§1, §4",
		"Every endpoint below returns HTTP 200 on success.",
		"An Accept header not containing the literal application/json (e.g. */* or application/*) is answered 406."}},
	{6, Fault{"chunked-body-ignored", false, "§4",
		"Requests carrying a body use JSON.",
		"The shell reads the body only when Content-Length > 0; a chunked request body is treated as empty and answered 400."}},
	{6, Fault{"json-decimal-id-rejected", false, "§4.3, §1",
		"currency.id | Number | ID of the billing currency",
		"Bodies are decoded with UseNumber and ids parsed with ParseInt, so the equivalent JSON numbers 1.0 and 1e0 are refused with 400."}},

	// 7. round trips
	{7, Fault{"email-lowercased-on-store", false, "§2.1, §4.1",
		"email | String | Email address",
		"The e-mail is stored lowercased; the user object returns \"Alice@Example.com\" as \"alice@example.com\"."}},
	{7, Fault{"password-trimmed-on-store", false, "§4.1, §5",
		"A String of at least 6 characters replaces the password.",
		"The stored password is strings.TrimSpace'd; logging in with the password exactly as set (with a leading or trailing space) fails."}},
	{7, Fault{"email-index-not-updated-on-change", false, "§4.1, §5",
		"Updates a user, for example the email address or password.",
		"PUT /users changes the user's email but not the credentials-index key: POST /sessions with the new email is 401, the old email still works."}},
	{7, Fault{"name-length-counts-bytes", false, "§8",
		"Every string field marked `..255` is at most 255 characters long.",
		"..255 limits are checked with len() in bytes: a 200-character name of \"é\" is refused."}},
	{7, Fault{"password-last-changed-on-every-put", false, "§2.1, §4.1",
		"passwordLastChanged | String | ISO 8601 date the password last changed",
		"The shell clock is written to passwordLastChanged on every PUT /users, also when password is null (kept)."}},

	// 8. error shape and status codes
	{8, Fault{"validation-error-object-not-array", false, "§7.1",
		"A 400 response (HTTP 400 Bad Request) has a body that is a JSON array.",
		"400 bodies are {\"errors\":[...]} instead of the bare array."}},
	{8, Fault{"missing-auth-403", false, "§5, §7.2",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"A request without any credentials is answered 403 (bad credentials are still 401)."}},
	{8, Fault{"foreign-user-404", false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"PUT /users/:userId of another existing user is answered 404 instead of 403."}},
	{8, Fault{"version-segment-unchecked", false, "§9",
		"a new major version (for example `v2`) is incompatible with `v1.1`.",
		"The hand-written path splitter drops the first segment whatever it is, so /v2/users/1 (or /anything/...) is served instead of 404."}},

	// legal readings
	{0, Fault{"unknown-id-403", true, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"An id that does not exist (user, client, app, session clientId) is answered 403 rather than 404: the caller may not view it either, and existence is not revealed."}},
	{0, Fault{"password-change-revokes-sessions", true, "§5",
		"Token lifetime and expiry: not shown.",
		"Changing the password (PUT /users with a string password) ends every other session of that user; the session making the request and API keys keep working."}},
	{0, Fault{"put-client-absent-optional-kept", true, "§4.4, §2.2",
		"Body: the same fields as POST /clients.",
		"On PUT /clients an omitted optional member (addressLine2, vat) keeps its stored value instead of being cleared; null still clears."}},
	{0, Fault{"collection-wrapper-adds-count", true, "§2.5",
		"Some collections may add other properties, such as a page number or the size of the result set.",
		"Every collection wrapper also carries count (size of the result set) and page (1)."}},
	{0, Fault{"non-json-content-type-415", true, "§4",
		"Requests carrying a body use JSON.",
		"A request with a body must declare a JSON media type (application/json or */*+json, any parameters, any case); otherwise, or when Content-Type is missing, 415."}},
}

func init() {
	for _, d := range faultDefs {
		faultClass[d.Name] = d.class
	}
}

func Faults() []Fault {
	out := make([]Fault, len(faultDefs))
	for i, d := range faultDefs {
		out[i] = d.Fault
	}
	return out
}

func knownFault(name string) bool {
	_, ok := faultClass[name]
	return ok
}
