package layered

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Options configures a server.
type Options struct {
	Pairs int    // pairs of seeded accounts (0 means 1, max 500)
	Fault string // "" = correct server, else a Faults() name
}

// Account is one seeded user with its credentials.
type Account struct{ Email, Password, APIKey string }

// Server is the pricing service.
type Server struct {
	fault    string
	bases    []string
	svc      *service
	routes   []route
	accounts [][2]Account
	shared   atomic.Pointer[caller] // fault caller-in-shared-field
}

func (s *Server) has(name string) bool { return s.fault == name }

// New builds a seeded server.
func New(opts Options) (*Server, error) {
	if opts.Fault != "" {
		if _, ok := faultClass[opts.Fault]; !ok {
			return nil, fmt.Errorf("layered: unknown fault %q", opts.Fault)
		}
	}
	pairs := opts.Pairs
	if pairs == 0 {
		pairs = 1
	}
	if pairs < 0 || pairs > 500 {
		return nil, fmt.Errorf("layered: Pairs must be between 0 and 500, got %d", opts.Pairs)
	}
	s := &Server{fault: opts.Fault}
	if s.has("base-path-v1-only") {
		s.bases = []string{"/api/v1"}
	} else {
		s.bases = []string{"/api/v1.0", "/api/v1"}
	}
	s.svc = &service{s: s, repo: newRepo(), now: func() time.Time { return time.Now().UTC() }}
	s.routes = s.buildRoutes()
	if err := s.seed(pairs); err != nil {
		return nil, err
	}
	return s, nil
}

// BasePath is the path prefix of every endpoint (it ends with the version segment).
func (s *Server) BasePath() string { return s.bases[0] }

// Accounts returns the seeded pairs (account A, account B).
func (s *Server) Accounts() [][2]Account {
	out := make([][2]Account, len(s.accounts))
	copy(out, s.accounts)
	return out
}

func (s *Server) seed(pairs int) error {
	now := s.svc.now()
	return s.svc.repo.update(func(t *tx) error {
		for i := 1; i <= pairs; i++ {
			var pair [2]Account
			for j, tag := range []string{"a", "b"} {
				acc := Account{
					Email:    fmt.Sprintf("%s%d@seed.pricing.test", tag, i),
					Password: fmt.Sprintf("Secret-%s%d", tag, i),
					APIKey:   randKey(40),
				}
				c := &Client{
					ID: s.svc.repo.clientSeq.Add(1), Created: now,
					Name:         fmt.Sprintf("Seed Client %s%d", strings.ToUpper(tag), i),
					AddressLine1: "1 Market Street", AddressCity: "London", AddressPostcode: "EC1A 1AA",
					AddressCountry: "United Kingdom", CurrencyID: 1,
				}
				t.putClient(c)
				u := &User{
					ID: s.svc.repo.userSeq.Add(1), Created: now, Email: acc.Email, Password: acc.Password,
					PasswordLastChanged: now, FirstName: fmt.Sprintf("Seed%s", strings.ToUpper(tag)),
					LastName: fmt.Sprintf("User%d", i), SubscribeWelcome: true, PhoneCountryID: 1,
					PhoneNumber: "2079460000", Timezone: "Europe/London", APIKey: acc.APIKey,
					ClientIDs: []int64{c.ID},
				}
				t.putUser(u)
				pair[j] = acc
			}
			s.accounts = append(s.accounts, pair)
		}
		return nil
	})
}

// ---- router ----

type handlerFunc func(w http.ResponseWriter, r *http.Request, id int64) error

type route struct {
	method string
	re     *regexp.Regexp
	auth   bool
	h      handlerFunc
}

var idSeg = `([^/]+)`

