package tables

import "github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"

// Fault is a deliberate bug of this implementation.
type Fault lineage.Fault

// Names of the faults, so that the code that switches them on cannot
// misspell one silently.
const (
	fQueryTokenIgnored       = "query-token-ignored"
	fTokenPrefixMatch        = "token-prefix-match"
	fNotFoundBeforeAuth      = "not-found-before-auth"
	fOtherUser404            = "other-user-404"
	fForbiddenUserPutApplied = "forbidden-user-put-applied"
	fMissingClient403        = "missing-client-403"
	fClientPermissionSkipped = "client-permission-skipped"

	fPasswordBytes            = "password-bytes"
	fPasswordNullBumpsDate    = "password-null-bumps-date"
	fEmailIndexStale          = "email-index-stale"
	fFirstNameMissingKept     = "first-name-missing-kept"
	fLastNameCodeSwapped      = "last-name-code-swapped"
	fPhoneCountryUnknownOK    = "phone-country-unknown-accepted"
	fPutUserPartialWrite      = "put-user-partial-write"
	fDialCodeNoPlus           = "dialcode-no-plus"
	fOldPasswordStillWorks    = "old-password-still-works"
	fSessionIDsAsStrings      = "session-ids-as-strings"
	fClientAppHalfCreated     = "client-app-half-created"
	fPutClientAppAccepted     = "put-client-app-accepted"
	fTermsCaseInsensitive     = "terms-case-insensitive"
	fLimit256Accepted         = "limit-256-accepted"
	fCurrencyCodeStale        = "currency-code-stale"
	fHashPrefixMatch          = "hash-prefix-match"
	fAppNameRequiredWithHash  = "app-name-required-with-hash"
	fPlatformFromBodyWithHash = "platform-from-body-with-hash"
	fWriteKeyUUID             = "writekey-uuid"
	fUserIDFloatRounded       = "user-id-float-rounded"
	fErrorObjectNotArray      = "error-object-not-array"
	fAnyVersionServed         = "any-version-served"
	fCollectionBareArray      = "collection-bare-array"
)

// Faults lists every fault, in a stable order. A fresh slice is built on
// each call so that no caller can change what another one sees.
func Faults() []Fault {
	return []Fault{
		// Authentication and permission.
		{fQueryTokenIgnored, "5", "A session token sent in the sessionToken query argument is ignored, so such requests are answered 401."},
		{fTokenPrefixMatch, "5", "A session token is matched on its first 32 characters only, so an altered token is accepted."},
		{fNotFoundBeforeAuth, "5", "User and client ids in the path are looked up before authentication, so an unauthenticated request for a missing id gets 404 instead of 401."},
		{fOtherUser404, "7.2", "Reading or updating another existing user answers 404 instead of 403."},
		{fForbiddenUserPutApplied, "5", "PUT /users of another user answers 403 but applies the update anyway."},
		{fMissingClient403, "7.2", "A client id that names no client answers 403 (the caller is not one of its users) instead of 404."},
		{fClientPermissionSkipped, "5", "PUT /clients/:clientId does not check that the caller is a user of the client, so anyone authenticated may modify it."},

		// Users.
		{fPasswordBytes, "8", "The minimum password length is counted in bytes, so a password of fewer than 6 multi-byte characters is accepted."},
		{fPasswordNullBumpsDate, "4.1", "A null password keeps the password but still moves passwordLastChanged to now."},
		{fEmailIndexStale, "4.1", "A changed email is answered and stored on the user row but the login index keeps the old one, so the new email cannot log in."},
		{fFirstNameMissingKept, "7.3", "A PUT /users without firstName keeps the old first name instead of answering 400 InvalidFirstName."},
		{fLastNameCodeSwapped, "7.3", "A missing or empty lastName is reported with the code InvalidFirstName."},
		{fPhoneCountryUnknownOK, "7.3", "A phone country id that names no phone country is stored instead of answered 400 InvalidPhoneCountryId."},
		{fPutUserPartialWrite, "7.2", "A PUT /users refused with 400 still applies the email and names that were valid."},
		{fDialCodeNoPlus, "2.1", "phoneCountry.dialCode is returned without its leading plus sign."},

		// Sessions.
		{fOldPasswordStillWorks, "4.1", "After a password change the previous password still logs in."},
		{fSessionIDsAsStrings, "2.4", "The ids of the session object (id, creatorUserId, userId, clientId) are encoded as JSON strings."},

		// Clients.
		{fClientAppHalfCreated, "4.3", "POST /clients whose app names an unknown plan, platform or marketplace app answers 404 but creates the client anyway."},
		{fPutClientAppAccepted, "4.4", "PUT /clients/:clientId accepts an app property (and ignores it) instead of refusing it with 400."},
		{fTermsCaseInsensitive, "4.3", "terms is compared without regard to case, so \"i agree\" is accepted."},
		{fLimit256Accepted, "8", "Client string fields are limited to 256 characters instead of 255."},
		{fCurrencyCodeStale, "2.2", "PUT /clients with a new currency stores and answers the new currency id with the old currency's code."},

		// Apps.
		{fHashPrefixMatch, "8", "A marketapp hash longer than 40 characters is accepted when its first 40 characters name a marketplace app."},
		{fAppNameRequiredWithHash, "4.2", "POST /apps with a marketapp hash but no name answers 400 InvalidName, although the name is only needed without a hash."},
		{fPlatformFromBodyWithHash, "4.2", "When a marketapp hash is given, platform.id of the body overrides the marketplace app's platform."},
		{fWriteKeyUUID, "2.3", "The app writeKey is a dashed UUID (36 characters) instead of 32 hexadecimal characters."},

		// Representation and versioning.
		{fUserIDFloatRounded, "2.1", "The user object's id goes through a float64 and comes out rounded, so it is not the user's id."},
		{fErrorObjectNotArray, "7.1", "A 400 body is a single error object instead of an array of them."},
		{fAnyVersionServed, "9", "Any version segment (v2, v1.7, vfoo) serves the API instead of 404."},
		{fCollectionBareArray, "2.5", "GET /platforms returns a bare array instead of a wrapper object with a platforms property."},
	}
}
