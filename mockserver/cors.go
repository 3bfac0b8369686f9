package mockserver

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// What a browser may send to the mock from another origin. Content-Type is
// listed because application/json is not a CORS-safelisted type; the X-Mock-*
// headers are the per-request controls of the admin API.
var (
	corsAllowMethods = strings.Join([]string{
		http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions,
	}, ", ")
	corsAllowHeaders = strings.Join([]string{
		"Authorization", "session-token", "Content-Type",
		"X-Mock-Namespace", "X-Mock-Delay", "X-Mock-Status",
	}, ", ")
	// A page reads a response header that is not CORS-safelisted only when
	// it is exposed; Allow is how a 405 names the methods of its path.
	corsExposeHeaders = "Allow"
)

// corsMaxAge lets a browser reuse a preflight answer for ten minutes:
// long enough that a page does not preflight every call, short enough that
// restarting the mock with other --cors-origins takes effect soon (Chromium
// caps the value at two hours anyway).
const corsMaxAge = 600

// corsMiddleware lets pages on other origins call the mock. With no origins,
// every origin may; otherwise only the listed ones ("*" in the list also
// means every origin). It must run before authentication: a browser sends a
// preflight without the credentials it is asking permission to send.
//
// The admin API (paths under admin, when it is not "") is another matter: a
// page of any site could reset, export or fault the mock through it, so it
// answers CORS only to the origins the list names one by one, never to "*"
// or by default.
//
// The allowed origin is echoed rather than answered with "*", with
// Allow-Credentials, so that a page that fetches with credentials: "include"
// (axios withCredentials, for one) works too; the mock sets no cookies, so
// this gives a page nothing it could not read anyway.
func corsMiddleware(origins []string, admin string) gin.HandlerFunc {
	allowed := map[string]bool{}
	named := map[string]bool{} // listed one by one: the admin API's
	anyOrigin := true
	for _, o := range origins {
		o = normalizeOrigin(o)
		if o == "" {
			continue
		}
		if o != "*" {
			named[o] = true
		}
		if o == "*" || allowed == nil {
			allowed = nil
			anyOrigin = true
			continue
		}
		anyOrigin = false
		allowed[o] = true
	}

	return func(c *gin.Context) {
		h := c.Writer.Header()
		// Whether CORS headers are sent depends on Origin, so a cache that
		// stores one answer must not hand it to another origin.
		h.Add("Vary", "Origin")
		origin := c.GetHeader("Origin")
		if origin == "" {
			c.Next()
			return
		}
		preflight := c.Request.Method == http.MethodOptions && c.GetHeader("Access-Control-Request-Method") != ""
		p := c.Request.URL.Path
		if admin != "" && (p == admin || strings.HasPrefix(p, admin+"/")) {
			if !named[normalizeOrigin(origin)] {
				// No CORS headers: the page may not read the answer, and
				// guardAdmin refuses the request itself.
				if preflight {
					refuseCORS(c, "The admin API answers no page of another origin ("+origin+"); start the mock with --cors-origins naming it.")
					return
				}
				c.Next()
				return
			}
		} else if !anyOrigin && !allowed[normalizeOrigin(origin)] {
			if preflight {
				refuseCORS(c, "The origin "+origin+" is not allowed to call this mock; start it with --cors-origins including it.")
				return
			}
			// The request is served, the browser just may not read the
			// answer: CORS protects the page's reader, not the server.
			c.Next()
			return
		}
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
		if !preflight {
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
			c.Next()
			return
		}
		h.Set("Access-Control-Allow-Methods", corsAllowMethods)
		h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
		h.Set("Access-Control-Max-Age", strconv.Itoa(corsMaxAge))
		c.AbortWithStatus(http.StatusNoContent)
	}
}

// corsRefusedKey holds, in a request's context, why its preflight was
// refused, for the request log: a browser shows a developer only "CORS
// error", so the mock's log is where the reason must be.
const corsRefusedKey = "corsRefused"

func refuseCORS(c *gin.Context, why string) {
	c.Set(corsRefusedKey, why)
	abortWith(c, pricing.CodeForbidden, why)
}

// normalizeOrigin makes "HTTP://Localhost:5173/" and "http://localhost:5173"
// the same origin, as a browser serialises it: lower case, no trailing slash.
func normalizeOrigin(o string) string {
	return strings.TrimRight(strings.ToLower(strings.TrimSpace(o)), "/")
}
