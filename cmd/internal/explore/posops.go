package explore

// The operators of the positions that are no body field: credentials,
// logins, paths, versions, media types, transfer and the body's form.

import "github.com/pricing-contract/pricing-contract/cmd/internal/policy"

// The operators of the other positions: each names the operator, what it is
// and its source; their effect is in the wire (wire.go) and the reference
// (reference.go).
type posOp struct {
	Name    string
	Decided policy.Cite // as BodyOp's
	Kind    Kind
	Source  string
	Reading reading
	Freedom *policy.Freedom
}

// credOps are the operators on a credential, by scheme: the secret and the
// way it is sent.
var credOps = []posOp{
	{Name: "as-specified", Decided: citeSchemes, Kind: LegalVariety, Source: "5 (each of the three schemes authenticates)"},
	{Name: "header-name-case", Decided: citeHeaderCase, Kind: LegalVariety, Source: "RFC 9110 5.1 (field names are case-insensitive)"},
	{Name: "secret-character-added", Decided: citeAuth, Kind: NearMiss, Source: "WSTG-ATHN-04 (a prefix comparison accepts more); WSTG-SESS-01"},
	{Name: "secret-last-character-removed", Decided: citeAuth, Kind: NearMiss, Source: "WSTG-ATHN-04 (a key matched by its prefix); WSTG-SESS-01"},
	{Name: "secret-last-character-changed", Decided: citeAuth, Kind: NearMiss, Source: "WSTG-ATHN-04 (a comparison of a prefix or a hash); WSTG-SESS-01"},
	{Name: "secret-first-character-changed", Decided: citeAuth, Kind: NearMiss, Source: "WSTG-ATHN-04 (a suffix comparison); WSTG-SESS-01"},
	{Name: "secret-upper-case", Kind: NearMiss, Reading: mayReadAs, Freedom: &policy.SecretForms, Source: "WSTG-SESS-01 (token entropy, case folding)"},
	{Name: "secret-empty", Decided: citeAuth, Kind: NearMiss, Source: "WSTG-ATHN-04 (an empty credential)"},
	{Name: "secret-of-the-other-scheme", Decided: citeAuth, Kind: NearMiss, Source: "WSTG-ATHN-04, WSTG-SESS-01 (an api key where a session token belongs, and back)"},
	{Name: "unspecified-place", Decided: citeAuth, Kind: NearMiss, Source: "WSTG-ATHN-04 (Bearer, a bare key, an apiKey query: places 5 does not name)"},
	{Name: "neighbouring-place", Decided: citeAuth, Kind: NearMiss, Source: "WSTG-ATHN-04 (the secret under a name beside the one 5 gives: a Bearer key, a session token in Authorization, a session_token query)"},
	{Name: "wrong-secret", Decided: citeAuth, Kind: PlainlyWrong, Source: "WSTG-ATHN-04"},
	{Name: credBesideOwn, Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.CredentialsTogether, Source: "5 (each scheme alone: two of one account's credentials together); WSTG-ATHN-04"},
	{Name: credBesideOther, Kind: NearMiss, Reading: mayRefuse, Freedom: &policy.CredentialsTogether, Source: "5 (the authenticated caller's answer); WSTG-ATHZ-02, WSTG-SESS (another account's credential beside the caller's)"},
	{Name: "scheme-word-case", Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.SchemeWord, Source: "RFC 9110 11.1 (the auth-scheme is case-insensitive)"},
	{Name: "scheme-spaces", Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.SchemeWord, Source: "RFC 9110 11.4 (1*SP between scheme and credentials)"},
	{Name: credPercentEncoded, Decided: citeQueryToken, Kind: LegalVariety, Source: "RFC 3986 2.1, 6.2.2.2 (a percent-encoded character is that character)"},
}

// credPercentEncoded sends the sessionToken query's value with every
// character percent-encoded: the same query.
const credPercentEncoded = "secret-percent-encoded"

// The operators that send a second credential beside the first, in another
// scheme: the same account's, or the other account's (the position's
// scheme names the first, the actor's).
const (
	credBesideOwn   = "beside-own-credential"
	credBesideOther = "beside-other-account-credential"
)

