package representation

import (
	"fmt"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// Probes tell servers of this area apart from the mock: what a request or
// a few answer from the server, which the mock must not answer (every blind
// audit's server has one; the catalogue's tests run them).
var Probes = map[string]probe.Probe{
	"single-error-as-object": {Want: "map[string]interface {}", Run: func(c probe.Client) string {
		return fmt.Sprintf("%T", c.PutUser(probe.Key, map[string]any{"email": "nope"}).Body)
	}},
	"errors-without-message-on-post-apps": {Want: "false", Run: func(c probe.Client) string {
		_, ok := probe.FirstErr(c.Do("POST", "/apps", probe.Key, map[string]any{}).Body)["message"]
		return fmt.Sprint(ok)
	}},
	"error-code-key-on-put-clients": {Want: "false", Run: func(c probe.Client) string {
		_, ok := probe.FirstErr(c.Do("PUT", "/clients/1", probe.Key, map[string]any{}).Body)["error"]
		return fmt.Sprint(ok)
	}},
	"validation-422-on-post-clients": {Want: "422", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/clients", probe.Key, map[string]any{}))
	}},
	"legal-alphabetical-properties": {Want: "200 true", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, nil)
		return fmt.Sprint(r.Status, " ", strings.HasPrefix(r.Raw, `{"created"`))
	}},
	"legal-pretty-json": {Want: "200 true", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, nil)
		return fmt.Sprint(r.Status, " ", strings.Contains(r.Raw, "\n  "))
	}},
	"legal-other-error-messages": {Want: "400 true", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"email": "nope"})
		return fmt.Sprint(r.Status, " ", strings.HasPrefix(fmt.Sprint(probe.FirstErr(r.Body)["message"]), "Request refused"))
	}},
	"legal-errors-last-field-first": {Want: "400 lastName", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"firstName": "", "lastName": ""})
		return fmt.Sprint(r.Status, " ", probe.FirstErr(r.Body)["fieldName"])
	}},
	"legal-non-400-errors-as-object": {Want: "401 Unauthorized", Run: func(c probe.Client) string {
		r := c.PutUser(nil, nil)
		return fmt.Sprint(r.Status, " ", probe.Obj(r.Body)["error"])
	}},
	"legal-dates-with-milliseconds": {Want: "2025-01-06T09:00:00.000Z", Run: func(c probe.Client) string {
		return fmt.Sprint(probe.Obj(c.PutUser(probe.Key, nil).Body)["created"])
	}},
	"legal-dates-with-offset": {Want: "2025-01-06T09:00:00+00:00", Run: func(c probe.Client) string {
		return fmt.Sprint(probe.Obj(c.PutUser(probe.Key, nil).Body)["created"])
	}},
	"legal-plain-json-content-type": {Want: "application/json", Run: func(c probe.Client) string {
		return c.PutUser(probe.Key, nil).Header.Get("Content-Type")
	}},
	"repr-single-error-object": {Want: "400 object", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"lastName": ""})
		kind := "other"
		switch r.Body.(type) {
		case []any:
			kind = "array"
		case map[string]any:
			kind = "object"
		}
		return fmt.Sprint(r.Status, " ", kind)
	}},
	"repr-client-date-day-first": {Want: "06/01/2025 09:00:00", Run: func(c probe.Client) string {
		return probe.Member(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(nil)), "createdDate")
	}},
	"repr-nested-error-no-message": {Want: "400 currency.id false", Run: func(c probe.Client) string {
		r := c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"currency": map[string]any{"id": 999}}))
		e := probe.FirstErr(r.Body)
		_, has := e["message"]
		return fmt.Sprint(r.Status, " ", e["fieldName"], " ", has)
	}},
	"legal-collection-total": {Want: "1 1", Run: func(c probe.Client) string {
		r := c.Do("GET", "/users/1/clients", probe.Key, nil)
		l, _ := probe.Obj(r.Body)["clients"].([]any)
		return fmt.Sprint(len(l), " ", probe.Member(r, "total"))
	}},
	"legal-error-messages": {Want: `400 lastName Field "lastName" was rejected (InvalidLastName).`, Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"lastName": ""})
		e := probe.FirstErr(r.Body)
		return fmt.Sprint(r.Status, " ", e["fieldName"], " ", e["message"])
	}},
	"legal-errors-reversed": {Want: "400 phoneExtension InvalidPhoneExtension", Run: func(c probe.Client) string {
		return probe.ErrorOf(c.PutUser(probe.Key, map[string]any{"lastName": "", "phoneExtension": "abc"}))
	}},
	"legal-dates-milliseconds": {Want: "200 2025-01-06T09:00:00.000Z", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, nil)
		return fmt.Sprint(r.Status, " ", probe.Member(r, "created"))
	}},
}
