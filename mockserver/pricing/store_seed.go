package pricing

// Reset and install: the data a store is built from (the seed, an import)
// and how it replaces the store's under the lock.

// Reset replaces every datum with the seed's. The seed has been checked by
// LoadSeed, so every reference in it resolves.
func (s *Store) Reset(seed *Seed) {
	d := s.seeded(seed)
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.install(d, true)
}

// ResetIfPristine is reset, but only when nothing has changed the store since
// its last reset: a developer's data is never replaced by a fixture reload.
func (s *Store) ResetIfPristine(seed *Seed) bool {
	d := s.seeded(seed)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pristine {
		return false
	}
	_ = s.install(d, true)
	return true
}

// data is every datum of a Store; a reset or an import builds one outside the
// lock (hashing passwords takes a while) and installs it under the lock.
type data struct {
	users    map[int64]*userRecord
	emails   map[string]int64   // lower-cased email -> user id
	apiKeys  map[[32]byte]int64 // Secret.apiKeyHash -> user id
	sessions map[[32]byte]Session
	// sessionOrder holds the sessions' keys, oldest first from the
	// store's sessionHead: the one dropped when a new session needs room.
	sessionOrder   [][32]byte
	clients        map[int64]Client
	apps           map[int64]App
	platforms      map[int64]Platform
	currencies     map[int64]Currency
	plans          map[int64]Plan
	phoneCountries map[int64]PhoneCountry
	marketapps     []Marketapp // fixture order
	litePlanID     int64
	catalogue      *Seed // the seed of the catalogues
	nextUser       int64
	nextClient     int64
	nextApp        int64
	nextSession    int64
	pristine       bool // a reset's data, not written since
}

func (s *Store) seeded(seed *Seed) data {
	d := seed.catalogues()
	s.build(&d, seed.state())
	d.pristine = true
	return d
}

// catalogues is the part of a store that only the seed sets. The maps are
// built once per seed and shared by every store made from it: nothing
// writes to them.
func (seed *Seed) catalogues() data {
	seed.catOnce.Do(func() { seed.cat = buildCatalogues(seed) })
	return seed.cat
}

func buildCatalogues(seed *Seed) data {
	d := data{catalogue: seed}
	d.platforms = make(map[int64]Platform)
	for _, p := range seed.platforms {
		d.platforms[p.ID] = Platform(p)
	}
	d.currencies = make(map[int64]Currency)
	for _, c := range seed.currencies {
		d.currencies[c.ID] = Currency(c)
	}
	d.plans = make(map[int64]Plan)
	for _, p := range seed.plans {
		d.plans[p.ID] = Plan(p)
		if p.IsLite && (d.litePlanID == 0 || p.ID < d.litePlanID) {
			d.litePlanID = p.ID
		}
	}
	d.phoneCountries = make(map[int64]PhoneCountry)
	for _, p := range seed.phoneCountries {
		d.phoneCountries[p.ID] = PhoneCountry(p)
	}
	for _, m := range seed.marketapps {
		d.marketapps = append(d.marketapps, Marketapp(m))
	}
	return d
}

// install replaces the store's data, unless the Pool has no room for it
// (force: even then); the caller holds the write lock.
func (s *Store) install(d data, force bool) error {
	n := d.bytes()
	if force && s.lim.Pool != nil && !s.closed {
		s.lim.Pool.force(n - s.bytes)
		s.bytes = n
	} else if err := s.charge(n - s.bytes); err != nil {
		return err
	}
	s.data, s.sessionHead = d, 0
	s.platformList, s.currencyList = sortedValues(d.platforms), sortedValues(d.currencies)
	s.planList, s.phoneCountryList = sortedValues(d.plans), sortedValues(d.phoneCountries)
	s.gen++
	s.markFull()
	return nil
}