// credAtLogin is the operator of a login's credential positions: the other
// account's credential sent with a POST /sessions whose body is the
// actor's.
var credAtLogin = posOp{Name: "other-account-at-login", Kind: NearMiss, Reading: mayRefuse, Freedom: &policy.CredentialAtLogin, Source: "5 (the session is the body's account's); WSTG-ATHN, WSTG-SESS-03 (a login that takes the session it is sent with)"}

// credSchemes are the credential positions.
var credSchemes = []string{"api-key", "session-token", "session-query"}

// credOpFits reports whether a credential operator applies to a scheme.
func credOpFits(scheme, op string) bool {
	switch op {
	case "scheme-word-case", "scheme-spaces":
		return scheme == "api-key"
	case "header-name-case":
		return scheme != "session-query"
	case credPercentEncoded:
		return scheme == "session-query"
	}
	return true
}

// noCred is the one credential operator of its own position: none at all.
var noCred = posOp{Name: "none", Decided: citeAuth, Kind: PlainlyWrong, Source: "5 (not authenticated: 401); WSTG-ATHN-04"}

// loginOps are the operators on the secrets of POST /sessions.
var loginOps = map[string][]posOp{
	"email": {
		{Name: "as-specified", Decided: citeSession, Kind: LegalVariety, Source: "5 (an account's credentials open a session)"},
		{Name: "login-email-case", Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.LoginEmailCase, Source: "RFC 5321 2.4; WSTG-ATHN"},
		{Name: "login-email-plus", Decided: citeSession, Kind: NearMiss, Source: "WSTG-ATHN (address normalisation)"},
		{Name: "login-email-extended", Decided: citeSession, Kind: NearMiss, Source: "WSTG-ATHN-04 (a prefix comparison)"},
		{Name: "login-email-other-account", Decided: citeSession, Kind: NearMiss, Source: "WSTG-ATHN-04 (another account's email with this password)"},
		{Name: "login-email-unknown", Decided: citeSession, Kind: PlainlyWrong, Source: "WSTG-ATHN (account enumeration)"},
		{Name: "login-email-before-change", Decided: citeSession, Kind: NearMiss, Source: "4.1 (the old address no longer logs in after a change)"},
		{Name: "login-email-after-change", Decided: citeSession, Kind: LegalVariety, Source: "4.1 (the new address logs in)"},
		{Name: "login-email-empty", Decided: citeSession, Kind: PlainlyWrong, Source: "WSTG-ATHN-04"},
		{Name: "login-email-absent", Decided: citeSession, Kind: PlainlyWrong, Source: "WSTG-ATHN-04 (a parameter removed)"},
	},
	"password": {
		{Name: "login-password-extended", Decided: citeSession, Kind: NearMiss, Source: "WSTG-ATHN-04 (a prefix comparison)"},
		{Name: "login-password-prefixed", Decided: citeSession, Kind: NearMiss, Source: "WSTG-ATHN-04"},
		{Name: "login-password-upper-case", Decided: citeSession, Kind: NearMiss, Source: "WSTG-ATHN-07 (passwords are case-sensitive)"},
		{Name: "login-password-trailing-space", Decided: citeSession, Kind: NearMiss, Source: "WSTG-ATHN-04 (trimmed comparison)"},
		{Name: "login-password-other-account", Decided: citeSession, Kind: NearMiss, Source: "WSTG-ATHN-04"},
		{Name: "login-password-72-byte-prefix", Decided: citeSession, Kind: NearMiss, Source: "bcrypt reads 72 bytes; WSTG-ATHN-07"},
		{Name: "login-password-sql", Decided: citeSession, Kind: PlainlyWrong, Source: "WSTG-INPV-05 (a tautology for a password); BLNS SQL Injection"},
		{Name: "login-password-empty", Decided: citeSession, Kind: PlainlyWrong, Source: "WSTG-ATHN-04"},
		{Name: "login-password-absent", Decided: citeSession, Kind: PlainlyWrong, Source: "WSTG-ATHN-04 (a parameter removed: a check made only when it is there)"},
		{Name: "login-password-null", Decided: citeSession, Kind: PlainlyWrong, Source: "RFC 8259 3 (null); WSTG-ATHN-04 (a check made only when a value is there)"},
		{Name: "login-password-new", Decided: citeSession, Kind: LegalVariety, Source: "4.1 (a new password logs in)"},
		{Name: "login-password-before-change", Decided: citeSession, Kind: NearMiss, Source: "4.1 (the password replaced no longer logs in); WSTG-ATHN-09 (weak password change)"},
	},
}

