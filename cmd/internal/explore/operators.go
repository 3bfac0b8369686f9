package explore

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/pricing-contract/pricing-contract/cmd/internal/policy"
)

// The operator catalogue: the changes the generator makes, each applied to
// every input position it fits (every field of every body, every
// credential and secret, the headers the spec relies on, the path's id and
// version). Real servers break on near misses of valid values and on the
// legal variety a correct server must accept more often than on values that
// are plainly wrong, so each operator says which it is. The sources are
// public catalogues of how implementations mishandle input and
// authentication: the OWASP Web Security Testing Guide v4.2 (WSTG-INPV
// input validation, WSTG-ATHN authentication, WSTG-SESS session management,
// WSTG-ATHZ authorization), the Big List of Naughty Strings (BLNS, by its
// section), RFC 8259 (JSON), RFC 9110 (HTTP semantics), RFC 3986 (URIs),
// RFC 5321 and 5322 (email addresses), and the spec's own limits (8). The
// README's table "The operator catalogue" lists them (TestREADMEListsEveryOperator).

// Kind is what an operator makes of a valid value.
type Kind int

const (
	// NearMiss: a value next to a valid one that the spec refuses (256
	// characters, "i agree", a key with one character more).
	NearMiss Kind = iota
	// LegalVariety: a value or form a correct server must accept as it
	// accepts the plain one (255 characters of two bytes, a header name in
	// capitals, a body with its members in another order).
	LegalVariety
	// PlainlyWrong: a value no reading takes (a number for a name, no
	// credentials, a body that is no JSON).
	PlainlyWrong
)

func (k Kind) String() string {
	return [...]string{"near miss", "legal variety", "plainly wrong"}[k]
}

// reading is how the spec judges what an operator sends, beyond the
// reference's own answer.
type reading int

const (
	// strict: the reference's answer is the spec's.
	strict reading = iota
	// openRefusal: the reference refuses; the spec names no status, field
	// or code for it: any 4xx but 401 (policy.UnstatedRefusal).
	openRefusal
	// mayRefuse: the reference accepts; a correct server may refuse with
	// a 4xx but 401 (the operator's freedom).
	mayRefuse
	// mayReadAs: the reference refuses; a correct server may read the value
	// as the mutation's Alt (the operator's freedom).
	mayReadAs
	// silent: the spec does not judge the value (the operator cites
	// nothing): the reference's answer is one reading, the target's is
	// adopted, whichever (reference.go, decided).
	silent
	// badRequest: the reference refuses; the spec decides the status (a
	// value past a limit of section 8 is a validation failure: 400, 7.2)
	// but names no code for it: 400, naming the field or no other.
	badRequest
)

// draw is what an operator draws from: the random source and what the
// generator knows of the target and the sequence.
type draw struct {
	r        *rand.Rand
	f        bodyField
	current  any    // the field's value in the base body
	domain   string // the profile's email domain
	ownEmail string // the actor's email now
	taken    string // the other account's email now
	hash     string // the profile's marketplace app
	ids      map[string][]int64
	unique   func() string // a word no other draw of the run makes
	// newObject is a valid new object for a path (client, app): the body
	// of POST /clients or POST /apps.
	newObject func(path string) map[string]any
}

// BodyOp is an operator on a field of a body.
type BodyOp struct {
	Name string
	// Decided is the sentence of the spec that decides what the operator's
	// value is worth (accepted, or refused, as Reading says); the zero
	// Cite: silent, whatever the reference answers there is the target's
	// to choose, then to keep (policy). A condition whose code 7.3 names is
	// decided by its row, whatever the operator.
	Decided policy.Cite
	Kind    Kind
	Source  string
	Reading reading
	Freedom *policy.Freedom // the freedom of a mayRefuse or mayReadAs reading
	// Cond is the condition of 7.3 it meets, whose code the field may name
	// (condMissing, ...): the spec's code is then required.
	Cond string
	// On reports whether the operator applies to the field.
	On func(f bodyField) bool
	// Make is the mutation at the field; ok false where the draw cannot
	// make one (a catalogue of one id has no other id).
	Make func(d draw) (m Mutation, ok bool)
}

func set(v any) func(draw) (Mutation, bool) {
	return func(draw) (Mutation, bool) { return Mutation{Value: v}, true }
}

func setf(f func(d draw) any) func(draw) (Mutation, bool) {
	return func(d draw) (Mutation, bool) { return Mutation{Value: f(d)}, true }
}

