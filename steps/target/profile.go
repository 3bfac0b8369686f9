package target

import (
	"bufio"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// profileField ties one value of the target profile to its environment
// variable and its key in a profile file, so that the two sources cannot
// drift apart.
type profileField struct {
	key   string // in a profile file
	env   string // in the environment
	def   string // the mock's seed
	field func(*Profile) *string
	check func(string) error
}

var profileFields = []profileField{
	{"base_url", "PRICING_BASE_URL", "http://127.0.0.1:8080/v1", func(p *Profile) *string { return &p.BaseURL }, checkBaseURL},
	{"email", "PRICING_EMAIL", "qa@example.com", func(p *Profile) *string { return &p.Email }, nil},
	{"password", "PRICING_PASSWORD", "qa-password", func(p *Profile) *string { return &p.Password }, nil},
	{"api_key", "PRICING_API_KEY", "qa-api-key", func(p *Profile) *string { return &p.APIKey }, nil},
	{"other_email", "PRICING_OTHER_EMAIL", "other@example.com", func(p *Profile) *string { return &p.OtherEmail }, nil},
	{"other_password", "PRICING_OTHER_PASSWORD", "other-password", func(p *Profile) *string { return &p.OtherPassword }, nil},
	{"other_api_key", "PRICING_OTHER_API_KEY", "other-api-key", func(p *Profile) *string { return &p.OtherAPIKey }, nil},
	{"currency_id", "PRICING_CURRENCY_ID", "1", func(p *Profile) *string { return &p.CurrencyID }, checkID},
	{"plan_id", "PRICING_PLAN_ID", "1", func(p *Profile) *string { return &p.PlanID }, checkID},
	{"platform_id", "PRICING_PLATFORM_ID", "1", func(p *Profile) *string { return &p.PlatformID }, checkID},
	{"phone_country_id", "PRICING_PHONE_COUNTRY_ID", "1", func(p *Profile) *string { return &p.PhoneCountryID }, checkID},
	{"marketapp_hash", "PRICING_MARKETAPP_HASH", "fecaf482f29181490ae5ecfb2790186ce7f82078", func(p *Profile) *string { return &p.MarketappHash }, checkHash},
	{"first_name", "PRICING_FIRST_NAME", "Quinn", func(p *Profile) *string { return &p.FirstName }, nil},
	{"last_name", "PRICING_LAST_NAME", "Assurance", func(p *Profile) *string { return &p.LastName }, nil},
	{"timezone", "PRICING_TIMEZONE", "Europe/London", func(p *Profile) *string { return &p.Timezone }, nil},
	{"other_first_name", "PRICING_OTHER_FIRST_NAME", "Olive", func(p *Profile) *string { return &p.OtherFirstName }, nil},
	{"other_last_name", "PRICING_OTHER_LAST_NAME", "Other", func(p *Profile) *string { return &p.OtherLastName }, nil},
	{"other_timezone", "PRICING_OTHER_TIMEZONE", "America/New_York", func(p *Profile) *string { return &p.OtherTimezone }, nil},
	{"login_encoding", "PRICING_LOGIN_ENCODING", "json", func(p *Profile) *string { return &p.LoginEncoding }, oneOf("json", "form")},

	// The target's choices where the spec is silent, and realistic values
	// for fields whose validation the spec does not show. Each defaults to
	// the mock's choice; Profile.value reads them with that default, so a
	// Profile built by hand need not set them.
	{"email_domain", "PRICING_EMAIL_DOMAIN", "example.com", func(p *Profile) *string { return &p.EmailDomain }, checkEmailDomain},
	{"phone_number", "PRICING_PHONE_NUMBER", "7700900123", func(p *Profile) *string { return &p.PhoneNumber }, nil},
	{"phone_extension", "PRICING_PHONE_EXTENSION", "null", func(p *Profile) *string { return &p.PhoneExtension }, nil},
	{"other_phone_country_id", "PRICING_OTHER_PHONE_COUNTRY_ID", "2", func(p *Profile) *string { return &p.OtherPhoneCountryID }, checkID},
	{"other_phone_number", "PRICING_OTHER_PHONE_NUMBER", "2025550143", func(p *Profile) *string { return &p.OtherPhoneNumber }, nil},
	{"other_phone_extension", "PRICING_OTHER_PHONE_EXTENSION", "42", func(p *Profile) *string { return &p.OtherPhoneExtension }, nil},
	{"address_line1", "PRICING_ADDRESS_LINE1", "1 Contract Street", func(p *Profile) *string { return &p.AddressLine1 }, nil},
	{"address_line2", "PRICING_ADDRESS_LINE2", "Floor 2", func(p *Profile) *string { return &p.AddressLine2 }, nil},
	{"address_city", "PRICING_ADDRESS_CITY", "London", func(p *Profile) *string { return &p.AddressCity }, nil},
	{"address_postcode", "PRICING_ADDRESS_POSTCODE", "EC1A 1BB", func(p *Profile) *string { return &p.AddressPostcode }, nil},
	{"address_country", "PRICING_ADDRESS_COUNTRY", "United Kingdom", func(p *Profile) *string { return &p.AddressCountry }, nil},
	{"vat", "PRICING_VAT", "GB123456789", func(p *Profile) *string { return &p.VAT }, nil},
	{"clients_per_user", "PRICING_CLIENTS_PER_USER", "several", func(p *Profile) *string { return &p.ClientsPerUser }, oneOf("several", "one")},
	{"apps_per_marketapp", "PRICING_APPS_PER_MARKETAPP", "several", func(p *Profile) *string { return &p.AppsPerMarketapp }, oneOf("several", "one")},
	{"phone_country_field", "PRICING_PHONE_COUNTRY_FIELD", PhoneCountryObject, func(p *Profile) *string { return &p.PhoneCountryField }, oneOf(PhoneCountryObject, PhoneCountryFlat)},
	{"version_forms", "PRICING_VERSION_FORMS", "v1,v1.0", func(p *Profile) *string { return &p.VersionForms }, checkVersionForms},
	{"platforms_path", "PRICING_PLATFORMS_PATH", "/platforms", func(p *Profile) *string { return &p.PlatformsPath }, checkPlatformsPath},
	{"currencies", "PRICING_CURRENCIES", "1:GBP,2:EUR,3:USD", func(p *Profile) *string { return &p.Currencies }, checkCurrencies},
	{"plans", "PRICING_PLANS", "1:lite,2:pro,3:dynamic", func(p *Profile) *string { return &p.Plans }, checkPlans},
	{"platforms", "PRICING_PLATFORMS", "1:Android,2:iOS", func(p *Profile) *string { return &p.Platforms }, checkPlatforms},
	{"seed_defaults", "PRICING_SEED_DEFAULTS", "auto", func(p *Profile) *string { return &p.SeedDefaults }, oneOf("auto", "mock", "none")},
	{"clock_skew", "PRICING_CLOCK_SKEW", "2m", func(p *Profile) *string { return &p.ClockSkew }, checkClockSkew},
}

// pairFields are the values each pair of accounts has its own of. Pair N,
// from 2 to maxPairs, takes them from the key and the variable of pair 1's
// profileField with _N appended (email_2, PRICING_EMAIL_2), with no default.
var pairFields = []struct {
	key   string
	field func(*AccountPair) *string
}{
	{"email", func(p *AccountPair) *string { return &p.Email }},
	{"password", func(p *AccountPair) *string { return &p.Password }},
	{"api_key", func(p *AccountPair) *string { return &p.APIKey }},
	{"other_email", func(p *AccountPair) *string { return &p.OtherEmail }},
	{"other_password", func(p *AccountPair) *string { return &p.OtherPassword }},
	{"other_api_key", func(p *AccountPair) *string { return &p.OtherAPIKey }},
}

// maxPairs bounds the pool: the environment is searched up to pair maxPairs.
const maxPairs = 64

// numberedKey matches the key of a value of pair 2 or later.
var numberedKey = regexp.MustCompile(`^([a-z_]+)_([1-9][0-9]*)$`)

// pairKey resolves key_N to pair N's value of key: n is 0 when key names no
// pair value, and err says why key_N is not one.
func pairKey(key string) (n int, field func(*AccountPair) *string, err error) {
	m := numberedKey.FindStringSubmatch(key)
	if m == nil {
		return 0, nil, nil
	}
	for _, f := range pairFields {
		if f.key != m[1] {
			continue
		}
		n, _ = strconv.Atoi(m[2])
		if n < 2 || n > maxPairs {
			return 0, nil, fmt.Errorf("%s: pairs of accounts are numbered from 2 to %d (pair 1 is %s)", key, maxPairs, m[1])
		}
		return n, f.field, nil
	}
	return 0, nil, nil
}

// pairN is pair n (from 2) of the profile, added (empty) if need be.
func (p *Profile) pairN(n int) *AccountPair {
	for len(p.Pairs) < n-1 {
		p.Pairs = append(p.Pairs, AccountPair{})
	}
	return &p.Pairs[n-2]
}

// accountPairs is every pair of the profile, pair 1 first.
func (p Profile) accountPairs() []AccountPair {
	first := AccountPair{p.Email, p.Password, p.APIKey, p.OtherEmail, p.OtherPassword, p.OtherAPIKey}
	return append([]AccountPair{first}, p.Pairs...)
}

// pairVar is the environment variable of pair n's value of key.
func pairVar(key string, n int) string {
	f, _ := lookupField(key)
	if n == 1 {
		return f.env
	}
	return f.env + "_" + strconv.Itoa(n)
}

// value is the profile's value for a profile-file key, or the key's
// default when the field is empty (a Profile built by hand), and false
// for an unknown key.
func (p Profile) value(key string) (string, bool) {
	f, ok := lookupField(key)
	if !ok {
		return "", false
	}
	if v := *f.field(&p); v != "" {
		return v, true
	}
	if p.Missing(key) {
		return "", true
	}
	return f.def, true
}

// holds reports whether the profile holds a condition written key=value;
// an empty condition always holds.
func (p Profile) holds(cond string) (bool, error) {
	if cond == "" {
		return true, nil
	}
	key, want, ok := strings.Cut(cond, "=")
	key, want = strings.TrimSpace(key), strings.TrimSpace(want)
	if !ok || key == "" {
		return false, fmt.Errorf("condition %q is not key=value", cond)
	}
	got, ok := p.value(key)
	if !ok {
		return false, fmt.Errorf("unknown profile key %q in %q (known: %s)", key, cond, knownKeys())
	}
	return got == want, nil
}

// mustValue is value for a key this package names itself.
func (p Profile) mustValue(key string) string {
	v, ok := p.value(key)
	if !ok {
		panic("steps: no profile key " + key)
	}
	return v
}

// seedKeys are the values that describe the mock's default seed: its
// accounts, its catalogue ids and lists, its users' names and phones.
// Against another target they mean nothing, so LoadProfile leaves them
// unset until the preflight knows the target (Complete): the default mock
// takes them, any other target gets what can be derived from the values it
// was given, and a scenario that needs one still missing is skipped with
// the key to set.
var seedKeys = map[string]bool{
	"email": true, "password": true, "api_key": true,
	"other_email": true, "other_password": true, "other_api_key": true,
	"currency_id": true, "plan_id": true, "platform_id": true, "phone_country_id": true, "marketapp_hash": true,
	"first_name": true, "last_name": true, "timezone": true,
	"other_first_name": true, "other_last_name": true, "other_timezone": true,
	"other_phone_country_id": true, "other_phone_number": true, "other_phone_extension": true,
	"currencies": true, "plans": true, "platforms": true,
}

// choiceKeys are the values that record a target's reading where the spec
// is silent, with the question each answers. They keep the mock's reading
// as their default against any target, so a failure of a scenario that
// holds only for that reading names the value it assumed (assumption).
var choiceKeys = map[string]string{
	"login_encoding":      "the body of POST /sessions: json (section 4) or a form?",
	"email_domain":        "which domain does the target accept (and deliver to) for a new email address?",
	"clients_per_user":    "may a user who has a client create another (several) or not (one)?",
	"apps_per_marketapp":  "may a marketplace app have several apps (several) or only one (one)?",
	"phone_country_field": "how does a PUT /users body carry the phone country: phoneCountry.id (an object, as the user answers it) or phoneCountryId (the name of its code)?",
	"version_forms":       "which forms of the version segment does the target serve (v1, v1.0)?",
	"platforms_path":      "where is the platforms collection, relative to the base URL?",
}

// Origins of a profile value, as Profile.Origin reports them.
const (
	originDefault  = "default"
	originMockSeed = "the mock's seed"
	originEnv      = "environment"
	originFlag     = "flag"
)

// Origin says where the value of a profile-file key came from: a file, the
// environment, a flag, the default, the mock's seed, derived from another
// key, or "" while it is unset.
func (p Profile) Origin(key string) string { return p.origin[key] }

// Missing reports whether the profile has no value for key against its
// target: a seed value the target was not given and none could be derived.
func (p Profile) Missing(key string) bool {
	f, ok := lookupField(key)
	return ok && p.origin != nil && *f.field(&p) == "" && seedKeys[key]
}

// Notes are what loading and completing the profile found worth saying
// before the first scenario: a variable that overrides a profile-file key,
// a value derived from another.
func (p Profile) Notes() []string { return p.notes }

// seedDefaultsMode is seed_defaults: when the seed keys not given take the
// mock's seed values. auto decides from the target's Pricing-Mock-Seed
// header (Identify); mock and none decide for it.
func (p Profile) seedDefaultsMode() string { return p.mustValue("seed_defaults") }

// Complete fills the seed values the profile was not given, once the
// target is known: with the mock's seed when mockSeed (the target said it
// serves the default seed, or the profile says seed_defaults = mock),
// else with what the given values imply (currency_id from the first entry
// of currencies and the reverse; the same for plans and platforms). What
// stays unset is reported by Missing. A Profile built by hand, without
// LoadProfile, is complete already.
func (p *Profile) Complete(mockSeed bool) {
	if p.origin == nil {
		return
	}
	switch p.seedDefaultsMode() {
	case "mock":
		mockSeed = true
	case "none":
		mockSeed = false
	}
	for _, f := range profileFields {
		if !seedKeys[f.key] || *f.field(p) != "" {
			continue
		}
		if mockSeed {
			*f.field(p), p.origin[f.key] = f.def, originMockSeed
		}
	}
	if mockSeed {
		return
	}
	for _, d := range []struct{ id, list string }{{"currency_id", "currencies"}, {"plan_id", "plans"}, {"platform_id", "platforms"}} {
		idf, _ := lookupField(d.id)
		listf, _ := lookupField(d.list)
		id, list := idf.field(p), listf.field(p)
		switch {
		case *id == "" && *list != "":
			first, _, _ := strings.Cut(*list, ",")
			*id, _, _ = strings.Cut(strings.TrimSpace(first), ":")
			p.origin[d.id] = "derived from " + d.list
			p.notes = append(p.notes, fmt.Sprintf("%s = %s, the first entry of %s (%s)", d.id, *id, d.list, listf.env))
		case *list == "" && *id != "":
			// One entry whose word is not known: scenarios that need a
			// second entry, or the word, are skipped with the key to set.
			*list = *id
			p.origin[d.list] = "derived from " + d.id
		}
	}
}

// tagsKey is the profile-file key of the default godog tag expression. It is
// not part of Profile: tags choose scenarios, they do not describe the target.
const tagsKey = "tags"

func defaultProfile() Profile {
	var p Profile
	for _, f := range profileFields {
		*f.field(&p) = f.def
	}
	return p
}

// ProfileFromEnv returns the target profile from the PRICING_* variables of
// getenv; an unset or empty variable keeps its default, the mock's seed, so
// against a default pricing-mock only PRICING_BASE_URL matters. The result is
// not checked: call Validate.
func ProfileFromEnv(getenv func(string) string) Profile {
	p := defaultProfile()
	applyEnv(&p, getenv)
	return p
}

func applyEnv(p *Profile, getenv func(string) string) {
	for _, f := range profileFields {
		v := getenv(f.env)
		if v == "" {
			continue
		}
		if p.origin != nil {
			if from := p.origin[f.key]; strings.HasPrefix(from, "file ") && *f.field(p) != v {
				p.notes = append(p.notes, fmt.Sprintf("%s from the environment overrides %s of the %s (use --profile-only to ignore the environment)",
					f.env, f.key, from))
			}
			p.origin[f.key] = originEnv
		}
		*f.field(p) = v
	}
	for n := 2; n <= maxPairs; n++ {
		for _, f := range pairFields {
			if v := getenv(pairVar(f.key, n)); v != "" {
				*f.field(p.pairN(n)) = v
			}
		}
	}
	p.BaseURL = strings.TrimRight(p.BaseURL, "/")
}

// LoadProfile returns the target profile and the default tag expression of the
// profile file at path, with the precedence environment > file > defaults
// (flags, which rank above the environment, are the caller's business). An
// empty path means no file. The file holds one `key = value` per line; a line
// starting with # is a comment (a # later in a line is part of the value, as
// passwords may contain one); a value may be wrapped in double quotes to keep
// surrounding spaces; ${VAR} is replaced from getenv and an unset VAR is an
// error naming it, unless written ${VAR:-default}; $$ is a literal $.
// Every error names the file and line.
func LoadProfile(path string, getenv func(string) string) (Profile, string, error) {
	return loadProfile(path, getenv, true)
}

// LoadProfileOnly is LoadProfile without the environment: the file and the
// defaults alone (${VAR} in the file still reads getenv), for a run that
// must not pick up variables left from another target.
func LoadProfileOnly(path string, getenv func(string) string) (Profile, string, error) {
	return loadProfile(path, getenv, false)
}

// LoadFlags is how every command reads its profile from its flags: --profile
// FILE, --profile-only (the file without the environment, which needs a
// file) and --base-url over both.
func LoadFlags(path string, only bool, baseURL string, getenv func(string) string) (Profile, string, error) {
	if only && path == "" {
		return Profile{}, "", errors.New("--profile-only needs --profile FILE")
	}
	p, tags, err := loadProfile(path, getenv, !only)
	if err != nil || baseURL == "" {
		return p, tags, err
	}
	p.BaseURL = strings.TrimRight(baseURL, "/")
	if err := p.Validate(); err != nil {
		return p, tags, fmt.Errorf("--base-url: %v", err)
	}
	return p, tags, nil
}

func loadProfile(path string, getenv func(string) string, useEnv bool) (Profile, string, error) {
	var p Profile
	p.origin = map[string]string{}
	for _, f := range profileFields {
		if !seedKeys[f.key] {
			*f.field(&p), p.origin[f.key] = f.def, originDefault
		}
	}
	var tags string
	if path != "" {
		var err error
		if tags, err = readProfileFile(path, &p, getenv); err != nil {
			return Profile{}, "", err
		}
	}
	if useEnv {
		applyEnv(&p, getenv)
	}
	if err := p.Validate(); err != nil {
		return Profile{}, "", err
	}
	return p, tags, nil
}

func readProfileFile(path string, p *Profile, getenv func(string) string) (tags string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("profile: %w", err)
	}
	defer f.Close()

	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", path, n, fmt.Sprintf(format, args...))
		}
		key, raw, ok := strings.Cut(line, "=")
		if !ok {
			return "", fail("expected `key = value`, got %q", line)
		}
		key = strings.TrimSpace(key)
		if first, dup := seen[key]; dup {
			return "", fail("%s is already set on line %d", key, first)
		}
		seen[key] = n
		value, err := expand(unquote(strings.TrimSpace(raw)), getenv)
		if err != nil {
			return "", fail("%s: %v", key, err)
		}
		if key == tagsKey {
			if err := checkTags(value); err != nil {
				return "", fail("tags: %v", err)
			}
			tags = value
			continue
		}
		n, pairField, err := pairKey(key)
		if err != nil {
			return "", fail("%v", err)
		}
		field, ok := lookupField(key)
		if !ok && n == 0 {
			return "", fail("unknown key %q (known: %s)", key, knownKeys())
		}
		if value == "" {
			return "", fail("%s is empty", key)
		}
		if n > 0 {
			*pairField(p.pairN(n)) = value
			continue
		}
		if field.check != nil {
			if err := field.check(value); err != nil {
				return "", fail("%s: %v", key, err)
			}
		}
		*field.field(p) = value
		if p.origin != nil {
			p.origin[key] = "file " + path
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return tags, nil
}

