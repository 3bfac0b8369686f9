package steps

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/cucumber/godog"
	"github.com/tidwall/gjson"

	"github.com/pricing-contract/pricing-contract/steps/match"
	"github.com/pricing-contract/pricing-contract/steps/target"
)

// varSteps remembers values and expands {{name}} placeholders.
type varSteps struct{}

// steps are the phrases:
//
//	Given I remember "<value>" as "<name>"
//	Then I remember the JSON at "<path>" as "<name>"
//	Given the profile value "<key>" is "<value>"
//	Given the profile value "<key>" includes "<value>"
//
// The profile-value phrases are preconditions: the rest of the scenario
// runs only when the target profile holds that value (or, for includes,
// lists it in its comma-separated value); otherwise the rest is skipped and
// its steps are reported as skipped (godog's summary counts a scenario whose
// steps were all skipped as passed). The key is a profile-file key; an
// unknown key fails the step.
func (v varSteps) steps() []stepDef {
	return []stepDef{
		{`^I remember "(.*)" as ` + match.Quoted + `$`, v.iRemember},
		{`^I remember the JSON at "(.*?)" as ` + match.Quoted + `$`, v.iRememberTheJSONAt},
		{`^the profile value ` + match.Quoted + ` (is|includes) ` + match.Quoted + `$`, v.theProfileValue},
	}
}

// theProfileValue skips the scenario unless the profile holds the value.
func (varSteps) theProfileValue(ctx context.Context, key, verb, want string) error {
	key, want = match.UnescapeArg(key), match.UnescapeArg(want)
	st, err := stateFromContext(ctx)
	if err != nil {
		return err
	}
	got, ok := st.suite.profile.Value(key)
	if !ok {
		return fmt.Errorf("unknown profile key %q (known: %s)", key, target.KnownKeys())
	}
	if (verb == "is" && got == want) || (verb == "includes" && target.Listed(got, want)) {
		st.assume(key)
		return nil
	}
	return fmt.Errorf("%w: this scenario needs the profile's %s to %s %q, and it is %q", godog.ErrSkip, key, verbBase(verb), want, got)
}

func verbBase(verb string) string {
	if verb == "is" {
		return "be"
	}
	return "include"
}

var varName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-]*$`)

func checkVarName(name string) error {
	if !varName.MatchString(name) {
		return fmt.Errorf("%q is not a variable name (letters, digits, _ . -; starting with a letter or _)", name)
	}
	return nil
}

// rememberAs is the scenario state and the name a step remembers a value
// as, unescaped and checked.
func rememberAs(ctx context.Context, name string) (*scenarioState, string, error) {
	name = match.UnescapeArg(name)
	st, err := stateFromContext(ctx)
	if err != nil {
		return nil, "", err
	}
	return st, name, checkVarName(name)
}

func (varSteps) iRemember(ctx context.Context, raw, name string) error {
	raw = match.UnescapeArg(raw)
	st, name, err := rememberAs(ctx, name)
	if err != nil {
		return err
	}
	// A value that is one placeholder keeps its kind, so that remembering
	// {{A.userId}} under another name still substitutes a number.
	if m := placeholder.FindStringSubmatchIndex(raw); m != nil && m[0] == 0 && m[1] == len(raw) {
		val, err := st.lookup(ctx, raw[m[2]:m[3]])
		if err != nil {
			return err
		}
		st.vars[name] = val
		return nil
	}
	text, err := st.substText(ctx, raw)
	if err != nil {
		return err
	}
	st.vars[name] = value{text: text}
	return nil
}

func (varSteps) iRememberTheJSONAt(ctx context.Context, path, name string) error {
	path = match.UnescapeArg(path)
	st, name, err := rememberAs(ctx, name)
	if err != nil {
		return err
	}
	res, err := st.jsonAt(ctx, path)
	if err != nil {
		return err
	}
	if !res.Exists() {
		return st.fail("cannot remember %q: the JSON at %q is absent", name, path)
	}
	st.vars[name] = value{text: res.Raw, json: true}
	return nil
}

// value is a variable's value: raw JSON when it was remembered from JSON or
// is a number of the profile, so that a number stays a number; else text.
type value struct {
	text string
	json bool
}

// jsonText is the value as a JSON document.
func (v value) jsonText() string {
	if v.json {
		return v.text
	}
	return match.JSONString(v.text)
}

// plain is the value as text: a JSON string without its quotes, any other
// JSON as written.
func (v value) plain() string {
	if v.json {
		if r := gjson.Parse(v.text); r.Type == gjson.String {
			return r.Str
		}
	}
	return v.text
}

func numberOrText(s string) value {
	if _, err := strconv.ParseFloat(s, 64); err == nil && gjson.Valid(s) {
		return value{text: s, json: true}
	}
	return value{text: s}
}

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.:\-]+)\s*\}\}`)

