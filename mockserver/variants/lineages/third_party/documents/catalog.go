package documents

import (
	"net/http"
)

// Reference data. The spec shows only identifiers for these collections
// (2.5), so items carry their id and the name or code the objects of
// section 2 already show.

type platformItem struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type currencyItem struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
}

type planItem struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type phoneCountryItem struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	DialCode string `json:"dialCode"`
}

const (
	platformAndroid = 1
	platformIOS     = 2

	planLite    = 1
	planPro     = 2
	planDynamic = 3
)

var platforms = []platformItem{{platformAndroid, "Android"}, {platformIOS, "iOS"}}

var currencies = []currencyItem{{1, "USD"}, {2, "EUR"}, {3, "GBP"}, {4, "JPY"}, {5, "CAD"}, {6, "AUD"}}

var plans = []planItem{{planLite, "Lite"}, {planPro, "Pro"}, {planDynamic, "Dynamic"}}

var phoneCountries = []phoneCountryItem{
	{1, "United Kingdom (+44)", "+44"},
	{2, "United States (+1)", "+1"},
	{3, "France (+33)", "+33"},
	{4, "Germany (+49)", "+49"},
	{5, "Japan (+81)", "+81"},
}

func findPlatform(id int64) (platformItem, bool) {
	for _, p := range platforms {
		if p.ID == id {
			return p, true
		}
	}
	return platformItem{}, false
}

func findCurrency(id int64) (currencyItem, bool) {
	for _, c := range currencies {
		if c.ID == id {
			return c, true
		}
	}
	return currencyItem{}, false
}

func findPlan(id int64) bool {
	for _, p := range plans {
		if p.ID == id {
			return true
		}
	}
	return false
}

func findPhoneCountry(id int64) (phoneCountryItem, bool) {
	for _, c := range phoneCountries {
		if c.ID == id {
			return c, true
		}
	}
	return phoneCountryItem{}, false
}

// wrap builds the collection wrapper of 2.5.
func (s *Server) wrap(name string, items any, n int) map[string]any {
	out := map[string]any{name: items}
	if s.is(fCollectionsCarryPageAndTotal) {
		out["page"] = 1
		out["total"] = n
	}
	return out
}

func (s *Server) listCatalog(r *http.Request, _ principal, which string) reply {
	switch which {
	case "platforms":
		return reply{status: http.StatusOK, body: s.wrap("platforms", platforms, len(platforms))}
	case "currencies":
		return reply{status: http.StatusOK, body: s.wrap("currencies", currencies, len(currencies))}
	case "plans":
		return reply{status: http.StatusOK, body: s.wrap("plans", plans, len(plans))}
	default:
		return reply{status: http.StatusOK, body: s.wrap("phoneCountries", phoneCountries, len(phoneCountries))}
	}
}