func lookupField(key string) (profileField, bool) {
	for _, f := range profileFields {
		if f.key == key {
			return f, true
		}
	}
	return profileField{}, false
}

func knownKeys() string {
	keys := make([]string, 0, len(profileFields)+1)
	for _, f := range profileFields {
		keys = append(keys, f.key)
	}
	keys = append(keys, tagsKey)
	var pair []string
	for _, f := range pairFields {
		pair = append(pair, f.key+"_N")
	}
	return strings.Join(keys, ", ") + "; for pair N of accounts, from 2: " + strings.Join(pair, ", ")
}

func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// expand replaces ${VAR} and ${VAR:-default}. As in a shell, an empty
// variable counts as unset, since getenv cannot tell them apart.
func expand(s string, getenv func(string) string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$$"):
			b.WriteByte('$')
			i += 2
		case strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return "", fmt.Errorf("unterminated ${ in %q", s)
			}
			name, def, hasDef := strings.Cut(s[i+2:i+end], ":-")
			if !envName.MatchString(name) {
				return "", fmt.Errorf("bad variable name %q in %q", name, s)
			}
			v := getenv(name)
			if v == "" {
				if !hasDef {
					return "", fmt.Errorf("environment variable %s is not set (write ${%s:-default} for a default)", name, name)
				}
				v = def
			}
			b.WriteString(v)
			i += end + 1
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), nil
}