// lookup resolves one variable name: a generator, a remembered value, or a
// value of the target profile.
func (st *scenarioState) lookup(ctx context.Context, name string) (value, error) {
	if spec, ok := strings.CutPrefix(name, "gen:"); ok {
		s, err := st.generate(spec)
		if err != nil {
			return value{}, fmt.Errorf("{{%s}}: %w", name, err)
		}
		return value{text: s}, nil
	}
	if kind, inner, ok := strings.Cut(name, ":"); ok && (kind == "quote" || kind == "upper" || kind == "pct-first" || nearMisses[kind] != "") {
		v, err := st.lookup(ctx, inner)
		if err != nil {
			return value{}, err
		}
		return value{text: st.changed(kind, v.plain())}, nil
	}
	if v, ok := st.vars[name]; ok {
		return v, nil
	}
	p := st.suite.profile
	if v, ok, err := st.accountVar(ctx, name); ok {
		return v, err
	}
	switch name {
	case "currencyId", "planId", "platformId", "phoneCountryId", "marketappHash":
		v, err := profileText(p, seedVars[name])
		if err != nil && st.standIns {
			v, err = standIns[name], nil
		}
		if err != nil {
			return value{}, err
		}
		if name == "marketappHash" {
			return value{text: v}, nil
		}
		return numberOrText(v), nil
	case "phoneExtension":
		if ext := p.MustValue("phone_extension"); ext != "null" {
			return value{text: ext}, nil
		}
		return value{text: "null", json: true}, nil
	}
	if key, ok := profileVars[name]; ok {
		v, err := profileText(p, key)
		return value{text: v}, err
	}
	if list, rest, ok := strings.Cut(name, "."); ok && catalogueKeys[list] != "" {
		return catalogueValue(p, list, rest)
	}
	return value{}, fmt.Errorf("unknown variable {{%s}}: not remembered in this scenario and not a profile value or generator", name)
}

// accountVar is an account's variable ({{A.email}}, {{B.userId}}, ...);
// ok is false for a name that is none.
func (st *scenarioState) accountVar(ctx context.Context, name string) (v value, ok bool, err error) {
	acct, field, ok := strings.Cut(name, ".")
	if !ok || (acct != "A" && acct != "B") {
		return value{}, false, nil
	}
	a, err := st.accountOf(acct)
	if err != nil {
		return value{}, true, fmt.Errorf("{{%s}}: %w", name, err)
	}
	switch field {
	case "email":
		return value{text: a.email}, true, nil
	case "password":
		return value{text: a.password}, true, nil
	case "apiKey":
		return value{text: a.apiKey}, true, nil
	case "userId", "clientId":
		ids, err := st.accountIDs(ctx, acct)
		if err != nil {
			return value{}, true, fmt.Errorf("{{%s}}: %w", name, err)
		}
		if field == "userId" {
			return value{text: ids.userID, json: true}, true, nil
		}
		return value{text: ids.clientID, json: true}, true, nil
	}
	return value{}, false, nil
}

// changed is a value under a prefix that changes it: quote: escapes it for
// a pattern, upper: writes its letters in upper case, pct-first:
// percent-encodes its first character, and each of
// nearMisses changes it as nearMiss does a credential.
func (st *scenarioState) changed(kind, s string) string {
	switch kind {
	case "quote":
		return regexp.QuoteMeta(s)
	case "upper":
		return strings.ToUpper(s)
	case "pct-first":
		// The same text in another form of a URI (RFC 3986 2.3).
		if s == "" {
			return s
		}
		return fmt.Sprintf("%%%02X", s[0]) + s[1:]
	}
	changed := nearMiss(s, nearMisses[kind], st.takenSecret)
	st.addSecret(changed) // one character off a secret, masked like it
	return changed
}

// nearMisses are the variable prefixes that change a value by one
// character, or its letters' case ({{near-last:A.password}}), as nearMiss
// does for a credential.
var nearMisses = map[string]string{
	"near-last": "its last character changed", "near-first": "its first character changed",
	"near-added": "a character added", "near-removed": "its last character removed",
	"near-case": "its letters in the other case",
}

// seedVars are the variables that are seed values of the profile, by key.
var seedVars = map[string]string{
	"currencyId": "currency_id", "planId": "plan_id", "platformId": "platform_id",
	"phoneCountryId": "phone_country_id", "marketappHash": "marketapp_hash",
}

// standIns fill a seed value the profile does not give where the body's
// values cannot change the answer: no target need hold them.
var standIns = map[string]string{
	"currencyId": "0", "planId": "0", "platformId": "0", "phoneCountryId": "0",
	"marketappHash": strings.Repeat("0", 40),
}