func (s *Server) buildRoutes() []route {
	mk := func(method, pattern string, auth bool, h handlerFunc) route {
		return route{method, regexp.MustCompile("^" + pattern + "$"), auth, h}
	}
	return []route{
		mk("POST", "/sessions", false, s.postSession),
		mk("POST", "/users", false, s.postUser),
		mk("GET", "/users/"+idSeg, true, s.getUser),
		mk("PUT", "/users/"+idSeg, true, s.putUser),
		mk("GET", "/clients", true, s.listClients),
		mk("POST", "/clients", true, s.postClient),
		mk("GET", "/clients/"+idSeg, true, s.getClient),
		mk("PUT", "/clients/"+idSeg, true, s.putClient),
		mk("GET", "/apps", true, s.listApps),
		mk("POST", "/apps", true, s.postApp),
		mk("GET", "/apps/"+idSeg, true, s.getApp),
		mk("GET", "/platforms", false, s.catalogue("platforms", platforms)),
		mk("GET", "/plans", false, s.catalogue("plans", plans)),
		mk("GET", "/currencies", false, s.catalogue("currencies", currencies)),
		mk("GET", "/phone-countries", false, s.catalogue("phoneCountries", phoneCountries)),
		mk("GET", "/marketapps", false, s.catalogue("marketapps", marketapps)),
	}
}

// parseID accepts only canonical positive decimal ids ("7", not "07" or "+7").
func parseID(seg string) (int64, bool) {
	if seg == "" || seg[0] == '0' {
		return 0, false
	}
	for i := 0; i < len(seg); i++ {
		if seg[i] < '0' || seg[i] > '9' {
			return 0, false
		}
	}
	id, err := strconv.ParseInt(seg, 10, 64)
	return id, err == nil
}

type ctxKey struct{}

func callerFrom(ctx context.Context) *caller {
	c, _ := ctx.Value(ctxKey{}).(*caller)
	return c
}

// ServeHTTP routes a request: base path, route table, auth middleware, handler, error mapping.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.has("accept-not-exact-json-406") {
		if a := r.Header.Get("Accept"); a != "" && a != "application/json" {
			s.writeError(w, &StatusError{Status: http.StatusNotAcceptable, Code: "NotAcceptable"})
			return
		}
	}
	path := ""
	matched := false
	for _, b := range s.bases {
		if rest, ok := strings.CutPrefix(r.URL.Path, b); ok && (rest == "" || rest[0] == '/') {
			path, matched = rest, true
			break
		}
	}
	if !matched {
		s.writeError(w, ErrNotFound)
		return
	}
	var allow []string
	for _, rt := range s.routes {
		m := rt.re.FindStringSubmatch(path)
		if m == nil {
			continue
		}
		if rt.method != r.Method {
			allow = append(allow, rt.method)
			continue
		}
		var id int64
		if len(m) > 1 {
			var ok bool
			if id, ok = parseID(m[1]); !ok {
				s.writeError(w, ErrNotFound)
				return
			}
		}
		h := rt.h
		if rt.auth {
			h = s.authMiddleware(h)
		}
		if err := h(w, r, id); err != nil {
			s.writeError(w, err)
		}
		return
	}
	if len(allow) > 0 {
		sort.Strings(allow)
		s.writeError(w, &StatusError{Status: http.StatusMethodNotAllowed, Code: "MethodNotAllowed", Allow: strings.Join(allow, ", ")})
		return
	}
	s.writeError(w, ErrNotFound)
}

// authMiddleware authenticates the request and puts the caller into its context.
func (s *Server) authMiddleware(next handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, id int64) error {
		c, err := s.authenticate(r)
		if err != nil {
			return err
		}
		if s.has("caller-in-shared-field") {
			s.shared.Store(c)
			time.Sleep(5 * time.Millisecond)
			c = s.shared.Load()
		}
		return next(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, c)), id)
	}
}

