package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// racePause widens the window of the faulty read-then-write paths only.
const racePause = 3 * time.Millisecond

func errLimit(what string) *apiError {
	return &apiError{status: 429, code: "LimitReached", msg: "the service holds too many " + what}
}

func errEmailTaken() *apiError {
	return errField("email", "InvalidEmail", "this email address is already in use")
}

func (s *Server) respond(w http.ResponseWriter, res any, err *apiError) {
	if err != nil {
		s.writeErr(w, err)
		return
	}
	writeJSON(w, 200, res)
}

func copyUser(u *userRec) *userRec { c := *u; return &c }

// ---- sessions ----

func (s *Server) postSession(w http.ResponseWriter, r *http.Request, _ *principal, _ int64) {
	o, aerr := s.readBody(r, sessionFields)
	if aerr != nil {
		s.writeErr(w, aerr)
		return
	}
	c := &vctx{s: s}
	email, _ := c.str(o, "email", "InvalidEmail", true, false)
	pw, _ := o["password"].(string)
	if _, ok := o["password"].(string); !ok {
		c.add("password", "InvalidPassword", "password is required")
	}
	var wantClient int64
	if cv, present := o["clientId"]; present && cv != nil {
		id, ok := s.intOf(cv)
		if !ok || id <= 0 {
			c.add("clientId", "InvalidClientId", "clientId must be an integer")
		}
		wantClient = id
	}
	if len(c.errs) > 0 {
		s.writeErr(w, errFields(c.errs))
		return
	}
	var fixedID int64
	var fixedTok string
	if s.is("token-collision") {
		fixedID = s.view().NextSession
		h := sha256.Sum256([]byte(s.secret + "/session/" + strconv.FormatInt(fixedID, 10)))
		fixedTok = hex.EncodeToString(h[:24])
		time.Sleep(racePause)
	}
	res, err := s.exec(func(v *view, now time.Time) ([]event, any, *apiError) {
		uid, ok := v.Emails[lower(email)]
		u := v.Users[uid]
		if !ok || u == nil || !s.checkPassword(u, pw) {
			return nil, nil, errUnauthorized("email or password is wrong")
		}
		cid := v.defaultClient(uid)
		if wantClient != 0 {
			if v.Clients[wantClient] == nil {
				return nil, nil, errNotFound("client not found")
			}
			if !v.isMember(uid, wantClient) && !s.is("session-client-unchecked") {
				return nil, nil, errForbidden("you are not a user of this client")
			}
			cid = wantClient
		}
		if len(v.Sessions) >= maxSessions {
			return nil, nil, errLimit("sessions")
		}
		ss := &sessionRec{ID: v.NextSession, Created: now, CreatorID: uid, UserID: uid, ClientID: cid, Token: randHex(24)}
		if fixedTok != "" {
			ss.ID, ss.Token = fixedID, fixedTok
		}
		return []event{{Kind: evSessionPut, Session: ss}}, renderSession(ss), nil
	})
	s.respond(w, res, err)
}

// ---- users ----

func (s *Server) userBody(u *userRec, in *userInput) map[string]any {
	m := s.renderUser(u)
	if s.is("password-echo") && in != nil && in.Password != nil {
		m["password"] = *in.Password
	}
	return m
}

// newClientEvents builds the events that create a client (and its first
// app) for user uid. It refuses with 404 when the app's marketplace app
// does not exist.
func (s *Server) newClientEvents(v *view, now time.Time, uid int64, ci *clientInput) ([]event, *clientRec, *apiError) {
	if len(v.Clients) >= maxClients {
		return nil, nil, errLimit("clients")
	}
	c := &clientRec{ID: v.NextClient, Created: now}
	ci.apply(c, false)
	evs := []event{{Kind: evClientPut, Client: c}, {Kind: evMemberAdd, UserID: uid, ClientID: c.ID}}
	if ci.App != nil {
		a, err := s.newApp(v, now, v.NextApp, c.ID, ci.App)
		if err != nil {
			if s.is("client-app-orphan") {
				return evs, nil, err
			}
			return nil, nil, err
		}
		evs = append(evs, event{Kind: evAppPut, App: a})
	}
	return evs, c, nil
}