// profileVars are the variables that are profile values as text, by the
// profile-file key they come from.
var profileVars = map[string]string{
	"emailDomain":     "email_domain",
	"phoneNumber":     "phone_number",
	"addressLine1":    "address_line1",
	"addressLine2":    "address_line2",
	"addressCity":     "address_city",
	"addressPostcode": "address_postcode",
	"addressCountry":  "address_country",
	"vat":             "vat",
	"platformsPath":   "platforms_path",
}

// stateArg is the scenario state get returns (stateFromContext, or response
// for a step that reads the answer) and a step's argument unescaped, its
// placeholders replaced as text.
func stateArg(ctx context.Context, get func(context.Context) (*scenarioState, error), arg string) (*scenarioState, string, error) {
	arg = match.UnescapeArg(arg)
	st, err := get(ctx)
	if err != nil {
		return nil, "", err
	}
	if arg, err = st.substText(ctx, arg); err != nil {
		return nil, "", err
	}
	return st, arg, nil
}

// substText replaces every placeholder of s by its value as text. It is used
// for step arguments, table cells and paths.
func (st *scenarioState) substText(ctx context.Context, s string) (string, error) {
	var firstErr error
	out := placeholder.ReplaceAllStringFunc(s, func(m string) string {
		name := placeholder.FindStringSubmatch(m)[1]
		v, err := st.lookup(ctx, name)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return m
		}
		return v.plain()
	})
	return out, firstErr
}

// substJSON replaces the placeholders of a JSON text. A placeholder that is
// a whole JSON string ("{{x}}") or stands outside any string becomes the
// value as JSON (a number stays a number); inside a longer string it becomes
// the value as text, escaped for JSON.
func (st *scenarioState) substJSON(ctx context.Context, s string) (string, error) {
	var b []byte
	inString := false
	stringStart := -1 // index in b of the opening quote of the current string
	for i := 0; i < len(s); {
		if s[i] == '{' && strings.HasPrefix(s[i:], "{{") {
			if loc := placeholder.FindStringSubmatchIndex(s[i:]); loc != nil && loc[0] == 0 {
				name := s[i+loc[2] : i+loc[3]]
				end := i + loc[1]
				v, err := st.lookup(ctx, name)
				if err != nil {
					return "", err
				}
				switch {
				case inString && stringStart == len(b)-1 && end < len(s) && s[end] == '"':
					b = append(b[:stringStart], v.jsonText()...)
					inString = false
					end++ // the closing quote is replaced too
				case inString:
					q := match.JSONString(v.plain())
					b = append(b, q[1:len(q)-1]...)
				default:
					b = append(b, v.jsonText()...)
				}
				i = end
				continue
			}
		}
		c := s[i]
		switch {
		case inString && c == '\\' && i+1 < len(s):
			b = append(b, c, s[i+1])
			i += 2
			continue
		case inString && c == '"':
			inString = false
		case !inString && c == '"':
			inString = true
			stringStart = len(b)
		}
		b = append(b, c)
		i++
	}
	return string(b), nil
}

// Generators. Every value is fresh; the random parts come from the
// scenario's own faker, seeded from crypto/rand, so parallel scenarios and
// parallel runs against one server do not collide.

const (
	genPrefix  = "contract-"
	lowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	mixedAlnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	lowerHex   = "0123456789abcdef"
	upperHex   = "0123456789ABCDEF"
	// nonASCII are letters that take two or three bytes in UTF-8, one code
	// point and one UTF-16 unit each, with no decomposition and unchanged
	// by Unicode normalisation (NFC, NFD, NFKC, NFKD): whichever of these a
	// server counts or applies, a string of them has as many characters as
	// code points. Only a count of bytes differs.
	nonASCII  = "жщыюяфцшлдбгпøæßđħłŋλπσω中文字日本語"
	maxGenLen = 1 << 20
)

// emailDomain is the domain of generated emails: the profile's, since a
// target may refuse an address it cannot deliver to.
func (st *scenarioState) emailDomain() string {
	st.assume("email_domain")
	return st.suite.profile.MustValue("email_domain")
}

