package documents

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/wire"
)

// clientViewOf is the client object of section 2.2.
func clientViewOf(c clientDoc) wire.Client {
	cur, _ := findCurrency(c.CurrencyID)
	return wire.Client{
		ID:              c.ID,
		CreatedDate:     c.CreatedDate,
		Name:            c.Name,
		AddressLine1:    c.AddressLine1,
		AddressLine2:    c.AddressLine2,
		AddressCity:     c.AddressCity,
		AddressPostcode: c.AddressPostcode,
		AddressCountry:  c.AddressCountry,
		VAT:             c.VAT,
		Currency:        wire.Currency{ID: cur.ID, Code: cur.Code},
	}
}

const termsLiteral = "I agree"

// applyClientFields validates a client body against c and applies the valid
// members. The members 4.3 does not mark optional are required on update too
// (4.4: "the same fields as POST /clients"; 1: only a field marked optional
// may be omitted); a missing optional member or terms on update keeps its
// value. It returns the app to create with the client.
func (s *Server) applyClientFields(body object, c *clientDoc, create, allowApp bool, prefix string, errs *errList) *appInput {
	s.applyClientText(body, c, prefix, errs)
	{
		o, isObj := objectValue(body["currency"])
		id, isID := idValue(o["id"])
		if _, known := findCurrency(id); !isObj || !isID || !known {
			errs.add(prefix+"currency.id", "InvalidCurrencyId", "the currency id does not match a billing currency")
		} else {
			c.CurrencyID = id
		}
	}

	if raw, ok := body["terms"]; ok || create {
		v, isStr := stringValue(raw)
		accepted := isStr && v == termsLiteral
		if s.is(fTermsUnicodeEscapeRejected) {
			accepted = string(bytes.TrimSpace(raw)) == `"`+termsLiteral+`"`
		}
		if !accepted {
			errs.add(prefix+"terms", "InvalidTerms", "terms must be the literal text \"I agree\"")
		}
	}

	raw, ok := body.given("app")
	if !ok {
		return nil
	}
	if !allowApp {
		errs.add(prefix+"app", "InvalidApp", "app may not be given here; create apps with POST /apps")
		return nil
	}
	o, isObj := objectValue(raw)
	if !isObj {
		errs.add(prefix+"app", "InvalidApp", "app must be an object")
		return nil
	}
	return s.parseApp(o, prefix+"app.", errs)
}

// applyClientText validates and applies the name and the address of a
// client's body; an optional member it leaves out keeps its value.
func (s *Server) applyClientText(body object, c *clientDoc, prefix string, errs *errList) {
	v, isStr := stringValue(body["name"])
	switch {
	case !isStr || strings.TrimSpace(v) == "":
		errs.add(prefix+"name", "InvalidName", "the name was not provided")
	case !s.fits255(v):
		errs.add(prefix+"name", "InvalidName", "the name is longer than 255 characters")
	default:
		c.Name = v
	}

	required := []struct {
		key, code string
		dst       *string
	}{
		{"addressLine1", "InvalidAddressLine1", &c.AddressLine1},
		{"addressCity", "InvalidAddressCity", &c.AddressCity},
		{"addressPostcode", "InvalidAddressPostcode", &c.AddressPostcode},
		{"addressCountry", "InvalidAddressCountry", &c.AddressCountry},
	}
	for _, f := range required {
		if v, isStr := stringValue(body[f.key]); !isStr || !s.fits255(v) {
			errs.add(prefix+f.key, f.code, f.key+" must be a string of at most 255 characters")
		} else {
			*f.dst = v
		}
	}

	optional := []struct {
		key, code string
		dst       **string
	}{
		{"addressLine2", "InvalidAddressLine2", &c.AddressLine2},
		{"vat", "InvalidVat", &c.VAT},
	}
	for _, f := range optional {
		raw, ok := body[f.key]
		if !ok {
			continue
		}
		if isNull(raw) {
			*f.dst = nil
			continue
		}
		v, isStr := stringValue(raw)
		if !isStr || !s.fits255(v) {
			errs.add(prefix+f.key, f.code, f.key+" must be a string of at most 255 characters")
			continue
		}
		*f.dst = &v
	}
}

