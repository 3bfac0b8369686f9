package documents

import "github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"

// Fault is one switchable departure of the server.
type Fault lineage.BlindFault

const (
	// validation and limits
	fPasswordFiveCharsAccepted = "password-five-chars-accepted"
	fLengthLimitCountsBytes    = "length-limit-counts-bytes"
	fAppNameRequiredWithHash   = "app-name-required-with-hash"
	fMarketappHashHexUnchecked = "marketapp-hash-hex-unchecked"
	fOnlyFirstErrorReported    = "only-first-error-reported"

	// authentication and permission
	fSessionTokenQueryIgnored = "session-token-query-ignored"
	fSessionTokenAsAPIKey     = "session-token-accepted-as-api-key"
	fMissingUserAnswers403    = "missing-user-answers-403"
	fAPIKeyShadowsBadToken    = "api-key-shadows-bad-session-token"

	// state over time
	fOldPasswordStillLogsIn            = "old-password-still-logs-in"
	fOldEmailStillLogsIn               = "old-email-still-logs-in"
	fMixedCaseEmailCannotLogIn         = "mixed-case-email-cannot-log-in"
	fRefusedUserUpdatePartiallyApplied = "refused-user-update-partially-applied"
	fClientKeptWhenAppInvalid          = "client-kept-when-app-invalid"

	// concurrency
	fUserUpdateLostUpdate      = "user-update-lost-update"
	fAppIDCollision            = "app-id-collision"
	fEmailUniquenessRace       = "email-uniqueness-race"
	fAppResponseFromSharedSlot = "app-response-from-shared-slot"

	// isolation and secrecy
	fPasswordHashInUser         = "password-hash-in-user"
	fForbiddenUserEchoesEmail   = "forbidden-user-echoes-email"
	fDuplicateEmailRevealsOwner = "duplicate-email-reveals-owner"

	// the HTTP and JSON wire
	fAcceptWildcard406          = "accept-wildcard-406"
	fContentTypeCharset415      = "content-type-charset-415"
	fChunkedBodyIgnored         = "chunked-body-ignored"
	fCreateApp201               = "create-app-201"
	fTermsUnicodeEscapeRejected = "terms-unicode-escape-rejected"

	// representation
	fUserIDAsString         = "user-id-as-string"
	fSessionDateRFC1123     = "session-date-rfc1123"
	fPlatformNameLowercase  = "platform-name-lowercase"
	fPlanNeedBillingOmitted = "plan-needbilling-omitted"

	// legal readings
	fOnlyV1BasePath                  = "only-v1-base-path"
	fPasswordChangeEndsOtherSessions = "password-change-ends-other-sessions"
	fCollectionsCarryPageAndTotal    = "collections-carry-page-and-total"
	fWriteKeyUpperCase               = "write-key-upper-case"
	fReferencePublic                 = "reference-collections-public"
)