// pathOps are the operators on the id of a PUT's path.
var pathOps = []posOp{
	{Name: "own", Decided: citeUpdate, Kind: LegalVariety, Source: "4.1, 4.4 (the caller's own resource)"},
	{Name: "other", Decided: citeForbidden, Kind: NearMiss, Source: "5 (403); WSTG-ATHZ-04 (insecure direct object references)"},
	{Name: "unknown", Decided: citeNotFound, Kind: NearMiss, Reading: openRefusal, Freedom: &policy.UnknownID, Source: "7.2 (404); WSTG-ATHZ-04"},
	{Name: "neighbour", Kind: NearMiss, Reading: openRefusal, Freedom: &policy.UnknownID, Source: "WSTG-ATHZ-04 (the next id); RFC 8259 6 (an id read as a float names its neighbour)"},
	{Name: "zero", Kind: NearMiss, Reading: openRefusal, Freedom: &policy.MalformedID, Source: "WSTG-INPV (boundary values)"},
	{Name: "negative", Kind: NearMiss, Reading: openRefusal, Freedom: &policy.MalformedID, Source: "WSTG-INPV (boundary values)"},
	{Name: "decimal", Kind: NearMiss, Reading: openRefusal, Freedom: &policy.MalformedID, Source: "RFC 3986 3.3; WSTG-INPV"},
	{Name: "letters", Kind: PlainlyWrong, Reading: openRefusal, Freedom: &policy.MalformedID, Source: "WSTG-INPV; BLNS"},
	{Name: "past-int64", Kind: NearMiss, Reading: openRefusal, Freedom: &policy.MalformedID, Source: "RFC 8259 6; WSTG-INPV (integer overflow)"},
	{Name: "percent-encoded", Decided: citePathID, Kind: LegalVariety, Source: "RFC 3986 2.3, 6.2.2.2 (a percent-encoded digit is that digit); RFC 9110 4.2.3"},
	{Name: "leading-zero", Kind: LegalVariety, Reading: mayReadAs, Freedom: &policy.MalformedID, Source: "RFC 3986 (a path segment is text); WSTG-INPV"},
	{Name: "created", Decided: citeClientUpdate, Kind: LegalVariety, Source: "4.3, 4.4 (a client made by the caller is the caller's)"},
}

// versionOps are the operators on the version segment (9).
var versionOps = []posOp{
	{Name: "other-served-form", Decided: citeVersionForms, Kind: LegalVariety, Source: "9 (v1 and v1.0 name the one version)"},
	{Name: "unknown-version", Decided: citeVersion, Kind: NearMiss, Source: "9 (one version is available); RFC 3986 3.3"},
}

// typeOps are the operators on the Content-Type of a body.
var typeOps = []posOp{
	{Name: "charset-parameter", Decided: citeBodyJSON, Kind: LegalVariety, Source: "RFC 9110 8.3.1 (media type parameters); RFC 8259 8.1"},
	{Name: "media-type-case", Decided: citeBodyJSON, Kind: LegalVariety, Source: "RFC 9110 8.3.1 (type and subtype are case-insensitive)"},
	{Name: "text-plain", Kind: NearMiss, Reading: mayRefuse, Freedom: &policy.ContentType, Source: "RFC 9110 8.3; freedom content-type"},
}

// acceptOps are the operators on the Accept header: forms a correct server
// answers as it answers a request with none (the API's answers are JSON).
var acceptOps = []posOp{
	{Name: "accept-any", Decided: citeAccept, Kind: LegalVariety, Source: "RFC 9110 12.5.1 (*/* accepts any media type)"},
	{Name: "accept-application", Decided: citeAccept, Kind: LegalVariety, Source: "RFC 9110 12.5.1 (application/* ranges)"},
	{Name: "accept-json-parameters", Decided: citeAccept, Kind: LegalVariety, Source: "RFC 9110 12.5.1, 8.3.1 (parameters of a media range)"},
	{Name: "accept-list", Decided: citeAccept, Kind: LegalVariety, Source: "RFC 9110 12.4.2, 12.5.1 (a list with weights, JSON among it)"},
}