func kinds(ks ...fieldKind) func(bodyField) bool {
	return func(f bodyField) bool {
		for _, k := range ks {
			if f.kind == k {
				return true
			}
		}
		return false
	}
}

// strings are the kinds that hold a string.
var stringKinds = []fieldKind{kText, kValue, kEmail, kPassword, kTimezone, kTerms, kHash, kPhone, kExtension}

func isString(f bodyField) bool { return kinds(stringKinds...)(f) }

// limitedText: a free text with a limit of length (8: ..255, or its row's
// shorter Max), which a value at the limit meets.
func limitedText(f bodyField) bool { return f.kind == kText && f.max > 0 }

// overLimit: a field with a limit of length that one character more
// breaks; an email's limits are its own operators' (email-256).
func overLimit(f bodyField) bool { return f.max > 0 && f.kind != kEmail }

func repeat(s string, n int) string { return strings.Repeat(s, n) }

const (
	twoByte   = "é" // U+00E9: 2 bytes in UTF-8, 1 UTF-16 unit, 1 grapheme, unchanged by normalisation
	threeByte = "漢" // U+6F22: 3 bytes, 1 UTF-16 unit
	astral    = "😀" // U+1F600: 4 bytes, 2 UTF-16 units
)

// The sentences that decide what operators send (policy.Cite): each is
// verified against the spec's words (TestOperatorCitesAreTheSpecs).
var (
	citeTyped          = policy.Cite{Section: "4.1", Words: "Body fields, all typed as shown:"}
	citeLimit          = policy.Cite{Section: "8", Words: "Every string field marked `..255` is at most 255 characters long."}
	citeString         = policy.Cite{Section: "2.1", Words: "| firstName | String | First name |"}
	citeUpdate         = policy.Cite{Section: "4.1", Words: "Updates a user, for example the email address or password."}
	citeEmail          = policy.Cite{Section: "7.3", Words: "| PUT /users/:userId | InvalidEmail | The email address is invalid |", Also: "RFC 5322 3.4.1 (addr-spec), read where every definition agrees"}
	citePassword       = policy.Cite{Section: "8", Words: "A password is a String of at least 6 characters."}
	citeTimezone       = policy.Cite{Section: "2.1", Words: "| timezone | String | Timezone name in the form Area/City |", Also: "the IANA database's names"}
	citeTerms          = policy.Cite{Section: "4.3", Words: "Must equal the literal `I agree` to signify acceptance of the terms and conditions."}
	citeHash           = policy.Cite{Section: "8", Words: "A marketapp hash is 40 hexadecimal characters long."}
	citeStore          = policy.Cite{Section: "1", Words: "Creating an app that does not exist in a store is not supported through the API."}
	citeExtension      = policy.Cite{Section: "2.1", Words: "| phoneExtension | Mixed | String or null |"}
	citeFlag           = policy.Cite{Section: "4.1", Words: "| subscribeWelcome | Boolean | Email preference |"}
	citeClientUpdate   = policy.Cite{Section: "4.4", Words: "Updates the details or settings of a client, including name, address and currency."}
	citeNoApp          = policy.Cite{Section: "4.4", Words: "The `app` property must not be given to this endpoint"}
	citeClientWithUser = policy.Cite{Section: "4.1", Words: "If provided, a client account is created too, with the body of POST /clients"}
	citeJSON           = policy.Cite{Section: "1", Words: "Request and response bodies are JSON.", Also: "RFC 8259 (the same JSON text)"}
	citeBodyJSON       = policy.Cite{Section: "4", Words: "Requests carrying a body use JSON.", Also: "RFC 9110 8.3.1 (media types)"}
	citeAuth           = policy.Cite{Section: "5", Words: "When a request to an endpoint that needs authentication is not authenticated correctly, the response is HTTP 401 (Unauthorized)."}
	citeSchemes        = policy.Cite{Section: "5", Words: "Two schemes appear."}
	citeQueryToken     = policy.Cite{Section: "5", Words: "in the query-string argument `sessionToken=<SESSION_TOKEN>`", Also: "RFC 3986 2.1, 6.2.2.2 (a percent-encoded character is that character)"}
	citeHeaderCase     = policy.Cite{Section: "5", Words: "the request carries the header `Authorization` with the value `api-key <API_KEY>`", Also: "RFC 9110 5.1 (field names are case-insensitive)"}
	citeForbidden      = policy.Cite{Section: "5", Words: "When the authenticated caller may not view or modify the resource, the response is HTTP 403."}
	citeNotFound       = policy.Cite{Section: "7.2", Words: "| 404 | Resource not found |"}
	citeSession        = policy.Cite{Section: "5", Words: "A client obtains a session by POST /sessions with the credentials of the account to use."}
	citeVersion        = policy.Cite{Section: "9", Words: "One version is currently available."}
	citeAccept         = policy.Cite{Section: "1", Words: "Request and response bodies are JSON.", Also: "RFC 9110 12.5.1 (an Accept header that admits JSON asks for what a request without one gets)"}
	citePathID         = policy.Cite{Section: "4.1", Words: "Path parameter: `:userId` (Number), the ID of the user.", Also: "RFC 3986 2.3 (a percent-encoded unreserved character is that character)"}
	citeVersionForms   = policy.Cite{Section: "9", Words: "The endpoint pages show the form `v1.0`, and the overview describes the form `v1`."}
)

