package mockserver

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// adminPrefix is where the admin API lives, outside the versioned API.
const adminPrefix = "/__admin"

// maxStateBody is the largest state document PUT /__admin/state reads.
const maxStateBody = 32 << 20

// registerAdmin adds the admin API, behind guardAdmin. Every call acts on
// the namespace of its X-Mock-Namespace header, the default one without it,
// except those of /__admin/namespaces, which name theirs in the path.
func (s *Server) registerAdmin(e *gin.Engine) {
	a := e.Group(adminPrefix, s.guardAdmin)
	a.POST("/reset", s.adminReset)
	a.GET("/state", s.adminGetState)
	a.PUT("/state", s.adminPutState)
	a.GET("/requests", s.adminListRequests)
	a.DELETE("/requests", s.adminClearRequests)
	a.POST("/faults", s.adminAddFault)
	a.GET("/faults", s.adminListFaults)
	a.DELETE("/faults", s.adminClearFaults)
	a.DELETE("/faults/:id", s.adminRemoveFault)
	a.GET("/namespaces", s.adminListNamespaces)
	a.DELETE("/namespaces/:name", s.adminDeleteNamespace)
}

// adminGuard decides who may use the admin API: with a token, whoever has
// it; without one, requests to the mock's own host names. Either way, a
// page of another origin only when --cors-origins lists it.
type adminGuard struct {
	token   []byte
	anyHost bool
	hosts   map[string]bool // lower case, without port or brackets
	origins map[string]bool // normalized, listed by name (not "*")
}

func newAdminGuard(opts Options) adminGuard {
	g := adminGuard{hosts: map[string]bool{}, origins: map[string]bool{}}
	if opts.AdminToken != "" {
		g.token = []byte(opts.AdminToken)
	}
	for _, h := range opts.AdminHosts {
		if h = strings.TrimSpace(h); h == "*" {
			g.anyHost = true
		} else if h != "" {
			g.hosts[hostName(h)] = true
		}
	}
	for _, o := range opts.CORSOrigins {
		if o = normalizeOrigin(o); o != "" && o != "*" {
			g.origins[o] = true
		}
	}
	return g
}

// hostName is the host of a Host header or an address, without its port
// and brackets, in lower case and without a final dot.
func hostName(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(h, "]"), "["), ".")
	return strings.ToLower(h)
}

// ownHost reports whether a Host header names this mock: a loopback name
// or address, or one of Options.AdminHosts.
func (g adminGuard) ownHost(hostport string) bool {
	h := hostName(hostport)
	if h == "" {
		return false
	}
	if g.anyHost || g.hosts[h] || h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// hasToken reports whether a request carries the admin token:
// "Authorization: Bearer TOKEN", the scheme in any case.
func (g adminGuard) hasToken(r *http.Request) bool {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	return ok && strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), g.token) == 1
}

// pageAllowed reports whether a request comes from no page, from a page of
// the mock itself, or from a page of an origin --cors-origins lists.
func (g adminGuard) pageAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	o := normalizeOrigin(origin)
	if g.origins[o] {
		return true
	}
	_, host, ok := strings.Cut(o, "://")
	return ok && strings.EqualFold(host, r.Host)
}

// namespaceAllowed reports whether a request may name a namespace: every
// name makes one, and the mock keeps 1000. A request of no browser (no
// Origin, no Sec-Fetch-Site: curl, a test, a CI job) may; so may one with
// the admin token. A browser's needs a positive proof that its page may:
// an origin --cors-origins names, or a page of the mock itself under one of
// its own host names (ownHost). An Origin equal to the Host is not enough:
// a page whose DNS name is made to point at the mock (DNS rebinding) is of
// the same origin as the mock, under a name of its own; and a same-origin
// GET carries no Origin at all, only Sec-Fetch-Site, which a page cannot
// set.
func (g adminGuard) namespaceAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	site := r.Header.Get("Sec-Fetch-Site")
	switch {
	case origin == "" && site == "":
		return true
	case g.token != nil && g.hasToken(r):
		return true
	case origin != "":
		o := normalizeOrigin(origin)
		if g.origins[o] {
			return true
		}
		_, host, ok := strings.Cut(o, "://")
		return ok && strings.EqualFold(host, r.Host) && g.ownHost(r.Host)
	default:
		return site == "same-origin" && g.ownHost(r.Host)
	}
}

// showsSecrets reports whether a request may see the demo accounts'
// passwords and keys on the home page: those it could read from the admin
// API's own host without a token. With a token the admin API answers no
// one without it, and the mock is then usually on a shared address, so the
// page shows none.
func (s *Server) showsSecrets(r *http.Request) bool {
	return !s.opts.NoAdmin && s.admin.token == nil && s.admin.ownHost(r.Host) && s.admin.pageAllowed(r)
}

