package mockserver

import (
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// adminPrefix is where the admin API lives, outside the versioned API.
const adminPrefix = "/__admin"

// maxStateBody is the largest state document PUT /__admin/state reads.
const maxStateBody = 32 << 20

// registerAdmin adds the admin API. Every call acts on the namespace of its
// X-Mock-Namespace header, the default one without it.
func (s *Server) registerAdmin(e *gin.Engine) {
	a := e.Group(adminPrefix)
	a.POST("/reset", s.adminReset)
	a.GET("/state", s.adminGetState)
	a.PUT("/state", s.adminPutState)
	a.GET("/requests", s.adminListRequests)
	a.DELETE("/requests", s.adminClearRequests)
	a.POST("/faults", s.adminAddFault)
	a.GET("/faults", s.adminListFaults)
	a.DELETE("/faults", s.adminClearFaults)
	a.DELETE("/faults/:id", s.adminRemoveFault)
}

func nsName(ns *namespace) string {
	if ns.name == "" {
		return "default"
	}
	return ns.name
}

// adminReset handles POST /__admin/reset: the namespace's store back to the
// seed. Its journal and rules stay; they have their own DELETE.
func (s *Server) adminReset(c *gin.Context) {
	ns := s.nsFor(c)
	ns.store.Reset(s.currentSeed())
	writeJSON(c, http.StatusOK, gin.H{"namespace": nsName(ns), "reset": true})
}

// adminGetState handles GET /__admin/state.
func (s *Server) adminGetState(c *gin.Context) {
	writeJSON(c, http.StatusOK, s.storeFor(c).Export())
}

// adminPutState handles PUT /__admin/state: the document replaces the
// namespace's data, or, with any problem, changes nothing and answers 400
// with the problems. It answers the state as stored (secrets hashed).
func (s *Server) adminPutState(c *gin.Context) {
	b, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxStateBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			abortWith(c, pricing.CodeBodyTooLarge, "The state document is larger than 32 MiB.")
			return
		}
		invalidBody(c, "The request body could not be read.")
		return
	}
	st, err := pricing.ParseState(b)
	if err != nil {
		abortWith(c, pricing.CodeInvalidState, "The state was not imported: "+err.Error()+".")
		return
	}
	store := s.storeFor(c)
	if errs := store.Import(st); len(errs) > 0 {
		fieldErrors(c, errs)
		return
	}
	writeJSON(c, http.StatusOK, store.Export())
}

// adminListRequests handles GET /__admin/requests: the journal, newest first.
func (s *Server) adminListRequests(c *gin.Context) {
	writeJSON(c, http.StatusOK, gin.H{"requests": s.nsFor(c).journal.list(), "limit": journalSize})
}

// adminClearRequests handles DELETE /__admin/requests.
func (s *Server) adminClearRequests(c *gin.Context) {
	writeJSON(c, http.StatusOK, gin.H{"deleted": s.nsFor(c).journal.clear()})
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
