package incoming

import (
	"fmt"
	"strings"

	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// Account A's login.
const (
	email    = "qa@example.com"
	password = "qa-password"
)

// key is account A's api-key header with another value.
func key(v string) map[string]string { return map[string]string{"Authorization": v} }

// errOf is the first error of an answer: its status, fieldName and code.
func errOf(r probe.Resp) string {
	e := probe.FirstErr(r.Body)
	return fmt.Sprint(r.Status, " ", e["fieldName"], " ", e["error"])
}

// get reads a member of an object answer, as text.
func get(r probe.Resp, path ...string) string {
	var v any = r.Body
	for _, p := range path {
		v = probe.Obj(v)[p]
	}
	return fmt.Sprint(v)
}

// Probes tell each server from the mock.
var Probes = map[string]probe.Probe{
	// auth
	"b2-auth-bearer-accepted": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(key("Bearer qa-api-key"), nil))
	}},
	"b2-auth-token-query-snake-case": {Want: "200", Run: func(c probe.Client) string {
		tok := c.Token(email, password)
		return probe.Status(c.Do("PUT", "/users/1?session_token="+tok, nil, probe.UserBody(nil)))
	}},
	"b2-auth-session-token-in-authorization": {Want: "200", Run: func(c probe.Client) string {
		tok := c.Token(email, password)
		return probe.Status(c.PutUser(key("session-token "+tok), nil))
	}},
	"b2-auth-unknown-key-forbidden": {Want: "403", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(key("api-key no-such-key"), nil))
	}},
	"b2-auth-other-user-not-found": {Want: "404", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/users/2", probe.Key, probe.UserBody(map[string]any{"email": "other@example.com"})))
	}},

	// users
	"b2-users-password-five-characters": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"password": "abcde"}))
	}},
	"b2-users-empty-password-keeps": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"password": ""}))
	}},
	"b2-users-refused-email-stored": {Want: "400 200", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"email": "moved@example.com", "firstName": ""})
		st, _ := c.Login("moved@example.com", password)
		return fmt.Sprint(r.Status, " ", st)
	}},
	"b2-users-last-name-code-case": {Want: "400 lastName InvalidLastname", Run: func(c probe.Client) string {
		return errOf(c.PutUser(probe.Key, map[string]any{"lastName": ""}))
	}},
	"b2-users-first-name-truncated": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"firstName": strings.Repeat("f", 256)}))
	}},

	// clients
	"b2-clients-terms-any-case": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"terms": "i agree"})))
	}},
	"b2-clients-invalid-app-keeps-client": {Want: "400 2", Run: func(c probe.Client) string {
		bad := map[string]any{"marketapp": map[string]any{"hash": strings.Repeat("0", 40)}, "nextplan": map[string]any{"id": 1}}
		r := c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"app": bad}))
		return fmt.Sprint(r.Status, " ", c.Clients())
	}},
	"b2-clients-city-256": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"addressCity": strings.Repeat("c", 256)})))
	}},
	"b2-clients-update-without-name-kept": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(map[string]any{"name": nil})))
	}},
	"b2-clients-currency-code-numeric": {Want: "826", Run: func(c probe.Client) string {
		return get(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(nil)), "currency", "code")
	}},

	// apps
	"b2-apps-hash-trimmed": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.Do("POST", "/apps", probe.Key, probe.AppBody(map[string]any{"marketapp": map[string]any{"hash": " " + probe.Hash + " "}})))
	}},
	"b2-apps-name-required-with-hash": {Want: "400 name InvalidName", Run: func(c probe.Client) string {
		return errOf(c.Do("POST", "/apps", probe.Key, probe.AppBody(nil)))
	}},
	"b2-apps-platform-name-lowercase": {Want: "android", Run: func(c probe.Client) string {
		return get(c.Do("POST", "/apps", probe.Key, probe.AppBody(nil)), "platform", "name")
	}},
	"b2-apps-write-key-uuid": {Want: "36", Run: func(c probe.Client) string {
		return fmt.Sprint(len(get(c.Do("POST", "/apps", probe.Key, probe.AppBody(nil)), "writeKey")))
	}},
	"b2-apps-missing-name-code": {Want: "400 name InvalidAppName", Run: func(c probe.Client) string {
		return errOf(c.Do("POST", "/apps", probe.Key, map[string]any{"platform": map[string]any{"id": 1}, "nextplan": map[string]any{"id": 1}}))
	}},
	"b2-apps-nextplan-ignored": {Want: "false", Run: func(c probe.Client) string {
		return get(c.Do("POST", "/apps", probe.Key, probe.AppBody(map[string]any{"nextplan": map[string]any{"id": 2}})), "plan", "isPro")
	}},

	// sessions
	"b2-sessions-password-any-case": {Want: "200", Run: func(c probe.Client) string {
		st, _ := c.Login(email, strings.ToUpper(password))
		return fmt.Sprint(st)
	}},
	"b2-sessions-user-id-string": {Want: "string", Run: func(c probe.Client) string {
		_, o := c.Login(email, password)
		return fmt.Sprintf("%T", o["userId"])
	}},
	"b2-sessions-created-date-only": {Want: "10", Run: func(c probe.Client) string {
		_, o := c.Login(email, password)
		s, _ := o["created"].(string)
		return fmt.Sprint(len(s))
	}},

	// representation
	"b2-repr-single-error-object": {Want: "400 object", Run: func(c probe.Client) string {
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
	"b2-repr-client-date-day-first": {Want: "06/01/2025 09:00:00", Run: func(c probe.Client) string {
		return get(c.Do("PUT", "/clients/1", probe.Key, probe.ClientBody(nil)), "createdDate")
	}},
	"b2-repr-nested-error-no-message": {Want: "400 currency.id false", Run: func(c probe.Client) string {
		r := c.Do("POST", "/clients", probe.Key, probe.ClientBody(map[string]any{"currency": map[string]any{"id": 999}}))
		e := probe.FirstErr(r.Body)
		_, has := e["message"]
		return fmt.Sprint(r.Status, " ", e["fieldName"], " ", has)
	}},

	// legal
	"b2-legal-session-id-offset": {Want: "200 true", Run: func(c probe.Client) string {
		st, o := c.Login(email, password)
		n, _ := o["id"].(fmt.Stringer)
		var id int64
		if n != nil {
			fmt.Sscan(n.String(), &id)
		}
		return fmt.Sprint(st, " ", id > 1000000)
	}},
	"b2-legal-collection-total": {Want: "1 1", Run: func(c probe.Client) string {
		r := c.Do("GET", "/users/1/clients", probe.Key, nil)
		l, _ := probe.Obj(r.Body)["clients"].([]any)
		return fmt.Sprint(len(l), " ", get(r, "total"))
	}},
	"b2-legal-error-messages": {Want: `400 lastName Field "lastName" was rejected (InvalidLastName).`, Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"lastName": ""})
		e := probe.FirstErr(r.Body)
		return fmt.Sprint(r.Status, " ", e["fieldName"], " ", e["message"])
	}},
	"b2-legal-errors-reversed": {Want: "400 phoneExtension InvalidPhoneExtension", Run: func(c probe.Client) string {
		return errOf(c.PutUser(probe.Key, map[string]any{"lastName": "", "phoneExtension": "abc"}))
	}},
	"b2-legal-dates-milliseconds": {Want: "200 2025-01-06T09:00:00.000Z", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, nil)
		return fmt.Sprint(r.Status, " ", get(r, "created"))
	}},
	"b2-legal-token-prefixed": {Want: "true 200", Run: func(c probe.Client) string {
		tok := c.Token(email, password)
		r := c.PutUser(map[string]string{"session-token": tok}, nil)
		q := c.Do("PUT", "/users/1?sessionToken="+tok, nil, probe.UserBody(nil))
		return fmt.Sprint(strings.HasPrefix(tok, "st_"), " ", r.Status*q.Status/200)
	}},
}
