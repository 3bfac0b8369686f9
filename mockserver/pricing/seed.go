package pricing

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
)

// The seed format: one JSON file per resource, each an array of objects, plus
// profile.json. Unknown fields are rejected so that a typo is an error, not a
// silently missing value. users.json, clients.json and apps.json hold the
// entries of a State (StateUser, StateClient, StateApp): passwords and API
// keys are written in plain text (they are demo credentials) and hashed
// when loaded. Hashes are refused there: they belong to the secret of one
// mock, and the seed is every mock's.
type (
	seedPlatform struct {
		ID            int64     `json:"id"`
		Created       time.Time `json:"created"`
		CreatorUserID int64     `json:"creatorUserId"`
		Name          string    `json:"name"`
	}
	seedCurrency struct {
		ID   int64  `json:"id"`
		Code string `json:"code"`
	}
	seedPlan struct {
		ID          int64  `json:"id"`
		Name        string `json:"name"`
		IsLite      bool   `json:"isLite"`
		IsPro       bool   `json:"isPro"`
		IsDynamic   bool   `json:"isDynamic"`
		NeedBilling bool   `json:"needBilling"`
	}
	seedPhoneCountry struct {
		ID       int64  `json:"id"`
		Name     string `json:"name"`
		DialCode string `json:"dialCode"`
	}
	seedMarketapp struct {
		Hash       string `json:"hash"`
		Name       string `json:"name"`
		PlatformID int64  `json:"platformId"`
	}
	seedProfile struct {
		seedPair              // accounts A and B
		CurrencyID     int64  `json:"currencyId"`
		PlanID         int64  `json:"planId"`
		PlatformID     int64  `json:"platformId"`
		PhoneCountryID int64  `json:"phoneCountryId"`
		MarketappHash  string `json:"marketappHash"`
		// Pairs 2, 3, … of accounts A and B, each user its own of a client
		// of its own (AccountPairs adds them).
		Pairs []seedPair `json:"pairs,omitempty"`
	}
	seedPair struct {
		Email         string `json:"email"`
		Password      string `json:"password"`
		APIKey        string `json:"apiKey"`
		OtherEmail    string `json:"otherEmail"`
		OtherPassword string `json:"otherPassword"`
		OtherAPIKey   string `json:"otherApiKey"`
	}
)

// Seed is a loaded and checked seed: the catalogues, the users, clients and
// apps a store starts with, and the target profile that describes them.
type Seed struct {
	users          []StateUser
	clients        []StateClient
	apps           []StateApp
	platforms      []seedPlatform
	currencies     []seedCurrency
	plans          []seedPlan
	phoneCountries []seedPhoneCountry
	marketapps     []seedMarketapp
	profile        Profile

	catOnce sync.Once // cat: the catalogues every store of the seed shares
	cat     data
}

var (
	writeKeyRE = regexp.MustCompile(`^[0-9a-f]{32}$`)
	hashRE     = regexp.MustCompile(fmt.Sprintf(`^[0-9a-fA-F]{%d}$`, AppBody.Field("marketapp.hash").Max))
	codeRE     = regexp.MustCompile(`^[A-Z]{3}$`)
	dialCodeRE = regexp.MustCompile(`^\+[0-9]{1,4}$`)
)

// Profile is the seed's target profile (profile.json).
func (d *Seed) Profile() Profile { return d.profile }

// state is the seed's users, clients and apps, as a state document.
func (d *Seed) state() State {
	return State{Users: d.users, Clients: d.clients, Apps: d.apps}
}

