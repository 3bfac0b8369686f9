package mockserver

import (
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// versions are the base-path segments that serve the API (spec 9: the
// overview says v1, the endpoint pages say v1.0; both are the one version).
var versions = []string{"/v1", "/v1.0"}

// routes is the one route map of the API.
func (s *Server) routes() *gin.Engine {
	// SetMode only stores an atomic; release mode silences Gin's debug
	// printing of every route.
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.HandleMethodNotAllowed = true
	// A redirect would answer a non-JSON body; an unknown path is a JSON 404.
	e.RedirectTrailingSlash = false
	e.RedirectFixedPath = false
	e.Use(s.logRequests, recoverJSON)
	e.NoRoute(func(c *gin.Context) { notFound(c, "There is no such endpoint.") })
	e.NoMethod(func(c *gin.Context) {
		abortWith(c, http.StatusMethodNotAllowed, CodeMethodNotAllowed, "This endpoint does not accept the "+c.Request.Method+" method.")
	})

	for _, v := range s.faults.versions(versions) {
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
	return e
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
	s.logger.LogAttrs(c.Request.Context(), slog.LevelInfo, "request",
		slog.String("method", c.Request.Method),
		slog.String("path", c.Request.URL.Path),
		slog.Int("status", c.Writer.Status()),
		slog.Duration("duration", time.Since(start)),
	)
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
			abortWith(c, http.StatusInternalServerError, CodeInternal, "The server failed to answer this request.")
		}
		c.Abort()
	}()
	c.Next()
}
