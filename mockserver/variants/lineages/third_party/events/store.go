package events

import (
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"
)

// The store is event-sourced: the log is the only thing ever written, and the
// maps below are projections folded from it. A command reads the projections,
// decides, and then commits all of its events or none, all under one lock, so
// no reader ever sees half of a command.

type event interface{ eventName() string }

// profile is every field of a user that PUT /users/:userId replaces.
type profile struct {
	Email               string
	FirstName           string
	LastName            string
	SubscribeWelcome    bool
	SubscribeBlog       bool
	SubscribeHowto      bool
	SubscribeOnboarding bool
	PhoneCountryID      int64
	PhoneNumber         string
	PhoneExtension      *string
	Timezone            string
}

// clientDetails is every field of a client that PUT /clients/:clientId
// replaces. Optional fields are nil when not set.
type clientDetails struct {
	Name            string
	AddressLine1    string
	AddressLine2    *string
	AddressCity     string
	AddressPostcode string
	AddressCountry  string
	VAT             *string
	CurrencyID      int64
}

type userRegistered struct {
	At                  time.Time
	UserID              int64
	Password            string
	PasswordLastChanged time.Time
	Profile             profile
}

type apiKeyIssued struct {
	UserID int64
	Key    string
}

type userUpdated struct {
	At      time.Time
	UserID  int64
	Profile profile
}

type passwordChanged struct {
	At       time.Time
	UserID   int64
	Password string
}

type clientCreated struct {
	At       time.Time
	ClientID int64
	ByUserID int64
	Details  clientDetails
}

type clientUpdated struct {
	At       time.Time
	ClientID int64
	Details  clientDetails
}

type appCreated struct {
	At         time.Time
	AppID      int64
	ClientID   int64
	Name       string
	PlatformID int64
	Hash       string
	PlanID     int64
	WriteKey   string
}

type sessionOpened struct {
	At        time.Time
	SessionID int64
	UserID    int64
	ClientID  int64
	Token     string
}

func (userRegistered) eventName() string  { return "UserRegistered" }
func (apiKeyIssued) eventName() string    { return "ApiKeyIssued" }
func (userUpdated) eventName() string     { return "UserUpdated" }
func (passwordChanged) eventName() string { return "PasswordChanged" }
func (clientCreated) eventName() string   { return "ClientCreated" }
func (clientUpdated) eventName() string   { return "ClientUpdated" }
func (appCreated) eventName() string      { return "AppCreated" }
func (sessionOpened) eventName() string   { return "SessionOpened" }

type userView struct {
	ID                  int64
	Created             time.Time
	PasswordLastChanged time.Time
	Password            string
	APIKey              string
	Profile             profile
	Clients             []int64 // the first is the one the user signed up with
}

type clientView struct {
	ID      int64
	Created time.Time
	Details clientDetails
	Users   map[int64]bool
}

type appView struct {
	ID         int64
	ClientID   int64
	Created    time.Time
	Name       string
	PlatformID int64
	Hash       string
	PlanID     int64
	WriteKey   string
}

type sessionView struct {
	ID       int64
	Created  time.Time
	UserID   int64
	ClientID int64
	Token    string
}

type idKind int

const (
	kindUser idKind = iota
	kindClient
	kindApp
	kindSession
)

const idKinds = 4

// Each kind of id counts down from its own ceiling, so ids of different kinds
// never collide and a newer entity always has a smaller id.
func idCeiling(k idKind) int64 {
	switch k {
	case kindUser:
		return 3_999_999_989
	case kindClient:
		return 3_899_999_977
	case kindApp:
		return 3_799_999_951
	default:
		return 3_699_999_943
	}
}

type store struct {
	mu  sync.Mutex
	log []event

	users    map[int64]*userView
	byEmail  map[string]int64 // folded to lower case
	byKey    map[string]int64
	clients  map[int64]*clientView
	apps     map[int64]*appView
	sessions map[string]*sessionView
	lastID   [idKinds]int64
}