// Validate reports the first value of the profile that cannot work, naming
// both its environment variable and its profile-file key.
func (p Profile) Validate() error {
	for _, f := range profileFields {
		v := *f.field(&p)
		var err error
		switch {
		case v == "" && p.Missing(f.key):
			// Not given: Complete fills or derives it against the target.
		case v == "":
			err = errors.New("is empty")
		case f.check != nil:
			err = f.check(v)
		}
		if err != nil {
			return fmt.Errorf("%s (%s): %v", f.env, f.key, err)
		}
	}
	for i, pair := range p.Pairs {
		n := i + 2
		if pair == (AccountPair{}) {
			return fmt.Errorf("pair %d of accounts has no values, but pair %d has: number the pairs 2, 3, … without a gap (%s and so on)",
				n, len(p.Pairs)+1, pairVar("email", n))
		}
		for _, f := range pairFields {
			if *f.field(&p.Pairs[i]) == "" {
				return fmt.Errorf("%s (%s_%d): is empty; a pair of accounts needs the six values of pair 1 (email, password, api_key, other_email, other_password, other_api_key)",
					pairVar(f.key, n), f.key, n)
			}
		}
	}
	return nil
}

func checkBaseURL(v string) error {
	u, err := url.Parse(v)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %v", v, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http(s) URL", v)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%q has a query or fragment", v)
	}
	// The versioning steps replace the last path segment with another version.
	if strings.Trim(u.Path, "/") == "" {
		return fmt.Errorf("%q has no version segment (e.g. %s/v1)", v, strings.TrimRight(v, "/"))
	}
	return nil
}

