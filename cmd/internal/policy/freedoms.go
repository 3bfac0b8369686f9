// Package policy is the one table of what the oracle of `pricing-contract
// explore` and `replay` holds of the spec (../shared/spec/pricing-api.md):
// each judgement it makes of an answer is decided, citing the section and
// the words of the spec that decide it (Cite), or silent, and a silent
// judgement never reports a divergence on its own answer (checks.go). Where
// the spec leaves a choice open the answers a correct server may give are
// the freedoms (this file): the order of its checks, the statuses of
// refusals the spec names no status for, optional fields and read
// extensions, the forms of ids, dates and secrets. The README's table
// "Where the spec is silent" has a row for each freedom, with the same
// section and question, the mock's choice and the answers accepted
// (TestREADMEHasEveryFreedom), and its section "Decided or silent" the
// counts of the checks (TestREADMECountsTheChecks).
package policy

// Freedom is one choice the spec leaves to a server.
type Freedom struct {
	// ID names the freedom in the explorer's reasons and tests.
	ID string
	// Section is the spec's section (or sections, comma-separated) whose
	// silence leaves the choice: the first column of the README's row.
	Section string
	// Question is the choice, as the README's row asks it.
	Question string
	// Mock is the mock's choice, as the README states it.
	Mock string
	// Accepted is every answer a correct server may give, as the README
	// states it: what the explorer accepts.
	Accepted string
	// Statuses are the statuses a correct server may answer, where the
	// choice is one of statuses; nil where it is not.
	Statuses []int
}

// SizeLimit is the smallest body the explorer lets a server refuse for its
// size alone (413): a body of the spec's fields at their limits, in any
// JSON form, stays well below it.
const SizeLimit = 64 << 10