// LoadSeed reads and checks every fixture file of fsys. An error names the
// file, the entry and the problem.
func LoadSeed(fsys fs.FS) (*Seed, error) {
	d := &Seed{}
	files := []struct {
		name string
		v    any
	}{
		{"platforms.json", &d.platforms},
		{"currencies.json", &d.currencies},
		{"plans.json", &d.plans},
		{"phoneCountries.json", &d.phoneCountries},
		{"marketapps.json", &d.marketapps},
		{"users.json", &d.users},
		{"clients.json", &d.clients},
		{"apps.json", &d.apps},
	}
	for _, f := range files {
		if err := readFixture(fsys, f.name, f.v); err != nil {
			return nil, err
		}
	}
	var p seedProfile
	if err := readFixture(fsys, "profile.json", &p); err != nil {
		return nil, err
	}
	d.profile = Profile{
		Email: p.Email, Password: p.Password, APIKey: p.APIKey,
		OtherEmail: p.OtherEmail, OtherPassword: p.OtherPassword, OtherAPIKey: p.OtherAPIKey,
		CurrencyID: p.CurrencyID, PlanID: p.PlanID, PlatformID: p.PlatformID,
		PhoneCountryID: p.PhoneCountryID, MarketappHash: p.MarketappHash,
	}
	for _, sp := range p.Pairs {
		d.profile.Pairs = append(d.profile.Pairs, AccountPair(sp))
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	d.completeProfile()
	return d, nil
}

func readFixture(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("fixture %s: %w", name, err)
	}
	if err := jsonio.Decode(b, v); err != nil {
		return fmt.Errorf("fixture %s: %w", name, err)
	}
	return nil
}

// seedError names the file and the entry (1-based, with its id) of a problem.
func seedError(file string, index int, id any, format string, args ...any) error {
	return fmt.Errorf("fixture %s: entry %d (%v): %s", file, index+1, id, fmt.Sprintf(format, args...))
}

func (d *Seed) check() error {
	ids := seedIDs{platforms: map[int64]bool{}, currencies: map[int64]bool{}, plans: map[int64]bool{},
		phoneCountries: map[int64]bool{}, marketapps: map[string]bool{}}
	for _, check := range []func(*seedIDs) error{d.checkPlatforms, d.checkCurrencies, d.checkPlans, d.checkPhoneCountries, d.checkMarketapps} {
		if err := check(&ids); err != nil {
			return err
		}
	}
	cat := buildCatalogues(d)
	if ps := checkState(d.state(), &cat, nil); len(ps) > 0 {
		return ps[0].fixtureError()
	}
	users := map[int64]bool{}
	for _, u := range d.users {
		users[u.ID] = true
	}
	for i, p := range d.platforms {
		if !users[p.CreatorUserID] {
			return seedError("platforms.json", i, p.ID, "unknown creatorUserId %d", p.CreatorUserID)
		}
	}
	return d.checkProfile(ids)
}

// seedIDs are the ids (and marketplace hashes, in lower case) of the
// catalogues, gathered while they are checked.
type seedIDs struct {
	platforms, currencies, plans, phoneCountries map[int64]bool
	marketapps                                   map[string]bool
}

// seedID checks the id of a catalogue entry: positive and not seen before.
func seedID(file string, i int, id int64, seen map[int64]bool) error {
	switch {
	case id <= 0:
		return seedError(file, i, id, "id must be a positive number")
	case seen[id]:
		return seedError(file, i, id, "duplicate id")
	}
	seen[id] = true
	return nil
}

func (d *Seed) checkPlatforms(ids *seedIDs) error {
	for i, p := range d.platforms {
		if err := seedID("platforms.json", i, p.ID, ids.platforms); err != nil {
			return err
		}
		switch {
		case p.Name != "Android" && p.Name != "iOS":
			return seedError("platforms.json", i, p.ID, "name %q is not Android or iOS", p.Name)
		case p.Created.IsZero():
			return seedError("platforms.json", i, p.ID, "created is missing")
		}
	}
	return nil
}

func (d *Seed) checkCurrencies(ids *seedIDs) error {
	for i, c := range d.currencies {
		if err := seedID("currencies.json", i, c.ID, ids.currencies); err != nil {
			return err
		}
		if !codeRE.MatchString(c.Code) {
			return seedError("currencies.json", i, c.ID, "code %q is not three upper-case letters", c.Code)
		}
	}
	return nil
}

