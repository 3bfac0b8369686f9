package users

import (
	"fmt"
	"strings"
	"sync"

	"github.com/pricing-contract/pricing-contract/mockserver/pricing"
	"github.com/pricing-contract/pricing-contract/mockserver/variants/probe"
)

// Probes tell servers of this area apart from the mock: what a request or
// a few answer from the server, which the mock must not answer (every blind
// audit's server has one; the catalogue's tests run them).
var Probes = map[string]probe.Probe{
	"update-answered-with-the-latest-record": {Want: "true", Run: func(c probe.Client) string {
		// Two updates at once, tried until one is answered with the
		// other's first name (a race shows in some tries).
		for range 50 {
			var wg sync.WaitGroup
			got := make([]string, 2)
			for i, name := range []string{"Probe-One", "Probe-Two"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i] = fmt.Sprint(probe.Obj(c.PutUser(probe.Key, map[string]any{"firstName": name}).Body)["firstName"])
				}()
			}
			wg.Wait()
			if got[0] != "Probe-One" || got[1] != "Probe-Two" {
				return "true"
			}
		}
		return "false"
	}},
	"new-email-login-fails": {Want: "200 401", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"email": "qa2@example.com"})
		s, _ := c.Login("qa2@example.com", "qa-password")
		return fmt.Sprint(r.Status, " ", s)
	}},
	"password-ignored-on-update": {Want: "200 401", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"password": "brand-new-pw"})
		s, _ := c.Login("qa@example.com", "brand-new-pw")
		return fmt.Sprint(r.Status, " ", s)
	}},
	"null-password-refused": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, nil))
	}},
	"password-of-six-refused": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"password": "abcdef"}))
	}},
	"password-last-changed-frozen": {Want: "2025-01-06T09:00:00Z", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"password": "brand-new-pw"})
		return fmt.Sprint(probe.Obj(r.Body)["passwordLastChanged"])
	}},
	"password-echoed": {Want: "true", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"password": "brand-new-pw"})
		_, ok := probe.Obj(r.Body)["password"]
		return fmt.Sprint(ok)
	}},
	"refused-put-users-stores-password": {Want: "400 200", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"email": "nope", "password": "brand-new-pw"})
		s, _ := c.Login("qa@example.com", "brand-new-pw")
		return fmt.Sprint(r.Status, " ", s)
	}},
	"plus-email-refused": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"email": "qa+tag@example.com"}))
	}},
	"email-display-name-accepted": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"email": "Quinn <qa3@example.com>"}))
	}},
	"own-email-case-change-refused": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"email": "QA@example.com"}))
	}},
	"email-of-255-refused": {Want: "400", Run: func(c probe.Client) string {
		if len(probe.Email255) != 255 {
			c.T.Fatalf("the email is %d long", len(probe.Email255))
		}
		return probe.Status(c.PutUser(probe.Key, map[string]any{"email": probe.Email255}))
	}},
	"first-name-of-255-refused": {Want: "400", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"firstName": strings.Repeat("Q", 255)}))
	}},
	"last-name-truncated": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"lastName": strings.Repeat("A", 256)}))
	}},
	"first-name-error-coded-last-name": {Want: pricing.CodeInvalidLastName.String(), Run: func(c probe.Client) string {
		return fmt.Sprint(probe.FirstErr(c.PutUser(probe.Key, map[string]any{"firstName": ""}).Body)["error"])
	}},
	"unknown-phone-country-ignored": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"phoneCountry": map[string]any{"id": 999}}))
	}},
	"empty-phone-number-ignored": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"phoneNumber": ""}))
	}},
	"dial-code-without-plus": {Want: "44", Run: func(c probe.Client) string {
		return fmt.Sprint(probe.Obj(probe.Obj(c.PutUser(probe.Key, nil).Body)["phoneCountry"])["dialCode"])
	}},
	"phone-country-name-without-dial-code": {Want: "United Kingdom", Run: func(c probe.Client) string {
		return fmt.Sprint(probe.Obj(probe.Obj(c.PutUser(probe.Key, nil).Body)["phoneCountry"])["name"])
	}},
	"user-id-as-string": {Want: "string", Run: func(c probe.Client) string {
		return fmt.Sprintf("%T", probe.Obj(c.PutUser(probe.Key, nil).Body)["id"])
	}},
	"user-answer-wrapped": {Want: "true", Run: func(c probe.Client) string {
		_, ok := probe.Obj(c.PutUser(probe.Key, nil).Body)["user"]
		return fmt.Sprint(ok)
	}},
	"terms-unchecked-in-user-client": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"client": probe.ClientBody(map[string]any{"terms": "no"})}))
	}},
	"user-client-errors-ignored": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"client": map[string]any{}}))
	}},
	"user-client-not-created": {Want: "200 1", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"client": probe.ClientBody(nil)})
		return fmt.Sprint(r.Status, " ", c.Clients())
	}},
	"legal-extra-user-field": {Want: "200 en-GB", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, nil)
		return fmt.Sprint(r.Status, " ", probe.Obj(r.Body)["locale"])
	}},
	"users-password-five-characters": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"password": "abcde"}))
	}},
	"users-empty-password-keeps": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"password": ""}))
	}},
	"users-refused-email-stored": {Want: "400 200", Run: func(c probe.Client) string {
		r := c.PutUser(probe.Key, map[string]any{"email": "moved@example.com", "firstName": ""})
		st, _ := c.Login("moved@example.com", probe.PasswordA)
		return fmt.Sprint(r.Status, " ", st)
	}},
	"users-last-name-code-case": {Want: "400 lastName InvalidLastname", Run: func(c probe.Client) string {
		return probe.ErrorOf(c.PutUser(probe.Key, map[string]any{"lastName": ""}))
	}},
	"users-first-name-truncated": {Want: "200", Run: func(c probe.Client) string {
		return probe.Status(c.PutUser(probe.Key, map[string]any{"firstName": strings.Repeat("f", 256)}))
	}},
}