func (s *Server) authenticate(r *http.Request) (*caller, error) {
	snap := s.svc.repo.snap()
	fromUser := func(uid int64) (*caller, error) {
		u, ok := snap.users[uid]
		if !ok {
			return nil, ErrUnauthorized
		}
		c := &caller{UserID: uid}
		if len(u.ClientIDs) > 0 {
			c.ClientID = u.ClientIDs[0]
		}
		return c, nil
	}
	fromSession := func(tok string) (*caller, error) {
		se, ok := snap.sessions[tok]
		if !ok {
			return nil, ErrUnauthorized
		}
		if _, ok := snap.users[se.UserID]; !ok {
			return nil, ErrUnauthorized
		}
		return &caller{UserID: se.UserID, ClientID: se.ClientID}, nil
	}
	if vals, ok := r.Header["Authorization"]; ok {
		v := strings.TrimSpace(vals[0])
		var key string
		if s.has("auth-scheme-not-checked") {
			key = v[strings.LastIndexByte(v, ' ')+1:]
		} else {
			scheme, rest, found := strings.Cut(v, " ")
			if !found || !strings.EqualFold(scheme, "api-key") {
				return nil, ErrUnauthorized
			}
			key = strings.TrimSpace(rest)
		}
		if key == "" {
			return nil, ErrUnauthorized
		}
		if uid, ok := snap.apiKeys[key]; ok {
			return fromUser(uid)
		}
		if s.has("api-key-compared-case-insensitively") {
			for k, uid := range snap.apiKeys {
				if strings.EqualFold(k, key) {
					return fromUser(uid)
				}
			}
		}
		if s.has("session-token-accepted-as-api-key") {
			return fromSession(key)
		}
		return nil, ErrUnauthorized
	}
	if tok := r.Header.Get("Session-Token"); tok != "" {
		return fromSession(strings.TrimSpace(tok))
	}
	if !s.has("session-token-query-ignored") {
		if tok := r.URL.Query().Get("sessionToken"); tok != "" {
			return fromSession(tok)
		}
	}
	return nil, ErrUnauthorized
}

// ---- views ----

type userView struct {
	ID                  int64        `json:"id"`
	Created             string       `json:"created"`
	Email               string       `json:"email"`
	Password            *string      `json:"password,omitempty"`
	PasswordLastChanged string       `json:"passwordLastChanged"`
	FirstName           string       `json:"firstName"`
	LastName            string       `json:"lastName"`
	SubscribeWelcome    bool         `json:"subscribeWelcome"`
	SubscribeBlog       bool         `json:"subscribeBlog"`
	SubscribeHowto      bool         `json:"subscribeHowto"`
	SubscribeOnboarding bool         `json:"subscribeOnboarding"`
	PhoneCountry        phoneCountry `json:"phoneCountry"`
	PhoneNumber         string       `json:"phoneNumber"`
	PhoneExtension      *string      `json:"phoneExtension"`
	Timezone            string       `json:"timezone"`
}

func (s *Server) userView(u *User) userView {
	pc, _ := findPhoneCountry(u.PhoneCountryID)
	v := userView{
		ID: u.ID, Created: iso(u.Created), Email: u.Email, PasswordLastChanged: iso(u.PasswordLastChanged),
		FirstName: u.FirstName, LastName: u.LastName, SubscribeWelcome: u.SubscribeWelcome,
		SubscribeBlog: u.SubscribeBlog, SubscribeHowto: u.SubscribeHowto, SubscribeOnboarding: u.SubscribeOnboarding,
		PhoneCountry: pc, PhoneNumber: u.PhoneNumber, PhoneExtension: u.PhoneExtension, Timezone: u.Timezone,
	}
	if s.has("user-response-includes-password") {
		p := u.Password
		v.Password = &p
	}
	return v
}

type currencyView struct {
	ID   int64 `json:"id"`
	Code any   `json:"code"`
}

type clientView struct {
	ID              int64        `json:"id"`
	CreatedDate     string       `json:"createdDate"`
	Name            string       `json:"name"`
	AddressLine1    string       `json:"addressLine1"`
	AddressLine2    *string      `json:"addressLine2,omitempty"`
	AddressCity     string       `json:"addressCity"`
	AddressPostcode string       `json:"addressPostcode"`
	AddressCountry  string       `json:"addressCountry"`
	Vat             *string      `json:"vat,omitempty"`
	Currency        currencyView `json:"currency"`
}

