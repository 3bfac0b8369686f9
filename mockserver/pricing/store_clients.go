package pricing

import (
	"fmt"
	"slices"
	"time"
)

// Clients: the client object, its input, POST and PUT /clients and the
// client a user is created with (2.2, 4.3, 4.4).

// Client is a client (app publisher) account.
type Client struct {
	ID              int64
	CreatedDate     time.Time
	Name            string
	AddressLine1    string
	AddressLine2    *string
	AddressCity     string
	AddressPostcode string
	AddressCountry  string
	VAT             *string
	CurrencyID      int64
}

// ClientInput is a validated body of POST /clients or PUT /clients/:clientId.
type ClientInput struct {
	Name, AddressLine1                           string
	AddressLine2                                 *string
	AddressCity, AddressPostcode, AddressCountry string
	VAT                                          *string
	CurrencyID                                   int64
	// App, when set, is created in the new client (not accepted by UpdateClient).
	App *AppInput
}

func (c Client) copy() Client {
	c.AddressLine2, c.VAT = clonePtr(c.AddressLine2), clonePtr(c.VAT)
	return c
}

// Client returns a client by id.
func (s *Store) Client(id int64) (Client, error) {
	return record[Client](s, func(s *Store) map[int64]Client { return s.clients }, "client", id)
}

// ClientsOfUser lists the clients a user is a member of.
func (s *Store) ClientsOfUser(userID int64) ([]Client, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.users[userID]
	if !ok {
		return nil, fmt.Errorf("user %d: %w", userID, ErrNotFound)
	}
	out := make([]Client, 0, len(r.ClientIDs))
	for _, id := range r.ClientIDs {
		out = append(out, s.clients[id].copy())
	}
	slices.SortFunc(out, func(a, b Client) int { return cmpInt(a.ID, b.ID) })
	return out, nil
}

func (s *Store) checkClientLocked(in ClientInput) error {
	if _, ok := s.currencies[in.CurrencyID]; !ok {
		return fmt.Errorf("currency %d: %w", in.CurrencyID, ErrUnknownReference)
	}
	if in.App != nil {
		return s.checkAppLocked(*in.App)
	}
	return nil
}

// addClientLocked creates a client (and its app) whose member is r. The input
// has been checked.
func (s *Store) addClientLocked(r *userRecord, in ClientInput, g generated) Client {
	c := Client{ID: s.nextClient, CreatedDate: g.now}
	s.nextClient++
	c.apply(in)
	s.clients[c.ID] = c
	s.markClient(c.ID)
	s.markUser(r.ID)
	r.ClientIDs = append(r.ClientIDs, c.ID)
	if r.PrimaryClientID == 0 {
		r.PrimaryClientID = c.ID
	}
	if in.App != nil {
		owner := c.ID
		if s.dev.ClientAppToPrimary && r.PrimaryClientID != c.ID {
			owner = r.PrimaryClientID
		}
		s.addAppLocked(owner, *in.App, g)
	}
	return c.copy()
}

func (c *Client) apply(in ClientInput) {
	c.Name, c.AddressLine1, c.AddressLine2 = in.Name, in.AddressLine1, clonePtr(in.AddressLine2)
	c.AddressCity, c.AddressPostcode, c.AddressCountry = in.AddressCity, in.AddressPostcode, in.AddressCountry
	c.VAT, c.CurrencyID = clonePtr(in.VAT), in.CurrencyID
}

// CreateClient applies a POST /clients body: a new client whose member is
// the user, with its first app when in.App is set; both or neither.
func (s *Store) CreateClient(userID int64, in ClientInput) (Client, error) {
	g := s.generate(nil, in.App != nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.users[userID]
	if !ok {
		return Client{}, fmt.Errorf("user %d: %w", userID, ErrNotFound)
	}
	if err := s.checkClientLocked(in); err != nil {
		return Client{}, err
	}
	if err := s.makeRoom(0, 0, &in); err != nil {
		return Client{}, err
	}
	s.changedLocked()
	return s.addClientLocked(r, in, g), nil
}

// UpdateClient applies a PUT /clients/:clientId body, which may not carry an app.
func (s *Store) UpdateClient(id int64, in ClientInput) (Client, error) {
	if in.App != nil {
		return Client{}, fmt.Errorf("an app cannot be created by updating a client: %w", ErrIncompleteInput)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok {
		return Client{}, fmt.Errorf("client %d: %w", id, ErrNotFound)
	}
	if err := s.checkClientLocked(in); err != nil {
		return Client{}, err
	}
	updated := c
	updated.apply(in)
	if err := s.charge(updated.bytes() - c.bytes()); err != nil {
		return Client{}, err
	}
	s.changedLocked()
	if !s.dev.ClientUpdateNotStored {
		s.clients[id] = updated
		s.markClient(id)
	}
	if s.dev.PermissionCheckedAfterWrite && s.refused[fmt.Sprint("client ", id)] {
		return Client{}, ErrRefusedAfterWrite
	}
	return updated.copy(), nil
}