func checkID(v string) error {
	if _, err := strconv.ParseInt(v, 10, 64); err != nil {
		return fmt.Errorf("%q is not an integer id", v)
	}
	return nil
}

var hash40 = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)

func checkHash(v string) error {
	if !hash40.MatchString(v) {
		return fmt.Errorf("%q is not 40 hex characters", v)
	}
	return nil
}

var domainLabel = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)

// checkEmailDomain accepts a host name of at least two labels, short enough
// that an address of 254 characters still has room for its local part.
func checkEmailDomain(v string) error {
	labels := strings.Split(v, ".")
	if len(labels) < 2 || len(v) > 120 {
		return fmt.Errorf("%q is not a domain of at least two labels and at most 120 characters", v)
	}
	for _, l := range labels {
		if !domainLabel.MatchString(l) {
			return fmt.Errorf("%q is not a domain: bad label %q", v, l)
		}
	}
	return nil
}

// oneOf accepts only the words, and names them to a value that is none of
// them: "neither a nor b", or "not a, b or c".
func oneOf(words ...string) func(string) error {
	list := "neither " + words[0] + " nor " + words[1]
	if len(words) > 2 {
		list = "not " + strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
	}
	return func(v string) error {
		if !slices.Contains(words, v) {
			return fmt.Errorf("%q is %s", v, list)
		}
		return nil
	}
}