// acceptValue is the Accept header each operator sends.
var acceptValue = map[string]string{
	"accept-any":             "*/*",
	"accept-application":     "application/*",
	"accept-json-parameters": "application/json; charset=utf-8",
	"accept-list":            "text/html;q=0.9, application/json, */*;q=0.1",
}

// transferOps are the operators on how a body travels.
var transferOps = []posOp{
	{Name: "chunked", Decided: citeBodyJSON, Kind: LegalVariety, Source: "RFC 9112 6.1, 7.1 (a body in chunks, with no Content-Length, is the same content)"},
}

// typeValue is the Content-Type each operator sends.
var typeValue = map[string]string{
	"charset-parameter": "application/json; charset=utf-8",
	"media-type-case":   "Application/JSON",
	"text-plain":        "text/plain",
}

// wireOps are the operators on the whole body.
var wireOps = []posOp{
	{Name: WirePretty, Decided: citeJSON, Kind: LegalVariety, Source: "RFC 8259 2 (insignificant whitespace)"},
	{Name: WireReordered, Decided: citeJSON, Kind: LegalVariety, Source: "RFC 8259 4 (an object is an unordered collection)"},
	{Name: WireEscapes, Decided: citeJSON, Kind: LegalVariety, Source: "RFC 8259 7 (\\u escapes, surrogate pairs)"},
	{Name: WireSolidus, Decided: citeJSON, Kind: LegalVariety, Source: "RFC 8259 7 (\\/ is /)"},
	{Name: WireDuplicate, Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.DuplicateKeys, Source: "RFC 8259 4 (names should be unique); WSTG-INPV-04 (parameter pollution)"},
	{Name: WireUnnamed, Kind: LegalVariety, Reading: mayRefuse, Freedom: &policy.UnnamedField, Source: "WSTG-INPV (mass assignment); freedom unnamed-field"},
	{Name: WireNotJSON, Decided: citeBodyJSON, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 2; BLNS"},
	{Name: WireArray, Decided: citeBodyJSON, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 5 (an array is JSON, not the object 4 asks for)"},
	{Name: WireScalar, Decided: citeBodyJSON, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 2 (a scalar is a JSON text)"},
	{Name: WireNull, Decided: citeBodyJSON, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 8259 2 (null is a JSON text, no object); WSTG-INPV (a nil body dereferenced)"},
	{Name: WireEmpty, Decided: citeBodyJSON, Kind: PlainlyWrong, Reading: openRefusal, Source: "RFC 9110 8.6 (an empty content)"},
	{Name: WireDeep, Kind: NearMiss, Reading: openRefusal, Source: "RFC 8259 9 (limits on nesting); WSTG-INPV (resource exhaustion)"},
	{Name: WireLarge, Kind: PlainlyWrong, Reading: mayRefuse, Freedom: &policy.SizeLimitFreedom, Source: "RFC 9110 15.5.14 (413); freedom size-limit"},
}

// equivalentWires are the wire operators that write a body as the same
// JSON text in another form (RFC 8259 2, 4, 7), which fit an operation's body.
func equivalentWires(op Op) []string {
	var out []string
	for _, w := range []string{WirePretty, WireReordered, WireEscapes, WireSolidus} {
		if wireFits(op, w, false) {
			out = append(out, w)
		}
	}
	return out
}

// wireFits reports whether a wire operator applies to an operation's body.
func wireFits(op Op, w string, loginForm bool) bool {
	if op == OpLogin {
		switch w {
		case WirePretty, WireReordered, WireEscapes, WireNotJSON, WireArray, WireNull, WireEmpty:
			return !loginForm
		}
		return false
	}
	return w != WireSolidus || op == OpPutUser
}

func findPosOp(ops []posOp, name string) (posOp, bool) {
	for _, o := range ops {
		if o.Name == name {
			return o, true
		}
	}
	return posOp{}, false
}

// positionOps are the operator lists of the positions that are no body
// field, the credential's "none" first.
func positionOps() [][]posOp {
	return [][]posOp{append([]posOp{noCred}, credOps...), {credAtLogin}, loginOps["email"], loginOps["password"], pathOps, versionOps, typeOps, acceptOps, transferOps, wireOps}
}