func (s *Server) clientView(c *Client) clientView {
	cur, _ := findCurrency(c.CurrencyID)
	cv := currencyView{ID: cur.ID, Code: cur.Code}
	if s.has("currency-code-numeric") {
		cv.Code = cur.numeric
	}
	return clientView{
		ID: c.ID, CreatedDate: iso(c.Created), Name: c.Name, AddressLine1: c.AddressLine1,
		AddressLine2: c.AddressLine2, AddressCity: c.AddressCity, AddressPostcode: c.AddressPostcode,
		AddressCountry: c.AddressCountry, Vat: c.Vat, Currency: cv,
	}
}

type planView struct {
	IsLite      bool `json:"isLite"`
	IsPro       bool `json:"isPro"`
	IsDynamic   bool `json:"isDynamic"`
	NeedBilling bool `json:"needBilling"`
}

type marketappRef struct {
	Hash *string `json:"hash"`
}

type appView struct {
	ID        int64        `json:"id"`
	Created   string       `json:"created"`
	Name      string       `json:"name"`
	Platform  platform     `json:"platform"`
	WriteKey  string       `json:"writeKey"`
	Plan      planView     `json:"plan"`
	Marketapp marketappRef `json:"marketapp"`
}

func appViewOf(a *App) appView {
	p, _ := findPlatform(a.PlatformID)
	return appView{
		ID: a.ID, Created: iso(a.Created), Name: a.Name, Platform: p, WriteKey: a.WriteKey,
		Plan:      planView{IsLite: a.PlanID == 1, IsPro: a.PlanID == 2, IsDynamic: a.PlanID == 3, NeedBilling: a.PlanID != 1},
		Marketapp: marketappRef{Hash: a.MarketappHash},
	}
}

type sessionView struct {
	ID            int64  `json:"id"`
	Created       string `json:"created"`
	CreatorUserID int64  `json:"creatorUserId"`
	UserID        int64  `json:"userId"`
	ClientID      int64  `json:"clientId"`
	Token         string `json:"token"`
}

// ---- handlers ----

func (s *Server) caller(r *http.Request) *caller { return callerFrom(r.Context()) }

func (s *Server) collection(name string, items any, n int) map[string]any {
	out := map[string]any{name: items}
	if s.has("collections-add-count") {
		out["count"] = n
	}
	return out
}

func (s *Server) catalogue(name string, items any) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, _ int64) error {
		n := 0
		switch v := items.(type) {
		case []platform:
			n = len(v)
		case []plan:
			n = len(v)
		case []currency:
			n = len(v)
		case []phoneCountry:
			n = len(v)
		case []marketapp:
			n = len(v)
		}
		writeJSON(w, http.StatusOK, s.collection(name, items, n))
		return nil
	}
}

func (s *Server) postSession(w http.ResponseWriter, r *http.Request, _ int64) error {
	var d sessionDTO
	if err := s.decodeInto(w, r, sessionSchema, &d, nil); err != nil {
		return err
	}
	se, err := s.svc.login(d)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sessionView{se.ID, iso(se.Created), se.CreatorUserID, se.UserID, se.ClientID, se.Token})
	return nil
}

func (s *Server) postUser(w http.ResponseWriter, r *http.Request, _ int64) error {
	var d userDTO
	if err := s.decodeInto(w, r, userCreateSchema, &d, nil); err != nil {
		return err
	}
	u, err := s.svc.createUser(&d)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.userView(u))
	return nil
}

func (s *Server) getUser(w http.ResponseWriter, r *http.Request, id int64) error {
	c := s.caller(r)
	u, ok := s.svc.repo.snap().users[id]
	if !ok {
		return ErrNotFound
	}
	if u.ID != c.UserID {
		return ErrForbidden
	}
	writeJSON(w, http.StatusOK, s.userView(u))
	return nil
}

