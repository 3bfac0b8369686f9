package pricing

import (
	"maps"
	"slices"
)

// Clone is an independent copy of the store: the same data, its own lock,
// no change tracking and no share of a Pool (it charges nothing). The
// catalogues, which never change, are shared. What the explorer's
// linearizability check steps from, one copy per branch of its search.
func (s *Store) Clone() *Store {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := &Store{
		src: s.src, secret: s.secret, dev: s.dev, lim: Limits{Users: s.lim.Users, Clients: s.lim.Clients, Apps: s.lim.Apps, Sessions: s.lim.Sessions},
		users:    make(map[int64]*userRecord, len(s.users)),
		emails:   maps.Clone(s.emails),
		apiKeys:  maps.Clone(s.apiKeys),
		sessions: maps.Clone(s.sessions), sessionOrder: slices.Clone(s.sessionOrder), sessionHead: s.sessionHead,
		clients: maps.Clone(s.clients), apps: maps.Clone(s.apps),
		platforms: s.platforms, currencies: s.currencies, plans: s.plans, phoneCountries: s.phoneCountries,
		marketapps: s.marketapps, litePlanID: s.litePlanID, catalogue: s.catalogue,
		platformList: s.platformList, currencyList: s.currencyList, planList: s.planList, phoneCountryList: s.phoneCountryList,
		nextUser: s.nextUser, nextClient: s.nextClient, nextApp: s.nextApp, nextSession: s.nextSession,
		gen: s.gen, pristine: s.pristine, lastSessionUser: s.lastSessionUser, refused: maps.Clone(s.refused),
		bytes: s.bytes, closed: true,
	}
	for id, r := range s.users {
		rc := *r
		rc.User = r.copy()
		c.users[id] = &rc
	}
	return c
}
