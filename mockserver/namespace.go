package mockserver

import (
	"regexp"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// Namespaces let several developers or CI jobs share one mock without seeing
// each other's data: a request with the header X-Mock-Namespace: NAME is
// served from NAME's own store, seeded on first use, with its own request
// journal and fault rules. Requests without the header use the default
// namespace (the one --state persists and Server.Store returns).

// NamespaceHeader names the namespace of a request.
const NamespaceHeader = "X-Mock-Namespace"

// maxNamespaces bounds the namespaces besides the default one, so that a
// client inventing a name per request cannot exhaust the memory.
const maxNamespaces = 1000

var namespaceRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// namespace is the data of one namespace.
type namespace struct {
	name    string // "" for the default
	store   *pricing.Store
	journal *journal
	rules   *faultRules
}

// namespaces is the set of namespaces of a Server; safe for concurrent use.
type namespaces struct {
	mu    sync.Mutex
	named map[string]*namespace
	def   *namespace
	make  func(name string) *namespace
}

// get returns the namespace of a name, creating it (seeded) on first use.
// ok is false when the name is new and the set is full.
func (n *namespaces) get(name string) (*namespace, bool) {
	if name == "" {
		return n.def, true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if ns, ok := n.named[name]; ok {
		return ns, true
	}
	if len(n.named) >= maxNamespaces {
		return nil, false
	}
	ns := n.make(name)
	n.named[name] = ns
	return ns, true
}

// all returns every namespace, the default first.
func (n *namespaces) all() []*namespace {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := []*namespace{n.def}
	for _, ns := range n.named {
		out = append(out, ns)
	}
	return out
}

// nsKey is the gin context key of the request's namespace.
const nsKey = "mockserver.namespace"

// resolveNamespace finds the request's namespace from its header, answering
// 400 for a bad name or when no more namespaces can be made.
func (s *Server) resolveNamespace(c *gin.Context) {
	name := c.GetHeader(NamespaceHeader)
	if name != "" && !namespaceRE.MatchString(name) {
		abortWith(c, pricing.CodeInvalidNamespace,
			"The "+NamespaceHeader+" header must be 1 to 64 characters among A-Z, a-z, 0-9, '.', '_' and '-'.")
		return
	}
	ns, ok := s.spaces.get(name)
	if !ok {
		abortWith(c, pricing.CodeInvalidNamespace,
			"The mock already holds 1000 namespaces, the most it keeps; reuse a name or restart the mock.")
		return
	}
	c.Set(nsKey, ns)
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
