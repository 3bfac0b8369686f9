package snapshots

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

type platform struct {
	id   int64
	name string
}

type currency struct {
	id   int64
	code string
	name string
}

type plan struct {
	id                              int64
	name                            string
	lite, pro, dynamic, needBilling bool
}

type phoneCountry struct {
	id       int64
	name     string
	dialCode string
}

// catalog holds the reference collections. They never change after New, so
// they live outside the versioned state and are shared by every snapshot.
type catalog struct {
	platforms      []platform
	currencies     []currency
	plans          []plan
	phoneCountries []phoneCountry
	// storeApps are the apps of the stores, by their lower-case hash: an
	// app is created from one of them (1: "Creating an app that does not
	// exist in a store is not supported").
	storeApps map[string]marketapp
}

// StoreAppHashes are the hashes of the stores' apps, in a fixed order: what
// this server's documentation gives a client (its choices.md).
func StoreAppHashes() []string {
	var out []string
	for i := 1; i <= 8; i++ {
		sum := sha1.Sum([]byte(fmt.Sprintf("snapshots store app %d", i)))
		out = append(out, hex.EncodeToString(sum[:]))
	}
	return out
}

func (c *catalog) storeApp(hash string) (marketapp, bool) {
	m, ok := c.storeApps[strings.ToLower(hash)]
	return m, ok
}

// byID is the entry of xs whose id (idOf) is id.
func byID[T any](xs []T, id int64, idOf func(T) int64) (T, bool) {
	for _, x := range xs {
		if idOf(x) == id {
			return x, true
		}
	}
	var zero T
	return zero, false
}

func (c *catalog) platform(id int64) (platform, bool) {
	return byID(c.platforms, id, func(x platform) int64 { return x.id })
}

func (c *catalog) currency(id int64) (currency, bool) {
	return byID(c.currencies, id, func(x currency) int64 { return x.id })
}

func (c *catalog) plan(id int64) (plan, bool) {
	return byID(c.plans, id, func(x plan) int64 { return x.id })
}

func (c *catalog) phoneCountry(id int64) (phoneCountry, bool) {
	return byID(c.phoneCountries, id, func(x phoneCountry) int64 { return x.id })
}

// zone is the offset every date is written in. An offset that is neither
// UTC nor a whole hour is still plain ISO 8601.
var zone = time.FixedZone("", 5*3600+45*60)

// seedEpoch is when the seeded accounts claim to have been created.
var seedEpoch = time.Date(2019, 11, 3, 4, 5, 6, 789012000, time.UTC)

// seedCatalog builds the catalog, its ids the first of st's sequence.
func seedCatalog(st *state) *catalog {
	cat := &catalog{}
	for _, name := range []string{"Android", "iOS"} {
		cat.platforms = append(cat.platforms, platform{id: st.nextID(), name: name})
	}
	for _, c := range [][2]string{{"EUR", "Euro"}, {"USD", "US Dollar"}, {"GBP", "Pound Sterling"}, {"JPY", "Yen"}, {"CHF", "Swiss Franc"}} {
		cat.currencies = append(cat.currencies, currency{id: st.nextID(), code: c[0], name: c[1]})
	}
	cat.plans = []plan{
		{id: st.nextID(), name: "Lite", lite: true},
		{id: st.nextID(), name: "Pro", pro: true, needBilling: true},
		{id: st.nextID(), name: "Dynamic", dynamic: true, needBilling: true},
	}
	for _, pc := range [][2]string{{"Nepal", "+977"}, {"Germany", "+49"}, {"United States", "+1"}, {"United Kingdom", "+44"}, {"India", "+91"}, {"Brazil", "+55"}} {
		cat.phoneCountries = append(cat.phoneCountries, phoneCountry{id: st.nextID(), name: pc[0] + " (" + pc[1] + ")", dialCode: pc[1]})
	}
	cat.storeApps = map[string]marketapp{}
	for i, h := range StoreAppHashes() {
		cat.storeApps[h] = marketapp{name: fmt.Sprintf("Store App %d", i+1), platformID: cat.platforms[i%len(cat.platforms)].id}
	}
	return cat
}

// seed builds the catalog and the first state. Ids come from the same
// sequence as everything created later, so no id is ever reused.
func seed(pairs int) (*catalog, *state, [][2]Account) {
	st := &state{}
	cat := seedCatalog(st)
	accounts := make([][2]Account, pairs)
	for i := 0; i < pairs; i++ {
		for side := 0; side < 2; side++ {
			letter := string(rune('A' + side))
			k := 2*i + side
			created := seedEpoch.Add(time.Duration(k) * time.Minute).In(zone)
			acct := Account{
				Email: fmt.Sprintf("Pair%03d.%s+Seed@Pricing-Contract.Example", i, letter),
				// Quotes, a backslash, a space and non-ASCII letters: a
				// password is any string of six or more characters.
				Password: fmt.Sprintf("pw \"%d%s\" Größe\\", i, letter),
				APIKey:   newToken(40),
			}
			accounts[i][side] = acct
			ext := fmt.Sprintf("%d", 100+k%900)
			line2 := fmt.Sprintf("Suite %d", k+1)
			vat := fmt.Sprintf("DE%09d", 100000000+k)
			cl := &client{
				id:      st.nextID(),
				created: created,
				clientDetails: clientDetails{
					name:       fmt.Sprintf("Seed Publisher %03d-%s", i, letter),
					line1:      fmt.Sprintf("%d Harbour Road", k+1),
					line2:      &line2,
					city:       "Kathmandu",
					postcode:   fmt.Sprintf("44%03d", k%1000),
					country:    "Nepal",
					vat:        &vat,
					currencyID: cat.currencies[k%len(cat.currencies)].id,
				},
			}
			salt, hash := hashPassword(acct.Password)
			u := &user{
				id:        st.nextID(),
				created:   created,
				pwChanged: created.Add(time.Second),
				userDetails: userDetails{
					email:          acct.Email,
					firstName:      "Seed" + letter,
					lastName:       fmt.Sprintf("Pair%03d", i),
					subs:           [4]bool{true, false, side == 0, side == 1},
					timezone:       "Asia/Kathmandu",
					phoneCountryID: cat.phoneCountries[k%len(cat.phoneCountries)].id,
					phoneNumber:    fmt.Sprintf("98%08d", k),
					phoneExt:       &ext,
				},
				pwSalt:    salt,
				pwHash:    hash,
				apiKey:    acct.APIKey,
				clientIDs: []int64{cl.id},
			}
			cl.members = []int64{u.id}
			st.clients = st.clients.set(cl.id, cl)
			st.users = st.users.set(u.id, u)
			st.emails = st.emails.set(u.email, u.id)
			st.apiKeys = st.apiKeys.set(u.apiKey, u.id)
		}
	}
	return cat, st, accounts
}
