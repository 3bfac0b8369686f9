package undolog

type Platform struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type Currency struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
}

type Plan struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	IsLite      bool   `json:"isLite"`
	IsPro       bool   `json:"isPro"`
	IsDynamic   bool   `json:"isDynamic"`
	NeedBilling bool   `json:"needBilling"`
}

type PhoneCountry struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	DialCode string `json:"dialCode"`
}

type Marketapp struct {
	Hash       string `json:"hash"`
	Name       string `json:"name"`
	PlatformID int64  `json:"-"`
}

var platforms = []Platform{{1, "Android"}, {2, "iOS"}}

var currencies = []Currency{{1, "USD"}, {2, "EUR"}, {3, "GBP"}, {4, "JPY"}}

var plans = []Plan{
	{ID: 1, Name: "Lite", IsLite: true},
	{ID: 2, Name: "Pro", IsPro: true, NeedBilling: true},
	{ID: 3, Name: "Dynamic", IsDynamic: true, NeedBilling: true},
}

var phoneCountries = []PhoneCountry{
	{1, "United States (+1)", "+1"},
	{2, "United Kingdom (+44)", "+44"},
	{3, "France (+33)", "+33"},
	{4, "Germany (+49)", "+49"},
	{5, "Japan (+81)", "+81"},
}

var marketapps = []Marketapp{
	{"3f7a9c2e5b8d1f4a6c0e9b2d7f5a3c8e1b4d6f90", "Puzzle Quest Saga", 1},
	{"a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", "Puzzle Quest Saga", 2},
	{"0123456789abcdef0123456789abcdef01234567", "Weather Pal", 1},
	{"fedcba9876543210fedcba9876543210fedcba98", "Weather Pal", 2},
	{"c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00", "Coffee Finder", 1},
	{"deadbeefdeadbeefdeadbeefdeadbeefdeadbeef", "Pocket Ledger", 2},
}

func findByID[T any](xs []T, id int64, idOf func(T) int64) (T, bool) {
	for _, x := range xs {
		if idOf(x) == id {
			return x, true
		}
	}
	var zero T
	return zero, false
}

func platformByID(id int64) (Platform, bool) {
	return findByID(platforms, id, func(p Platform) int64 { return p.ID })
}
func currencyByID(id int64) (Currency, bool) {
	return findByID(currencies, id, func(p Currency) int64 { return p.ID })
}
func planByID(id int64) (Plan, bool) {
	return findByID(plans, id, func(p Plan) int64 { return p.ID })
}
func phoneCountryByID(id int64) (PhoneCountry, bool) {
	return findByID(phoneCountries, id, func(p PhoneCountry) int64 { return p.ID })
}

func marketappByHash(h string) (Marketapp, bool) {
	for _, m := range marketapps {
		if m.Hash == h {
			return m, true
		}
	}
	return Marketapp{}, false
}

func known[T any](f func(int64) (T, bool)) func(int64) bool {
	return func(id int64) bool { _, ok := f(id); return ok }
}