// guardAdmin is the middleware of every admin call: 401 without the admin
// token when there is one, 403 for a Host that is not the mock's own (when
// there is none), 403 for a page of another origin.
func (s *Server) guardAdmin(c *gin.Context) {
	r := c.Request
	switch {
	case s.admin.token != nil && !s.admin.hasToken(r):
		abortWith(c, pricing.CodeUnauthorized, "The admin API needs the mock's admin token: \"Authorization: Bearer TOKEN\" (--admin-token).")
	case s.admin.token == nil && !s.admin.ownHost(r.Host):
		abortWith(c, pricing.CodeForbidden, "The admin API answers only requests to the mock's own address (localhost, 127.0.0.1, [::1] "+
			"and the host of --addr), not to "+strconv.Quote(r.Host)+"; start the mock with --admin-hosts to add a name, or with --admin-token.")
	case !s.admin.pageAllowed(r):
		abortWith(c, pricing.CodeForbidden, "The admin API does not answer pages of other origins ("+r.Header.Get("Origin")+
			"); start the mock with --cors-origins listing the origin to allow it.")
	default:
		c.Set(adminKey, true)
		c.Next()
	}
}

// adminKey is set in the gin context of an admin call guardAdmin let
// through: its body is not an anonymous one (inflight.go).
const adminKey = "mockserver.admin"

// adminReset handles POST /__admin/reset: the namespace's store back to the
// seed. Its journal and rules stay; they have their own DELETE.
func (s *Server) adminReset(c *gin.Context) {
	ns := s.nsFor(c)
	ns.store.Reset(s.currentSeed())
	writeJSON(c, http.StatusOK, gin.H{"namespace": nsName(ns), "reset": true})
}

// adminGetState handles GET /__admin/state.
func (s *Server) adminGetState(c *gin.Context) {
	writeJSON(c, http.StatusOK, s.exportOf(s.storeFor(c)))
}

// exportOf is a store's state as the admin API shows it. An app's writeKey
// is a secret of the app, and an admin API without a token answers any
// program of the machine (and a page of its own host): there the keys are
// left empty, and an import gives such an app a new one. Under a token the
// export is a full backup.
func (s *Server) exportOf(store *pricing.Store) pricing.State {
	st := store.Export()
	if s.admin.token == nil {
		for i := range st.Apps {
			st.Apps[i].WriteKey = ""
		}
	}
	return st
}

// newWriteKeys gives every app of an imported state whose writeKey is
// empty (an export made without the admin token) a new random one, so that
// such an export imports back. The old key is not kept from the store:
// whoever may import could then read it through an app they made theirs.
// It returns how many it made.
func newWriteKeys(st *pricing.State) (int, error) {
	made := 0
	for i := range st.Apps {
		if st.Apps[i].WriteKey != "" {
			continue
		}
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return made, err
		}
		st.Apps[i].WriteKey = hex.EncodeToString(b[:])
		made++
	}
	return made, nil
}

// adminPutState handles PUT /__admin/state: the document replaces the
// namespace's data, or, with any problem, changes nothing and answers 400
// with the problems (409 as soon as it is read past what a namespace
// keeps: pricing.Store.ReadState). It answers the state as stored (secrets hashed). In
// the namespace of --state, the answer waits for the file: an import that
// was answered 200 is on disk.
func (s *Server) adminPutState(c *gin.Context) {
	// One import at a time: each holds its whole document decoded.
	s.importMu.Lock()
	defer s.importMu.Unlock()
	ns := s.nsFor(c)
	st, err := ns.store.ReadState(http.MaxBytesReader(c.Writer, c.Request.Body, maxStateBody))
	var tooLarge *http.MaxBytesError
	var limit *pricing.StateLimitError
	switch {
	case errors.As(err, &limit):
		fieldErrors(c, []pricing.FieldError{limit.Field})
		return
	case errors.As(err, &tooLarge):
		abortWith(c, pricing.CodeBodyTooLarge, "The state document is larger than 32 MiB.")
		return
	case err != nil:
		abortWith(c, pricing.CodeInvalidState, "The state was not imported: "+err.Error()+".")
		return
	}
	if _, err := newWriteKeys(&st); err != nil {
		internalError(c, "The state was not imported: no write key could be made: "+err.Error()+".")
		return
	}
	if errs := ns.store.Import(st); len(errs) > 0 {
		fieldErrors(c, errs)
		return
	}
	if s.persist != nil && ns == s.spaces.def {
		if err := s.persist.commit(); err != nil {
			internalError(c, "The state was imported but could not be written to the state file: "+err.Error()+".")
			return
		}
	}
	writeJSON(c, http.StatusOK, s.exportOf(ns.store))
}

// journalReaders bounds the journal reads answered at once.
var journalReaders = make(chan struct{}, 2)

