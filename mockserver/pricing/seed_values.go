package pricing

import (
	"fmt"
	"strings"
)

// SeedValues is what a store starts with, as typed values: the catalogues
// and the users, clients and apps. NewSeed makes a Seed of them for a
// program that holds them already, such as the explorer's reference of a
// target (cmd/internal/explore), with no fixture file written and parsed
// back.
type SeedValues struct {
	Platforms      []Platform
	Currencies     []Currency
	Plans          []Plan
	PhoneCountries []PhoneCountry
	Marketapps     []Marketapp
	Users          []StateUser // passwords and API keys in plain text
	Clients        []StateClient
	Apps           []StateApp
}

// NewSeed makes a seed of v. It checks what a store needs to hold them
// (ids positive and distinct in each kind, every reference resolved, no
// password or API key given as a hash), not whether each value is one the
// mock would accept: the values are another server's, as the explorer saw
// them. An error names the value by its kind and id. The seed's Profile is
// empty: the values name no accounts.
func NewSeed(v SeedValues) (*Seed, error) {
	d := &Seed{}
	ids := valueIDs{}
	if err := d.addCatalogues(v, ids); err != nil {
		return nil, err
	}
	if err := checkAccounts(v, ids); err != nil {
		return nil, err
	}
	d.users, d.clients, d.apps = v.Users, v.Clients, v.Apps
	return d, nil
}

// valueIDs are the ids of each kind of value of a seed seen so far.
type valueIDs map[string]map[int64]bool

// add takes the id n of a value of kind: an error when it is not positive
// or another's of that kind.
func (ids valueIDs) add(kind string, n int64) error {
	if ids[kind] == nil {
		ids[kind] = map[int64]bool{}
	}
	switch {
	case n <= 0:
		return fmt.Errorf("%s %d: an id must be positive", kind, n)
	case ids[kind][n]:
		return fmt.Errorf("%s %d: two %ss have this id", kind, n, kind)
	}
	ids[kind][n] = true
	return nil
}

func (ids valueIDs) has(kind string, n int64) bool { return ids[kind][n] }

// addCatalogues adds the platforms, currencies, plans, phone countries and
// marketplace apps of v to d.
func (d *Seed) addCatalogues(v SeedValues, ids valueIDs) error {
	if err := addEntries(ids, "platform", v.Platforms, &d.platforms, func(p Platform) (int64, seedPlatform) { return p.ID, seedPlatform(p) }); err != nil {
		return err
	}
	if err := addEntries(ids, "currency", v.Currencies, &d.currencies, func(c Currency) (int64, seedCurrency) { return c.ID, seedCurrency(c) }); err != nil {
		return err
	}
	if err := addEntries(ids, "plan", v.Plans, &d.plans, func(p Plan) (int64, seedPlan) { return p.ID, seedPlan(p) }); err != nil {
		return err
	}
	if err := addEntries(ids, "phone country", v.PhoneCountries, &d.phoneCountries, func(p PhoneCountry) (int64, seedPhoneCountry) { return p.ID, seedPhoneCountry(p) }); err != nil {
		return err
	}
	hashes := map[string]bool{}
	for _, m := range v.Marketapps {
		h := strings.ToLower(m.Hash)
		switch {
		case h == "" || hashes[h]:
			return fmt.Errorf("marketplace app %q: a hash must be given once", m.Hash)
		case !ids.has("platform", m.PlatformID):
			return fmt.Errorf("marketplace app %s: platform %d is not among the platforms", m.Hash, m.PlatformID)
		}
		hashes[h] = true
		m.Hash = h
		d.marketapps = append(d.marketapps, seedMarketapp(m))
	}
	return nil
}

// addEntries appends vs to *to, each as the id and seed entry that entry
// makes of it, once ids has taken the id as one of kind.
func addEntries[V, E any](ids valueIDs, kind string, vs []V, to *[]E, entry func(V) (int64, E)) error {
	for _, v := range vs {
		id, e := entry(v)
		if err := ids.add(kind, id); err != nil {
			return err
		}
		*to = append(*to, e)
	}
	return nil
}

// checkAccounts checks the clients, users and apps of v: their ids, and
// every value they refer to.
func checkAccounts(v SeedValues, ids valueIDs) error {
	for _, c := range v.Clients {
		if err := ids.add("client", c.ID); err != nil {
			return err
		}
		if !ids.has("currency", c.CurrencyID) {
			return fmt.Errorf("client %d: currency %d is not among the currencies", c.ID, c.CurrencyID)
		}
	}
	emails := map[string]bool{}
	for _, u := range v.Users {
		if err := ids.add("user", u.ID); err != nil {
			return err
		}
		e := strings.ToLower(u.Email)
		switch {
		case e == "" || emails[e]:
			return fmt.Errorf("user %d: the email %q is empty or another user's", u.ID, u.Email)
		case u.PasswordHash != "" || len(u.APIKeyHashes) > 0:
			return fmt.Errorf("user %d: passwords and API keys are given in plain text", u.ID)
		case u.PrimaryClientID != 0 && !ids.has("client", u.PrimaryClientID):
			return fmt.Errorf("user %d: primary client %d is not among the clients", u.ID, u.PrimaryClientID)
		}
		emails[e] = true
		for _, c := range u.ClientIDs {
			if !ids.has("client", c) {
				return fmt.Errorf("user %d: client %d is not among the clients", u.ID, c)
			}
		}
	}
	for _, a := range v.Apps {
		if err := ids.add("app", a.ID); err != nil {
			return err
		}
		switch {
		case !ids.has("client", a.ClientID):
			return fmt.Errorf("app %d: client %d is not among the clients", a.ID, a.ClientID)
		case !ids.has("platform", a.PlatformID):
			return fmt.Errorf("app %d: platform %d is not among the platforms", a.ID, a.PlatformID)
		}
	}
	return nil
}
