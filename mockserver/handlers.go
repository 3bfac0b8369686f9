package mockserver

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/internal/jsonio"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// maxBody is the largest request body read; a larger one answers 413.
const maxBody = 1 << 20

// bodyShape bounds a body before it is decoded, far above any body of the
// API (a user with a client and its app is about 30 values, 3 deep), so
// that decoding costs a small multiple of the body's size.
var bodyShape = jsonio.Shape{Depth: 32, Items: 1000, Values: 10000}

// Every handler checks in one order: 401 (the authenticate middleware), 404
// (the path's resource exists), 403 (the caller may touch it), then 400 (the
// body). Nothing is written to the store before all of them pass.

// readBody reads the request body, answering 413 past maxBody.
func readBody(c *gin.Context) ([]byte, bool) {
	if c.Request.Body == nil {
		return nil, true
	}
	b, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			abortWith(c, pricing.CodeBodyTooLarge, "The request body is larger than 1 MiB.")
		case bodyBudgetError(err):
			abortWith(c, pricing.CodeUnavailable, bodyBudgetMessage(err))
		default:
			invalidBody(c, "The request body could not be read.")
		}
		return nil, false
	}
	return b, true
}

func invalidBody(c *gin.Context, message string) {
	abortWith(c, pricing.CodeInvalidBody, message)
}

// decodeBody reads a JSON object body, whatever the Content-Type.
func decodeBody(c *gin.Context) (pricing.Body, bool) {
	b, ok := readBody(c)
	if !ok {
		return nil, false
	}
	return decodeJSON(c, b, "")
}

// decodeJSON reads a JSON object; hint, when set, follows the message of a
// body that is not one, to say what the endpoint takes.
func decodeJSON(c *gin.Context, b []byte, hint string) (pricing.Body, bool) {
	if err := jsonio.CheckShape(b, bodyShape); err != nil {
		invalidBody(c, "The request body is refused: "+strings.TrimPrefix(err.Error(), jsonio.ErrShape.Error()+": ")+
			" (no body of this API comes near).")
		return nil, false
	}
	var v any
	switch err := jsonio.Decode(b, &v); {
	case errors.Is(err, jsonio.ErrTrailingData):
		invalidBody(c, "The request body holds more than one JSON value."+hint)
		return nil, false
	case err != nil:
		invalidBody(c, "The request body is not valid JSON: "+err.Error()+"."+hint)
		return nil, false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		invalidBody(c, "The request body must be a JSON object."+hint)
		return nil, false
	}
	return obj, true
}

// storeFailed answers an error of a store write. Validation has run before,
// so only a race (an email taken meanwhile) or a bug reaches here.
func storeFailed(c *gin.Context, err error) {
	var limit *pricing.LimitError
	switch {
	case errors.As(err, &limit):
		msg := limit.Error()
		abortWith(c, pricing.CodeLimitReached, strings.ToUpper(msg[:1])+msg[1:]+
			"; POST "+adminPrefix+"/reset, or DELETE "+adminPrefix+"/namespaces/NAME for a namespace, frees room.")
	case errors.Is(err, pricing.ErrEmailTaken):
		fieldErrors(c, []pricing.FieldError{{FieldName: "email", Error: pricing.CodeInvalidEmail, Message: "email is already used by another account."}})
	case errors.Is(err, pricing.ErrNotFound):
		abortWith(c, pricing.CodeNotFound, "The resource does not exist.")
	default:
		internalError(c, "The server failed to answer this request.")
	}
}

var pathIDRE = regexp.MustCompile(`^[1-9][0-9]{0,18}$`)

// pathID reads a numeric path parameter; anything that is not a positive
// decimal id names no resource, so it answers 404.
func pathID(c *gin.Context, name, what string) (int64, bool) {
	p := c.Param(name)
	if pathIDRE.MatchString(p) {
		if n, err := strconv.ParseInt(p, 10, 64); err == nil {
			return n, true
		}
	}
	abortWith(c, pricing.CodeNotFound, "There is no "+what+" with id "+strconv.Quote(p)+".")
	return 0, false
}

// --- sessions ---

// sessionBodyHint ends the message of a login body that cannot be read.
const sessionBodyHint = ` POST /sessions takes {"email": "...", "password": "..."} as JSON, ` +
	`or email=...&password=... with Content-Type application/x-www-form-urlencoded.`

