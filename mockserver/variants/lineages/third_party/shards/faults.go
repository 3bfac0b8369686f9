package shards

import "github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"

// Fault describes one switchable behaviour. Wrong faults (Legal false)
// break the specification; legal readings (Legal true) pick another
// defensible answer where the specification leaves a choice open.
type Fault lineage.BlindFault

// Fault names.
const (
	faultLimitOffByOne          = "limit-255-off-by-one"
	faultLimitCountsBytes       = "limit-counts-bytes"
	faultTermsLoose             = "terms-loose"
	faultHashHexUnchecked       = "hash-hex-unchecked"
	faultPasswordNullRejected   = "password-null-rejected"
	faultPutClientAcceptsApp    = "put-client-accepts-app"
	faultAppMissingName404      = "app-missing-name-404"
	faultAPIKeySchemeCase       = "api-key-scheme-case-sensitive"
	faultQueryTokenWrites       = "query-token-ignored-on-writes"
	faultPutUserAnyUser         = "put-user-any-user"
	faultPutClientAnyClient     = "put-client-any-client"
	faultMissingCredentials403  = "missing-credentials-403"
	faultNotFoundBeforeAuth     = "not-found-before-auth"
	faultValidationBeforePerm   = "validation-before-permission"
	faultOldEmailIndexed        = "old-email-still-indexed"
	faultPasswordChangedStale   = "password-last-changed-stale"
	faultPutUserNotAtomic       = "put-user-not-atomic"
	faultPostClientsNotAtomic   = "post-clients-not-atomic"
	faultLostUpdatePassword     = "lost-update-password"
	faultDuplicateAppIDs        = "duplicate-app-ids"
	faultDuplicateEmailRace     = "duplicate-email-race"
	faultDuplicateMarketappRace = "duplicate-marketapp-race"
	faultForbiddenLeaksUser     = "forbidden-leaks-user"
	faultWriteKeyFromHash       = "writekey-from-hash"
	faultAppDuplicateGlobal     = "app-duplicate-global"
	faultPasswordHashReturned   = "password-hash-returned"
	faultNumberFloatRejected    = "number-float-rejected"
	faultHashUppercase          = "hash-uppercase-not-found"
	faultContentTypeStrict      = "content-type-strict"
	faultMixedCaseEmailLogin    = "mixed-case-email-login"
	faultPasswordTrimmed        = "password-trimmed-on-store"
	faultPhoneExtensionNumber   = "phone-extension-as-number"
	faultErrorObject            = "error-object-not-array"
	faultErrorTextPlain         = "error-text-plain"

	legalFirstErrorOnly      = "first-error-only"
	legalClientPutKeeps      = "client-put-keeps-optional"
	legalAppDuplicates       = "app-duplicates-allowed"
	legalPasswordRevokes     = "password-change-revokes-sessions"
	legalNextplanDefaultLite = "nextplan-default-lite"
)

func knownFault(name string) bool {
	for _, f := range Faults() {
		if f.Name == name {
			return true
		}
	}
	return false
}

// Faults lists the wrong faults first, then the legal readings.
func Faults() []Fault {
	out := append([]Fault(nil), validationFaults()...)
	out = append(out, authFaults()...)
	out = append(out, timeFaults()...)
	out = append(out, concurrencyFaults()...)
	out = append(out, isolationFaults()...)
	out = append(out, wireFaults()...)
	out = append(out, errorFaults()...)
	return append(out, legalReadings()...)
}

