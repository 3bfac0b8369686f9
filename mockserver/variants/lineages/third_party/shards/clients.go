package shards

import (
	"net/http"
	"strings"
	"time"
)

type clientInput struct {
	d   clientData
	app *appInput
}

// parseClient validates a POST /clients (put false) or PUT /clients body.
func (s *Server) parseClient(f fields, put bool) clientInput {
	var in clientInput
	in.d.name = f.reqString("name", "InvalidName")
	in.d.addr1 = f.reqString("addressLine1", "InvalidAddressLine1")
	in.d.addr2 = f.optString("addressLine2", "InvalidAddressLine2")
	in.d.city = f.reqString("addressCity", "InvalidAddressCity")
	in.d.postcode = f.reqString("addressPostcode", "InvalidAddressPostcode")
	in.d.country = f.reqString("addressCountry", "InvalidAddressCountry")
	in.d.vat = f.optString("vat", "InvalidVat")
	if id, ok := f.objectID("currency", "InvalidCurrencyId"); ok {
		if findCurrency(id) == nil {
			f.fail("currency.id", "InvalidCurrencyId", "unknown billing currency")
		}
		in.d.currency = id
	}
	s.checkTerms(f)
	in.app = s.parseClientApp(f, put)
	return in
}

func (s *Server) checkTerms(f fields) {
	t := f.reqString("terms", "InvalidTerms")
	if t == "" {
		return
	}
	ok := t == "I agree"
	if s.is(faultTermsLoose) {
		ok = strings.EqualFold(strings.TrimSpace(t), "I agree")
	}
	if !ok {
		f.fail("terms", "InvalidTerms", `terms must equal "I agree"`)
	}
}

func (s *Server) parseClientApp(f fields, put bool) *appInput {
	v, ok := f.m["app"]
	if !ok || v == nil {
		return nil
	}
	if put {
		if !s.is(faultPutClientAcceptsApp) {
			f.fail("app", "InvalidApp", "app must not be given to PUT /clients/:clientId; create apps with POST /apps")
		}
		return nil
	}
	m, isObj := v.(map[string]any)
	if !isObj {
		f.fail("app", "InvalidApp", "app must be an object")
		return nil
	}
	return s.parseApp(f.sub(m, "app"))
}

func (s *Server) readClient(w http.ResponseWriter, r *http.Request, put bool) (clientInput, bool) {
	m, ok := s.readBody(w, r)
	if !ok {
		return clientInput{}, false
	}
	f := s.newFields(m)
	in := s.parseClient(f, put)
	if len(*f.errs) > 0 {
		s.validation(w, *f.errs)
		return clientInput{}, false
	}
	return in, true
}

// canCreateClient enforces the membership and global client bounds.
func (s *Server) canCreateClient(w http.ResponseWriter, u *userRec) bool {
	if u.clientCount() >= maxClientsPerUser || s.st.clientCount() >= maxClients {
		s.fail(w, http.StatusForbidden, "LimitExceeded", "the client limit has been reached")
		return false
	}
	return true
}

func (s *Server) createClient(u *userRec, d clientData) *clientRec {
	c := &clientRec{
		id: s.st.clientSeq.Add(1), created: time.Now(), d: d,
		members: map[int64]bool{u.id: true},
	}
	s.st.putClient(c)
	u.addClient(c.id)
	return c
}

func (s *Server) createClientWithApp(u *userRec, in clientInput, ma *marketApp) *clientRec {
	c := s.createClient(u, in.d)
	if ma != nil {
		_, _, _ = s.insertApp(c.id, s.newApp(c.id, in.app, ma), true)
	}
	return c
}

// postClient handles POST /clients.
func (s *Server) postClient(w http.ResponseWriter, r *http.Request) {
	c, ok := s.requireAuth(w, r)
	if !ok {
		return
	}
	in, ok := s.readClient(w, r, false)
	if !ok {
		return
	}
	u := s.st.user(c.uid)
	if u == nil {
		s.fail(w, http.StatusUnauthorized, "Unauthorized", "unknown user")
		return
	}
	if s.is(faultPostClientsNotAtomic) && in.app != nil {
		s.postClientNonAtomic(w, u, in)
		return
	}
	ma, ok := s.resolveApp(w, in.app)
	if !ok || !s.canCreateClient(w, u) {
		return
	}
	cr := s.createClientWithApp(u, in, ma)
	cr.mu.Lock()
	v := clientView(cr)
	cr.mu.Unlock()
	s.writeJSON(w, http.StatusOK, v)
}

// postClientNonAtomic is the faulty variant: the client is stored before
// the app's marketplace lookup, and stays when that lookup fails.
func (s *Server) postClientNonAtomic(w http.ResponseWriter, u *userRec, in clientInput) {
	if !s.canCreateClient(w, u) {
		return
	}
	cr := s.createClient(u, in.d)
	ma, ok := s.resolveApp(w, in.app)
	if !ok {
		return
	}
	_, _, _ = s.insertApp(cr.id, s.newApp(cr.id, in.app, ma), true)
	cr.mu.Lock()
	v := clientView(cr)
	cr.mu.Unlock()
	s.writeJSON(w, http.StatusOK, v)
}

func (s *Server) clientFromPath(w http.ResponseWriter, r *http.Request) *clientRec {
	var c *clientRec
	if id, ok := pathID(r.PathValue("clientId")); ok {
		c = s.st.client(id)
	}
	if c == nil {
		s.fail(w, http.StatusNotFound, "NotFound", "no such client")
	}
	return c
}

// putClient handles PUT /clients/:clientId.
func (s *Server) putClient(w http.ResponseWriter, r *http.Request) {
	c, ok := s.requireAuth(w, r)
	if !ok {
		return
	}
	cr := s.clientFromPath(w, r)
	if cr == nil {
		return
	}
	var in clientInput
	early := s.is(faultValidationBeforePerm)
	if early {
		if in, ok = s.readClient(w, r, true); !ok {
			return
		}
	}
	if !cr.isMember(c.uid) && !s.is(faultPutClientAnyClient) {
		s.fail(w, http.StatusForbidden, "Forbidden", "you are not a member of this client")
		return
	}
	if !early {
		if in, ok = s.readClient(w, r, true); !ok {
			return
		}
	}
	cr.mu.Lock()
	s.applyClient(&cr.d, in.d)
	v := clientView(cr)
	cr.mu.Unlock()
	s.writeJSON(w, http.StatusOK, v)
}

// applyClient replaces the stored fields; omitted optional fields are
// cleared unless the keep-optional reading is selected.
func (s *Server) applyClient(d *clientData, in clientData) {
	if s.is(legalClientPutKeeps) {
		if in.addr2 == nil {
			in.addr2 = d.addr2
		}
		if in.vat == nil {
			in.vat = d.vat
		}
	}
	*d = in
}