// The freedoms, each by the name the oracle uses.
var (
	CheckOrder = Freedom{
		ID: "check-order", Section: "5, 7.2", Question: "the order of the checks",
		Mock: "401, then 404, then 403, then 400: authentication, the path's resource exists, the caller may touch it, the body is valid",
		Accepted: "401 first, whatever else is wrong (5), but for a body over the size limit (below); after it, for a request refused both " +
			"for its path (403, 404) and for its body (4xx), the refusal of either; a 400 that names an offending value may leave unnamed an id " +
			"that names no entry of its catalogue, a member needed for want of another (an app's name and platform without a hash), or a field " +
			"of a nested object (the client of PUT /users, the app of POST /clients): a server judges them once the values given, and the " +
			"fields of the object around them, are valid",
	}
	UnknownID = Freedom{
		ID: "unknown-id", Section: "7.2", Question: "an id in the path that names nothing, sent by an authenticated caller",
		Mock:     "404",
		Accepted: "403 or 404: a server may refuse the caller before it looks the id up",
		Statuses: []int{403, 404},
	}
	MalformedID = Freedom{
		ID: "malformed-id", Section: "4", Question: "path ids",
		Mock:     "plain positive decimals only; `01`, `+1`, `abc` and anything past int64 are 404",
		Accepted: "any 4xx but 401 for an id that is no plain positive decimal (a typed route answers 400, 404, 405 or 422); without correct credentials, 401, or 400, 404, 405 or 422 as a path the server does not serve (an id that is no id tells nothing of which ids exist), never 403; an id with leading zeros (`01`) may also be read as the decimal",
		Statuses: []int{400, 403, 404},
	}
	// MalformedIDWithoutCredentials are the statuses beside 401 that refuse
	// a path whose id is no id, without correct credentials: a path the
	// server does not serve, never 403.
	MalformedIDWithoutCredentials = []int{400, 404, 405, 422}
	UnknownVersion                = Freedom{
		ID: "unknown-version", Section: "5, 9", Question: "an unknown version segment without correct credentials: 401 or 404?",
		Mock:     "the mock: 404 (the path names nothing)",
		Accepted: "401 or 404: a server may authenticate before routing; with correct credentials, 404",
		Statuses: []int{401, 404},
	}
	PlatformsAuth = Freedom{
		ID: "platforms-auth", Section: "4.5", Question: "may the platforms collection need credentials?",
		Mock:     "no: it answers 200 whatever the credentials",
		Accepted: "200 or 401 to a request without correct credentials; 200 to one with them",
		Statuses: []int{200, 401},
	}
	LoginRefused = Freedom{
		ID: "login-refused", Section: "5", Question: "the status of a refused login",
		Mock:     "401 for wrong credentials, 400 for a missing email or password",
		Accepted: "400 or 401, never 200; the error array's fields and codes are the server's",
		Statuses: []int{400, 401},
	}
	LoginEmailCase = Freedom{
		ID: "login-email-case", Section: "5", Question: "a login with the account's email in another letter case",
		Mock:     "logs in (emails match case-insensitively)",
		Accepted: "the account's session, or 400 or 401",
		Statuses: []int{200, 400, 401},
	}
	LoginSession = Freedom{
		ID: "login-session", Section: "5", Question: "may a login answer with the session the user already has?",
		Mock:     "the mock opens a new session for every login",
		Accepted: "a new session, or the one the user already has (the same token and `created`)",
	}
	SessionClient = Freedom{
		ID: "session-client", Section: "2.4", Question: "which `clientId` a session holds",
		Mock:     "the user's primary client when the session was created",
		Accepted: "any client of the user",
	}
	SecretForms = Freedom{
		ID: "secret-forms", Section: "5", Question: "an api key or session token in another letter case",
		Mock:     "401: secrets are compared exactly",
		Accepted: "401, or the account's answer (a server may compare a UUID token as a UUID, in any case); a secret with a character changed, added or dropped is 401",
		Statuses: []int{401},
	}
	SchemeWord = Freedom{
		ID: "scheme-word", Section: "5", Question: "the scheme word",
		Mock:     "`api-key` is matched case-insensitively, followed by one or more spaces and the key",
		Accepted: "`api-key` and one space authenticate; another case of the word (RFC 9110 11.1) or several spaces authenticate too, or are 401",
		Statuses: []int{401},
	}
	ContentType = Freedom{
		ID: "content-type", Section: "4", Question: "request Content-Type",
		Mock:     "bodies are parsed as JSON whatever the Content-Type, except the form body of POST /sessions",
		Accepted: "a body labelled `application/json` in any case, with any parameters (RFC 9110 8.3.1), is read as JSON; without a Content-Type or labelled otherwise, read as JSON or refused with a 4xx but 401",
	}
	UnnamedField = Freedom{
		ID: "unnamed-field", Section: "7.1", Question: "a body field the spec does not name",
		Mock:     "ignored",
		Accepted: "ignored, or the body refused with a 4xx but 401 (a 400 may name the field)",
	}
	UnstatedRefusal = Freedom{
		ID: "unstated-refusal", Section: "7.3", Question: "a refusal whose status, field or code the spec does not state",
		Mock: "400 with the field's code (a wrong JSON type, an unknown catalogue id, terms other than `I agree`, a taken email, a hash of no " +
			"marketplace app, an `app` on PUT /clients)",
		Accepted: "any 4xx but 401; a 400 names the field or the object above it, with a code of the server's, or, for a value of another JSON type, no field (a typed decoder refuses the body whole)",
	}
	UnstatedValidity = Freedom{
		ID: "unstated-validity", Section: "7.3", Question: "a value whose validity the spec does not state",
		Mock: "accepted as sent: any timezone of the form Area/City, address, postcode, country, VAT number, phone number; an address RFC 5321 " +
			"allows with a quoted local part; characters such as controls, bidirectional marks and zero-width spaces",
		Accepted: "accepted and answered as sent, or refused with a 4xx but 401 (a 400 names the field); a postcode, country or VAT number " +
			"checked by the country's form (7.3: the address's further codes are not shown), so that a 400 naming one may leave the others unnamed",
	}
	OmittedFields = Freedom{
		ID: "omitted-fields", Section: "2, 4", Question: "a field of a body table not marked optional, left out where the mock takes a default",
		Mock: "the default: a PUT /users body without `password` or a phone field keeps the stored value, a POST /apps body without " +
			"`nextplan` gets the lite plan, and with a hash needs no `name` or `platform`",
		Accepted: "the default, or the body refused with a 4xx but 401 (2: only a field marked optional may be omitted)",
	}
	AppByName = Freedom{
		ID: "app-by-name", Section: "1, 4.2", Question: "may a target refuse an app made from a name and `platform.id`, as an app of no store?",
		Mock:     "the mock makes it (above)",
		Accepted: "the app, with the name and the platform sent, or a refusal with a 4xx but 401 (a 400 naming the app or its `marketapp`, and then perhaps nothing else of the app)",
	}
	OneAppPerMarketapp = Freedom{
		ID: "one-app-per-marketapp", Section: "4.2, 7.3", Question: "a second app of a marketplace app, where the profile says a marketplace app has one (`apps_per_marketapp = one`)",
		Mock:     "the mock makes every app it is asked for (its profile says `several`)",
		Accepted: "the app, or a refusal with 400 naming `marketapp.hash`, perhaps alone (7.3: further codes of POST /apps are not shown); never another status",
	}
	PlatformBesideHash = Freedom{
		ID: "platform-beside-hash", Section: "4.2", Question: "`platform.id` of another platform, or a `name`, next to a hash",
		Mock:     "the mock ignores the platform: the marketplace app's platform wins (`@reference`); it checks a name's type and length",
		Accepted: "the marketplace app's platform, or a refusal with a 4xx but 401 naming `platform.id`, never the other platform; a name of any value taken as if none were given, or refused naming `name` (4.2: both are used when no hash is given)",
	}
	Email255 = Freedom{
		ID: "email-255", Section: "2.1, 8", Question: "the longest email: 255 (the spec's `..255`) or 254 (RFC 5321)?",
		Mock:     "the mock accepts 255 (`@reference`)",
		Accepted: "254 accepted; 255 accepted or refused; 256 refused",
	}
	NumberForms = Freedom{
		ID: "number-forms", Section: "4.2", Question: "an id in a body written `2.0` or `2e0`",
		Mock:     "400 with the code of its field (`InvalidPlanId` for `nextplan.id`): an id is an integer literal",
		Accepted: "refused with a 4xx but 401, or read as the integer it equals (RFC 8259 6)",
	}
	DuplicateKeys = Freedom{
		ID: "duplicate-keys", Section: "7.1", Question: "duplicate keys in a JSON body",
		Mock:     "the last one wins",
		Accepted: "the explorer repeats a key with the same value: that value, or the body refused with a 4xx but 401 (RFC 8259 4: names should be unique)",
	}
	SizeLimitFreedom = Freedom{
		ID: "size-limit", Section: "7.2, 8", Question: "a body over the server's size limit",
		Mock:     "413 over 1 MiB, after authentication (401 first)",
		Accepted: "a body over 64 KiB may be answered 413, or 400 naming no field (the body refused as a whole), at any point of the order of the checks, before authentication too; a smaller body is never refused for its size",
		Statuses: []int{400, 413},
	}
	LengthRequired = Freedom{
		ID: "length-required", Section: "4", Question: "a body sent in chunks, without `Content-Length`",
		Mock:     "read as the same body (RFC 9112 7.1)",
		Accepted: "the answer the body gets with a `Content-Length`, or 411 (Length Required: RFC 9112 6.3 lets a server refuse a body without one) at any point of the order of the checks; never read as another body",
		Statuses: []int{411},
	}
	NestingLimit = Freedom{
		ID: "nesting-limit", Section: "7.1, 8", Question: "a body nested deeper than the server's limit",
		Mock:     "400 `InvalidBody` past 32 levels, after authentication",
		Accepted: "a body nested deeper than 20 levels may be answered 400 or 413 at any point of the order of the checks, before authentication too",
		Statuses: []int{400, 413},
	}
	PutClientTerms = Freedom{
		ID: "put-client-terms", Section: "4.4", Question: "PUT /clients also takes `terms`?",
		Mock:     "yes, \"the same fields as POST /clients\": it must be `I agree`",
		Accepted: "`I agree` taken, any other value refused with a 4xx but 401; left out or null, refused the same, or taken as no new acceptance (a server may not ask an update to accept the terms again)",
	}
	StringLength = Freedom{
		ID: "string-length", Section: "2, 8", Question: "the characters of `..255` and of a password",
		Mock:     "Unicode code points (the mock counts runes)",
		Accepted: "code points, UTF-16 units or graphemes: the explorer sends limits in letters that are one of each, and characters outside the Basic Multilingual Plane only where every count stays within the limit",
	}
	OptionalFields = Freedom{
		ID: "optional-fields", Section: "2.2", Question: "may a client answer leave out `addressLine2` and `vat`?",
		Mock:     "yes: 2's notation says an optional field may be omitted",
		Accepted: "an optional field (`addressLine2`, `vat`, `phoneExtension`) the server holds no value for absent or null",
	}
	EmptyHash = Freedom{
		ID: "empty-hash", Section: "4.2, 8", Question: "a `marketapp.hash` that is the empty string: a hash given, or none?",
		Mock:     "given, and refused: a hash is 40 hexadecimal characters (8)",
		Accepted: "refused for the hash, or read as no hash given (4.2: the name and the platform are \"used when marketapp.hash is not given\"): then refused for a missing name or platform, or taken; the target's first answer adopted and held",
	}
	MalformedHash = Freedom{
		ID: "malformed-hash", Section: "4.2, 8", Question: "a `marketapp` that is no object, or a `marketapp.hash` that is no string of 40 hexadecimal characters, beside no name: a hash given, or none?",
		Mock:     "given, and refused for the hash alone: the name and the platform are not required beside a hash",
		Accepted: "refused with 400 naming the hash (or `marketapp`), perhaps naming too the `name` and `platform.id` that are required when no hash is given (4.2: they are \"used when marketapp.hash is not given\"); never taken (8: a hash is 40 hexadecimal characters)",
	}
	OmittedOptional = Freedom{
		ID: "omitted-optional", Section: "1, 4.4", Question: "a PUT /clients/:clientId body that leaves out `addressLine2` or `vat`: is the stored value cleared or kept?",
		Mock:     "cleared: the body is the client's new details",
		Accepted: "cleared or kept as stored, the target's first answer adopted and held for the run (1: an optional field may be omitted; 4.4 does not say what omitting it does); the field sent as null the same, a reading held apart (a server may read null as left out)",
	}
	PlanFlags = Freedom{
		ID: "plan-flags", Section: "4.2, 2.3", Question: "the plan flags of an app created with `nextplan.id` N",
		Mock:     "the mock: plan N's flags at once (1 lite, 2 pro, 3 dynamic)",
		Accepted: "`isLite`, `isPro` and `isDynamic` of any plan of the catalogue (a next plan may apply later); `needBilling` a Boolean, whatever the plan (2.3 ties it to billing details, not to a plan)",
	}
	CurrencyCode = Freedom{
		ID: "currency-code", Section: "2.2", Question: "`currency.code` is typed Number but shown as three letters",
		Mock:     "a string of three upper-case letters (`GBP`)",
		Accepted: "the currency's code in any letter case",
	}
	Identity = Freedom{
		ID: "identity", Section: "2", Question: "ids, tokens, write keys and messages",
		Mock:     "ids counting up from 1 in each kind, tokens and write keys of random hex, messages in English",
		Accepted: "any values, compared by identity: the same entity keeps its id, two entities never share one; ids compared exactly as integers (64 bits, never as floats), tokens and write keys as strings",
	}
	Dates = Freedom{
		ID: "dates", Section: "1, 2", Question: "a date that must not move, read on a later answer",
		Mock:     "the mock writes RFC 3339 in UTC, whole seconds",
		Accepted: "any ISO 8601 form, compared as instants at the precision written; a date of an event that just happened within `clock_skew` of the runner's clock, and no earlier than the target's own clock as the dates it answered before show (a second allowed for rounding); a session's `created` a date-time (2.4)",
	}
	Bounds = Freedom{
		ID: "bounds", Section: "8", Question: "may a server bound what an account keeps?",
		Mock:     "the mock keeps what a namespace's limits allow (README, \"Limits and security\"), 409 `LimitReached` past them",
		Accepted: "past 10 clients or 10 apps that an account made in the run (a server may count what the account held before: the fifth blind audit's correct server keeps 20 clients a user, its first among them), a create with correct credentials refused with a 4xx but 401, 404 or 413 (the credentials, a path, a size), naming no field (nothing in the spec deletes a client or an app); one without correct credentials is 401 still",
	}
	SessionEnd = Freedom{
		ID: "session-end", Section: "5", Question: "may a session end when its user's password changes?",
		Mock:     "no: a session lasts while the mock runs (a namespace keeps its newest 10,000)",
		Accepted: "the account's answer, or 401 to a session opened before a change of its user's password (5: token lifetime and expiry are not shown)",
		Statuses: []int{401},
	}
	CredentialsTogether = Freedom{
		ID: "credentials-together", Section: "5", Question: "a request that carries two credentials (an api key and a session token)",
		Mock:     "the caller both name, or 401 where they name different users",
		Accepted: "where both are one account's: its answer, or 401; where they are two accounts': 401, or the answer to either account alone; where one is no account's: 401, or the other's answer alone (5 names each scheme alone, never two together)",
		Statuses: []int{401},
	}
	CredentialAtLogin = Freedom{
		ID: "credential-at-login", Section: "5", Question: "a POST /sessions that carries an account's api key or session token beside the credentials of its body",
		Mock:     "the credential is not read: the body's account logs in",
		Accepted: "a session of the body's account, never of the credential's; or the login refused with 400, 401 or 403 (5: the request body of POST /sessions is not shown)",
		Statuses: []int{400, 401, 403},
	}
	Silent = Freedom{
		ID: "silent", Section: "2, 4, 7.3", Question: "a value no sentence of the spec judges (an operator that cites nothing)",
		Mock:     "the mock's answer is one reading: it refuses some such values (a blank address line, two dots in an email's local part, an empty phone extension) and takes others (`null` for an optional field)",
		Accepted: "taken, or refused with a 4xx but 401 (a 400 names the field); the explorer adopts the target's choice and then holds it: the same kind of input in the same place gets the same answer for the rest of the run, and a value taken reads back and works at every later use (the email as stored logs in)",
	}
	ReadExtensions = Freedom{
		ID: "read-extensions", Section: "2.5", Question: "read endpoints",
		Mock:     "documented extensions, authenticated like the rest",
		Accepted: "any of them, or none: the explorer reads the state back (`GET /users/:userId`, `GET /users/:userId/clients`, `GET /clients/:clientId`, `GET /clients/:clientId/apps`) only where one answers 200 with JSON",
	}
)

// All is every freedom, in the order of the README's rows.
func All() []Freedom {
	return []Freedom{
		CheckOrder, UnknownID, MalformedID, UnknownVersion, PlatformsAuth, LoginRefused, LoginEmailCase, LoginSession,
		SessionClient, SecretForms, SchemeWord, ContentType, UnnamedField, UnstatedRefusal, UnstatedValidity, OmittedFields,
		AppByName, OneAppPerMarketapp, PlatformBesideHash, Email255, NumberForms, DuplicateKeys, SizeLimitFreedom, LengthRequired, NestingLimit, PutClientTerms, StringLength, OptionalFields, OmittedOptional, EmptyHash, MalformedHash, PlanFlags, CurrencyCode,
		Identity, Dates, Bounds, SessionEnd, CredentialsTogether, CredentialAtLogin, Silent, ReadExtensions,
	}
}

// Allows reports whether status is one of the freedom's statuses.
func (f Freedom) Allows(status int) bool {
	for _, s := range f.Statuses {
		if s == status {
			return true
		}
	}
	return false
}
