package reducer

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// The imperative shell: HTTP parsing, the clock, randomness and publication
// of the new State by compare-and-swap.

type Options struct {
	Pairs int
	Fault string
}

type Account struct {
	Email, Password, APIKey string
}

type Server struct {
	state    atomic.Pointer[State]
	fault    string
	accounts [][2]Account
	now      func() time.Time
	ids      IDSource
}

const (
	basePath    = "/v1.0"
	aliasPath   = "/v1"
	maxBody     = 1 << 20
	raceWindow  = 20 * time.Millisecond
	contentJSON = "application/json; charset=utf-8"
)

type randomIDs struct{}

func (randomIDs) Hex(n int) string {
	b := make([]byte, (n+1)/2)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)[:n]
}

func New(opts Options) (*Server, error) {
	pairs := opts.Pairs
	if pairs == 0 {
		pairs = 1
	}
	if pairs < 0 || pairs > 500 {
		return nil, fmt.Errorf("reducer: Pairs must be between 0 and 500, got %d", opts.Pairs)
	}
	if opts.Fault != "" && !knownFault(opts.Fault) {
		return nil, fmt.Errorf("reducer: unknown fault %q", opts.Fault)
	}
	s := &Server{fault: opts.Fault, now: time.Now, ids: randomIDs{}}
	st, accts := seed(pairs, opts.Fault, s.now(), s.ids)
	s.accounts = accts
	s.state.Store(&st)
	return s, nil
}

func (s *Server) BasePath() string { return basePath }

func (s *Server) Accounts() [][2]Account {
	out := make([][2]Account, len(s.accounts))
	copy(out, s.accounts)
	return out
}

func (s *Server) has(f string) bool { return s.fault == f }

// ---- HTTP entry ----

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.has("accept-wildcard-rejected") {
		if a := r.Header.Get("Accept"); a != "" && !strings.Contains(a, "application/json") {
			s.render(w, Result{}, fail(406, "NotAcceptable", "only application/json is served"))
			return
		}
	}
	rest, ok := s.stripBase(r.URL.Path)
	if !ok {
		s.render(w, Result{}, fail(404, "NotFound", "no such resource"))
		return
	}
	segs := strings.Split(rest, "/")
	rt, f := route(segs, r.Method)
	if f != nil {
		if f.Status == 405 {
			w.Header().Set("Allow", rt.allow)
		}
		s.render(w, Result{}, f)
		return
	}
	var body map[string]any
	if rt.hasBody {
		var bf *Failure
		body, bf = s.readBody(w, r)
		if bf != nil {
			// Authentication still comes first: the refusal is a command too.
			s.run(w, Rejected{Auth: credentials(r), Public: rt.public, Failure: bf})
			return
		}
	}
	cmd, f := rt.build(s, r, segs, body)
	if f != nil {
		s.render(w, Result{}, f)
		return
	}
	s.run(w, cmd)
}

func (s *Server) stripBase(p string) (string, bool) {
	if s.has("version-segment-unchecked") {
		if len(p) > 1 && p[0] == '/' {
			if i := strings.IndexByte(p[1:], '/'); i > 0 {
				return p[i+2:], true
			}
		}
		return "", false
	}
	for _, b := range []string{basePath + "/", aliasPath + "/"} {
		if strings.HasPrefix(p, b) {
			return p[len(b):], true
		}
	}
	return "", false
}

type routeInfo struct {
	allow   string
	hasBody bool
	public  bool
	build   func(s *Server, r *http.Request, segs []string, body map[string]any) (Command, *Failure)
}

