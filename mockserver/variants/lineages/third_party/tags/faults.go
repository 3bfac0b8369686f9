package tags

// Fault describes one switchable deviation from the correct server.
type Fault struct {
	Name        string
	Legal       bool
	Rule        string
	Quote       string
	Description string
}

// Fault names (kept as constants so the code and the table agree).
const (
	// 1 validation and limits
	fMaxLenBytes       = "max-length-counts-bytes"
	fPasswordMin5      = "password-min-length-5"
	fEmptyPassRequired = "empty-string-passes-required"
	fTermsCaseInsens   = "terms-case-insensitive"
	fHashUnanchored    = "marketapp-hash-regexp-unanchored"
	fEmailNoDomain     = "email-without-domain-accepted"
	// 2 authentication
	fAPIKeyAnyScheme    = "api-key-any-scheme"
	fAPIKeyPrefixOnly   = "api-key-secret-part-unchecked"
	fQueryTokenIgnored  = "session-token-query-ignored"
	fOldPasswordLogin   = "login-old-password-still-valid"
	fValidateBeforeAuth = "validate-before-auth"
	// 3 permissions and isolation
	fPutOtherUser       = "put-user-other-user-allowed"
	fPutClientNoMember  = "put-client-membership-unchecked"
	fPasswordHashLeak   = "user-response-includes-password-hash"
	fListAppsAllClients = "list-apps-all-clients"
	// 4 refused request changes nothing
	fClientKeptOnAppFail   = "post-clients-keeps-client-when-app-fails"
	fUserSavedBeforeClient = "put-user-saved-before-client-fails"
	fMutatesStoredRecord   = "put-user-mutates-stored-record"
	// 5 concurrency
	fAppIDRace        = "app-id-allocation-race"
	fEmailUniqueRace  = "email-uniqueness-race"
	fClientLostUpdate = "put-client-lost-update"
	// 6 equivalent wire forms
	fContentTypeParams = "content-type-params-rejected"
	fAcceptExact       = "accept-header-exact-match"
	fChunkedEmpty      = "chunked-body-treated-empty"
	fKeysCaseInsens    = "json-keys-case-insensitive"
	fTermsRawJSON      = "terms-checked-on-raw-json"
	fIntegralFloat     = "json-integral-float-id-rejected"
	// 7 round trips
	fPasswordTrimmed = "password-stored-trimmed"
	fNamesHTMLEscape = "names-html-escaped-on-store"
	fEmailIndexStale = "email-index-not-updated"
	fOmitemptyFlags  = "omitempty-drops-false-flags"
	// 8 error shape and status codes
	fErrorObject = "error-body-object-not-array"
	fForeign404  = "foreign-resource-404"
	fFieldNameGo = "error-fieldname-go-name"
	fNullBody500 = "null-body-panics-500"
	fUnauth403   = "unauthenticated-403"
	// legal readings
	lRevokeOnPassword = "password-change-revokes-sessions"
	lSchemeCaseSens   = "api-key-scheme-case-sensitive"
	lUnknownHash400   = "unknown-marketapp-hash-400"
	lWhitespaceNameOK = "whitespace-name-accepted"
)