func (st *scenarioState) generate(spec string) (string, error) {
	kind, arg, hasArg := strings.Cut(spec, ":")
	if kind == "email" && emailForms[arg] {
		return st.genEmailForm(arg), nil
	}
	n := -1
	if hasArg {
		var err error
		n, err = strconv.Atoi(arg)
		if err != nil || n < 0 || n > maxGenLen {
			return "", fmt.Errorf("length %q is not a number between 0 and %d", arg, maxGenLen)
		}
	}
	switch {
	case kind == "email" && !hasArg:
		return genPrefix + st.randomFrom(lowerAlnum, 12) + "@" + st.emailDomain(), nil
	case kind == "email":
		return st.genEmail(n)
	case kind == "name" && !hasArg:
		return genPrefix + st.word(st.faker.Adjective()) + "-" + st.word(st.faker.Noun()) + "-" + st.randomFrom("0123456789", 8), nil
	case kind == "string" && hasArg:
		return st.genString(n), nil
	case kind == "unicode" && hasArg:
		return st.genUnicode(n), nil
	case kind == "hex" && hasArg:
		return st.randomFrom(lowerHex, n), nil
	case kind == "HEX" && hasArg:
		return st.randomFrom(upperHex, n), nil
	case kind == "password" && !hasArg:
		return st.randomFrom(mixedAlnum, 12), nil
	case kind == "password":
		return st.randomFrom(mixedAlnum, n), nil
	}
	return "", fmt.Errorf("unknown generator gen:%s (known: gen:email, gen:email:N, gen:email:plus, gen:email:dots, gen:email:subdomain, "+
		"gen:name, gen:string:N, gen:unicode:N, gen:hex:N, gen:HEX:N, gen:password, gen:password:N)", spec)
}

// emailForms are the unusual but valid addresses gen:email:<form> makes, all
// at the profile's email domain: a + in the local part, dots in the local
// part, and a subdomain of the profile's domain.
var emailForms = map[string]bool{"plus": true, "dots": true, "subdomain": true}

func (st *scenarioState) genEmailForm(form string) string {
	local, domain := genPrefix+st.randomFrom(lowerAlnum, 12), st.emailDomain()
	switch form {
	case "plus":
		local += "+" + st.randomFrom(lowerAlnum, 6)
	case "dots":
		local = genPrefix + st.randomFrom(lowerAlnum, 6) + "." + st.randomFrom(lowerAlnum, 6) + "." + st.randomFrom(lowerAlnum, 4)
	case "subdomain":
		domain = "contract-" + st.randomFrom(lowerAlnum, 6) + "." + domain
	}
	return local + "@" + domain
}

func (st *scenarioState) randomFrom(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[st.faker.Rand.Intn(len(alphabet))]
	}
	return string(b)
}

// word keeps the lower-case letters of a faker word, so that a name stays
// within letters, digits and dashes whatever the word list holds.
func (st *scenarioState) word(w string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(w) {
		if r < unicode.MaxASCII && unicode.IsLetter(r) {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return st.randomFrom("abcdefghijklmnopqrstuvwxyz", 5)
	}
	return b.String()
}

// genString is exactly n characters; from 9 on it starts with "contract-".
// Shorter strings cannot carry the prefix and are random letters and digits.
func (st *scenarioState) genString(n int) string {
	if n < len(genPrefix) {
		return st.randomFrom(lowerAlnum, n)
	}
	return genPrefix + st.randomFrom(lowerAlnum, n-len(genPrefix))
}

// genUnicode is exactly n characters; from 9 on it starts with "contract-",
// and the rest are non-ASCII letters (nonASCII).
func (st *scenarioState) genUnicode(n int) string {
	letters := []rune(nonASCII)
	var b strings.Builder
	if n >= len(genPrefix) {
		b.WriteString(genPrefix)
		n -= len(genPrefix)
	}
	for range n {
		b.WriteRune(letters[st.faker.Rand.Intn(len(letters))])
	}
	return b.String()
}

// genEmail builds an address of exactly n characters that RFC 5321 accepts
// label by label: the local part fills up to 64 characters, and whatever is
// left goes into extra domain labels of at most 63 characters in front of
// the profile's email domain. The total is not capped at 254, because the
// limit tests need a 256-character address that fails only on its length.
func (st *scenarioState) genEmail(n int) (string, error) {
	domain := st.emailDomain()
	// "contract-", one random character, "@" and the domain.
	if minLen := len(genPrefix) + 1 + 1 + len(domain); n < minLen {
		return "", fmt.Errorf("an email at %s needs at least %d characters, got %d", domain, minLen, n)
	}
	fixed := 1 + len(domain) // "@" and the domain
	local := min(64, n-fixed)
	rest := n - fixed - local // characters for extra labels, each with its dot
	if rest == 1 {
		// One character cannot be a label and its dot: move one from the local part.
		local--
		rest = 2
	}
	var b strings.Builder
	b.WriteString(genPrefix)
	b.WriteString(st.randomFrom(lowerAlnum, local-len(genPrefix)))
	b.WriteByte('@')
	for rest > 0 {
		chunk := min(64, rest)
		if rest-chunk == 1 {
			chunk--
		}
		b.WriteString(st.randomFrom("abcdefghijklmnopqrstuvwxyz", 1))
		b.WriteString(st.randomFrom(lowerAlnum, chunk-2))
		b.WriteByte('.')
		rest -= chunk
	}
	b.WriteString(domain)
	return b.String(), nil
}
