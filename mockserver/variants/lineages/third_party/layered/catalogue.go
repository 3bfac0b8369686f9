package layered

type platform struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type plan struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type currency struct {
	ID      int64  `json:"id"`
	Code    string `json:"code"`
	numeric int
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

var (
	platforms  = []platform{{1, "Android"}, {2, "iOS"}}
	plans      = []plan{{1, "Lite"}, {2, "Pro"}, {3, "Dynamic"}}
	currencies = []currency{
		{1, "EUR", 978}, {2, "USD", 840}, {3, "GBP", 826}, {4, "JPY", 392},
	}
	phoneCountries = []phoneCountry{
		{1, "United Kingdom (+44)", "+44"},
		{2, "United States (+1)", "+1"},
		{3, "France (+33)", "+33"},
		{4, "Germany (+49)", "+49"},
	}
	marketapps = []marketapp{
		{"3f786850e387550fdab836ed7e6dc881de23001b", "Puzzle Quest", platform{1, "Android"}},
		{"89e6c98d92887913cadf06b2adb97f26cde4849b", "Puzzle Quest", platform{2, "iOS"}},
		{"2b66fd261ee5c6cfc8de7fa466bab600bcfe4f69", "Weather Now", platform{1, "Android"}},
		{"e9d71f5ee7c92d6dc9e92ffdad17b8bd49418f98", "Café Crème Pro", platform{2, "iOS"}},
	}
)

func findPlatform(id int64) (platform, bool) {
	for _, p := range platforms {
		if p.ID == id {
			return p, true
		}
	}
	return platform{}, false
}

func findPlan(id int64) (plan, bool) {
	for _, p := range plans {
		if p.ID == id {
			return p, true
		}
	}
	return plan{}, false
}

func findCurrency(id int64) (currency, bool) {
	for _, c := range currencies {
		if c.ID == id {
			return c, true
		}
	}
	return currency{}, false
}

func findPhoneCountry(id int64) (phoneCountry, bool) {
	for _, c := range phoneCountries {
		if c.ID == id {
			return c, true
		}
	}
	return phoneCountry{}, false
}

func findMarketapp(hash string) (marketapp, bool) {
	for _, m := range marketapps {
		if len(hash) == len(m.Hash) && equalFoldASCII(hash, m.Hash) {
			return m, true
		}
	}
	return marketapp{}, false
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
