package pricing

import (
	"fmt"
	"slices"
	"time"
)

// Apps: the app object, its input and POST /apps (2.3, 4.2).

// App is a mobile app of a client.
type App struct {
	ID            int64
	Created       time.Time
	ClientID      int64
	Name          string
	PlatformID    int64
	PlanID        int64
	MarketappHash *string // nil: created from a name and a platform
	WriteKey      string
}

// AppInput is a validated, resolved body of POST /apps: with a marketplace
// app, Name and PlatformID are already the marketplace app's.
type AppInput struct {
	Name          string
	PlatformID    int64
	PlanID        int64
	MarketappHash *string
}

func (a App) copy() App {
	a.MarketappHash = clonePtr(a.MarketappHash)
	return a
}

// App returns an app by id.
func (s *Store) App(id int64) (App, error) {
	return record[App](s, func(s *Store) map[int64]App { return s.apps }, "app", id)
}

// AppsOfClient lists the apps of a client.
func (s *Store) AppsOfClient(clientID int64) ([]App, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, ok := s.clients[clientID]; !ok {
		return nil, fmt.Errorf("client %d: %w", clientID, ErrNotFound)
	}
	out := []App{}
	for _, a := range s.apps {
		if a.ClientID == clientID {
			out = append(out, a.copy())
		}
	}
	slices.SortFunc(out, func(a, b App) int { return cmpInt(a.ID, b.ID) })
	return out, nil
}

func (s *Store) checkAppLocked(in AppInput) error {
	if _, ok := s.platforms[in.PlatformID]; !ok {
		return fmt.Errorf("platform %d: %w", in.PlatformID, ErrUnknownReference)
	}
	if _, ok := s.plans[in.PlanID]; !ok {
		return fmt.Errorf("plan %d: %w", in.PlanID, ErrUnknownReference)
	}
	if in.MarketappHash != nil {
		found := false
		for _, m := range s.marketapps {
			if m.Hash == *in.MarketappHash {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("marketapp %s: %w", *in.MarketappHash, ErrUnknownReference)
		}
	}
	return nil
}

func (s *Store) addAppLocked(clientID int64, in AppInput, g generated) App {
	a := App{
		ID: s.nextApp, Created: g.now, ClientID: clientID,
		Name: in.Name, PlatformID: in.PlatformID, PlanID: in.PlanID,
		MarketappHash: clonePtr(in.MarketappHash), WriteKey: g.writeKey,
	}
	s.nextApp++
	s.apps[a.ID] = a
	s.markApp(a.ID)
	return a.copy()
}

// CreateApp applies a POST /apps body: a new app of the client.
func (s *Store) CreateApp(clientID int64, in AppInput) (App, error) {
	g := s.generate(nil, true)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.clients[clientID]; !ok {
		return App{}, fmt.Errorf("client %d: %w", clientID, ErrNotFound)
	}
	if err := s.checkAppLocked(in); err != nil {
		return App{}, err
	}
	if err := s.room(0, 0, 1); err != nil {
		return App{}, err
	}
	if err := s.charge(in.bytes()); err != nil {
		return App{}, err
	}
	s.changedLocked()
	if s.dev.AppToOtherClient != 0 {
		clientID = s.otherClientLocked(clientID, s.dev.AppToOtherClient == 2)
	}
	return s.addAppLocked(clientID, in, g), nil
}

// otherClientLocked is the lowest (or highest) id of a client no member of
// client id belongs to (Deviations.AppToOtherClient); id when there is none.
func (s *Store) otherClientLocked(id int64, highest bool) int64 {
	mine := map[int64]bool{id: true}
	for _, u := range s.users {
		if slices.Contains(u.ClientIDs, id) {
			for _, c := range u.ClientIDs {
				mine[c] = true
			}
		}
	}
	other := id
	for cid := range s.clients {
		if mine[cid] {
			continue
		}
		if other == id || (highest && cid > other) || (!highest && cid < other) {
			other = cid
		}
	}
	return other
}
