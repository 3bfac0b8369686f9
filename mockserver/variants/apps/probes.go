package apps

import (
	"fmt"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// Probes tell servers of this area apart from the mock: what a request or
// a few answer from the server, which the mock must not answer (every blind
// audit's server has one; the catalogue's tests run them).
var Probes = map[string]probe.Probe{
	"upper-case-hash-refused": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/apps", probe.Key, probe.AppBody(map[string]any{"marketapp": map[string]any{"hash": strings.ToUpper(probe.Hash)}})))
	}},
	"long-hash-truncated": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/apps", probe.Key, probe.AppBody(map[string]any{"marketapp": map[string]any{"hash": probe.Hash + "0"}})))
	}},
	"app-name-required-with-hash": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/apps", probe.Key, probe.AppBody(nil)))
	}},
	"app-name-wins-over-hash": {Want: "My Own <nil>", Run: func(c probe.Client) string {
		r := c.Do("POST", "/apps", probe.Key, probe.AppBody(map[string]any{"name": "My Own", "platform": map[string]any{"id": 2}}))
		return fmt.Sprint(probe.Obj(r.Body)["name"], " ", probe.Obj(probe.Obj(r.Body)["marketapp"])["hash"])
	}},
	"no-name-no-hash-wrong-code": {Want: pricing.CodeInvalidMarketappHash.String(), Run: func(c probe.Client) string {
		r := c.Do("POST", "/apps", probe.Key, map[string]any{"platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}})
		return fmt.Sprint(probe.FirstErr(r.Body)["error"])
	}},
	"nextplan-ignored": {Want: "false", Run: func(c probe.Client) string {
		r := c.Do("POST", "/apps", probe.Key, probe.AppBody(map[string]any{"nextplan": map[string]any{"id": 2}}))
		return fmt.Sprint(probe.Obj(probe.Obj(r.Body)["plan"])["isPro"])
	}},
	"platform-name-lower-case": {Want: "android", Run: func(c probe.Client) string {
		r := c.Do("POST", "/apps", probe.Key, probe.AppBody(nil))
		return fmt.Sprint(probe.Obj(probe.Obj(r.Body)["platform"])["name"])
	}},
	"write-key-uuid": {Want: "36", Run: func(c probe.Client) string {
		r := c.Do("POST", "/apps", probe.Key, probe.AppBody(nil))
		return fmt.Sprint(len(fmt.Sprint(probe.Obj(r.Body)["writeKey"])))
	}},
	"platforms-bare-array": {Want: "[]interface {}", Run: func(c probe.Client) string {
		return fmt.Sprintf("%T", c.Do("GET", "/platforms", nil, nil).Body)
	}},
	"platforms-under-data": {Want: "false", Run: func(c probe.Client) string {
		_, ok := probe.Obj(c.Do("GET", "/platforms", nil, nil).Body)["platforms"]
		return fmt.Sprint(ok)
	}},
	"legal-platforms-paged": {Want: "2", Run: func(c probe.Client) string {
		return fmt.Sprint(probe.Obj(c.Do("GET", "/platforms", nil, nil).Body)["total"])
	}},
	"legal-platforms-reversed": {Want: "iOS", Run: func(c probe.Client) string {
		l, _ := probe.Obj(c.Do("GET", "/platforms", nil, nil).Body)["platforms"].([]any)
		return fmt.Sprint(probe.Obj(l[0])["name"])
	}},
	"legal-upper-case-write-key": {Want: "200 true", Run: func(c probe.Client) string {
		r := c.Do("POST", "/apps", probe.Key, probe.AppBody(nil))
		k := fmt.Sprint(probe.Obj(r.Body)["writeKey"])
		return fmt.Sprint(r.Status, " ", len(k) == 32 && k == strings.ToUpper(k))
	}},
	"apps-hash-trimmed": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/apps", probe.Key, probe.AppBody(map[string]any{"marketapp": map[string]any{"hash": " " + probe.Hash + " "}})))
	}},
	"apps-name-required-with-hash": {Want: "400 name InvalidName", Run: func(c probe.Client) string {
		return probe.ErrorOf(c.Do("POST", "/apps", probe.Key, probe.AppBody(nil)))
	}},
	"apps-platform-name-lowercase": {Want: "android", Run: func(c probe.Client) string {
		return probe.Member(c.Do("POST", "/apps", probe.Key, probe.AppBody(nil)), "platform", "name")
	}},
	"apps-write-key-uuid": {Want: "36", Run: func(c probe.Client) string {
		return fmt.Sprint(len(probe.Member(c.Do("POST", "/apps", probe.Key, probe.AppBody(nil)), "writeKey")))
	}},
	"apps-missing-name-code": {Want: "400 name InvalidAppName", Run: func(c probe.Client) string {
		return probe.ErrorOf(c.Do("POST", "/apps", probe.Key, map[string]any{"platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}))
	}},
	"apps-nextplan-ignored": {Want: "false", Run: func(c probe.Client) string {
		return probe.Member(c.Do("POST", "/apps", probe.Key, probe.AppBody(map[string]any{"nextplan": map[string]any{"id": 2}})), "plan", "isPro")
	}},
}
