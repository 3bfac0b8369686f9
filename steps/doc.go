// Package steps is the step vocabulary of the pricing contract suite: godog
// step definitions that drive any implementation of the Pricing Service API
// over HTTP (resty), check its answers with gjson and make unique data with
// gofakeit.
//
// A Suite holds the target profile and options; its InitializeScenario
// registers every phrase below and the hooks, and all per-scenario state
// lives in the scenario's context, so scenarios run in any order and with
// any concurrency. A phrase works after any keyword (Given, When, Then, And).
//
// # A sample feature
//
//	@s4.1 @put-users
//	Feature: PUT /users/:userId
//
//	  Scenario: an invalid email is named in the error array
//	    Given I am account "A" using the session-token header
//	    And the request body is the template "user"
//	    And the request body field "email" is "not-an-email"
//	    When I send "PUT" to "/users/{{A.userId}}"
//	    Then the errors are exactly:
//	      | fieldName | error        |
//	      | email     | InvalidEmail |
//
// # Variables
//
// {{name}} is replaced in every step argument, doc string, table cell, body
// template and shape. In JSON, "{{x}}" (the whole string) becomes the value as
// JSON, so a remembered number stays a number; inside a longer string it is
// text. An unknown name fails the step.
//
//	{{A.email}} {{A.password}} {{A.apiKey}} {{B.email}} {{B.password}} {{B.apiKey}}
//	{{A.userId}} {{A.clientId}} {{B.userId}} {{B.clientId}}   learned by POST /sessions, once per run
//	{{currencyId}} {{planId}} {{platformId}} {{phoneCountryId}} {{marketappHash}}
//	{{emailDomain}} {{phoneNumber}} {{phoneExtension}} {{platformsPath}}
//	{{addressLine1}} {{addressLine2}} {{addressCity}} {{addressPostcode}} {{addressCountry}} {{vat}}
//	{{gen:email}}      contract-<random>@<the profile's email domain>
//	{{gen:name}}       contract-<two words>-<digits>
//	{{gen:string:N}}   exactly N characters, contract- and letters and digits
//	{{gen:email:N}}    a valid email of exactly N characters (labels <= 63, local part <= 64),
//	                   extra labels in front of the profile's email domain
//	{{gen:email:plus}}       contract-<random>+<tag>@<the profile's email domain>
//	{{gen:email:dots}}       contract-<a>.<b>.<c>@<the profile's email domain>
//	{{gen:email:subdomain}}  contract-<random>@contract-<label>.<the profile's email domain>
//	{{gen:unicode:N}}  exactly N characters, contract- and non-ASCII letters (2 or 3 bytes
//	                   each in UTF-8, one UTF-16 unit, unchanged by Unicode normalisation)
//	{{gen:hex:N}}      N lower-case hex characters; {{gen:HEX:N}}: upper-case
//	{{gen:password}}   12 characters; {{gen:password:N}}: N characters
//	{{upper:name}}     the value of the variable name in upper case ({{upper:marketappHash}})
//	{{quote:name}}     the value of the variable name as a regexp that matches it literally
//	{{near-last:name}} the value one character off: near-last, near-first (a character
//	                   changed), near-added, near-removed; near-case: its letters in the
//	                   other case (the last character changed when it has none)
//	{{currencies.N.id}} {{currencies.N.code}}   the Nth entry (from 1) of the profile's currencies
//	{{plans.N.id}} {{plans.N.isLite}} {{plans.N.isPro}} {{plans.N.isDynamic}}
//	                   the Nth plan, and the flags an app created with it answers (JSON booleans)
//	{{platforms.N.id}} {{platforms.N.name}}     the Nth entry of the profile's platforms
//
// # Quoted arguments
//
// In every quoted argument of a phrase, \" stands for " and \\ for \;
// any other backslash is kept as written (a pattern "^\d+$" needs no
// doubling). The escapes are undone before {{name}} substitution:
//
//	Then the JSON at "clients.#(name==\"{{clientName}}\")" is absent
//
// Paths may also hold unescaped quotes, as in "clients.#(name=="x")". A
// JSON value after "is" (Given the request body field "<path>" is <json>,
// Then the JSON at "<path>" is <json>) is not a quoted argument: it keeps
// the escapes of JSON.
//
// The profile values are the target's (Profile; {{phoneExtension}} is JSON
// null for the profile's "null"); a profile that leaves one empty gets its
// default, the mock's.
//
// # Preconditions on the profile
//
//	Given the profile value "<key>" is "<value>"
//	Given the profile value "<key>" includes "<value>"
//
// Where the spec lets a target choose (may a user hold several clients?
// which version forms does it serve?), the profile says what the target
// chose, and a scenario that holds only for one choice starts with this
// precondition: when the profile holds another value (or, for includes, its
// comma-separated list lacks the value), the rest of the scenario is
// skipped and its steps are reported as skipped. The key is a profile-file
// key (clients_per_user, apps_per_marketapp, version_forms, ...). Against
// the default profile (the mock's choices) no scenario is skipped: what the
// other choices must answer is stated by the when column of "the response
// is one of".
//
// # State, auth and request building
//
//	Given I remember "<value>" as "<name>"
//	Given I am account "A" using the api-key header
//	Given I am account "A" using the session-token header
//	Given I am account "A" using the sessionToken query
//	Given I am account "A" using the api-key header with its last character changed
//	Given I am account "A" using the sessionToken query with every character percent-encoded
//	Given I am not authenticated
//	Given the request header "<name>" is "<value>"
//	Given the request query parameter "<name>" is "<value>"
//	Given the request body is:
//	  """json
//	  { ... }
//	  """
//	Given the request body is the template "<name>"
//	Given the request body is the template "<name>" with stand-ins for the profile values it lacks
//	Given the request body field "<path>" is <json>
//	Given the request body field "<path>" is a string of <N> characters
//	Given the request body field "<path>" is a non-ASCII string of <N> characters
//	Given the request body field "<path>" is an email of <N> characters
//	Given the request body field "<path>" is absent
//	Given the raw request body is:
//	  """
//	  sent verbatim
//	  """
//	Given the request content type is "<type>"
//	Given the request body is sent in chunks
//	Given the request body is sent with whitespace around it
//
// Account is A or B. The session schemes log in with POST /sessions once per
// account and scenario. The scheme applies to every later request of the
// scenario. A header or query parameter set by a step replaces the one of
// the scheme. Body paths are dotted (currency.id); missing objects are
// created. Headers, query and body are used up by the next send.
//
// # Sending
//
//	When I send "<METHOD>" to "<path>"
//	When I send "<METHOD>" to "<path>" under the version "<v>"
//	When I send "GET" to "<path>" if the target has that read extension
//	When I log in as account "A"
//	When I log in as account "A" after the server's clock has moved on a second
//	When I log in with email "<email>" and password "<password>"
//	When I prepare "<METHOD>" to "<path>" as "<name>"
//	When I send the prepared requests at once
//	Then I look at the answer "<name>"
//	Then exactly one of the answers "<name>" and "<name>" has the status <code>
//
// A login with an email and password sends them as the profile's login
// encoding, with what the Given steps set (a header, a query argument, a
// body in chunks): a login carrying another account's credential.
//
// A prepared request is made as a send would make it (account, scheme,
// headers, body), and sent with the others at once; each answer is kept
// under its name, and looking at one makes it the response the assertions
// read.
//
// The path is relative to the base URL; the version form replaces the base
// URL's last segment. For coverage, a request under a version that names
// the base URL's own version (v1 and v1.0: equal once trailing .0
// components are dropped) counts for the endpoint; under another version
// (v2, v1.1) it counts under its literal path, such as GET /v2/platforms. A transport error on GET, PUT, HEAD, OPTIONS or DELETE
// is retried (Options.Retries); POST is not.
//
// The spec has no read endpoint (GET /users/:userId and the like): a scenario
// that observes a rule only through one says so with "if the target has that
// read extension", and the rest of it is skipped where the target answers
// 404, 405 or 501 (no such endpoint) or 403 (not for this caller).
//
// "after the server's clock has moved on a second" logs in until a session
// is dated in a later second than the first login's (at most 3 s; never a
// failure), so that whatever the server dates afterwards is dated in a later
// second than what it answered before: a date that must not move can then be
// told from one that moved, on a server that dates by the second.
//
// # Assertions on the last response
//
//	Then the response status is <code>
//	Then the response status is <code> or <code>
//	Then the response status is 4xx
//	Then the response status is 200 or 4xx
//	Then the response status is 4xx but not 401
//	Then the response is JSON
//	Then the response matches the shape "<name>"
//	Then the response matches:
//	  """json
//	  <shape>
//	  """
//	Then the JSON at "<path>" matches the shape "<name>"
//	Then the JSON at "<path>" matches:
//	  """json
//	  <shape>
//	  """
//	Then the JSON at "<path>" is <json>
//	Then the JSON at "<path>" is a string|number|boolean|object|array|null
//	Then the JSON at "<path>" matches the pattern "<regexp>"
//	Then the JSON at "<path>" is absent
//	Then the JSON at "<path>" is present
//	Then the JSON at "<path>" differs from <json>
//	Then the JSON at "<path>" names the same instant as "<date>"
//	Then the JSON at "<path>" names an instant no earlier than "<date>"
//	Then the JSON at "<path>" names an instant within the clock skew of now
//	Then the response does not carry the password "<password>"
//	Then the response does not carry the text "<text>"
//	Then the errors are exactly:
//	  | fieldName | error        |
//	  | email     | InvalidEmail |
//	Then the errors include:
//	  | fieldName | error        |
//	Then the errors name the field "<fieldName>"
//	Then the errors name one of the fields "<fieldName>, <fieldName>"
//	Then the errors include the code "<code>" for the field "<field>"
//	Then the errors name only the field "<fieldName>"
//	Then the errors name only the fields "<a>", "<b>" and "<c>"
//	Then the error messages do not carry the number "<n>"
//	Then the response is one of:
//	  | status | shape                                  | when                 |
//	  | 200    | {"platform": {"id": "{{platformId}}"}} |                      |
//	  | 400    | errors                                 |                      |
//	  | 403    |                                        | clients_per_user=one |
//	Then I remember the JSON at "<path>" as "<name>"
//
// A path is a gjson path; "" and "@this" are the whole body. gjson has no
// syntax errors (a malformed path simply matches nothing), so the steps check
// a path's structure first and fail on a query or multipath that is not
// closed, an unterminated string, a query value that is not one JSON string
// or bare word (#(name==\"x\") with the backslashes left in), a lone
// trailing backslash or an unknown @modifier. Without that check "is absent"
// would pass on such a path whatever the target answered. "is <json>" is
// deep equality, numbers compared numerically. "matches the pattern" is an
// unanchored Go regexp on a string value (write ^...$ to anchor). A status
// class (4xx) is any code of that hundred: where the spec leaves the code
// open (a client's mistake it names no code for), a scenario asserts the
// class. The errors steps require status 400 and the array of spec 7.1, in
// which every message is human-readable text (a string with a letter in it);
// "are exactly" compares the (fieldName, error) pairs as a multiset,
// "include" as a subset; "name only" requires each listed field to be named
// and no element to name anything else (spec 7.1: "Name of the offending
// body field"), for a body whose other fields are all valid. "the error
// messages do not carry the number" holds spec 5 (a caller may not view
// another's resources) for an id in an error's text: no string member
// named message, at any depth (each element of the error array, or the
// object of another status), holds the number as a whole number (a run of
// digits equal to it, not part of a longer number or a decimal), so that
// an id as small as 2 is found in "user 2" and not in "255"; a body that
// is not JSON is one message. It asks for no status. "is one
// of" lists every answer the spec allows where it allows several: it passes
// when a row has the response's status and the body matches that row's
// shape (a shape's name or JSON; an empty cell checks the status alone). The
// when column is optional: a row whose key=value the profile does not hold
// is left out, so one scenario states the answer of each target's choice
// and runs, unskipped, on every target.
//
// "differs from" is the negation of "is": the value is there and is another.
// "names the same instant as" and "names an instant no earlier than" compare
// ISO 8601 values as instants, never as strings, each as precise as it is
// written: 2026-01-02T15:04:05Z is any moment of that second, 2026-01-02 any
// moment of that day in any zone. Two values are the same instant when they
// may name one; a value is no earlier unless it ends before the other
// begins. So a server may write dates in any ISO 8601 form, by the second or
// by the day, and a later read may write the same instant another way.
// "does not carry the password" holds spec 2.1's "The password is never
// returned" for any answer: no string of it (key or value) contains the
// password, an unsalted MD5, SHA-1 or SHA-256 of it, or a password hash in
// the bcrypt, Argon2, scrypt or PBKDF2 format.
//
// # Shapes
//
// A shape is JSON, matched in the manner of Karate's fuzzy matchers:
//
//	literal                 equal (numbers numerically)
//	"#string" "#number" "#boolean" "#null" "#object" "#array"
//	"#present"              any value, even null, but present
//	"#notpresent"           the key is absent
//	"#ignore"               anything, or absent
//	"#iso8601"              an ISO 8601 date or date-time, extended or basic
//	"#regex <re>"           a string fully matching <re>
//	"##<marker>"            the marker, or null, or absent
//	{"#optional": <shape>}  absent, or present and matching <shape> (null only if <shape> allows it)
//	"#a|#b"                 alternatives (not with #regex)
//	{...}                   an object; extra keys allowed unless "#closed": true
//	{"#each": <shape>, "#minItems": N}   an array whose every element matches
//	[...]                   an array of the same length, element by element
//
// Shapes and body templates are read from fixtures/shapes and
// fixtures/bodies (embedded), or first from Options.FixturesDir.
//
// # Hooks and locks
//
// A scenario that mentions account "A" or {{A. (or B) takes a pair of
// accounts from the profile's pool (pair 1, and pairs 2, 3, … of email_2 and
// so on) for its whole run, in one acquisition: the accounts it is tagged
// @mutates-A or @mutates-B for exclusively, the others it mentions shared.
// Waiting scenarios are served oldest first, and the oldest keeps the pair
// it waits for from younger ones, so none starves. Before the first request
// of a @mutates-X scenario that may change X's user or client (a method
// other than GET, HEAD and OPTIONS to /users… or /clients…), that user
// (GET /users/{{X.userId}}) or client (GET /clients/{{X.clientId}}) is
// read with the account's api key, once per pair: later scenarios of the
// pair take what the last restore wrote. After the scenario, pass or fail,
// what was read is written back, all at once: PUT /users/:id with every
// field of the body table, the phone fields the target showed and the
// profile's password, and PUT /clients/:id with every field of the POST
// /clients body table (addressLine2 and vat left out when the client has
// none, terms "I agree").
// On a target that does not answer GET /users/:id, the user is restored from
// the profile: email, password, first and last name and timezone (Profile
// FirstName, LastName, Timezone and their Other* twins, by default the
// mock's seed), the phone fields (PhoneCountryID, PhoneNumber,
// PhoneExtension and their Other* twins; the same for every pair) and the
// four subscribe flags false, with a notice. On a
// target that does not answer GET /clients/:id, the client is not restored,
// with a notice. A failed restore fails the scenario.
//
// # Failure output
//
// A failing step prints the request as a curl command, with api keys,
// session tokens and passwords as ***, then the response status,
// Content-Type and body (at most 4 KiB).
//
// # The floor: no 5xx
//
// Whatever the spec leaves open, a request never earns a 5xx. After every
// scenario, before the restore of a @mutates-X scenario, the After hook
// looks at every request the scenario's steps sent, those whose status no
// step asserts included (one sent on the way to another check, one whose
// status the spec leaves open): a 5xx fails the scenario, with the step
// that sent it and the request as curl. A 5xx a status step asserts on
// purpose ("the response status is 5xx", a 5xx row of "is one of") is
// left alone, and one a failing step has already shown is not shown
// twice. The preflight, the snapshot and the restore are not the
// scenario's requests.
package steps
