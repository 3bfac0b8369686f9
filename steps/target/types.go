// Package target is the one package that knows a target of the tools:
//
//   - its profile (profile.go): where it is, which accounts and catalogue
//     ids the suite may use there, what it chose where the spec is silent,
//     read from a profile file and the environment, and completed once the
//     target is known;
//   - the flags every command shares (flags.go: --base-url, --profile,
//     --profile-only, --timeout, with one default timeout);
//   - the one HTTP client every tool sends through (client.go: no redirect
//     followed, every answer bounded);
//   - what a target's collections show of its catalogues, and the words of
//     the plans (discover.go, catalogue.go).
//
// It sits beside the step library (steps), not under cmd/internal, because
// steps sends through its client and Go's internal rule keeps steps from
// importing anything under cmd/internal; the flags and the catalogues'
// reading sit with it so that knowing a target is one place. What only
// init does with a target (the order of its questions, the probe of ids no
// answer shows, the profile text it writes) is cmd/internal/discover,
// built on this package. pricing-mock does not link it: its --print-env is
// held to SeedEnv by a test.
package target

// (See profile.go for how a Profile is loaded and checked.)

// Profile describes the target: where it is and which accounts and ids the
// suite may use there. Numbers are kept as text, as they come from the
// environment; they are substituted into JSON as numbers.
type Profile struct {
	BaseURL                                        string // includes the version segment, e.g. http://127.0.0.1:8080/v1
	Email, Password, APIKey                        string // account A
	OtherEmail, OtherPassword, OtherAPIKey         string // account B
	CurrencyID, PlanID, PlatformID, PhoneCountryID string // numbers as text
	MarketappHash                                  string
	LoginEncoding                                  string // "json" (default) or "form": body of POST /sessions

	// Pairs 2, 3, … of accounts A and B (email_2 and so on): a pool that
	// lets scenarios which change an account run at once, each on a pair of
	// its own. Email … OtherAPIKey are pair 1.
	Pairs []AccountPair

	// The names and timezones of the accounts, used only to restore an
	// account after a @mutates-X scenario on a target that does not answer
	// GET /users/:id: PUT /users needs every field, and these are the ones
	// the other profile values do not give. Empty means the mock's seed
	// (Quinn Assurance, Europe/London; Olive Other, America/New_York).
	FirstName, LastName, Timezone                string // account A
	OtherFirstName, OtherLastName, OtherTimezone string // account B

	// What the target chose where the spec is silent, and realistic values
	// for fields whose validation the spec does not show (profileFields,
	// profile.go, gives each its default, the mock's choice; empty means
	// that default).
	EmailDomain                                                string // domain of generated emails
	PhoneNumber, PhoneExtension                                string // account A's phone, sent in every PUT /users body; "null" for no extension
	OtherPhoneCountryID, OtherPhoneNumber, OtherPhoneExtension string // account B's phone, for a restore without a snapshot
	AddressLine1, AddressLine2, AddressCity, AddressPostcode   string // a client address the target accepts
	AddressCountry, VAT                                        string
	ClientsPerUser                                             string // "several", or "one": a user with a client may not create another
	AppsPerMarketapp                                           string // "several", or "one": a second app of a marketplace app is refused
	PhoneCountryField                                          string // "phoneCountry.id" (an object, the default) or "phoneCountryId": the phone country in a PUT /users body
	VersionForms                                               string // the version segments the target serves, comma-separated
	PlatformsPath                                              string // the path of the platforms collection
	// The catalogues the target offers, at least two entries each
	// (catalogue.go): "1:GBP,2:EUR", "1:lite,2:pro", "1:Android,2:iOS".
	Currencies, Plans, Platforms string
	// SeedDefaults says when the seed values not given take the mock's
	// seed: "auto" (when the target says it serves the default seed),
	// "mock" or "none".
	SeedDefaults string
	// ClockSkew bounds how far the target's clock may be from the
	// runner's: a date of an event that just happened must be within it of
	// the runner's now (a Go duration; default 2m).
	ClockSkew string

	origin map[string]string // profile-file key -> where its value came from; nil for a Profile built by hand
	notes  []string
}

// AccountPair is one pair of accounts: A, a user of a client, and B, a user
// of another client (for the 403 scenarios).
type AccountPair struct {
	Email, Password, APIKey                string // account A
	OtherEmail, OtherPassword, OtherAPIKey string // account B
}

// seedNames are the defaults of the name and timezone fields: the mock's seed.
var seedNames = []struct {
	field func(*Profile) *string
	def   string
}{
	{func(p *Profile) *string { return &p.FirstName }, "Quinn"},
	{func(p *Profile) *string { return &p.LastName }, "Assurance"},
	{func(p *Profile) *string { return &p.Timezone }, "Europe/London"},
	{func(p *Profile) *string { return &p.OtherFirstName }, "Olive"},
	{func(p *Profile) *string { return &p.OtherLastName }, "Other"},
	{func(p *Profile) *string { return &p.OtherTimezone }, "America/New_York"},
}
