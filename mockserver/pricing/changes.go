package pricing

import (
	"encoding/hex"
	"slices"
)

// Changes are the writes to a store since the last TakeChanges: the users,
// clients and apps written, as they are now, the sessions opened and
// dropped, and the next ids. A state file keeps them in a log beside its
// snapshot, so that a commit costs what it changed, not the whole state.
// Full means the store was replaced (an import, a reset): the log cannot
// say it, and the whole state must be written.
type Changes struct {
	Full     bool           `json:"full,omitempty"`
	Users    []StateUser    `json:"users,omitempty"`
	Clients  []StateClient  `json:"clients,omitempty"`
	Apps     []StateApp     `json:"apps,omitempty"`
	Sessions []StateSession `json:"sessions,omitempty"`
	// Dropped are the token hashes of the sessions dropped.
	Dropped []string  `json:"dropped,omitempty"`
	Next    StateNext `json:"next"`
}

// Empty reports whether there is nothing to write.
func (c Changes) Empty() bool {
	return !c.Full && len(c.Users)+len(c.Clients)+len(c.Apps)+len(c.Sessions)+len(c.Dropped) == 0
}

// changeSet is what a store wrote since the last TakeChanges.
type changeSet struct {
	users, clients, apps map[int64]bool
	sessions             map[[32]byte]bool // opened, or dropped when no longer held
	full                 bool
}

func newChangeSet() *changeSet {
	return &changeSet{users: map[int64]bool{}, clients: map[int64]bool{}, apps: map[int64]bool{}, sessions: map[[32]byte]bool{}}
}

// TrackChanges makes the store remember what it writes, for TakeChanges.
func (s *Store) TrackChanges() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.track == nil {
		s.track = newChangeSet()
	}
}

// ForgetTaken makes the next TakeChanges ask for the whole state: what the
// last one returned could not be written.
func (s *Store) ForgetTaken() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.markFull()
}

// The marks of a write; the caller holds the write lock.
func (s *Store) markUser(id int64) {
	if s.track != nil {
		s.track.users[id] = true
	}
}

func (s *Store) markClient(id int64) {
	if s.track != nil {
		s.track.clients[id] = true
	}
}

func (s *Store) markApp(id int64) {
	if s.track != nil {
		s.track.apps[id] = true
	}
}

func (s *Store) markSession(key [32]byte) {
	if s.track != nil {
		s.track.sessions[key] = true
	}
}

func (s *Store) markFull() {
	if s.track != nil {
		s.track.full = true
	}
}

// TakeChanges returns the writes since the last call, as the records are
// now, and forgets them. Without TrackChanges it returns nothing.
func (s *Store) TakeChanges() Changes {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.track
	if t == nil {
		return Changes{}
	}
	s.track = newChangeSet()
	ch := Changes{Full: t.full, Next: StateNext{User: s.nextUser, Client: s.nextClient, App: s.nextApp, Session: s.nextSession}}
	if t.full {
		return ch
	}
	var keys map[int64][]string
	for _, id := range sortedKeys(t.users) {
		r, ok := s.users[id]
		if !ok {
			continue
		}
		if keys == nil {
			keys = map[int64][]string{}
			for h, uid := range s.apiKeys {
				if t.users[uid] {
					keys[uid] = append(keys[uid], hex.EncodeToString(h[:]))
				}
			}
		}
		ch.Users = append(ch.Users, stateUser(r, keys[id]))
	}
	for _, id := range sortedKeys(t.clients) {
		if c, ok := s.clients[id]; ok {
			ch.Clients = append(ch.Clients, StateClient(c.copy()))
		}
	}
	for _, id := range sortedKeys(t.apps) {
		if a, ok := s.apps[id]; ok {
			ch.Apps = append(ch.Apps, StateApp(a.copy()))
		}
	}
	for key := range t.sessions {
		if sess, ok := s.sessions[key]; ok {
			ch.Sessions = append(ch.Sessions, StateSession{ID: sess.ID, Created: sess.Created, UserID: sess.UserID, ClientID: sess.ClientID,
				TokenHash: hex.EncodeToString(key[:])})
		} else {
			ch.Dropped = append(ch.Dropped, hex.EncodeToString(key[:]))
		}
	}
	slices.SortFunc(ch.Sessions, func(a, b StateSession) int { return cmpInt(a.ID, b.ID) })
	slices.Sort(ch.Dropped)
	return ch
}

func sortedKeys(m map[int64]bool) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// stateUser is a user record as a state document holds it.
func stateUser(r *userRecord, keyHashes []string) StateUser {
	u := r.copy()
	slices.Sort(keyHashes)
	return StateUser{
		ID: u.ID, Created: u.Created, Email: u.Email,
		PasswordSalt: hex.EncodeToString(r.salt), PasswordHash: hex.EncodeToString(r.hash),
		PasswordLastChanged: u.PasswordLastChanged, APIKeyHashes: keyHashes,
		UserDetails: u.UserDetails, ClientIDs: u.ClientIDs, PrimaryClientID: u.PrimaryClientID,
	}
}

// Apply puts changes into a state document: the records they hold replace
// those of the same id, sessions are added or dropped, the next ids are
// the higher of both. A state file's log is replayed so onto its snapshot;
// replaying a change twice gives the same state.
func (st *State) Apply(ch Changes) {
	st.Users = upsert(st.Users, ch.Users, func(u StateUser) int64 { return u.ID })
	st.Clients = upsert(st.Clients, ch.Clients, func(c StateClient) int64 { return c.ID })
	st.Apps = upsert(st.Apps, ch.Apps, func(a StateApp) int64 { return a.ID })
	if len(ch.Sessions)+len(ch.Dropped) > 0 {
		drop := map[string]bool{}
		for _, h := range ch.Dropped {
			drop[h] = true
		}
		kept := st.Sessions[:0]
		for _, sess := range st.Sessions {
			if !drop[sess.TokenHash] {
				kept = append(kept, sess)
			}
		}
		st.Sessions = upsert(kept, ch.Sessions, func(s StateSession) string { return s.TokenHash })
	}
	st.Next.User = max(st.Next.User, ch.Next.User)
	st.Next.Client = max(st.Next.Client, ch.Next.Client)
	st.Next.App = max(st.Next.App, ch.Next.App)
	st.Next.Session = max(st.Next.Session, ch.Next.Session)
}

// upsert puts each of changed into list, in place of the record of the same
// key, else at its end.
func upsert[T any, K comparable](list, changed []T, key func(T) K) []T {
	at := make(map[K]int, len(list))
	for i, x := range list {
		at[key(x)] = i
	}
	for _, x := range changed {
		if i, ok := at[key(x)]; ok {
			list[i] = x
			continue
		}
		at[key(x)] = len(list)
		list = append(list, x)
	}
	return list
}