// parseID accepts a canonical positive decimal number.
func parseID(seg string) (int64, bool) {
	if seg == "" || seg[0] == '0' || len(seg) > 15 {
		return 0, false
	}
	for i := 0; i < len(seg); i++ {
		if seg[i] < '0' || seg[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(seg, 10, 64)
	return n, err == nil
}

func route(segs []string, method string) (routeInfo, *Failure) {
	type key struct {
		path   string
		method string
	}
	shape := segs[0]
	if len(segs) == 2 {
		if _, ok := parseID(segs[1]); !ok {
			return routeInfo{}, fail(404, "NotFound", "no such resource")
		}
		shape += "/:id"
	} else if len(segs) > 2 {
		return routeInfo{}, fail(404, "NotFound", "no such resource")
	}
	table := map[key]routeInfo{
		{"users", "POST"}:         {hasBody: true, public: true, build: buildCreateUser},
		{"users/:id", "PUT"}:      {hasBody: true, build: buildUpdateUser},
		{"users/:id", "GET"}:      {build: buildGetUser},
		{"clients", "POST"}:       {hasBody: true, build: buildCreateClient},
		{"clients/:id", "PUT"}:    {hasBody: true, build: buildUpdateClient},
		{"clients/:id", "GET"}:    {build: buildGetClient},
		{"apps", "POST"}:          {hasBody: true, build: buildCreateApp},
		{"apps", "GET"}:           {build: buildListApps},
		{"apps/:id", "GET"}:       {build: buildGetApp},
		{"sessions", "POST"}:      {hasBody: true, public: true, build: buildCreateSession},
		{"platforms", "GET"}:      {public: true, build: buildCatalogue},
		{"currencies", "GET"}:     {public: true, build: buildCatalogue},
		{"plans", "GET"}:          {public: true, build: buildCatalogue},
		{"phonecountries", "GET"}: {public: true, build: buildCatalogue},
		{"marketapps", "GET"}:     {public: true, build: buildCatalogue},
	}
	if rt, ok := table[key{shape, method}]; ok {
		return rt, nil
	}
	var allow []string
	for _, m := range []string{"GET", "POST", "PUT"} {
		if _, ok := table[key{shape, m}]; ok {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		return routeInfo{}, fail(404, "NotFound", "no such resource")
	}
	return routeInfo{allow: strings.Join(allow, ", ")}, fail(405, "MethodNotAllowed", "method not allowed")
}

func credentials(r *http.Request) Credentials {
	var c Credentials
	if v := r.Header.Values("Authorization"); len(v) > 0 {
		c.Authorization, c.HasAuthorization = v[0], true
	}
	if v := r.Header.Values("Session-Token"); len(v) > 0 {
		c.SessionHeader, c.HasSessionHeader = v[0], true
	}
	if v, ok := r.URL.Query()["sessionToken"]; ok && len(v) > 0 {
		c.SessionQuery, c.HasSessionQuery = v[0], true
	}
	return c
}

func badBody(msg string) *Failure {
	return invalid([]FieldError{fe("", "InvalidBody", msg)})
}

func (s *Server) readBody(w http.ResponseWriter, r *http.Request) (map[string]any, *Failure) {
	ct := r.Header.Get("Content-Type")
	if s.has("content-type-parameters-rejected") && ct != "" && ct != "application/json" {
		return nil, fail(415, "UnsupportedMediaType", "Content-Type must be application/json")
	}
	if s.has("non-json-content-type-415") {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !(mt == "application/json" || strings.HasSuffix(mt, "+json")) {
			return nil, fail(415, "UnsupportedMediaType", "Content-Type must be application/json")
		}
	}
	var raw []byte
	if !(s.has("chunked-body-ignored") && r.ContentLength <= 0) {
		var err error
		raw, err = io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, fail(413, "PayloadTooLarge", "the body is larger than 1 MiB")
			}
			return nil, badBody("the body could not be read")
		}
	}
	var v any
	if s.has("json-decimal-id-rejected") {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, badBody("the body is not valid JSON")
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, badBody("the body is not valid JSON")
		}
	} else if err := json.Unmarshal(raw, &v); err != nil {
		return nil, badBody("the body is not valid JSON")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, badBody("the body must be a JSON object")
	}
	return m, nil
}

// ---- map[string]any -> Command ----

func (s *Server) str(m map[string]any, k string) Field[string] {
	v, ok := m[k]
	if !ok {
		return Field[string]{}
	}
	switch x := v.(type) {
	case nil:
		return Field[string]{Set: true, Null: true}
	case string:
		return Field[string]{Set: true, V: x}
	}
	return Field[string]{Set: true, Bad: true}
}

func (s *Server) boolean(m map[string]any, k string) Field[bool] {
	v, ok := m[k]
	if !ok {
		return Field[bool]{}
	}
	switch x := v.(type) {
	case nil:
		return Field[bool]{Set: true, Null: true}
	case bool:
		return Field[bool]{Set: true, V: x}
	}
	return Field[bool]{Set: true, Bad: true}
}

func (s *Server) number(v any) Field[int64] {
	switch x := v.(type) {
	case nil:
		return Field[int64]{Set: true, Null: true}
	case float64:
		if math.Abs(x) > 1<<53 {
			return Field[int64]{Set: true, Bad: true}
		}
		if x != math.Trunc(x) && !s.has("float-id-truncated") {
			return Field[int64]{Set: true, Bad: true}
		}
		return Field[int64]{Set: true, V: int64(x)}
	case json.Number:
		n, err := strconv.ParseInt(string(x), 10, 64)
		if err != nil {
			return Field[int64]{Set: true, Bad: true}
		}
		return Field[int64]{Set: true, V: n}
	}
	return Field[int64]{Set: true, Bad: true}
}

