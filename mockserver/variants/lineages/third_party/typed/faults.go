package typed

// Fault names. F* are wrong behaviours, L* are legal readings.
const (
	// 1 validation and limits
	FMaxCountsBytes       = "max-length-counts-bytes"
	FPasswordMinBytes     = "password-min-counts-bytes"
	FRequiredRejectsFalse = "required-rejects-false-boolean"
	FTermsCaseInsensitive = "terms-compared-case-insensitively"
	FNullCurrencyPanics   = "null-currency-object-panics"
	// 2 authentication
	FAuthAfterValidation  = "auth-checked-after-body-validation"
	FAPIKeyPrefix         = "api-key-prefix-accepted"
	FSessionQueryIgnored  = "session-query-param-ignored"
	FLoginMissingPassword = "login-missing-password-accepted"
	// 3 permissions and isolation
	FPutUserNoOwnerCheck   = "put-user-skips-owner-check"
	FPutClientNoMember     = "put-client-skips-member-check"
	FUserLeaksPasswordHash = "user-json-leaks-password-hash"
	FWriteKeyFromHash      = "write-key-derived-from-marketapp"
	FSharedPhoneCountry    = "decode-into-shared-phone-country"
	// 4 a refused request changes nothing
	FClientBeforeApp       = "client-created-before-app-validated"
	FUserBeforeClient      = "user-saved-before-client-validated"
	FClientUpdateBeforeApp = "client-updated-before-app-rejected"
	// 5 concurrency
	FAppIDRace        = "app-id-counter-race"
	FEmailUniqueRace  = "email-unique-check-race"
	FPasswordLostUpd  = "password-lost-update"
	FSessionTokenRace = "session-token-counter-race"
	// 6 equivalent wire forms
	FContentTypeParams  = "content-type-params-rejected"
	FAcceptListRejected = "accept-list-rejected"
	FChunkedBodyEmpty   = "chunked-body-read-as-empty"
	FJSONKeysCI         = "json-keys-case-insensitive"
	FPasswordNullSubstr = "password-null-detected-by-substring"
	FAppKeySubstr       = "app-key-detected-by-substring"
	// 7 round trips
	FEmailLowercased    = "email-lowercased-on-store"
	FPasswordTrimmed    = "password-trimmed-on-set"
	FLoginIndexStale    = "login-index-stale-after-email-change"
	FEmptyOptionalOmits = "optional-empty-string-omitted"
	// 8 error shape and status codes
	FErrorObject      = "error-object-not-array"
	FErrorGoFieldName = "error-field-name-go-style"
	FForeign404       = "foreign-resource-404"
	FUnauth403        = "unauthenticated-403"

	// legal readings
	LBasePathV1             = "base-path-v1"
	LFirstErrorOnly         = "first-error-only"
	LEmailLoginCI           = "email-login-case-insensitive"
	LWhitespaceNameAccepted = "whitespace-only-name-accepted"
	LAPIKeySchemeExact      = "api-key-scheme-exact-case"
)

// FaultClass maps every wrong fault to its class (1..8) of the brief.
var faultClass = map[string]int{}