// bodyOps is the catalogue of operators on body fields.
var bodyOps = []BodyOp{
	// Any field.
	{Name: "absent", Kind: NearMiss, Cond: condMissing, Source: "WSTG-INPV (a parameter removed); RFC 8259 4",
		On: func(f bodyField) bool { return true }, Make: func(draw) (Mutation, bool) { return Mutation{Remove: true}, true }},
	{Name: "null", Kind: NearMiss, Cond: condMissing, Source: "RFC 8259 3 (null); BLNS Reserved Strings",
		On: func(f bodyField) bool { return true }, Make: set(nil)},
	// Left out, its value sent under its name in other letter case: another
	// member (RFC 8259 8.3), which a decoder matching names in any case
	// (Go's encoding/json) takes for the field. The member beside it is a
	// field the spec does not name (generator.mutate adds it).
	{Name: opMemberOtherCase, Kind: NearMiss, Cond: condMissing, Source: "RFC 8259 8.3 (member names are compared code unit by code unit); WSTG-INPV (case-insensitive binding)",
		On: hasMissingCode, Make: func(draw) (Mutation, bool) { return Mutation{Remove: true}, true }},

	// Wrong JSON types.
	{Name: "number-for-string", Decided: citeTyped, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 3 (types); WSTG-INPV (type confusion)",
		On: isString, Make: set(json.Number("7"))},
	{Name: "array-for-value", Decided: citeTyped, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 5; WSTG-INPV-04 (parameter pollution as an array)",
		On: func(f bodyField) bool { return f.kind != kObject }, Make: setf(func(d draw) any { return []any{PlainValue(d.current)} })},
	{Name: "object-for-value", Decided: citeTyped, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 4; WSTG-INPV (type confusion)",
		On: func(f bodyField) bool { return f.kind != kObject }, Make: setf(func(d draw) any { return map[string]any{"value": PlainValue(d.current)} })},
	{Name: "string-for-value", Decided: citeTyped, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 3; BLNS Numeric Strings",
		On: kinds(kFlag, kID, kObject), Make: setf(func(d draw) any {
			if d.f.kind == kFlag {
				return "true"
			}
			if d.f.kind == kObject {
				return "1"
			}
			return fmt.Sprint(PlainValue(d.current))
		})},
	{Name: "number-for-flag", Decided: citeTyped, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 3; BLNS Numeric Strings",
		On: kinds(kFlag), Make: set(json.Number("1"))},

	// Strings: empty and limits (8: ..255 counts characters).
	{Name: "empty", Kind: NearMiss, Cond: condMissing, Source: "BLNS Reserved Strings (the empty string); 7.3",
		On: isString, Make: set("")},
	{Name: "max-length", Decided: citeLimit, Kind: LegalVariety, Source: "8 (..255); WSTG-INPV (boundary values)",
		On: limitedText, Make: setf(func(d draw) any { return limitText(d, d.f.max, "x") })},
	{Name: "max-length-two-byte", Decided: citeLimit, Kind: LegalVariety, Source: "8 (characters, not bytes); RFC 8259 8.1 (UTF-8); BLNS Two-Byte Characters",
		On: limitedText, Make: setf(func(d draw) any { return limitText(d, d.f.max, twoByte) })},
	{Name: "three-byte", Decided: citeString, Kind: LegalVariety, Source: "8; BLNS Two-Byte Characters (CJK, 3 bytes each in UTF-8)",
		On: kinds(kText, kPassword), Make: setf(func(d draw) any { return cutToLimit(d, d.unique()+repeat(threeByte, 100)) })},
	{Name: "astral", Decided: citeString, Kind: LegalVariety, Source: "BLNS Emoji; RFC 8259 7 (surrogate pairs); freedom string-length (60 characters, within every count)",
		On: kinds(kText, kPassword), Make: setf(func(d draw) any { return cutToLimit(d, d.unique()+repeat(astral, 60)) })},
	{Name: "over-length", Decided: citeLimit, Kind: NearMiss, Source: "8 (..255); WSTG-INPV (boundary values)",
		On: overLimit, Make: setf(func(d draw) any { return limitText(d, d.f.max+1, "x") })},
	{Name: "over-length-two-byte", Decided: citeLimit, Kind: NearMiss, Source: "8; BLNS Two-Byte Characters",
		On: overLimit, Make: setf(func(d draw) any { return limitText(d, d.f.max+1, twoByte) })},
	{Name: "huge", Decided: citeLimit, Kind: PlainlyWrong, Source: "WSTG-INPV (buffer and length); freedom size-limit (100,000 characters pass 64 KiB)",
		On: kinds(kText), Make: setf(func(d draw) any { return repeat("h", 100_000) })},

	// Free text: content a correct server stores as sent.
	{Name: "new-value", Kind: LegalVariety, Source: "4.1-4.4 (an update stores what it is sent)",
		On: kinds(kText, kValue, kPhone), Make: setf(func(d draw) any {
			if d.f.kind == kPhone {
				return strconv.Itoa(7_000_000_000 + d.r.IntN(999_999_999))
			}
			return "contract-" + d.unique()
		})},
	{Name: "spaces-around", Decided: citeString, Kind: LegalVariety, Source: "8 (any String, stored as sent); WSTG-INPV (whitespace trimmed on store)",
		On: kinds(kText), Make: setf(func(d draw) any { return "  contract-" + d.unique() + "  " })},
	{Name: "one-character", Decided: citeString, Kind: LegalVariety, Source: "WSTG-INPV (boundary values)",
		On: kinds(kText, kValue), Make: set("Q")},
	{Name: "markup-and-quotes", Decided: citeString, Kind: LegalVariety, Source: `BLNS Script Injection and Quotation Marks; WSTG-INPV-01 (reflected markup); RFC 8259 7 (escapes)`,
		On: kinds(kText, kValue, kPassword), Make: setf(func(d draw) any { return `O'Brien "<b>&amp;</b>" \ ` + d.unique() })},
	{Name: "sql-like", Decided: citeString, Kind: LegalVariety, Source: "BLNS SQL Injection; WSTG-INPV-05",
		On: kinds(kText, kPassword), Make: setf(func(d draw) any { return "Robert'); DROP TABLE users;-- " + d.unique() })},
	{Name: "format-like", Decided: citeString, Kind: LegalVariety, Source: "BLNS Server Code Injection; WSTG-INPV-13 (format strings)",
		On: kinds(kText), Make: setf(func(d draw) any { return "%s%n%x{0}${7*7}" + d.unique() })},
	{Name: "reserved-word", Decided: citeString, Kind: LegalVariety, Source: "BLNS Reserved Strings (null, undefined, true, NaN)",
		On: kinds(kText, kValue), Make: setf(func(d draw) any { return []string{"null", "undefined", "true", "NaN", "0"}[d.r.IntN(5)] })},
	{Name: "right-to-left", Decided: citeString, Kind: LegalVariety, Source: "BLNS Right-To-Left Strings",
		On: kinds(kText), Make: setf(func(d draw) any { return "مرحبا " + d.unique() })},
	{Name: "invisible", Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.UnstatedValidity,
		Source: "BLNS Trick Unicode (zero-width space, right-to-left override) and Terminal escape codes",
		On:     kinds(kText, kValue), Make: setf(func(d draw) any {
			return []string{"a\u200bb", "a\u202eb", "a\u0007b", "a\u001b[31mb"}[d.r.IntN(4)] + d.unique()
		})},
	{Name: "escaped-in-json", Decided: citeJSON, Kind: LegalVariety, Source: "RFC 8259 7 (every character may be written as a \\u escape)",
		On: kinds(kText, kValue, kEmail, kPassword, kTimezone, kTerms, kHash), Make: func(d draw) (Mutation, bool) {
			s, ok := PlainValue(d.current).(string)
			if !ok || s == "" {
				s = fresh(d) // the field holds nothing to write otherwise: a new valid value
			}
			return Mutation{Value: Escaped(s)}, true
		}},
	{Name: "values-unstated", Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.UnstatedValidity, Source: "7.3 (no code for them); freedom unstated-validity",
		On: kinds(kValue, kPhone), Make: setf(func(d draw) any { return repeat("9", cmp.Or(d.f.max, 255)) })},

	// Email addresses (RFC 5321, 5322; 7.3 InvalidEmail).
	{Name: "email-new", Decided: citeEmail, Kind: LegalVariety, Source: "4.1 (an update stores the new email, which then logs in)",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "contract-" + d.unique() + "@" + d.domain })},
	{Name: "email-plus", Decided: citeEmail, Kind: LegalVariety, Source: "RFC 5322 3.2.3 (atext includes +); BLNS",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "contract-" + d.unique() + "+tag@" + d.domain })},
	{Name: "email-dots", Decided: citeEmail, Kind: LegalVariety, Source: "RFC 5322 3.4.1 (dot-atom)",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "contract." + d.unique() + ".x@" + d.domain })},
	{Name: "email-subdomain", Decided: citeEmail, Kind: LegalVariety, Source: "RFC 5321 2.3.5 (domain names)",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "contract-" + d.unique() + "@contract-sub." + d.domain })},
	{Name: "email-capitals", Decided: citeEmail, Kind: LegalVariety, Source: "RFC 5321 2.4 (the local part is case-sensitive: the address is stored and answered as sent)",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "Contract.Cap-" + d.unique() + "@" + d.domain })},
	{Name: opOwnEmailInCapitals, Decided: citeEmail, Kind: LegalVariety, Source: "RFC 5321 2.4 (domains are case-insensitive); 7.3 (an address is invalid, not taken, when it is one's own)",
		On: kinds(kEmail), Make: func(d draw) (Mutation, bool) {
			if d.ownEmail == "" || strings.ToUpper(d.ownEmail) == d.ownEmail {
				return Mutation{}, false
			}
			return Mutation{Value: strings.ToUpper(d.ownEmail)}, true
		}},
	{Name: "email-254", Decided: citeEmail, Kind: LegalVariety, Source: "RFC 5321 4.5.3.1 (254 characters)",
		On: kinds(kEmail), Make: setf(func(d draw) any { return emailOf(d, 254) })},
	{Name: "email-255", Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.Email255, Source: "8 (..255) against RFC 5321 4.5.3.1",
		On: kinds(kEmail), Make: setf(func(d draw) any { return emailOf(d, 255) })},
	{Name: "email-256", Decided: citeLimit, Kind: NearMiss, Source: "8 (..255)",
		On: kinds(kEmail), Make: setf(func(d draw) any { return emailOf(d, 256) })},
	{Name: "email-display-name", Decided: citeEmail, Kind: NearMiss, Cond: condInvalid, Source: "RFC 5322 3.4 (a name-addr is no addr-spec)",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "Quinn <contract-" + d.unique() + "@" + d.domain + ">" })},
	{Name: "email-no-at", Decided: citeEmail, Kind: PlainlyWrong, Cond: condInvalid, Source: "RFC 5322 3.4.1",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "contract-" + d.unique() + "." + d.domain })},
	{Name: "email-two-at", Decided: citeEmail, Kind: NearMiss, Cond: condInvalid, Source: "RFC 5322 3.4.1",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "contract-" + d.unique() + "@x@" + d.domain })},
	{Name: "email-double-dot", Kind: NearMiss, Cond: condInvalid, Source: "RFC 5322 3.2.3 (dot-atom: no two dots in a row)",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "contract.." + d.unique() + "@" + d.domain })},
	{Name: "email-space", Decided: citeEmail, Kind: NearMiss, Cond: condInvalid, Source: "RFC 5322 3.2.3",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "contract " + d.unique() + "@" + d.domain })},
	{Name: "email-taken", Decided: citeSession, Kind: NearMiss, Reading: openRefusal, Source: "WSTG-ATHN (account enumeration and takeover); 4.1",
		On: kinds(kEmail), Make: func(d draw) (Mutation, bool) { return Mutation{Value: d.taken}, d.taken != "" }},
	{Name: "email-ip-literal", Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.UnstatedValidity, Source: "RFC 5321 4.1.3 (address literals)",
		On: kinds(kEmail), Make: setf(func(d draw) any { return "contract-" + d.unique() + "@[192.0.2.1]" })},

	// Passwords (8: at least 6 characters; 4.1: null keeps it).
	{Name: "password-6", Decided: citePassword, Kind: LegalVariety, Source: "8 (at least 6 characters)",
		On: kinds(kPassword), Make: setf(func(d draw) any { return "pw-" + strings.ToLower(d.unique()[:3]) })},
	{Name: "password-6-two-byte", Decided: citePassword, Kind: LegalVariety, Source: "8 (characters, not bytes); BLNS Two-Byte Characters",
		On: kinds(kPassword), Make: set(repeat(twoByte, 6))},
	{Name: "password-5", Decided: citePassword, Kind: NearMiss, Cond: condShort, Source: "8; WSTG-ATHN-07 (weak password policy)",
		On: kinds(kPassword), Make: set("pw-ab")},
	{Name: "password-5-two-byte", Decided: citePassword, Kind: NearMiss, Cond: condShort, Source: "8 (10 bytes are 5 characters); WSTG-ATHN-07",
		On: kinds(kPassword), Make: set(repeat(twoByte, 5))},
	{Name: "password-spaces", Decided: citePassword, Kind: LegalVariety, Source: "8 (any String); WSTG-ATHN-07 (passphrases)",
		On: kinds(kPassword), Make: setf(func(d draw) any { return "  pass word " + d.unique() + "  " })},
	{Name: "password-long", Kind: LegalVariety, Source: "WSTG-ATHN-07; bcrypt reads 72 bytes (a longer password must not match its prefix)",
		On: kinds(kPassword), Make: setf(func(d draw) any { return repeat("p", 72) + "-" + d.unique() })},

	// Timezones (2.1: Area/City).
	{Name: "timezone-other", Decided: citeTimezone, Kind: LegalVariety, Source: "2.1 (Area/City); the IANA database",
		On: kinds(kTimezone), Make: setf(func(d draw) any {
			// Two segments, a geographic area: the form 2.1 gives, which
			// a server checking it by a pattern takes too.
			return []string{"Asia/Tokyo", "America/Port-au-Prince", "Europe/Paris", "Australia/Sydney"}[d.r.IntN(4)]
		})},
	{Name: "timezone-unstated", Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.UnstatedValidity, Source: "2.1 (the form, not the names); freedom unstated-validity",
		On: kinds(kTimezone), Make: setf(func(d draw) any { return "Contract/" + d.unique() })},

	// Terms (4.3: must equal the literal I agree).
	{Name: "terms-case", Decided: citeTerms, Kind: NearMiss, Reading: openRefusal, Source: "4.3 (the literal); WSTG-INPV (case folding)",
		On: kinds(kTerms), Make: setf(func(d draw) any { return []string{"i agree", "I AGREE", "I Agree"}[d.r.IntN(3)] })},
	{Name: "terms-padded", Decided: citeTerms, Kind: NearMiss, Reading: openRefusal, Source: "4.3 (the literal); WSTG-INPV (whitespace)",
		On: kinds(kTerms), Make: setf(func(d draw) any { return []string{"I agree ", " I agree", "I  agree"}[d.r.IntN(3)] })},
	{Name: "terms-refused", Decided: citeTerms, Kind: PlainlyWrong, Reading: openRefusal, Source: "4.3",
		On: kinds(kTerms), Make: set("I do not agree")},

	// Marketplace hashes (2.3, 8: 40 hexadecimal characters).
	{Name: "hash-upper-case", Decided: citeHash, Kind: LegalVariety, Source: "2.3 (hexadecimal, in either case)",
		On: kinds(kHash), Make: setf(func(d draw) any { return strings.ToUpper(d.hash) })},
	{Name: "hash-39", Decided: citeHash, Kind: NearMiss, Reading: badRequest, Source: "8 (40 characters)",
		On: kinds(kHash), Make: setf(func(d draw) any { return d.hash[:39] })},
	{Name: "hash-41", Decided: citeHash, Kind: NearMiss, Reading: badRequest, Source: "8 (40 characters)",
		On: kinds(kHash), Make: setf(func(d draw) any { return d.hash + "a" })},
	{Name: "hash-not-hex", Decided: citeHash, Kind: NearMiss, Reading: badRequest, Source: "8 (hexadecimal)",
		On: kinds(kHash), Make: setf(func(d draw) any { return d.hash[:39] + "g" })},
	{Name: "hash-padded", Decided: citeHash, Kind: NearMiss, Reading: badRequest, Source: "8 (40 characters); WSTG-INPV (whitespace trimmed before the check)",
		On: kinds(kHash), Make: setf(func(d draw) any { return []string{" " + d.hash, d.hash + " ", " " + d.hash + " "}[d.r.IntN(3)] })},
	{Name: "hash-of-no-app", Decided: citeStore, Kind: NearMiss, Reading: openRefusal, Source: "1 (an app exists in a store); 4.2",
		On: kinds(kHash), Make: set(repeat("0", 40))},

	// Phone extensions (2.1: String or null).
	{Name: "extension-new", Decided: citeExtension, Kind: LegalVariety, Source: "2.1 (String or null)",
		On: kinds(kExtension), Make: setf(func(d draw) any { return strconv.Itoa(100 + d.r.IntN(900)) })},
	{Name: "extension-number", Decided: citeExtension, Kind: NearMiss, Cond: condNotAllowed, Source: "2.1 (String or null, not a Number)",
		On: kinds(kExtension), Make: set(json.Number("42"))},

	// Flags.
	{Name: "flag-toggled", Decided: citeFlag, Kind: LegalVariety, Source: "4.1 (an update stores the flags)",
		On: kinds(kFlag), Make: setf(func(d draw) any { b, _ := d.current.(bool); return !b })},

	// Ids of the catalogues.
	{Name: "id-other", Decided: citeClientUpdate, Kind: LegalVariety, Source: "4.3, 4.4 (an update stores the id sent)",
		On: kinds(kID), Make: func(d draw) (Mutation, bool) {
			ids := d.ids[d.f.catalogue]
			var others []int64
			for _, id := range ids {
				if fmt.Sprint(PlainValue(d.current)) != strconv.FormatInt(id, 10) {
					others = append(others, id)
				}
			}
			if len(others) == 0 {
				return Mutation{}, false
			}
			return Mutation{Value: json.Number(strconv.FormatInt(others[d.r.IntN(len(others))], 10))}, true
		}},
	{Name: "id-unknown", Decided: citeTyped, Kind: NearMiss, Reading: openRefusal, Cond: condUnknown, Source: "WSTG-ATHZ-04 (references to objects that do not exist)",
		On: kinds(kID), Make: set(json.Number("999999999"))},
	{Name: "id-zero", Decided: citeTyped, Kind: NearMiss, Reading: openRefusal, Cond: condUnknown, Source: "WSTG-INPV (boundary values)",
		On: kinds(kID), Make: set(json.Number("0"))},
	{Name: "id-negative", Decided: citeTyped, Kind: NearMiss, Reading: openRefusal, Cond: condUnknown, Source: "WSTG-INPV (boundary values)",
		On: kinds(kID), Make: set(json.Number("-1"))},
	{Name: "id-past-int64", Decided: citeTyped, Kind: NearMiss, Reading: openRefusal, Cond: condUnknown, Source: "RFC 8259 6 (numbers beyond what an implementation holds)",
		On: kinds(kID), Make: set(json.Number("9223372036854775808"))},
	{Name: "id-fraction", Decided: citeTyped, Kind: NearMiss, Reading: openRefusal, Cond: condUnknown, Source: "RFC 8259 6 (a number with a fraction); WSTG-INPV (a float truncated to an integer names another entry)",
		On: kinds(kID), Make: func(d draw) (Mutation, bool) {
			n, ok := PlainValue(d.current).(json.Number)
			if !ok {
				return Mutation{}, false
			}
			return Mutation{Value: json.Number(string(n) + ".5")}, true
		}},
	{Name: "id-decimal-form", Kind: LegalVariety, Reading: mayReadAs, Freedom: &policy.NumberForms, Source: "RFC 8259 6 (1.0 and 1e0 are numbers)",
		On: kinds(kID), Make: func(d draw) (Mutation, bool) {
			n, ok := PlainValue(d.current).(json.Number)
			if !ok {
				return Mutation{}, false
			}
			form := []string{".0", "e0", ".00"}[d.r.IntN(3)]
			return Mutation{Value: json.Number(string(n) + form), Alt: n}, true
		}},

	// Objects.
	{Name: "object-empty", Decided: citeTyped, Kind: NearMiss, Reading: openRefusal, Cond: condMissing, Source: "RFC 8259 4 (an object with no members)",
		On: func(f bodyField) bool {
			return f.kind == kObject && f.path != "client" && f.path != "app" && !strings.HasSuffix(f.path, ".app")
		},
		Make: set(map[string]any{})},
	{Name: "object-new", Decided: citeClientWithUser, Kind: LegalVariety, Source: "4.1 (a client with the user), 4.3 (an app with the client)",
		On: func(f bodyField) bool {
			return f.kind == kObject && (f.path == "client" || strings.HasSuffix("."+f.path, ".app") && len(f.children) > 0)
		},
		Make: func(d draw) (Mutation, bool) {
			o := d.newObject(d.f.path)
			return Mutation{Value: o}, o != nil
		}},
	{Name: "app-given", Decided: citeNoApp, Kind: NearMiss, Reading: openRefusal, Source: "4.4 (app must not be given to PUT /clients)",
		On: func(f bodyField) bool { return f.path == "app" && len(f.children) == 0 }, Make: set(map[string]any{"name": "contract-app"})},
}

