package tags

// Catalogues served read-only at GET {base}/platforms, /plans, /currencies,
// /phone-countries and /marketapps. Values are listed in choices.md.

type Platform struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type Plan struct {
	ID          int    `json:"id"`
	Name        string `json:"name"`
	IsLite      bool   `json:"isLite"`
	IsPro       bool   `json:"isPro"`
	IsDynamic   bool   `json:"isDynamic"`
	NeedBilling bool   `json:"needBilling"`
}

type Currency struct {
	ID   int    `json:"id"`
	Code string `json:"code"`
}

type PhoneCountry struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	DialCode string `json:"dialCode"`
}

type MarketApp struct {
	Hash     string   `json:"hash"`
	Name     string   `json:"name"`
	Platform Platform `json:"platform"`
}

var platforms = []Platform{{1, "Android"}, {2, "iOS"}}

var plans = []Plan{
	{ID: 1, Name: "Lite", IsLite: true},
	{ID: 2, Name: "Pro", IsPro: true, NeedBilling: true},
	{ID: 3, Name: "Dynamic", IsDynamic: true, NeedBilling: true},
}

var currencies = []Currency{{1, "EUR"}, {2, "USD"}, {3, "GBP"}}

var phoneCountries = []PhoneCountry{
	{1, "United Kingdom (+44)", "+44"},
	{2, "United States (+1)", "+1"},
	{3, "France (+33)", "+33"},
	{4, "Germany (+49)", "+49"},
}

var marketApps = []MarketApp{
	{"00e1db0c6312763279b1080f856c575d7499742a", "Snake Rush", platforms[0]},
	{"90cb48b669beca0e71c04c2accba15e76ccd2107", "Snake Rush", platforms[1]},
	{"7ab06cfa528435a0eed815e5ea71865432f6a767", "Pocket Budget", platforms[0]},
	{"a1be760b28b38f616f69e3f0c65f3e8b9a1eaf99", "Pocket Budget", platforms[1]},
	{"a6940d8a782df8823d951b4e373a78b527a0f1ee", "Tidy Tasks", platforms[0]},
	{"29f8bba52c877cdc74e3994260133e4bd8b69d5c", "Word Garden", platforms[1]},
}

func platformByID(id int) (Platform, bool) {
	for _, p := range platforms {
		if p.ID == id {
			return p, true
		}
	}
	return Platform{}, false
}

func planByID(id int) (Plan, bool) {
	for _, p := range plans {
		if p.ID == id {
			return p, true
		}
	}
	return Plan{}, false
}

func currencyByID(id int) (Currency, bool) {
	for _, c := range currencies {
		if c.ID == id {
			return c, true
		}
	}
	return Currency{}, false
}

func phoneCountryByID(id int) (PhoneCountry, bool) {
	for _, c := range phoneCountries {
		if c.ID == id {
			return c, true
		}
	}
	return PhoneCountry{}, false
}
