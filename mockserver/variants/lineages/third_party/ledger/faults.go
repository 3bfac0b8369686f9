package ledger

import (
	"slices"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"
)

// Fault is a switchable behaviour: a wrong one (Legal false) or another
// reading the specification leaves open (Legal true).
type Fault lineage.BlindFault

const (
	q255     = "Every string field marked `..255` is at most 255 characters long."
	q401     = "When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized)."
	q403     = "When the authenticated caller may not view or modify the resource, the response is HTTP 403."
	qSession = "A client obtains a session by POST /sessions with the credentials of the account to use."
)

// Faults lists the switchable behaviours, the wrong ones first.
func Faults() []Fault {
	return slices.Concat(ruleFaults(), wireFaults(), legalFaults())
}

// ruleFaults are the wrong behaviours of validation, authentication and
// behaviour over time.
func ruleFaults() []Fault {
	return []Fault{
		// (a) validation and limits
		{"len-bytes", false, "8", q255,
			"String lengths are measured in UTF-8 bytes, so a name of 200 accented characters is refused with InvalidName and 128 multi-byte characters of an address are refused too."},
		{"optional-unbounded", false, "2.2, 4.3, 8", q255,
			"The optional client fields addressLine2 and vat skip the length check: a 256-character (or longer) value is stored and returned."},
		{"terms-casefold", false, "4.3", "Must equal the literal `I agree` to signify acceptance of the terms and conditions.",
			"terms is compared after trimming and case folding, so \"i agree\" or \" I AGREE \" creates the client."},
		{"hash-truncated", false, "2.3, 8", "A marketapp hash is 40 hexadecimal characters long.",
			"A marketapp hash longer than 40 characters is cut to its first 40 before validation, so a 41-character hash creates an app."},
		// (b) authentication and permission
		{"apikey-any-scheme", false, "5", "the request carries the header `Authorization` with the value `api-key <API_KEY>`",
			"The scheme word of the Authorization header is ignored: \"Bearer <API_KEY>\" or \"Token <API_KEY>\" authenticates."},
		{"token-casefold", false, "5", q401,
			"Session tokens are looked up after lower-casing the presented value, so an upper-cased copy of a token authenticates."},
		{"session-client-unchecked", false, "5", q403,
			"POST /sessions accepts any existing clientId without checking membership; the session then acts for the other account's client (POST /apps creates apps in it)."},
		{"lookup-before-auth", false, "5, 7.2", q401,
			"The path resource is looked up before the credentials are checked: an unauthenticated request for a missing id gets 404 instead of 401."},
		{"empty-apikey-matches", false, "5", q401,
			"The api key is compared with each user's stored key without refusing an empty key; users created by POST /users have none, so \"api-key \" with no key authenticates as the oldest of them."},
		// (c) behaviour over time
		{"refused-put-partial", false, "4.1, 7.2", "| 400 | Validation failure, with codes below |",
			"A PUT /users/:userId refused with 400 still applies the fields that were valid (for example firstName) to the stored user."},
		{"client-app-orphan", false, "4.3", "The request then either creates both or returns an error and creates neither.",
			"POST /clients with an app whose marketplace app does not exist answers 404 but keeps the client it already appended."},
		{"old-password-valid", false, "4.1", "A String of at least 6 characters replaces the password.",
			"After a password change the previous password still opens a session; the old hash is kept beside the new one."},
		{"stale-client-read", false, "4.4", "Updates the details or settings of a client, including name, address and currency.",
			"GET /clients/:clientId is served from a read cache filled on first read and never invalidated by PUT, so a client read once keeps showing its old details."},
		{"old-email-login", false, "4.1", "Updates a user, for example the email address or password.",
			"After an email change the old address stays in the login index: POST /sessions with the old email still succeeds (and nobody else may take it)."},
	}
}

