package mockserver

import (
	"errors"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Namespaces let several developers or CI jobs share one mock without seeing
// each other's data: a request with the header X-Mock-Namespace: NAME is
// served from NAME's own store, seeded on first use, with its own request
// journal and fault rules. Requests without the header, or with the name
// "default", use the default namespace (the one --state persists and
// Server.Store returns). A named namespace is dropped by DELETE
// /__admin/namespaces/NAME, or when no request used it for
// Limits.NamespaceIdle; when the most namespaces are held, a new name takes
// the place of the one unused longest, if no request used it for
// Limits.NamespaceEvictIdle, so that a full table heals by itself. A
// client (an address) makes at most Limits.NamespaceRate new namespaces a
// minute.

// NamespaceHeader names the namespace of a request.
const NamespaceHeader = "X-Mock-Namespace"

// defaultName is how the admin API names the default namespace, and the
// header's name for it.
const defaultName = "default"

// namespace is the data of one namespace.
type namespace struct {
	name  string // "" for the default
	id    uint64 // unique among the namespaces of a Server, never 0 nor reused
	store *pricing.Store
	rules *faultRules
	// journalSeq numbers the namespace's journal entries.
	journalSeq atomic.Int64
	// lastUsed is when a request last named it, in Unix nanoseconds.
	lastUsed atomic.Int64
}

// namespaces is the set of namespaces of a Server; safe for concurrent use.
type namespaces struct {
	max   int           // named namespaces
	idle  time.Duration // a named namespace unused this long is dropped
	evict time.Duration // with max held, one unused this long makes room
	now   func() time.Time
	make  func(name string, id uint64) (*namespace, error)
	drop  func(*namespace) // frees what a dropped namespace held

	def       *namespace
	lastSweep atomic.Int64 // Unix nanoseconds

	mu     sync.Mutex
	named  map[string]*namespace
	nextID uint64
	made   creationRate // the new namespaces of each client
}

func newNamespaces(lim Limits, make func(string, uint64) (*namespace, error), drop func(*namespace)) (*namespaces, error) {
	n := &namespaces{max: lim.Namespaces, idle: lim.NamespaceIdle, evict: lim.NamespaceEvictIdle, now: time.Now,
		make: make, drop: drop, named: map[string]*namespace{}, made: creationRate{perMinute: float64(lim.NamespaceRate)}}
	def, err := make("", 1)
	if err != nil {
		return nil, err
	}
	n.def, n.nextID = def, 2
	n.lastSweep.Store(n.now().UnixNano())
	return n, nil
}

// errNamespacesFull is get's error when the set holds its most namespaces,
// and none was unused long enough to make room.
var errNamespacesFull = errors.New("the namespaces are full")

// rateError is get's error when the client made its most new namespaces
// of the last minute; it may make another after Retry.
type rateError struct{ Retry time.Duration }

func (e *rateError) Error() string { return "too many new namespaces" }

// get returns the namespace of a name, creating it (seeded) on first use
// by client (an address). It fails with errNamespacesFull, a *rateError,
// or a *pricing.LimitError when the data bound has no room for another
// seed.
func (n *namespaces) get(name, client string) (*namespace, error) {
	if name == "" || name == defaultName {
		return n.def, nil
	}
	now := n.now().UnixNano()
	if last := n.lastSweep.Load(); time.Duration(now-last) > n.idle/4 && n.lastSweep.CompareAndSwap(last, now) {
		n.sweep(now)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if ns, ok := n.named[name]; ok {
		ns.lastUsed.Store(now)
		return ns, nil
	}
	var evict *namespace // makes room
	if len(n.named) >= n.max {
		n.sweepLocked(now)
		if len(n.named) >= n.max {
			if evict = n.evictableLocked(now); evict == nil {
				return nil, errNamespacesFull
			}
		}
	}
	if ok, retry := n.made.allow(client, time.Unix(0, now)); !ok {
		return nil, &rateError{retry}
	}
	if evict != nil {
		delete(n.named, evict.name)
		n.drop(evict)
	}
	ns, err := n.make(name, n.nextID)
	if err != nil {
		return nil, err
	}
	n.nextID++
	ns.lastUsed.Store(now)
	n.named[name] = ns
	return ns, nil
}

// sweep drops the named namespaces no request used for n.idle.
func (n *namespaces) sweep(now int64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sweepLocked(now)
}

func (n *namespaces) sweepLocked(now int64) {
	for name, ns := range n.named {
		if time.Duration(now-ns.lastUsed.Load()) >= n.idle {
			delete(n.named, name)
			n.drop(ns)
		}
	}
}

// evictableLocked is the named namespace unused longest, if no request
// used it for n.evict; nil when every one was used more recently.
func (n *namespaces) evictableLocked(now int64) *namespace {
	var oldest *namespace
	for _, ns := range n.named {
		if oldest == nil || ns.lastUsed.Load() < oldest.lastUsed.Load() {
			oldest = ns
		}
	}
	if oldest == nil || time.Duration(now-oldest.lastUsed.Load()) < n.evict {
		return nil
	}
	return oldest
}

// creationRate bounds the new namespaces of each client: a bucket of
// perMinute tokens per client address, refilled at perMinute a minute, one
// taken per namespace made. Safe for concurrent use.
type creationRate struct {
	perMinute float64
	mu        sync.Mutex
	clients   map[string]*tokens
}

type tokens struct {
	n  float64
	at time.Time
}

// maxRateClients bounds the clients creationRate remembers; past it those
// whose buckets are full again are forgotten, and then any.
const maxRateClients = 10_000

// allow takes a token of client's bucket at now; false, and how long until
// the next token, when there is none.
func (r *creationRate) allow(client string, now time.Time) (bool, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.clients == nil {
		r.clients = map[string]*tokens{}
	}
	t := r.clients[client]
	if t == nil {
		if len(r.clients) >= maxRateClients {
			r.forgetLocked(now)
		}
		t = &tokens{n: r.perMinute, at: now}
		r.clients[client] = t
	}
	t.n = min(r.perMinute, t.n+now.Sub(t.at).Minutes()*r.perMinute)
	t.at = now
	if t.n < 1 {
		return false, time.Duration((1 - t.n) / r.perMinute * float64(time.Minute))
	}
	t.n--
	return true, 0
}

// forgetLocked forgets the clients whose buckets are full again, or, when
// none is, one of them.
func (r *creationRate) forgetLocked(now time.Time) {
	for c, t := range r.clients {
		if t.n+now.Sub(t.at).Minutes()*r.perMinute >= r.perMinute {
			delete(r.clients, c)
		}
	}
	for c := range r.clients {
		if len(r.clients) < maxRateClients {
			break
		}
		delete(r.clients, c)
	}
}

// remove drops a named namespace; false when there is none of that name.
func (n *namespaces) remove(name string) bool {
	n.mu.Lock()
	ns, ok := n.named[name]
	delete(n.named, name)
	n.mu.Unlock()
	if ok {
		n.drop(ns)
	}
	return ok
}

// all returns every namespace, the default first, then by name.
func (n *namespaces) all() []*namespace {
	n.mu.Lock()
	out := make([]*namespace, 0, len(n.named)+1)
	for _, ns := range n.named {
		out = append(out, ns)
	}
	n.mu.Unlock()
	slices.SortFunc(out, func(a, b *namespace) int { return strings.Compare(a.name, b.name) })
	return append([]*namespace{n.def}, out...)
}

// validNamespace reports whether a name is 1 to 64 characters among A-Z,
// a-z, 0-9, '.', '_' and '-' (a loop: this runs on every request that
// names a namespace).
func validNamespace(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// nsKey is the gin context key of the request's namespace; absent for the
// default one.
const nsKey = "mockserver.namespace"

// resolveNamespace finds the request's namespace from its header, answering
// 400 for a bad name or when no more namespaces can be made.
func (s *Server) resolveNamespace(c *gin.Context) {
	name := c.Request.Header.Get(NamespaceHeader)
	if name == "" {
		c.Next()
		return
	}
	if !s.admin.namespaceAllowed(c.Request) {
		// Each name makes a namespace, and the mock keeps 1000: a page of
		// any site a developer opens could use them all (CORS lets every
		// origin call the API by default), and so could one that DNS
		// rebinding makes the mock's own origin. Like the admin API's,
		// they are for the origins --cors-origins names one by one, and
		// the mock's own pages under its own names.
		page := c.Request.Header.Get("Origin")
		if page == "" {
			page = "http://" + c.Request.Host
		}
		abortWith(c, pricing.CodeForbidden, "A page of "+strconv.Quote(page)+" may not send "+NamespaceHeader+
			"; start the mock with --cors-origins naming that origin (or, for the mock's own pages under another host name, --admin-hosts naming it).")
		return
	}
	if !validNamespace(name) {
		abortWith(c, pricing.CodeInvalidNamespace,
			"The "+NamespaceHeader+" header must be 1 to 64 characters among A-Z, a-z, 0-9, '.', '_' and '-'.")
		return
	}
	ns, err := s.spaces.get(name, clientAddr(c.Request))
	var rate *rateError
	switch {
	case errors.As(err, &rate):
		secs := int((rate.Retry + time.Second - 1) / time.Second)
		c.Header("Retry-After", strconv.Itoa(secs))
		abortWith(c, pricing.CodeLimitReached, "This client made "+strconv.Itoa(s.limits.NamespaceRate)+
			" new namespaces in the last minute, the most it may; reuse a name, or try again in "+strconv.Itoa(secs)+" s.")
		return
	case err != nil:
		msg := "The mock already holds " + strconv.Itoa(s.limits.Namespaces) + " namespaces, each used in the last " +
			s.limits.NamespaceEvictIdle.String() + ", the most it keeps"
		if !errors.Is(err, errNamespacesFull) {
			msg = "The namespace cannot be made: " + err.Error()
		}
		abortWith(c, pricing.CodeLimitReached, msg+"; reuse a name, or free one with DELETE "+adminPrefix+
			"/namespaces/NAME (when they are all taken, one unused for "+s.limits.NamespaceEvictIdle.String()+" makes room).")
		return
	}
	if ns != s.spaces.def {
		c.Set(nsKey, ns)
	}
	c.Next()
}

// clientAddr is the address a request came from, without its port: the
// client whose new namespaces are counted.
func clientAddr(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// nsFor is the namespace of a request; the default one before
// resolveNamespace has run (a panic answered by recoverJSON, say).
func (s *Server) nsFor(c *gin.Context) *namespace {
	if v, ok := c.Get(nsKey); ok {
		return v.(*namespace)
	}
	return s.spaces.def
}

// storeFor is the store a request reads and writes.
func (s *Server) storeFor(c *gin.Context) *pricing.Store {
	return s.nsFor(c).store
}

// nsName is a namespace's name in the admin API.
func nsName(ns *namespace) string {
	if ns.name == "" {
		return defaultName
	}
	return ns.name
}
