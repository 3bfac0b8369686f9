// Package events is an independent implementation of the Pricing Service API
// built on an event-sourced store: every accepted change is an event appended
// to a log, and the users, clients, apps and sessions the API answers with are
// projections folded from that log.
package events

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/lineages/third_party/internal/lineage"
)

// Account is one login: a user of a client, with its password and api key.
type Account = lineage.Account

// Options configure a server: Options.Fault names one of Faults().
type Options = lineage.Options

// Fault is a deliberate bug of this implementation.
type Fault lineage.Fault

const (
	basePath = "/pricing/v1"
	// maxBody is what a reverse proxy in front of the service would let
	// through; anything larger is refused before the API sees it.
	maxBody  = 1 << 20
	maxPairs = 500
)

// Server is one independent instance of the service with its own log.
type Server struct {
	fault    string
	cat      *catalogue
	st       *store
	accounts [][2]Account
	now      func() time.Time
}

// New seeds a server. An unknown fault name is an error.
func New(opts Options) (*Server, error) {
	if opts.Fault != "" && !knownFault(opts.Fault) {
		return nil, fmt.Errorf("events: unknown fault %q", opts.Fault)
	}
	pairs := opts.Pairs
	if pairs == 0 {
		pairs = 1
	}
	if pairs < 0 || pairs > maxPairs {
		return nil, fmt.Errorf("events: Pairs must be between 1 and %d, not %d", maxPairs, opts.Pairs)
	}
	s := &Server{
		fault: opts.Fault,
		cat:   newCatalogue(),
		st:    newStore(),
		now:   func() time.Time { return time.Now().UTC().Truncate(time.Second) },
	}
	s.seed(pairs)
	return s, nil
}

// BasePath is the path part of {base_url}.
func (s *Server) BasePath() string { return basePath }

// Accounts are the seeded pairs; the slice is a copy.
func (s *Server) Accounts() [][2]Account { return slices.Clone(s.accounts) }

// ServeHTTP answers in a fixed order: route (version and path), body size,
// then, inside each handler, authentication, path id, permission and body.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := s.stripBase(r.URL.Path)
	if !ok {
		s.write(w, notFound())
		return
	}
	rt, params, allow := match(r.Method, rest)
	if rt == nil {
		if allow != "" {
			rep := status(http.StatusMethodNotAllowed, "MethodNotAllowed", "This resource does not answer "+r.Method)
			rep.header = map[string]string{"Allow": allow}
			s.write(w, rep)
			return
		}
		s.write(w, notFound())
		return
	}
	body, err := readLimited(r)
	if errors.Is(err, errTooLarge) {
		s.write(w, status(http.StatusRequestEntityTooLarge, "PayloadTooLarge", "The body is larger than 1 MiB"))
		return
	}
	if err != nil {
		rep := reply{problems: problems{{FieldName: bodyField, Error: "InvalidBody", Message: "The body could not be read"}}}
		s.write(w, rep)
		return
	}
	s.write(w, rt.handle(s, &call{r: r, body: body, param: params}))
}

func (s *Server) stripBase(path string) (string, bool) {
	for _, base := range s.bases() {
		if rest, ok := strings.CutPrefix(path, base+"/"); ok {
			return rest, true
		}
	}
	return "", false
}

func (s *Server) bases() []string {
	if s.fault == faultVersionV2Served {
		return []string{basePath, "/pricing/v2"}
	}
	return []string{basePath}
}

var errTooLarge = errors.New("body too large")

// readLimited reads the whole body, but never more than maxBody+1 bytes, so
// that a huge or endless body costs at most that much.
func readLimited(r *http.Request) ([]byte, error) {
	if r.ContentLength > maxBody {
		return nil, errTooLarge
	}
	if r.Body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxBody {
		return nil, errTooLarge
	}
	return b, nil
}

type call struct {
	r     *http.Request
	body  []byte
	param string
}

type route struct {
	method  string
	pattern []string // ":id" matches one path segment
	handle  func(*Server, *call) reply
}

func routes() []route {
	return []route{
		{http.MethodPut, []string{"users", ":id"}, (*Server).putUser},
		{http.MethodPost, []string{"apps"}, (*Server).postApp},
		{http.MethodPost, []string{"clients"}, (*Server).postClient},
		{http.MethodPut, []string{"clients", ":id"}, (*Server).putClient},
		{http.MethodPost, []string{"sessions"}, (*Server).postSession},
		{http.MethodGet, []string{"platforms"}, (*Server).getPlatforms},
		{http.MethodGet, []string{"currencies"}, (*Server).getCurrencies},
		{http.MethodGet, []string{"plans"}, (*Server).getPlans},
	}
}