// createSession handles POST /sessions: JSON or form credentials.
func (s *Server) createSession(c *gin.Context) {
	raw, ok := readBody(c)
	if !ok {
		return
	}
	var body pricing.Body
	if isFormLogin(c.GetHeader("Content-Type"), raw) {
		form, err := url.ParseQuery(string(raw))
		if err != nil {
			invalidBody(c, "The form body could not be parsed."+sessionBodyHint)
			return
		}
		body = pricing.Body{}
		for _, k := range []string{"email", "password"} {
			if vs, ok := form[k]; ok && len(vs) > 0 {
				body[k] = vs[0]
			}
		}
	} else if body, ok = decodeJSON(c, raw, sessionBodyHint); !ok {
		return
	}
	email, password, errs := pricing.ValidateSession(body)
	if len(errs) > 0 {
		fieldErrors(c, errs)
		return
	}
	u, err := s.storeFor(c).Authenticate(email, password)
	if err != nil {
		abortWith(c, pricing.CodeUnauthorized, "The email address or the password is wrong.")
		return
	}
	sess, err := s.storeFor(c).CreateSession(u.ID)
	if err != nil {
		storeFailed(c, err)
		return
	}
	writeJSON(c, http.StatusOK, toWireSession(sess))
}

// isFormLogin reports whether a login body is read as a form: typed as one
// (in any case, with any parameters) and not JSON. `curl -d '{"email":...}'`
// types its JSON as a form, and a form never starts with "{" or "[", so such
// a body is read as the JSON it is rather than as a form with no email.
func isFormLogin(contentType string, body []byte) bool {
	if mt, _, _ := mime.ParseMediaType(contentType); mt != "application/x-www-form-urlencoded" {
		return false
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	return len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[')
}

// --- users ---

// createUser handles POST /users: sign-up, no authentication.
func (s *Server) createUser(c *gin.Context) {
	body, ok := decodeBody(c)
	if !ok {
		return
	}
	in, errs := s.storeFor(c).Validator().UserCreate(body)
	if len(errs) > 0 {
		fieldErrors(c, errs)
		return
	}
	u, err := s.storeFor(c).CreateUser(in)
	if err != nil {
		storeFailed(c, err)
		return
	}
	writeJSON(c, http.StatusOK, toWireUser(s.storeFor(c), u))
}

// ownUser answers 404 or 403 unless the path's user exists and is the caller.
func (s *Server) ownUser(c *gin.Context) (pricing.User, bool) {
	id, ok := pathID(c, "userId", "user")
	if !ok {
		return pricing.User{}, false
	}
	u, err := s.storeFor(c).User(id)
	if err != nil {
		abortWith(c, pricing.CodeNotFound, "There is no user with id "+strconv.FormatInt(id, 10)+".")
		return pricing.User{}, false
	}
	if !s.storeFor(c).MayActOnUser(callerID(c), u.ID) {
		abortWith(c, pricing.CodeForbidden, "You may only view or modify your own user.")
		return pricing.User{}, false
	}
	return u, true
}

// getUser handles GET /users/:userId.
func (s *Server) getUser(c *gin.Context) {
	if u, ok := s.ownUser(c); ok {
		writeJSON(c, http.StatusOK, toWireUser(s.storeFor(c), u))
	}
}

// updateUser handles PUT /users/:userId.
func (s *Server) updateUser(c *gin.Context) {
	u, ok := s.ownUser(c)
	if !ok {
		return
	}
	body, ok := decodeBody(c)
	if !ok {
		return
	}
	in, errs := s.storeFor(c).Validator().UserUpdate(body, u.ID)
	if len(errs) > 0 {
		fieldErrors(c, errs)
		return
	}
	u, err := s.storeFor(c).UpdateUser(u.ID, in)
	if err != nil {
		storeFailed(c, err)
		return
	}
	writeJSON(c, http.StatusOK, toWireUser(s.storeFor(c), u))
}

// listUserClients handles GET /users/:userId/clients.
func (s *Server) listUserClients(c *gin.Context) {
	u, ok := s.ownUser(c)
	if !ok {
		return
	}
	clients, err := s.storeFor(c).ClientsOfUser(u.ID)
	if err != nil {
		storeFailed(c, err)
		return
	}
	out := make([]wireClient, 0, len(clients))
	for _, cl := range clients {
		out = append(out, toWireClient(s.storeFor(c), cl))
	}
	writeJSON(c, http.StatusOK, gin.H{"clients": out})
}

// --- clients ---

// memberClient answers 404 or 403 unless the path's client exists and the
// caller is a member of it.
func (s *Server) memberClient(c *gin.Context) (pricing.Client, bool) {
	id, ok := pathID(c, "clientId", "client")
	if !ok {
		return pricing.Client{}, false
	}
	cl, err := s.storeFor(c).Client(id)
	if err != nil {
		abortWith(c, pricing.CodeNotFound, "There is no client with id "+strconv.FormatInt(id, 10)+".")
		return pricing.Client{}, false
	}
	if !s.storeFor(c).MayActOnClient(callerID(c), cl.ID) {
		abortWith(c, pricing.CodeForbidden, "You are not a member of this client.")
		return pricing.Client{}, false
	}
	return cl, true
}

// createClient handles POST /clients: a new client whose member is the
// caller, with its first app when the body carries one.
func (s *Server) createClient(c *gin.Context) {
	body, ok := decodeBody(c)
	if !ok {
		return
	}
	in, errs := s.storeFor(c).Validator().ClientCreate(body)
	if len(errs) > 0 {
		fieldErrors(c, errs)
		return
	}
	cl, err := s.storeFor(c).CreateClient(callerID(c), in)
	if err != nil {
		storeFailed(c, err)
		return
	}
	writeJSON(c, http.StatusOK, toWireClient(s.storeFor(c), cl))
}

// getClient handles GET /clients/:clientId.
func (s *Server) getClient(c *gin.Context) {
	if cl, ok := s.memberClient(c); ok {
		writeJSON(c, http.StatusOK, toWireClient(s.storeFor(c), cl))
	}
}

// updateClient handles PUT /clients/:clientId.
func (s *Server) updateClient(c *gin.Context) {
	cl, ok := s.memberClient(c)
	if !ok {
		return
	}
	body, ok := decodeBody(c)
	if !ok {
		return
	}
	in, errs := s.storeFor(c).Validator().ClientUpdate(body)
	if len(errs) > 0 {
		fieldErrors(c, errs)
		return
	}
	cl, err := s.storeFor(c).UpdateClient(cl.ID, in)
	if err != nil {
		storeFailed(c, err)
		return
	}
	writeJSON(c, http.StatusOK, toWireClient(s.storeFor(c), cl))
}

// listClientApps handles GET /clients/:clientId/apps.
func (s *Server) listClientApps(c *gin.Context) {
	cl, ok := s.memberClient(c)
	if !ok {
		return
	}
	apps, err := s.storeFor(c).AppsOfClient(cl.ID)
	if err != nil {
		storeFailed(c, err)
		return
	}
	out := make([]wireApp, 0, len(apps))
	for _, a := range apps {
		out = append(out, toWireApp(s.storeFor(c), a))
	}
	writeJSON(c, http.StatusOK, gin.H{"apps": out})
}

// --- apps ---

// createApp handles POST /apps: the app joins the caller's primary client.
func (s *Server) createApp(c *gin.Context) {
	u, err := s.storeFor(c).User(callerID(c))
	if err != nil {
		storeFailed(c, err)
		return
	}
	if u.PrimaryClientID == 0 {
		abortWith(c, pricing.CodeNoClient, "You have no client to add an app to; create one with POST /clients first.")
		return
	}
	body, ok := decodeBody(c)
	if !ok {
		return
	}
	in, errs := s.storeFor(c).Validator().App(body)
	if len(errs) > 0 {
		fieldErrors(c, errs)
		return
	}
	a, err := s.storeFor(c).CreateApp(u.PrimaryClientID, in)
	if err != nil {
		storeFailed(c, err)
		return
	}
	writeJSON(c, http.StatusOK, toWireApp(s.storeFor(c), a))
}

// getApp handles GET /apps/:appId.
func (s *Server) getApp(c *gin.Context) {
	id, ok := pathID(c, "appId", "app")
	if !ok {
		return
	}
	a, err := s.storeFor(c).App(id)
	if err != nil {
		abortWith(c, pricing.CodeNotFound, "There is no app with id "+strconv.FormatInt(id, 10)+".")
		return
	}
	if !s.storeFor(c).IsMember(callerID(c), a.ClientID) {
		abortWith(c, pricing.CodeForbidden, "You are not a member of the client of this app.")
		return
	}
	writeJSON(c, http.StatusOK, toWireApp(s.storeFor(c), a))
}

// --- catalogues (no authentication) ---

// The catalogues, by their index in catalogueAnswers.
const (
	catPlatforms = iota
	catCurrencies
	catPlans
	catPhoneCountries
	catMarketapps
	numCatalogues
)

// catalogueAnswers are the encoded answers of the catalogue routes for the
// stores that serve one seed's catalogues, which never change: each is
// encoded once, then answered as is.
type catalogueAnswers struct {
	seed     *pricing.Seed
	seedKind string // the SeedHeader value of seed
	body     [numCatalogues]atomic.Pointer[[]byte]
}

// catalogue answers a catalogue route with the value build makes of the
// request's store, from catalogueAnswers when the store serves the current
// seed's catalogues.
func (s *Server) catalogue(c *gin.Context, which int, build func(*pricing.Store) any) {
	st := s.storeFor(c)
	answers := s.answers.Load()
	seed := st.Catalogues()
	if seed == answers.seed {
		if b := answers.body[which].Load(); b != nil {
			c.Data(http.StatusOK, contentTypeJSON, *b)
			return
		}
	}
	b, err := jsonio.Encode(build(st))
	if err != nil {
		internalError(c, "The response could not be encoded.")
		return
	}
	// Seeds only get newer: the same seed after build means build read its
	// catalogues.
	if seed == answers.seed && st.Catalogues() == seed {
		answers.body[which].Store(&b)
	}
	c.Data(http.StatusOK, contentTypeJSON, b)
}

// listPlatforms handles GET /platforms.
func (s *Server) listPlatforms(c *gin.Context) {
	s.catalogue(c, catPlatforms, func(st *pricing.Store) any {
		ps := st.Platforms()
		out := make([]wirePlatform, 0, len(ps))
		for _, p := range ps {
			out = append(out, wirePlatform{ID: p.ID, Created: wireDate(p.Created), CreatorUserID: p.CreatorUserID, Name: p.Name})
		}
		return gin.H{"platforms": out}
	})
}

// listCurrencies handles GET /currencies.
func (s *Server) listCurrencies(c *gin.Context) {
	s.catalogue(c, catCurrencies, func(st *pricing.Store) any {
		cs := st.Currencies()
		out := make([]wireCurrency, 0, len(cs))
		for _, cur := range cs {
			out = append(out, wireCurrency(cur))
		}
		return gin.H{"currencies": out}
	})
}

// listPlans handles GET /plans.
func (s *Server) listPlans(c *gin.Context) {
	s.catalogue(c, catPlans, func(st *pricing.Store) any {
		ps := st.Plans()
		out := make([]wirePlan, 0, len(ps))
		for _, p := range ps {
			out = append(out, wirePlan(p))
		}
		return gin.H{"plans": out}
	})
}

// listPhoneCountries handles GET /phoneCountries.
func (s *Server) listPhoneCountries(c *gin.Context) {
	s.catalogue(c, catPhoneCountries, func(st *pricing.Store) any {
		ps := st.PhoneCountries()
		out := make([]wirePhoneCountry, 0, len(ps))
		for _, p := range ps {
			out = append(out, wirePhoneCountry(p))
		}
		return gin.H{"phoneCountries": out}
	})
}

// listMarketapps handles GET /marketapps.
func (s *Server) listMarketapps(c *gin.Context) {
	s.catalogue(c, catMarketapps, func(st *pricing.Store) any {
		ms := st.Marketapps()
		out := make([]wireMarketapp, 0, len(ms))
		for _, m := range ms {
			p, _ := st.Platform(m.PlatformID)
			out = append(out, wireMarketapp{Hash: m.Hash, Name: m.Name, Platform: wireNamedID{ID: p.ID, Name: p.Name}})
		}
		return gin.H{"marketapps": out}
	})
}
