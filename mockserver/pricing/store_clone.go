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
	d := s.data // the catalogues, the next ids and pristine as they are
	d.users = make(map[int64]*userRecord, len(s.users))
	d.emails, d.apiKeys = maps.Clone(s.emails), maps.Clone(s.apiKeys)
	d.sessions, d.sessionOrder = maps.Clone(s.sessions), slices.Clone(s.sessionOrder)
	d.clients, d.apps = maps.Clone(s.clients), maps.Clone(s.apps)
	c := &Store{
		src: s.src, secret: s.secret, dev: s.dev, lim: Limits{Users: s.lim.Users, Clients: s.lim.Clients, Apps: s.lim.Apps, Sessions: s.lim.Sessions},
		data: d, sessionHead: s.sessionHead,
		platformList: s.platformList, currencyList: s.currencyList, planList: s.planList, phoneCountryList: s.phoneCountryList,
		gen: s.gen, lastSessionUser: s.lastSessionUser, refused: maps.Clone(s.refused),
		bytes: s.bytes, closed: true,
	}
	for id, r := range s.users {
		rc := *r
		rc.User = r.copy()
		c.users[id] = &rc
	}
	return c
}