var faults = []Fault{
	{fPasswordFiveCharsAccepted, false, "4.1, 8",
		"A password is a String of at least 6 characters.",
		"PUT /users/:userId accepts a password of exactly 5 characters (an off-by-one in the minimum)."},
	{fLengthLimitCountsBytes, false, "8",
		"Every string field marked `..255` is at most 255 characters long.",
		"The 255 limit is checked on UTF-8 bytes, so a name of 255 or fewer accented characters is refused."},
	{fAppNameRequiredWithHash, false, "4.2, 7.3",
		"No app name was provided (the case where neither a marketapp hash nor a name is given)",
		"POST /apps answers 400 InvalidName when a valid marketapp hash is given without a name."},
	{fMarketappHashHexUnchecked, false, "2.3, 4.2, 8",
		"A marketapp hash is 40 hexadecimal characters long.",
		"The marketapp hash is checked for length only, so 40 non-hexadecimal characters create an app."},
	{fOnlyFirstErrorReported, false, "7.1, 7.3",
		"A 400 response (HTTP 400 Bad Request) has a body that is a JSON array. Each element is an object with these fields: fieldName | Name of the offending body field",
		"A 400 answer lists only the first offending field even when several fields are invalid."},

	{fSessionTokenQueryIgnored, false, "5",
		"The token is then sent either in the header `session-token` (value `<SESSION_TOKEN>`) or in the query-string argument `sessionToken=<SESSION_TOKEN>`.",
		"A session token in the sessionToken query argument is not looked at, so such requests answer 401."},
	{fSessionTokenAsAPIKey, false, "5",
		"Endpoint header scheme: the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
		"A session token presented as `Authorization: api-key <token>` is accepted as if it were an api key."},
	{fMissingUserAnswers403, false, "7.2, 4.1",
		"404 | Resource not found",
		"PUT or GET /users/:userId of a user that does not exist answers 403 instead of 404, because ownership is checked before existence."},
	{fAPIKeyShadowsBadToken, false, "5",
		"When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
		"When a valid api key is present, an invalid session token sent alongside it is ignored and the request succeeds."},

	{fOldPasswordStillLogsIn, false, "4.1, 5",
		"A String of at least 6 characters replaces the password.",
		"After a password change, POST /sessions still accepts the previous password as well as the new one."},
	{fOldEmailStillLogsIn, false, "4.1, 5",
		"Updates a user, for example the email address or password.",
		"After an email change, the old email still logs in (and stays reserved), because the old index entry is never removed."},
	{fMixedCaseEmailCannotLogIn, false, "4.1, 5",
		"A client obtains a session by POST /sessions with the credentials of the account to use.",
		"An email stored with capital letters no longer logs in when typed exactly as stored, because the index holds it lower-cased but the login looks it up as typed."},
	{fRefusedUserUpdatePartiallyApplied, false, "4.1, 7.2",
		"400 | Validation failure, with codes below",
		"A PUT /users/:userId refused with 400 still saves the valid fields of its body (all but email and password)."},
	{fClientKeptWhenAppInvalid, false, "4.3",
		"The request then either creates both or returns an error and creates neither.",
		"POST /clients with an invalid app answers 400 but still creates the client and makes the caller its member."},

	{fUserUpdateLostUpdate, false, "4.1",
		"Updates a user, for example the email address or password.",
		"PUT /users/:userId writes back a copy read before a store latency without holding the lock, so of two overlapping updates of different fields one is lost."},
	{fAppIDCollision, false, "2.3, 4.2",
		"id | Number | ID of the app",
		"App ids are allocated as the next free id read before the write, so two overlapping creates can get the same id and one app overwrites the other."},
	{fEmailUniquenessRace, false, "4.1, 5",
		"A client obtains a session by POST /sessions with the credentials of the account to use.",
		"The email-uniqueness check and the index write are separated by store latency, so two users changing to one email at once both succeed."},
	{fAppResponseFromSharedSlot, false, "4.2, 5",
		"Response 200: the app object of section 2.3.",
		"POST /apps answers the app read back from a slot shared by all requests, so an overlapping create can hand one caller another account's app and write key."},

	{fPasswordHashInUser, false, "2.1",
		"The password is never returned.",
		"The user object carries an extra passwordHash member with the stored hash of the password."},
	{fForbiddenUserEchoesEmail, false, "5, 7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"The 403 for another account's user names that user's id and email address in its message."},
	{fDuplicateEmailRevealsOwner, false, "5, 7.2",
		"When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
		"The InvalidEmail error for an email already in use names the id of the user holding it."},

	{fAcceptWildcard406, false, "1, 4",
		"Every endpoint below returns HTTP 200 on success.",
		"A request whose Accept header is present but does not start with application/json (such as */*) is answered 406."},
	{fContentTypeCharset415, false, "1, 4",
		"Requests carrying a body use JSON.",
		"A body sent with Content-Type other than exactly application/json (such as application/json; charset=utf-8) is refused with 415."},
	{fChunkedBodyIgnored, false, "1, 4",
		"Requests carrying a body use JSON.",
		"A body sent with chunked transfer encoding (no Content-Length) is read as empty and refused with 400."},
	{fCreateApp201, false, "4, 4.2",
		"Every endpoint below returns HTTP 200 on success.",
		"POST /apps answers 201 Created instead of 200."},
	{fTermsUnicodeEscapeRejected, false, "4.3",
		"Must equal the literal `I agree` to signify acceptance of the terms and conditions.",
		"terms is compared as raw JSON text, so \"I\\u0020agree\" (the same string, escaped) is refused with InvalidTerms."},

	{fUserIDAsString, false, "2.1",
		"id | Number | ID of the user",
		"The user object gives its id as a JSON string of digits."},
	{fSessionDateRFC1123, false, "2.4, 1",
		"created | String, ISO 8601 date-time",
		"The session's created date is written in RFC 1123 form (Mon, 02 Jan 2006 15:04:05 UTC)."},
	{fPlatformNameLowercase, false, "2.3",
		"platform.name | String | One of `Android` or `iOS`",
		"The app object gives platform.name in lower case (android, ios)."},
	{fPlanNeedBillingOmitted, false, "2.3",
		"plan.needBilling | Boolean | True if billing details are required",
		"The app object leaves plan.needBilling out when it is false (a lite plan)."},

	{fOnlyV1BasePath, true, "9",
		"The endpoint pages show the form `v1.0`, and the overview describes the form `v1`. One version is currently available.",
		"Only /v1 is served; /v1.0 answers 404."},
	{fPasswordChangeEndsOtherSessions, true, "5",
		"Token lifetime and expiry: not shown.",
		"A password change ends every other session of the user; the session making the change and api keys keep working."},
	{fCollectionsCarryPageAndTotal, true, "2.5",
		"Some collections may add other properties, such as a page number or the size of the result set.",
		"Every collection wrapper also carries page (1) and total (the number of items)."},
	{fWriteKeyUpperCase, true, "2.3",
		"Write key for this app (a 32-hexadecimal-character value in the response shape)",
		"Write keys are 32 upper-case hexadecimal characters."},
	{fReferencePublic, true, "4.5, 5",
		"A collection endpoint for platforms is named (GET on the platforms resource, returning a wrapper object with a `platforms` property). Its path, parameters and item fields: not shown.",
		"The reference collections (platforms, currencies, plans, phone countries) are served without authentication, and credentials sent to them are ignored."},
}

// Faults lists every switchable departure: the bugs, then the legal readings.
func Faults() []Fault {
	out := make([]Fault, len(faults))
	copy(out, faults)
	return out
}

func knownFault(name string) bool {
	for _, f := range faults {
		if f.Name == name {
			return true
		}
	}
	return false
}
