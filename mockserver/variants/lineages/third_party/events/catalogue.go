package events

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strings"
)

// The catalogues are reference data: nothing in the API changes them, so
// they live outside the event log and are built afresh for every Server (no
// table is shared between servers, even read-only, so no server can ever see
// another's data).

type platform struct {
	ID   int64
	Name string
}

type currency struct {
	ID   int64 // ISO 4217 numeric code
	Code string
	Name string
}

type plan struct {
	ID          int64
	Name        string
	IsLite      bool
	IsPro       bool
	IsDynamic   bool
	NeedBilling bool
}

type phoneCountry struct {
	ID       int64
	Country  string
	DialCode string
}

// Name is the label the API shows: the country with its dial code in
// brackets, as section 2.1 describes.
func (p phoneCountry) Name() string { return p.Country + " (" + p.DialCode + ")" }

type marketApp struct {
	Hash       string // 40 lower-case hexadecimal characters
	Name       string
	PlatformID int64
}

type catalogue struct {
	platforms      []platform
	currencies     []currency
	plans          []plan
	phoneCountries []phoneCountry
	marketApps     []marketApp

	platformByID map[int64]platform
	currencyByID map[int64]currency
	planByID     map[int64]plan
	phoneByID    map[int64]phoneCountry
	marketByHash map[string]marketApp
}

const (
	platformAndroid int64 = 61
	platformIOS     int64 = 74

	planLite    int64 = 4017
	planPro     int64 = 4058
	planDynamic int64 = 4093
)

func newCatalogue() *catalogue {
	c := &catalogue{
		platforms: []platform{
			{platformAndroid, "Android"},
			{platformIOS, "iOS"},
		},
		currencies: []currency{
			{826, "GBP", "Pound sterling"},
			{978, "EUR", "Euro"},
			{840, "USD", "United States dollar"},
			{392, "JPY", "Japanese yen"},
			{752, "SEK", "Swedish krona"},
		},
		plans: []plan{
			{ID: planLite, Name: "Lite", IsLite: true},
			{ID: planPro, Name: "Pro", IsPro: true, NeedBilling: true},
			{ID: planDynamic, Name: "Dynamic", IsDynamic: true, NeedBilling: true},
		},
		phoneCountries: []phoneCountry{
			{512, "United Kingdom", "+44"},
			{538, "France", "+33"},
			{547, "United States", "+1"},
			{569, "Germany", "+49"},
			{583, "Japan", "+81"},
			{601, "India", "+91"},
			{622, "Sweden", "+46"},
			{637, "Brazil", "+55"},
		},
	}
	// One title exists on both stores, so that looking a marketplace app up
	// by name really needs the platform too.
	titles := []struct {
		name     string
		platform int64
	}{
		{"Harbour Tide Tables", platformAndroid},
		{"Quillwort Notes", platformIOS},
		{"Pebblestack Puzzle", platformAndroid},
		{"Lumen Budget", platformIOS},
		{"Fennec Run", platformAndroid},
		{"Fennec Run", platformIOS},
		{"Orbital Knitting", platformAndroid},
		{"Saltmarsh Radio", platformIOS},
		{"Cobalt Flashcards", platformAndroid},
		{"Marigold Sleep Sounds", platformIOS},
	}
	for _, t := range titles {
		sum := sha1.Sum([]byte("marketapp/" + c.platformName(t.platform) + "/" + t.name))
		c.marketApps = append(c.marketApps, marketApp{Hash: hex.EncodeToString(sum[:]), Name: t.name, PlatformID: t.platform})
	}
	c.platformByID = index(c.platforms, func(p platform) int64 { return p.ID })
	c.currencyByID = index(c.currencies, func(x currency) int64 { return x.ID })
	c.planByID = index(c.plans, func(x plan) int64 { return x.ID })
	c.phoneByID = index(c.phoneCountries, func(x phoneCountry) int64 { return x.ID })
	c.marketByHash = index(c.marketApps, func(m marketApp) string { return m.Hash })
	sort.Slice(c.currencies, func(i, j int) bool { return c.currencies[i].Code < c.currencies[j].Code })
	return c
}

// index maps each of xs by its key.
func index[K comparable, T any](xs []T, key func(T) K) map[K]T {
	m := make(map[K]T, len(xs))
	for _, x := range xs {
		m[key(x)] = x
	}
	return m
}

func (c *catalogue) platformName(id int64) string {
	switch id {
	case platformAndroid:
		return "Android"
	case platformIOS:
		return "iOS"
	}
	return ""
}

// marketByTitle finds the marketplace app a caller names without its hash.
// Names are compared without regard to case or surrounding blanks, since a
// store title typed by hand rarely matches byte for byte.
func (c *catalogue) marketByTitle(name string, platformID int64) (marketApp, bool) {
	want := strings.TrimSpace(name)
	for _, m := range c.marketApps {
		if m.PlatformID == platformID && strings.EqualFold(m.Name, want) {
			return m, true
		}
	}
	return marketApp{}, false
}
