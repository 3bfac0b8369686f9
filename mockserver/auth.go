package mockserver

import (
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
)

// callerKey is the gin context key of the authenticated user's id.
const callerKey = "mockserver.caller"

// authenticate is the middleware of the three schemes of spec section 5:
// "Authorization: api-key <KEY>", header "session-token: <TOKEN>" and query
// "sessionToken=<TOKEN>". Every credential present must be valid and all must
// name the same user; otherwise, or when none is present, the answer is 401.
func (s *Server) authenticate(c *gin.Context) {
	id, msg := s.caller(c)
	if msg != "" {
		abortWith(c, pricing.CodeUnauthorized, msg)
		return
	}
	c.Set(callerKey, id)
	c.Next()
}

func (s *Server) caller(c *gin.Context) (int64, string) {
	var ids []int64
	for _, v := range c.Request.Header.Values("Authorization") {
		key, ok := apiKey(v)
		if !ok {
			return 0, "The Authorization header must be \"api-key <API_KEY>\"."
		}
		id, ok := s.storeFor(c).UserIDForAPIKey(key)
		if !ok {
			return 0, "The API key is not valid."
		}
		ids = append(ids, id)
	}
	tokens := c.Request.Header.Values("session-token")
	if c.Request.URL.RawQuery != "" {
		tokens = slices.Concat(tokens, c.Request.URL.Query()["sessionToken"])
	}
	for _, t := range tokens {
		if t == "" {
			return 0, "The session token is empty."
		}
		id, ok := s.storeFor(c).UserIDForToken(t)
		if !ok {
			return 0, "The session token is not valid."
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return 0, "Authentication is required: an api-key Authorization header, a session-token header or a sessionToken query argument."
	}
	for _, id := range ids[1:] {
		if id != ids[0] {
			return 0, "The credentials of this request name different users."
		}
	}
	return ids[0], ""
}

// apiKey parses "api-key <KEY>": the scheme word in any case, one or more
// spaces, and a key without white space.
func apiKey(header string) (string, bool) {
	const scheme = "api-key"
	if len(header) <= len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) || header[len(scheme)] != ' ' {
		return "", false
	}
	key := strings.TrimLeft(header[len(scheme):], " ")
	if key == "" || strings.ContainsAny(key, " \t\r\n") {
		return "", false
	}
	return key, true
}

// callerID is the user authenticate stored in the context.
func callerID(c *gin.Context) int64 {
	return c.GetInt64(callerKey)
}
