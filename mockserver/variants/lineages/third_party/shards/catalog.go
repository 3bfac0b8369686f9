package shards

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lookup"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

type platform struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// currency is a client's currency as 2.2 writes it.
type currency = wire.Currency

// plan is a plan of the catalogue: its id, its name and its flags.
type plan = wire.PlanItem

// phoneCountry is a user's phone country as 2.1 writes it.
type phoneCountry = wire.PhoneCountry

type marketApp struct {
	Hash     string   `json:"hash"`
	Name     string   `json:"name"`
	Platform platform `json:"platform"`
}

var platforms = []platform{{1, "Android"}, {2, "iOS"}}

var currencies = []currency{{ID: 1, Code: "EUR"}, {ID: 2, Code: "USD"}, {ID: 3, Code: "GBP"}, {ID: 4, Code: "JPY"}}

var plans = []plan{
	{ID: 1, Name: "Lite", Plan: wire.Plan{IsLite: true}},
	{ID: 2, Name: "Pro", Plan: wire.Plan{IsPro: true, NeedBilling: true}},
	{ID: 3, Name: "Dynamic", Plan: wire.Plan{IsDynamic: true, NeedBilling: true}},
}

var phoneCountries = []phoneCountry{
	{ID: 1, Name: "United Kingdom (+44)", DialCode: "+44"},
	{ID: 2, Name: "United States (+1)", DialCode: "+1"},
	{ID: 3, Name: "France (+33)", DialCode: "+33"},
	{ID: 4, Name: "Germany (+49)", DialCode: "+49"},
	{ID: 5, Name: "Japan (+81)", DialCode: "+81"},
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
	return lookup.First(platforms, func(x *platform) bool { return x.ID == id })
}

func findCurrency(id int64) *currency {
	return lookup.First(currencies, func(x *currency) bool { return x.ID == id })
}

func findPlan(id int64) *plan {
	return lookup.First(plans, func(x *plan) bool { return x.ID == id })
}

func findPhoneCountry(id int64) *phoneCountry {
	return lookup.First(phoneCountries, func(x *phoneCountry) bool { return x.ID == id })
}

func (s *Server) marketByHash(hash string) *marketApp {
	if !s.is(faultHashUppercase) {
		hash = strings.ToLower(hash)
	}
	return lookup.First(marketApps, func(x *marketApp) bool { return x.Hash == hash })
}

func marketByName(name string, platformID int64) *marketApp {
	return lookup.First(marketApps, func(x *marketApp) bool { return x.Name == name && x.Platform.ID == platformID })
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
