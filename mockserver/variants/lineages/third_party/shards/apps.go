package shards

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

type appInput struct {
	hashGiven bool
	hash      string
	name      *string
	platform  int64
	plan      int64
}

// parseApp validates a POST /apps body (also the app of POST /clients).
func (s *Server) parseApp(f fields) *appInput {
	in := &appInput{}
	s.parseHash(f, in)
	if !in.hashGiven {
		s.parseLookup(f, in)
	}
	if !f.present("nextplan") && s.is(legalNextplanDefaultLite) {
		in.plan = 1
		return in
	}
	id, ok := f.objectID("nextplan", "InvalidNextplanId")
	if ok && findPlan(id) == nil {
		f.fail("nextplan.id", "InvalidNextplanId", "unknown subscription plan")
	}
	in.plan = id
	return in
}

func (s *Server) parseHash(f fields, in *appInput) {
	v, ok := f.m["marketapp"]
	if !ok || v == nil {
		return
	}
	in.hashGiven = true
	m, isObj := v.(map[string]any)
	if !isObj {
		f.fail("marketapp", "InvalidMarketappHash", "marketapp must be an object")
		return
	}
	h, ok := m["hash"]
	if !ok || h == nil {
		in.hashGiven = false
		return
	}
	str, isStr := h.(string)
	if !isStr || !s.validHash(str) {
		f.fail("marketapp.hash", "InvalidMarketappHash", "marketapp.hash must be 40 hexadecimal characters")
		return
	}
	in.hash = str
}

func (s *Server) validHash(h string) bool {
	if len(h) != 40 {
		return false
	}
	if s.is(faultHashHexUnchecked) {
		return true
	}
	return strings.Trim(h, "0123456789abcdefABCDEF") == ""
}

// parseLookup reads name and platform.id, used when no hash is given.
func (s *Server) parseLookup(f fields, in *appInput) {
	v, ok := f.m["name"]
	str, isStr := v.(string)
	switch {
	case !ok || v == nil:
		if !s.is(faultAppMissingName404) {
			f.fail("name", "InvalidName", "no app name was provided: give marketapp.hash or name")
		}
	case !isStr || strings.TrimSpace(str) == "":
		f.fail("name", "InvalidName", "name must be a non-empty string")
	case s.tooLong(str):
		f.fail("name", "InvalidName", "name must be at most 255 characters")
	default:
		in.name = &str
	}
	id, ok := f.objectID("platform", "InvalidPlatformId")
	if ok && findPlatform(id) == nil {
		f.fail("platform.id", "InvalidPlatformId", "unknown platform")
	}
	in.platform = id
}

// resolveApp finds the marketplace app of a validated body (404 if none).
func (s *Server) resolveApp(w http.ResponseWriter, in *appInput) (*marketApp, bool) {
	if in == nil {
		return nil, true
	}
	var ma *marketApp
	if in.hash != "" {
		ma = s.marketByHash(in.hash)
	} else if in.name != nil {
		ma = marketByName(*in.name, in.platform)
	}
	if ma == nil {
		s.fail(w, http.StatusNotFound, "NotFound", "no marketplace app matches; apps can only be created from an existing store app")
		return nil, false
	}
	return ma, true
}

// postApp handles POST /apps; the app belongs to the caller's client.
func (s *Server) postApp(w http.ResponseWriter, r *http.Request) {
	c, ok := s.requireAuth(w, r)
	if !ok {
		return
	}
	m, ok := s.readBody(w, r)
	if !ok {
		return
	}
	f := s.newFields(m)
	in := s.parseApp(f)
	if len(*f.errs) > 0 {
		s.validation(w, *f.errs)
		return
	}
	ma, ok := s.resolveApp(w, in)
	if !ok {
		return
	}
	var cr *clientRec
	if cid := s.actingClient(c); cid != 0 {
		cr = s.st.client(cid)
	}
	if cr == nil || !cr.isMember(c.uid) {
		s.fail(w, http.StatusForbidden, "Forbidden", "the caller has no client to create apps for")
		return
	}
	a, status, e := s.addApp(cr, in, ma)
	if e != nil {
		s.answerError(w, status, *e)
		return
	}
	s.writeJSON(w, http.StatusOK, appView(a))
}