var faultList = []Fault{
	// ---- 1 validation and limits
	{FMaxCountsBytes, false, "§8, §2.2, §4.1",
		"Every string field marked `..255` is at most 255 characters long.",
		"The validator's max=255 rule uses len(s), counting UTF-8 bytes, so a 200-character name of non-ASCII letters is refused with 400."},
	{FPasswordMinBytes, false, "§8, §4.1",
		"A password is a String of at least 6 characters.",
		"The min=6 rule counts bytes, so a password of 3 two-byte characters (6 bytes, 3 characters) is accepted."},
	{FRequiredRejectsFalse, false, "§4.1",
		"subscribeWelcome | Boolean | Email preference",
		"The reflection validator's `required` rule tests reflect.Value.IsZero on the pointed-to value, so an explicit false for a subscribe* Boolean is reported as missing (400)."},
	{FTermsCaseInsensitive, false, "§4.3",
		"Must equal the literal `I agree` to signify acceptance of the terms and conditions.",
		"terms is compared with strings.EqualFold, so \"i AGREE\" is accepted."},
	{FNullCurrencyPanics, false, "§4.3, §7.2",
		"400 | Validation failure, with codes below",
		"currency is not checked for presence and the handler dereferences req.Currency.ID; a body with \"currency\": null (or no currency) panics and the recover middleware answers 500 instead of 400."},
	// ---- 2 authentication
	{FAuthAfterValidation, false, "§5",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"Middleware order: the body is decoded and validated before authentication, so an unauthenticated request with an invalid body gets 400 instead of 401."},
	{FAPIKeyPrefix, false, "§5",
		"the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
		"The API key is matched with strings.HasPrefix against stored keys, so any non-empty prefix of a key (e.g. its first 8 characters) authenticates."},
	{FSessionQueryIgnored, false, "§5",
		"The token is then sent either in the header `session-token` (value `<SESSION_TOKEN>`) or in the query-string argument `sessionToken=<SESSION_TOKEN>`.",
		"Only the session-token header is read; ?sessionToken= is ignored and the request gets 401."},
	{FLoginMissingPassword, false, "§5",
		"A client obtains a session by POST /sessions with the credentials of the account to use.",
		"POST /sessions decodes password into a *string and only checks it when non-nil, so a body with the email alone opens a session."},
	// ---- 3 permissions and isolation
	{FPutUserNoOwnerCheck, false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"PUT /users/:userId checks only that the user exists; account A can update account B (including its password)."},
	{FPutClientNoMember, false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"PUT /clients/:clientId does not check membership; any authenticated user can rename another account's client."},
	{FUserLeaksPasswordHash, false, "§2.1",
		"The password is never returned.",
		"The user view embeds the stored password hash under \"passwordHash\" (a struct field missing its json:\"-\" tag)."},
	{FWriteKeyFromHash, false, "§2.3, §5",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"writeKey is md5(marketapp hash), so two accounts creating apps from the same marketplace app get the same write key: one account learns the secret of another's app. Visible only with two accounts."},
	{FSharedPhoneCountry, false, "§2.1",
		"phoneCountry.name | String | Name of the country code, includes the dial code in brackets",
		"PUT /users decodes the request's phoneCountry object into the catalogue entry the handler looked up (a pointer shared by all users), so a name sent by account A changes phoneCountry.name for account B too."},
	// ---- 4 a refused request changes nothing
	{FClientBeforeApp, false, "§4.3",
		"The request then either creates both or returns an error and creates neither.",
		"POST /clients stores the client (and membership) before validating the embedded app; a refused app leaves the client behind."},
	{FUserBeforeClient, false, "§4.1, §7.2",
		"If provided, a client account is created too, with the body of POST /clients",
		"PUT /users saves the user changes before validating the embedded client; a 400 for the client still leaves the user changed."},
	{FClientUpdateBeforeApp, false, "§4.4",
		"The `app` property must not be given to this endpoint, so to create an app use POST /apps.",
		"PUT /clients applies the update and only then rejects the app property with 400, so the refused request changed the client."},
	// ---- 5 concurrency
	{FAppIDRace, false, "§2.3",
		"id | Number | ID of the app",
		"App ids come from read-counter / write-counter in two locked steps; concurrent POST /apps get the same id and the later app overwrites the earlier."},
	{FEmailUniqueRace, false, "§4.1, §5",
		"A client obtains a session by POST /sessions with the credentials of the account to use.",
		"Email uniqueness is checked before, not inside, the update; two users changing to the same email concurrently both succeed, and login by that email then reaches only one of them."},
	{FPasswordLostUpd, false, "§4.1",
		"A String of at least 6 characters replaces the password. `null` keeps the existing password",
		"PUT /users reads a copy of the user, works, then saves the whole copy; a concurrent PUT with password null overwrites a password change made in between."},
	{FSessionTokenRace, false, "§2.4, §5",
		"The response is the session object of section 2.4, whose `token` is the session token.",
		"Session tokens are derived from a counter read and incremented in separate steps; two concurrent logins get the same token, which then authenticates as whichever session was stored last."},
	// ---- 6 equivalent wire forms
	{FContentTypeParams, false, "§1, §4",
		"Requests carrying a body use JSON.",
		"Content-Type is compared as the exact string application/json; \"application/json; charset=utf-8\" gets 415."},
	{FAcceptListRejected, false, "§1",
		"Request and response bodies are JSON.",
		"Accept must be exactly application/json or */*; a list such as \"text/html, application/json\" gets 406."},
	{FChunkedBodyEmpty, false, "§4",
		"Requests carrying a body use JSON.",
		"The body is read as make([]byte, r.ContentLength); a chunked request (ContentLength -1) is read as empty and refused with 400."},
	{FJSONKeysCI, false, "§4.1, §4.3",
		"InvalidFirstName | No first name was provided",
		"encoding/json matches member names case-insensitively; \"FIRSTNAME\" is taken as firstName instead of being ignored."},
	{FPasswordNullSubstr, false, "§4.1",
		"`null` keeps the existing password",
		"Password null is detected by searching the raw body for `\"password\":null`; with whitespace (`\"password\": null`) the request is refused with InvalidPassword."},
	{FAppKeySubstr, false, "§4.4",
		"The `app` property must not be given to this endpoint",
		"PUT /clients detects the app property by searching the raw body for `\"app\"`: a name equal to \"app\" is refused, while a member written \"\\u0061pp\" slips through."},
	// ---- 7 round trips
	{FEmailLowercased, false, "§2.1, §4.1",
		"email | String | Email address",
		"The email is lower-cased before it is stored, so it is read back different from what was sent."},
	{FPasswordTrimmed, false, "§4.1, §5",
		"A String of at least 6 characters replaces the password.",
		"The new password is strings.TrimSpace'd before hashing; logging in with the password exactly as set (with its spaces) fails."},
	{FLoginIndexStale, false, "§4.1, §5",
		"Updates a user, for example the email address or password.",
		"The email->user login index is filled at creation and not updated by PUT /users; after an email change the new email cannot log in."},
	{FEmptyOptionalOmits, false, "§2.2",
		"addressLine2 | optional String | ..255",
		"Optional strings are stored as string with `omitempty`; an addressLine2 or vat set to \"\" disappears from the answer."},
	// ---- 8 error shape and status codes
	{FErrorObject, false, "§7.1",
		"A 400 response (HTTP 400 Bad Request) has a body that is a JSON array.",
		"A 400 answers with the first error as a bare object, not an array."},
	{FErrorGoFieldName, false, "§7.1",
		"fieldName | String | Name of the offending body field",
		"fieldName is taken from the reflect.StructField name (\"FirstName\", \"Currency.ID\") instead of the JSON member name."},
	{FForeign404, false, "§5, §7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"Another account's existing user/client/app answers 404 instead of 403."},
	{FUnauth403, false, "§5, §7.2",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"Missing or bad credentials answer 403 instead of 401."},

	// ---- legal readings
	{LBasePathV1, true, "§9",
		"The endpoint pages show the form `v1.0`, and the overview describes the form `v1`.",
		"The base path is /api/v1 (the overview's form) instead of /api/v1.0; /api/v1.0 is then 404."},
	{LFirstErrorOnly, true, "§7.1",
		"A 400 response (HTTP 400 Bad Request) has a body that is a JSON array.",
		"Validation stops at the first failing field: the array always has exactly one element."},
	{LEmailLoginCI, true, "§5",
		"Request body of POST /sessions: not shown.",
		"POST /sessions matches the email case-insensitively (the email is still stored and returned as sent)."},
	{LWhitespaceNameAccepted, true, "§7.3",
		"InvalidName | The name was not provided",
		"A name (client name, app name, firstName, lastName) made only of spaces counts as provided; only \"\", null or absence give the Invalid*Name code."},
	{LAPIKeySchemeExact, true, "§5",
		"the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
		"The scheme must be written exactly `api-key` (lower case); `API-Key <key>` gets 401. (The correct server compares the scheme case-insensitively, as HTTP auth schemes are.)"},
}

func init() {
	classes := []struct {
		c     int
		names []string
	}{
		{1, []string{FMaxCountsBytes, FPasswordMinBytes, FRequiredRejectsFalse, FTermsCaseInsensitive, FNullCurrencyPanics}},
		{2, []string{FAuthAfterValidation, FAPIKeyPrefix, FSessionQueryIgnored, FLoginMissingPassword}},
		{3, []string{FPutUserNoOwnerCheck, FPutClientNoMember, FUserLeaksPasswordHash, FWriteKeyFromHash, FSharedPhoneCountry}},
		{4, []string{FClientBeforeApp, FUserBeforeClient, FClientUpdateBeforeApp}},
		{5, []string{FAppIDRace, FEmailUniqueRace, FPasswordLostUpd, FSessionTokenRace}},
		{6, []string{FContentTypeParams, FAcceptListRejected, FChunkedBodyEmpty, FJSONKeysCI, FPasswordNullSubstr, FAppKeySubstr}},
		{7, []string{FEmailLowercased, FPasswordTrimmed, FLoginIndexStale, FEmptyOptionalOmits}},
		{8, []string{FErrorObject, FErrorGoFieldName, FForeign404, FUnauth403}},
	}
	for _, c := range classes {
		for _, n := range c.names {
			faultClass[n] = c.c
		}
	}
}

// Faults lists every switchable behaviour: wrong ones first, then legal readings.
func Faults() []Fault {
	out := make([]Fault, len(faultList))
	copy(out, faultList)
	return out
}
