package typed

import (
	"strings"
	"time"
)

// Stored records. They are copied in and out of the repositories; the only
// reference-typed members (Members, the *string fields) are cloned or replaced,
// never mutated in place.

type User struct {
	ID                  int64
	Created             time.Time
	Email               string
	PasswordSalt        string
	PasswordHash        string
	PasswordLastChanged time.Time
	FirstName           string
	LastName            string
	SubscribeWelcome    bool
	SubscribeBlog       bool
	SubscribeHowto      bool
	SubscribeOnboarding bool
	PhoneCountryID      int64
	PhoneNumber         string
	PhoneExtension      *string
	Timezone            string
	APIKey              string
	PrimaryClientID     int64
}

type Client struct {
	ID              int64
	Created         time.Time
	Name            string
	AddressLine1    string
	AddressLine2    *string
	AddressCity     string
	AddressPostcode string
	AddressCountry  string
	Vat             *string
	CurrencyID      int64
	Members         []int64
}

type App struct {
	ID            int64
	Created       time.Time
	ClientID      int64
	Name          string
	PlatformID    int64
	WriteKey      string
	PlanID        int64
	MarketappHash string
}

type Session struct {
	ID            int64
	Created       time.Time
	CreatorUserID int64
	UserID        int64
	ClientID      int64
	Token         string
}

// ---- catalogues -------------------------------------------------------------

type platform struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type currency struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
}

type plan struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	IsLite      bool   `json:"isLite"`
	IsPro       bool   `json:"isPro"`
	IsDynamic   bool   `json:"isDynamic"`
	NeedBilling bool   `json:"needBilling"`
}

type phoneCountry struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	DialCode string `json:"dialCode"`
}

type marketapp struct {
	Hash     string   `json:"hash"`
	Name     string   `json:"name"`
	Platform platform `json:"platform"`
}

type catalogue struct {
	platforms      []platform
	currencies     []currency
	plans          []plan
	phoneCountries []*phoneCountry
	marketapps     []marketapp
}

func newCatalogue() *catalogue {
	android := platform{1, "Android"}
	ios := platform{2, "iOS"}
	return &catalogue{
		platforms:  []platform{android, ios},
		currencies: []currency{{1, "EUR"}, {2, "USD"}, {3, "GBP"}},
		plans: []plan{
			{ID: 1, Name: "Lite", IsLite: true},
			{ID: 2, Name: "Pro", IsPro: true, NeedBilling: true},
			{ID: 3, Name: "Dynamic", IsDynamic: true, NeedBilling: true},
		},
		phoneCountries: []*phoneCountry{
			{1, "United States (+1)", "+1"},
			{33, "France (+33)", "+33"},
			{44, "United Kingdom (+44)", "+44"},
			{49, "Germany (+49)", "+49"},
		},
		marketapps: []marketapp{
			{"3b1f0c6a9d2e4f5a8b7c6d5e4f3a2b1c0d9e8f7a", "Puzzle Quest", android},
			{"a94a8fe5ccb19ba61c4c0873d391e987982fbbd3", "Photo Frame", ios},
			{"0123456789abcdef0123456789abcdef01234567", "Weather Now", android},
			{"fedcba9876543210fedcba9876543210fedcba98", "Chess Club", ios},
		},
	}
}

func (c *catalogue) platform(id int64) (platform, bool) {
	for _, p := range c.platforms {
		if p.ID == id {
			return p, true
		}
	}
	return platform{}, false
}

func (c *catalogue) currency(id int64) (currency, bool) {
	for _, p := range c.currencies {
		if p.ID == id {
			return p, true
		}
	}
	return currency{}, false
}

func (c *catalogue) plan(id int64) (plan, bool) {
	for _, p := range c.plans {
		if p.ID == id {
			return p, true
		}
	}
	return plan{}, false
}

func (c *catalogue) phoneCountry(id int64) *phoneCountry {
	for _, p := range c.phoneCountries {
		if p.ID == id {
			return p
		}
	}
	return nil
}

func (c *catalogue) marketappByHash(h string) (marketapp, bool) {
	for _, m := range c.marketapps {
		if strings.EqualFold(m.Hash, h) {
			return m, true
		}
	}
	return marketapp{}, false
}

func (c *catalogue) marketappByName(name string, platformID int64) (marketapp, bool) {
	for _, m := range c.marketapps {
		if m.Name == name && m.Platform.ID == platformID {
			return m, true
		}
	}
	return marketapp{}, false
}