// createClient stores a new client and its first app. The client is not yet
// reachable by anyone, so nothing else can see it half made.
func (s *Server) createClient(c clientDoc, app *appInput) int64 {
	c.CreatedDate = now()
	c.AppIDs = nil
	id := s.clients.insert(func(id int64) []byte {
		c.ID = id
		return encode(c)
	})
	if app != nil {
		a := s.insertApp(id, app)
		d := s.clients.get(id)
		d.mu.Lock()
		var fresh clientDoc
		decode(d.data, &fresh)
		fresh.AppIDs = append(fresh.AppIDs, a.ID)
		d.data = encode(fresh)
		d.mu.Unlock()
	}
	return id
}

func onlyAppErrors(errs errList) bool {
	for _, e := range errs {
		if e.FieldName != "app" && !strings.HasPrefix(e.FieldName, "app.") {
			return false
		}
	}
	return true
}

func (s *Server) postClient(r *http.Request, p principal, _ string) reply {
	body, fail := s.readObject(r)
	if fail != nil {
		return *fail
	}
	var errs errList
	var c clientDoc
	app := s.applyClientFields(body, &c, true, true, "", &errs)

	ud := s.users.get(p.userID)
	if ud == nil {
		return unauthorized()
	}
	ud.mu.Lock()
	defer ud.mu.Unlock()
	var u userDoc
	decode(ud.data, &u)
	if len(errs) > 0 {
		if s.is(fClientKeptWhenAppInvalid) && onlyAppErrors(errs) && len(u.ClientIDs) < maxClientsPerUser {
			// The client is written first and the app after it, with no
			// undo when the app fails.
			u.ClientIDs = append(u.ClientIDs, s.createClient(c, nil))
			ud.data = encode(u)
		}
		return s.badRequest(errs)
	}
	if len(u.ClientIDs) >= maxClientsPerUser || s.clients.size() >= maxClients {
		return limitReached("no more clients can be created")
	}
	id := s.createClient(c, app)
	u.ClientIDs = append(u.ClientIDs, id)
	ud.data = encode(u)
	var out clientDoc
	s.clients.get(id).read(&out)
	return reply{status: http.StatusOK, body: clientViewOf(out)}
}

func (s *Server) clientTarget(p principal, arg string) (*document, *reply) {
	id, ok := parseID(arg)
	var d *document
	if ok {
		d = s.clients.get(id)
	}
	if d == nil {
		rep := notFound("no such client")
		return nil, &rep
	}
	if !s.isMember(p.userID, id) {
		rep := forbidden("this client may not be viewed or modified by the caller")
		return nil, &rep
	}
	return d, nil
}

func (s *Server) getClient(r *http.Request, p principal, arg string) reply {
	d, fail := s.clientTarget(p, arg)
	if fail != nil {
		return *fail
	}
	var c clientDoc
	d.read(&c)
	return reply{status: http.StatusOK, body: clientViewOf(c)}
}

func (s *Server) putClient(r *http.Request, p principal, arg string) reply {
	d, body, fail := s.targetBody(r, func() (*document, *reply) { return s.clientTarget(p, arg) })
	if fail != nil {
		return *fail
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var c clientDoc
	decode(d.data, &c)
	var errs errList
	s.applyClientFields(body, &c, false, false, "", &errs)
	if len(errs) > 0 {
		return s.badRequest(errs)
	}
	d.data = encode(c)
	return reply{status: http.StatusOK, body: clientViewOf(c)}
}

func (s *Server) listClients(r *http.Request, p principal, _ string) reply {
	u, _ := s.readUser(p.userID)
	out := []wire.Client{}
	for _, id := range u.ClientIDs {
		if d := s.clients.get(id); d != nil {
			var c clientDoc
			d.read(&c)
			out = append(out, clientViewOf(c))
		}
	}
	return reply{status: http.StatusOK, body: s.wrap("clients", out, len(out))}
}
