package documents

import (
	"encoding/json"
	"math/rand/v2"
	"sync"
	"time"
)

// document is one stored record, JSON-encoded. Its lock is held across a
// whole read-modify-write so that two updates never interleave.
type document struct {
	mu   sync.Mutex
	data []byte
}

// collection maps ids to documents. Its own lock only guards the map and the
// id counter, never a document's content.
type collection struct {
	mu   sync.RWMutex
	docs map[int64]*document
	next int64
}

func newCollection(first int64) *collection {
	return &collection{docs: map[int64]*document{}, next: first}
}

func (c *collection) get(id int64) *document {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.docs[id]
}

// insert allocates the id and stores the document in one critical section,
// so that no two inserts share an id.
func (c *collection) insert(build func(id int64) []byte) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := c.next
	c.next++
	c.docs[id] = &document{data: build(id)}
	return id
}

// insertRacy allocates the id the way a store without a sequence does
// ("max id + 1", then write): only the app-id-collision fault uses it.
func (c *collection) insertRacy(build func(id int64) []byte) int64 {
	c.mu.RLock()
	id := c.next
	c.mu.RUnlock()
	raceWindow()
	data := build(id)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.docs[id] = &document{data: data}
	if c.next <= id {
		c.next = id + 1
	}
	return id
}

func (c *collection) size() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.docs)
}

func (c *collection) remove(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.docs, id)
}

// raceWindow stands for the latency of a remote store between a read and the
// write that depends on it. Only faulty paths call it.
func raceWindow() {
	time.Sleep(time.Millisecond + time.Duration(rand.IntN(4000))*time.Microsecond)
}

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Every stored type is plain data; this cannot happen.
		panic(err)
	}
	return b
}

func decode(data []byte, v any) {
	if err := json.Unmarshal(data, v); err != nil {
		panic(err)
	}
}

// read decodes a snapshot of the document under its lock.
func (d *document) read(v any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	decode(d.data, v)
}

// userDoc is the stored user. It holds secrets; it is never sent as is.
type userDoc struct {
	ID                  int64   `json:"id"`
	Created             string  `json:"created"`
	Email               string  `json:"email"`
	PasswordSalt        string  `json:"passwordSalt"`
	PasswordHash        string  `json:"passwordHash"`
	PreviousSalt        string  `json:"previousSalt,omitempty"`
	PreviousHash        string  `json:"previousHash,omitempty"`
	PasswordLastChanged string  `json:"passwordLastChanged"`
	FirstName           string  `json:"firstName"`
	LastName            string  `json:"lastName"`
	SubscribeWelcome    bool    `json:"subscribeWelcome"`
	SubscribeBlog       bool    `json:"subscribeBlog"`
	SubscribeHowto      bool    `json:"subscribeHowto"`
	SubscribeOnboarding bool    `json:"subscribeOnboarding"`
	PhoneCountryID      int64   `json:"phoneCountryId"`
	PhoneNumber         string  `json:"phoneNumber"`
	PhoneExtension      *string `json:"phoneExtension"`
	Timezone            string  `json:"timezone"`
	APIKey              string  `json:"apiKey,omitempty"`
	ClientIDs           []int64 `json:"clientIds"`
	SessionIDs          []int64 `json:"sessionIds"`
}

type clientDoc struct {
	ID              int64   `json:"id"`
	CreatedDate     string  `json:"createdDate"`
	Name            string  `json:"name"`
	AddressLine1    string  `json:"addressLine1"`
	AddressLine2    *string `json:"addressLine2"`
	AddressCity     string  `json:"addressCity"`
	AddressPostcode string  `json:"addressPostcode"`
	AddressCountry  string  `json:"addressCountry"`
	VAT             *string `json:"vat"`
	CurrencyID      int64   `json:"currencyId"`
	AppIDs          []int64 `json:"appIds"`
}

type appDoc struct {
	ID         int64  `json:"id"`
	Created    string `json:"created"`
	Name       string `json:"name"`
	PlatformID int64  `json:"platformId"`
	WriteKey   string `json:"writeKey"`
	PlanID     int64  `json:"planId"`
	Hash       string `json:"hash"`
	ClientID   int64  `json:"clientId"`
}

type sessionDoc struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	UserID        int64  `json:"userId"`
	ClientID      *int64 `json:"clientId"`
	Token         string `json:"token"`
}

const isoMillis = "2006-01-02T15:04:05.000Z07:00"

func now() string { return time.Now().UTC().Format(isoMillis) }

func (s *Server) readUser(id int64) (userDoc, bool) {
	d := s.users.get(id)
	if d == nil {
		return userDoc{}, false
	}
	var u userDoc
	d.read(&u)
	return u, true
}

func (s *Server) isMember(userID, clientID int64) bool {
	u, ok := s.readUser(userID)
	if !ok {
		return false
	}
	for _, c := range u.ClientIDs {
		if c == clientID {
			return true
		}
	}
	return false
}