func validationFaults() []Fault {
	return []Fault{
		{faultLimitOffByOne, false, "2.2, 8", "Every string field marked `..255` is at most 255 characters long.",
			"The limit is checked with >= 255: POST /clients or PUT /clients/:clientId with a name of exactly 255 characters answers 400 InvalidName instead of 200."},
		{faultLimitCountsBytes, false, "8", "Every string field marked `..255` is at most 255 characters long.",
			"The limit counts UTF-8 bytes: a client name of 200 'é' (400 bytes) answers 400 InvalidName instead of 200."},
		{faultTermsLoose, false, "4.3", "Must equal the literal `I agree` to signify acceptance of the terms and conditions.",
			"terms is compared case-insensitively after trimming: POST /clients with terms \" i agree\" answers 200 instead of 400 InvalidTerms."},
		{faultHashHexUnchecked, false, "2.3, 4.2, 8", "A marketapp hash is 40 hexadecimal characters long.",
			"Only the length of marketapp.hash is checked: POST /apps with 40 'z' characters answers 404 instead of 400 InvalidMarketappHash."},
		{faultPasswordNullRejected, false, "4.1", "`null` keeps the existing password",
			"PUT /users/:userId with \"password\": null answers 400 InvalidPassword instead of 200."},
		{faultPutClientAcceptsApp, false, "4.4", "The `app` property must not be given to this endpoint, so to create an app use POST /apps.",
			"PUT /clients/:clientId with an app object answers 200 (app ignored) instead of 400 InvalidApp."},
		{faultAppMissingName404, false, "4.2, 7.3", "InvalidName | No app name was provided (the case where neither a marketapp hash nor a name is given)",
			"POST /apps with neither marketapp.hash nor name answers 404 instead of 400 InvalidName."},
	}
}

func authFaults() []Fault {
	return []Fault{
		{faultAPIKeySchemeCase, false, "5", "the request carries the header `Authorization` with the value `api-key <API_KEY>`.",
			"The auth scheme token is compared case-sensitively (HTTP schemes are case-insensitive): `Authorization: API-KEY <key>` answers 401 instead of 200."},
		{faultQueryTokenWrites, false, "5", "The token is then sent either in the header `session-token` (value `<SESSION_TOKEN>`) or in the query-string argument `sessionToken=<SESSION_TOKEN>`.",
			"The sessionToken query argument is only read on GET: PUT /users/:userId?sessionToken=<token> answers 401 instead of 200."},
		{faultPutUserAnyUser, false, "5, 7.2", "When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
			"Account A can PUT /users/<B's userId>: 200 and B's email changes, instead of 403."},
		{faultPutClientAnyClient, false, "5, 7.2", "When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
			"Account A can PUT /clients/<B's clientId>: 200 and B's client is renamed, instead of 403."},
		{faultMissingCredentials403, false, "5, 7.2", "When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
			"A request with no credentials at all (e.g. GET /platforms or PUT /users/1) answers 403 instead of 401."},
		{faultNotFoundBeforeAuth, false, "5, 7.2", "When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized).",
			"The user is looked up before authentication: PUT /users/999999 with no credentials answers 404 instead of 401."},
		{faultValidationBeforePerm, false, "5, 7.2", "When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
			"The body is validated before the permission check: A's PUT /clients/<B's clientId> (or /users/<B's id>) with an empty body object answers 400 instead of 403."},
	}
}

func timeFaults() []Fault {
	return []Fault{
		{faultOldEmailIndexed, false, "4.1, 5", "Updates a user, for example the email address or password.",
			"After PUT /users changes the email, the old address stays in the login index: POST /sessions with the old email and the password answers 200 instead of 401."},
		{faultPasswordChangedStale, false, "2.1, 4.1", "passwordLastChanged | String | ISO 8601 date the password last changed",
			"After PUT /users with a new password, passwordLastChanged keeps the seed date instead of moving to the time of the change."},
		{faultPutUserNotAtomic, false, "4.1, 4.3", "The request then either creates both or returns an error and creates neither.",
			"PUT /users with a new email and an invalid client object answers 400 but stores the user changes: POST /sessions with the new email then answers 200 instead of 401."},
		{faultPostClientsNotAtomic, false, "4.3", "The request then either creates both or returns an error and creates neither.",
			"POST /clients with an app whose well-formed hash is unknown answers 404 but the client is created: PUT /clients/<next id> then answers 200 instead of 404."},
	}
}

func concurrencyFaults() []Fault {
	return []Fault{
		{faultLostUpdatePassword, false, "4.1", "A String of at least 6 characters replaces the password. `null` keeps the existing password",
			"PUT /users copies the record, validates unlocked and writes the whole copy back: a password change overlapped by a PUT with password null is lost, so POST /sessions with the new password answers 401."},
		{faultDuplicateAppIDs, false, "2.3", "id | Number | ID of the app",
			"The app id counter is read and written back non-atomically: two overlapping POST /apps (A's and B's) return the same app id."},
		{faultDuplicateEmailRace, false, "4.1, 7.3", "InvalidEmail | The email address is invalid",
			"The email uniqueness check and the index write are separate critical sections: overlapping PUT /users of A and B to the same new email both answer 200 instead of one 400 InvalidEmail."},
		{faultDuplicateMarketappRace, false, "2.3, 4.2", "The marketapp hash uniquely identifies an app on an Android or iOS store.",
			"The per-client duplicate check is not held across the insert: two overlapping POST /apps of the same hash by A both answer 200 instead of one 400 DuplicateMarketapp."},
	}
}