func newStore() *store {
	st := &store{
		users:    map[int64]*userView{},
		byEmail:  map[string]int64{},
		byKey:    map[string]int64{},
		clients:  map[int64]*clientView{},
		apps:     map[int64]*appView{},
		sessions: map[string]*sessionView{},
	}
	for k := range st.lastID {
		st.lastID[k] = idCeiling(idKind(k))
	}
	return st
}

// nextID is the id the next entity of a kind will get. It is derived from the
// projections only, so a command that is refused consumes nothing. The step
// depends on the previous id, which makes it irregular (7 to 13) yet
// reproducible.
func (st *store) nextID(k idKind) int64 {
	last := st.lastID[k]
	h := fnv.New32a()
	fmt.Fprintf(h, "%d/%d", k, last)
	return last - 7 - int64(h.Sum32()%7)
}

func (st *store) noteID(k idKind, id int64) {
	if id < st.lastID[k] {
		st.lastID[k] = id
	}
}

// commit must be called with mu held and only with events already checked
// against the projections: applying an event cannot fail.
func (st *store) commit(evs ...event) {
	for _, e := range evs {
		st.log = append(st.log, e)
		st.apply(e)
	}
}

func (st *store) apply(e event) {
	switch e := e.(type) {
	case userRegistered:
		st.users[e.UserID] = &userView{
			ID:                  e.UserID,
			Created:             e.At,
			PasswordLastChanged: e.PasswordLastChanged,
			Password:            e.Password,
			Profile:             cloneProfile(e.Profile),
		}
		st.byEmail[strings.ToLower(e.Profile.Email)] = e.UserID
		st.noteID(kindUser, e.UserID)
	case apiKeyIssued:
		u := st.users[e.UserID]
		if u.APIKey != "" {
			delete(st.byKey, u.APIKey)
		}
		u.APIKey = e.Key
		st.byKey[e.Key] = e.UserID
	case userUpdated:
		u := st.users[e.UserID]
		delete(st.byEmail, strings.ToLower(u.Profile.Email))
		u.Profile = cloneProfile(e.Profile)
		st.byEmail[strings.ToLower(u.Profile.Email)] = e.UserID
	case passwordChanged:
		u := st.users[e.UserID]
		u.Password = e.Password
		u.PasswordLastChanged = e.At
	case clientCreated:
		st.clients[e.ClientID] = &clientView{
			ID:      e.ClientID,
			Created: e.At,
			Details: cloneDetails(e.Details),
			Users:   map[int64]bool{e.ByUserID: true},
		}
		u := st.users[e.ByUserID]
		u.Clients = append(u.Clients, e.ClientID)
		st.noteID(kindClient, e.ClientID)
	case clientUpdated:
		st.clients[e.ClientID].Details = cloneDetails(e.Details)
	case appCreated:
		st.apps[e.AppID] = &appView{
			ID: e.AppID, ClientID: e.ClientID, Created: e.At, Name: e.Name,
			PlatformID: e.PlatformID, Hash: e.Hash, PlanID: e.PlanID, WriteKey: e.WriteKey,
		}
		st.noteID(kindApp, e.AppID)
	case sessionOpened:
		st.sessions[e.Token] = &sessionView{
			ID: e.SessionID, Created: e.At, UserID: e.UserID, ClientID: e.ClientID, Token: e.Token,
		}
		st.noteID(kindSession, e.SessionID)
	default:
		panic("events: no projection for " + e.eventName())
	}
}

// Events carry pointers to optional strings; copying them keeps the log
// immutable even if a projection is later changed in place.
func cloneProfile(p profile) profile {
	p.PhoneExtension = cloneString(p.PhoneExtension)
	return p
}

func cloneDetails(d clientDetails) clientDetails {
	d.AddressLine2 = cloneString(d.AddressLine2)
	d.VAT = cloneString(d.VAT)
	return d
}

func cloneString(s *string) *string {
	if s == nil {
		return nil
	}
	v := *s
	return &v
}
