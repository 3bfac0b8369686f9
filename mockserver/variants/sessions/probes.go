package sessions

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// Probes tell servers of this area apart from the mock: what a request or
// a few answer from the server, which the mock must not answer (every blind
// audit's server has one; the catalogue's tests run them).
var Probes = map[string]probe.Probe{
	"login-answers-the-session-it-carries": {Want: "200 1", Run: func(c probe.Client) string {
		a := c.Token(probe.EmailA, probe.PasswordA)
		r := c.Do("POST", "/sessions", map[string]string{"session-token": a}, map[string]any{"email": "other@example.com", "password": "other-password"})
		return fmt.Sprint(r.Status, " ", probe.Member(r, "userId"))
	}},
	"session-token-of-last-login": {Want: "403", Run: func(c probe.Client) string {
		a := c.Token("qa@example.com", "qa-password")
		c.Token("other@example.com", "other-password")
		return probe.Status(c.PutUser(map[string]string{"session-token": a}, nil))
	}},
	"session-user-id-of-first-login": {Want: "1", Run: func(c probe.Client) string {
		c.Token("qa@example.com", "qa-password")
		_, o := c.Login("other@example.com", "other-password")
		return fmt.Sprint(o["userId"])
	}},
	"session-without-client-id": {Want: "false", Run: func(c probe.Client) string {
		_, o := c.Login("qa@example.com", "qa-password")
		_, ok := o["clientId"]
		return fmt.Sprint(ok)
	}},
	"session-created-date-only": {Want: "10", Run: func(c probe.Client) string {
		_, o := c.Login("qa@example.com", "qa-password")
		return fmt.Sprint(len(fmt.Sprint(o["created"])))
	}},
	"plus-email-login-fails": {Want: "200 401", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"email": "qa+tag@example.com"})
		s, _ := c.Login("qa+tag@example.com", "qa-password")
		return fmt.Sprint(r.Status, " ", s)
	}},
	"legal-prefixed-session-tokens": {Want: "sess- 200 200", Run: func(c probe.Client) string {
		tok := c.Token("qa@example.com", "qa-password")
		h := c.PutUser(map[string]string{"session-token": tok}, nil)
		q := c.Do("PUT", "/users/1?sessionToken="+tok, nil, probe.UserBody(nil))
		return fmt.Sprint(tok[:5], " ", h.Status, " ", q.Status)
	}},
	"legal-large-session-ids": {Want: "true", Run: func(c probe.Client) string {
		_, o := c.Login("qa@example.com", "qa-password")
		n, _ := o["id"].(json.Number).Int64()
		return fmt.Sprint(n > 1000000)
	}},
	"sessions-password-any-case": {Want: "200", Run: func(c probe.Client) string {
		st, _ := c.Login(probe.EmailA, strings.ToUpper(probe.PasswordA))
		return fmt.Sprint(st)
	}},
	"sessions-user-id-string": {Want: "string", Run: func(c probe.Client) string {
		_, o := c.Login(probe.EmailA, probe.PasswordA)
		return fmt.Sprintf("%T", o["userId"])
	}},
	"sessions-created-date-only": {Want: "10", Run: func(c probe.Client) string {
		_, o := c.Login(probe.EmailA, probe.PasswordA)
		s, _ := o["created"].(string)
		return fmt.Sprint(len(s))
	}},
	"legal-session-id-offset": {Want: "200 true", Run: func(c probe.Client) string {
		st, o := c.Login(probe.EmailA, probe.PasswordA)
		n, _ := o["id"].(fmt.Stringer)
		var id int64
		if n != nil {
			fmt.Sscan(n.String(), &id)
		}
		return fmt.Sprint(st, " ", id > 1000000)
	}},
	"legal-token-prefixed": {Want: "true 200", Run: func(c probe.Client) string {
		tok := c.Token(probe.EmailA, probe.PasswordA)
		r := c.PutUser(map[string]string{"session-token": tok}, nil)
		q := c.Do("PUT", "/users/1?sessionToken="+tok, nil, probe.UserBody(nil))
		return fmt.Sprint(strings.HasPrefix(tok, "st_"), " ", r.Status*q.Status/200)
	}},
}
