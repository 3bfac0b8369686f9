package ledger

import (
	"fmt"
	"maps"
	"time"
)

// The server keeps all state in an append-only ledger of events. A single
// writer goroutine owns the ledger: it takes commands from a channel, lets
// each command decide (against the current view) which events to append,
// appends them and replays them into a new, immutable view that it then
// publishes. Readers load the published view and never see a half-applied
// command.

type evKind int

const (
	evUserPut evKind = iota + 1
	evClientPut
	evMemberAdd
	evAppPut
	evSessionPut
)

type event struct {
	Seq     int64
	At      time.Time
	Kind    evKind
	User    *userRec
	Client  *clientRec
	App     *appRec
	Session *sessionRec
	// evMemberAdd
	UserID, ClientID int64
}

type userRec struct {
	ID                  int64
	Created             time.Time
	Email               string
	PwSalt, PwHash      string
	PrevHashes          []string // only filled by the old-password-valid fault
	PasswordLastChanged time.Time
	FirstName, LastName string
	SubWelcome          bool
	SubBlog             bool
	SubHowto            bool
	SubOnboarding       bool
	PhoneCountryID      int64
	PhoneNumber         string
	PhoneExt            *string
	Timezone            string
	APIKey              string
	PrevEmails          []string // only filled by the old-email-login fault
}

type clientRec struct {
	ID              int64
	Created         time.Time
	Name            string
	AddressLine1    string
	AddressLine2    *string
	AddressCity     string
	AddressPostcode string
	AddressCountry  string
	VAT             *string
	CurrencyID      int64
}

type appRec struct {
	ID         int64
	ClientID   int64
	Created    time.Time
	Name       string
	PlatformID int64
	WriteKey   string
	PlanID     int64
	Hash       string
}

type sessionRec struct {
	ID        int64
	Created   time.Time
	CreatorID int64
	UserID    int64
	ClientID  int64 // 0: the user has no client
	Token     string
}

// view is one consistent, immutable picture of the state. It is never
// modified after being published; apply copies what it changes.
type view struct {
	Seq      int64
	Users    map[int64]*userRec
	Emails   map[string]int64 // lower-case email -> user id
	APIKeys  map[string]int64
	Clients  map[int64]*clientRec
	Members  map[int64][]int64 // user id -> client ids (ascending)
	Apps     map[int64]*appRec
	Sessions map[int64]*sessionRec
	Tokens   map[string]int64 // token -> session id

	NextUser, NextClient, NextApp, NextSession int64
}

func emptyView() *view {
	return &view{
		Users:       map[int64]*userRec{},
		Emails:      map[string]int64{},
		APIKeys:     map[string]int64{},
		Clients:     map[int64]*clientRec{},
		Members:     map[int64][]int64{},
		Apps:        map[int64]*appRec{},
		Sessions:    map[int64]*sessionRec{},
		Tokens:      map[string]int64{},
		NextUser:    7001,
		NextClient:  3001,
		NextApp:     52001,
		NextSession: 901,
	}
}

// replay applies events to base and returns the resulting view; base is not
// modified. It is the only way a view changes.
func replay(base *view, evs []event) *view {
	nv := *base
	cloned := map[string]bool{}
	cow := func(name string) {
		if cloned[name] {
			return
		}
		cloned[name] = true
		switch name {
		case "users":
			nv.Users = maps.Clone(nv.Users)
			nv.Emails = maps.Clone(nv.Emails)
			nv.APIKeys = maps.Clone(nv.APIKeys)
		case "clients":
			nv.Clients = maps.Clone(nv.Clients)
		case "members":
			nv.Members = maps.Clone(nv.Members)
		case "apps":
			nv.Apps = maps.Clone(nv.Apps)
		case "sessions":
			nv.Sessions = maps.Clone(nv.Sessions)
			nv.Tokens = maps.Clone(nv.Tokens)
		}
	}
	for _, ev := range evs {
		if ev.Seq > nv.Seq {
			nv.Seq = ev.Seq
		}
		switch ev.Kind {
		case evUserPut:
			cow("users")
			nv.putUser(ev.User)
		case evClientPut:
			cow("clients")
			nv.Clients[ev.Client.ID] = ev.Client
			if ev.Client.ID >= nv.NextClient {
				nv.NextClient = ev.Client.ID + 1
			}
		case evMemberAdd:
			cow("members")
			nv.addMember(ev.UserID, ev.ClientID)
		case evAppPut:
			cow("apps")
			nv.Apps[ev.App.ID] = ev.App
			if ev.App.ID >= nv.NextApp {
				nv.NextApp = ev.App.ID + 1
			}
		case evSessionPut:
			cow("sessions")
			nv.Sessions[ev.Session.ID] = ev.Session
			nv.Tokens[ev.Session.Token] = ev.Session.ID
			if ev.Session.ID >= nv.NextSession {
				nv.NextSession = ev.Session.ID + 1
			}
		}
	}
	return &nv
}

