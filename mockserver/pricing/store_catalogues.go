package pricing

import (
	"slices"
	"strings"
	"time"
)

// The catalogues: platforms, currencies, plans, phone countries and
// marketplace apps, read-only after the seed (4.5).

// Platform, Currency, Plan, PhoneCountry and Marketapp are the catalogues;
// they come from the seed and never change.
type (
	Platform struct {
		ID            int64
		Created       time.Time
		CreatorUserID int64
		Name          string
	}
	Currency struct {
		ID   int64
		Code string
	}
	Plan struct {
		ID                                    int64
		Name                                  string
		IsLite, IsPro, IsDynamic, NeedBilling bool
	}
	PhoneCountry struct {
		ID       int64
		Name     string
		DialCode string
	}
	Marketapp struct {
		Hash       string
		Name       string
		PlatformID int64
	}
)

// Validator checks bodies against the store's catalogues, under its
// deviations.
func (s *Store) Validator() Validator { return Validator{Catalog: s, Deviations: s.dev} }

// Platforms lists the platforms.
func (s *Store) Platforms() []Platform {
	return readLocked(s, func() []Platform { return slices.Clone(s.platformList) })
}

// Currencies lists the billing currencies.
func (s *Store) Currencies() []Currency {
	return readLocked(s, func() []Currency { return slices.Clone(s.currencyList) })
}

// Plans lists the subscription plans.
func (s *Store) Plans() []Plan {
	return readLocked(s, func() []Plan { return slices.Clone(s.planList) })
}

// PhoneCountries lists the phone countries.
func (s *Store) PhoneCountries() []PhoneCountry {
	return readLocked(s, func() []PhoneCountry { return slices.Clone(s.phoneCountryList) })
}

// Marketapps lists the marketplace apps in the order of the fixture file
// (they have no numeric id to sort by).
func (s *Store) Marketapps() []Marketapp {
	return readLocked(s, func() []Marketapp { return slices.Clone(s.marketapps) })
}

// entry reads the entry of id of one of the store's tables (table picks it)
// under the store's read lock.
func entry[V any](s *Store, table func(*Store) map[int64]V, id int64) (V, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := table(s)[id]
	return v, ok
}

// Platform returns a platform by id.
func (s *Store) Platform(id int64) (Platform, bool) {
	return entry(s, func(s *Store) map[int64]Platform { return s.platforms }, id)
}

// Currency returns a currency by id.
func (s *Store) Currency(id int64) (Currency, bool) {
	return entry(s, func(s *Store) map[int64]Currency { return s.currencies }, id)
}

// Plan returns a subscription plan by id.
func (s *Store) Plan(id int64) (Plan, bool) {
	return entry(s, func(s *Store) map[int64]Plan { return s.plans }, id)
}

// PhoneCountry returns a phone country by id.
func (s *Store) PhoneCountry(id int64) (PhoneCountry, bool) {
	return entry(s, func(s *Store) map[int64]PhoneCountry { return s.phoneCountries }, id)
}

// Marketapp returns a marketplace app by hash (case-insensitive).
func (s *Store) Marketapp(hash string) (Marketapp, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, m := range s.marketapps {
		if strings.EqualFold(m.Hash, hash) {
			return m, true
		}
	}
	return Marketapp{}, false
}

// Catalogues is the seed whose catalogues the store serves: the same
// pointer for stores that serve the same catalogues. A store's catalogues
// change with a reset to another seed only, and seeds only get newer.
func (s *Store) Catalogues() *Seed {
	return readLocked(s, func() *Seed { return s.catalogue })
}

// DefaultPlanID is the plan of an app created without nextplan: the lite plan.
func (s *Store) DefaultPlanID() int64 {
	return readLocked(s, func() int64 { return s.litePlanID })
}
