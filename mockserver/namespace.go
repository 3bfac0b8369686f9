package mockserver

import (
	"errors"
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
// Limits.NamespaceIdle.

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
	max  int           // named namespaces
	idle time.Duration // a named namespace unused this long is dropped
	now  func() time.Time
	make func(name string, id uint64) (*namespace, error)
	drop func(*namespace) // frees what a dropped namespace held

	def       *namespace
	lastSweep atomic.Int64 // Unix nanoseconds

	mu     sync.Mutex
	named  map[string]*namespace
	nextID uint64
}

func newNamespaces(max int, idle time.Duration, make func(string, uint64) (*namespace, error), drop func(*namespace)) (*namespaces, error) {
	n := &namespaces{max: max, idle: idle, now: time.Now, make: make, drop: drop, named: map[string]*namespace{}}
	def, err := make("", 1)
	if err != nil {
		return nil, err
	}
	n.def, n.nextID = def, 2
	n.lastSweep.Store(n.now().UnixNano())
	return n, nil
}

// errNamespacesFull is get's error when the set holds its most namespaces,
// idle ones dropped.
var errNamespacesFull = errors.New("the namespaces are full")

// get returns the namespace of a name, creating it (seeded) on first use.
// It fails with errNamespacesFull, or a *pricing.LimitError when the data
// bound has no room for another seed.
func (n *namespaces) get(name string) (*namespace, error) {
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
	if len(n.named) >= n.max {
		n.sweepLocked(now)
		if len(n.named) >= n.max {
			return nil, errNamespacesFull
		}
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
	if !s.admin.pageAllowed(c.Request) {
		// Each name makes a namespace, and the mock keeps 1000: a page of
		// any site a developer opens could use them all (CORS lets every
		// origin call the API by default). Like the admin API's, they are
		// for the origins --cors-origins names one by one, and the mock's
		// own pages.
		abortWith(c, pricing.CodeForbidden, "A page of "+strconv.Quote(c.Request.Header.Get("Origin"))+" may not send "+NamespaceHeader+
			"; start the mock with --cors-origins naming that origin.")
		return
	}
	if !validNamespace(name) {
		abortWith(c, pricing.CodeInvalidNamespace,
			"The "+NamespaceHeader+" header must be 1 to 64 characters among A-Z, a-z, 0-9, '.', '_' and '-'.")
		return
	}
	ns, err := s.spaces.get(name)
	if err != nil {
		msg := "The mock already holds " + strconv.Itoa(s.limits.Namespaces) + " namespaces, the most it keeps"
		if !errors.Is(err, errNamespacesFull) {
			msg = "The namespace cannot be made: " + err.Error()
		}
		abortWith(c, pricing.CodeLimitReached, msg+"; reuse a name, or free one with DELETE "+adminPrefix+
			"/namespaces/NAME (unused ones go after "+s.limits.NamespaceIdle.String()+").")
		return
	}
	if ns != s.spaces.def {
		c.Set(nsKey, ns)
	}
	c.Next()
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