func (s *Server) putUser(w http.ResponseWriter, r *http.Request, id int64) error {
	c := s.caller(r)
	if _, err := s.svc.userAccess(c, id); err != nil {
		return err
	}
	var d userDTO
	if err := s.decodeInto(w, r, userUpdateSchema, &d, nil); err != nil {
		return err
	}
	u, err := s.svc.updateUser(c, id, &d)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.userView(u))
	return nil
}

func (s *Server) listClients(w http.ResponseWriter, r *http.Request, _ int64) error {
	c := s.caller(r)
	snap := s.svc.repo.snap()
	u, ok := snap.users[c.UserID]
	if !ok {
		return ErrUnauthorized
	}
	items := []clientView{}
	for _, id := range u.ClientIDs {
		if cl, ok := snap.clients[id]; ok {
			items = append(items, s.clientView(cl))
		}
	}
	writeJSON(w, http.StatusOK, s.collection("clients", items, len(items)))
	return nil
}

func (s *Server) postClient(w http.ResponseWriter, r *http.Request, _ int64) error {
	var d clientDTO
	if err := s.decodeInto(w, r, clientCreateSchema, &d, nil); err != nil {
		return err
	}
	cl, err := s.svc.createClient(s.caller(r), &d)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.clientView(cl))
	return nil
}

func (s *Server) getClient(w http.ResponseWriter, r *http.Request, id int64) error {
	cl, err := s.svc.clientAccess(s.caller(r), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.clientView(cl))
	return nil
}

var rawAppKey = []byte(`"app"`)

func (s *Server) putClient(w http.ResponseWriter, r *http.Request, id int64) error {
	c := s.caller(r)
	if _, err := s.svc.clientAccess(c, id); err != nil {
		if !(s.has("put-client-no-membership-check") && err == ErrForbidden) {
			return err
		}
	}
	var extra func([]byte, map[string]any) []FieldError
	if s.has("escaped-app-key-skips-check") {
		extra = func(raw []byte, _ map[string]any) []FieldError {
			if bytes.Contains(raw, rawAppKey) {
				return []FieldError{{"app", "InvalidApp", messageFor("InvalidApp", "app")}}
			}
			return nil
		}
	}
	var d clientDTO
	if err := s.decodeInto(w, r, clientUpdateSchema, &d, extra); err != nil {
		return err
	}
	cl, err := s.svc.updateClient(c, id, &d)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.clientView(cl))
	return nil
}

func (s *Server) listApps(w http.ResponseWriter, r *http.Request, _ int64) error {
	c := s.caller(r)
	snap := s.svc.repo.snap()
	u, ok := snap.users[c.UserID]
	if !ok {
		return ErrUnauthorized
	}
	var list []*App
	for _, a := range snap.apps {
		if isMember(u, a.ClientID) {
			list = append(list, a)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	items := make([]appView, 0, len(list))
	for _, a := range list {
		items = append(items, appViewOf(a))
	}
	writeJSON(w, http.StatusOK, s.collection("apps", items, len(items)))
	return nil
}

func (s *Server) postApp(w http.ResponseWriter, r *http.Request, _ int64) error {
	var d appDTO
	if err := s.decodeInto(w, r, appSchema, &d, nil); err != nil {
		return err
	}
	a, err := s.svc.createApp(s.caller(r), &d)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, appViewOf(a))
	return nil
}

func (s *Server) getApp(w http.ResponseWriter, r *http.Request, id int64) error {
	c := s.caller(r)
	snap := s.svc.repo.snap()
	a, ok := snap.apps[id]
	if !ok {
		return ErrNotFound
	}
	u, ok := snap.users[c.UserID]
	if !ok || !isMember(u, a.ClientID) {
		return ErrForbidden
	}
	writeJSON(w, http.StatusOK, appViewOf(a))
	return nil
}