func (s *Server) newApp(v *view, now time.Time, id, clientID int64, ai *appInput) (*appRec, *apiError) {
	if len(v.Apps) >= maxApps {
		return nil, errLimit("apps")
	}
	ma := ai.resolve()
	if ma == nil {
		return nil, errNotFound("marketplace app not found")
	}
	wk := randHex(16)
	if s.is("writekey-from-hash") {
		h := sha256.Sum256([]byte("writekey:" + ma.Hash))
		wk = hex.EncodeToString(h[:16])
	}
	return &appRec{ID: id, ClientID: clientID, Created: now, Name: ma.Name, PlatformID: ma.PlatformID,
		WriteKey: wk, PlanID: ai.PlanID, Hash: ma.Hash}, nil
}

func (s *Server) emailFree(v *view, email string, self int64) bool {
	id, ok := v.Emails[lower(email)]
	return !ok || id == self
}

func (s *Server) postUser(w http.ResponseWriter, r *http.Request, _ *principal, _ int64) {
	o, aerr := s.readBody(r, userFields)
	if aerr != nil {
		s.writeErr(w, aerr)
		return
	}
	in, fe := s.parseUser(o, true)
	if len(fe) > 0 {
		s.writeErr(w, errFields(fe))
		return
	}
	racy := s.is("email-race")
	if racy {
		if !s.emailFree(s.view(), *in.Email, 0) {
			s.writeErr(w, errEmailTaken())
			return
		}
		time.Sleep(racePause)
	}
	res, err := s.exec(func(v *view, now time.Time) ([]event, any, *apiError) {
		if !racy && !s.emailFree(v, *in.Email, 0) {
			return nil, nil, errEmailTaken()
		}
		if len(v.Users) >= maxUsers {
			return nil, nil, errLimit("users")
		}
		u := &userRec{ID: v.NextUser, Created: now}
		in.apply(s, u, true, now)
		evs := []event{{Kind: evUserPut, User: u}}
		if in.Client != nil {
			cev, _, err := s.newClientEvents(v, now, u.ID, in.Client)
			if err != nil {
				return nil, nil, err
			}
			evs = append(evs, cev...)
		}
		return evs, s.userBody(u, in), nil
	})
	s.respond(w, res, err)
}

func (s *Server) getUser(w http.ResponseWriter, r *http.Request, p *principal, id int64) {
	u := s.view().Users[id]
	if u == nil {
		s.writeErr(w, errNotFound("user not found"))
		return
	}
	if u.ID != p.UserID {
		s.writeErr(w, errForbidden("you may not view this user"))
		return
	}
	writeJSON(w, 200, s.userBody(u, nil))
}