func (s *Server) answerError(w http.ResponseWriter, status int, e apiError) {
	if status == http.StatusBadRequest {
		s.validation(w, errList{e})
		return
	}
	s.writeJSON(w, status, errList{e})
}

func (s *Server) addApp(cr *clientRec, in *appInput, ma *marketApp) (*appRec, int, *apiError) {
	if s.is(faultAppDuplicateGlobal) {
		if e := s.globalDuplicate(cr.id, ma.Hash); e != nil {
			return nil, http.StatusBadRequest, e
		}
	}
	a := s.newApp(cr.id, in, ma)
	if !s.is(faultDuplicateMarketappRace) {
		return s.insertApp(cr.id, a, true)
	}
	s.st.clientAppsMu.RLock()
	status, e := s.slotError(s.st.clientApps[cr.id], ma.Hash)
	s.st.clientAppsMu.RUnlock()
	if e != nil {
		return nil, status, e
	}
	time.Sleep(s.window)
	return s.insertApp(cr.id, a, false)
}

// insertApp stores a; with check, the slot test and insert are atomic.
func (s *Server) insertApp(clientID int64, a *appRec, check bool) (*appRec, int, *apiError) {
	st := s.st
	st.clientAppsMu.Lock()
	defer st.clientAppsMu.Unlock()
	if check {
		if status, e := s.slotError(st.clientApps[clientID], a.hash); e != nil {
			return nil, status, e
		}
	}
	st.clientApps[clientID] = append(st.clientApps[clientID], a)
	return a, http.StatusOK, nil
}

func (s *Server) slotError(apps []*appRec, hash string) (int, *apiError) {
	if len(apps) >= maxAppsPerClient {
		return http.StatusForbidden, &apiError{Error: "LimitExceeded", Message: "the client has too many apps"}
	}
	if s.is(legalAppDuplicates) {
		return 0, nil
	}
	for _, a := range apps {
		if a.hash == hash {
			return http.StatusBadRequest, &apiError{FieldName: "marketapp.hash", Error: "DuplicateMarketapp",
				Message: "this client already has an app for this marketplace app"}
		}
	}
	return 0, nil
}

// globalDuplicate is the faulty cross-client duplicate check.
func (s *Server) globalDuplicate(clientID int64, hash string) *apiError {
	s.st.clientAppsMu.RLock()
	var owner int64
	for cid, apps := range s.st.clientApps {
		for _, a := range apps {
			if cid != clientID && a.hash == hash {
				owner = cid
			}
		}
	}
	s.st.clientAppsMu.RUnlock()
	oc := s.st.client(owner)
	if oc == nil {
		return nil
	}
	oc.mu.Lock()
	name := oc.d.name
	oc.mu.Unlock()
	return &apiError{FieldName: "marketapp.hash", Error: "DuplicateMarketapp",
		Message: fmt.Sprintf("marketplace app already added by client %q (id %d)", name, owner)}
}

func (s *Server) newApp(clientID int64, in *appInput, ma *marketApp) *appRec {
	key := randHex(16)
	if s.is(faultWriteKeyFromHash) {
		key = ma.Hash[:32]
	}
	return &appRec{
		id: s.nextAppID(), clientID: clientID, platform: ma.Platform.ID, plan: in.plan,
		created: time.Now(), name: ma.Name, writeKey: key, hash: ma.Hash,
	}
}

func (s *Server) nextAppID() int64 {
	if !s.is(faultDuplicateAppIDs) {
		return s.st.appSeq.Add(1)
	}
	id := s.st.appSeq.Load() + 1
	time.Sleep(s.window)
	s.st.appSeq.Store(id)
	return id
}