// putUser writes a user event into a view replay has copied the users
// of: the user, its emails (the old one let go, earlier ones kept) and
// its api key.
func (nv *view) putUser(u *userRec) {
	if old, ok := nv.Users[u.ID]; ok {
		if id, ok := nv.Emails[lower(old.Email)]; ok && id == u.ID {
			delete(nv.Emails, lower(old.Email))
		}
	}
	for _, e := range u.PrevEmails {
		nv.Emails[lower(e)] = u.ID
	}
	nv.Emails[lower(u.Email)] = u.ID
	if u.APIKey != "" {
		nv.APIKeys[u.APIKey] = u.ID
	}
	nv.Users[u.ID] = u
	if u.ID >= nv.NextUser {
		nv.NextUser = u.ID + 1
	}
}

// addMember adds a client to a user's list, kept ascending, in a view
// replay has copied the members of; the list itself is a new one.
func (nv *view) addMember(userID, clientID int64) {
	list := append([]int64(nil), nv.Members[userID]...)
	found := false
	for _, c := range list {
		if c == clientID {
			found = true
		}
	}
	if !found {
		list = append(list, clientID)
		for i := len(list) - 1; i > 0 && list[i] < list[i-1]; i-- {
			list[i], list[i-1] = list[i-1], list[i]
		}
	}
	nv.Members[userID] = list
}

func (v *view) isMember(userID, clientID int64) bool {
	for _, c := range v.Members[userID] {
		if c == clientID {
			return true
		}
	}
	return false
}

func (v *view) defaultClient(userID int64) int64 {
	if l := v.Members[userID]; len(l) > 0 {
		return l[0]
	}
	return 0
}

// command is run by the writer goroutine against the current view. It
// returns the events to append (possibly none), a result and an error. The
// correct server never returns events together with an error.
type command func(v *view, now time.Time) ([]event, any, *apiError)

type cmdReq struct {
	fn   command
	done chan cmdResult
}

type cmdResult struct {
	res any
	err *apiError
}

const maxLedger = 100000

func (s *Server) writer() {
	for req := range s.cmds {
		req.done <- s.runCommand(req.fn)
	}
}

func (s *Server) runCommand(fn command) (out cmdResult) {
	defer func() {
		if p := recover(); p != nil {
			out = cmdResult{err: &apiError{status: 500, code: "InternalError", msg: fmt.Sprint("internal error: ", p)}}
		}
	}()
	cur := s.snap.Load()
	now := s.now()
	evs, res, err := fn(cur, now)
	if len(evs) > 0 {
		seq := cur.Seq
		for i := range evs {
			seq++
			evs[i].Seq = seq
			evs[i].At = now
		}
		next := replay(cur, evs)
		s.ledgerMu.Lock()
		if len(s.ledger)+len(evs) > maxLedger {
			// compaction: the current view becomes the new base
			s.base = cur
			s.ledger = nil
		}
		s.ledger = append(s.ledger, evs...)
		s.ledgerMu.Unlock()
		s.snap.Store(next)
	}
	return cmdResult{res: res, err: err}
}

// exec sends a command to the writer and waits for its result.
func (s *Server) exec(fn command) (any, *apiError) {
	req := cmdReq{fn: fn, done: make(chan cmdResult, 1)}
	s.cmds <- req
	r := <-req.done
	return r.res, r.err
}

func (s *Server) view() *view { return s.snap.Load() }