func (s *Server) putUser(w http.ResponseWriter, r *http.Request, p *principal, id int64) {
	snap := s.view()
	if snap.Users[id] == nil {
		s.writeErr(w, errNotFound("user not found"))
		return
	}
	if id != p.UserID {
		s.writeErr(w, errForbidden("you may not modify this user"))
		return
	}
	o, aerr := s.readBody(r, userFields)
	if aerr != nil {
		s.writeErr(w, aerr)
		return
	}
	in, fe := s.parseUser(o, false)
	if len(fe) > 0 {
		if s.is("refused-put-partial") {
			in.Client = nil
			_, _ = s.exec(func(v *view, now time.Time) ([]event, any, *apiError) {
				u := copyUser(v.Users[id])
				in.apply(s, u, false, now)
				return []event{{Kind: evUserPut, User: u}}, nil, nil
			})
		}
		s.writeErr(w, errFields(fe))
		return
	}
	racyEmail := s.is("email-race")
	if racyEmail && in.Email != nil {
		if !s.emailFree(snap, *in.Email, id) {
			s.writeErr(w, errEmailTaken())
			return
		}
		time.Sleep(racePause)
	}
	// lost-update fault: the new record is computed in the handler from the
	// snapshot and written blindly.
	var stale *userRec
	if s.is("password-lost-update") {
		stale = copyUser(snap.Users[id])
		in.apply(s, stale, false, s.now())
		if in.Password == nil {
			time.Sleep(racePause)
		}
	}
	res, err := s.exec(func(v *view, now time.Time) ([]event, any, *apiError) {
		cur := v.Users[id]
		if cur == nil {
			return nil, nil, errNotFound("user not found")
		}
		if in.Email != nil && !racyEmail && !s.emailFree(v, *in.Email, id) {
			return nil, nil, errEmailTaken()
		}
		u := stale
		if u == nil {
			u = copyUser(cur)
			in.apply(s, u, false, now)
		}
		if s.is("old-email-login") && !strings.EqualFold(cur.Email, u.Email) {
			u.PrevEmails = append(append([]string(nil), cur.PrevEmails...), cur.Email)
		}
		evs := []event{{Kind: evUserPut, User: u}}
		if in.Client != nil {
			cev, _, err := s.newClientEvents(v, now, id, in.Client)
			if err != nil {
				return nil, nil, err
			}
			evs = append(evs, cev...)
		}
		return evs, s.userBody(u, in), nil
	})
	s.respond(w, res, err)
}

// ---- clients ----

func (s *Server) listClients(w http.ResponseWriter, r *http.Request, p *principal, _ int64) {
	v := s.view()
	out := []any{}
	for _, cid := range v.Members[p.UserID] {
		if c := v.Clients[cid]; c != nil {
			out = append(out, s.renderClient(c))
		}
	}
	writeJSON(w, 200, map[string]any{"clients": out, "total": len(out)})
}

func (s *Server) postClient(w http.ResponseWriter, r *http.Request, p *principal, _ int64) {
	o, aerr := s.readBody(r, clientFields)
	if aerr != nil {
		s.writeErr(w, aerr)
		return
	}
	ci, fe := s.parseClient(o, true, "", false)
	if len(fe) > 0 {
		s.writeErr(w, errFields(fe))
		return
	}
	res, err := s.exec(func(v *view, now time.Time) ([]event, any, *apiError) {
		evs, c, err := s.newClientEvents(v, now, p.UserID, ci)
		if err != nil {
			return evs, nil, err
		}
		return evs, s.renderClient(c), nil
	})
	s.respond(w, res, err)
}

func (s *Server) getClient(w http.ResponseWriter, r *http.Request, p *principal, id int64) {
	v := s.view()
	c := v.Clients[id]
	if c == nil {
		s.writeErr(w, errNotFound("client not found"))
		return
	}
	if !v.isMember(p.UserID, id) {
		s.writeErr(w, errForbidden("you may not view this client"))
		return
	}
	if s.is("stale-client-read") {
		s.cacheMu.Lock()
		b, ok := s.clientCache[id]
		if !ok && len(s.clientCache) < 10000 {
			b, _ = jsonMarshal(s.renderClient(c))
			s.clientCache[id] = b
			ok = true
		}
		s.cacheMu.Unlock()
		if ok {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(200)
			_, _ = w.Write(b)
			return
		}
	}
	writeJSON(w, 200, s.renderClient(c))
}

func (s *Server) putClient(w http.ResponseWriter, r *http.Request, p *principal, id int64) {
	snap := s.view()
	if snap.Clients[id] == nil {
		s.writeErr(w, errNotFound("client not found"))
		return
	}
	if !snap.isMember(p.UserID, id) {
		s.writeErr(w, errForbidden("you may not modify this client"))
		return
	}
	o, aerr := s.readBody(r, clientFields)
	if aerr != nil {
		s.writeErr(w, aerr)
		return
	}
	ci, fe := s.parseClient(o, false, "", false)
	if len(fe) > 0 {
		s.writeErr(w, errFields(fe))
		return
	}
	res, err := s.exec(func(v *view, now time.Time) ([]event, any, *apiError) {
		cur := v.Clients[id]
		if cur == nil {
			return nil, nil, errNotFound("client not found")
		}
		c := *cur
		ci.apply(&c, s.is("partial-put"))
		return []event{{Kind: evClientPut, Client: &c}}, s.renderClient(&c), nil
	})
	s.respond(w, res, err)
}