// match finds the route of a path. When the path exists under another
// method, allow lists the methods it does answer.
func match(method, rest string) (*route, string, string) {
	segs := strings.Split(rest, "/")
	var allowed []string
	for _, rt := range routes() {
		if len(rt.pattern) != len(segs) {
			continue
		}
		param, ok := "", true
		for i, p := range rt.pattern {
			switch {
			case p == ":id" && segs[i] != "":
				param = segs[i]
			case p != segs[i]:
				ok = false
			}
		}
		if !ok {
			continue
		}
		if rt.method == method {
			return &rt, param, ""
		}
		allowed = append(allowed, rt.method)
	}
	return nil, "", strings.Join(allowed, ", ")
}

// reply is what a handler decides; write renders it.
type reply struct {
	status   int
	body     any
	problems problems
	header   map[string]string
}

type statusBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

func status(code int, name, message string) reply {
	return reply{status: code, body: statusBody{name, message}}
}

func notFound() reply {
	return status(http.StatusNotFound, "NotFound", "No such resource")
}

func unauthorized() reply {
	rep := status(http.StatusUnauthorized, "Unauthorized", "Authenticate with \"Authorization: api-key <KEY>\", a session-token header or a sessionToken argument")
	rep.header = map[string]string{"WWW-Authenticate": `api-key realm="pricing"`}
	return rep
}

func forbidden() reply {
	return status(http.StatusForbidden, "Forbidden", "You may not view or modify this resource")
}

func ok(body any) reply { return reply{status: http.StatusOK, body: body} }

func invalid(p problems) reply { return reply{problems: p} }

func (s *Server) write(w http.ResponseWriter, rep reply) {
	code, body := rep.status, rep.body
	if len(rep.problems) > 0 {
		code, body = http.StatusBadRequest, rep.problems
		if s.fault == faultValidationAs422 {
			code = http.StatusUnprocessableEntity
		}
		if s.fault == faultErrorObjectNotArray {
			body = rep.problems[0]
		}
	}
	// Names such as "Gannet & Wren" are answered as sent, not as \u0026.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		code = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":"Internal","message":"The answer could not be encoded"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	for k, v := range rep.header {
		h.Set(k, v)
	}
	w.WriteHeader(code)
	_, _ = w.Write(buf.Bytes())
}

// principal is who a request speaks for, and for which client.
type principal struct {
	userID   int64
	clientID int64
}

// authenticate must be called with the store locked. Every credential the
// request presents must be valid and all must name the same user: a request
// carrying one good and one bad credential is not "authenticated correctly".
// An empty header or argument counts as not presented.
func (s *Server) authenticate(r *http.Request) (principal, bool) {
	st := s.st
	var p principal
	found := false
	agree := func(userID, clientID int64, fromSession bool) bool {
		if found && p.userID != userID {
			return false
		}
		if !found || fromSession {
			p = principal{userID, clientID}
		}
		found = true
		return true
	}

	auth := nonEmpty(r.Header.Values("Authorization"))
	if len(auth) > 1 {
		return p, false
	}
	if len(auth) == 1 {
		key, ok := s.apiKeyOf(auth[0])
		if !ok {
			return p, false
		}
		uid, ok := st.byKey[key]
		if !ok && s.fault == faultTruncatedAPIKeyAccepted && len(key) >= 16 {
			for k, id := range st.byKey {
				if strings.HasPrefix(k, key) {
					uid, ok = id, true
					break
				}
			}
		}
		if !ok || !agree(uid, st.users[uid].Clients[0], false) {
			return p, false
		}
	}

	tokens := [][]string{nonEmpty(r.Header.Values("session-token"))}
	if s.fault != faultSessionQueryIgnored {
		tokens = append(tokens, nonEmpty(r.URL.Query()["sessionToken"]))
	}
	for _, ts := range tokens {
		if len(ts) > 1 {
			return p, false
		}
		if len(ts) == 1 {
			sess, ok := st.sessions[ts[0]]
			if !ok || !agree(sess.UserID, sess.ClientID, true) {
				return p, false
			}
		}
	}
	return p, found
}

// apiKeyOf takes the key out of an Authorization value. The scheme is matched
// without regard to case, as HTTP schemes are; the key itself exactly.
func (s *Server) apiKeyOf(value string) (string, bool) {
	value = strings.TrimSpace(value)
	scheme, key, ok := strings.Cut(value, " ")
	if s.fault == faultAuthSchemeUnchecked {
		if !ok {
			return value, true
		}
		return strings.TrimSpace(key), true
	}
	if !ok || !strings.EqualFold(scheme, "api-key") {
		return "", false
	}
	key = strings.TrimLeft(key, " ")
	return key, key != ""
}

func nonEmpty(vs []string) []string {
	var out []string
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out
}

func randomHex(n int) string {
	b := make([]byte, n/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// newToken is a random (version 4) UUID.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// isoTime is the one date format of the API: seconds, explicit offset.
func isoTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05-07:00")
}
