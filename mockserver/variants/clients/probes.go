package clients

import (
	"fmt"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// Probes tell servers of this area apart from the mock: what a request or
// a few answer from the server, which the mock must not answer (every blind
// audit's server has one; the catalogue's tests run them).
var Probes = map[string]probe.Probe{
	"post-clients-201": {Want: "201", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/clients", probe.Key, probe.ClientBody(nil)))
	}},
	"put-clients-204": {Want: "204", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(nil)))
	}},
	"client-name-limit-forgotten-on-put": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(map[string]any{"name": strings.Repeat("N", 256)})))
	}},
	"vat-of-255-refused": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"vat": strings.Repeat("9", 255)})))
	}},
	"address-city-limit-in-bytes": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(map[string]any{"addressCity": strings.Repeat("é", 200)})))
	}},
	"terms-case-insensitive": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"terms": "i agree"})))
	}},
	"app-accepted-on-put-clients": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(map[string]any{"app": probe.AppBody(nil)})))
	}},
	"post-clients-bad-app-keeps-client": {Want: "400 2", Run: func(c probe.Client) string {
		r := c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"app": map[string]any{"nextplan": map[string]any{"id": 1}}}))
		return fmt.Sprint(r.Status, " ", c.Clients())
	}},
	"currency-not-updated": {Want: "1", Run: func(c probe.Client) string {
		r := c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(map[string]any{"currency": map[string]any{"id": 2}}))
		return fmt.Sprint(probe.Obj(probe.Obj(r.Body)["currency"])["id"])
	}},
	"null-client-name-keeps-old": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(map[string]any{"name": nil})))
	}},
	"refused-put-clients-stores-name": {Want: "400 Renamed Ltd", Run: func(c probe.Client) string {
		r := c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(map[string]any{"name": "Renamed Ltd", "terms": "no"}))
		g := c.Do("GET", "/clients/1", probe.Key, nil)
		return fmt.Sprint(r.Status, " ", probe.Obj(g.Body)["name"])
	}},
	"currency-code-numeric-on-client-routes": {Want: "826", Run: func(c probe.Client) string {
		r := c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(nil))
		return fmt.Sprint(probe.Obj(probe.Obj(r.Body)["currency"])["code"])
	}},
	"clients-terms-any-case": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"terms": "i agree"})))
	}},
	"clients-invalid-app-keeps-client": {Want: "400 2", Run: func(c probe.Client) string {
		bad := map[string]any{"marketapp": map[string]any{"hash": strings.Repeat("0", 40)}, "nextplan": map[string]any{"id": 1}}
		r := c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"app": bad}))
		return fmt.Sprint(r.Status, " ", c.Clients())
	}},
	"clients-city-256": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"addressCity": strings.Repeat("c", 256)})))
	}},
	"clients-update-without-name-kept": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(map[string]any{"name": nil})))
	}},
	"clients-currency-code-numeric": {Want: "826", Run: func(c probe.Client) string {
		return probe.Member(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(nil)), "currency", "code")
	}},
}