// idIn reads m[k].id, where m[k] is an object such as {"id": 1}.
func (s *Server) idIn(m map[string]any, k string) Field[int64] {
	v, ok := m[k]
	if !ok {
		return Field[int64]{}
	}
	if v == nil {
		return Field[int64]{Set: true, Null: true}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return Field[int64]{Set: true, Bad: true}
	}
	id, ok := obj["id"]
	if !ok {
		return Field[int64]{Set: true, Null: true}
	}
	return s.number(id)
}

func (s *Server) appBody(m map[string]any) AppBody {
	var b AppBody
	if mv, ok := m["marketapp"]; ok && mv != nil {
		if mm, ok := mv.(map[string]any); ok {
			b.Hash = s.str(mm, "hash")
		} else {
			b.MarketappBad = true
		}
	}
	b.Name = s.str(m, "name")
	if v, ok := m["name"]; ok && s.has("null-app-name-stringified") {
		if _, isStr := v.(string); !isStr {
			b.Name = Field[string]{Set: true, V: fmt.Sprint(v)}
		}
	}
	b.PlatformID = s.idIn(m, "platform")
	b.NextplanID = s.idIn(m, "nextplan")
	return b
}

func (s *Server) clientBody(m map[string]any) ClientBody {
	b := ClientBody{
		Name:            s.str(m, "name"),
		AddressLine1:    s.str(m, "addressLine1"),
		AddressLine2:    s.str(m, "addressLine2"),
		AddressCity:     s.str(m, "addressCity"),
		AddressPostcode: s.str(m, "addressPostcode"),
		AddressCountry:  s.str(m, "addressCountry"),
		VAT:             s.str(m, "vat"),
		CurrencyID:      s.idIn(m, "currency"),
		Terms:           s.str(m, "terms"),
	}
	if v, ok := m["app"]; ok {
		b.AppPresent = true
		if v != nil {
			if am, ok := v.(map[string]any); ok {
				a := s.appBody(am)
				b.App = &a
			} else {
				b.AppBad = true
			}
		}
	}
	return b
}

func (s *Server) userBody(m map[string]any) UserBody {
	b := UserBody{
		Email:               s.str(m, "email"),
		FirstName:           s.str(m, "firstName"),
		LastName:            s.str(m, "lastName"),
		SubscribeWelcome:    s.boolean(m, "subscribeWelcome"),
		SubscribeBlog:       s.boolean(m, "subscribeBlog"),
		SubscribeHowto:      s.boolean(m, "subscribeHowto"),
		SubscribeOnboarding: s.boolean(m, "subscribeOnboarding"),
		Timezone:            s.str(m, "timezone"),
		Password:            s.str(m, "password"),
		PhoneCountryID:      s.idIn(m, "phoneCountry"),
		PhoneNumber:         s.str(m, "phoneNumber"),
		PhoneExtension:      s.str(m, "phoneExtension"),
	}
	if v, ok := m["client"]; ok && v != nil {
		if cm, ok := v.(map[string]any); ok {
			c := s.clientBody(cm)
			b.Client = &c
		} else {
			b.ClientBad = true
		}
	}
	return b
}

func segID(segs []string) int64 { id, _ := parseID(segs[1]); return id }

func buildCreateUser(s *Server, r *http.Request, segs []string, body map[string]any) (Command, *Failure) {
	return CreateUser{Body: s.userBody(body)}, nil
}

func buildUpdateUser(s *Server, r *http.Request, segs []string, body map[string]any) (Command, *Failure) {
	return UpdateUser{Auth: credentials(r), UserID: segID(segs), Body: s.userBody(body)}, nil
}

func buildGetUser(s *Server, r *http.Request, segs []string, _ map[string]any) (Command, *Failure) {
	return GetUser{Auth: credentials(r), UserID: segID(segs)}, nil
}

func buildCreateClient(s *Server, r *http.Request, segs []string, body map[string]any) (Command, *Failure) {
	return CreateClient{Auth: credentials(r), Body: s.clientBody(body)}, nil
}

func buildUpdateClient(s *Server, r *http.Request, segs []string, body map[string]any) (Command, *Failure) {
	return UpdateClient{Auth: credentials(r), ClientID: segID(segs), Body: s.clientBody(body)}, nil
}

func buildGetClient(s *Server, r *http.Request, segs []string, _ map[string]any) (Command, *Failure) {
	return GetClient{Auth: credentials(r), ClientID: segID(segs)}, nil
}