var faultTable = []Fault{
	// ---- 1 validation and limits
	{fMaxLenBytes, false, "§8, §2.2",
		"Every string field marked `..255` is at most 255 characters long.",
		"class 1: the validator's max=255 rule uses len() (UTF-8 bytes), so a 255-character name of non-ASCII letters is refused with 400."},
	{fPasswordMin5, false, "§8, §4.1",
		"A password is a String of at least 6 characters.",
		"class 1: the validator's min rule is off by one: a 5-character password is accepted on PUT /users and POST /users."},
	{fEmptyPassRequired, false, "§7.3",
		"InvalidName | The name was not provided",
		"class 1: the reflection validator's `required` rule only checks for a nil pointer, so an empty string \"\" passes for every required string (client name, firstName, lastName, address fields)."},
	{fTermsCaseInsens, false, "§4.3",
		"Must equal the literal `I agree` to signify acceptance of the terms and conditions.",
		"class 1: terms is compared with strings.EqualFold, so \"i agree\" is accepted."},
	{fHashUnanchored, false, "§8, §4.2",
		"A marketapp hash is 40 hexadecimal characters long.",
		"class 1: the hash regexp is not anchored, so a 41-character or prefixed hash passes format validation (answered 404 by the catalogue lookup instead of 400)."},
	{fEmailNoDomain, false, "§7.3",
		"InvalidEmail | The email address is invalid",
		"class 1: the email rule only checks for an '@', so \"someone@\" or \"@x\" is stored."},
	// ---- 2 authentication
	{fAPIKeyAnyScheme, false, "§5",
		"Endpoint header scheme: the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
		"class 2: the auth middleware takes the last space-separated word of Authorization (or the whole value), so `Bearer <KEY>` and a bare `<KEY>` authenticate."},
	{fAPIKeyPrefixOnly, false, "§5",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"class 2: API keys are looked up by their public key-id part `pk_<id>_` only; the secret part after it is not compared, so a forged key with the right id authenticates."},
	{fQueryTokenIgnored, false, "§5",
		"The token is then sent either in the header `session-token` (value `<SESSION_TOKEN>`) or in the query-string argument `sessionToken=<SESSION_TOKEN>`.",
		"class 2: only the session-token header is read; ?sessionToken= is ignored (401)."},
	{fOldPasswordLogin, false, "§5, §4.1",
		"A String of at least 6 characters replaces the password.",
		"class 2: POST /sessions checks a credentials cache filled at account creation that PUT /users never updates, so the old password still logs in after a change."},
	{fValidateBeforeAuth, false, "§5, §7.2",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"class 2: middleware order: the body is decoded and validated before authentication, so an unauthenticated request with an invalid body gets 400 instead of 401."},
	// ---- 3 permissions and isolation
	{fPutOtherUser, false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"class 3: PUT /users/:userId does not compare :userId with the caller, so account A can update account B's user."},
	{fPutClientNoMember, false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"class 3: PUT /clients/:clientId does not check membership, so account A can rename account B's client."},
	{fPasswordHashLeak, false, "§2.1",
		"The password is never returned.",
		"class 3: the stored user struct is marshalled with a `passwordHash` json tag, so the user object carries the password hash."},
	{fListAppsAllClients, false, "§5",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"class 3: GET /apps lists every app in the repository instead of the caller's clients' apps, so B sees A's apps and write keys."},
	// ---- 4 refused request changes nothing
	{fClientKeptOnAppFail, false, "§4.3",
		"The request then either creates both or returns an error and creates neither.",
		"class 4: POST /clients inserts the client before validating/creating the app; when the app part fails the error is returned but the client (and the id) remain."},
	{fUserSavedBeforeClient, false, "§4.1, §4.3",
		"If provided, a client account is created too, with the body of POST /clients",
		"class 4: PUT /users saves the user fields before validating the embedded client; a 400 for client.name leaves the user changed."},
	{fMutatesStoredRecord, false, "§7.2, §4.1",
		"400 | Validation failure, with codes below",
		"class 4: the user repository hands out the stored *User; PUT /users applies the body to it field by field and only then validates, so a 400 (e.g. bad email) keeps the earlier fields (firstName) changed."},
	// ---- 5 concurrency
	{fAppIDRace, false, "§2.3",
		"id | Number | ID of the app",
		"class 5: the app id is read from the counter in one locked step and stored in another (a few ms apart), so two overlapping POST /apps return the same id and one app overwrites the other."},
	{fEmailUniqueRace, false, "§7.3",
		"InvalidEmail | The email address is invalid",
		"class 5: e-mail uniqueness is checked under a read lock and the user written later, so two overlapping PUT /users setting the same email on two users both succeed."},
	{fClientLostUpdate, false, "§4.4",
		"Updates the details or settings of a client, including name, address and currency.",
		"class 5: PUT /clients reads a copy, merges the body, waits, then writes the whole copy back; two overlapping updates that each set a different optional field (addressLine2, vat) and omit the other lose one of them."},
	// ---- 6 equivalent wire forms
	{fContentTypeParams, false, "§4, §1",
		"Requests carrying a body use JSON.",
		"class 6: Content-Type is compared as a whole string, so `application/json; charset=utf-8` is refused with 415."},
	{fAcceptExact, false, "§1",
		"Request and response bodies are JSON.",
		"class 6: Accept must be absent or exactly `application/json`; `*/*`, `application/*` or a list are refused with 406."},
	{fChunkedEmpty, false, "§4",
		"Requests carrying a body use JSON.",
		"class 6: the body is read only when Content-Length > 0, so a chunked request body is treated as empty (400 InvalidJson)."},
	{fKeysCaseInsens, false, "§2, §4",
		"name | String | ..255",
		"class 6: bodies are decoded with encoding/json's case-insensitive member matching, so `NAME` or `Name` is taken as `name`."},
	{fTermsRawJSON, false, "§4.3",
		"Must equal the literal `I agree` to signify acceptance of the terms and conditions.",
		"class 6: terms is checked by searching the raw body for `\"terms\":\"I agree\"`, so whitespace after the colon or an escape like `I\\u0020agree` is refused."},
	{fIntegralFloat, false, "§4.3, §4.2",
		"currency.id | Number | ID of the billing currency",
		"class 6: numeric ids are decoded straight into Go int, so the JSON number `1.0` (or `1e0`) is refused with 400."},
	// ---- 7 round trips
	{fPasswordTrimmed, false, "§4.1",
		"A String of at least 6 characters replaces the password.",
		"class 7: the new password is stored with surrounding spaces trimmed, so logging in with the password exactly as set fails."},
	{fNamesHTMLEscape, false, "§2.1, §2.2",
		"firstName | String | First name",
		"class 7: names (firstName, lastName, client name) are html-escaped on store, so `Tom & Jerry` reads back as `Tom &amp; Jerry`."},
	{fEmailIndexStale, false, "§4.1, §5",
		"Updates a user, for example the email address or password.",
		"class 7: the repository's email index is not updated on PUT /users, so after an email change login with the new email fails (and the old one still works)."},
	{fOmitemptyFlags, false, "§2.1",
		"subscribeBlog | Boolean | Email preference",
		"class 7: the response struct tags the subscribe* flags `omitempty`, so a flag set to false is missing from the user object."},
	// ---- 8 error shape and status
	{fErrorObject, false, "§7.1",
		"A 400 response (HTTP 400 Bad Request) has a body that is a JSON array.",
		"class 8: 400 bodies are wrapped as {\"errors\":[...]}."},
	{fForeign404, false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"class 8: another account's user or client is answered 404 instead of 403."},
	{fFieldNameGo, false, "§7.1",
		"fieldName | String | Name of the offending body field",
		"class 8: the reflection validator reports the Go struct field name (`FirstName`, `Client.Name`) instead of the json name."},
	{fNullBody500, false, "§7.2",
		"400 | Validation failure, with codes below",
		"class 8: a JSON `null` body decodes to a nil struct pointer that the handler dereferences; recover answers 500 instead of 400."},
	{fUnauth403, false, "§5",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"class 8: a missing or unknown credential is answered 403 instead of 401."},
	// ---- legal readings
	{lRevokeOnPassword, true, "§5",
		"Token lifetime and expiry: not shown.",
		"legal: changing the password through PUT /users ends every session of that user (their tokens answer 401); API keys keep working."},
	{lSchemeCaseSens, true, "§5",
		"the request carries the header `Authorization` with the value `api-key <API_KEY>`",
		"legal: the scheme must be written exactly `api-key` (correct server: case-insensitive per RFC 7235)."},
	{lUnknownHash400, true, "§4.2, §7.3",
		"Further validation codes for POST /apps and for the address, currency and terms fields of the client endpoints: not shown.",
		"legal: a well-formed marketapp hash that is not in the catalogue is answered 400 InvalidMarketappHash instead of 404."},
	{lWhitespaceNameOK, true, "§7.3",
		"InvalidName | The name was not provided",
		"legal: a required string made only of whitespace (client name, firstName, lastName, address fields, phoneNumber) counts as provided and is stored as sent (correct server: whitespace-only = not provided; the app-name check of POST /apps is unchanged)."},
}

// Faults lists every switchable fault, wrong ones first then legal readings.
func Faults() []Fault {
	out := make([]Fault, len(faultTable))
	copy(out, faultTable)
	return out
}

func knownFault(name string) bool {
	for _, f := range faultTable {
		if f.Name == name {
			return true
		}
	}
	return false
}