// wireFaults are the wrong behaviours of concurrency, isolation, the wire
// and the representation.
func wireFaults() []Fault {
	return []Fault{
		// (d) concurrency
		{"email-race", false, "7.3, 5", "| PUT /users/:userId | InvalidEmail | The email address is invalid |",
			"Email uniqueness is checked against the snapshot in the handler and not again by the writer; two overlapping requests can give two accounts the same email (the later then owns the login)."},
		{"password-lost-update", false, "4.1", "`null` keeps the existing password",
			"PUT /users/:userId computes the whole new record from the snapshot in the handler and writes it blindly; a PUT with password null that overlaps a password change writes the old password back."},
		{"app-id-race", false, "2.3", "| id | Number | ID of the app |",
			"POST /apps takes the next app id from the snapshot before the writer runs; two overlapping creations get the same id and the later replaces the earlier app."},
		{"token-collision", false, "5, 2.4", qSession,
			"The session id and token are derived from the snapshot's next session id before the writer runs; overlapping logins receive the same token, which then belongs to the later user."},
		// (e) isolation and secrecy
		{"apps-clientid-filter", false, "5", q403,
			"GET /apps?clientId=N filters by any client without checking that the caller is a user of it, listing another account's apps and write keys."},
		{"password-echo", false, "2.1", "The password is never returned.",
			"When a request sets a password (PUT /users/:userId or POST /users) the answer includes it as a \"password\" field."},
		{"forbidden-body-leak", false, "5", q403,
			"GET /apps/:appId of another account answers 403 but the error body carries the app, write key included."},
		{"writekey-from-hash", false, "2.3", "| writeKey | String | Write key for this app",
			"The write key is derived from the marketapp hash alone, so every account that creates an app from the same marketplace app gets the same write key."},
		// (f) the HTTP and JSON wire
		{"charset-415", false, "1, 4", "Requests carrying a body use JSON.",
			"Content-Type is compared as a whole string: \"application/json; charset=utf-8\" is refused with 415."},
		{"query-raw", false, "5", "in the query-string argument `sessionToken=<SESSION_TOKEN>`",
			"The sessionToken query argument is taken from the raw query without percent-decoding, so a percent-encoded token is refused with 401."},
		{"float-id", false, "4.2, 4.3", "| currency.id | Number | ID of the billing currency |",
			"Id fields accept only integer literals: the same number written 2.0 or 2e0 is refused with 400."},
		{"chunked-empty", false, "4", "Requests carrying a body use JSON.",
			"The body is read only when Content-Length is known; a chunked request (no Content-Length) is treated as empty and refused with 400."},
		// (g) representation
		{"currency-numeric", false, "2.2", "The response shows a three-letter alphabetic code, so treat it as a string of letters",
			"currency.code is returned as the ISO 4217 numeric code (a JSON number, e.g. 826) instead of the letters."},
		{"writekey-uuid", false, "2.3", "a 32-hexadecimal-character value in the response shape",
			"writeKey is rendered in 8-4-4-4-12 UUID form with dashes (36 characters)."},
		{"empty-collection-null", false, "2.5", "The wrapper has a property named after the collection",
			"An empty GET /apps answers {\"apps\": null, ...} instead of an empty list."},
		{"single-error-object", false, "7.1", "A 400 response (HTTP 400 Bad Request) has a body that is a JSON array.",
			"A 400 with exactly one error has the bare error object as body; only two or more errors come as an array."},
	}
}

// legalFaults are the other readings the specification leaves open.
func legalFaults() []Fault {
	return []Fault{
		{"partial-put", true, "4.1, 4.4", "Body fields, all typed as shown",
			"PUT /users/:userId and PUT /clients/:clientId treat omitted fields as unchanged (terms is then only checked when given) instead of requiring every non-optional field."},
		{"v1-only", true, "9", "The endpoint pages show the form `v1.0`, and the overview describes the form `v1`.",
			"Only /api/v1 is served; /api/v1.0 answers 404."},
		{"scheme-case-sensitive", true, "5", "the value `api-key <API_KEY>`",
			"The api-key scheme word must be written exactly \"api-key\"; \"API-Key <KEY>\" gets 401."},
		{"reject-unknown-fields", true, "4", "Requests carrying a body use JSON.",
			"A body field that is neither a request nor a response field of the resource is refused with 400 UnknownField instead of being ignored."},
		{"public-catalogues", true, "4.5", "A collection endpoint for platforms is named",
			"The catalogue collections (platforms, currencies, plans, phonecountries) answer without authentication."},
	}
}