// fresh is a new valid value of a string field.
func fresh(d draw) string {
	switch d.f.kind {
	case kEmail:
		return "contract-" + d.unique() + "@" + d.domain
	case kTimezone:
		return "Asia/Tokyo"
	case kTerms:
		return "I agree"
	case kHash:
		return d.hash
	}
	return "contract-" + d.unique()
}

// limitText is a text of n characters of unit, after a unique prefix
// where the field must hold a fresh value.
func limitText(d draw, n int, unit string) string {
	if d.f.kind == kTimezone {
		return "Europe/" + repeat(unit, n-7)
	}
	p := d.unique()
	if len(p) >= n {
		p = ""
	}
	return p + repeat(unit, n-len([]rune(p)))
}

// cutToLimit is s cut to the field's limit (a text of ..100 keeps its first
// 100 characters); s itself where it fits, or the field has none.
func cutToLimit(d draw, s string) string {
	if r := []rune(s); d.f.max > 0 && len(r) > d.f.max {
		return string(r[:d.f.max])
	}
	return s
}

// emailOf is a valid email of exactly n characters at the profile's
// domain: labels of at most 63 characters (RFC 1035) in front of it.
func emailOf(d draw, n int) string {
	local := "contract-" + d.unique()
	rest := n - len(local) - 1 - len(d.domain)
	var labels []string
	for rest > 0 {
		l := min(rest-1, 63)
		if l <= 0 {
			local += repeat("x", rest)
			rest = 0
			break
		}
		labels = append(labels, repeat("l", l))
		rest -= l + 1
	}
	domain := d.domain
	if len(labels) > 0 {
		domain = strings.Join(labels, ".") + "." + d.domain
	}
	return local + "@" + domain
}