func (d *Seed) checkPlans(ids *seedIDs) error {
	lite := false
	for i, p := range d.plans {
		if err := seedID("plans.json", i, p.ID, ids.plans); err != nil {
			return err
		}
		if p.Name == "" {
			return seedError("plans.json", i, p.ID, "name is missing")
		}
		lite = lite || p.IsLite
	}
	if !lite {
		return errors.New("fixture plans.json: no plan has isLite true (an app created without nextplan gets the lite plan)")
	}
	return nil
}

func (d *Seed) checkPhoneCountries(ids *seedIDs) error {
	for i, p := range d.phoneCountries {
		if err := seedID("phoneCountries.json", i, p.ID, ids.phoneCountries); err != nil {
			return err
		}
		switch {
		case !dialCodeRE.MatchString(p.DialCode):
			return seedError("phoneCountries.json", i, p.ID, "dialCode %q is not a plus sign and 1 to 4 digits", p.DialCode)
		case !strings.Contains(p.Name, "("+p.DialCode+")"):
			return seedError("phoneCountries.json", i, p.ID, "name %q does not include the dial code in brackets", p.Name)
		}
	}
	return nil
}

// checkMarketapps also puts every hash in lower case, the form the store
// keeps and answers.
func (d *Seed) checkMarketapps(ids *seedIDs) error {
	for i, m := range d.marketapps {
		switch {
		case !hashRE.MatchString(m.Hash):
			return seedError("marketapps.json", i, m.Hash, "hash is not %d hexadecimal characters", AppBody.Field("marketapp.hash").Max)
		case ids.marketapps[strings.ToLower(m.Hash)]:
			return seedError("marketapps.json", i, m.Hash, "duplicate hash")
		case m.Name == "" || utf8.RuneCountInString(m.Name) > AppBody.Field("name").Max:
			return seedError("marketapps.json", i, m.Hash, "name must be 1 to %d characters", AppBody.Field("name").Max)
		case !ids.platforms[m.PlatformID]:
			return seedError("marketapps.json", i, m.Hash, "unknown platformId %d", m.PlatformID)
		}
		d.marketapps[i].Hash = strings.ToLower(m.Hash)
		ids.marketapps[strings.ToLower(m.Hash)] = true
	}
	return nil
}

// checkProfile makes sure the profile describes the seed: its accounts log in
// with its passwords and keys, and its catalogue ids exist.
func (d *Seed) checkProfile(ids seedIDs) error {
	p := d.profile
	account := func(what, email, password, key string) error {
		for _, u := range d.users {
			if !strings.EqualFold(u.Email, email) {
				continue
			}
			if !u.hasPassword(password) {
				return fmt.Errorf("fixture profile.json: %s password is not the password of %s in users.json", what, email)
			}
			if !u.hasAPIKey(key) {
				return fmt.Errorf("fixture profile.json: %s API key is not an API key of %s in users.json", what, email)
			}
			return nil
		}
		return fmt.Errorf("fixture profile.json: %s email %q is not a user in users.json", what, email)
	}
	if err := account("the", p.Email, p.Password, p.APIKey); err != nil {
		return err
	}
	if err := account("the other", p.OtherEmail, p.OtherPassword, p.OtherAPIKey); err != nil {
		return err
	}
	if strings.EqualFold(p.Email, p.OtherEmail) {
		return errors.New("fixture profile.json: email and otherEmail name the same user")
	}
	if err := d.checkPairs(account); err != nil {
		return err
	}
	switch {
	case !ids.currencies[p.CurrencyID]:
		return fmt.Errorf("fixture profile.json: unknown currencyId %d", p.CurrencyID)
	case !ids.plans[p.PlanID]:
		return fmt.Errorf("fixture profile.json: unknown planId %d", p.PlanID)
	case !ids.platforms[p.PlatformID]:
		return fmt.Errorf("fixture profile.json: unknown platformId %d", p.PlatformID)
	case !ids.phoneCountries[p.PhoneCountryID]:
		return fmt.Errorf("fixture profile.json: unknown phoneCountryId %d", p.PhoneCountryID)
	case !ids.marketapps[strings.ToLower(p.MarketappHash)]:
		return fmt.Errorf("fixture profile.json: unknown marketappHash %q", p.MarketappHash)
	}
	return nil
}

