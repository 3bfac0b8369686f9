package mockserver

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// versions are the base-path segments that serve the API (spec 9: the
// overview says v1, the endpoint pages say v1.0; both are the one version).
var versions = []string{"/v1", "/v1.0"}

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
	e.NoRoute(s.noRoute)
	// Gin sets the Allow header (the methods of the path) before this runs.
	e.NoMethod(func(c *gin.Context) {
		abortWith(c, pricing.CodeMethodNotAllowed,
			"This endpoint does not accept the "+c.Request.Method+" method; it accepts "+c.Writer.Header().Get("Allow")+".")
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

// registerAPI adds the API under each base path: one group per resource,
// authentication on the routes the spec protects.
func (s *Server) registerAPI(e *gin.Engine) {
	for _, v := range versions {
		api := e.Group(v)

		sessions := api.Group("/sessions")
		sessions.POST("", s.createSession)

		users := api.Group("/users")
		users.POST("", s.createUser)
		users.GET("/:userId", s.authenticate, s.getUser)
		users.PUT("/:userId", s.authenticate, s.updateUser)
		users.GET("/:userId/clients", s.authenticate, s.listUserClients)

		clients := api.Group("/clients", s.authenticate)
		clients.POST("", s.createClient)
		clients.GET("/:clientId", s.getClient)
		clients.PUT("/:clientId", s.updateClient)
		clients.GET("/:clientId/apps", s.listClientApps)

		apps := api.Group("/apps", s.authenticate)
		apps.POST("", s.createApp)
		apps.GET("/:appId", s.getApp)

		// Catalogues: no authentication.
		api.GET("/platforms", s.listPlatforms)
		api.GET("/currencies", s.listCurrencies)
		api.GET("/plans", s.listPlans)
		api.GET("/phoneCountries", s.listPhoneCountries)
		api.GET("/marketapps", s.listMarketapps)
	}
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

// noRoute answers an unknown path with a JSON 404 that names the closest
// known route, when one is close.
func (s *Server) noRoute(c *gin.Context) {
	msg := "There is no such endpoint."
	if r := closestRoute(c.Request.Method, c.Request.URL.Path); r != "" {
		msg += " Did you mean " + r + "?"
	}
	abortWith(c, pricing.CodeNotFound, msg)
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