// ---- apps ----

func (s *Server) listApps(w http.ResponseWriter, r *http.Request, p *principal, _ int64) {
	v := s.view()
	clients := v.Members[p.UserID]
	q := r.URL.Query()
	if vals, ok := q["clientId"]; ok {
		cid := parsePathID(strings.TrimSpace(strings.Join(vals, ",")))
		if cid < 0 {
			s.writeErr(w, errField("clientId", "InvalidClientId", "clientId must be a positive integer"))
			return
		}
		if v.Clients[cid] == nil {
			s.writeErr(w, errNotFound("client not found"))
			return
		}
		if !v.isMember(p.UserID, cid) && !s.is("apps-clientid-filter") {
			s.writeErr(w, errForbidden("you may not view this client's apps"))
			return
		}
		clients = []int64{cid}
	}
	want := map[int64]bool{}
	for _, c := range clients {
		want[c] = true
	}
	var list []*appRec
	for _, a := range v.Apps {
		if want[a.ClientID] {
			list = append(list, a)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	out := []any{}
	if s.is("empty-collection-null") && len(list) == 0 {
		out = nil
	}
	for _, a := range list {
		out = append(out, s.renderApp(a))
	}
	writeJSON(w, 200, map[string]any{"apps": out, "total": len(list)})
}

func (s *Server) postApp(w http.ResponseWriter, r *http.Request, p *principal, _ int64) {
	if p.ClientID == 0 {
		s.writeErr(w, errForbidden("the caller has no client account to create the app in"))
		return
	}
	o, aerr := s.readBody(r, appFields)
	if aerr != nil {
		s.writeErr(w, aerr)
		return
	}
	ai, fe := s.parseApp(o, "")
	if len(fe) > 0 {
		s.writeErr(w, errFields(fe))
		return
	}
	var fixedID int64
	if s.is("app-id-race") {
		fixedID = s.view().NextApp
		time.Sleep(racePause)
	}
	res, err := s.exec(func(v *view, now time.Time) ([]event, any, *apiError) {
		if !v.isMember(p.UserID, p.ClientID) && !s.is("session-client-unchecked") {
			return nil, nil, errForbidden("you are not a user of this client")
		}
		id := v.NextApp
		if fixedID != 0 {
			id = fixedID
		}
		a, err := s.newApp(v, now, id, p.ClientID, ai)
		if err != nil {
			return nil, nil, err
		}
		return []event{{Kind: evAppPut, App: a}}, s.renderApp(a), nil
	})
	s.respond(w, res, err)
}

func (s *Server) getApp(w http.ResponseWriter, r *http.Request, p *principal, id int64) {
	v := s.view()
	a := v.Apps[id]
	if a == nil {
		s.writeErr(w, errNotFound("app not found"))
		return
	}
	if !v.isMember(p.UserID, a.ClientID) {
		e := errForbidden("you may not view this app")
		if s.is("forbidden-body-leak") {
			e.extra = map[string]any{"app": s.renderApp(a)}
		}
		s.writeErr(w, e)
		return
	}
	writeJSON(w, 200, s.renderApp(a))
}

// ---- catalogues ----

func (s *Server) listCatalogue(w http.ResponseWriter, r *http.Request, _ *principal, _ int64) {
	res := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	switch res {
	case "platforms":
		writeJSON(w, 200, map[string]any{"platforms": platforms})
	case "currencies":
		writeJSON(w, 200, map[string]any{"currencies": currencies})
	case "plans":
		writeJSON(w, 200, map[string]any{"plans": plans})
	default:
		writeJSON(w, 200, map[string]any{"phoneCountries": phoneCountries})
	}
}

func lower(s string) string { return strings.ToLower(s) }