// Profile is the target profile of the seed: the credentials and catalogue ids
// the contract suite needs to run against this server.
type Profile struct {
	Email, Password, APIKey, OtherEmail, OtherPassword, OtherAPIKey string
	CurrencyID, PlanID, PlatformID, PhoneCountryID                  int64
	MarketappHash                                                   string
	Pairs                                                           []AccountPair // pairs 2, 3, … of accounts
	// The catalogues as the suite lists them (id:word, comma-separated).
	Currencies, Plans, Platforms string
	A, B                         AccountDetails // the users of accounts A and B
}

// AccountPair is one more pair of accounts A and B for the suite's pool.
type AccountPair struct {
	Email, Password, APIKey, OtherEmail, OtherPassword, OtherAPIKey string
}

func nonZero(n int64) string {
	if n == 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

// Env renders the profile as PRICING_* variables ("NAME=value", unquoted),
// PRICING_BASE_URL first, then the order of the suite's documented table,
// then the pairs of the pool (PRICING_EMAIL_2 …).
func (p Profile) Env(baseURL string) []string {
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	env := []string{
		"PRICING_BASE_URL=" + baseURL,
		"PRICING_EMAIL=" + p.Email,
		"PRICING_PASSWORD=" + p.Password,
		"PRICING_API_KEY=" + p.APIKey,
		"PRICING_OTHER_EMAIL=" + p.OtherEmail,
		"PRICING_OTHER_PASSWORD=" + p.OtherPassword,
		"PRICING_OTHER_API_KEY=" + p.OtherAPIKey,
		"PRICING_CURRENCY_ID=" + i(p.CurrencyID),
		"PRICING_PLAN_ID=" + i(p.PlanID),
		"PRICING_PLATFORM_ID=" + i(p.PlatformID),
		"PRICING_PHONE_COUNTRY_ID=" + i(p.PhoneCountryID),
		"PRICING_MARKETAPP_HASH=" + p.MarketappHash,
	}
	// What completeProfile adds; a Profile built by hand may lack it.
	for _, kv := range [][2]string{
		{"PRICING_FIRST_NAME", p.A.FirstName}, {"PRICING_LAST_NAME", p.A.LastName}, {"PRICING_TIMEZONE", p.A.Timezone},
		{"PRICING_OTHER_FIRST_NAME", p.B.FirstName}, {"PRICING_OTHER_LAST_NAME", p.B.LastName}, {"PRICING_OTHER_TIMEZONE", p.B.Timezone},
		{"PRICING_PHONE_NUMBER", p.A.PhoneNumber}, {"PRICING_PHONE_EXTENSION", p.A.PhoneExtension},
		{"PRICING_OTHER_PHONE_COUNTRY_ID", nonZero(p.B.PhoneCountryID)},
		{"PRICING_OTHER_PHONE_NUMBER", p.B.PhoneNumber}, {"PRICING_OTHER_PHONE_EXTENSION", p.B.PhoneExtension},
		{"PRICING_CURRENCIES", p.Currencies}, {"PRICING_PLANS", p.Plans}, {"PRICING_PLATFORMS", p.Platforms},
	} {
		if kv[1] != "" {
			env = append(env, kv[0]+"="+kv[1])
		}
	}
	for i, pr := range p.Pairs {
		n := "_" + strconv.Itoa(i+2)
		env = append(env,
			"PRICING_EMAIL"+n+"="+pr.Email, "PRICING_PASSWORD"+n+"="+pr.Password, "PRICING_API_KEY"+n+"="+pr.APIKey,
			"PRICING_OTHER_EMAIL"+n+"="+pr.OtherEmail, "PRICING_OTHER_PASSWORD"+n+"="+pr.OtherPassword, "PRICING_OTHER_API_KEY"+n+"="+pr.OtherAPIKey)
	}
	return env
}