func buildCreateApp(s *Server, r *http.Request, segs []string, body map[string]any) (Command, *Failure) {
	return CreateApp{Auth: credentials(r), Body: s.appBody(body)}, nil
}

func buildGetApp(s *Server, r *http.Request, segs []string, _ map[string]any) (Command, *Failure) {
	return GetApp{Auth: credentials(r), AppID: segID(segs)}, nil
}

func buildListApps(s *Server, r *http.Request, segs []string, _ map[string]any) (Command, *Failure) {
	return ListApps{Auth: credentials(r)}, nil
}

func buildCreateSession(s *Server, r *http.Request, segs []string, body map[string]any) (Command, *Failure) {
	c := CreateSession{Email: s.str(body, "email"), Password: s.str(body, "password")}
	if v, ok := body["clientId"]; ok {
		c.ClientID = s.number(v)
	}
	return c, nil
}

func buildCatalogue(s *Server, r *http.Request, segs []string, _ map[string]any) (Command, *Failure) {
	return GetCatalogue{Name: segs[0]}, nil
}

// ---- running a command: load, apply, compare-and-swap ----

func (s *Server) run(w http.ResponseWriter, cmd Command) {
	switch c := cmd.(type) {
	case CreateClient:
		if s.has("post-clients-invalid-app-keeps-client") && c.Body.App != nil {
			// the first app is created by a second command after the client
			first := c
			first.Body.App, first.Body.AppPresent = nil, false
			res, err := s.exec(first)
			if err != nil {
				s.render(w, res, err)
				return
			}
			cl := res.Body.(clientJSON)
			_, err = s.exec(CreateApp{Auth: c.Auth, ClientID: cl.ID, Body: *c.Body.App})
			s.render(w, res, err)
			return
		}
	case CreateApp:
		if s.has("app-id-reserved-before-retry") {
			c.reservedID = s.state.Load().nextApp
			time.Sleep(raceWindow)
			cmd = c
		}
	case UpdateUser:
		if s.has("email-uniqueness-checked-in-shell") && c.Body.Email.Given() && !c.Body.Email.Bad {
			// uniqueness looked up once on a snapshot; the reducer is told to skip it
			snap := s.state.Load()
			if l, taken := snap.logins.Get(foldEmail(c.Body.Email.V)); !taken || l.UserID == c.UserID {
				c.emailPrechecked = true
				time.Sleep(raceWindow)
				cmd = c
			}
		}
	case CreateSession:
		if s.has("session-write-conflict-ignored") {
			cur := s.state.Load()
			next, res, err := Apply(*cur, cmd, s.now(), s.ids)
			if err == nil && res.changed {
				time.Sleep(raceWindow)
				s.state.CompareAndSwap(cur, &next) // a lost race loses the session silently
			}
			s.render(w, res, err)
			return
		}
	}
	res, err := s.exec(cmd)
	s.render(w, res, err)
}

func (s *Server) exec(cmd Command) (Result, error) {
	if s.has("cas-replaced-by-store") {
		cur := s.state.Load()
		next, res, err := Apply(*cur, cmd, s.now(), s.ids)
		if err == nil && res.changed {
			time.Sleep(raceWindow)
			s.state.Store(&next)
		}
		return res, err
	}
	for {
		cur := s.state.Load()
		next, res, err := Apply(*cur, cmd, s.now(), s.ids)
		if err != nil || !res.changed {
			return res, err
		}
		if s.state.CompareAndSwap(cur, &next) {
			return res, nil
		}
	}
}

// ---- rendering: the one place a Result or a refusal becomes a response ----

func (s *Server) render(w http.ResponseWriter, res Result, err error) {
	status, body := res.Status, res.Body
	if err != nil {
		var f *Failure
		if !errors.As(err, &f) {
			f = fail(500, "InternalError", "internal error")
		}
		status = f.Status
		if f.Status == 400 {
			fields := f.Fields
			if fields == nil {
				fields = []FieldError{}
			}
			body = fields
			if s.has("validation-error-object-not-array") {
				body = map[string]any{"errors": fields}
			}
		} else {
			body = map[string]string{"error": f.Code, "message": f.Message}
		}
	}
	buf, merr := json.Marshal(body)
	if merr != nil {
		status, buf = 500, []byte(`{"error":"InternalError","message":"internal error"}`)
	}
	w.Header().Set("Content-Type", contentJSON)
	w.Header().Set("Content-Length", strconv.Itoa(len(buf)+1))
	w.WriteHeader(status)
	w.Write(append(buf, '\n'))
}
