package mockserver

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/api"
	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// routes is the one route map: the API, the admin API and the documentation.
//
// The middleware runs in this order, each for a reason:
//   - CORS first, so that a browser's preflight is answered before anything
//     asks it for credentials, and every answer (errors too) carries the
//     CORS headers a page needs to read it;
//   - the request log and the panic guard;
//   - then, for API requests only (not /__admin, not the documentation): the
//     namespace, the state file, the journal (which so records injected
//     answers and delays), and the controls (latency, X-Mock-*, fault rules);
//     admin calls take the namespace too, and then guardAdmin (admin.go).
func (s *Server) routes() *gin.Engine {
	// SetMode only stores an atomic; release mode silences Gin's debug
	// printing of every route.
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.HandleMethodNotAllowed = true
	// A redirect would answer a non-JSON body; an unknown path is a JSON 404.
	e.RedirectTrailingSlash = false
	e.RedirectFixedPath = false
	admin := adminPrefix
	if s.opts.NoAdmin {
		admin = ""
	}
	e.Use(s.announceSeed, s.logRequests, corsMiddleware(s.opts.CORSOrigins, admin), recoverJSON, s.apiOnly(s.resolveNamespace, true), s.apiOnly(s.boundBodies, true), s.apiOnly(s.persistChanges, true))
	if !s.opts.NoAdmin {
		e.Use(s.apiOnly(s.journalRequests, false))
	}
	e.Use(s.apiOnly(s.control, false))
	// A path that names no route is the API's to answer (404, or 405 for a
	// path of the API with another method); the admin API's own paths of
	// another method answer 405 here, Gin having set their Allow header.
	e.NoRoute(s.serveAPI)
	e.NoMethod(func(c *gin.Context) {
		if s.docPaths[c.Request.URL.Path] || !underVersion(c.Request.URL.Path) {
			abortWith(c, pricing.CodeMethodNotAllowed,
				"This endpoint does not accept the "+c.Request.Method+" method; it accepts "+c.Writer.Header().Get("Allow")+".")
			return
		}
		s.serveAPI(c)
	})

	s.registerAPI(e)
	if !s.opts.NoAdmin {
		s.registerAdmin(e)
	}

	before := map[string]bool{}
	for _, r := range e.Routes() {
		before[r.Path] = true
	}
	s.registerDocs(e)
	s.docPaths = map[string]bool{}
	for _, r := range e.Routes() {
		if !before[r.Path] {
			s.docPaths[r.Path] = true
		}
	}
	return e
}

// registerAPI adds the API's route table (package api) under each version
// segment, every route answered by api.Serve through serveAPI.
func (s *Server) registerAPI(e *gin.Engine) {
	for _, v := range api.Versions {
		for _, r := range api.Routes() {
			e.Handle(r.Method, "/"+v+r.Pattern, s.serveAPI)
		}
	}
}

// underVersion reports whether a path is under a version segment the API
// serves.
func underVersion(path string) bool {
	for _, v := range api.Versions {
		if strings.HasPrefix(path, "/"+v+"/") {
			return true
		}
	}
	return false
}

// apiOnly runs h for requests to the API (admin calls too when withAdmin),
// never for the documentation: the home page and the OpenAPI document are
// not journaled, delayed or failed, whatever the rules say.
func (s *Server) apiOnly(h gin.HandlerFunc, withAdmin bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := c.Request.URL.Path
		admin := !s.opts.NoAdmin && (p == adminPrefix || strings.HasPrefix(p, adminPrefix+"/"))
		if s.docPaths[p] || (admin && !withAdmin) {
			c.Next()
			return
		}
		h(c)
	}
}

// logRequests writes one line per request. The path is logged without its
// query because the query may carry a sessionToken; no header is logged.
func (s *Server) logRequests(c *gin.Context) {
	if s.logger == nil {
		c.Next()
		return
	}
	start := time.Now()
	c.Next()
	// The record is made here rather than by Logger.LogAttrs, which would
	// look up its caller's program counter on every request for a source
	// the handler does not print.
	h := s.logger.Handler()
	ctx := c.Request.Context()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	took := time.Since(start)
	r := slog.NewRecord(start.Add(took), slog.LevelInfo, "request", 0)
	r.AddAttrs(
		slog.String("method", c.Request.Method),
		slog.String("path", c.Request.URL.Path),
		slog.Int("status", c.Writer.Status()),
		slog.Duration("duration", took),
	)
	if why := c.GetString(corsRefusedKey); why != "" {
		r.AddAttrs(slog.String("refused", why))
	}
	_ = h.Handle(ctx, r)
}

// recoverJSON turns a panic into a 500 JSON answer. No input should reach it;
// it exists so that a bug answers in the API's error shape.
func recoverJSON(c *gin.Context) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if err, ok := r.(error); ok && errors.Is(err, http.ErrAbortHandler) {
			panic(r)
		}
		if !c.Writer.Written() {
			internalError(c, "The server failed to answer this request.")
		}
		c.Abort()
	}()
	c.Next()
}