// bodyOp finds an operator of the body catalogue, or one only a recording
// has (recorded.go).
func bodyOp(name string) (BodyOp, bool) {
	for _, ops := range [][]BodyOp{bodyOps, recordedOps} {
		for _, o := range ops {
			if o.Name == name {
				return o, true
			}
		}
	}
	return BodyOp{}, false
}

// The operators only a recording has: no generator draws them, and
// operatorRows does not list them.
const (
	opWrongType    = "wrong-type"    // a value of another JSON type than the field's
	opUnnamedField = "unnamed-field" // a field the spec does not name
)

// hasMissingCode reports whether 7.3 names a code for the field not
// provided: its row decides the answer to a body without it.
func hasMissingCode(f bodyField) bool {
	_, ok := f.codes[condMissing]
	return ok
}

// opMemberOtherCase leaves a field out and sends its value under its name
// in other letter case.
const opMemberOtherCase = "member-other-case"

// otherCase is a member name in other letter case than name: its first
// letter's case turned, all small, or all capitals, whichever the draw
// picks of those that differ from it.
func otherCase(r *rand.Rand, name string) string {
	first := strings.ToUpper(name[:1])
	if first == name[:1] {
		first = strings.ToLower(name[:1])
	}
	var forms []string
	for _, f := range []string{first + name[1:], strings.ToLower(name), strings.ToUpper(name)} {
		if f != name && !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	return forms[r.IntN(len(forms))]
}

var recordedOps = []BodyOp{
	{Name: opWrongType, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 3 (types): a recorded value of another type than the field's"},
	{Name: opUnnamedField, Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.UnnamedField, Source: "freedom unnamed-field: a recorded field the spec does not name"},
}
