package auth

import (
	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// Probes tell servers of this area apart from the mock: what a request or
// a few answer from the server, which the mock must not answer (every blind
// audit's server has one; the catalogue's tests run them).
var Probes = map[string]probe.Probe{
	"two-credentials-forbidden": {Want: "403", Run: func(c probe.Client) string {
		tok := c.Token(probe.EmailA, probe.PasswordA)
		return probe.Status(c.PutUser(map[string]string{"Authorization": "api-key qa-api-key", "session-token": tok}, nil))
	}},
	"authorization-bare-key": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(map[string]string{"Authorization": "qa-api-key"}, nil))
	}},
	"bearer-session-token": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(map[string]string{"Authorization": "Bearer " + c.Token("qa@example.com", "qa-password")}, nil))
	}},
	"api-key-in-session-token-header": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(map[string]string{"session-token": "qa-api-key"}, nil))
	}},
	"query-session-token-ignored": {Want: "401", Run: func(c probe.Client) string {
		tok := c.Token("qa@example.com", "qa-password")
		return probe.Status(c.Do("PUT", "/users/1?sessionToken="+tok, nil, probe.UserBody(nil)))
	}},
	"session-header-ignored-on-put-clients": {Want: "401", Run: func(c probe.Client) string {
		tok := c.Token("qa@example.com", "qa-password")
		return probe.Status(c.Do("PUT", "/clients/1", map[string]string{"session-token": tok}, probe.ClientBody(nil)))
	}},
	"api-key-in-query-accepted": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/users/1?apiKey=qa-api-key", nil, probe.UserBody(nil)))
	}},
	"no-credentials-403": {Want: "403", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(nil, nil))
	}},
	"bad-api-key-403-on-post-apps": {Want: "403", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/apps", map[string]string{"Authorization": "api-key wrong-key"}, probe.AppBody(nil)))
	}},
	"validation-before-auth-on-post-clients": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/clients", nil, map[string]any{}))
	}},
	"unknown-client-403": {Want: "403", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/clients/999", probe.Key, probe.ClientBody(nil)))
	}},
	"foreign-user-404": {Want: "404", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/users/2", probe.Key, probe.UserBody(map[string]any{"email": "other@example.com"})))
	}},
	"auth-bearer-accepted": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Authorization("Bearer qa-api-key"), nil))
	}},
	"auth-token-query-snake-case": {Want: "200", Run: func(c probe.Client) string {
		tok := c.Token(probe.EmailA, probe.PasswordA)
		return probe.Status(c.Do("PUT", "/users/1?session_token="+tok, nil, probe.UserBody(nil)))
	}},
	"auth-session-token-in-authorization": {Want: "200", Run: func(c probe.Client) string {
		tok := c.Token(probe.EmailA, probe.PasswordA)
		return probe.Status(c.PutUser(probe.Authorization("session-token "+tok), nil))
	}},
	"auth-unknown-key-forbidden": {Want: "403", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Authorization("api-key no-such-key"), nil))
	}},
	"auth-other-user-not-found": {Want: "404", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/users/2", probe.Key, probe.UserBody(map[string]any{"email": "other@example.com"})))
	}},
}
