package events

// Each fault is a mistake an implementer of this server could make while
// reading the spec; Options.Fault switches one on.
const (
	faultSessionQueryIgnored          = "session-query-ignored"
	faultTruncatedAPIKeyAccepted      = "truncated-api-key-accepted"
	faultAuthSchemeUnchecked          = "auth-scheme-unchecked"
	faultNotFoundBeforeAuth           = "not-found-before-auth"
	faultOtherUserUpdateAllowed       = "other-user-update-allowed"
	faultForeignClientAs404           = "foreign-client-as-404"
	faultLoginPasswordCaseInsensitive = "login-password-case-insensitive"
	faultSessionIDsSwapped            = "session-ids-swapped"
	faultPasswordLengthInBytes        = "password-length-in-bytes"
	faultSixCharPasswordRefused       = "six-char-password-refused"
	faultNullPasswordRejected         = "null-password-rejected"
	faultNullPasswordTouchesDate      = "null-password-touches-date"
	faultEmailNotPersisted            = "email-not-persisted"
	faultRefusedUserUpdateApplied     = "refused-user-update-applied"
	faultAbsentLastNameKept           = "absent-last-name-kept"
	faultPhoneCountryUnchecked        = "phone-country-unchecked"
	faultSubscribeHowtoCopiesBlog     = "subscribe-howto-copies-blog"
	faultPutClientNameOptional        = "put-client-name-optional"
	faultPutClientAppAccepted         = "put-client-app-accepted"
	faultTermsCaseInsensitive         = "terms-case-insensitive"
	faultCurrencyCodeNumeric          = "currency-code-numeric"
	faultOptionalFieldLengthUnchecked = "optional-field-length-unchecked"
	faultAppNameRequiredWithHash      = "app-name-required-with-hash"
	faultHash41Accepted               = "hash-41-accepted"
	faultWriteKey64Hex                = "writekey-64-hex"
	faultPlatformFromBodyWithHash     = "platform-from-body-with-hash"
	faultErrorObjectNotArray          = "error-object-not-array"
	faultValidationAs422              = "validation-as-422"
	faultPlatformsBareArray           = "platforms-bare-array"
	faultVersionV2Served              = "version-v2-served"
)

// Faults lists every deliberate bug of this implementation, in a stable order.
func Faults() []Fault {
	return []Fault{
		{faultSessionQueryIgnored, "5", "A session token sent in the sessionToken query argument is not looked at, so such a request is answered 401."},
		{faultTruncatedAPIKeyAccepted, "5", "An api key is matched by prefix, so a truncated key (any 16 or more leading characters of a real one) authenticates."},
		{faultAuthSchemeUnchecked, "5", "The scheme of the Authorization header is not checked, so \"Bearer <KEY>\" or a bare key authenticates like \"api-key <KEY>\"."},
		{faultNotFoundBeforeAuth, "5", "PUT /users/:userId and PUT /clients/:clientId look the resource up before authenticating, so an unauthenticated caller gets 404 for an unknown id instead of 401."},
		{faultOtherUserUpdateAllowed, "5", "PUT /users/:userId lets any authenticated caller update another user instead of answering 403."},
		{faultForeignClientAs404, "7.2", "PUT /clients/:clientId on an existing client the caller is not a user of is answered 404 instead of 403."},
		{faultLoginPasswordCaseInsensitive, "5", "POST /sessions compares passwords without regard to case, so a password differing only in case opens a session."},
		{faultSessionIDsSwapped, "2.4", "The session object carries the client id in userId and the user id in clientId."},
		{faultPasswordLengthInBytes, "8", "The minimum password length is counted in bytes, so a password of fewer than 6 multi-byte characters is accepted."},
		{faultSixCharPasswordRefused, "8", "The password length check is off by one: a password of exactly 6 characters is refused with InvalidPassword."},
		{faultNullPasswordRejected, "4.1", "A null password is refused with InvalidPassword instead of keeping the existing password."},
		{faultNullPasswordTouchesDate, "2.1", "A PUT /users/:userId with a null password still moves passwordLastChanged to now although the password did not change."},
		{faultEmailNotPersisted, "4.1", "PUT /users/:userId answers with the new email but stores the old one, so the new email cannot be used to log in."},
		{faultRefusedUserUpdateApplied, "4.3", "A PUT /users/:userId refused because of its client part still applies the user's own fields (new email and password work at login)."},
		{faultAbsentLastNameKept, "7.3", "A PUT /users/:userId without lastName keeps the old last name instead of answering InvalidLastName."},
		{faultPhoneCountryUnchecked, "7.3", "An unknown phone country id is stored instead of being refused with InvalidPhoneCountryId."},
		{faultSubscribeHowtoCopiesBlog, "2.1", "subscribeHowto is stored (and answered) with the value sent for subscribeBlog."},
		{faultPutClientNameOptional, "7.3", "A PUT /clients/:clientId without name keeps the old name instead of answering InvalidName."},
		{faultPutClientAppAccepted, "4.4", "PUT /clients/:clientId accepts (and ignores) an app property instead of refusing it."},
		{faultTermsCaseInsensitive, "4.3", "terms is compared without regard to case or surrounding blanks, so \"i agree\" is accepted."},
		{faultCurrencyCodeNumeric, "2.2", "currency.code is answered as the numeric currency id instead of a string of letters."},
		{faultOptionalFieldLengthUnchecked, "8", "The optional client fields addressLine2 and vat are not limited to 255 characters."},
		{faultAppNameRequiredWithHash, "7.3", "POST /apps answers InvalidName when no name is given even though a marketapp hash is."},
		{faultHash41Accepted, "8", "A marketapp hash longer than 40 hexadecimal characters is accepted when its first 40 characters name a marketplace app."},
		{faultWriteKey64Hex, "2.3", "An app's writeKey is 64 hexadecimal characters instead of 32."},
		{faultPlatformFromBodyWithHash, "4.2", "When a marketapp hash is given, the app takes its platform from platform.id of the body instead of from the marketplace app."},
		{faultErrorObjectNotArray, "7.1", "A 400 body is a single error object instead of an array of them."},
		{faultValidationAs422, "7.2", "Validation failures are answered 422 instead of 400."},
		{faultPlatformsBareArray, "2.5", "The platforms collection is answered as a bare array instead of a wrapper object with a platforms property."},
		{faultVersionV2Served, "9", "The API is also served under /pricing/v2, a major version that does not exist and would be incompatible with v1."},
	}
}

func knownFault(name string) bool {
	for _, f := range Faults() {
		if f.Name == name {
			return true
		}
	}
	return false
}