// adminListRequests handles GET /__admin/requests: the journal, newest first.
func (s *Server) adminListRequests(c *gin.Context) {
	// A read answers up to a few megabytes (bodies are escaped in JSON):
	// two at a time, the others wait, so that twenty at once do not hold
	// twenty answers in memory.
	select {
	case journalReaders <- struct{}{}:
		defer func() { <-journalReaders }()
	case <-c.Request.Context().Done():
		return
	}
	var before int64
	if v, ok := c.GetQuery("before"); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			writeErrors(c, http.StatusBadRequest, []pricing.FieldError{{FieldName: "before", Error: pricing.CodeInvalidBody,
				Message: "before is the id of an entry, a positive integer: the answer's \"next\" gives the one to ask for the older entries."}})
			return
		}
		before = n
	}
	recs, next := s.journal.list(s.nsFor(c).id, before)
	entries := make([]api.JournalEntry, len(recs))
	for i, r := range recs {
		entries[i] = r.entry()
	}
	answer := gin.H{"requests": entries, "limit": journalSize}
	if next > 0 {
		// One read holds 1 MiB of entries at most; the older ones are a
		// page away rather than out of reach.
		answer["next"] = next
	}
	writeJSON(c, http.StatusOK, answer)
}

// adminClearRequests handles DELETE /__admin/requests.
func (s *Server) adminClearRequests(c *gin.Context) {
	writeJSON(c, http.StatusOK, gin.H{"deleted": s.journal.clear(s.nsFor(c).id)})
}

// adminAddFault handles POST /__admin/faults: 201 and the rule with its id.
func (s *Server) adminAddFault(c *gin.Context) {
	b, ok := readBody(c)
	if !ok {
		return
	}
	r, errs := parseRule(b)
	if len(errs) > 0 {
		fieldErrors(c, errs)
		return
	}
	r, err := s.nsFor(c).rules.add(r)
	if err != nil {
		abortWith(c, pricing.CodeTooManyRules, err.Error()+"; DELETE /__admin/faults removes them.")
		return
	}
	writeJSON(c, http.StatusCreated, r)
}

// adminListFaults handles GET /__admin/faults.
func (s *Server) adminListFaults(c *gin.Context) {
	writeJSON(c, http.StatusOK, gin.H{"faults": s.nsFor(c).rules.list()})
}

// adminClearFaults handles DELETE /__admin/faults: every rule.
func (s *Server) adminClearFaults(c *gin.Context) {
	writeJSON(c, http.StatusOK, gin.H{"deleted": s.nsFor(c).rules.clear()})
}

// adminRemoveFault handles DELETE /__admin/faults/:id: the rule removed.
func (s *Server) adminRemoveFault(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err == nil {
		if r, ok := s.nsFor(c).rules.remove(id); ok {
			writeJSON(c, http.StatusOK, r)
			return
		}
	}
	abortWith(c, pricing.CodeNotFound, "There is no fault rule with id "+strconv.Quote(c.Param("id"))+" in this namespace.")
}

// namespaceInfo is one namespace in GET /__admin/namespaces.
type namespaceInfo struct {
	Name     string     `json:"name"`
	Users    int        `json:"users"`
	Clients  int        `json:"clients"`
	Apps     int        `json:"apps"`
	Sessions int        `json:"sessions"`
	Rules    int        `json:"rules"`
	Bytes    int64      `json:"bytes"`
	LastUsed *time.Time `json:"lastUsed"` // null for the default namespace
}

// adminListNamespaces handles GET /__admin/namespaces: every namespace with
// what it holds, and the bounds.
func (s *Server) adminListNamespaces(c *gin.Context) {
	out := []namespaceInfo{}
	for _, ns := range s.spaces.all() {
		st := ns.store.Stats()
		info := namespaceInfo{Name: nsName(ns), Users: st.Users, Clients: st.Clients, Apps: st.Apps,
			Sessions: st.Sessions, Rules: ns.rules.len(), Bytes: st.Bytes}
		if ns != s.spaces.def {
			t := time.Unix(0, ns.lastUsed.Load()).UTC().Truncate(time.Second)
			info.LastUsed = &t
		}
		out = append(out, info)
	}
	entries, journalBytes := s.journal.usage()
	writeJSON(c, http.StatusOK, gin.H{
		"namespaces": out,
		"limits": gin.H{
			"namespaces": s.limits.Namespaces, "idleSeconds": int64(s.limits.NamespaceIdle.Seconds()),
			"dataBytes": s.limits.DataBytes, "journalEntries": s.limits.JournalEntries, "journalBytes": s.limits.JournalBytes,
		},
		"usage": gin.H{"dataBytes": s.pool.Used(), "journalEntries": entries, "journalBytes": journalBytes, "rules": s.rules.n.Load()},
	})
}

// adminDeleteNamespace handles DELETE /__admin/namespaces/:name: the
// namespace, its journal and its rules are dropped; a request naming it
// again gets a fresh one.
func (s *Server) adminDeleteNamespace(c *gin.Context) {
	name := c.Param("name")
	switch {
	case name == defaultName:
		abortWith(c, pricing.CodeInvalidNamespace, "The default namespace cannot be deleted; POST "+adminPrefix+"/reset puts it back to the seed.")
	case !validNamespace(name):
		abortWith(c, pricing.CodeInvalidNamespace, "A namespace name is 1 to 64 characters among A-Z, a-z, 0-9, '.', '_' and '-'.")
	case !s.spaces.remove(name):
		abortWith(c, pricing.CodeNotFound, "There is no namespace "+strconv.Quote(name)+".")
	default:
		writeJSON(c, http.StatusOK, gin.H{"namespace": name, "deleted": true})
	}
}
