package shards

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
)

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

type marketApp struct {
	Hash     string   `json:"hash"`
	Name     string   `json:"name"`
	Platform platform `json:"platform"`
}

var platforms = []platform{{1, "Android"}, {2, "iOS"}}

var currencies = []currency{{1, "EUR"}, {2, "USD"}, {3, "GBP"}, {4, "JPY"}}

var plans = []plan{
	{ID: 1, Name: "Lite", IsLite: true},
	{ID: 2, Name: "Pro", IsPro: true, NeedBilling: true},
	{ID: 3, Name: "Dynamic", IsDynamic: true, NeedBilling: true},
}

var phoneCountries = []phoneCountry{
	{1, "United Kingdom (+44)", "+44"},
	{2, "United States (+1)", "+1"},
	{3, "France (+33)", "+33"},
	{4, "Germany (+49)", "+49"},
	{5, "Japan (+81)", "+81"},
}

var marketAppNames = []string{
	"Puzzle Quest", "Tower Rush", "Word Garden", "Pixel Racer",
	"Chef Story", "Space Miner", "Sudoku Daily", "Farm Friends",
	"Card Castle", "Ocean Dive", "Block Builder", "Zen Timer",
}

// marketApps is the seeded marketplace: hash = sha1("pricing-marketapp-NN"),
// odd NN on Android, even NN on iOS.
var marketApps = buildMarketApps()

func buildMarketApps() []marketApp {
	out := make([]marketApp, len(marketAppNames))
	for i, name := range marketAppNames {
		sum := sha1.Sum([]byte(fmt.Sprintf("pricing-marketapp-%02d", i+1)))
		out[i] = marketApp{Hash: hex.EncodeToString(sum[:]), Name: name, Platform: platforms[i%2]}
	}
	return out
}

func findPlatform(id int64) *platform {
	for i := range platforms {
		if platforms[i].ID == id {
			return &platforms[i]
		}
	}
	return nil
}

func findCurrency(id int64) *currency {
	for i := range currencies {
		if currencies[i].ID == id {
			return &currencies[i]
		}
	}
	return nil
}

func findPlan(id int64) *plan {
	for i := range plans {
		if plans[i].ID == id {
			return &plans[i]
		}
	}
	return nil
}

func findPhoneCountry(id int64) *phoneCountry {
	for i := range phoneCountries {
		if phoneCountries[i].ID == id {
			return &phoneCountries[i]
		}
	}
	return nil
}

func (s *Server) marketByHash(hash string) *marketApp {
	if !s.is(faultHashUppercase) {
		hash = strings.ToLower(hash)
	}
	for i := range marketApps {
		if marketApps[i].Hash == hash {
			return &marketApps[i]
		}
	}
	return nil
}

func marketByName(name string, platformID int64) *marketApp {
	for i := range marketApps {
		if marketApps[i].Name == name && marketApps[i].Platform.ID == platformID {
			return &marketApps[i]
		}
	}
	return nil
}

func (s *Server) collection(w http.ResponseWriter, r *http.Request, prop string, items any, n int) {
	if _, ok := s.requireAuth(w, r); !ok {
		return
	}
	s.writeJSON(w, http.StatusOK, map[string]any{prop: items, "count": n})
}

func (s *Server) getPlatforms(w http.ResponseWriter, r *http.Request) {
	s.collection(w, r, "platforms", platforms, len(platforms))
}

func (s *Server) getPlans(w http.ResponseWriter, r *http.Request) {
	s.collection(w, r, "plans", plans, len(plans))
}

func (s *Server) getCurrencies(w http.ResponseWriter, r *http.Request) {
	s.collection(w, r, "currencies", currencies, len(currencies))
}

func (s *Server) getPhoneCountries(w http.ResponseWriter, r *http.Request) {
	s.collection(w, r, "phoneCountries", phoneCountries, len(phoneCountries))
}

func (s *Server) getMarketApps(w http.ResponseWriter, r *http.Request) {
	s.collection(w, r, "marketapps", marketApps, len(marketApps))
}