func isolationFaults() []Fault {
	return []Fault{
		{faultForbiddenLeaksUser, false, "2.1, 5", "When the authenticated caller may not view or modify the resource, the response is HTTP 403.",
			"The 403 body of A's PUT /users/<B's userId> carries B's full user object (email, phone) in a `user` property."},
		{faultWriteKeyFromHash, false, "2.3", "writeKey | String | Write key for this app",
			"The write key is derived from the marketapp hash: A and B creating an app from the same hash get the same writeKey, so each learns the other's secret."},
		{faultAppDuplicateGlobal, false, "1, 4.2", "mobile apps belong to a client",
			"The duplicate-marketapp check spans all clients: after A adds a hash, B's POST /apps with it answers 400 naming A's client, instead of 200."},
		{faultPasswordHashReturned, false, "2.1", "The password is never returned.",
			"Every user object (PUT /users, POST /users) carries a passwordHash property."},
	}
}

func wireFaults() []Fault {
	return []Fault{
		{faultNumberFloatRejected, false, "1, 2.2", "Request and response bodies are JSON.",
			"Ids are decoded as integers only: currency.id written 1.0 (the same JSON number as 1) answers 400 InvalidCurrencyId instead of 200."},
		{faultHashUppercase, false, "2.3, 8", "A marketapp hash is 40 hexadecimal characters long.",
			"The hash is looked up without case folding: POST /apps with an upper-case hex hash answers 404 instead of 200."},
		{faultContentTypeStrict, false, "1, 4", "Requests carrying a body use JSON.",
			"Content-Type must be exactly application/json: `application/json; charset=utf-8` answers 400 InvalidBody instead of 200."},
		{faultMixedCaseEmailLogin, false, "4.1, 5", "A client obtains a session by POST /sessions with the credentials of the account to use.",
			"After PUT /users sets a mixed-case email, the index keeps it unfolded while logins fold: POST /sessions with exactly that email answers 401 instead of 200."},
		{faultPasswordTrimmed, false, "4.1, 8", "A String of at least 6 characters replaces the password.",
			"A new password is trimmed before hashing but not at login: after setting \"  secret77  \", POST /sessions with it answers 401 instead of 200."},
		{faultPhoneExtensionNumber, false, "2.1", "phoneExtension | Mixed | String or null",
			"A digits-only phoneExtension is stored as a number: PUT with \"0042\" returns phoneExtension 42 (a Number, leading zeros lost)."},
	}
}

func errorFaults() []Fault {
	return []Fault{
		{faultErrorObject, false, "7.1", "A 400 response (HTTP 400 Bad Request) has a body that is a JSON array.",
			"A 400 body is a single error object instead of an array (e.g. POST /clients without name)."},
		{faultErrorTextPlain, false, "1, 7.1", "Request and response bodies are JSON.",
			"A 400 answer carries Content-Type text/plain instead of application/json."},
	}
}

func legalReadings() []Fault {
	return []Fault{
		{legalFirstErrorOnly, true, "7.1", "Each element is an object with these fields",
			"A 400 array carries only the first failing field instead of all of them."},
		{legalClientPutKeeps, true, "4.4", "Body: the same fields as POST /clients.",
			"PUT /clients/:clientId treats an omitted addressLine2 or vat as 'keep the stored value' instead of 'clear it'."},
		{legalAppDuplicates, true, "2.3, 4.2", "The marketapp hash uniquely identifies an app on an Android or iOS store.",
			"A client may create several apps from the same marketapp hash (default: the second answers 400 DuplicateMarketapp)."},
		{legalPasswordRevokes, true, "4.1, 5", "Token lifetime and expiry: not shown.",
			"A password change through PUT /users ends every existing session of that user (their tokens answer 401); the API key keeps working."},
		{legalNextplanDefaultLite, true, "4.2", "nextplan.id | Number | ID of the subscription plan",
			"POST /apps without nextplan creates the app on the Lite plan instead of answering 400 InvalidNextplanId."},
	}
}