// checkVersionForms accepts a comma-separated list of path segments.
func checkVersionForms(v string) error {
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		if s == "" || strings.ContainsAny(s, "/?# ") {
			return fmt.Errorf("%q is not a comma-separated list of version segments such as v1,v1.0", v)
		}
	}
	return nil
}

func checkPlatformsPath(v string) error {
	if !strings.HasPrefix(v, "/") || strings.ContainsAny(v, "?# ") {
		return fmt.Errorf("%q is not a path relative to the base URL, such as /platforms", v)
	}
	return nil
}

// listed reports whether a comma-separated list holds item.
func listed(list, item string) bool {
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == item {
			return true
		}
	}
	return false
}

// checkClockSkew accepts a Go duration from 0 to a day.
func checkClockSkew(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > 24*time.Hour {
		return fmt.Errorf("%q is not a duration from 0s to 24h, such as 2m", v)
	}
	return nil
}

// checkTags rejects what godog v0.15's tag filter would silently mismatch or
// panic on: its syntax is clauses joined by &&, each a comma-separated list of
// alternatives, each @tag or ~@tag; there are no parentheses and no
// Cucumber-style `not`/`and`/`or`.
func checkTags(expr string) error {
	if strings.TrimSpace(expr) == "" {
		return nil
	}
	for _, clause := range strings.Split(expr, "&&") {
		for _, tag := range strings.Split(clause, ",") {
			tag = strings.TrimSpace(tag)
			name := strings.TrimPrefix(strings.TrimPrefix(tag, "~"), "@")
			if name == "" || strings.ContainsAny(name, " \t()@~") {
				return fmt.Errorf("bad tag expression %q: write @tag, ~@tag, a,b for or, a && b for and", expr)
			}
		}
	}
	return nil
}

// tagFilter is the godog tag expression of a run: the user's expression
// and, unless reference scenarios are wanted, ~@reference. godog's filter is
// an AND of clauses, so joining with && keeps both meanings.
func tagFilter(user string, reference bool) (string, error) {
	if err := checkTags(user); err != nil {
		return "", err
	}
	user = strings.TrimSpace(user)
	switch {
	case reference:
		return user, nil
	case user == "":
		return "~@reference", nil
	default:
		return "~@reference && " + user, nil
	}
}
